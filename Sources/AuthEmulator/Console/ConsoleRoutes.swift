import HTML

/// The console's pages under `/emulator/ui` (DESIGN §3): server-rendered HTML whose forms post
/// and redirect. Every page takes `?project=…&tenant=…` (the emulator's project by default);
/// every post is checked for its origin and CSRF token (`ConsoleSecurity`).
enum ConsoleRoutes {
    static let base = "emulator/ui"

    private static func page(_ id: String, _ handler: @escaping Operation.Handler) -> Operation {
        Operation("emulator.ui.\(id)", .open, result: handler).rendering(errorsAs: .html)
    }

    private static func form(_ id: String, _ handler: @escaping Operation.Handler) -> Operation {
        page(id, handler).keepingBodyKeys()
    }

    /// A console path no route serves: the console's own page, with its navigation, saying so.
    static let missingPageId = "emulator.ui.notFound"

    static func missingPage(_ miss: RouteMiss) -> Operation {
        Operation(missingPageId, .open, result: { request in
            let content: HTML = "<p class=\"flash bad\" role=\"alert\">\(miss.error.message)</p><p>The sections above are the console's pages.</p>"
            return ConsoleLayout.page(ConsoleContext(request), .users, title: "No such page", content, status: miss.error.httpStatus)
        }).rendering(errorsAs: .html)
    }

    static let routes: [Route] = [
        Route("GET", base, page("users", ConsoleUserPages.list)),
        Route("GET", "\(base)/", page("users", ConsoleUserPages.list)),
        Route("GET", "\(base)/users", page("users", ConsoleUserPages.list)),
        Route("POST", "\(base)/users", form("users.action", ConsoleUserPages.listAction)),
        Route("GET", "\(base)/users/delete-all", page("users.delete-all", ConsoleUserPages.confirmDeleteAll)),
        Route("GET", "\(base)/users/new", page("users.new", ConsoleUserPages.newUserForm)),
        Route("POST", "\(base)/users/new", form("users.create", ConsoleUserPages.create)),
        Route("GET", "\(base)/user", page("user", ConsoleUserPages.detail)),
        Route("POST", "\(base)/user", form("user.action", ConsoleUserPages.userAction)),
        Route("GET", "\(base)/outbox", page("outbox", ConsoleOutboxPages.list)),
        Route("POST", "\(base)/outbox", form("outbox.action", ConsoleOutboxPages.listAction)),
        Route("GET", "\(base)/outbox/changes", page("outbox.changes", ConsoleOutboxPages.changes)),
        Route("GET", "\(base)/message", page("message", ConsoleOutboxPages.message)),
        Route("GET", "\(base)/attachment", page("attachment", ConsoleOutboxPages.attachment)),
        Route("GET", "\(base)/providers", page("providers", ConsoleProviderPages.show)),
        Route("POST", "\(base)/providers", form("providers.action", ConsoleProviderPages.action)),
        Route("POST", "\(base)/providers/mint", form("providers.mint", ConsoleProviderPages.mint)),
        Route("GET", "\(base)/clock", page("clock", ConsoleClockPage.show)),
        Route("POST", "\(base)/clock", form("clock.advance", ConsoleClockPage.advance)),
        Route("GET", "\(base)/settings", page("settings", ConsoleSettingsPage.show)),
        Route("POST", "\(base)/settings", form("settings.action", ConsoleSettingsPage.action)),
    ]
}
