import HTML

/// The console's page chrome: the project and tenant, loudly; the sections; the project switcher;
/// the flash message a post left in the query; one small stylesheet that reads on a phone too.
enum ConsoleLayout {
    enum Section: String, CaseIterable {
        case users = "Users"
        case outbox = "Outbox"
        case providers = "Providers & relay"
        case clock = "Clock"

        var path: String {
            switch self {
            case .users: "/users"
            case .outbox: "/outbox"
            case .providers: "/providers"
            case .clock: "/clock"
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
    static func details(_ pairs: [(String, HTML?)]) -> HTML {
        let items = HTML.joined(pairs.map { pair -> HTML in
            "<dt>\(pair.0)</dt><dd>\(pair.1 ?? "<span class=\"muted\">—</span>")</dd>"
        })
        return "<dl class=\"details\">\(items)</dl>"
    }

    static func text(_ value: String?) -> HTML? { value.map { "\($0)" } }

    static func instant(_ value: Instant?) -> HTML? {
        value.map { "<time datetime=\"\($0.rfc3339)\">\($0.rfc3339)</time>" }
    }

    static let style: HTML = """
        :root{--ink:#1b1f24;--muted:#5b6470;--line:#d8dde3;--bg:#f6f7f9;--accent:#1a73e8;--bad:#b3261e;--ok:#1e7b34}
        *{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,sans-serif;margin:0;background:var(--bg);color:var(--ink)}
        header{background:#20242b;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
        .project{font-size:1.05rem}.project .label{color:#b9c0ca;font-size:.85rem}
        #project-id{background:#ffcc00;color:#000;padding:.1rem .5rem;border-radius:4px;font-size:1.2rem;letter-spacing:.02em}
        .tenant strong{background:#8ab4f8;color:#000;padding:.05rem .4rem;border-radius:4px}.warn{color:#ffb4a9;font-size:.85rem}
        nav{display:flex;flex-wrap:wrap;gap:.25rem}nav a{color:#dfe3e8;text-decoration:none;padding:.3rem .6rem;border-radius:4px}
        nav a[aria-current]{background:#3b4250;color:#fff}nav a:hover{background:#30353f}
        form.switch{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin-left:auto;font-size:.85rem}
        form.switch input{padding:.2rem .35rem;border:1px solid #555;border-radius:4px;background:#2b3038;color:#fff}
        form.switch button{padding:.2rem .6rem}
        main{max-width:72rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;margin:.4rem 0 .8rem}h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
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
        button.danger{color:var(--bad);border-color:#e4a19b}form.inline{display:inline}
        .actions{display:flex;flex-wrap:wrap;gap:.4rem;margin:.75rem 0}.toolbar{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0 1rem}
        .toolbar label{flex:1 1 12rem}.badge{display:inline-block;padding:.05rem .45rem;border-radius:9px;font-size:.8rem;background:#eef1f4}
        .badge.relayed,.badge.delivered,.badge.active{background:#e6f4ea;color:var(--ok)}.badge.bounced,.badge.disabled{background:#fce8e6;color:var(--bad)}
        .pager{display:flex;gap:1rem;margin:.75rem 0}iframe.mail{width:100%;min-height:28rem;border:1px solid var(--line);border-radius:6px;background:#fff}
        textarea.token{min-height:6rem}a{color:var(--accent)}
        a.button{display:inline-block;padding:.35rem .8rem;border-radius:4px;text-decoration:none;border:1px solid var(--accent)}
        #project-id{white-space:nowrap}
        @media (max-width:40rem){main{padding:.6rem}.scroll td{white-space:nowrap;word-break:normal}form.switch{margin-left:0}dl.details{grid-template-columns:1fr}dl.details dt{margin-top:.4rem}}
        """
}
