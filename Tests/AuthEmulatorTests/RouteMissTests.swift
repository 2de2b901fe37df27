import AuthEmulator
import Foundation
import HTTPTestSupport
import JSON
import Testing

/// What a request no route answers gets back (issue 28.1): the nearest route or the methods the
/// path takes, in Google's shape, on every family; the console's own page under `/emulator/ui`.
@Suite struct RouteMissTests {
    static let v1 = "/identitytoolkit.googleapis.com/v1"

    @Test(arguments: [
        ("POST", "\(v1)/accounts:signup?key=k", "POST \(v1)/accounts:signUp"),
        ("POST", "\(v1)/accounts:signInWithPasword?key=k", "POST \(v1)/accounts:signInWithPassword"),
        ("POST", "\(v1)/projects/demo-test/acounts:lookup", "POST \(v1)/projects/demo-test/accounts:lookup"),
        ("POST", "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrolment:start?key=k",
         "POST /identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start"),
        ("POST", "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPasword?key=k",
         "POST /www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword"),
        ("POST", "/securetoken.googleapis.com/v1/tokens?key=k", "POST /securetoken.googleapis.com/v1/token"),
        ("GET", "/emulator/v1/projects/demo-test/mesages", "GET /emulator/v1/projects/demo-test/messages"),
        ("POST", "/emulator/v1/projects/demo-test:rest", "POST /emulator/v1/projects/demo-test:reset"),
        ("POST", "/emulator/v1/clock:advanse", "POST /emulator/v1/clock:advance"),
    ])
    func aNearMissNamesTheRouteItMeant(method: String, path: String, meant: String) throws {
        let emulator = try TestEmulator()
        let reply = try emulator.send(method, path, json: [:])
        #expect(reply.status == 404)
        #expect(reply.json["error"]?["status"] == "NOT_FOUND")
        let asked = path.split(separator: "?")[0]
        #expect(reply.errorMessage == "NOT_FOUND : No route answers \(method) \(asked); did you mean \(meant)?")
        // The log line says the same, so a developer reading the log sees the fix too.
        #expect(emulator.logLines.all.contains { $0.contains("404") && $0.contains("did you mean \(meant)?") })
    }

    @Test(arguments: [
        ("GET", "\(v1)/accounts:signInWithPassword?key=k", "POST"),
        ("GET", "/emulator/v1/clock:advance", "POST"),
        ("POST", "/emulator/v1/clock", "GET"),
        ("PUT", "/emulator/v1/projects/demo-test/messages", "GET, DELETE"),
        ("GET", "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword?key=k", "POST"),
        ("DELETE", "/securetoken.googleapis.com/v1/token", "POST"),
    ])
    func aKnownPathWithAnotherMethodNamesTheMethodsItTakes(method: String, path: String, allowed: String) throws {
        let emulator = try TestEmulator()
        let reply = try emulator.send(method, path)
        #expect(reply.status == 405)
        #expect(reply.header("Allow") == allowed)
        let asked = path.split(separator: "?")[0]
        #expect(reply.errorMessage == "METHOD_NOT_ALLOWED : \(method) \(asked) is not served; \(asked) takes \(allowed).")
    }

    @Test func theConsolesUnknownPagesAnswerItsOwnPageWithItsNavigation() throws {
        let emulator = try TestEmulator()
        let response = try RawHTTPConnection(port: emulator.emulator.port).exchange("GET", "/emulator/ui/usres?project=demo-test")
        #expect(response.status == 404)
        #expect(response.headers.first { $0.name.lowercased() == "content-type" }?.value.hasPrefix("text/html") == true)
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(page.contains("<nav>"))
        #expect(page.contains("href=\"/emulator/ui/outbox"))
        #expect(page.contains("did you mean GET /emulator/ui/users?"))
        let wrongMethod = try RawHTTPConnection(port: emulator.emulator.port).exchange("PUT", "/emulator/ui/clock")
        #expect(wrongMethod.status == 405)
        #expect(String(decoding: wrongMethod.body, as: UTF8.self).contains("takes GET, POST"))
    }

    @Test func latestSaysWhichFiltersMatchedNothingAndThatBouncedMailIsPassedOver() throws {
        let emulator = try TestEmulator()
        let path = "/emulator/v1/projects/demo-test/messages/latest"
        let nobody = try emulator.send("GET", "\(path)?to=nobody@example.com")
        #expect(nobody.status == 404)
        #expect(nobody.errorMessage == "MESSAGE_NOT_FOUND : No message matched to=nobody@example.com in the outbox of demo-test; latest passes over bounced mail unless status asks for it (status=bounced).")
        #expect(try emulator.send("GET", path).errorMessage == "MESSAGE_NOT_FOUND : No message is in the outbox of demo-test; latest passes over bounced mail unless status asks for it (status=bounced).")
        #expect(try emulator.send("GET", "\(path)?status=bounced&waitSeconds=0").errorMessage == "MESSAGE_NOT_FOUND : No message matched status=bounced in the outbox of demo-test within 0 s.")
    }

    @Test func mintingForAProviderNameWithoutItsDomainWarnsWhichOneHasTheShape() throws {
        let emulator = try TestEmulator()
        for (asked, meant) in [("apple", "apple.com"), ("facebook", "facebook.com"), ("gogle.com", "google.com")] {
            let minted = try emulator.send("POST", "/emulator/v1/idp/\(asked)/tokens", json: ["email": "a@example.com"])
            #expect(minted.status == 200)
            #expect(minted["warnings"] == [.string("\(asked) is not \(meant): it was minted as a generic OIDC provider's token. Mint for \(meant) to get \(meant)'s token shape.")])
        }
        for exact in ["apple.com", "oidc.example", "github.com"] {
            #expect(try emulator.send("POST", "/emulator/v1/idp/\(exact)/tokens", json: ["email": "a@example.com"])["warnings"] == nil)
        }
    }

    @Test func anEmptyListingOfAProjectNeverSeenLogsAHint() throws {
        let emulator = try TestEmulator()
        let hint = "The outbox of project demo-tset is empty: nothing was ever stored for it. The emulator's project is demo-test (a typo?); API keys map to it."
        #expect(try emulator.send("GET", "/emulator/v1/projects/demo-tset/messages")["messages"] == [])
        #expect(emulator.logLines.all.contains { $0.contains(hint) })
        // A project that holds something gets no hint, even when the listing is empty.
        _ = try emulator.send("PATCH", "/emulator/v1/projects/other/config", json: ["signIn": ["allowDuplicateEmails": true]])
        #expect(try emulator.send("GET", "/emulator/v1/projects/other/oobCodes")["oobCodes"] == [])
        #expect(!emulator.logLines.all.contains { $0.contains("project other is empty") })
        #expect(try emulator.send("GET", "/emulator/v1/projects/elsewhere/verificationCodes").status == 200)
        #expect(emulator.logLines.all.contains { $0.contains("verificationCodes of project elsewhere is empty") })
    }
}
