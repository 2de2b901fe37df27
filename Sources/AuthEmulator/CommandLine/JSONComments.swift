/// The comments the Firebase CLI allows in firebase.json and .firebaserc (it reads them with
/// cjson): `// …` to the end of the line and `/* … */`, outside strings.
enum JSONComments {
    /// `bytes` with every comment replaced by spaces (its line breaks kept), so that a parse
    /// error's offset still points at the same line and column of the file.
    static func blanked(_ bytes: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        var result = bytes
        var index = 0
        var inString = false
        while index < result.count {
            let byte = result[index]
            if inString {
                if byte == backslash {
                    index += 1
                } else if byte == quote {
                    inString = false
                }
            } else if byte == quote {
                inString = true
            } else if byte == slash, index + 1 < result.count, result[index + 1] == slash || result[index + 1] == star {
                let block = result[index + 1] == star
                var end = index + 2
                while end < result.count, block ? !(result[end] == star && end + 1 < result.count && result[end + 1] == slash) : result[end] != newline {
                    end += 1
                }
                if block { end = min(end + 2, result.count) }
                for position in index..<end where result[position] != newline { result[position] = space }
                index = end
                continue
            }
            index += 1
        }
        return result
    }
}
