/// Tenants, project config (v2), password policy and reCAPTCHA config routes.
enum TenantRoutes {
    private static let v2 = "identitytoolkit.googleapis.com/v2"
    private static let tenants = "\(v2)/projects/{targetProjectId}/tenants"

    static let routes: [Route] = [
        Route("GET", "\(v2)/passwordPolicy", Operation(
            "identitytoolkit.getPasswordPolicy", .apiKeyOrOwner, ClientConfigOperations.passwordPolicy)),
        Route("GET", "\(v2)/recaptchaConfig", Operation(
            "identitytoolkit.getRecaptchaConfig", .apiKeyOrOwner, ClientConfigOperations.recaptchaConfig)),
        // Test phone numbers are keys such as "+15555550100": the body keeps its keys as sent.
        Route("GET", "\(v2)/projects/{targetProjectId}/config", Operation(
            "identitytoolkit.projects.getConfig", .apiKeyOrOwner, ProjectConfigOperations.get)),
        Route("PATCH", "\(v2)/projects/{targetProjectId}/config", Operation(
            "identitytoolkit.projects.updateConfig", .apiKeyOrOwner, ProjectConfigOperations.patch).keepingBodyKeys()),
        Route("GET", tenants, Operation("identitytoolkit.projects.tenants.list", .apiKeyOrOwner, TenantOperations.list)),
        Route("POST", tenants, Operation(
            "identitytoolkit.projects.tenants.create", .apiKeyOrOwner, TenantOperations.create).keepingBodyKeys()),
        Route("GET", "\(tenants)/{tenantId}", Operation("identitytoolkit.projects.tenants.get", .apiKeyOrOwner, TenantOperations.get)),
        Route("PATCH", "\(tenants)/{tenantId}", Operation(
            "identitytoolkit.projects.tenants.patch", .apiKeyOrOwner, TenantOperations.patch).keepingBodyKeys()),
        Route("DELETE", "\(tenants)/{tenantId}", Operation(
            "identitytoolkit.projects.tenants.delete", .apiKeyOrOwner, TenantOperations.delete)),
    ]
}
