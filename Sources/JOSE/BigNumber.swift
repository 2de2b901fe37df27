internal import COpenSSL

/// Owns one `BIGNUM*` for the length of a key import or export; cleared on free because some hold
/// private exponents.
final class BigNumber {
    let pointer: OpaquePointer

    /// Big-endian unsigned magnitude.
    init(bigEndian bytes: [UInt8]) throws {
        guard let pointer = bytes.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) }) else {
            throw OpenSSLErrorQueue.error("cannot allocate a big number")
        }
        self.pointer = pointer
    }

    /// Takes ownership of a `BIGNUM*` OpenSSL allocated for us.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        BN_clear_free(pointer)
    }

    /// Minimal big-endian bytes (no leading zeros; empty for zero).
    var minimalBigEndian: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(pointer)) + 7) / 8)
        _ = BN_bn2bin(pointer, &bytes)
        return bytes
    }

    /// Big-endian bytes left-padded with zeros to `width`; nil if the number needs more.
    func bigEndian(paddedTo width: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: width)
        guard BN_bn2binpad(pointer, &bytes, Int32(width)) == width else { return nil }
        return bytes
    }

    /// Reads a big-number parameter (`n`, `e`, `qx`, ...) of `key`.
    static func parameter(_ name: String, of key: PKey) throws -> BigNumber {
        var result: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key.pointer, name, &result) == 1, let result else {
            throw OpenSSLErrorQueue.error("cannot read key parameter \(name)")
        }
        return BigNumber(taking: result)
    }
}
