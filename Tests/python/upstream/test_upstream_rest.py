"""firebase-tools v15.28.1 `src/emulator/auth/rest.spec.ts`, ported case by case: status checks,
CORS, enum and number coercion, and how requests authenticate (API key, `Bearer owner`, tenants)."""

from upstream.upstream_support import (
    KEY, OWNER, PROJECT_ID, V1, error_message, expect_status, register_tenant, register_user)

SIGN_UP = f"{V1}/accounts:signUp"


# --- REST API mapping ---

def test_should_respond_to_status_checks(api):
    body = expect_status(200, api.get("/"))
    assert isinstance(body["authEmulator"], dict)


def test_should_allow_cross_origin_requests(api):
    response = api.request("OPTIONS", "/", headers={
        "Origin": "example.com",
        "Access-Control-Request-Headers": "Authorization,X-Client-Version,X-Whatever-Header",
        "Access-Control-Request-Private-Network": "true",
    })
    expect_status(204, response)
    # Origin and the requested headers are reflected: some clients refuse `*`.
    assert response.headers["access-control-allow-origin"] == "example.com"
    assert sorted(response.headers["access-control-allow-headers"].split(",")) == sorted(
        ["Authorization", "X-Client-Version", "X-Whatever-Header"])
    assert response.headers["access-control-allow-private-network"] == "true"


def test_should_handle_integer_values_for_enums(api):
    # 6 is the proto value of EMAIL_SIGNIN, as the Android SDK sends it.
    body = expect_status(200, api.post(f"{V1}/accounts:sendOobCode",
                                       {"email": "bob@example.com", "requestType": 6, "returnOobLink": True},
                                       headers=OWNER))
    assert "mode=signIn" in body["oobLink"]


def test_should_handle_integer_values_for_enums_legacy_api_path(api):
    body = expect_status(200, api.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/getOobConfirmationCode",
                                       {"email": "bob@example.com", "requestType": 6, "returnOobLink": True},
                                       headers=OWNER))
    assert "mode=signIn" in body["oobLink"]


def test_should_convert_numbers_to_strings_for_type_string_fields(api):
    # validSince is an int64 string; the Node Admin SDK sends a plain number. It must get past
    # validation into the handler, which finds no such user.
    response = api.post(f"{V1}/accounts:update", {"localId": "nosuch", "validSince": 1611780718}, headers=OWNER)
    assert error_message(response) == "USER_NOT_FOUND"


# --- authentication ---

def test_should_throw_403_if_api_key_is_not_provided(api):
    body = expect_status(403, api.post(SIGN_UP, {"returnSecureToken": True}))
    assert body["error"]["status"] == "PERMISSION_DENIED"


def test_should_accept_api_key_as_a_query_parameter(api):
    assert "error" not in expect_status(200, api.post(SIGN_UP, {}, query=KEY))


def test_should_accept_api_key_in_http_header_x_goog_api_key(api):
    assert "error" not in expect_status(200, api.post(SIGN_UP, {}, headers={"x-goog-api-key": "fake-api-key"}))


def test_should_ignore_non_bearer_authorization_headers(api):
    body = expect_status(403, api.post(SIGN_UP, {"returnSecureToken": True},
                                       headers={"Authorization": "Basic YWxhZGRpbjpvcGVuc2VzYW1l"}))
    assert body["error"]["status"] == "PERMISSION_DENIED"


def test_should_treat_bearer_owner_as_authenticated_to_project(api):
    assert "error" not in expect_status(200, api.post(SIGN_UP, {"targetProjectId": "example2"}, headers=OWNER))


def test_should_ignore_casing_of_bearer_owner_in_authorization_header(api):
    assert "error" not in expect_status(200, api.post(SIGN_UP, {"targetProjectId": "example2"},
                                                      headers={"Authorization": "bEArEr OWNER"}))


def test_should_treat_production_service_account_as_authenticated_to_project(api):
    # Shaped like a Google OAuth access token; only the format is checked.
    token = "ya" + "29.AHES0ZZZZZ0fff" + "ff0XXXX0mmmm0wwwww0-LL_l-0bb0b0bbbbbb"
    assert "error" not in expect_status(200, api.post(SIGN_UP, {"targetProjectId": "example2"},
                                                      headers={"Authorization": f"Bearer {token}"}))


def test_should_deny_requests_with_target_project_id_but_without_oauth_2(api):
    response = api.post(SIGN_UP, {"targetProjectId": "example2"}, query=KEY)
    assert error_message(response) == \
        "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id."


def test_should_deny_requests_where_tenant_ids_do_not_match_in_the_request_body_and_path(api):
    response = api.post(f"{V1}/projects/project-id/tenants/tenant-id/accounts:delete",
                        {"localId": "local-id", "tenantId": "mismatching-tenant-id"}, headers=OWNER)
    assert error_message(response) == "TENANT_ID_MISMATCH"


def register_tenant_user(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False, "allowPasswordSignup": True})
    return register_user(api, "alice@example.com", "notasecret", tenant_id=tenant["tenantId"])["idToken"]


def test_should_deny_requests_where_tenant_ids_do_not_match_in_the_id_token_and_path(api):
    id_token = register_tenant_user(api)
    response = api.post(f"{V1}/projects/{PROJECT_ID}/tenants/not-matching-tenant-id/accounts:lookup",
                        {"idToken": id_token}, headers=OWNER)
    assert error_message(response) == "TENANT_ID_MISMATCH"


def test_should_deny_requests_where_tenant_ids_do_not_match_in_the_id_token_and_request_body(api):
    id_token = register_tenant_user(api)
    response = api.post(f"{V1}/projects/{PROJECT_ID}/accounts:lookup",
                        {"idToken": id_token, "tenantId": "not-matching-tenant-id"}, headers=OWNER)
    assert error_message(response) == "TENANT_ID_MISMATCH"
