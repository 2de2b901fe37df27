"""What the kit raises. Everything derives from `KitError`, so `except KitError` catches the lot."""

from __future__ import annotations

from typing import Any, Optional


class KitError(Exception):
    """Any failure the kit reports: the emulator's own errors and the kit's."""


class EmulatorError(KitError):
    """The emulator refused a request with a Google-style error.

    `code` is the part of the message before ` : ` (`EMAIL_EXISTS`, `INVALID_ARGUMENT`,
    `MISSING_OR_INVALID_NONCE`, ...), `detail` the rest (empty when there is none), `message`
    the whole message and `status` the HTTP status.
    """

    def __init__(self, method: str, url: str, status: int, message: str, body: Any = None,
                 status_name: Optional[str] = None) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.message = message
        self.code, _, self.detail = message.partition(" : ")
        self.status_name = status_name
        self.body = body
        super().__init__(f"{method} {url} answered {status}: {message}")


class Unreachable(KitError):
    """No HTTP answer at all: nothing listens there, or the emulator died."""


class StartError(KitError):
    """The binary could not be found, or did not start; the message carries its stderr."""


class VersionError(KitError):
    """The emulator is older than the kit."""


class WaitTimeout(KitError, TimeoutError):
    """A wait ran out; the message says what was awaited and what was there instead."""


class SeedError(KitError):
    """The import route took the request but refused some of the users (`errors`: index, message)."""

    def __init__(self, errors: list[dict[str, Any]], users: list[dict[str, Any]]) -> None:
        self.errors = errors
        lines = [f"  user {error.get('index')} ({_who(users, error.get('index'))}): {error.get('message')}"
                 for error in errors]
        super().__init__("accounts:batchCreate refused users:\n" + "\n".join(lines))


def _who(users: list[dict[str, Any]], index: Any) -> str:
    if isinstance(index, int) and 0 <= index < len(users):
        user = users[index]
        return str(user.get("email") or user.get("phoneNumber") or user.get("localId"))
    return "?"
