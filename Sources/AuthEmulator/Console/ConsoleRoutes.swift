/// The console's pages under `/emulator/ui` (DESIGN §3): server-rendered HTML whose forms post
/// and redirect.
enum ConsoleRoutes {
    static let routes: [Route] = []
}
