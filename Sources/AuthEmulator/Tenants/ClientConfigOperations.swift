import JSON

/// What client SDKs read before password and phone flows: `v2/passwordPolicy` and
/// `v2/recaptchaConfig` (reCAPTCHA is always off here, so no site key is given).
enum ClientConfigOperations {
    /// Firebase's default policy, not enforced: at least 6 characters, as sign-up already checks.
    static func passwordPolicy(_ request: OperationRequest) throws -> JSONObject {
        [
            "customStrengthOptions": ["minPasswordLength": 6, "maxPasswordLength": 4096],
            "allowedNonAlphanumericCharacters": .array(
                Array("^$*.[]{}()?\"!@#%&/\\,><':;|_~`=+-").map { .string(String($0)) }),
            "enforcementState": "OFF",
            "forceUpgradeOnSignin": false,
            "schemaVersion": 1,
        ]
    }

    static func recaptchaConfig(_ request: OperationRequest) throws -> JSONObject {
        [
            "recaptchaEnforcementState": [
                ["provider": "EMAIL_PASSWORD_PROVIDER", "enforcementState": "OFF"],
                ["provider": "PHONE_PROVIDER", "enforcementState": "OFF"],
            ],
            "useSmsBotScore": false, "useSmsTollFraudProtection": false,
        ]
    }
}
