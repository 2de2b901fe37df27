"""The web console in a real headless Chromium (Debian's `chromium` and `chromium-driver`).

Drives the console at /emulator/ui of the real binary the way a person does, without any
JavaScript of ours: creates an Apple user who hides their email, sends it a sign-in link from the
user's page, and opens the relayed message in the outbox. Screenshots of the main pages go to
`.build/console-screenshots/` (outside git); the path is printed.
"""

import hashlib
import shutil
from datetime import datetime
from pathlib import Path

import pytest
import requests
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import PROJECT_ID, REPO_ROOT, start_emulator, stop_emulator
from headless_chromium import CHROMEDRIVER, CHROMIUM, headless_chromium

SCREENSHOTS = REPO_ROOT / ".build" / "console-screenshots"


@pytest.fixture(scope="module")
def console():
    """An emulator of this module's own: the test moves its clock, which others must not see."""
    running = start_emulator()
    try:
        yield running
    finally:
        stop_emulator(running)


@pytest.fixture
def browser():
    with headless_chromium("1280,900") as driver:
        yield driver


def shoot(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    # The whole page, not only the window: resize to the document's height first.
    height = driver.execute_script("return document.documentElement.scrollHeight")
    width = driver.get_window_size()["width"]
    driver.set_window_size(width, min(max(height + 100, 600), 4000))
    assert driver.save_screenshot(str(path)), f"no screenshot written to {path}"
    return path


def click_and_wait(driver, element):
    """Clicks a link or submit button and waits until the browser shows the next page (a click
    returns before the form post, its 303 and the GET it leads to have finished)."""
    driver.execute_script("window.consoleTestOldPage = true")
    element.click()
    # A new document has a fresh window object: the mark is gone once the next page has loaded.
    WebDriverWait(driver, 10, ignored_exceptions=[WebDriverException]).until(
        lambda d: d.execute_script("return !window.consoleTestOldPage && document.readyState === 'complete'"))


def flash(driver):
    return driver.find_element(By.CSS_SELECTOR, "p.flash.ok").text


def test_apple_user_with_hidden_email_gets_a_relayed_sign_in_link(console, browser):
    base = f"http://{console.host}"
    if SCREENSHOTS.exists():
        shutil.rmtree(SCREENSHOTS)
    driver = browser

    driver.get(f"{base}/emulator/ui")
    assert driver.find_element(By.ID, "project-id").text == PROJECT_ID
    assert driver.find_element(By.CSS_SELECTOR, "p.empty").text == "No users yet."

    # Create the user in the console, as a person would.
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Add user"))
    Select(driver.find_element(By.NAME, "provider")).select_by_value("apple.com")
    driver.find_element(By.NAME, "email").send_keys("ada@example.com")
    driver.find_element(By.NAME, "displayName").send_keys("Ada <b>Lovelace</b>")
    driver.find_element(By.NAME, "hideEmail").click()
    shoot(driver, "user-new")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Create user']"))
    assert flash(driver).startswith("Created user ")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Ada <b>Lovelace</b>"  # shown, not run
    details = driver.find_element(By.CSS_SELECTOR, "dl.details").text
    assert "@privaterelay.appleid.com" in details
    assert "Apple relay → ada@example.com, forwarding" in details
    providers = driver.find_element(By.XPATH, "//h2[text()='Providers']/following-sibling::div[1]").text
    assert "apple.com" in providers

    # Send it a sign-in link from the user's page.
    Select(driver.find_element(By.NAME, "requestType")).select_by_value("EMAIL_SIGNIN")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[starts-with(text(), 'Send to ')]"))
    assert flash(driver).startswith("Sent EMAIL_SIGNIN to ")
    relay_address = flash(driver).split(" to ", 1)[1].split(":", 1)[0]
    assert relay_address.endswith("@privaterelay.appleid.com")
    shoot(driver, "user-detail")

    # The outbox shows it relayed; a click opens it beside the list, without a page load.
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Outbox"))
    row = driver.find_element(By.CSS_SELECTOR, "ol.inbox > li")
    assert relay_address in row.text and "→ ada@example.com" in row.text
    assert row.find_element(By.CSS_SELECTOR, ".badge.relayed").text == "relayed"
    shoot(driver, "outbox")
    driver.execute_script("window.consoleTestOldPage = true")
    row.find_element(By.CSS_SELECTOR, "a.mail").click()
    message_id = row.get_attribute("data-id")
    # The script swaps the pane in: one found before the swap goes stale, so look again.
    WebDriverWait(driver, 10, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda d: d.find_element(By.ID, "message-pane").get_attribute("data-id") == message_id)
    assert driver.execute_script("return window.consoleTestOldPage === true"), "the message cost a page load"
    assert driver.current_url.endswith(f"/emulator/ui/outbox?id={message_id}")
    assert row.get_attribute("aria-current") == "true"
    assert driver.find_element(By.CSS_SELECTOR, "#message-pane h2").text.startswith("Sign in to ")
    assert driver.find_element(By.ID, "forwarded-to").text == "ada@example.com"
    action_link = driver.find_element(By.XPATH, "//dt[text()='Action link']/following-sibling::dd[1]/a")
    assert "mode=signIn" in action_link.get_attribute("href")
    frame = driver.find_element(By.CSS_SELECTOR, "iframe.mail")
    assert "allow-scripts" not in frame.get_attribute("sandbox")
    shoot(driver, "message")
    driver.execute_script("window.consoleTestOldPage = true")
    driver.switch_to.frame(frame)
    mail = driver.find_element(By.TAG_NAME, "body").text
    assert "Hello Ada" in mail and "sign in" in mail
    links = driver.find_elements(By.TAG_NAME, "a")
    assert links, "the email's link is in its HTML"
    # A click on the email's link leaves the frame: the emulator's action page fills the tab.
    links[0].click()
    driver.switch_to.default_content()
    WebDriverWait(driver, 10, ignored_exceptions=[WebDriverException]).until(
        lambda d: d.execute_script("return !window.consoleTestOldPage && document.readyState === 'complete'"))
    assert "/emulator/action?" in driver.current_url
    driver.back()

    # The same message over the API: relayed to the real address behind the relay.
    latest = requests.get(f"{base}/emulator/v1/projects/{PROJECT_ID}/messages/latest", timeout=10).json()
    assert latest["to"] == relay_address
    assert latest["delivery"] == {"status": "relayed", "forwardedTo": "ada@example.com", "reason": None}

    # The link the message carries works in the browser: the action page for a sign-in link.
    driver.get(latest["oobLink"])
    assert "oobCode" in driver.find_element(By.TAG_NAME, "body").text

    # Providers: mint a token and see its postBody to copy.
    driver.get(f"{base}/emulator/ui/providers")
    Select(driver.find_element(By.NAME, "provider")).select_by_value("facebook.com")
    driver.find_element(By.CSS_SELECTOR, "form[action$='/providers/mint'] input[name=email]").send_keys("fb@example.com")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Mint']"))
    post_body = driver.find_element(By.ID, "minted-post-body").get_attribute("value")
    assert post_body.startswith("providerId=facebook.com&id_token=ey")
    shoot(driver, "providers")

    # Clock: advance an hour.
    driver.get(f"{base}/emulator/ui/clock")
    before = driver.find_element(By.ID, "clock-now").text
    driver.find_element(By.NAME, "amount").clear()
    driver.find_element(By.NAME, "amount").send_keys("1")
    Select(driver.find_element(By.NAME, "unit")).select_by_value("hours")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Advance the clock']"))
    assert flash(driver).startswith("Advanced the clock by 1 hours")
    assert driver.find_element(By.ID, "clock-now").text > before
    shoot(driver, "clock")

    # The user list, on a laptop and on a phone.
    driver.set_window_size(1280, 900)
    driver.get(f"{base}/emulator/ui/users")
    assert relay_address in driver.find_element(By.CSS_SELECTOR, "tbody").text
    shoot(driver, "users")
    driver.set_window_size(390, 844)
    driver.get(f"{base}/emulator/ui/users")
    shoot(driver, "users-phone")

    print(f"\nconsole screenshots: {SCREENSHOTS}")


def test_a_form_posted_from_another_site_is_refused(console, browser):
    """A page on another origin that posts to the console's form is refused with 403."""
    base = f"http://{console.host}"
    driver = browser
    driver.get(f"{base}/emulator/ui/clock")
    token = driver.find_element(By.NAME, "csrf").get_attribute("value")
    before = requests.get(f"{base}/emulator/v1/clock", timeout=10).json()["now"]
    # A data: URL is another origin (opaque): Chromium sends `Origin: null` and `Sec-Fetch-Site: cross-site`.
    page = (f"<form method=post action='{base}/emulator/ui/clock'>"
            f"<input name=csrf value='{token}'><input name=amount value=1><input name=unit value=days>"
            f"<button id=go>go</button></form>")
    driver.get("data:text/html," + requests.utils.quote(page))
    click_and_wait(driver, driver.find_element(By.ID, "go"))
    assert "Forbidden" in driver.find_element(By.TAG_NAME, "body").text
    after = requests.get(f"{base}/emulator/v1/clock", timeout=10).json()["now"]
    moved = datetime.fromisoformat(after.replace("Z", "+00:00")) - datetime.fromisoformat(before.replace("Z", "+00:00"))
    assert moved.total_seconds() < 60, f"the refused post moved the clock from {before} to {after}"


# --- Every page at a laptop's and a phone's width, on a busy project -------------------------

WIDTHS = (1280, 390)
IDENTITY_TOOLKIT = "/identitytoolkit.googleapis.com"
OWNER = {"Authorization": "Bearer owner"}
PASSWORD_USERS = 60
RESETS = 205


@pytest.fixture(scope="module")
def busy():
    """An emulator with more users than a page and more messages than the old 200 limit: relayed,
    bounced and delivered mail, a tenant and its own message, a moved clock."""
    running = start_emulator()
    base = f"http://{running.host}"
    session = requests.Session()

    def call(method, path, **kwargs):
        response = session.request(method, base + path, timeout=10, **kwargs)
        assert response.status_code == 200, f"{method} {path}: {response.status_code} {response.text}"
        return response.json()

    def send_reset(email, tenant=None):
        body = {"requestType": "PASSWORD_RESET", "email": email}
        if tenant:
            body["tenantId"] = tenant
        call("POST", f"{IDENTITY_TOOLKIT}/v1/projects/{PROJECT_ID}/accounts:sendOobCode", headers=OWNER, json=body)

    try:
        for index in range(PASSWORD_USERS):
            call("POST", f"{IDENTITY_TOOLKIT}/v1/projects/{PROJECT_ID}/accounts", headers=OWNER,
                 json={"email": f"person{index:02}@example.com", "password": "secret123",
                       "displayName": f"Person {index:02}"})
        for index in range(RESETS):
            send_reset(f"person{index % PASSWORD_USERS:02}@example.com")
        # An Apple user behind the relay (relayed mail), and an address Apple never handed out (bounced).
        minted = call("POST", "/emulator/v1/idp/apple.com/tokens",
                      json={"email": "ada@example.com", "hideEmail": True, "emailVerified": True})
        signed_in = call("POST", f"{IDENTITY_TOOLKIT}/v1/accounts:signInWithIdp?key=any",
                         json={"requestUri": "http://localhost", "postBody": minted["postBody"],
                               "returnSecureToken": True})
        relay_address = signed_in["email"]
        call("POST", f"{IDENTITY_TOOLKIT}/v1/accounts:sendOobCode?key=any",
             json={"requestType": "VERIFY_EMAIL", "idToken": signed_in["idToken"]})
        call("POST", f"{IDENTITY_TOOLKIT}/v1/projects/{PROJECT_ID}/accounts", headers=OWNER,
             json={"email": "ghost@privaterelay.appleid.com", "password": "secret123"})
        send_reset("ghost@privaterelay.appleid.com")
        tenant = call("POST", f"{IDENTITY_TOOLKIT}/v2/projects/{PROJECT_ID}/tenants", headers=OWNER,
                      json={"displayName": "Team A", "allowPasswordSignup": True})["tenantId"]
        call("POST", f"{IDENTITY_TOOLKIT}/v1/projects/{PROJECT_ID}/tenants/{tenant}/accounts", headers=OWNER,
             json={"email": "member@example.com", "password": "secret123"})
        send_reset("member@example.com", tenant=tenant)
        call("POST", "/emulator/v1/clock:advance", json={"seconds": 6 * 3600 + 35 * 60})
        yield {"emulator": running, "base": base, "relay": relay_address, "tenant": tenant,
               "messages": RESETS + 3, "session": session}
    finally:
        session.close()
        stop_emulator(running)


def page_at(driver, url, width, name):
    """Opens `url` at `width` px, checks that nothing sticks out sideways, and keeps a screenshot."""
    driver.set_window_size(width, 900)
    driver.get(url)
    overflow = driver.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]")
    # What a person sees first, then the whole page.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / f"{name}-{width}-top.png"))
    shoot(driver, f"{name}-{width}")
    driver.set_window_size(width, 900)
    assert overflow[0] <= overflow[1], f"{name} at {width} px is {overflow[0]} px wide (window {overflow[1]})"
    assert driver.find_element(By.ID, "project-id").text == PROJECT_ID
    # On a phone the header leaves the page to the page: two short lines, not a quarter of the screen.
    header = driver.find_element(By.TAG_NAME, "header").size["height"]
    assert width > 400 or header <= 100, f"the header of {name} at {width} px is {header} px high"


def test_every_page_fits_a_laptop_and_a_phone(busy, browser):
    base, driver = busy["base"], browser
    ui = f"{base}/emulator/ui"
    messages = busy["messages"]
    latest = busy["session"].get(f"{base}/emulator/v1/projects/{PROJECT_ID}/messages/latest", timeout=10).json()
    bounced = busy["session"].get(f"{base}/emulator/v1/projects/{PROJECT_ID}/messages",
                                  params={"to": "ghost@privaterelay.appleid.com"}, timeout=10).json()["messages"][0]
    for width in WIDTHS:
        # Outbox: newest first, counts per status, a preview line, the bounce's reason in the list.
        page_at(driver, f"{ui}/outbox", width, "outbox")
        counts = {tab.get_attribute("data-status"): int(tab.find_element(By.CLASS_NAME, "count").text)
                  for tab in driver.find_elements(By.CSS_SELECTOR, "nav.tabs a")}
        assert counts == {"all": messages, "delivered": messages - 2, "relayed": 1, "bounced": 1}, counts
        rows = driver.find_elements(By.CSS_SELECTOR, "ol.inbox > li")
        assert len(rows) == 50
        ids = [int(row.get_attribute("data-id")) for row in rows]
        assert ids == sorted(ids, reverse=True) and ids[0] == int(latest["id"])
        assert rows[0].find_element(By.CLASS_NAME, "preview").text.startswith("Hello")
        ghost = driver.find_element(By.CSS_SELECTOR, f"li[data-id='{bounced['id']}']")
        assert "Unknown relay address" in ghost.find_element(By.CLASS_NAME, "reason").text
        # A badge never breaks inside a word: each is one line high.
        for badge in rows[0].find_elements(By.CLASS_NAME, "badge"):
            assert badge.size["height"] < 30, f"badge {badge.text!r} wraps at {width} px"

        page_at(driver, f"{ui}/outbox?status=bounced", width, "outbox-bounced")
        assert len(driver.find_elements(By.CSS_SELECTOR, "ol.inbox > li")) == 1
        page_at(driver, f"{ui}/outbox?tenant={busy['tenant']}", width, "outbox-tenant")
        tenant_rows = driver.find_elements(By.CSS_SELECTOR, "ol.inbox > li")
        assert len(tenant_rows) == 1 and f"tenant {busy['tenant']}" in tenant_rows[0].text

        # The chosen message beside the list (in its place on a phone), with the list's filters kept.
        page_at(driver, f"{ui}/outbox?status=delivered&id={latest['id']}", width, "outbox-open")
        pane = driver.find_element(By.ID, "message-pane")
        assert pane.get_attribute("data-id") == latest["id"] and pane.is_displayed()
        assert driver.find_element(By.ID, "inbox").is_displayed() == (width > 1024)
        assert driver.find_element(By.CSS_SELECTOR, "#message-pane a.back").is_displayed() == (width <= 1024)
        assert driver.find_element(By.CSS_SELECTOR, "nav.tabs a[aria-current][data-status='delivered']")

        # The message's tabs.
        for view in ("html", "text", "headers", "raw"):
            page_at(driver, f"{ui}/message?id={latest['id']}&view={view}", width, f"message-{view}")
            assert driver.find_element(By.CSS_SELECTOR, "nav.tabs a[aria-current]").get_attribute("href").endswith(f"view={view}")
        assert driver.find_element(By.ID, "raw-source").text.startswith("Date: ")

        page_at(driver, f"{ui}/users", width, "users")
        assert len(driver.find_elements(By.CSS_SELECTOR, ".users tbody tr")) == 50
        page_at(driver, f"{ui}/users?q=apple.com", width, "users-search-provider")
        found = driver.find_elements(By.CSS_SELECTOR, ".users tbody tr")
        assert len(found) == 1 and busy["relay"] in found[0].text and "forwarding" in found[0].text
        page_at(driver, found[0].find_element(By.TAG_NAME, "a").get_attribute("href"), width, "user-detail")
        assert "Apple relay → ada@example.com, forwarding" in driver.find_element(By.CSS_SELECTOR, "dl.details").text
        page_at(driver, f"{ui}/users/delete-all", width, "users-delete-all")
        assert f"{PASSWORD_USERS + 2} users" in driver.find_element(By.ID, "confirm-delete-all").text
        page_at(driver, f"{ui}/users/new", width, "user-new")
        page_at(driver, f"{ui}/providers", width, "providers")
        page_at(driver, f"{ui}/clock", width, "clock")
        assert driver.find_element(By.ID, "clock-offset").text == "6 h 35 min ahead"
        page_at(driver, f"{ui}/settings", width, "settings")
        assert busy["tenant"] in driver.find_element(By.ID, "tenants").text

    # Paging past the first 200: follow "Older" to the very first message.
    driver.set_window_size(1280, 900)
    driver.get(f"{ui}/outbox")
    seen = 0
    while True:
        seen += len(driver.find_elements(By.CSS_SELECTOR, "ol.inbox > li"))
        older = driver.find_elements(By.CSS_SELECTOR, "a[rel=next]")
        if not older:
            break
        click_and_wait(driver, older[0])
    assert seen == messages

    # Mint: the decoded claims, the nonce as Apple carries it (its SHA-256), a copy button.
    driver.get(f"{ui}/providers")
    driver.find_element(By.CSS_SELECTOR, "form[action$='/providers/mint'] input[name=nonce]").send_keys("raw-nonce")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Mint']"))
    claims = driver.find_element(By.ID, "minted-claims").text
    hashed = hashlib.sha256(b"raw-nonce").hexdigest()
    assert f'"nonce" : "{hashed}"' in claims or f'"nonce": "{hashed}"' in claims, claims
    assert driver.find_element(By.ID, "minted-nonce").text == hashed
    assert '"alg"' in driver.find_element(By.ID, "minted-header").text
    copy = driver.find_element(By.CSS_SELECTOR, "button[data-copy='minted-id-token']")
    assert copy.is_displayed(), "the script shows the copy buttons"
    for width in WIDTHS:
        driver.set_window_size(width, 900)
        overflow = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert overflow[0] <= overflow[1], f"the mint answer at {width} px is {overflow[0]} px wide"
        shoot(driver, f"providers-minted-{width}")


def test_the_users_table_shows_every_column_at_desktop_widths(busy, browser):
    """Seven columns, none clipped and nothing to scroll, at a laptop's and a desktop's width; a
    long name stays on one line."""
    driver = browser
    for width in (1280, 1680):
        driver.set_window_size(width, 900)
        driver.get(f"{busy['base']}/emulator/ui/users")
        box = driver.find_element(By.CSS_SELECTOR, ".users .scroll")
        scroll_width, client_width = driver.execute_script("return [arguments[0].scrollWidth, arguments[0].clientWidth]", box)
        assert scroll_width <= client_width, f"the users table scrolls at {width} px ({scroll_width} > {client_width})"
        headings = [th.text for th in driver.find_elements(By.CSS_SELECTOR, ".users th")]
        assert headings == ["uid", "Email", "Name", "Phone", "Providers", "Created", "Last sign-in"]
        right = box.location["x"] + box.size["width"]
        for th in driver.find_elements(By.CSS_SELECTOR, ".users th"):
            assert th.is_displayed() and th.location["x"] + th.size["width"] <= right + 1, f"{th.text} is clipped at {width} px"
        lines = driver.execute_script(
            "return Array.from(document.querySelectorAll('.users td.name .cut')).map(e => e.getClientRects().length)")
        assert lines and set(lines) == {1}, f"a name wraps at {width} px"
        shoot(driver, f"users-columns-{width}")


def test_the_outbox_updates_itself(busy, browser):
    base, driver = busy["base"], browser
    driver.get(f"{base}/emulator/ui/outbox")
    first = driver.find_element(By.CSS_SELECTOR, "ol.inbox > li").get_attribute("data-id")
    driver.execute_script("window.consoleTestOldPage = true")
    busy["session"].post(f"{base}{IDENTITY_TOOLKIT}/v1/projects/{PROJECT_ID}/accounts:sendOobCode", headers=OWNER,
                         json={"requestType": "PASSWORD_RESET", "email": "person00@example.com"}, timeout=10)
    WebDriverWait(driver, 10, ignored_exceptions=[WebDriverException]).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "ol.inbox > li").get_attribute("data-id") != first)
    assert driver.execute_script("return window.consoleTestOldPage === true"), "the page was not reloaded"


@pytest.fixture
def no_script_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=390,844", "--hide-scrollbars", "--no-first-run"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(15)
    try:
        yield driver
    finally:
        driver.quit()


def test_without_javascript_every_form_still_works(console, no_script_browser):
    """No script at all: the copy buttons stay hidden, the settings and the confirmed delete post."""
    base, driver = f"http://{console.host}", no_script_browser
    requests.post(f"{base}{IDENTITY_TOOLKIT}/v1/projects/{PROJECT_ID}/accounts", headers=OWNER,
                  json={"email": "gone@example.com", "password": "secret123"}, timeout=10)
    driver.get(f"{base}/emulator/ui/providers")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Mint']"))
    assert not driver.find_element(By.CSS_SELECTOR, "button[data-copy]").is_displayed()
    assert driver.find_element(By.ID, "minted-id-token").get_attribute("value").startswith("ey")

    driver.get(f"{base}/emulator/ui/settings")
    driver.find_element(By.NAME, "allowDuplicateEmails").click()
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Save sign-in settings']"))
    assert flash(driver) == "Saved the sign-in settings."
    config = requests.get(f"{base}/emulator/v1/projects/{PROJECT_ID}/config", timeout=10).json()
    assert config["signIn"]["allowDuplicateEmails"] is True
    numbers = driver.find_element(By.NAME, "numbers")
    numbers.clear()
    numbers.send_keys("+16505550101 123456")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Save test phone numbers']"))
    assert flash(driver) == "Saved 1 test phone number."
    config = requests.get(f"{base}/emulator/v1/projects/{PROJECT_ID}/config", timeout=10).json()
    assert config["signIn"]["phoneNumber"]["testPhoneNumbers"] == {"+16505550101": "123456"}
    driver.find_element(By.NAME, "displayName").send_keys("Team B")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Create tenant']"))
    assert flash(driver).startswith("Created tenant ") and "Team B" in driver.find_element(By.ID, "tenants").text
    shoot(driver, "settings-no-script-390")

    # A refused form says why beside the field and keeps what was typed.
    driver.get(f"{base}/emulator/ui/users/new")
    driver.find_element(By.NAME, "email").send_keys("gone@example.com")
    driver.find_element(By.NAME, "password").send_keys("secret123")
    driver.find_element(By.NAME, "displayName").send_keys("Typed Name")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Create user']"))
    error = driver.find_element(By.CSS_SELECTOR, "label.invalid .field-error")
    assert error.text.startswith("Another user already has this email.") and error.is_displayed()
    assert driver.find_element(By.NAME, "displayName").get_attribute("value") == "Typed Name"
    assert driver.find_element(By.NAME, "email").get_attribute("value") == "gone@example.com"

    # The outbox's message opens in the list's place on a phone, by a plain link.
    requests.post(f"{base}{IDENTITY_TOOLKIT}/v1/projects/{PROJECT_ID}/accounts:sendOobCode", headers=OWNER,
                  json={"requestType": "PASSWORD_RESET", "email": "gone@example.com"}, timeout=10)
    driver.get(f"{base}/emulator/ui/outbox")
    row = driver.find_element(By.CSS_SELECTOR, "ol.inbox > li")
    message_id = row.get_attribute("data-id")
    click_and_wait(driver, row.find_element(By.CSS_SELECTOR, "a.mail"))
    assert driver.current_url.endswith(f"/emulator/ui/outbox?id={message_id}")
    assert not driver.find_element(By.ID, "inbox").is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, "#message-pane h2").text.startswith("Reset your password")
    shoot(driver, "outbox-open-no-script-390")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "#message-pane a.back"))
    assert driver.find_element(By.ID, "inbox").is_displayed()

    driver.get(f"{base}/emulator/ui/users")
    click_and_wait(driver, driver.find_element(By.PARTIAL_LINK_TEXT, "Delete every user"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Delete every user?"
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[starts-with(text(), 'Yes, delete')]"))
    assert flash(driver) == "Deleted every user."
    assert driver.find_element(By.CSS_SELECTOR, "p.empty").text == "No users yet."
