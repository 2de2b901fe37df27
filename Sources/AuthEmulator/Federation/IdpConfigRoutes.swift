/// v2 `oauthIdpConfigs` and `inboundSamlConfigs` (project and tenant forms).
enum IdpConfigRoutes {
    private static let v2 = "identitytoolkit.googleapis.com/v2"

    static let routes: [Route] = ["\(v2)/projects/{targetProjectId}", "\(v2)/projects/{targetProjectId}/tenants/{tenantId}"]
        .flatMap { base in [IdpConfigKind.oidc, IdpConfigKind.saml].flatMap { routes(base, $0) } }

    private static func routes(_ base: String, _ kind: IdpConfigKind) -> [Route] {
        let configs = "\(base)/\(kind.collection)"
        let id = "identitytoolkit.projects.\(kind.collection)"
        return [
            Route("POST", configs, Operation("\(id).create", .apiKeyOrOwner, IdpConfigOperations.create(kind))),
            Route("GET", configs, Operation("\(id).list", .apiKeyOrOwner, IdpConfigOperations.list(kind))),
            Route("GET", "\(configs)/{idpId}", Operation("\(id).get", .apiKeyOrOwner, IdpConfigOperations.get(kind))),
            Route("PATCH", "\(configs)/{idpId}", Operation("\(id).patch", .apiKeyOrOwner, IdpConfigOperations.update(kind))),
            Route("DELETE", "\(configs)/{idpId}", Operation("\(id).delete", .apiKeyOrOwner, IdpConfigOperations.delete(kind))),
        ]
    }
}
