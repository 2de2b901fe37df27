"""More firebase-admin calls that SDK users rely on: listing, session cookies, import/bulk delete,
email action links.

Each test's first SDK call skips the test while the emulator answers it with 501
(NOT_IMPLEMENTED), as the reference notes do for features an emulator may lack; once the
operation exists the test runs a real round trip. Expectations come from
shared/reference/firebase-tools-auth-emulator.md and admin-sdk-wire.md.
"""

import datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from firebase_admin import auth, exceptions

from conftest import PROJECT_ID
from emulator_client import assert_error, decode_jwt

PHONE = "+15555550100"


def skip_if_not_implemented(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except exceptions.FirebaseError as error:
        response = error.http_response
        if response is not None and response.status_code == 501:
            pytest.skip(f"the emulator answers 501 to {call.__name__}: {error}")
        raise


def test_list_users_pages_in_uid_order(client):
    for uid in ("user-c", "user-a", "user-e", "user-b", "user-d"):
        auth.create_user(uid=uid, email=f"{uid}@example.com")

    page = skip_if_not_implemented(auth.list_users, max_results=2)
    assert [user.uid for user in page.users] == ["user-a", "user-b"]
    assert page.has_next_page
    page = page.get_next_page()
    assert [user.uid for user in page.users] == ["user-c", "user-d"]
    assert page.has_next_page
    page = page.get_next_page()
    assert [user.uid for user in page.users] == ["user-e"]
    assert not page.has_next_page

    everyone = list(auth.list_users().iterate_all())
    assert [user.uid for user in everyone] == ["user-a", "user-b", "user-c", "user-d", "user-e"]
    assert everyone[0].email == "user-a@example.com"


def test_session_cookie(client):
    client.sign_up("cookie@example.com", "password-1")
    signed_in = client.sign_in_with_password_ok("cookie@example.com", "password-1")
    uid = signed_in["localId"]

    cookie = skip_if_not_implemented(auth.create_session_cookie, signed_in["idToken"],
                                     expires_in=datetime.timedelta(minutes=5))
    cookie = cookie.decode("ascii") if isinstance(cookie, bytes) else cookie
    header, claims, signature = decode_jwt(cookie)
    assert header["alg"] == "none" and signature == ""
    assert claims["iss"] == f"https://session.firebase.google.com/{PROJECT_ID}"
    assert claims["aud"] == PROJECT_ID
    assert claims["sub"] == claims["user_id"] == uid
    assert claims["exp"] == claims["iat"] + 300
    assert claims["email"] == "cookie@example.com"
    assert claims["firebase"]["sign_in_provider"] == "password"

    assert auth.verify_session_cookie(cookie, check_revoked=True)["uid"] == uid

    # validDuration outside [300 s, 14 days] is refused by the server (the SDK sends a number).
    response = client.request("POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT_ID}:createSessionCookie",
                              headers={"Authorization": "Bearer owner"},
                              json={"idToken": signed_in["idToken"], "validDuration": 299})
    assert_error(response, 400, "INVALID_DURATION")

    auth.update_user(uid, disabled=True)
    with pytest.raises(auth.UserDisabledError):
        auth.verify_session_cookie(cookie, check_revoked=True)


def test_import_users_and_delete_users(client):
    auth.create_user(uid="existing", email="taken@example.com")

    result = skip_if_not_implemented(auth.import_users, [
        auth.ImportUserRecord(
            uid="imp-1", email="Imp1@Example.com", display_name="Imported One", email_verified=True,
            custom_claims={"role": "editor"},
            user_metadata=auth.UserMetadata(creation_timestamp=1_600_000_000_000,
                                            last_sign_in_timestamp=1_600_000_100_000)),
        auth.ImportUserRecord(uid="imp-2", phone_number=PHONE, disabled=True),
        auth.ImportUserRecord(uid="imp-3", email="taken@example.com"),  # another account's email
    ])
    assert result.success_count == 2
    assert result.failure_count == 1
    assert [error.index for error in result.errors] == [2]

    one = auth.get_user("imp-1")
    assert one.email == "imp1@example.com"
    assert one.display_name == "Imported One"
    assert one.email_verified is True
    assert one.custom_claims == {"role": "editor"}
    assert one.user_metadata.creation_timestamp == 1_600_000_000_000
    assert one.user_metadata.last_sign_in_timestamp == 1_600_000_100_000
    two = auth.get_user("imp-2")
    assert two.phone_number == PHONE
    assert two.disabled is True
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("imp-3")

    deleted = auth.delete_users(["imp-1", "imp-2", "never-existed"])
    assert deleted.success_count == 3
    assert deleted.failure_count == 0
    for uid in ("imp-1", "imp-2"):
        with pytest.raises(auth.UserNotFoundError):
            auth.get_user(uid)
    assert auth.get_user("existing").email == "taken@example.com"


def _action_link_query(link, emulator_host):
    parts = urlsplit(link)
    assert parts.scheme == "http" and parts.netloc == emulator_host, link
    assert parts.path == "/emulator/action", link
    return {name: values[0] for name, values in parse_qs(parts.query).items()}


def test_password_reset_and_email_verification_links(client, emulator):
    auth.create_user(uid="links", email="links@example.com", password="password-1")

    settings = auth.ActionCodeSettings(url="https://app.example.com/after-reset")
    link = skip_if_not_implemented(auth.generate_password_reset_link, "Links@Example.com", settings)
    query = _action_link_query(link, emulator.host)
    assert query["mode"] == "resetPassword"
    assert query["oobCode"]
    assert query["continueUrl"] == "https://app.example.com/after-reset"

    reset = client.call_ok("resetPassword", {"oobCode": query["oobCode"], "newPassword": "password-2"})
    assert reset["requestType"] == "PASSWORD_RESET"
    assert reset["email"] == "links@example.com"
    assert client.sign_in_with_password_ok("links@example.com", "password-2")["localId"] == "links"
    assert_error(client.sign_in_with_password("links@example.com", "password-1"), 400, "INVALID_PASSWORD")
    assert_error(client.call("resetPassword", {"oobCode": query["oobCode"], "newPassword": "password-3"}),
                 400, "INVALID_OOB_CODE")

    with pytest.raises(auth.EmailNotFoundError):
        auth.generate_password_reset_link("nobody@example.com")

    auth.update_user("links", email_verified=False)
    link = auth.generate_email_verification_link("links@example.com")
    query = _action_link_query(link, emulator.host)
    assert query["mode"] == "verifyEmail"
    client.call_ok("update", {"oobCode": query["oobCode"]})
    assert auth.get_user("links").email_verified is True

    with pytest.raises(auth.UserNotFoundError):
        auth.generate_email_verification_link("nobody@example.com")
