import HTTPServer
import JSON
import Testing

@testable import AuthEmulator

/// Each operation's declared fields (issue 13 item 6, issue 14 item 3): our own routes refuse what
/// they do not declare, naming the nearest known name; Google's routes accept it; the OpenAPI
/// document is made from the declarations; and a read the declaration lacks fails in debug builds.
@Suite struct DeclaredFieldsTests {
    @Test func ownRoutesRefuseUnknownFieldsWithTheNearestName() throws {
        let emulator = try TestEmulator()
        let mint = try emulator.send("POST", "/emulator/v1/idp/apple.com/tokens", json: ["email": "a@example.com", "hide_email": true])
        #expect(mint.status == 400)
        #expect(mint.errorMessage == "INVALID_ARGUMENT : unknown field \"hide_email\"; did you mean \"hideEmail\"?")
        let typo = try emulator.send("POST", "/emulator/v1/clock:advance", json: ["secnds": 5])
        #expect(typo.errorMessage == "INVALID_ARGUMENT : unknown field \"secnds\"; did you mean \"seconds\"?")
        let far = try emulator.send("POST", "/emulator/v1/clock:advance", json: ["seconds": 5, "tenantId": "t"])
        #expect(far.errorMessage == "INVALID_ARGUMENT : unknown field \"tenantId\".")
        let nested = try emulator.send(
            "PATCH", "/emulator/v1/projects/\(TestEmulator.project)/config", json: ["signIn": ["allowDuplicateEmail": true]])
        #expect(nested.errorMessage == "INVALID_ARGUMENT : unknown field \"signIn.allowDuplicateEmail\"; did you mean \"signIn.allowDuplicateEmails\"?")
        let relay = try emulator.send(
            "PATCH", "/emulator/v1/projects/\(TestEmulator.project)/privateRelay", json: ["registeredSender": ["a@example.com"]])
        #expect(relay.errorMessage == "INVALID_ARGUMENT : unknown field \"registeredSender\"; did you mean \"registeredSenders\"?")
        // A refused request changes nothing.
        #expect(try emulator.send("GET", "/emulator/v1/clock")["now"] == .string(TestEmulator.start.rfc3339))
    }

    @Test func ownRoutesRefuseUnknownQueryParameters() throws {
        let emulator = try TestEmulator()
        let messages = "/emulator/v1/projects/\(TestEmulator.project)/messages"
        let typo = try emulator.send("GET", "\(messages)?limt=3")
        #expect(typo.status == 400)
        #expect(typo.errorMessage == "INVALID_ARGUMENT : unknown query parameter \"limt\"; did you mean \"limit\"?")
        #expect(try emulator.send("GET", "\(messages)?recipient=a@example.com").errorMessage == "INVALID_ARGUMENT : unknown query parameter \"recipient\".")
        #expect(try emulator.send("GET", "/emulator/v1/clock?verbose=1").status == 400)
        // Known filters, and the API key test helpers append everywhere, are fine.
        #expect(try emulator.send("GET", "\(messages)?limit=3&to=a@example.com&key=fake-api-key").status == 200)
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/oobCodes?key=k").status == 200)
    }

    @Test func googleRoutesAcceptUnknownFieldsAsTheOfficialEmulatorDoes() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.client("signUp", ["email": "u@example.com", "password": "secret-1", "hide_email": true, "unknownThing": [1]])
        #expect(signUp.status == 200)
        #expect(signUp["email"] == "u@example.com")
    }

    @Test func nearestNameNeedsACloseMatch() {
        let names = ["hideEmail", "email", "emailVerified", "nonce", "hashedNonce"]
        #expect(NearestName.among(names, to: "hide_email") == "hideEmail")
        #expect(NearestName.among(names, to: "HideEmail") == "hideEmail")
        #expect(NearestName.among(names, to: "emial") == "email")
        #expect(NearestName.among(names, to: "hashed_nonce") == "hashedNonce")
        #expect(NearestName.among(names, to: "x") == nil)
        #expect(NearestName.among(names, to: "picture") == nil)
        #expect(NearestName.editDistance(Array("kitten"), Array("sitting")) == 3)
    }

    /// The debug-build check behind the document: an operation that reads a field it does not
    /// declare (or reads it as another type) answers 500 naming it.
    @Test func anUndeclaredReadFailsTheRequestInDebugBuilds() throws {
        let emulator = try TestEmulator()
        let sneaky = Route("POST", "x", .init("emulator.clock.advance", .open) { request in
            _ = try request.body.string("seconds")
            _ = try request.body.bool("undeclaredFlag")
            return [:]
        })
        let typed = Route("POST", "x", .init("emulator.clock.advance", .open) { request in
            _ = try request.body.stringArray("seconds")
            return [:]
        })
        let nested = Route("PATCH", "x", .init("emulator.config.update", .open) { request in
            _ = try request.body.nested("signIn")?.string("extra")
            return [:]
        })
        let query = Route("GET", "x", .init("emulator.messages.list", .open) { request in
            _ = request.queryValue("unlisted")
            return [:]
        })
        let fine = Route("POST", "x", .init("emulator.clock.advance", .open) { request in
            _ = request.body.value("seconds")
            return [:]
        })
        func status(_ route: Route, _ body: String = "{}") -> (Int, String) {
            let router = Router(environment: emulator.emulator.environment, routes: [route])
            let response = router.respond(to: HTTPRequest(method: route.method, path: "/x", body: Array(body.utf8)))
            return (response.status, String(decoding: response.body, as: UTF8.self))
        }
        #if DEBUG
        let (code, text) = status(sneaky)
        #expect(code == 500)
        #expect(text.contains("emulator.clock.advance reads undeclaredFlag (boolean), which it does not declare"))
        #expect(status(typed).1.contains("reads seconds as strings, declared number"))
        #expect(status(nested, "{\"signIn\": {}}").1.contains("reads signIn.extra (string), which it does not declare"))
        #expect(status(query).1.contains("reads the query parameter unlisted, which it does not declare"))
        #endif
        #expect(status(fine, "{\"seconds\": 1}").0 == 200)
    }

    /// Every declared operation is one the route table serves, and every operation the table serves
    /// with a handler that takes a body has its fields declared (the emulator's own extras too).
    @Test func everyDeclarationNamesARoute() {
        // The console's page for paths no route serves is served by the router, not the table.
        let served = Set(RouteTable.routes.map(\.operation.id)).union([ConsoleRoutes.missingPageId])
        // Declared ahead of their routes, for the branches that add them (clock reset and set).
        let upcoming: Set<String> = ["emulator.clock.reset", "emulator.clock.set"]
        let stale = Set(FieldCatalogue.byOperation.keys).subtracting(served).subtracting(upcoming)
        #expect(stale.isEmpty, "declared but not served: \(stale.sorted())")
        let custom = Set(ConfigFields.idpConfig(.oidc).map(\.name))
        #expect(custom == Set(IdpConfigKind.oidc.fields))
        #expect(Set(ConfigFields.defaultSupportedIdp.map(\.name)) == Set(ProviderConfigOperations.editableFields))
    }

    @Test func theOpenAPIDocumentDescribesEveryRoute() throws {
        let emulator = try TestEmulator()
        let document = try emulator.send("GET", "/emulator/openapi.json")
        #expect(document.status == 200)
        let paths = try #require(document["paths"]?.objectValue)
        for route in RouteTable.routes {
            let entry = paths["/" + route.pattern.template]?[route.method.lowercased()]
            #expect(entry?["responses"]?.objectValue?.isEmpty == false, "\(route.method) \(route.pattern.template)")
        }
        var ids = Set<String>()
        for (_, entry) in paths.members {
            for (_, operation) in entry.objectValue?.members ?? [] {
                let id = operation["operationId"]?.stringValue ?? ""
                #expect(ids.insert(id).inserted, "operationId \(id) repeats")
            }
        }
        let mint = paths["/emulator/v1/idp/{idp}/tokens"]?["post"]
        let mintBody = mint?["requestBody"]?["content"]?["application/json"]?["schema"]
        #expect(mintBody?["additionalProperties"] == false)
        #expect(mintBody?["properties"]?["hideEmail"]?["type"] == "boolean")
        #expect(mintBody?["properties"]?["hashedNonce"]?["type"] == "string")
        #expect(mintBody?["properties"]?["claims"]?["additionalProperties"] == true)
        #expect(mint?["parameters"]?.arrayValue?.first?["name"] == "idp")
        #expect(mint?["responses"]?["429"] != nil)
        let list = paths["/emulator/v1/projects/{projectId}/messages"]?["get"]?["parameters"]?.arrayValue ?? []
        let names = Set(list.compactMap { $0["name"]?.stringValue })
        #expect(names.isSuperset(of: ["projectId", "to", "waitSeconds", "status", "forwardedTo", "subject", "q"]))
        let signUp = paths["/identitytoolkit.googleapis.com/v1/accounts:signUp"]?["post"]
        let signUpBody = signUp?["requestBody"]?["content"]?["application/json"]?["schema"]
        #expect(signUpBody?["properties"]?["email"]?["type"] == "string")
        #expect(signUpBody?["additionalProperties"] == nil)
        #expect(signUp?["responses"]?["401"]?["content"]?["application/json"]?["schema"]?["$ref"] == "#/components/schemas/GoogleError")
        let config = paths["/emulator/v1/projects/{projectId}/config"]?["patch"]?["requestBody"]?["content"]?["application/json"]?["schema"]
        #expect(config?["properties"]?["signIn"]?["properties"]?["allowDuplicateEmails"]?["type"] == "boolean")
        let stub = paths["/identitytoolkit.googleapis.com/v1/accounts:signInWithGameCenter"]?["post"]
        #expect(stub?["x-not-implemented"] == true)
        #expect(stub?["responses"]?["501"] != nil)
    }
}
