"""firebase-tools v15.28.1 `src/emulator/auth/customToken.spec.ts` ("sign-in with custom token"), ported."""

import json

from upstream.signin_support import (
    unsigned_jwt)
from upstream.upstream_support import (
    KEY, PROJECT_ID, V1, decode_jwt, error_message, expect_status, get_account_info_by_id_token, register_tenant,
    sign_in_with_email_link, update_account_by_local_id)

SIGN_IN = f"{V1}/accounts:signInWithCustomToken"
CUSTOM_TOKEN_AUDIENCE = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
PROVIDER_CUSTOM = "custom"
SERVICE_ACCOUNT = "fake-service-account@example.com"


def service_account_token(payload, audience=CUSTOM_TOKEN_AUDIENCE):
    return unsigned_jwt(payload, expires_in=3600, subject=SERVICE_ACCOUNT, issuer=SERVICE_ACCOUNT, audience=audience)


def sign_in(api, body):
    return api.post(SIGN_IN, body, query=KEY)


def test_should_create_new_account_from_custom_token_unsigned(api):
    uid = "someuid"
    claims = {"abc": "def", "ultimate": {"answer": 42}}
    token = service_account_token({"uid": uid, "claims": claims})

    body = expect_status(200, sign_in(api, {"token": token}))
    assert body["isNewUser"] is True
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert "provider_id" not in payload
    assert payload["firebase"]["sign_in_provider"] == PROVIDER_CUSTOM
    assert {key: payload.get(key) for key in claims} == claims

    info = get_account_info_by_id_token(api, body["idToken"])
    assert info["localId"] == uid


def test_should_sign_into_existing_account_and_merge_claims(api):
    # Given an email sign-in user with some custom claims:
    email = "alice@example.com"
    local_id = sign_in_with_email_link(api, email)["localId"]
    custom_claims = {"abc": "abc", "foo": "bar"}
    update_account_by_local_id(api, local_id, {"customAttributes": json.dumps(custom_claims)})

    claims = {"abc": "def", "ultimate": {"answer": 42}}
    token = json.dumps({"uid": local_id, "claims": claims})
    body = expect_status(200, sign_in(api, {"token": token}))
    assert body["isNewUser"] is False
    assert isinstance(body["refreshToken"], str)
    header, payload, _ = decode_jwt(body["idToken"])
    assert header["alg"] == "none"
    assert "provider_id" not in payload
    assert payload["firebase"]["sign_in_provider"] == PROVIDER_CUSTOM
    assert payload["firebase"]["identities"] == {"email": [email]}
    # Claim values in the custom token take precedence over the account's.
    merged = {**custom_claims, **claims}
    assert {key: payload.get(key) for key in merged} == merged

    # The claims also get attached to refreshed ID tokens.
    refreshed = expect_status(200, api.post(
        "/securetoken.googleapis.com/v1/token", query=KEY,
        data={"refreshToken": body["refreshToken"], "grantType": "refresh_token"}))
    assert isinstance(refreshed["id_token"], str)
    _, refreshed_payload, _ = decode_jwt(refreshed["id_token"])
    assert {key: refreshed_payload.get(key) for key in merged} == merged


def test_should_error_if_custom_token_is_missing(api):
    assert error_message(sign_in(api, {})) == "MISSING_CUSTOM_TOKEN"


def test_should_error_if_custom_token_is_invalid(api):
    assert "INVALID_CUSTOM_TOKEN" in error_message(sign_in(api, {"token": "{not+Json,That's=>For@Sure}"}))
    assert "INVALID_CUSTOM_TOKEN" in error_message(
        sign_in(api, {"token": "ThisMayLookLikeAJWT.ButItWontDecode.ToJsonObjects"}))


def test_should_error_if_custom_token_addresses_the_wrong_audience(api):
    token = service_account_token({"uid": "foo"}, audience="http://localhost/not-the-firebase-auth-audience")

    assert "INVALID_CUSTOM_TOKEN" in error_message(sign_in(api, {"token": token}))


def test_should_error_if_custom_token_contains_no_uid(api):
    token = service_account_token({})
    assert "MISSING_IDENTIFIER" in error_message(sign_in(api, {"token": token}))

    assert "MISSING_IDENTIFIER" in error_message(sign_in(api, {"token": '{"look": "I do not have uid"}'}))


def test_should_error_if_custom_token_contains_forbidden_claims(api):
    # Contains the forbidden claim "firebase".
    assert "FORBIDDEN_CLAIM : firebase" in error_message(
        sign_in(api, {"token": '{"uid": "wow", "claims": {"firebase": "awesome"}}'}))


def test_should_error_if_user_is_disabled(api):
    # Given an email sign-in user with some custom claims:
    email = "alice@example.com"
    local_id = sign_in_with_email_link(api, email)["localId"]
    update_account_by_local_id(api, local_id, {"disableUser": True})

    claims = {"abc": "def", "ultimate": {"answer": 42}}
    token = json.dumps({"uid": local_id, "claims": claims})
    assert error_message(sign_in(api, {"token": token})) == "USER_DISABLED"


def test_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})

    assert error_message(sign_in(api, {"tenantId": tenant["tenantId"]})) == "PROJECT_DISABLED"


def test_should_error_if_custom_token_tenant_id_does_not_match(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False})
    claims = {"abc": "def", "ultimate": {"answer": 42}}
    token = service_account_token({"uid": "someuid", "claims": claims, "tenant_id": "not-matching-tenant-id"})

    assert "TENANT_ID_MISMATCH" in error_message(sign_in(api, {"token": token, "tenantId": tenant["tenantId"]}))


def test_should_create_a_new_account_from_custom_token_with_tenant_id(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False})
    claims = {"abc": "def", "ultimate": {"answer": 42}}
    token = service_account_token({"uid": "someuid", "claims": claims, "tenant_id": tenant["tenantId"]})

    body = expect_status(200, sign_in(api, {"token": token, "tenantId": tenant["tenantId"]}))
    assert body["isNewUser"] is True
    assert isinstance(body["refreshToken"], str)

    info = get_account_info_by_id_token(api, body["idToken"], tenant["tenantId"])
    assert info["tenantId"] == tenant["tenantId"]
