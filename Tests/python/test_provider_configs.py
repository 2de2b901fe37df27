"""OIDC and SAML provider configs through the real firebase-admin package (project and tenant).

The official emulator answers 501 to every oauthIdpConfigs / inboundSamlConfigs call; this one
stores them, so these are real round trips. Wire shapes: shared/reference/admin-sdk-wire.md §3.
"""

import pytest
from firebase_admin import auth, exceptions, tenant_mgt

from conftest import PROJECT_ID

CERTIFICATE = "MIICERTIFICATE"
SAML = dict(
    idp_entity_id="https://idp.example.com", sso_url="https://idp.example.com/sso",
    x509_certificates=[CERTIFICATE], rp_entity_id="urn:example:sp",
    callback_url="https://example.firebaseapp.com/__/auth/handler")


@pytest.fixture(autouse=True)
def no_provider_configs():
    """Provider configs outlive clear_accounts: every test removes what it made."""
    yield
    for scoped in (auth, tenant_mgt.auth_for_tenant("tenant-configs")):
        for config in scoped.list_oidc_provider_configs().iterate_all():
            scoped.delete_oidc_provider_config(config.provider_id)
        for config in scoped.list_saml_provider_configs().iterate_all():
            scoped.delete_saml_provider_config(config.provider_id)


def test_oidc_config_round_trip():
    created = auth.create_oidc_provider_config(
        "oidc.example", client_id="client-1", issuer="https://issuer.example.com",
        display_name="Example", enabled=True)
    assert (created.provider_id, created.client_id, created.issuer) == ("oidc.example", "client-1", "https://issuer.example.com")
    assert created.display_name == "Example" and created.enabled
    assert created.id_token_response_type and not created.code_response_type

    fetched = auth.get_oidc_provider_config("oidc.example")
    assert fetched.client_id == "client-1"

    updated = auth.update_oidc_provider_config(
        "oidc.example", client_id="client-2", code_response_type=True, client_secret="secret",
        display_name=auth.DELETE_ATTRIBUTE)
    assert updated.client_id == "client-2"
    assert updated.display_name is None
    assert updated.code_response_type and updated.id_token_response_type
    assert updated.client_secret == "secret"
    assert updated.issuer == "https://issuer.example.com"
    updated = auth.update_oidc_provider_config("oidc.example", enabled=False)
    assert not updated.enabled and updated.client_id == "client-2"

    with pytest.raises(exceptions.InvalidArgumentError) as refused:
        auth.create_oidc_provider_config("oidc.example", client_id="x", issuer="https://i.example.com")
    assert "CONFIGURATION_EXISTS" in str(refused.value)

    auth.delete_oidc_provider_config("oidc.example")
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.get_oidc_provider_config("oidc.example")
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.delete_oidc_provider_config("oidc.example")


def test_oidc_configs_list_past_a_page():
    ids = [f"oidc.p{index}" for index in (3, 1, 4, 0, 2)]
    for provider_id in ids:
        auth.create_oidc_provider_config(provider_id, client_id="c", issuer="https://i.example.com")
    page = auth.list_oidc_provider_configs(max_results=2)
    assert [config.provider_id for config in page.provider_configs] == ["oidc.p0", "oidc.p1"]
    assert page.has_next_page
    page = page.get_next_page()
    assert [config.provider_id for config in page.provider_configs] == ["oidc.p2", "oidc.p3"]
    page = page.get_next_page()
    assert [config.provider_id for config in page.provider_configs] == ["oidc.p4"]
    assert not page.has_next_page
    listed = [config.provider_id for config in auth.list_oidc_provider_configs(max_results=2).iterate_all()]
    assert listed == sorted(ids)


def test_saml_config_round_trip_and_paging():
    created = auth.create_saml_provider_config("saml.example", display_name="Example", enabled=True, **SAML)
    assert created.provider_id == "saml.example"
    assert (created.idp_entity_id, created.sso_url) == (SAML["idp_entity_id"], SAML["sso_url"])
    assert created.x509_certificates == [CERTIFICATE]
    assert (created.rp_entity_id, created.callback_url) == (SAML["rp_entity_id"], SAML["callback_url"])
    assert created.enabled and created.display_name == "Example"

    updated = auth.update_saml_provider_config("saml.example", sso_url="https://idp.example.com/sso2",
                                               x509_certificates=["OTHER", CERTIFICATE])
    assert updated.sso_url == "https://idp.example.com/sso2"
    assert updated.x509_certificates == ["OTHER", CERTIFICATE]
    assert updated.idp_entity_id == SAML["idp_entity_id"] and updated.rp_entity_id == SAML["rp_entity_id"]
    assert auth.get_saml_provider_config("saml.example").sso_url == "https://idp.example.com/sso2"

    for index in range(3):
        auth.create_saml_provider_config(f"saml.more{index}", **SAML)
    page = auth.list_saml_provider_configs(max_results=3)
    assert len(page.provider_configs) == 3 and page.has_next_page
    assert [c.provider_id for c in page.get_next_page().provider_configs] == ["saml.more2"]
    # OIDC and SAML lists do not mix.
    assert list(auth.list_oidc_provider_configs().iterate_all()) == []

    auth.delete_saml_provider_config("saml.example")
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.get_saml_provider_config("saml.example")


def test_server_side_validation_errors(client):
    # The SDK checks ids and fields itself, so send what it would refuse over REST.
    base = f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}"
    owner = {"Authorization": "Bearer owner"}
    reply = client.request("POST", f"{base}/oauthIdpConfigs", params={"oauthIdpConfigId": "bad.id"},
                           json={"clientId": "c", "issuer": "https://i.example.com"}, headers=owner)
    assert reply.status_code == 400 and reply.json()["error"]["message"].startswith("INVALID_CONFIG_ID")
    reply = client.request("POST", f"{base}/inboundSamlConfigs", params={"inboundSamlConfigId": "saml.x"},
                           json={"idpConfig": {"idpEntityId": "e", "ssoUrl": "https://idp.example.com",
                                               "idpCertificates": [{"x509Certificate": "C"}]}}, headers=owner)
    assert reply.status_code == 400
    assert reply.json()["error"]["message"].startswith("MISSING_SAML_RELYING_PARTY_CONFIG")
    with pytest.raises(ValueError):
        auth.create_oidc_provider_config("google.com", client_id="c", issuer="https://i.example.com")


def test_tenant_scoped_configs_stay_in_their_tenant():
    tenant = tenant_mgt.auth_for_tenant("tenant-configs")
    oidc = tenant.create_oidc_provider_config("oidc.tenant", client_id="c", issuer="https://i.example.com")
    assert oidc.provider_id == "oidc.tenant"
    saml = tenant.create_saml_provider_config("saml.tenant", **SAML)
    assert saml.provider_id == "saml.tenant"
    assert tenant.update_oidc_provider_config("oidc.tenant", client_id="c2").client_id == "c2"
    assert tenant.get_saml_provider_config("saml.tenant").rp_entity_id == SAML["rp_entity_id"]
    assert [c.provider_id for c in tenant.list_oidc_provider_configs().iterate_all()] == ["oidc.tenant"]
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.get_oidc_provider_config("oidc.tenant")
    assert list(auth.list_saml_provider_configs().iterate_all()) == []
    tenant.delete_oidc_provider_config("oidc.tenant")
    with pytest.raises(auth.ConfigurationNotFoundError):
        tenant.get_oidc_provider_config("oidc.tenant")
