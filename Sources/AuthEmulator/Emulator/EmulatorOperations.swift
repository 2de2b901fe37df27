import BuildInfo
import JSON

/// The emulator's own REST routes (reference §2.5, §2.6): they need no credentials and name the
/// project in the path.
enum EmulatorOperations {
    /// What answers here; `console` is where a person who opened it in a browser wants to go.
    static func status(_ request: OperationRequest) throws -> JSONObject {
        [
            "authEmulator": [
                "ready": true, "docs": "https://firebase.google.com/docs/emulator-suite",
                "apiSpec": "/emulator/openapi.json", "console": .string(ConsoleContext.url(origin: request.origin)),
                // Beyond the official answer: which build is running, for test kits to compare.
                "version": .string(BuildInfo.version), "commit": .string(BuildInfo.commit),
            ]
        ]
    }

    /// Deletes every user of the project (or of the tenant in the path), and their refresh tokens.
    static func deleteAccounts(_ request: OperationRequest) throws -> JSONObject {
        try request.write { try $0.users.deleteAll(in: $0.scope) }
        return [:]
    }

    static func getConfig(_ request: OperationRequest) throws -> JSONObject {
        try request.read { try $0.config() }.emulatorJSON
    }

    /// Updates the fields present in the body. A body with neither resets both, as in the
    /// reference emulator (its empty update mask means "replace everything").
    static func updateConfig(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        let allowDuplicateEmails = try body.nested("signIn")?.bool("allowDuplicateEmails")
        let improvedPrivacy = try body.nested("emailPrivacyConfig")?.bool("enableImprovedEmailPrivacy")
        let testPhoneNumbers = try body.nested("signIn")?.nested("phoneNumber")?.nested("testPhoneNumbers").map(Self.testPhoneNumbers)
        return try request.write { transaction in
            var config = try transaction.config()
            if allowDuplicateEmails == nil, improvedPrivacy == nil, testPhoneNumbers == nil {
                config = ProjectConfig()
            } else {
                config.allowDuplicateEmails = allowDuplicateEmails ?? config.allowDuplicateEmails
                config.improvedEmailPrivacy = improvedPrivacy ?? config.improvedEmailPrivacy
                config.testPhoneNumbers = testPhoneNumbers ?? config.testPhoneNumbers
            }
            try transaction.environment.projectConfigs.save(config, for: transaction.scope.projectId, store: transaction.store)
            return config.emulatorJSON
        }
    }

    /// `{"+15555550100": "123456", …}`: valid numbers, six-digit codes.
    private static func testPhoneNumbers(_ body: RequestBody) throws(AuthError) -> [String: String] {
        var numbers: [String: String] = [:]
        for (number, code) in body.object.members {
            guard PhoneNumber.isValid(number) else {
                throw AuthError.invalid("INVALID_PHONE_NUMBER : Invalid format: \(number) (test numbers start with +).")
            }
            guard let code = code.stringValue, code.count == 6, code.allSatisfy(\.isNumber) else {
                throw AuthError.invalid("INVALID_TEST_PHONE_NUMBER_CODE : The code of \(number) must be six digits.")
            }
            numbers[number] = code
        }
        return numbers
    }
}
