internal import COpenSSL

/// The OpenSSL library that does the crypto.
public enum OpenSSLLibrary {
    /// The version of libcrypto linked at run time (`3.0.15`), without its build date.
    public static var version: String { String(cString: OpenSSL_version(OPENSSL_VERSION_STRING)) }
}
