internal import COpenSSL

/// Sole owner of one `EVP_PKEY*`; frees it when the last value type holding it goes away.
///
/// `@unchecked Sendable` is sound because:
/// - the key is immutable once the owner exists: this module never calls a setter on it
///   (`EVP_PKEY_set_*`, `EVP_PKEY_assign_*`, `EVP_PKEY_copy_parameters`), only getters, encoders,
///   and sign/verify initialisation, which take the key as `const` or only read it;
/// - openssl-threads(7) (OpenSSL 3.0): "Objects are thread-safe as long as the APIs being invoked
///   don't modify the object", and "two threads can calculate a signature using two different
///   EVP_PKEY_CTX objects". Every sign/verify here creates its own `EVP_MD_CTX` (and with it its own
///   `EVP_PKEY_CTX`), so no operation state is shared between threads. The key's internal caches
///   (the provider export cache, RSA blinding) are updated under OpenSSL's own locks.
final class PKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer` (the caller must not free it).
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }
}

/// What a key is, as far as JOSE cares; anything else is rejected when the key is loaded.
enum KeyKind: Sendable {
    case rsa
    case p256

    var algorithm: JWSAlgorithm {
        switch self {
        case .rsa: return .rs256
        case .p256: return .es256
        }
    }

    /// RFC 7518 §3.3: RS256 keys must be at least 2048 bits.
    static let minimumRSABits = 2048

    /// Classifies `key`, throwing for key types and sizes JOSE does not sign with.
    init(of key: PKey) throws {
        if EVP_PKEY_is_a(key.pointer, "RSA") == 1 {
            let bits = Int(EVP_PKEY_get_bits(key.pointer))
            guard bits >= Self.minimumRSABits else {
                throw JOSEError("RSA key has \(bits) bits; RS256 needs at least \(Self.minimumRSABits)")
            }
            self = .rsa
        } else if EVP_PKEY_is_a(key.pointer, "EC") == 1 {
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            guard EVP_PKEY_get_group_name(key.pointer, &name, name.count, &length) == 1 else {
                throw OpenSSLErrorQueue.error("EC key has no named curve")
            }
            let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard OBJ_txt2nid(curve) == NID_X9_62_prime256v1 else {
                throw JOSEError("EC key is on curve \(curve); ES256 needs P-256")
            }
            self = .p256
        } else {
            throw JOSEError("unsupported key type \(Self.typeName(of: key)); expected RSA or EC P-256")
        }
    }

    private static func typeName(of key: PKey) -> String {
        guard let name = EVP_PKEY_get0_type_name(key.pointer) else { return "(unknown)" }
        return String(cString: name)
    }
}
