"""Seeding and reading a project's (or tenant's) users through the official admin routes, as the
owner: no Admin SDK needed."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from ._http import OWNER, Transport
from .errors import SeedError

IDENTITY_TOOLKIT = "/identitytoolkit.googleapis.com/v1"


@dataclass
class LinkedProvider:
    """A federated identity to seed on a user: `provider_id` (`google.com`, ...) and its `uid` (rawId)."""

    provider_id: str
    uid: str
    email: Optional[str] = None
    display_name: Optional[str] = None
    photo_url: Optional[str] = None


@dataclass
class User:
    """A user to seed. Every field is optional; `uid` is made up when left out. `phone_factors` are
    SMS second factors (phone numbers; the import route takes no TOTP factors, and needs a verified
    email beside them)."""

    email: Optional[str] = None
    password: Optional[str] = None
    uid: Optional[str] = None
    display_name: Optional[str] = None
    photo_url: Optional[str] = None
    email_verified: Optional[bool] = None
    phone_number: Optional[str] = None
    disabled: Optional[bool] = None
    custom_claims: Optional[dict[str, Any]] = None
    providers: Sequence[LinkedProvider] = ()
    phone_factors: Sequence[str] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def upload(self) -> dict[str, Any]:
        """The user as `accounts:batchCreate` takes it (official names)."""
        body: dict[str, Any] = {
            "localId": self.uid or secrets.token_hex(14), "email": self.email, "rawPassword": self.password,
            "displayName": self.display_name, "photoUrl": self.photo_url, "emailVerified": self.email_verified,
            "phoneNumber": self.phone_number, "disabled": self.disabled,
            "customAttributes": None if self.custom_claims is None else json.dumps(self.custom_claims),
        }
        if self.providers:
            body["providerUserInfo"] = [
                {key: value for key, value in {"providerId": linked.provider_id, "rawId": linked.uid,
                                               "email": linked.email, "displayName": linked.display_name,
                                               "photoUrl": linked.photo_url}.items() if value is not None}
                for linked in self.providers]
        if self.phone_factors:
            body["mfaInfo"] = [{"mfaEnrollmentId": secrets.token_hex(8), "phoneInfo": phone,
                                "displayName": f"phone {index + 1}"} for index, phone in enumerate(self.phone_factors)]
        body.update(self.extra)
        return {key: value for key, value in body.items() if value is not None}


class Users:
    """`projects/{p}[/tenants/{t}]/accounts:*` as the owner."""

    def __init__(self, transport: Transport, project_id: str, tenant_id: Optional[str] = None) -> None:
        self._transport = transport
        self.project_id = project_id
        self.tenant_id = tenant_id
        scope = f"/tenants/{tenant_id}" if tenant_id else ""
        self._path = f"{IDENTITY_TOOLKIT}/projects/{project_id}{scope}/accounts"

    def _admin(self, op: str, body: Any) -> dict[str, Any]:
        return self._transport.call("POST", f"{self._path}:{op}", body, headers=OWNER)

    def _first(self, op: str, body: Any) -> Optional[dict[str, Any]]:
        found = self._admin(op, body).get("users", [])
        return dict(found[0]) if found else None

    def seed(self, *users: User) -> list[str]:
        """Creates all `users` in one `accounts:batchCreate` call; answers their uids in order.
        Raises `SeedError` with each refused user's reason (the others are created, as the route does)."""
        uploads = [user.upload() for user in users]
        answer = self._admin("batchCreate", {"users": uploads})
        if answer.get("error"):
            raise SeedError(answer["error"], uploads)
        return [upload["localId"] for upload in uploads]

    def create(self, email: Optional[str] = None, password: Optional[str] = None, **fields: Any) -> str:
        """One user (`User`'s fields); answers the uid."""
        return self.seed(User(email=email, password=password, **fields))[0]

    def get(self, uid: str) -> Optional[dict[str, Any]]:
        """The account as `accounts:lookup` answers it, or None."""
        return self._first("lookup", {"localId": [uid]})

    def by_email(self, email: str) -> Optional[dict[str, Any]]:
        return self._first("lookup", {"email": [email]})

    def all(self) -> list[dict[str, Any]]:
        return list(self._admin("query", {"returnUserInfo": True}).get("userInfo", []))

    def count(self) -> int:
        return int(self._admin("query", {"returnUserInfo": False})["recordsCount"])

    def clear(self) -> None:
        """Deletes every account of the project (or tenant), and nothing else."""
        self._transport.call("DELETE", f"/emulator/v1/projects/{self.project_id}"
                                       + (f"/tenants/{self.tenant_id}" if self.tenant_id else "") + "/accounts")
