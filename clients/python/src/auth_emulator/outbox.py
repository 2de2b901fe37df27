"""A project's outbox: every email and SMS the emulator would send, and the app's own SMTP mail."""

from __future__ import annotations

import math
import time
import urllib.parse
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Optional, Union

from ._http import Transport
from ._time import parse_time
from .errors import EmulatorError, WaitTimeout

MAX_WAIT_SECONDS = 60  # the route's own limit for one long poll
DEFAULT_WAIT = 10.0


@dataclass
class Delivery:
    """What happened to a message: `delivered`, `relayed` (to `forwarded_to`) or `bounced` (`reason`)."""

    status: str
    forwarded_to: Optional[str] = None
    reason: Optional[str] = None


@dataclass
class Message:
    """One outbox message. `link` is the emulator's action link (`oobLink`), `app_link` the link a
    mobile app receives (with `canHandleCodeInApp`), `mode` the link's mode (`signIn`,
    `resetPassword`, `verifyEmail`, `verifyAndChangeEmail`, `recoverEmail`), `code` the email
    action code or the SMS code."""

    id: str
    project_id: str
    tenant_id: Optional[str]
    sender: str
    to: str
    subject: str
    text: str
    html: str
    request_type: Optional[str]
    code: Optional[str]
    link: Optional[str]
    app_link: Optional[str]
    continue_url: Optional[str]
    created_at: datetime
    delivery: Delivery
    source: str = "auth"
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def mode(self) -> Optional[str]:
        if not self.link:
            return None
        return urllib.parse.parse_qs(urllib.parse.urlsplit(self.link).query).get("mode", [None])[0]

    @property
    def attachments(self) -> list[dict[str, Any]]:
        """The app's SMTP mail: `[{"filename", "contentType", "size", ...}]`."""
        return list(self.raw.get("attachments") or [])

    def summary(self) -> str:
        what = self.request_type or self.source
        delivery = self.delivery.status
        if self.delivery.forwarded_to:
            delivery += f" to {self.delivery.forwarded_to}"
        if self.delivery.reason:
            delivery += f": {self.delivery.reason}"
        return f"#{self.id} {what} to {self.to}, {self.subject!r}, {delivery}"


def message_of(raw: dict[str, Any]) -> Message:
    delivery = raw.get("delivery") or {}
    return Message(
        id=raw["id"], project_id=raw.get("projectId", ""), tenant_id=raw.get("tenantId"), sender=raw.get("from", ""),
        to=raw["to"], subject=raw.get("subject", ""), text=raw.get("text", ""), html=raw.get("html", ""),
        request_type=raw.get("requestType"), code=raw.get("oobCode"), link=raw.get("oobLink"),
        app_link=raw.get("appLink"), continue_url=raw.get("continueUrl"), created_at=parse_time(raw["createdAt"]),
        delivery=Delivery(delivery.get("status", ""), delivery.get("forwardedTo"), delivery.get("reason")),
        source=raw.get("source", "auth"), raw=raw)


@dataclass
class RelaySettings:
    """A project's side of Apple's private relay: the senders registered for it, the domains whose
    SPF fails, and how many relayed messages an address takes a day."""

    registered_senders: list[str]
    spf_failing_domains: list[str]
    daily_limit: int


class Outbox:
    """`/emulator/v1/projects/{p}/messages` (one tenant's messages when `tenant_id` is given)."""

    def __init__(self, transport: Transport, project_id: str, tenant_id: Optional[str] = None) -> None:
        self._transport = transport
        self.project_id = project_id
        self.tenant_id = tenant_id
        self._path = f"/emulator/v1/projects/{project_id}/messages"

    def _filters(self, filters: dict[str, Any]) -> dict[str, Any]:
        query = {"tenantId": self.tenant_id, **filters}
        if isinstance(query.get("since"), Message):
            query["since"] = query["since"].id
        return {name: value for name, value in query.items() if value is not None}

    def messages(self, to: Optional[str] = None, **filters: Any) -> list[Message]:
        """Newest first. Filters: `requestType`, `since` (a message or id), `limit`, `status`,
        `forwardedTo`, `subject`, `q` (the route's names)."""
        answer = self._transport.call("GET", self._path, query=self._filters({"to": to, **filters}))
        return [message_of(raw) for raw in answer["messages"]]

    def latest(self, to: Optional[str] = None, **filters: Any) -> Optional[Message]:
        """The newest matching message that was not bounced (unless `status` asks), or None."""
        try:
            raw = self._transport.call("GET", f"{self._path}/latest", query=self._filters({"to": to, **filters}))
        except EmulatorError as error:
            if error.code == "MESSAGE_NOT_FOUND":
                return None
            raise
        return message_of(raw)

    def get(self, message_id: str) -> Message:
        return message_of(self._transport.call("GET", f"{self._path}/{urllib.parse.quote(message_id)}"))

    def wait_for(self, to: Optional[str] = None, *, timeout: float = DEFAULT_WAIT,
                 after: Union[Message, str, None] = None, **filters: Any) -> Message:
        """The newest message to `to` (and `filters`), waiting up to `timeout` seconds for one to be
        stored; with `after`, only a message newer than that one. Bounced mail does not count (the
        user never got it) unless `status` asks for it. On time-out, raises `WaitTimeout` naming
        what it waited for and what the outbox holds instead."""
        query = self._filters({"to": to, "since": after, **filters})
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            wait = max(0, min(MAX_WAIT_SECONDS, math.ceil(remaining)))
            found = self._transport.call("GET", self._path, query={**query, "limit": 1, "waitSeconds": wait},
                                         timeout=wait + 10)["messages"]
            if found:
                return message_of(found[0])
            # A wait also ends early, empty, when the project is reset; wait on until the deadline.
            if time.monotonic() >= deadline:
                raise WaitTimeout(self._nothing_came(to, query, timeout))

    def wait_for_sms(self, phone: str, request_type: Optional[str] = None, *, timeout: float = DEFAULT_WAIT,
                     after: Union[Message, str, None] = None) -> Message:
        """The newest SMS to `phone` (`PHONE_SIGN_IN`, `MFA_ENROLLMENT`, `MFA_SIGN_IN`); its `code`."""
        return self.wait_for(phone, timeout=timeout, after=after, requestType=request_type)

    def _nothing_came(self, to: Optional[str], query: dict[str, Any], timeout: float) -> str:
        wanted = ", ".join(f"newer than #{value}" if name == "since" else f"{name}={value}"
                           for name, value in query.items() if name != "to")
        waited = f"a message to {to}" if to else "a message"
        lines = [f"waited {timeout:g} s for {waited}" + (f" ({wanted})" if wanted else "")
                 + f" in project {self.project_id}'s outbox; none came."]
        if to:
            bounced = self.messages(to, status="bounced", limit=5)
            if bounced:
                lines.append(f"Bounced mail to {to} (the user never got it):")
                lines.extend(f"  {message.summary()}" for message in bounced)
        recent = self.messages(limit=10)
        if recent:
            lines.append(f"The outbox's newest {len(recent)} message(s):")
            lines.extend(f"  {message.summary()}" for message in recent)
        else:
            lines.append("The outbox is empty.")
        return "\n".join(lines)

    def clear(self) -> None:
        """Empties the project's outbox (every tenant's too)."""
        self._transport.call("DELETE", self._path)

    # Apple's private relay, as this project meets it ----------------------------------------------

    def relay_settings(self) -> RelaySettings:
        return _relay(self._transport.call("GET", f"/emulator/v1/projects/{self.project_id}/privateRelay"))

    def set_relay_settings(self, *, registered_senders: Optional[list[str]] = None,
                           spf_failing_domains: Optional[list[str]] = None,
                           daily_limit: Optional[int] = None) -> RelaySettings:
        """Changes what is given and keeps the rest. Senders are addresses or `@domain` entries."""
        body = {"registeredSenders": registered_senders, "spfFailingDomains": spf_failing_domains,
                "dailyLimit": daily_limit}
        return _relay(self._transport.call("PATCH", f"/emulator/v1/projects/{self.project_id}/privateRelay",
                                           {name: value for name, value in body.items() if value is not None}))


def _relay(answer: dict[str, Any]) -> RelaySettings:
    return RelaySettings(list(answer["registeredSenders"]), list(answer.get("spfFailingDomains", [])),
                         int(answer.get("dailyLimit", 0)))
