"""The emulator clock's reset and set routes, their refusals, a `--data` restart, and what a move
back does to what was issued while the clock was ahead (docs/clock.md says the same)."""

from datetime import datetime, timedelta, timezone

import pytest
import requests

from conftest import PROJECT_ID, start_emulator, stop_emulator

KEY = "any-key"


def parse(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def rfc3339(moment):
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@pytest.fixture
def own():
    """A binary of its own: these tests move the shared clock backwards and forwards."""
    running = start_emulator()
    yield running
    stop_emulator(running)


def clock(host, action=None, **body):
    if action is None:
        response = requests.get(f"http://{host}/emulator/v1/clock", timeout=10)
    else:
        response = requests.post(f"http://{host}/emulator/v1/clock:{action}", json=body, timeout=10)
    return response


def error_message(response):
    return response.json()["error"]["message"]


def test_set_moves_the_clock_to_the_time_given_and_reset_returns_to_real_time(own):
    target = datetime.now(timezone.utc) + timedelta(days=3, hours=2)
    answer = clock(own.host, "set", time=rfc3339(target))
    assert answer.status_code == 200, answer.text
    assert abs(parse(answer.json()["now"]) - target) < timedelta(seconds=2)
    assert abs(answer.json()["offsetSeconds"] - (3 * 86400 + 7200)) < 2
    assert abs(parse(clock(own.host).json()["now"]) - target) < timedelta(seconds=2)

    reset = clock(own.host, "reset")
    assert reset.status_code == 200, reset.text
    assert reset.json()["offsetSeconds"] == 0
    assert abs(parse(reset.json()["now"]) - datetime.now(timezone.utc)) < timedelta(seconds=2)
    # Advance still works from real time after a reset.
    advanced = clock(own.host, "advance", seconds=60)
    assert abs(parse(advanced.json()["now"]) - datetime.now(timezone.utc) - timedelta(seconds=60)) < timedelta(seconds=2)


def test_set_reads_rfc3339_offsets_and_fractions(own):
    target = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=1)
    in_tokyo = target.astimezone(timezone(timedelta(hours=9))).isoformat()  # 2026-…T…+09:00
    answer = clock(own.host, "set", time=in_tokyo)
    assert answer.status_code == 200, answer.text
    assert abs(parse(answer.json()["now"]) - target) < timedelta(seconds=2)
    fractional = (target + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%S.123456Z")
    answer = clock(own.host, "set", time=fractional)
    assert answer.status_code == 200, answer.text
    assert abs(parse(answer.json()["now"]) - target - timedelta(days=1)) < timedelta(seconds=2)


@pytest.mark.parametrize("body, expected", [
    ({}, "INVALID_ARGUMENT : time (an RFC 3339 string"),
    ({"time": 1893456000}, "INVALID_ARGUMENT : time (an RFC 3339 string"),
    ({"time": "tomorrow"}, 'INVALID_ARGUMENT : time must be an RFC 3339 date-time such as 2030-01-01T00:00:00Z or 2030-01-01T09:00:00+09:00, not "tomorrow".'),
    ({"time": "2030-02-30T00:00:00Z"}, "INVALID_ARGUMENT : time must be an RFC 3339 date-time"),
    ({"time": "2030-01-01T25:00:00Z"}, "INVALID_ARGUMENT : time must be an RFC 3339 date-time"),
    ({"time": "2030-01-01 00:00:00"}, "INVALID_ARGUMENT : time must be an RFC 3339 date-time"),
    ({"time": "2020-01-01T00:00:00Z"}, "INVALID_ARGUMENT : time 2020-01-01T00:00:00.000Z is earlier than real time"),
])
def test_set_refuses_what_is_not_a_time_at_or_after_real_time(own, body, expected):
    clock(own.host, "advance", seconds=3600)
    before = clock(own.host).json()["now"]
    answer = clock(own.host, "set", **body)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == 400
    assert error_message(answer).startswith(expected), error_message(answer)
    # A refusal leaves the clock where it was (an hour ahead).
    assert abs(parse(clock(own.host).json()["now"]) - parse(before)) < timedelta(seconds=2)


def test_a_data_restart_keeps_a_set_clock_and_a_reset(tmp_path):
    data = str(tmp_path / "state.sqlite")
    target = datetime.now(timezone.utc) + timedelta(days=10)
    first = start_emulator("--data", data)
    try:
        assert clock(first.host, "set", time=rfc3339(target)).status_code == 200
    finally:
        stop_emulator(first)
    second = start_emulator("--data", data)
    try:
        assert abs(parse(clock(second.host).json()["now"]) - target) < timedelta(seconds=5)
        assert clock(second.host, "reset").status_code == 200
    finally:
        stop_emulator(second)
    third = start_emulator("--data", data)
    try:
        assert abs(parse(clock(third.host).json()["now"]) - datetime.now(timezone.utc)) < timedelta(seconds=5)
    finally:
        stop_emulator(third)


def api(host, method, body):
    return requests.post(f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:{method}?key={KEY}",
                         json=body, timeout=10)


def refresh(host, token):
    return requests.post(f"http://{host}/securetoken.googleapis.com/v1/token?key={KEY}",
                         data={"grant_type": "refresh_token", "refresh_token": token}, timeout=10)


def test_what_a_move_back_does_to_what_was_issued_in_the_future(own):
    # docs/clock.md, "Moving back", describes exactly these outcomes.
    host = own.host
    api(host, "signUp", {"email": "early@example.com", "password": "secret123"}).raise_for_status()
    clock(host, "advance", seconds=6 * 3600).raise_for_status()
    ahead = api(host, "signUp", {"email": "ahead@example.com", "password": "secret123", "returnSecureToken": True}).json()
    api(host, "sendOobCode", {"requestType": "PASSWORD_RESET", "email": "ahead@example.com"}).raise_for_status()
    code = requests.get(f"http://{host}/emulator/v1/projects/{PROJECT_ID}/messages/latest",
                        params={"to": "ahead@example.com"}, timeout=10).json()["oobCode"]
    minted = requests.post(f"http://{host}/emulator/v1/idp/google.com/tokens", json={"email": "g@example.com"},
                           timeout=10).json()
    early = api(host, "signInWithPassword", {"email": "early@example.com", "password": "secret123",
                                             "returnSecureToken": True}).json()
    clock(host, "reset").raise_for_status()

    # ID tokens keep their future iat/exp and are still accepted by the emulator.
    assert api(host, "lookup", {"idToken": ahead["idToken"]}).status_code == 200
    # A refresh token issued ahead still refreshes; the new ID token is stamped with real time.
    refreshed = refresh(host, ahead["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    # A code issued ahead keeps its expiry, so it lives longer (here 7 h of real time instead of 1 h).
    assert api(host, "resetPassword", {"oobCode": code}).status_code == 200
    # A provider token minted ahead is refused: its iat is in the future.
    idp = api(host, "signInWithIdp", {"requestUri": "http://localhost", "postBody": minted["postBody"],
                                      "returnSecureToken": True})
    assert idp.status_code == 400
    assert "INVALID_IDP_RESPONSE : The id_token was issued at" in error_message(idp)
    assert "in the future" in error_message(idp)
    # A user created ahead: a refresh token issued after the move back predates the account, which is
    # how a reused id looks, so it is refused until real time passes the account's createdAt.
    again = api(host, "signInWithPassword", {"email": "ahead@example.com", "password": "secret123",
                                             "returnSecureToken": True})
    assert again.status_code == 200
    assert error_message(refresh(host, again.json()["refreshToken"])) == "USER_NOT_FOUND"
    # A user created before the jump is not affected.
    assert refresh(host, early["refreshToken"]).status_code == 200


def test_revoking_while_ahead_revokes_until_real_time_catches_up(own):
    host = own.host
    user = api(host, "signUp", {"email": "rev@example.com", "password": "secret123", "returnSecureToken": True}).json()
    clock(host, "advance", seconds=3600).raise_for_status()
    requests.post(f"http://{host}/identitytoolkit.googleapis.com/v1/projects/{PROJECT_ID}/accounts:update",
                  headers={"Authorization": "Bearer owner"},
                  json={"localId": user["localId"], "validSince": str(int(parse(clock(host).json()["now"]).timestamp()))},
                  timeout=10).raise_for_status()
    clock(host, "reset").raise_for_status()
    # validSince stays an hour ahead: sessions started after the reset count as older than it.
    fresh = api(host, "signInWithPassword", {"email": "rev@example.com", "password": "secret123",
                                             "returnSecureToken": True}).json()
    assert error_message(refresh(host, fresh["refreshToken"])) == "TOKEN_EXPIRED"
    assert error_message(api(host, "lookup", {"idToken": fresh["idToken"]})) == "TOKEN_EXPIRED"
