"""Fixtures for the ports of firebase-tools' own Auth Emulator spec cases (tag v15.28.1,
`src/emulator/auth/*.spec.ts`), one test file per spec file.

Upstream runs every case against brand-new emulator state for project `example` with fake timers;
here every case gets a fresh binary (`--project example`, in memory, ready in milliseconds) and the
emulator clock API stands in for the timers (`api.tick`).
"""

import pytest

from conftest import start_emulator, stop_emulator
from upstream.upstream_support import PROJECT_ID, AuthApi, BlockingFunctionServer


@pytest.fixture
def api():
    running = start_emulator(project_id=PROJECT_ID)
    client = AuthApi(running.host)
    try:
        yield client
    finally:
        client.close()
        stop_emulator(running)


@pytest.fixture
def client(api):
    """Overrides the suite-wide autouse `client` (which clears the shared emulator): these cases
    never touch the shared emulator, and each already has a fresh one."""
    return api


@pytest.fixture
def blocking_functions():
    """A local HTTP server standing in for upstream's nock mocks of a blocking function."""
    server = BlockingFunctionServer()
    try:
        yield server
    finally:
        server.close()
