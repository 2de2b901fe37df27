internal import COpenSSL

/// When a certificate the emulator makes is valid.
public enum CertificateValidity: Sendable {
    /// From a minute ago (clock skew) for this many seconds of real time.
    case fromNow(seconds: Int)
    /// Between two instants, in seconds since the epoch: the same key always gives the same bytes.
    case between(notBefore: Int64, notAfter: Int64)
}

extension SigningKey {
    /// A self-signed X.509 certificate for this key's public half (SHA-256 signature), in PEM:
    /// what Google's `x509` key endpoints publish for verifiers that want certificates, not JWKs.
    public func selfSignedCertificatePEM(commonName: String, serial: Int, validSeconds: Int) throws -> String {
        try withSelfSignedCertificate(commonName: commonName, organization: nil, serial: serial, validity: .fromNow(seconds: validSeconds)) {
            certificate in
            try PEMCodec.withWriteBIO(BIO_s_mem(), "certificate") { PEM_write_bio_X509($0, certificate) }
        }
    }

    /// The same certificate in DER: what Game Center's `publicKeyUrl` serves (Apple's `.cer` files).
    public func selfSignedCertificateDER(
        commonName: String, organization: String?, serial: Int, validity: CertificateValidity
    ) throws -> [UInt8] {
        try withSelfSignedCertificate(commonName: commonName, organization: organization, serial: serial, validity: validity) {
            certificate in
            let length = Int(i2d_X509(certificate, nil))
            guard length > 0 else { throw OpenSSLErrorQueue.error("cannot encode certificate") }
            var der = [UInt8](repeating: 0, count: length)
            let written = der.withUnsafeMutableBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return Int(i2d_X509(certificate, &cursor))
            }
            guard written == length else { throw OpenSSLErrorQueue.error("cannot encode certificate") }
            return der
        }
    }

    private func withSelfSignedCertificate<Result>(
        commonName: String, organization: String?, serial: Int, validity: CertificateValidity,
        _ body: (OpaquePointer) throws -> Result
    ) throws -> Result {
        guard let certificate = X509_new() else { throw OpenSSLErrorQueue.error("cannot allocate certificate") }
        defer { X509_free(certificate) }
        let datesSet: Bool
        switch validity {
        case .fromNow(let seconds):
            datesSet = X509_gmtime_adj(X509_getm_notBefore(certificate), -60) != nil
                && X509_gmtime_adj(X509_getm_notAfter(certificate), seconds) != nil
        case .between(let notBefore, let notAfter):
            datesSet = ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(notBefore)) != nil
                && ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(notAfter)) != nil
        }
        guard X509_set_version(certificate, 2) == 1,  // v3
            ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial) == 1,
            datesSet,
            X509_set_pubkey(certificate, key.pointer) == 1,
            let name = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1,
            organization.map({ X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, $0, -1, -1, 0) == 1 }) ?? true,
            X509_set_issuer_name(certificate, name) == 1,
            X509_sign(certificate, key.pointer, EVP_sha256()) > 0
        else { throw OpenSSLErrorQueue.error("cannot make a self-signed certificate") }
        return try body(certificate)
    }
}

extension VerificationKey {
    /// The public key a DER X.509 certificate names (its own signature is not checked: whoever
    /// trusts the certificate's source trusts its key, as a Game Center verifier does).
    public init(certificateDER der: [UInt8]) throws {
        let certificate: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let certificate else { throw OpenSSLErrorQueue.error("not a DER X.509 certificate") }
        defer { X509_free(certificate) }
        guard let key = X509_get_pubkey(certificate) else { throw OpenSSLErrorQueue.error("certificate has no public key") }
        try self.init(key: PKey(taking: key))
    }
}
