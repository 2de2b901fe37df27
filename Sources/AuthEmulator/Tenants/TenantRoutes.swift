/// Tenants, project config (v2), password policy and reCAPTCHA config routes.
enum TenantRoutes {
    static let routes: [Route] = []
}
