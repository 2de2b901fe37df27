"""Plain-HTTP checks of the REST contract that SDK users depend on."""

import json
import socket

import requests

from conftest import PROJECT_ID
from emulator_client import IDENTITY_TOOLKIT, LEGACY_V3, assert_error, decode_jwt, error_of

ONE_MIB = 1 << 20


def test_semantic_errors_have_googles_exact_shape(client):
    client.sign_up("dup@example.com", "password-1")
    response = client.call("signUp", {"email": "DUP@example.com", "password": "password-2"})
    assert response.status_code == 400
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.json() == {"error": {
        "code": 400,
        "message": "EMAIL_EXISTS",
        "errors": [{"message": "EMAIL_EXISTS", "reason": "invalid", "domain": "global"}],
    }}


def test_weak_password_message(client):
    response = client.call("signUp", {"email": "weak@example.com", "password": "12345"})
    assert_error(response, 400, "WEAK_PASSWORD : Password should be at least 6 characters")
    assert error_of(response)["errors"] == [{
        "message": "WEAK_PASSWORD : Password should be at least 6 characters",
        "reason": "invalid", "domain": "global"}]
    # Nothing was written: the email is still free.
    assert client.sign_up("weak@example.com", "123456")["email"] == "weak@example.com"


def test_password_sign_in_errors(client):
    client.sign_up("known@example.com", "password-1")
    assert_error(client.sign_in_with_password("known@example.com", "wrong-password"), 400, "INVALID_PASSWORD")
    assert_error(client.sign_in_with_password("unknown@example.com", "password-1"), 400, "EMAIL_NOT_FOUND")
    assert_error(client.call("signInWithPassword", {"password": "password-1"}), 400, "MISSING_EMAIL")
    assert_error(client.call("signInWithPassword", {"email": "known@example.com"}), 400, "MISSING_PASSWORD")
    signed_in = client.sign_in_with_password_ok("KNOWN@example.com", "password-1")
    assert signed_in["kind"] == "identitytoolkit#VerifyPasswordResponse"
    assert signed_in["registered"] is True
    assert signed_in["email"] == "known@example.com"
    assert signed_in["expiresIn"] == "3600"


def test_legacy_v3_paths_used_by_the_apple_sdk(client):
    response = client.request("POST", f"{LEGACY_V3}/signupNewUser", params={"key": "k"},
                              json={"email": "Legacy@Example.com", "password": "password-1",
                                    "returnSecureToken": True})
    assert response.status_code == 200, response.text
    signed_up = response.json()
    assert signed_up["kind"] == "identitytoolkit#SignupNewUserResponse"
    assert signed_up["email"] == "legacy@example.com"
    assert signed_up["expiresIn"] == "3600"
    _, claims, _ = decode_jwt(signed_up["idToken"])
    assert claims["user_id"] == signed_up["localId"]

    response = client.request("POST", f"{LEGACY_V3}/getAccountInfo", params={"key": "k"},
                              json={"idToken": signed_up["idToken"]})
    assert response.status_code == 200, response.text
    info = response.json()
    assert info["kind"] == "identitytoolkit#GetAccountInfoResponse"
    [user] = info["users"]
    assert user["localId"] == signed_up["localId"]
    assert user["email"] == "legacy@example.com"
    assert user["emailVerified"] is False
    assert isinstance(user["createdAt"], str) and user["createdAt"].isdigit()
    assert isinstance(user["lastLoginAt"], str) and user["lastLoginAt"].isdigit()
    assert [p["providerId"] for p in user["providerUserInfo"]] == ["password"]
    assert user["providerUserInfo"][0]["rawId"] == "legacy@example.com"


def test_securetoken_rejects_bad_requests(client):
    assert_error(client.refresh_form("not-a-refresh-token"), 400, "INVALID_REFRESH_TOKEN")
    assert_error(client.refresh_json("not-a-refresh-token"), 400, "INVALID_REFRESH_TOKEN")
    refresh_token = client.sign_up()["refreshToken"]
    response = client.request("POST", "/securetoken.googleapis.com/v1/token", params={"key": "k"},
                              data={"grant_type": "authorization_code", "refresh_token": refresh_token})
    assert_error(response, 400, "INVALID_GRANT_TYPE")
    response = client.request("POST", "/securetoken.googleapis.com/v1/token", params={"key": "k"},
                              json={"refreshToken": refresh_token})
    assert_error(response, 400, "MISSING_GRANT_TYPE")
    response = client.request("POST", "/securetoken.googleapis.com/v1/token",
                              data={"grant_type": "refresh_token", "refresh_token": refresh_token})
    assert_error(response, 403, "The request is missing a valid API key.")


def test_unknown_path_is_a_404_in_googles_shape(client):
    response = client.request("POST", f"{IDENTITY_TOOLKIT}/accounts:noSuchOperation",
                              params={"key": "k"}, json={})
    assert response.status_code == 404, response.text
    error = error_of(response)
    assert error["code"] == 404
    assert error["status"] == "NOT_FOUND"

    response = client.request("GET", "/no/such/path")
    assert response.status_code == 404, response.text
    assert error_of(response)["status"] == "NOT_FOUND"


def test_a_bearer_token_other_than_owner_is_rejected_with_401(client):
    response = client.request("POST", f"{IDENTITY_TOOLKIT}/projects/{PROJECT_ID}/accounts:lookup",
                              headers={"Authorization": "Bearer not-the-owner"},
                              json={"localId": ["x"]})
    assert response.status_code == 401, response.text
    error = error_of(response)
    assert error["code"] == 401
    assert error["status"] == "UNAUTHENTICATED"

    # The owner credential is accepted in any casing.
    response = client.request("POST", f"{IDENTITY_TOOLKIT}/projects/{PROJECT_ID}/accounts:lookup",
                              headers={"Authorization": "bearer OWNER"}, json={"localId": ["x"]})
    assert response.status_code == 200, response.text


def test_a_client_call_without_an_api_key_is_rejected_with_403(client):
    response = client.request("POST", f"{IDENTITY_TOOLKIT}/accounts:signUp", json={})
    assert_error(response, 403, "The request is missing a valid API key.")
    assert error_of(response)["status"] == "PERMISSION_DENIED"

    # The key may also come in the x-goog-api-key header.
    response = client.request("POST", f"{IDENTITY_TOOLKIT}/accounts:signUp",
                              headers={"x-goog-api-key": "k"}, json={"returnSecureToken": True})
    assert response.status_code == 200, response.text


def test_cors_preflight_reflects_the_origin(client):
    origin = "http://localhost:5173"
    response = client.request("OPTIONS", f"{IDENTITY_TOOLKIT}/accounts:signUp", params={"key": "k"},
                              headers={"Origin": origin,
                                       "Access-Control-Request-Method": "POST",
                                       "Access-Control-Request-Headers": "content-type,x-client-version"})
    assert response.status_code == 204, response.text
    assert response.headers["Access-Control-Allow-Origin"] == origin
    allowed_headers = {h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "x-client-version"} <= allowed_headers
    allowed_methods = {m.strip() for m in response.headers["Access-Control-Allow-Methods"].split(",")}
    assert {"GET", "POST", "DELETE"} <= allowed_methods

    # The actual request carries the reflected origin too.
    response = client.request("POST", f"{IDENTITY_TOOLKIT}/accounts:signUp", params={"key": "k"},
                              headers={"Origin": origin}, json={"returnSecureToken": True})
    assert response.status_code == 200, response.text
    assert response.headers["Access-Control-Allow-Origin"] == origin


def test_root_reports_ready(client):
    response = client.request("GET", "/")
    assert response.status_code == 200, response.text
    assert response.json()["authEmulator"]["ready"] is True


def read_response(reader):
    status = reader.readline()
    length = 0
    while (line := reader.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return status, reader.read(length)


def test_a_body_over_the_limit_written_before_reading_gets_a_readable_413(client):
    """A client that writes its whole body before it reads (most do, without `Expect:
    100-continue`) reads the 413, on a connection's first request (then the server closes in
    order) and on a kept-alive connection's later one (then the connection goes on): the server
    reads the body and drops it. It had stopped reading after 1 MiB, or at the headers of a later
    request, and the client's write of a larger body failed with a broken pipe."""
    host, port = client.base_url.removeprefix("http://").rsplit(":", 1)
    index = f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
    for size in (ONE_MIB + 1, 4 * ONE_MIB):
        oversize = (f"POST {IDENTITY_TOOLKIT}/accounts:signUp?key=k HTTP/1.1\r\nHost: {host}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n").encode() + b" " * size
        for kept_alive in (False, True):
            with socket.create_connection((host, int(port)), timeout=10) as connection:
                reader = connection.makefile("rb")
                if kept_alive:
                    connection.sendall(index)
                    assert read_response(reader)[0].startswith(b"HTTP/1.1 200 ")
                connection.sendall(oversize)
                status, answer = read_response(reader)
                assert status.startswith(b"HTTP/1.1 413 "), (size, kept_alive, status)
                error = json.loads(answer)["error"]
                assert error["code"] == 413 and "1048576-byte limit" in error["message"], error
                if kept_alive:
                    connection.sendall(index)
                    assert read_response(reader)[0].startswith(b"HTTP/1.1 200 "), size
                else:
                    assert reader.read() == b"", size  # the end of the stream, not a reset


def test_body_over_one_mebibyte_is_refused_with_413_and_a_json_error(client):
    url = client.url(f"{IDENTITY_TOOLKIT}/accounts:signUp?key=k")
    body = json.dumps({"returnSecureToken": True})
    headers = {"Content-Type": "application/json"}

    # A fresh connection: the server may close it after refusing the body.
    too_big = body + " " * (ONE_MIB + 1 - len(body))
    assert len(too_big.encode()) == ONE_MIB + 1
    response = requests.post(url, data=too_big.encode(), headers=headers, timeout=10)
    assert response.status_code == 413, response.text
    error = error_of(response)
    assert error["code"] == 413

    # Exactly one mebibyte is still accepted.
    at_limit = body + " " * (ONE_MIB - len(body))
    response = requests.post(url, data=at_limit.encode(), headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    assert response.json()["localId"]
