"""Tenants, project config and blocking functions through the real firebase-admin package.

`tenant_mgt` in firebase-admin is not emulator-aware (admin-sdk-wire.md): its management calls
go to https://identitytoolkit.googleapis.com/v2 with the app's credential. The `tenant_admin`
fixture points that one client at the emulator with a static `Bearer owner` credential; the
requests and the response parsing stay the SDK's own. `auth_for_tenant` needs no such help.
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import firebase_admin
import google.auth.credentials
import pytest
from firebase_admin import _http_client, auth, tenant_mgt

from conftest import PROJECT_ID
from emulator_client import decode_jwt

OWNER = {"Authorization": "Bearer owner"}
CONFIG = f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/config"


class OwnerCredential(google.auth.credentials.Credentials):
    """Sends `Authorization: Bearer owner`, the emulator's admin credential."""

    def __init__(self):
        super().__init__()
        self.token = "owner"

    def refresh(self, request):
        self.token = "owner"

    @property
    def expired(self):
        return False

    @property
    def valid(self):
        return True


@pytest.fixture
def tenant_admin(emulator, admin_app):
    service = tenant_mgt._get_tenant_mgt_service(admin_app)
    original = service.client
    service.client = _http_client.JsonHttpClient(
        credential=OwnerCredential(),
        base_url=f"http://{emulator.host}/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}",
        headers={"X-Client-Version": f"Python/Admin/{firebase_admin.__version__}"})
    def delete_all_tenants():  # tenants other tests' users made implicitly are listed too
        for tenant in list(tenant_mgt.list_tenants(app=admin_app).iterate_all()):
            tenant_mgt.delete_tenant(tenant.tenant_id, app=admin_app)

    delete_all_tenants()
    try:
        yield admin_app
    finally:
        delete_all_tenants()
        service.client = original


def test_tenant_create_get_update_delete(tenant_admin):
    created = tenant_mgt.create_tenant("Team-One", allow_password_sign_up=True, app=tenant_admin)
    assert len(created.tenant_id) == 28
    assert created.display_name == "Team-One"
    assert created.allow_password_sign_up is True
    assert created.enable_email_link_sign_in is False

    fetched = tenant_mgt.get_tenant(created.tenant_id, app=tenant_admin)
    assert (fetched.tenant_id, fetched.display_name, fetched.allow_password_sign_up) == (
        created.tenant_id, "Team-One", True)

    updated = tenant_mgt.update_tenant(
        created.tenant_id, display_name="Team-Two", enable_email_link_sign_in=True, app=tenant_admin)
    assert updated.display_name == "Team-Two"
    assert updated.enable_email_link_sign_in is True
    assert updated.allow_password_sign_up is True  # not in the update mask: kept

    tenant_mgt.delete_tenant(created.tenant_id, app=tenant_admin)
    ids = [t.tenant_id for t in tenant_mgt.list_tenants(app=tenant_admin).iterate_all()]
    assert created.tenant_id not in ids
    # Gone for good, as in production (the official emulator would recreate it with defaults).
    with pytest.raises(tenant_mgt.TenantNotFoundError):
        tenant_mgt.get_tenant(created.tenant_id, app=tenant_admin)
    with pytest.raises(tenant_mgt.TenantNotFoundError):
        tenant_mgt.update_tenant(created.tenant_id, display_name="Team-Three", app=tenant_admin)
    with pytest.raises(tenant_mgt.TenantNotFoundError):
        tenant_mgt.delete_tenant(created.tenant_id, app=tenant_admin)


def test_a_tenant_never_seen_reads_as_defaults_and_is_then_listed(tenant_admin):
    fetched = tenant_mgt.get_tenant("never-seen", app=tenant_admin)
    assert (fetched.tenant_id, fetched.allow_password_sign_up, fetched.enable_email_link_sign_in) == (
        "never-seen", True, True)
    assert "never-seen" in [t.tenant_id for t in tenant_mgt.list_tenants(app=tenant_admin).iterate_all()]


def test_list_tenants_pages_in_id_order(tenant_admin):
    made = sorted(tenant_mgt.create_tenant(f"Paged-{i}", app=tenant_admin).tenant_id for i in range(5))
    page = tenant_mgt.list_tenants(max_results=2, app=tenant_admin)
    assert [t.tenant_id for t in page.tenants] == made[:2]
    assert page.has_next_page
    second = page.get_next_page()
    assert [t.tenant_id for t in second.tenants] == made[2:4]
    assert [t.tenant_id for t in tenant_mgt.list_tenants(max_results=2, app=tenant_admin).iterate_all()] == made


def test_a_tenant_scoped_client_has_users_the_project_never_sees(tenant_admin, client):
    tenant = tenant_mgt.create_tenant("Scoped", allow_password_sign_up=True, app=tenant_admin)
    scoped = tenant_mgt.auth_for_tenant(tenant.tenant_id, app=tenant_admin)
    user = scoped.create_user(email="scoped@example.com", password="password-1")
    assert user.tenant_id == tenant.tenant_id

    signed_in = client.call_ok("signInWithPassword", {
        "email": "scoped@example.com", "password": "password-1", "tenantId": tenant.tenant_id,
        "returnSecureToken": True})
    claims = scoped.verify_id_token(signed_in["idToken"])
    assert claims["uid"] == user.uid
    assert claims["firebase"]["tenant"] == tenant.tenant_id

    assert scoped.get_user_by_email("scoped@example.com").uid == user.uid
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("scoped@example.com")
    project_sign_in = client.sign_in_with_password("scoped@example.com", "password-1")
    assert project_sign_in.status_code == 400
    assert project_sign_in.json()["error"]["message"] == "EMAIL_NOT_FOUND"

    # The tenant's switches apply to client sign-ins there.
    tenant_mgt.update_tenant(tenant.tenant_id, allow_password_sign_up=False, app=tenant_admin)
    refused = client.call("signInWithPassword", {
        "email": "scoped@example.com", "password": "password-1", "tenantId": tenant.tenant_id})
    assert refused.json()["error"]["message"] == "PASSWORD_LOGIN_DISABLED"


class _BeforeCreate(BaseHTTPRequestHandler):
    events = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        event = decode_jwt(body["data"]["jwt"])[1]
        _BeforeCreate.events.append(event)
        answer = {}
        if event["event_type"] == "beforeCreate":
            answer = {"userRecord": {"updateMask": "customClaims", "customClaims": {"role": "tester"}}}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def blocking_function(client):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _BeforeCreate)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _BeforeCreate.events.clear()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/beforeCreate"
    finally:
        client.request("PATCH", CONFIG, params={"updateMask": "blockingFunctions"}, headers=OWNER, json={})
        server.shutdown()
        server.server_close()


def test_a_before_create_function_adds_a_claim(client, blocking_function):
    patched = client.request(
        "PATCH", CONFIG, params={"updateMask": "blockingFunctions"}, headers=OWNER,
        json={"blockingFunctions": {"triggers": {"beforeCreate": {"functionUri": blocking_function}}}})
    assert patched.status_code == 200, patched.text
    assert patched.json()["blockingFunctions"]["triggers"]["beforeCreate"]["functionUri"] == blocking_function

    signed_up = client.sign_up("blocked@example.com", "password-1")
    assert decode_jwt(signed_up["idToken"])[1]["role"] == "tester"
    assert auth.get_user(signed_up["localId"]).custom_claims == {"role": "tester"}
    assert auth.verify_id_token(signed_up["idToken"])["role"] == "tester"
    event = _BeforeCreate.events[0]
    assert event["event_type"] == "beforeCreate"
    assert event["user_record"]["email"] == "blocked@example.com"

    # Admin creation (Bearer owner) does not call the function.
    admin_made = auth.create_user(email="admin-made@example.com", password="password-1")
    assert admin_made.custom_claims is None
    assert len(_BeforeCreate.events) == 1
