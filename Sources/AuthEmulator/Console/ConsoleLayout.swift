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

    /// A whole console page: the header (project, tenant, sections, the project switch), the
    /// flash message a post left in the query, `content` under the `title` (or `heading`, the
    /// title with markup, such as an address that may break before its @).
    static func page(
        _ context: ConsoleContext, _ section: Section, title: String, heading: HTML? = nil, _ content: HTML, status: Int = 200
    ) -> OperationResult {
        let scope = context.scope
        let nav = HTML.joined(Section.allCases.map { item -> HTML in
            let current: HTML = item == section ? " aria-current=\"page\"" : ""
            return "<a href=\"\(context.link(item.path))\"\(current)>\(item.rawValue)</a>"
        })
        let tenant: HTML = scope.tenantId.map { "<span class=\"tenant\"><span class=\"word\">tenant</span> <strong title=\"\($0)\">\($0)</strong></span>" } ?? ""
        let other: HTML = context.isDefaultProject
            ? ""
            : "<span class=\"warn\">not the emulator's project (\(context.environment.defaultProjectId))</span>"
        var flash: HTML = ""
        if let message = context.query("flash") { flash = "<p class=\"flash ok\" role=\"status\">\(message)</p>" }
        if let message = context.query("error") { flash = flash + "<p class=\"flash bad\" role=\"alert\">\(message)</p>" }
        // The switch folds away on a phone (a `<details>`, no script); wide screens show it open.
        let body: HTML = """
            <header>
            <div class="project"><span class="label">Auth Emulator · project</span> <strong id="project-id">\(scope.projectId)</strong> \(tenant) \(other)</div>
            <nav>\(nav)</nav>
            <details class="switch"><summary>Switch<span class="word"> project</span></summary>
            <form method="get" action="\(ConsoleContext.base + section.path)">
            <label>Project <input name="project" value="\(scope.projectId)" size="16"></label>
            <label>Tenant <input name="tenant" value="\(scope.tenantId)" size="10" placeholder="(none)"></label>
            <button type="submit">Switch</button>
            </form></details>
            </header>
            <main class="\(section.path.dropFirst())">\(flash)<h1>\(heading ?? "\(title)")</h1>\(content)</main>
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

    /// A time for a list: `2026-12-01 19:56:15` (or to the minute), which never wraps; the exact
    /// instant in its title.
    static func shortTime(_ value: Instant, seconds: Bool = true) -> HTML {
        let text = value.rfc3339
        let short = text.prefix(seconds ? 19 : 16).replacingEvery("T", with: " ")
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

    /// An email address that may break before its `@` on a narrow screen, never inside a word
    /// (a relay address is one long word).
    static func address(_ text: String) -> HTML {
        guard let at = text.firstIndex(of: "@"), at != text.startIndex else { return "<span class=\"addr\">\(text)</span>" }
        return "<span class=\"addr\">\(text[..<at])<wbr>\(text[at...])</span>"
    }

    /// A code, uid or key id: on one line, scrolled sideways rather than broken where it does not fit.
    static func token(_ text: String) -> HTML { "<code class=\"token\">\(text)</code>" }

    /// A URL as text that breaks after its `/`, `?` and `&` on a narrow screen.
    static func urlText(_ url: String) -> HTML {
        var pieces: [HTML] = []
        var piece = ""
        for character in url {
            piece.append(character)
            if character == "/" || character == "?" || character == "&" {
                pieces.append("\(piece)<wbr>")
                piece = ""
            }
        }
        pieces.append("\(piece)")
        return "<span class=\"url\">\(HTML.joined(pieces))</span>"
    }

    /// A button that copies the value of the element `targetId`; hidden until the script shows it,
    /// so a page without JavaScript offers only the text to select.
    static func copyButton(_ targetId: String) -> HTML {
        "<button type=\"button\" class=\"copy\" data-copy=\"\(targetId)\" hidden>Copy</button>"
    }

    /// The console's one script, progressive enhancement only: copy buttons; the outbox's chosen
    /// message swapped into its pane on a wide screen (with the address kept in the history) rather
    /// than a page load; and a live region
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
        var box=document.querySelector('.mailbox'),wide=window.matchMedia&&matchMedia('(min-width:64.01rem)');
        if(box&&wide&&window.fetch&&window.DOMParser&&history.pushState){
        function show(url,push){return fetch(url,{headers:{Accept:'text/html'}}).then(function(r){return r.text()}).then(function(text){
        var doc=new DOMParser().parseFromString(text,'text/html'),pane=doc.getElementById('message-pane'),next=doc.querySelector('.mailbox');
        if(!pane||!next){location.href=url;return}
        document.getElementById('message-pane').replaceWith(pane);box.className=next.className;document.title=doc.title;
        document.querySelectorAll('ol.inbox li').forEach(function(li){if(li.dataset.id===pane.dataset.id){li.setAttribute('aria-current','true')}else{li.removeAttribute('aria-current')}});
        if(push)history.pushState(null,'',url)})}
        box.addEventListener('click',function(e){var a=e.target.closest('a.mail,#message-pane nav.tabs a');
        if(!a||!wide.matches||e.button!==0||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey)return;e.preventDefault();show(a.href,true)});
        window.addEventListener('popstate',function(){show(location.href,false)})}
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
        header{background:#20242b;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.4rem 1.5rem;align-items:center}
        .project{font-size:1.05rem}.project .label{color:#b9c0ca;font-size:.85rem}
        #project-id{background:#ffcc00;color:#000;padding:.1rem .5rem;border-radius:4px;font-size:1.2rem;letter-spacing:.02em;white-space:nowrap}
        .tenant strong{background:#8ab4f8;color:#000;padding:.05rem .4rem;border-radius:4px}.warn{color:#ffb4a9;font-size:.85rem}
        header nav{display:flex;gap:.25rem}header nav a{color:#dfe3e8;text-decoration:none;padding:.3rem .6rem;border-radius:4px;white-space:nowrap}
        header nav a[aria-current]{background:#3b4250;color:#fff}header nav a:hover{background:#30353f}
        details.switch{margin-left:auto;font-size:.85rem}details.switch summary{cursor:pointer;color:#dfe3e8;padding:.3rem .2rem}
        details.switch form{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
        details.switch label{display:flex;gap:.3rem;align-items:center}
        details.switch input{padding:.2rem .35rem;border:1px solid #555;border-radius:4px;background:#2b3038;color:#fff;width:9rem}
        details.switch input[name=tenant]{width:6rem}details.switch button{padding:.2rem .6rem}
        @supports selector(::details-content){@media (min-width:64rem){details.switch summary{display:none}
        details.switch::details-content{content-visibility:visible;display:contents}}}
        main{max-width:104rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;margin:.4rem 0 .8rem;overflow-wrap:break-word}h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
        main.settings,main.clock,main.providers{max-width:84rem}
        .flash{padding:.5rem .75rem;border-radius:6px;border:1px solid}.ok{background:#e6f4ea;border-color:#9ccfa8}
        .bad{background:#fce8e6;border-color:#f1a9a0}
        .form-error{margin:0 0 .6rem;padding:.45rem .7rem;border-radius:6px;background:#fce8e6;border:1px solid #f1a9a0;color:var(--bad)}
        .field-error{display:block;color:var(--bad);font-size:.85rem;margin-top:.2rem}.error-code{color:var(--muted);font-size:.75rem}
        label.invalid input,label.invalid textarea,label.invalid select{border-color:var(--bad);outline:1px solid var(--bad)}
        .scroll{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:6px}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
        th{background:#eef1f4;font-weight:600;font-size:.85rem;white-space:nowrap}tr:last-child td{border-bottom:0}
        td{overflow-wrap:break-word}.mono,code,pre,textarea.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}
        pre{background:#fff;border:1px solid var(--line);border-radius:6px;padding:.6rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:break-word}
        code.token{display:inline-block;max-width:100%;overflow-x:auto;white-space:nowrap;vertical-align:bottom}
        .url{overflow-wrap:anywhere}
        .muted,.empty{color:var(--muted)}
        dl.details{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.3rem 1rem;background:#fff;border:1px solid var(--line);border-radius:6px;padding:.75rem;margin:0}
        dl.details dt{color:var(--muted)}dl.details dd{margin:0;min-width:0;overflow-wrap:break-word}
        .card{background:#fff;border:1px solid var(--line);border-radius:6px;padding:.75rem;margin:.75rem 0}
        .grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:.5rem 1rem}
        label{display:block}label.check{display:flex;gap:.4rem;align-items:center;margin:.3rem 0}
        input[type=text],input[type=email],input[type=password],input[type=tel],input[type=number],input[type=search],input[type=url],
        input[type=datetime-local],select,textarea{font:inherit;width:100%;padding:.35rem .45rem;border:1px solid #b9c0ca;border-radius:4px;background:#fff}
        button{font:inherit;padding:.35rem .8rem;border-radius:4px;border:1px solid #9aa3ad;background:#fff;cursor:pointer}
        button[type=submit].primary,.primary{background:var(--accent);border-color:var(--accent);color:#fff}
        button.danger,a.button.danger{color:var(--bad);border-color:#e4a19b;background:#fff}form.inline{display:inline}
        .actions{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.75rem 0}
        .toolbar{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0 1rem}.toolbar label{flex:1 1 12rem}
        .badge{display:inline-block;padding:.05rem .45rem;border-radius:9px;font-size:.8rem;background:#eef1f4;white-space:nowrap;
        max-width:100%;overflow:hidden;text-overflow:ellipsis;vertical-align:middle}
        .badge.relayed,.badge.delivered,.badge.active{background:#e6f4ea;color:var(--ok)}.badge.bounced,.badge.disabled{background:#fce8e6;color:var(--bad)}
        .badge.type{background:#e8eefc;color:#1d3f8f}.badge.tenant{background:#efe6fb;color:#4a2a82}
        .pager{display:flex;gap:1rem;margin:.75rem 0}
        textarea.token{min-height:6rem}a{color:var(--accent)}
        a.button{display:inline-block;padding:.35rem .8rem;border-radius:4px;text-decoration:none;border:1px solid var(--accent)}
        .nowrap,time,.provider{white-space:nowrap}
        .tabs{display:flex;flex-wrap:wrap;gap:.25rem;border-bottom:1px solid var(--line);margin:.5rem 0 .75rem}
        .tabs a{padding:.35rem .75rem;text-decoration:none;border:1px solid transparent;border-bottom:0;border-radius:6px 6px 0 0;color:var(--ink)}
        .tabs a[aria-current]{background:#fff;border-color:var(--line);margin-bottom:-1px;font-weight:600}
        .tabs .count{display:inline-block;min-width:1.4rem;text-align:center;margin-left:.3rem;padding:0 .35rem;border-radius:9px;background:#eef1f4;font-size:.8rem}
        .mailbox.open{display:grid;grid-template-columns:minmax(20rem,2fr) minmax(0,3fr);gap:1rem;align-items:start}
        .mailbox .back{display:none}
        #message-pane{min-width:0}.mailbox.open #message-pane{position:sticky;top:0;max-height:100vh;overflow:auto;padding:0 .25rem .5rem 0}#message-pane>h2:first-child{margin-top:.4rem;font-size:1.25rem;overflow-wrap:break-word}
        ol.inbox{list-style:none;margin:0;padding:0;background:#fff;border:1px solid var(--line);border-radius:6px}
        ol.inbox li{display:flex;border-bottom:1px solid var(--line)}ol.inbox li:last-child{border-bottom:0}
        ol.inbox li[aria-current]{background:#e8f0fe;box-shadow:inset 3px 0 var(--accent)}
        ol.inbox a.mail{display:block;flex:1 1 auto;padding:.5rem .75rem;color:inherit;text-decoration:none;min-width:0}ol.inbox a.mail:hover{background:#f3f6fb}
        .row-actions{display:flex;flex-direction:column;gap:.3rem;align-items:stretch;padding:.5rem .6rem .5rem 0;font-size:.8rem}
        .row-actions a,.row-actions button{font-size:.8rem;padding:.1rem .45rem;text-align:center;border:1px solid var(--line);border-radius:4px;text-decoration:none;background:#fff}
        .row-actions button{color:var(--bad)}
        .mail .line{display:flex;gap:.5rem;align-items:baseline;min-width:0}.mail .who{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;flex:1 1 auto;min-width:0}
        .mail .line.about{flex-wrap:wrap;row-gap:.15rem}.mail .subject{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;flex:1 1 14rem;min-width:0}
        .mail .from,.mail .preview{color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:.85rem}
        .mail .reason{color:var(--bad);font-size:.85rem;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}.mail time{color:var(--muted);font-size:.85rem}.mail .relay{white-space:nowrap}
        .clip{font-size:.8rem;color:var(--muted);white-space:nowrap}.paperclip{vertical-align:-1px}
        .never-received{border:1px solid #f1a9a0;background:#fce8e6;color:var(--bad);border-radius:6px;padding:.5rem .75rem;margin:0 0 .75rem}
        .dead-link{color:var(--muted);text-decoration:line-through}
        iframe.mail{display:block;width:100%;border:1px solid var(--line);border-radius:6px;background:#fff;resize:vertical;overflow:auto}
        ul.files{list-style:none;margin:0;padding:0}ul.files li{margin:0 0 .15rem}
        .provider{display:inline-flex;align-items:center;gap:.25rem;margin:0 .4rem .15rem 0;font-size:.85rem}
        .provider .mark{display:inline-grid;place-items:center;width:1.15rem;height:1.15rem;border-radius:50%;font-size:.7rem;font-weight:700;color:#fff;background:#6b7380}
        .provider.apple .mark{background:#000}.provider.google .mark{background:#db4437}.provider.facebook .mark{background:#1877f2}
        .provider.yahoo .mark{background:#6001d2}.provider.password .mark{background:#1e7b34}.provider.phone .mark{background:#b26a00}
        .subnav{display:flex;flex-wrap:wrap;gap:.4rem;margin:0 0 1rem;position:sticky;top:0;background:var(--bg);padding:.4rem 0;z-index:1}
        .subnav a{padding:.25rem .6rem;border:1px solid var(--line);border-radius:14px;background:#fff;text-decoration:none}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,32rem),1fr));gap:0 1rem}
        .cards>*{min-width:0}section[id]{scroll-margin-top:3rem}
        .copyable{display:flex;gap:.4rem;align-items:flex-start;margin:.15rem 0 .6rem}.copyable>:first-child{flex:1 1 auto;min-width:0}
        pre.claims{margin:.25rem 0 .75rem}.split{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,20rem),1fr));gap:0 1rem}
        .relay{font-size:.85rem;color:var(--muted)}.card>h2:first-child,.card>h3:first-child,.card>p:first-of-type{margin-top:0}h3 .provider{font-size:1rem}
        .clock-offset{font-size:1.3rem;font-weight:600}
        .users td{white-space:nowrap;padding:.4rem .5rem}.users td.uid{font-size:.8rem}.users td.when{font-size:.85rem}
        .users td.providers{white-space:normal}.users .cut{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .users td.uid .cut{max-width:11rem}.users .email-address{max-width:19.5rem}.users td.name .cut{max-width:11rem}
        .users .relay{white-space:normal;max-width:19.5rem}
        @media (min-width:100rem){.users td.uid .cut{max-width:none}.users .email-address,.users .relay{max-width:28rem}.users td.name .cut{max-width:18rem}}
        fieldset.for{border:0;margin:0;padding:0;min-width:0}
        form.new-user:has(select[name=provider] option[value=password]:checked) .for:not(.password),
        form.new-user:has(select[name=provider] option[value=phone]:checked) .for:not(.phone),
        form.new-user:has(select[name=provider] option[value=anonymous]:checked) .for:not(.anonymous),
        form.new-user:has(select[name=provider] option[data-federated]:checked) .for:not(.federated),
        form.new-user:has(select[name=provider] option:not([value="apple.com"]):checked) .for.apple-only,
        form.new-user:has(select[name=provider] option:not([value=other]):checked) .for.other-only{display:none}
        th[scope=row]{width:1%;background:#f6f7f9}label.setting{align-items:flex-start;margin:.3rem 0}label.setting input{margin-top:.3rem}
        label.setting code{display:block;color:var(--muted);word-break:break-all}
        @media (max-width:64rem){.mailbox.open{display:block}.mailbox.open #inbox{display:none}.mailbox .back{display:inline-block;margin:.25rem 0}
        main:has(.mailbox.open)>form.toolbar{display:none}.mailbox.open #message-pane{position:static;max-height:none}}
        @media (max-width:40rem){header{padding:.35rem .6rem;gap:.2rem .5rem}.project .label,header .word{display:none}#project-id{font-size:1.05rem}
        .tenant strong{display:inline-block;max-width:6rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
        header nav{order:3;flex:1 0 100%;overflow-x:auto;margin:0 -.3rem;gap:0}header nav a{padding:.25rem .45rem;font-size:.92rem}
        details.switch[open]{flex:1 0 100%;order:4}details.switch[open] form{margin:.2rem 0 .3rem}
        main{padding:.6rem}.toolbar label{flex-basis:9rem}
        ol.inbox li{flex-wrap:wrap}.row-actions{flex:1 0 100%;flex-direction:row;justify-content:flex-end;padding:0 .6rem .45rem}dl.details{grid-template-columns:minmax(0,1fr);gap:.1rem}dl.details dt{margin-top:.4rem}
        dl.details.compact{grid-template-columns:max-content minmax(0,1fr);gap:.25rem .75rem}dl.details.compact dt{margin-top:0}
        .users thead{display:none}.users table,.users tbody,.users tr,.users td{display:block;width:100%}
        .users tr{border-bottom:1px solid var(--line);padding:.45rem .6rem}.users tr:last-child{border-bottom:0}
        .users td{border:0;padding:.05rem 0}.users td:empty{display:none}.users .cut,.users .email-address,.users .relay{max-width:100%}
        .users td .cut{display:inline-block;vertical-align:bottom;max-width:calc(100% - 6.5rem)}
        .users td[data-label]::before{content:attr(data-label);color:var(--muted);font-size:.8rem;display:inline-block;min-width:6.5rem}}
        """
}
