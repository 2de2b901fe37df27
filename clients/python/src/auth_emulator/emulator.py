"""One emulator (started here or already running) and the projects and tenants on it."""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence

from ._http import DEFAULT_TIMEOUT, OWNER, Transport
from ._version import __version__
from .client import DEFAULT_API_KEY, Client
from .clock import Clock
from .errors import EmulatorError, KitError, Unreachable, VersionError
from .outbox import Outbox
from .process import DEFAULT_START_TIMEOUT, EmulatorProcess
from .providers import Providers
from .users import Users

DEFAULT_PROJECT = "demo-project"
HOST_VARIABLE = "FIREBASE_AUTH_EMULATOR_HOST"
# What the Admin SDKs (and Google client libraries) read the project id from.
PROJECT_VARIABLES = ("GCLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT")


class Project:
    """A project (or one tenant of it) on an emulator: its users, outbox, client calls and reset."""

    def __init__(self, emulator: "Emulator", project_id: str, tenant_id: Optional[str] = None) -> None:
        self.emulator = emulator
        self.project_id = project_id
        self.tenant_id = tenant_id
        transport = emulator.transport
        self.users = Users(transport, project_id, tenant_id)
        self.outbox = Outbox(transport, project_id, tenant_id)
        # API keys reach the emulator's default project only; a tenant's calls carry its id.
        self.client = Client(transport, emulator.clock, api_key=emulator.api_key, tenant_id=tenant_id)

    def tenant(self, tenant_id: str) -> "Project":
        """The tenant `tenant_id` of this project (created with defaults on first use, as the
        official emulator does)."""
        self.emulator.transport.call(
            "GET", f"/identitytoolkit.googleapis.com/v2/projects/{self.project_id}/tenants/{tenant_id}",
            headers=OWNER)
        return Project(self.emulator, self.project_id, tenant_id)

    def reset(self) -> None:
        """`POST /emulator/v1/projects/{p}:reset`: a fresh project (accounts of it and its tenants,
        tenants, codes, outbox, relay settings, config, provider configs). The clock stays."""
        if self.tenant_id:
            raise KitError("a tenant has no reset of its own: reset its project, or users.clear() its accounts")
        self.emulator.transport.call("POST", f"/emulator/v1/projects/{self.project_id}:reset")


class Emulator:
    """A running auth-emulator. `Emulator.start()` runs the binary for you; `Emulator.attach()` uses
    one that is already running. The default project's users, outbox and client calls are here
    directly (`emulator.users`, ...); other projects through `emulator.project(id)`."""

    def __init__(self, host: str, project_id: str = DEFAULT_PROJECT, *, process: Optional[EmulatorProcess] = None,
                 api_key: str = DEFAULT_API_KEY, timeout: float = DEFAULT_TIMEOUT, check_version: bool = True) -> None:
        self.host = host
        self.base_url = f"http://{host}"
        self.project_id = project_id
        self.api_key = api_key
        self.process = process
        self.transport = Transport(self.base_url, timeout)
        self.clock = Clock(self.transport)
        self.providers = Providers(self.transport)
        self.apple = self.providers.apple
        self.default = Project(self, project_id)
        self.users, self.outbox, self.client = self.default.users, self.default.outbox, self.default.client
        self.version, self.commit = "", ""
        if check_version:
            self.check_version()

    # Lifecycle --------------------------------------------------------------------------------

    @classmethod
    def start(cls, binary: Optional[str] = None, *, project_id: str = DEFAULT_PROJECT, port: Optional[int] = None,
              args: Sequence[str] = (), timeout: float = DEFAULT_START_TIMEOUT, **options: Any) -> "Emulator":
        """Starts the binary (`binary`, else `$AUTH_EMULATOR_BIN`, else `auth-emulator` on PATH) on
        a free port (or `port`, if it is free) with `args` as extra flags, and waits until it is ready."""
        process = EmulatorProcess.start(binary, project_id=project_id, port=port, arguments=args, timeout=timeout)
        try:
            return cls(process.host, process.project_id or project_id, process=process, **options)
        except BaseException:
            process.stop()
            raise

    @classmethod
    def attach(cls, host: Optional[str] = None, *, project_id: Optional[str] = None, **options: Any) -> "Emulator":
        """An emulator already running at `host` (default `$FIREBASE_AUTH_EMULATOR_HOST`), for
        `project_id` (default `$GCLOUD_PROJECT`, else demo-project)."""
        host = host or os.environ.get(HOST_VARIABLE)
        if not host:
            raise KitError(f"attach: no host given and {HOST_VARIABLE} is not set")
        project = project_id or next((os.environ[name] for name in PROJECT_VARIABLES if os.environ.get(name)),
                                     DEFAULT_PROJECT)
        return cls(host.removeprefix("http://").rstrip("/"), project, **options)

    @property
    def smtp(self) -> Optional[tuple[str, int]]:
        """(host, port) of the SMTP listener for the app's own mail, when the kit started the binary
        with `--smtp-port` (0 picks a free port)."""
        return self.process.smtp if self.process else None

    def stop(self) -> Optional[int]:
        """Stops the binary if the kit started it (answers its exit status); an attached one keeps running."""
        if self.process is None:
            return None
        return self.process.stop()

    def __enter__(self) -> "Emulator":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    def check_version(self) -> None:
        """Reads `GET /`'s version and refuses an emulator older than the kit."""
        try:
            status = self.transport.call("GET", "/").get("authEmulator", {})
        except (EmulatorError, Unreachable) as error:
            raise KitError(f"{self.base_url} does not answer as an auth-emulator: {error}") from None
        self.version, self.commit = status.get("version", ""), status.get("commit", "")
        if not self.version:
            raise VersionError(f"the emulator at {self.base_url} reports no version, so it is older than this kit "
                               f"({__version__}): update auth-emulator to {__version__} or newer")
        if _version_tuple(self.version) < _version_tuple(__version__):
            raise VersionError(f"the emulator at {self.base_url} is {self.version}, older than this kit "
                               f"({__version__}): update auth-emulator to {__version__} or newer")

    def environment(self) -> dict[str, str]:
        """The variables that point Admin SDKs and client SDKs at this emulator and project."""
        return {HOST_VARIABLE: self.host, **{name: self.project_id for name in PROJECT_VARIABLES}}

    # Projects and resets ----------------------------------------------------------------------

    def project(self, project_id: Optional[str] = None) -> Project:
        """Another project on this emulator (emulator-only and admin routes reach any project;
        API-key client calls reach only the default one)."""
        return Project(self, project_id or self.project_id)

    def tenant(self, tenant_id: str) -> Project:
        """A tenant of the default project."""
        return self.default.tenant(tenant_id)

    def reset(self) -> None:
        """`POST /emulator/v1/reset`: every project back to a fresh start, and the clock to real time.
        Fake-provider keys and accounts stay."""
        self.transport.call("POST", "/emulator/v1/reset")

    def reset_project(self, project_id: Optional[str] = None) -> None:
        self.project(project_id).reset()


def _version_tuple(version: str) -> tuple[int, ...]:
    numbers = []
    for part in version.split("-")[0].split("."):
        numbers.append(int(part) if part.isdigit() else 0)
    return tuple(numbers)
