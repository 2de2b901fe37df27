/// `accounts:batchCreate` (project and tenant forms) and other import routes.
enum ImportExportRoutes {
    static let routes: [Route] = []
}
