#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's charset conversion (glibc's iconv on Linux, libiconv on macOS): the charsets a
/// mail may be written in, without linking Foundation's ICU tables for them.
enum Iconv {
    /// `bytes` in the charset named `charset`, as UTF-8; nil when iconv does not know the charset or
    /// the bytes are not valid in it.
    static func convertToUTF8(_ bytes: [UInt8], from charset: String) -> [UInt8]? {
        let converter = iconv_open("UTF-8", charset)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = bytes.map { CChar(bitPattern: $0) }
        // Four bytes of UTF-8 per input byte is the most any charset can need (one byte can be a
        // whole character), plus room for a shift sequence's reset.
        var output = [CChar](repeating: 0, count: bytes.count * 4 + 16)
        var inputLeft = input.count
        var outputLeft = output.count
        let converted = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                var inputPointer = input.baseAddress
                var outputPointer = output.baseAddress
                guard iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft) != -1 else { return false }
                // End the output in the initial shift state (ISO-2022-JP and other stateful charsets).
                return iconv(converter, nil, nil, &outputPointer, &outputLeft) != -1
            }
        }
        guard converted, inputLeft == 0 else { return nil }
        return output[..<(output.count - outputLeft)].map { UInt8(bitPattern: $0) }
    }
}
