"""firebase-tools v15.28.1 `src/emulator/auth/createAuthUri.spec.ts` ("accounts:createAuthUri"), ported."""

from upstream.upstream_support import (
    KEY, PROJECT_ID, V1, error_message, expect_status, register_tenant, register_user, sign_in_with_email_link,
    sign_in_with_fake_claims, update_config, update_project_config)

CREATE_AUTH_URI = f"{V1}/accounts:createAuthUri"
PROVIDER_PASSWORD = "password"
SIGNIN_METHOD_EMAIL_LINK = "emailLink"


def create_auth_uri(api, body):
    return api.post(CREATE_AUTH_URI, body, query=KEY)


def enable_improved_email_privacy(api):
    update_config(api, PROJECT_ID, {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}, "emailPrivacyConfig")


def test_should_report_not_registered_user_as_not_registered(api):
    body = expect_status(200, create_auth_uri(
        api, {"continueUri": "http://example.com/", "identifier": "notregistered@example.com"}))
    assert body["registered"] is False
    assert isinstance(body["sessionId"], str)


def test_should_not_show_registered_field_with_improved_email_privacy_enabled(api):
    enable_improved_email_privacy(api)
    body = expect_status(200, create_auth_uri(
        api, {"continueUri": "http://example.com/", "identifier": "notregistered@example.com"}))
    assert "registered" not in body
    assert isinstance(body["sessionId"], str)


def test_should_return_providers_for_a_registered_user(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    register_user(api, **user)
    body = expect_status(200, create_auth_uri(api, {"continueUri": "http://example.com/", "identifier": user["email"]}))
    assert body["registered"] is True
    assert body["allProviders"] == ["password"]
    assert body["signinMethods"] == ["password"]
    assert isinstance(body["sessionId"], str)


def test_should_not_return_providers_for_a_registered_user_with_improved_email_privacy_enabled(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    enable_improved_email_privacy(api)
    register_user(api, **user)
    body = expect_status(200, create_auth_uri(api, {"continueUri": "http://example.com/", "identifier": user["email"]}))
    assert "registered" not in body
    assert "allProviders" not in body
    assert "signinMethods" not in body
    assert isinstance(body["sessionId"], str)


def test_should_return_existing_session_id_if_provided(api):
    body = expect_status(200, create_auth_uri(api, {
        "continueUri": "http://example.com/", "identifier": "notregistered@example.com", "sessionId": "my-session-1"}))
    assert body["registered"] is False
    assert body["sessionId"] == "my-session-1"


def test_should_find_user_by_email_ignoring_case(api):
    user = {"email": "alice@example.com", "password": "notasecret"}
    register_user(api, **user)
    body = expect_status(200, create_auth_uri(
        api, {"continueUri": "http://example.com/", "identifier": "AlIcE@exAMPle.COM"}))
    assert body["registered"] is True


def link_provider_then_email(api, email, email_at_provider, provider_id):
    id_token = sign_in_with_fake_claims(api, provider_id, {"sub": "12345", "email": email_at_provider})["idToken"]
    sign_in_with_email_link(api, email, id_token)


def test_should_find_user_by_either_idp_email_or_top_level_email(api):
    email = "bob@example.com"
    email_at_provider = "alice@example.com"
    provider_id = "google.com"
    link_provider_then_email(api, email, email_at_provider, provider_id)

    for identifier in (email, email_at_provider):
        body = expect_status(200, create_auth_uri(api, {"continueUri": "http://example.com/", "identifier": identifier}))
        assert body["registered"] is True
        assert sorted(body["allProviders"]) == sorted([PROVIDER_PASSWORD, provider_id])
        assert sorted(body["signinMethods"]) == sorted([SIGNIN_METHOD_EMAIL_LINK, provider_id])


def test_should_not_list_idp_sign_in_methods_when_allow_duplicate_emails(api):
    email = "bob@example.com"
    email_at_provider = "alice@example.com"
    provider_id = "google.com"
    link_provider_then_email(api, email, email_at_provider, provider_id)

    update_project_config(api, {"signIn": {"allowDuplicateEmails": True}})

    for identifier in (email, email_at_provider):
        body = expect_status(200, create_auth_uri(api, {"continueUri": "http://example.com/", "identifier": identifier}))
        assert body["registered"] is True
        assert body["allProviders"] == [PROVIDER_PASSWORD]
        assert body["signinMethods"] == [SIGNIN_METHOD_EMAIL_LINK]


def test_should_error_if_identifier_or_continue_uri_is_not_provided(api):
    assert error_message(create_auth_uri(api, {"continueUri": "http://example.com/"})) == "MISSING_IDENTIFIER"
    assert error_message(create_auth_uri(api, {"identifier": "me@example.com"})) == "MISSING_CONTINUE_URI"


def test_should_error_if_identifier_is_invalid(api):
    assert error_message(create_auth_uri(api, {"identifier": "invalid", "continueUri": "http://localhost/"})) \
        == "INVALID_IDENTIFIER"


def test_should_error_if_continue_uri_is_invalid(api):
    assert error_message(create_auth_uri(api, {"identifier": "me@example.com", "continueUri": "invalid"})) \
        == "INVALID_CONTINUE_URI"


def test_should_error_if_auth_is_disabled(api):
    tenant = register_tenant(api, PROJECT_ID, {"disableAuth": True})

    assert error_message(create_auth_uri(api, {
        "tenantId": tenant["tenantId"], "continueUri": "http://example.com/",
        "identifier": "notregistered@example.com"})) == "PROJECT_DISABLED"
