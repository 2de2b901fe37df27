"""Running the `auth-emulator` binary: find it, start it on a free port, wait for its banner, stop it."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, NoReturn, Optional, Sequence

from .errors import StartError

DEFAULT_START_TIMEOUT = 15.0
DEFAULT_STOP_TIMEOUT = 10.0

LISTENING = re.compile(r"^auth-emulator (\S+) listening on http://(\S+) for project (\S+) ")
EXPORT = re.compile(r"^export FIREBASE_AUTH_EMULATOR_HOST=(\S+)$")
SMTP = re.compile(r"^\s+smtp\s+(\S+):(\d+) ")
# The banner's line after the smtp line (when there is one): the banner has been read up to here.
BANNER_END = re.compile(r"^\s+provider tokens ")
# What the binary says when it cannot take the port asked for (taken, and by whom); not SMTP's.
PORT_TAKEN = re.compile(r"could not listen on \S+: ")


def find_binary(explicit: Optional[str] = None) -> str:
    """`explicit`, else `$AUTH_EMULATOR_BIN`, else `auth-emulator` on `PATH`."""
    candidate = explicit or os.environ.get("AUTH_EMULATOR_BIN")
    if candidate:
        path = Path(candidate).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise StartError(f"auth-emulator binary not found or not executable: {path}")
        return str(path.resolve())
    found = shutil.which("auth-emulator")
    if not found:
        raise StartError("auth-emulator is not on PATH: install it, or set AUTH_EMULATOR_BIN "
                         "(pytest: --auth-emulator-bin) to the binary")
    return found


class EmulatorProcess:
    """One running binary. `host` is the `host:port` its banner exported."""

    def __init__(self, binary: str, arguments: list[str], process: subprocess.Popen[bytes], stderr: IO[bytes]):
        self.binary = binary
        self.arguments = arguments
        self.process = process
        self._stderr = stderr
        self.stdout_lines: list[str] = []
        self.host = ""
        self.project_id = ""
        self.version = ""
        self.smtp: Optional[tuple[str, int]] = None

    @classmethod
    def start(cls, binary: Optional[str] = None, *, project_id: str, port: Optional[int] = None,
              arguments: Sequence[str] = (), timeout: float = DEFAULT_START_TIMEOUT,
              log_level: str = "warn") -> "EmulatorProcess":
        """Starts the binary and returns once it is ready. With `port` given and taken, it starts
        again on a free port instead (port 0: the binary picks one)."""
        path = find_binary(binary)
        try:
            return cls._start(path, project_id, port or 0, arguments, timeout, log_level)
        except StartError as error:
            if port and PORT_TAKEN.search(str(error)):
                return cls._start(path, project_id, 0, arguments, timeout, log_level)
            raise

    @classmethod
    def _start(cls, binary: str, project_id: str, port: int, extra: Sequence[str], timeout: float,
               log_level: str) -> "EmulatorProcess":
        arguments = [binary, "--port", str(port), "--project", project_id, "--log-level", log_level, *extra]
        stderr = tempfile.TemporaryFile()
        try:
            process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr)
        except OSError as error:
            raise StartError(f"could not run {binary}: {error}") from None
        running = cls(binary, arguments, process, stderr)
        running._wait_for_banner(timeout)
        return running

    def _wait_for_banner(self, timeout: float) -> None:
        lines: "queue.Queue[Optional[str]]" = queue.Queue()

        def pump() -> None:  # keeps reading, so the binary never blocks on a full pipe
            assert self.process.stdout is not None
            for raw in self.process.stdout:
                line = raw.decode("utf-8", "replace")
                self.stdout_lines.append(line)
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, name="auth-emulator-stdout", daemon=True).start()
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if self.host:  # ready; only the banner's optional lines are missing
                    return
                self._fail(f"printed no `export FIREBASE_AUTH_EMULATOR_HOST=…` line within {timeout:g} s")
            try:
                line = lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                if self.host:
                    return
                self._fail("exited before it was ready")
            if match := LISTENING.match(line):
                self.version, self.project_id = match.group(1), match.group(3)
            elif match := EXPORT.match(line.strip()):
                self.host = match.group(1)
            elif match := SMTP.match(line):
                self.smtp = (match.group(1), int(match.group(2)))
            elif self.host and BANNER_END.match(line):
                return

    def _fail(self, why: str) -> NoReturn:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        raise StartError(f"{' '.join(self.arguments)} {why} (exit status {self.process.returncode})\n"
                         f"{self.output()}")

    def output(self) -> str:
        """What the binary printed so far: its stdout, then the end of its stderr."""
        self._stderr.flush()
        self._stderr.seek(0)
        stderr = self._stderr.read().decode("utf-8", "replace")
        return f"--- stdout ---\n{''.join(self.stdout_lines)}--- stderr ---\n{stderr[-20000:]}"

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = DEFAULT_STOP_TIMEOUT) -> int:
        """SIGTERM, then SIGKILL if it has not exited within `timeout`; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode
