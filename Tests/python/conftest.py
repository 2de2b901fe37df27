"""Starts the real auth-emulator binary once per session and points firebase-admin at it.

The binary comes from $AUTH_EMULATOR_BIN, or `.build/debug/auth-emulator` under the repository
root. It is started with `--port 0`; the port is read from its start-up line.
"""

import os
import queue
import re
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import firebase_admin
import google.auth.credentials
import pytest
import requests
from firebase_admin import credentials

from emulator_client import EmulatorClient

REPO_ROOT = Path(__file__).resolve().parents[2]
PROJECT_ID = "demo-admin-test"
START_TIMEOUT_SECONDS = 15
STOP_TIMEOUT_SECONDS = 10

LISTENING = re.compile(r"^auth-emulator \S+ listening on http://(\S+) for project (\S+) ")
EXPORT = re.compile(r"^export FIREBASE_AUTH_EMULATOR_HOST=(\S+)$")


class OfflineCredential(credentials.Base):
    """An app credential that needs no network and no key material.

    In emulator mode firebase-admin 7.7.0 never uses the app's credential for auth calls: it
    sends `Authorization: Bearer owner` itself and mints unsigned custom tokens. The default,
    `credentials.ApplicationDefault()`, is lazy and would only look for Google credentials if
    asked; this one makes that explicit and counts any request for it, so a test can show that
    the SDK never asked.
    """

    def __init__(self):
        super().__init__()
        self.requests = 0

    def get_credential(self):
        self.requests += 1
        return google.auth.credentials.AnonymousCredentials()

    @property
    def project_id(self):
        return PROJECT_ID


class RunningEmulator:
    def __init__(self, process, host, project_id, stdout_lines, stderr_file):
        self.process = process
        self.host = host
        self.project_id = project_id
        self.stdout_lines = stdout_lines
        self.stderr_file = stderr_file
        self.exported = False

    def output(self):
        self.stderr_file.flush()
        self.stderr_file.seek(0)
        stderr = self.stderr_file.read().decode("utf-8", "replace")
        return "--- stdout ---\n" + "".join(self.stdout_lines) + "--- stderr ---\n" + stderr[-20000:]


def binary_path():
    configured = os.environ.get("AUTH_EMULATOR_BIN")
    path = Path(configured) if configured else REPO_ROOT / ".build" / "debug" / "auth-emulator"
    if not path.is_absolute():
        path = REPO_ROOT / path
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.exit(f"auth-emulator binary not found at {path}: build it (swift build) "
                    f"or set AUTH_EMULATOR_BIN", returncode=2)
    return path


def start_emulator(*extra_arguments, project_id=None, command_prefix=()):
    """Starts the binary on a free port (plus `extra_arguments`) and waits for its start-up lines;
    the project is `project_id`, else this module's PROJECT_ID at call time (tests patch it), and
    `command_prefix` runs it through another command (`setpriv` to drop root)."""
    project_id = project_id or PROJECT_ID
    binary = binary_path()
    stderr_file = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [*command_prefix, str(binary), "--port", "0", "--project", project_id, "--log-level", "warn", *extra_arguments],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr_file, cwd=REPO_ROOT)

    stdout_lines = []
    lines = queue.Queue()

    def pump():  # keeps reading so the emulator never blocks on a full pipe
        for raw in process.stdout:
            line = raw.decode("utf-8", "replace")
            stdout_lines.append(line)
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, name="auth-emulator-stdout", daemon=True).start()
    emulator = RunningEmulator(process, None, None, stdout_lines, stderr_file)

    def fail(why):
        if process.poll() is None:
            process.kill()
            process.wait()
        pytest.fail(f"auth-emulator ({binary}) {why} (exit status {process.returncode})\n{emulator.output()}",
                    pytrace=False)

    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while not emulator.exported:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            fail(f"printed no start-up lines within {START_TIMEOUT_SECONDS} s")
        try:
            line = lines.get(timeout=remaining)
        except queue.Empty:
            continue
        if line is None:
            fail("exited before it was ready")
        if match := LISTENING.match(line):
            emulator.host, emulator.project_id = match.group(1), match.group(2)
        elif match := EXPORT.match(line.strip()):
            if emulator.host is None:
                fail("printed the export line before the listening line")
            if match.group(1) != emulator.host:
                fail(f"exported {match.group(1)} but listens on {emulator.host}")
            emulator.exported = True
    if emulator.project_id != project_id:
        fail(f"reports project {emulator.project_id!r}, not {project_id!r}")
    if emulator.host.endswith(":0"):
        fail("reports port 0 instead of the port it picked")
    return emulator


def stop_emulator(running):
    """Stops a binary with SIGTERM; a graceful stop is a feature, so it must exit with status 0."""
    process = running.process
    if process.poll() is not None:
        pytest.fail(f"auth-emulator died during the tests (exit status {process.returncode})\n"
                    f"{running.output()}", pytrace=False)
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=STOP_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail(f"auth-emulator did not stop within {STOP_TIMEOUT_SECONDS} s of SIGTERM\n"
                    f"{running.output()}", pytrace=False)
    assert process.returncode == 0, f"auth-emulator exited with {process.returncode} after SIGTERM\n{running.output()}"


@pytest.fixture(scope="session")
def emulator():
    running = start_emulator()
    previous_host = os.environ.get("FIREBASE_AUTH_EMULATOR_HOST")
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = running.host
    try:
        yield running
    finally:
        if previous_host is None:
            os.environ.pop("FIREBASE_AUTH_EMULATOR_HOST", None)
        else:
            os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = previous_host
        stop_emulator(running)


@pytest.fixture(scope="session")
def offline_credential():
    return OfflineCredential()


@pytest.fixture(scope="session")
def admin_app(emulator, offline_credential):
    # A shorter HTTP timeout than the SDK's 120 s, so that a hung request fails the test sooner, yet
    # one that a request on a loaded 2-core machine (load 25 seen) never reaches.
    app = firebase_admin.initialize_app(offline_credential,
                                        options={"projectId": PROJECT_ID, "httpTimeout": 30})
    try:
        yield app
    finally:
        firebase_admin.delete_app(app)


@pytest.fixture(scope="session")
def session_client(emulator):
    client = EmulatorClient(emulator.host, PROJECT_ID)
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(scope="module", autouse=True)
def fresh_emulator_for_each_file(emulator):
    """Every test file starts on an emulator as fresh as a new one (`POST /emulator/v1/reset`: every
    project's state and the clock), whichever files ran before it in this session: with
    `scripts/test`'s workers, which files share a worker's emulator changes from run to run."""
    response = requests.post(f"http://{emulator.host}/emulator/v1/reset", timeout=10)
    assert response.status_code == 200, f"resetting the emulator -> {response.status_code}: {response.text}"


@pytest.fixture(autouse=True)
def client(session_client, admin_app):
    """The REST helper; every test starts with no users (DELETE /emulator/v1/projects/<p>/accounts)."""
    session_client.clear_accounts()
    return session_client
