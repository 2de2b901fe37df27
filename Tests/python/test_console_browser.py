"""The web console in a real headless Chromium (Debian's `chromium` and `chromium-driver`).

Drives the console at /emulator/ui of the real binary the way a person does, without any
JavaScript of ours: creates an Apple user who hides their email, sends it a sign-in link from the
user's page, and opens the relayed message in the outbox. Screenshots of the main pages go to
`.build/console-screenshots/` (outside git); the path is printed.
"""

import shutil
import time
from datetime import datetime
from pathlib import Path

import pytest
import requests
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import PROJECT_ID, REPO_ROOT, start_emulator, stop_emulator

SCREENSHOTS = REPO_ROOT / ".build" / "console-screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


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
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).is_file():
            pytest.fail(f"{path} is missing: install Debian's chromium and chromium-driver "
                        f"(scripts/test does)", pytrace=False)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--hide-scrollbars", "--no-first-run"):
        options.add_argument(argument)
    try:
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    except WebDriverException as error:
        pytest.fail(f"headless Chromium did not start ({CHROMIUM} via {CHROMEDRIVER}): {error.msg}",
                    pytrace=False)
    driver.set_page_load_timeout(15)
    try:
        yield driver
    finally:
        driver.quit()


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
    started = time.monotonic()
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

    # The outbox shows it relayed; its page renders the email.
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Outbox"))
    row = driver.find_element(By.CSS_SELECTOR, "tbody tr")
    assert relay_address in row.text
    assert row.find_element(By.CSS_SELECTOR, ".badge").text == "relayed"
    shoot(driver, "outbox")
    click_and_wait(driver, row.find_element(By.TAG_NAME, "a"))
    assert driver.find_element(By.ID, "forwarded-to").text == "ada@example.com"
    action_link = driver.find_element(By.XPATH, "//dt[text()='Action link']/following-sibling::dd[1]/a")
    assert "mode=signIn" in action_link.get_attribute("href")
    frame = driver.find_element(By.CSS_SELECTOR, "iframe.mail")
    assert frame.get_attribute("sandbox") == ""
    driver.switch_to.frame(frame)
    mail = driver.find_element(By.TAG_NAME, "body").text
    assert "Hello Ada" in mail and "sign in" in mail
    assert driver.find_elements(By.TAG_NAME, "a"), "the email's link is in its HTML"
    driver.switch_to.default_content()
    shoot(driver, "message")

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
    assert time.monotonic() - started < 60


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
