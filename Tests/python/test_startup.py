"""Starting up (issues 31.2 and 28.1): one `--data` file has one emulator, and a start that cannot
work says why in the user's terms and what to do, exits non-zero, and writes nothing. Each test
runs binaries of its own."""

import http.server
import json
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from conftest import PROJECT_ID, REPO_ROOT, binary_path, start_emulator, stop_emulator
from emulator_client import EmulatorClient

OFFICIAL_EXPORT = REPO_ROOT / "fixtures" / "import" / "official-export"
STARTED = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


def run_binary(*arguments):
    """The binary run to its end (a start that fails ends by itself), on a free port unless told."""
    if "--port" not in arguments and arguments[:1] != ("export",):
        arguments = ("--port", "0", *arguments)
    return subprocess.run([str(binary_path()), *arguments], capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL)


def refused(*arguments):
    """The one error line of a start that must fail with status 1 and print nothing else."""
    finished = run_binary(*arguments)
    assert finished.returncode == 1, finished
    assert finished.stdout == "", finished
    lines = finished.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("auth-emulator"), finished.stderr
    return lines[0]


def tree(directory, lock_contents=True):
    """Every file and folder below `directory`, with each file's bytes, to show that a refused start
    wrote nothing. `lock_contents=False` compares lock files by name only: a start that took the
    lock writes its pid there before it finds the file unusable."""
    found = {}
    for path in sorted(Path(directory).rglob("*")):
        read = path.is_file() and (lock_contents or path.suffix != ".lock")
        found[str(path.relative_to(directory))] = path.read_bytes() if read else None
    return found


def sign_up(host, email):
    reply = requests.post(f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                          json={"email": email, "password": "secret-123", "returnSecureToken": True}, timeout=10)
    assert reply.status_code == 200, reply.text
    return reply.json()["localId"]


def user_count(data):
    with sqlite3.connect(data) as database:
        count = database.execute("SELECT count(*) FROM users").fetchone()[0]
    database.close()
    return count


# --- one --data file, one emulator ---------------------------------------------------------------

def test_a_second_start_on_a_data_file_is_refused_and_the_first_keeps_every_write(tmp_path):
    data = tmp_path / "e.db"
    first = start_emulator("--data", str(data))
    base = f"http://{first.host}"
    try:
        before = sign_up(first.host, "before@example.com")
        sent = requests.post(f"{base}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=k", json={
            "requestType": "EMAIL_SIGNIN", "email": "before@example.com", "continueUrl": "http://localhost/done",
            "canHandleCodeInApp": True}, timeout=10)
        assert sent.status_code == 200, sent.text
        advanced = requests.post(f"{base}/emulator/v1/clock:advance", json={"seconds": 3600}, timeout=10)
        assert advanced.status_code == 200, advanced.text
        now = advanced.json()["now"]

        message = refused("--data", str(data))
        assert re.fullmatch(rf"auth-emulator: {re.escape(str(data))} is in use by auth-emulator pid "
                            rf"{first.process.pid} \(started {STARTED}\); stop it or use another --data file",
                            message), message
        out = tmp_path / "out"
        exported = run_binary("export", "--data", str(data), "--out", str(out))
        assert exported.returncode == 1, exported
        assert re.fullmatch(rf"auth-emulator export: {re.escape(str(data))} is in use by auth-emulator pid "
                            rf"{first.process.pid} \(started {STARTED}\); stop it \(kill {first.process.pid}\), "
                            r"then export; or start it with --export-on-exit DIR to export as it stops\n",
                            exported.stderr), exported.stderr
        assert not out.exists()

        # The first goes on as if nothing had happened.
        after = sign_up(first.host, "after@example.com")
    finally:
        stop_emulator(first)

    again = start_emulator("--data", str(data))
    client = EmulatorClient(again.host, PROJECT_ID)
    try:
        found = client.admin_call("lookup", {"localId": [before, after]})
        assert sorted(user["localId"] for user in found.json()["users"]) == sorted([before, after])
        messages = requests.get(f"http://{again.host}/emulator/v1/projects/{PROJECT_ID}/messages", timeout=10)
        assert [m["to"] for m in messages.json()["messages"]] == ["before@example.com"]
        clock = requests.get(f"http://{again.host}/emulator/v1/clock", timeout=10).json()
        assert clock["now"] >= now and clock["offsetSeconds"] >= 3600
    finally:
        client.close()
        stop_emulator(again)
    # A stopped emulator's file exports.
    exported = run_binary("export", "--data", str(data), "--out", str(tmp_path / "out"))
    assert exported.returncode == 0, exported


def test_the_lock_goes_with_a_killed_emulator(tmp_path):
    data = tmp_path / "e.db"
    first = start_emulator("--data", str(data))
    kept = sign_up(first.host, "kept@example.com")
    first.process.send_signal(signal.SIGKILL)
    first.process.wait()
    # The kernel dropped the lock with the process: a new start takes the file at once.
    second = start_emulator("--data", str(data))
    client = EmulatorClient(second.host, PROJECT_ID)
    try:
        assert client.admin_call("lookup", {"localId": [kept]}).json()["users"][0]["email"] == "kept@example.com"
        holder = (tmp_path / "e.db.lock").read_text()
        assert re.fullmatch(rf"pid {second.process.pid} started {STARTED}\n", holder), holder
    finally:
        client.close()
        stop_emulator(second)


# --- a --data file that cannot be used -----------------------------------------------------------

def make_foreign_database(path):
    with sqlite3.connect(path) as database:
        database.executescript("CREATE TABLE orders (id INTEGER); CREATE TABLE customers (id INTEGER);")
    database.close()


def make_newer_database(path):
    start_emulator_and_stop = start_emulator("--data", str(path))
    stop_emulator(start_emulator_and_stop)
    with sqlite3.connect(path) as database:
        database.execute("INSERT INTO schema_migrations (version, name) VALUES (9001, 'from the future')")
    database.close()


DATA_FILE_CASES = {
    "missing-folder": (lambda d: None, "missing/dir/x.db",
                       "--data {d}/missing/dir/x.db: the folder {d}/missing/dir does not exist; create it "
                       "(mkdir -p {d}/missing/dir) or give a file in a folder that exists"),
    "a-folder": (lambda d: None, "",
                 "--data {d}/ is a folder; give a file in it, e.g. --data {d}/auth.db"),
    "a-file-as-folder": (lambda d: (d / "notes.txt").write_text("plain\n"), "notes.txt/x.db",
                         "--data {d}/notes.txt/x.db: {d}/notes.txt is a file, not a folder; give a path whose "
                         "folders exist"),
    "a-text-file": (lambda d: (d / "notes.txt").write_text("plain\n"), "notes.txt",
                    "--data {d}/notes.txt is not an auth-emulator database (it is not an SQLite file at all); give a "
                    "new file name for a fresh database, or a file that an earlier --data run wrote"),
    "another-programs-database": (lambda d: make_foreign_database(d / "shop.db"), "shop.db",
                                  "--data {d}/shop.db is an SQLite database, but not an auth-emulator one (its "
                                  "tables: customers, orders); it was left as it was: give a new file name, or a "
                                  "file that an earlier --data run wrote"),
}


@pytest.mark.parametrize("case", sorted(DATA_FILE_CASES))
def test_a_data_file_that_cannot_be_used_is_said_in_the_users_terms(tmp_path, case):
    prepare, name, expected = DATA_FILE_CASES[case]
    prepare(tmp_path)
    before = tree(tmp_path)
    assert refused("--data", f"{tmp_path}/{name}") == "auth-emulator: " + expected.format(d=tmp_path)
    assert tree(tmp_path) == before


def test_a_newer_schema_is_refused_and_left_as_it_was(tmp_path):
    data = tmp_path / "newer.db"
    make_newer_database(data)
    before = tree(tmp_path, lock_contents=False)
    message = refused("--data", str(data))
    assert re.fullmatch(rf"auth-emulator: --data {re.escape(str(data))} was written by a newer auth-emulator \(its "
                        r"schema has step\(s\) 9001; this \S+ knows up to \d+\); it was left as it was: run that "
                        r"newer version on it, or give another file", message), message
    assert tree(tmp_path, lock_contents=False) == before
    exported = run_binary("export", "--data", str(data), "--out", str(tmp_path / "out"))
    assert exported.returncode == 1 and "export --data" in exported.stderr and "newer auth-emulator" in exported.stderr
    assert tree(tmp_path, lock_contents=False) == before


# --- a port that is taken ------------------------------------------------------------------------

@contextmanager
def occupant(answer=None, greeting=None):
    """A listener on a free port: silent (it never accepts), an HTTP server whose `GET /` answers
    `answer` (and everything else 404), or a TCP server that sends `greeting` on connecting."""
    if answer is not None:
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = json.dumps(answer).encode() if self.path == "/" else b"{}"
                self.send_response(200 if self.path == "/" else 404)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield server.server_address[1]
        finally:
            server.shutdown()
            server.server_close()
        return
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def greet():
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            connection.sendall(greeting)
            connection.close()

    if greeting is not None:
        threading.Thread(target=greet, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        listener.close()


def test_a_taken_port_says_who_has_it_and_writes_nothing(tmp_path):
    running = start_emulator("--smtp-port", "0")
    try:
        port = running.host.rsplit(":", 1)[1]
        smtp = re.search(r"smtp +127\.0\.0\.1:(\d+)", "".join(running.stdout_lines)).group(1)
        data = tmp_path / "state.db"
        # Even with an import to load: it is read first and written only once the port is bound.
        assert refused("--port", port, "--data", str(data), "--import", str(OFFICIAL_EXPORT)) == (
            f"auth-emulator: could not listen on 127.0.0.1:{port}: another auth-emulator is running there; stop "
            "it, or start this one on a free port with --port 0")
        assert user_count(data) == 0
        assert refused("--smtp-port", smtp) == (
            f"auth-emulator: could not listen for SMTP on 127.0.0.1:{smtp}: another auth-emulator's SMTP listener is "
            "running there; stop it, or start this one with --smtp-port 0 for a free port")
    finally:
        stop_emulator(running)

    official = {"authEmulator": {"ready": True, "docs": "https://firebase.google.com/docs/emulator-suite",
                                 "apiSpec": "/emulator/openapi.json"}}
    with occupant(answer=official) as port:
        assert refused("--port", str(port)) == (
            f"auth-emulator: could not listen on 127.0.0.1:{port}: a Firebase Auth emulator (firebase "
            "emulators:start) is running there; stop it, or start this one on a free port with --port 0")
    with occupant() as port:
        assert refused("--port", str(port)) == (
            f"auth-emulator: could not listen on 127.0.0.1:{port}: the port is in use by another program (no auth "
            "emulator answers there); stop it, or start this one on a free port with --port 0")
        assert refused("--smtp-port", str(port)) == (
            f"auth-emulator: could not listen for SMTP on 127.0.0.1:{port}: the port is in use by another program "
            "(no SMTP server answers there); stop it, or start this one with --smtp-port 0 for a free port")
    with occupant(greeting=b"220 mail.test ESMTP Mailpit\r\n") as port:
        assert refused("--smtp-port", str(port)) == (
            f"auth-emulator: could not listen for SMTP on 127.0.0.1:{port}: another SMTP server is running there (it "
            "greets with \"220 mail.test ESMTP Mailpit\"); stop it, or start this one with --smtp-port 0 for a free "
            "port")


# --- --import and --export-on-exit ---------------------------------------------------------------

def test_an_import_that_cannot_be_read_is_named_and_nothing_is_imported(tmp_path):
    missing = tmp_path / "nothing"
    assert refused("--import", str(missing)) == (
        f"auth-emulator: --import {missing}: no such folder; give the folder an export wrote (firebase "
        "emulators:export, or --export-on-exit): it holds firebase-export-metadata.json or auth_export/")
    (tmp_path / "notes.txt").write_text("plain\n")
    assert refused("--import", str(tmp_path / "notes.txt")) == (
        f"auth-emulator: --import {tmp_path}/notes.txt is a file, not a folder; give the folder that holds the export")

    # A good accounts file and a bad one: the good one is not imported either.
    export = tmp_path / "export"
    shutil.copytree(OFFICIAL_EXPORT, export)
    bad = export / "auth_export" / "accounts-zz-broken.json"
    bad.write_text('{"users": [')
    data = tmp_path / "state.db"
    message = refused("--data", str(data), "--import", str(export))
    assert re.fullmatch(rf"auth-emulator: --import: {re.escape(str(bad))} is not a JSON object \(not JSON: .+\)",
                        message), message
    assert user_count(data) == 0
    bad.unlink()
    bad.mkdir()  # a folder where a file should be: it cannot be read
    assert refused("--data", str(data), "--import", str(export)) == (
        f"auth-emulator: --import: cannot read {bad} (it is a folder)")
    assert user_count(data) == 0


def test_an_export_on_exit_that_could_not_be_written_fails_at_the_start(tmp_path):
    (tmp_path / "notes.txt").write_text("plain\n")
    data = tmp_path / "state.db"
    before = tree(tmp_path)
    assert refused("--data", str(data), "--export-on-exit", str(tmp_path / "notes.txt")) == (
        f"auth-emulator: --export-on-exit {tmp_path}/notes.txt is a file; give a folder (an export is a folder, "
        "which replaces what is there)")
    assert refused("--data", str(data), "--export-on-exit", str(tmp_path / "notes.txt" / "out" / "deeper")) == (
        f"auth-emulator: --export-on-exit {tmp_path}/notes.txt/out/deeper: {tmp_path}/notes.txt is a file, not a "
        "folder; give a path whose folders exist or can be made")
    assert tree(tmp_path) == before
    # Folders that do not exist yet are made by the export.
    out = tmp_path / "not" / "yet" / "out"
    running = start_emulator("--export-on-exit", str(out))
    stop_emulator(running)
    assert (out / "firebase-export-metadata.json").is_file()


def test_a_read_only_folder_without_a_lock_file_starts_unguarded_and_says_so(tmp_path):
    from test_faults import read_only_view  # a folder this process's emulator may not write

    data = tmp_path / "auth.sqlite"
    stop_emulator(start_emulator("--data", str(data)))
    (tmp_path / "auth.sqlite.lock").unlink()
    with read_only_view(tmp_path, force_unprivileged=True) as (view, prefix):
        running = start_emulator("--data", str(view / "auth.sqlite"), command_prefix=prefix)
        try:
            assert requests.get(f"http://{running.host}/emulator/v1/clock", timeout=10).status_code == 200
            assert (f"{view}/auth.sqlite: no lock file can be made beside it (its folder is read-only), so another "
                    "emulator on it would not be refused") in running.output()
            assert not (view / "auth.sqlite.lock").exists()
        finally:
            stop_emulator(running)
