"""firebase-tools v15.28.1 `src/emulator/auth/passkey.spec.ts` ("passkey (WebAuthn) support"), ported
case by case."""

from upstream.upstream_support import KEY, V1, V2, error_message, expect_status, register_user

ENROLLMENT_START = f"{V2}/accounts/passkeyEnrollment:start"
ENROLLMENT_FINALIZE = f"{V2}/accounts/passkeyEnrollment:finalize"
SIGN_IN_START = f"{V2}/accounts/passkeySignIn:start"
SIGN_IN_FINALIZE = f"{V2}/accounts/passkeySignIn:finalize"


def lookup_user(api, id_token):
    return expect_status(200, api.post(f"{V1}/accounts:lookup", {"idToken": id_token}, query=KEY))["users"][0]


def enroll(api, id_token, credential_id, **fields):
    return api.post(ENROLLMENT_FINALIZE, {"idToken": id_token, "authenticatorRegistrationResponse": {
        "id": credential_id}, **fields}, query=KEY)


def test_should_initialize_passkey_enrollment_and_return_options(api):
    id_token = register_user(api, "passkey-user@example.com", "password123")["idToken"]
    body = expect_status(200, api.post(ENROLLMENT_START, {"idToken": id_token}, query=KEY))
    assert isinstance(body["credentialCreationOptions"], dict)
    assert body["credentialCreationOptions"]["rp"]["id"] == "localhost"
    assert isinstance(body["credentialCreationOptions"]["challenge"], str)


def test_should_finalize_passkey_enrollment_and_return_tokens(api):
    id_token = register_user(api, "passkey-user-2@example.com", "password123")["idToken"]
    body = expect_status(200, enroll(api, id_token, "test_credential_id_1", name="My Security Key"))
    assert isinstance(body["idToken"], str)
    assert isinstance(body["refreshToken"], str)
    assert isinstance(body["localId"], str)

    # Lookup returns the enrolled passkey.
    passkeys = lookup_user(api, id_token)["passkeyInfo"]
    assert len(passkeys) == 1
    assert passkeys[0]["credentialId"] == "test_credential_id_1"
    assert passkeys[0]["name"] == "My Security Key"


def test_should_respond_to_passkey_sign_in_start_options(api):
    body = expect_status(200, api.post(SIGN_IN_START, {}, query=KEY))
    assert isinstance(body["credentialRequestOptions"], dict)
    assert isinstance(body["credentialRequestOptions"]["challenge"], str)
    assert body["credentialRequestOptions"]["rpId"] == "localhost"


def test_should_sign_in_using_a_registered_passkey(api):
    id_token = register_user(api, "passkey-user-3@example.com", "password123")["idToken"]
    # Upstream does not check the enrollment's answer; its sign-in below depends on it.
    enroll(api, id_token, "test_credential_id_3", name="My Key")
    body = expect_status(200, api.post(SIGN_IN_FINALIZE, {"authenticatorAuthenticationResponse": {
        "id": "test_credential_id_3"}}, query=KEY))
    assert isinstance(body["idToken"], str)
    assert isinstance(body["refreshToken"], str)


def test_should_fail_sign_in_if_passkey_is_not_registered(api):
    assert error_message(api.post(SIGN_IN_FINALIZE, {"authenticatorAuthenticationResponse": {
        "id": "nonexistent_cred_id"}}, query=KEY)) == "PASSKEY_CREDENTIAL_NOT_FOUND"


def test_should_delete_unenroll_a_passkey_via_set_account_info(api):
    id_token = register_user(api, "passkey-user-4@example.com", "password123")["idToken"]
    enroll(api, id_token, "cred_4_A", name="Key A")
    enroll(api, id_token, "cred_4_B", name="Key B")

    expect_status(200, api.post(f"{V1}/accounts:update", {"idToken": id_token, "deletePasskey": ["cred_4_A"]},
                                query=KEY))
    passkeys = lookup_user(api, id_token)["passkeyInfo"]
    assert len(passkeys) == 1
    assert passkeys[0]["credentialId"] == "cred_4_B"
    assert passkeys[0]["name"] == "Key B"


def test_should_support_name_fallback_to_display_name_and_unnamed_passkey_during_enrollment(api):
    id_token = register_user(api, "passkey-fallback@example.com", "password123",
                             display_name="My Display Name")["idToken"]
    # Falls back to displayName.
    expect_status(200, enroll(api, id_token, "fallback_cred_1", displayName="My Display Name"))
    # Falls back to "Unnamed Passkey".
    id_token2 = register_user(api, "passkey-fallback-2@example.com", "password123")["idToken"]
    expect_status(200, enroll(api, id_token2, "fallback_cred_2"))

    assert lookup_user(api, id_token)["passkeyInfo"][0]["name"] == "My Display Name"
    assert lookup_user(api, id_token2)["passkeyInfo"][0]["name"] == "Unnamed Passkey"


def test_should_fail_start_finalize_endpoints_if_required_fields_are_missing(api):
    assert error_message(api.post(ENROLLMENT_START, {}, query=KEY)) == "MISSING_ID_TOKEN"
    assert error_message(api.post(ENROLLMENT_FINALIZE, {"authenticatorRegistrationResponse": {"id": "some_cred"}},
                                  query=KEY)) == "MISSING_ID_TOKEN"
    assert error_message(api.post(ENROLLMENT_FINALIZE, {"idToken": "some_token"}, query=KEY)) \
        == "MISSING_AUTHENTICATOR_RESPONSE"
    assert error_message(api.post(SIGN_IN_FINALIZE, {}, query=KEY)) == "MISSING_AUTHENTICATOR_RESPONSE"


def test_should_safely_handle_deleting_a_passkey_when_user_has_no_passkeys(api):
    id_token = register_user(api, "passkey-no-keys@example.com", "password123")["idToken"]
    expect_status(200, api.post(f"{V1}/accounts:update", {"idToken": id_token, "deletePasskey": ["nonexistent_key"]},
                                query=KEY))
