"""firebase-tools v15.28.1 `src/emulator/auth/idp.spec.ts` ("sign-in with credential"), ported."""

import json
from urllib.parse import quote

from upstream.signin_support import (
    BEFORE_CREATE_PATH, BEFORE_SIGN_IN_PATH, expect_blocking_calls_done, use_blocking_functions)
from upstream.upstream_support import (
    DISPLAY_NAME, FAKE_GOOGLE_ACCOUNT, KEY, PHOTO_URL, PROJECT_ID, REAL_GOOGLE_ACCOUNT, TEST_PHONE_NUMBER, V1,
    decode_jwt, enroll_phone_mfa, error_message, expect_status, fake_claims, get_account_info_by_id_token,
    get_account_info_by_local_id, get_signin_methods, register_anon_user, register_tenant, register_user,
    sign_in_with_email_link, sign_in_with_fake_claims, sign_in_with_phone_number, update_account_by_local_id,
    update_project_config)

SIGN_IN = f"{V1}/accounts:signInWithIdp"
PROVIDER_PASSWORD = "password"
SIGNIN_METHOD_EMAIL_LINK = "emailLink"
GOOGLE_SCOPES = ["openid", "https://www.googleapis.com/auth/userinfo.profile",
                 "https://www.googleapis.com/auth/userinfo.email"]


def sign_in(api, body):
    return api.post(SIGN_IN, body, query=KEY)


def encode(value):
    """JavaScript's `encodeURIComponent`."""
    return quote(value, safe="-_.!~*'()")


def google_post_body(fake_id_token):
    return f"providerId=google.com&id_token={encode(fake_id_token)}"


def expect_token(body, identities, sign_in_provider):
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert "provider_id" not in payload
    assert payload["firebase"]["identities"] == identities
    assert payload["firebase"]["sign_in_provider"] == sign_in_provider
    return payload


def expect_mfa_pending(response):
    body = expect_status(200, response)
    assert "idToken" not in body
    assert "refreshToken" not in body
    assert isinstance(body["mfaPendingCredential"], str)
    assert isinstance(body["mfaInfo"], list) and len(body["mfaInfo"]) == 1


def expect_google_account_sign_up(body, account):
    assert body["isNewUser"] is True
    assert body["email"] == account["email"]
    assert body["emailVerified"] == account["emailVerified"]
    assert body["federatedId"] == f"https://accounts.google.com/{account['rawId']}"
    assert body["oauthIdToken"] == account["idToken"]
    assert body["providerId"] == "google.com"
    assert isinstance(body["refreshToken"], str)

    # The ID token holds no name or photo, so neither has the account.
    assert "displayName" not in body
    assert "photoUrl" not in body

    raw = json.loads(body["rawUserInfo"])
    assert raw["id"] == account["rawId"]
    assert raw["email"] == account["email"]
    assert raw["verified_email"] is True
    assert raw["locale"] == "en"
    # name, given_name, family_name and picture are not in the ID token either.
    assert sorted(raw["granted_scopes"].split(" ")) == sorted(GOOGLE_SCOPES)

    expect_token(body, {"google.com": [account["rawId"]], "email": [account["email"]]}, "google.com")


def test_should_create_new_account_with_idp_from_unsigned_id_token(api):
    body = expect_status(200, sign_in(api, {
        "postBody": f"providerId=google.com&id_token={FAKE_GOOGLE_ACCOUNT['idToken']}",
        "requestUri": "http://localhost", "returnIdpCredential": True, "returnSecureToken": True}))
    expect_google_account_sign_up(body, FAKE_GOOGLE_ACCOUNT)


def test_should_create_new_account_with_idp_from_production_id_token(api):
    body = expect_status(200, sign_in(api, {
        "postBody": f"providerId=google.com&id_token={REAL_GOOGLE_ACCOUNT['idToken']}",
        "requestUri": "http://localhost", "returnIdpCredential": True, "returnSecureToken": True}))
    expect_google_account_sign_up(body, REAL_GOOGLE_ACCOUNT)


def test_should_create_new_account_with_idp_from_unencoded_json_claims(api):
    claims = fake_claims(sub="123456789012345678901", name="Ada Lovelace", given_name="Ada", family_name="Lovelace",
                         picture="http://localhost/fake-picture-url.png")
    fake_id_token = json.dumps(claims)
    body = expect_status(200, sign_in(api, {
        "postBody": google_post_body(fake_id_token), "requestUri": "http://localhost", "returnIdpCredential": True,
        "returnSecureToken": True}))
    assert body["isNewUser"] is True
    assert body["federatedId"] == f"https://accounts.google.com/{claims['sub']}"
    assert body["oauthIdToken"] == fake_id_token
    assert body["providerId"] == "google.com"
    assert body["displayName"] == claims["name"]
    assert body["fullName"] == claims["name"]
    assert body["firstName"] == claims["given_name"]
    assert body["lastName"] == claims["family_name"]
    assert body["photoUrl"] == claims["picture"]
    assert isinstance(body["refreshToken"], str)

    raw = json.loads(body["rawUserInfo"])
    assert raw["id"] == claims["sub"]
    assert raw["name"] == claims["name"]
    assert raw["given_name"] == claims["given_name"]
    assert raw["family_name"] == claims["family_name"]
    assert raw["picture"] == claims["picture"]
    assert "https://www.googleapis.com/auth/userinfo.email" not in raw["granted_scopes"].split(" ")

    expect_token(body, {"google.com": [claims["sub"]]}, "google.com")


def test_should_accept_params_e_g_provider_id_id_token_in_request_uri(api):
    fake_id_token = json.dumps(fake_claims(sub="123456789012345678901"))
    # No postBody: every parameter is in requestUri.
    body = expect_status(200, sign_in(api, {
        "requestUri": f"http://localhost?providerId=google.com&id_token={encode(fake_id_token)}",
        "returnIdpCredential": True}))
    assert body["providerId"] == "google.com"


def test_should_copy_attributes_to_user_on_idp_sign_up(api):
    claims = fake_claims(sub="123456789012345678901", screen_name="turingcomplete", name="Alan Turing",
                         picture="http://localhost/turing.png")
    id_token = sign_in_with_fake_claims(api, "google.com", claims)["idToken"]

    user = get_account_info_by_id_token(api, id_token)
    assert user["photoUrl"] == claims["picture"]
    assert user["displayName"] == claims["name"]
    assert user["screenName"] == claims["screen_name"]


def test_should_allow_duplicate_emails_if_set_in_project_config(api):
    update_project_config(api, {"signIn": {"allowDuplicateEmails": True}})
    email = "alice@example.com"

    # Given an account with the email already:
    user1 = register_user(api, email, "notasecret")
    # When signing in with an IdP that claims the same email:
    user2 = sign_in_with_fake_claims(api, "google.com", {"sub": "123456789012345678901", "email": email})

    # A new account is made, with another local ID:
    assert user2["localId"] != user1["localId"]


def test_should_sign_up_new_users_without_copying_email_when_allowing_duplicate_emails(api):
    update_project_config(api, {"signIn": {"allowDuplicateEmails": True}})
    email = "alice@example.com"

    user1 = sign_in_with_fake_claims(api, "google.com", {"sub": "123456789012345678901", "email": email})

    info = get_account_info_by_id_token(api, user1["idToken"])
    assert "email" not in info


def test_should_allow_multiple_providers_with_same_email_when_allowing_duplicate_emails(api):
    update_project_config(api, {"signIn": {"allowDuplicateEmails": True}})
    email = "alice@example.com"

    user1 = sign_in_with_fake_claims(api, "google.com", {"sub": "123456789012345678901", "email": email})
    user2 = sign_in_with_fake_claims(api, "facebook.com", {"sub": "123456789012345678901", "email": email})

    assert user2["localId"] != user1["localId"]


def test_should_sign_in_existing_account_if_provider_id_sub_is_the_same(api):
    user1 = sign_in_with_fake_claims(api, "google.com", {"sub": "123456789012345678901"})

    # Same sub, same user.
    user2 = sign_in_with_fake_claims(api, "google.com", {"sub": "123456789012345678901"})
    assert user2["localId"] == user1["localId"]

    # Another sub, another user.
    user3 = sign_in_with_fake_claims(api, "google.com", {"sub": "000000000000000000000"})
    assert user3["localId"] != user1["localId"]

    # Another providerId, another user.
    user4 = sign_in_with_fake_claims(api, "apple.com", {"sub": "123456789012345678901"})
    assert user4["localId"] != user1["localId"]


def test_should_error_if_user_is_disabled(api):
    user = sign_in_with_fake_claims(api, "google.com", {"sub": "123456789012345678901"})
    update_account_by_local_id(api, user["localId"], {"disableUser": True})

    fake_id_token = json.dumps(fake_claims(sub="123456789012345678901", name="Foo"))
    assert error_message(sign_in(api, {
        "idToken": user["idToken"], "postBody": google_post_body(fake_id_token), "requestUri": "http://localhost",
        "returnIdpCredential": True})) == "USER_DISABLED"


def test_should_add_idp_as_a_sign_in_method_for_email_if_available(api):
    email = "foo@example.com"
    sub = "123456789012345678901"
    sign_in_with_fake_claims(api, "google.com", {"sub": sub, "email": email})
    assert get_signin_methods(api, email) == ["google.com"]

    new_email = "bar@example.com"
    id_token = sign_in_with_fake_claims(api, "google.com", {"sub": sub, "email": new_email})["idToken"]

    assert get_signin_methods(api, new_email) == ["google.com"]

    # The account's own email is still the old one.
    info = get_account_info_by_id_token(api, id_token)
    assert info["email"] == email


def test_should_unlink_password_and_overwite_profile_attributes_if_user_had_unverified_email(api):
    # Given a user with an unverified email and a password:
    registered = register_user(api, "foo@example.com", "notasecret", display_name="Foo")
    email = registered["email"]

    # When signing in with an IdP that verifies the email:
    provider_id = "google.com"
    photo_url = "http://localhost/photo-from-idp.png"
    idp_sign_in = sign_in_with_fake_claims(api, provider_id, {
        "sub": "123456789012345678901", "email": email, "email_verified": True, "picture": photo_url})

    # It signs in to the same account, and the password is unlinked.
    assert idp_sign_in["localId"] == registered["localId"]
    sign_in_methods = get_signin_methods(api, email)
    assert sign_in_methods == [provider_id]
    assert PROVIDER_PASSWORD not in sign_in_methods

    info = get_account_info_by_id_token(api, idp_sign_in["idToken"])
    assert info["emailVerified"] is True  # by the IdP

    # Profile attributes are overwritten (when the IdP gives them) or cleared.
    assert info["photoUrl"] == photo_url
    assert "displayName" not in info  # not given by the IdP


def test_should_not_unlink_password_if_email_was_already_verified(api):
    # Given a user with a verified email and a password:
    registered = register_user(api, "foo@example.com", "notasecret", display_name="Foo")
    email = registered["email"]
    sign_in_with_email_link(api, email)  # verifies the email

    # When signing in with an IdP that verifies the email:
    provider_id = "google.com"
    photo_url = "http://localhost/photo-from-idp.png"
    idp_sign_in = sign_in_with_fake_claims(api, provider_id, {
        "sub": "123456789012345678901", "email": email, "email_verified": True, "picture": photo_url})

    assert idp_sign_in["localId"] == registered["localId"]
    # Deliberate difference (DESIGN §2.2): upstream keeps the password that the email link sign-in
    # above found unverified, so its methods are [google.com, password, emailLink]; we removed that
    # password at the email link sign-in (the Firebase guide's rule), so it is gone here. The
    # verified account keeps everything it had: the IdP adds itself beside emailLink.
    assert sorted(get_signin_methods(api, email)) == sorted([provider_id, SIGNIN_METHOD_EMAIL_LINK])

    info = get_account_info_by_id_token(api, idp_sign_in["idToken"])
    assert info["emailVerified"] is True  # by the IdP

    # Profile attributes are overwritten (when the IdP gives them) or cleared.
    assert info["photoUrl"] == photo_url
    assert "displayName" not in info  # not given by the IdP


def test_should_return_need_confirmation_if_both_account_and_idp_has_unverified_email(api):
    # Given a user with an unverified email:
    email = "bar@example.com"
    provider_id1 = "facebook.com"
    original_display_name = "Bar"
    first = sign_in_with_fake_claims(api, provider_id1, {
        "sub": "123456789012345678901", "email": email, "email_verified": False, "name": original_display_name})

    # When signing in with an IdP that does not verify the email:
    provider_id2 = "google.com"
    fake_id_token = json.dumps(fake_claims(
        sub="123456789012345678901", email=email, email_verified=False, name="Foo",
        picture="http://localhost/photo-from-idp.png"))
    body = expect_status(200, sign_in(api, {
        "requestUri": f"http://localhost?providerId={provider_id2}&id_token={encode(fake_id_token)}",
        "returnIdpCredential": True}))
    # The sign-in stops at needConfirmation.
    assert body["needConfirmation"] is True
    assert body["localId"] == first["localId"]
    assert "idToken" not in body
    assert body["verifiedProvider"] == [provider_id1]

    sign_in_methods = get_signin_methods(api, email)
    assert sorted(sign_in_methods) == [provider_id1]
    assert provider_id2 not in sign_in_methods

    # The account is unchanged.
    info = get_account_info_by_id_token(api, first["idToken"])
    assert info["emailVerified"] is False
    assert info["displayName"] == original_display_name
    assert "photoUrl" not in info


def test_should_error_when_request_uri_is_missing_or_invalid(api):
    assert error_message(sign_in(api, {"postBody": f"id_token={FAKE_GOOGLE_ACCOUNT['idToken']}"})) \
        == "MISSING_REQUEST_URI"
    assert error_message(sign_in(api, {
        "postBody": f"id_token={FAKE_GOOGLE_ACCOUNT['idToken']}", "requestUri": "notAnAbsoluteUriAndThusInvalid"})) \
        == "INVALID_REQUEST_URI"


def test_should_error_when_missing_provider_id_is_missing(api):
    assert "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential:" in error_message(sign_in(api, {
        "postBody": f"id_token={FAKE_GOOGLE_ACCOUNT['idToken']}", "requestUri": "http://localhost"}))


def test_should_error_when_sub_is_missing_or_not_a_string(api):
    # No sub in the token (the JSON goes into postBody unencoded, as upstream writes it).
    assert "INVALID_IDP_RESPONSE" in error_message(sign_in(api, {
        "postBody": f"providerId=google.com&id_token={json.dumps({})}", "requestUri": "http://localhost"}))
    # sub is not a string.
    assert "INVALID_IDP_RESPONSE" in error_message(sign_in(api, {
        "postBody": f"providerId=google.com&id_token={json.dumps({'sub': 12345}, separators=(',', ':'))}",
        "requestUri": "http://localhost"}))


def test_should_link_idp_to_existing_account_by_id_token(api):
    user = register_user(api, "foo@example.com", "notasecret")
    claims = fake_claims(sub="123456789012345678901", name="Foo")
    body = expect_status(200, sign_in(api, {
        "idToken": user["idToken"], "postBody": google_post_body(json.dumps(claims)), "requestUri": "http://localhost",
        "returnIdpCredential": True}))
    assert not body.get("isNewUser")
    assert body["localId"] == user["localId"]
    assert isinstance(body["refreshToken"], str)
    expect_token(body, {"google.com": [claims["sub"]], "email": [user["email"]]}, "google.com")

    assert sorted(get_signin_methods(api, user["email"])) == sorted(["google.com", PROVIDER_PASSWORD])


def test_should_copy_idp_email_to_user_level_email_if_not_present(api):
    user = sign_in_with_phone_number(api, TEST_PHONE_NUMBER)
    claims = fake_claims(sub="123456789012345678901", name="Foo", email="example@google.com")
    body = expect_status(200, sign_in(api, {
        "idToken": user["idToken"], "postBody": google_post_body(json.dumps(claims)), "requestUri": "http://localhost",
        "returnIdpCredential": True}))
    assert not body.get("isNewUser")
    assert body["localId"] == user["localId"]
    assert isinstance(body["refreshToken"], str)
    expect_token(body, {"google.com": [claims["sub"]], "email": [claims["email"]], "phone": [TEST_PHONE_NUMBER]},
                 "google.com")

    info = get_account_info_by_id_token(api, body["idToken"])
    assert info["email"] == claims["email"]
    assert bool(info.get("emailVerified")) == bool(claims.get("email_verified"))


def test_should_error_if_user_to_be_linked_is_disabled(api):
    user = register_user(api, "foo@example.com", "notasecret")
    update_account_by_local_id(api, user["localId"], {"disableUser": True})

    fake_id_token = json.dumps(fake_claims(sub="123456789012345678901", name="Foo"))
    assert error_message(sign_in(api, {
        "idToken": user["idToken"], "postBody": google_post_body(fake_id_token), "requestUri": "http://localhost",
        "returnIdpCredential": True})) == "USER_DISABLED"


def test_should_return_pending_credential_for_mfa_enabled_user(api):
    claims = fake_claims(sub="123456789012345678901", name="Foo", email="foo@example.com", email_verified=True)
    signed_in = sign_in_with_fake_claims(api, "google.com", claims)
    enroll_phone_mfa(api, signed_in["idToken"], TEST_PHONE_NUMBER)
    before_sign_in = get_account_info_by_local_id(api, signed_in["localId"])

    api.tick(3333)

    expect_mfa_pending(sign_in(api, {
        "postBody": google_post_body(json.dumps(claims)), "requestUri": "http://localhost",
        "returnIdpCredential": True}))

    # Login and refresh times stay until the second factor succeeds.
    after_first_factor = get_account_info_by_local_id(api, signed_in["localId"])
    assert after_first_factor["lastLoginAt"] == before_sign_in["lastLoginAt"]
    assert after_first_factor.get("lastRefreshAt") == before_sign_in.get("lastRefreshAt")


def test_should_link_idp_for_existing_mfa_enabled_user(api):
    email = "alice@example.com"
    signed_in = sign_in_with_email_link(api, email)
    enroll_phone_mfa(api, signed_in["idToken"], TEST_PHONE_NUMBER)

    claims = fake_claims(sub="123456789012345678901", name="Foo", email=email, email_verified=True)
    expect_mfa_pending(sign_in(api, {
        "postBody": google_post_body(json.dumps(claims)), "requestUri": "http://localhost",
        "returnIdpCredential": True}))

    # The IdP is linked even before the second factor is verified.
    assert sorted(get_signin_methods(api, email)) == sorted(["google.com", "emailLink"])

    # So is the IdP's user information.
    info = get_account_info_by_local_id(api, signed_in["localId"])
    assert info["displayName"] == claims["name"]


def test_should_ask_for_the_second_factor_when_linking_idp_by_id_token_to_an_mfa_enabled_user(api):
    """Not a case of the spec's own: "should link IDP to existing account by idToken" for the user of
    "should link IDP for existing MFA-enabled user". Upstream's signInWithIdp asks for the second
    factor (`isMfaEnabled` → `mfaPending`) after `handleLinkIdp` as after any sign-in, and production
    does too; the link is kept."""
    email = "alice@example.com"
    signed_in = sign_in_with_email_link(api, email)
    enroll_phone_mfa(api, signed_in["idToken"], TEST_PHONE_NUMBER)
    before = get_account_info_by_local_id(api, signed_in["localId"])

    claims = fake_claims(sub="123456789012345678901", name="Foo")
    expect_mfa_pending(sign_in(api, {
        "idToken": signed_in["idToken"], "postBody": google_post_body(json.dumps(claims)),
        "requestUri": "http://localhost", "returnIdpCredential": True}))

    assert sorted(get_signin_methods(api, email)) == sorted(["google.com", SIGNIN_METHOD_EMAIL_LINK])
    after = get_account_info_by_local_id(api, signed_in["localId"])
    assert after["lastLoginAt"] == before["lastLoginAt"]


def test_should_return_error_if_idp_account_is_already_linked_to_the_same_user(api):
    # Given a user already linked with an IdP account:
    provider_id = "google.com"
    claims = {"sub": "123456789012345678901", "email": "alice@example.com", "email_verified": False}
    id_token = sign_in_with_fake_claims(api, provider_id, claims)["idToken"]

    # When linking the same IdP account to the same user:
    fake_id_token = json.dumps(claims)
    body = expect_status(200, sign_in(api, {
        "idToken": id_token, "postBody": google_post_body(fake_id_token), "requestUri": "http://localhost",
        "returnIdpCredential": True}))
    assert "localId" not in body
    assert "refreshToken" not in body
    assert body["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED"
    assert body["oauthIdToken"] == fake_id_token


def test_should_return_error_if_idp_account_is_already_linked_to_another_user(api):
    # Given a user already linked with an IdP account:
    provider_id = "google.com"
    claims = {"sub": "123456789012345678901", "email": "alice@example.com", "email_verified": False}
    sign_in_with_fake_claims(api, provider_id, claims)

    user = register_user(api, "foo@example.com", "notasecret")
    # When linking the same IdP account to another user:
    assert error_message(sign_in(api, {
        "idToken": user["idToken"], "postBody": google_post_body(json.dumps(claims)),
        "requestUri": "http://localhost"})) == "FEDERATED_USER_ID_ALREADY_LINKED"

    # Neither user's sign-in methods changed, since linking failed.
    assert sorted(get_signin_methods(api, user["email"])) == [PROVIDER_PASSWORD]
    assert sorted(get_signin_methods(api, claims["email"])) == [provider_id]


def test_should_return_error_if_idp_account_email_already_exists_if_not_allow_duplicate_email(api):
    # Given an account with the email:
    email = "alice@example.com"
    register_user(api, email, "notasecret")

    # When linking an IdP account with the same email to another user:
    id_token = register_anon_user(api)["idToken"]
    fake_id_token = json.dumps(fake_claims(sub="12345", email=email))
    assert error_message(sign_in(api, {
        "idToken": id_token, "postBody": google_post_body(fake_id_token), "requestUri": "http://localhost"})) \
        == "EMAIL_EXISTS"


def test_should_allow_linking_idp_account_with_same_email_to_same_user(api):
    # Given an account with the email:
    email = "alice@example.com"
    registered = register_user(api, email, "notasecret")

    # When linking an IdP account with the same email to that user:
    fake_id_token = json.dumps(fake_claims(sub="12345", email=email, email_verified=True))
    body = expect_status(200, sign_in(api, {
        "idToken": registered["idToken"], "postBody": google_post_body(fake_id_token),
        "requestUri": "http://localhost"}))
    assert body["localId"] == registered["localId"]

    # The account's email is now verified.
    info = get_account_info_by_id_token(api, body["idToken"])
    assert info["emailVerified"] is True


def test_should_allow_linking_idp_account_with_same_email_if_allow_duplicate_email(api):
    # Given an account with the email:
    email = "alice@example.com"
    register_user(api, email, "notasecret")

    update_project_config(api, {"signIn": {"allowDuplicateEmails": True}})

    # When linking an IdP account with the same email to another user:
    anonymous = register_anon_user(api)
    fake_id_token = json.dumps(fake_claims(sub="12345", email=email))
    body = expect_status(200, sign_in(api, {
        "idToken": anonymous["idToken"], "postBody": google_post_body(fake_id_token),
        "requestUri": "http://localhost"}))
    assert body["localId"] == anonymous["localId"]


def test_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})

    assert "PROJECT_DISABLED" in error_message(sign_in(api, {"tenantId": tenant["tenantId"]}))


def test_should_create_a_new_account_with_tenant_id(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False})

    body = expect_status(200, sign_in(api, {
        "postBody": f"providerId=google.com&id_token={FAKE_GOOGLE_ACCOUNT['idToken']}",
        "requestUri": "http://localhost", "returnIdpCredential": True, "returnSecureToken": True,
        "tenantId": tenant["tenantId"]}))
    assert body["tenantId"] == tenant["tenantId"]

    user = get_account_info_by_local_id(api, body["localId"], tenant["tenantId"])
    assert user["tenantId"] == tenant["tenantId"]


def test_should_return_pending_credential_for_mfa_enabled_user_and_enabled_on_tenant_project(api):
    tenant = register_tenant(api, PROJECT_ID, {
        "disableAuth": False, "mfaConfig": {"state": "ENABLED", "enabledProviders": ["PHONE_SMS"]}})
    claims = fake_claims(sub="123456789012345678901", name="Foo", email="foo@example.com", email_verified=True)
    signed_in = sign_in_with_fake_claims(api, "google.com", claims, tenant["tenantId"])
    enroll_phone_mfa(api, signed_in["idToken"], TEST_PHONE_NUMBER, tenant["tenantId"])
    before_sign_in = get_account_info_by_local_id(api, signed_in["localId"], tenant["tenantId"])

    api.tick(3333)

    expect_mfa_pending(sign_in(api, {
        "postBody": google_post_body(json.dumps(claims)), "requestUri": "http://localhost",
        "returnIdpCredential": True, "tenantId": tenant["tenantId"]}))

    # Login and refresh times stay until the second factor succeeds.
    after_first_factor = get_account_info_by_local_id(api, signed_in["localId"], tenant["tenantId"])
    assert after_first_factor["lastLoginAt"] == before_sign_in["lastLoginAt"]
    assert after_first_factor.get("lastRefreshAt") == before_sign_in.get("lastRefreshAt")


def saml_post_body(saml_response):
    # Upstream puts the JSON into postBody as is, unencoded.
    return f"providerId=saml.saml&id_token={FAKE_GOOGLE_ACCOUNT['idToken']}&SAMLResponse={json.dumps(saml_response, separators=(',', ':'))}"


def test_should_error_if_saml_response_is_missing_assertion(api):
    assert "INVALID_IDP_RESPONSE" in error_message(sign_in(api, {
        "postBody": saml_post_body({}), "requestUri": "http://localhost", "returnIdpCredential": True,
        "returnSecureToken": True}))


def test_should_error_if_saml_response_is_missing_assertion_subject(api):
    assert "INVALID_IDP_RESPONSE" in error_message(sign_in(api, {
        "postBody": saml_post_body({"assertion": {}}), "requestUri": "http://localhost", "returnIdpCredential": True,
        "returnSecureToken": True}))


def test_should_error_if_saml_response_is_missing_assertion_subject_name_id(api):
    assert "INVALID_IDP_RESPONSE" in error_message(sign_in(api, {
        "postBody": saml_post_body({"assertion": {"subject": {}}}), "requestUri": "http://localhost",
        "returnIdpCredential": True, "returnSecureToken": True}))


def test_should_create_an_account_for_generic_saml_providers(api):
    body = expect_status(200, sign_in(api, {
        "postBody": f"providerId=saml.saml&id_token={FAKE_GOOGLE_ACCOUNT['idToken']}",
        "requestUri": "http://localhost", "returnIdpCredential": True, "returnSecureToken": True}))
    assert body["isNewUser"] is True
    assert body["email"] == FAKE_GOOGLE_ACCOUNT["email"]
    assert body["emailVerified"] is True
    assert body["federatedId"] == FAKE_GOOGLE_ACCOUNT["rawId"]
    assert body["oauthIdToken"] == FAKE_GOOGLE_ACCOUNT["idToken"]
    assert body["providerId"] == "saml.saml"
    assert isinstance(body["refreshToken"], str)

    # The ID token holds no name or photo, so neither has the account.
    assert "displayName" not in body
    assert "photoUrl" not in body

    expect_token(body, {"saml.saml": [FAKE_GOOGLE_ACCOUNT["rawId"]], "email": [FAKE_GOOGLE_ACCOUNT["email"]]},
                 "saml.saml")


def test_should_include_fields_in_saml_response_for_saml_providers(api):
    other_email = "otherEmail@gmail.com"
    attribute_statements = {"name": "Jane Doe", "mail": "otherOtherEmail@gmail.com"}
    saml_response = {"assertion": {"subject": {"nameId": other_email}, "attributeStatements": attribute_statements}}

    body = expect_status(200, sign_in(api, {
        "postBody": saml_post_body(saml_response), "requestUri": "http://localhost", "returnIdpCredential": True,
        "returnSecureToken": True}))
    assert body["email"] == other_email

    assert json.loads(body["rawUserInfo"]) == attribute_statements

    _, payload, _ = decode_jwt(body["idToken"])
    assert payload["firebase"]["sign_in_attributes"] == attribute_statements


FAKE_GOOGLE_SIGN_UP = {
    "postBody": f"providerId=google.com&id_token={FAKE_GOOGLE_ACCOUNT['idToken']}",
    "requestUri": "http://localhost", "returnIdpCredential": True, "returnSecureToken": True}
FAKE_GOOGLE_IDENTITIES = {"google.com": [FAKE_GOOGLE_ACCOUNT["rawId"]], "email": [FAKE_GOOGLE_ACCOUNT["email"]]}
SIGN_IN_UPDATE = {"userRecord": {
    "updateMask": "displayName,photoUrl,emailVerified,customClaims,sessionClaims",
    "displayName": DISPLAY_NAME, "photoUrl": PHOTO_URL, "emailVerified": True,
    "customClaims": {"customAttribute": "custom"}, "sessionClaims": {"sessionAttribute": "session"}}}


def expect_modified(payload, *, session=True):
    assert payload["name"] == DISPLAY_NAME
    assert payload["picture"] == PHOTO_URL
    assert payload["email_verified"] is True
    assert payload["customAttribute"] == "custom"
    if session:
        assert payload["sessionAttribute"] == "session"


def expect_google_token(body, identities):
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert payload["firebase"]["identities"] == identities
    return payload


class TestWhenBlockingFunctionsArePresent:
    def test_should_update_modifiable_fields_for_new_users_for_before_create(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_CREATE_PATH)
        blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {
            "updateMask": "displayName,photoUrl,emailVerified,customClaims", "displayName": DISPLAY_NAME,
            "photoUrl": PHOTO_URL, "emailVerified": True, "customClaims": {"customAttribute": "custom"}}})

        body = expect_status(200, sign_in(api, FAKE_GOOGLE_SIGN_UP))
        assert body["isNewUser"] is True
        expect_modified(expect_google_token(body, FAKE_GOOGLE_IDENTITIES), session=False)
        expect_blocking_calls_done(blocking_functions)

    def test_should_update_modifiable_fields_for_new_users_for_before_sign_in(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, SIGN_IN_UPDATE)

        body = expect_status(200, sign_in(api, FAKE_GOOGLE_SIGN_UP))
        assert body["isNewUser"] is True
        expect_modified(expect_google_token(body, FAKE_GOOGLE_IDENTITIES))
        expect_blocking_calls_done(blocking_functions)

    def test_before_sign_in_fields_should_overwrite_before_create_fields_for_new_users(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_CREATE_PATH, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {
            "updateMask": "displayName,photoUrl,emailVerified,customClaims", "displayName": "oldDisplayName",
            "photoUrl": "oldPhotoUrl", "emailVerified": False, "customClaims": {"customAttribute": "oldCustom"}}})
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, SIGN_IN_UPDATE)

        body = expect_status(200, sign_in(api, FAKE_GOOGLE_SIGN_UP))
        assert body["isNewUser"] is True
        expect_modified(expect_google_token(body, FAKE_GOOGLE_IDENTITIES))
        expect_blocking_calls_done(blocking_functions)

    def test_should_update_modifiable_fields_for_existing_users(self, api, blocking_functions):
        user = register_user(api, "foo@example.com", "notasecret")
        claims = fake_claims(sub="123456789012345678901", name="Foo")
        use_blocking_functions(api, blocking_functions, BEFORE_SIGN_IN_PATH)
        blocking_functions.respond(BEFORE_SIGN_IN_PATH, SIGN_IN_UPDATE)

        body = expect_status(200, sign_in(api, {
            "idToken": user["idToken"], "postBody": google_post_body(json.dumps(claims)),
            "requestUri": "http://localhost", "returnIdpCredential": True}))
        assert not body.get("isNewUser")
        expect_modified(expect_google_token(body, {"google.com": [claims["sub"]], "email": [user["email"]]}))
        expect_blocking_calls_done(blocking_functions)

    def test_should_disable_user_if_set(self, api, blocking_functions):
        use_blocking_functions(api, blocking_functions, BEFORE_CREATE_PATH)
        blocking_functions.respond(BEFORE_CREATE_PATH, {"userRecord": {"updateMask": "disabled", "disabled": True}})

        assert error_message(sign_in(api, FAKE_GOOGLE_SIGN_UP)) == "USER_DISABLED"
        expect_blocking_calls_done(blocking_functions)
