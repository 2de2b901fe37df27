"""Plain-HTTP helpers for the client-side Firebase Auth REST API, as a client SDK calls it.

Nothing here goes through firebase-admin: these are the calls an app (web, iOS, Android)
makes with an API key, plus the admin REST calls the tests need to check the server
directly (with `Authorization: Bearer owner`).
"""

import base64
import json

import requests

API_KEY = "fake-api-key"
IDENTITY_TOOLKIT = "/identitytoolkit.googleapis.com/v1"
SECURE_TOKEN = "/securetoken.googleapis.com/v1/token"
LEGACY_V3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
TIMEOUT = 30


def b64url_decode(segment):
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def decode_jwt(token):
    """Splits a JWT without verifying it: (header dict, payload dict, signature string)."""
    header, payload, signature = token.split(".")
    return json.loads(b64url_decode(header)), json.loads(b64url_decode(payload)), signature


def error_of(response):
    """The `error` object of a Google-style error answer."""
    try:
        body = response.json()
    except ValueError:
        raise AssertionError(f"expected a JSON error body, got {response.status_code}: {response.text!r}")
    assert "error" in body, f"no 'error' in {body!r}"
    return body["error"]


def assert_error(response, status, message):
    """Asserts an HTTP status and the exact `error.message` (e.g. `TOKEN_EXPIRED`)."""
    assert response.status_code == status, (
        f"{response.request.method} {response.request.url}: expected {status} {message}, "
        f"got {response.status_code}: {response.text}")
    error = error_of(response)
    assert error["code"] == status, error
    assert error["message"] == message, error


class EmulatorClient:
    """Talks to one running emulator the way client SDKs and plain HTTP test code do."""

    def __init__(self, host, project_id, api_key=API_KEY):
        self.host = host
        self.base_url = f"http://{host}"
        self.project_id = project_id
        self.api_key = api_key
        self.session = requests.Session()

    def close(self):
        self.session.close()

    def url(self, path):
        return self.base_url + path

    def request(self, method, path, **kwargs):
        kwargs.setdefault("timeout", TIMEOUT)
        return self.session.request(method, self.url(path), **kwargs)

    # Client-side REST (API key) -------------------------------------------------------------

    def call(self, op, body, *, key=None):
        """POST /identitytoolkit.googleapis.com/v1/accounts:<op>?key=… with a JSON body."""
        return self.request("POST", f"{IDENTITY_TOOLKIT}/accounts:{op}",
                            params={"key": key or self.api_key}, json=body)

    def call_ok(self, op, body):
        response = self.call(op, body)
        assert response.status_code == 200, f"accounts:{op} {body!r} -> {response.status_code}: {response.text}"
        return response.json()

    def sign_up(self, email=None, password=None, **extra):
        body = {"returnSecureToken": True, **extra}
        if email is not None:
            body["email"] = email
        if password is not None:
            body["password"] = password
        return self.call_ok("signUp", body)

    def sign_in_with_password(self, email, password):
        return self.call("signInWithPassword",
                         {"email": email, "password": password, "returnSecureToken": True})

    def sign_in_with_password_ok(self, email, password):
        return self.call_ok("signInWithPassword",
                            {"email": email, "password": password, "returnSecureToken": True})

    # Secure Token (refresh) ----------------------------------------------------------------

    def refresh_form(self, refresh_token):
        """The web/Android form: `grant_type=refresh_token&refresh_token=…`, form-encoded."""
        return self.request("POST", SECURE_TOKEN, params={"key": self.api_key},
                            data={"grant_type": "refresh_token", "refresh_token": refresh_token})

    def refresh_json(self, refresh_token):
        """The Apple SDK's form: camelCase JSON `{"grantType": …, "refreshToken": …}`."""
        return self.request("POST", SECURE_TOKEN, params={"key": self.api_key},
                            json={"grantType": "refresh_token", "refreshToken": refresh_token})

    # Admin REST (Bearer owner) ---------------------------------------------------------------

    def admin_call(self, op, body):
        """POST /identitytoolkit.googleapis.com/v1/projects/<p>/accounts:<op> as the owner."""
        return self.request("POST", f"{IDENTITY_TOOLKIT}/projects/{self.project_id}/accounts:{op}",
                            headers={"Authorization": "Bearer owner"}, json=body)

    # Emulator-only ---------------------------------------------------------------------------

    def clear_accounts(self):
        response = self.request("DELETE", f"/emulator/v1/projects/{self.project_id}/accounts")
        assert response.status_code == 200, f"clearing accounts -> {response.status_code}: {response.text}"
