"""Debian's headless Chromium driven through its chromedriver, for the browser tests."""

import contextlib
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@contextlib.contextmanager
def headless_chromium(window_size, *extra_arguments, accept_insecure_certs=False):
    """A driver for a fresh headless Chromium of `window_size` ("1280,900"); fails the test, not
    skips it, when Chromium is missing (scripts/test installs it)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).is_file():
            pytest.fail(f"{path} is missing: install Debian's chromium and chromium-driver "
                        f"(scripts/test does)", pytrace=False)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.accept_insecure_certs = accept_insecure_certs
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={window_size}", "--hide-scrollbars", "--no-first-run", *extra_arguments):
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
