import Foundation
import JOSE
import JSON
import Testing

@testable import AuthEmulator

/// `--id-tokens signed`: RS256 tokens a standard verifier accepts with the published keys.
@Suite struct SignedTokenTests {
    @Test func signedTokensVerifyWithTheJWKSAndTheCertificate() throws {
        let emulator = try TestEmulator(idTokenMode: .signed)
        let signUp = try emulator.signUp("s@example.com")
        let token = try CompactJWT(parsing: signUp["idToken"]?.stringValue ?? "")
        #expect(token.algorithm == "RS256")
        let jwks = try emulator.send("GET", "/emulator/v1/securetoken/jwks")["keys"]?.arrayValue ?? []
        let jwk = try #require(jwks.first { $0["kid"]?.stringValue == token.keyID }?.objectValue)
        #expect(token.verify(with: try VerificationKey(jwk: jwk)))
        let certificates = try emulator.send("GET", "/emulator/v1/securetoken/x509").json.objectValue
        let pem = try #require(certificates?[token.keyID ?? ""]?.stringValue)
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))

        // Refresh and session cookies are signed too; tokens keep working as before.
        let refreshed = try emulator.refresh(signUp["refreshToken"]?.stringValue ?? "")
        #expect(try CompactJWT(parsing: refreshed["id_token"]?.stringValue ?? "").verify(with: try VerificationKey(jwk: jwk)))
        let cookie = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project):createSessionCookie",
            json: ["idToken": signUp["idToken"]!], headers: [("Authorization", "Bearer owner")])
        #expect(try CompactJWT(parsing: cookie["sessionCookie"]?.stringValue ?? "").verify(with: try VerificationKey(jwk: jwk)))
        #expect(try emulator.client("lookup", ["idToken": signUp["idToken"]!])["users"]?.arrayValue?.count == 1)

        // An altered token under our key is refused.
        let parts = (signUp["idToken"]?.stringValue ?? "").split(separator: ".").map(String.init)
        var payload = token.payload
        payload["user_id"] = "someone-else"
        let forged = "\(parts[0]).\(Base64URL.encode(payload.encoded())).\(parts[2])"
        #expect(try emulator.client("lookup", ["idToken": .string(forged)]).errorMessage == "INVALID_ID_TOKEN : The ID token's signature does not verify with the emulator's key.")
    }

    @Test func unsignedByDefaultWithNoKeysPublished() throws {
        let emulator = try TestEmulator()
        #expect(try CompactJWT(parsing: emulator.signUp("u@example.com")["idToken"]?.stringValue ?? "").algorithm == "none")
        let keys = try emulator.send("GET", "/emulator/v1/securetoken/jwks")
        #expect(keys.status == 404)
        #expect(keys.errorMessage?.contains("--id-tokens signed") == true)
    }

    @Test func commandLineTakesTheNewFlags() throws {
        guard case .run(let command) = try CommandLineOptions.parse(["--id-tokens", "signed", "--log-format=json"]) else {
            Issue.record("expected a run configuration")
            return
        }
        let configuration = command.configuration
        #expect(configuration.idTokenMode == .signed)
        #expect(configuration.logFormat == .json)
        #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(["--id-tokens", "maybe"]) }
        #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(["--log-format", "xml"]) }
        let mint = try CommandLineOptions.parse(["mint", "apple.com", "--email", "a@b.c", "--hide-email", "--server", "127.0.0.1:1/"])
        guard case .mint(let command) = mint else {
            Issue.record("expected a mint command")
            return
        }
        #expect(command.url == "http://127.0.0.1:1/emulator/v1/idp/apple.com/tokens")
        #expect(command.jsonBody == "{\"email\":\"a@b.c\",\"hideEmail\":true}")
    }

    @Test func jsonLogLinesAreOneObjectEach() throws {
        let lines = Locked<[String]>([])
        let logger = Logger(minimumLevel: .info, format: .json) { line in lines.withLock { $0.append(line) } }
        logger.info("hello \"world\"")
        let line = try #require(lines.withLock { $0.first })
        #expect(line.hasSuffix("\n"))
        let object = try JSONValue(parsing: Array(line.utf8.dropLast()))
        #expect(object["level"] == "info")
        #expect(object["message"] == "hello \"world\"")
        #expect(object["time"]?.stringValue.flatMap(Instant.init(rfc3339:)) != nil)
    }
}
