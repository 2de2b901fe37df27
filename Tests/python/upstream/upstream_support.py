"""The helpers of firebase-tools' `src/emulator/auth/testing/helpers.ts`, for the ported spec
cases. Each takes the `AuthApi` of the case's own emulator and asserts as upstream's does."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import requests

from emulator_client import b64url_decode, decode_jwt  # noqa: F401  (re-exported for the ports)

PROJECT_ID = "example"
API_KEY = "fake-api-key"
KEY = {"key": API_KEY}
OWNER = {"Authorization": "Bearer owner"}
V1 = "/identitytoolkit.googleapis.com/v1"
V2 = "/identitytoolkit.googleapis.com/v2"
TIMEOUT = 10

TEST_PHONE_NUMBER = "+15555550100"
TEST_PHONE_NUMBER_OBFUSCATED = "+*******0100"
TEST_PHONE_NUMBER_2 = "+15555550101"
TEST_PHONE_NUMBER_3 = "+15555550102"
TEST_MFA_INFO = {"displayName": "Cell Phone", "phoneInfo": TEST_PHONE_NUMBER}
TEST_INVALID_PHONE_NUMBER = "5555550100"  # no country code
DISPLAY_NAME = "Example User"
PHOTO_URL = "http://fakephotourl.test"

# Upstream's unsigned Google token (alg none) and its no-email twin.
FAKE_GOOGLE_ACCOUNT = {
    "displayName": "Example User",
    "email": "example@gmail.com",
    "emailVerified": True,
    "rawId": "123456789012345678901",
    "idToken": "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJpc3MiOiJhY2NvdW50cy5nb29nbGUuY29tIiwiYXpwIjoiMjI4NzQ2ODI4NDQtYjBzOHM3NWIzaWVkYjJtZDRobHMydm9xNnNsbGJzbTMuYXBwcy5nb29nbGV1c2VyY29udGVudC5jb20iLCJhdWQiOiIyMjg3NDY4Mjg0NC1iMHM4czc1YjNpZWRiMm1kNGhsczJ2b3E2c2xsYnNtMy5hcHBzLmdvb2dsZXVzZXJjb250ZW50LmNvbSIsInN1YiI6IjEyMzQ1Njc4OTAxMjM0NTY3ODkwMSIsImVtYWlsIjoiZXhhbXBsZUBnbWFpbC5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiYXRfaGFzaCI6IjAwMDAwMDAwMDAwMDAwMDAwMDAwMDAiLCJpYXQiOjE1OTc4ODI2ODEsImV4cCI6MTU5Nzg4NjI4MX0.",
    "idTokenNoEmail": "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJpc3MiOiJhY2NvdW50cy5nb29nbGUuY29tIiwiYXpwIjoiMjI4NzQ2ODI4NDQtYjBzOHM3NWIzaWVkYjJtZDRobHMydm9xNnNsbGJzbTMuYXBwcy5nb29nbGV1c2VyY29udGVudC5jb20iLCJhdWQiOiIyMjg3NDY4Mjg0NC1iMHM4czc1YjNpZWRiMm1kNGhsczJ2b3E2c2xsYnNtMy5hcHBzLmdvb2dsZXVzZXJjb250ZW50LmNvbSIsInN1YiI6IjEyMzQ1Njc4OTAxMjM0NTY3ODkwMSIsImF0X2hhc2giOiIwMDAwMDAwMDAwMDAwMDAwMDAwMDAwIiwiaWF0IjoxNTk3ODgyNjgxLCJleHAiOjE1OTc4ODYyODF9.",
}

# A real, long-expired Google token with its signature zeroed (upstream's REAL_GOOGLE_ACCOUNT).
REAL_GOOGLE_ACCOUNT = {
    "displayName": "Oberyn Baelish",
    "email": "oberynbaelish.331826@gmail.com",
    "emailVerified": True,
    "rawId": "115113236566683398301",
    "photoUrl": "https://lh3.googleusercontent.com/-KNaMyFnKZ9o/AAAAAAAAAAI/AAAAAAAAAAA/AMZuucnZC9bn4HcT-8bQka3uG3lUYd4lSA/photo.jpg",
    "idToken": "eyJhbGciOiJSUzI1NiIsImtpZCI6IjZiYzYzZTlmMThkNTYxYjM0ZjU2NjhmODhhZTI3ZDQ4ODc2ZDgwNzMiLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJhY2NvdW50cy5nb29nbGUuY29tIiwiYXpwIjoiMjI4NzQ2ODI4NDQtYjBzOHM3NWIzaWVkYjJtZDRobHMydm9xNnNsbGJzbTMuYXBwcy5nb29nbGV1c2VyY29udGVudC5jb20iLCJhdWQiOiIyMjg3NDY4Mjg0NC1iMHM4czc1YjNpZWRiMm1kNGhsczJ2b3E2c2xsYnNtMy5hcHBzLmdvb2dsZXVzZXJjb250ZW50LmNvbSIsInN1YiI6IjExNTExMzIzNjU2NjY4MzM5ODMwMSIsImVtYWlsIjoib2JlcnluYmFlbGlzaC4zMzE4MjZAZ21haWwuY29tIiwiZW1haWxfdmVyaWZpZWQiOnRydWUsImF0X2hhc2giOiJXNTlTOEs4Y3g0Y3hYYmh0YmFXYndBIiwiaWF0IjoxNTk3ODgyNjgxLCJleHAiOjE1OTc4ODYyODF9." + "0" * 342,
    "idTokenNoEmail": "eyJhbGciOiJSUzI1NiIsImtpZCI6IjZiYzYzZTlmMThkNTYxYjM0ZjU2NjhmODhhZTI3ZDQ4ODc2ZDgwNzMiLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJhY2NvdW50cy5nb29nbGUuY29tIiwiYXpwIjoiMjI4NzQ2ODI4NDQtYjBzOHM3NWIzaWVkYjJtZDRobHMydm9xNnNsbGJzbTMuYXBwcy5nb29nbGV1c2VyY29udGVudC5jb20iLCJhdWQiOiIyMjg3NDY4Mjg0NC1iMHM4czc1YjNpZWRiMm1kNGhsczJ2b3E2c2xsYnNtMy5hcHBzLmdvb2dsZXVzZXJjb250ZW50LmNvbSIsInN1YiI6IjExNTExMzIzNjU2NjY4MzM5ODMwMSIsImF0X2hhc2giOiJJRHA0UFFldFItLUFyaWhXX2NYMmd3IiwiaWF0IjoxNTk3ODgyNDQyLCJleHAiOjE1OTc4ODYwNDJ9." + "0" * 342,
}


class AuthApi:
    """upstream's `authApi()`: plain HTTP to one emulator (`post(path, body, query, headers)`)."""

    def __init__(self, host):
        self.host = host
        self.base_url = f"http://{host}"
        self.session = requests.Session()

    def close(self):
        self.session.close()

    def request(self, method, path, body=None, *, query=None, headers=None, **kwargs):
        kwargs.setdefault("timeout", TIMEOUT)
        if body is not None:
            kwargs["json"] = body
        return self.session.request(method, self.base_url + path, params=query, headers=headers, **kwargs)

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, body=None, **kwargs):
        return self.request("POST", path, body, **kwargs)

    def patch(self, path, body=None, **kwargs):
        return self.request("PATCH", path, body, **kwargs)

    def put(self, path, body=None, **kwargs):
        return self.request("PUT", path, body, **kwargs)

    def delete(self, path, body=None, **kwargs):
        return self.request("DELETE", path, body, **kwargs)

    def tick(self, milliseconds):
        """upstream's `getClock().tick(ms)`: moves the emulator clock forward."""
        expect_status(200, self.post("/emulator/v1/clock:advance", {"seconds": milliseconds / 1000}))


def expect_status(expected, response):
    """upstream's `expectStatusCode`, with the body in the message."""
    assert response.status_code == expected, (
        f"expected {expected}, got {response.status_code} for {response.request.method} "
        f"{response.request.url}: {response.text}")
    return response.json() if response.content else None


def error_message(response, status=400):
    """Asserts an error status and returns `error.message` (the Google error shape)."""
    body = expect_status(status, response)
    assert "error" in body, body
    assert body["error"]["code"] == status, body
    return body["error"]["message"]


def fake_claims(**claims):
    """upstream's `fakeClaims`: default iss/aud/exp/iat plus the given ones (`sub` required)."""
    return {"iss": "example.com", "aud": "example.com", "exp": 1597974008, "iat": 1597970408, **claims}


def register_user(api, email, password, *, display_name=None, mfa_info=None, tenant_id=None):
    body = {"email": email, "password": password}
    for key, value in (("displayName", display_name), ("mfaInfo", mfa_info), ("tenantId", tenant_id)):
        if value is not None:
            body[key] = value
    answer = expect_status(200, api.post(f"{V1}/accounts:signUp", body, query=KEY))
    return {key: answer.get(key) for key in ("idToken", "localId", "refreshToken", "email")}


def register_anon_user(api):
    answer = expect_status(200, api.post(f"{V1}/accounts:signUp", {"returnSecureToken": True}, query=KEY))
    return {key: answer.get(key) for key in ("idToken", "localId", "refreshToken")}


def create_email_sign_in_oob(api, email, tenant_id=None):
    body = {"email": email, "requestType": "EMAIL_SIGNIN", "returnOobLink": True}
    if tenant_id is not None:
        body["tenantId"] = tenant_id
    answer = expect_status(200, api.post(f"{V1}/accounts:sendOobCode", body, headers=OWNER))
    return {"oobCode": answer["oobCode"], "oobLink": answer["oobLink"]}


def sign_in_with_email_link(api, email, id_token_to_link=None):
    oob_code = create_email_sign_in_oob(api, email)["oobCode"]
    body = {"email": email, "oobCode": oob_code}
    if id_token_to_link is not None:
        body["idToken"] = id_token_to_link
    answer = api.post(f"{V1}/accounts:signInWithEmailLink", body, query=KEY).json()
    return {"idToken": answer.get("idToken"), "localId": answer.get("localId"),
            "refreshToken": answer.get("refreshToken"), "email": email}


def sign_in_with_password(api, email, password, extract_mfa_pending=False):
    answer = expect_status(200, api.post(f"{V1}/accounts:signInWithPassword",
                                         {"email": email, "password": password}, query=KEY))
    if extract_mfa_pending:
        return {"mfaPendingCredential": answer["mfaPendingCredential"],
                "mfaEnrollmentId": answer["mfaInfo"][0]["mfaEnrollmentId"]}
    return {key: answer.get(key) for key in ("idToken", "localId", "refreshToken", "email")}


def sign_in_with_phone_number(api, phone_number):
    session_info = expect_status(200, api.post(f"{V1}/accounts:sendVerificationCode",
                                               {"phoneNumber": phone_number, "recaptchaToken": "ignored"},
                                               query=KEY))["sessionInfo"]
    code = inspect_verification_codes(api)[0]["code"]
    answer = expect_status(200, api.post(f"{V1}/accounts:signInWithPhoneNumber",
                                         {"sessionInfo": session_info, "code": code}, query=KEY))
    return {key: answer.get(key) for key in ("idToken", "localId", "refreshToken")}


def sign_in_with_fake_claims(api, provider_id, claims, tenant_id=None):
    """Signs in with upstream's unsigned fake token: plain JSON claims as the `id_token`."""
    fake_id_token = json.dumps(fake_claims(**claims))
    body = {
        "postBody": f"providerId={quote(provider_id, safe='')}&id_token={quote(fake_id_token, safe='')}",
        "requestUri": "http://localhost",
        "returnIdpCredential": True,
        "returnSecureToken": True,
    }
    if tenant_id is not None:
        body["tenantId"] = tenant_id
    answer = expect_status(200, api.post(f"{V1}/accounts:signInWithIdp", body, query=KEY))
    return {key: answer.get(key) for key in ("idToken", "localId", "refreshToken", "email")}


def expect_user_not_exists_for_id_token(api, id_token, tenant_id=None):
    body = {"idToken": id_token}
    if tenant_id is not None:
        body["tenantId"] = tenant_id
    assert error_message(api.post(f"{V1}/accounts:lookup", body, query=KEY)) == "USER_NOT_FOUND"


def expect_id_token_expired(api, id_token):
    assert error_message(api.post(f"{V1}/accounts:lookup", {"idToken": id_token}, query=KEY)) == "TOKEN_EXPIRED"


def get_account_info_by_id_token(api, id_token, tenant_id=None):
    body = {"idToken": id_token}
    if tenant_id is not None:
        body["tenantId"] = tenant_id
    users = expect_status(200, api.post(f"{V1}/accounts:lookup", body, query=KEY)).get("users") or []
    assert len(users) == 1, users
    return users[0]


def get_account_info_by_local_id(api, local_id, tenant_id=None):
    body = {"localId": [local_id]}
    if tenant_id is not None:
        body["tenantId"] = tenant_id
    users = expect_status(200, api.post(f"{V1}/accounts:lookup", body, headers=OWNER)).get("users") or []
    assert len(users) == 1, users
    return users[0]


def _inspect(api, kind, tenant_id):
    tenant = f"/tenants/{tenant_id}" if tenant_id else ""
    return expect_status(200, api.get(f"/emulator/v1/projects/{PROJECT_ID}{tenant}/{kind}"))[kind]


def inspect_oobs(api, tenant_id=None):
    return _inspect(api, "oobCodes", tenant_id)


def inspect_verification_codes(api, tenant_id=None):
    return _inspect(api, "verificationCodes", tenant_id)


def get_signin_methods(api, email):
    answer = expect_status(200, api.post(f"{V1}/accounts:createAuthUri",
                                         {"continueUri": "http://example.com/", "identifier": email}, query=KEY))
    return answer.get("signinMethods")


def update_project_config(api, config):
    """PATCH /emulator/v1/projects/example/config (the emulator's own config route)."""
    expect_status(200, api.patch(f"/emulator/v1/projects/{PROJECT_ID}/config", config, headers=OWNER))


def update_account_by_local_id(api, local_id, fields):
    expect_status(200, api.post(f"{V1}/accounts:update", {"localId": local_id, **fields}, headers=OWNER))


def enroll_phone_mfa(api, id_token, phone_number, tenant_id=None):
    tenant = {"tenantId": tenant_id} if tenant_id is not None else {}
    started = expect_status(200, api.post(f"{V2}/accounts/mfaEnrollment:start",
                                          {"idToken": id_token, "phoneEnrollmentInfo": {"phoneNumber": phone_number},
                                           **tenant}, query=KEY))
    session_info = started["phoneSessionInfo"]["sessionInfo"]
    assert isinstance(session_info, str)
    code = inspect_verification_codes(api, tenant_id)[0]["code"]
    finished = expect_status(200, api.post(f"{V2}/accounts/mfaEnrollment:finalize",
                                           {"idToken": id_token,
                                            "phoneVerificationInfo": {"code": code, "sessionInfo": session_info},
                                            **tenant}, query=KEY))
    assert isinstance(finished["idToken"], str) and isinstance(finished["refreshToken"], str)
    return {"idToken": finished["idToken"], "refreshToken": finished["refreshToken"]}


def delete_account(api, body):
    answer = expect_status(200, api.post(f"{V1}/accounts:delete", body, query=KEY))
    assert "error" not in answer
    return answer.get("kind")


def register_tenant(api, project_id, tenant=None):
    return expect_status(200, api.post(f"{V2}/projects/{project_id}/tenants", tenant if tenant is not None else {},
                                       query=KEY, headers=OWNER))


def update_config(api, project_id, config, update_mask=None):
    query = {"updateMask": update_mask} if update_mask is not None else None
    expect_status(200, api.patch(f"{V2}/projects/{project_id}/config", config, query=query, headers=OWNER))


class BlockingFunctionServer:
    """Stands in for upstream's nock: `respond(path, body, status)` sets an answer, `requests[path]`
    holds the decoded JWT payloads received, and `url(path)` is what goes into the config."""

    def __init__(self):
        self.responses = {}
        self.requests = {}
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                jwt = body.get("data", {}).get("jwt")
                owner.requests.setdefault(self.path, []).append(decode_jwt(jwt)[1] if jwt else body)
                status, answer = owner.responses.get(self.path, (200, {}))
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def respond(self, path, body, status=200):
        self.responses[path] = (status, body)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def clock_now_ms(api):
    """The emulator clock's now in milliseconds since the epoch. Upstream's fake timers start at
    the epoch; a port asserts a timestamp lies between the readings taken around the call."""
    now = expect_status(200, api.get("/emulator/v1/clock"))["now"]
    return iso_to_ms(now)


def iso_to_ms(timestamp):
    """An RFC 3339 timestamp (`2024-01-02T03:04:05.678Z`) in milliseconds since the epoch."""
    from datetime import datetime
    return round(datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp() * 1000)
