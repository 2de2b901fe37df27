import JSON

/// Private JWK members (RFC 7518 §6.3.2, §6.2.2) on top of the public ones. Used to load published
/// test keys (RFC 7515 appendix A); the emulator itself generates its keys.
struct PrivateKeyParameters {
    let publicParameters: PublicKeyParameters
    /// Name and big-endian value of each private member, in OpenSSL's terms.
    let privateIntegers: [(name: String, value: [UInt8])]

    init(jwk: JSONObject) throws {
        publicParameters = try PublicKeyParameters(jwk: jwk)
        switch publicParameters {
        case .rsa:
            privateIntegers = [
                (ParameterName.rsaPrivateExponent, try JWKMember.integer("d", in: jwk)),
                (ParameterName.rsaFactor1, try JWKMember.integer("p", in: jwk)),
                (ParameterName.rsaFactor2, try JWKMember.integer("q", in: jwk)),
                (ParameterName.rsaExponent1, try JWKMember.integer("dp", in: jwk)),
                (ParameterName.rsaExponent2, try JWKMember.integer("dq", in: jwk)),
                (ParameterName.rsaCoefficient1, try JWKMember.integer("qi", in: jwk)),
            ]
        case .p256:
            privateIntegers = [(ParameterName.privateKey, try JWKMember.coordinate("d", in: jwk))]
        }
    }

    /// Builds the key pair and checks that the private half matches the public half.
    func makeKey() throws -> PKey {
        var builder = ParameterBuilder()
        try publicParameters.push(into: &builder)
        for (name, value) in privateIntegers { try builder.push(name, integer: value) }
        let key = try builder.makeKey(type: publicParameters.keyType, selection: .keyPair)
        try KeyCheck.pairwise(key)
        return key
    }
}
