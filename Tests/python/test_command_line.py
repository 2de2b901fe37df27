"""The binary itself: state that survives a crash with --data, and how it refuses bad start-ups."""

import re
import signal
import socket
import subprocess

from conftest import PROJECT_ID, binary_path, start_emulator
from emulator_client import EmulatorClient


def test_data_file_survives_a_kill(tmp_path):
    data = tmp_path / "auth.sqlite"
    first = start_emulator("--data", str(data))
    client = EmulatorClient(first.host, PROJECT_ID)
    try:
        signed_up = client.sign_up("durable@example.com", "secret123")
        linked = client.admin_call("update", {
            "localId": signed_up["localId"],
            "linkProviderUserInfo": {"providerId": "google.com", "rawId": "g-durable"}})
        assert linked.status_code == 200, linked.text
    finally:
        client.close()
        # No graceful stop: whatever the emulator answered must already be on disk.
        first.process.send_signal(signal.SIGKILL)
        first.process.wait()

    second = start_emulator("--data", str(data))
    client = EmulatorClient(second.host, PROJECT_ID)
    try:
        signed_in = client.sign_in_with_password_ok("durable@example.com", "secret123")
        assert signed_in["localId"] == signed_up["localId"]
        refreshed = client.refresh_json(signed_up["refreshToken"])
        assert refreshed.status_code == 200, refreshed.text
        assert refreshed.json()["user_id"] == signed_up["localId"]
        found = client.admin_call("lookup", {"federatedUserId": [{"providerId": "google.com", "rawId": "g-durable"}]})
        assert [user["localId"] for user in found.json()["users"]] == [signed_up["localId"]]
    finally:
        client.close()
        second.process.send_signal(signal.SIGTERM)
        assert second.process.wait(timeout=10) == 0


def test_bad_flags_print_usage_and_exit_2():
    for arguments in (["--nope"], ["--port", "70000"], ["--log-level", "loud"]):
        result = subprocess.run([str(binary_path()), *arguments], capture_output=True, timeout=10, text=True)
        assert result.returncode == 2, (arguments, result)
        assert "usage: auth-emulator" in result.stderr


def test_a_taken_port_is_a_clear_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([str(binary_path()), "--port", str(port)], capture_output=True, timeout=10, text=True)
    assert result.returncode == 1
    assert f"could not listen on 127.0.0.1:{port}" in result.stderr


def banner_of(*arguments):
    """The start-up lines (up to the export line) of a binary started with `arguments`, then stops it."""
    process = subprocess.Popen([str(binary_path()), "--port", "0", "--log-level", "warn", *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        lines = []
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("  console"):
                break
        return lines
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0


def test_a_wildcard_bind_tells_clients_the_loopback_address():
    # In Docker the emulator listens on 0.0.0.0; the export line must name an address a host can use.
    lines = banner_of("--host", "0.0.0.0")
    listening = re.match(r"^auth-emulator \S+ listening on http://0\.0\.0\.0:(\d+) ", lines[0])
    assert listening, lines
    port = listening.group(1)
    assert lines[1] == f"export FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:{port}"
    assert lines[2] == f"  console         http://127.0.0.1:{port}/emulator/ui"
    assert not any("0.0.0.0" in line for line in lines[1:])


def test_advertise_host_names_the_address_clients_use():
    lines = banner_of("--host", "0.0.0.0", "--advertise-host", "localhost:19099")
    assert lines[1] == "export FIREBASE_AUTH_EMULATOR_HOST=localhost:19099"
    port = re.search(r"listening on http://0\.0\.0\.0:(\d+) ", lines[0]).group(1)
    lines = banner_of("--advertise-host", "auth.test")
    assert lines[1].startswith("export FIREBASE_AUTH_EMULATOR_HOST=auth.test:")
    assert port  # the listening line keeps the real bind address
    bad = subprocess.run([str(binary_path()), "--advertise-host", "http://x/"], capture_output=True, text=True,
                         timeout=10)
    assert bad.returncode == 2 and "--advertise-host must be a host or host:port" in bad.stderr
