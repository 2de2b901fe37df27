import Foundation
import JSON
import Testing

@testable import JOSE

/// Cross-checks against the `openssl` command-line tool: keys it makes load here, signatures it
/// makes verify here, and what we make verifies there.
@Suite struct OpenSSLInteropTests {
    static let message = Array("interop: the quick brown fox \u{1F98A}".utf8)

    @Test func selfSignedCertificatesVerifyAndCarryTheKey() throws {
        let openssl = try OpenSSLCommandLine()
        let key = try SigningKey.generateRSA()
        try openssl.write("cert.pem", try key.selfSignedCertificatePEM(commonName: "test.example", serial: 7, validSeconds: 3600))
        try openssl.write("key.pub", try key.publicKey.publicKeyPEM())
        // Self-signed: the certificate verifies against itself, and holds exactly our public key.
        let verdict = String(decoding: try openssl.run("verify", "-CAfile", "cert.pem", "cert.pem"), as: UTF8.self)
        #expect(verdict.contains("cert.pem: OK"))
        let publicKey = String(decoding: try openssl.run("x509", "-in", "cert.pem", "-noout", "-pubkey"), as: UTF8.self)
        #expect(publicKey == (try key.publicKey.publicKeyPEM()))
        let subject = String(decoding: try openssl.run("x509", "-in", "cert.pem", "-noout", "-subject"), as: UTF8.self)
        #expect(subject.contains("CN = test.example"))
    }

    /// Game Center's form: DER, dated from given instants, with an organization; the same key and
    /// dates give the same bytes, and the key read back from them verifies what the key signed.
    @Test func derCertificatesAreDatedAsAskedAndGiveTheKeyBack() throws {
        let openssl = try OpenSSLCommandLine()
        let key = try SigningKey.generateRSA()
        let validity = CertificateValidity.between(notBefore: 1_700_000_000, notAfter: 1_800_000_000)
        let der = try key.selfSignedCertificateDER(commonName: "gc-test", organization: "Tests", serial: 9, validity: validity)
        #expect(try key.selfSignedCertificateDER(commonName: "gc-test", organization: "Tests", serial: 9, validity: validity) == der)
        try openssl.write("cert.der", der)
        let text = String(
            decoding: try openssl.run("x509", "-inform", "DER", "-in", "cert.der", "-noout", "-subject", "-startdate", "-enddate"),
            as: UTF8.self)
        #expect(text.contains("CN = gc-test") && text.contains("O = Tests"))
        #expect(text.contains("notBefore=Nov 14 22:13:20 2023 GMT"))
        #expect(text.contains("notAfter=Jan 15 08:00:00 2027 GMT"))
        let read = try VerificationKey(certificateDER: der)
        #expect(read.verify(signature: try key.sign(Self.message), over: Self.message, algorithm: .rs256))
        #expect(throws: (any Error).self) { try VerificationKey(certificateDER: Array(der.dropLast(10))) }
    }

    @Test func sha256MatchesTheCommandLine() throws {
        let cli = try OpenSSLCommandLine()
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try cli.write("data.bin", bytes)
        let digest = try cli.run("dgst", "-sha256", "-binary", "data.bin")
        #expect(SHA256.hash(bytes) == digest)
    }

    @Test func rsaKeyFromTheCommandLineSignsLikeTheCommandLine() throws {
        let cli = try OpenSSLCommandLine()
        try cli.run("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem")
        try cli.run("pkey", "-in", "key.pem", "-pubout", "-out", "public.pem")
        try cli.write("message.bin", Self.message)
        try cli.run("dgst", "-sha256", "-sign", "key.pem", "-out", "signature.bin", "message.bin")
        let cliSignature = try cli.read("signature.bin")

        let key = try SigningKey(privateKeyPEM: try cli.readText("key.pem"))
        #expect(key.algorithm == .rs256)
        // PKCS#1 v1.5 is deterministic, so both implementations must produce identical bytes.
        #expect(try key.sign(Self.message) == cliSignature)

        let publicKey = try VerificationKey(publicKeyPEM: try cli.readText("public.pem"))
        #expect(publicKey.verify(signature: cliSignature, over: Self.message, algorithm: .rs256))
    }

    @Test func traditionalPEMKeysLoad() throws {
        let cli = try OpenSSLCommandLine()
        try cli.run("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "rsa.pem")
        try cli.run("pkey", "-in", "rsa.pem", "-traditional", "-out", "rsa-traditional.pem")
        try cli.run("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ec-traditional.pem")

        let rsaPEM = try cli.readText("rsa-traditional.pem")
        let ecPEM = try cli.readText("ec-traditional.pem")
        #expect(rsaPEM.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        #expect(ecPEM.hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
        #expect(try SigningKey(privateKeyPEM: rsaPEM).algorithm == .rs256)
        #expect(try SigningKey(privateKeyPEM: ecPEM).algorithm == .es256)
        // A successful load leaves nothing behind to pollute the next error message.
        #expect(OpenSSLErrorQueue.isEmpty)
    }

    @Test func ourRSASignatureVerifiesWithTheCommandLine() throws {
        let cli = try OpenSSLCommandLine()
        try cli.write("public.pem", try TestKeys.rsa.publicKey.publicKeyPEM())
        try cli.write("message.bin", Self.message)
        try cli.write("signature.bin", try TestKeys.rsa.sign(Self.message))
        let output = try cli.run(
            "dgst", "-sha256", "-verify", "public.pem", "-signature", "signature.bin", "message.bin")
        #expect(String(decoding: output, as: UTF8.self).contains("Verified OK"))
    }

    @Test func p256KeyAndSignatureFromTheCommandLineVerify() throws {
        let cli = try OpenSSLCommandLine()
        try cli.run("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "key.pem")
        try cli.run("pkey", "-in", "key.pem", "-pubout", "-out", "public.pem")
        try cli.write("message.bin", Self.message)
        try cli.run("dgst", "-sha256", "-sign", "key.pem", "-out", "signature.der", "message.bin")

        let raw = try #require(ECDSASignatureDER.raw(fromDER: try cli.read("signature.der")))
        let publicKey = try VerificationKey(publicKeyPEM: try cli.readText("public.pem"))
        #expect(publicKey.algorithm == .es256)
        #expect(publicKey.verify(signature: raw, over: Self.message, algorithm: .es256))

        let privateKey = try SigningKey(privateKeyPEM: try cli.readText("key.pem"))
        #expect(privateKey.publicKey.jwk(keyID: "k") == publicKey.jwk(keyID: "k"))
    }

    @Test func ourP256SignatureVerifiesWithTheCommandLine() throws {
        let cli = try OpenSSLCommandLine()
        let raw = try TestKeys.p256.sign(Self.message)
        #expect(raw.count == 64)
        try cli.write("public.pem", try TestKeys.p256.publicKey.publicKeyPEM())
        try cli.write("message.bin", Self.message)
        try cli.write("signature.der", ECDSASignatureDER.der(fromRaw: raw))
        let output = try cli.run(
            "dgst", "-sha256", "-verify", "public.pem", "-signature", "signature.der", "message.bin")
        #expect(String(decoding: output, as: UTF8.self).contains("Verified OK"))
    }

    @Test func ourPrivateKeyPEMIsValidPKCS8ForTheCommandLine() throws {
        let cli = try OpenSSLCommandLine()
        for (name, key) in [("rsa", TestKeys.rsa), ("ec", TestKeys.p256)] {
            let pem = try key.privateKeyPEM()
            #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
            try cli.write("\(name).pem", pem)
            let check = try cli.run("pkey", "-in", "\(name).pem", "-check", "-noout")
            #expect(String(decoding: check, as: UTF8.self).contains("valid"))
            // The public half the CLI derives equals the one we export.
            let derivedPublic = try cli.run("pkey", "-in", "\(name).pem", "-pubout")
            #expect(String(decoding: derivedPublic, as: UTF8.self) == (try key.publicKey.publicKeyPEM()))
        }
    }

    @Test func rsaJWKMembersMatchTheCommandLineModulus() throws {
        let cli = try OpenSSLCommandLine()
        try cli.write("public.pem", try TestKeys.rsa.publicKey.publicKeyPEM())
        let printed = String(decoding: try cli.run("rsa", "-pubin", "-in", "public.pem", "-noout", "-modulus"), as: UTF8.self)
        let modulusHex = printed.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "Modulus=", with: "").lowercased()

        let jwk = TestKeys.rsa.publicKey.jwk(keyID: "k")
        let nText = try #require(jwk["n"]?.stringValue)
        let n = try #require(Base64URL.decode(nText))
        #expect(n.count == 256)
        #expect(n.first != 0)
        #expect(Hex.lowercase(n) == modulusHex)
        #expect(jwk["e"] == "AQAB")
    }

    @Test func ecJWKMembersMatchTheCommandLinePoint() throws {
        let cli = try OpenSSLCommandLine()
        try cli.write("public.pem", try TestKeys.p256.publicKey.publicKeyPEM())
        // SubjectPublicKeyInfo DER for P-256 ends with the 65-byte uncompressed point 04 ‖ x ‖ y.
        let der = try cli.run("pkey", "-pubin", "-in", "public.pem", "-outform", "DER")
        let point = Array(der.suffix(65))
        #expect(point.first == 0x04)

        let jwk = TestKeys.p256.publicKey.jwk(keyID: "k")
        #expect(Base64URL.decode(jwk["x"]?.stringValue ?? "") == Array(point[1...32]))
        #expect(Base64URL.decode(jwk["y"]?.stringValue ?? "") == Array(point[33...64]))
    }

    @Test func unsupportedKeysFromTheCommandLineAreRejected() throws {
        let cli = try OpenSSLCommandLine()
        try cli.run("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "p384.pem")
        try cli.run("genpkey", "-algorithm", "ED25519", "-out", "ed25519.pem")
        try cli.run("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", "rsa1024.pem")
        try cli.run("pkey", "-in", "p384.pem", "-pubout", "-out", "p384-public.pem")

        for name in ["p384.pem", "ed25519.pem", "rsa1024.pem"] {
            let pem = try cli.readText(name)
            #expect(throws: JOSEError.self, "\(name)") { try SigningKey(privateKeyPEM: pem) }
        }
        let publicPEM = try cli.readText("p384-public.pem")
        #expect(throws: JOSEError.self) { try VerificationKey(publicKeyPEM: publicPEM) }
    }

    @Test func encryptedPEMIsRefusedWithoutPrompting() throws {
        let cli = try OpenSSLCommandLine()
        try cli.run(
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
            "-aes-128-cbc", "-pass", "pass:secret", "-out", "encrypted.pem")
        let pem = try cli.readText("encrypted.pem")
        #expect(pem.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        #expect(throws: JOSEError.self) { try SigningKey(privateKeyPEM: pem) }
        #expect(OpenSSLErrorQueue.isEmpty)
    }
}
