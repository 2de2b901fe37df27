/// Shortens the secrets an error message may quote (ID and refresh tokens, provider tokens, oob
/// codes, hashed nonces, page tokens) before it goes to the log (DESIGN §4.1: never a whole token
/// in a log line), and keeps the message on one line.
///
/// A secret is recognised by its shape, since messages are free text: a run of token characters
/// (letters, digits, `-_.~+`) at least 20 long that mixes letters and digits and is either mixed case
/// or hex. Emails, URLs' hosts and paths, timestamps, phone numbers and provider ids stay readable;
/// query values inside a URL are judged on their own.
enum LogRedaction {
    static let minimumSecretLength = 20
    static let keptPrefix = 6
    static let maximumLength = 600

    static func shorten(_ message: String) -> String {
        var output = ""
        var run: [Unicode.Scalar] = []
        func flush() {
            guard !run.isEmpty else { return }
            // A full stop after a token ends the sentence; it is not part of the token.
            let word = run[...].dropLastWhile { $0 == "." }
            if looksSecret(word) {
                output.unicodeScalars.append(contentsOf: word.prefix(keptPrefix))
                output += "…(\(word.count))"
                output.unicodeScalars.append(contentsOf: run[word.endIndex...])
            } else {
                output.unicodeScalars.append(contentsOf: run)
            }
            run.removeAll(keepingCapacity: true)
        }
        for scalar in message.unicodeScalars {
            if isTokenCharacter(scalar) {
                run.append(scalar)
                continue
            }
            flush()
            // One line: control characters (newlines in a quoted value) become spaces.
            output.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar)
        }
        flush()
        guard output.unicodeScalars.count > maximumLength else { return output }
        return String(String.UnicodeScalarView(output.unicodeScalars.prefix(maximumLength))) + "…"
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "~", "+": return true
        default: return false
        }
    }

    private static func looksSecret(_ run: ArraySlice<Unicode.Scalar>) -> Bool {
        guard run.count >= minimumSecretLength else { return false }
        var digits = false, lower = false, upper = false, nonHex = false
        for scalar in run {
            switch scalar {
            case "0"..."9": digits = true
            case "a"..."f": lower = true
            case "g"..."z": lower = true; nonHex = true
            case "A"..."F": upper = true
            case "G"..."Z": upper = true; nonHex = true
            default: nonHex = true
            }
        }
        let mixedCase = lower && upper
        let hex = !nonHex && (lower != upper)
        return digits && (lower || upper) && (mixedCase || hex)
    }
}

extension ArraySlice {
    fileprivate func dropLastWhile(_ predicate: (Element) -> Bool) -> ArraySlice {
        var end = endIndex
        while end > startIndex, predicate(self[end - 1]) { end -= 1 }
        return self[startIndex..<end]
    }
}
