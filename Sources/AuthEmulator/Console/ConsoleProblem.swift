/// What was wrong with a console form post, in words a person reads, and the field it concerns.
/// A domain error (`EMAIL_EXISTS`, `INVALID_CLAIMS : …`) becomes a sentence; its code stays beside
/// it, small, for whoever looks it up. The console's own checks throw one directly.
struct ConsoleProblem: Error, Equatable {
    /// The form field the problem is about (`email`, `claims`, …), or nil for the whole form.
    let field: String?
    let words: String
    /// The emulator's error code, when the problem came from the domain.
    let code: String?

    init(field: String?, _ words: String) {
        self.field = field
        self.words = words
        code = nil
    }

    /// `CODE` or `CODE : detail`: the sentence the table below has for the code, else the detail
    /// the operation gave, else the code read as words.
    init(_ error: AuthError) {
        let message = error.message
        let parts = message.split(separator: ":", maxSplits: 1)
        let code = parts.first.map { $0.trimmingWhitespace() } ?? message
        let detail = parts.count > 1 ? parts[1].trimmingWhitespace() : nil
        let isCode = !code.isEmpty && code.allSatisfy { $0.isUppercase || $0 == "_" || $0.isNumber }
        guard isCode else {
            // Already a sentence (the console's security refusals, "Unknown action.").
            self.field = nil
            words = message
            self.code = nil
            return
        }
        self.code = code
        let known = Self.sentences[code]
        field = known?.field
        if let known {
            words = known.words(detail)
        } else if let detail, !detail.isEmpty {
            words = detail
        } else {
            words = code.replacingEvery("_", with: " ").lowercased().capitalizedFirst + "."
        }
    }

    /// `body`, its domain error placed at `field` (an operation that checks one form field).
    static func about<T>(_ field: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as AuthError {
            let problem = ConsoleProblem(error)
            throw ConsoleProblem(field: field, words: problem.words, code: problem.code)
        }
    }

    private init(field: String?, words: String, code: String?) {
        self.field = field
        self.words = words
        self.code = code
    }

    /// The sentence for a flash message: the words and the code in brackets.
    var flashText: String { code.map { "\(words) (\($0))" } ?? words }

    private struct Sentence: Sendable {
        let field: String?
        let words: @Sendable (String?) -> String
    }

    private static func sentence(_ field: String?, _ words: String) -> Sentence {
        Sentence(field: field) { _ in words }
    }

    /// The codes a console form meets, by the field they concern.
    private static let sentences: [String: Sentence] = [
        "EMAIL_EXISTS": sentence("email", "Another user already has this email."),
        "INVALID_EMAIL": Sentence(field: "email") { detail in
            detail ?? "This is not an email address: it needs a name, an @ and a domain."
        },
        "MISSING_EMAIL": sentence("email", "Enter an email: an email and password user needs one."),
        "MISSING_PASSWORD": sentence("password", "Enter a password: an email and password user needs one."),
        "WEAK_PASSWORD": sentence("password", "The password is too short: use at least 6 characters."),
        "INVALID_PHONE_NUMBER": sentence(
            "phoneNumber", "This is not a phone number in international form: a + and the country code, e.g. +16505551234."),
        "PHONE_NUMBER_EXISTS": sentence("phoneNumber", "Another user already has this phone number."),
        "MISSING_PHONE_NUMBER": sentence("phoneNumber", "Enter a phone number: a phone user needs one."),
        "INVALID_CLAIMS": sentence("claims", "Custom claims must be a JSON object, such as {\"admin\": true}."),
        "CLAIMS_TOO_LARGE": sentence("claims", "Custom claims may be at most 1000 characters of JSON."),
        "FORBIDDEN_CLAIM": Sentence(field: "claims") { detail in
            "“\(detail ?? "")” is a claim Firebase sets itself and may not be a custom claim; choose another name."
        },
        "DUPLICATE_LOCAL_ID": sentence("uid", "Another user already has this uid."),
        "DUPLICATE_RAW_ID": sentence("sub", "Another user is already linked to this provider uid."),
        "NEED_CONFIRMATION": Sentence(field: "email") { detail in
            detail ?? "The email already belongs to another user; an unverified provider email cannot sign in to it."
        },
        "INVALID_CONTINUE_URI": sentence("continueUrl", "The continue URL must be an absolute URL, such as https://app.example.com/done."),
        "USER_NOT_FOUND": sentence(nil, "This user does not exist (any more)."),
        "OPERATION_NOT_ALLOWED": Sentence(field: nil) { detail in
            detail ?? "The project's settings do not allow this sign-in method."
        },
        "INVALID_TEST_PHONE_NUMBER_CODE": Sentence(field: "numbers") { detail in
            detail ?? "Each test number's code must be six digits."
        },
    ]
}

extension String {
    /// The first character in upper case: `email exists` → `Email exists`.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
