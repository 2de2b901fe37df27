"""firebase-tools v15.28.1 `src/emulator/auth/deleteAccount.spec.ts`, ported (smoke of the harness
until the full port lands)."""

from upstream.upstream_support import V1, KEY, OWNER, delete_account, error_message, expect_user_not_exists_for_id_token, \
    register_user


def test_should_delete_the_user_of_the_id_token(api):
    user = register_user(api, "alice@example.com", "notasecret")
    assert delete_account(api, {"idToken": user["idToken"]}) == "identitytoolkit#DeleteAccountResponse"
    expect_user_not_exists_for_id_token(api, user["idToken"])


def test_should_error_when_trying_to_delete_by_local_id_without_authorization(api):
    user = register_user(api, "alice@example.com", "notasecret")
    assert error_message(api.post(f"{V1}/accounts:delete", {"localId": user["localId"]}, query=KEY)) \
        == "MISSING_ID_TOKEN"
    assert api.post(f"{V1}/accounts:delete", {"localId": user["localId"]}, headers=OWNER).status_code == 200
