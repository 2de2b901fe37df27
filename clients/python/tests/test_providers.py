"""The fake providers through the kit: mints, nonces, Apple's hidden email and name, key rotation,
revocations, the fake Graph API, the headful page, and refusals as typed errors."""

import base64
import hashlib
import json

import pytest

from auth_emulator import EmulatorError, MintedToken, claims_of
from conftest import unique_email


def test_apple_mint_carries_the_nonces_sha256_and_a_hidden_email(apple, auth_client):
    real = unique_email("apple")
    minted = apple.mint(real, hide_email=True, nonce="raw-nonce-1")
    assert isinstance(minted, MintedToken) and minted.provider_id == "apple.com"
    assert minted.claims["nonce"] == hashlib.sha256(b"raw-nonce-1").hexdigest()
    assert minted.email.endswith("@privaterelay.appleid.com") and minted.real_email == real
    assert minted.claims["is_private_email"] == "true" and minted.authorization_code
    assert minted.post_body.endswith("&nonce=raw-nonce-1")
    signed_in = auth_client.sign_in_with_idp(minted)
    assert signed_in.email == minted.email and signed_in.is_new_user and signed_in.provider_id == "apple.com"
    assert apple.relay_address(minted.email).forward_to == real


def test_apples_name_comes_once_beside_the_token(apple, auth_client, users):
    email = unique_email("named")
    first = auth_client.sign_in_with_idp(apple.mint(email, full_name=("Ada", "Lovelace")))
    assert first.display_name == "Ada Lovelace" and first.is_new_user
    again = auth_client.sign_in_with_idp(apple.mint(email, full_name=("Charles", "Babbage")))
    assert again.uid == first.uid and users.get(first.uid)["displayName"] == "Ada Lovelace"


def test_a_wrong_raw_nonce_is_a_typed_error_and_writes_nothing(apple, auth_client, users):
    minted = apple.mint(unique_email(), nonce="the-right-one")
    with pytest.raises(EmulatorError) as refused:
        auth_client.sign_in_with_idp(minted.post_body.replace("the-right-one", "another-one"))
    assert refused.value.status == 400 and refused.value.code == "MISSING_OR_INVALID_NONCE"
    assert "SHA-256 of the raw nonce" in refused.value.detail
    assert users.count() == 0


def test_mint_refusals_are_typed_errors(apple):
    with pytest.raises(EmulatorError) as refused:
        apple.mint(unique_email(), nonce="a", hashed_nonce="b")
    assert (refused.value.status, refused.value.code) == (400, "INVALID_ARGUMENT")


def test_facebook_limited_login_and_classic_login(providers, auth_client):
    email = unique_email("fb")
    limited = providers.facebook.mint(email, name="Fay Book", nonce="fb-nonce")
    assert limited.claims["nonce"] == hashlib.sha256(b"fb-nonce").hexdigest()
    first = auth_client.sign_in_with_idp(limited)
    assert (first.provider_id, first.email, first.display_name) == ("facebook.com", email, "Fay Book")
    classic = providers.facebook.mint(email, picture="https://example.com/fay.png")
    assert providers.facebook.me(classic.access_token, ["picture"])["picture"]["data"]["url"] == \
        "https://example.com/fay.png"
    again = auth_client.sign_in_with_idp(providers.facebook.classic_post_body(classic))
    assert again.uid == first.uid and not again.is_new_user


@pytest.mark.parametrize("idp", ["google.com", "yahoo.com", "oidc.example"])
def test_other_providers_take_the_raw_nonce(providers, auth_client, idp):
    provider = providers.oidc(idp)
    minted = provider.mint(unique_email(), nonce="raw")
    assert minted.claims["nonce"] == "raw"
    assert auth_client.sign_in_with_idp(minted).provider_id == idp


def test_rotated_keys_keep_old_tokens_valid(providers, auth_client):
    old = providers.google.mint(unique_email())
    kid = providers.google.rotate_keys()
    assert kid in [key["kid"] for key in providers.google.jwks()["keys"]]
    new = providers.google.mint(unique_email())
    assert json.loads(base64.urlsafe_b64decode(new.id_token.split(".")[0] + "=="))["kid"] == kid
    assert auth_client.sign_in_with_idp(old).uid and auth_client.sign_in_with_idp(new).uid
    assert providers.google.discovery()["issuer"] == "https://accounts.google.com"


def test_revocations_read_back(apple, auth_client, auth_emulator):
    minted = apple.mint(unique_email())
    signed_in = auth_client.sign_in_with_idp(minted)
    auth_client.revoke_apple_token(signed_in.id_token, minted)
    [revocation] = [entry for entry in apple.revocations() if entry.authorization_code == minted.authorization_code]
    assert revocation.sub == minted.sub and revocation.project_id == auth_emulator.project_id
    with pytest.raises(EmulatorError) as again:
        auth_client.revoke_apple_token(signed_in.id_token, minted)
    assert again.value.code == "INVALID_IDP_RESPONSE"


def test_headful_sign_in_through_the_page_without_javascript(auth_client):
    email = unique_email("yahoo")
    signed_in = auth_client.headful_sign_in("yahoo.com", email, "Yahoo Person")
    assert (signed_in.provider_id, signed_in.email, signed_in.display_name) == ("yahoo.com", email, "Yahoo Person")
    assert claims_of(signed_in.id_token)["firebase"]["sign_in_provider"] == "yahoo.com"
    again = auth_client.headful_sign_in("yahoo.com", email, "Yahoo Person")
    assert again.uid == signed_in.uid and not again.is_new_user


def test_game_center(providers, auth_client):
    minted = providers.game_center("G:1234567890", display_name="Player One", bundle_id="com.example.game")
    assert minted["playerId"] == "G:1234567890" and minted["bundleId"] == "com.example.game"
    signed_in = auth_client.sign_in_with_game_center(minted)
    assert signed_in.is_new_user and claims_of(signed_in.id_token)["firebase"]["sign_in_provider"] == "gc.apple.com"
    again = auth_client.sign_in_with_game_center(providers.game_center("G:1234567890", bundle_id="com.example.game"))
    assert again.uid == signed_in.uid and not again.is_new_user


def test_headful_apple_with_a_hidden_email(auth_client, apple):
    email = unique_email("web-apple")
    signed_in = auth_client.headful_sign_in("apple.com", email, "Web Apple", hide_email=True)
    assert signed_in.email.endswith("@privaterelay.appleid.com")
    assert apple.relay_address(signed_in.email).forward_to == email
