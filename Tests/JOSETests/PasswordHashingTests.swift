import Testing

@testable import JOSE

/// Published vectors for every primitive imported password hashes use.
@Suite struct PasswordHashingTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
    static func bytes(_ hex: String) -> [UInt8] {
        var output: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            output.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return output
    }
    static let abc = Array("abc".utf8)

    @Test func digestsMatchFIPSVectors() {
        #expect(Self.hex(MessageDigest.hash(.md5, Self.abc)) == "900150983cd24fb0d6963f7d28e17f72")  // RFC 1321
        #expect(Self.hex(MessageDigest.hash(.sha1, Self.abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            Self.hex(MessageDigest.hash(.sha256, Self.abc))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex(MessageDigest.hash(.sha512, Self.abc))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    }

    @Test func hmacMatchesRFC2202AndRFC4231() {
        let key = Array("Jefe".utf8)
        let message = Array("what do ya want for nothing?".utf8)
        #expect(Self.hex(HMAC.authenticationCode(.md5, key: key, message: message)) == "750c783e6ab0b503eaa86e310a5db738")
        #expect(
            Self.hex(HMAC.authenticationCode(.sha1, key: key, message: message)) == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        #expect(
            Self.hex(HMAC.authenticationCode(.sha512, key: key, message: message))
                == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737")
    }

    @Test func pbkdf2MatchesRFC6070AndRFC7914() {
        let password = Array("password".utf8)
        let salt = Array("salt".utf8)
        #expect(
            KeyDerivation.pbkdf2(.sha1, password: password, salt: salt, iterations: 1, length: 20).map(Self.hex)
                == "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        #expect(
            KeyDerivation.pbkdf2(.sha1, password: password, salt: salt, iterations: 4096, length: 20).map(Self.hex)
                == "4b007901b765489abead49d926f721d065a429c1")
        #expect(
            KeyDerivation.pbkdf2(.sha256, password: Array("passwd".utf8), salt: salt, iterations: 1, length: 64).map(Self.hex)
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
        #expect(KeyDerivation.pbkdf2(.sha1, password: password, salt: salt, iterations: 0, length: 20) == nil)
    }

    @Test func scryptMatchesRFC7914() {
        let key = KeyDerivation.scrypt(
            password: Array("password".utf8), salt: Array("NaCl".utf8), n: 1024, r: 8, p: 16, length: 64)
        #expect(
            key.map(Self.hex)
                == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
        #expect(KeyDerivation.scrypt(password: [], salt: [], n: 1000, r: 8, p: 1, length: 32) == nil)
    }

    @Test func aesCounterModeMatchesSP800_38A() {
        let key = Self.bytes("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
        let counter = Self.bytes("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
        let plain = Self.bytes("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")
        #expect(
            AESCounterMode.aes256(key: key, iv: counter, plain).map(Self.hex)
                == "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5")
        #expect(AESCounterMode.aes256(key: [1], iv: counter, plain) == nil)
    }

    /// Firebase's modified scrypt, the example in github.com/firebase/scrypt's README.
    @Test func firebaseScryptReadmeExample() {
        let signerKey = Base64URL.decode(
            "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!
        let salt = Base64URL.decode("42xEC-ixf3L2lw==")! + Base64URL.decode("Bw==")!
        let derived = KeyDerivation.scrypt(password: Array("user1password".utf8), salt: salt, n: 1 << 14, r: 8, p: 1, length: 32)!
        let hash = AESCounterMode.aes256(key: derived, iv: [UInt8](repeating: 0, count: 16), signerKey)!
        #expect(
            Base64URL.encode(hash)
                == "lSrfV15cpx95_sZS2W9c9Kp6i_LVgQNDNC_qzrCnh1SAyZvqmZqAjTdn3aoItz-VHjoZilo78198JAdRuid5lQ")
    }

    /// OpenBSD's and jBCrypt's published vectors.
    static let bcryptVectors: [(password: String, encoded: String)] = [
        ("", "$2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s."),
        ("abc", "$2a$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i"),
        ("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
    ]

    @Test(arguments: bcryptVectors)
    func bcryptMatchesPublishedVectors(password: String, encoded: String) {
        #expect(BCrypt.verify(Array(password.utf8), encoded: encoded))
        #expect(!BCrypt.verify(Array((password + "x").utf8), encoded: encoded))
        let variant = "$2b" + encoded.dropFirst(3)
        #expect(BCrypt.verify(Array(password.utf8), encoded: variant))
    }

    @Test func bcryptRefusesMalformedHashes() {
        #expect(!BCrypt.verify(Array("abc".utf8), encoded: "$2a$06$short"))
        #expect(!BCrypt.verify(Array("abc".utf8), encoded: "$2x$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i"))
        #expect(!BCrypt.verify(Array("abc".utf8), encoded: "$2a$99$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i"))
    }
}
