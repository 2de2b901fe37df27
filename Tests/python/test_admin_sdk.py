"""The real firebase-admin SDK (emulator mode) against the real auth-emulator binary.

Client-side steps (sign-in, refresh) are plain HTTP calls, as an app's client SDK makes them.
"""

import time

import pytest
from firebase_admin import auth

from conftest import PROJECT_ID
from emulator_client import assert_error, decode_jwt

PHONE = "+15555550100"
OTHER_PHONE = "+15555550101"


def now_ms():
    return int(time.time() * 1000)


def sleep_past_second_of(seconds):
    """Sleeps until the wall clock is in a later whole second than `seconds` (an `iat`).

    validSince has one-second resolution and revocation is strict (`iat < validSince`), so a
    revocation in the same second as the sign-in would not revoke that token.
    """
    delay = seconds + 1 - time.time()
    if delay > 0:
        time.sleep(delay + 0.05)


def create_password_user(uid="user-1", email="user1@example.com", password="password-1", **extra):
    return auth.create_user(uid=uid, email=email, password=password, **extra)


# 1 -------------------------------------------------------------------------------------------

def test_create_user_and_look_it_up_by_uid_email_and_phone(client):
    before = now_ms()
    created = auth.create_user(
        uid="alice-uid", email="Alice.Liddell@Example.COM", password="rabbit-hole",
        display_name="Alice Liddell", phone_number=PHONE, email_verified=True)
    after = now_ms()

    assert created.uid == "alice-uid"
    by_uid = auth.get_user("alice-uid")
    by_email = auth.get_user_by_email("ALICE.liddell@example.com")
    by_phone = auth.get_user_by_phone_number(PHONE)

    for user in (created, by_uid, by_email, by_phone):
        assert user.uid == "alice-uid"
        assert user.email == "alice.liddell@example.com"  # stored lower-cased
        assert user.display_name == "Alice Liddell"
        assert user.phone_number == PHONE
        assert user.email_verified is True
        assert user.disabled is False
        assert user.photo_url is None
        assert user.custom_claims is None
        assert user.tenant_id is None

        created_at = user.user_metadata.creation_timestamp
        assert isinstance(created_at, int) and created_at > 0
        assert before - 1000 <= created_at <= after + 1000

        providers = {info.provider_id: info for info in user.provider_data}
        assert set(providers) == {"password", "phone"}
        assert providers["password"].uid == "alice.liddell@example.com"
        assert providers["password"].email == "alice.liddell@example.com"
        assert providers["password"].display_name == "Alice Liddell"
        assert providers["phone"].uid == PHONE
        assert providers["phone"].phone_number == PHONE

    # The password was stored: the user can sign in with it (email matched case-insensitively).
    signed_in = client.sign_in_with_password_ok("alice.LIDDELL@example.com", "rabbit-hole")
    assert signed_in["localId"] == "alice-uid"

    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("no-such-uid")
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("nobody@example.com")
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_phone_number("+15555550199")


def test_user_record_wire_types_match_what_the_sdks_parse(client):
    """createdAt/lastLoginAt are strings of milliseconds, validSince a string of seconds."""
    create_password_user()
    before_sign_in = now_ms()
    client.sign_in_with_password_ok("user1@example.com", "password-1")
    response = client.admin_call("lookup", {"localId": ["user-1"]})
    assert response.status_code == 200, response.text
    record = response.json()["users"][0]
    assert isinstance(record["createdAt"], str) and record["createdAt"].isdigit()
    assert abs(int(record["createdAt"]) - now_ms()) < 60_000
    assert isinstance(record["lastLoginAt"], str) and record["lastLoginAt"].isdigit()
    assert before_sign_in - 1000 <= int(record["lastLoginAt"]) <= now_ms() + 1000
    metadata = auth.get_user("user-1").user_metadata
    assert metadata.last_sign_in_timestamp == int(record["lastLoginAt"])
    assert metadata.creation_timestamp == int(record["createdAt"])
    assert isinstance(record["validSince"], str) and record["validSince"].isdigit()
    assert abs(int(record["validSince"]) - time.time()) < 60

    # The Python SDK sends validSince as a JSON number, others as a string: both are accepted.
    for sent, stored in ((1700000000, "1700000000"), ("1700000001", "1700000001")):
        response = client.admin_call("update", {"localId": "user-1", "validSince": sent})
        assert response.status_code == 200, response.text
        record = client.admin_call("lookup", {"localId": ["user-1"]}).json()["users"][0]
        assert record["validSince"] == stored
        assert auth.get_user("user-1").tokens_valid_after_timestamp == int(stored) * 1000

    # Nothing matched: 200 with no `users` key (the SDK raises UserNotFoundError itself).
    response = client.admin_call("lookup", {"localId": ["no-such-uid"]})
    assert response.status_code == 200, response.text
    assert "users" not in response.json()


# 2 -------------------------------------------------------------------------------------------

def test_duplicate_uid_email_and_phone_are_refused(client):
    create_password_user(uid="taken-uid", email="taken@example.com", phone_number=PHONE)

    with pytest.raises(auth.UidAlreadyExistsError):
        auth.create_user(uid="taken-uid", email="fresh1@example.com")
    with pytest.raises(auth.EmailAlreadyExistsError):
        auth.create_user(uid="fresh-uid-2", email="TAKEN@example.com")
    with pytest.raises(auth.PhoneNumberAlreadyExistsError):
        auth.create_user(uid="fresh-uid-3", phone_number=PHONE)

    # A refused request writes nothing.
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("fresh1@example.com")
    for uid in ("fresh-uid-2", "fresh-uid-3"):
        with pytest.raises(auth.UserNotFoundError):
            auth.get_user(uid)
    original = auth.get_user("taken-uid")
    assert original.email == "taken@example.com"
    assert original.phone_number == PHONE

    # Updating another user onto a taken email or phone is refused the same way.
    auth.create_user(uid="second-uid", email="second@example.com", phone_number=OTHER_PHONE)
    with pytest.raises(auth.EmailAlreadyExistsError):
        auth.update_user("second-uid", email="taken@example.com")
    with pytest.raises(auth.PhoneNumberAlreadyExistsError):
        auth.update_user("second-uid", phone_number=PHONE)
    second = auth.get_user("second-uid")
    assert second.email == "second@example.com"
    assert second.phone_number == OTHER_PHONE


# 3 -------------------------------------------------------------------------------------------

def test_update_user_sets_and_removes_fields(client):
    create_password_user(uid="upd", email="before@example.com", password="old-password",
                         display_name="Before", phone_number=PHONE, email_verified=False)

    updated = auth.update_user(
        "upd", display_name="After", photo_url="https://example.com/after.png",
        email="After@Example.com", email_verified=True, disabled=True, password="new-password")
    for user in (updated, auth.get_user("upd")):
        assert user.display_name == "After"
        assert user.photo_url == "https://example.com/after.png"
        assert user.email == "after@example.com"
        assert user.email_verified is True
        assert user.disabled is True
        assert user.phone_number == PHONE
        providers = {info.provider_id: info for info in user.provider_data}
        assert set(providers) == {"password", "phone"}
        assert providers["password"].uid == "after@example.com"
        assert providers["password"].display_name == "After"
        assert providers["password"].photo_url == "https://example.com/after.png"

    assert auth.get_user_by_email("after@example.com").uid == "upd"
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("before@example.com")

    assert_error(client.sign_in_with_password("after@example.com", "new-password"), 400, "USER_DISABLED")
    auth.update_user("upd", disabled=False)
    assert client.sign_in_with_password_ok("after@example.com", "new-password")["localId"] == "upd"
    assert_error(client.sign_in_with_password("after@example.com", "old-password"), 400, "INVALID_PASSWORD")

    removed = auth.update_user("upd", display_name=auth.DELETE_ATTRIBUTE,
                               phone_number=auth.DELETE_ATTRIBUTE)
    for user in (removed, auth.get_user("upd")):
        assert user.display_name is None
        assert user.phone_number is None
        assert user.photo_url == "https://example.com/after.png"
        assert user.email == "after@example.com"
        assert [info.provider_id for info in user.provider_data] == ["password"]
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_phone_number(PHONE)

    auth.update_user("upd", photo_url=auth.DELETE_ATTRIBUTE)
    assert auth.get_user("upd").photo_url is None

    # The freed phone number can be given to someone else.
    assert auth.create_user(uid="new-owner", phone_number=PHONE).phone_number == PHONE


def test_update_of_unknown_user_raises_user_not_found(client):
    with pytest.raises(auth.UserNotFoundError):
        auth.update_user("no-such-uid", display_name="Nobody")


# 4 -------------------------------------------------------------------------------------------

def test_delete_user(client):
    create_password_user(uid="doomed", email="doomed@example.com", phone_number=PHONE)

    auth.delete_user("doomed")

    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("doomed")
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("doomed@example.com")
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_phone_number(PHONE)
    with pytest.raises(auth.UserNotFoundError):
        auth.delete_user("doomed")

    # A deleted user's refresh token stops working.
    signed_up = client.sign_up("gone@example.com", "password-1")
    auth.delete_user(signed_up["localId"])
    assert_error(client.call("lookup", {"idToken": signed_up["idToken"]}), 400, "USER_NOT_FOUND")
    assert_error(client.refresh_form(signed_up["refreshToken"]), 400, "USER_NOT_FOUND")
    assert_error(client.refresh_json(signed_up["refreshToken"]), 400, "USER_NOT_FOUND")

    # The raw answer carries the non-empty `kind` the SDK insists on.
    auth.create_user(uid="raw-delete")
    response = client.admin_call("delete", {"localId": "raw-delete"})
    assert response.status_code == 200, response.text
    assert response.json()["kind"] == "identitytoolkit#DeleteAccountResponse"

    # The uid, email and phone are free again.
    again = auth.create_user(uid="doomed", email="doomed@example.com", phone_number=PHONE)
    assert (again.uid, again.email, again.phone_number) == ("doomed", "doomed@example.com", PHONE)


# 5 -------------------------------------------------------------------------------------------

def test_custom_claims(client):
    create_password_user(uid="claims-uid", email="claims@example.com", password="password-1")

    auth.set_custom_user_claims("claims-uid", {"admin": True, "level": 3})
    assert auth.get_user("claims-uid").custom_claims == {"admin": True, "level": 3}

    signed_in = client.sign_in_with_password_ok("claims@example.com", "password-1")
    decoded = auth.verify_id_token(signed_in["idToken"])
    assert decoded["uid"] == "claims-uid"
    assert decoded["admin"] is True
    assert decoded["level"] == 3
    _, payload, _ = decode_jwt(signed_in["idToken"])
    assert payload["admin"] is True and payload["level"] == 3  # top level, not nested

    auth.set_custom_user_claims("claims-uid", None)
    assert auth.get_user("claims-uid").custom_claims is None
    fresh = client.sign_in_with_password_ok("claims@example.com", "password-1")
    decoded = auth.verify_id_token(fresh["idToken"])
    assert "admin" not in decoded and "level" not in decoded

    # Reserved claims: the SDK refuses them client-side...
    with pytest.raises(ValueError):
        auth.set_custom_user_claims("claims-uid", {"sub": "x"})
    # ...and the server refuses them too, changing nothing.
    auth.set_custom_user_claims("claims-uid", {"admin": True})
    response = client.admin_call("update", {"localId": "claims-uid", "customAttributes": '{"sub":"x"}'})
    assert_error(response, 400, "FORBIDDEN_CLAIM : sub")
    assert auth.get_user("claims-uid").custom_claims == {"admin": True}


# 6 -------------------------------------------------------------------------------------------

def test_custom_token_sign_in(client):
    token = auth.create_custom_token("custom-uid", {"premium": True})
    token = token.decode("ascii") if isinstance(token, bytes) else token

    first = client.call_ok("signInWithCustomToken", {"token": token, "returnSecureToken": True})
    assert first["isNewUser"] is True
    assert first["expiresIn"] == "3600"
    assert first["refreshToken"]

    decoded = auth.verify_id_token(first["idToken"])
    assert decoded["uid"] == "custom-uid"
    assert decoded["sub"] == "custom-uid"
    assert decoded["premium"] is True
    assert decoded["firebase"]["sign_in_provider"] == "custom"

    user = auth.get_user("custom-uid")
    assert user.email is None
    assert user.custom_claims is None  # developer claims live in the tokens, not on the user

    second = client.call_ok("signInWithCustomToken", {"token": token, "returnSecureToken": True})
    assert second["isNewUser"] is False
    assert auth.verify_id_token(second["idToken"])["uid"] == "custom-uid"

    # Claims stored on the user appear too; the custom token's claims win over them.
    auth.set_custom_user_claims("custom-uid", {"premium": False, "tier": "gold"})
    third = client.call_ok("signInWithCustomToken", {"token": token, "returnSecureToken": True})
    merged = auth.verify_id_token(third["idToken"])
    assert merged["premium"] is True
    assert merged["tier"] == "gold"

    for refresh in (client.refresh_form, client.refresh_json):
        response = refresh(first["refreshToken"])
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["user_id"] == "custom-uid"
        assert body["expires_in"] == "3600"
        assert body["token_type"] == "Bearer"
        assert body["access_token"] == body["id_token"]
        assert body["refresh_token"]
        refreshed = auth.verify_id_token(body["id_token"])
        assert refreshed["uid"] == "custom-uid"
        assert refreshed["premium"] is True
        assert refreshed["tier"] == "gold"  # minted from the current user record
        assert refreshed["firebase"]["sign_in_provider"] == "custom"


# 7 -------------------------------------------------------------------------------------------

def test_revoke_refresh_tokens(client):
    create_password_user(uid="revoked-uid", email="revoked@example.com", password="password-1")
    signed_in = client.sign_in_with_password_ok("revoked@example.com", "password-1")
    old_id_token, old_refresh_token = signed_in["idToken"], signed_in["refreshToken"]

    decoded = auth.verify_id_token(old_id_token, check_revoked=True)
    assert decoded["uid"] == "revoked-uid"
    refresh = client.refresh_form(old_refresh_token)
    assert refresh.status_code == 200, refresh.text

    sleep_past_second_of(decoded["iat"])
    auth.revoke_refresh_tokens("revoked-uid")

    valid_after_ms = auth.get_user("revoked-uid").tokens_valid_after_timestamp
    assert valid_after_ms % 1000 == 0
    assert valid_after_ms // 1000 > decoded["iat"]

    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(old_id_token, check_revoked=True)
    # Without the revocation check the token still parses (no server call).
    assert auth.verify_id_token(old_id_token)["uid"] == "revoked-uid"

    # The server refuses the revoked ID token wherever a client sends it.
    assert_error(client.call("lookup", {"idToken": old_id_token}), 400, "TOKEN_EXPIRED")

    # Production (and this emulator, unlike the official one) revokes refresh tokens too.
    assert_error(client.refresh_form(old_refresh_token), 400, "TOKEN_EXPIRED")
    assert_error(client.refresh_json(old_refresh_token), 400, "TOKEN_EXPIRED")

    fresh = client.sign_in_with_password_ok("revoked@example.com", "password-1")
    assert auth.verify_id_token(fresh["idToken"], check_revoked=True)["uid"] == "revoked-uid"
    refreshed = client.refresh_json(fresh["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    assert auth.verify_id_token(refreshed.json()["id_token"], check_revoked=True)["uid"] == "revoked-uid"


def test_password_change_revokes_older_sessions_but_not_the_new_one(client):
    signed_up = client.sign_up("change@example.com", "password-1")
    uid = signed_up["localId"]
    _, claims, _ = decode_jwt(signed_up["idToken"])

    sleep_past_second_of(claims["iat"])
    changed = client.call_ok("update", {"idToken": signed_up["idToken"], "password": "password-2",
                                        "returnSecureToken": True})
    assert changed["localId"] == uid
    assert changed["idToken"] and changed["refreshToken"]

    assert_error(client.refresh_form(signed_up["refreshToken"]), 400, "TOKEN_EXPIRED")
    assert_error(client.call("lookup", {"idToken": signed_up["idToken"]}), 400, "TOKEN_EXPIRED")
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(signed_up["idToken"], check_revoked=True)

    assert auth.verify_id_token(changed["idToken"], check_revoked=True)["uid"] == uid
    refreshed = client.refresh_json(changed["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    assert auth.verify_id_token(refreshed.json()["id_token"], check_revoked=True)["uid"] == uid


# 8 -------------------------------------------------------------------------------------------

def test_disabled_user(client):
    create_password_user(uid="disabled-uid", email="disabled@example.com", password="password-1")
    signed_in = client.sign_in_with_password_ok("disabled@example.com", "password-1")
    assert auth.verify_id_token(signed_in["idToken"], check_revoked=True)["uid"] == "disabled-uid"

    auth.update_user("disabled-uid", disabled=True)
    assert auth.get_user("disabled-uid").disabled is True

    with pytest.raises(auth.UserDisabledError):
        auth.verify_id_token(signed_in["idToken"], check_revoked=True)
    assert_error(client.sign_in_with_password("disabled@example.com", "password-1"), 400, "USER_DISABLED")
    assert_error(client.call("lookup", {"idToken": signed_in["idToken"]}), 400, "USER_DISABLED")
    assert_error(client.refresh_form(signed_in["refreshToken"]), 400, "USER_DISABLED")
    assert_error(client.refresh_json(signed_in["refreshToken"]), 400, "USER_DISABLED")
    custom_token = auth.create_custom_token("disabled-uid").decode("ascii")
    assert_error(client.call("signInWithCustomToken", {"token": custom_token, "returnSecureToken": True}),
                 400, "USER_DISABLED")

    auth.update_user("disabled-uid", disabled=False)
    assert auth.get_user("disabled-uid").disabled is False
    again = client.sign_in_with_password_ok("disabled@example.com", "password-1")
    assert auth.verify_id_token(again["idToken"], check_revoked=True)["uid"] == "disabled-uid"


# 9 -------------------------------------------------------------------------------------------

def test_id_token_shape(client):
    signed_up = client.sign_up("shape@example.com", "password-1")
    uid = signed_up["localId"]
    token = signed_up["idToken"]

    assert token.endswith(".")
    segments = token.split(".")
    assert len(segments) == 3 and segments[2] == ""
    assert all("=" not in segment for segment in segments[:2])  # base64url without padding

    header, claims, signature = decode_jwt(token)
    assert header == {"alg": "none", "typ": "JWT"}
    assert signature == ""

    assert claims["iss"] == f"https://securetoken.google.com/{PROJECT_ID}"
    assert claims["aud"] == PROJECT_ID
    assert claims["sub"] == claims["user_id"] == uid
    assert claims["email"] == "shape@example.com"
    assert claims["email_verified"] is False
    for name in ("auth_time", "iat", "exp"):
        assert isinstance(claims[name], int), (name, claims[name])
    assert abs(claims["iat"] - time.time()) < 60
    assert claims["auth_time"] <= claims["iat"]
    assert claims["exp"] == claims["iat"] + 3600
    assert claims["firebase"]["identities"] == {"email": ["shape@example.com"]}
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert "provider_id" not in claims

    decoded = auth.verify_id_token(token, check_revoked=True)
    assert decoded["uid"] == uid
    assert signed_up["expiresIn"] == "3600"

    # A phone number shows up as an identity of its own.
    auth.update_user(uid, phone_number=PHONE)
    _, claims, _ = decode_jwt(client.sign_in_with_password_ok("shape@example.com", "password-1")["idToken"])
    assert claims["phone_number"] == PHONE
    assert claims["firebase"]["identities"] == {"email": ["shape@example.com"], "phone": [PHONE]}


# 10 ------------------------------------------------------------------------------------------

def test_get_users_reports_found_and_not_found(client):
    auth.create_user(uid="uid-a", email="a@example.com", phone_number=PHONE)
    auth.create_user(uid="uid-b", email="b@example.com")
    auth.create_user(uid="uid-c", phone_number=OTHER_PHONE)

    result = auth.get_users([
        auth.UidIdentifier("uid-a"),
        auth.EmailIdentifier("b@example.com"),  # the SDK matches not_found emails case-sensitively
        auth.PhoneIdentifier(OTHER_PHONE),
        auth.EmailIdentifier("a@example.com"),  # uid-a again, by email
        auth.UidIdentifier("missing-uid"),
        auth.EmailIdentifier("missing@example.com"),
        auth.PhoneIdentifier("+15555550199"),
    ])

    assert sorted(user.uid for user in result.users) == ["uid-a", "uid-b", "uid-c"]
    by_uid = {user.uid: user for user in result.users}
    assert by_uid["uid-a"].email == "a@example.com" and by_uid["uid-a"].phone_number == PHONE
    assert by_uid["uid-b"].email == "b@example.com"
    assert by_uid["uid-c"].phone_number == OTHER_PHONE

    not_found = sorted((type(identifier).__name__, _identifier_value(identifier))
                       for identifier in result.not_found)
    assert not_found == [
        ("EmailIdentifier", "missing@example.com"),
        ("PhoneIdentifier", "+15555550199"),
        ("UidIdentifier", "missing-uid"),
    ]

    nothing = auth.get_users([auth.UidIdentifier("missing-uid")])
    assert nothing.users == []
    assert [_identifier_value(identifier) for identifier in nothing.not_found] == ["missing-uid"]


def _identifier_value(identifier):
    for attribute in ("uid", "email", "phone_number"):
        if hasattr(identifier, attribute):
            return getattr(identifier, attribute)
    raise AssertionError(f"unknown identifier {identifier!r}")


# 11 ------------------------------------------------------------------------------------------

def test_anonymous_sign_up(client):
    signed_up = client.sign_up()
    uid = signed_up["localId"]
    assert uid and "email" not in signed_up

    user = auth.get_user(uid)
    assert user.uid == uid
    assert user.email is None
    assert user.phone_number is None
    assert user.provider_data == []
    assert user.user_metadata.creation_timestamp > 0

    decoded = auth.verify_id_token(signed_up["idToken"], check_revoked=True)
    assert decoded["uid"] == uid
    assert decoded["provider_id"] == "anonymous"
    assert decoded["firebase"]["sign_in_provider"] == "anonymous"
    assert decoded["firebase"]["identities"] == {}

    refreshed = client.refresh_form(signed_up["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    _, claims, _ = decode_jwt(refreshed.json()["id_token"])
    assert claims["provider_id"] == "anonymous"
    assert claims["firebase"]["sign_in_provider"] == "anonymous"


# The credential ------------------------------------------------------------------------------

def test_sdk_never_asks_for_the_app_credential(client, offline_credential):
    """In emulator mode the SDK sends `Bearer owner` and signs nothing: the credential is unused."""
    asked_before = offline_credential.requests
    create_password_user(uid="cred-uid", email="cred@example.com", password="password-1")
    auth.get_user("cred-uid")
    auth.set_custom_user_claims("cred-uid", {"role": "x"})
    token = auth.create_custom_token("cred-uid")
    header, _, signature = decode_jwt(token.decode("ascii") if isinstance(token, bytes) else token)
    assert header["alg"] == "none" and signature == ""
    signed_in = client.sign_in_with_password_ok("cred@example.com", "password-1")
    auth.verify_id_token(signed_in["idToken"], check_revoked=True)
    auth.revoke_refresh_tokens("cred-uid")
    auth.delete_user("cred-uid")
    # Only these calls are counted: the SDK's tenant client asks for the credential on creation
    # (whoever runs first in the session), but none of the calls above does.
    assert offline_credential.requests == asked_before


def test_an_account_an_admin_creates_has_no_last_sign_in_until_it_signs_in(client):
    """Production's answer (the official emulator stamps admin creation too)."""
    create_password_user(uid="never-signed-in", email="never@example.com")
    assert auth.get_user("never-signed-in").user_metadata.last_sign_in_timestamp is None
    result = auth.import_users([auth.ImportUserRecord(uid="imported-no-login", email="imported@example.com")])
    assert result.success_count == 1
    assert auth.get_user("imported-no-login").user_metadata.last_sign_in_timestamp is None

    before = now_ms()
    client.sign_in_with_password_ok("never@example.com", "password-1")
    signed_in = auth.get_user("never-signed-in").user_metadata.last_sign_in_timestamp
    assert before - 1000 <= signed_in <= now_ms() + 1000
