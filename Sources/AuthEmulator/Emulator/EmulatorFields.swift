/// The fields of the emulator's own routes (DESIGN §3). These routes refuse any other name.
enum EmulatorFields {
    /// The outbox's filters, for the list and for `messages/latest`. `status`, `forwardedTo`,
    /// `subject` and `q` are the filters DESIGN §3 adds; they are declared here with the others.
    private static let outboxFilters: [Field] = [
        .string("to"), .string("requestType"), .string("tenantId"), .string("since"), .integer("limit"),
        .number("waitSeconds"), .string("status"), .string("forwardedTo"), .string("subject"), .string("q"),
    ]

    private static let mint: [Field] = [
        .string("sub"), .string("email"), .boolean("emailVerified"), .boolean("hideEmail"), .string("name"),
        .string("picture"), .string("nonce"), .string("hashedNonce"), .string("audience"), .integer("expiresInSeconds"),
        .string("alg"), .map("claims"),
    ]

    private static let config: [Field] = [
        .object("signIn", [
            .boolean("allowDuplicateEmails"),
            .object("phoneNumber", [.map("testPhoneNumbers", of: .string)]),
        ]),
        .object("emailPrivacyConfig", [.boolean("enableImprovedEmailPrivacy")]),
    ]

    private static func own(body: [Field] = [], query: [Field] = []) -> OperationFields {
        OperationFields(body: body, query: query, refusesUnknown: true)
    }

    static let byOperation: [String: OperationFields] = [
        "emulator.accounts.delete": own(),
        "emulator.projects.reset": own(),
        "emulator.reset": own(),
        "emulator.oobCodes.list": own(),
        "emulator.verificationCodes.list": own(),
        "emulator.config.get": own(),
        "emulator.config.update": own(body: config),
        "emulator.messages.list": own(query: outboxFilters),
        "emulator.messages.get": own(query: outboxFilters),
        "emulator.messages.delete": own(),
        "emulator.messages.deleteOne": own(),
        "emulator.messages.source": own(),
        "emulator.privateRelay.get": own(),
        "emulator.privateRelay.update": own(body: [
            .strings("registeredSenders"), .strings("spfFailingDomains"), .integer("dailyLimit"),
        ]),
        "emulator.securetoken.jwks": own(),
        "emulator.securetoken.x509": own(),
        "emulator.clock.get": own(),
        "emulator.clock.advance": own(body: [.number("seconds", required: true)]),
        "emulator.clock.reset": own(),
        "emulator.clock.set": own(body: [.string("time", required: true)]),
        "emulator.idp.apple.revocations": own(),
        "emulator.idp.apple.relay.list": own(),
        "emulator.idp.apple.relay.update": own(body: [.boolean("forwarding", required: true)]),
        "emulator.idp.facebook.me": own(query: [.string("access_token", required: true), .string("fields")]),
        "emulator.idp.discovery": own(),
        "emulator.idp.jwks": own(),
        "emulator.idp.tokens": own(body: mint),
        "emulator.idp.keys.rotate": own(body: [.string("alg")]),
    ]
}
