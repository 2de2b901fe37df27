import JOSE
import JSON

/// One enrolled second factor (reference §10): an SMS phone or a TOTP authenticator.
public struct MFAEnrollment: Sendable, Equatable {
    public enum Factor: Sendable, Equatable {
        case phone(String)
        /// The shared secret; never shown after enrollment.
        case totp(secret: [UInt8])
    }

    public var mfaEnrollmentId: String
    public var displayName: String?
    public var enrolledAt: Instant
    public var factor: Factor

    /// `sign_in_second_factor` of tokens signed in with it.
    var providerName: String {
        switch factor {
        case .phone: "phone"
        case .totp: "totp"
        }
    }

    var phoneNumber: String? {
        if case .phone(let number) = factor { return number }
        return nil
    }

    /// As lookups show it (the official emulator shows admins the real number).
    var json: JSONObject {
        var object: JSONObject = ["mfaEnrollmentId": .string(mfaEnrollmentId)]
        object.setIfPresent("displayName", displayName.map { .string($0) })
        switch factor {
        case .phone(let number):
            object["phoneInfo"] = .string(number)
            object["unobfuscatedPhoneInfo"] = .string(number)
        case .totp:
            object["totpInfo"] = [:]
        }
        object["enrolledAt"] = .string(enrolledAt.rfc3339)
        return object
    }

    /// As a first-factor answer shows it to the app: every digit but the last four masked.
    var redactedJSON: JSONObject {
        var object = json
        object["unobfuscatedPhoneInfo"] = nil
        if let number = phoneNumber { object["phoneInfo"] = .string(Self.obfuscate(number)) }
        return object
    }

    static func obfuscate(_ phoneNumber: String) -> String {
        let digits = phoneNumber.filter(\.isNumber).count
        var seen = 0
        return String(phoneNumber.map { character in
            guard character.isNumber else { return character }
            seen += 1
            return seen <= digits - 4 ? "*" : character
        })
    }

    /// The stored form: like `json`, plus the TOTP secret in base32.
    var storedJSON: JSONObject {
        var object = json
        if case .totp(let secret) = factor { object["totpSecret"] = .string(Base32.encode(secret)) }
        return object
    }

    init(mfaEnrollmentId: String, displayName: String?, enrolledAt: Instant, factor: Factor) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.factor = factor
    }

    init?(stored object: JSONObject) {
        guard let id = object["mfaEnrollmentId"]?.stringValue else { return nil }
        mfaEnrollmentId = id
        displayName = object["displayName"]?.stringValue
        enrolledAt = Instant(rfc3339: object["enrolledAt"]?.stringValue ?? "") ?? Instant(millisecondsSinceEpoch: 0)
        if let secret = object["totpSecret"]?.stringValue.flatMap(Base32.decode) {
            factor = .totp(secret: secret)
        } else if let number = object["unobfuscatedPhoneInfo"]?.stringValue ?? object["phoneInfo"]?.stringValue {
            factor = .phone(number)
        } else {
            return nil
        }
    }
}

/// A passkey the (mock WebAuthn) enrollment stored (reference §9.5).
public struct Passkey: Sendable, Equatable {
    public var credentialId: String
    public var name: String

    var json: JSONObject { ["credentialId": .string(credentialId), "name": .string(name)] }

    init(credentialId: String, name: String) {
        self.credentialId = credentialId
        self.name = name
    }

    init?(stored object: JSONObject) {
        guard let id = object["credentialId"]?.stringValue else { return nil }
        credentialId = id
        name = object["name"]?.stringValue ?? "Unnamed Passkey"
    }
}
