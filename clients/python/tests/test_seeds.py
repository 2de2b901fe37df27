"""The seeds' flows written with the kit, checked with the real firebase-admin as a backend would.
Each is what Tests/python does with raw HTTP (the report beside the kit compares their lengths)."""

import pytest
from firebase_admin import auth

from auth_emulator import Delivery


def test_sign_in_with_apple_nonce_hidden_email_and_relay_forwarding(apple, auth_client, outbox, admin_app):
    minted = apple.mint("ada@example.com", hide_email=True, nonce="raw-nonce-1")
    user = auth_client.sign_in_with_idp(minted)
    assert auth.get_user(user.uid, app=admin_app).email == minted.email != "ada@example.com"
    auth_client.send_email_verification(user.id_token)
    relayed = outbox.wait_for(minted.email)
    assert relayed.delivery == Delivery("relayed", forwarded_to="ada@example.com")
    apple.set_forwarding(minted.email, False)
    auth_client.send_email_verification(user.id_token)
    bounced = outbox.wait_for(minted.email, after=relayed, status="bounced")
    assert bounced.delivery.reason.startswith("Forwarding off:")


def test_email_link_sign_in(auth_client, outbox, admin_app):
    auth_client.send_sign_in_link("dan@example.com", "https://app.example.com/done", canHandleCodeInApp=True,
                                  iOSBundleId="com.example.app")
    message = outbox.wait_for("dan@example.com")
    user = auth_client.complete_email_link(message.app_link, "dan@example.com")
    assert user.is_new_user and auth.verify_id_token(user.id_token, app=admin_app)["email"] == "dan@example.com"


def test_facebook_limited_login(providers, auth_client, admin_app):
    minted = providers.facebook.mint("fay@example.com", name="Fay Book", nonce="raw-nonce-2")
    user = auth_client.sign_in_with_idp(minted)
    record = auth.get_user(user.uid, app=admin_app)
    assert record.display_name == "Fay Book"
    assert [(p.provider_id, p.uid) for p in record.provider_data] == [("facebook.com", minted.sub)]


def test_yahoo_through_the_headful_page_without_javascript(auth_client, admin_app):
    user = auth_client.headful_sign_in("yahoo.com", "yo@example.com", "Yahoo Person")
    record = auth.get_user(user.uid, app=admin_app)
    assert (record.email, record.display_name) == ("yo@example.com", "Yahoo Person")
    assert [p.provider_id for p in record.provider_data] == ["yahoo.com"]


def test_apple_token_revoked_before_the_account_is_deleted(apple, auth_client, admin_app):
    minted = apple.mint("del@example.com")
    user = auth_client.sign_in_with_idp(minted)
    auth_client.revoke_apple_token(user.id_token, minted)
    assert [(r.sub, r.authorization_code) for r in apple.revocations()] == [(minted.sub, minted.authorization_code)]
    auth.delete_user(user.uid, app=admin_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(user.uid, app=admin_app)


def test_totp_second_factor(users, auth_client, admin_app):
    users.create("tess@example.com", "secret123", email_verified=True)
    signed_in = auth_client.sign_in_with_password("tess@example.com", "secret123")
    factor = auth_client.enroll_totp(signed_in.id_token)
    pending = auth_client.sign_in_with_password("tess@example.com", "secret123")
    assert pending.needs_second_factor and pending.mfa_info[0]["mfaEnrollmentId"] == factor.enrollment_id
    done = auth_client.finish_totp_sign_in(pending, factor)
    claims = auth.verify_id_token(done.id_token, app=admin_app)
    assert claims["firebase"]["sign_in_second_factor"] == "totp" and claims["uid"] == signed_in.uid
