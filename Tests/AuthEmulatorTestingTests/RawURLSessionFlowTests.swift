import AuthEmulatorTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

// The seeds' flows of SeedFlowTests.swift, written with URLSession alone, as a team writes them
// without the kit (only the emulator is started by the kit, and SHA-256 and TOTP are borrowed
// from it: Linux has no CryptoKit). They run, so the comparison is between two working versions:
// docs/swift-kit.md counts the lines of each.

/// What every raw suite grows first: a JSON request, its status and its body.
struct RawHTTP {
    let base: String

    func call(_ method: String, _ path: String, _ body: [String: Any]? = nil, form: String? = nil) async throws -> (Int, [String: Any], HTTPURLResponse) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let form {
            request.httpBody = Data(form.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession(configuration: .ephemeral, delegate: RawNoRedirects(), delegateQueue: nil).data(for: request)
        let http = response as! HTTPURLResponse
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (http.statusCode, json, http)
    }

    func ok(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        let (status, json, _) = try await call(method, path, body)
        guard status == 200 else { throw RawFailure(description: "\(method) \(path) answered \(status): \(json)") }
        return json
    }

    static func claims(of token: String) -> [String: Any] {
        var payload = String(token.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        return try! JSONSerialization.jsonObject(with: Data(base64Encoded: payload)!) as! [String: Any]
    }
}

struct RawFailure: Error, CustomStringConvertible { let description: String }

final class RawNoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

let identityToolkit = "/identitytoolkit.googleapis.com"

@Suite struct RawURLSessionFlowTests {
    @Test func signInWithAppleHiddenEmailThenRelayForwarding() async throws {
        try await Emulator.withFreshState { emulator in
            let raw = RawHTTP(base: "http://\(emulator.host)")
            let nonce = "raw-nonce-\(UUID().uuidString)"
            let minted = try await raw.ok("POST", "/emulator/v1/idp/apple.com/tokens", ["email": "ada@example.com", "hideEmail": true, "nonce": nonce])
            let postBody = (minted["postBody"] as! String) + #"&user={"name":{"firstName":"Ada","lastName":"L"}}"#
            let user = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:signInWithIdp?key=k",
                                        ["postBody": postBody, "requestUri": "http://localhost", "returnSecureToken": true])
            let relay = user["email"] as! String
            #expect(RawHTTP.claims(of: minted["idToken"] as! String)["nonce"] as? String == Digest.sha256Hex(nonce))
            #expect(relay == minted["email"] as? String && relay.hasSuffix("@privaterelay.appleid.com"))
            #expect(user["displayName"] as? String == "Ada L" && minted["realEmail"] as? String == "ada@example.com")

            let link: [String: Any] = ["requestType": "EMAIL_SIGNIN", "email": relay, "continueUrl": "https://app.example.com/finish",
                                       "canHandleCodeInApp": true, "iOSBundleId": "com.example.app"]
            _ = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:sendOobCode?key=k", link)
            let relayed = try await raw.ok("GET", "/emulator/v1/projects/demo-project/messages/latest?to=\(relay)&waitSeconds=10")
            let delivery = relayed["delivery"] as! [String: Any]
            #expect(delivery["status"] as? String == "relayed" && delivery["forwardedTo"] as? String == "ada@example.com")

            _ = try await raw.ok("PATCH", "/emulator/v1/idp/apple.com/relay/\(relay)", ["forwarding": false])
            _ = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:sendOobCode?key=k", link)
            let bounced = try await raw.ok("GET", "/emulator/v1/projects/demo-project/messages?to=\(relay)&status=bounced&waitSeconds=10")
            let messages = bounced["messages"] as! [[String: Any]]
            #expect(messages.count == 1)
            #expect(((messages.first?["delivery"] as? [String: Any])?["reason"] as? String)?.hasPrefix("Forwarding off") == true)
        }
    }

    @Test func emailLinkSignIn() async throws {
        try await Emulator.withFreshState { emulator in
            let raw = RawHTTP(base: "http://\(emulator.host)")
            _ = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:sendOobCode?key=k", [
                "requestType": "EMAIL_SIGNIN", "email": "grace@example.com", "continueUrl": "https://app.example.com/done",
                "canHandleCodeInApp": true, "iOSBundleId": "com.example.app"])
            let message = try await raw.ok("GET", "/emulator/v1/projects/demo-project/messages/latest?to=grace@example.com&requestType=EMAIL_SIGNIN&waitSeconds=10")
            #expect(message["continueUrl"] as? String == "https://app.example.com/done")
            // The Apple SDK's reading of the link: the query decoded once, split, each item decoded again.
            var items: [String: String] = [:]
            for piece in URLComponents(string: message["appLink"] as! String)!.query!.split(separator: "&") {
                let pair = piece.split(separator: "=", maxSplits: 1)
                if pair.count == 2, let name = pair[0].removingPercentEncoding, let value = pair[1].removingPercentEncoding { items[name] = value }
            }
            #expect(items["mode"] == "signIn")
            let user = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:signInWithEmailLink?key=k",
                                        ["email": "grace@example.com", "oobCode": items["oobCode"]!, "returnSecureToken": true])
            #expect(user["isNewUser"] as? Bool == true && user["email"] as? String == "grace@example.com")
            let found = try await raw.ok("POST", "\(identityToolkit)/v1/projects/demo-project/accounts:lookup", ["email": ["grace@example.com"]],
                                         owner: true)
            #expect(((found["users"] as? [[String: Any]])?.first?["emailVerified"] as? Bool) == true)
        }
    }

    @Test func facebookLimitedLogin() async throws {
        try await Emulator.withFreshState { emulator in
            let raw = RawHTTP(base: "http://\(emulator.host)")
            let nonce = UUID().uuidString
            let token = try await raw.ok("POST", "/emulator/v1/idp/facebook.com/tokens", ["email": "fay@example.com", "name": "Fay Book", "nonce": nonce])
            let user = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:signInWithIdp?key=k",
                                        ["postBody": token["postBody"]!, "requestUri": "http://localhost", "returnSecureToken": true])
            #expect(user["providerId"] as? String == "facebook.com" && user["displayName"] as? String == "Fay Book")

            let (status, refusal, _) = try await raw.call("POST", "\(identityToolkit)/v1/accounts:signInWithIdp?key=k", [
                "postBody": "providerId=facebook.com&id_token=\(token["idToken"]!)&nonce=other", "requestUri": "http://localhost"])
            let message = (refusal["error"] as? [String: Any])?["message"] as? String
            #expect(status == 400 && message?.hasPrefix("MISSING_OR_INVALID_NONCE") == true)
        }
    }

    @Test func yahooThroughTheSignInPageWithoutJavaScript() async throws {
        try await Emulator.withFreshState { emulator in
            let raw = RawHTTP(base: "http://\(emulator.host)")
            let sessionId = String((0..<10).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZ".randomElement()! })
            let eventId = String((0..<10).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZ".randomElement()! })
            let query = "apiKey=k&authType=signInWithRedirect&ibi=com.example.app&sessionId=\(Digest.sha256Hex(sessionId))"
                + "&eventId=\(eventId)&providerId=yahoo.com&appId=1:1234567890:ios:abcdef123456&scopes="
            let (pageStatus, _, _) = try await raw.call("GET", "/emulator/auth/handler?\(query)")
            #expect(pageStatus == 200)
            let (status, _, posted) = try await raw.call("POST", "/emulator/auth/handler?\(query)",
                                                         form: "email=yuri%40example.com&name=Yuri&emailVerified=on")
            let location = posted.value(forHTTPHeaderField: "Location") ?? ""
            #expect(status == 303 && location.hasPrefix("app-1-1234567890-ios-abcdef123456://firebaseauth/link?deep_link_id="))
            // AuthWebUtils: the outer query's deep_link_id, then the inner URL's link (each decoded once).
            func item(_ name: String, _ query: String) -> String? {
                for piece in query.split(separator: "&") where piece.hasPrefix("\(name)=") {
                    return String(piece.dropFirst(name.count + 1)).removingPercentEncoding
                }
                return nil
            }
            let deepLink = item("deep_link_id", URLComponents(string: location)!.percentEncodedQuery!)!
            let inner = URLComponents(string: deepLink)!.percentEncodedQuery!
            #expect(item("eventId", inner) == eventId)
            let user = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:signInWithIdp?key=k", [
                "requestUri": item("link", inner)!, "postBody": "providerId=yahoo.com", "sessionId": sessionId,
                "returnSecureToken": true, "returnIdpCredential": true])
            #expect(user["providerId"] as? String == "yahoo.com" && user["email"] as? String == "yuri@example.com")
            #expect(user["displayName"] as? String == "Yuri")
        }
    }

    @Test func appleTokenRevokedBeforeTheAccountIsDeleted() async throws {
        try await Emulator.withFreshState { emulator in
            let raw = RawHTTP(base: "http://\(emulator.host)")
            let minted = try await raw.ok("POST", "/emulator/v1/idp/apple.com/tokens", ["email": "del@example.com"])
            let user = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:signInWithIdp?key=k",
                                        ["postBody": minted["postBody"]!, "requestUri": "http://localhost", "returnSecureToken": true])
            _ = try await raw.ok("POST", "\(identityToolkit)/v2/accounts:revokeToken?key=k", [
                "providerId": "apple.com", "tokenType": "CODE", "token": minted["authorizationCode"]!, "idToken": user["idToken"]!])
            _ = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:delete?key=k", ["idToken": user["idToken"]!])

            let revocations = try await raw.ok("GET", "/emulator/v1/idp/apple.com/revocations")["revocations"] as! [[String: Any]]
            #expect(revocations.map { $0["sub"] as? String } == [minted["sub"] as? String])
            #expect(revocations.first?["projectId"] as? String == "demo-project")
            let found = try await raw.ok("POST", "\(identityToolkit)/v1/projects/demo-project/accounts:lookup", ["localId": [user["localId"]!]],
                                         owner: true)
            #expect(found["users"] == nil)
        }
    }

    @Test func totpSecondFactor() async throws {
        try await Emulator.withFreshState { emulator in
            let raw = RawHTTP(base: "http://\(emulator.host)")
            _ = try await raw.ok("POST", "\(identityToolkit)/v1/projects/demo-project/accounts:batchCreate", ["users": [
                ["localId": "tess", "email": "tess@example.com", "rawPassword": "secret123", "emailVerified": true]]], owner: true)
            let password: [String: Any] = ["email": "tess@example.com", "password": "secret123", "returnSecureToken": true]
            let signedIn = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:signInWithPassword?key=k", password)
            let started = try await raw.ok("POST", "\(identityToolkit)/v2/accounts/mfaEnrollment:start?key=k",
                                           ["idToken": signedIn["idToken"]!, "totpEnrollmentInfo": [String: Any]()])
            let session = started["totpSessionInfo"] as! [String: Any]
            let secret = session["sharedSecretKey"] as! String
            func emulatorNow() async throws -> Date {
                let now = try await raw.ok("GET", "/emulator/v1/clock")["now"] as! String
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                return formatter.date(from: now)!
            }
            _ = try await raw.ok("POST", "\(identityToolkit)/v2/accounts/mfaEnrollment:finalize?key=k", [
                "idToken": signedIn["idToken"]!, "displayName": "authenticator",
                "totpVerificationInfo": ["sessionInfo": session["sessionInfo"]!, "verificationCode": try TOTP.code(secret: secret, at: try await emulatorNow())]])

            let pending = try await raw.ok("POST", "\(identityToolkit)/v1/accounts:signInWithPassword?key=k", password)
            let found = try await raw.ok("POST", "\(identityToolkit)/v1/projects/demo-project/accounts:lookup", ["localId": ["tess"]], owner: true)
            let factor = ((found["users"] as! [[String: Any]])[0]["mfaInfo"] as! [[String: Any]])[0]
            _ = try await raw.ok("POST", "/emulator/v1/clock:advance", ["seconds": 30])
            let user = try await raw.ok("POST", "\(identityToolkit)/v2/accounts/mfaSignIn:finalize?key=k", [
                "mfaPendingCredential": pending["mfaPendingCredential"]!, "mfaEnrollmentId": factor["mfaEnrollmentId"]!,
                "totpVerificationInfo": ["verificationCode": try TOTP.code(secret: secret, at: try await emulatorNow())]])
            _ = try await raw.ok("POST", "/emulator/v1/clock:reset")
            #expect(pending["idToken"] == nil && user["idToken"] != nil)
        }
    }
}

extension RawHTTP {
    func ok(_ method: String, _ path: String, _ body: [String: Any]? = nil, owner: Bool) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if owner { request.setValue("Bearer owner", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard (response as! HTTPURLResponse).statusCode == 200 else { throw RawFailure(description: "\(method) \(path): \(json)") }
        return json
    }
}
