"""The app's own mail (`--smtp-port`): real SMTP clients (Python's smtplib, Debian's swaks, and raw
sockets for what clients will not do) send to the emulator's listener; the outbox API and the
simulated Apple relay are checked over HTTP.

Each test gets its own binary with `--smtp-port 0`; the SMTP address is read from its banner.
"""

import contextlib
import email.message
import email.utils
import os
import re
import signal
import smtplib
import socket
import subprocess
import threading
import time

import pytest

from conftest import PROJECT_ID, start_emulator, stop_emulator
from emulator_client import EmulatorClient
from outbox_client import Outbox

SMTP_LINE = re.compile(r"^\s+smtp\s+(\S+):(\d+) ")
APP_SENDER = "receipts@shop.example"
RELAY = "/emulator/v1/projects/{project}/privateRelay"


class Mail:
    """One emulator with an SMTP listener: its HTTP client, outbox and SMTP address."""

    def __init__(self, running):
        self.running = running
        self.client = EmulatorClient(running.host, PROJECT_ID)
        self.outbox = Outbox(self.client)
        for line in running.stdout_lines:
            if match := SMTP_LINE.match(line):
                self.smtp_host, self.smtp_port = match.group(1), int(match.group(2))
                break
        else:
            raise AssertionError(f"no smtp line in the banner:\n{running.output()}")

    def smtp(self):
        return smtplib.SMTP(self.smtp_host, self.smtp_port, timeout=10)

    def send(self, message, *, from_addr=None, to_addrs=None, login=None):
        with self.smtp() as client:
            if login:
                client.login(*login)
            return client.send_message(message, from_addr=from_addr, to_addrs=to_addrs)

    def relay(self, **settings):
        response = self.client.request("PATCH", RELAY.format(project=PROJECT_ID), json=settings)
        assert response.status_code == 200, response.text
        return response.json()

    def mint_hidden_apple_user(self, real):
        minted = self.client.request("POST", "/emulator/v1/idp/apple.com/tokens",
                                     json={"email": real, "hideEmail": True}).json()
        signed_in = self.client.call_ok("signInWithIdp", {"postBody": minted["postBody"], "requestUri": "http://localhost",
                                                          "returnSecureToken": True})
        assert signed_in["email"] == minted["email"]
        return minted["email"]

    def raw(self):
        """A raw socket to the listener, its greeting read."""
        connection = socket.create_connection((self.smtp_host, self.smtp_port), timeout=10)
        reader = connection.makefile("rb")
        assert reader.readline().startswith(b"220 ")
        return connection, reader


@contextlib.contextmanager
def mail_emulator(*arguments):
    running = start_emulator("--smtp-port", "0", *arguments)
    mail = Mail(running)
    try:
        yield mail
    finally:
        mail.client.close()
        if running.process.poll() is None:
            stop_emulator(running)


@pytest.fixture
def mail():
    with mail_emulator() as emulator:
        yield emulator


def message(subject="Your receipt", to="buyer@example.com", sender=APP_SENDER, text="Thanks for your order.", html=None):
    built = email.message.EmailMessage()
    built["From"] = f"Shop <{sender}>"
    built["To"] = to
    built["Subject"] = subject
    built["Message-ID"] = email.utils.make_msgid(domain="shop.example")
    built.set_content(text)
    if html:
        built.add_alternative(html, subtype="html")
    return built


def deliveries(mail, to):
    """subject → delivery of the messages to `to` (subjects are unique within a test)."""
    return {m["subject"]: m["delivery"] for m in mail.outbox.messages(to=to, limit=1000)}


def replies(reader, count):
    """Reads `count` replies (multi-line ones whole) and returns their codes."""
    codes = []
    while len(codes) < count:
        line = reader.readline()
        assert line, f"connection closed after {codes}"
        if line[3:4] != b"-":
            codes.append(int(line[:3]))
    return codes


def test_a_plain_message_is_one_outbox_message_with_source_smtp(mail):
    sent = message()
    assert mail.send(sent) == {}
    stored = mail.outbox.only(to="buyer@example.com")
    assert stored["source"] == "smtp"
    assert stored["from"] == APP_SENDER
    assert stored["subject"] == "Your receipt"
    assert stored["text"].strip() == "Thanks for your order."
    assert stored["html"] == ""
    assert stored["requestType"] is None and stored["oobCode"] is None
    assert stored["delivery"] == {"status": "delivered", "forwardedTo": None, "reason": None}
    assert stored["envelope"] == {"from": APP_SENDER, "to": ["buyer@example.com"]}
    assert stored["headers"]["from"] == f"Shop <{APP_SENDER}>"
    assert stored["headers"]["messageId"] == sent["Message-ID"]
    assert "raw" not in stored and stored["rawSize"] > 0
    # One message by id carries the raw source.
    whole = mail.client.request("GET", f"{mail.outbox.path}/{stored['id']}").json()
    assert whole["raw"].startswith("From: Shop <receipts@shop.example>")
    assert "Thanks for your order." in whole["raw"]
    # Firebase's own mail says where it came from too.
    mail.client.call_ok("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": "fb@example.com",
                                        "continueUrl": "https://app.example.com"})
    assert mail.outbox.only(to="fb@example.com")["source"] == "auth"


def test_multipart_with_attachments_cc_and_encoded_headers(mail):
    sent = message(subject="Reçu n°42 — merci", to="Ada <ada@example.com>", text="Plain: café",
                   html="<p>HTML: <b>café</b></p>")
    sent["Cc"] = "Bob <bob@example.com>"
    sent.add_attachment(b"%PDF-1.4 fake", maintype="application", subtype="pdf", filename="receipt.pdf")
    sent.add_attachment("naïve notes".encode(), maintype="text", subtype="plain", filename="notes é.txt")
    mail.send(sent)
    ada = mail.outbox.only(to="ada@example.com")
    bob = mail.outbox.only(to="bob@example.com")
    assert ada["subject"] == bob["subject"] == "Reçu n°42 — merci"
    assert ada["text"].strip() == "Plain: café"
    assert ada["html"].strip() == "<p>HTML: <b>café</b></p>"
    assert ada["headers"]["to"] == ["ada@example.com"] and ada["headers"]["cc"] == ["bob@example.com"]
    assert ada["envelope"]["to"] == ["ada@example.com", "bob@example.com"]
    assert [(a["filename"], a["contentType"], a["size"]) for a in ada["attachments"]] == [
        ("receipt.pdf", "application/pdf", 13), ("notes é.txt", "text/plain", len("naïve notes".encode()))]
    # One message per recipient, each with the same Message-ID.
    assert ada["headers"]["messageId"] == bob["headers"]["messageId"] == sent["Message-ID"]
    assert ada["id"] != bob["id"]


def test_eight_bit_and_smtputf8_bodies(mail):
    raw = ("From: shop@example.com\r\nTo: u@example.com\r\nSubject: 8bit\r\nMIME-Version: 1.0\r\n"
           "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nGrüße aus Köln\r\n")
    with mail.smtp() as client:
        client.ehlo()
        assert client.has_extn("8bitmime") and client.has_extn("pipelining") and client.has_extn("smtputf8")
        assert client.sendmail("shop@example.com", ["u@example.com"], raw.encode(), mail_options=["BODY=8BITMIME"]) == {}
    assert mail.outbox.only(to="u@example.com")["text"] == "Grüße aus Köln\r\n"


def test_a_message_over_the_size_limit_is_refused_and_not_stored(mail):
    big = message(to="big@example.com", text="x" * 100)
    big.add_attachment(os.urandom(15 * 1024 * 1024), maintype="application", subtype="octet-stream", filename="big.bin")
    data = big.as_bytes()  # about 20 MB once base64-encoded
    assert len(data) > 20_000_000
    with mail.smtp() as client:
        # smtplib declares the size (SIZE=…), so the refusal comes before the data.
        with pytest.raises(smtplib.SMTPSenderRefused) as refused:
            client.sendmail(APP_SENDER, ["big@example.com"], data)
        assert refused.value.smtp_code == 552
    # A client that does not declare the size is refused after DATA, and the session goes on.
    connection, reader = mail.raw()
    connection.settimeout(120)  # 20 MB through a sanitizer build takes a while
    with connection:
        connection.sendall(b"EHLO raw\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<big@example.com>\r\nDATA\r\n")
        assert replies(reader, 4) == [250, 250, 250, 354]
        connection.sendall(data.replace(b"\n.", b"\n..") + b"\r\n.\r\nNOOP\r\n")
        assert replies(reader, 2) == [552, 250]
    assert mail.outbox.messages(to="big@example.com") == []


def test_many_recipients_and_the_recipient_limit(mail):
    recipients = [f"r{i}@example.com" for i in range(101)]
    with mail.smtp() as client:
        refused = client.sendmail(APP_SENDER, recipients, message(to="list@example.com").as_bytes())
    assert list(refused) == ["r100@example.com"] and refused["r100@example.com"][0] == 452
    assert len(mail.outbox.messages(limit=1000)) == 100


def test_pipelined_commands_get_their_replies_in_order(mail):
    connection, reader = mail.raw()
    with connection:
        connection.sendall(b"EHLO pipe\r\nMAIL FROM:<p@example.com>\r\nRCPT TO:<one@example.com>\r\n"
                           b"RCPT TO:<bad address>\r\nRCPT TO:<two@example.com>\r\nDATA\r\n")
        assert replies(reader, 6) == [250, 250, 250, 501, 250, 354]
        connection.sendall(b"Subject: piped\r\n\r\n.dot\r\n..\r\n.\r\nQUIT\r\n")
        assert replies(reader, 2) == [250, 221]
    assert mail.outbox.only(to="one@example.com")["text"] == "dot\r\n.\r\n"
    assert mail.outbox.only(to="two@example.com")["subject"] == "piped"


def test_a_client_that_vanishes_mid_data_leaves_nothing(mail):
    connection, reader = mail.raw()
    connection.sendall(b"EHLO gone\r\nMAIL FROM:<g@example.com>\r\nRCPT TO:<gone@example.com>\r\nDATA\r\n")
    assert replies(reader, 4) == [250, 250, 250, 354]
    connection.sendall(b"Subject: half\r\n\r\nnever finished")
    connection.close()
    # The next complete message arrives; the half one never does.
    mail.send(message(to="after@example.com"))
    assert mail.outbox.messages(to="after@example.com")
    assert mail.outbox.messages(to="gone@example.com") == []


def test_bad_command_order_and_unknown_commands(mail):
    connection, reader = mail.raw()
    with connection:
        for command, code in [(b"MAIL FROM:<a@example.com>", 503), (b"HELO x", 250), (b"RCPT TO:<b@example.com>", 503),
                              (b"DATA", 503), (b"MAIL FROM:<a@example.com>", 250), (b"DATA", 503),
                              (b"MAIL FROM:<c@example.com>", 503), (b"BOGUS", 500), (b"AUTH CRAM-MD5", 503),
                              (b"RSET", 250), (b"STARTTLS", 502), (b"X" * 20000, 500), (b"NOOP", 250), (b"QUIT", 221)]:
            connection.sendall(command + b"\r\n")
            assert replies(reader, 1) == [code], command[:40]


def test_auth_user_names_the_project(mail):
    mail.send(message(to="default@example.com"))
    mail.send(message(to="other@example.com"), login=("project:demo-other", "any password"))
    assert mail.outbox.only(to="default@example.com")["projectId"] == PROJECT_ID
    assert mail.outbox.messages(to="other@example.com") == []
    other = Outbox(mail.client, "demo-other").only(to="other@example.com")
    assert other["projectId"] == "demo-other"


def test_swaks_with_pipelining_and_auth_login(mail):
    result = subprocess.run(
        ["swaks", "--server", f"{mail.smtp_host}:{mail.smtp_port}", "--from", APP_SENDER, "--to", "swaks@example.com",
         "--header", "Subject: from swaks", "--body", "swaks body", "--pipeline", "--auth", "LOGIN",
         "--auth-user", "project:swaks-project", "--auth-password", "x", "--timeout", "10"],
        capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr
    stored = Outbox(mail.client, "swaks-project").only(to="swaks@example.com")
    assert stored["subject"] == "from swaks" and "swaks body" in stored["text"]


def test_the_relay_decides_per_recipient_with_every_bounce_cause(mail):
    relayed_user = mail.mint_hidden_apple_user("real.user@example.com")
    muted_user = mail.mint_hidden_apple_user("muted@example.com")
    mail.client.request("PATCH", f"/emulator/v1/idp/apple.com/relay/{muted_user}", json={"forwarding": False})

    # Not registered yet: every relay recipient bounces; a plain address is delivered.
    mail.send(message(subject="unregistered"), to_addrs=[relayed_user, "plain@example.com"])
    bounced = deliveries(mail, relayed_user)["unregistered"]
    assert bounced["status"] == "bounced"
    assert bounced["reason"].startswith("Sender not registered: receipts@shop.example")
    assert mail.outbox.only(to="plain@example.com")["delivery"]["status"] == "delivered"

    # A registered domain covers every address in it.
    assert mail.relay(registeredSenders=["@shop.example"])["registeredSenders"] == ["@shop.example"]
    mail.send(message(subject="domain"), to_addrs=[relayed_user, muted_user, "nobody@privaterelay.appleid.com"])
    by_recipient = {m["to"]: m["delivery"] for m in mail.outbox.messages(limit=1000) if m["subject"] == "domain"}
    assert by_recipient[relayed_user] == {"status": "relayed", "forwardedTo": "real.user@example.com", "reason": None}
    assert by_recipient[muted_user]["reason"].startswith("Forwarding off:")
    assert by_recipient["nobody@privaterelay.appleid.com"]["reason"].startswith("Unknown relay address:")

    # A registered single address, and another address of the same domain that is not.
    mail.relay(registeredSenders=["billing@corp.example"])
    mail.send(message(subject="address", sender="billing@corp.example"), to_addrs=[relayed_user])
    mail.send(message(subject="other address", sender="sales@corp.example"), to_addrs=[relayed_user])
    statuses = deliveries(mail, relayed_user)
    assert statuses["address"]["status"] == "relayed" and statuses["other address"]["status"] == "bounced"

    # The envelope sender (the return path) must be registered as well as the From address.
    mail.send(message(subject="return path", sender="billing@corp.example"), from_addr="bounces@esp.example",
              to_addrs=[relayed_user])
    assert deliveries(mail, relayed_user)["return path"]["reason"].startswith("Sender not registered: bounces@esp.example")

    # SPF failing for a registered domain.
    mail.relay(registeredSenders=["@shop.example"], spfFailingDomains=["shop.example"])
    mail.send(message(subject="spf"), to_addrs=[relayed_user])
    assert deliveries(mail, relayed_user)["spf"]["reason"].startswith("SPF failed: shop.example")

    # The daily limit: what was relayed today counts.
    relayed_so_far = sum(1 for m in mail.outbox.messages(to=relayed_user, limit=1000)
                         if m["delivery"]["status"] == "relayed")
    mail.relay(spfFailingDomains=[], dailyLimit=relayed_so_far + 1)
    mail.send(message(subject="last one"), to_addrs=[relayed_user])
    mail.send(message(subject="over the limit"), to_addrs=[relayed_user])
    latest = deliveries(mail, relayed_user)
    assert latest["last one"]["status"] == "relayed"
    assert latest["over the limit"]["reason"].startswith("Daily limit reached:")
    # A day later the count starts again.
    mail.client.request("POST", "/emulator/v1/clock:advance", json={"seconds": 86_401})
    mail.send(message(subject="next day"), to_addrs=[relayed_user])
    assert deliveries(mail, relayed_user)["next day"]["status"] == "relayed"


def test_forwarding_toggled_between_two_messages(mail):
    hidden = mail.mint_hidden_apple_user("toggle@example.com")
    mail.relay(registeredSenders=[APP_SENDER])
    mail.send(message(subject="first"), to_addrs=[hidden])
    mail.client.request("PATCH", f"/emulator/v1/idp/apple.com/relay/{hidden}", json={"forwarding": False})
    mail.send(message(subject="second"), to_addrs=[hidden])
    mail.client.request("PATCH", f"/emulator/v1/idp/apple.com/relay/{hidden}", json={"forwarding": True})
    mail.send(message(subject="third"), to_addrs=[hidden])
    statuses = {subject: delivery["status"] for subject, delivery in deliveries(mail, hidden).items()}
    assert statuses == {"first": "relayed", "second": "bounced", "third": "relayed"}
    # Relayed mail is found by the real address.
    assert {m["subject"] for m in mail.outbox.messages(to=hidden) if m["delivery"]["forwardedTo"] == "toggle@example.com"} \
        == {"first", "third"}


def test_the_outbox_waits_for_smtp_mail_and_deletes_it(mail):
    answer = {}

    def wait():
        answer["response"] = mail.outbox.get("/latest", to="waited@example.com", waitSeconds=10, timeout=15)

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.3)
    mail.send(message(subject="worth the wait", to="waited@example.com"))
    waiter.join(15)
    assert answer["response"].status_code == 200
    assert answer["response"].json()["subject"] == "worth the wait"
    assert "raw" in answer["response"].json()
    assert mail.outbox.delete().status_code == 200
    assert mail.outbox.messages() == []


def test_an_acknowledged_message_survives_kill_9_with_data(tmp_path):
    data = tmp_path / "mail.sqlite"
    running = start_emulator("--smtp-port", "0", "--data", str(data))
    mail = Mail(running)
    mail.send(message(subject="durable", to="durable@example.com"))  # returns after the 250
    running.process.send_signal(signal.SIGKILL)
    running.process.wait(10)
    mail.client.close()
    with mail_emulator("--data", str(data)) as again:
        stored = again.outbox.only(to="durable@example.com")
        assert stored["subject"] == "durable" and stored["source"] == "smtp"
        whole = again.client.request("GET", f"{again.outbox.path}/{stored['id']}").json()
        assert "durable" in whole["raw"]


def test_sigterm_stops_the_smtp_listener_too(mail):
    connection, reader = mail.raw()
    with connection:
        connection.sendall(b"EHLO idle\r\n")
        assert replies(reader, 1) == [250]
        started = time.monotonic()
        stop_emulator(mail.running)
        assert time.monotonic() - started < 5
        assert reader.readline().startswith(b"421 ")


def test_the_console_shows_the_apps_mail_as_received(mail):
    sent = message(subject="Console view", to="console@example.com", html="<p>hi</p>")
    sent.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="invoice.pdf")
    mail.send(sent)
    stored = mail.outbox.only(to="console@example.com")
    page = mail.client.request("GET", "/emulator/ui/message", params={"id": stored["id"]}).text
    assert "SMTP" in page and "invoice.pdf" in page and "receipts@shop.example" in page
    raw = mail.client.request("GET", "/emulator/ui/message", params={"id": stored["id"], "view": "raw"}).text
    assert sent["Message-ID"].replace("<", "&lt;").replace(">", "&gt;") in raw   # the source as received
    headers = mail.client.request("GET", "/emulator/ui/message", params={"id": stored["id"], "view": "headers"}).text
    # The headers as received, nothing of the emulator's added (the delivery is on the page).
    assert ">Message-ID</th>" in headers and ">Content-Type</th>" in headers and "X-Emulator" not in headers
    inbox = mail.client.request("GET", "/emulator/ui/outbox").text
    assert "Console view" in inbox and 'title="1 attachment"' in inbox
    # The attachment downloads from the message's page, as sent.
    attachment = mail.client.request("GET", "/emulator/ui/attachment", params={"id": stored["id"], "index": 0})
    assert attachment.status_code == 200 and attachment.content == b"%PDF-1.4"
    assert attachment.headers["Content-Disposition"] == 'attachment; filename="invoice.pdf"'
    assert attachment.headers["Content-Type"] == "application/pdf"
