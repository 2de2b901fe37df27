import HTML

/// The console's page chrome: the project and tenant, loudly; the sections; the project switcher;
/// the flash message a post left in the query; one small stylesheet that reads on a phone too.
enum ConsoleLayout {
    enum Section: String, CaseIterable {
        case users = "Users"
        case outbox = "Outbox"
        case providers = "Providers & relay"
        case clock = "Clock"
        case settings = "Settings"

        var path: String {
            switch self {
            case .users: "/users"
            case .outbox: "/outbox"
            case .providers: "/providers"
            case .clock: "/clock"
            case .settings: "/settings"
            }
        }
    }

    static func page(_ context: ConsoleContext, _ section: Section, title: String, _ content: HTML, status: Int = 200) -> OperationResult {
        let scope = context.scope
        let nav = HTML.joined(Section.allCases.map { item -> HTML in
            let current: HTML = item == section ? " aria-current=\"page\"" : ""
            return "<a href=\"\(context.link(item.path))\"\(current)>\(item.rawValue)</a>"
        })
        let tenant: HTML = scope.tenantId.map { "<span class=\"tenant\">tenant <strong>\($0)</strong></span>" } ?? ""
        let other: HTML = context.isDefaultProject
            ? ""
            : "<span class=\"warn\">not the emulator's project (\(context.environment.defaultProjectId))</span>"
        var flash: HTML = ""
        if let message = context.query("flash") { flash = "<p class=\"flash ok\" role=\"status\">\(message)</p>" }
        if let message = context.query("error") { flash = flash + "<p class=\"flash bad\" role=\"alert\">\(message)</p>" }
        let body: HTML = """
            <header>
            <div class="project"><span class="label">Auth Emulator · project</span> <strong id="project-id">\(scope.projectId)</strong> \(tenant) \(other)</div>
            <nav>\(nav)</nav>
            <form method="get" action="\(ConsoleContext.base + section.path)" class="switch">
            <label>Project <input name="project" value="\(scope.projectId)" size="16"></label>
            <label>Tenant <input name="tenant" value="\(scope.tenantId)" size="10" placeholder="(none)"></label>
            <button type="submit">Switch</button>
            </form>
            </header>
            <main>\(flash)<h1>\(title)</h1>\(content)</main>
            <script>\(script)</script>
            """
        return .html(HTML.page(title: "\(title) · \(scope.projectId) · Auth Emulator", style: style, body: body), status: status)
    }

    /// A table that scrolls sideways on a narrow screen rather than squeezing.
    static func table(_ headings: [String], _ rows: [HTML], empty: String) -> HTML {
        guard !rows.isEmpty else { return "<p class=\"empty\">\(empty)</p>" }
        let head = HTML.joined(headings.map { "<th>\($0)</th>" })
        return "<div class=\"scroll\"><table><thead><tr>\(head)</tr></thead><tbody>\(rows)</tbody></table></div>"
    }

    /// `<dl>` of label and value pairs; a nil value shows as a dash.
    /// `compact` keeps label and value side by side on a phone too (for short labels).
    static func details(_ pairs: [(String, HTML?)], compact: Bool = false) -> HTML {
        let items = HTML.joined(pairs.map { pair -> HTML in
            "<dt>\(pair.0)</dt><dd>\(pair.1 ?? "<span class=\"muted\">—</span>")</dd>"
        })
        return "<dl class=\"details\(compact ? " compact" : "")\">\(items)</dl>"
    }

    static func text(_ value: String?) -> HTML? { value.map { "\($0)" } }

    static func instant(_ value: Instant?) -> HTML? {
        value.map { "<time datetime=\"\($0.rfc3339)\">\($0.rfc3339)</time>" }
    }

    /// A time for a list: `2026-12-01 19:56:15`, which never wraps; the exact instant in its title.
    static func shortTime(_ value: Instant) -> HTML {
        let text = value.rfc3339
        let short = text.prefix(19).replacingEvery("T", with: " ")
        return "<time class=\"nowrap\" datetime=\"\(text)\" title=\"\(text)\">\(short)</time>"
    }

    /// A duration as a person says it: `6 h 35 min`, `2 d 3 h`, `42 s`, `0.5 s`.
    static func duration(milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        if seconds < 60 {
            guard milliseconds % 1000 != 0, seconds < 10 else { return "\(seconds) s" }
            return "\(Double(milliseconds) / 1000) s"
        }
        let (days, hours, minutes) = (seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60)
        if days > 0 { return hours == 0 ? "\(days) d" : "\(days) d \(hours) h" }
        if hours > 0 { return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min" }
        let rest = seconds % 60
        return rest == 0 ? "\(minutes) min" : "\(minutes) min \(rest) s"
    }

    /// A badge (a status, a type, a provider): one line, never broken inside a word.
    static func badge(_ text: String, kind: String? = nil) -> HTML {
        let kindClass: HTML = kind.map { " \($0)" } ?? ""
        return "<span class=\"badge\(kindClass)\">\(text)</span>"
    }

    /// A provider as a small coloured mark and its id, e.g. ` apple.com`.
    static func provider(_ providerId: String) -> HTML {
        let (mark, kind): (String, String) = switch providerId {
        case "apple.com": ("A", "apple")
        case "gc.apple.com": ("\u{25C6}", "gamecenter")  // ◆: Game Center's own mark is a set of bubbles
        case "google.com": ("G", "google")
        case "facebook.com": ("f", "facebook")
        case "yahoo.com": ("Y", "yahoo")
        case "password": ("@", "password")
        case "phone": ("#", "phone")
        case "anonymous": ("?", "anonymous")
        default: (String(providerId.prefix(1)).uppercased(), "other")
        }
        return "<span class=\"provider \(kind)\" title=\"\(providerId)\"><span class=\"mark\" aria-hidden=\"true\">\(mark)</span>\(providerId)</span>"
    }

    /// A button that copies the value of the element `targetId`; hidden until the script shows it,
    /// so a page without JavaScript offers only the text to select.
    static func copyButton(_ targetId: String) -> HTML {
        "<button type=\"button\" class=\"copy\" data-copy=\"\(targetId)\" hidden>Copy</button>"
    }

    /// The console's one script, progressive enhancement only: copy buttons, and a live region
    /// (`data-live-key`) that asks `data-live-src` to answer once the key is out of date (a
    /// suspended long poll, so no HTTP worker waits on the tab), then fetches this page again
    /// and swaps the region in. Every page works without it.
    static let script: HTML = """
        (function(){
        document.querySelectorAll('button[data-copy]').forEach(function(b){b.hidden=false;b.addEventListener('click',function(){
        var t=document.getElementById(b.dataset.copy);if(!t)return;var v=t.value!==undefined?t.value:t.textContent;
        function done(){b.textContent='Copied';setTimeout(function(){b.textContent='Copy'},1500)}
        if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(v).then(done)}else{
        if(t.select){t.select()}document.execCommand('copy');done()}})});
        var live=document.querySelector('[data-live-key]');if(!live||!window.fetch||!window.DOMParser)return;
        var note=document.getElementById('live-note');if(note){note.hidden=false}
        function refresh(){return fetch(location.href,{headers:{Accept:'text/html'}}).then(function(r){return r.text()}).then(function(text){
        var next=new DOMParser().parseFromString(text,'text/html').querySelector('[data-live-key]');
        if(next){live.replaceWith(next);live=next;var n=document.getElementById('live-note');if(n){n.hidden=false}}})}
        function watch(){var src=live.dataset.liveSrc;src+=(src.indexOf('?')<0?'?':'&')+'key='+encodeURIComponent(live.dataset.liveKey);
        fetch(src,{headers:{Accept:'application/json'}}).then(function(r){if(!r.ok)throw r;return r.json()}).then(function(a){
        return a.key!==live.dataset.liveKey?refresh():null}).then(function(){setTimeout(watch,300)},function(){setTimeout(watch,5000)})}
        watch();
        })();
        """

    static let style: HTML = """
        :root{--ink:#1b1f24;--muted:#5b6470;--line:#d8dde3;--bg:#f6f7f9;--accent:#1a73e8;--bad:#b3261e;--ok:#1e7b34}
        *{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,sans-serif;margin:0;background:var(--bg);color:var(--ink)}
        header{background:#20242b;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
        .project{font-size:1.05rem}.project .label{color:#b9c0ca;font-size:.85rem}
        #project-id{background:#ffcc00;color:#000;padding:.1rem .5rem;border-radius:4px;font-size:1.2rem;letter-spacing:.02em}
        .tenant strong{background:#8ab4f8;color:#000;padding:.05rem .4rem;border-radius:4px}.warn{color:#ffb4a9;font-size:.85rem}
        header nav{display:flex;flex-wrap:wrap;gap:.25rem}header nav a{color:#dfe3e8;text-decoration:none;padding:.3rem .6rem;border-radius:4px}
        header nav a[aria-current]{background:#3b4250;color:#fff}header nav a:hover{background:#30353f}
        form.switch{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin-left:auto;font-size:.85rem}
        form.switch input{padding:.2rem .35rem;border:1px solid #555;border-radius:4px;background:#2b3038;color:#fff}
        form.switch button{padding:.2rem .6rem}
        main{max-width:80rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;margin:.4rem 0 .8rem;overflow-wrap:anywhere}h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
        .flash{padding:.5rem .75rem;border-radius:6px;border:1px solid}.ok{background:#e6f4ea;border-color:#9ccfa8}
        .bad{background:#fce8e6;border-color:#f1a9a0}
        .scroll{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:6px}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
        th{background:#eef1f4;font-weight:600;font-size:.85rem;white-space:nowrap}tr:last-child td{border-bottom:0}
        td{word-break:break-word}.mono,code,pre,textarea.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}
        pre{background:#fff;border:1px solid var(--line);border-radius:6px;padding:.6rem;overflow-x:auto;white-space:pre-wrap;word-break:break-word}
        .muted,.empty{color:var(--muted)}
        dl.details{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;background:#fff;border:1px solid var(--line);border-radius:6px;padding:.75rem;margin:0}
        dl.details dt{color:var(--muted)}dl.details dd{margin:0;word-break:break-word}
        .card{background:#fff;border:1px solid var(--line);border-radius:6px;padding:.75rem;margin:.75rem 0}
        .grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:.5rem 1rem}
        label{display:block}label.check{display:flex;gap:.4rem;align-items:center}
        input[type=text],input[type=email],input[type=password],input[type=tel],input[type=number],input[type=search],input[type=url],select,textarea{
        font:inherit;width:100%;padding:.35rem .45rem;border:1px solid #b9c0ca;border-radius:4px;background:#fff}
        button{font:inherit;padding:.35rem .8rem;border-radius:4px;border:1px solid #9aa3ad;background:#fff;cursor:pointer}
        button[type=submit].primary,.primary{background:var(--accent);border-color:var(--accent);color:#fff}
        button.danger,a.button.danger{color:var(--bad);border-color:#e4a19b;background:#fff}form.inline{display:inline}
        .actions{display:flex;flex-wrap:wrap;gap:.4rem;margin:.75rem 0}.toolbar{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0 1rem}
        .toolbar label{flex:1 1 12rem}.badge{display:inline-block;padding:.05rem .45rem;border-radius:9px;font-size:.8rem;background:#eef1f4}
        .badge.relayed,.badge.delivered,.badge.active{background:#e6f4ea;color:var(--ok)}.badge.bounced,.badge.disabled{background:#fce8e6;color:var(--bad)}
        .pager{display:flex;gap:1rem;margin:.75rem 0}iframe.mail{width:100%;min-height:28rem;border:1px solid var(--line);border-radius:6px;background:#fff}
        textarea.token{min-height:6rem}a{color:var(--accent)}
        a.button{display:inline-block;padding:.35rem .8rem;border-radius:4px;text-decoration:none;border:1px solid var(--accent)}
        #project-id{white-space:nowrap}
        .nowrap,.badge,time,.provider{white-space:nowrap}.badge{word-break:normal}
        .badge.type{background:#e8eefc;color:#1d3f8f}.badge.tenant{background:#efe6fb;color:#4a2a82}
        .tabs{display:flex;flex-wrap:wrap;gap:.25rem;border-bottom:1px solid var(--line);margin:.5rem 0 .75rem}
        .tabs a{padding:.35rem .75rem;text-decoration:none;border:1px solid transparent;border-bottom:0;border-radius:6px 6px 0 0;color:var(--ink)}
        .tabs a[aria-current]{background:#fff;border-color:var(--line);margin-bottom:-1px;font-weight:600}
        .tabs .count{display:inline-block;min-width:1.4rem;text-align:center;margin-left:.3rem;padding:0 .35rem;border-radius:9px;background:#eef1f4;font-size:.8rem}
        ol.inbox{list-style:none;margin:0;padding:0;background:#fff;border:1px solid var(--line);border-radius:6px}
        ol.inbox li{border-bottom:1px solid var(--line)}ol.inbox li:last-child{border-bottom:0}
        ol.inbox a.mail{display:block;padding:.5rem .75rem;color:inherit;text-decoration:none;min-width:0}ol.inbox a.mail:hover{background:#f3f6fb}
        .mail .line{display:flex;gap:.5rem;align-items:baseline;min-width:0}.mail .who{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;flex:1 1 auto;min-width:0}
        .mail .line.about{flex-wrap:wrap;row-gap:.15rem}.mail .subject{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;flex:1 1 14rem;min-width:0}
        .badge{max-width:100%;overflow:hidden;text-overflow:ellipsis;vertical-align:middle}
        .mail .preview{color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:.9rem}
        .mail .reason{color:var(--bad);font-size:.85rem}.mail time{color:var(--muted);font-size:.85rem}
        .provider{display:inline-flex;align-items:center;gap:.25rem;margin:0 .4rem .15rem 0;font-size:.85rem}
        .provider .mark{display:inline-grid;place-items:center;width:1.15rem;height:1.15rem;border-radius:50%;font-size:.7rem;font-weight:700;color:#fff;background:#6b7380}
        .provider.apple .mark{background:#000}.provider.gamecenter .mark{background:#5e5ce6}.provider.google .mark{background:#db4437}.provider.facebook .mark{background:#1877f2}
        .provider.yahoo .mark{background:#6001d2}.provider.password .mark{background:#1e7b34}.provider.phone .mark{background:#b26a00}
        .subnav{display:flex;flex-wrap:wrap;gap:.4rem;margin:0 0 1rem;position:sticky;top:0;background:var(--bg);padding:.4rem 0;z-index:1}
        .subnav a{padding:.25rem .6rem;border:1px solid var(--line);border-radius:14px;background:#fff;text-decoration:none}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,32rem),1fr));gap:0 1rem}
        .cards>*{min-width:0}section[id]{scroll-margin-top:3rem}
        .copyable{display:flex;gap:.4rem;align-items:flex-start;margin:.15rem 0 .6rem}.copyable>:first-child{flex:1 1 auto;min-width:0}
        pre.claims{margin:.25rem 0 .75rem}.split{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,20rem),1fr));gap:0 1rem}
        .relay{font-size:.85rem;color:var(--muted)}.card>h2:first-child,.card>h3:first-child,.card>p:first-of-type{margin-top:0}h3 .provider{font-size:1rem}
        .clock-offset{font-size:1.3rem;font-weight:600}
        .users td{word-break:normal}.users td.uid{white-space:nowrap;font-size:.8rem}.users td.when{white-space:nowrap}
        @media (max-width:40rem){.users thead{display:none}.users table,.users tbody,.users tr,.users td{display:block;width:100%}
        .users tr{border-bottom:1px solid var(--line);padding:.45rem .6rem}.users tr:last-child{border-bottom:0}
        .users td,.users .scroll td{border:0;padding:.05rem 0;white-space:normal;overflow-wrap:anywhere}.users td:empty{display:none}
        .users td[data-label]::before{content:attr(data-label);color:var(--muted);font-size:.8rem;display:inline-block;min-width:6.5rem}}
        th[scope=row]{width:1%;background:#f6f7f9}label.setting{align-items:flex-start;margin:.3rem 0}label.setting input{margin-top:.3rem}
        label.setting code{display:block;color:var(--muted);word-break:break-all}
        @media (max-width:40rem){main{padding:.6rem}.scroll td{white-space:nowrap;word-break:normal}form.switch{margin-left:0}dl.details{grid-template-columns:1fr}dl.details dt{margin-top:.4rem}
        dl.details.compact{grid-template-columns:max-content minmax(0,1fr);gap:.25rem .75rem}dl.details.compact dt{margin-top:0}
        dl.details.compact dd{overflow-wrap:anywhere}}
        """
}
