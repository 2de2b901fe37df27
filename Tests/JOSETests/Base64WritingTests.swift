import Foundation
import JOSE
import JSON
import Testing

/// Base64 is written two characters per table read, into a caller's buffer (an unsigned token is
/// one string: header segment, payload, dot). These pin the bytes against Foundation's encoder
/// and the token against its parts joined the plain way.
@Suite struct Base64WritingTests {
    /// Bytes of every length up to a few hundred, every value and every length modulo 3.
    static let inputs: [[UInt8]] = (0..<300).map { length in
        (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ length &* 31) }
    }

    @Test func standardAndURLSafeMatchFoundation() {
        for input in Self.inputs {
            let foundation = Data(input).base64EncodedString()
            #expect(Base64Encoding.standard.encode(input) == foundation)
            #expect(Base64Encoding.standard.encode(input[...]) == foundation)
            let urlSafe = foundation.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(input) == urlSafe)
            #expect(Base64Encoding.urlSafe.encode(input) == urlSafe)
            #expect(Base64URL.decode(urlSafe) == input)
        }
        // Every byte value in every position of a group.
        for shift in 0..<3 {
            let input = [UInt8](repeating: 0, count: shift) + (0...255).map { UInt8($0) }
            #expect(Base64Encoding.standard.encode(input) == Data(input).base64EncodedString())
        }
    }

    @Test func unsignedTokenIsHeaderPayloadAndDotJoined() throws {
        for input in Self.inputs {
            // Any bytes: the token's writer does not read the payload, only encodes it.
            let token = CompactJWT.unsigned(payloadJSON: input)
            #expect(token == "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + Base64URL.encode(input) + ".")
        }
        let payload: JSONObject = ["sub": "u1", "n": 1, "s": "Zoë \"x\""]
        #expect(
            CompactJWT.unsigned(payload: payload)
                == Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + Base64URL.encode(payload.encoded()) + ".")
        #expect(try CompactJWT(parsing: CompactJWT.unsigned(payload: payload)).payload == payload)
    }
}
