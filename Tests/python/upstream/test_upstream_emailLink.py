"""firebase-tools v15.28.1 `src/emulator/auth/emailLink.spec.ts` ("email link sign-in"), ported."""

from upstream.signin_support import (
    BEFORE_CREATE_PATH, BEFORE_SIGN_IN_PATH, expect_blocking_calls_done, use_blocking_functions)
from upstream.upstream_support import (
    DISPLAY_NAME, KEY, PHOTO_URL, PROJECT_ID, TEST_MFA_INFO, TEST_PHONE_NUMBER, V1, create_email_sign_in_oob,
    decode_jwt, error_message, expect_status, get_account_info_by_local_id, get_signin_methods, inspect_oobs,
    register_tenant, register_user, sign_in_with_phone_number, update_account_by_local_id)

SIGN_IN = f"{V1}/accounts:signInWithEmailLink"


def sign_in(api, body):
    return api.post(SIGN_IN, body, query=KEY)


def expect_mfa_pending(response):
    body = expect_status(200, response)
    assert "idToken" not in body
    assert "refreshToken" not in body
    assert isinstance(body["mfaPendingCredential"], str)
    assert isinstance(body["mfaInfo"], list) and len(body["mfaInfo"]) == 1


def test_should_send_oob_code_to_new_emails_and_create_account_on_sign_in(api):
    email = "alice@example.com"
    create_email_sign_in_oob(api, email)

    oobs = inspect_oobs(api)
    assert len(oobs) == 1
    assert oobs[0]["email"] == email
    assert oobs[0]["requestType"] == "EMAIL_SIGNIN"

    # The returned oobCode can be redeemed to sign in.
    body = expect_status(200, sign_in(api, {"oobCode": oobs[0]["oobCode"], "email": email}))
    assert isinstance(body["idToken"], str)
    assert body["email"] == email
    assert body["isNewUser"] is True
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert isinstance(payload["user_id"], str)
    assert "provider_id" not in payload
    assert payload["firebase"]["sign_in_provider"] == "password"  # (confusingly) "password"

    assert sorted(get_signin_methods(api, email)) == ["emailLink"]


def test_should_sign_an_existing_account_in_and_enable_email_link_sign_in_for_them(api):
    user = {"email": "bob@example.com", "password": "notasecret"}
    registered = register_user(api, **user)
    oob_code = create_email_sign_in_oob(api, user["email"])["oobCode"]
    # Our addition: a second passes, so the registration's session is strictly older than the
    # sign-in below (ID tokens count whole seconds).
    api.tick(1000)

    body = expect_status(200, sign_in(api, {"email": user["email"], "oobCode": oob_code}))
    assert body["localId"] == registered["localId"]

    # Deliberate difference (DESIGN §2.2): the password was set by someone who never proved the
    # address, so email link sign-in removes it and revokes the older sessions, as the Firebase
    # guide for email links says. Upstream keeps both: the old ID token still looks the account up
    # (with `emailLinkSignin: true`) and the methods are ["password", "emailLink"].
    assert error_message(api.post(f"{V1}/accounts:lookup", {"idToken": registered["idToken"]}, query=KEY)) \
        == "TOKEN_EXPIRED"
    account = get_account_info_by_local_id(api, registered["localId"])
    assert account["emailLinkSignin"] is True
    assert "passwordHash" not in account
    assert sorted(get_signin_methods(api, user["email"])) == ["emailLink"]


def test_should_error_on_invalid_oob_code(api):
    assert error_message(sign_in(api, {"email": "alice@example.com", "oobCode": "invalid"})) == "INVALID_OOB_CODE"


def test_should_error_if_user_is_disabled(api):
    registered = register_user(api, "bob@example.com", "notasecret")
    oob_code = create_email_sign_in_oob(api, registered["email"])["oobCode"]
    update_account_by_local_id(api, registered["localId"], {"disableUser": True})

    assert error_message(sign_in(api, {"email": registered["email"], "oobCode": oob_code})) == "USER_DISABLED"


def test_should_error_if_email_mismatches(api):
    oob_code = create_email_sign_in_oob(api, "alice@example.com")["oobCode"]

    assert error_message(sign_in(api, {"email": "NOT-alice@example.com", "oobCode": oob_code})) \
        == "INVALID_EMAIL : The email provided does not match the sign-in email address."


def test_should_link_existing_account_with_id_token_to_new_email(api):
    old_email = "bob@example.com"
    new_email = "alice@example.com"
    registered = register_user(api, old_email, "notasecret")
    oob_code = create_email_sign_in_oob(api, new_email)["oobCode"]

    body = expect_status(200, sign_in(api, {"email": new_email, "oobCode": oob_code, "idToken": registered["idToken"]}))
    assert body["localId"] == registered["localId"]
    assert body["email"] == new_email

    assert sorted(get_signin_methods(api, new_email)) == sorted(["password", "emailLink"])
    assert not get_signin_methods(api, old_email)


def test_should_link_existing_phone_auth_account_to_new_email(api):
    phone_user = sign_in_with_phone_number(api, TEST_PHONE_NUMBER)
    email = "alice@example.com"
    oob_code = create_email_sign_in_oob(api, email)["oobCode"]

    body = expect_status(200, sign_in(api, {"email": email, "oobCode": oob_code, "idToken": phone_user["idToken"]}))
    assert body["localId"] == phone_user["localId"]
    assert body["email"] == email

    # No "phone": phone sign-in is not tied to an email address.
    assert sorted(get_signin_methods(api, email)) == ["emailLink"]


def test_should_error_when_trying_to_link_an_email_already_used_in_another_account(api):
    phone_user = sign_in_with_phone_number(api, TEST_PHONE_NUMBER)
    email = "alice@example.com"
    register_user(api, email, "notasecret")
    oob_code = create_email_sign_in_oob(api, email)["oobCode"]

    assert error_message(sign_in(api, {"email": email, "oobCode": oob_code, "idToken": phone_user["idToken"]})) \
        == "EMAIL_EXISTS"


def test_should_error_if_user_to_be_linked_is_disabled(api):
    registered = register_user(api, "alice@example.com", "notasecret")
    update_account_by_local_id(api, registered["localId"], {"disableUser": True})

    oob_code = create_email_sign_in_oob(api, registered["email"])["oobCode"]

    assert error_message(sign_in(api, {
        "email": registered["email"], "oobCode": oob_code, "idToken": registered["idToken"]})) == "USER_DISABLED"


def test_should_return_pending_credential_if_user_has_mfa(api):
    registered = register_user(api, "alice@example.com", "notasecret", mfa_info=[TEST_MFA_INFO])
    oob_code = create_email_sign_in_oob(api, registered["email"])["oobCode"]

    expect_mfa_pending(sign_in(api, {
        "email": registered["email"], "oobCode": oob_code, "idToken": registered["idToken"]}))


def test_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})

    assert "PROJECT_DISABLED" in error_message(sign_in(api, {"tenantId": tenant["tenantId"]}))


def test_should_error_if_email_link_sign_in_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False, "enableEmailLinkSignin": False})

    assert "OPERATION_NOT_ALLOWED" in error_message(sign_in(api, {"tenantId": tenant["tenantId"]}))


def test_should_create_account_on_sign_in_with_tenant_id(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False, "enableEmailLinkSignin": True})
    email = "alice@example.com"
    oob_code = create_email_sign_in_oob(api, email, tenant["tenantId"])["oobCode"]

    local_id = expect_status(200, sign_in(api, {
        "oobCode": oob_code, "email": email, "tenantId": tenant["tenantId"]}))["localId"]

    user = get_account_info_by_local_id(api, local_id, tenant["tenantId"])
    assert user["tenantId"] == tenant["tenantId"]


def test_should_return_pending_credential_if_user_has_mfa_and_enabled_on_tenant_projects(api):
    tenant = register_tenant(api, PROJECT_ID, {
        "disableAuth": False, "enableEmailLinkSignin": True, "allowPasswordSignup": True,
        "mfaConfig": {"state": "ENABLED"}})
    registered = register_user(api, "alice@example.com", "notasecret", mfa_info=[TEST_MFA_INFO],
                               tenant_id=tenant["tenantId"])
    oob_code = create_email_sign_in_oob(api, registered["email"], tenant["tenantId"])["oobCode"]

    expect_mfa_pending(sign_in(api, {
        "email": registered["email"], "oobCode": oob_code, "idToken": registered["idToken"],
        "tenantId": tenant["tenantId"]}))


def first_oob_code(api, email):
    create_email_sign_in_oob(api, email)
    return inspect_oobs(api)[0]["oobCode"]


def expect_modified_token(body, email, is_new_user, *, session=True):
    assert isinstance(body["idToken"], str)
    assert body["email"] == email
    assert body["isNewUser"] is is_new_user
    _, payload, _ = decode_jwt(body["idToken"])
    assert payload["name"] == DISPLAY_NAME
    assert payload["picture"] == PHOTO_URL
    assert payload["email_verified"] is True
    assert payload["customAttribute"] == "custom"
    if session:
        assert payload["sessionAttribute"] == "session"


SIGN_IN_UPDATE = {"userRecord": {
    "updateMask": "displayName,photoUrl,emailVerified,customClaims,sessionClaims",
    "displayName": DISPLAY_NAME, "photoUrl": PHOTO_URL, "emailVerified": True,
    "customClaims": {"customAttribute": "custom"}, "sessionClaims": {"sessionAttribute": "session"}}}
NOT_TESTED = {"userRecord": {"updateMask": "displayName", "displayName": "Not tested"}}


def expect_user_record(jwt, email, email_verified):
    assert jwt["sign_in_method"] == "emailLink"
    record = jwt["user_record"]
    assert isinstance(record["uid"], str)
    assert record["email"] == email
    assert record["email_verified"] is email_verified
    assert isinstance(record["metadata"]["creation_time"], (int, float))
    return record


class TestWhenBlockingFunctionsArePresent:
    def test_should_update_modifiable_fields_for_account_creation(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_CREATE_PATH)
        blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {
            "updateMask": "displayName,photoUrl,emailVerified,customClaims", "displayName": DISPLAY_NAME,
            "photoUrl": PHOTO_URL, "emailVerified": True, "customClaims": {"customAttribute": "custom"}}})

        email = "alice@example.com"
        body = expect_status(200, sign_in(api, {"oobCode": first_oob_code(api, email), "email": email}))
        expect_modified_token(body, email, True, session=False)
        expect_blocking_calls_done(blocking_functions)

    def test_should_pass_user_info_in_the_request_body_to_before_create(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_CREATE_PATH)
        blocking_functions.respond(BEFORE_CREATE_PATH, NOT_TESTED)

        email = "alice@example.com"
        expect_status(200, sign_in(api, {"oobCode": first_oob_code(api, email), "email": email}))

        jwts = blocking_functions.requests[BEFORE_CREATE_PATH]
        assert len(jwts) == 1
        expect_user_record(jwts[0], email, True)
        expect_blocking_calls_done(blocking_functions)

    def test_should_pass_user_info_in_the_request_body_to_before_sign_in(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, NOT_TESTED)

        email = "alice@example.com"
        expect_status(200, sign_in(api, {"oobCode": first_oob_code(api, email), "email": email}))

        jwts = blocking_functions.requests[BEFORE_SIGN_IN_PATH]
        assert len(jwts) == 1
        expect_user_record(jwts[0], email, True)
        expect_blocking_calls_done(blocking_functions)

    def test_should_pass_user_info_in_the_request_body_to_before_sign_in_and_include_modifiable_fields_from_before_create(
            self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_CREATE_PATH, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {
            "updateMask": "displayName,photoUrl,emailVerified,customClaims", "displayName": DISPLAY_NAME,
            "photoUrl": PHOTO_URL, "emailVerified": False, "customClaims": {"customAttribute": "custom"}}})
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, NOT_TESTED)

        email = "alice@example.com"
        expect_status(200, sign_in(api, {"oobCode": first_oob_code(api, email), "email": email}))

        jwts = blocking_functions.requests[BEFORE_SIGN_IN_PATH]
        assert len(jwts) == 1
        record = expect_user_record(jwts[0], email, False)
        assert record["display_name"] == DISPLAY_NAME
        assert record["photo_url"] == PHOTO_URL
        assert record["custom_claims"] == {"customAttribute": "custom"}
        expect_blocking_calls_done(blocking_functions)

    def test_should_update_modifiable_fields_before_sign_in(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, SIGN_IN_UPDATE)

        email = "alice@example.com"
        body = expect_status(200, sign_in(api, {"oobCode": first_oob_code(api, email), "email": email}))
        expect_modified_token(body, email, True)
        expect_blocking_calls_done(blocking_functions)

    def test_before_sign_in_fields_should_overwrite_before_create_fields(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_CREATE_PATH, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {
            "updateMask": "displayName,photoUrl,emailVerified,customClaims", "displayName": "oldDisplayName",
            "photoUrl": "oldPhotoUrl", "emailVerified": False, "customClaims": {"customAttribute": "oldCustom"}}})
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, SIGN_IN_UPDATE)

        email = "alice@example.com"
        body = expect_status(200, sign_in(api, {"oobCode": first_oob_code(api, email), "email": email}))
        expect_modified_token(body, email, True)
        expect_blocking_calls_done(blocking_functions)

    def test_should_update_modifiable_fields_before_sign_in_for_existing_accounts(self, api, blocking_functions):
        user = {"email": "bob@example.com", "password": "notasecret"}
        local_id = register_user(api, **user)["localId"]
        oob_code = create_email_sign_in_oob(api, user["email"])["oobCode"]
        use_blocking_functions(api, blocking_functions, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, SIGN_IN_UPDATE)

        body = expect_status(200, sign_in(api, {"email": user["email"], "oobCode": oob_code}))
        assert body["localId"] == local_id
        expect_modified_token(body, user["email"], False)
        expect_blocking_calls_done(blocking_functions)

    def test_should_error_after_disabling_user(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_CREATE_PATH)
        blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {"updateMask": "disabled", "disabled": True}})

        email = "alice@example.com"
        assert error_message(sign_in(api, {"oobCode": first_oob_code(api, email), "email": email})) == "USER_DISABLED"
        expect_blocking_calls_done(blocking_functions)
