"""Faults (issue 13 item 7): kill -9 under mixed write load on `--data`, a full disk and a
read-only database, and blocking functions that hang, reset the connection or answer garbage.
Each test runs binaries of its own."""

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from conftest import PROJECT_ID, start_emulator, stop_emulator

OWNER = {"Authorization": "Bearer owner"}
V1 = "/identitytoolkit.googleapis.com/v1"
CONFIG = f"/emulator/v1/projects/{PROJECT_ID}/config"


def integrity(path):
    with sqlite3.connect(path) as database:
        return database.execute("PRAGMA integrity_check").fetchone()[0]


# --- kill -9 under mixed write load -----------------------------------------------------------

class Acknowledged:
    """What the emulator answered 200 to, per kind of write, recorded by the load threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.users, self.codes, self.tenants = [], [], []
        self.config_acked = None
        self.config_in_flight = None
        self.refusals = []


def write_load(base, kind, acknowledged, stop):
    session = requests.Session()
    number = 0
    while not stop.is_set():
        number += 1
        try:
            if kind.startswith("users"):
                email = f"{kind}-{number}@example.com"
                reply = session.post(f"{base}{V1}/accounts:signUp?key=k",
                                     json={"email": email, "password": "secret-123"}, timeout=10)
                if reply.status_code == 200:
                    with acknowledged.lock:
                        acknowledged.users.append(email)
            elif kind == "codes":
                # An email-link code: an oob code and an outbox message in one write.
                email = f"link-{number}@example.com"
                reply = session.post(f"{base}{V1}/accounts:sendOobCode?key=k", json={
                    "requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "http://localhost/done",
                    "canHandleCodeInApp": True}, timeout=10)
                if reply.status_code == 200:
                    with acknowledged.lock:
                        acknowledged.codes.append(email)
            elif kind == "tenants":
                reply = session.post(f"{base}/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/tenants",
                                     headers=OWNER, json={"displayName": f"tenant-{number}"}, timeout=10)
                if reply.status_code == 200:
                    with acknowledged.lock:
                        acknowledged.tenants.append(reply.json()["name"].split("/")[-1])
            else:
                value = number % 2 == 0
                acknowledged.config_in_flight = value
                reply = session.patch(f"{base}{CONFIG}", json={"signIn": {"allowDuplicateEmails": value}}, timeout=10)
                if reply.status_code == 200:
                    acknowledged.config_acked = value
                    acknowledged.config_in_flight = None
            if reply.status_code != 200:
                with acknowledged.lock:
                    acknowledged.refusals.append(f"{kind}: {reply.status_code} {reply.text[:300]}")
        except requests.RequestException:
            return  # the emulator was killed: this write was never acknowledged


def test_kill_9_under_mixed_writes_loses_no_acknowledged_write(tmp_path):
    data = tmp_path / "auth.sqlite"
    running = start_emulator("--data", str(data))
    base = f"http://{running.host}"
    acknowledged, stop = Acknowledged(), threading.Event()
    threads = [threading.Thread(target=write_load, args=(base, kind, acknowledged, stop), daemon=True)
               for kind in ["users-a", "users-b", "codes", "tenants", "config"]]
    for thread in threads:
        thread.start()
    time.sleep(2.5)
    # SIGKILL while every thread still has a write in flight.
    running.process.send_signal(signal.SIGKILL)
    running.process.wait(timeout=10)
    stop.set()
    for thread in threads:
        thread.join(timeout=15)
    assert acknowledged.refusals == []
    assert len(acknowledged.users) > 5 and len(acknowledged.codes) > 2 and acknowledged.tenants
    assert acknowledged.config_acked is not None
    assert integrity(data) == "ok"

    restarted = start_emulator("--data", str(data))
    try:
        base = f"http://{restarted.host}"
        emails = acknowledged.users
        found = set()
        for start in range(0, len(emails), 100):
            reply = requests.post(f"{base}{V1}/projects/{PROJECT_ID}/accounts:lookup", headers=OWNER,
                                  json={"email": emails[start:start + 100]}, timeout=10)
            found |= {user["email"] for user in reply.json().get("users", [])}
        assert set(emails) <= found, f"lost users: {sorted(set(emails) - found)[:10]}"

        codes = requests.get(f"{base}/emulator/v1/projects/{PROJECT_ID}/oobCodes", timeout=10).json()["oobCodes"]
        assert set(acknowledged.codes) <= {code["email"] for code in codes}
        messages = requests.get(f"{base}/emulator/v1/projects/{PROJECT_ID}/messages",
                                params={"limit": 1000}, timeout=10).json()["messages"]
        assert set(acknowledged.codes) <= {message["to"] for message in messages}

        for tenant in acknowledged.tenants:
            reply = requests.get(f"{base}/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/tenants/{tenant}",
                                 headers=OWNER, timeout=10)
            assert reply.status_code == 200 and reply.json()["displayName"].startswith("tenant-"), reply.text

        config = requests.get(f"{base}{CONFIG}", timeout=10).json()
        allowed = {acknowledged.config_acked, acknowledged.config_in_flight} - {None}
        assert config["signIn"]["allowDuplicateEmails"] in allowed
    finally:
        stop_emulator(restarted)
    assert integrity(data) == "ok"


# --- a full disk and a read-only database -----------------------------------------------------

@contextmanager
def small_filesystem(size):
    """A tiny tmpfs (root and mount needed); None where this machine cannot mount one."""
    directory = Path(tempfile.mkdtemp(prefix="auth-emulator-disk-"))
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)], capture_output=True).returncode == 0
    try:
        yield directory if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(directory)], capture_output=True)
        directory.rmdir()


def sign_up(base, email):
    return requests.post(f"{base}{V1}/accounts:signUp?key=k", json={"email": email, "password": "secret-123"}, timeout=10)


def assert_reads_still_work(base, email):
    reply = requests.post(f"{base}{V1}/projects/{PROJECT_ID}/accounts:lookup", headers=OWNER,
                          json={"email": [email]}, timeout=10)
    assert reply.status_code == 200 and reply.json()["users"][0]["email"] == email
    assert requests.get(f"{base}/emulator/v1/projects/{PROJECT_ID}/messages", timeout=10).status_code == 200
    assert requests.get(f"{base}/emulator/v1/clock", timeout=10).status_code == 200


def fill(directory):
    """Writes a file until the filesystem has no space left."""
    filler = directory / "filler"
    # Unbuffered: a buffered file keeps the bytes a failed write could not place, and its close
    # raises ENOSPC again trying to flush them (whether depends on how much room the store left).
    with open(filler, "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
        except OSError:
            pass
    return filler


def test_a_full_disk_refuses_writes_clearly_and_keeps_reads(tmp_path):
    with small_filesystem("8m") as directory:
        limited_by = "tmpfs"
        if directory is None:
            # No mount here: a file-size limit on the process (prlimit) stops the database growing
            # instead, which SQLite reports the same way.
            directory, limited_by = tmp_path, "prlimit"
        data = directory / "auth.sqlite"
        running = start_emulator("--data", str(data))
        base = f"http://{running.host}"
        try:
            assert sign_up(base, "before@example.com").status_code == 200
            if limited_by == "tmpfs":
                filler = fill(directory)
            else:
                subprocess.run(["prlimit", f"--pid={running.process.pid}", f"--fsize={data.stat().st_size}:unlimited"], check=True)
            refused = None
            for number in range(200):  # the WAL may still hold a few frames' room
                reply = sign_up(base, f"full-{number}@example.com")
                if reply.status_code != 200:
                    refused = reply
                    break
            assert refused is not None, "the full disk never refused a write"
            assert refused.status_code == 503, refused.text
            error = refused.json()["error"]
            assert error["status"] == "UNAVAILABLE"
            assert error["message"].startswith("UNAVAILABLE : The emulator could not save this change: ")
            assert "Nothing was written" in error["message"]
            assert_reads_still_work(base, "before@example.com")

            # Space again: writes go on.
            if limited_by == "tmpfs":
                filler.unlink()
            else:
                subprocess.run(["prlimit", f"--pid={running.process.pid}", "--fsize=unlimited:unlimited"], check=True)
            assert sign_up(base, "after@example.com").status_code == 200

        finally:
            stop_emulator(running)
        assert integrity(data) == "ok"


@contextmanager
def read_only_view(directory, force_unprivileged=False):
    """`directory` as the emulator may not write it, and the command prefix to run it with: a
    read-only bind mount where root can mount; where root cannot, a copy with the write bits taken
    away and the emulator run as `nobody` (root ignores file modes); otherwise the write bits alone."""
    if os.geteuid() == 0 and not force_unprivileged:
        view = Path(tempfile.mkdtemp(prefix="auth-emulator-ro-"))
        bound = subprocess.run(["mount", "--bind", str(directory), str(view)], capture_output=True).returncode == 0
        if bound and subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], capture_output=True).returncode == 0:
            try:
                yield view, ()
            finally:
                subprocess.run(["umount", "-l", str(view)], capture_output=True)
                view.rmdir()
            return
        if bound:
            subprocess.run(["umount", "-l", str(view)], capture_output=True)
        view.rmdir()
    prefix = ()
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.fail("running as root without mount or setpriv: cannot make a file the emulator may not write")
        prefix = (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups")
        # A copy outside pytest's private (0700) temporary folders, which `nobody` can read.
        copy = Path(tempfile.mkdtemp(prefix="auth-emulator-ro-"))
        for path in directory.iterdir():
            shutil.copy(path, copy / path.name)
        directory = copy
    paths = [directory, *directory.iterdir()]
    for path in paths:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        yield directory, prefix
    finally:
        for path in paths:
            path.chmod(0o755 if path.is_dir() else 0o644)
        if prefix:
            shutil.rmtree(directory)


@pytest.mark.parametrize("unprivileged", [False, True], ids=["as-is", "unprivileged"])
def test_a_read_only_database_answers_reads_and_refuses_writes_clearly(tmp_path, unprivileged):
    data = tmp_path / "auth.sqlite"
    first = start_emulator("--data", str(data))
    assert sign_up(f"http://{first.host}", "kept@example.com").status_code == 200
    stop_emulator(first)
    with read_only_view(tmp_path, force_unprivileged=unprivileged) as (view, prefix):
        running = start_emulator("--data", str(view / "auth.sqlite"), command_prefix=prefix)
        base = f"http://{running.host}"
        try:
            assert_reads_still_work(base, "kept@example.com")
            reply = sign_up(base, "new@example.com")
            assert reply.status_code == 503, reply.text
            message = reply.json()["error"]["message"]
            assert message.startswith("UNAVAILABLE : The emulator could not save this change: "), message
            assert "Nothing was written" in message
            reply = requests.post(f"{base}/emulator/v1/clock:advance", json={"seconds": 5}, timeout=10)
            assert reply.status_code == 503, reply.text
            assert_reads_still_work(base, "kept@example.com")
        finally:
            stop_emulator(running)


# --- blocking functions that hang, reset or answer garbage -----------------------------------

class MisbehavingFunction:
    """A raw TCP server for blocking functions: `hang` never answers, `reset` closes the
    connection with a TCP reset, `garbage` answers bytes that are not HTTP."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.held = []
        self.closed = threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while not self.closed.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.answer, args=(connection,), daemon=True).start()

    def answer(self, connection):
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = connection.recv(65536)
            if not chunk:
                break
            request += chunk
        path = request.split(b" ")[1] if request.count(b" ") >= 2 else b""
        if path.startswith(b"/hang"):
            self.held.append(connection)  # held open, silent, until the test ends
            return
        if path.startswith(b"/reset"):
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        elif path.startswith(b"/garbage"):
            connection.sendall(b"\x00\xffbanana\r\n\r\nHTTP/9 ???\r\n\x1b[31m")
        connection.close()

    def url(self, name):
        return f"http://127.0.0.1:{self.port}/{name}"

    def close(self):
        self.closed.set()
        self.listener.close()
        for connection in self.held:
            connection.close()


def test_a_hanging_function_stalls_no_other_request(tmp_path):
    function = MisbehavingFunction()
    running = start_emulator()
    base = f"http://{running.host}"
    try:
        def configure(name):
            reply = requests.patch(
                f"{base}/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/config", headers=OWNER,
                params={"updateMask": "blockingFunctions"},
                json={"blockingFunctions": {"triggers": {"beforeCreate": {"functionUri": function.url(name)}}}}, timeout=10)
            assert reply.status_code == 200, reply.text

        # A reset and garbage fail at once, with the function's error.
        for name, detail in [("reset", "Failed to make request to"), ("garbage", "")]:
            configure(name)
            started = time.monotonic()
            reply = sign_up(base, f"{name}@example.com")
            assert reply.status_code == 400, reply.text
            assert reply.json()["error"]["message"].startswith("BLOCKING_FUNCTION_ERROR_RESPONSE : ((" + detail)
            assert time.monotonic() - started < 5

        configure("hang")
        hung = {}

        def hanging_sign_up():
            started = time.monotonic()
            hung["reply"] = requests.post(f"{base}{V1}/accounts:signUp?key=k",
                                          json={"email": "hang@example.com", "password": "secret-123"}, timeout=30)
            hung["seconds"] = time.monotonic() - started

        waiter = threading.Thread(target=hanging_sign_up)
        waiter.start()
        time.sleep(0.5)  # the sign-up is now waiting on the function
        # Reads, writes that call no function, and a sign-in answer while it waits.
        for number in range(20):
            started = time.monotonic()
            assert requests.get(f"{base}/emulator/v1/clock", timeout=5).status_code == 200
            assert requests.post(f"{base}/emulator/v1/clock:advance", json={"seconds": 1}, timeout=5).status_code == 200
            reply = requests.post(f"{base}{V1}/projects/{PROJECT_ID}/accounts:lookup", headers=OWNER,
                                  json={"email": ["reset@example.com"]}, timeout=5)
            assert reply.status_code == 200
            assert time.monotonic() - started < 3, "a request waited behind the hanging function"
        assert waiter.is_alive(), "the hanging sign-up answered before its deadline"
        waiter.join(timeout=30)
        reply = hung["reply"]
        assert reply.status_code == 400
        assert reply.json()["error"]["message"].startswith(
            "BLOCKING_FUNCTION_ERROR_RESPONSE : ((Deadline exceeded making request to")
        assert 5 < hung["seconds"] < 15
        assert running.process.poll() is None, running.output()
    finally:
        function.close()
        stop_emulator(running)
