"""firebase-tools v15.28.1 `src/emulator/auth/tenant.spec.ts`, ported case by case: the v2 tenant
API (create, get, delete, list with pages, update with masks) for project `project-id`."""

from upstream.upstream_support import OWNER, V2, expect_status, register_tenant

PROJECT = "project-id"
TENANTS = f"{V2}/projects/{PROJECT}/tenants"
FULL_TENANT = {
    "allowPasswordSignup": True,
    "disableAuth": False,
    "displayName": "display",
    "enableAnonymousUser": True,
    "enableEmailLinkSignin": True,
    "mfaConfig": {"enabledProviders": ["PROVIDER_UNSPECIFIED", "PHONE_SMS"], "state": "ENABLED"},
}


def assert_full_tenant(body):
    assert body["allowPasswordSignup"] is True
    assert body["disableAuth"] is False
    assert body["displayName"] == "display"
    assert body["enableAnonymousUser"] is True
    assert body["enableEmailLinkSignin"] is True
    assert body["mfaConfig"] == {"enabledProviders": ["PROVIDER_UNSPECIFIED", "PHONE_SMS"], "state": "ENABLED"}


def assert_disabled_defaults(body):
    assert body["allowPasswordSignup"] is False
    assert body["disableAuth"] is False
    assert body["enableAnonymousUser"] is False
    assert body["enableEmailLinkSignin"] is False
    assert body["mfaConfig"] == {"state": "DISABLED", "enabledProviders": []}


# --- createTenant ---

def test_should_create_tenants(api):
    body = expect_status(200, api.post(TENANTS, FULL_TENANT, headers=OWNER))
    assert_full_tenant(body)
    assert body["tenantId"] != ""
    assert body["name"] == f"projects/{PROJECT}/tenants/{body['tenantId']}"


def test_should_create_a_tenant_with_default_disabled_settings(api):
    assert_disabled_defaults(expect_status(200, api.post(TENANTS, {}, headers=OWNER)))


# --- getTenants ---

def test_should_get_tenants(api):
    tenant = register_tenant(api, PROJECT, {})
    assert expect_status(200, api.get(f"{TENANTS}/{tenant['tenantId']}", headers=OWNER)) == tenant


def test_should_create_tenants_with_default_enabled_settings_if_they_do_not_exist(api):
    assert len(expect_status(200, api.get(TENANTS, headers=OWNER))["tenants"]) == 0

    tenant_id = "tenant-id"
    created_tenant = {
        "tenantId": tenant_id,
        "name": f"projects/{PROJECT}/tenants/{tenant_id}",
        "allowPasswordSignup": True,
        "disableAuth": False,
        "enableAnonymousUser": True,
        "enableEmailLinkSignin": True,
        "mfaConfig": {"enabledProviders": ["PHONE_SMS"], "state": "ENABLED"},
    }
    assert expect_status(200, api.get(f"{TENANTS}/{tenant_id}", headers=OWNER)) == created_tenant

    tenants = expect_status(200, api.get(TENANTS, headers=OWNER))["tenants"]
    assert len(tenants) == 1
    assert tenants[0]["tenantId"] == tenant_id


# --- deleteTenants ---

def test_should_delete_tenants(api):
    tenant = register_tenant(api, PROJECT, {})
    expect_status(200, api.delete(f"{TENANTS}/{tenant['tenantId']}", headers=OWNER))


def test_should_delete_tenants_if_request_body_is_passed(api):
    tenant = register_tenant(api, PROJECT, {})
    # `{}` with a JSON content type, as the Node Admin SDK sends on DELETE.
    expect_status(200, api.delete(f"{TENANTS}/{tenant['tenantId']}", {}, headers=OWNER))


# --- listTenants ---

def test_should_list_tenants(api):
    tenant1 = register_tenant(api, PROJECT, {})
    tenant2 = register_tenant(api, PROJECT, {})
    body = expect_status(200, api.get(TENANTS, headers=OWNER))
    assert sorted(tenant["tenantId"] for tenant in body["tenants"]) == sorted([tenant1["tenantId"],
                                                                               tenant2["tenantId"]])
    assert "nextPageToken" not in body


def test_should_allow_specifying_page_size_and_page_token(api):
    tenant_ids = sorted(register_tenant(api, PROJECT, {})["tenantId"] for _ in range(2))

    body = expect_status(200, api.get(TENANTS, query={"pageSize": 1}, headers=OWNER))
    assert [tenant["tenantId"] for tenant in body["tenants"]] == tenant_ids[:1]
    next_page_token = body["nextPageToken"]
    assert isinstance(next_page_token, str)

    body = expect_status(200, api.get(TENANTS, query={"pageToken": next_page_token}, headers=OWNER))
    assert [tenant["tenantId"] for tenant in body["tenants"]] == tenant_ids[1:]
    assert "nextPageToken" not in body


def test_should_always_return_a_page_token_even_if_page_is_full(api):
    tenant_ids = sorted(register_tenant(api, PROJECT, {})["tenantId"] for _ in range(2))

    body = expect_status(200, api.get(TENANTS, query={"pageSize": 2}, headers=OWNER))
    assert [tenant["tenantId"] for tenant in body["tenants"]] == tenant_ids
    next_page_token = body["nextPageToken"]
    assert isinstance(next_page_token, str)

    body = expect_status(200, api.get(TENANTS, query={"pageToken": next_page_token}, headers=OWNER))
    assert len(body.get("tenants") or []) == 0
    assert "nextPageToken" not in body


# --- updateTenants ---

def test_updates_tenant_config(api):
    tenant = register_tenant(api, PROJECT, {})
    update_mask = "allowPasswordSignup,disableAuth,displayName,enableAnonymousUser,enableEmailLinkSignin,mfaConfig"
    assert_full_tenant(expect_status(200, api.patch(f"{TENANTS}/{tenant['tenantId']}", FULL_TENANT,
                                                    query={"updateMask": update_mask}, headers=OWNER)))


def test_does_not_update_if_the_field_does_not_exist_on_the_update_tenant(api):
    tenant = register_tenant(api, PROJECT, {})
    body = expect_status(200, api.patch(f"{TENANTS}/{tenant['tenantId']}", {}, query={"updateMask": "displayName"},
                                        headers=OWNER))
    assert "displayName" not in body


def test_does_not_update_if_indexing_a_primitive_field_or_array_on_the_update_tenant(api):
    tenant = register_tenant(api, PROJECT, {"displayName": "display",
                                            "mfaConfig": {"enabledProviders": ["PROVIDER_UNSPECIFIED", "PHONE_SMS"]}})
    body = expect_status(200, api.patch(
        f"{TENANTS}/{tenant['tenantId']}",
        {"displayName": "unused", "mfaConfig": {"enabledProviders": ["PROVIDER_UNSPECIFIED"]}},
        query={"updateMask": "displayName.0,mfaConfig.enabledProviders.nonexistentField"}, headers=OWNER))
    assert body["displayName"] == "display"
    assert body["mfaConfig"]["enabledProviders"] == ["PROVIDER_UNSPECIFIED", "PHONE_SMS"]


def test_performs_a_full_update_if_the_update_mask_is_empty(api):
    tenant = register_tenant(api, PROJECT, {})
    assert_full_tenant(expect_status(200, api.patch(f"{TENANTS}/{tenant['tenantId']}", FULL_TENANT, headers=OWNER)))


def test_performs_a_full_update_with_production_defaults_if_the_update_mask_is_empty(api):
    tenant = register_tenant(api, PROJECT, {})
    assert_disabled_defaults(expect_status(200, api.patch(f"{TENANTS}/{tenant['tenantId']}", {}, headers=OWNER)))
