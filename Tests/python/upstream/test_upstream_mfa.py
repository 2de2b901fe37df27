"""firebase-tools v15.28.1 `src/emulator/auth/mfa.spec.ts` ("mfa enrollment"), ported case by case.
Blocking-function cases point the config at the `blocking_functions` server instead of upstream's nock
host."""

from datetime import datetime

from upstream.upstream_support import (
    DISPLAY_NAME, KEY, PHOTO_URL, PROJECT_ID, TEST_PHONE_NUMBER, TEST_PHONE_NUMBER_2, TEST_PHONE_NUMBER_OBFUSCATED, V1,
    V2, decode_jwt, enroll_phone_mfa, error_message, expect_status, get_account_info_by_id_token,
    get_account_info_by_local_id, inspect_verification_codes, register_tenant, register_user,
    sign_in_with_email_link, sign_in_with_password, sign_in_with_phone_number, update_account_by_local_id,
    update_config,
)

ENROLLMENT_START = f"{V2}/accounts/mfaEnrollment:start"
ENROLLMENT_FINALIZE = f"{V2}/accounts/mfaEnrollment:finalize"
ENROLLMENT_WITHDRAW = f"{V2}/accounts/mfaEnrollment:withdraw"
SIGN_IN_START = f"{V2}/accounts/mfaSignIn:start"
SIGN_IN_FINALIZE = f"{V2}/accounts/mfaSignIn:finalize"
BEFORE_SIGN_IN_PATH = "/beforeSignIn"


def emulator_now(api):
    """The emulator clock, in epoch milliseconds (upstream reads `Date.now()` under fake timers)."""
    now = expect_status(200, api.get("/emulator/v1/clock"))["now"]
    return datetime.fromisoformat(now.replace("Z", "+00:00")).timestamp() * 1000


def iso_millis(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000


def test_should_error_if_account_does_not_have_email_verified(api):
    id_token = register_user(api, "unverified@example.com", "testing")["idToken"]
    assert error_message(api.post(ENROLLMENT_START, {"idToken": id_token, "phoneEnrollmentInfo": {
        "phoneNumber": TEST_PHONE_NUMBER}}, query=KEY)) \
        == "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors."


def test_should_allow_phone_enrollment_for_an_existing_account(api):
    phone_number = TEST_PHONE_NUMBER
    id_token = sign_in_with_email_link(api, "foo@example.com")["idToken"]
    body = expect_status(200, api.post(ENROLLMENT_START, {"idToken": id_token, "phoneEnrollmentInfo": {
        "phoneNumber": phone_number}}, query=KEY))
    session_info = body["phoneSessionInfo"]["sessionInfo"]
    assert isinstance(session_info, str)

    codes = inspect_verification_codes(api)
    assert len(codes) == 1
    assert codes[0]["phoneNumber"] == phone_number
    assert codes[0]["sessionInfo"] == session_info
    assert isinstance(codes[0]["code"], str)

    body = expect_status(200, api.post(ENROLLMENT_FINALIZE, {"idToken": id_token, "phoneVerificationInfo": {
        "code": codes[0]["code"], "sessionInfo": session_info}}, query=KEY))
    assert isinstance(body["idToken"], str)
    assert isinstance(body["refreshToken"], str)

    user_info = get_account_info_by_id_token(api, id_token)
    assert len(user_info["mfaInfo"]) == 1
    assert user_info["mfaInfo"][0]["phoneInfo"] == phone_number
    mfa_enrollment_id = user_info["mfaInfo"][0]["mfaEnrollmentId"]

    firebase = decode_jwt(body["idToken"])[1]["firebase"]
    assert firebase["sign_in_second_factor"] == "phone"
    assert firebase["second_factor_identifier"] == mfa_enrollment_id


def test_should_error_if_phone_enrollment_info_is_not_specified(api):
    id_token = sign_in_with_email_link(api, "foo@example.com")["idToken"]
    assert "INVALID_ARGUMENT" in error_message(api.post(ENROLLMENT_START, {"idToken": id_token}, query=KEY))


def test_should_error_if_phone_number_is_invalid(api):
    id_token = sign_in_with_email_link(api, "foo@example.com")["idToken"]
    message = error_message(api.post(ENROLLMENT_START, {"idToken": id_token, "phoneEnrollmentInfo": {
        "phoneNumber": "notaphonenumber"}}, query=KEY))
    assert "INVALID_PHONE_NUMBER" in message


def test_should_error_if_phone_number_is_a_duplicate(api):
    id_token = sign_in_with_email_link(api, "foo@example.com")["idToken"]
    enroll_phone_mfa(api, id_token, TEST_PHONE_NUMBER)
    assert error_message(api.post(ENROLLMENT_START, {"idToken": id_token, "phoneEnrollmentInfo": {
        "phoneNumber": TEST_PHONE_NUMBER}}, query=KEY)) \
        == "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account."


def test_should_error_if_sign_in_method_of_id_token_is_ineligible_for_mfa(api):
    user = sign_in_with_phone_number(api, TEST_PHONE_NUMBER)
    update_account_by_local_id(api, user["localId"], {"email": "bob@example.com", "emailVerified": True})
    # Setting the email moves validSince to now. Upstream's frozen fake timers keep the old token's iat
    # equal to it; our clock runs, so the token may already be revoked: sign in by phone again for a
    # token of the same first factor.
    user = sign_in_with_phone_number(api, TEST_PHONE_NUMBER)
    assert error_message(api.post(ENROLLMENT_START, {"idToken": user["idToken"], "phoneEnrollmentInfo": {
        "phoneNumber": TEST_PHONE_NUMBER_2}}, query=KEY)) \
        == "UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor."


DISABLED_AUTH = {"disableAuth": True}
DISABLED_MFA = {"disableAuth": False, "mfaConfig": {"state": "DISABLED"}}
NO_PHONE_SMS = {"disableAuth": False, "mfaConfig": {"state": "ENABLED", "enabledProviders": ["PROVIDER_UNSPECIFIED"]}}


def assert_refused_on_tenant(api, path, tenant_config, expected):
    tenant = register_tenant(api, PROJECT_ID, tenant_config)
    message = error_message(api.post(path, {"tenantId": tenant["tenantId"]}, query=KEY))
    if expected == "PROJECT_DISABLED":
        assert message == expected
    else:
        assert expected in message


def test_should_error_on_mfa_enrollment_start_if_auth_is_disabled(api):
    assert_refused_on_tenant(api, ENROLLMENT_START, DISABLED_AUTH, "PROJECT_DISABLED")


def test_should_error_on_mfa_enrollment_start_if_mfa_is_disabled(api):
    assert_refused_on_tenant(api, ENROLLMENT_START, DISABLED_MFA, "OPERATION_NOT_ALLOWED")


def test_should_error_on_mfa_enrollment_start_if_phone_sms_is_not_an_enabled_provider(api):
    assert_refused_on_tenant(api, ENROLLMENT_START, NO_PHONE_SMS, "OPERATION_NOT_ALLOWED")


def test_should_error_on_mfa_enrollment_finalize_if_auth_is_disabled(api):
    assert_refused_on_tenant(api, ENROLLMENT_FINALIZE, DISABLED_AUTH, "PROJECT_DISABLED")


def test_should_error_on_mfa_enrollment_finalize_if_mfa_is_disabled(api):
    assert_refused_on_tenant(api, ENROLLMENT_FINALIZE, DISABLED_MFA, "OPERATION_NOT_ALLOWED")


def test_should_error_on_mfa_enrollment_finalize_if_phone_sms_is_not_an_enabled_provider(api):
    assert_refused_on_tenant(api, ENROLLMENT_FINALIZE, NO_PHONE_SMS, "OPERATION_NOT_ALLOWED")


def test_should_error_on_mfa_sign_in_start_if_auth_is_disabled(api):
    assert_refused_on_tenant(api, SIGN_IN_START, DISABLED_AUTH, "PROJECT_DISABLED")


def test_should_error_on_mfa_sign_in_start_if_mfa_is_disabled(api):
    assert_refused_on_tenant(api, SIGN_IN_START, DISABLED_MFA, "OPERATION_NOT_ALLOWED")


def test_should_error_on_mfa_sign_in_start_if_phone_sms_is_not_an_enabled_provider(api):
    assert_refused_on_tenant(api, SIGN_IN_START, NO_PHONE_SMS, "OPERATION_NOT_ALLOWED")


def test_should_error_on_mfa_sign_in_finalize_if_auth_is_disabled(api):
    assert_refused_on_tenant(api, SIGN_IN_FINALIZE, DISABLED_AUTH, "PROJECT_DISABLED")


def test_should_error_on_mfa_sign_in_finalize_if_mfa_is_disabled(api):
    assert_refused_on_tenant(api, SIGN_IN_FINALIZE, DISABLED_MFA, "OPERATION_NOT_ALLOWED")


def test_should_error_on_mfa_sign_in_finalize_if_phone_sms_is_not_an_enabled_provider(api):
    assert_refused_on_tenant(api, SIGN_IN_FINALIZE, NO_PHONE_SMS, "OPERATION_NOT_ALLOWED")


def test_should_error_on_mfa_enrollment_withdraw_if_auth_is_disabled(api):
    assert_refused_on_tenant(api, ENROLLMENT_WITHDRAW, DISABLED_AUTH, "PROJECT_DISABLED")


def sign_in_first_factor(api, email, password):
    """Registers a verified password user with a phone second factor."""
    user = register_user(api, email, password)
    update_account_by_local_id(api, user["localId"], {"emailVerified": True})
    enroll_phone_mfa(api, user["idToken"], TEST_PHONE_NUMBER)
    return user


def start_mfa_sign_in(api, mfa_pending_credential, mfa_enrollment_id):
    body = expect_status(200, api.post(SIGN_IN_START, {"mfaEnrollmentId": mfa_enrollment_id,
                                                       "mfaPendingCredential": mfa_pending_credential}, query=KEY))
    session_info = body["phoneResponseInfo"]["sessionInfo"]
    assert isinstance(session_info, str)
    return session_info


def test_should_allow_sign_in_with_pending_credential_for_mfa_enabled_user(api):
    email, password = "foo@example.com", "abcdef"
    local_id = sign_in_first_factor(api, email, password)["localId"]
    before_sign_in = get_account_info_by_local_id(api, local_id)

    api.tick(3333)

    body = expect_status(200, api.post(f"{V1}/accounts:signInWithPassword", {"email": email, "password": password},
                                       query=KEY))
    assert "idToken" not in body
    assert "refreshToken" not in body
    mfa_pending_credential = body["mfaPendingCredential"]
    mfa_info = body["mfaInfo"]
    assert isinstance(mfa_pending_credential, str)
    assert len(mfa_info) == 1
    assert mfa_info[0]["phoneInfo"] == TEST_PHONE_NUMBER_OBFUSCATED
    # This must not be exposed right after first factor login.
    assert "unobfuscatedPhoneInfo" not in mfa_info[0]
    mfa_enrollment_id = mfa_info[0]["mfaEnrollmentId"]

    # Login / refresh timestamps should not change until MFA was successful.
    after_first_factor = get_account_info_by_local_id(api, local_id)
    assert after_first_factor["lastLoginAt"] == before_sign_in["lastLoginAt"]
    assert after_first_factor["lastRefreshAt"] == before_sign_in["lastRefreshAt"]

    api.tick(4444)
    session_info = start_mfa_sign_in(api, mfa_pending_credential, mfa_enrollment_id)
    code = inspect_verification_codes(api)[0]["code"]
    api.tick(5555)

    finalize_started = emulator_now(api)
    body = expect_status(200, api.post(SIGN_IN_FINALIZE, {"mfaPendingCredential": mfa_pending_credential,
                                                          "phoneVerificationInfo": {"sessionInfo": session_info,
                                                                                    "code": code}}, query=KEY))
    finalize_ended = emulator_now(api)
    assert isinstance(body["idToken"], str)
    assert isinstance(body["refreshToken"], str)
    firebase = decode_jwt(body["idToken"])[1]["firebase"]
    assert firebase["sign_in_second_factor"] == "phone"
    assert firebase["second_factor_identifier"] == mfa_enrollment_id

    # Login / refresh timestamps should now be updated. Upstream compares them with `Date.now()` under
    # frozen fake timers; our emulator clock keeps running, so they must fall within the finalize call.
    after_mfa = get_account_info_by_local_id(api, local_id)
    assert finalize_started - 1 <= int(after_mfa["lastLoginAt"]) <= finalize_ended + 1
    assert finalize_started - 1 <= iso_millis(after_mfa["lastRefreshAt"]) <= finalize_ended + 1


def test_should_allow_withdrawing_mfa_for_a_user(api):
    token1 = sign_in_with_email_link(api, "foo@example.com")["idToken"]
    id_token = enroll_phone_mfa(api, token1, TEST_PHONE_NUMBER)["idToken"]
    mfa_info = get_account_info_by_id_token(api, id_token)["mfaInfo"]
    assert len(mfa_info) == 1
    mfa_enrollment_id = mfa_info[0]["mfaEnrollmentId"]

    body = expect_status(200, api.post(ENROLLMENT_WITHDRAW, {"idToken": id_token, "mfaEnrollmentId": mfa_enrollment_id},
                                       query=KEY))
    assert isinstance(body["idToken"], str)
    assert isinstance(body["refreshToken"], str)
    firebase = decode_jwt(body["idToken"])[1]["firebase"]
    assert "sign_in_second_factor" not in firebase
    assert "second_factor_identifier" not in firebase

    after = get_account_info_by_id_token(api, id_token)
    assert after["mfaInfo"] == []


# describe("when blocking functions are present")

def sign_in_until_second_factor_code(api):
    email, password = "foo@example.com", "abcdef"
    sign_in_first_factor(api, email, password)
    api.tick(3333)
    pending = sign_in_with_password(api, email, password, extract_mfa_pending=True)
    api.tick(4444)
    session_info = start_mfa_sign_in(api, pending["mfaPendingCredential"], pending["mfaEnrollmentId"])
    code = inspect_verification_codes(api)[0]["code"]
    return pending, session_info, code


def configure_before_sign_in(api, blocking_functions, user_record):
    update_config(api, PROJECT_ID, {"blockingFunctions": {"triggers": {
        "beforeSignIn": {"functionUri": blocking_functions.url(BEFORE_SIGN_IN_PATH)}}}}, "blockingFunctions")
    blocking_functions.respond(BEFORE_SIGN_IN_PATH, {"userRecord": user_record})


def finalize(api, pending, session_info, code):
    return api.post(SIGN_IN_FINALIZE, {"mfaPendingCredential": pending["mfaPendingCredential"],
                                       "phoneVerificationInfo": {"sessionInfo": session_info, "code": code}},
                    query=KEY)


def test_mfa_sign_in_finalize_should_update_modifiable_fields_before_sign_in(api, blocking_functions):
    pending, session_info, code = sign_in_until_second_factor_code(api)
    configure_before_sign_in(api, blocking_functions, {
        "updateMask": "displayName,photoUrl,emailVerified,customClaims,sessionClaims", "displayName": DISPLAY_NAME,
        "photoUrl": PHOTO_URL, "emailVerified": True, "customClaims": {"customAttribute": "custom"},
        "sessionClaims": {"sessionAttribute": "session"}})
    api.tick(5555)

    body = expect_status(200, finalize(api, pending, session_info, code))
    assert isinstance(body["idToken"], str)
    assert isinstance(body["refreshToken"], str)
    payload = decode_jwt(body["idToken"])[1]
    assert payload["firebase"]["sign_in_second_factor"] == "phone"
    assert payload["firebase"]["second_factor_identifier"] == pending["mfaEnrollmentId"]
    assert payload["name"] == DISPLAY_NAME
    assert payload["picture"] == PHOTO_URL
    assert payload["email_verified"] is True
    assert payload["customAttribute"] == "custom"
    assert payload["sessionAttribute"] == "session"
    assert blocking_functions.requests.get(BEFORE_SIGN_IN_PATH)


def test_mfa_sign_in_finalize_should_disable_user_if_set(api, blocking_functions):
    pending, session_info, code = sign_in_until_second_factor_code(api)
    configure_before_sign_in(api, blocking_functions, {"updateMask": "disabled", "disabled": True})
    api.tick(5555)
    assert error_message(finalize(api, pending, session_info, code)) == "USER_DISABLED"
    assert blocking_functions.requests.get(BEFORE_SIGN_IN_PATH)
