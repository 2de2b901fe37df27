"""firebase-tools v15.28.1 `src/emulator/auth/deleteAccount.spec.ts`, ported case by case."""

from upstream.upstream_support import (
    KEY, OWNER, PROJECT_ID, V1, error_message, expect_status, expect_user_not_exists_for_id_token,
    get_signin_methods, register_tenant, register_user, sign_in_with_fake_claims)

DELETE = f"{V1}/accounts:delete"


def test_should_delete_the_user_of_the_id_token(api):
    id_token = register_user(api, "alice@example.com", "notasecret")["idToken"]
    body = expect_status(200, api.post(DELETE, {"idToken": id_token}, query=KEY))
    assert "error" not in body
    expect_user_not_exists_for_id_token(api, id_token)


def test_should_error_when_trying_to_delete_by_local_id_without_oauth(api):
    local_id = register_user(api, "alice@example.com", "notasecret")["localId"]
    assert error_message(api.post(DELETE, {"localId": local_id}, query=KEY)) == "MISSING_ID_TOKEN"


def test_should_remove_federated_accounts_for_user(api):
    email, provider_id, sub = "alice@example.com", "google.com", "12345"
    user = sign_in_with_fake_claims(api, provider_id, {"sub": sub, "email": email})
    body = expect_status(200, api.post(DELETE, {"idToken": user["idToken"]}, query=KEY))
    assert "error" not in body

    assert not get_signin_methods(api, email)
    sign_in_again = sign_in_with_fake_claims(api, provider_id, {"sub": sub, "email": email})
    assert sign_in_again["localId"] != user["localId"]


def test_should_delete_the_user_by_local_id_if_oauth_credentials_are_present(api):
    user = register_user(api, "alice@example.com", "notasecret")
    body = expect_status(200, api.post(DELETE, {"localId": user["localId"]}, headers=OWNER))
    assert "error" not in body
    expect_user_not_exists_for_id_token(api, user["idToken"])


def test_should_error_if_missing_local_id_when_oauth_credentials_are_present(api):
    id_token = register_user(api, "alice@example.com", "notasecret")["idToken"]
    assert error_message(api.post(DELETE, {"idToken": id_token}, headers=OWNER)) == "MISSING_LOCAL_ID"


def test_should_delete_the_user_of_the_id_token_2(api):
    """Upstream repeats the first case's title for this one, which tests a tenant with auth disabled."""
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})
    assert "PROJECT_DISABLED" in error_message(api.post(DELETE, {"tenantId": tenant["tenantId"]}, query=KEY))
