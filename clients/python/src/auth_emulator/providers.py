"""The fake identity providers: mint tokens shaped like the real provider's, rotate keys, and read
what the fake Apple keeps (revocations, private relay addresses). Shared by every project."""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Optional, Union

from ._http import Transport
from ._jwt import claims_of
from ._time import parse_time

IDP = "/emulator/v1/idp"


@dataclass
class MintedToken:
    """A token the fake provider minted. `post_body` is the credential exactly as a client SDK
    sends it to `signInWithIdp` (with `&nonce=<raw>` when minted with a nonce, and Apple's
    `&user=…` name item when minted with `full_name`)."""

    provider_id: str
    id_token: str
    access_token: str
    post_body: str
    sub: str
    email: Optional[str]
    real_email: Optional[str] = None
    authorization_code: Optional[str] = None
    nonce: Optional[str] = None
    warnings: list[str] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def claims(self) -> dict[str, Any]:
        """The ID token's payload, decoded without verifying (the emulator verifies it)."""
        return claims_of(self.id_token)


@dataclass
class Revocation:
    """One `accounts:revokeToken`: an authorization code (the Apple SDK's `token_type` "CODE") or
    an access token (the JS SDK's "ACCESS_TOKEN"); the other is None."""
    sub: str
    authorization_code: str | None
    project_id: str
    revoked_at: datetime
    token_type: str = "CODE"
    access_token: str | None = None


@dataclass
class RelayAddress:
    address: str
    forward_to: str
    forwarding: bool


class Provider:
    """One fake provider (`apple.com`, `facebook.com`, `google.com`, `yahoo.com` or any OIDC id)."""

    def __init__(self, transport: Transport, provider_id: str) -> None:
        self._transport = transport
        self.provider_id = provider_id
        self._path = f"{IDP}/{urllib.parse.quote(provider_id, safe='')}"

    def mint(self, email: Optional[str] = None, *, sub: Optional[str] = None,
             email_verified: Optional[bool] = None, name: Optional[str] = None, picture: Optional[str] = None,
             nonce: Optional[str] = None, hashed_nonce: Optional[str] = None, audience: Optional[str] = None,
             expires_in: Union[None, int, timedelta] = None, alg: Optional[str] = None,
             claims: Optional[dict[str, Any]] = None, **extra: Any) -> MintedToken:
        """`POST /emulator/v1/idp/{idp}/tokens`. `nonce` is the raw nonce (the token carries the
        provider's form of it); `claims` are merged into the payload last."""
        if isinstance(expires_in, timedelta):
            expires_in = int(expires_in.total_seconds())
        body = {"email": email, "sub": sub, "emailVerified": email_verified, "name": name, "picture": picture,
                "nonce": nonce, "hashedNonce": hashed_nonce, "audience": audience,
                "expiresInSeconds": expires_in, "alg": alg, "claims": claims, **extra}
        answer = self._transport.call("POST", f"{self._path}/tokens",
                                      {key: value for key, value in body.items() if value is not None})
        return _minted(answer, nonce)

    def rotate_keys(self, alg: Optional[str] = None) -> str:
        """A new signing key (`RS256` by default, or `ES256`); answers its `kid`. Old keys stay in the JWKS."""
        answer = self._transport.call("POST", f"{self._path}/keys:rotate", {"alg": alg} if alg else None)
        return str(answer["kid"])

    def jwks(self) -> dict[str, Any]:
        return self._transport.call("GET", f"{self._path}/jwks")

    def discovery(self) -> dict[str, Any]:
        return self._transport.call("GET", f"{self._path}/.well-known/openid-configuration")


class Apple(Provider):
    """Sign in with Apple: hidden emails behind the private relay, the name given once, revocation."""

    def mint(self, email: Optional[str] = None, *, hide_email: bool = False,
             full_name: Optional[tuple[str, str]] = None, **fields: Any) -> MintedToken:
        """`hide_email`: the token carries a relay address that forwards to `email` (`real_email`).
        `full_name` (first, last): the name the user typed on first authorization, which Apple
        leaves out of the token; the Apple SDK sends it as `user=…` in `postBody`, and so does this."""
        minted = super().mint(email, hideEmail=hide_email or None, **fields)
        if full_name:
            first, last = full_name
            user = json.dumps({"name": {"firstName": first, "lastName": last}}, separators=(",", ":"), sort_keys=True)
            minted.post_body += "&user=" + user
        return minted

    def revocations(self) -> list[Revocation]:
        """The authorization codes and access tokens revoked through `accounts:revokeToken`, oldest first."""
        entries = self._transport.call("GET", f"{self._path}/revocations")["revocations"]
        return [Revocation(entry["sub"], entry.get("authorizationCode"), entry["projectId"],
                           parse_time(entry["revokedAt"]), entry.get("tokenType", "CODE"), entry.get("accessToken"))
                for entry in entries]

    def relay_addresses(self) -> list[RelayAddress]:
        entries = self._transport.call("GET", f"{self._path}/relay")["addresses"]
        return [RelayAddress(entry["address"], entry["forwardTo"], entry["forwarding"]) for entry in entries]

    def relay_address(self, address: str) -> RelayAddress:
        for entry in self.relay_addresses():
            if entry.address == address.lower():
                return entry
        raise KeyError(f"the fake Apple relay never handed out {address}")

    def set_forwarding(self, address: str, forwarding: bool) -> RelayAddress:
        """What the user does in their Apple ID settings: stop (or resume) forwarding to this app."""
        path = f"{self._path}/relay/{urllib.parse.quote(address, safe='@')}"
        entry = self._transport.call("PATCH", path, {"forwarding": forwarding})
        return RelayAddress(entry["address"], entry["forwardTo"], entry["forwarding"])


class Facebook(Provider):
    """Limited Login (the `id_token`, nonce hashed as Apple's) and classic login (`access_token`)."""

    def classic_post_body(self, minted: MintedToken) -> str:
        """The classic-login credential: the opaque access token, resolved by the fake Graph API."""
        return f"providerId=facebook.com&access_token={minted.access_token}"

    def me(self, access_token: str, fields: Optional[list[str]] = None) -> dict[str, Any]:
        """The fake Graph API's `/me`."""
        return self._transport.call("GET", f"{self._path}/me",
                                    query={"access_token": access_token, "fields": fields})


class Providers:
    """All fake providers of one emulator: `apple`, `facebook`, `google`, `yahoo`, `oidc(id)`."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport
        self.apple = Apple(transport, "apple.com")
        self.facebook = Facebook(transport, "facebook.com")
        self.google = Provider(transport, "google.com")
        self.yahoo = Provider(transport, "yahoo.com")

    def oidc(self, provider_id: str) -> Provider:
        """Any other provider id (`oidc.example`, `github.com`, ...) is a generic OIDC provider."""
        named = {"apple.com": self.apple, "facebook.com": self.facebook, "google.com": self.google,
                 "yahoo.com": self.yahoo}
        return named.get(provider_id) or Provider(self._transport, provider_id)

    def game_center(self, player_id: Optional[str] = None, *, team_player_id: Optional[str] = None,
                    game_player_id: Optional[str] = None, display_name: Optional[str] = None,
                    bundle_id: Optional[str] = None, timestamp: Optional[int] = None) -> dict[str, Any]:
        """`POST /emulator/v1/idp/gc.apple.com/tokens`: what the Apple SDK sends to
        `signInWithGameCenter` (`publicKeyUrl`, `signature`, `salt`, `timestamp`, the ids) plus
        `requestBody`, ready to post (`Client.sign_in_with_game_center`)."""
        body = {"playerId": player_id, "teamPlayerId": team_player_id, "gamePlayerId": game_player_id,
                "displayName": display_name, "bundleId": bundle_id, "timestamp": timestamp}
        return self._transport.call("POST", f"{IDP}/gc.apple.com/tokens",
                                    {key: value for key, value in body.items() if value is not None})


def _minted(answer: dict[str, Any], nonce: Optional[str]) -> MintedToken:
    return MintedToken(provider_id=answer["providerId"], id_token=answer["idToken"],
                       access_token=answer.get("accessToken", ""), post_body=answer["postBody"],
                       sub=answer["sub"], email=answer.get("email"), real_email=answer.get("realEmail"),
                       authorization_code=answer.get("authorizationCode"), nonce=nonce,
                       warnings=list(answer.get("warnings", [])), raw=answer)
