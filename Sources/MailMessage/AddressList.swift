/// The addresses in an address header (`To: Ada <ada@example.com>, "Lovelace, A." <a@example.com>`):
/// the part in angle brackets, or a bare `local@domain`; display names, comments and group names
/// are dropped (RFC 5322 §3.4).
enum AddressList {
    static func addresses(in header: String) -> [String] {
        var addresses: [String] = []
        var current = ""
        var quoted = false
        var commentDepth = 0
        func finish() {
            defer { current = "" }
            let mailbox = current.trimmingCharacters(in: " \t;")
            if let open = mailbox.lastIndex(of: "<"), let close = mailbox.lastIndex(of: ">"), open < close {
                let address = mailbox[mailbox.index(after: open)..<close].trimmingCharacters(in: " ")
                if !address.isEmpty { addresses.append(address) }
            } else if mailbox.contains("@") {
                // A group's name ends with ':' (`friends: a@example.com, b@example.com;`).
                let address = mailbox.split(separator: ":").last.map(String.init)?.trimmingCharacters(in: " ") ?? mailbox
                addresses.append(address)
            }
        }
        for character in header {
            if commentDepth > 0 {
                if character == "(" { commentDepth += 1 } else if character == ")" { commentDepth -= 1 }
                continue
            }
            switch character {
            case "\"": quoted.toggle(); current.append(character)
            case "(" where !quoted: commentDepth = 1
            case "," where !quoted: finish()
            default: current.append(character)
            }
        }
        finish()
        return addresses
    }
}
