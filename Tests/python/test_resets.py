"""Resets the way test suites use them: many small tests on one emulator, each resetting first and
reusing the same emails, uids and tenant ids as the others, in a seeded random order.

Each "case" below checks that it starts from a fresh project, then leaves state behind on purpose
(a deleted tenant, a config switch, a message, a provider config, a code) for the next case to
trip over if a reset missed it. `RESET_SEED=<n>` replays an order; a failure prints its seed.
"""

import json
import os
import random
import urllib.parse

import pytest
import requests

from conftest import start_emulator, stop_emulator

PROJECT = "demo-resets"
OWNER = {"Authorization": "Bearer owner"}
V1 = "/identitytoolkit.googleapis.com/v1"
V2 = f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}"
EMULATOR = f"/emulator/v1/projects/{PROJECT}"
ROUNDS = 4


class Api:
    def __init__(self, host):
        self.base = f"http://{host}"
        self.session = requests.Session()

    def send(self, method, path, body=None, *, headers=None, params=None, expect=200):
        response = self.session.request(method, self.base + path, json=body, headers=headers, params=params, timeout=10)
        if expect is not None:
            assert response.status_code == expect, f"{method} {path} -> {response.status_code}: {response.text}"
        return response

    def json(self, method, path, body=None, **kwargs):
        return self.send(method, path, body, **kwargs).json()

    def client(self, op, body, expect=200):
        return self.send("POST", f"{V1}/accounts:{op}", body, params={"key": "k"}, expect=expect)

    def error(self, response):
        return response.json()["error"]["message"]


@pytest.fixture(scope="module")
def api():
    running = start_emulator(project_id=PROJECT)
    client = Api(running.host)
    try:
        yield client
    finally:
        client.session.close()
        stop_emulator(running)


# The cases. Each starts with its project freshly reset.

def tenant_get_creates_it_with_defaults(api):
    # Upstream's "should create tenants with default enabled settings if they do not exist".
    tenant = api.json("GET", f"{V2}/tenants/team-a", headers=OWNER)
    assert tenant["allowPasswordSignup"] is True and tenant["enableEmailLinkSignin"] is True
    assert [t["tenantId"] for t in api.json("GET", f"{V2}/tenants", headers=OWNER).get("tenants", [])] == ["team-a"]


def tenant_deleted_stays_deleted_until_reset(api):
    api.json("GET", f"{V2}/tenants/team-a", headers=OWNER)
    api.send("DELETE", f"{V2}/tenants/team-a", headers=OWNER)
    assert api.error(api.send("GET", f"{V2}/tenants/team-a", headers=OWNER, expect=400)) == "TENANT_NOT_FOUND"


def tenant_with_password_sign_up_off(api):
    api.json("PATCH", f"{V2}/tenants/team-b", {"allowPasswordSignup": False}, headers=OWNER,
             params={"updateMask": "allowPasswordSignup"})
    refused = api.client("signUp", {"email": "ada@example.com", "password": "secret123", "tenantId": "team-b"}, expect=400)
    assert api.error(refused).startswith("OPERATION_NOT_ALLOWED")


def tenant_user_signs_up(api):
    api.client("signUp", {"email": "ada@example.com", "password": "secret123", "tenantId": "team-b"})
    count = api.json("POST", f"{V1}/projects/{PROJECT}/tenants/team-b/accounts:query", {"returnUserInfo": False}, headers=OWNER)
    assert count["recordsCount"] == "1"


def password_user_signs_up_once(api):
    assert api.json("POST", f"{V1}/projects/{PROJECT}/accounts:query", {"returnUserInfo": False}, headers=OWNER)["recordsCount"] == "0"
    api.client("signUp", {"email": "ada@example.com", "password": "secret123"})
    assert api.error(api.client("signUp", {"email": "ada@example.com", "password": "secret123"}, expect=400)) == "EMAIL_EXISTS"


def password_reset_mail_is_the_only_message(api):
    assert api.json("GET", f"{EMULATOR}/messages")["messages"] == []
    assert api.json("GET", f"{EMULATOR}/oobCodes")["oobCodes"] == []
    api.client("signUp", {"email": "ada@example.com", "password": "secret123"})
    api.client("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "ada@example.com"})
    assert len(api.json("GET", f"{EMULATOR}/messages")["messages"]) == 1
    assert len(api.json("GET", f"{EMULATOR}/oobCodes")["oobCodes"]) == 1


def email_privacy_on(api):
    api.json("PATCH", f"{EMULATOR}/config", {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}})
    api.client("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "nobody@example.com"})


def email_privacy_off_by_default(api):
    refused = api.client("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "nobody@example.com"}, expect=400)
    assert api.error(refused) == "EMAIL_NOT_FOUND"
    assert api.json("GET", f"{EMULATOR}/config")["emailPrivacyConfig"] == {"enableImprovedEmailPrivacy": False}


def relay_limit_changed(api):
    assert api.json("GET", f"{EMULATOR}/privateRelay")["dailyLimit"] == 100
    api.json("PATCH", f"{EMULATOR}/privateRelay", {"dailyLimit": 1, "registeredSenders": ["@example.com"]})


def sms_code_is_the_only_one(api):
    assert api.json("GET", f"{EMULATOR}/verificationCodes")["verificationCodes"] == []
    api.client("sendVerificationCode", {"phoneNumber": "+16505550100"})
    assert len(api.json("GET", f"{EMULATOR}/verificationCodes")["verificationCodes"]) == 1


def apple_config_created_once(api):
    assert api.json("GET", f"{V2}/defaultSupportedIdpConfigs", headers=OWNER).get("defaultSupportedIdpConfigs", []) == []
    api.json("POST", f"{V2}/defaultSupportedIdpConfigs", {"clientId": "com.example.only"}, headers=OWNER,
             params={"idpId": "apple.com"})


def apple_sign_in_accepts_any_audience(api):
    minted = api.json("POST", "/emulator/v1/idp/apple.com/tokens", {"email": "ada@example.com", "audience": "com.example.app"})
    answer = api.client("signInWithIdp", {"requestUri": "http://localhost", "postBody": minted["postBody"],
                                           "returnSecureToken": True}).json()
    assert answer["isNewUser"] is True


def widget_lists_only_this_projects_accounts(api):
    query = urllib.parse.urlencode({"apiKey": "k", "providerId": "google.com", "authType": "signInViaPopup",
                                    "eventId": "E1", "appName": "app"})
    assert "widget@example.com" not in api.send("GET", f"/emulator/auth/handler?{query}").text
    claims = json.dumps({"sub": "widget-1", "email": "widget@example.com"})
    api.client("signInWithIdp", {"requestUri": "http://localhost", "returnSecureToken": True,
                                 "postBody": f"id_token={urllib.parse.quote(claims)}&providerId=google.com"})
    assert "widget@example.com" in api.send("GET", f"/emulator/auth/handler?{query}").text


CASES = [
    tenant_get_creates_it_with_defaults, tenant_deleted_stays_deleted_until_reset, tenant_with_password_sign_up_off,
    tenant_user_signs_up, password_user_signs_up_once, password_reset_mail_is_the_only_message, email_privacy_on,
    email_privacy_off_by_default, relay_limit_changed, sms_code_is_the_only_one, apple_config_created_once,
    apple_sign_in_accepts_any_audience, widget_lists_only_this_projects_accounts,
]


def run_in_random_order(api, reset):
    seed = int(os.environ.get("RESET_SEED") or random.SystemRandom().randrange(1 << 32))
    order = [case for _ in range(ROUNDS) for case in CASES]
    random.Random(seed).shuffle(order)
    for position, case in enumerate(order):
        try:
            reset()
            case(api)
        except AssertionError as failure:
            ran_before = ", ".join(c.__name__ for c in order[max(0, position - 3):position])
            raise AssertionError(f"RESET_SEED={seed}: case {position} {case.__name__} (after {ran_before}): {failure}") from None


def test_cases_reset_their_project_and_run_in_any_order(api):
    run_in_random_order(api, lambda: assert_empty_answer(api.send("POST", f"{EMULATOR}:reset")))


def test_cases_reset_the_whole_emulator_and_run_in_any_order(api):
    run_in_random_order(api, lambda: assert_empty_answer(api.send("POST", "/emulator/v1/reset")))


def test_deleting_accounts_is_not_enough_for_these_cases(api):
    """The same cases with only `DELETE …/accounts` between them: the state it keeps, as the official
    emulator keeps it, trips the case that follows (this is why the resets exist)."""
    api.send("POST", f"{EMULATOR}:reset")
    tenant_deleted_stays_deleted_until_reset(api)
    api.send("DELETE", f"{EMULATOR}/accounts")
    with pytest.raises(AssertionError, match="TENANT_NOT_FOUND"):
        tenant_get_creates_it_with_defaults(api)


def assert_empty_answer(response):
    assert response.status_code == 200 and response.json() == {}, f"{response.status_code}: {response.text}"
