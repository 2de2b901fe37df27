import Testing
@testable import JSON

/// The word-at-a-time search against a byte-by-byte one, at every alignment and length.
@Suite struct ByteSearchTests {
    @Test func findsWhatAByteLoopFinds() {
        // Bytes near the targets (one below and above, 0x80 and 0xFF beside them) catch a wrong borrow.
        let alphabet: [UInt8] = [0x26, 0x25, 0x27, 0x3D, 0x00, 0x01, 0x80, 0xFF, 0xFE, 0x41, 0xA6]
        var generator = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for length in 0..<40 {
            for _ in 0..<12 {
                let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
                bytes.withUnsafeBufferPointer { buffer in
                    for target in [UInt8(0x26), 0x3D, 0x00, 0xFF] {
                        for start in 0...min(length, 9) {
                            for end in start...length {
                                let expected = bytes[start..<end].firstIndex(of: target) ?? end
                                let found = ByteSearch.firstIndex(of: target, in: buffer, range: start..<end)
                                let contained = ByteSearch.contains(target, in: buffer, range: start..<end)
                                if found != expected || contained != (expected < end) {
                                    mismatches.append("\(bytes) \(target) \(start)..<\(end): \(found), expected \(expected)")
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
