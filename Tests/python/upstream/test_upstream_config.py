"""firebase-tools v15.28.1 `src/emulator/auth/config.spec.ts`, ported case by case: the v2 project
config (`signIn`, `blockingFunctions`) read and written with update masks."""

from upstream.upstream_support import OWNER, PROJECT_ID, V2, error_message, expect_status

CONFIG = f"{V2}/projects/{PROJECT_ID}/config"
NON_DEFAULT = {
    "signIn": {"allowDuplicateEmails": True},
    "blockingFunctions": {"forwardInboundCredentials": {"idToken": True}},
}


def patch_config(api, body, update_mask=None):
    query = {"updateMask": update_mask} if update_mask is not None else None
    return api.patch(CONFIG, body, query=query, headers=OWNER)


# --- updateConfig ---

def test_updates_the_project_level_config(api):
    body = expect_status(200, patch_config(
        api, NON_DEFAULT, "signIn.allowDuplicateEmails,blockingFunctions.forwardInboundCredentials.idToken"))
    assert body["signIn"]["allowDuplicateEmails"] is True
    assert body["blockingFunctions"] == {"forwardInboundCredentials": {"idToken": True}}


def test_does_not_update_if_the_field_does_not_exist_on_the_update_config(api):
    body = expect_status(200, patch_config(api, {}, "displayName"))
    assert "displayName" not in body


def test_performs_a_full_update_if_the_update_mask_is_empty(api):
    body = expect_status(200, patch_config(api, NON_DEFAULT))
    assert body["signIn"]["allowDuplicateEmails"] is True
    assert body["blockingFunctions"] == {"forwardInboundCredentials": {"idToken": True}}


def test_performs_a_full_update_with_production_defaults_if_the_update_mask_is_empty(api):
    body = expect_status(200, patch_config(api, NON_DEFAULT))
    assert body["signIn"]["allowDuplicateEmails"] is True
    assert body["blockingFunctions"] == {"forwardInboundCredentials": {"idToken": True}}

    body = expect_status(200, patch_config(api, {}))
    assert body["signIn"]["allowDuplicateEmails"] is False
    assert body["blockingFunctions"] == {}


def test_should_error_when_updating_an_invalid_blocking_function_event(api):
    response = patch_config(api, {"blockingFunctions": {"triggers": {
        "invalidEventTrigger": {"functionUri": "http://localhost"}}}})
    assert "INVALID_BLOCKING_FUNCTION" in error_message(response)


def test_should_error_if_function_uri_is_invalid(api):
    response = patch_config(api, {"blockingFunctions": {"triggers": {"beforeCreate": {"functionUri": "invalidUri"}}}})
    assert "INVALID_BLOCKING_FUNCTION" in error_message(response)


# --- getConfig ---

def test_should_return_the_project_level_config(api):
    body = expect_status(200, api.get(CONFIG, headers=OWNER))
    assert body["signIn"] == {"allowDuplicateEmails": False}
    assert body["blockingFunctions"] == {}


def test_should_return_updated_config_fields(api):
    patch_config(api, NON_DEFAULT)
    body = expect_status(200, api.get(CONFIG, headers=OWNER))
    assert body["signIn"] == {"allowDuplicateEmails": True}
    assert body["blockingFunctions"] == {"forwardInboundCredentials": {"idToken": True}}
