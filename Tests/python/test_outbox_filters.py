"""The outbox as a QA test asks it: filters by delivery status, forwarding address, subject and free
text; `latest` and `waitSeconds` that skip bounced mail unless asked; deleting one message; and a
message's `.eml` source, read back with Python's own `email` parser."""

import email
import email.policy
import re
import threading
import time
import uuid

import pytest
import requests

from conftest import start_emulator, stop_emulator

PROJECT = "demo-admin-test"
KEY = "any-key"


class Emulator:
    def __init__(self, running):
        self.running = running
        self.base = f"http://{running.host}"
        self.messages_path = f"{self.base}/emulator/v1/projects/{PROJECT}/messages"

    def send_sign_in_link(self, address):
        answer = requests.post(f"{self.base}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key={KEY}", json={
            "requestType": "EMAIL_SIGNIN", "email": address, "continueUrl": "https://app.example.com/done",
            "canHandleCodeInApp": True}, timeout=10)
        assert answer.status_code == 200, answer.text

    def relayed_verification(self):
        """A hidden-email Apple user's verification email: (relay address, real address)."""
        real = f"real-{uuid.uuid4().hex[:8]}@example.com"
        minted = requests.post(f"{self.base}/emulator/v1/idp/apple.com/tokens",
                               json={"email": real, "hideEmail": True}, timeout=10).json()
        signed_in = requests.post(f"{self.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key={KEY}", json={
            "requestUri": "http://localhost", "postBody": minted["postBody"], "returnSecureToken": True}, timeout=10).json()
        answer = requests.post(f"{self.base}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key={KEY}",
                               json={"requestType": "VERIFY_EMAIL", "idToken": signed_in["idToken"]}, timeout=10)
        assert answer.status_code == 200, answer.text
        return minted["email"], real

    def list(self, **params):
        answer = requests.get(self.messages_path, params=params, timeout=70)
        assert answer.status_code == 200, answer.text
        return answer.json()["messages"]

    def get(self, suffix, **params):
        return requests.get(self.messages_path + suffix, params=params, timeout=70)


@pytest.fixture
def outbox():
    running = start_emulator()
    yield Emulator(running)
    stop_emulator(running)


def unknown_relay_address():
    return f"nobody{uuid.uuid4().hex[:8]}@privaterelay.appleid.com"


def test_filters_by_status_forwarding_address_subject_and_text(outbox):
    outbox.send_sign_in_link("ada@example.com")
    relay, real = outbox.relayed_verification()
    bounced = unknown_relay_address()
    outbox.send_sign_in_link(bounced)

    assert [m["to"] for m in outbox.list(status="bounced")] == [bounced]
    assert [m["to"] for m in outbox.list(status="relayed")] == [relay]
    assert [m["to"] for m in outbox.list(status="delivered")] == ["ada@example.com"]
    assert [m["to"] for m in outbox.list(status="delivered,relayed")] == [relay, "ada@example.com"]
    assert len(outbox.list()) == 3  # a plain listing shows every status

    [forwarded] = outbox.list(forwardedTo=real.upper())  # addresses compare canonically
    assert forwarded["to"] == relay and forwarded["delivery"]["forwardedTo"] == real
    assert outbox.list(forwardedTo="someone-else@example.com") == []

    verify = outbox.list(subject="verify your EMAIL")  # a case-insensitive part of the subject
    assert [m["to"] for m in verify] == [relay]
    assert len(outbox.list(subject="Sign in to")) == 2

    # Free text looks at the subject, both bodies and the addresses.
    assert [m["to"] for m in outbox.list(q="ADA@example")] == ["ada@example.com"]
    assert [m["to"] for m in outbox.list(q=real.split("@")[0])] == [relay]
    assert [m["to"] for m in outbox.list(q="APP.example.com", status="bounced")] == [bounced]
    assert outbox.list(q="no such words anywhere") == []
    # Filters combine, and LIKE's wildcards are plain characters.
    assert outbox.list(q="%_%") == [] and outbox.list(q="a_c%") == []
    assert outbox.list(status="relayed", subject="Sign in") == []


@pytest.mark.parametrize("status", ["sent", "bounced,", "BOUNCE", ","])
def test_an_unknown_status_is_refused(outbox, status):
    answer = outbox.get("", status=status)
    assert answer.status_code == 400
    assert answer.json()["error"]["message"].startswith("INVALID_ARGUMENT : status must be delivered, relayed or bounced")


def test_latest_skips_bounced_mail_unless_the_status_asks_for_it(outbox):
    outbox.send_sign_in_link("ada@example.com")
    bounced = unknown_relay_address()
    outbox.send_sign_in_link(bounced)
    assert outbox.list()[0]["to"] == bounced  # the newest message bounced

    latest = outbox.get("/latest")
    assert latest.status_code == 200 and latest.json()["to"] == "ada@example.com"
    # Asking for the bounced one's recipient finds nothing the user received ...
    missing = outbox.get("/latest", to=bounced)
    assert missing.status_code == 404
    assert missing.json()["error"]["message"].startswith("MESSAGE_NOT_FOUND")
    # ... unless the status asks for bounced mail.
    asked = outbox.get("/latest", to=bounced, status="bounced")
    assert asked.status_code == 200 and asked.json()["delivery"]["status"] == "bounced"


def test_waiting_ends_on_delivered_mail_not_on_a_bounce(outbox):
    bounced = unknown_relay_address()
    since = str(max([int(m["id"]) for m in outbox.list()], default=0))
    results = {}

    def wait(name, **params):
        results[name] = outbox.get("", waitSeconds="20", since=since, **params).json()["messages"]

    waiters = [threading.Thread(target=wait, args=("any",)),
               threading.Thread(target=wait, args=("bounced",), kwargs={"status": "bounced"})]
    for waiter in waiters:
        waiter.start()
    time.sleep(0.5)
    outbox.send_sign_in_link(bounced)
    waiters[1].join(timeout=10)
    assert [m["to"] for m in results["bounced"]] == [bounced]
    time.sleep(0.5)
    assert waiters[0].is_alive(), "a bounce ended a wait that did not ask for bounced mail"
    outbox.send_sign_in_link("grace@example.com")
    waiters[0].join(timeout=10)
    assert [m["to"] for m in results["any"]] == ["grace@example.com"]

    # Waiting for `latest` skips the bounce the same way.
    started = time.monotonic()
    timed_out = outbox.get("/latest", waitSeconds="1", to=bounced)
    assert timed_out.status_code == 404 and time.monotonic() - started >= 0.9


def test_deleting_one_message_leaves_the_others(outbox):
    outbox.send_sign_in_link("ada@example.com")
    outbox.send_sign_in_link("grace@example.com")
    newer, older = outbox.list()
    answer = requests.delete(f"{outbox.messages_path}/{older['id']}", timeout=10)
    assert answer.status_code == 200 and answer.json() == {}
    assert [m["id"] for m in outbox.list()] == [newer["id"]]
    assert outbox.get(f"/{older['id']}").status_code == 404
    again = requests.delete(f"{outbox.messages_path}/{older['id']}", timeout=10)
    assert again.status_code == 404
    assert again.json()["error"]["message"] == f"MESSAGE_NOT_FOUND : No message {older['id']} in the outbox of {PROJECT}."
    assert requests.delete(f"{outbox.messages_path}/not-a-number", timeout=10).status_code == 404
    other = requests.delete(f"{outbox.base}/emulator/v1/projects/other-project/messages/{newer['id']}", timeout=10)
    assert other.status_code == 404  # a message belongs to its project


def check_source(raw, message):
    """RFC 5322 as a strict reader sees it: CRLF only, short lines, the parts Python's parser finds."""
    assert b"\n" not in raw.replace(b"\r\n", b""), "a bare LF"
    assert b"\r" not in raw.replace(b"\r\n", b""), "a bare CR"
    head, _, body = raw.partition(b"\r\n\r\n")
    # Header lines fold to 78; an address (which cannot fold) may run to RFC 5322's 998.
    for line in head.split(b"\r\n"):
        assert len(line) <= (998 if line.startswith((b"From:", b"To:")) else 78), line
    assert all(len(line) <= 76 for line in body.split(b"\r\n")), "a body line longer than quoted-printable allows"
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed.defects == []
    assert parsed["Subject"] == message["subject"]
    assert parsed["From"] == message["from"] and parsed["To"] == message["to"]
    assert parsed["MIME-Version"] == "1.0"
    assert parsed["Message-ID"].startswith(f"<{message['id']}.") and parsed["Message-ID"].endswith(">")
    assert parsed["Date"].datetime.timestamp() == pytest.approx(
        email.utils.parsedate_to_datetime(parsed["Date"]).timestamp())
    assert parsed["X-Auth-Emulator-Request-Type"] == message["requestType"]
    assert parsed["X-Auth-Emulator-Delivery"] == message["delivery"]["status"]
    assert parsed.get_content_type() == "multipart/alternative"
    parts = list(parsed.iter_parts())
    assert [part.get_content_type() for part in parts] == ["text/plain", "text/html"]
    for part in parts:
        assert part.defects == [] and part.get_content_charset() == "utf-8"
        assert part["Content-Transfer-Encoding"] == "quoted-printable"
    normalize = lambda text: text.replace("\r\n", "\n").rstrip("\n")
    assert normalize(parts[0].get_content()) == normalize(message["text"])
    assert normalize(parts[1].get_content()) == normalize(message["html"])
    return parsed


def test_a_message_downloads_as_eml(outbox):
    outbox.send_sign_in_link("ada@example.com")
    [message] = outbox.list()
    answer = outbox.get(f"/{message['id']}.eml")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "message/rfc822"
    assert answer.headers["Content-Disposition"] == f'attachment; filename="message-{message["id"]}.eml"'
    parsed = check_source(answer.content, message)
    # The link a recipient follows (the emulator's action link, as the official emulator's emails
    # carry even with canHandleCodeInApp), whole after decoding.
    link = message["oobLink"]
    assert len(link) > 76 and link in parsed.get_body(("plain",)).get_content()
    assert re.match(r"^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$", parsed["Date"])
    assert parsed["Date"].datetime.isoformat().startswith(message["createdAt"][:19])


def test_a_relayed_message_and_a_non_ascii_subject_in_eml(outbox):
    relay, real = outbox.relayed_verification()
    [message] = outbox.list(status="relayed")
    parsed = check_source(outbox.get(f"/{message['id']}.eml").content, message)
    assert parsed["X-Auth-Emulator-Forwarded-To"] == real
    # A project id with non-ASCII letters gives a subject that needs RFC 2047 encoded words.
    project = "démo-projet-à-tester-avec-un-nom-assez-long-pour-être-replié"
    encoded = requests.utils.quote(project, safe="")
    answer = requests.post(
        f"{outbox.base}/identitytoolkit.googleapis.com/v1/projects/{encoded}/accounts:sendOobCode",
        headers={"Authorization": "Bearer owner"},
        json={"requestType": "EMAIL_SIGNIN", "email": "zoë@example.com", "continueUrl": "https://app.example.com",
              "returnOobLink": False}, timeout=10)
    if answer.status_code != 200:
        pytest.fail(f"could not send in a non-ASCII project: {answer.text}")
    listing = requests.get(f"{outbox.base}/emulator/v1/projects/{encoded}/messages", timeout=10).json()["messages"]
    [accented] = listing
    assert not accented["subject"].isascii()
    raw = requests.get(f"{outbox.base}/emulator/v1/projects/{encoded}/messages/{accented['id']}.eml", timeout=10).content
    assert b"=?UTF-8?B?" in raw.partition(b"\r\n\r\n")[0]
    check_source(raw, accented)


def test_an_sms_has_no_eml_and_unknown_ids_are_not_found(outbox):
    answer = requests.post(f"{outbox.base}/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key={KEY}",
                           json={"phoneNumber": "+15555550123", "recaptchaToken": "ignored"}, timeout=10)
    assert answer.status_code == 200, answer.text
    [sms] = outbox.list(to="+15555550123")
    refused = outbox.get(f"/{sms['id']}.eml")
    assert refused.status_code == 400
    assert "only emails have a .eml source" in refused.json()["error"]["message"]
    assert outbox.get("/999999.eml").status_code == 404
    assert outbox.get("/latest.eml").status_code == 404
