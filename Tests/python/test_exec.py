"""`auth-emulator exec [options] [--] CMD…` with real processes: CMD's environment, its exit status
passed through, signals passed on to it (and to what it started), the emulator stopped and
exported afterwards, and a failed start that never runs CMD."""

import json
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import textwrap

from conftest import binary_path

TIMEOUT = 60
# The child's Python: the project's virtual environment, with firebase-admin and requests.
PYTHON = sys.executable


def exec_emulator(*arguments, **options):
    """Runs `auth-emulator exec …` to its end: (status, stdout, stderr)."""
    result = subprocess.run([str(binary_path()), "exec", *arguments], capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=TIMEOUT, **options)
    return result.returncode, result.stdout, result.stderr


def script(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_the_command_gets_the_emulator_and_its_project_in_its_environment(tmp_path):
    child = script(tmp_path, "child.py", """
        import json, os, requests
        import firebase_admin
        from firebase_admin import auth, credentials
        import google.auth.credentials

        class NoCredential(credentials.Base):  # the project comes from the environment, as in CI
            def get_credential(self):
                return google.auth.credentials.AnonymousCredentials()

        names = ["FIREBASE_AUTH_EMULATOR_HOST", "GCLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT", "FIREBASE_PROJECT_ID",
                 "FIREBASE_CONFIG", "FIREBASE_AUTH_EMULATOR_SMTP", "KEPT"]
        status = requests.get(f"http://{os.environ['FIREBASE_AUTH_EMULATOR_HOST']}/", timeout=10).json()
        firebase_admin.initialize_app(NoCredential())
        user = auth.create_user(email="exec@example.com")
        print(json.dumps({"environment": {name: os.environ.get(name) for name in names}, "status": status,
                          "uid": user.uid, "listed": [u.uid for u in auth.list_users().iterate_all()]}))
        """)
    status, stdout, stderr = exec_emulator("--project", "demo-exec", "--smtp-port", "0", PYTHON, child,
                                           env={**os.environ, "KEPT": "yes", "GOOGLE_CLOUD_PROJECT": "prod-app"})
    assert status == 0, stderr
    seen = json.loads(stdout)  # the banner went to stderr: stdout is the command's alone
    environment = seen["environment"]
    host = re.search(r"^export FIREBASE_AUTH_EMULATOR_HOST=(\S+)$", stderr, re.M).group(1)
    smtp = re.search(r"^  smtp +(\S+) ", stderr, re.M).group(1)
    assert environment["FIREBASE_AUTH_EMULATOR_HOST"] == host
    assert environment["FIREBASE_AUTH_EMULATOR_SMTP"] == smtp
    assert environment["GCLOUD_PROJECT"] == environment["FIREBASE_PROJECT_ID"] == "demo-exec"
    assert environment["GOOGLE_CLOUD_PROJECT"] == "demo-exec"  # the shell's own would point the Admin SDK elsewhere
    assert json.loads(environment["FIREBASE_CONFIG"]) == {
        "projectId": "demo-exec", "storageBucket": "demo-exec.appspot.com", "databaseURL": "https://demo-exec.firebaseio.com"}
    assert environment["KEPT"] == "yes"
    assert seen["status"]["authEmulator"]["ready"] is True
    # The Admin SDK, configured by nothing but that environment, reached the emulator's project.
    assert seen["listed"] == [seen["uid"]]
    assert "listening on http://127.0.0.1:" in stderr and "for project demo-exec " in stderr


def test_a_single_word_runs_through_the_shell_and_several_run_as_they_are(tmp_path):
    status, stdout, _ = exec_emulator("--", 'echo "$GCLOUD_PROJECT" && echo two')
    assert (status, stdout) == (0, "demo-project\ntwo\n")
    status, stdout, _ = exec_emulator("--", "echo", "$GCLOUD_PROJECT", "&&")
    assert (status, stdout) == (0, "$GCLOUD_PROJECT &&\n")


def test_the_status_is_the_commands(tmp_path):
    for command, expected in [("exit 0", 0), ("exit 3", 3), ("kill -KILL $$", 128 + signal.SIGKILL),
                              ("kill -TERM $$", 128 + signal.SIGTERM)]:
        status, _, stderr = exec_emulator(command)
        assert status == expected, (command, stderr)
    status, _, stderr = exec_emulator(PYTHON, "-c", "import sys; sys.exit(5)")
    assert status == 5
    assert f"exited with status 5" in stderr
    status, _, stderr = exec_emulator("no-such-command-anywhere", "--flag")
    assert status == 127
    assert "cannot run no-such-command-anywhere: No such file or directory" in stderr


WAITS_FOR_SIGTERM = """
    import signal, sys
    def stop(number, frame):
        print("got", signal.Signals(number).name, flush=True)
        sys.exit(7)
    signal.signal(signal.SIGTERM, stop)
    print("ready", flush=True)
    while True:
        signal.pause()
    """


def start_exec(*arguments):
    return subprocess.Popen([str(binary_path()), "exec", *arguments], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_sigterm_reaches_the_command_then_the_emulator_stops_and_exports(tmp_path):
    child = script(tmp_path, "child.py", WAITS_FOR_SIGTERM)
    export = tmp_path / "export"
    process = start_exec("--export-on-exit", str(export), PYTHON, child)
    try:
        assert process.stdout.readline() == "ready\n"  # its handler is installed
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=TIMEOUT)
    finally:
        process.kill()
    assert process.returncode == 7, stderr
    assert stdout == "got SIGTERM\n"
    assert (export / "firebase-export-metadata.json").is_file()


def test_a_signal_reaches_what_a_shell_script_started(tmp_path):
    # The shell stays between exec and Python (a command follows), so signalling the shell alone
    # would leave Python running; its process group gets the signal.
    child = script(tmp_path, "child.py", WAITS_FOR_SIGTERM)
    process = start_exec(f"{PYTHON} {child}; echo after")
    try:
        assert process.stdout.readline() == "ready\n"
        process.send_signal(signal.SIGTERM)
        # The pipe closes once every process holding it (exec, the shell, Python) has ended.
        stdout, stderr = process.communicate(timeout=TIMEOUT)
    finally:
        process.kill()
    assert stdout == "got SIGTERM\n"
    assert process.returncode == 128 + signal.SIGTERM, stderr  # the shell itself was killed by it


def test_export_on_exit_is_written_when_the_command_ends(tmp_path):
    child = script(tmp_path, "child.py", """
        import os, requests
        host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        answer = requests.post(f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                               json={"email": "kept@example.com", "password": "secret123"}, timeout=10)
        answer.raise_for_status()
        """)
    export = tmp_path / "seed"
    status, _, stderr = exec_emulator("--export-on-exit", str(export), PYTHON, child)
    assert status == 0, stderr
    accounts = json.loads((export / "auth_export" / "accounts.json").read_text())
    assert [user["email"] for user in accounts["users"]] == ["kept@example.com"]


def test_a_failed_start_never_runs_the_command(tmp_path):
    marker = tmp_path / "ran"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, _, stderr = exec_emulator("--port", str(port), "touch", str(marker))
    assert status == 1
    assert f"could not listen on 127.0.0.1:{port}" in stderr
    status, _, stderr = exec_emulator("--data", str(tmp_path / "no" / "such" / "dir" / "auth.sqlite"), "touch", str(marker))
    assert status == 1, stderr
    assert "auth-emulator:" in stderr
    status, _, stderr = exec_emulator("--port", "abc", "touch", str(marker))
    assert status == 2 and "--port must be a port number" in stderr
    assert not marker.exists()


def test_the_command_inherits_none_of_the_emulators_descriptors(tmp_path):
    # A listening socket or pipe left open in the command (and in what it starts) would hold the
    # port after the emulator stopped.
    child = script(tmp_path, "child.py", """
        import os
        for fd in sorted(os.listdir("/proc/self/fd"), key=int):
            try:
                print(fd, os.readlink(f"/proc/self/fd/{fd}"))
            except OSError:
                pass  # the descriptor this listing itself used, closed by now
        """)
    status, stdout, stderr = exec_emulator("--data", str(tmp_path / "auth.sqlite"), "--smtp-port", "0", PYTHON, child)
    assert status == 0, stderr
    descriptors = dict(line.split(" ", 1) for line in stdout.splitlines())
    extra = {fd: target for fd, target in descriptors.items() if fd not in ("0", "1", "2")}
    assert all(re.fullmatch(r"/proc/\d+/fd", target) for target in extra.values()), extra


def test_signals_ignored_by_whatever_started_exec_are_back_to_their_defaults_in_the_command(tmp_path):
    # A CI runner, a test worker or nohup may start exec with SIGINT and SIGHUP ignored, and an
    # ignored signal stays ignored across exec(2): the command must get the defaults, as Node's
    # spawn (firebase emulators:exec) gives, or Ctrl-C and the signals exec passes on do nothing.
    child = script(tmp_path, "child.py", """
        import json, signal
        print(json.dumps({name: signal.getsignal(getattr(signal, name)) == signal.SIG_IGN
                          for name in ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]}))
        """)

    def ignore_them():
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(number, signal.SIG_IGN)

    status, stdout, stderr = exec_emulator(PYTHON, child, preexec_fn=ignore_them)
    assert status == 0, stderr
    assert json.loads(stdout) == {"SIGINT": False, "SIGTERM": False, "SIGHUP": False, "SIGQUIT": False}


def test_in_a_terminal_the_command_reads_the_keyboard_and_ctrl_c_reaches_it(tmp_path):
    # exec in the foreground of a terminal (a pty here) hands the terminal to the command: it can
    # read a line (in the background it would be stopped by SIGTTIN), Ctrl-C interrupts it, and
    # exec takes the terminal back (without being stopped by SIGTTOU) and exits with its status.
    child = script(tmp_path, "child.py", """
        import signal, sys
        name = input("name? ")
        try:  # from the greeting on: the test sends Ctrl-C as soon as it has read it
            print(f"hello {name}", flush=True)
            while True:
                signal.pause()
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(9)
        """)
    binary = str(binary_path())
    pid, terminal = pty.fork()
    if pid == 0:  # the pty is this process's controlling terminal, and it holds its foreground
        os.execv(binary, [binary, "exec", PYTHON, child])
    output = b""

    def read_until(marker):
        nonlocal output
        while marker not in output:
            ready, _, _ = select.select([terminal], [], [], TIMEOUT)
            assert ready, f"no {marker!r} within {TIMEOUT} s: {output!r}"
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # EIO: every process holding the terminal has closed it
                chunk = b""
            assert chunk, f"the terminal closed before {marker!r}: {output!r}"
            output += chunk

    try:
        read_until(b"name? ")
        os.write(terminal, b"ada\n")
        read_until(b"hello ada")
        os.write(terminal, b"\x03")  # Ctrl-C, as the terminal's line discipline turns it into SIGINT
        read_until(b"interrupted")
        _, status = os.waitpid(pid, 0)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.close(terminal)
    assert os.waitstatus_to_exitcode(status) == 9, output
