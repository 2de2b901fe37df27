"""firebase-tools v15.28.1 `src/emulator/auth/signUp.spec.ts` ("accounts:signUp"), ported case by
case. Blocking-function cases point the config at the `blocking_functions` server instead of
upstream's nock host."""

from upstream.upstream_support import (
    DISPLAY_NAME, KEY, OWNER, PHOTO_URL, PROJECT_ID, TEST_INVALID_PHONE_NUMBER, TEST_MFA_INFO, TEST_PHONE_NUMBER,
    TEST_PHONE_NUMBER_2, V1, decode_jwt, error_message, expect_status, get_account_info_by_id_token,
    get_account_info_by_local_id, get_signin_methods, register_anon_user, register_tenant, register_user,
    sign_in_with_fake_claims, sign_in_with_phone_number, update_account_by_local_id, update_config,
)

SIGN_UP = f"{V1}/accounts:signUp"
BEFORE_CREATE_PATH = "/beforeCreate"
BEFORE_SIGN_IN_PATH = "/beforeSignIn"


def includes(actual, expected):
    """chai's `to.include(object)`: every given key has the given value."""
    return all(key in actual and actual[key] == value for key, value in expected.items())


def configure_triggers(api, blocking_functions, *paths):
    triggers = {path.lstrip("/"): {"functionUri": blocking_functions.url(path)} for path in paths}
    update_config(api, PROJECT_ID, {"blockingFunctions": {"triggers": triggers}}, "blockingFunctions")


def assert_called(blocking_functions, *paths):
    """upstream's `afterEach(() => expect(nock.isDone()).to.be.true)`."""
    for path in paths:
        assert blocking_functions.requests.get(path), f"{path} was never called"


def test_should_throw_error_if_no_email_provided(api):
    assert error_message(api.post(SIGN_UP, {"password": "notasecret"}, query=KEY)) == "MISSING_EMAIL"


def test_should_throw_error_if_empty_email_and_password_is_provided(api):
    assert error_message(api.post(SIGN_UP, {"email": "", "password": ""}, query=KEY)) == "INVALID_EMAIL"


def test_should_issue_id_token_and_refresh_token_on_anon_sign_up(api):
    body = expect_status(200, api.post(SIGN_UP, {"returnSecureToken": True}, query=KEY))
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert isinstance(payload["user_id"], str)
    assert payload["provider_id"] == "anonymous"
    assert payload["firebase"]["sign_in_provider"] == "anonymous"


def test_should_issue_refresh_token_on_email_password_sign_up(api):
    email = "me@example.com"
    body = expect_status(200, api.post(SIGN_UP, {"email": email, "password": "notasecret"}, query=KEY))
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert isinstance(payload["user_id"], str)
    assert "provider_id" not in payload
    assert payload["firebase"]["sign_in_provider"] == "password"
    assert payload["firebase"]["identities"] == {"email": [email]}


def test_should_ignore_display_name_and_photo_url_for_new_anon_account(api):
    user = {"displayName": "Me", "photoUrl": "http://localhost/my-profile.png"}
    body = expect_status(200, api.post(SIGN_UP, user, query=KEY))
    assert "displayName" not in body
    assert "photoUrl" not in body
    info = get_account_info_by_id_token(api, body["idToken"])
    assert "displayName" not in info
    assert "photoUrl" not in info


def test_should_set_display_name_but_ignore_photo_url_for_new_password_account(api):
    user = {"email": "me@example.com", "password": "notasecret", "displayName": "Me",
            "photoUrl": "http://localhost/my-profile.png"}
    body = expect_status(200, api.post(SIGN_UP, user, query=KEY))
    assert body["displayName"] == user["displayName"]
    assert "photoUrl" not in body
    info = get_account_info_by_id_token(api, body["idToken"])
    assert info["displayName"] == user["displayName"]
    assert "photoUrl" not in info


def test_should_disallow_duplicate_email_sign_up(api):
    register_user(api, "bob@example.com", "notasecret")
    assert error_message(api.post(SIGN_UP, {"email": "bob@example.com", "password": "notasecret"}, query=KEY)) \
        == "EMAIL_EXISTS"
    # Case variants of a same email address are also considered duplicates.
    assert error_message(api.post(SIGN_UP, {"email": "BOB@example.com", "password": "notasecret"}, query=KEY)) \
        == "EMAIL_EXISTS"


def test_should_error_if_another_account_exists_with_same_email_from_idp(api):
    email = "alice@example.com"
    sign_in_with_fake_claims(api, "google.com", {"sub": "123", "email": email})
    assert error_message(api.post(SIGN_UP, {"email": email, "password": "notasecret"}, query=KEY)) == "EMAIL_EXISTS"


def test_should_error_when_email_format_is_invalid(api):
    assert error_message(api.post(SIGN_UP, {"email": "not.an.email.address.at.all", "password": "notasecret"},
                                  query=KEY)) == "INVALID_EMAIL"


def test_should_normalize_email_address_to_all_lowercase(api):
    body = expect_status(200, api.post(SIGN_UP, {"email": "AlIcE@exAMPle.COM", "password": "notasecret"}, query=KEY))
    assert body["email"] == "alice@example.com"


def test_should_error_when_password_is_too_short(api):
    message = error_message(api.post(SIGN_UP, {"email": "me@example.com", "password": "short"}, query=KEY))
    assert message.startswith("WEAK_PASSWORD")


def test_should_error_when_id_token_is_provided_but_email_password_is_not(api):
    id_token = register_anon_user(api)["idToken"]
    assert error_message(api.post(SIGN_UP, {"idToken": id_token}, query=KEY)) == "MISSING_EMAIL"
    assert error_message(api.post(SIGN_UP, {"idToken": id_token, "email": "alice@example.com"}, query=KEY)) \
        == "MISSING_PASSWORD"


def test_should_link_email_and_password_to_anon_user_if_id_token_is_provided(api):
    anon = register_anon_user(api)
    body = expect_status(200, api.post(SIGN_UP, {"idToken": anon["idToken"], "email": "alice@example.com",
                                                 "password": "notasecret"}, query=KEY))
    assert body["localId"] == anon["localId"]
    assert decode_jwt(body["idToken"])[1]["firebase"]["sign_in_provider"] == "password"


def test_should_link_email_and_password_to_phone_sign_in_user(api):
    phone_number = TEST_PHONE_NUMBER
    email = "alice@example.com"
    user = sign_in_with_phone_number(api, phone_number)
    body = expect_status(200, api.post(SIGN_UP, {"idToken": user["idToken"], "email": email,
                                                 "password": "notasecret"}, query=KEY))
    assert body["localId"] == user["localId"]
    payload = decode_jwt(body["idToken"])[1]
    assert payload["firebase"]["sign_in_provider"] == "password"
    # The result account should have both phone and email.
    assert payload["firebase"]["identities"] == {"phone": [phone_number], "email": [email]}


def test_should_error_if_account_to_be_linked_is_disabled(api):
    anon = register_anon_user(api)
    update_account_by_local_id(api, anon["localId"], {"disableUser": True})
    assert error_message(api.post(SIGN_UP, {"idToken": anon["idToken"], "email": "alice@example.com",
                                            "password": "notasecret"}, query=KEY)) == "USER_DISABLED"


def test_should_replace_existing_email_password_in_linked_account(api):
    old_email, new_email = "alice@example.com", "bob@example.com"
    user = register_user(api, old_email, "notasecret")
    body = expect_status(200, api.post(SIGN_UP, {"idToken": user["idToken"], "email": new_email,
                                                 "password": "notasecret2"}, query=KEY))
    assert body["localId"] == user["localId"]
    assert body["email"] == new_email
    payload = decode_jwt(body["idToken"])[1]
    assert payload["email"] == new_email
    assert payload["firebase"]["identities"] == {"email": [new_email]}
    assert not get_signin_methods(api, old_email)


def test_should_create_new_account_with_phone_number_when_authenticated(api):
    phone_number = TEST_PHONE_NUMBER
    display_name = "Alice"
    body = expect_status(200, api.post(SIGN_UP, {"phoneNumber": phone_number, "displayName": display_name},
                                       headers=OWNER))
    # Shouldn't be set for authenticated requests:
    assert "idToken" not in body
    assert "refreshToken" not in body
    assert body["displayName"] == display_name
    local_id = body["localId"]
    assert isinstance(local_id, str) and local_id

    # This should sign into the same user.
    phone_auth = sign_in_with_phone_number(api, phone_number)
    assert phone_auth["localId"] == local_id
    assert get_account_info_by_id_token(api, phone_auth["idToken"])["displayName"] == display_name


def test_should_error_when_extra_local_id_parameter_is_provided(api):
    assert error_message(api.post(SIGN_UP, {"localId": "anything"}, query=KEY)) == "UNEXPECTED_PARAMETER : User ID"
    anon = register_anon_user(api)
    assert error_message(api.post(SIGN_UP, {"idToken": anon["idToken"], "localId": anon["localId"]},
                                  headers=OWNER)) == "UNEXPECTED_PARAMETER : User ID"


def test_should_create_new_account_with_specified_local_id_when_authenticated(api):
    body = expect_status(200, api.post(SIGN_UP, {"localId": "haha"}, headers=OWNER))
    assert "idToken" not in body
    assert "refreshToken" not in body
    assert body["localId"] == "haha"


def test_should_error_when_creating_new_user_with_duplicate_local_id(api):
    local_id = register_anon_user(api)["localId"]
    assert error_message(api.post(SIGN_UP, {"localId": local_id}, headers=OWNER)) == "DUPLICATE_LOCAL_ID"


def test_should_error_if_phone_number_is_invalid(api):
    assert error_message(api.post(SIGN_UP, {"phoneNumber": TEST_INVALID_PHONE_NUMBER}, headers=OWNER)) \
        == "INVALID_PHONE_NUMBER : Invalid format."


def test_should_create_new_account_with_multi_factor_info(api):
    local_id = register_user(api, "alice@example.com", "notasecret", mfa_info=[TEST_MFA_INFO])["localId"]
    info = get_account_info_by_local_id(api, local_id)
    assert len(info["mfaInfo"]) == 1
    saved = info["mfaInfo"][0]
    assert includes(saved, TEST_MFA_INFO)
    assert isinstance(saved["mfaEnrollmentId"], str) and saved["mfaEnrollmentId"]


def assert_two_factors(mfa_info):
    assert len(mfa_info) == 2
    for saved in mfa_info:
        if saved["phoneInfo"] != TEST_MFA_INFO["phoneInfo"]:
            assert saved["phoneInfo"] == TEST_PHONE_NUMBER_2
        else:
            assert includes(saved, TEST_MFA_INFO)
        assert isinstance(saved["mfaEnrollmentId"], str) and saved["mfaEnrollmentId"]


def test_should_create_new_account_with_two_mfa_factors(api):
    mfa_info = [TEST_MFA_INFO, {**TEST_MFA_INFO, "phoneInfo": TEST_PHONE_NUMBER_2}]
    local_id = register_user(api, "alice@example.com", "notasecret", mfa_info=mfa_info)["localId"]
    assert_two_factors(get_account_info_by_local_id(api, local_id)["mfaInfo"])


def test_should_de_duplicate_factors_with_the_same_info_on_create(api):
    alice = register_user(api, "alice@example.com", "notasecret", mfa_info=[TEST_MFA_INFO] * 3)["localId"]
    alice_info = get_account_info_by_local_id(api, alice)
    assert len(alice_info["mfaInfo"]) == 1
    assert includes(alice_info["mfaInfo"][0], TEST_MFA_INFO)
    assert isinstance(alice_info["mfaInfo"][0]["mfaEnrollmentId"], str) and alice_info["mfaInfo"][0]["mfaEnrollmentId"]

    bob_factors = [TEST_MFA_INFO] * 3 + [{**TEST_MFA_INFO, "phoneInfo": TEST_PHONE_NUMBER_2}]
    bob = register_user(api, "bob@example.com", "notasecret", mfa_info=bob_factors)["localId"]
    assert_two_factors(get_account_info_by_local_id(api, bob)["mfaInfo"])


def test_does_not_require_a_display_name_for_multi_factor_info(api):
    mfa_info = {"phoneInfo": TEST_PHONE_NUMBER}
    local_id = register_user(api, "alice@example.com", "notasecret", mfa_info=[mfa_info])["localId"]
    info = get_account_info_by_local_id(api, local_id)
    assert len(info["mfaInfo"]) == 1
    saved = info["mfaInfo"][0]
    assert includes(saved, mfa_info)
    assert isinstance(saved["mfaEnrollmentId"], str) and saved["mfaEnrollmentId"]
    assert "displayName" not in saved


def test_should_error_if_multi_factor_phone_number_is_invalid(api):
    user = {"email": "alice@example.com", "password": "notasecret",
            "mfaInfo": [{"phoneInfo": TEST_INVALID_PHONE_NUMBER}]}
    assert error_message(api.post(SIGN_UP, user, headers=OWNER)) == "INVALID_MFA_PHONE_NUMBER : Invalid format."


def test_should_ignore_if_multi_factor_enrollment_id_is_specified_on_create(api):
    ignored = ["thisShouldBeIgnored1", "thisShouldBeIgnored2"]
    mfa_info = [{**TEST_MFA_INFO, "mfaEnrollmentId": enrollment_id} for enrollment_id in ignored]
    local_id = register_user(api, "alice@example.com", "notasecret", mfa_info=mfa_info)["localId"]
    info = get_account_info_by_local_id(api, local_id)
    assert len(info["mfaInfo"]) == 1
    saved = info["mfaInfo"][0]
    assert includes(saved, TEST_MFA_INFO)
    assert isinstance(saved["mfaEnrollmentId"], str) and saved["mfaEnrollmentId"]
    assert saved["mfaEnrollmentId"] not in ignored


def test_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})
    assert "PROJECT_DISABLED" in error_message(api.post(SIGN_UP, {"tenantId": tenant["tenantId"]}, query=KEY))


def test_should_error_if_password_sign_up_is_not_allowed(api):
    tenant = register_tenant(api, PROJECT_ID, {"allowPasswordSignup": False})
    message = error_message(api.post(SIGN_UP, {"tenantId": tenant["tenantId"], "email": "me@example.com",
                                               "password": "notasecret"}, query=KEY))
    assert "OPERATION_NOT_ALLOWED" in message


def test_should_error_if_anonymous_user_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"enableAnonymousUser": False})
    message = error_message(api.post(SIGN_UP, {"tenantId": tenant["tenantId"], "returnSecureToken": True},
                                     query=KEY))
    assert "ADMIN_ONLY_OPERATION" in message


def test_should_create_new_account_with_tenant_info(api):
    tenant = register_tenant(api, PROJECT_ID, {"allowPasswordSignup": True})
    user = {"tenantId": tenant["tenantId"], "email": "alice@example.com", "password": "notasecret"}
    local_id = expect_status(200, api.post(SIGN_UP, user, query=KEY))["localId"]
    assert get_account_info_by_local_id(api, local_id, tenant["tenantId"])["tenantId"] == tenant["tenantId"]


# describe("when blocking functions are present")

def assert_password_sign_in_token(body, email):
    assert isinstance(body["refreshToken"], str)
    payload = decode_jwt(body["idToken"])[1]
    assert payload["firebase"]["sign_in_provider"] == "password"
    assert payload["firebase"]["identities"] == {"email": [email]}
    assert body["displayName"] == DISPLAY_NAME
    assert payload["name"] == DISPLAY_NAME
    assert payload["picture"] == PHOTO_URL
    assert payload["email_verified"] is True
    assert payload["customAttribute"] == "custom"
    return payload


def test_should_update_modifiable_fields_with_before_create_response_for_a_new_email_password_user(
        api, blocking_functions):
    configure_triggers(api, blocking_functions, BEFORE_CREATE_PATH)
    blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {
        "updateMask": "displayName,photoUrl,emailVerified,customClaims", "displayName": DISPLAY_NAME,
        "photoUrl": PHOTO_URL, "emailVerified": True, "customClaims": {"customAttribute": "custom"}}})
    email = "me@example.com"
    body = expect_status(200, api.post(SIGN_UP, {"email": email, "password": "notasecret"}, query=KEY))
    assert_password_sign_in_token(body, email)
    assert_called(blocking_functions, BEFORE_CREATE_PATH)


def test_should_update_modifiable_fields_with_before_sign_in_response_for_a_new_email_password_user(
        api, blocking_functions):
    configure_triggers(api, blocking_functions, BEFORE_SIGN_IN_PATH)
    blocking_functions.respond(BEFORE_SIGN_IN_PATH, {"userRecord": {
        "updateMask": "displayName,photoUrl,emailVerified,customClaims,sessionClaims", "displayName": DISPLAY_NAME,
        "photoUrl": PHOTO_URL, "emailVerified": True, "customClaims": {"customAttribute": "custom"},
        "sessionClaims": {"sessionAttribute": "session"}}})
    email = "me@example.com"
    body = expect_status(200, api.post(SIGN_UP, {"email": email, "password": "notasecret"}, query=KEY))
    assert assert_password_sign_in_token(body, email)["sessionAttribute"] == "session"
    assert_called(blocking_functions, BEFORE_SIGN_IN_PATH)


def test_before_sign_in_fields_should_overwrite_before_create_fields(api, blocking_functions):
    configure_triggers(api, blocking_functions, BEFORE_CREATE_PATH, BEFORE_SIGN_IN_PATH)
    blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {
        "updateMask": "displayName,photoUrl,emailVerified,customClaims", "displayName": "oldDisplayName",
        "photoUrl": "oldPhotoUrl", "emailVerified": False, "customClaims": {"customAttribute": "oldCustom"}}})
    blocking_functions.respond(BEFORE_SIGN_IN_PATH, {"userRecord": {
        "updateMask": "displayName,photoUrl,emailVerified,customClaims,sessionClaims", "displayName": DISPLAY_NAME,
        "photoUrl": PHOTO_URL, "emailVerified": True, "customClaims": {"customAttribute": "custom"},
        "sessionClaims": {"sessionAttribute": "session"}}})
    email = "me@example.com"
    body = expect_status(200, api.post(SIGN_UP, {"email": email, "password": "notasecret"}, query=KEY))
    assert assert_password_sign_in_token(body, email)["sessionAttribute"] == "session"
    assert_called(blocking_functions, BEFORE_CREATE_PATH, BEFORE_SIGN_IN_PATH)


def test_should_disable_new_user_if_set(api, blocking_functions):
    configure_triggers(api, blocking_functions, BEFORE_CREATE_PATH)
    blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {"updateMask": "disabled", "disabled": True}})
    assert error_message(api.post(SIGN_UP, {"email": "me@example.com", "password": "notasecret"}, query=KEY)) \
        == "USER_DISABLED"
    assert_called(blocking_functions, BEFORE_CREATE_PATH)


def test_should_not_trigger_blocking_functions_for_privileged_requests(api, blocking_functions):
    configure_triggers(api, blocking_functions, BEFORE_CREATE_PATH, BEFORE_SIGN_IN_PATH)
    blocking_functions.respond(BEFORE_CREATE_PATH, {}, status=400)
    blocking_functions.respond(BEFORE_SIGN_IN_PATH, {}, status=400)
    body = expect_status(200, api.post(SIGN_UP, {"phoneNumber": TEST_PHONE_NUMBER, "displayName": "Alice"},
                                       headers=OWNER))
    assert "idToken" not in body
    assert "refreshToken" not in body
    assert body["displayName"] == "Alice"
    assert isinstance(body["localId"], str) and body["localId"]
    # Shouldn't trigger the functions (upstream: `expect(nock.isDone()).to.be.false`).
    assert blocking_functions.requests == {}
