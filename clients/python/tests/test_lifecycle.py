"""Starting, attaching and stopping, the version check, and every way a start can fail."""

import importlib.metadata
import os
import re
import socket
import subprocess

import pytest

import auth_emulator.emulator as emulator_module
from auth_emulator import Emulator, KitError, StartError, Unreachable, VersionError, __version__
from auth_emulator.process import EmulatorProcess
from conftest import REPO_ROOT, free_port, unique_email


def test_the_kit_has_the_emulators_version(auth_emulator):
    swift = (REPO_ROOT / "Sources" / "BuildInfo" / "BuildInfo.swift").read_text(encoding="utf-8")
    assert re.search(r'static let version = "([^"]+)"', swift).group(1) == __version__
    printed = subprocess.run([os.environ["AUTH_EMULATOR_BIN"], "--version"], capture_output=True, text=True,
                             timeout=30, check=True).stdout.splitlines()[0]
    assert printed == f"auth-emulator {__version__}"
    assert auth_emulator.version == __version__ and re.fullmatch(r"[0-9a-f]{40}(-dirty)?|unknown",
                                                                 auth_emulator.commit)
    assert importlib.metadata.version("auth-emulator-kit") == __version__


def test_an_emulator_older_than_the_kit_is_refused(auth_emulator, monkeypatch):
    monkeypatch.setattr(emulator_module, "__version__", "0.2.0")
    with pytest.raises(VersionError) as refused:
        Emulator.attach(auth_emulator.host)
    assert f"the emulator at {auth_emulator.base_url} is {__version__}, older than this kit (0.2.0)" in str(refused.value)


def test_start_serves_one_project_until_stopped():
    with Emulator.start(project_id="demo-lifecycle") as emulator:
        assert emulator.project_id == "demo-lifecycle" and emulator.process.running
        assert emulator.environment() == {"FIREBASE_AUTH_EMULATOR_HOST": emulator.host,
                                          "GCLOUD_PROJECT": "demo-lifecycle", "GOOGLE_CLOUD_PROJECT": "demo-lifecycle"}
        emulator.users.create(unique_email(), "secret123")
        attached = Emulator.attach(emulator.host, project_id="demo-lifecycle")
        assert attached.process is None and attached.users.count() == 1
        assert attached.stop() is None and emulator.process.running, "stopping an attached emulator stopped it"
    assert emulator.process.process.returncode == 0
    with pytest.raises(Unreachable, match=re.escape(emulator.base_url)):
        emulator.users.count()


def test_attach_reads_the_environment(auth_emulator, monkeypatch):
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", auth_emulator.host)
    monkeypatch.setenv("GCLOUD_PROJECT", "demo-from-env")
    attached = Emulator.attach()
    assert (attached.host, attached.project_id) == (auth_emulator.host, "demo-from-env")
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST")
    with pytest.raises(KitError, match="FIREBASE_AUTH_EMULATOR_HOST is not set"):
        Emulator.attach()


def test_a_port_in_use_gets_another():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with Emulator.start(port=port) as emulator:
            assert not emulator.host.endswith(f":{port}")
            assert emulator.users.count() == 0


def test_a_free_port_asked_for_is_the_one_used():
    port = free_port()
    with Emulator.start(port=port) as emulator:
        assert emulator.host == f"127.0.0.1:{port}"


def test_a_binary_that_fails_to_start_reports_its_stderr():
    with pytest.raises(StartError) as failure:
        Emulator.start(args=["--idp-tokens", "sometimes"])
    message = str(failure.value)
    assert "exited before it was ready (exit status 2)" in message
    assert "--- stderr ---" in message and "sometimes" in message.split("--- stderr ---")[1]


def test_a_binary_that_never_gets_ready_is_killed_at_the_deadline(tmp_path):
    pid_file = tmp_path / "pid"
    script = tmp_path / "silent-emulator"
    script.write_text(f"#!/bin/sh\necho $$ > {pid_file}\necho 'warming up forever' >&2\nexec sleep 600\n")
    script.chmod(0o755)
    with pytest.raises(StartError) as failure:
        EmulatorProcess.start(str(script), project_id="demo-project", timeout=1)
    message = str(failure.value)
    assert "printed no `export FIREBASE_AUTH_EMULATOR_HOST=…` line within 1 s" in message
    assert "warming up forever" in message
    assert not os.path.exists(f"/proc/{pid_file.read_text().strip()}"), "the silent binary was left running"


def test_a_missing_binary_is_named(tmp_path, monkeypatch):
    with pytest.raises(StartError, match=f"not found or not executable: {re.escape(str(tmp_path))}/nowhere"):
        Emulator.start(str(tmp_path / "nowhere"))
    monkeypatch.delenv("AUTH_EMULATOR_BIN")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(StartError, match="auth-emulator is not on PATH"):
        Emulator.start()


def test_attaching_where_nothing_listens():
    host = f"127.0.0.1:{free_port()}"
    with pytest.raises(KitError, match=f"http://{host} does not answer as an auth-emulator"):
        Emulator.attach(host)
