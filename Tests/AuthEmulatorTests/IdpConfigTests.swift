@testable import AuthEmulator
import JSON
import Testing

/// v2 `oauthIdpConfigs` and `inboundSamlConfigs`, project and tenant: CRUD, update masks, paging,
/// errors, and what an OIDC config means for sign-in.
@Suite struct IdpConfigTests {
    static let owner = [("Authorization", "Bearer owner")]

    static func base(tenant: String? = nil) -> String {
        "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)\(tenant.map { "/tenants/\($0)" } ?? "")"
    }

    static func name(_ collection: String, _ id: String, tenant: String? = nil) -> JSONValue {
        .string("projects/\(TestEmulator.project)\(tenant.map { "/tenants/\($0)" } ?? "")/\(collection)/\(id)")
    }

    static let saml: JSONObject = [
        "idpConfig": [
            "idpEntityId": "https://idp.example.com", "ssoUrl": "https://idp.example.com/sso",
            "idpCertificates": [["x509Certificate": "MIICERT"]],
        ],
        "spConfig": ["spEntityId": "urn:example:sp", "callbackUri": "https://example.firebaseapp.com/__/auth/handler"],
        "displayName": "Example SAML",
    ]

    @Test func oidcConfigsRoundTripWithMasks() throws {
        let emulator = try TestEmulator()
        let path = "\(Self.base())/oauthIdpConfigs"
        let created = try emulator.send(
            "POST", "\(path)?oauthIdpConfigId=oidc.example",
            json: ["clientId": "client-1", "issuer": "https://issuer.example.com", "displayName": "Example", "enabled": true],
            headers: Self.owner)
        #expect(created.status == 200)
        #expect(created.json == [
            "name": Self.name("oauthIdpConfigs", "oidc.example"), "clientId": "client-1", "issuer": "https://issuer.example.com",
            "displayName": "Example", "enabled": true, "responseType": ["idToken": true],
        ])
        #expect(try emulator.send("GET", "\(path)/oidc.example", headers: Self.owner).json == created.json)

        let patched = try emulator.send(
            "PATCH", "\(path)/oidc.example?updateMask=displayName,responseType.code,clientSecret",
            json: ["responseType": ["code": true], "clientSecret": "secret"], headers: Self.owner)
        #expect(patched.status == 200)
        #expect(patched["displayName"] == nil)
        #expect(patched["responseType"] == ["idToken": true, "code": true])
        #expect(patched["clientSecret"] == "secret")
        #expect(patched["clientId"] == "client-1")

        // Clearing the secret while the code flow is on is refused, and changes nothing.
        let refused = try emulator.send("PATCH", "\(path)/oidc.example?updateMask=clientSecret", json: [:], headers: Self.owner)
        #expect(refused.errorMessage == "MISSING_OAUTH_CLIENT_SECRET : The OAuth configuration client secret is required to enable OIDC code flow.")
        #expect(try emulator.send("GET", "\(path)/oidc.example", headers: Self.owner)["clientSecret"] == "secret")
        let unknown = try emulator.send("PATCH", "\(path)/oidc.example?updateMask=tenantId", json: [:], headers: Self.owner)
        #expect(unknown.errorMessage == "INVALID_ARGUMENT : updateMask names tenantId, which is not a field of OAuthIdpConfig.")

        #expect(try emulator.send("DELETE", "\(path)/oidc.example", headers: Self.owner).status == 200)
        let gone = try emulator.send("GET", "\(path)/oidc.example", headers: Self.owner)
        #expect(gone.status == 404)
        #expect(gone.errorMessage == "CONFIGURATION_NOT_FOUND : No provider config for oidc.example.")
        #expect(try emulator.send("DELETE", "\(path)/oidc.example", headers: Self.owner).status == 404)
    }

    @Test func samlConfigsRoundTripAndNestedMasksKeepTheRest() throws {
        let emulator = try TestEmulator()
        let path = "\(Self.base())/inboundSamlConfigs"
        let created = try emulator.send("POST", "\(path)?inboundSamlConfigId=saml.example", json: .object(Self.saml), headers: Self.owner)
        #expect(created.status == 200)
        #expect(created["name"] == Self.name("inboundSamlConfigs", "saml.example"))
        #expect(created["enabled"] == false)
        #expect(created["idpConfig"]?["idpCertificates"] == [["x509Certificate": "MIICERT"]])

        let patched = try emulator.send(
            "PATCH", "\(path)/saml.example?updateMask=idpConfig.ssoUrl,enabled",
            json: ["idpConfig": ["ssoUrl": "https://idp.example.com/sso2"], "enabled": true], headers: Self.owner)
        #expect(patched["idpConfig"]?["ssoUrl"] == "https://idp.example.com/sso2")
        #expect(patched["idpConfig"]?["idpEntityId"] == "https://idp.example.com")
        #expect(patched["spConfig"]?["spEntityId"] == "urn:example:sp")
        #expect(patched["enabled"] == true)
        #expect(try emulator.send("GET", "\(path)/saml.example", headers: Self.owner).json == patched.json)

        // SAML and OIDC lists, and the built-in providers' list, do not mix.
        #expect(try emulator.send("GET", "\(Self.base())/oauthIdpConfigs", headers: Self.owner).json == [:])
        #expect(try emulator.send("GET", "\(Self.base())/defaultSupportedIdpConfigs", headers: Self.owner)["defaultSupportedIdpConfigs"] == [])
        #expect(try emulator.send("GET", "\(Self.base())/oauthIdpConfigs/saml.example", headers: Self.owner).status == 400)
        #expect(try emulator.send("DELETE", "\(path)/saml.example", headers: Self.owner).status == 200)
    }

    @Test func listsPageByProviderId() throws {
        let emulator = try TestEmulator()
        let path = "\(Self.base())/oauthIdpConfigs"
        for id in ["c", "a", "e", "b", "d"] {
            let reply = try emulator.send(
                "POST", "\(path)?oauthIdpConfigId=oidc.\(id)", json: ["clientId": "x", "issuer": "https://i.example.com"],
                headers: Self.owner)
            #expect(reply.status == 200)
        }
        var seen: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let reply = try emulator.send("GET", "\(path)?pageSize=2\(token.map { "&pageToken=\($0)" } ?? "")", headers: Self.owner)
            seen += reply["oauthIdpConfigs"]?.arrayValue?.compactMap { $0["name"]?.stringValue?.split(separator: "/").last.map(String.init) } ?? []
            token = reply["nextPageToken"]?.stringValue
            pages += 1
        } while token != nil && pages < 10
        #expect(seen == ["oidc.a", "oidc.b", "oidc.c", "oidc.d", "oidc.e"])
        #expect(pages == 3)
        #expect(try emulator.send("GET", "\(path)?pageSize=-1", headers: Self.owner).status == 400)
        #expect(try emulator.send("GET", "\(path)?pageToken=saml.a", headers: Self.owner).errorMessage?.hasPrefix("INVALID_PAGE_SELECTION") == true)
    }

    @Test func tenantConfigsAreSeparateFromTheProjects() throws {
        let emulator = try TestEmulator()
        let tenantPath = "\(Self.base(tenant: "tenant-a"))/inboundSamlConfigs"
        let created = try emulator.send("POST", "\(tenantPath)?inboundSamlConfigId=saml.t", json: .object(Self.saml), headers: Self.owner)
        #expect(created["name"] == Self.name("inboundSamlConfigs", "saml.t", tenant: "tenant-a"))
        #expect(try emulator.send("GET", "\(tenantPath)/saml.t", headers: Self.owner).status == 200)
        #expect(try emulator.send("GET", "\(Self.base())/inboundSamlConfigs/saml.t", headers: Self.owner).status == 404)
        #expect(try emulator.send("GET", "\(Self.base(tenant: "tenant-b"))/inboundSamlConfigs", headers: Self.owner).json == [:])
        #expect(try emulator.send("GET", tenantPath, headers: Self.owner)["inboundSamlConfigs"]?.arrayValue?.count == 1)
        let oidc = try emulator.send(
            "POST", "\(Self.base(tenant: "tenant-a"))/oauthIdpConfigs?oauthIdpConfigId=oidc.t",
            json: ["clientId": "x", "issuer": "https://i.example.com"], headers: Self.owner)
        #expect(oidc["name"] == Self.name("oauthIdpConfigs", "oidc.t", tenant: "tenant-a"))
        #expect(try emulator.send("DELETE", "\(tenantPath)/saml.t", headers: Self.owner).status == 200)
    }

    @Test func badInputGetsProductionsErrors() throws {
        let emulator = try TestEmulator()
        let oidc = "\(Self.base())/oauthIdpConfigs"
        let saml = "\(Self.base())/inboundSamlConfigs"
        let good: JSONObject = ["clientId": "x", "issuer": "https://i.example.com"]
        func error(_ method: String, _ path: String, _ body: JSONObject = [:]) throws -> String? {
            let reply = try emulator.send(method, path, json: .object(body), headers: Self.owner)
            #expect(reply.status == 400)
            return reply.errorMessage
        }
        #expect(try error("POST", oidc, good)?.hasPrefix("MISSING_CONFIG_ID") == true)
        #expect(try error("POST", "\(oidc)?oauthIdpConfigId=google.com", good)
            == "INVALID_CONFIG_ID : OIDC provider ids start with \"oidc.\" followed by letters, digits, \"-\", \"_\" or \".\"; got google.com.")
        #expect(try error("POST", "\(saml)?inboundSamlConfigId=oidc.x", Self.saml)?.hasPrefix("INVALID_CONFIG_ID") == true)
        #expect(try error("GET", "\(oidc)/saml.x")?.hasPrefix("INVALID_CONFIG_ID") == true)
        #expect(try error("POST", "\(oidc)?oauthIdpConfigId=oidc.x", ["issuer": "https://i.example.com"])
            == "MISSING_OAUTH_CLIENT_ID : The OAuth/OIDC configuration client ID must not be empty.")
        #expect(try error("POST", "\(oidc)?oauthIdpConfigId=oidc.x", ["clientId": "x"])
            == "MISSING_ISSUER : The OIDC configuration issuer must not be empty.")
        #expect(try error("POST", "\(oidc)?oauthIdpConfigId=oidc.x", ["clientId": "x", "issuer": "not a url"])
            == "INVALID_CONFIG : issuer must be a valid http(s) URL.")
        #expect(try error("POST", "\(oidc)?oauthIdpConfigId=oidc.x", good.merging(["responseType": ["idToken": false]]))?
            .hasPrefix("INVALID_CONFIG : At least one response type") == true)
        #expect(try error("POST", "\(oidc)?oauthIdpConfigId=oidc.x", good.merging(["enabled": "yes"]))
            == "Invalid JSON payload received. Invalid value at 'OAuthIdpConfig.enabled', \"yes\"")
        var noSP = Self.saml
        noSP["spConfig"] = nil
        #expect(try error("POST", "\(saml)?inboundSamlConfigId=saml.x", noSP)
            == "MISSING_SAML_RELYING_PARTY_CONFIG : The SAML configuration provided is missing a relying party configuration.")
        var noCertificates = Self.saml
        noCertificates["idpConfig"] = ["idpEntityId": "e", "ssoUrl": "https://idp.example.com/sso", "idpCertificates": []]
        #expect(try error("POST", "\(saml)?inboundSamlConfigId=saml.x", noCertificates)?.hasPrefix("INVALID_CONFIG : idpConfig.idpCertificates") == true)
        #expect(try emulator.send("POST", "\(oidc)?oauthIdpConfigId=oidc.x", json: .object(good), headers: Self.owner).status == 200)
        #expect(try error("POST", "\(oidc)?oauthIdpConfigId=oidc.x", good)
            == "CONFIGURATION_EXISTS : A OIDC provider config named oidc.x already exists.")
        #expect(try error("POST", "\(Self.base())/defaultSupportedIdpConfigs?idpId=oidc.x", [:])?.hasPrefix("INVALID_PROVIDER_ID") == true)
        // Nothing refused was written.
        #expect(try emulator.send("GET", oidc, headers: Self.owner)["oauthIdpConfigs"]?.arrayValue?.count == 1)
        #expect(try emulator.send("GET", saml, headers: Self.owner).json == [:])
    }

    @Test func anOidcProvidersClientIdIsTheAudienceItsTokensMustName() throws {
        let emulator = try TestEmulator()
        let path = "\(Self.base())/oauthIdpConfigs"
        let wrong = try FederationTests.mint(emulator, "oidc.example", ["email": "o@example.com", "audience": "other-client"])
        let right = try FederationTests.mint(emulator, "oidc.example", ["email": "o@example.com", "audience": "example-client"])
        let created = try emulator.send(
            "POST", "\(path)?oauthIdpConfigId=oidc.example",
            json: ["clientId": "example-client", "issuer": "https://issuer.example.com", "enabled": true], headers: Self.owner)
        #expect(created.status == 200)
        #expect(try FederationTests.signIn(emulator, postBody: wrong["postBody"]?.stringValue ?? "").errorMessage
            == "INVALID_IDP_RESPONSE : The id_token aud is other-client; this project's oidc.example provider accepts example-client.")
        #expect(try FederationTests.userCount(emulator) == 0)

        // Pointing the config at the other client id lets that token in.
        let patched = try emulator.send(
            "PATCH", "\(path)/oidc.example?updateMask=clientId", json: ["clientId": "other-client"], headers: Self.owner)
        #expect(patched["clientId"] == "other-client")
        #expect(try FederationTests.signIn(emulator, postBody: right["postBody"]?.stringValue ?? "").errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        #expect(try FederationTests.signIn(emulator, postBody: wrong["postBody"]?.stringValue ?? "")["isNewUser"] == true)

        // Disabled refuses sign-in; deleting the config lifts every check.
        _ = try emulator.send("PATCH", "\(path)/oidc.example?updateMask=enabled", json: ["enabled": false], headers: Self.owner)
        #expect(try FederationTests.signIn(emulator, postBody: wrong["postBody"]?.stringValue ?? "").errorMessage
            == "OPERATION_NOT_ALLOWED : The identity provider configuration is disabled.")
        #expect(try emulator.send("DELETE", "\(path)/oidc.example", headers: Self.owner).status == 200)
        #expect(try FederationTests.signIn(emulator, postBody: right["postBody"]?.stringValue ?? "").status == 200)
    }
}

private extension JSONObject {
    func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        result.merge(other)
        return result
    }
}
