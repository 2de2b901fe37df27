"""The web sign-in widget at /emulator/auth/handler in a real headless Chromium, driven the way
the JS SDK's WebDriver tests drive it (`packages/auth/test/integration/webdriver/`: `IdPPage`,
popup.test.ts, redirect.test.ts).

The JS SDK cannot be loaded here (no network), so a small page served from another local port,
`app.html`, plays its part as the SDK's code does it: it opens the helper frame
`/emulator/auth/iframe` through gapi's iframe API, opens the widget as a popup
(`window.open`) or navigates to it (redirect) with the SDK's query, and records each auth event
the helper frame sends. The test then calls signInWithIdp with that event exactly as the SDK's
`_performSignInWithIdp` does. gapi itself comes from apis.google.com in production; Chromium is
pointed at a local HTTPS stub of the small part of gapi.iframes both pages use
(`--host-resolver-rules`), so the widget, the helper frame and their messages are the real ones.

Screenshots go to `.build/widget-screenshots/` (outside git).
"""

import base64
import datetime
import http.server
import json
import shutil
import ssl
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from conftest import REPO_ROOT
from emulator_client import API_KEY, IDENTITY_TOOLKIT, decode_jwt

SCREENSHOTS = REPO_ROOT / ".build" / "widget-screenshots"
from headless_chromium import CHROMEDRIVER, CHROMIUM, headless_chromium
APP_NAME = "[DEFAULT]"
WAIT_SECONDS = 10

# What the JS SDK's `IdPPage` (util/idp_page.ts) looks for.
ADD_ACCOUNT_BUTTON = (By.CSS_SELECTOR, ".js-new-account")
SIGN_IN_BUTTON = (By.ID, "sign-in")
EMAIL_INPUT = (By.ID, "email-input")
DISPLAY_NAME_INPUT = (By.ID, "display-name-input")
SCREEN_NAME_INPUT = (By.ID, "screen-name-input")
PROFILE_PHOTO_INPUT = (By.ID, "profile-photo-input")
ACCOUNT_LIST_ITEMS = (By.CSS_SELECTOR, "#accounts-list li")

NO_AUTH_EVENT = {"type": "unknown", "error": {"code": "auth/no-auth-event"}}

# The part of gapi.iframes that the SDK (`_openIframe`: getContext().open, register, send) and the
# helper frame (getContext().getParentIframe(), register, send) use, over plain postMessage.
GAPI_STUB = r"""
(function () {
  var FILTER = 'gapi-stub-cross-origin-iframes-filter';
  var channels = [];
  function Channel(peer, ready) {
    this.peer = peer; this.ready = ready; this.queue = []; this.handlers = {}; this.pending = {}; this.nextId = 1;
    channels.push(this);
  }
  Channel.prototype.post = function (message) {
    message.gapiStub = true;
    if (this.ready) { this.peer.postMessage(message, '*'); } else { this.queue.push(message); }
  };
  Channel.prototype.register = function (name, handler) { this.handlers[name] = handler; };
  Channel.prototype.send = function (name, payload, callback) {
    var id = this.nextId++;
    this.pending[id] = callback;
    this.post({kind: 'call', name: name, payload: payload, id: id});
  };
  Channel.prototype.receive = function (message) {
    if (message.kind === 'hello') {
      this.ready = true;
      var queued = this.queue; this.queue = [];
      for (var i = 0; i < queued.length; i++) { this.peer.postMessage(queued[i], '*'); }
    } else if (message.kind === 'call') {
      var handler = this.handlers[message.name];
      this.post({kind: 'reply', id: message.id, responses: handler ? [handler(message.payload)] : []});
    } else if (message.kind === 'reply') {
      var callback = this.pending[message.id];
      delete this.pending[message.id];
      if (callback) { callback(message.responses); }
    }
  };
  window.addEventListener('message', function (event) {
    if (!event.data || !event.data.gapiStub) { return; }
    for (var i = 0; i < channels.length; i++) {
      if (channels[i].peer === event.source) { channels[i].receive(event.data); }
    }
  });
  window.gapi = {
    load: function (name, config) {
      setTimeout(typeof config === 'function' ? config : config.callback, 0);
    },
    iframes: {
      CROSS_ORIGIN_IFRAMES_FILTER: FILTER,
      getContext: function () {
        return {
          open: function (options, callback) {
            var frame = document.createElement('iframe');
            frame.src = options.url;
            frame.style.width = '1px'; frame.style.height = '1px'; frame.style.border = '0';
            options.where.appendChild(frame);
            callback(new Channel(frame.contentWindow, false));
          },
          getParentIframe: function () {
            var channel = new Channel(window.parent, true);
            channel.post({kind: 'hello'});
            return channel;
          }
        };
      }
    }
  };
  if (typeof window.gapi_onload === 'function') { setTimeout(window.gapi_onload, 0); }
})();
"""

# The page that plays the JS SDK: `_getRedirectUrl`'s query, `_openPopup`, the redirect, and the
# auth event manager's listener on the helper frame.
APP_PAGE = r"""<!DOCTYPE html>
<meta charset="utf-8"><title>Widget test app</title>
<h1>Widget test app</h1>
<script>
var EMULATOR = %(emulator)s, API_KEY = %(api_key)s, APP_NAME = %(app_name)s;
window.authEvents = [];
window.webStorageSupport = null;
window.popup = null;

function widgetUrl(authType, providerId, eventId, tenantId) {
  var query = new URLSearchParams({apiKey: API_KEY, appName: APP_NAME, authType: authType,
    redirectUrl: location.href, v: '11.0.0-widget-test', eventId: eventId, providerId: providerId});
  if (tenantId) { query.set('tid', tenantId); }
  return EMULATOR + '/emulator/auth/handler?' + query.toString() + '#';
}
function newEventId() { return String(Math.floor(Math.random() * 1e10)); }
function startPopup(authType, providerId, tenantId) {
  var eventId = newEventId();
  window.popup = window.open(widgetUrl(authType, providerId, eventId, tenantId), 'widget-popup',
    'resizable,scrollbars,status,width=500,height=600');
  return eventId;
}
function startRedirect(authType, providerId) {
  var eventId = newEventId();
  setTimeout(function () { location.href = widgetUrl(authType, providerId, eventId); }, 0);
  return eventId;
}
window.gapi_onload = function () {
  gapi.load('gapi.iframes', {callback: function () {
    var filter = gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER;
    var url = EMULATOR + '/emulator/auth/iframe?' + new URLSearchParams({apiKey: API_KEY, appName: APP_NAME, v: '11.0.0-widget-test'});
    gapi.iframes.getContext().open({where: document.body, url: url, messageHandlersFilter: filter, dontclear: true},
      function (iframe) {
        iframe.register('authEvent', function (message) {
          window.authEvents.push(message.authEvent);
          // As the SDK's popup operation does once it has the event.
          if (window.popup && /popup/i.test(message.authEvent.type || '')) { window.popup.close(); }
          return {status: 'ACK'};
        }, filter);
        iframe.send('webStorageSupport', {type: 'webStorageSupport'}, function (responses) {
          window.webStorageSupport = responses;
        }, filter);
      });
  }});
};
</script>
<script src="https://apis.google.com/js/api.js"></script>
"""


class QuietHandler(http.server.BaseHTTPRequestHandler):
    pages = {}

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        page = self.pages.get(path)
        if page is None:
            self.send_error(404)
            return
        body, content_type = page
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def serve(pages, tls_context=None):
    handler = type("Handler", (QuietHandler,), {"pages": pages})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    if tls_context is not None:
        server.socket = tls_context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, name="widget-test-server", daemon=True).start()
    return server


def self_signed_context(directory, host):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=2))
                   .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
                   .sign(key, hashes.SHA256()))
    cert_path, key_path = Path(directory) / "cert.pem", Path(directory) / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    return context


@pytest.fixture(scope="module")
def servers(emulator):
    """The gapi stub (HTTPS, as apis.google.com) and the app page (HTTP, another origin)."""
    with tempfile.TemporaryDirectory() as directory:
        gapi = serve({"/js/api.js": (GAPI_STUB.encode(), "text/javascript")},
                     self_signed_context(directory, "apis.google.com"))
    page = APP_PAGE % {"emulator": json.dumps(f"http://{emulator.host}"), "api_key": json.dumps(API_KEY),
                       "app_name": json.dumps(APP_NAME)}
    app = serve({"/app.html": (page.encode(), "text/html; charset=utf-8")})
    try:
        yield {"gapi_port": gapi.server_address[1], "app_url": f"http://127.0.0.1:{app.server_address[1]}/app.html"}
    finally:
        for server in (gapi, app):
            server.shutdown()
            server.server_close()


@pytest.fixture(scope="module")
def chromium(servers):
    with headless_chromium(
            "1000,900", "--disable-popup-blocking", "--ignore-certificate-errors",
            f"--host-resolver-rules=MAP apis.google.com 127.0.0.1:{servers['gapi_port']}",
            accept_insecure_certs=True) as driver:  # the gapi stub's self-signed certificate
        yield driver


@pytest.fixture(scope="module", autouse=True)
def fresh_screenshots():
    if SCREENSHOTS.exists():
        shutil.rmtree(SCREENSHOTS)


def shoot(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    assert driver.save_screenshot(str(path)), f"no screenshot written to {path}"
    return path


def unique_email(label):
    return f"{label}-{uuid.uuid4().hex[:10]}@widget.test"


class IdPPage:
    """The JS SDK's WebDriver page object for the widget (util/idp_page.ts), in Python."""

    def __init__(self, driver):
        self.driver = driver
        self.wait = WebDriverWait(driver, WAIT_SECONDS)

    def page_load(self):
        self.wait.until(expected_conditions.title_contains("Auth Emulator"))
        # JsLoadCondition('toggleForm'): the page's script has run.
        self.wait.until(lambda d: d.execute_script("return typeof window.toggleForm !== 'undefined'"))

    def click_add_account(self):
        self.wait.until(expected_conditions.presence_of_element_located(ADD_ACCOUNT_BUTTON)).click()

    def click_sign_in(self):
        button = self.wait.until(expected_conditions.presence_of_element_located(SIGN_IN_BUTTON))
        self.wait.until(lambda d: button.is_enabled())
        button.click()

    def select_existing_account_by_email(self, email):
        self.wait.until(expected_conditions.presence_of_element_located(ACCOUNT_LIST_ITEMS))
        for account in self.driver.find_elements(*ACCOUNT_LIST_ITEMS):
            if email in account.text:
                account.click()
                return
        raise AssertionError(f"{email} is not in the widget's list: {[a.text for a in self.driver.find_elements(*ACCOUNT_LIST_ITEMS)]}")

    def fill(self, locator, text):
        element = self.wait.until(expected_conditions.presence_of_element_located(locator))
        element.click()
        element.send_keys(text)

    def new_account(self, email, display_name=None, screen_name=None, photo=None, screenshot=None):
        self.page_load()
        self.click_add_account()
        self.fill(EMAIL_INPUT, email)
        for locator, value in ((DISPLAY_NAME_INPUT, display_name), (SCREEN_NAME_INPUT, screen_name),
                               (PROFILE_PHOTO_INPUT, photo)):
            if value is not None:
                self.fill(locator, value)
        if screenshot:
            shoot(self.driver, screenshot)
        self.click_sign_in()


class App:
    """The test page in the main window: what the JS SDK's popup and redirect code does."""

    def __init__(self, driver, url, client):
        self.driver, self.url, self.client = driver, url, client
        self.main_window = None

    def open(self, expect_event=NO_AUTH_EVENT):
        """Loads the page; its helper frame first sends the stored redirect event, if any."""
        self.driver.get(self.url)
        self.main_window = self.driver.current_window_handle
        return self.first_event(expect_event)

    def first_event(self, expect_event):
        wait_for(self.driver, "return window.webStorageSupport",
                 "the helper frame answered webStorageSupport")
        assert self.driver.execute_script("return window.webStorageSupport") == [
            {"status": "ACK", "webStorageSupport": True}]
        first = self.event_at(0)
        if expect_event is not None:
            assert first == expect_event
        return first

    def event_at(self, index):
        wait_for(self.driver, f"return window.authEvents.length > {index}", f"auth event #{index + 1}")
        return self.driver.execute_script(f"return window.authEvents[{index}]")

    def events(self):
        return self.driver.execute_script("return window.authEvents")

    def popup(self, auth_type, provider_id="google.com", tenant_id=None):
        """Opens the widget as the SDK's popup and switches the driver to it."""
        before = set(self.driver.window_handles)
        event_id = self.driver.execute_script("return startPopup(arguments[0], arguments[1], arguments[2])",
                                              auth_type, provider_id, tenant_id)
        WebDriverWait(self.driver, WAIT_SECONDS).until(lambda d: set(d.window_handles) - before)
        (handle,) = set(self.driver.window_handles) - before
        self.driver.switch_to.window(handle)
        return event_id

    def popup_event(self, event_id, count_before):
        """Back in the main window: the event the helper frame relayed from the popup."""
        self.driver.switch_to.window(self.main_window)
        event = self.event_at(count_before)
        assert event["eventId"] == event_id, event
        # The page closed the popup on the event, as the SDK does; the widget itself stays open.
        WebDriverWait(self.driver, WAIT_SECONDS).until(lambda d: len(d.window_handles) == 1)
        return event

    def redirect(self, auth_type, provider_id="google.com"):
        return self.driver.execute_script("return startRedirect(arguments[0], arguments[1])", auth_type, provider_id)

    def redirect_event(self, event_id):
        """Back on the app's page after the widget: the helper frame's first event is the result."""
        WebDriverWait(self.driver, WAIT_SECONDS).until(lambda d: d.current_url == self.url)
        event = self.first_event(expect_event=None)
        assert event["eventId"] == event_id, event
        return event

    def sign_in_with_idp(self, event, id_token=None):
        """`_performSignInWithIdp` of the SDK: the event's urlResponse is the requestUri."""
        body = {"requestUri": event["urlResponse"], "sessionId": event["sessionId"], "postBody": event["postBody"],
                "tenantId": event["tenantId"], "returnSecureToken": True, "returnIdpCredential": True}
        if id_token is not None:
            body["idToken"] = id_token
        response = self.client.call("signInWithIdp", body)
        assert response.status_code == 200, response.text
        return response.json()


def wait_for(driver, script, what):
    try:
        WebDriverWait(driver, WAIT_SECONDS).until(lambda d: d.execute_script(script))
    except TimeoutException:
        raise AssertionError(f"timed out waiting for {what}; the page logged: {driver.get_log('browser')}") from None


def assert_web_event(event, auth_type, event_id, host, tenant_id=None):
    """The auth event the official widget builds, as the SDK's auth event manager reads it."""
    assert set(event) == {"type", "eventId", "urlResponse", "sessionId", "postBody", "tenantId", "error"}, event
    assert event["type"] == auth_type and event["eventId"] == event_id, event
    assert event["sessionId"] == "ValueNotUsedByAuthEmulator" and event["postBody"] == ""
    assert event["tenantId"] == tenant_id and event["error"] is None
    url = urllib.parse.urlsplit(event["urlResponse"])
    assert (url.scheme, url.netloc, url.path) == ("http", host, "/emulator/auth/handler"), event
    query = urllib.parse.parse_qs(url.query)
    # Ours is signed by the fake provider where the official widget sends unsigned JSON claims.
    header = json.loads(decode_b64(query["id_token"][0].split(".")[0]))
    assert header["alg"] == "RS256" and header["kid"], header
    return decode_jwt(query["id_token"][0])[1]


def decode_b64(segment):
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def fake_google_user(client, email):
    """The JS SDK tests' `createFakeGoogleUser`: an unsigned JSON ID token through signInWithCredential."""
    claims = json.dumps({"sub": f"__{email}__", "email": email, "email_verified": True})
    return client.call_ok("signInWithIdp", {"requestUri": "http://localhost", "returnSecureToken": True,
                                            "postBody": f"id_token={urllib.parse.quote(claims)}&providerId=google.com"})


def provider_ids(client, id_token):
    user = client.call_ok("lookup", {"idToken": id_token})["users"][0]
    return sorted(info["providerId"] for info in user.get("providerUserInfo", []))


@pytest.fixture
def app(chromium, servers, client):
    for handle in chromium.window_handles[1:]:
        chromium.switch_to.window(handle)
        chromium.close()
    chromium.switch_to.window(chromium.window_handles[0])
    page = App(chromium, servers["app_url"], client)
    page.open()
    return page


# Popup ---------------------------------------------------------------------------------------

def test_popup_signs_in_a_new_account(app, client, emulator):
    email = unique_email("bob")
    event_id = app.popup("signInViaPopup")
    IdPPage(app.driver).new_account(email, "Bob Test", "bob.test", "http://bob.test/bob.png",
                                    screenshot="popup-new-account")
    event = app.popup_event(event_id, 1)
    claims = assert_web_event(event, "signInViaPopup", event_id, emulator.host)
    assert claims["email"] == email and claims["iss"] == "https://accounts.google.com"

    answer = app.sign_in_with_idp(event)
    assert answer["isNewUser"] is True and answer["providerId"] == "google.com"
    assert answer["email"] == email and answer["emailVerified"] is True
    assert answer["displayName"] == "Bob Test" and answer["photoUrl"] == "http://bob.test/bob.png"
    assert answer["screenName"] == "bob.test"
    # GoogleAuthProvider.credentialFromResult, then signInWithCredential with it.
    assert answer["oauthIdToken"] and answer["oauthAccessToken"], answer
    post_body = urllib.parse.urlencode({"id_token": answer["oauthIdToken"], "access_token": answer["oauthAccessToken"],
                                        "providerId": "google.com"})
    again = client.call_ok("signInWithIdp", {"requestUri": "http://localhost", "returnSecureToken": True,
                                             "postBody": post_body})
    assert again["localId"] == answer["localId"] and not again.get("isNewUser")


def test_popup_signs_in_an_existing_account(app, client, emulator):
    first, second = unique_email("bob"), unique_email("sally")
    bob, _ = fake_google_user(client, first), fake_google_user(client, second)
    event_id = app.popup("signInViaPopup")
    widget = IdPPage(app.driver)
    widget.page_load()
    shoot(app.driver, "popup-existing-accounts")
    widget.select_existing_account_by_email(first)
    answer = app.sign_in_with_idp(app.popup_event(event_id, 1))
    assert answer["localId"] == bob["localId"] and answer["email"] == first and not answer.get("isNewUser")


def test_popup_links_an_anonymous_user(app, client, emulator):
    anonymous = client.sign_up()
    email = unique_email("link")
    event_id = app.popup("linkViaPopup")
    IdPPage(app.driver).new_account(email)
    event = app.popup_event(event_id, 1)
    assert_web_event(event, "linkViaPopup", event_id, emulator.host)
    linked = app.sign_in_with_idp(event, id_token=anonymous["idToken"])
    assert linked["localId"] == anonymous["localId"] and linked["email"] == email
    assert provider_ids(client, linked["idToken"]) == ["google.com"]
    assert decode_jwt(linked["idToken"])[1]["firebase"]["sign_in_provider"] == "google.com"


@pytest.mark.parametrize("same_email", [False, True])
def test_popup_links_a_password_user(app, client, emulator, same_email):
    """The JS SDK's "is possible to link with different/the same email"."""
    email = unique_email("user")
    password_user = client.sign_up(email, "password123")
    event_id = app.popup("linkViaPopup")
    IdPPage(app.driver).new_account(email if same_email else unique_email("other"))
    linked = app.sign_in_with_idp(app.popup_event(event_id, 1), id_token=password_user["idToken"])
    assert linked["localId"] == password_user["localId"]
    assert provider_ids(client, linked["idToken"]) == ["google.com", "password"]
    user = client.call_ok("lookup", {"idToken": linked["idToken"]})["users"][0]
    assert user["email"] == email.lower() and user["emailVerified"] is same_email


def test_popup_reauthenticates_the_same_user_and_tells_another_apart(app, client, emulator):
    first, second = unique_email("bob"), unique_email("sally")
    bob, sally = fake_google_user(client, first), fake_google_user(client, second)
    widget = IdPPage(app.driver)
    for email, expected, index in ((first, bob, 1), (second, sally, 2)):
        event_id = app.popup("reauthViaPopup")
        widget.page_load()
        widget.select_existing_account_by_email(email)
        event = app.popup_event(event_id, index)
        assert_web_event(event, "reauthViaPopup", event_id, emulator.host)
        answer = app.sign_in_with_idp(event)
        # The SDK's reauthenticate compares this with the current user: a mismatch is
        # auth/user-mismatch, so the widget must hand back exactly the account chosen.
        assert answer["localId"] == expected["localId"], (email, answer)


def test_account_exists_with_different_credential(app, client, emulator):
    email = unique_email("bob")
    event_id = app.popup("signInViaPopup")
    IdPPage(app.driver).new_account(email)
    original = app.sign_in_with_idp(app.popup_event(event_id, 1))
    assert original["emailVerified"] is True

    # The JS SDK tests' tryToSignInUnverified: an unverified Facebook account with the same email.
    claims = json.dumps({"sub": f"$${email}$$", "email": email, "email_verified": False})
    response = client.call("signInWithIdp", {"requestUri": "http://localhost", "returnSecureToken": True,
                                             "returnIdpCredential": True,
                                             "postBody": f"id_token={urllib.parse.quote(claims)}&providerId=facebook.com"})
    refused = response.json()
    # needConfirmation is what the SDK turns into auth/account-exists-with-different-credential.
    assert response.status_code == 200 and refused.get("needConfirmation") is True, refused
    assert "idToken" not in refused

    # linkWithCredential(currentUser, FacebookAuthProvider.credentialFromError(error))
    linked = client.call_ok("signInWithIdp", {"requestUri": "http://localhost", "returnSecureToken": True,
                                              "idToken": original["idToken"],
                                              "postBody": f"id_token={refused['oauthIdToken']}&providerId=facebook.com"})
    assert linked["localId"] == original["localId"]
    assert provider_ids(client, linked["idToken"]) == ["facebook.com", "google.com"]


def test_aborted_popup_sends_nothing_and_the_next_one_works(app, client, emulator):
    event_id = app.popup("signInViaPopup")
    IdPPage(app.driver).page_load()
    app.driver.close()  # the person closes the popup
    app.driver.switch_to.window(app.main_window)
    assert app.driver.execute_script("return window.popup.closed") is True
    # The SDK waits for an event after the popup closed, then rejects auth/popup-closed-by-user.
    time.sleep(0.5)  # room for a stray event to arrive: none may
    assert app.events() == [NO_AUTH_EVENT]
    assert client.admin_call("query", {"returnUserInfo": False}).json()["recordsCount"] == "0"

    # Going back from the form and then signing in still works in a new popup.
    email = unique_email("after")
    second_id = app.popup("signInViaPopup")
    widget = IdPPage(app.driver)
    widget.page_load()
    widget.click_add_account()
    app.driver.find_element(By.ID, "back-button").click()
    assert app.driver.find_element(By.ID, "accounts-list").is_displayed()
    assert not app.driver.find_element(By.ID, "add-user").is_displayed()
    widget.new_account(email)
    event = app.popup_event(second_id, 1)
    assert event["eventId"] != event_id
    assert app.sign_in_with_idp(event)["email"] == email


def test_popup_form_checks_the_email_as_the_official_widget(app):
    app.popup("signInViaPopup")
    widget = IdPPage(app.driver)
    widget.page_load()
    widget.click_add_account()
    sign_in = app.driver.find_element(*SIGN_IN_BUTTON)
    sign_in.click()
    assert app.driver.find_element(By.ID, "email-error").text == "Email required"
    assert not sign_in.is_enabled()
    widget.fill(EMAIL_INPUT, "no-at-sign")
    assert app.driver.find_element(By.ID, "email-error").text == 'Missing "@"'
    assert not sign_in.is_enabled()
    app.driver.find_element(By.ID, "autogen-button").click()
    generated = app.driver.find_element(*EMAIL_INPUT).get_attribute("value")
    assert generated.endswith("@example.com") and sign_in.is_enabled()
    assert app.driver.find_element(*DISPLAY_NAME_INPUT).get_attribute("value")
    assert app.driver.find_element(*SCREEN_NAME_INPUT).get_attribute("value")
    shoot(app.driver, "popup-autogenerated")


def test_popup_without_a_helper_frame_says_so(chromium, servers, client):
    """An opener without /emulator/auth/iframe cannot get the event: the widget says why."""
    chromium.get(servers["app_url"].replace("/app.html", "/missing"))  # any page on the app's origin
    main = chromium.current_window_handle
    before = set(chromium.window_handles)
    query = urllib.parse.urlencode({"apiKey": API_KEY, "appName": APP_NAME, "authType": "signInViaPopup",
                                    "redirectUrl": servers["app_url"], "eventId": "1", "providerId": "google.com"})
    chromium.execute_script(f"window.open('http://' + arguments[0] + '/emulator/auth/handler?{query}', 'p')",
                            client.host)
    WebDriverWait(chromium, WAIT_SECONDS).until(lambda d: set(d.window_handles) - before)
    (handle,) = set(chromium.window_handles) - before
    chromium.switch_to.window(handle)
    try:
        IdPPage(chromium).new_account(unique_email("lost"))
        error = WebDriverWait(chromium, WAIT_SECONDS).until(
            expected_conditions.visibility_of_element_located((By.ID, "widget-error")))
        assert error.text.startswith("No matching frame"), error.text
        assert chromium.current_url.startswith(f"http://{client.host}/emulator/auth/handler?")  # no redirect
    finally:
        chromium.close()
        chromium.switch_to.window(main)


# Redirect ------------------------------------------------------------------------------------

def test_redirect_signs_in_a_new_account_and_the_result_is_read_once(app, client, emulator):
    email = unique_email("bob")
    event_id = app.redirect("signInViaRedirect")
    IdPPage(app.driver).new_account(email, "Bob Test", "bob.test", "http://bob.test/bob.png",
                                    screenshot="redirect-new-account")
    event = app.redirect_event(event_id)
    assert_web_event(event, "signInViaRedirect", event_id, emulator.host)
    answer = app.sign_in_with_idp(event)
    assert answer["isNewUser"] is True and answer["email"] == email
    assert answer["displayName"] == "Bob Test" and answer["photoUrl"] == "http://bob.test/bob.png"
    # getRedirectResult is null the next time: the helper frame removed the stored event.
    app.open()


def test_redirect_signs_in_an_existing_account(app, client, emulator):
    first = unique_email("bob")
    bob = fake_google_user(client, first)
    fake_google_user(client, unique_email("sally"))
    event_id = app.redirect("signInViaRedirect")
    widget = IdPPage(app.driver)
    widget.page_load()
    widget.select_existing_account_by_email(first)
    assert app.sign_in_with_idp(app.redirect_event(event_id))["localId"] == bob["localId"]


def test_redirect_links_and_reauthenticates(app, client, emulator):
    anonymous = client.sign_up()
    email = unique_email("link")
    event_id = app.redirect("linkViaRedirect")
    IdPPage(app.driver).new_account(email)
    event = app.redirect_event(event_id)
    assert_web_event(event, "linkViaRedirect", event_id, emulator.host)
    linked = app.sign_in_with_idp(event, id_token=anonymous["idToken"])
    assert linked["localId"] == anonymous["localId"] and linked["email"] == email

    event_id = app.redirect("reauthViaRedirect")
    widget = IdPPage(app.driver)
    widget.page_load()
    widget.select_existing_account_by_email(email)
    event = app.redirect_event(event_id)
    assert_web_event(event, "reauthViaRedirect", event_id, emulator.host)
    assert app.sign_in_with_idp(event)["localId"] == anonymous["localId"]


def test_aborted_redirect_leaves_no_result(app, client, emulator):
    app.redirect("signInViaRedirect")
    IdPPage(app.driver).page_load()
    app.open()  # the person goes back to the app without choosing: getRedirectResult is null
    assert client.admin_call("query", {"returnUserInfo": False}).json()["recordsCount"] == "0"


def test_tenant_popup_carries_the_tenant(app, client, emulator):
    tenant = requests.post(f"http://{emulator.host}/identitytoolkit.googleapis.com/v2/projects/"
                           f"{emulator.project_id}/tenants", headers={"Authorization": "Bearer owner"},
                           json={"displayName": "widget", "allowPasswordSignup": True}, timeout=10)
    assert tenant.status_code == 200, tenant.text
    tenant_id = tenant.json()["name"].rsplit("/", 1)[1]
    email = unique_email("tenant")
    event_id = app.popup("signInViaPopup", tenant_id=tenant_id)
    IdPPage(app.driver).new_account(email)
    event = app.popup_event(event_id, 1)
    assert_web_event(event, "signInViaPopup", event_id, emulator.host, tenant_id=tenant_id)
    answer = app.sign_in_with_idp(event)
    assert answer["email"] == email and decode_jwt(answer["idToken"])[1]["firebase"]["tenant"] == tenant_id


# The script's answer for native apps matches the form post's redirect ---------------------------

def test_script_answer_and_form_redirect_agree_for_ios(client):
    query = {"apiKey": "k", "authType": "signInWithRedirect", "ibi": "com.example.app", "sessionId": "0" * 64,
             "eventId": "ABCDEFGHIJ", "providerId": "yahoo.com", "appId": "1:1234567890:ios:abcdef"}
    form = {"email": unique_email("ios"), "name": "Ios Person", "emailVerified": "on"}
    posted = client.request("POST", "/emulator/auth/handler", params=query, data=form, allow_redirects=False)
    assert posted.status_code == 303, posted.text
    scripted = client.request("POST", "/emulator/auth/handler", params=query, data=form,
                              headers={"Accept": "application/json"})
    assert scripted.status_code == 200, scripted.text
    answer = scripted.json()
    assert answer["delivery"] == "app" and answer["authEvent"]["type"] == "signInWithRedirect"

    def shape(location):  # the tokens differ (two mints); everything around them must not
        outer = urllib.parse.urlsplit(location)
        deep_link = urllib.parse.parse_qs(outer.query)["deep_link_id"][0]
        inner = urllib.parse.parse_qs(urllib.parse.urlsplit(deep_link).query)
        link = urllib.parse.urlsplit(inner["link"][0])
        return outer.scheme, outer.netloc, outer.path, inner["authType"], inner["eventId"], link.path, \
            sorted(urllib.parse.parse_qs(link.query))

    assert shape(answer["location"]) == shape(posted.headers["Location"])
    assert answer["location"].startswith("app-1-1234567890-ios-abcdef://firebaseauth/link?deep_link_id=")


def test_popup_form_post_without_script_still_answers_the_opener(client):
    """A popup with redirectUrl (the SDK always sends one) answers the opener, not the redirect."""
    query = {"apiKey": "k", "appName": APP_NAME, "authType": "signInViaPopup", "redirectUrl": "http://127.0.0.1:1/app",
             "eventId": "42", "providerId": "google.com"}
    scripted = client.request("POST", "/emulator/auth/handler", params=query, data={"email": unique_email("p")},
                              headers={"Accept": "application/json"})
    assert scripted.status_code == 200, scripted.text
    answer = scripted.json()
    assert answer["delivery"] == "opener" and "location" not in answer
    assert answer["storageKey"] == f"k:{APP_NAME}" and answer["apiKey"] == "k" and answer["appName"] == APP_NAME
    posted = client.request("POST", "/emulator/auth/handler", params=query, data={"email": unique_email("p")},
                            allow_redirects=False)
    assert posted.status_code == 200 and posted.headers["Content-Type"].startswith("text/html")
    assert '"delivery":"opener"' in posted.text and "Location" not in posted.headers


def test_widget_shows_the_android_fallback_error(client):
    query = {"apiKey": "k", "providerId": "google.com", "apn": "com.example.android",
             "error": "App not found for intent"}
    page = client.request("GET", "/emulator/auth/handler", params=query)
    assert page.status_code == 200
    assert "Auth Emulator Internal Error: App not found for intent" in page.text
    assert 'id="main-form"' not in page.text


def test_without_javascript_the_form_is_shown_and_the_script_only_buttons_are_not(client, emulator):
    """The iOS flow's page with JavaScript off: the new-account form shows at once (forms post)."""
    listed_email = unique_email("listed")
    fake_google_user(client, listed_email)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1000,1400", "--no-first-run"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        query = urllib.parse.urlencode({"apiKey": "k", "authType": "signInWithRedirect", "ibi": "com.example.app",
                                        "sessionId": "0" * 64, "eventId": "ABCDEFGHIJ", "providerId": "google.com",
                                        "appId": "1:1234567890:ios:abcdef"})
        driver.get(f"http://{emulator.host}/emulator/auth/handler?{query}")
        # The page's own script did not run (WebDriver's scripts still do).
        assert driver.execute_script("return typeof window.toggleForm") == "undefined"
        assert driver.find_element(By.ID, "add-user").is_displayed()
        assert driver.find_element(By.ID, "accounts-list").is_displayed()
        assert driver.find_element(*EMAIL_INPUT).is_displayed()
        for script_only in ("back-button", "autogen-button"):
            assert not driver.find_element(By.ID, script_only).is_displayed(), script_only
        # Other tests' fake-provider accounts are listed too: find this one's button.
        buttons = driver.find_elements(By.CSS_SELECTOR, "#accounts-list li.js-reuse-account button[type=submit]")
        assert any(listed_email in button.text for button in buttons), [button.text for button in buttons]
        shoot(driver, "no-javascript-ios")
    finally:
        driver.quit()


def test_android_flow_redirects_to_the_intent_and_its_link_signs_in(client):
    """The Android SDK's generic-IdP flow: the intent names the package, the event and the link."""
    query = {"apiKey": "k", "appName": APP_NAME, "authType": "signInWithRedirect", "apn": "com.example.android",
             "eventId": "EVT123", "providerId": "yahoo.com"}
    email = unique_email("android")
    posted = client.request("POST", "/emulator/auth/handler", params=query, data={"email": email, "name": "Droid"},
                            allow_redirects=False)
    assert posted.status_code == 303, posted.text
    intent = posted.headers["Location"]
    prefix = ("intent://firebase.auth/#Intent;scheme=genericidp;package=com.example.android;"
              "S.authType=signInWithRedirect;S.eventId=EVT123;S.link=")
    assert intent.startswith(prefix) and intent.endswith(";end;"), intent
    fields = dict(part.split("=", 1) for part in intent[len("intent://firebase.auth/#Intent;"):-len(";end;")].split(";"))
    assert fields["B.encryptionEnabled"] == "false"
    fallback = urllib.parse.unquote(fields["S.browser_fallback_url"])
    assert fallback.startswith(f"http://{client.host}/emulator/auth/handler?") and \
        fallback.endswith("&error=App+not+found+for+intent"), fallback
    link = urllib.parse.unquote(fields["S.link"])
    answer = client.call_ok("signInWithIdp", {"requestUri": link, "returnSecureToken": True})
    assert answer["providerId"] == "yahoo.com" and answer["email"] == email and answer["displayName"] == "Droid"

    scripted = client.request("POST", "/emulator/auth/handler", params=query, data={"email": email},
                              headers={"Accept": "application/json"}).json()
    assert scripted["delivery"] == "app" and scripted["location"].startswith(prefix)


@pytest.mark.parametrize("redirect_url", ["javascript:alert(document.domain)", "JavaScript:alert(1)",
                                          "data:text/html,<script>alert(1)</script>"])
def test_redirect_url_must_be_a_web_address(client, redirect_url):
    """The page navigates to redirectUrl from the emulator's origin: only http(s) may run there."""
    query = {"apiKey": "k", "appName": APP_NAME, "authType": "signInViaRedirect", "redirectUrl": redirect_url,
             "eventId": "1", "providerId": "google.com"}
    for headers in ({"Accept": "application/json"}, {}):
        refused = client.request("POST", "/emulator/auth/handler", params=query, data={"email": unique_email("x")},
                                 headers=headers, allow_redirects=False)
        assert refused.status_code == 400, refused.text
        assert "redirectUrl must be an http or https URL." in refused.text
        assert "alert(" not in refused.text


def test_a_refusal_shows_in_the_widget(app, emulator):
    """The widget's script shows the emulator's refusal where the person is looking, and stays."""
    query = urllib.parse.urlencode({"apiKey": API_KEY, "appName": APP_NAME, "authType": "signInViaRedirect",
                                    "redirectUrl": "javascript:alert(1)", "eventId": "1", "providerId": "google.com"})
    page = f"http://{emulator.host}/emulator/auth/handler?{query}"
    app.driver.get(page)
    IdPPage(app.driver).new_account(unique_email("refused"))
    error = WebDriverWait(app.driver, WAIT_SECONDS).until(
        expected_conditions.visibility_of_element_located((By.ID, "widget-error")))
    assert error.text == "redirectUrl must be an http or https URL."
    assert app.driver.current_url == page
    shoot(app.driver, "refusal")
