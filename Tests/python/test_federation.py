"""Federation end to end: the fake identity providers and signInWithIdp verifying their tokens.

Tokens are checked and tampered with in Python (`idp_tokens`, PyJWT + cryptography), never with
the server's own code, so a bug in minting cannot hide one in verifying. Most tests use the
session's emulator (default `--idp-tokens lenient`, users cleared before each test); `strict` is a
second binary started with `--idp-tokens strict` for this module; `own` is a fresh binary of the
test's own, for tests that move the emulator clock or change emulator-wide configuration.
Identities (emails, Apple subs, nonces) are unique per test, so no test depends on another.
"""

import contextlib
import datetime
import hashlib
import hmac
import html.parser
import json
import re
import subprocess
import urllib.parse
import uuid

import pytest
from cryptography.hazmat.primitives import serialization

import idp_tokens as tokens
from conftest import PROJECT_ID, binary_path, start_emulator, stop_emulator
from emulator_client import (API_KEY, IDENTITY_TOOLKIT, LEGACY_V3, EmulatorClient, assert_error, decode_jwt,
                             error_of)

OWNER = {"Authorization": "Bearer owner"}
IDP = "/emulator/v1/idp"
V2 = "/identitytoolkit.googleapis.com/v2"
INVALID_IDP_RESPONSE = "INVALID_IDP_RESPONSE : "
INVALID_NONCE = "MISSING_OR_INVALID_NONCE"
SKEW_SECONDS = 300
RELAY_DOMAIN = "@privaterelay.appleid.com"

# Default audiences of the fake providers (contract); the generic provider's is not fixed.
AUDIENCES = {
    "apple.com": "com.example.app",
    "facebook.com": "1234567890",
    "google.com": "1234567890-emulator.apps.googleusercontent.com",
    "yahoo.com": "emulator-yahoo-client",
}
HASHED_NONCE = {"apple.com", "facebook.com"}
PROVIDERS = ["apple.com", "facebook.com", "google.com", "yahoo.com", "oidc.example"]


def issuer(idp, host):
    return {
        "apple.com": "https://appleid.apple.com",
        "facebook.com": "https://www.facebook.com",
        "google.com": "https://accounts.google.com",
        "yahoo.com": "https://api.login.yahoo.com",
    }.get(idp, f"http://{host}/emulator/v1/idp/{idp}")


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def unique_email(prefix="user"):
    return f"{unique(prefix)}@example.com"


def apple_sub():
    """A sub shaped like Apple's: `001234.<32 hex>.0123`."""
    return f"001234.{uuid.uuid4().hex}.0123"


def nonce_claim(idp, raw):
    return tokens.sha256_hex(raw) if idp in HASHED_NONCE else raw


def expect_ok(response, what=""):
    assert response.status_code == 200, (
        f"{what} {response.request.method} {response.request.url} {response.request.body!r}"
        f" -> {response.status_code}: {response.text}")
    return response.json()


def assert_error_prefix(response, status, prefix):
    """A Google-style error whose message starts with `prefix` (the rest names the problem)."""
    assert response.status_code == status, (
        f"{response.request.method} {response.request.url} {response.request.body!r}: expected {status} {prefix}…,"
        f" got {response.status_code}: {response.text}")
    message = error_of(response)["message"]
    assert message.startswith(prefix), message
    return message


def parse_rfc3339(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def post_body_fields(post_body):
    return dict(item.partition("=")[::2] for item in post_body.split("&") if item)


def identity_in(post_body):
    """(providerId, sub) that a postBody's id_token claims, when it can be read without a key."""
    fields = post_body_fields(post_body)
    token = urllib.parse.unquote(fields.get("id_token", ""))
    try:
        claims = json.loads(token) if token.startswith("{") else tokens.claims_of(token)
    except (ValueError, TypeError):
        return None
    sub = claims.get("sub") if isinstance(claims, dict) else None
    return (fields.get("providerId", "").lower(), sub) if isinstance(sub, str) else None


class Federation:
    """The fake providers and signInWithIdp of one running emulator, called over HTTP."""

    def __init__(self, client):
        self.client = client
        self.host = client.host

    def get(self, path, **kwargs):
        return self.client.request("GET", path, **kwargs)

    def post(self, path, body=None, **kwargs):
        return self.client.request("POST", path, json=body, **kwargs)

    # Fake providers ---------------------------------------------------------------------------

    def mint(self, idp, **fields):
        return expect_ok(self.post(f"{IDP}/{idp}/tokens", fields), "mint")

    def jwks(self, idp):
        return expect_ok(self.get(f"{IDP}/{idp}/jwks"), "jwks")

    def rotate(self, idp, **body):
        return expect_ok(self.post(f"{IDP}/{idp}/keys:rotate", body or None), "rotate")["kid"]

    def relay_addresses(self):
        return expect_ok(self.get(f"{IDP}/apple.com/relay"))["addresses"]

    def revocations(self):
        return expect_ok(self.get(f"{IDP}/apple.com/revocations"))["revocations"]

    # Clock ------------------------------------------------------------------------------------

    def now(self):
        return parse_rfc3339(expect_ok(self.get("/emulator/v1/clock"))["now"])

    def advance(self, seconds):
        return parse_rfc3339(expect_ok(self.post("/emulator/v1/clock:advance", {"seconds": seconds}))["now"])

    # signInWithIdp ----------------------------------------------------------------------------

    def sign_in(self, post_body, *, legacy=False, request_uri="http://localhost", **fields):
        """signInWithIdp with the body the Apple SDK sends; a field given as None is left out."""
        body = {"requestUri": request_uri, "postBody": post_body, "returnSecureToken": True,
                "returnIdpCredential": True, "autoCreate": True, **fields}
        body = {name: value for name, value in body.items() if value is not None}
        path = f"{LEGACY_V3}/verifyAssertion" if legacy else f"{IDENTITY_TOOLKIT}/accounts:signInWithIdp"
        return self.client.request("POST", path, params={"key": API_KEY}, json=body)

    def sign_in_ok(self, post_body, **fields):
        """A full sign-in: 200 with tokens, no errorMessage, no needConfirmation."""
        answer = expect_ok(self.sign_in(post_body, **fields), "signInWithIdp")
        assert "errorMessage" not in answer and not answer.get("needConfirmation"), answer
        assert answer["idToken"] and answer["refreshToken"] and answer["localId"], answer
        return answer

    def refused(self, post_body, prefix, *words, **fields):
        """Asserts a 400 whose message starts with `prefix` and contains `words`, and that the
        refused request wrote nothing: the same user count, and the same holders of the identity
        the token claims (admin lookup by federatedUserId) before and after."""
        identity = identity_in(post_body)
        before = self.user_count(), identity and self.holders(*identity)
        message = assert_error_prefix(self.sign_in(post_body, **fields), 400, prefix)
        for word in words:
            assert word in message, (word, message)
        after = self.user_count(), identity and self.holders(*identity)
        assert after == before, f"a refused request wrote something: (users, holders of {identity}) {before} -> {after}"
        return message

    # Admin views (Bearer owner) -----------------------------------------------------------------

    def admin(self, op, body):
        return expect_ok(self.client.request(
            "POST", f"{IDENTITY_TOOLKIT}/projects/{PROJECT_ID}/accounts:{op}", headers=OWNER, json=body), op)

    def user_count(self):
        return int(self.admin("query", {"returnUserInfo": False})["recordsCount"])

    def users_with(self, provider_id, raw_id):
        found = self.admin("lookup", {"federatedUserId": [{"providerId": provider_id, "rawId": raw_id}]})
        return found.get("users", [])

    def holders(self, provider_id, raw_id):
        return sorted(user["localId"] for user in self.users_with(provider_id, raw_id))

    def user(self, local_id):
        [user] = self.admin("lookup", {"localId": [local_id]})["users"]
        return user

    def provider_ids(self, local_id):
        return sorted(info["providerId"] for info in self.user(local_id).get("providerUserInfo", []))


stop = stop_emulator


@contextlib.contextmanager
def running_emulator(*arguments):
    running = start_emulator(*arguments)
    client = EmulatorClient(running.host, PROJECT_ID)
    try:
        yield Federation(client)
    finally:
        client.close()
        stop(running)


@pytest.fixture
def fed(client):
    """The session's emulator (lenient), its users cleared for this test by conftest's `client`."""
    return Federation(client)


@pytest.fixture(scope="module")
def strict():
    with running_emulator("--idp-tokens", "strict") as federation:
        yield federation


@pytest.fixture
def own():
    """A fresh lenient emulator for this test alone (its clock and configuration are its own)."""
    with running_emulator() as federation:
        yield federation


def mint_apple(fed, **fields):
    fields.setdefault("email", unique_email("apple"))
    fields.setdefault("sub", apple_sub())
    return fed.mint("apple.com", **fields)


# The fake providers, checked with PyJWT -------------------------------------------------------

@pytest.mark.parametrize("idp", PROVIDERS)
def test_discovery_document_points_at_the_jwks(own, idp):
    """On a fresh emulator: the RS256 key is published from the start, not only after a first mint."""
    discovery = expect_ok(own.get(f"{IDP}/{idp}/.well-known/openid-configuration"))
    assert discovery["issuer"] == issuer(idp, own.host)
    assert discovery["id_token_signing_alg_values_supported"] == ["RS256", "ES256"]
    assert discovery["authorization_endpoint"]
    jwks_url = urllib.parse.urljoin(own.client.url("/"), discovery["jwks_uri"])
    assert urllib.parse.urlsplit(jwks_url).path == f"{IDP}/{idp}/jwks"
    keys = expect_ok(own.client.session.get(jwks_url, timeout=10))["keys"]
    assert [key["alg"] for key in keys if key["kty"] == "RSA"] == ["RS256"], keys
    assert all(key["use"] == "sig" and key["kid"] for key in keys), keys


@pytest.mark.parametrize("idp", PROVIDERS)
def test_minted_token_verifies_against_the_published_jwks(fed, idp):
    email, raw_nonce = unique_email(idp.split(".")[0]), unique("n")
    minted = fed.mint(idp, email=email, name="Grace Hopper", nonce=raw_nonce)
    header = tokens.header_of(minted["idToken"])
    assert header["alg"] == "RS256"
    jwks = fed.jwks(idp)
    rsa_key = next(key for key in jwks["keys"] if key["kid"] == header["kid"])
    assert rsa_key["kty"] == "RSA" and rsa_key["n"] and rsa_key["e"]

    audience = AUDIENCES.get(idp) or tokens.claims_of(minted["idToken"])["aud"]
    claims = tokens.verify(minted["idToken"], jwks, audience=audience, issuer=issuer(idp, fed.host))
    assert claims["sub"] == minted["sub"]
    assert claims["email"] == email == minted["email"]
    # The provider's form of the nonce, computed here with hashlib.
    assert claims["nonce"] == nonce_claim(idp, raw_nonce)
    if idp in HASHED_NONCE:
        assert claims["nonce"] == hashlib.sha256(raw_nonce.encode()).hexdigest() != raw_nonce
    now = fed.now().timestamp()
    assert abs(claims["iat"] - now) <= 5, (claims["iat"], now)
    assert claims["exp"] > claims["iat"]
    assert minted["postBody"] == f"providerId={idp}&id_token={minted['idToken']}&nonce={raw_nonce}"


def test_apple_token_has_apples_claim_shapes(fed):
    email = unique_email("shape")
    minted = fed.mint("apple.com", email=email, nonce="n-123")
    claims = tokens.claims_of(minted["idToken"])
    assert re.fullmatch(r"\d{6}\.[0-9a-f]{32}\.\d{4}", claims["sub"]), claims["sub"]
    assert claims["iss"] == "https://appleid.apple.com" and claims["aud"] == "com.example.app"
    assert claims["exp"] - claims["iat"] == 600
    assert claims["email_verified"] == "true" and claims["is_private_email"] == "false"
    assert claims["real_user_status"] == 2 and claims["nonce_supported"] is True
    assert claims["nonce"] == tokens.sha256_hex("n-123")
    assert claims["c_hash"] and isinstance(claims["auth_time"], int)
    assert minted["authorizationCode"]
    # The sub is derived stably from the email when none is given.
    assert fed.mint("apple.com", email=email)["sub"] == claims["sub"]
    unverified = tokens.claims_of(fed.mint("apple.com", email=email, emailVerified=False)["idToken"])
    assert unverified["email_verified"] == "false"


def test_facebook_and_google_claim_shapes(fed):
    facebook = tokens.claims_of(fed.mint("facebook.com", email=unique_email("fb"), name="F B",
                                         picture="https://example.com/p.png")["idToken"])
    assert facebook["sub"].isdigit() and facebook["jti"]
    assert facebook["name"] == "F B" and facebook["picture"] == "https://example.com/p.png"
    assert facebook["exp"] - facebook["iat"] == 3600
    google = tokens.claims_of(fed.mint("google.com", email=unique_email("g"))["idToken"])
    assert google["email_verified"] is True
    assert google["azp"] == AUDIENCES["google.com"]


def test_es256_tokens_are_published_and_verify(fed):
    minted = mint_apple(fed, alg="ES256")
    header = tokens.header_of(minted["idToken"])
    assert header["alg"] == "ES256"
    jwks = fed.jwks("apple.com")
    ec_key = next(key for key in jwks["keys"] if key["kid"] == header["kid"])
    assert ec_key["kty"] == "EC" and ec_key["crv"] == "P-256" and ec_key["x"] and ec_key["y"]
    claims = tokens.verify(minted["idToken"], jwks, audience="com.example.app", issuer="https://appleid.apple.com")
    assert claims["sub"] == minted["sub"]
    assert fed.sign_in_ok(minted["postBody"])["federatedId"] == minted["sub"]


def test_key_rotation_keeps_old_tokens_valid(own):
    before = own.mint("apple.com", email=unique_email("rot"))
    old_kid = tokens.header_of(before["idToken"])["kid"]
    new_kid = own.rotate("apple.com")
    assert new_kid != old_kid
    jwks = own.jwks("apple.com")
    assert {old_kid, new_kid} <= {key["kid"] for key in jwks["keys"]}
    after = own.mint("apple.com", email=unique_email("rot"))
    assert tokens.header_of(after["idToken"])["kid"] == new_kid
    for minted in (before, after):
        tokens.verify(minted["idToken"], jwks, audience="com.example.app", issuer="https://appleid.apple.com")
        assert own.sign_in_ok(minted["postBody"])["federatedId"] == minted["sub"]


def test_facebook_graph_me_resolves_minted_access_tokens(fed):
    email = unique_email("graph")
    minted = fed.mint("facebook.com", email=email, name="Graph User", picture="https://example.com/g.png")
    me = expect_ok(fed.get(f"{IDP}/facebook.com/me",
                           params={"access_token": minted["accessToken"], "fields": "id,name,email"}))
    assert me["id"] == minted["sub"] and me["name"] == "Graph User" and me["email"] == email
    me = expect_ok(fed.get(f"{IDP}/facebook.com/me",
                           params={"access_token": minted["accessToken"], "fields": "id,picture"}))
    assert me["picture"]["data"]["url"] == "https://example.com/g.png"

    response = fed.get(f"{IDP}/facebook.com/me", params={"access_token": "EAAG-not-a-token"})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["message"] == "Invalid OAuth access token - Cannot parse access token"
    assert error["type"] == "OAuthException" and error["code"] == 190 and error["fbtrace_id"]


def test_apple_hidden_email_goes_through_the_relay(fed):
    real, sub = unique_email("hidden"), apple_sub()
    minted = fed.mint("apple.com", email=real, sub=sub, hideEmail=True)
    relay = minted["email"]
    assert relay.endswith(RELAY_DOMAIN) and relay != real and minted["realEmail"] == real
    claims = tokens.claims_of(minted["idToken"])
    assert claims["email"] == relay and claims["is_private_email"] == "true"
    assert fed.mint("apple.com", email=real, sub=sub, hideEmail=True)["email"] == relay, "relay not stable"

    signed_in = fed.sign_in_ok(minted["postBody"])
    assert signed_in["email"] == relay and fed.user(signed_in["localId"])["email"] == relay
    [entry] = [entry for entry in fed.relay_addresses() if entry["address"] == relay]
    assert entry["forwardTo"] == real and entry["forwarding"] is True

    patched = expect_ok(fed.client.request("PATCH", f"{IDP}/apple.com/relay/{relay}", json={"forwarding": False}))
    assert patched["address"] == relay and patched["forwarding"] is False
    [entry] = [entry for entry in fed.relay_addresses() if entry["address"] == relay]
    assert entry["forwarding"] is False


def test_the_mint_command_asks_a_running_emulator(fed):
    email = unique_email("cli")
    result = subprocess.run([str(binary_path()), "mint", "apple.com", "--email", email, "--nonce", "n-cli",
                             "--server", f"http://{fed.host}"], capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result
    minted = json.loads(result.stdout)
    claims = tokens.verify(minted["idToken"], fed.jwks("apple.com"), audience="com.example.app",
                           issuer="https://appleid.apple.com")
    assert claims["email"] == email and claims["nonce"] == tokens.sha256_hex("n-cli")
    assert fed.sign_in_ok(minted["postBody"])["federatedId"] == claims["sub"]


@pytest.mark.parametrize("idp", ["apple.com", "facebook.com", "google.com"])
def test_a_hashed_nonce_goes_into_the_token_as_given(fed, idp):
    raw = "raw-nonce-" + apple_sub()[:8]
    hashed = tokens.sha256_hex(raw)
    minted = fed.mint(idp, email=unique_email("hashed"), hashedNonce=hashed)
    assert tokens.claims_of(minted["idToken"])["nonce"] == hashed
    assert "nonce=" not in minted["postBody"]
    [warning] = minted["warnings"]
    assert "hashedNonce is in the token as given" in warning and "&nonce=<the raw nonce>" in warning
    if idp in ("apple.com", "facebook.com"):
        # The raw nonce the app kept signs in; the token carries its hash, as Apple's would.
        assert fed.sign_in_ok(minted["postBody"] + "&nonce=" + raw)["email"]
    else:
        # Google carries the raw nonce, so a hash in the token matches only itself.
        assert fed.sign_in_ok(minted["postBody"] + "&nonce=" + hashed)["email"]


def test_a_nonce_that_looks_hashed_already_is_warned_about(fed):
    hashed = tokens.sha256_hex("the-app-nonce")
    minted = fed.mint("apple.com", email=unique_email("twice"), nonce=hashed)
    # It is hashed again, as documented, and the answer says so.
    assert tokens.claims_of(minted["idToken"])["nonce"] == tokens.sha256_hex(hashed)
    [warning] = minted["warnings"]
    assert warning.startswith("nonce looks like a SHA-256 hex digest") and "hashedNonce" in warning
    # A raw nonce, and a hash-looking nonce for a provider that carries it raw, get no warnings.
    assert "warnings" not in fed.mint("apple.com", email=unique_email("raw"), nonce="the-app-nonce")
    google = fed.mint("google.com", email=unique_email("google"), nonce=hashed)
    assert "warnings" not in google and tokens.claims_of(google["idToken"])["nonce"] == hashed


def test_nonce_and_hashed_nonce_together_are_refused(fed):
    answer = fed.post(f"{IDP}/apple.com/tokens", {"nonce": "a", "hashedNonce": "b"})
    assert answer.status_code == 400
    assert answer.json()["error"]["message"].startswith("INVALID_ARGUMENT : Give nonce")


def test_the_mint_command_takes_a_hashed_nonce_and_prints_warnings(fed):
    hashed = tokens.sha256_hex("n-cli-hashed")
    result = subprocess.run([str(binary_path()), "mint", "apple.com", "--email", unique_email("cli"),
                             "--hashed-nonce", hashed, "--server", f"http://{fed.host}"],
                            capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result
    minted = json.loads(result.stdout)
    assert tokens.claims_of(minted["idToken"])["nonce"] == hashed
    assert "auth-emulator mint: warning: hashedNonce is in the token as given" in result.stderr
    twice = subprocess.run([str(binary_path()), "mint", "apple.com", "--nonce", hashed, "--server", f"http://{fed.host}"],
                           capture_output=True, text=True, timeout=10)
    assert twice.returncode == 0, twice
    assert json.loads(twice.stdout)["warnings"][0].startswith("nonce looks like a SHA-256 hex digest")
    assert "auth-emulator mint: warning: nonce looks like a SHA-256 hex digest" in twice.stderr


# Verification verdicts on tampered and foreign tokens (lenient) ---------------------------------

def test_a_changed_claim_breaks_the_signature(fed):
    minted = mint_apple(fed)
    for change in ({"email": unique_email("attacker")}, {"sub": apple_sub()}, {"exp": 4102444800}):
        forged = tokens.with_claims(minted["idToken"], **change)
        fed.refused(tokens.post_body("apple.com", id_token=forged), INVALID_IDP_RESPONSE, "signature")


@pytest.mark.parametrize("crit", [{"crit": ["exp"]}, {"crit": ["urn:example:unknown"], "urn:example:unknown": 1}])
def test_an_unknown_crit_header_is_refused(fed, crit):
    token = tokens.with_header(mint_apple(fed)["idToken"], **crit)
    fed.refused(tokens.post_body("apple.com", id_token=token), INVALID_IDP_RESPONSE, "crit")


def test_alg_none_in_place_of_a_signature_is_accepted_when_lenient(fed):
    minted = mint_apple(fed)
    unsigned = tokens.unsigned(tokens.claims_of(minted["idToken"]))
    answer = fed.sign_in_ok(tokens.post_body("apple.com", id_token=unsigned))
    assert answer["federatedId"] == minted["sub"] and answer["oauthIdToken"] == unsigned


def test_a_stripped_signature_under_our_kid_is_refused(fed):
    """Header still `RS256` + one of our kids, third segment emptied, a claim changed: the token
    names our key, so its signature is checked (contract: signed with one of our kids → verified)."""
    minted = mint_apple(fed)
    stripped = tokens.with_signature(tokens.with_claims(minted["idToken"], email=unique_email("attacker")), "")
    assert tokens.header_of(stripped)["kid"] == tokens.header_of(minted["idToken"])["kid"]
    fed.refused(tokens.post_body("apple.com", id_token=stripped), INVALID_IDP_RESPONSE)


def test_a_header_alg_other_than_the_keys_is_refused(fed):
    minted = mint_apple(fed)
    es256 = tokens.with_header(minted["idToken"], alg="ES256")
    fed.refused(tokens.post_body("apple.com", id_token=es256), INVALID_IDP_RESPONSE)

    # HS256 keyed with the RSA public key (the classic confusion): correctly MACed, still refused.
    header = tokens.header_of(minted["idToken"])
    public_key = tokens.jwks_keys(fed.jwks("apple.com"))[header["kid"]].key
    secret = public_key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    signing_input = f"{tokens.encode_segment({**header, 'alg': 'HS256'})}.{minted['idToken'].split('.')[1]}"
    mac = tokens.b64url_encode(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())
    fed.refused(tokens.post_body("apple.com", id_token=f"{signing_input}.{mac}"), INVALID_IDP_RESPONSE)


def test_our_own_key_under_the_servers_kid_fails_the_signature(fed):
    minted = mint_apple(fed)
    kid = tokens.header_of(minted["idToken"])["kid"]
    forged = tokens.forge(tokens.claims_of(minted["idToken"]), kid)
    fed.refused(tokens.post_body("apple.com", id_token=forged), INVALID_IDP_RESPONSE, "signature")


def apple_claims(fed, **extra):
    now = int(fed.now().timestamp())
    return {"iss": "https://appleid.apple.com", "aud": "com.example.app", "sub": apple_sub(),
            "email": unique_email("foreign"), "email_verified": "true", "iat": now, "exp": now + 600, **extra}


def test_an_unknown_kid_is_accepted_with_its_claims_when_lenient(fed):
    claims = apple_claims(fed)
    forged = tokens.forge(claims, unique("kid"))
    answer = fed.sign_in_ok(tokens.post_body("apple.com", id_token=forged))
    assert answer["federatedId"] == claims["sub"] and answer["email"] == claims["email"]
    assert answer["isNewUser"] is True


def test_a_zeroed_signature_under_an_unknown_kid_is_accepted_when_lenient(fed):
    """firebase-tools' REAL_GOOGLE_ACCOUNT: a real RS256 token whose signature is 342 zeros."""
    claims = apple_claims(fed)
    zeroed = tokens.with_signature(tokens.forge(claims, unique("kid")), "0" * 342)
    answer = fed.sign_in_ok(tokens.post_body("apple.com", id_token=zeroed))
    assert answer["federatedId"] == claims["sub"] and answer["isNewUser"] is True


@pytest.mark.parametrize("idp", ["apple.com", "google.com", "oidc.example"])
def test_a_signed_token_from_the_wrong_issuer_is_refused(fed, idp):
    minted = fed.mint(idp, email=unique_email("iss"), claims={"iss": "https://evil.example"})
    assert tokens.claims_of(minted["idToken"])["iss"] == "https://evil.example"
    fed.refused(minted["postBody"], INVALID_IDP_RESPONSE, "iss")


def test_a_token_issued_in_the_future_is_refused(fed):
    future = int(fed.now().timestamp()) + 3600
    minted = mint_apple(fed, claims={"iat": future, "exp": future + 600})
    fed.refused(minted["postBody"], INVALID_IDP_RESPONSE)


def test_expiry_is_judged_by_the_emulator_clock_with_skew(own):
    minted = own.mint("apple.com", email=unique_email("exp"), sub=apple_sub(), expiresInSeconds=60)
    exp = tokens.claims_of(minted["idToken"])["exp"]
    # A loaded machine can take a few seconds between the mint and reading the clock.
    assert exp - int(own.now().timestamp()) in range(45, 62)
    own.advance(60 + SKEW_SECONDS - 10)
    assert own.now().timestamp() > exp
    own.sign_in_ok(minted["postBody"])  # expired, but within the 300 s skew
    own.advance(20)
    own.refused(minted["postBody"], INVALID_IDP_RESPONSE, "expired")
    # A token minted now is minted by the moved clock, so it is fresh.
    own.sign_in_ok(own.mint("apple.com", email=unique_email("exp"), sub=apple_sub())["postBody"])


def test_clock_api(own):
    start = own.now()
    moved = own.advance(3600)
    assert 3600 <= (moved - start).total_seconds() < 3610
    assert own.now() >= moved
    response = own.post("/emulator/v1/clock:advance", {"seconds": -1})
    assert response.status_code == 400, response.text


def configure_apple_audience(federation, **body):
    return expect_ok(federation.client.request(
        "POST", f"{V2}/projects/{PROJECT_ID}/defaultSupportedIdpConfigs", params={"idpId": "apple.com"},
        headers=OWNER, json=body), "defaultSupportedIdpConfigs.create")


def test_audience_is_checked_once_a_client_id_is_configured(own):
    def mint(audience):
        return own.mint("apple.com", email=unique_email("aud"), sub=apple_sub(), audience=audience)["postBody"]

    own.sign_in_ok(mint("com.someone.else"))  # no provider config: any audience
    created = configure_apple_audience(own, enabled=True, clientId="com.example.app",
                                       appleSignInConfig={"bundleIds": ["com.example.other"]})
    assert created["name"].endswith("/defaultSupportedIdpConfigs/apple.com")
    assert created["clientId"] == "com.example.app"
    config_path = f"{V2}/projects/{PROJECT_ID}/defaultSupportedIdpConfigs/apple.com"
    assert expect_ok(own.get(config_path, headers=OWNER))["clientId"] == "com.example.app"
    listed = expect_ok(own.get(f"{V2}/projects/{PROJECT_ID}/defaultSupportedIdpConfigs", headers=OWNER))
    assert [config["clientId"] for config in listed["defaultSupportedIdpConfigs"]] == ["com.example.app"]

    own.refused(mint("com.someone.else"), INVALID_IDP_RESPONSE, "aud")
    own.sign_in_ok(mint("com.example.app"))
    own.sign_in_ok(mint("com.example.other"))

    expect_ok(own.client.request("DELETE", config_path, headers=OWNER))
    own.sign_in_ok(mint("com.someone.else"))


# Nonces ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("idp", PROVIDERS)
def test_nonce_must_match_in_both_directions(fed, idp):
    raw = unique("n")
    minted = fed.mint(idp, email=unique_email("nonce"), nonce=raw)
    token = minted["idToken"]
    assert tokens.claims_of(token)["nonce"] == nonce_claim(idp, raw)
    fed.refused(tokens.post_body(idp, id_token=token, nonce="wrong-" + raw), INVALID_NONCE)
    fed.refused(tokens.post_body(idp, id_token=token), INVALID_NONCE)
    # The hash sent where the raw nonce belongs (an app passing the wrong value).
    fed.refused(tokens.post_body(idp, id_token=token, nonce=tokens.sha256_hex(raw)), INVALID_NONCE)
    without = fed.mint(idp, email=unique_email("nonce"))["idToken"]
    assert "nonce" not in tokens.claims_of(without)
    fed.refused(tokens.post_body(idp, id_token=without, nonce=raw), INVALID_NONCE)
    assert fed.sign_in_ok(tokens.post_body(idp, id_token=token, nonce=raw))["providerId"] == idp


def test_apple_nonce_n_123(fed):
    minted = mint_apple(fed, nonce="n-123")
    assert tokens.claims_of(minted["idToken"])["nonce"] == hashlib.sha256(b"n-123").hexdigest()
    fed.refused(tokens.post_body("apple.com", id_token=minted["idToken"], nonce="n-124"), INVALID_NONCE)
    fed.sign_in_ok(tokens.post_body("apple.com", id_token=minted["idToken"], nonce="n-123"))


def test_nonce_is_checked_on_unsigned_tokens_too(fed):
    claims = apple_claims(fed, nonce=tokens.sha256_hex("n-raw"))
    fed.refused(tokens.post_body("apple.com", id_token=tokens.unsigned(claims), nonce="n-other"), INVALID_NONCE)
    fed.sign_in_ok(tokens.post_body("apple.com", id_token=tokens.unsigned(claims), nonce="n-raw"))


# Strict mode ----------------------------------------------------------------------------------

def test_strict_accepts_our_signed_tokens(strict):
    minted = mint_apple(strict, nonce=unique("n"))
    assert strict.sign_in_ok(minted["postBody"])["federatedId"] == minted["sub"]


def test_strict_refuses_unsigned_tokens(strict):
    claims = apple_claims(strict)
    strict.refused(tokens.post_body("apple.com", id_token=tokens.unsigned(claims)), INVALID_IDP_RESPONSE, "not signed")
    minted = mint_apple(strict)
    alg_none = tokens.unsigned(tokens.claims_of(minted["idToken"]))
    strict.refused(tokens.post_body("apple.com", id_token=alg_none), INVALID_IDP_RESPONSE, "not signed")
    # alg none under one of the server's kids, and RS256 with the signature removed.
    kept_kid = tokens.with_signature(tokens.with_header(minted["idToken"], alg="none"), "")
    strict.refused(tokens.post_body("apple.com", id_token=kept_kid), INVALID_IDP_RESPONSE)
    stripped = tokens.with_signature(minted["idToken"], "")
    strict.refused(tokens.post_body("apple.com", id_token=stripped), INVALID_IDP_RESPONSE)


def test_strict_refuses_plain_json_claims(strict):
    claims = tokens.json_claims_parameter({"sub": apple_sub(), "email": unique_email("json")})
    strict.refused(f"providerId=apple.com&id_token={claims}", INVALID_IDP_RESPONSE, "plain JSON")


def test_strict_refuses_an_unknown_kid_naming_it(strict):
    kid = unique("kid")
    forged = tokens.forge(apple_claims(strict), kid)
    strict.refused(tokens.post_body("apple.com", id_token=forged), INVALID_IDP_RESPONSE, kid)


def test_strict_still_checks_signature_and_nonce(strict):
    minted = mint_apple(strict, nonce="n-strict")
    flipped = tokens.with_claims(minted["idToken"], email=unique_email("attacker"))
    strict.refused(tokens.post_body("apple.com", id_token=flipped, nonce="n-strict"), INVALID_IDP_RESPONSE, "signature")
    strict.refused(tokens.post_body("apple.com", id_token=minted["idToken"], nonce="n-wrong"), INVALID_NONCE)


# The official emulator's forms and error strings (lenient) -------------------------------------

def official_fake_claims(**claims):
    """firebase-tools' `fakeClaims`: an expired 2020 token from `example.com`, overlaid."""
    return {"iss": "example.com", "aud": "example.com", "exp": 1597974008, "iat": 1597970408, **claims}


def test_plain_json_claims_as_the_official_test_helper_sends(fed):
    claims = official_fake_claims(sub=unique("json-sub"), email=unique_email("Json").upper(), name="Json User")
    answer = fed.sign_in_ok(f"providerId=apple.com&id_token={tokens.json_claims_parameter(claims)}")
    assert answer["federatedId"] == claims["sub"] and answer["email"] == claims["email"].lower()
    assert answer["displayName"] == "Json User" and answer["isNewUser"] is True
    assert json.loads(answer["rawUserInfo"]) == claims


def test_unsigned_google_jwt_as_the_official_tests_send(fed):
    sub = str(uuid.uuid4().int)[:21]
    claims = {"iss": "accounts.google.com", "azp": "22874682844-x.apps.googleusercontent.com",
              "aud": "22874682844-x.apps.googleusercontent.com", "sub": sub, "email": unique_email("gmail"),
              "email_verified": True, "at_hash": "0000000000000000000000", "iat": 1597882681, "exp": 1597886281}
    answer = fed.sign_in_ok(tokens.post_body("google.com", id_token=tokens.unsigned(claims)))
    assert answer["federatedId"] == f"https://accounts.google.com/{sub}"
    raw = json.loads(answer["rawUserInfo"])
    assert raw["id"] == sub and raw["email"] == claims["email"] and raw["verified_email"] is True


def test_credentials_may_come_from_the_request_uri_query_and_fragment(fed):
    minted = mint_apple(fed)
    answer = fed.sign_in_ok("", request_uri=f"http://localhost/cb?providerId=apple.com#id_token={minted['idToken']}")
    assert answer["federatedId"] == minted["sub"]


@pytest.mark.parametrize("body, message", [
    ({"requestUri": None, "postBody": "providerId=apple.com"}, "MISSING_REQUEST_URI"),
    ({"requestUri": "not a url", "postBody": "providerId=apple.com"}, "INVALID_REQUEST_URI"),
    ({"requestUri": "http://localhost/cb?foo=bar", "postBody": ""},
     "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost/cb?foo=bar"),
    ({"postBody": "providerId=apple.com&id_token=" + tokens.json_claims_parameter({"email": "a@example.com"})},
     'INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields. ((Missing "sub" field.'
     ' This field is required and must be a unique identifier.))'),
    ({"postBody": "providerId=apple.com&id_token=" + tokens.json_claims_parameter({"sub": 12345})},
     'INVALID_IDP_RESPONSE : ((The "sub" field must be a string.))'),
    ({"postBody": "providerId=apple.com&id_token={not-json"},
     "INVALID_IDP_RESPONSE : Unable to parse id_token: {not-json"
     " ((Auth Emulator failed to parse fake id_token as strict JSON.))"),
    ({"postBody": "providerId=apple.com&id_token=garbage"},
     "INVALID_IDP_RESPONSE : Unable to parse id_token: garbage"
     " ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))"),
], ids=["no-requestUri", "bad-requestUri", "no-providerId", "no-sub", "numeric-sub", "bad-json", "not-a-jwt"])
def test_official_error_strings(fed, body, message):
    before = fed.user_count()
    body = dict(body)
    post_body = body.pop("postBody")
    assert_error(fed.sign_in(post_body, **body), 400, message)
    assert fed.user_count() == before


def test_missing_provider_id_names_the_merged_uri(fed):
    minted = mint_apple(fed)
    message = fed.refused(f"id_token={minted['idToken']}", "INVALID_CREDENTIAL_OR_PROVIDER_ID : ")
    assert message.startswith("INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost")
    assert minted["idToken"] in message


# Sign-in flows --------------------------------------------------------------------------------

def test_new_then_returning_apple_user_through_the_legacy_v3_path(fed):
    raw_nonce, email = unique("n"), unique_email("ada")
    minted = mint_apple(fed, email=email, nonce=raw_nonce)
    token, sub = minted["idToken"], minted["sub"]
    answer = fed.sign_in_ok(f"providerId=apple.com&id_token={token}&nonce={raw_nonce}", legacy=True)
    assert answer["kind"] == "identitytoolkit#VerifyAssertionResponse"
    assert answer["isNewUser"] is True
    assert answer["expiresIn"] == "3600"
    assert answer["providerId"] == "apple.com" and answer["federatedId"] == sub
    assert answer["email"] == email and answer["emailVerified"] is True
    assert answer["oauthIdToken"] == token
    raw_user_info = json.loads(answer["rawUserInfo"])
    assert raw_user_info["sub"] == sub and raw_user_info["email"] == email

    _, id_claims, _ = decode_jwt(answer["idToken"])
    assert id_claims["user_id"] == answer["localId"]
    assert id_claims["firebase"]["sign_in_provider"] == "apple.com"
    assert id_claims["firebase"]["identities"]["apple.com"] == [sub]
    [info] = fed.user(answer["localId"])["providerUserInfo"]
    assert (info["providerId"], info["rawId"], info["email"]) == ("apple.com", sub, email)
    assert [user["localId"] for user in fed.users_with("apple.com", sub)] == [answer["localId"]]

    again = fed.mint("apple.com", email=email, sub=sub)
    returning = fed.sign_in_ok(again["postBody"], legacy=True)
    assert returning["localId"] == answer["localId"]
    assert "isNewUser" not in returning, returning
    assert fed.user_count() == 1


def test_apple_email_verified_false_asks_for_confirmation(fed):
    email = unique_email("confirm")
    existing = fed.client.sign_up(email, "password-1")
    google = fed.mint("google.com", email=unique_email("g"))
    linked = fed.sign_in(google["postBody"], idToken=existing["idToken"])
    assert expect_ok(linked)["localId"] == existing["localId"]

    minted = mint_apple(fed, email=email, emailVerified=False)
    assert tokens.claims_of(minted["idToken"])["email_verified"] == "false"
    answer = expect_ok(fed.sign_in(minted["postBody"]))
    assert answer["needConfirmation"] is True
    assert answer["localId"] == existing["localId"]
    assert answer["verifiedProvider"] == ["google.com"]
    assert "idToken" not in answer and "refreshToken" not in answer
    assert fed.users_with("apple.com", minted["sub"]) == []
    assert fed.provider_ids(existing["localId"]) == ["google.com", "password"]


def test_apple_string_false_is_not_verified(fed):
    minted = mint_apple(fed, emailVerified=False)
    answer = fed.sign_in_ok(minted["postBody"])
    assert answer["isNewUser"] is True and answer["emailVerified"] is False
    assert fed.user(answer["localId"])["emailVerified"] is False


def test_apple_email_verified_true_signs_into_the_account_with_that_email(fed):
    email = unique_email("takeover")
    existing = fed.client.sign_up(email, "password-1")
    answer = fed.sign_in_ok(mint_apple(fed, email=email)["postBody"])
    assert answer["localId"] == existing["localId"] and "isNewUser" not in answer


def test_apple_name_is_taken_from_the_user_parameter_on_first_sign_in_only(fed):
    sub, email = apple_sub(), unique_email("named")
    first = fed.mint("apple.com", sub=sub, email=email)
    answer = fed.sign_in_ok(first["postBody"] + "&user=" + tokens.apple_user_parameter("Ada", "Lovelace"))
    assert answer["isNewUser"] is True
    assert fed.user(answer["localId"])["displayName"] == "Ada Lovelace"
    second = fed.mint("apple.com", sub=sub, email=email)
    again = fed.sign_in_ok(second["postBody"] + "&user=" + tokens.apple_user_parameter("Charles", "Babbage"))
    assert again["localId"] == answer["localId"]
    assert fed.user(answer["localId"])["displayName"] == "Ada Lovelace"


def test_reauthentication_never_creates_a_user(fed):
    minted = mint_apple(fed)
    for return_idp_credential in (None, True):
        response = fed.sign_in(minted["postBody"], autoCreate=False, returnIdpCredential=return_idp_credential)
        # A 400, or (with returnIdpCredential) a 200 carrying errorMessage: the SDK maps both.
        if response.status_code == 200:
            assert return_idp_credential and response.json()["errorMessage"] == "USER_NOT_FOUND", response.text
            assert "idToken" not in response.json() and "localId" not in response.json()
        else:
            assert_error(response, 400, "USER_NOT_FOUND")
        assert fed.user_count() == 0 and fed.users_with("apple.com", minted["sub"]) == []
    created = fed.sign_in_ok(minted["postBody"])
    again = fed.mint("apple.com", sub=minted["sub"], email=minted["email"])
    assert fed.sign_in_ok(again["postBody"], autoCreate=False)["localId"] == created["localId"]


def test_linking_apple_to_a_password_user_then_unlinking(fed):
    user = fed.client.sign_up(unique_email("linker"), "password-1")
    minted = mint_apple(fed, email=unique_email("apple-link"))
    linked = fed.sign_in_ok(minted["postBody"], idToken=user["idToken"])
    assert linked["localId"] == user["localId"] and linked["providerId"] == "apple.com"
    assert "isNewUser" not in linked
    assert fed.provider_ids(user["localId"]) == ["apple.com", "password"]
    assert [found["localId"] for found in fed.users_with("apple.com", minted["sub"])] == [user["localId"]]

    unlinked = expect_ok(fed.client.request("POST", f"{IDENTITY_TOOLKIT}/accounts:update", params={"key": API_KEY},
                                            json={"idToken": linked["idToken"], "deleteProvider": ["apple.com"]}))
    assert [info["providerId"] for info in unlinked["providerUserInfo"]] == ["password"]
    assert fed.provider_ids(user["localId"]) == ["password"]
    assert fed.users_with("apple.com", minted["sub"]) == []


def test_a_refused_link_or_takeover_changes_nothing(fed):
    email = unique_email("kept")
    user = fed.client.sign_up(email, "password-1")
    minted = mint_apple(fed, email=email, nonce="n-right")
    flipped = tokens.with_claims(minted["idToken"], sub=apple_sub())
    fed.refused(tokens.post_body("apple.com", id_token=flipped, nonce="n-right"), INVALID_IDP_RESPONSE, "signature",
                idToken=user["idToken"])
    # A verified Apple email would take the unverified password account over (and drop its
    # password); refused for its nonce, it must not.
    fed.refused(tokens.post_body("apple.com", id_token=minted["idToken"], nonce="n-wrong"), INVALID_NONCE)
    assert fed.provider_ids(user["localId"]) == ["password"]
    assert fed.client.sign_in_with_password_ok(email, "password-1")["localId"] == user["localId"]


def test_linking_an_identity_that_another_user_holds(fed):
    minted = mint_apple(fed)
    owner = fed.sign_in_ok(minted["postBody"])
    other = fed.client.sign_up(unique_email("other"), "password-1")
    again = fed.mint("apple.com", sub=minted["sub"], email=minted["email"])

    answer = expect_ok(fed.sign_in(again["postBody"], idToken=other["idToken"]))
    assert answer["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED"
    assert answer["oauthIdToken"] == again["idToken"]
    assert "localId" not in answer and "idToken" not in answer
    assert_error(fed.sign_in(again["postBody"], idToken=other["idToken"], returnIdpCredential=None),
                 400, "FEDERATED_USER_ID_ALREADY_LINKED")
    assert fed.provider_ids(other["localId"]) == ["password"]
    assert [user["localId"] for user in fed.users_with("apple.com", minted["sub"])] == [owner["localId"]]


def test_linking_an_identity_whose_email_another_user_has(fed):
    taken = unique_email("taken")
    fed.client.sign_up(taken, "password-1")
    other = fed.client.sign_up(unique_email("other"), "password-1")
    minted = mint_apple(fed, email=taken)
    answer = expect_ok(fed.sign_in(minted["postBody"], idToken=other["idToken"]))
    assert answer["errorMessage"] == "EMAIL_EXISTS" and "idToken" not in answer
    assert_error(fed.sign_in(minted["postBody"], idToken=other["idToken"], returnIdpCredential=None),
                 400, "EMAIL_EXISTS")
    assert fed.provider_ids(other["localId"]) == ["password"]
    assert fed.users_with("apple.com", minted["sub"]) == []


def test_facebook_limited_login(fed):
    raw, email = unique("n"), unique_email("limited")
    minted = fed.mint("facebook.com", email=email, name="Limited User", nonce=raw)
    assert minted["postBody"] == f"providerId=facebook.com&id_token={minted['idToken']}&nonce={raw}"
    answer = fed.sign_in_ok(minted["postBody"])
    assert answer["providerId"] == "facebook.com" and answer["federatedId"] == minted["sub"]
    assert answer["email"] == email and answer["displayName"] == "Limited User"
    assert decode_jwt(answer["idToken"])[1]["firebase"]["identities"]["facebook.com"] == [minted["sub"]]


def test_facebook_classic_access_token(fed):
    email = unique_email("classic")
    minted = fed.mint("facebook.com", email=email, name="Classic User")
    answer = fed.sign_in_ok(tokens.post_body("facebook.com", access_token=minted["accessToken"]))
    assert answer["federatedId"] == minted["sub"] and answer["email"] == email
    assert answer["oauthAccessToken"] == minted["accessToken"]
    fed.refused(tokens.post_body("facebook.com", access_token="EAAG" + uuid.uuid4().hex), INVALID_IDP_RESPONSE)


@pytest.mark.parametrize("idp, federated_prefix", [
    ("google.com", "https://accounts.google.com/"), ("yahoo.com", ""), ("oidc.example", "")])
def test_other_providers_sign_in(fed, idp, federated_prefix):
    email, raw = unique_email(idp.split(".")[0]), unique("n")
    minted = fed.mint(idp, email=email, name="Other User", nonce=raw)
    answer = fed.sign_in_ok(minted["postBody"])
    assert answer["providerId"] == idp and answer["isNewUser"] is True
    assert answer["federatedId"] == federated_prefix + minted["sub"]
    assert answer["email"] == email and answer["displayName"] == "Other User"
    assert isinstance(answer["rawUserInfo"], str) and json.loads(answer["rawUserInfo"])
    firebase = decode_jwt(answer["idToken"])[1]["firebase"]
    assert firebase["sign_in_provider"] == idp and firebase["identities"][idp] == [minted["sub"]]


# Apple token revocation -----------------------------------------------------------------------

def revoke(federation, **body):
    return federation.client.request("POST", f"{V2}/accounts:revokeToken", params={"key": API_KEY},
                                     json={"providerId": "apple.com", "tokenType": "3", **body})


@pytest.mark.parametrize("token_type", ["3", 3, "CODE"])
def test_revoking_the_apple_authorization_code(fed, token_type):
    minted = mint_apple(fed)
    signed_in = fed.sign_in_ok(minted["postBody"])
    code = minted["authorizationCode"]
    response = revoke(fed, tokenType=token_type, token=code, idToken=signed_in["idToken"])
    assert expect_ok(response) == {}
    [entry] = [entry for entry in fed.revocations() if entry["authorizationCode"] == code]
    assert entry["sub"] == minted["sub"] and entry["projectId"] == PROJECT_ID
    parse_rfc3339(entry["revokedAt"])


def test_revocation_refuses_a_code_of_another_identity(fed):
    signed_in = fed.sign_in_ok(mint_apple(fed)["postBody"])
    foreign_code = mint_apple(fed)["authorizationCode"]
    response = revoke(fed, token=foreign_code, idToken=signed_in["idToken"])
    assert_error_prefix(response, 400, INVALID_IDP_RESPONSE)
    password_user = fed.client.sign_up(unique_email("no-apple"), "password-1")
    response = revoke(fed, token=foreign_code, idToken=password_user["idToken"])
    assert_error_prefix(response, 400, INVALID_IDP_RESPONSE)
    assert all(entry["authorizationCode"] != foreign_code for entry in fed.revocations())


def test_revocation_request_errors(fed):
    minted = mint_apple(fed)
    signed_in = fed.sign_in_ok(minted["postBody"])
    assert_error(revoke(fed, token=minted["authorizationCode"]), 400, "MISSING_ID_TOKEN")
    response = revoke(fed, providerId="google.com", token=minted["authorizationCode"], idToken=signed_in["idToken"])
    assert_error_prefix(response, 400, "INVALID_PROVIDER_ID")
    assert all(entry["authorizationCode"] != minted["authorizationCode"] for entry in fed.revocations())


def test_revocation_refuses_a_code_older_than_five_minutes(own):
    minted = own.mint("apple.com", email=unique_email("old"), sub=apple_sub())
    signed_in = own.sign_in_ok(minted["postBody"])
    own.advance(5 * 60 + 5)
    response = revoke(own, token=minted["authorizationCode"], idToken=signed_in["idToken"])
    assert_error_prefix(response, 400, INVALID_IDP_RESPONSE)
    assert own.revocations() == []


# The headful flow, as a browser does it -------------------------------------------------------

class Forms(html.parser.HTMLParser):
    """Every <form> of a page with its fields (input, select, textarea, button attributes)."""

    def __init__(self):
        super().__init__()
        self.forms, self.current = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.current = {"action": attrs.get("action") or "", "method": (attrs.get("method") or "get").lower(),
                            "fields": []}
            self.forms.append(self.current)
        elif tag in ("input", "select", "textarea", "button") and self.current is not None:
            self.current["fields"].append({"tag": tag, **attrs})

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None


def field_kind(field):
    name, kind = (field.get("name") or "").lower(), (field.get("type") or "text").lower()
    if kind == "email" or (kind != "hidden" and "email" in name and "hide" not in name):
        return "email"
    if kind in ("text", "") and name in ("name", "displayname", "display_name", "fullname"):
        return "name"
    return None


def new_account_form(page):
    parser = Forms()
    parser.feed(page)
    for form in parser.forms:
        if any(field_kind(field) == "email" for field in form["fields"]):
            return form
    raise AssertionError(f"no form with an email field in the page:\n{page[:3000]}")


def submit(federation, page_url, page, email, name):
    """Fills the new-account form like a person would and posts it, without following redirects."""
    form = new_account_form(page)
    data, submitted = [], False
    for field in form["fields"]:
        name_attribute, kind = field.get("name"), (field.get("type") or "").lower()
        if not name_attribute:
            continue
        role = field_kind(field)
        if role == "email":
            data.append((name_attribute, email))
        elif role == "name":
            data.append((name_attribute, name))
        elif kind in ("checkbox", "radio"):
            if "checked" in field:
                data.append((name_attribute, field.get("value", "on")))
        elif field["tag"] == "button" or kind == "submit":
            if not submitted:
                data.append((name_attribute, field.get("value", "")))
                submitted = True
        else:
            data.append((name_attribute, field.get("value", "")))
    assert any(value == name for _, value in data), f"no display-name field in {form}"
    action = urllib.parse.urljoin(page_url, form["action"] or page_url)
    assert form["method"] == "post", form
    return federation.client.session.post(action, data=data, allow_redirects=False, timeout=10)


def handler_query(provider_id, session_hash, event_id, **app):
    return {"apiKey": "k", "authType": "signInWithRedirect", "ibi": "com.example.app", "sessionId": session_hash,
            "v": "FirebaseAuth.iOS/12.19.0", "eventId": event_id, "providerId": provider_id, **app, "scopes": ""}


def headful_sign_in(federation, provider_id, email, name, app=None, scheme="app-1-1234567890-ios-abcdef"):
    """The Apple SDK's web flow: open the page, submit its form, follow the deep link, verifyAssertion."""
    raw_session = "".join(chr(ord("A") + b % 26) for b in uuid.uuid4().bytes[:10])
    event_id = "ABCDEFGHIJ"
    query = handler_query(provider_id, hashlib.sha256(raw_session.encode()).hexdigest(), event_id,
                          **(app or {"appId": "1:1234567890:ios:abcdef"}))
    page = federation.get("/emulator/auth/handler", params=query)
    assert page.status_code == 200, page.text
    assert page.headers["Content-Type"].startswith("text/html")

    redirect = submit(federation, page.url, page.text, email, name)
    assert redirect.status_code == 303, redirect.text
    location = redirect.headers["Location"]
    assert location.startswith(f"{scheme}://firebaseauth/link?deep_link_id="), location
    deep_link = tokens.sdk_query(urllib.parse.urlsplit(location).query)["deep_link_id"]
    inner = urllib.parse.urlsplit(deep_link)
    assert (inner.scheme, inner.netloc, inner.path) == ("http", federation.host, "/__/auth/callback"), deep_link
    inner_query = tokens.sdk_query(inner.query)
    assert inner_query["authType"] == "signInWithRedirect" and inner_query["eventId"] == event_id
    return federation.sign_in_ok(f"providerId={provider_id}", request_uri=inner_query["link"], sessionId=raw_session)


def test_headful_yahoo_sign_in(fed):
    email = unique_email("Yahoo")
    answer = headful_sign_in(fed, "yahoo.com", email, "Yahoo Person")
    assert answer["providerId"] == "yahoo.com" and answer["isNewUser"] is True
    assert answer["email"] == email.lower() and answer["displayName"] == "Yahoo Person"
    assert fed.provider_ids(answer["localId"]) == ["yahoo.com"]
    assert decode_jwt(answer["idToken"])[1]["firebase"]["sign_in_provider"] == "yahoo.com"


def test_headful_scheme_from_a_reversed_client_id(fed):
    answer = headful_sign_in(fed, "yahoo.com", unique_email("client"), "Client Person",
                             app={"clientId": "123456.apps.googleusercontent.com"},
                             scheme="com.googleusercontent.apps.123456")
    assert answer["providerId"] == "yahoo.com"


@pytest.mark.parametrize("missing", ["apiKey", "providerId"])
def test_headful_page_needs_api_key_and_provider(fed, missing):
    query = handler_query("yahoo.com", "0" * 64, "ABCDEFGHIJ", appId="1:1234567890:ios:abcdef")
    del query[missing]
    response = fed.get("/emulator/auth/handler", params=query)
    assert response.status_code == 400, response.text
    # The official error, word for word, and beside it where a person who opened the page goes.
    assert response.json() == {"authEmulator": {"error": "missing apiKey or providerId query parameters",
                                                "console": f"http://{fed.host}/emulator/ui"}}


def test_headful_page_escapes_what_users_typed(fed):
    script = "<script>alert(1)</script>"
    headful_sign_in(fed, "yahoo.com", unique_email("xss"), script)
    query = handler_query("yahoo.com", "0" * 64, "ABCDEFGHIJ", appId="1:1234567890:ios:abcdef")
    page = fed.get("/emulator/auth/handler", params=query)
    assert page.status_code == 200, page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    assert script not in page.text
