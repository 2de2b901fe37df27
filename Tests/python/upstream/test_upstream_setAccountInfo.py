"""firebase-tools v15.28.1 `src/emulator/auth/setAccountInfo.spec.ts` ("accounts:update"), ported case by
case."""

import json

import pytest

from upstream.upstream_support import (
    KEY, OWNER, PROJECT_ID, TEST_INVALID_PHONE_NUMBER, TEST_MFA_INFO, TEST_PHONE_NUMBER, TEST_PHONE_NUMBER_2,
    TEST_PHONE_NUMBER_3, V1, decode_jwt, error_message, expect_id_token_expired, expect_status,
    get_account_info_by_id_token, get_signin_methods, inspect_oobs, register_anon_user, register_tenant,
    register_user, sign_in_with_email_link, sign_in_with_fake_claims, sign_in_with_phone_number, update_account_by_local_id,
)

UPDATE = f"{V1}/accounts:update"
SIGN_IN_WITH_PASSWORD = f"{V1}/accounts:signInWithPassword"


def includes(actual, expected):
    """chai's `to.include(object)`: every given key has the given value."""
    return all(key in actual and actual[key] == value for key, value in expected.items())


def non_empty_string(value):
    return isinstance(value, str) and value != ""


def admin_update(api, body):
    return api.post(UPDATE, body, headers=OWNER)


def test_should_allow_updating_and_deleting_display_name_and_photo_url(api):
    id_token = register_anon_user(api)["idToken"]
    attrs = {"displayName": "Alice", "photoUrl": "http://localhost/alice.png"}
    body = expect_status(200, api.post(UPDATE, {"idToken": id_token, **attrs}, query=KEY))
    assert body["displayName"] == attrs["displayName"]
    assert body["photoUrl"] == attrs["photoUrl"]
    # Updating name and picture shouldn't issue a new token.
    assert "idToken" not in body
    assert "refreshToken" not in body

    body = expect_status(200, api.post(UPDATE, {"idToken": id_token, "deleteAttribute": ["DISPLAY_NAME", "PHOTO_URL"]},
                                       query=KEY))
    assert "displayName" not in body
    assert "photoUrl" not in body


def test_should_set_password_and_issue_new_tokens(api):
    email = "alice@example.com"
    user = register_user(api, email, "notasecret")
    new_password = "notasecreteither"
    body = expect_status(200, api.post(UPDATE, {"idToken": user["idToken"], "password": new_password}, query=KEY))
    # Updating password causes new tokens to be issued.
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert payload["user_id"] == user["localId"]
    assert payload["firebase"]["sign_in_provider"] == "password"

    # New password now works.
    body = expect_status(200, api.post(SIGN_IN_WITH_PASSWORD, {"email": email, "password": new_password}, query=KEY))
    assert body["localId"] == user["localId"]


def test_should_add_password_provider_to_anon_user(api):
    anon = register_anon_user(api)
    email, password = "alice@example.com", "notasecreteither"
    body = expect_status(200, api.post(UPDATE, {"idToken": anon["idToken"], "email": email, "password": password},
                                       query=KEY))
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert payload["user_id"] == anon["localId"]
    assert payload["firebase"]["sign_in_provider"] == "password"

    body = expect_status(200, api.post(SIGN_IN_WITH_PASSWORD, {"email": email, "password": password}, query=KEY))
    assert body["localId"] == anon["localId"]
    assert get_signin_methods(api, email) == ["password"]


def test_should_allow_adding_email_without_password_to_anon_user(api):
    anon = register_anon_user(api)
    email = "alice@example.com"
    body = expect_status(200, api.post(UPDATE, {"idToken": anon["idToken"], "email": email}, query=KEY))
    # Setting email causes new tokens to be issued.
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert payload["user_id"] == anon["localId"]
    # This remains the same as provider used by the previous idToken.
    assert payload["firebase"]["sign_in_provider"] == "anonymous"
    assert "password" not in (get_signin_methods(api, email) or [])


def test_should_allow_changing_email_of_an_existing_user_and_send_out_an_oob_to_reset_the_email(api):
    old_email, password, new_email = "alice@example.com", "notasecret", "bob@example.com"
    user = register_user(api, old_email, password)
    body = expect_status(200, api.post(UPDATE, {"idToken": user["idToken"], "email": new_email}, query=KEY))
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert payload["user_id"] == user["localId"]
    assert payload["email"] == new_email
    assert payload["firebase"]["sign_in_provider"] == "password"

    # New email now works.
    body = expect_status(200, api.post(SIGN_IN_WITH_PASSWORD, {"email": new_email, "password": password}, query=KEY))
    assert body["localId"] == user["localId"]
    # Old email can no longer be used to sign in.
    assert error_message(api.post(SIGN_IN_WITH_PASSWORD, {"email": old_email, "password": password}, query=KEY)) \
        == "EMAIL_NOT_FOUND"

    # An oob is sent to oldEmail
    oobs = inspect_oobs(api)
    assert len(oobs) == 1
    assert oobs[0]["email"] == old_email
    assert oobs[0]["requestType"] == "RECOVER_EMAIL"


def test_should_disallow_setting_email_to_same_as_an_existing_user(api):
    register_user(api, "bob@example.com", "notasecret")
    id_token = register_anon_user(api)["idToken"]
    assert error_message(api.post(UPDATE, {"idToken": id_token, "email": "bob@example.com"}, query=KEY)) \
        == "EMAIL_EXISTS"
    # Case variants of a same email address are also considered duplicates.
    assert error_message(api.post(UPDATE, {"idToken": id_token, "email": "BOB@example.com", "password": "notasecret"},
                                  query=KEY)) == "EMAIL_EXISTS"


def test_should_set_initial_email_for_the_user_after_updating_email(api):
    old_email, new_email = "alice@example.com", "bob@example.com"
    id_token = register_user(api, old_email, "notasecret")["idToken"]
    body = expect_status(200, api.post(UPDATE, {"idToken": id_token, "email": new_email}, query=KEY))
    assert body["email"] == new_email
    # Verify that the initial email has been set. Upstream looks up with the old token: the update sets
    # validSince to now, which under its frozen fake timers equals the token's iat; our clock runs, so
    # a second may pass between the two and the old token would read as expired. The update's own
    # token names the same user.
    assert get_account_info_by_id_token(api, body["idToken"])["initialEmail"] == old_email


def test_should_reset_email_when_oob_flow_is_initiated_after_updating_user_email(api):
    old_email, new_email = "alice@example.com", "bob@example.com"
    id_token = register_user(api, old_email, "notasecret")["idToken"]
    expect_status(200, api.post(UPDATE, {"idToken": id_token, "email": new_email}, query=KEY))

    oobs = inspect_oobs(api)
    assert len(oobs) == 1
    assert oobs[0]["email"] == old_email
    assert oobs[0]["requestType"] == "RECOVER_EMAIL"

    # The returned oobCode can be redeemed to verify the email; the code alone is enough.
    body = expect_status(200, api.post(UPDATE, {"oobCode": oobs[0]["oobCode"]}, query=KEY))
    assert body["email"] == old_email
    # Email is verified since this flow can only be initiated through a link sent to the user's email.
    assert body["emailVerified"] is True
    # oobCode is removed after redeemed.
    assert inspect_oobs(api) == []


def test_should_disallow_resetting_an_email_if_another_user_exists_with_the_same_email(api):
    id_token = register_user(api, "bob@example.com", "notasecret")["idToken"]
    body = expect_status(200, api.post(UPDATE, {"idToken": id_token, "email": "bob_new@example.com"}, query=KEY))
    assert body["email"] == "bob_new@example.com"
    # Register second user with the same email as the first user's initialEmail
    register_user(api, "bob@example.com", "notasecreteither")

    oobs = inspect_oobs(api)
    assert len(oobs) == 1
    assert oobs[0]["requestType"] == "RECOVER_EMAIL"
    assert error_message(api.post(UPDATE, {"oobCode": oobs[0]["oobCode"]}, query=KEY)) == "EMAIL_EXISTS"


def test_should_not_set_initial_email_or_send_oob_when_anon_user_updates_email(api):
    id_token = register_anon_user(api)["idToken"]
    email = "alice@example.com"
    body = expect_status(200, api.post(UPDATE, {"idToken": id_token, "email": email}, query=KEY))
    assert body["email"] == email
    # No OOB code should be sent.
    assert inspect_oobs(api) == []
    # The update's own token, not the old one: see test_should_set_initial_email_for_the_user_after_updating_email.
    assert "initialEmail" not in get_account_info_by_id_token(api, body["idToken"])


def test_should_not_update_email_if_user_is_disabled(api):
    user = register_user(api, "bob@example.com", "notasecret")
    update_account_by_local_id(api, user["localId"], {"disableUser": True})
    assert error_message(api.post(UPDATE, {"idToken": user["idToken"], "email": "alice@example.com"}, query=KEY)) \
        == "USER_DISABLED"


def test_should_update_email_when_oob_flow_of_verify_and_change_email_is_initiated(api):
    old_email, new_email = "alice@example.com", "bob@example.com"
    id_token = register_user(api, old_email, "notasecret")["idToken"]
    expect_status(200, api.post(f"{V1}/accounts:sendOobCode", {"idToken": id_token, "newEmail": new_email,
                                                              "requestType": "VERIFY_AND_CHANGE_EMAIL"}, query=KEY))
    oobs = inspect_oobs(api)
    assert len(oobs) == 1
    assert oobs[0]["email"] == old_email
    assert oobs[0]["newEmail"] == new_email
    assert oobs[0]["requestType"] == "VERIFY_AND_CHANGE_EMAIL"

    body = expect_status(200, api.post(UPDATE, {"oobCode": oobs[0]["oobCode"]}, query=KEY))
    assert body["email"] == new_email
    assert body["newEmail"] == new_email
    assert body["emailVerified"] is True
    assert inspect_oobs(api) == []


def test_should_disallow_changing_an_email_if_another_user_exists_with_the_same_email(api):
    id_token = register_user(api, "alice@example.com", "notasecret")["idToken"]
    expect_status(200, api.post(f"{V1}/accounts:sendOobCode", {"idToken": id_token, "newEmail": "bob@example.com",
                                                              "requestType": "VERIFY_AND_CHANGE_EMAIL"}, query=KEY))
    oobs = inspect_oobs(api)
    assert len(oobs) == 1
    assert oobs[0]["requestType"] == "VERIFY_AND_CHANGE_EMAIL"

    register_user(api, "bob@example.com", "notasecreteither")
    assert error_message(api.post(UPDATE, {"oobCode": oobs[0]["oobCode"]}, query=KEY)) == "EMAIL_EXISTS"
    # oobCode is removed after redeemed.
    assert inspect_oobs(api) == []


def test_should_update_phone_number_if_specified(api):
    user = sign_in_with_phone_number(api, TEST_PHONE_NUMBER)
    new_phone_number = "+15555550123"
    expect_status(200, admin_update(api, {"localId": user["localId"], "phoneNumber": new_phone_number}))
    assert get_account_info_by_id_token(api, user["idToken"])["phoneNumber"] == new_phone_number


def test_should_noop_when_setting_phone_number_to_the_same_as_before(api):
    user = sign_in_with_phone_number(api, TEST_PHONE_NUMBER)
    expect_status(200, admin_update(api, {"localId": user["localId"], "phoneNumber": TEST_PHONE_NUMBER}))
    assert get_account_info_by_id_token(api, user["idToken"])["phoneNumber"] == TEST_PHONE_NUMBER


def test_should_disallow_setting_phone_to_same_as_an_existing_user(api):
    sign_in_with_phone_number(api, TEST_PHONE_NUMBER)
    local_id = register_anon_user(api)["localId"]
    assert error_message(admin_update(api, {"localId": local_id, "phoneNumber": TEST_PHONE_NUMBER})) \
        == "PHONE_NUMBER_EXISTS"


def test_should_error_if_phone_number_is_invalid(api):
    local_id = register_anon_user(api)["localId"]
    assert error_message(admin_update(api, {"localId": local_id, "phoneNumber": "555-555-0100"})) \
        == "INVALID_PHONE_NUMBER : Invalid format."


def test_should_allow_creating_mfa_info(api):
    user = register_user(api, "bob@example.com", "notasecret")
    enrollment = {**TEST_MFA_INFO, "mfaEnrollmentId": "enrollmentId1"}
    expect_status(200, admin_update(api, {"localId": user["localId"], "mfa": {"enrollments": [enrollment]}}))
    info = get_account_info_by_id_token(api, user["idToken"])
    assert len(info["mfaInfo"]) == 1
    updated = info["mfaInfo"][0]
    assert updated["displayName"] == TEST_MFA_INFO["displayName"]
    assert updated["phoneInfo"] == TEST_MFA_INFO["phoneInfo"]
    assert updated["mfaEnrollmentId"] == "enrollmentId1"


def register_mfa_user(api, mfa_info):
    user = register_user(api, "bob@example.com", "notasecret", mfa_info=mfa_info)
    saved = get_account_info_by_id_token(api, user["idToken"])
    assert len(saved["mfaInfo"]) == len(mfa_info)
    return user, saved["mfaInfo"]


def test_should_allow_adding_a_second_mfa_factor(api):
    user, (saved,) = register_mfa_user(api, [TEST_MFA_INFO])
    second = {"displayName": "Second MFA Factor", "phoneInfo": TEST_PHONE_NUMBER_2, "mfaEnrollmentId": "enrollmentId2"}
    expect_status(200, admin_update(api, {"localId": user["localId"], "mfa": {"enrollments": [saved, second]}}))
    updated = get_account_info_by_id_token(api, user["idToken"])["mfaInfo"]
    assert len(updated) == 2
    for factor in updated:
        if factor["mfaEnrollmentId"] == saved["mfaEnrollmentId"]:
            assert includes(factor, saved)
        else:
            assert includes(factor, second)


def test_should_allow_changing_the_mfa_phone_number(api):
    user, (saved,) = register_mfa_user(api, [TEST_MFA_INFO])
    assert non_empty_string(saved["mfaEnrollmentId"])
    changed = {**saved, "displayName": "New Display Name", "phoneInfo": "+15555550101"}
    expect_status(200, admin_update(api, {"localId": user["localId"], "mfa": {"enrollments": [changed]}}))
    updated = get_account_info_by_id_token(api, user["idToken"])["mfaInfo"]
    assert len(updated) == 1
    assert updated[0]["displayName"] == "New Display Name"
    assert updated[0]["phoneInfo"] == "+15555550101"
    assert updated[0]["mfaEnrollmentId"] == saved["mfaEnrollmentId"]


def test_should_allow_changing_the_mfa_enrollment_id(api):
    user, (saved,) = register_mfa_user(api, [TEST_MFA_INFO])
    assert non_empty_string(saved["mfaEnrollmentId"])
    expect_status(200, admin_update(api, {"localId": user["localId"], "mfa": {
        "enrollments": [{**saved, "mfaEnrollmentId": "newEnrollmentId"}]}}))
    updated = get_account_info_by_id_token(api, user["idToken"])["mfaInfo"]
    assert len(updated) == 1
    assert updated[0]["displayName"] == saved["displayName"]
    assert updated[0]["phoneInfo"] == saved["phoneInfo"]
    assert updated[0]["mfaEnrollmentId"] != saved["mfaEnrollmentId"]
    assert updated[0]["mfaEnrollmentId"] == "newEnrollmentId"


def test_should_overwrite_existing_mfa_info(api):
    user, saved = register_mfa_user(api, [TEST_MFA_INFO, {**TEST_MFA_INFO, "phoneInfo": TEST_PHONE_NUMBER_3}])
    old_ids = [factor["mfaEnrollmentId"] for factor in saved]
    new_factor = {"displayName": "New New", "phoneInfo": TEST_PHONE_NUMBER_3, "mfaEnrollmentId": "newEnrollmentId"}
    expect_status(200, admin_update(api, {"localId": user["localId"], "mfa": {"enrollments": [new_factor]}}))
    updated = get_account_info_by_id_token(api, user["idToken"])["mfaInfo"]
    assert len(updated) == 1
    assert updated[0]["phoneInfo"] == new_factor["phoneInfo"]
    assert updated[0]["displayName"] == new_factor["displayName"]
    assert updated[0]["mfaEnrollmentId"] == new_factor["mfaEnrollmentId"]
    assert updated[0]["mfaEnrollmentId"] not in old_ids


def test_should_remove_mfa_info_with_an_empty_enrollments_array(api):
    user, _ = register_mfa_user(api, [TEST_MFA_INFO])
    expect_status(200, admin_update(api, {"localId": user["localId"], "mfa": {"enrollments": []}}))
    assert "mfaInfo" not in get_account_info_by_id_token(api, user["idToken"])


def test_should_remove_mfa_info_with_an_undefined_enrollments_array(api):
    user, _ = register_mfa_user(api, [TEST_MFA_INFO])
    # `enrollments: undefined` is dropped by JSON.stringify: the body carries `mfa: {}`.
    expect_status(200, admin_update(api, {"localId": user["localId"], "mfa": {}}))
    assert "mfaInfo" not in get_account_info_by_id_token(api, user["idToken"])


def test_should_error_if_mfa_enrollment_id_is_absent(api):
    user, _ = register_mfa_user(api, [TEST_MFA_INFO])
    assert error_message(admin_update(api, {"localId": user["localId"], "mfa": {"enrollments": [TEST_MFA_INFO]}})) \
        == "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined."


def test_should_de_duplicate_mfa_factors_with_the_same_phone_number(api):
    user = register_user(api, "bob@example.com", "notasecret")
    local_id, id_token = user["localId"], user["idToken"]
    enrollment_id = "enrollmentId1"

    def update_enrollments(enrollments):
        expect_status(200, admin_update(api, {"localId": local_id, "mfa": {"enrollments": enrollments}}))
        return get_account_info_by_id_token(api, id_token).get("mfaInfo")

    first = update_enrollments([{**TEST_MFA_INFO, "mfaEnrollmentId": enrollment_id}] * 2)
    assert len(first) == 1
    assert includes(first[0], TEST_MFA_INFO)
    assert first[0]["mfaEnrollmentId"] == enrollment_id

    assert update_enrollments([]) is None

    third = update_enrollments([{**TEST_MFA_INFO, "mfaEnrollmentId": f"enrollmentId{n}"} for n in (2, 3, 4)])
    assert len(third) == 1
    assert includes(third[0], TEST_MFA_INFO)
    assert third[0]["mfaEnrollmentId"] != enrollment_id

    fourth = update_enrollments(
        [{**TEST_MFA_INFO, "mfaEnrollmentId": f"enrollmentId{n}"} for n in (5, 6, 7)]
        + [{"phoneInfo": TEST_PHONE_NUMBER_2, "mfaEnrollmentId": f"enrollmentId{n}"} for n in (8, 9)])
    assert len(fourth) == 2
    for factor in fourth:
        if factor["phoneInfo"] == TEST_MFA_INFO["phoneInfo"]:
            assert includes(factor, TEST_MFA_INFO)
        else:
            assert factor["phoneInfo"] == TEST_PHONE_NUMBER_2
        assert non_empty_string(factor["mfaEnrollmentId"])
        assert factor["mfaEnrollmentId"] != enrollment_id


def test_should_error_if_mfa_enrollment_id_is_duplicated_for_different_phone_numbers(api):
    local_id = register_user(api, "bob@example.com", "notasecret")["localId"]
    enrollment_id = "duplicateMfaEnrollmentId "
    enrollments = [{**TEST_MFA_INFO, "mfaEnrollmentId": enrollment_id},
                   {"phoneInfo": TEST_PHONE_NUMBER_2, "mfaEnrollmentId": enrollment_id}]
    assert error_message(admin_update(api, {"localId": local_id, "mfa": {"enrollments": enrollments}})) \
        == "DUPLICATE_MFA_ENROLLMENT_ID"


def test_does_not_require_mfa_enrollment_id_uniqueness_across_users(api):
    bob = register_user(api, "bob@example.com", "notasecret", mfa_info=[TEST_MFA_INFO])
    bob_info = get_account_info_by_id_token(api, bob["idToken"])
    assert len(bob_info["mfaInfo"]) == 1
    alice = register_user(api, "alice@example.com", "notasecret", mfa_info=[TEST_MFA_INFO])
    alice_info = get_account_info_by_id_token(api, alice["idToken"])
    assert len(alice_info["mfaInfo"]) == 1
    alice_enrollment_id = alice_info["mfaInfo"][0]["mfaEnrollmentId"]

    expect_status(200, admin_update(api, {"localId": bob["localId"], "mfa": {
        "enrollments": [{**bob_info["mfaInfo"][0], "mfaEnrollmentId": alice_enrollment_id}]}}))
    assert get_account_info_by_id_token(api, bob["idToken"])["mfaInfo"][0]["mfaEnrollmentId"] == alice_enrollment_id


def test_should_error_if_phone_number_for_mfa_is_invalid(api):
    user, (saved,) = register_mfa_user(api, [TEST_MFA_INFO])
    # `phoneInfo: undefined` is dropped by JSON.stringify: the enrollment carries no phoneInfo.
    without_phone = {key: value for key, value in saved.items() if key != "phoneInfo"}
    assert error_message(admin_update(api, {"localId": user["localId"], "mfa": {"enrollments": [without_phone]}})) \
        == "INVALID_MFA_PHONE_NUMBER : Invalid format."
    invalid = {**saved, "phoneInfo": TEST_INVALID_PHONE_NUMBER}
    assert error_message(admin_update(api, {"localId": user["localId"], "mfa": {"enrollments": [invalid]}})) \
        == "INVALID_MFA_PHONE_NUMBER : Invalid format."


def test_should_error_if_user_for_mfa_update_is_not_found(api):
    enrollment = {**TEST_MFA_INFO, "mfaEnrollmentId": "anything"}
    assert error_message(admin_update(api, {"localId": "anything", "mfa": {"enrollments": [enrollment]}})) \
        == "USER_NOT_FOUND"


def test_should_error_if_enrollments_is_not_an_array_or_undefined(api):
    assert error_message(admin_update(api, {"localId": "anything", "mfa": {"enrollments": None}})) \
        == "Invalid JSON payload received. /mfa/enrollments must be array"


def test_should_error_if_user_is_disabled_when_updating_by_id_token(api):
    anon = register_anon_user(api)
    update_account_by_local_id(api, anon["localId"], {"disableUser": True})
    assert error_message(api.post(UPDATE, {"idToken": anon["idToken"], "displayName": "Foo"}, query=KEY)) \
        == "USER_DISABLED"


def test_should_still_update_user_despite_user_is_disabled_when_authenticated(api):
    local_id = register_anon_user(api)["localId"]
    update_account_by_local_id(api, local_id, {"disableUser": True})
    # These should still work.
    update_account_by_local_id(api, local_id, {"displayName": "Foo"})
    update_account_by_local_id(api, local_id, {"disableUser": False})


def test_should_invalidate_old_tokens_after_updating_valid_since_or_password(api):
    id_token = register_user(api, "alice@example.com", "notasecret")["idToken"]
    # Move time forward so idToken's iat (issuedAt) is in the past.
    api.tick(2000)
    id_token2 = expect_status(200, api.post(UPDATE, {"idToken": id_token, "password": "notasecreteither"},
                                            query=KEY))["idToken"]
    # Old idToken should no longer work, while the new one works.
    expect_id_token_expired(api, id_token)
    get_account_info_by_id_token(api, id_token2)

    api.tick(2000)
    # Any value works for validSince: only the presence of the field matters.
    id_token3 = expect_status(200, api.post(UPDATE, {"idToken": id_token2, "validSince": "0"},
                                            query=KEY))["idToken"]
    expect_id_token_expired(api, id_token)
    expect_id_token_expired(api, id_token2)
    get_account_info_by_id_token(api, id_token3)


def create_password_user(api):
    return register_user(api, "alice@example.com", "notasecret")


def create_phone_user(api):
    return sign_in_with_phone_number(api, TEST_PHONE_NUMBER)


def create_google_user(api):
    return sign_in_with_fake_claims(api, "google.com", {"sub": "12345", "email": "bob@example.com"})


# upstream's `itShouldDeleteProvider(createUser, providerId)`, once per provider.
@pytest.mark.parametrize("create_user, provider_id", [
    pytest.param(create_password_user, "password", id="should_delete_password_provider_from_user"),
    pytest.param(create_phone_user, "phone", id="should_delete_phone_provider_from_user"),
    pytest.param(create_google_user, "google.com", id="should_delete_google.com_provider_from_user"),
])
def test_should_delete_provider_from_user(api, create_user, provider_id):
    user = create_user(api)
    body = expect_status(200, api.post(UPDATE, {"idToken": user["idToken"], "deleteProvider": [provider_id]},
                                       query=KEY))
    providers = [info["providerId"] for info in body.get("providerUserInfo") or []]
    assert provider_id not in providers
    if user.get("email"):
        methods = get_signin_methods(api, user["email"]) or []
        assert provider_id not in methods
        assert "emailLink" not in methods


def test_should_update_user_by_local_id_when_authenticated(api):
    local_id = register_user(api, "foo@example.com", "barbaz")["localId"]
    attrs = {"phoneNumber": TEST_PHONE_NUMBER, "displayName": "Alice", "photoUrl": "http://localhost/alice.png"}
    body = expect_status(200, admin_update(api, {"localId": local_id, **attrs, "emailVerified": True}))
    assert body["displayName"] == attrs["displayName"]
    assert body["photoUrl"] == attrs["photoUrl"]
    assert body["emailVerified"] is True


def test_should_error_if_authenticated_request_does_not_specify_local_id(api):
    assert error_message(admin_update(api, {"emailVerified": True})) == "MISSING_LOCAL_ID"


def test_should_update_custom_attributes_and_add_them_to_id_tokens(api):
    user = register_user(api, "foo@example.com", "barbaz")
    attrs = {"foo": "bar", "baz": {"answer": 42}}
    expect_status(200, admin_update(api, {"localId": user["localId"], "customAttributes": json.dumps(attrs)}))
    id_token = sign_in_with_email_link(api, user["email"])["idToken"]
    payload = decode_jwt(id_token)[1]
    assert payload["foo"] == attrs["foo"]
    assert payload["baz"] == attrs["baz"]


def test_should_error_if_custom_attributes_are_invalid(api):
    local_id = register_user(api, "foo@example.com", "barbaz")["localId"]

    def attempt(custom_attributes):
        return error_message(admin_update(api, {"localId": local_id, "customAttributes": custom_attributes}))

    assert attempt("{definitely[not]json}") == "INVALID_CLAIMS"
    assert attempt("42") == "INVALID_CLAIMS"
    assert attempt('["a", "b"]') == "INVALID_CLAIMS"
    # Contains a forbidden field "sub".
    assert attempt('{"sub": "12345"}') == "FORBIDDEN_CLAIM : sub"
    long_string = "x" * 998  # upstream: new Array(999).join("x")
    assert attempt(f'{{"a":"{long_string}"}}') == "CLAIMS_TOO_LARGE"


def test_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})
    assert error_message(api.post(UPDATE, {"tenantId": tenant["tenantId"]}, query=KEY)) == "PROJECT_DISABLED"


def test_should_set_tenant_id_in_oob_link(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False, "mfaConfig": {"state": "ENABLED"},
                                               "allowPasswordSignup": True})
    tenant_id = tenant["tenantId"]
    old_email = "alice@example.com"
    id_token = register_user(api, old_email, "notasecret", tenant_id=tenant_id)["idToken"]
    expect_status(200, api.post(UPDATE, {"idToken": id_token, "email": "bob@example.com", "tenantId": tenant_id},
                                query=KEY))
    oobs = inspect_oobs(api, tenant_id)
    assert len(oobs) == 1
    assert oobs[0]["email"] == old_email
    assert oobs[0]["requestType"] == "RECOVER_EMAIL"
    assert tenant_id in oobs[0]["oobLink"]


def test_should_link_provider_account_with_existing_user_account(api):
    id_token = register_user(api, "test@example.com", "password")["idToken"]
    provider_user_info = {"providerId": "google.com", "rawId": "google_user_id", "email": "linked@example.com",
                          "displayName": "Linked User", "photoUrl": "https://example.com/photo.jpg"}
    body = expect_status(200, api.post(UPDATE, {"idToken": id_token, "linkProviderUserInfo": provider_user_info},
                                       query=KEY))
    providers = body["providerUserInfo"]
    assert len(providers) == 2  # Original email/password + linked provider
    assert next(p for p in providers if p["providerId"] == "google.com") == provider_user_info

    info = get_account_info_by_id_token(api, id_token)
    assert len(info["providerUserInfo"]) == 2
    assert next(p for p in info["providerUserInfo"] if p["providerId"] == "google.com") == provider_user_info


def test_should_error_if_link_provider_user_info_is_missing_required_fields(api):
    id_token = register_user(api, "test@example.com", "password")["idToken"]
    message = error_message(api.post(UPDATE, {"idToken": id_token, "linkProviderUserInfo": {
        "providerId": "google.com", "email": "linked@example.com"}}, query=KEY))
    assert "MISSING_RAW_ID" in message
    message = error_message(api.post(UPDATE, {"idToken": id_token, "linkProviderUserInfo": {
        "rawId": "google_user_id", "email": "linked@example.com"}}, query=KEY))
    assert "MISSING_PROVIDER_ID" in message


def test_should_error_if_user_is_disabled_when_linking_a_provider(api):
    user = register_user(api, "test@example.com", "password")
    update_account_by_local_id(api, user["localId"], {"disableUser": True})
    assert error_message(api.post(UPDATE, {"idToken": user["idToken"], "linkProviderUserInfo": {
        "providerId": "google.com", "rawId": "google_user_id", "email": "linked@example.com"}}, query=KEY)) \
        == "USER_DISABLED"
