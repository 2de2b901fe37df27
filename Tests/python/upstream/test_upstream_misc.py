"""firebase-tools v15.28.1 `src/emulator/auth/misc.spec.ts`, ported case by case: token refresh,
session cookies, accounts:lookup, accounts:query and the emulator's own utility routes.

Upstream's fake timers start at the epoch; where a case compares a timestamp with `new Date()`, the
port asserts it lies within the emulator clock readings taken around the call (`clock_now_ms`).

Single-project mode: upstream runs one case ("should throw an exception on project ID mismatch if
singleProjectMode is ERROR") on a server built with `SingleProjectMode.ERROR`. The firebase CLI
never starts the emulator that way: controller.ts picks `WARNING` (serve, and log "Multiple
projectIds are not recommended in single project mode…") or `NO_WARNING`; `ERROR` exists for that
test. auth-emulator behaves as `WARNING`, the CLI's default: another project id is served, with a
state of its own, and the same warning is logged. So that case is ported as a test of our
behaviour: the other project answers 200 and keeps its own config.
"""

import base64
import json

from upstream.upstream_support import (
    KEY, OWNER, PROJECT_ID, TEST_PHONE_NUMBER, V1, clock_now_ms, decode_jwt, delete_account, error_message,
    expect_status, expect_user_not_exists_for_id_token, get_account_info_by_id_token, register_anon_user,
    register_tenant, register_user, sign_in_with_phone_number, update_account_by_local_id)

TOKEN = "/securetoken.googleapis.com/v1/token"
SESSION_COOKIE_MAX_VALID_DURATION = 14 * 24 * 60 * 60


def encode_refresh_token(record):
    """upstream's `encodeRefreshToken`: standard base64 of the record's JSON."""
    return base64.b64encode(json.dumps(record).encode()).decode()


def decode_refresh_token(token):
    """upstream's `decodeRefreshToken`."""
    record = json.loads(base64.b64decode(token))
    assert record["_AuthEmulatorRefreshToken"], record
    return record


def refresh(api, form):
    # Upstream sends a form, with snake_case `refresh_token` (OAuth 2.0) beside camelCase `grantType`.
    return api.post(TOKEN, data=form, query=KEY)


def assert_refreshed(body, local_id):
    assert isinstance(body["id_token"], str)
    assert body["access_token"] == body["id_token"]
    assert isinstance(body["refresh_token"], str)
    assert isinstance(body["expires_in"], str) and body["expires_in"].isdigit()
    assert body["project_id"] == "12345"
    assert body["token_type"] == "Bearer"
    assert body["user_id"] == local_id


# --- token refresh ---

def test_should_exchange_refresh_token_for_new_tokens(api):
    user = register_anon_user(api)
    body = expect_status(200, refresh(api, {"refresh_token": user["refreshToken"], "grantType": "refresh_token"}))
    assert_refreshed(body, user["localId"])


def test_should_exchange_refresh_tokens_for_new_tokens_in_a_tenant_project(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False, "allowPasswordSignup": True})
    user = register_user(api, "alice@example.com", "notasecret", tenant_id=tenant["tenantId"])
    body = expect_status(200, refresh(api, {"refresh_token": user["refreshToken"], "grantType": "refresh_token"}))
    assert_refreshed(body, user["localId"])
    assert decode_refresh_token(body["refresh_token"])["tenantId"] == tenant["tenantId"]


def test_should_populate_auth_time_to_match_last_login_at_in_seconds_since_epoch(api):
    api.tick(444)
    user = register_user(api, "alice@example.com", "notasecret")
    api.tick(2000)
    body = expect_status(200, refresh(api, {"refresh_token": user["refreshToken"], "grantType": "refresh_token"}))

    id_token = body["id_token"]
    info = get_account_info_by_id_token(api, id_token)
    assert info.get("lastLoginAt") is not None
    last_login_at_seconds = int(info["lastLoginAt"]) // 1000
    header, payload, _ = decode_jwt(id_token)
    assert header["alg"] == "none"
    # The login time, not the refresh time.
    assert payload["auth_time"] == last_login_at_seconds


def test_should_error_if_grant_type_is_missing(api):
    user = register_anon_user(api)
    assert "MISSING_GRANT_TYPE" in error_message(refresh(api, {"refresh_token": user["refreshToken"]}))


def test_should_error_if_grant_type_is_not_refresh_token(api):
    user = register_anon_user(api)
    response = refresh(api, {"refresh_token": user["refreshToken"], "grantType": "other_grant_type"})
    assert "INVALID_GRANT_TYPE" in error_message(response)


def test_should_error_if_refresh_token_is_missing(api):
    assert "MISSING_REFRESH_TOKEN" in error_message(refresh(api, {"grantType": "refresh_token"}))


def test_should_error_on_malformed_refresh_tokens(api):
    response = refresh(api, {"refresh_token": "malformedToken", "grantType": "refresh_token"})
    assert "INVALID_REFRESH_TOKEN" in error_message(response)


def test_should_error_if_user_is_disabled(api):
    user = register_anon_user(api)
    update_account_by_local_id(api, user["localId"], {"disableUser": True})
    response = refresh(api, {"refreshToken": user["refreshToken"], "grantType": "refresh_token"})
    assert error_message(response) == "USER_DISABLED"


def test_should_error_when_refresh_tokens_are_from_a_different_project(api):
    token = encode_refresh_token({"_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": "localId",
                                  "provider": "provider", "extraClaims": {}, "projectId": "notMatchingProjectId"})
    assert error_message(refresh(api, {"refresh_token": token, "grantType": "refresh_token"})) == "INVALID_REFRESH_TOKEN"


def test_should_error_on_refresh_tokens_without_required_fields(api):
    token = encode_refresh_token({"localId": "localId", "provider": "provider", "extraClaims": {},
                                  "projectId": "notMatchingProjectId"})
    assert error_message(refresh(api, {"refresh_token": token, "grantType": "refresh_token"})) == "INVALID_REFRESH_TOKEN"


def test_should_error_if_the_refresh_token_is_for_a_user_that_does_not_exist(api):
    user = register_anon_user(api)
    delete_account(api, {"idToken": user["idToken"]})
    response = refresh(api, {"refresh_token": user["refreshToken"], "grantType": "refresh_token"})
    # Deliberate difference (DESIGN §2.2, refresh tokens stop working once the user is deleted):
    # upstream answers INVALID_REFRESH_TOKEN; we answer production's USER_NOT_FOUND, on which the
    # Apple SDK signs the user out. Both refuse the token.
    assert error_message(response) == "USER_NOT_FOUND"


# --- createSessionCookie ---

CREATE_SESSION_COOKIE = f"{V1}/projects/{PROJECT_ID}:createSessionCookie"


def test_should_return_a_valid_session_cookie(api):
    id_token = register_anon_user(api)["idToken"]
    valid_duration = 7777
    before = clock_now_ms(api) // 1000
    body = expect_status(200, api.post(CREATE_SESSION_COOKIE, {"idToken": id_token, "validDuration": str(valid_duration)},
                                       headers=OWNER))
    after = clock_now_ms(api) // 1000
    session_cookie = body["sessionCookie"]
    assert isinstance(session_cookie, str)

    header, payload, _ = decode_jwt(session_cookie)
    assert header["alg"] == "none"
    assert before <= payload["iat"] <= after
    assert payload["exp"] == payload["iat"] + valid_duration
    assert payload["iss"] == f"https://session.firebase.google.com/{PROJECT_ID}"

    id_token_props = decode_jwt(id_token)[1]
    for claim in ("iss", "iat", "exp"):
        del id_token_props[claim]
    assert {key: payload.get(key) for key in id_token_props} == id_token_props


def test_should_throw_if_id_token_is_missing(api):
    response = api.post(CREATE_SESSION_COOKIE, {"validDuration": "7777"}, headers=OWNER)
    assert error_message(response) == "MISSING_ID_TOKEN"


def test_should_throw_if_id_token_is_invalid(api):
    response = api.post(CREATE_SESSION_COOKIE, {"idToken": "invalid", "validDuration": "7777"}, headers=OWNER)
    assert error_message(response) == "INVALID_ID_TOKEN"


def test_should_use_default_session_cookie_valid_duration_if_not_specified(api):
    id_token = register_anon_user(api)["idToken"]
    before = clock_now_ms(api) // 1000
    body = expect_status(200, api.post(CREATE_SESSION_COOKIE, {"idToken": id_token}, headers=OWNER))
    after = clock_now_ms(api) // 1000
    header, payload, _ = decode_jwt(body["sessionCookie"])
    assert header["alg"] == "none"
    assert before + SESSION_COOKIE_MAX_VALID_DURATION <= payload["exp"] <= after + SESSION_COOKIE_MAX_VALID_DURATION


def test_should_throw_if_valid_duration_is_too_short_or_too_long(api):
    id_token = register_anon_user(api)["idToken"]
    for duration in ("1", "999999999999"):
        response = api.post(CREATE_SESSION_COOKIE, {"idToken": id_token, "validDuration": duration}, headers=OWNER)
        assert error_message(response) == "INVALID_DURATION"


# --- accounts:lookup ---

PROJECT_LOOKUP = f"{V1}/projects/{PROJECT_ID}/accounts:lookup"


def test_should_return_user_by_email_when_privileged(api):
    email = register_user(api, "bob@example.com", "password")["email"]
    body = expect_status(200, api.post(PROJECT_LOOKUP, {"email": [email]}, headers=OWNER))
    assert [user["email"] for user in body["users"]] == [email]


def test_should_return_user_by_email_even_when_uppercased(api):
    email = register_user(api, "foo@example.com", "password")["email"]
    body = expect_status(200, api.post(PROJECT_LOOKUP, {"email": [email.upper()]}, headers=OWNER))
    assert [user["email"] for user in body["users"]] == [email]


def test_should_return_empty_result_when_email_is_not_found(api):
    body = expect_status(200, api.post(PROJECT_LOOKUP, {"email": ["non-existent-email@example.com"]}, headers=OWNER))
    assert "users" not in body


def test_should_return_user_by_local_id_when_privileged(api):
    local_id = register_anon_user(api)["localId"]
    body = expect_status(200, api.post(PROJECT_LOOKUP, {"localId": [local_id]}, headers=OWNER))
    assert [user["localId"] for user in body["users"]] == [local_id]


def test_should_deduplicate_users(api):
    local_id = register_anon_user(api)["localId"]
    body = expect_status(200, api.post(PROJECT_LOOKUP, {"localId": [local_id, local_id]}, headers=OWNER))
    assert [user["localId"] for user in body["users"]] == [local_id]


def test_should_return_provider_user_info_for_phone_auth_users(api):
    local_id = sign_in_with_phone_number(api, TEST_PHONE_NUMBER)["localId"]
    body = expect_status(200, api.post(PROJECT_LOOKUP, {"localId": [local_id]}, headers=OWNER))
    assert len(body["users"]) == 1
    assert body["users"][0]["providerUserInfo"] == [
        {"phoneNumber": TEST_PHONE_NUMBER, "rawId": TEST_PHONE_NUMBER, "providerId": "phone"}]


def test_should_return_empty_result_when_local_id_is_not_found(api):
    body = expect_status(200, api.post(PROJECT_LOOKUP, {"localId": ["noSuchId"]}, headers=OWNER))
    assert "users" not in body


def test_should_return_user_by_tenant_id_in_id_token(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False, "allowPasswordSignup": True})
    user = register_user(api, "alice@example.com", "notasecret", tenant_id=tenant["tenantId"])
    body = expect_status(200, api.post(f"{V1}/accounts:lookup", {"idToken": user["idToken"]}, query=KEY))
    assert [found["localId"] for found in body["users"]] == [user["localId"]]


def test_lookup_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})
    response = api.post(f"{V1}/accounts:lookup", {"tenantId": tenant["tenantId"]}, headers=OWNER)
    assert "PROJECT_DISABLED" in error_message(response)


# --- accounts:query ---

QUERY = f"{V1}/projects/{PROJECT_ID}/accounts:query"


def test_should_return_count_of_accounts_when_return_user_info_is_false(api):
    register_anon_user(api)
    register_anon_user(api)
    body = expect_status(200, api.post(QUERY, {"returnUserInfo": False}, headers=OWNER))
    assert body["recordsCount"] == "2"  # int64 as a string
    assert "userInfo" not in body


def test_should_return_accounts_when_return_user_info_is_true(api):
    local_id = register_anon_user(api)["localId"]
    local_id2 = register_user(api, "alice@example.com", "notasecret")["localId"]
    body = expect_status(200, api.post(QUERY, {}, headers=OWNER))  # returnUserInfo defaults to true
    assert body["recordsCount"] == "2"
    users = body["userInfo"]
    assert len(users) == 2
    assert users[0]["localId"] < users[1]["localId"], "users are not sorted by ID ASC"
    assert any(user["localId"] == local_id for user in users), "cannot find first registered user"
    email_user = next(user for user in users if user["localId"] == local_id2)
    assert email_user["email"] == "alice@example.com"


def test_query_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})
    assert error_message(api.post(QUERY, {"tenantId": tenant["tenantId"]}, headers=OWNER)) == "PROJECT_DISABLED"


# --- emulator utility APIs ---

EMULATOR_CONFIG = f"/emulator/v1/projects/{PROJECT_ID}/config"


def test_should_drop_all_accounts_on_delete_emulator_v1_projects_project_id_accounts(api):
    user1 = register_user(api, "alice@example.com", "notasecret")
    user2 = register_user(api, "bob@example.com", "notasecret2")
    expect_status(200, api.delete(f"/emulator/v1/projects/{PROJECT_ID}/accounts"))
    expect_user_not_exists_for_id_token(api, user1["idToken"])
    expect_user_not_exists_for_id_token(api, user2["idToken"])


def test_should_drop_all_accounts_on_delete_emulator_v1_projects_project_id_tenants_tenant_id_accounts(api):
    tenant_id = register_tenant(api, PROJECT_ID, {"disableAuth": False, "allowPasswordSignup": True})["tenantId"]
    user1 = register_user(api, "alice@example.com", "notasecret", tenant_id=tenant_id)
    user2 = register_user(api, "bob@example.com", "notasecret2", tenant_id=tenant_id)
    expect_status(200, api.delete(f"/emulator/v1/projects/{PROJECT_ID}/tenants/{tenant_id}/accounts"))
    expect_user_not_exists_for_id_token(api, user1["idToken"], tenant_id)
    expect_user_not_exists_for_id_token(api, user2["idToken"], tenant_id)


def test_should_return_config_on_get_emulator_v1_projects_project_id_config(api):
    body = expect_status(200, api.get(EMULATOR_CONFIG))
    assert body["signIn"] == {"allowDuplicateEmails": False}
    assert body["emailPrivacyConfig"] == {"enableImprovedEmailPrivacy": False}


def test_should_not_throw_an_exception_on_project_id_mismatch_if_single_project_mode_is_no_warning(api):
    expect_status(200, api.get("/emulator/v1/projects/someproject/config"))


def assert_emulator_config(body, allow_duplicate_emails, improved_email_privacy):
    assert body["signIn"] == {"allowDuplicateEmails": allow_duplicate_emails}
    assert body["emailPrivacyConfig"] == {"enableImprovedEmailPrivacy": improved_email_privacy}


def test_should_only_update_allow_duplicate_emails_on_patch_emulator_v1_projects_project_id_config(api):
    body = expect_status(200, api.patch(EMULATOR_CONFIG, {"signIn": {"allowDuplicateEmails": True}}))
    assert_emulator_config(body, True, False)
    body = expect_status(200, api.patch(EMULATOR_CONFIG, {"signIn": {"allowDuplicateEmails": False}}))
    assert_emulator_config(body, False, False)


def test_should_only_update_enable_improved_email_privacy_on_patch_emulator_v1_projects_project_id_config(api):
    body = expect_status(200, api.patch(EMULATOR_CONFIG, {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}))
    assert_emulator_config(body, False, True)
    body = expect_status(200, api.patch(EMULATOR_CONFIG, {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}))
    assert_emulator_config(body, False, False)


def test_should_update_both_allow_duplicate_emails_and_enable_improved_email_privacy_on_patch_emulator_v1_projects_project_id_config(api):  # noqa: E501
    body = expect_status(200, api.patch(EMULATOR_CONFIG, {"signIn": {"allowDuplicateEmails": True},
                                                          "emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}))
    assert_emulator_config(body, True, True)
    body = expect_status(200, api.patch(EMULATOR_CONFIG, {"signIn": {"allowDuplicateEmails": False},
                                                          "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}))
    assert_emulator_config(body, False, False)


# --- emulator utility API; singleProjectMode=ERROR ---

def test_should_throw_an_exception_on_project_id_mismatch_if_single_project_mode_is_error(api):
    # auth-emulator has no single-project mode (see the module docstring): another project id is
    # served with a state of its own, as in upstream's default NO_WARNING mode.
    expect_status(200, api.patch("/emulator/v1/projects/someproject/config", {"signIn": {"allowDuplicateEmails": True}}))
    assert expect_status(200, api.get("/emulator/v1/projects/someproject/config"))["signIn"] == \
        {"allowDuplicateEmails": True}
    assert expect_status(200, api.get(EMULATOR_CONFIG))["signIn"] == {"allowDuplicateEmails": False}
