internal import COpenSSL

/// OpenSSL 3 parameter names (core_names.h). Spelled out because the RSA CRT names are built by
/// macro string concatenation, which Swift does not import.
enum ParameterName {
    static let groupName = "group"
    static let publicKey = "pub"
    static let privateKey = "priv"
    static let ecPublicX = "qx"
    static let ecPublicY = "qy"
    static let rsaModulus = "n"
    static let rsaPublicExponent = "e"
    static let rsaPrivateExponent = "d"
    static let rsaFactor1 = "rsa-factor1"
    static let rsaFactor2 = "rsa-factor2"
    static let rsaExponent1 = "rsa-exponent1"
    static let rsaExponent2 = "rsa-exponent2"
    static let rsaCoefficient1 = "rsa-coefficient1"
}

/// Collects OpenSSL parameters (`OSSL_PARAM_BLD`) and turns them into an `EVP_PKEY`.
///
/// The builder keeps *pointers* to the names, strings, buffers and big numbers it is given until
/// `OSSL_PARAM_BLD_to_param` copies them, so everything pushed is copied into storage owned here
/// and released (zeroed first: some of it is private key material) when the builder goes away.
struct ParameterBuilder: ~Copyable {
    private let builder: OpaquePointer
    private var numbers: [BigNumber] = []
    private var buffers: [UnsafeMutableRawBufferPointer] = []

    init() {
        guard let builder = OSSL_PARAM_BLD_new() else { fatalError("OSSL_PARAM_BLD_new: out of memory") }
        self.builder = builder
    }

    deinit {
        OSSL_PARAM_BLD_free(builder)
        for buffer in buffers {
            OPENSSL_cleanse(buffer.baseAddress, buffer.count)
            buffer.deallocate()
        }
    }

    mutating func push(_ name: String, integer bigEndian: [UInt8]) throws {
        let number = try BigNumber(bigEndian: bigEndian)
        numbers.append(number)
        guard OSSL_PARAM_BLD_push_BN(builder, retained(name), number.pointer) == 1 else {
            throw OpenSSLErrorQueue.error("cannot set key parameter \(name)")
        }
    }

    mutating func push(_ name: String, text: String) throws {
        let key = retained(name)
        guard OSSL_PARAM_BLD_push_utf8_string(builder, key, retained(text), 0) == 1 else {
            throw OpenSSLErrorQueue.error("cannot set key parameter \(name)")
        }
    }

    mutating func push(_ name: String, octets: [UInt8]) throws {
        let key = retained(name)
        let buffer = retained(octets)
        guard OSSL_PARAM_BLD_push_octet_string(builder, key, buffer.baseAddress, buffer.count) == 1 else {
            throw OpenSSLErrorQueue.error("cannot set key parameter \(name)")
        }
    }

    enum Selection {
        case publicKey
        case keyPair

        var bits: Int32 {
            switch self {
            case .publicKey: return copenssl_selection_public_key()
            case .keyPair: return copenssl_selection_keypair()
            }
        }
    }

    /// `EVP_PKEY_fromdata` for key type `type` ("RSA", "EC") from the parameters pushed so far.
    func makeKey(type: String, selection: Selection) throws -> PKey {
        guard let parameters = OSSL_PARAM_BLD_to_param(builder) else {
            throw OpenSSLErrorQueue.error("cannot build key parameters")
        }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            throw OpenSSLErrorQueue.error("cannot create \(type) key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, selection.bits, parameters) == 1,
            let key
        else { throw OpenSSLErrorQueue.error("invalid \(type) key parameters") }
        return PKey(taking: key)
    }

    /// A NUL-terminated copy of `text` that lives as long as the builder.
    private mutating func retained(_ text: String) -> UnsafePointer<CChar> {
        let buffer = retained(Array(text.utf8) + [0])
        return UnsafePointer(buffer.bindMemory(to: CChar.self).baseAddress!)
    }

    /// A copy of `bytes` that lives as long as the builder (never empty, so never a nil base address).
    private mutating func retained(_ bytes: [UInt8]) -> UnsafeRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        buffer.copyBytes(from: bytes)
        buffers.append(buffer)
        return UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count])
    }
}
