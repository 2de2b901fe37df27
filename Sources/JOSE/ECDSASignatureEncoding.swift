internal import COpenSSL

/// OpenSSL signs and verifies ECDSA as DER `SEQUENCE { r INTEGER, s INTEGER }`; JWS (RFC 7518 §3.4)
/// uses the fixed-width `r ‖ s`, each left-padded to the curve size (32 bytes for P-256).
enum ECDSASignatureEncoding {
    static let scalarByteCount = 32
    static let rawByteCount = 2 * scalarByteCount

    static func raw(fromDER der: [UInt8]) throws -> [UInt8] {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw OpenSSLErrorQueue.error("cannot decode ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: rawByteCount)
        let fits = raw.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(ECDSA_SIG_get0_r(signature), buffer.baseAddress, Int32(scalarByteCount)) == scalarByteCount
                && BN_bn2binpad(
                    ECDSA_SIG_get0_s(signature), buffer.baseAddress! + scalarByteCount, Int32(scalarByteCount))
                    == scalarByteCount
        }
        guard fits else { throw JOSEError("ECDSA signature does not fit P-256") }
        return raw
    }

    /// Nil when `raw` is not exactly 64 bytes (such a signature simply fails to verify).
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawByteCount, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(scalarByteCount), nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + scalarByteCount, Int32(scalarByteCount), nil) }
        // ECDSA_SIG_set0 takes ownership of both numbers only when it succeeds.
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = Int(i2d_ECDSA_SIG(signature, nil))
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: length)
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return Int(i2d_ECDSA_SIG(signature, &cursor))
        }
        return written == length ? der : nil
    }
}
