"""The pytest plugin (entry point `pytest11`: loaded once the package is installed).

`auth_emulator` is one emulator for the test session: the binary started on a free port, or the
one `FIREBASE_AUTH_EMULATOR_HOST` names. The Admin SDKs' variables point at it for the session.
Every test that uses it, directly or through `outbox`, `users`, `apple`, `providers`, `clock` or
`auth_client`, starts on a fresh emulator: the kit resets it in that test's setup, so a failed
reset fails that test. Tests that never ask for it are left alone.
"""

from __future__ import annotations

import os
import shlex
from typing import Iterator, Optional

import pytest

from .client import Client
from .clock import Clock
from .emulator import DEFAULT_PROJECT, HOST_VARIABLE, Emulator
from .errors import KitError
from .outbox import Outbox
from .providers import Apple, Providers
from .users import Users

RESETS = ("all", "project", "none")
RESET_MODE = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("auth-emulator")
    group.addoption("--auth-emulator-bin", help="the auth-emulator binary to start (default: $AUTH_EMULATOR_BIN, "
                                                "else auth-emulator on PATH)")
    group.addoption("--auth-emulator-host", help=f"use the emulator running at HOST:PORT instead of starting one "
                                                 f"(default: ${HOST_VARIABLE}, when set)")
    group.addoption("--auth-emulator-project", help=f"the project id (default: {DEFAULT_PROJECT}; attached, "
                                                    f"$GCLOUD_PROJECT when set)")
    group.addoption("--auth-emulator-args", help="extra flags for the binary, e.g. '--idp-tokens strict'")
    group.addoption("--auth-emulator-reset", choices=RESETS,
                    help="before each test that uses the emulator: reset all of it (default when the kit "
                         "started it), only the project (default when attached), or nothing")
    parser.addini("auth_emulator_bin", "the auth-emulator binary to start")
    parser.addini("auth_emulator_project", "the project id")
    parser.addini("auth_emulator_args", "extra flags for the binary")
    parser.addini("auth_emulator_reset", "all, project or none")


def _setting(config: pytest.Config, name: str) -> Optional[str]:
    value = config.getoption(f"--auth-emulator-{name}") or config.getini(f"auth_emulator_{name}")
    return value or None


@pytest.fixture(scope="session")
def auth_emulator(pytestconfig: pytest.Config) -> Iterator[Emulator]:
    """The session's emulator, with `FIREBASE_AUTH_EMULATOR_HOST`, `GCLOUD_PROJECT` and
    `GOOGLE_CLOUD_PROJECT` set for the code under test while the session runs."""
    project = _setting(pytestconfig, "project")
    host = pytestconfig.getoption("--auth-emulator-host") or os.environ.get(HOST_VARIABLE)
    try:
        if host:
            emulator = Emulator.attach(host, project_id=project)
        else:
            emulator = Emulator.start(_setting(pytestconfig, "bin"), project_id=project or DEFAULT_PROJECT,
                                      args=shlex.split(_setting(pytestconfig, "args") or ""))
    except KitError as error:
        pytest.fail(f"auth-emulator: {error}", pytrace=False)
    reset = _setting(pytestconfig, "reset") or ("all" if emulator.process else "project")
    if reset not in RESETS:
        emulator.stop()
        pytest.fail(f"auth_emulator_reset is {reset!r}: use one of {', '.join(RESETS)}", pytrace=False)
    if reset != "none" and emulator.process is None and os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.fail(f"auth-emulator: xdist workers share the emulator at {host}, and each would reset the others' "
                    f"state before its tests; let each worker start its own (unset {HOST_VARIABLE}) or pass "
                    f"--auth-emulator-reset none", pytrace=False)
    pytestconfig.stash[RESET_MODE] = reset
    saved = {name: os.environ.get(name) for name in emulator.environment()}
    os.environ.update(emulator.environment())
    try:
        yield emulator
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        # One that died already failed the test that next needed it; one that we stop must exit 0.
        was_running = emulator.process is not None and emulator.process.running
        status = emulator.stop()
        if was_running and status != 0:
            assert emulator.process is not None
            pytest.fail(f"auth-emulator exited with status {status} when stopped\n{emulator.process.output()}",
                        pytrace=False)


@pytest.fixture(autouse=True)
def _auth_emulator_fresh(request: pytest.FixtureRequest) -> None:
    """Resets the emulator before each test that uses it (and only those)."""
    if "auth_emulator" not in request.fixturenames:
        return
    emulator: Emulator = request.getfixturevalue("auth_emulator")
    if emulator.process is not None and not emulator.process.running:
        pytest.fail(f"auth-emulator exited during the session (status {emulator.process.process.returncode})\n"
                    f"{emulator.process.output()}", pytrace=False)
    mode = request.config.stash.get(RESET_MODE, "all")
    try:
        if mode == "all":
            emulator.reset()
        elif mode == "project":
            emulator.default.reset()
    except KitError as error:
        pytest.fail(f"auth-emulator: the reset before this test failed: {error}", pytrace=False)


@pytest.fixture
def outbox(auth_emulator: Emulator) -> Outbox:
    """The default project's outbox (emails and SMS), empty at the start of the test."""
    return auth_emulator.outbox


@pytest.fixture
def users(auth_emulator: Emulator) -> Users:
    """Seed and look up the default project's users."""
    return auth_emulator.users


@pytest.fixture
def providers(auth_emulator: Emulator) -> Providers:
    return auth_emulator.providers


@pytest.fixture
def apple(auth_emulator: Emulator) -> Apple:
    """The fake Sign in with Apple: mint, relay addresses, revocations."""
    return auth_emulator.apple


@pytest.fixture
def auth_client(auth_emulator: Emulator) -> Client:
    """The client REST API as an app calls it (sign-ins, email links, second factors)."""
    return auth_emulator.client


@pytest.fixture
def clock(auth_emulator: Emulator) -> Iterator[Clock]:
    """The emulator clock, back at real time when the test ends."""
    with auth_emulator.clock.moved() as moved:
        yield moved

