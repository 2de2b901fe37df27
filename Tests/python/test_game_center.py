"""Sign in with Game Center end to end (issue 30): the real binary over real sockets.

The Apple SDK's `signInWithGameCenter` request is made here byte for byte as its RPC types make it
(`SignInWithGameCenterRequest.unencodedHTTPRequestBody` serialised by `JSONSerialization` with no
options: compact, `/` escaped as `\\/`; `signature` and `salt` re-encoded with the SDK's own
base64url; the headers `AuthBackend` sets), from the fields `GameCenterAuthProvider.getCredential()`
would hand it. Signatures and certificates are checked with `cryptography`, never with the
server's code, so a bug in minting cannot hide one in verifying.
"""

import base64
import http.server
import json
import re
import struct
import subprocess
import threading
import uuid

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from conftest import PROJECT_ID, binary_path, start_emulator, stop_emulator
from emulator_client import API_KEY, EmulatorClient, decode_jwt, error_of

LEGACY_V3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
MINT = "/emulator/v1/idp/gc.apple.com/tokens"
BUNDLE_ID = "com.example.puzzle"
INVALID = "INVALID_IDP_RESPONSE : "


def team_player_id():
    return "T:_" + uuid.uuid4().hex


def mint(client, **fields):
    fields.setdefault("bundleId", BUNDLE_ID)
    response = client.request("POST", MINT, json=fields)
    assert response.status_code == 200, response.text
    return response.json()


def sdk_base64url(data):
    """`Data.base64URLEncodedString()` of the SDK: base64, then `/`→`_`, `+`→`-`, `=` dropped."""
    return base64.b64encode(data).decode().replace("/", "_").replace("+", "-").replace("=", "")


def b64decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sdk_body(credential, id_token=None):
    """`unencodedHTTPRequestBody` for a GameCenterAuthCredential, in its insertion order."""
    body = {
        "playerId": credential["playerId"],
        "publicKeyUrl": credential["publicKeyUrl"],
        "signature": sdk_base64url(b64decode(credential["signature"])),
        "salt": sdk_base64url(b64decode(credential["salt"])),
    }
    if credential["timestamp"] != 0:
        body["timestamp"] = credential["timestamp"]
    for key in ("teamPlayerId", "gamePlayerId"):
        if credential.get(key) is not None:
            body[key] = credential[key]
    if id_token is not None:
        body["idToken"] = id_token
    body["displayName"] = credential["displayName"]
    # JSONSerialization, no options (release builds): compact, and it escapes every `/`.
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).replace("/", "\\/").encode()


def sdk_post(client, name, data, bundle_id=BUNDLE_ID):
    headers = {
        "Content-Type": "application/json",
        "X-Client-Version": "iOS/FirebaseSDK/12.19.0/FirebaseCore-iOS",
        "X-Ios-Bundle-Identifier": bundle_id,
        "X-Firebase-GMPID": "1:1234567890:ios:abc123",
        "Accept-Language": "en",
    }
    return client.request("POST", f"{LEGACY_V3}/{name}", params={"key": API_KEY}, data=data, headers=headers)


def sign_in(client, credential, id_token=None, bundle_id=BUNDLE_ID):
    return sdk_post(client, "signInWithGameCenter", sdk_body(credential, id_token), bundle_id)


def ok(response):
    assert response.status_code == 200, response.text
    return response.json()


def account_info(client, id_token):
    users = ok(sdk_post(client, "getAccountInfo", json.dumps({"idToken": id_token}).encode()))["users"]
    assert len(users) == 1
    return users[0]


def game_center_link(user):
    [link] = [info for info in user["providerUserInfo"] if info["providerId"] == "gc.apple.com"]
    return link


def user_count(client):
    response = client.admin_call("query", {"returnUserInfo": False})
    return int(ok(response)["recordsCount"])


def test_the_sdks_request_signs_up_signs_in_reauthenticates_and_links(client):
    player = team_player_id()
    first = mint(client, teamPlayerId=player, displayName="Ada")
    assert first["playerId"] == "" and first["gamePlayerId"].startswith("A:_")
    assert first["requestBody"]["teamPlayerId"] == player

    signed_up = ok(sign_in(client, first))
    assert signed_up["isNewUser"] is True
    assert signed_up["expiresIn"] == "3600"
    assert signed_up["teamPlayerId"] == player and signed_up["gamePlayerId"] == first["gamePlayerId"]
    assert signed_up["displayName"] == "Ada"
    assert decode_jwt(signed_up["idToken"])[1]["firebase"]["sign_in_provider"] == "gc.apple.com"
    user = account_info(client, signed_up["idToken"])
    assert user["localId"] == signed_up["localId"]
    assert game_center_link(user)["rawId"] == player
    assert game_center_link(user)["federatedId"] == player

    # Signing in again, and re-authenticating (the same request): the same user, not a new one.
    for _ in range(2):
        again = ok(sign_in(client, mint(client, teamPlayerId=player, displayName="Ada")))
        assert again["localId"] == signed_up["localId"]
        assert again["isNewUser"] is False
    assert user_count(client) == 1

    # The refresh token the SDK keeps works, and keeps the provider.
    refreshed = client.refresh_json(signed_up["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    assert decode_jwt(refreshed.json()["access_token"])[1]["firebase"]["sign_in_provider"] == "gc.apple.com"

    # link(with:): an email user takes another player; the first player is already someone's.
    email_user = client.sign_up(f"{uuid.uuid4().hex[:10]}@example.com", "secret123")
    second = team_player_id()
    linked = ok(sign_in(client, mint(client, teamPlayerId=second), id_token=email_user["idToken"]))
    assert linked["localId"] == email_user["localId"]
    assert linked["idToken"] and linked["refreshToken"]  # the SDK's link path crashes without them
    providers = {info["providerId"] for info in account_info(client, linked["idToken"])["providerUserInfo"]}
    assert providers == {"password", "gc.apple.com"}
    taken = sign_in(client, mint(client, teamPlayerId=player), id_token=linked["idToken"])
    assert taken.status_code == 400
    assert error_of(taken)["message"] == "FEDERATED_USER_ID_ALREADY_LINKED"
    assert user_count(client) == 2


def test_the_certificate_at_public_key_url_verifies_what_the_mint_signed(client):
    player = team_player_id()
    credential = mint(client, teamPlayerId=player)
    url = credential["publicKeyUrl"]
    assert url.startswith(f"http://{client.host}/emulator/v1/idp/gc.apple.com/public-key/") and url.endswith(".cer")
    response = client.session.get(url, timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pkix-cert"
    certificate = x509.load_der_x509_certificate(response.content)
    payload = (player.encode() + BUNDLE_ID.encode() + struct.pack(">Q", credential["timestamp"])
               + b64decode(credential["salt"]))
    certificate.public_key().verify(b64decode(credential["signature"]), payload, padding.PKCS1v15(), hashes.SHA256())
    assert len(b64decode(credential["salt"])) == 4


def test_a_signature_by_another_key_and_every_malformed_field_are_refused_and_write_nothing(client):
    credential = mint(client, teamPlayerId=team_player_id())
    payload = (credential["teamPlayerId"].encode() + BUNDLE_ID.encode() + struct.pack(">Q", credential["timestamp"])
               + b64decode(credential["salt"]))
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    forged = dict(credential, signature=sdk_base64url(stranger.sign(payload, padding.PKCS1v15(), hashes.SHA256())))

    cases = [
        (forged, "Invalid signature."),
        (dict(credential, salt="AA"), "salt must be 4 to 32 bytes (GameKit's are 4), not 1."),
        (dict(credential, teamPlayerId=team_player_id()), "Invalid signature."),
        (dict(credential, publicKeyUrl="https://static.gc.apple.com/public-key/gc-prod-10.cer"),
         "publicKeyUrl https://static.gc.apple.com/public-key/gc-prod-10.cer is not a certificate this emulator serves"),
    ]
    for changed, detail in cases:
        response = sign_in(client, changed)
        assert response.status_code == 400, response.text
        assert error_of(response)["message"].startswith(INVALID + detail), response.text
    raw = [
        ({"signature": "***"}, INVALID + "signature is not base64 or base64url: ***"),
        ({"timestamp": "twelve"}, "Invalid JSON payload received. /timestamp must be integer"),
        ({"timestamp": None}, INVALID + "timestamp is required"),
    ]
    for change, message in raw:
        body = json.loads(sdk_body(credential))
        body.update(change)
        response = sdk_post(client, "signInWithGameCenter", json.dumps(body).encode())
        assert response.status_code == 400, response.text
        assert error_of(response)["message"].startswith(message), response.text
    other_app = sign_in(client, credential, bundle_id="com.example.other")
    assert "for bundle id com.example.other (from X-Ios-Bundle-Identifier)" in error_of(other_app)["message"]
    assert user_count(client) == 0


class Recorder(http.server.BaseHTTPRequestHandler):
    requests = []

    def do_GET(self):
        Recorder.requests.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_an_outside_public_key_url_is_refused_and_never_fetched(client):
    server = http.server.HTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/public-key/gc-prod-10.cer"
        response = sign_in(client, dict(mint(client), publicKeyUrl=url))
        assert response.status_code == 400
        assert error_of(response)["message"].startswith(f"{INVALID}publicKeyUrl {url} is not a certificate this emulator serves")
    finally:
        server.shutdown()
        server.server_close()
    assert Recorder.requests == []


def test_stale_and_future_timestamps_by_the_emulator_clock():
    running = start_emulator()
    own = EmulatorClient(running.host, PROJECT_ID)
    try:
        credential = mint(own, teamPlayerId=team_player_id())
        assert own.request("POST", "/emulator/v1/clock:advance", json={"seconds": 301}).status_code == 200
        stale = sign_in(own, credential)
        assert stale.status_code == 400
        # At least 301 s: real time passes too, so the exact age is not asserted.
        assert re.search(r" is 3\d\d s old; the emulator takes Game Center signatures for 300 s", error_of(stale)["message"])
        future = mint(own, teamPlayerId=team_player_id(), timestamp=credential["timestamp"] + 3_600_000)
        assert "is in the future" in error_of(sign_in(own, future))["message"]
        assert ok(sign_in(own, mint(own, teamPlayerId=team_player_id())))["isNewUser"] is True
    finally:
        own.close()
        stop_emulator(running)


def test_the_mint_command_prints_a_request_body_ready_to_post(client):
    player = team_player_id()
    result = subprocess.run(
        [str(binary_path()), "mint", "gc.apple.com", "--team-player-id", player, "--display-name", "Cli",
         "--bundle-id", BUNDLE_ID, "--server", f"http://{client.host}"],
        capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    minted = json.loads(result.stdout)
    assert minted["bundleId"] == BUNDLE_ID
    response = client.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithGameCenter",
                              params={"key": API_KEY}, json=minted["requestBody"],
                              headers={"X-Ios-Bundle-Identifier": BUNDLE_ID})
    assert ok(response)["teamPlayerId"] == player
    # Without the header, the bundle id is the mint's default: a body minted for another one fails.
    unnamed = client.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithGameCenter",
                             params={"key": API_KEY}, json=minted["requestBody"])
    assert "no X-Ios-Bundle-Identifier header was sent" in error_of(unnamed)["message"]
