"""The binary itself: state that survives a crash with --data, and how it refuses bad start-ups."""

import os
import re
import shutil
import signal
import socket
import subprocess

import requests

from conftest import PROJECT_ID, REPO_ROOT, binary_path, start_emulator
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


# Mistakes, --help and --version ---------------------------------------------------------------

def run_binary(*arguments, **options):
    return subprocess.run([str(binary_path()), *arguments], capture_output=True, timeout=10, text=True,
                          stdin=subprocess.DEVNULL, **options)


def test_a_mistake_names_the_nearest_flag_in_three_lines():
    result = run_binary("--prot", "9100")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "auth-emulator: unknown option --prot; did you mean --port?",
        "usage: auth-emulator [--port N] [--project ID] [--data FILE] [options]",
        "`auth-emulator --help` lists every option"]
    assert run_binary("-p", "9100").stderr.startswith("auth-emulator: unknown option -p: the port is --port N")
    assert run_binary("9100").stderr.startswith("auth-emulator: unexpected argument 9100: to listen on port 9100, use --port 9100")
    assert run_binary("--idp-tokens", "loose").stderr.startswith('auth-emulator: --idp-tokens must be lenient or strict, not "loose"')


def test_help_is_the_whole_usage_and_each_command_has_its_own():
    for command, first, option in [((), "usage: auth-emulator [--port N]", "--smtp-port N"),
                                   (("exec",), "usage: auth-emulator exec [options] [--] CMD", "--export-on-exit DIR"),
                                   (("mint",), "usage: auth-emulator mint IDP", "--hide-email"),
                                   (("export",), "usage: auth-emulator export --data FILE --out DIR", "--out DIR")]:
        result = run_binary(*command, "--help")
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith(first)
        assert f"  {option}" in result.stdout
        wrong = run_binary(*command, "--nope")
        assert wrong.returncode == 2
        assert wrong.stderr.splitlines()[-1] == f"`{' '.join(('auth-emulator',) + command)} --help` lists every option"


def test_version_names_the_build_and_the_libraries_and_the_running_emulator_says_the_same(emulator):
    result = run_binary("--version")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    version = re.fullmatch(r"auth-emulator (\d+\.\d+\.\d+)", lines[0])
    assert version, lines  # the first line is for test kits to parse: keep it exactly this
    commit = re.fullmatch(r"commit ([0-9a-f]{40}(?:-dirty)?|unknown)", lines[1])
    assert commit, lines
    assert [line.split(" ")[0] for line in lines[2:]] == ["libmicrohttpd", "SQLite", "OpenSSL"]
    assert all(re.fullmatch(r"\S+ \d+\.\d+\.\d+\S*", line) for line in lines[2:]), lines
    status = requests.get(f"http://{emulator.host}/", timeout=10).json()["authEmulator"]
    assert (status["version"], status["commit"]) == (version.group(1), commit.group(1))
    assert status["ready"] is True


# firebase.json and .firebaserc ----------------------------------------------------------------

def banner_in(directory, *arguments):
    """The whole banner of a binary started in `directory` (no --port: the files may give it)."""
    process = subprocess.Popen([str(binary_path()), "--log-level", "warn", *arguments], cwd=directory,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        lines = []
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("  settings"):
                return lines
        raise AssertionError(f"no banner: {lines} {process.stderr.read()}")
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0


def test_a_firebase_project_directory_gives_host_port_and_project(tmp_path):
    project = tmp_path.resolve()
    # Port 0: any free port, so that the test never meets a port in use.
    (project / "firebase.json").write_text('{"emulators": {"auth": {"host": "127.0.0.1", "port": 0}, "ui": {"enabled": false}}}')
    (project / ".firebaserc").write_text('{"projects": {"default": "demo-from-rc"}}')
    nested = project / "app" / "tests"
    nested.mkdir(parents=True)
    lines = banner_in(nested)  # found in a parent, as the Firebase CLI finds it
    assert re.match(r"^auth-emulator \S+ listening on http://127\.0\.0\.1:\d+ for project demo-from-rc ", lines[0]), lines
    assert lines[-1].startswith(
        f"  settings        host 127.0.0.1 ({project}/firebase.json emulators.auth.host), port ")
    assert lines[-1].endswith(
        f" ({project}/firebase.json emulators.auth.port), project demo-from-rc ({project}/.firebaserc projects.default)")
    # Flags win, and the banner says so.
    (project / "firebase.json").write_text('{"emulators": {"auth": {"port": 1}}}')
    lines = banner_in(nested, "--port", "0", "--project", "demo-flag")
    assert "for project demo-flag " in lines[0]
    assert re.search(r"port \d+ \(--port\), project demo-flag \(--project\)$", lines[-1]), lines


def test_a_malformed_project_file_is_an_error_naming_the_file_and_the_key(tmp_path):
    project = tmp_path.resolve()
    for text, expected in [('{"emulators": {"auth": {"port": 9099,}}}', "firebase.json: not valid JSON: "),
                           ('{"emulators": {"auth": {"port": "ninety"}}}', 'firebase.json: emulators.auth.port must be a port number, 0…65535, not "ninety"'),
                           ('{"emulators": {"auth": {"host": ["0.0.0.0"]}}}', "firebase.json: emulators.auth.host must be a host name or address, as a string, not an array")]:
        (project / "firebase.json").write_text(text)
        result = run_binary("--port", "0", cwd=project)
        assert result.returncode == 2, result
        assert result.stderr.startswith(f"auth-emulator: {project}/{expected}"), result.stderr
        assert len(result.stderr.splitlines()) == 1  # no usage: the command line was right
    (project / "firebase.json").write_text("{}")
    (project / ".firebaserc").write_text('{"projects": {"default": 42}}')
    result = run_binary("--port", "0", cwd=project)
    assert result.returncode == 2
    assert result.stderr == f"auth-emulator: {project}/.firebaserc: projects.default must be a project id, as a string, not 42\n"


# The commit built (Plugins/BuildCommit) --------------------------------------------------------

WRITE_COMMIT = REPO_ROOT / "Plugins" / "BuildCommit" / "write-commit.sh"


def written_commit(package, **environment):
    """What the build plugin's script writes for a package at `package`."""
    output = package / "generated" / "GeneratedCommit.swift"
    env = {"PATH": os.environ["PATH"], **environment}
    subprocess.run(["/bin/sh", str(WRITE_COMMIT), str(package), str(output)], check=True, env=env, timeout=30)
    return re.fullmatch(r'// .*\nlet generatedCommit = "(.*)"\n', output.read_text()).group(1)


def git(directory, *arguments):
    return subprocess.run(["git", "-C", str(directory), "-c", "user.name=t", "-c", "user.email=t@example.com",
                           *arguments], check=True, capture_output=True, text=True, timeout=30).stdout.strip()


def package_copy(directory):
    """A package's commit files: the plugin's archived-commit and the .gitattributes that fills it."""
    (directory / "Plugins" / "BuildCommit").mkdir(parents=True)
    shutil.copy(REPO_ROOT / "Plugins" / "BuildCommit" / "archived-commit", directory / "Plugins" / "BuildCommit")
    shutil.copy(REPO_ROOT / ".gitattributes", directory)
    (directory / "Package.swift").write_text("// a package\n")
    return directory


def test_the_commit_built_comes_from_the_checkout_an_archive_or_the_environment(tmp_path):
    package = package_copy(tmp_path / "checkout")
    assert written_commit(package) == "unknown"  # a tree without history still builds
    git(package, "init", "-q")
    git(package, "add", "-A")
    git(package, "commit", "-q", "-m", "first")
    head = git(package, "rev-parse", "HEAD")
    assert written_commit(package) == head
    (package / "Package.swift").write_text("// changed\n")
    assert written_commit(package) == f"{head}-dirty"
    assert written_commit(package, AUTH_EMULATOR_COMMIT="0123abc") == "0123abc"
    assert written_commit(package, AUTH_EMULATOR_COMMIT='x"; evil()') == "unknown"  # lands in a Swift literal
    # `git archive` (a release tarball) fills in archived-commit through .gitattributes.
    git(package, "checkout", "-q", "--", "Package.swift")
    archive = tmp_path / "archive.tar"
    git(package, "archive", "-o", str(archive), "HEAD")
    unpacked = tmp_path / "unpacked"
    unpacked.mkdir()
    subprocess.run(["tar", "-xf", str(archive), "-C", str(unpacked)], check=True, timeout=30)
    assert written_commit(unpacked) == head
    # A package copied into another repository does not take that repository's commit.
    outer = tmp_path / "outer"
    outer.mkdir()
    git(outer, "init", "-q")
    git(outer, "commit", "-q", "--allow-empty", "-m", "outer")
    inner = package_copy(outer / "vendor" / "auth-emulator")
    assert written_commit(inner) == "unknown"
    # No git on PATH at all (the other tools the script uses are there).
    tools = tmp_path / "tools"
    tools.mkdir()
    for tool in ("cat", "cmp", "dirname", "mkdir", "mv", "rm"):
        (tools / tool).symlink_to(shutil.which(tool))
    assert written_commit(package, PATH=str(tools)) == "unknown"
