"""Phone sign-in, multi-factor (SMS and TOTP) and passkeys end to end, as the Apple SDK drives them.

Phone calls go through the v1 paths and the legacy v3 `sendVerificationCode` / `verifyPhoneNumber`
with the `operation` the Apple SDK sends (firebase-ios-sdk-auth-wire.md §3.15); MFA through the v2
paths in the order the SDK's resolver uses them (§3.14). SMS codes are read from the outbox and from
the official `verificationCodes` list. TOTP codes are computed here (RFC 6238, hmac + struct), at the
EMULATOR clock's time, never with server code. Phone numbers and emails are unique per test; tests
that move the clock or change project-wide configuration get a binary of their own (`own`).
"""

import base64
import hashlib
import hmac
import math
import random
import re
import struct
import time
import urllib.parse

import pytest
from firebase_admin import auth

from conftest import PROJECT_ID
from emulator_client import API_KEY, IDENTITY_TOOLKIT, LEGACY_V3, assert_error, decode_jwt, error_of
from outbox_client import Outbox
from test_federation import Federation, apple_sub, expect_ok, parse_rfc3339, running_emulator, unique, unique_email

V2 = "/identitytoolkit.googleapis.com/v2"
PASSWORD = "password-1"
SMS_LIFETIME = 300
UNSUPPORTED_PHONE_FIRST_FACTOR = ("UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor "
                                  "on an SMS based MFA user.")
UNSUPPORTED_MFA_FIRST_FACTOR = "UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor."
PROVIDER_NOT_SUPPORTED = "INVALID_ARGUMENT : MFA provider not supported!"
_used_numbers = set()


@pytest.fixture
def own():
    """A fresh emulator for this test alone (its clock and configuration are its own)."""
    with running_emulator() as federation:
        yield federation


@pytest.fixture
def fed(client):
    return Federation(client)


@pytest.fixture
def outbox(client):
    return Outbox(client)


def unique_phone():
    while True:
        number = f"+1650{random.randrange(10 ** 7):07d}"
        if number not in _used_numbers:
            _used_numbers.add(number)
            return number


def masked(phone):
    """Every digit but the last four replaced with `*` (`+15555550100` → `+*******0100`)."""
    return phone[0] + "*" * (len(phone) - 5) + phone[-4:]


def claims(id_token):
    return decode_jwt(id_token)[1]


# Requests as the SDKs send them ---------------------------------------------------------------

def v1(client, op, body):
    return client.request("POST", f"{IDENTITY_TOOLKIT}/accounts:{op}", params={"key": API_KEY}, json=body)


def v3(client, name, body, key=API_KEY):
    return client.request("POST", f"{LEGACY_V3}/{name}", params={"key": key}, json=body)


def v2(client, op, body, *, key=API_KEY, headers=None):
    params = {"key": key} if key else {}
    return client.request("POST", f"{V2}/accounts/{op}", params=params, json=body, headers=headers)


def send_code(client, phone, *, legacy=False, **extra):
    body = {"phoneNumber": phone, "clientType": "CLIENT_TYPE_IOS", **extra}
    response = v3(client, "sendVerificationCode", body) if legacy else v1(client, "sendVerificationCode", body)
    answer = expect_ok(response, "sendVerificationCode")
    assert answer["sessionInfo"], answer
    return answer["sessionInfo"]


def verify_phone(client, *, legacy=False, **body):
    return v3(client, "verifyPhoneNumber", body) if legacy else v1(client, "signInWithPhoneNumber", body)


def sms(outbox, phone, request_type):
    """The latest SMS of `request_type` to `phone`, checked for its shape."""
    message = expect_ok(outbox.get("/latest", to=phone, requestType=request_type), "outbox")
    assert message["to"] == phone and message["requestType"] == request_type, message
    assert re.fullmatch(r"\d{6}", message["oobCode"]), message
    assert message["oobCode"] in message["text"], message
    return message


def official_codes(client, phone):
    body = expect_ok(client.request("GET", f"/emulator/v1/projects/{PROJECT_ID}/verificationCodes"))
    assert set(body) == {"verificationCodes"}, body
    return [entry for entry in body["verificationCodes"] if entry["phoneNumber"] == phone]


def phone_sign_in(client, outbox, phone, *, legacy=True, operation="SIGN_UP_OR_IN", **extra):
    session = send_code(client, phone, legacy=legacy)
    code = sms(outbox, phone, "PHONE_SIGN_IN")["oobCode"]
    return expect_ok(verify_phone(client, legacy=legacy, sessionInfo=session, code=code, operation=operation,
                                  **extra), "verifyPhoneNumber")


def lookup(client, local_id):
    [user] = expect_ok(client.admin_call("lookup", {"localId": [local_id]}))["users"]
    return user


def verified_user(client, email=None):
    email = email or unique_email("mfa")
    user = client.sign_up(email, PASSWORD)
    expect_ok(client.admin_call("update", {"localId": user["localId"], "emailVerified": True}))
    return {**user, "email": email}


def admin_enroll(client, local_id, *phones):
    enrollments = [{"mfaEnrollmentId": unique("mfa"), "phoneInfo": phone, "displayName": f"phone {index}"}
                   for index, phone in enumerate(phones)]
    expect_ok(client.admin_call("update", {"localId": local_id, "mfa": {"enrollments": enrollments}}))
    return [entry["mfaEnrollmentId"] for entry in enrollments]


# TOTP (RFC 6238), computed here -----------------------------------------------------------------

def totp_at(key, unix_seconds, digits=6, period=30):
    digest = hmac.new(key, struct.pack(">Q", int(unix_seconds) // period), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = (struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 10 ** digits
    return f"{value:0{digits}d}"


def totp(secret_b32, client, steps=0):
    """The code for the emulator clock's current step plus `steps`."""
    now = parse_rfc3339(expect_ok(client.request("GET", "/emulator/v1/clock"))["now"])
    key = base64.b32decode(secret_b32.upper() + "=" * (-len(secret_b32) % 8))
    return totp_at(key, now.timestamp() + 30 * steps)


def test_totp_helper_matches_rfc_6238_vectors():
    key = b"12345678901234567890"
    assert totp_at(key, 59, digits=8) == "94287082"
    assert totp_at(key, 1111111109, digits=8) == "07081804"
    assert totp_at(key, 1234567890, digits=8) == "89005924"


# MFA helpers ----------------------------------------------------------------------------------

def start_phone_enrollment(client, id_token, phone):
    body = {"idToken": id_token, "phoneEnrollmentInfo": {"phoneNumber": phone}}
    return expect_ok(v2(client, "mfaEnrollment:start", body))["phoneSessionInfo"]["sessionInfo"]


def enroll_phone(client, outbox, id_token, phone, name="My phone"):
    session = start_phone_enrollment(client, id_token, phone)
    message = sms(outbox, phone, "MFA_ENROLLMENT")
    answer = expect_ok(v2(client, "mfaEnrollment:finalize", {
        "idToken": id_token, "displayName": name,
        "phoneVerificationInfo": {"sessionInfo": session, "code": message["oobCode"]}}))
    assert answer["idToken"] and answer["refreshToken"], answer
    firebase = claims(answer["idToken"])["firebase"]
    assert firebase["sign_in_second_factor"] == "phone", firebase
    return firebase["second_factor_identifier"], answer


def start_totp(client, id_token):
    start = expect_ok(v2(client, "mfaEnrollment:start", {"idToken": id_token, "totpEnrollmentInfo": {}}))
    info = start["totpSessionInfo"]
    assert (info["verificationCodeLength"], info["hashingAlgorithm"], info["periodSec"]) == (6, "SHA1", 30), info
    assert re.fullmatch(r"[A-Z2-7]+=*", info["sharedSecretKey"]), info
    assert info["sessionInfo"] and info["finalizeEnrollmentTime"], info
    uri = urllib.parse.urlsplit(info["otpauthUri"])
    assert (uri.scheme, uri.netloc) == ("otpauth", "totp"), info
    assert urllib.parse.parse_qs(uri.query)["secret"] == [info["sharedSecretKey"]], info
    return info


def finalize_totp(client, id_token, info, code, name="Authenticator"):
    return v2(client, "mfaEnrollment:finalize", {
        "idToken": id_token, "displayName": name,
        "totpVerificationInfo": {"sessionInfo": info["sessionInfo"], "verificationCode": code}})


def enroll_totp(client, id_token):
    info = start_totp(client, id_token)
    answer = expect_ok(finalize_totp(client, id_token, info, totp(info["sharedSecretKey"], client)))
    firebase = claims(answer["idToken"])["firebase"]
    assert firebase["sign_in_second_factor"] == "totp", firebase
    return firebase["second_factor_identifier"], info["sharedSecretKey"]


def pending(response):
    """A first-factor answer that asks for a second factor: no tokens, a pending credential, hints."""
    answer = expect_ok(response, "first factor")
    assert "idToken" not in answer and "refreshToken" not in answer, answer
    assert answer["mfaPendingCredential"] and answer["mfaInfo"], answer
    return answer


def password_first_factor(client, email):
    return v3(client, "verifyPassword", {"email": email, "password": PASSWORD, "returnSecureToken": True})


def mfa_phone_sign_in(client, outbox, first, phone, hint_index=0):
    """mfaSignIn:start with the hint (phoneInfo sent back verbatim), the SMS, then finalize."""
    hint = first["mfaInfo"][hint_index]
    start = expect_ok(v2(client, "mfaSignIn:start", {
        "mfaPendingCredential": first["mfaPendingCredential"], "mfaEnrollmentId": hint["mfaEnrollmentId"],
        "phoneSignInInfo": {"phoneNumber": hint["phoneInfo"]}}))
    session = start["phoneResponseInfo"]["sessionInfo"]
    code = sms(outbox, phone, "MFA_SIGN_IN")["oobCode"]
    return expect_ok(v2(client, "mfaSignIn:finalize", {
        "mfaPendingCredential": first["mfaPendingCredential"],
        "phoneVerificationInfo": {"sessionInfo": session, "code": code}}))


def assert_second_factor(answer, factor, enrollment_id, provider):
    assert answer["idToken"] and answer["refreshToken"], answer
    firebase = claims(answer["idToken"])["firebase"]
    assert firebase["sign_in_second_factor"] == factor, firebase
    assert firebase["second_factor_identifier"] == enrollment_id, firebase
    assert firebase["sign_in_provider"] == provider, firebase


# Phone sign-in ----------------------------------------------------------------------------------

@pytest.mark.parametrize("legacy", [False, True])
def test_new_then_returning_phone_user(client, outbox, legacy):
    phone = unique_phone()
    session = send_code(client, phone, legacy=legacy)
    message = sms(outbox, phone, "PHONE_SIGN_IN")
    assert message["text"] == f"{message['oobCode']} is your verification code for project-{PROJECT_ID}.", message
    assert official_codes(client, phone) == [{"code": message["oobCode"], "phoneNumber": phone, "sessionInfo": session}]
    first = expect_ok(verify_phone(client, legacy=legacy, sessionInfo=session, code=message["oobCode"],
                                   operation="SIGN_UP_OR_IN"))
    assert first["isNewUser"] is True and first["phoneNumber"] == phone and first["expiresIn"] == "3600", first
    assert first["idToken"] and first["refreshToken"] and first["localId"], first
    assert claims(first["idToken"])["firebase"]["sign_in_provider"] == "phone"
    assert claims(first["idToken"])["phone_number"] == phone
    assert official_codes(client, phone) == []  # used codes leave the list
    assert lookup(client, first["localId"])["phoneNumber"] == phone

    # The code from the official list signs in too; the returning user is the same.
    session = send_code(client, phone, legacy=legacy)
    [entry] = official_codes(client, phone)
    assert entry["sessionInfo"] == session
    again = expect_ok(verify_phone(client, legacy=legacy, sessionInfo=session, code=entry["code"]))
    assert again["localId"] == first["localId"] and not again.get("isNewUser"), again


def test_wrong_code_leaves_the_session_usable_and_a_code_is_single_use(client, outbox):
    phone = unique_phone()
    session = send_code(client, phone, legacy=True)
    code = sms(outbox, phone, "PHONE_SIGN_IN")["oobCode"]
    wrong = f"{(int(code) + 1) % 10 ** 6:06d}"
    assert_error(verify_phone(client, legacy=True, sessionInfo=session, code=wrong, operation="SIGN_UP_OR_IN"),
                 400, "INVALID_CODE")
    expect_ok(verify_phone(client, legacy=True, sessionInfo=session, code=code, operation="SIGN_UP_OR_IN"))
    assert_error(verify_phone(client, legacy=True, sessionInfo=session, code=code, operation="SIGN_UP_OR_IN"),
                 400, "INVALID_SESSION_INFO")


def test_reauth_signs_in_the_owner_and_never_creates_a_user(client, outbox):
    phone = unique_phone()
    owner = phone_sign_in(client, outbox, phone)
    again = phone_sign_in(client, outbox, phone, operation="REAUTH")
    assert again["localId"] == owner["localId"], again
    stranger = unique_phone()
    session = send_code(client, stranger, legacy=True)
    code = sms(outbox, stranger, "PHONE_SIGN_IN")["oobCode"]
    assert_error(verify_phone(client, legacy=True, sessionInfo=session, code=code, operation="REAUTH"),
                 400, "USER_NOT_FOUND")
    found = expect_ok(client.admin_call("lookup", {"phoneNumber": [stranger]}))
    assert found.get("users", []) == []


@pytest.mark.parametrize("legacy", [False, True])
def test_link_then_update_the_phone_of_an_email_user(client, outbox, legacy):
    user = client.sign_up(unique_email("link"), PASSWORD)
    phone, other = unique_phone(), unique_phone()
    linked = phone_sign_in(client, outbox, phone, legacy=legacy, operation="LINK", idToken=user["idToken"])
    assert linked["localId"] == user["localId"] and linked["phoneNumber"] == phone, linked
    assert linked["idToken"] and linked["refreshToken"], linked
    record = lookup(client, user["localId"])
    assert record["phoneNumber"] == phone and record["email"] == user["email"], record
    assert {info["providerId"] for info in record["providerUserInfo"]} == {"password", "phone"}, record

    updated = phone_sign_in(client, outbox, other, legacy=legacy, operation="UPDATE", idToken=linked["idToken"])
    assert updated["localId"] == user["localId"] and updated["phoneNumber"] == other, updated
    assert lookup(client, user["localId"])["phoneNumber"] == other


def test_temporary_proof_for_a_number_another_user_owns(client, outbox):
    phone = unique_phone()
    owner = phone_sign_in(client, outbox, phone)
    other = client.sign_up(unique_email("proof"), PASSWORD)

    def proof():
        answer = phone_sign_in(client, outbox, phone, operation="LINK", idToken=other["idToken"])
        assert answer["phoneNumber"] == phone and answer["temporaryProofExpiresIn"] == "3600", answer
        assert answer["temporaryProof"], answer
        assert not {"idToken", "refreshToken"} & set(answer), answer
        return answer["temporaryProof"]

    first, second = proof(), proof()
    assert "phoneNumber" not in lookup(client, other["localId"])
    assert_error(verify_phone(client, legacy=True, temporaryProof=first, phoneNumber=phone, idToken=other["idToken"],
                              operation="LINK"), 400, "PHONE_NUMBER_EXISTS")
    assert_error(verify_phone(client, legacy=True, temporaryProof=second), 400, "MISSING_PHONE_NUMBER")
    assert_error(verify_phone(client, legacy=True, temporaryProof=second, phoneNumber=unique_phone()),
                 400, "INVALID_TEMPORARY_PROOF")
    assert_error(verify_phone(client, legacy=True, temporaryProof="not-a-proof", phoneNumber=phone),
                 400, "INVALID_TEMPORARY_PROOF")
    signed_in = expect_ok(verify_phone(client, legacy=True, temporaryProof=second, phoneNumber=phone,
                                       operation="SIGN_UP_OR_IN"))
    assert signed_in["localId"] == owner["localId"] and signed_in["idToken"], signed_in
    assert claims(signed_in["idToken"])["firebase"]["sign_in_provider"] == "phone"


def test_codes_expire_after_five_minutes_by_the_emulator_clock(own):
    client, outbox = own.client, Outbox(own.client)
    phone = unique_phone()
    early = send_code(client, phone, legacy=True)
    early_code = sms(outbox, phone, "PHONE_SIGN_IN")["oobCode"]
    late = send_code(client, phone, legacy=True)
    late_code = sms(outbox, phone, "PHONE_SIGN_IN")["oobCode"]
    own.advance(SMS_LIFETIME - 10)
    expect_ok(verify_phone(client, legacy=True, sessionInfo=early, code=early_code, operation="SIGN_UP_OR_IN"))
    own.advance(20)
    assert_error(verify_phone(client, legacy=True, sessionInfo=late, code=late_code, operation="SIGN_UP_OR_IN"), 400,
                 "SESSION_EXPIRED : The SMS code has expired. Please re-send the verification code to try again.")


def test_enrollment_codes_expire_too(own):
    client, outbox = own.client, Outbox(own.client)
    user = verified_user(client)
    phone = unique_phone()
    session = start_phone_enrollment(client, user["idToken"], phone)
    code = sms(outbox, phone, "MFA_ENROLLMENT")["oobCode"]
    own.advance(SMS_LIFETIME + 1)
    response = v2(client, "mfaEnrollment:finalize", {
        "idToken": user["idToken"], "phoneVerificationInfo": {"sessionInfo": session, "code": code}})
    assert_error(response, 400,
                 "SESSION_EXPIRED : The SMS code has expired. Please re-send the verification code to try again.")


def config(own, body=None):
    path = f"/emulator/v1/projects/{PROJECT_ID}/config"
    if body is None:
        return expect_ok(own.client.request("GET", path))
    return own.client.request("PATCH", path, json=body)


def test_fictional_test_numbers_have_fixed_codes_and_no_sms(own):
    client, outbox = own.client, Outbox(own.client)
    numbers = {"+16505551234": "123456", "+16505559999": "000000"}
    expect_ok(config(own, {"signIn": {"phoneNumber": {"testPhoneNumbers": numbers}}}))
    assert config(own)["signIn"]["phoneNumber"]["testPhoneNumbers"] == numbers
    session = send_code(client, "+16505551234", legacy=True)
    assert outbox.messages(to="+16505551234") == []
    assert_error(verify_phone(client, legacy=True, sessionInfo=session, code="654321", operation="SIGN_UP_OR_IN"),
                 400, "INVALID_CODE")
    first = expect_ok(verify_phone(client, legacy=True, sessionInfo=session, code="123456", operation="SIGN_UP_OR_IN"))
    assert first["isNewUser"] is True and first["phoneNumber"] == "+16505551234", first
    again = expect_ok(verify_phone(client, legacy=True, sessionInfo=send_code(client, "+16505551234"), code="123456"))
    assert again["localId"] == first["localId"]
    # Other numbers still get a real SMS.
    real = unique_phone()
    send_code(client, real)
    sms(outbox, real, "PHONE_SIGN_IN")

    for bad, prefix in (({"5551234": "123456"}, "INVALID_PHONE_NUMBER : "),
                        ({"+16505550000": "12345"}, "INVALID_TEST_PHONE_NUMBER_CODE : "),
                        ({"+16505550000": "abcdef"}, "INVALID_TEST_PHONE_NUMBER_CODE : ")):
        response = config(own, {"signIn": {"phoneNumber": {"testPhoneNumbers": bad}}})
        assert response.status_code == 400 and error_of(response)["message"].startswith(prefix), (bad, response.text)
    assert config(own)["signIn"]["phoneNumber"]["testPhoneNumbers"] == numbers
    expect_ok(config(own, {}))  # the official quirk: an empty PATCH resets everything
    assert "phoneNumber" not in config(own)["signIn"]


@pytest.mark.parametrize("legacy", [False, True])
def test_phone_errors(client, outbox, legacy):
    for body in ({}, {"phoneNumber": "16505551234"}, {"phoneNumber": ""}):
        response = (v3(client, "sendVerificationCode", body) if legacy else v1(client, "sendVerificationCode", body))
        assert_error(response, 400, "INVALID_PHONE_NUMBER : Invalid format.")
    tenant_body = {"phoneNumber": unique_phone(), "tenantId": unique("tenant")}
    response = v3(client, "sendVerificationCode", tenant_body) if legacy else v1(client, "sendVerificationCode",
                                                                                  tenant_body)
    assert_error(response, 400, "UNSUPPORTED_TENANT_OPERATION")
    assert_error(verify_phone(client, legacy=legacy, sessionInfo="x", code="123456", tenantId=unique("tenant")),
                 400, "UNSUPPORTED_TENANT_OPERATION")

    phone = unique_phone()
    session = send_code(client, phone, legacy=legacy)
    assert_error(verify_phone(client, legacy=legacy, sessionInfo=session), 400, "MISSING_CODE")
    assert_error(verify_phone(client, legacy=legacy, code="123456"), 400, "MISSING_SESSION_INFO")
    assert_error(verify_phone(client, legacy=legacy, sessionInfo="bogus-session", code="123456"),
                 400, "INVALID_SESSION_INFO")


def test_disabled_and_mfa_owners_cannot_sign_in_with_their_number(client, outbox):
    phone = unique_phone()
    owner = phone_sign_in(client, outbox, phone)
    expect_ok(client.admin_call("update", {"localId": owner["localId"], "disableUser": True}))
    session = send_code(client, phone, legacy=True)
    code = sms(outbox, phone, "PHONE_SIGN_IN")["oobCode"]
    assert_error(verify_phone(client, legacy=True, sessionInfo=session, code=code, operation="SIGN_UP_OR_IN"),
                 400, "USER_DISABLED")

    mfa_phone = unique_phone()
    user = verified_user(client)
    expect_ok(client.admin_call("update", {"localId": user["localId"], "phoneNumber": mfa_phone}))
    session = send_code(client, mfa_phone, legacy=True)  # sent before the user got a second factor
    code = sms(outbox, mfa_phone, "PHONE_SIGN_IN")["oobCode"]
    admin_enroll(client, user["localId"], unique_phone())
    response = verify_phone(client, legacy=True, sessionInfo=session, code=code, operation="SIGN_UP_OR_IN")
    assert response.status_code == 400, response.text
    assert error_of(response)["message"].startswith("UNSUPPORTED_FIRST_FACTOR"), response.text
    assert_error(v3(client, "sendVerificationCode", {"phoneNumber": mfa_phone, "clientType": "CLIENT_TYPE_IOS"}),
                 400, UNSUPPORTED_PHONE_FIRST_FACTOR)


@pytest.mark.parametrize("legacy", [False, True])
def test_verify_client(client, legacy):
    def call(body):
        return v3(client, "verifyClient", body) if legacy else v1(client, "verifyIosClient", body)

    answer = expect_ok(call({"appToken": "a1b2c3", "isSandbox": True}))
    assert answer["receipt"] and answer["suggestedTimeout"] == "5", answer
    assert_error(call({"isSandbox": True}), 400, "MISSING_APP_TOKEN")


# MFA: the resolver flow -------------------------------------------------------------------------

def test_facebook_user_enrolls_a_phone_and_signs_in_with_the_second_factor(client, outbox, fed):
    """The issue's "done when"."""
    email, phone = unique_email("fb"), unique_phone()
    # `email_verified` set explicitly: the default mint leaves it out (see the test below).
    minted = fed.mint("facebook.com", email=email, name="Face Book", nonce=(raw := unique("n")),
                      claims={"email_verified": True})
    first = fed.sign_in_ok(minted["postBody"], legacy=True)
    assert first["emailVerified"] is True, first
    enrollment_id, enrolled = enroll_phone(client, outbox, first["idToken"], phone, name="Work phone")
    assert claims(enrolled["idToken"])["firebase"]["sign_in_provider"] == "facebook.com"
    [info] = lookup(client, first["localId"])["mfaInfo"]
    assert info["mfaEnrollmentId"] == enrollment_id and info["phoneInfo"] == phone, info
    assert info["unobfuscatedPhoneInfo"] == phone and info["displayName"] == "Work phone" and info["enrolledAt"], info

    again = fed.mint("facebook.com", email=email, sub=minted["sub"], nonce=raw, claims={"email_verified": True})
    second = pending(fed.sign_in(again["postBody"], legacy=True))
    [hint] = second["mfaInfo"]
    assert hint["mfaEnrollmentId"] == enrollment_id and hint["phoneInfo"] == masked(phone), hint
    assert hint["displayName"] == "Work phone" and hint["enrolledAt"], hint
    assert "unobfuscatedPhoneInfo" not in hint, hint

    done = mfa_phone_sign_in(client, outbox, second, phone)
    assert_second_factor(done, "phone", enrollment_id, "facebook.com")
    assert claims(done["idToken"])["user_id"] == first["localId"]
    for refresh in (client.refresh_json, client.refresh_form):
        refreshed = expect_ok(refresh(done["refreshToken"]), "securetoken")
        firebase = claims(refreshed["id_token"])["firebase"]
        assert firebase["sign_in_second_factor"] == "phone", firebase
        assert firebase["second_factor_identifier"] == enrollment_id, firebase
        assert firebase["sign_in_provider"] == "facebook.com", firebase


def test_a_facebook_email_is_unverified_as_in_production(fed):
    """Facebook's tokens carry no email_verified claim, and Firebase does not trust Facebook for
    email ownership: the user's email stays unverified (so a second factor needs it verified first)."""
    minted = fed.mint("facebook.com", email=unique_email("fb"), emailVerified=True)
    assert "email_verified" not in decode_jwt(minted["idToken"])[1], minted
    assert fed.sign_in_ok(minted["postBody"], legacy=True)["emailVerified"] is False, minted


def test_password_user_second_factor_and_linking_an_idp_asks_for_it_too(client, outbox, fed):
    user, phone = verified_user(client), unique_phone()
    enrollment_id, _ = enroll_phone(client, outbox, user["idToken"], phone)
    first = pending(password_first_factor(client, user["email"]))
    assert first["localId"] == user["localId"] and first["email"] == user["email"], first
    done = mfa_phone_sign_in(client, outbox, first, phone)
    assert_second_factor(done, "phone", enrollment_id, "password")
    # Linking an identity provider with the signed-in user's token asks for the second factor, as
    # the official emulator and production do; the link is made at once, the tokens after it.
    minted = fed.mint("apple.com", email=unique_email("apple"), sub=apple_sub())
    linking = pending(fed.sign_in(minted["postBody"], legacy=True, idToken=done["idToken"]))
    assert linking["localId"] == user["localId"], linking
    linked = mfa_phone_sign_in(client, outbox, linking, phone)
    assert_second_factor(linked, "phone", enrollment_id, "apple.com")
    user_info = expect_ok(v1(client, "lookup", {"idToken": linked["idToken"]}))["users"][0]
    assert sorted(info["providerId"] for info in user_info["providerUserInfo"]) == ["apple.com", "password"]


def test_email_link_custom_token_and_apple_first_factors_ask_for_the_second(client, outbox, fed):
    email, phone = unique_email("apple"), unique_phone()
    minted = fed.mint("apple.com", email=email, sub=(sub := apple_sub()), nonce=(raw := unique("n")))
    user = fed.sign_in_ok(minted["postBody"], legacy=True)
    [enrollment_id] = admin_enroll(client, user["localId"], phone)

    apple = pending(fed.sign_in(fed.mint("apple.com", email=email, sub=sub, nonce=raw)["postBody"], legacy=True))
    assert_second_factor(mfa_phone_sign_in(client, outbox, apple, phone), "phone", enrollment_id, "apple.com")

    expect_ok(v3(client, "getOobConfirmationCode", {
        "requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "https://app.example.com/finish",
        "iOSBundleId": "com.example.app", "canHandleCodeInApp": True, "clientType": "CLIENT_TYPE_IOS"}))
    code = expect_ok(outbox.get("/latest", to=email, requestType="EMAIL_SIGNIN"))["oobCode"]
    link = pending(v3(client, "emailLinkSignin", {"email": email, "oobCode": code}))
    assert_second_factor(mfa_phone_sign_in(client, outbox, link, phone), "phone", enrollment_id, "password")

    custom_token = auth.create_custom_token(user["localId"]).decode("ascii")
    custom = pending(v1(client, "signInWithCustomToken", {"token": custom_token, "returnSecureToken": True}))
    assert_second_factor(mfa_phone_sign_in(client, outbox, custom, phone), "phone", enrollment_id, "custom")


def test_totp_enrollment_and_sign_in_with_codes_computed_here(client):
    user = verified_user(client)
    info = start_totp(client, user["idToken"])
    secret = info["sharedSecretKey"]
    assert_error(finalize_totp(client, user["idToken"], info, f"{(int(totp(secret, client)) + 1) % 10 ** 6:06d}"),
                 400, "INVALID_CODE")
    assert_error(finalize_totp(client, user["idToken"], info, totp(secret, client, steps=50)), 400, "INVALID_CODE")
    enrolled = expect_ok(finalize_totp(client, user["idToken"], info, totp(secret, client)))
    firebase = claims(enrolled["idToken"])["firebase"]
    assert firebase["sign_in_second_factor"] == "totp", firebase
    enrollment_id = firebase["second_factor_identifier"]
    [entry] = lookup(client, user["localId"])["mfaInfo"]
    assert entry["mfaEnrollmentId"] == enrollment_id and entry["totpInfo"] == {}, entry
    assert entry["displayName"] == "Authenticator" and "phoneInfo" not in entry, entry

    first = pending(password_first_factor(client, user["email"]))
    [hint] = first["mfaInfo"]
    assert hint["mfaEnrollmentId"] == enrollment_id and hint["totpInfo"] == {} and "phoneInfo" not in hint, hint
    # TOTP has no start step.
    assert_error(v2(client, "mfaSignIn:start", {"mfaPendingCredential": first["mfaPendingCredential"],
                                                 "mfaEnrollmentId": enrollment_id}), 400, PROVIDER_NOT_SUPPORTED)

    def finalize(code, enrollment=enrollment_id):
        return v2(client, "mfaSignIn:finalize", {
            "mfaPendingCredential": pending(password_first_factor(client, user["email"]))["mfaPendingCredential"],
            "mfaEnrollmentId": enrollment, "totpVerificationInfo": {"verificationCode": code}})

    assert_error(finalize(totp(secret, client, steps=-60)), 400, "INVALID_CODE")
    assert_error(finalize(totp(secret, client, steps=60)), 400, "INVALID_CODE")
    assert_error(finalize(totp(secret, client), enrollment=unique("none")), 400, "MFA_ENROLLMENT_NOT_FOUND")
    done = expect_ok(finalize(totp(secret, client)))
    assert_second_factor(done, "totp", enrollment_id, "password")
    refreshed = expect_ok(client.refresh_json(done["refreshToken"]))
    assert claims(refreshed["id_token"])["firebase"]["sign_in_second_factor"] == "totp"


def test_totp_window_is_five_steps_either_side(own):
    """On a binary of its own, the clock is put just past a step boundary so no step changes mid-test."""
    client = own.client
    # An hour ahead of the machine's clock, then just past a step boundary.
    seconds_in_step = (own.now().timestamp() + 3600) % 30
    own.advance(3600 + math.ceil(30 - seconds_in_step) + 1)
    user = verified_user(client)
    enrollment_id, secret = enroll_totp(client, user["idToken"])

    def finalize(steps):
        first = pending(password_first_factor(client, user["email"]))
        return v2(client, "mfaSignIn:finalize", {
            "mfaPendingCredential": first["mfaPendingCredential"], "mfaEnrollmentId": enrollment_id,
            "totpVerificationInfo": {"verificationCode": totp(secret, client, steps=steps)}})

    for steps in (-5, 5):
        assert_second_factor(expect_ok(finalize(steps), f"steps {steps}"), "totp", enrollment_id, "password")
    for steps in (-6, 6):
        assert_error(finalize(steps), 400, "INVALID_CODE")
    # A code for the machine's clock is 120 steps behind the emulator's.
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    first = pending(password_first_factor(client, user["email"]))
    assert_error(v2(client, "mfaSignIn:finalize", {
        "mfaPendingCredential": first["mfaPendingCredential"], "mfaEnrollmentId": enrollment_id,
        "totpVerificationInfo": {"verificationCode": totp_at(key, time.time())}}), 400, "INVALID_CODE")


def test_withdraw_and_lookups(client, outbox):
    user, phone, other = verified_user(client), unique_phone(), unique_phone()
    phone_id, enrolled = enroll_phone(client, outbox, user["idToken"], phone, name="first")
    other_id, enrolled = enroll_phone(client, outbox, enrolled["idToken"], other, name="second")
    totp_id, _ = enroll_totp(client, enrolled["idToken"])
    mine = expect_ok(v1(client, "lookup", {"idToken": enrolled["idToken"]}))["users"][0]["mfaInfo"]
    assert [(e["mfaEnrollmentId"], e.get("phoneInfo"), e.get("unobfuscatedPhoneInfo")) for e in mine] == [
        (phone_id, phone, phone), (other_id, other, other), (totp_id, None, None)], mine
    assert mine[2]["totpInfo"] == {}, mine
    first = pending(password_first_factor(client, user["email"]))
    assert [h.get("phoneInfo") for h in first["mfaInfo"]] == [masked(phone), masked(other), None], first
    assert_second_factor(mfa_phone_sign_in(client, outbox, first, other, hint_index=1), "phone", other_id, "password")

    assert_error(v2(client, "mfaEnrollment:withdraw", {"idToken": enrolled["idToken"], "mfaEnrollmentId": "nope"}),
                 400, "MFA_ENROLLMENT_NOT_FOUND")
    assert_error(v2(client, "mfaEnrollment:withdraw", {"mfaEnrollmentId": phone_id}), 400, "MISSING_ID_TOKEN")
    token = enrolled["idToken"]
    for enrollment_id in (phone_id, other_id, totp_id):
        body = {"idToken": token, "mfaEnrollmentId": enrollment_id}
        withdrawn = expect_ok(v2(client, "mfaEnrollment:withdraw", body))
        assert withdrawn["idToken"] and withdrawn["refreshToken"] and withdrawn["expiresIn"], withdrawn
        firebase = claims(withdrawn["idToken"])["firebase"]
        assert "sign_in_second_factor" not in firebase and "second_factor_identifier" not in firebase, firebase
        token = withdrawn["idToken"]
    assert not lookup(client, user["localId"]).get("mfaInfo"), lookup(client, user["localId"])
    assert client.sign_in_with_password_ok(user["email"], PASSWORD)["idToken"]


def test_enrollment_errors(client, outbox):
    start = lambda body: v2(client, "mfaEnrollment:start", body)  # noqa: E731
    finalize = lambda body: v2(client, "mfaEnrollment:finalize", body)  # noqa: E731
    phone = unique_phone()
    assert_error(start({"phoneEnrollmentInfo": {"phoneNumber": phone}}), 400, "MISSING_ID_TOKEN")
    assert_error(finalize({"phoneVerificationInfo": {"sessionInfo": "x", "code": "123456"}}), 400, "MISSING_ID_TOKEN")

    unverified = client.sign_up(unique_email("unverified"), PASSWORD)
    assert_error(start({"idToken": unverified["idToken"], "phoneEnrollmentInfo": {"phoneNumber": phone}}), 400,
                 "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
    anonymous = client.sign_up()
    phone_user = phone_sign_in(client, outbox, unique_phone())
    custom = expect_ok(v3(client, "verifyCustomToken", {
        "token": auth.create_custom_token(unique("custom")).decode("ascii"), "returnSecureToken": True}))
    for first_factor in (anonymous, phone_user, custom):
        assert_error(start({"idToken": first_factor["idToken"], "phoneEnrollmentInfo": {"phoneNumber": phone}}),
                     400, UNSUPPORTED_MFA_FIRST_FACTOR)

    user = verified_user(client)
    token = user["idToken"]
    assert_error(start({"idToken": token}), 400, "INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))")
    assert_error(finalize({"idToken": token}), 400, "INVALID_ARGUMENT : ((Missing phoneVerificationInfo.))")
    for number in ("16505551234", ""):
        assert_error(start({"idToken": token, "phoneEnrollmentInfo": {"phoneNumber": number}}),
                     400, "INVALID_PHONE_NUMBER : Invalid format.")
    session = start_phone_enrollment(client, token, phone)
    code = sms(outbox, phone, "MFA_ENROLLMENT")["oobCode"]
    assert_error(finalize({"idToken": token, "phoneVerificationInfo": {"sessionInfo": session}}), 400, "MISSING_CODE")
    assert_error(finalize({"idToken": token, "phoneVerificationInfo": {"code": code}}), 400, "MISSING_SESSION_INFO")
    assert_error(finalize({"idToken": token, "phoneVerificationInfo": {"sessionInfo": "bogus", "code": code}}),
                 400, "INVALID_SESSION_INFO")
    wrong = f"{(int(code) + 1) % 10 ** 6:06d}"
    assert_error(finalize({"idToken": token, "phoneVerificationInfo": {"sessionInfo": session, "code": wrong}}),
                 400, "INVALID_CODE")
    # Two sessions for one number: the second finalize finds the number enrolled.
    twice = start_phone_enrollment(client, token, phone)
    twice_code = sms(outbox, phone, "MFA_ENROLLMENT")["oobCode"]
    expect_ok(finalize({"idToken": token, "phoneVerificationInfo": {"sessionInfo": session, "code": code}}))
    assert_error(finalize({"idToken": token, "phoneVerificationInfo": {"sessionInfo": twice, "code": twice_code}}), 400,
                 "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
    assert len(lookup(client, user["localId"])["mfaInfo"]) == 1
    assert_error(start({"idToken": token, "phoneEnrollmentInfo": {"phoneNumber": phone}}), 400,
                 "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")


def test_second_factor_sign_in_errors(client, outbox):
    user, phone = verified_user(client), unique_phone()
    [enrollment_id] = admin_enroll(client, user["localId"], phone)
    first = pending(password_first_factor(client, user["email"]))
    credential = first["mfaPendingCredential"]
    start = lambda body: v2(client, "mfaSignIn:start", body)  # noqa: E731
    finalize = lambda body: v2(client, "mfaSignIn:finalize", body)  # noqa: E731
    info = {"phoneSignInInfo": {"phoneNumber": masked(phone)}}
    assert_error(start({"mfaEnrollmentId": enrollment_id, **info}), 400,
                 "MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
    assert_error(start({"mfaPendingCredential": credential, **info}), 400,
                 "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
    assert_error(start({"mfaPendingCredential": "not-a-credential", "mfaEnrollmentId": enrollment_id, **info}), 400,
                 "INVALID_MFA_PENDING_CREDENTIAL : ((Invalid phoneVerificationInfo.mfaPendingCredential.))")
    assert_error(start({"mfaPendingCredential": credential, "mfaEnrollmentId": "unknown", **info}),
                 400, "MFA_ENROLLMENT_NOT_FOUND")

    session = expect_ok(start({"mfaPendingCredential": credential, "mfaEnrollmentId": enrollment_id, **info}))[
        "phoneResponseInfo"]["sessionInfo"]
    message = sms(outbox, phone, "MFA_SIGN_IN")
    code = message["oobCode"]
    wrong = f"{(int(code) + 1) % 10 ** 6:06d}"
    assert_error(finalize({"phoneVerificationInfo": {"sessionInfo": session, "code": code}}), 400,
                 "MISSING_CREDENTIAL : Please set MFA Pending Credential.")
    assert_error(finalize({"mfaPendingCredential": credential}), 400, PROVIDER_NOT_SUPPORTED)
    assert_error(finalize({"mfaPendingCredential": credential,
                           "phoneVerificationInfo": {"sessionInfo": session, "code": wrong}}), 400, "INVALID_CODE")
    assert_error(finalize({"mfaPendingCredential": credential,
                           "phoneVerificationInfo": {"sessionInfo": "bogus", "code": code}}),
                 400, "INVALID_SESSION_INFO")
    assert_error(finalize({"mfaPendingCredential": credential, "phoneVerificationInfo": {"sessionInfo": session}}),
                 400, "MISSING_CODE")
    assert_error(finalize({"mfaPendingCredential": credential, "phoneVerificationInfo": {"code": code}}),
                 400, "MISSING_SESSION_INFO")
    # The wrong code left the session usable; the code is single use.
    used = {"mfaPendingCredential": credential, "phoneVerificationInfo": {"sessionInfo": session, "code": code}}
    assert_second_factor(expect_ok(finalize(used)), "phone", enrollment_id, "password")
    assert_error(finalize(used), 400, "INVALID_SESSION_INFO")

    again = pending(password_first_factor(client, user["email"]))["mfaPendingCredential"]
    session = expect_ok(start({"mfaPendingCredential": again, "mfaEnrollmentId": enrollment_id, **info}))[
        "phoneResponseInfo"]["sessionInfo"]
    code = sms(outbox, phone, "MFA_SIGN_IN")["oobCode"]
    expect_ok(client.admin_call("update", {"localId": user["localId"], "disableUser": True}))
    assert_error(finalize({"mfaPendingCredential": again,
                           "phoneVerificationInfo": {"sessionInfo": session, "code": code}}), 400, "USER_DISABLED")


# Admin: the REST calls the Admin SDKs make, and firebase-admin itself ------------------------------

def test_admin_mfa_updates_replace_factors(client, outbox):
    user, phone, other = verified_user(client), unique_phone(), unique_phone()
    update = lambda mfa: client.admin_call("update", {"localId": user["localId"], "mfa": mfa})  # noqa: E731
    expect_ok(update({"enrollments": [{"mfaEnrollmentId": "id-a", "phoneInfo": phone, "displayName": "A"},
                                      {"mfaEnrollmentId": "id-b", "phoneInfo": phone, "displayName": "B"},
                                      {"mfaEnrollmentId": "id-c", "phoneInfo": other, "displayName": "C"}]}))
    infos = lookup(client, user["localId"])["mfaInfo"]
    assert sorted(e["phoneInfo"] for e in infos) == sorted([phone, other]), infos  # the duplicate number is dropped
    assert "id-c" in {e["mfaEnrollmentId"] for e in infos}, infos
    first = pending(password_first_factor(client, user["email"]))
    hint = next(i for i, h in enumerate(first["mfaInfo"]) if h["phoneInfo"] == masked(other))
    assert_second_factor(mfa_phone_sign_in(client, outbox, first, other, hint), "phone", "id-c", "password")

    assert_error(update({"enrollments": [{"mfaEnrollmentId": "x", "phoneInfo": "555"}]}),
                 400, "INVALID_MFA_PHONE_NUMBER : Invalid format.")
    assert_error(update({"enrollments": [{"phoneInfo": phone}]}),
                 400, "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
    assert_error(update({"enrollments": [{"mfaEnrollmentId": "same", "phoneInfo": phone},
                                         {"mfaEnrollmentId": "same", "phoneInfo": other}]}),
                 400, "DUPLICATE_MFA_ENROLLMENT_ID")
    assert len(lookup(client, user["localId"])["mfaInfo"]) == 2  # refused updates change nothing
    expect_ok(update({}))
    assert not lookup(client, user["localId"]).get("mfaInfo")
    assert client.sign_in_with_password_ok(user["email"], PASSWORD)["idToken"]


def test_admin_sign_up_with_mfa_info_regenerates_ids(client):
    email, phone = unique_email("admin"), unique_phone()
    created = expect_ok(client.request("POST", f"{IDENTITY_TOOLKIT}/projects/{PROJECT_ID}/accounts",
                                       headers={"Authorization": "Bearer owner"},
                                       json={"email": email, "password": PASSWORD, "emailVerified": True,
                                             "mfaInfo": [{"phoneInfo": phone, "mfaEnrollmentId": "mine"}]}))
    [info] = lookup(client, created["localId"])["mfaInfo"]
    assert info["phoneInfo"] == phone and info["mfaEnrollmentId"] and info["mfaEnrollmentId"] != "mine", info
    first = pending(password_first_factor(client, email))
    assert first["mfaInfo"][0]["mfaEnrollmentId"] == info["mfaEnrollmentId"]


def test_firebase_admin_with_mfa_users(client, outbox):
    """firebase-admin 7.7.0 has no multi-factor API (no `multi_factor` arguments, no UserRecord field);
    what it does with MFA users must still work: records, updates that keep the factors, token checks."""
    uid, email, phone = unique("admin-mfa"), unique_email("sdk"), unique_phone()
    assert "multi_factor" not in auth.create_user.__code__.co_varnames
    auth.create_user(uid=uid, email=email, password=PASSWORD, email_verified=True, display_name="SDK User")
    [enrollment_id] = admin_enroll(client, uid, phone)
    record = auth.get_user(uid)
    assert record.email == email and record.email_verified is True
    assert [e["mfaEnrollmentId"] for e in record._data["mfaInfo"]] == [enrollment_id]
    auth.update_user(uid, display_name="Renamed", phone_number=unique_phone())
    assert [e["mfaEnrollmentId"] for e in lookup(client, uid)["mfaInfo"]] == [enrollment_id]
    assert auth.get_user_by_email(email).display_name == "Renamed"

    done = mfa_phone_sign_in(client, outbox, pending(password_first_factor(client, email)), phone)
    decoded = auth.verify_id_token(done["idToken"])
    assert decoded["uid"] == uid and decoded["firebase"]["sign_in_second_factor"] == "phone"
    assert decoded["firebase"]["second_factor_identifier"] == enrollment_id
    assert [user.uid for user in auth.list_users().iterate_all() if user.uid == uid] == [uid]


# Passkeys ---------------------------------------------------------------------------------------

def passkey_enroll(client, id_token, credential_id, **extra):
    return v2(client, "passkeyEnrollment:finalize", {
        "idToken": id_token, **extra,
        "authenticatorRegistrationResponse": {"id": credential_id, "rawId": credential_id, "type": "public-key",
                                              "response": {"clientDataJSON": "e30", "attestationObject": "o2M"}}})


def passkey_sign_in(client, credential_id):
    return v2(client, "passkeySignIn:finalize", {
        "authenticatorAuthenticationResponse": {"id": credential_id, "rawId": credential_id, "type": "public-key",
                                                "response": {"clientDataJSON": "e30", "authenticatorData": "AA",
                                                             "signature": "AA"}}})


def test_passkey_enrollment_and_sign_in(client):
    user = client.sign_up(unique_email("passkey"), PASSWORD)
    options = expect_ok(v2(client, "passkeyEnrollment:start", {"idToken": user["idToken"]}))
    options = options["credentialCreationOptions"]
    challenge = options.pop("challenge")
    assert len(base64.b64decode(challenge)) == 32, challenge
    assert options == {
        "rp": {"name": "localhost", "id": "localhost"},
        "user": {"id": base64.b64encode(user["localId"].encode()).decode(), "name": user["email"],
                 "displayName": "User"},
        "pubKeyCredParams": [{"type": "public-key", "alg": -7}, {"type": "public-key", "alg": -257}],
        "timeout": 60000, "attestation": "none"}, options
    anonymous = client.sign_up()
    anon_options = expect_ok(v2(client, "passkeyEnrollment:start", {"idToken": anonymous["idToken"]}))
    assert anon_options["credentialCreationOptions"]["user"]["name"] == "user@example.com", anon_options

    credential, unnamed = unique("cred"), unique("cred")
    enrolled = expect_ok(passkey_enroll(client, user["idToken"], credential, name="My key"))
    assert enrolled["localId"] == user["localId"] and enrolled["idToken"] and enrolled["refreshToken"], enrolled
    assert claims(enrolled["idToken"])["firebase"]["sign_in_provider"] == "passkey"
    expect_ok(passkey_enroll(client, user["idToken"], unnamed))
    assert lookup(client, user["localId"])["passkeyInfo"] == [
        {"credentialId": credential, "name": "My key"}, {"credentialId": unnamed, "name": "Unnamed Passkey"}]
    assert_error(passkey_enroll(client, anonymous["idToken"], credential), 400, "CREDENTIAL_ALREADY_IN_USE")

    request_options = expect_ok(v2(client, "passkeySignIn:start", {}))["credentialRequestOptions"]
    assert request_options["rpId"] == "localhost" and request_options["userVerification"] == "required", request_options
    assert request_options["challenge"], request_options
    signed_in = expect_ok(passkey_sign_in(client, credential))
    assert signed_in["idToken"] and signed_in["refreshToken"], signed_in
    assert claims(signed_in["idToken"])["user_id"] == user["localId"]
    assert claims(signed_in["idToken"])["firebase"]["sign_in_provider"] == "passkey"
    assert_error(passkey_sign_in(client, unique("unknown")), 400, "PASSKEY_CREDENTIAL_NOT_FOUND")

    expect_ok(v1(client, "update", {"idToken": signed_in["idToken"], "deletePasskey": [credential]}))
    assert lookup(client, user["localId"])["passkeyInfo"] == [{"credentialId": unnamed, "name": "Unnamed Passkey"}]
    assert_error(passkey_sign_in(client, credential), 400, "PASSKEY_CREDENTIAL_NOT_FOUND")
    expect_ok(client.admin_call("update", {"localId": user["localId"], "disableUser": True}))
    assert_error(passkey_sign_in(client, unnamed), 400, "USER_DISABLED")


def test_passkey_errors_and_api_key_only(client):
    user = client.sign_up(unique_email("passkey"), PASSWORD)
    assert_error(v2(client, "passkeyEnrollment:start", {}), 400, "MISSING_ID_TOKEN")
    assert_error(v2(client, "passkeyEnrollment:finalize", {"authenticatorRegistrationResponse": {"id": "x"}}),
                 400, "MISSING_ID_TOKEN")
    assert_error(v2(client, "passkeyEnrollment:finalize", {"idToken": user["idToken"]}), 400,
                 "MISSING_AUTHENTICATOR_RESPONSE")
    assert_error(v2(client, "passkeyEnrollment:finalize", {"idToken": user["idToken"],
                                                            "authenticatorRegistrationResponse": {}}),
                 400, "INVALID_CREDENTIAL_ID")
    assert_error(v2(client, "passkeySignIn:finalize", {}), 400, "MISSING_AUTHENTICATOR_RESPONSE")
    assert_error(v2(client, "passkeySignIn:finalize", {"authenticatorAuthenticationResponse": {}}),
                 400, "INVALID_CREDENTIAL_ID")
    owner = {"Authorization": "Bearer owner"}
    for op, body in (("passkeySignIn:start", {}), ("passkeyEnrollment:start", {"idToken": user["idToken"]}),
                     ("passkeySignIn:finalize", {"authenticatorAuthenticationResponse": {"id": "x"}})):
        assert_error(v2(client, op, body, key=None, headers=owner), 403, "The request is missing a valid API key.")
