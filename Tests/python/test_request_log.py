"""A refused request says why in the emulator's log: the request line of every 4xx carries the error
message at `info`, with tokens, codes and nonces shortened, never whole; JSON logs carry it as a
field. The binary is started for each format and its stderr read."""

import hashlib
import json
import time

import requests

from conftest import PROJECT_ID, start_emulator, stop_emulator

KEY = "any-key"


def stderr_of(running, wait_for, timeout=5):
    """The binary's stderr so far, once `wait_for` is in it (lines are written as requests finish)."""
    deadline = time.monotonic() + timeout
    while True:
        running.stderr_file.flush()
        running.stderr_file.seek(0)
        text = running.stderr_file.read().decode("utf-8", "replace")
        if wait_for in text or time.monotonic() > deadline:
            return text
        time.sleep(0.05)


def nonce_mismatch(host):
    """signInWithIdp with an Apple token whose nonce is the hash of another nonce than the one sent."""
    minted = requests.post(f"http://{host}/emulator/v1/idp/apple.com/tokens",
                           json={"email": "ada@example.com", "nonce": "the-raw-nonce-in-the-token"}, timeout=10).json()
    sent_nonce = "a-different-raw-nonce-0123456789abcdef"
    answer = requests.post(
        f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key={KEY}",
        json={"requestUri": "http://localhost", "returnSecureToken": True,
              "postBody": f"id_token={minted['idToken']}&providerId=apple.com&nonce={sent_nonce}"}, timeout=10)
    assert answer.status_code == 400
    return minted["idToken"], sent_nonce, answer.json()["error"]["message"]


def test_a_refused_request_logs_its_reason_on_the_request_line():
    running = start_emulator("--log-level", "info")
    try:
        id_token, sent_nonce, message = nonce_mismatch(running.host)
        assert message.startswith("MISSING_OR_INVALID_NONCE : The apple.com id_token nonce is not")
        # A refresh token and an oob code the server could quote: neither may appear whole.
        bad_code = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
        requests.post(f"http://{running.host}/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key={KEY}",
                      json={"oobCode": bad_code, "newPassword": "secret456"}, timeout=10)
        requests.post(f"http://{running.host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key={KEY}",
                      json={"email": "nobody@example.com", "password": "hunter2-secret"}, timeout=10)
        stderr = stderr_of(running, "signInWithPassword 400")
    finally:
        stop_emulator(running)
    lines = stderr.splitlines()
    idp = [line for line in lines if "accounts:signInWithIdp 400" in line]
    assert len(idp) == 1, stderr
    assert idp[0].startswith("INFO POST /identitytoolkit.googleapis.com/v1/accounts:signInWithIdp 400 ")
    assert idp[0].endswith("ms " + message), idp[0]
    password = [line for line in lines if "accounts:signInWithPassword 400" in line]
    assert password and password[0].endswith(" EMAIL_NOT_FOUND"), stderr
    reset = [line for line in lines if "accounts:resetPassword 400" in line]
    assert reset and "INVALID_OOB_CODE" in reset[0], stderr
    # Nothing secret is ever whole in the log: not the token, its parts, the nonces or the password.
    for secret in (id_token, *id_token.split(".")[:2], sent_nonce, bad_code, "hunter2-secret",
                   hashlib.sha256(b"the-raw-nonce-in-the-token").hexdigest(), "the-raw-nonce-in-the-token"):
        assert secret not in stderr
    # A 2xx line is as before: no reason.
    ok = [line for line in lines if "idp/apple.com/tokens 200" in line]
    assert ok and ok[0].endswith("ms"), stderr


def test_json_logs_carry_the_reason_as_a_field():
    running = start_emulator("--log-level", "info", "--log-format", "json")
    try:
        _, _, message = nonce_mismatch(running.host)
        missing = requests.get(f"http://{running.host}/emulator/v1/projects/{PROJECT_ID}/messages/no-such-id", timeout=10)
        assert missing.status_code == 404
        stderr = stderr_of(running, "no-such-id")
    finally:
        stop_emulator(running)
    entries = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    idp = [entry for entry in entries if entry.get("path", "").endswith("accounts:signInWithIdp")]
    assert len(idp) == 1, stderr
    entry = idp[0]
    assert entry["level"] == "info"
    assert entry["method"] == "POST" and entry["status"] == 400
    assert isinstance(entry["durationMs"], (int, float))
    assert entry["error"] == message
    assert entry["message"].endswith(" " + message)
    not_found = [entry for entry in entries if entry.get("status") == 404]
    assert not_found and not_found[0]["error"].startswith("MESSAGE_NOT_FOUND : No message no-such-id"), stderr
    # Answers that are not refusals have no error field.
    minted = [entry for entry in entries if entry.get("path", "").endswith("/tokens")]
    assert minted and minted[0]["status"] == 200 and "error" not in minted[0]


def test_a_refusal_that_quotes_a_secret_logs_it_shortened():
    # The fake Graph API refuses an unknown access token; a page token names itself in its refusal.
    running = start_emulator("--log-level", "info")
    page_token = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg"
    try:
        answer = requests.get(
            f"http://{running.host}/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/oauthIdpConfigs",
            params={"pageToken": page_token}, headers={"Authorization": "Bearer owner"}, timeout=10)
        assert answer.status_code == 400, answer.text
        assert page_token in answer.json()["error"]["message"]  # the client is told in full
        stderr = stderr_of(running, "oauthIdpConfigs 400")
    finally:
        stop_emulator(running)
    line = next(line for line in stderr.splitlines() if "oauthIdpConfigs 400" in line)
    assert "INVALID_PAGE_SELECTION : " + page_token[:6] + "…(" + str(len(page_token)) + ")" in line, line
    assert page_token not in stderr


def test_an_oversized_body_is_logged_too():
    # Refused by the server before routing, so its line names the refusal but not the route.
    running = start_emulator("--log-level", "info")
    try:
        answer = requests.post(f"http://{running.host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key={KEY}",
                               data=b"{" + b" " * (1024 * 1024 + 10) + b"}",
                               headers={"Content-Type": "application/json"}, timeout=10)
        assert answer.status_code == 413
        stderr = stderr_of(running, "refused before routing")
    finally:
        stop_emulator(running)
    assert "INFO request refused before routing: 413 Request payload is larger than the" in stderr, stderr
