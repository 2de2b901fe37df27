/// v2 `oauthIdpConfigs` and `inboundSamlConfigs` (project and tenant forms).
enum IdpConfigRoutes {
    static let routes: [Route] = []
}
