"""firebase-tools v15.28.1 `src/emulator/auth/password.spec.ts` ("accounts:signInWithPassword"), ported."""

from upstream.signin_support import (
    BEFORE_SIGN_IN_PATH, expect_blocking_calls_done, use_blocking_functions)
from upstream.upstream_support import (
    DISPLAY_NAME, KEY, PHOTO_URL, PROJECT_ID, TEST_MFA_INFO, V1, clock_now_ms, decode_jwt, error_message,
    expect_status, get_account_info_by_local_id, register_tenant, register_user, update_account_by_local_id,
    update_config)

SIGN_IN = f"{V1}/accounts:signInWithPassword"


def sign_in(api, body):
    return api.post(SIGN_IN, body, query=KEY)


def enable_improved_email_privacy(api):
    update_config(api, PROJECT_ID, {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}, "emailPrivacyConfig")


def expect_mfa_pending(response):
    body = expect_status(200, response)
    assert "idToken" not in body
    assert "refreshToken" not in body
    assert isinstance(body["mfaPendingCredential"], str)
    assert isinstance(body["mfaInfo"], list) and len(body["mfaInfo"]) == 1


def test_should_issue_tokens_when_email_and_password_are_valid(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    local_id = register_user(api, **user)["localId"]

    body = expect_status(200, sign_in(api, user))
    assert body["localId"] == local_id
    assert body["email"] == user["email"]
    assert body["registered"] is True
    assert isinstance(body["refreshToken"], str)

    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert payload["user_id"] == local_id
    assert "provider_id" not in payload
    assert payload["firebase"]["sign_in_provider"] == "password"


def test_should_update_last_login_at_on_successful_login(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    # Upstream's fake timers stand still, so `Date.now()` is exactly the sign-up time; the
    # emulator clock runs, so the time is bounded by readings taken around each call.
    before_register = clock_now_ms(api)
    local_id = register_user(api, **user)["localId"]
    after_register = clock_now_ms(api)

    before_login = get_account_info_by_local_id(api, local_id)
    assert before_register <= int(before_login["lastLoginAt"]) <= after_register

    api.tick(4000)

    before_sign_in = clock_now_ms(api)
    expect_status(200, sign_in(api, user))
    after_sign_in = clock_now_ms(api)

    after_login = get_account_info_by_local_id(api, local_id)
    assert before_sign_in <= int(after_login["lastLoginAt"]) <= after_sign_in
    assert int(after_login["lastLoginAt"]) >= int(before_login["lastLoginAt"]) + 4000


def test_should_validate_email_address_ignoring_case(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    local_id = register_user(api, **user)["localId"]

    body = expect_status(200, sign_in(api, {"email": "AlIcE@exAMPle.COM", "password": user["password"]}))
    assert body["localId"] == local_id


def test_should_error_if_email_or_password_is_missing(api):
    assert error_message(sign_in(api, {"password": "notasecret"})) == "MISSING_EMAIL"
    assert error_message(sign_in(api, {"email": "nosuchuser@example.com"})) == "MISSING_PASSWORD"


def test_should_error_if_email_is_invalid(api):
    assert error_message(sign_in(api, {"email": "ill-formatted-email", "password": "notasecret"})) == "INVALID_EMAIL"
    assert error_message(sign_in(api, {"email": "", "password": "notasecret"})) == "INVALID_EMAIL"


def test_should_error_if_email_is_not_found(api):
    assert error_message(sign_in(api, {"email": "nosuchuser@example.com", "password": "notasecret"})) \
        == "EMAIL_NOT_FOUND"


def test_should_error_if_email_is_not_found_with_improved_email_privacy_enabled(api):
    enable_improved_email_privacy(api)
    assert error_message(sign_in(api, {"email": "nosuchuser@example.com", "password": "notasecret"})) \
        == "INVALID_LOGIN_CREDENTIALS"


def test_should_error_if_password_is_wrong(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    register_user(api, **user)
    # Passwords are case sensitive: the uppercase one does not match.
    assert error_message(sign_in(api, {"email": user["email"], "password": "NOTASECRET"})) == "INVALID_PASSWORD"


def test_should_error_if_password_is_wrong_with_improved_email_privacy_enabled(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    enable_improved_email_privacy(api)
    register_user(api, **user)
    assert error_message(sign_in(api, {"email": user["email"], "password": "NOTASECRET"})) \
        == "INVALID_LOGIN_CREDENTIALS"


def test_should_error_if_user_is_disabled(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    local_id = register_user(api, **user)["localId"]
    update_account_by_local_id(api, local_id, {"disableUser": True})

    assert error_message(sign_in(api, {"email": user["email"], "password": "notasecret"})) == "USER_DISABLED"


def test_should_return_pending_credential_if_user_has_mfa(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    register_user(api, **user, mfa_info=[TEST_MFA_INFO])

    expect_mfa_pending(sign_in(api, user))


def test_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})

    assert "PROJECT_DISABLED" in error_message(sign_in(api, {"tenantId": tenant["tenantId"]}))


def test_should_error_if_password_sign_up_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False, "allowPasswordSignup": False})

    assert "PASSWORD_LOGIN_DISABLED" in error_message(sign_in(api, {"tenantId": tenant["tenantId"]}))


def test_should_return_pending_credential_if_user_has_mfa_and_enabled_on_tenant_projects(api):
    tenant = register_tenant(api, PROJECT_ID, {
        "disableAuth": False, "allowPasswordSignup": True, "mfaConfig": {"state": "ENABLED"}})
    user = {"email": "alice@example.com", "password": "notasecret"}
    register_user(api, **user, mfa_info=[TEST_MFA_INFO], tenant_id=tenant["tenantId"])

    expect_mfa_pending(sign_in(api, {"tenantId": tenant["tenantId"], **user}))


class TestWhenBlockingFunctionsArePresent:
    def test_should_update_modifiable_fields_before_sign_in(self, api, blocking_functions):
        user = {"email": "alice@example.com", "password": "notasecret"}
        local_id = register_user(api, **user)["localId"]
        use_blocking_functions(api, blocking_functions, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, {"userRecord": {
            "updateMask": "displayName,photoUrl,emailVerified,customClaims,sessionClaims",
            "displayName": DISPLAY_NAME, "photoUrl": PHOTO_URL, "emailVerified": True,
            "customClaims": {"customAttribute": "custom"}, "sessionClaims": {"sessionAttribute": "session"}}})

        body = expect_status(200, sign_in(api, user))
        assert body["localId"] == local_id
        assert body["email"] == user["email"]
        assert body["registered"] is True
        assert isinstance(body["refreshToken"], str)

        header, payload, _ = decode_jwt(body["idToken"])
        assert header["alg"] == "none"
        assert payload["name"] == DISPLAY_NAME
        assert payload["picture"] == PHOTO_URL
        assert payload["email_verified"] is True
        assert payload["customAttribute"] == "custom"
        assert payload["sessionAttribute"] == "session"
        expect_blocking_calls_done(blocking_functions)

    def test_should_disable_user_if_set(self, api, blocking_functions):
        user = {"email": "alice@example.com", "password": "notasecret"}
        register_user(api, **user)
        use_blocking_functions(api, blocking_functions, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, {"userRecord": {"updateMask": "disabled", "disabled": True}})

        assert error_message(sign_in(api, user)) == "USER_DISABLED"
        expect_blocking_calls_done(blocking_functions)

    def test_should_not_trigger_blocking_function_if_user_has_mfa(self, api, blocking_functions):
        user = {"email": "alice@example.com", "password": "notasecret"}
        register_user(api, **user, mfa_info=[TEST_MFA_INFO])
        use_blocking_functions(api, blocking_functions, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, {"userRecord": {"updateMask": "disabled", "disabled": True}})

        expect_mfa_pending(sign_in(api, user))

        # The function was never called.
        assert BEFORE_SIGN_IN_PATH not in blocking_functions.requests
