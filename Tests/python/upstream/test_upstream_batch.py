"""firebase-tools v15.28.1 `src/emulator/auth/batch.spec.ts`, ported case by case.

Upstream's fake timers start at the epoch, so its timestamps read `1970-01-01T00:00:00.000Z`; the
emulator clock runs from real time, so a port asserts the timestamp lies within the clock readings
taken around the call (`clock_now_ms`). Upstream's `it.skip` ("should reject production
passwordHash") is skipped upstream too and has no port.
"""

from upstream.upstream_support import (
    KEY, OWNER, PROJECT_ID, TEST_PHONE_NUMBER, V1, clock_now_ms, decode_jwt, enroll_phone_mfa,
    error_message, expect_status, get_account_info_by_id_token, get_account_info_by_local_id,
    get_signin_methods, iso_to_ms, register_anon_user, register_tenant, register_user, sign_in_with_email_link,
    sign_in_with_fake_claims, sign_in_with_password, sign_in_with_phone_number, update_account_by_local_id)

BATCH_GET = f"{V1}/projects/{PROJECT_ID}/accounts:batchGet"
BATCH_CREATE = f"{V1}/projects/{PROJECT_ID}/accounts:batchCreate"
BATCH_DELETE = f"{V1}/projects/{PROJECT_ID}/accounts:batchDelete"
DOWNLOAD_ACCOUNT = "/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount"
UPLOAD_ACCOUNT = "/www.googleapis.com/identitytoolkit/v3/relyingparty/uploadAccount"


def batch_create(api, body):
    return api.post(BATCH_CREATE, body, headers=OWNER)


def assert_created_without_errors(response):
    body = expect_status(200, response)
    assert (body.get("error") or []) == [], body


# --- accounts:batchGet ---

def test_should_allow_listing_all_accounts(api):
    user1 = register_anon_user(api)
    user2 = register_user(api, "foo@example.com", "foobar")
    body = expect_status(200, api.get(BATCH_GET, headers=OWNER))
    assert len(body["users"]) == 2
    assert sorted(user["localId"] for user in body["users"]) == sorted([user1["localId"], user2["localId"]])
    assert "nextPageToken" not in body


def test_should_return_mfa_info(api):
    user1 = sign_in_with_email_link(api, "test@example.com")
    before = clock_now_ms(api)
    enroll_phone_mfa(api, user1["idToken"], TEST_PHONE_NUMBER)
    after = clock_now_ms(api)
    body = expect_status(200, api.get(BATCH_GET, headers=OWNER))
    assert len(body["users"]) == 1
    mfa = body["users"][0]["mfaInfo"][0]
    # Upstream: enrolledAt "1970-01-01T00:00:00.000Z", the fake timers' now.
    assert before <= iso_to_ms(mfa["enrolledAt"]) <= after, mfa
    assert mfa["phoneInfo"] == TEST_PHONE_NUMBER
    assert mfa["unobfuscatedPhoneInfo"] == TEST_PHONE_NUMBER


def test_should_allow_listing_all_accounts_using_legacy_endpoint(api):
    user1 = register_anon_user(api)
    user2 = register_user(api, "foo@example.com", "foobar")
    body = expect_status(200, api.post(DOWNLOAD_ACCOUNT, {"targetProjectId": PROJECT_ID}, headers=OWNER))
    assert len(body["users"]) == 2
    assert sorted(user["localId"] for user in body["users"]) == sorted([user1["localId"], user2["localId"]])
    assert "nextPageToken" not in body


def test_should_allow_specifying_max_results_and_pagination(api):
    user1 = register_anon_user(api)
    user2 = register_user(api, "foo@example.com", "foobar")
    local_ids = sorted([user1["localId"], user2["localId"]])

    body = expect_status(200, api.get(BATCH_GET, query={"maxResults": 1}, headers=OWNER))
    assert len(body["users"]) == 1
    assert body["users"][0]["localId"] == local_ids[0]
    next_page_token = body["nextPageToken"]
    assert isinstance(next_page_token, str)

    body = expect_status(200, api.get(BATCH_GET, query={"nextPageToken": next_page_token}, headers=OWNER))
    assert len(body["users"]) == 1
    assert body["users"][0]["localId"] == local_ids[1]
    assert "nextPageToken" not in body

    body = expect_status(200, api.post(DOWNLOAD_ACCOUNT, {"targetProjectId": PROJECT_ID,
                                                          "nextPageToken": next_page_token}, headers=OWNER))
    assert len(body["users"]) == 1
    assert body["users"][0]["localId"] == max(user1["localId"], user2["localId"])
    assert "nextPageToken" not in body


def test_should_always_return_a_page_token_if_page_is_full(api):
    user1 = register_anon_user(api)
    user2 = register_user(api, "foo@example.com", "foobar")
    local_ids = sorted([user1["localId"], user2["localId"]])

    body = expect_status(200, api.get(BATCH_GET, query={"maxResults": 2}, headers=OWNER))
    assert [user["localId"] for user in body["users"]] == local_ids
    next_page_token = body["nextPageToken"]
    assert isinstance(next_page_token, str)

    body = expect_status(200, api.get(BATCH_GET, query={"nextPageToken": next_page_token}, headers=OWNER))
    assert len(body.get("users") or []) == 0
    assert "nextPageToken" not in body


def test_batch_get_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})
    response = api.get(f"{V1}/projects/{PROJECT_ID}/tenants/{tenant['tenantId']}/accounts:batchGet", headers=OWNER)
    assert "PROJECT_DISABLED" in error_message(response)


# --- accounts:batchCreate ---

def test_should_create_specified_accounts(api):
    user1 = {"localId": "foo", "email": "foo@example.com", "rawPassword": "notasecret"}
    user2 = {"localId": "bar", "phoneNumber": TEST_PHONE_NUMBER, "customAttributes": '{"hello": "world"}'}
    assert_created_without_errors(batch_create(api, {"users": [user1, user2]}))

    assert get_signin_methods(api, user1["email"]) == ["password"]
    user2_sign_in = sign_in_with_phone_number(api, user2["phoneNumber"])
    assert user2_sign_in["localId"] == user2["localId"]
    assert decode_jwt(user2_sign_in["idToken"])[1]["hello"] == "world"


def test_should_create_specified_accounts_via_legacy_endpoint(api):
    user1 = {"localId": "foo", "email": "foo@example.com", "rawPassword": "notasecret"}
    user2 = {"localId": "bar", "phoneNumber": TEST_PHONE_NUMBER}
    assert_created_without_errors(api.post(UPLOAD_ACCOUNT, {"users": [user1, user2], "targetProjectId": PROJECT_ID},
                                           headers=OWNER))

    assert get_signin_methods(api, user1["email"]) == ["password"]
    assert sign_in_with_phone_number(api, user2["phoneNumber"])["localId"] == user2["localId"]


def test_should_error_if_users_is_empty_or_missing(api):
    assert error_message(batch_create(api, {"users": []})) == "MISSING_USER_ACCOUNT"
    assert error_message(batch_create(api, {})) == "MISSING_USER_ACCOUNT"


def test_should_convert_emails_to_lowercase(api):
    user = {"localId": "foo", "email": "FOO@EXAMPLE.COM", "rawPassword": "notasecret"}
    assert_created_without_errors(batch_create(api, {"users": [user]}))
    assert get_account_info_by_local_id(api, user["localId"])["email"] == user["email"].lower()


def test_should_accept_auth_emulator_fake_password_hash_from_request(api):
    password, salt = "hawaii", "beach"
    user = {"localId": "foo", "email": "FOO@EXAMPLE.COM", "salt": salt,
            "passwordHash": f"fakeHash:salt={salt}:password={password}"}
    assert_created_without_errors(batch_create(api, {"users": [user]}))

    user_info = get_account_info_by_local_id(api, user["localId"])
    assert user_info["passwordHash"] == user["passwordHash"]
    assert user_info["salt"] == user["salt"]
    assert sign_in_with_password(api, user["email"], password)["localId"] == user["localId"]


def test_should_error_for_duplicate_emails_in_payload_if_sanity_check_is_true(api):
    response = batch_create(api, {"sanityCheck": True, "users": [
        {"localId": "test1", "email": "foo@example.com"},
        {"localId": "test2", "email": "foo@example.com"},
    ]})
    assert error_message(response) == "DUPLICATE_EMAIL : foo@example.com"


def test_should_block_reusing_existing_email_if_sanity_check_is_true(api):
    user = sign_in_with_email_link(api, "bar@example.com")
    body = expect_status(200, batch_create(api, {"sanityCheck": True,
                                                 "users": [{"localId": "test1", "email": user["email"]}]}))
    assert body["error"] == [{"index": 0, "message": "email exists in other account in database"}]


def test_should_error_for_duplicate_provider_id_raw_ids_in_payload_if_sanity_check_is_true(api):
    response = batch_create(api, {"sanityCheck": True, "users": [
        {"localId": "test1", "providerUserInfo": [{"providerId": "google.com", "rawId": "dup"}]},
        {"localId": "test2", "providerUserInfo": [{"providerId": "google.com", "rawId": "dup"}]},
    ]})
    assert error_message(response) == "DUPLICATE_RAW_ID : Provider id(google.com), Raw id(dup)"


def test_should_block_reusing_exisiting_provider_id_raw_ids_if_sanity_check_is_true(api):
    provider_id, raw_id = "google.com", "0123456"
    sign_in_with_fake_claims(api, provider_id, {"sub": raw_id})
    body = expect_status(200, batch_create(api, {"sanityCheck": True, "users": [
        {"localId": "test1", "providerUserInfo": [{"providerId": provider_id, "rawId": raw_id}]}]}))
    assert body["error"] == [{"index": 0, "message": "raw id exists in other account in database"}]


def test_should_block_duplicate_local_ids_by_default(api):
    response = batch_create(api, {"users": [{"localId": "test1"}, {"localId": "test1"}]})
    assert error_message(response) == "DUPLICATE_LOCAL_ID : test1"

    local_id = register_anon_user(api)["localId"]
    body = expect_status(200, batch_create(api, {"users": [{"localId": local_id}]}))
    assert body["error"] == [{"index": 0, "message": "localId belongs to an existing account - can not overwrite."}]


def test_should_not_error_for_empty_mfa_info(api):
    assert_created_without_errors(batch_create(api, {"users": [{"localId": "test1", "mfaInfo": []}]}))


def test_should_return_error_for_individual_invalid_entries(api):
    long_string = "x" * 998
    body = expect_status(200, batch_create(api, {"users": [
        {"email": "foo@example.com"},
        {"localId": "test1"},
        {"localId": "test2", "email": "not#an$email"},
        {"localId": "test3", "phoneNumber": "not#a$phone%number"},
        {"localId": "test4", "customAttributes": "not#a$json%object"},
        {"localId": "test5", "customAttributes": '{"sub": "123"}'},
        {"localId": "test6", "customAttributes": f'{{"a":"{long_string}"}}'},
        {"localId": "test7", "providerUserInfo": [{"providerId": "google.com"}]},
        {"localId": "test8", "providerUserInfo": [{"rawId": "012345"}]},
        {"localId": "test9", "providerUserInfo": [{"federatedId": "foo-bar"}]},
        {"localId": "test10", "mfaInfo": [{"phoneInfo": TEST_PHONE_NUMBER}]},
        {"localId": "test11", "email": "someone@example.com", "mfaInfo": [{"phoneInfo": TEST_PHONE_NUMBER}]},
    ]}))
    assert body["error"] == [
        {"index": 0, "message": "localId is missing"},
        {"index": 2, "message": "email is invalid"},
        {"index": 3, "message": "phone number format is invalid"},
        {"index": 4, "message": "Invalid custom claims provided."},
        {"index": 5, "message": "Custom claims provided include a reserved claim."},
        {"index": 6, "message": "Custom claims provided are too large."},
        {"index": 7, "message": "federatedId or (providerId & rawId) is required"},
        {"index": 8, "message": "federatedId or (providerId & rawId) is required"},
        {"index": 9, "message": "((Parsing federatedId is not implemented in Auth Emulator; please specify "
                                "providerId AND rawId as a workaround.))"},
        {"index": 10, "message": "Second factor account requires email to be presented."},
        {"index": 11, "message": "Second factor account requires email to be verified."},
    ]


def test_should_overwrite_users_with_matching_local_ids_if_allow_overwrite(api):
    user1_to_be_overwritten = sign_in_with_fake_claims(api, "google.com", {"sub": "doh"})
    user2_to_be_overwritten = register_user(api, "bar@example.com", "hawaii", display_name="Old Display Name")
    user1 = {"localId": user1_to_be_overwritten["localId"], "email": "foo@example.com", "rawPassword": "notasecret"}
    user2 = {"localId": user2_to_be_overwritten["localId"], "phoneNumber": TEST_PHONE_NUMBER,
             "displayName": "New Display Name"}
    assert_created_without_errors(batch_create(api, {"users": [user1, user2], "allowOverwrite": True}))

    user1_info = get_account_info_by_local_id(api, user1["localId"])
    assert user1_info["email"] == user1["email"]
    # The google.com link is gone: the new record does not carry it.
    assert user1_info["providerUserInfo"] == [{"providerId": "password", "rawId": "foo@example.com",
                                               "email": "foo@example.com", "federatedId": "foo@example.com"}]

    user2_sign_in = sign_in_with_phone_number(api, user2["phoneNumber"])
    assert user2_sign_in["localId"] == user2["localId"]
    user2_info = get_account_info_by_id_token(api, user2_sign_in["idToken"])
    assert not user2_info.get("email")
    assert not user2_info.get("passwordHash")
    assert user2_info["displayName"] == user2["displayName"]


def test_should_import_identity_provider_info(api):
    email, provider_id, raw_id = "foo@example.com", "google.com", "0123456"
    user1 = {"localId": "foo", "email": email,
             "providerUserInfo": [{"providerId": provider_id, "rawId": raw_id, "displayName": "Foo", "email": email}]}
    assert_created_without_errors(batch_create(api, {"users": [user1]}))

    assert get_signin_methods(api, email) == [provider_id]
    assert sign_in_with_fake_claims(api, provider_id, {"sub": raw_id})["localId"] == user1["localId"]


def test_should_import_mfa_info(api):
    user1 = {"localId": "foo", "email": "foo@example.com", "emailVerified": True,
             "mfaInfo": [{"enrolledAt": "2123-04-05T06:07:28.990Z", "phoneInfo": TEST_PHONE_NUMBER}]}
    assert_created_without_errors(batch_create(api, {"users": [user1]}))

    user1_info = get_account_info_by_local_id(api, user1["localId"])
    assert len(user1_info["mfaInfo"]) == 1
    mfa = user1_info["mfaInfo"][0]
    assert mfa["enrolledAt"] == user1["mfaInfo"][0]["enrolledAt"]
    assert mfa["phoneInfo"] == TEST_PHONE_NUMBER
    assert mfa["unobfuscatedPhoneInfo"] == TEST_PHONE_NUMBER
    # An mfaEnrollmentId is generated when none is given.
    assert isinstance(mfa["mfaEnrollmentId"], str) and mfa["mfaEnrollmentId"]


def test_batch_create_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})
    assert "PROJECT_DISABLED" in error_message(batch_create(api, {"tenantId": tenant["tenantId"]}))


def test_should_error_if_user_tenant_id_does_not_match_state_tenant_id(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False})
    body = expect_status(200, batch_create(api, {"tenantId": tenant["tenantId"], "users": [
        {"localId": "test1", "tenantId": "not-matching-tenant-id"}]}))
    assert body["error"] == [{"index": 0, "message": "Tenant id in userInfo does not match the tenant id in request."}]


def test_should_create_users_with_tenant_id_if_present(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": False})
    user = {"localId": "foo", "email": "me@example.com", "rawPassword": "notasecret"}
    assert_created_without_errors(batch_create(api, {"tenantId": tenant["tenantId"], "users": [user]}))
    assert get_account_info_by_local_id(api, user["localId"], tenant["tenantId"])["tenantId"] == tenant["tenantId"]


# --- accounts:batchDelete ---

def register_two_users(api):
    return register_anon_user(api), register_user(api, "foobar@example.com", "barbaz")


def batch_delete(api, body):
    return api.post(BATCH_DELETE, body, headers=OWNER)


def test_should_delete_specified_disabled_accounts(api):
    user1, user2 = register_two_users(api)
    update_account_by_local_id(api, user1["localId"], {"disableUser": True})
    update_account_by_local_id(api, user2["localId"], {"disableUser": True})
    body = expect_status(200, batch_delete(api, {"localIds": [user1["localId"], user2["localId"]]}))
    assert not body.get("errors")


def test_should_error_for_accounts_not_disabled(api):
    user1, user2 = register_two_users(api)
    update_account_by_local_id(api, user2["localId"], {"disableUser": True})
    body = expect_status(200, batch_delete(api, {"localIds": [user1["localId"], user2["localId"]]}))
    assert body["errors"] == [{"index": 0, "localId": user1["localId"],
                               "message": "NOT_DISABLED : Disable the account before batch deletion."}]


def test_should_delete_disabled_and_not_disabled_accounts_with_force_true(api):
    user1, user2 = register_two_users(api)
    update_account_by_local_id(api, user2["localId"], {"disableUser": True})
    body = expect_status(200, batch_delete(api, {"localIds": [user1["localId"], user2["localId"]], "force": True}))
    assert not body.get("errors")


def test_should_not_report_errors_for_nonexistent_local_ids(api):
    assert not expect_status(200, batch_delete(api, {"localIds": ["nosuch", "nosuch2"]})).get("errors")
    assert not expect_status(200, batch_delete(api, {"localIds": ["nosuch", "nosuch2"], "force": True})).get("errors")


def test_should_error_if_local_ids_array_is_empty(api):
    assert error_message(batch_delete(api, {"localIds": [], "force": True})) == "LOCAL_ID_LIST_EXCEEDS_LIMIT"


def test_should_error_if_local_id_count_is_more_than_limit(api):
    local_ids = [f"localId-{i}" for i in range(1000)]
    assert not expect_status(200, batch_delete(api, {"localIds": local_ids, "force": True})).get("errors")
    local_ids.append("extraOne")
    assert error_message(batch_delete(api, {"localIds": local_ids, "force": True})) == "LOCAL_ID_LIST_EXCEEDS_LIMIT"
