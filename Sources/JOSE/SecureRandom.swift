internal import COpenSSL

public enum SecureRandom {
    /// `count` bytes from OpenSSL's CSPRNG.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition((0...Int(Int32.max)).contains(count), "SecureRandom.bytes: count out of range")
        guard count > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: count)
        let status = output.withUnsafeMutableBytes { RAND_bytes($0.baseAddress, Int32($0.count)) }
        // RAND_bytes fails only if the system entropy source is broken; continuing would hand out
        // predictable tokens, so stopping is the only safe answer.
        guard status == 1 else { fatalError("RAND_bytes failed: \(OpenSSLErrorQueue.drain())") }
        return output
    }
}
