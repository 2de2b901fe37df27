internal import CMicroHTTPD

extension HTTPServer {
    /// The version of the libmicrohttpd linked at run time (`0.9.75`), which may differ from the
    /// headers it was built against.
    public static var libraryVersion: String { String(cString: MHD_get_version()) }
}
