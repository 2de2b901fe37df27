@testable import AuthEmulator
import HTTPServer
import JSON
import Testing

@Suite struct RoutingTests {
    @Test func statusCheckAtRoot() throws {
        let emulator = try TestEmulator()
        let reply = try emulator.send("GET", "/")
        #expect(reply.status == 200)
        #expect(reply["authEmulator"]?["ready"] == true)
    }

    /// Nothing keeps an emulator's environment (and its store, whose database holds one of the
    /// system's 1024 thread-specific slots) once the emulator is dropped: the fuzz harnesses make
    /// a fresh in-memory emulator every few thousand inputs, over a million of them.
    @Test func aDroppedEmulatorReleasesItsEnvironmentAndStore() throws {
        weak var environment: AuthEnvironment?
        weak var store: AuthStore?
        do {
            var configuration = AuthEmulator.Configuration()
            configuration.port = 0
            let emulator = try AuthEmulator(configuration: configuration, logger: Logger(minimumLevel: .error, sink: { _ in }))
            let router = Router(environment: emulator.environment, routes: RouteTable.routes)
            let reply = router.respond(to: HTTPRequest(method: "GET", path: "/", query: [], headers: HTTPHeaders(), body: []))
            #expect(reply.status == 200)
            environment = emulator.environment
            store = emulator.environment.store
        }
        #expect(environment == nil && store == nil)
    }

    /// Exact paths are found by lookup, yet the table's order still decides: a literal route after
    /// a template that also fits its path is never reached, as when every route was tried in turn.
    @Test func theFirstFittingRouteWinsWhetherLiteralOrTemplate() throws {
        func route(_ method: String, _ template: String) -> Route {
            Route(method, template, Operation(template, .open, result: nil))
        }
        let index = RouteIndex([
            route("POST", "v1/{name}:lookup"), route("POST", "v1/accounts:lookup"),
            route("POST", "v1/accounts:signUp"), route("GET", "v1/accounts:signUp"),
        ])
        #expect(index.match(method: "POST", path: "/v1/accounts:lookup")?.0.pattern.template == "v1/{name}:lookup")
        #expect(index.match(method: "POST", path: "/v1/accounts:lookup")?.1 == ["name": "accounts"])
        #expect(index.match(method: "POST", path: "/v1/accounts:signUp")?.0.pattern.template == "v1/accounts:signUp")
        #expect(index.match(method: "GET", path: "/v1/accounts:signUp")?.0.method == "GET")
        #expect(index.match(method: "HEAD", path: "/v1/accounts:signUp")?.0.method == "GET")
        #expect(index.match(method: "DELETE", path: "/v1/accounts:signUp") == nil)
        #expect(index.match(method: "POST", path: "/v1/accounts:signup") == nil)
    }

    /// Bodies are camel-cased at any depth (`grant_type`, `phone-info`); one that is already
    /// camelCase comes through as it was, order and all.
    @Test func bodiesAreCamelCasedOnlyWhereAKeyHasASeparator() throws {
        let snake = try RequestBody(parsing: Array(#"{"grant_type":"x","list":[{"phone-info":1}],"iOSBundleId":"b"}"#.utf8))
        #expect(snake.object.keys == ["grantType", "list", "iOSBundleId"])
        #expect(snake.object["list"]?.arrayValue?.first?["phoneInfo"] == 1)
        let camel = try RequestBody(parsing: Array(#"{"b":1,"a":{"idToken":"t"},"c":[{"x":true}]}"#.utf8))
        #expect(camel.object == (try JSONValue(parsing: #"{"b":1,"a":{"idToken":"t"},"c":[{"x":true}]}"#).objectValue))
        #expect(camel.object.keys == ["b", "a", "c"])
        #expect(try RequestBody(parsing: Array(#"{"a_b":1}"#.utf8), camelCasing: false).object.keys == ["a_b"])
    }

    /// The two percent-encoders share one mechanism but keep different bytes: `URLSearchParams`
    /// keeps `*-._` and writes a space as `+`; `encodeURIComponent` keeps `-_.!~*'()` and `%20`.
    @Test func formEncodingAndURIComponentsKeepTheirOwnCharacters() {
        #expect(FormURLEncoding.encode([(name: "a b", value: "é*-._~!'()&=")]) == "a+b=%C3%A9*-._%7E%21%27%28%29%26%3D")
        #expect(URIComponent.encode("a b é-_.!~*'()&=+") == "a%20b%20%C3%A9-_.!~*'()%26%3D%2B")
        #expect(URIComponent.query([("x y", "1/2"), ("k", "")]) == "x%20y=1%2F2&k=")
        #expect(URIComponent.encode("") == "" && URIComponent.encode("&/") == "%26%2F" && URIComponent.encode("ab") == "ab")
    }

    @Test func unknownPathIsGoogleShaped404() throws {
        let emulator = try TestEmulator()
        let reply = try emulator.send("POST", "/identitytoolkit.googleapis.com/v1/accounts:nope?key=k", json: [:])
        #expect(reply.status == 404)
        let message = "NOT_FOUND : No route answers POST /identitytoolkit.googleapis.com/v1/accounts:nope; GET /emulator/openapi.json lists every route."
        #expect(reply.json == ["error": ["code": 404, "message": .string(message), "errors": [["message": .string(message), "reason": "notFound", "domain": "global"]], "status": "NOT_FOUND"]])
    }

    @Test func theCatalogueListsEveryRouteAndTheStubs() throws {
        let emulator = try TestEmulator()
        let document = try emulator.send("GET", "/emulator/openapi.json")
        #expect(document["openapi"] == "3.0.3")
        let paths = try #require(document["paths"]?.objectValue)
        #expect(paths["/identitytoolkit.googleapis.com/v1/accounts:signUp"]?["post"]?["operationId"] == "identitytoolkit.accounts.signUp")
        #expect(paths["/identitytoolkit.googleapis.com/v1/accounts:signInWithGameCenter"]?["post"]?["x-not-implemented"] == true)
        #expect(paths["/emulator/v1/idp/{idp}/tokens"]?["post"] != nil)
    }

    @Test func operationsNotBuiltAnswer501() throws {
        let emulator = try TestEmulator()
        let reply = try emulator.client("signInWithGameCenter", [:])
        #expect(reply.status == 501)
        #expect(reply.errorMessage == "identitytoolkit.accounts.signInWithGameCenter is not implemented in the Auth Emulator.")
        #expect(reply["error"]?["status"] == "NOT_IMPLEMENTED")
        let signOut = try emulator.legacy("signOutUser", [:])
        #expect(signOut.status == 501)
        #expect(signOut.errorMessage == "signOutUser is not implemented in the Auth Emulator.")
    }

    @Test func credentialsFollowTheReference() throws {
        let emulator = try TestEmulator()
        let path = "/identitytoolkit.googleapis.com/v1/accounts:signUp"
        let missingKey = try emulator.send("POST", path, json: [:])
        #expect(missingKey.status == 403)
        #expect(missingKey.errorMessage == "The request is missing a valid API key.")
        #expect(missingKey["error"]?["status"] == "PERMISSION_DENIED")

        let idTokenAsBearer = try emulator.send("POST", path, json: [:], headers: [("Authorization", "Bearer eyJhbGciOi.x.")])
        #expect(idTokenAsBearer.status == 401)
        #expect(idTokenAsBearer["error"]?["errors"]?.arrayValue?.first?["reason"] == "authError")

        let headerKey = try emulator.send("POST", path, json: [:], headers: [("X-Goog-Api-Key", "abc")])
        #expect(headerKey.status == 200)
        let owner = try emulator.send("POST", path, json: [:], headers: [("authorization", "bearer OWNER")])
        #expect(owner.status == 200)
        // Basic credentials are not looked at: the API key decides.
        let basic = try emulator.send("POST", path + "?key=k", json: [:], headers: [("Authorization", "Basic Zm9vOmJhcg==")])
        #expect(basic.status == 200)
    }

    @Test func targetProjectNeedsTheOwner() throws {
        let emulator = try TestEmulator()
        let reply = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/other/accounts:lookup?key=k", json: ["localId": ["x"]])
        #expect(reply.status == 400)
        #expect(reply.errorMessage == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
        let inBody = try emulator.client("lookup", ["targetProjectId": "other", "idToken": "x"])
        #expect(inBody.errorMessage == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
    }

    @Test func projectsAreIsolated() throws {
        let emulator = try TestEmulator()
        let created = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/other-project/accounts",
            json: ["localId": "u1", "email": "a@example.com"], headers: [("Authorization", "Bearer owner")])
        #expect(created.status == 200)
        #expect(try emulator.admin("accounts:lookup", ["localId": ["u1"]])["users"] == nil)
        #expect(emulator.logLines.all.contains { $0.contains("Multiple projectIds are not recommended") })
    }

    @Test func malformedBodiesAreInvalidArgument() throws {
        let emulator = try TestEmulator()
        let path = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k"
        let broken = try emulator.send("POST", path, body: Array("{\"email\":".utf8), headers: [("Content-Type", "application/json")])
        #expect(broken.status == 400)
        #expect(broken.errorMessage?.hasPrefix("Invalid JSON payload received.") == true)
        #expect(broken["error"]?["errors"]?.arrayValue?.first?["reason"] == "parseError")
        let array = try emulator.send("POST", path, json: [1, 2])
        #expect(array.status == 400)
        let wrongType = try emulator.client("signUp", ["email": ["a@example.com"], "password": "secret123"])
        #expect(wrongType.errorMessage == "Invalid JSON payload received. /email must be string")
        let badElement = try emulator.admin("accounts:lookup", ["localId": ["ok", 1.5]])
        #expect(badElement.errorMessage == "Invalid JSON payload received. /localId/1 must be string")
        let badObject = try emulator.admin("accounts:lookup", ["federatedUserId": ["x"]])
        #expect(badObject.errorMessage == "Invalid JSON payload received. /federatedUserId/0 must be object")
    }

    @Test func oversizedBodyIs413InGoogleShape() throws {
        let emulator = try TestEmulator()
        let body = [UInt8](repeating: 0x20, count: (1 << 20) + 1)
        let reply = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", body: body,
            headers: [("Content-Type", "application/json")])
        #expect(reply.status == 413)
        #expect(reply["error"]?["code"] == 413)
    }

    @Test func corsReflectsOriginAndAnswersPreflight() throws {
        let emulator = try TestEmulator()
        let preflight = try emulator.send(
            "OPTIONS", "/identitytoolkit.googleapis.com/v1/accounts:signUp",
            headers: [
                ("Origin", "http://app.test:3000"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type,x-client-version"),
                ("Access-Control-Request-Private-Network", "true"),
            ])
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "http://app.test:3000")
        #expect(preflight.header("Access-Control-Allow-Headers") == "content-type,x-client-version")
        #expect(preflight.header("Access-Control-Allow-Methods") == "GET,HEAD,PUT,PATCH,POST,DELETE")
        #expect(preflight.header("Access-Control-Allow-Private-Network") == "true")

        let actual = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", json: [:],
            headers: [("Origin", "http://app.test:3000")])
        #expect(actual.header("Access-Control-Allow-Origin") == "http://app.test:3000")
    }

    @Test func everyRequestIsLoggedWithStatusAndTime() throws {
        let emulator = try TestEmulator()
        _ = try emulator.client("signUp", [:])
        let line = try #require(emulator.logLines.all.first { $0.contains("accounts:signUp") })
        #expect(line.hasPrefix("INFO POST /identitytoolkit.googleapis.com/v1/accounts:signUp 200 "))
        #expect(line.hasSuffix("ms\n"))
    }

    @Test func snakeCaseKeysAreAccepted() throws {
        let emulator = try TestEmulator()
        let reply = try emulator.client("signUp", ["email": "Snake@Example.com", "password": "secret123", "return_secure_token": true])
        #expect(reply["email"] == "snake@example.com")
    }
}

@Suite struct BodyFormatTests {
    @Test func jsonSentWithAFormContentTypeIsStillJSON() throws {
        let emulator = try TestEmulator()
        let reply = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
            body: Array(#"{"email":"curl@example.com","password":"secret123"}"#.utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(reply["email"] == "curl@example.com")
    }

    /// A form is named in any case, parameters and all; the byte comparison agrees with
    /// `lowercased().hasPrefix`, which still decides for a Content-Type that is not ASCII.
    @Test(arguments: [
        ("application/x-www-form-urlencoded", true), ("Application/X-WWW-Form-URLEncoded; charset=UTF-8", true),
        ("application/json", false), ("application/x-www-form-urlencode", false), ("", false),
        ("application/x-www-form-urlencoded\u{301}", false), ("application/x-www-form-urlencodedé", true),
        ("text/plain; application/x-www-form-urlencoded", false), ("application/x-www-form_urlencoded", false),
    ])
    func formContentTypesAreFoundInAnyCase(_ contentType: String, _ isForm: Bool) {
        #expect(Router.isForm(contentType: contentType) == isForm)
        #expect(contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") == isForm)
    }
}

@Suite struct ClientAddressTests {
    @Test(arguments: [
        ("127.0.0.1", nil, "127.0.0.1:9099"), ("0.0.0.0", nil, "127.0.0.1:9099"), ("::", nil, "[::1]:9099"),
        ("::1", nil, "[::1]:9099"), ("0.0.0.0", "localhost", "localhost:9099"), ("0.0.0.0", "host.docker.internal:19099", "host.docker.internal:19099"),
        ("0.0.0.0", "fe80::1", "[fe80::1]:9099"), ("0.0.0.0", "[fe80::1]:80", "[fe80::1]:80"), ("0.0.0.0", "[fe80::1]", "[fe80::1]:9099"),
    ] as [(String, String?, String)])
    func namesAnAddressClientsCanUse(_ host: String, _ advertised: String?, _ expected: String) {
        var configuration = AuthEmulator.Configuration()
        configuration.host = host
        configuration.advertiseHost = advertised
        #expect(configuration.clientAddress(port: 9099) == expected)
    }
}
