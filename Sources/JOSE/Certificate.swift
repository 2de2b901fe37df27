internal import COpenSSL

extension SigningKey {
    /// A self-signed X.509 certificate for this key's public half (SHA-256 signature), in PEM:
    /// what Google's `x509` key endpoints publish for verifiers that want certificates, not JWKs.
    public func selfSignedCertificatePEM(commonName: String, serial: Int, validSeconds: Int) throws -> String {
        guard let certificate = X509_new() else { throw OpenSSLErrorQueue.error("cannot allocate certificate") }
        defer { X509_free(certificate) }
        guard X509_set_version(certificate, 2) == 1,  // v3
            ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial) == 1,
            X509_gmtime_adj(X509_getm_notBefore(certificate), -60) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), validSeconds) != nil,
            X509_set_pubkey(certificate, key.pointer) == 1,
            let name = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, name) == 1,
            X509_sign(certificate, key.pointer, EVP_sha256()) > 0
        else { throw OpenSSLErrorQueue.error("cannot make a self-signed certificate") }
        return try PEMCodec.withWriteBIO(BIO_s_mem(), "certificate") { PEM_write_bio_X509($0, certificate) }
    }
}
