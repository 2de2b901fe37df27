"""The kit's own tests: the plugin's fixtures against the real binary ($AUTH_EMULATOR_BIN, else
`.build/debug/auth-emulator` of this repository), the real firebase-admin beside them.

They run in a pytest invocation of their own (`pytest clients/python/tests`, with the kit
installed: `pip install ./clients/python`), so Tests/python's conftest never meets them.
"""

import os
import socket
import uuid
from pathlib import Path

import firebase_admin
import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
KIT_ROOT = REPO_ROOT / "clients" / "python"

os.environ.setdefault("AUTH_EMULATOR_BIN", str(REPO_ROOT / ".build" / "debug" / "auth-emulator"))


def pytest_configure(config):
    if not config.pluginmanager.has_plugin("auth_emulator"):
        raise pytest.UsageError("the auth_emulator plugin is not loaded: install the kit first "
                                "(pip install ./clients/python)")


def unique_email(prefix="user"):
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def admin_app(auth_emulator):
    """The real firebase-admin, reaching the emulator through the variable the plugin set. The
    project id is given, or the SDK would ask Google's credential lookup for it (which probes the
    network for a metadata server)."""
    app = firebase_admin.initialize_app(name="kit-tests",
                                        options={"projectId": auth_emulator.project_id, "httpTimeout": 10})
    try:
        yield app
    finally:
        firebase_admin.delete_app(app)


@pytest.fixture
def inner(pytester, monkeypatch):
    """Runs pytest on files written by the test, in a process of its own, as a user's suite would
    run: the kit installed, no emulator attached unless the test says so."""
    # An outer xdist worker's PYTEST_XDIST_WORKER would make the inner run look like a worker too.
    for name in ("FIREBASE_AUTH_EMULATOR_HOST", "GCLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT", "PYTEST_XDIST_WORKER"):
        monkeypatch.delenv(name, raising=False)

    def run(*arguments):
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", *arguments, timeout=120)

    return run
