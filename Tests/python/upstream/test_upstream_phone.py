"""firebase-tools v15.28.1 `src/emulator/auth/phone.spec.ts` ("phone auth sign-in"), ported case by
case. Blocking-function cases point the config at the `blocking_functions` server instead of upstream's
nock host."""

from upstream.upstream_support import (
    DISPLAY_NAME, KEY, PHOTO_URL, PROJECT_ID, TEST_MFA_INFO, TEST_PHONE_NUMBER, TEST_PHONE_NUMBER_2, V1, decode_jwt,
    enroll_phone_mfa, error_message, expect_status, inspect_verification_codes, register_anon_user,
    register_tenant, register_user, sign_in_with_phone_number, update_account_by_local_id, update_config,
)

SEND_CODE = f"{V1}/accounts:sendVerificationCode"
SIGN_IN = f"{V1}/accounts:signInWithPhoneNumber"
BEFORE_CREATE_PATH = "/beforeCreate"
BEFORE_SIGN_IN_PATH = "/beforeSignIn"
MFA_USER_FIRST_FACTOR = \
    "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user."


def send_code(api, phone_number):
    body = expect_status(200, api.post(SEND_CODE, {"phoneNumber": phone_number, "recaptchaToken": "ignored"},
                                       query=KEY))
    return body["sessionInfo"]


def test_should_return_fake_recaptcha_params(api):
    body = expect_status(200, api.get(f"{V1}/recaptchaParams", query=KEY))
    assert isinstance(body["recaptchaStoken"], str)
    assert isinstance(body["recaptchaSiteKey"], str)


def test_should_pretend_to_send_a_verification_code_via_sms(api):
    session_info = send_code(api, TEST_PHONE_NUMBER)
    assert isinstance(session_info, str)
    codes = inspect_verification_codes(api)
    assert len(codes) == 1
    assert codes[0]["phoneNumber"] == TEST_PHONE_NUMBER
    assert codes[0]["sessionInfo"] == session_info
    assert isinstance(codes[0]["code"], str)


def test_should_error_when_phone_number_is_missing_when_calling_send_verification_code(api):
    # This matches the production behavior. For some reason, it's not MISSING_PHONE_NUMBER.
    assert error_message(api.post(SEND_CODE, {"recaptchaToken": "ignored"}, query=KEY)) \
        == "INVALID_PHONE_NUMBER : Invalid format."


def test_should_error_when_phone_number_is_invalid(api):
    assert error_message(api.post(SEND_CODE, {"recaptchaToken": "ignored", "phoneNumber": "invalid"}, query=KEY)) \
        == "INVALID_PHONE_NUMBER : Invalid format."


def test_should_error_on_send_verification_code_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})
    assert error_message(api.post(SEND_CODE, {"tenantId": tenant["tenantId"]}, query=KEY)) == "PROJECT_DISABLED"


def test_should_error_on_send_verification_code_for_tenant_projects(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False})
    assert error_message(api.post(SEND_CODE, {"tenantId": tenant["tenantId"]}, query=KEY)) \
        == "UNSUPPORTED_TENANT_OPERATION"


def test_should_create_new_account_by_verifying_phone_number(api):
    phone_number = TEST_PHONE_NUMBER
    session_info = send_code(api, phone_number)
    code = inspect_verification_codes(api)[0]["code"]
    body = expect_status(200, api.post(SIGN_IN, {"sessionInfo": session_info, "code": code}, query=KEY))
    assert body["isNewUser"] is True
    assert body["phoneNumber"] == phone_number
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert isinstance(payload["user_id"], str)
    assert payload["phone_number"] == phone_number
    assert "provider_id" not in payload
    assert payload["firebase"]["sign_in_provider"] == "phone"
    assert payload["firebase"]["identities"] == {"phone": [phone_number]}


def test_should_error_when_session_info_or_code_is_missing_for_sign_in_with_phone_number(api):
    assert error_message(api.post(SIGN_IN, {"code": "123456"}, query=KEY)) == "MISSING_SESSION_INFO"
    assert error_message(api.post(SIGN_IN, {"sessionInfo": "something-something"}, query=KEY)) == "MISSING_CODE"


def test_should_error_when_session_info_or_code_is_invalid(api):
    session_info = send_code(api, TEST_PHONE_NUMBER)
    code = inspect_verification_codes(api)[0]["code"]
    assert error_message(api.post(SIGN_IN, {"sessionInfo": "totally-invalid", "code": code}, query=KEY)) \
        == "INVALID_SESSION_INFO"
    # The code with an extra "1" appended: definitely invalid, since no other code is pending.
    assert error_message(api.post(SIGN_IN, {"sessionInfo": session_info, "code": code + "1"}, query=KEY)) \
        == "INVALID_CODE"


def test_should_error_if_user_is_disabled(api):
    local_id = sign_in_with_phone_number(api, TEST_PHONE_NUMBER)["localId"]
    update_account_by_local_id(api, local_id, {"disableUser": True})
    session_info = send_code(api, TEST_PHONE_NUMBER)
    code = inspect_verification_codes(api)[0]["code"]
    assert error_message(api.post(SIGN_IN, {"sessionInfo": session_info, "code": code}, query=KEY)) \
        == "USER_DISABLED"


def test_should_link_phone_number_to_existing_account_by_id_token(api):
    anon = register_anon_user(api)
    session_info = send_code(api, TEST_PHONE_NUMBER)
    code = inspect_verification_codes(api)[0]["code"]
    body = expect_status(200, api.post(SIGN_IN, {"sessionInfo": session_info, "code": code,
                                                 "idToken": anon["idToken"]}, query=KEY))
    assert body["isNewUser"] is False
    assert body["phoneNumber"] == TEST_PHONE_NUMBER
    assert body["localId"] == anon["localId"]


def test_should_error_if_user_to_be_linked_is_disabled(api):
    anon = register_anon_user(api)
    update_account_by_local_id(api, anon["localId"], {"disableUser": True})
    session_info = send_code(api, TEST_PHONE_NUMBER)
    code = inspect_verification_codes(api)[0]["code"]
    assert error_message(api.post(SIGN_IN, {"sessionInfo": session_info, "code": code, "idToken": anon["idToken"]},
                                  query=KEY)) == "USER_DISABLED"


def test_should_error_when_linking_phone_number_to_existing_user_with_mfa(api):
    id_token = register_user(api, "alice@example.com", "notasecret", mfa_info=[TEST_MFA_INFO])["idToken"]
    session_info = send_code(api, TEST_PHONE_NUMBER)
    code = inspect_verification_codes(api)[0]["code"]
    assert error_message(api.post(SIGN_IN, {"sessionInfo": session_info, "code": code, "idToken": id_token},
                                  query=KEY)) == MFA_USER_FIRST_FACTOR


def test_should_error_if_user_has_mfa(api):
    phone_number = TEST_PHONE_NUMBER
    user = register_user(api, "alice@example.com", "notasecret")
    update_account_by_local_id(api, user["localId"], {"emailVerified": True, "phoneNumber": phone_number})
    enroll_phone_mfa(api, user["idToken"], TEST_PHONE_NUMBER_2)
    assert error_message(api.post(SEND_CODE, {"phoneNumber": phone_number}, query=KEY)) == MFA_USER_FIRST_FACTOR
    assert inspect_verification_codes(api) == []


def test_should_return_temporary_proof_if_phone_number_already_belongs_to_another_account(api):
    # Given a phone number that is already registered...
    phone_number = TEST_PHONE_NUMBER
    sign_in_with_phone_number(api, phone_number)
    id_token = register_anon_user(api)["idToken"]
    session_info = send_code(api, phone_number)
    code = inspect_verification_codes(api)[0]["code"]

    body = expect_status(200, api.post(SIGN_IN, {"sessionInfo": session_info, "code": code, "idToken": id_token},
                                       query=KEY))
    # The linking fails, but a successful answer still carries a temporaryProof (so that clients may
    # call this API again without verifying the phone number again).
    assert "idToken" not in body
    assert body["phoneNumber"] == phone_number
    temporary_proof = body["temporaryProof"]
    assert isinstance(temporary_proof, str)

    # Called again with the temporaryProof, the real error is returned.
    assert error_message(api.post(SIGN_IN, {"idToken": id_token, "phoneNumber": phone_number,
                                            "temporaryProof": temporary_proof}, query=KEY)) == "PHONE_NUMBER_EXISTS"


def test_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})
    assert error_message(api.post(SIGN_IN, {"tenantId": tenant["tenantId"]}, query=KEY)) == "PROJECT_DISABLED"


def test_should_error_if_called_on_tenant_project(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False})
    assert error_message(api.post(SIGN_IN, {"tenantId": tenant["tenantId"]}, query=KEY)) \
        == "UNSUPPORTED_TENANT_OPERATION"


# describe("when blocking functions are present")

def configure_triggers(api, blocking_functions, *paths):
    triggers = {path.lstrip("/"): {"functionUri": blocking_functions.url(path)} for path in paths}
    update_config(api, PROJECT_ID, {"blockingFunctions": {"triggers": triggers}}, "blockingFunctions")


def sign_in_new_phone_user(api):
    session_info = send_code(api, TEST_PHONE_NUMBER)
    code = inspect_verification_codes(api)[0]["code"]
    return api.post(SIGN_IN, {"sessionInfo": session_info, "code": code}, query=KEY)


def assert_updated_new_user(response):
    body = expect_status(200, response)
    assert body["isNewUser"] is True
    assert body["phoneNumber"] == TEST_PHONE_NUMBER
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert payload["name"] == DISPLAY_NAME
    assert payload["picture"] == PHOTO_URL
    assert payload["email_verified"] is True
    assert payload["customAttribute"] == "custom"
    return payload


SIGN_IN_RECORD = {
    "updateMask": "displayName,photoUrl,emailVerified,customClaims,sessionClaims", "displayName": DISPLAY_NAME,
    "photoUrl": PHOTO_URL, "emailVerified": True, "customClaims": {"customAttribute": "custom"},
    "sessionClaims": {"sessionAttribute": "session"},
}


def test_should_update_modifiable_fields_for_new_users(api, blocking_functions):
    configure_triggers(api, blocking_functions, BEFORE_CREATE_PATH)
    blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {
        "updateMask": "displayName,photoUrl,emailVerified,customClaims", "displayName": DISPLAY_NAME,
        "photoUrl": PHOTO_URL, "emailVerified": True, "customClaims": {"customAttribute": "custom"}}})
    assert_updated_new_user(sign_in_new_phone_user(api))
    assert blocking_functions.requests.get(BEFORE_CREATE_PATH)


def test_should_update_modifiable_fields_for_existing_users(api, blocking_functions):
    configure_triggers(api, blocking_functions, BEFORE_SIGN_IN_PATH)
    blocking_functions.respond(BEFORE_SIGN_IN_PATH, {"userRecord": SIGN_IN_RECORD})
    assert assert_updated_new_user(sign_in_new_phone_user(api))["sessionAttribute"] == "session"
    assert blocking_functions.requests.get(BEFORE_SIGN_IN_PATH)


def test_before_sign_in_fields_should_overwrite_before_create_fields(api, blocking_functions):
    configure_triggers(api, blocking_functions, BEFORE_CREATE_PATH, BEFORE_SIGN_IN_PATH)
    blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {
        "updateMask": "displayName,photoUrl,emailVerified,customClaims", "displayName": "oldDisplayName",
        "photoUrl": "oldPhotoUrl", "emailVerified": False, "customClaims": {"customAttribute": "oldCustom"}}})
    blocking_functions.respond(BEFORE_SIGN_IN_PATH, {"userRecord": SIGN_IN_RECORD})
    assert assert_updated_new_user(sign_in_new_phone_user(api))["sessionAttribute"] == "session"
    assert blocking_functions.requests.get(BEFORE_CREATE_PATH)
    assert blocking_functions.requests.get(BEFORE_SIGN_IN_PATH)


def test_should_disable_user_if_set(api, blocking_functions):
    configure_triggers(api, blocking_functions, BEFORE_CREATE_PATH)
    blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {"updateMask": "disabled", "disabled": True}})
    assert error_message(sign_in_new_phone_user(api)) == "USER_DISABLED"
    assert blocking_functions.requests.get(BEFORE_CREATE_PATH)
