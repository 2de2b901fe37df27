/// `accounts:batchCreate` (project and tenant forms) and other import routes.
enum ImportExportRoutes {
    private static let v1 = "identitytoolkit.googleapis.com/v1"
    private static let batchCreate = Operation("identitytoolkit.projects.accounts.batchCreate", .apiKeyOrOwner, BatchCreate.run)

    static let routes: [Route] = [
        Route("POST", "\(v1)/projects/{targetProjectId}/accounts:batchCreate", batchCreate),
        Route("POST", "\(v1)/projects/{targetProjectId}/tenants/{tenantId}/accounts:batchCreate", batchCreate),
    ]
}
