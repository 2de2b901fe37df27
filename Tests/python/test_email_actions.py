"""Email actions end to end: sendOobCode, the outbox (with long-poll), Apple's private relay,
signInWithEmailLink, resetPassword, applying codes, /emulator/action, and firebase-admin's links.

Bodies are shaped as the Apple SDK sends them (firebase-ios-sdk-auth-wire.md §3.2–§3.4) and go
through both the v1 and the legacy v3 paths. Links are read with the SDK's own parse written out
in Python (`outbox_client.ios_link_items`), never with the server's. Most tests use the session's
emulator and unique addresses, so messages of other tests never match; tests that move the clock,
change project-wide settings, empty the outbox or hold a hundred connections get a binary of
their own (`own`).
"""

import concurrent.futures
import html
import html.parser
import re
import time
import urllib.parse

import pytest
import requests
from firebase_admin import auth

from conftest import PROJECT_ID, start_emulator
from emulator_client import (API_KEY, IDENTITY_TOOLKIT, LEGACY_V3, EmulatorClient, assert_error, decode_jwt,
                             error_of)
from outbox_client import Outbox, ios_is_sign_in_link, ios_oob_code, query_of
from test_federation import (OWNER, Federation, Forms, apple_sub, expect_ok, parse_rfc3339, running_emulator, stop,
                             unique, unique_email)

PASSWORD = "password-1"
CONTINUE_URL = "https://app.example.com/finish?x=1"
BUNDLE_ID = "com.example.app"
IOS_KEY = "ios-api-key"
SENDER = f"noreply@{PROJECT_ID}.firebaseapp.com"
OOB_CODE = re.compile(r"^[A-Za-z0-9_-]{54}$")
HTML_ACCEPT = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
V3_NAMES = {"sendOobCode": "getOobConfirmationCode", "signInWithEmailLink": "emailLinkSignin",
            "resetPassword": "resetPassword", "update": "setAccountInfo", "lookup": "getAccountInfo"}

# requestType → (link mode, subject (EMAIL_SIGNIN: its prefix), lifetime wording, lifetime in seconds)
TYPES = {
    "PASSWORD_RESET": ("resetPassword", f"Reset your password for project-{PROJECT_ID}", "1 hour", 3600),
    "VERIFY_EMAIL": ("verifyEmail", f"Verify your email for project-{PROJECT_ID}", "3 days", 3 * 86400),
    "EMAIL_SIGNIN": ("signIn", f"Sign in to project-{PROJECT_ID} requested at ", "6 hours", 6 * 3600),
    "VERIFY_AND_CHANGE_EMAIL": ("verifyAndChangeEmail", f"Verify your new email for project-{PROJECT_ID}", "3 days",
                                3 * 86400),
    "RECOVER_EMAIL": ("recoverEmail", f"Your sign-in email was changed for project-{PROJECT_ID}", "3 days", 3 * 86400),
}
SENDABLE = ["PASSWORD_RESET", "VERIFY_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL"]
MESSAGE_KEYS = {"id", "projectId", "tenantId", "from", "to", "subject", "text", "html", "requestType", "oobCode", "source",
                "oobLink", "appLink", "continueUrl", "createdAt", "delivery"}


@pytest.fixture
def own():
    """A fresh emulator for this test alone (its clock, outbox and settings are its own)."""
    with running_emulator() as federation:
        yield federation


@pytest.fixture
def outbox(client):
    return Outbox(client)


# Requests, as the Apple SDK (v3) or the web/Android SDKs (v1) send them --------------------------

def rest(client, op, body, *, v3=False, key=API_KEY):
    path = f"{LEGACY_V3}/{V3_NAMES[op]}" if v3 else f"{IDENTITY_TOOLKIT}/accounts:{op}"
    return client.request("POST", path, params={"key": key}, json=body)


def ios_settings(continue_url=CONTINUE_URL, **extra):
    """ActionCodeSettings as the Apple SDK puts them in getOobConfirmationCode (wire §3.2)."""
    return {"continueUrl": continue_url, "iOSBundleId": BUNDLE_ID, "canHandleCodeInApp": True,
            "clientType": "CLIENT_TYPE_IOS", **extra}


def send(client, request_type, *, v3=False, key=API_KEY, **fields):
    return rest(client, "sendOobCode", {"requestType": request_type, **fields}, v3=v3, key=key)


def send_ok(client, request_type, **fields):
    answer = expect_ok(send(client, request_type, **fields), "sendOobCode")
    assert answer["kind"] == "identitytoolkit#GetOobConfirmationCodeResponse", answer
    return answer


def admin_send(client, body, tenant=None):
    scope = f"/tenants/{tenant}" if tenant else ""
    return client.request("POST", f"{IDENTITY_TOOLKIT}/projects/{PROJECT_ID}{scope}/accounts:sendOobCode",
                          headers=OWNER, json=body)


def prepare(client, request_type):
    """(sendOobCode fields, recipient) for a fresh account, with what the Apple SDK sends per type."""
    email = unique_email(request_type.lower())
    if request_type == "EMAIL_SIGNIN":
        return {"email": email}, email
    user = client.sign_up(email, PASSWORD)
    if request_type == "PASSWORD_RESET":
        return {"email": email}, email
    if request_type == "VERIFY_EMAIL":
        return {"idToken": user["idToken"]}, email
    new_email = unique_email("new")
    return {"idToken": user["idToken"], "newEmail": new_email}, new_email


def sign_in_with_link(client, email, code, *, v3=False, **extra):
    return rest(client, "signInWithEmailLink", {"email": email, "oobCode": code, **extra}, v3=v3)


def sign_in_with_link_ok(client, email, code, **kwargs):
    answer = expect_ok(sign_in_with_link(client, email, code, **kwargs), "signInWithEmailLink")
    assert answer["kind"] == "identitytoolkit#EmailLinkSigninResponse", answer
    assert answer["email"] == email.lower() and answer["expiresIn"] == "3600", answer
    assert answer["idToken"] and answer["refreshToken"], answer
    assert decode_jwt(answer["idToken"])[1]["firebase"]["sign_in_provider"] == "password"
    return answer


def admin_user(client, local_id):
    [user] = expect_ok(client.admin_call("lookup", {"localId": [local_id]}))["users"]
    return user


def assert_code_error(response, message):
    assert_error(response, 400, message)


def message_for(outbox, to, request_type=None):
    return outbox.only(to=to, requestType=request_type)


def sign_in_link_message(client, outbox, email=None, **settings):
    email = email or unique_email("link")
    send_ok(client, "EMAIL_SIGNIN", email=email, **ios_settings(**settings))
    # The address is this test's own and the send has been answered: the latest is this one.
    return email, expect_ok(outbox.get("/latest", to=email, requestType="EMAIL_SIGNIN"))


def action_url(link_or_path, **query):
    """An /emulator/action URL: the link's own query with `query` changed (None removes a name)."""
    parts = urllib.parse.urlsplit(link_or_path)
    items = {**query_of(link_or_path), **query}
    items = [(name, value) for name, value in items.items() if value is not None]
    return parts._replace(query=urllib.parse.urlencode(items)).geturl()


def visit(client, url, *, browser=False, **kwargs):
    """GET an action link as curl (JSON) or a browser (Accept: text/html) would, not following redirects."""
    return client.session.get(url, headers=HTML_ACCEPT if browser else {}, allow_redirects=False, timeout=10,
                              **kwargs)


def emulator_json(response, status):
    assert response.status_code == status, f"{response.request.url} -> {response.status_code}: {response.text}"
    body = response.json()
    assert set(body) == {"authEmulator"}, body
    return body["authEmulator"]


# The message itself ----------------------------------------------------------------------------

def expected_oob_link(host, request_type, code, key, continue_url=None, tenant=None):
    query = [("mode", TYPES[request_type][0]), ("lang", "en"), ("oobCode", code), ("apiKey", key)]
    query += [("continueUrl", continue_url)] if continue_url else []
    query += [("tenantId", tenant)] if tenant else []
    return f"http://{host}/emulator/action?{urllib.parse.urlencode(query)}"


def check_message(message, *, host, request_type, to, key=API_KEY, continue_url=None, app=False, tenant=None,
                  delivery=None):
    """Every field of an outbox message, against the contract."""
    assert set(message) == MESSAGE_KEYS, sorted(message)
    mode, subject, lifetime, _ = TYPES[request_type]
    assert isinstance(message["id"], str) and message["id"], message["id"]
    assert (message["projectId"], message["tenantId"]) == (PROJECT_ID, tenant)
    assert (message["from"], message["to"], message["requestType"]) == (SENDER, to.lower(), request_type)
    assert OOB_CODE.match(message["oobCode"]), message["oobCode"]
    created = parse_rfc3339(message["createdAt"])
    assert created.tzinfo is not None and message["createdAt"].endswith("Z"), message["createdAt"]
    if request_type == "EMAIL_SIGNIN":
        assert message["subject"].startswith(subject), message["subject"]
        assert parse_rfc3339(message["subject"][len(subject):]) == created, message["subject"]
    else:
        assert message["subject"] == subject
    assert message["oobLink"] == expected_oob_link(host, request_type, message["oobCode"], key, continue_url, tenant)
    assert message["continueUrl"] == continue_url
    assert message["delivery"] == (delivery or {"status": "delivered", "forwardedTo": None, "reason": None})

    if app:
        app_link = message["appLink"]
        assert app_link.startswith(f"https://{PROJECT_ID}.firebaseapp.com/__/auth/links?link="), app_link
        check_wraps_action_link(app_link, message["oobLink"])
        # The person reading the email clicks the emulator's link; only an app parses appLink.
        assert app_link not in message["text"] and "firebaseapp.com" not in message["html"], message
    else:
        assert message["appLink"] is None
    link = message["oobLink"]
    assert link.startswith(f"http://{host}/emulator/action?"), link
    wording = f"This link expires in {lifetime}"
    assert link in message["text"] and wording in message["text"], message["text"]
    assert f'href="{html.escape(link)}"' in message["html"], message["html"]
    assert link in html.unescape(message["html"]) and wording in message["html"], message["html"]
    # Only a sign-in link is one to the Apple SDK, whichever of the two links the app is given.
    for each in filter(None, [message["oobLink"], message["appLink"]]):
        assert ios_is_sign_in_link(each) == (request_type == "EMAIL_SIGNIN"), each
        if request_type == "EMAIL_SIGNIN":
            assert ios_oob_code(each) == message["oobCode"], each


def check_wraps_action_link(app_link, oob_link):
    """The app link's `link` is the action link (the same URL and parameters, maybe in another order)."""
    inner = query_of(app_link)["link"]
    assert urllib.parse.urlsplit(inner)[:3] == urllib.parse.urlsplit(oob_link)[:3], (inner, oob_link)
    assert query_of(inner) == query_of(oob_link), (inner, oob_link)


# sendOobCode -----------------------------------------------------------------------------------

@pytest.mark.parametrize("v3", [False, True], ids=["v1", "v3"])
@pytest.mark.parametrize("request_type", SENDABLE)
def test_each_request_type_sends_a_message(client, outbox, request_type, v3):
    fields, recipient = prepare(client, request_type)
    if "email" in fields:  # addresses are canonicalised (lower-cased)
        fields["email"] = fields["email"].upper()
    answer = send_ok(client, request_type, v3=v3, key=IOS_KEY, **fields, **ios_settings())
    current = decode_jwt(fields["idToken"])[1]["email"] if "idToken" in fields else fields["email"]
    assert answer == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": current.lower()}
    message = message_for(outbox, recipient)
    check_message(message, host=client.host, request_type=request_type, to=recipient, key=IOS_KEY,
                  continue_url=CONTINUE_URL, app=True)


@pytest.mark.parametrize("request_type", SENDABLE)
def test_without_action_code_settings_there_is_no_app_link(client, outbox, request_type):
    fields, recipient = prepare(client, request_type)
    send_ok(client, request_type, clientType="CLIENT_TYPE_IOS", **fields)
    check_message(message_for(outbox, recipient), host=client.host, request_type=request_type, to=recipient)


def test_the_change_email_message_goes_to_the_new_address_and_answers_the_current_one(client, outbox):
    fields, new_email = prepare(client, "VERIFY_AND_CHANGE_EMAIL")
    current = decode_jwt(fields["idToken"])[1]["email"]
    assert send_ok(client, "VERIFY_AND_CHANGE_EMAIL", **fields)["email"] == current
    assert outbox.messages(to=current) == []
    assert "verify your new email address " + new_email in message_for(outbox, new_email)["text"]


@pytest.mark.parametrize("value, request_type", [(1, "PASSWORD_RESET"), ("4", "VERIFY_EMAIL"), (6, "EMAIL_SIGNIN"),
                                                 ("6", "EMAIL_SIGNIN"), (7, "VERIFY_AND_CHANGE_EMAIL")])
def test_request_types_may_be_numbers(client, outbox, value, request_type):
    fields, recipient = prepare(client, request_type)
    send_ok(client, value, **fields)
    assert message_for(outbox, recipient)["requestType"] == request_type


@pytest.mark.parametrize("value, status, message", [
    (None, 400, "MISSING_REQ_TYPE"), (0, 400, "MISSING_REQ_TYPE"), ("OOB_REQ_TYPE_UNSPECIFIED", 400, "MISSING_REQ_TYPE"),
    ("RECOVER_EMAIL", 501, "RECOVER_EMAIL"), (5, 501, "RECOVER_EMAIL"), ("OLD_EMAIL_AGREE", 501, "OLD_EMAIL_AGREE"),
])
def test_request_types_that_are_missing_or_not_sendable(client, outbox, value, status, message):
    email = unique_email("type")
    body = {"email": email} if value is None else {"requestType": value, "email": email}
    assert_error(rest(client, "sendOobCode", body), status, message)
    assert outbox.messages(to=email) == []


def send_errors(client):
    """(case, body, message) for each refusal of reference §5.1, on fresh accounts."""
    user = client.sign_up(unique_email("has"), PASSWORD)
    other = client.sign_up(unique_email("other"), PASSWORD)
    anonymous = client.sign_up()
    nobody = unique_email("nobody")
    return [
        ("sign-in without email", {"requestType": "EMAIL_SIGNIN"}, "MISSING_EMAIL"),
        ("reset without email", {"requestType": "PASSWORD_RESET"}, "MISSING_EMAIL"),
        ("reset for nobody", {"requestType": "PASSWORD_RESET", "email": nobody}, "EMAIL_NOT_FOUND"),
        ("verify without token", {"requestType": "VERIFY_EMAIL", "email": user["email"]}, "INVALID_ID_TOKEN"),
        ("verify with garbage", {"requestType": "VERIFY_EMAIL", "idToken": "garbage"}, "INVALID_ID_TOKEN"),
        ("verify without email", {"requestType": "VERIFY_EMAIL", "idToken": anonymous["idToken"]}, "MISSING_EMAIL"),
        ("change without newEmail", {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user["idToken"]},
         "MISSING_NEW_EMAIL"),
        ("change without token", {"requestType": "VERIFY_AND_CHANGE_EMAIL", "newEmail": nobody}, "MISSING_ID_TOKEN"),
        ("change to a taken email", {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user["idToken"],
                                     "newEmail": other["email"].upper()}, "EMAIL_EXISTS"),
        ("link without owner", {"requestType": "EMAIL_SIGNIN", "email": nobody, "returnOobLink": True},
         "INSUFFICIENT_PERMISSION"),
        ("relative continueUrl", {"requestType": "EMAIL_SIGNIN", "email": nobody, "continueUrl": "/finish"},
         "INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))"),
    ]


@pytest.mark.parametrize("v3", [False, True], ids=["v1", "v3"])
def test_send_errors_are_the_references_and_send_nothing(client, outbox, v3):
    cases = send_errors(client)
    for case, body, message in cases:
        response = rest(client, "sendOobCode", {**body, "clientType": "CLIENT_TYPE_IOS"}, v3=v3)
        assert response.status_code == 400 and error_of(response)["message"] == message, (case, response.text)
    for _, body, _ in cases:
        for address in filter(None, (body.get("email"), body.get("newEmail"))):
            assert outbox.messages(to=address) == [], address


def test_admin_errors_for_links_of_unknown_users(client):
    for request_type, extra in (("VERIFY_EMAIL", {}), ("VERIFY_AND_CHANGE_EMAIL", {"newEmail": unique_email("n")})):
        body = {"requestType": request_type, "returnOobLink": True, **extra}
        assert_error(admin_send(client, body), 400, "MISSING_EMAIL")
        assert_error(admin_send(client, {**body, "email": unique_email("nobody")}), 400, "USER_NOT_FOUND")


@pytest.mark.parametrize("app", [False, True], ids=["web", "app"])
def test_owner_gets_the_link_back_and_nothing_is_mailed(client, outbox, app):
    """Production mails nothing for a link the backend asked for: the backend mails it itself."""
    email = unique_email("owner")
    client.sign_up(email, PASSWORD)
    settings = ios_settings() if app else {"continueUrl": CONTINUE_URL}
    answer = expect_ok(admin_send(client, {"requestType": "PASSWORD_RESET", "email": email, "returnOobLink": True,
                                           **settings}))
    assert outbox.messages(to=email) == []
    listed = [code for code in official_codes(client) if code["email"] == email]
    # The emulator's link even when the app handles the code (as the official emulator answers).
    assert answer == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": email,
                      "oobCode": listed[0]["oobCode"], "oobLink": listed[0]["oobLink"]}
    assert answer["oobLink"] == official_action_link(client.host, "resetPassword", answer["oobCode"], CONTINUE_URL)


@pytest.mark.parametrize("settings, prefix, extra", [
    ({"linkDomain": "links.example.com"}, "https://links.example.com/__/auth/links?link=", {}),
    ({"dynamicLinkDomain": "example.page.link", "androidPackageName": "com.example.android"},
     "https://example.page.link/?link=", {"apn": "com.example.android", "ibi": BUNDLE_ID}),
], ids=["linkDomain", "dynamicLinkDomain"])
def test_app_link_domains(client, outbox, settings, prefix, extra):
    email, message = sign_in_link_message(client, outbox, **settings)
    app_link = message["appLink"]
    assert app_link.startswith(prefix), app_link
    check_wraps_action_link(app_link, message["oobLink"])
    assert {name: value for name, value in query_of(app_link).items() if name != "link"} == extra
    assert ios_oob_code(app_link) == message["oobCode"]
    assert sign_in_with_link_ok(client, email, ios_oob_code(app_link))["isNewUser"] is True


def test_email_enumeration_protection_hides_unknown_addresses(own):
    client, outbox = own.client, Outbox(own.client)
    expect_ok(client.request("PATCH", f"/emulator/v1/projects/{PROJECT_ID}/config",
                             json={"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}))
    nobody = unique_email("hidden")
    answer = expect_ok(send(client, "PASSWORD_RESET", email=nobody, **ios_settings()))
    assert answer == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": nobody}
    assert outbox.messages() == []
    assert official_codes(client) == []
    # A real account still gets its email.
    client.sign_up(known := unique_email("known"), PASSWORD)
    send_ok(client, "PASSWORD_RESET", email=known)
    assert [message["to"] for message in outbox.messages()] == [known]


def official_codes(client, tenant=None):
    scope = f"/tenants/{tenant}" if tenant else ""
    body = expect_ok(client.request("GET", f"/emulator/v1/projects/{PROJECT_ID}{scope}/oobCodes"))
    assert set(body) == {"oobCodes"}, body
    return body["oobCodes"]


def test_the_official_oob_codes_list_has_unused_codes_in_its_exact_shape(client, outbox):
    sign_in_email, _ = sign_in_link_message(client, outbox)
    fields, new_email = prepare(client, "VERIFY_AND_CHANGE_EMAIL")
    send_ok(client, "VERIFY_AND_CHANGE_EMAIL", **fields)
    sign_in, change = message_for(outbox, sign_in_email), message_for(outbox, new_email)
    codes = {entry["oobCode"]: entry for entry in official_codes(client)}
    assert codes[sign_in["oobCode"]] == {"email": sign_in_email, "requestType": "EMAIL_SIGNIN",
                                         "oobCode": sign_in["oobCode"], "oobLink": sign_in["oobLink"]}
    assert codes[change["oobCode"]] == {"email": decode_jwt(fields["idToken"])[1]["email"], "newEmail": new_email,
                                        "requestType": "VERIFY_AND_CHANGE_EMAIL", "oobCode": change["oobCode"],
                                        "oobLink": change["oobLink"]}
    sign_in_with_link_ok(client, sign_in_email, sign_in["oobCode"])
    assert sign_in["oobCode"] not in {entry["oobCode"] for entry in official_codes(client)}


# Email content ---------------------------------------------------------------------------------

def test_html_escapes_the_display_name_and_text_keeps_it(client, outbox):
    email = unique_email("named")
    user = client.sign_up(email, PASSWORD)
    expect_ok(rest(client, "update", {"idToken": user["idToken"], "displayName": "<b>x</b>", "returnSecureToken": True}))
    send_ok(client, "VERIFY_EMAIL", idToken=user["idToken"], **ios_settings())
    message = message_for(outbox, email)
    assert message["text"].startswith("Hello <b>x</b>,"), message["text"]
    assert "Hello &lt;b&gt;x&lt;/b&gt;," in message["html"], message["html"]
    assert "<b>x</b>" not in message["html"]


def test_the_sign_in_email_names_its_address_and_the_reset_email_the_account(client, outbox):
    email, message = sign_in_link_message(client, outbox)
    assert f"with your {email} account" in message["text"]
    fields, address = prepare(client, "PASSWORD_RESET")
    send_ok(client, "PASSWORD_RESET", **fields)
    assert f"password for your {address} account" in message_for(outbox, address)["text"]


# The outbox API --------------------------------------------------------------------------------

def timed_get(base_url, path, params):
    """One long-poll with its own connection: (response, monotonic time it returned)."""
    response = requests.get(base_url + path, params=params, timeout=float(params.get("waitSeconds", 0)) + 10)
    return response, time.monotonic()


def test_a_waiting_client_gets_the_message_the_moment_it_is_sent(client, outbox):
    email = unique_email("wait")
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        # A wait far longer than any test: answered with the message, it was woken by the send
        # (a wait that ran out answers an empty list), however slowly this machine runs it.
        waiting = pool.submit(timed_get, client.base_url, outbox.path, {"to": email, "waitSeconds": "60"})
        time.sleep(0.4)
        assert not waiting.done(), waiting.result()[0].text
        sent = time.monotonic()
        send_ok(client, "EMAIL_SIGNIN", email=email)
        response, returned = waiting.result(timeout=75)
    assert response.status_code == 200, response.text
    [message] = response.json()["messages"]
    assert message["to"] == email and message == message_for(outbox, email)
    assert returned >= sent


def test_a_wait_with_nothing_arriving_answers_an_empty_list_after_wait_seconds(client, outbox):
    started = time.monotonic()
    response = outbox.get(to=unique_email("nothing"), waitSeconds="1")
    elapsed = time.monotonic() - started
    assert response.status_code == 200 and response.json() == {"messages": []}, response.text
    assert elapsed >= 0.9, elapsed  # it waited; how much longer it took is the machine's business


def test_latest_waits_too_and_answers_404_when_nothing_came(client, outbox):
    email = unique_email("latest")
    started = time.monotonic()
    response = outbox.get("/latest", to=email, waitSeconds="1")
    assert time.monotonic() - started >= 0.9
    assert response.status_code == 404, response.text
    assert error_of(response)["message"].startswith("MESSAGE_NOT_FOUND"), response.text
    send_ok(client, "EMAIL_SIGNIN", email=email)
    # The message is there already: answered with it, not after a wait that ran out (which is a 404).
    response = outbox.get("/latest", to=email, waitSeconds="60")
    assert response.status_code == 200, response.text
    assert response.json() == message_for(outbox, email)


def test_a_hundred_waiting_clients_each_get_their_own_message(own):
    """Waits far longer than the test: each answered with its own message was woken by its send."""
    client, outbox = own.client, Outbox(own.client)
    addresses = [unique_email(f"w{index}") for index in range(100)]
    with concurrent.futures.ThreadPoolExecutor(len(addresses)) as pool:
        waiting = {address: pool.submit(timed_get, client.base_url, outbox.path, {"to": address, "waitSeconds": "60"})
                   for address in addresses}
        time.sleep(1)
        # The server still answers other requests while a hundred wait.
        for _ in range(10):
            user = client.sign_up(unique_email("busy"), PASSWORD)
            expect_ok(client.call("lookup", {"idToken": user["idToken"]}))
        assert not any(future.done() for future in waiting.values()), "a waiter answered before its message"
        sent_at = {}
        for address in addresses:
            sent_at[address] = time.monotonic()
            send_ok(client, "EMAIL_SIGNIN", email=address)
        for address, future in waiting.items():
            response, returned = future.result(timeout=75)
            assert response.status_code == 200, response.text
            assert [message["to"] for message in response.json()["messages"]] == [address]
            assert returned >= sent_at[address]


def test_since_limit_latest_and_by_id(client, outbox):
    email = unique_email("many")
    for _ in range(3):
        send_ok(client, "EMAIL_SIGNIN", email=email)
    newest, middle, oldest = outbox.messages(to=email)
    assert int(newest["id"]) > int(middle["id"]) > int(oldest["id"])
    assert parse_rfc3339(newest["createdAt"]) >= parse_rfc3339(oldest["createdAt"])
    assert [m["id"] for m in outbox.messages(to=email, since=oldest["id"])] == [newest["id"], middle["id"]]
    assert outbox.messages(to=email, since=newest["id"]) == []
    assert outbox.messages(to=email, limit="1") == [newest]
    assert outbox.messages(to=email, since=oldest["id"], limit="1") == [newest]
    assert expect_ok(outbox.get("/latest", to=email)) == newest
    assert expect_ok(outbox.get(f"/{oldest['id']}")) == oldest
    for suffix in ("/999999999", "/not-a-number"):
        response = outbox.get(suffix)
        assert response.status_code == 404 and error_of(response)["message"].startswith("MESSAGE_NOT_FOUND"), \
            response.text


@pytest.mark.parametrize("parameter, value", [("waitSeconds", "61"), ("waitSeconds", "-1"), ("waitSeconds", "soon"),
                                              ("limit", "0"), ("limit", "many"), ("since", "yesterday")])
def test_bad_outbox_parameters_are_400(outbox, parameter, value):
    response = outbox.get(**{parameter: value})
    assert response.status_code == 400 and error_of(response)["code"] == 400, response.text


def test_filter_by_request_type(client, outbox):
    email = unique_email("types")
    client.sign_up(email, PASSWORD)
    send_ok(client, "EMAIL_SIGNIN", email=email)
    send_ok(client, "PASSWORD_RESET", email=email)
    assert [m["requestType"] for m in outbox.messages(to=email)] == ["PASSWORD_RESET", "EMAIL_SIGNIN"]
    assert [m["requestType"] for m in outbox.messages(to=email, requestType="EMAIL_SIGNIN")] == ["EMAIL_SIGNIN"]
    assert outbox.messages(to=email, requestType="VERIFY_EMAIL") == []


def test_tenant_messages_carry_and_filter_by_the_tenant(client, outbox):
    tenant, email = unique("tenant"), unique_email("tenant")
    expect_ok(admin_send(client, {"requestType": "EMAIL_SIGNIN", "email": email, **ios_settings()}, tenant=tenant))
    send_ok(client, "EMAIL_SIGNIN", email=email)
    in_tenant = outbox.only(to=email, tenantId=tenant)
    check_message(in_tenant, host=client.host, request_type="EMAIL_SIGNIN", to=email, continue_url=CONTINUE_URL,
                  app=True, tenant=tenant)
    assert [m["tenantId"] for m in outbox.messages(to=email)] == [None, tenant]
    assert [entry["oobCode"] for entry in official_codes(client, tenant)] == [in_tenant["oobCode"]]
    # The Apple SDK sends the tenant in the body; the user lands in the tenant.
    signed_in = sign_in_with_link_ok(client, email, ios_oob_code(in_tenant["appLink"]), v3=True, tenantId=tenant)
    assert decode_jwt(signed_in["idToken"])[1]["firebase"]["tenant"] == tenant


def test_delete_empties_the_outbox_and_deleting_accounts_leaves_it(own):
    client, outbox = own.client, Outbox(own.client)
    send_ok(client, "EMAIL_SIGNIN", email=unique_email("kept"))
    client.clear_accounts()
    assert len(outbox.messages()) == 1
    response = outbox.delete()
    assert response.status_code == 200 and response.json() == {}, response.text
    assert outbox.messages() == []


def test_messages_survive_a_restart_with_data(tmp_path):
    data = str(tmp_path / "auth.sqlite")
    email = unique_email("durable")
    first = start_emulator("--data", data, "--log-level", "info")
    try:
        client = EmulatorClient(first.host, PROJECT_ID)
        send_ok(client, "EMAIL_SIGNIN", email=email, **ios_settings())
        [before] = Outbox(client).messages(to=email)
        client.close()
    finally:
        stop(first)
    # The official emulator's console line, on stderr.
    assert f"To sign in as {email}, follow this link: {before['oobLink']}" in first.output()
    second = start_emulator("--data", data)
    try:
        client = EmulatorClient(second.host, PROJECT_ID)
        assert Outbox(client).messages(to=email) == [before]
        assert sign_in_with_link_ok(client, email, before["oobCode"])["isNewUser"] is True
        client.close()
    finally:
        stop(second)


# Apple's private relay -------------------------------------------------------------------------

def relay_user(federation):
    """A Sign in with Apple user whose email is hidden: (relay address, real address, signInWithIdp answer)."""
    real = unique_email("real")
    minted = federation.mint("apple.com", email=real, sub=apple_sub(), hideEmail=True)
    assert minted["email"].endswith("@privaterelay.appleid.com") and minted["realEmail"] == real, minted
    return minted["email"], real, federation.sign_in_ok(minted["postBody"])


def send_to_relay_user(federation, outbox):
    relay, real, signed_in = relay_user(federation)
    send_ok(federation.client, "VERIFY_EMAIL", idToken=signed_in["idToken"], **ios_settings())
    return relay, real, message_for(outbox, relay)


def test_mail_to_a_relay_address_is_relayed_to_the_real_address(client, outbox):
    relay, real, message = send_to_relay_user(Federation(client), outbox)
    check_message(message, host=client.host, request_type="VERIFY_EMAIL", to=relay, continue_url=CONTINUE_URL,
                  app=True, delivery={"status": "relayed", "forwardedTo": real, "reason": None})


def assert_bounced(message, reason_prefix):
    delivery = message["delivery"]
    assert delivery["status"] == "bounced" and delivery["forwardedTo"] is None, delivery
    assert delivery["reason"].startswith(reason_prefix), delivery


@pytest.mark.parametrize("domain", ["privaterelay.appleid.com", "private.icloud.com"])
def test_mail_to_an_unknown_relay_address_bounces(client, outbox, domain):
    address = f"zzz{unique_email('x').split('@')[0]}@{domain}"
    send_ok(client, "EMAIL_SIGNIN", email=address, **ios_settings())
    assert_bounced(message_for(outbox, address), "Unknown relay address:")


def test_mail_bounces_once_the_user_turns_forwarding_off(client, outbox):
    federation = Federation(client)
    relay, _, signed_in = relay_user(federation)
    expect_ok(client.request("PATCH", f"/emulator/v1/idp/apple.com/relay/{relay}", json={"forwarding": False}))
    send_ok(client, "VERIFY_EMAIL", idToken=signed_in["idToken"])
    assert_bounced(message_for(outbox, relay), "Forwarding off:")


def test_mail_bounces_when_the_projects_sender_is_not_registered(own):
    outbox = Outbox(own.client)
    defaults = {"spfFailingDomains": [], "dailyLimit": 100}
    assert expect_ok(outbox.relay_senders()) == {"registeredSenders": [SENDER], **defaults}
    assert expect_ok(outbox.set_relay_senders(["other@example.com"])) == {"registeredSenders": ["other@example.com"], **defaults}
    assert expect_ok(outbox.relay_senders()) == {"registeredSenders": ["other@example.com"], **defaults}
    relay, real, message = send_to_relay_user(own, outbox)
    assert_bounced(message, "Sender not registered:")
    # Registering the sender again is what makes the difference.
    expect_ok(outbox.set_relay_senders(["other@example.com", SENDER]))
    send_ok(own.client, "EMAIL_SIGNIN", email=relay)
    assert message_for(outbox, relay, "EMAIL_SIGNIN")["delivery"] == {"status": "relayed", "forwardedTo": real,
                                                                       "reason": None}


# signInWithEmailLink ---------------------------------------------------------------------------

@pytest.mark.parametrize("v3", [False, True], ids=["v1", "v3"])
def test_new_then_returning_user_signs_in_with_the_code_from_the_app_link(client, outbox, v3):
    email, message = sign_in_link_message(client, outbox)
    first = sign_in_with_link_ok(client, email, ios_oob_code(message["appLink"]), v3=v3)
    assert first["isNewUser"] is True
    user = admin_user(client, first["localId"])
    assert user["email"] == email and user["emailVerified"] is True
    _, again = sign_in_link_message(client, outbox, email=email)
    # The plain action link reads the same to the Apple SDK.
    second = sign_in_with_link_ok(client, email.upper(), ios_oob_code(again["oobLink"]), v3=v3)
    assert second["isNewUser"] is False and second["localId"] == first["localId"]


def test_linking_an_anonymous_user_gives_it_the_email(client, outbox):
    anonymous = client.sign_up()
    email, message = sign_in_link_message(client, outbox)
    linked = sign_in_with_link_ok(client, email, message["oobCode"], v3=True, idToken=anonymous["idToken"])
    assert linked["localId"] == anonymous["localId"] and linked["isNewUser"] is False
    assert admin_user(client, anonymous["localId"])["email"] == email


def test_a_wrong_email_leaves_the_code_usable_and_a_code_is_single_use(client, outbox):
    email, message = sign_in_link_message(client, outbox)
    code = message["oobCode"]
    assert_code_error(sign_in_with_link(client, unique_email("wrong"), code),
                      "INVALID_EMAIL : The email provided does not match the sign-in email address.")
    sign_in_with_link_ok(client, email, code)
    assert_code_error(sign_in_with_link(client, email, code, v3=True), "INVALID_OOB_CODE")


def test_email_link_sign_in_errors(client, outbox):
    email, message = sign_in_link_message(client, outbox)
    fields, reset_email = prepare(client, "PASSWORD_RESET")
    send_ok(client, "PASSWORD_RESET", **fields)
    reset_code = message_for(outbox, reset_email)["oobCode"]
    assert_code_error(rest(client, "signInWithEmailLink", {"oobCode": message["oobCode"]}), "MISSING_EMAIL")
    assert_code_error(rest(client, "signInWithEmailLink", {"email": email}), "MISSING_OOB_CODE")
    assert_code_error(sign_in_with_link(client, email, "not-a-code"), "INVALID_OOB_CODE")
    assert_code_error(sign_in_with_link(client, reset_email, reset_code), "INVALID_OOB_CODE")
    assert_code_error(sign_in_with_link(client, email, message["oobCode"], idToken="garbage"), "INVALID_ID_TOKEN")
    # None of them used the code.
    assert sign_in_with_link_ok(client, email, message["oobCode"])["isNewUser"] is True


def test_linking_to_an_email_another_user_has_is_refused_and_changes_nothing(client, outbox):
    email = unique_email("owned")
    owner = client.sign_up(email, PASSWORD)
    anonymous = client.sign_up()
    _, message = sign_in_link_message(client, outbox, email=email)
    assert_code_error(sign_in_with_link(client, email, message["oobCode"], idToken=anonymous["idToken"]),
                      "EMAIL_EXISTS")
    assert "email" not in admin_user(client, anonymous["localId"])
    assert sign_in_with_link_ok(client, email, message["oobCode"])["localId"] == owner["localId"]


def test_a_disabled_user_is_refused_and_the_code_stays_usable(client, outbox):
    email = unique_email("disabled")
    user = client.sign_up(email, PASSWORD)
    _, message = sign_in_link_message(client, outbox, email=email)
    expect_ok(client.admin_call("update", {"localId": user["localId"], "disableUser": True}))
    assert_code_error(sign_in_with_link(client, email, message["oobCode"]), "USER_DISABLED")
    expect_ok(client.admin_call("update", {"localId": user["localId"], "disableUser": False}))
    assert sign_in_with_link_ok(client, email, message["oobCode"])["localId"] == user["localId"]


def lookup_with(client, id_token):
    return rest(client, "lookup", {"idToken": id_token}, v3=True)


def test_an_unverified_password_account_loses_its_password_and_old_sessions(own):
    client, outbox = own.client, Outbox(own.client)
    email = unique_email("unverified")
    before = client.sign_up(email, PASSWORD)
    own.advance(2)  # tokens issued before are older than the sign-in by whole seconds
    _, message = sign_in_link_message(client, outbox, email=email)
    after = sign_in_with_link_ok(client, email, message["oobCode"])
    assert after["localId"] == before["localId"] and after["isNewUser"] is False
    response = client.sign_in_with_password(email, PASSWORD)
    assert response.status_code == 400, response.text
    assert "passwordHash" not in admin_user(client, before["localId"])
    assert_error(lookup_with(client, before["idToken"]), 400, "TOKEN_EXPIRED")
    assert_error(client.refresh_json(before["refreshToken"]), 400, "TOKEN_EXPIRED")
    expect_ok(lookup_with(client, after["idToken"]))


def test_a_verified_password_account_keeps_its_password(client, outbox):
    email = unique_email("verified")
    user = client.sign_up(email, PASSWORD)
    expect_ok(client.admin_call("update", {"localId": user["localId"], "emailVerified": True}))
    _, message = sign_in_link_message(client, outbox, email=email)
    sign_in_with_link_ok(client, email, message["oobCode"])
    assert client.sign_in_with_password_ok(email, PASSWORD)["localId"] == user["localId"]


# Expiry by the emulator clock ------------------------------------------------------------------

def use_code(client, request_type, email, code):
    if request_type == "EMAIL_SIGNIN":
        return sign_in_with_link(client, email, code)
    if request_type == "PASSWORD_RESET":
        return rest(client, "resetPassword", {"oobCode": code, "newPassword": "password-2"})
    return rest(client, "update", {"oobCode": code, "returnSecureToken": True}, v3=True)


@pytest.mark.parametrize("request_type", ["EMAIL_SIGNIN", "PASSWORD_RESET", "VERIFY_EMAIL"])
def test_codes_expire_by_the_emulator_clock(own, request_type):
    client, outbox = own.client, Outbox(own.client)
    lifetime = TYPES[request_type][3]
    fields, email = prepare(client, request_type)
    for _ in range(2):
        send_ok(client, request_type, **fields, **ios_settings())
    newer, older = outbox.messages(to=email)
    own.advance(lifetime - 60)
    expect_ok(use_code(client, request_type, email, older["oobCode"]), "just before expiry")
    own.advance(120)
    assert_code_error(rest(client, "resetPassword", {"oobCode": newer["oobCode"]}), "EXPIRED_OOB_CODE")
    assert_code_error(use_code(client, request_type, email, newer["oobCode"]), "EXPIRED_OOB_CODE")


# resetPassword ---------------------------------------------------------------------------------

@pytest.mark.parametrize("request_type", SENDABLE)
def test_reset_password_without_a_new_password_inspects_any_code(client, outbox, request_type):
    fields, recipient = prepare(client, request_type)
    send_ok(client, request_type, **fields, **ios_settings())
    code = message_for(outbox, recipient)["oobCode"]
    expected = {"kind": "identitytoolkit#ResetPasswordResponse", "requestType": request_type,
                "email": fields.get("email") or decode_jwt(fields["idToken"])[1]["email"]}
    if request_type == "VERIFY_AND_CHANGE_EMAIL":
        expected["newEmail"] = recipient
    for v3 in (True, False):  # inspecting does not use the code up
        assert expect_ok(rest(client, "resetPassword", {"oobCode": code}, v3=v3)) == expected


def test_reset_password_errors(client):
    assert_code_error(rest(client, "resetPassword", {"newPassword": "password-2"}), "MISSING_OOB_CODE")
    assert_code_error(rest(client, "resetPassword", {"oobCode": "not-a-code"}, v3=True), "INVALID_OOB_CODE")


def test_reset_password_applies_once_and_revokes_old_sessions(own):
    client, outbox = own.client, Outbox(own.client)
    email = unique_email("reset")
    before = client.sign_up(email, PASSWORD)
    send_ok(client, "PASSWORD_RESET", email=email, **ios_settings())
    send_ok(client, "VERIFY_EMAIL", idToken=before["idToken"])
    code = message_for(outbox, email, "PASSWORD_RESET")["oobCode"]
    verify_code = message_for(outbox, email, "VERIFY_EMAIL")["oobCode"]
    own.advance(2)
    assert_code_error(rest(client, "resetPassword", {"oobCode": code, "newPassword": "12345"}, v3=True),
                      "WEAK_PASSWORD : Password should be at least 6 characters")
    assert_code_error(rest(client, "resetPassword", {"oobCode": verify_code, "newPassword": "password-2"}),
                      "INVALID_OOB_CODE")
    answer = expect_ok(rest(client, "resetPassword", {"oobCode": code, "newPassword": "password-2"}, v3=True))
    assert answer == {"kind": "identitytoolkit#ResetPasswordResponse", "requestType": "PASSWORD_RESET", "email": email}
    assert client.sign_in_with_password_ok(email, "password-2")["localId"] == before["localId"]
    assert_error(client.sign_in_with_password(email, PASSWORD), 400, "INVALID_PASSWORD")
    assert admin_user(client, before["localId"])["emailVerified"] is True
    assert_error(lookup_with(client, before["idToken"]), 400, "TOKEN_EXPIRED")
    assert_error(client.refresh_json(before["refreshToken"]), 400, "TOKEN_EXPIRED")
    assert_code_error(rest(client, "resetPassword", {"oobCode": code, "newPassword": "password-3"}), "INVALID_OOB_CODE")


# Applying codes: setAccountInfo (the Apple SDK's applyActionCode) and /emulator/action ------------

def verification_message(client, outbox, **settings):
    fields, email = prepare(client, "VERIFY_EMAIL")
    send_ok(client, "VERIFY_EMAIL", **fields, **settings)
    return email, decode_jwt(fields["idToken"])[1]["user_id"], message_for(outbox, email)


def test_verify_email_through_set_account_info(client, outbox):
    email, uid, message = verification_message(client, outbox, **ios_settings())
    assert admin_user(client, uid)["emailVerified"] is False
    answer = expect_ok(rest(client, "update", {"oobCode": message["oobCode"], "returnSecureToken": True}, v3=True))
    assert answer["email"] == email and answer["emailVerified"] is True, answer
    assert admin_user(client, uid)["emailVerified"] is True
    assert_code_error(rest(client, "update", {"oobCode": message["oobCode"]}), "INVALID_OOB_CODE")


def test_verify_email_through_the_action_link_as_json(client, outbox):
    email, uid, message = verification_message(client, outbox)
    assert emulator_json(visit(client, message["oobLink"]), 200) == {
        "success": "The email has been successfully verified.", "email": email}
    assert admin_user(client, uid)["emailVerified"] is True
    assert emulator_json(visit(client, message["oobLink"]), 400) == {
        "error": "Your request to verify your email has expired or the link has already been used.",
        "instructions": "Try verifying your email again."}


def test_verify_email_through_the_action_link_in_a_browser(client, outbox):
    email, uid, message = verification_message(client, outbox)
    page = visit(client, message["oobLink"], browser=True)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html"), page.text
    assert "verified" in page.text and email in page.text, page.text
    assert admin_user(client, uid)["emailVerified"] is True
    email, uid, message = verification_message(client, outbox, continueUrl=CONTINUE_URL)
    redirect = visit(client, message["oobLink"], browser=True)
    assert redirect.status_code == 303 and redirect.headers["Location"] == CONTINUE_URL, redirect.text
    assert admin_user(client, uid)["emailVerified"] is True


@pytest.mark.parametrize("through", ["setAccountInfo", "action"])
def test_verify_and_change_email(client, outbox, through):
    fields, new_email = prepare(client, "VERIFY_AND_CHANGE_EMAIL")
    uid = decode_jwt(fields["idToken"])[1]["user_id"]
    # Through the page without a continueUrl, which would make it a redirect.
    send_ok(client, "VERIFY_AND_CHANGE_EMAIL", **fields, **(ios_settings() if through == "setAccountInfo" else {}))
    message = message_for(outbox, new_email)
    if through == "action":
        assert emulator_json(visit(client, message["oobLink"]), 200) == {
            "success": "The email has been successfully changed.", "newEmail": new_email}
    else:
        answer = expect_ok(rest(client, "update", {"oobCode": message["oobCode"], "returnSecureToken": True}, v3=True))
        assert answer["email"] == answer["newEmail"] == new_email, answer
    user = admin_user(client, uid)
    assert (user["email"], user["emailVerified"]) == (new_email, True)


def test_an_email_change_sends_a_recover_email_message_whose_code_restores_the_email(client, outbox):
    old, new = unique_email("old"), unique_email("changed")
    user = client.sign_up(old, PASSWORD)
    expect_ok(rest(client, "update", {"idToken": user["idToken"], "email": new, "returnSecureToken": True}, v3=True))
    assert admin_user(client, user["localId"])["email"] == new
    message = message_for(outbox, old)
    check_message(message, host=client.host, request_type="RECOVER_EMAIL", to=old)
    assert new in message["text"], message["text"]
    assert expect_ok(rest(client, "resetPassword", {"oobCode": message["oobCode"]})) == {
        "kind": "identitytoolkit#ResetPasswordResponse", "requestType": "RECOVER_EMAIL", "email": old, "newEmail": new}
    expect_ok(rest(client, "update", {"oobCode": message["oobCode"], "returnSecureToken": True}, v3=True))
    restored = admin_user(client, user["localId"])
    assert (restored["email"], restored["emailVerified"]) == (old, True)
    assert emulator_json(visit(client, message["oobLink"]), 400)["error"] == (
        "Your request to revert your email has expired or the link has already been used.")


def test_recover_email_link_refuses_a_code_of_another_mode(client, outbox):
    _, _, message = verification_message(client, outbox)
    answer = emulator_json(visit(client, action_url(message["oobLink"], mode="recoverEmail")), 400)
    assert answer["error"] == "Requested mode does not match the OOB code provided.", answer


# /emulator/action: password reset -------------------------------------------------------------

def reset_message(client, outbox, **settings):
    fields, email = prepare(client, "PASSWORD_RESET")
    send_ok(client, "PASSWORD_RESET", **fields, **settings)
    return email, message_for(outbox, email)


def password_form(page):
    parser = Forms()
    parser.feed(page)
    [form] = [form for form in parser.forms if any(f.get("name") == "newPassword" for f in form["fields"])]
    assert form["method"] == "post", form
    return form


def submit_new_password(client, page, password):
    """Fills the page's form as a person would (hidden fields kept) and posts it as the browser does."""
    form = password_form(page.text)
    data = [(field["name"], password if field["name"] == "newPassword" else field.get("value", ""))
            for field in form["fields"] if field.get("name")]
    action = urllib.parse.urljoin(page.url, form["action"] or page.url)
    return client.session.post(action, data=data, headers=HTML_ACCEPT, allow_redirects=False, timeout=10)


@pytest.mark.parametrize("continue_url", [None, CONTINUE_URL], ids=["success-page", "continue"])
def test_reset_password_in_a_browser(client, outbox, continue_url):
    email, message = reset_message(client, outbox, **({"continueUrl": continue_url} if continue_url else {}))
    page = visit(client, message["oobLink"], browser=True)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html"), page.text
    hidden = {f["name"]: f.get("value") for f in password_form(page.text)["fields"] if f.get("type") == "hidden"}
    assert hidden["oobCode"] == message["oobCode"] and hidden["mode"] == "resetPassword", hidden
    answer = submit_new_password(client, page, "password-new")
    if continue_url:
        assert answer.status_code == 303 and answer.headers["Location"] == continue_url, answer.text
    else:
        assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/html"), answer.text
        assert email in answer.text
    assert client.sign_in_with_password_ok(email, "password-new")["email"] == email
    assert_error(client.sign_in_with_password(email, PASSWORD), 400, "INVALID_PASSWORD")


def test_reset_password_link_as_json(client, outbox):
    email, message = reset_message(client, outbox)
    link = message["oobLink"]
    missing = emulator_json(visit(client, link), 400)
    assert missing["error"] == "missing newPassword query parameter", missing
    assert missing["urlTemplate"] == f"{link}&newPassword=NEW_PASSWORD_HERE", missing
    assert missing["instructions"] and missing["instructions2"], missing
    placeholder = emulator_json(visit(client, missing["urlTemplate"]), 400)
    assert placeholder["error"] == "newPassword must be something other than 'NEW_PASSWORD_HERE'", placeholder
    assert emulator_json(visit(client, action_url(link, newPassword="password-json")), 200) == {
        "success": "The password has been successfully updated.", "email": email}
    assert client.sign_in_with_password_ok(email, "password-json")["email"] == email
    assert emulator_json(visit(client, action_url(link, newPassword="password-again")), 400) == {
        "error": "Your request to reset your password has expired or the link has already been used.",
        "instructions": "Try resetting your password again."}
    email, message = reset_message(client, outbox, continueUrl=CONTINUE_URL)
    redirect = visit(client, action_url(message["oobLink"], newPassword="password-303"))
    assert redirect.status_code == 303 and redirect.headers["Location"] == CONTINUE_URL, redirect.text
    assert client.sign_in_with_password_ok(email, "password-303")["email"] == email


def test_a_weak_password_on_the_reset_link_is_the_normal_error_json(client, outbox):
    """Reference §5.5: a too-short password surfaces as the normal 400 `WEAK_PASSWORD : ...` error JSON."""
    email, message = reset_message(client, outbox)
    assert_error(visit(client, action_url(message["oobLink"], newPassword="12345")), 400,
                 "WEAK_PASSWORD : Password should be at least 6 characters")
    # The code is still good.
    assert emulator_json(visit(client, action_url(message["oobLink"], newPassword="password-ok")), 200)["email"] == email


# /emulator/action: sign-in links ---------------------------------------------------------------

class Anchors(html.parser.HTMLParser):
    """(href, text) of every <a> in a page."""

    def __init__(self):
        super().__init__()
        self.anchors, self.current = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.current = [dict(attrs).get("href"), ""]
            self.anchors.append(self.current)

    def handle_data(self, data):
        if self.current is not None:
            self.current[1] += data

    def handle_endtag(self, tag):
        if tag == "a":
            self.current = None


def assert_continues_to_the_app(client, location, email, message):
    """The continueUrl with the link's parameters merged in, a sign-in link the app can complete."""
    parts = urllib.parse.urlsplit(location)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == CONTINUE_URL.split("?")[0], location
    query = query_of(location)
    assert query["x"] == "1" and query["mode"] == "signIn" and query["oobCode"] == message["oobCode"], query
    assert query["apiKey"] == API_KEY and query["lang"] == "en", query
    assert sign_in_with_link_ok(client, email, ios_oob_code(location))["isNewUser"] is True


def test_sign_in_link_in_a_browser_shows_a_continue_link(client, outbox):
    email, message = sign_in_link_message(client, outbox)
    page = visit(client, message["oobLink"], browser=True)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html"), page.text
    parser = Anchors()
    parser.feed(page.text)
    [href] = [href for href, text in parser.anchors if "Continue" in text]
    assert_continues_to_the_app(client, href, email, message)


def test_sign_in_link_without_a_browser_redirects_with_the_code(client, outbox):
    email, message = sign_in_link_message(client, outbox)
    redirect = visit(client, message["oobLink"])
    assert redirect.status_code == 303, redirect.text
    assert_continues_to_the_app(client, redirect.headers["Location"], email, message)


@pytest.mark.parametrize("change, expected", [
    ({"apiKey": None}, {"error": "missing apiKey query parameter",
                        "instructions": "Please modify the URL to specify an apiKey, such as ...&apiKey=YOUR_API_KEY"}),
    ({"oobCode": None}, {"error": "missing oobCode query parameter",
                         "instructions": "Please modify the URL to specify an oobCode, such as ...&oobCode=YOUR_OOB_CODE"}),
    ({"mode": "fly"}, {"error": "Invalid mode"}),
    ({"continueUrl": None}, {"error": "Missing continueUrl query parameter",
                             "instructions": "To sign in, append &continueUrl=YOUR_APP_URL to the link."}),
], ids=["apiKey", "oobCode", "mode", "continueUrl"])
def test_action_link_errors_are_the_official_json(client, outbox, change, expected):
    _, message = sign_in_link_message(client, outbox)
    assert emulator_json(visit(client, action_url(message["oobLink"], **change)), 400) == expected


# firebase-admin --------------------------------------------------------------------------------

def test_admin_sign_in_link_completes_as_the_app_would(client, outbox):
    email = unique_email("admin-link")
    settings = auth.ActionCodeSettings(url=CONTINUE_URL, handle_code_in_app=True, ios_bundle_id=BUNDLE_ID)
    link = auth.generate_sign_in_with_email_link(email, settings)
    # The backend mails the link itself: nothing is in the outbox, the code is listed.
    assert outbox.messages(to=email) == []
    code = query_of(link)["oobCode"]
    assert [listed["oobLink"] for listed in official_codes(client) if listed["oobCode"] == code] == [link]
    signed_in = sign_in_with_link_ok(client, email, code, v3=True)
    assert signed_in["isNewUser"] is True and auth.get_user(signed_in["localId"]).email == email


def test_admin_password_reset_link_then_reset_through_rest(client, outbox):
    email = unique_email("admin-reset")
    uid = client.sign_up(email, PASSWORD)["localId"]
    link = auth.generate_password_reset_link(email)
    assert outbox.messages(to=email) == []
    query = query_of(link)
    assert query["mode"] == "resetPassword" and OOB_CODE.match(query["oobCode"]), query
    expect_ok(rest(client, "resetPassword", {"oobCode": query["oobCode"], "newPassword": "password-admin"}, v3=True))
    assert client.sign_in_with_password_ok(email, "password-admin")["localId"] == uid


# Links stay on the emulator --------------------------------------------------------------------

def official_action_link(host, mode, code, continue_url, tenant=None):
    """The official emulator's oobLink: mode, lang, oobCode, apiKey, continueUrl, tenantId, in that order."""
    query = [("mode", mode), ("lang", "en"), ("oobCode", code), ("apiKey", "fake-api-key"),
             ("continueUrl", continue_url)] + ([("tenantId", tenant)] if tenant else [])
    return f"http://{host}/emulator/action?{urllib.parse.urlencode(query)}"


@pytest.mark.parametrize("generate, request_type, mode", [
    (auth.generate_sign_in_with_email_link, "EMAIL_SIGNIN", "signIn"),
    (auth.generate_password_reset_link, "PASSWORD_RESET", "resetPassword"),
    (auth.generate_email_verification_link, "VERIFY_EMAIL", "verifyEmail"),
], ids=["sign-in", "password-reset", "verify-email"])
def test_admin_links_that_the_app_handles_open_the_emulator(client, outbox, generate, request_type, mode):
    email = unique_email(f"admin-{mode}")
    client.sign_up(email, PASSWORD)
    settings = auth.ActionCodeSettings(url=CONTINUE_URL, handle_code_in_app=True, ios_bundle_id=BUNDLE_ID,
                                       android_package_name="com.example.android")
    link = generate(email, settings)
    code = query_of(link)["oobCode"]
    assert link == official_action_link(client.host, mode, code, CONTINUE_URL), link
    assert outbox.messages(to=email) == []
    # Following the link is answered by the emulator itself.
    followed = visit(client, link)
    assert followed.status_code in (200, 303, 400), followed.text
    if request_type == "EMAIL_SIGNIN":
        # The sign-in link hands every parameter to the continue URL, where the app signs in with it.
        assert followed.status_code == 303
        assert query_of(followed.headers["Location"])["oobCode"] == code
        assert sign_in_with_link_ok(client, email, code)["localId"]
    elif request_type == "VERIFY_EMAIL":
        # Applied by the emulator, which then sends the person on to the continue URL.
        assert followed.status_code == 303 and followed.headers["Location"].startswith(CONTINUE_URL.split("?")[0])
        assert auth.get_user_by_email(email).email_verified is True


def test_rest_send_oob_code_for_an_app_answers_the_emulator_link(client, outbox):
    tenant, email = unique("links"), unique_email("rest-link")
    answer = expect_ok(admin_send(client, {"requestType": "EMAIL_SIGNIN", "email": email, "returnOobLink": True,
                                           **ios_settings(linkDomain="links.example.com")}, tenant=tenant))
    expected = official_action_link(client.host, "signIn", answer["oobCode"], CONTINUE_URL, tenant)
    assert answer == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": email,
                      "oobCode": answer["oobCode"], "oobLink": expected}, answer
    assert outbox.messages(to=email) == []
    # The same request without returnOobLink mails it: the app's link is in the message.
    expect_ok(admin_send(client, {"requestType": "EMAIL_SIGNIN", "email": email,
                                  **ios_settings(linkDomain="links.example.com")}, tenant=tenant))
    message = outbox.only(to=email, tenantId=tenant)
    assert message["oobLink"] == official_action_link(client.host, "signIn", message["oobCode"], CONTINUE_URL, tenant)
    assert message["appLink"].startswith("https://links.example.com/__/auth/links?link="), message["appLink"]
    assert message["oobLink"] in message["text"] and "links.example.com" not in message["text"] + message["html"], message
    # A client's own request (no link in the answer) mails the same emulator link, with its key.
    again = unique_email("rest-link")
    send_ok(client, "PASSWORD_RESET", email=client.sign_up(again, PASSWORD)["email"], **ios_settings())
    mailed = message_for(outbox, again, "PASSWORD_RESET")
    assert mailed["oobLink"] in mailed["text"] and mailed["appLink"] not in mailed["text"], mailed
    assert mailed["oobLink"].startswith(f"http://{client.host}/emulator/action?mode=resetPassword&lang=en&oobCode=")
