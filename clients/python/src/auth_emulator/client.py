"""What an app's client SDK sends (API-key calls), for tests that need a signed-in user: sign-ins of
every kind, email links and action codes from the outbox, TOTP second factors at the emulator's
time, Apple token revocation, and the headful provider page driven as a browser without
JavaScript would."""

from __future__ import annotations

import hashlib
import html.parser
import secrets
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from ._http import Transport
from ._jwt import claims_of
from .clock import Clock
from .outbox import Message
from .providers import MintedToken
from .totp import totp_code

V1 = "/identitytoolkit.googleapis.com/v1"
V2 = "/identitytoolkit.googleapis.com/v2"
DEFAULT_API_KEY = "fake-api-key"
DEFAULT_CONTINUE_URL = "https://app.example.com/finish"
IOS_APP_ID = "1:1234567890:ios:abcdef"


@dataclass
class SignIn:
    """A sign-in's answer. When the user has second factors, `id_token` is empty and
    `mfa_pending_credential` and `mfa_info` (the factors' hints) are set instead."""

    uid: str
    id_token: str
    refresh_token: str
    email: Optional[str]
    is_new_user: bool
    provider_id: Optional[str]
    display_name: Optional[str]
    mfa_pending_credential: Optional[str] = None
    mfa_info: list[dict[str, Any]] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def needs_second_factor(self) -> bool:
        return bool(self.mfa_pending_credential)


def sign_in_of(answer: dict[str, Any]) -> SignIn:
    # Some answers (a second factor's, an enrollment's) carry only tokens: the token names the user.
    claims = claims_of(answer["idToken"]) if answer.get("idToken") else {}
    return SignIn(uid=answer.get("localId") or claims.get("user_id", ""), id_token=answer.get("idToken", ""),
                  refresh_token=answer.get("refreshToken", ""), email=answer.get("email") or claims.get("email"),
                  is_new_user=bool(answer.get("isNewUser", False)), provider_id=answer.get("providerId"),
                  display_name=answer.get("displayName"), mfa_pending_credential=answer.get("mfaPendingCredential"),
                  mfa_info=list(answer.get("mfaInfo", [])), raw=answer)


@dataclass
class TotpFactor:
    """An enrolled TOTP second factor: its id and shared secret, and the sign-in its enrollment answered."""

    enrollment_id: str
    secret: str
    sign_in: SignIn


class Client:
    """The client REST API with an API key (any key maps to the emulator's default project); with
    `tenant_id`, every call carries it."""

    def __init__(self, transport: Transport, clock: Clock, *, api_key: str = DEFAULT_API_KEY,
                 tenant_id: Optional[str] = None) -> None:
        self._transport = transport
        self._clock = clock
        self.api_key = api_key
        self.tenant_id = tenant_id

    def call(self, path: str, body: dict[str, Any], headers: Optional[dict[str, str]] = None) -> dict[str, Any]:
        """POST `path` (e.g. `/identitytoolkit.googleapis.com/v1/accounts:signUp`) with the API key."""
        if self.tenant_id:
            body = {"tenantId": self.tenant_id, **body}
        return self._transport.call("POST", path, body, query={"key": self.api_key}, headers=headers)

    def _sign_in(self, op: str, body: dict[str, Any]) -> SignIn:
        return sign_in_of(self.call(f"{V1}/accounts:{op}", {"returnSecureToken": True, **body}))

    # Sign-ins ---------------------------------------------------------------------------------

    def sign_up(self, email: Optional[str] = None, password: Optional[str] = None, **extra: Any) -> SignIn:
        """`accounts:signUp`; with neither email nor password, an anonymous user."""
        body = {key: value for key, value in {"email": email, "password": password}.items() if value is not None}
        return self._sign_in("signUp", {**body, **extra})

    def sign_in_with_password(self, email: str, password: str) -> SignIn:
        return self._sign_in("signInWithPassword", {"email": email, "password": password})

    def sign_in_with_custom_token(self, token: Union[str, bytes]) -> SignIn:
        """With the token your backend minted (firebase-admin's `auth.create_custom_token`)."""
        return self._sign_in("signInWithCustomToken",
                             {"token": token.decode("ascii") if isinstance(token, bytes) else token})

    def sign_in_with_idp(self, credential: Union[MintedToken, str], *, request_uri: str = "http://localhost",
                         id_token: Optional[str] = None, **extra: Any) -> SignIn:
        """`accounts:signInWithIdp` with a minted token's `post_body` (or any postBody string);
        with `id_token`, links the identity to that signed-in user."""
        post_body = credential.post_body if isinstance(credential, MintedToken) else credential
        body = {"requestUri": request_uri, "postBody": post_body, **extra}
        if id_token:
            body["idToken"] = id_token
        return self._sign_in("signInWithIdp", body)

    def sign_in_with_game_center(self, minted: dict[str, Any]) -> SignIn:
        """`accounts:signInWithGameCenter` with `Providers.game_center()`'s `requestBody`, from the
        app it was signed for (the Apple SDK's `X-Ios-Bundle-Identifier` header)."""
        return sign_in_of(self.call(f"{V1}/accounts:signInWithGameCenter", dict(minted["requestBody"]),
                                    headers={"X-Ios-Bundle-Identifier": minted["bundleId"]}))

    def refresh(self, refresh_token: str) -> dict[str, Any]:
        """securetoken's refresh: `{"id_token", "refresh_token", "user_id", ...}`."""
        return self._transport.call("POST", "/securetoken.googleapis.com/v1/token", query={"key": self.api_key},
                                    form=[("grant_type", "refresh_token"), ("refresh_token", refresh_token)])

    # Email actions ----------------------------------------------------------------------------

    def send_sign_in_link(self, email: str, continue_url: str = DEFAULT_CONTINUE_URL, **settings: Any) -> None:
        """`sendOobCode` `EMAIL_SIGNIN`; `settings` are ActionCodeSettings fields (`canHandleCodeInApp`,
        `iOSBundleId`, `linkDomain`, ...)."""
        self.call(f"{V1}/accounts:sendOobCode",
                  {"requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": continue_url, **settings})

    def send_password_reset(self, email: str, **settings: Any) -> None:
        self.call(f"{V1}/accounts:sendOobCode", {"requestType": "PASSWORD_RESET", "email": email, **settings})

    def send_email_verification(self, id_token: str, **settings: Any) -> None:
        self.call(f"{V1}/accounts:sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": id_token, **settings})

    def complete_email_link(self, message: Union[Message, str], email: Optional[str] = None, *,
                            id_token: Optional[str] = None) -> SignIn:
        """What the app does when the sign-in link opens it: `signInWithEmailLink` with the link's
        code (a `Message`, or a link) for `email` (default: the message's recipient); with
        `id_token`, links the email to that user."""
        code, recipient = _code_and_recipient(message)
        body: dict[str, Any] = {"email": email or recipient, "oobCode": code}
        if not body["email"]:
            raise ValueError("complete_email_link: give the email the link was sent to")
        if id_token:
            body["idToken"] = id_token
        return self._sign_in("signInWithEmailLink", body)

    def apply_code(self, message: Union[Message, str], *, new_password: Optional[str] = None) -> dict[str, Any]:
        """Applies an email action code as its link would: verifies the email, confirms the change
        of address, recovers the old one, or (`resetPassword`, with `new_password`) resets the
        password. A sign-in link is `complete_email_link`'s."""
        code, _ = _code_and_recipient(message)
        mode = message.mode if isinstance(message, Message) else _link_mode(message)
        if mode == "signIn":
            raise ValueError("apply_code: a sign-in link is completed with complete_email_link")
        if mode == "resetPassword":
            if new_password is None:
                raise ValueError("apply_code: a password reset needs new_password")
            return self.call(f"{V1}/accounts:resetPassword", {"oobCode": code, "newPassword": new_password})
        return self.call(f"{V1}/accounts:update", {"oobCode": code})

    # Second factors ---------------------------------------------------------------------------

    def totp_code(self, secret: str, steps: int = 0) -> str:
        """The TOTP code for `secret` at the emulator clock's time (plus `steps` periods of 30 s)."""
        return totp_code(secret, self._clock.now().timestamp() + 30 * steps)

    def enroll_totp(self, id_token: str, display_name: str = "Authenticator") -> TotpFactor:
        """Enrolls a TOTP second factor for the signed-in user (verified email needed), with a code
        computed at the emulator's time, as an authenticator app would."""
        started = self.call(f"{V2}/accounts/mfaEnrollment:start",
                            {"idToken": id_token, "totpEnrollmentInfo": {}})["totpSessionInfo"]
        secret = started["sharedSecretKey"]
        finished = self.call(f"{V2}/accounts/mfaEnrollment:finalize", {
            "idToken": id_token, "displayName": display_name,
            "totpVerificationInfo": {"sessionInfo": started["sessionInfo"],
                                     "verificationCode": self.totp_code(secret)}})
        signed_in = sign_in_of(finished)
        enrollment_id = claims_of(signed_in.id_token)["firebase"]["second_factor_identifier"]
        return TotpFactor(enrollment_id, secret, signed_in)

    def finish_totp_sign_in(self, pending: SignIn, factor: TotpFactor, code: Optional[str] = None) -> SignIn:
        """The second step of a sign-in that `needs_second_factor`: `mfaSignIn:finalize` with the
        factor's current code (or `code`)."""
        answer = self.call(f"{V2}/accounts/mfaSignIn:finalize", {
            "mfaPendingCredential": pending.mfa_pending_credential, "mfaEnrollmentId": factor.enrollment_id,
            "totpVerificationInfo": {"verificationCode": code or self.totp_code(factor.secret)}})
        return sign_in_of(answer)

    # Apple ------------------------------------------------------------------------------------

    def revoke_apple_token(self, id_token: str, authorization_code: Union[MintedToken, str]) -> None:
        """`accounts:revokeToken`, as the Apple SDK calls it before deleting an account."""
        code = (authorization_code.authorization_code if isinstance(authorization_code, MintedToken)
                else authorization_code)
        self.call(f"{V2}/accounts:revokeToken",
                  {"providerId": "apple.com", "tokenType": "CODE", "idToken": id_token, "token": code})

    # The headful page -------------------------------------------------------------------------

    def headful_sign_in(self, provider_id: str, email: str, name: Optional[str] = None, *,
                        email_verified: bool = True, hide_email: bool = False,
                        screen_name: Optional[str] = None, picture: Optional[str] = None) -> SignIn:
        """Signs in through `/emulator/auth/handler` as the Apple SDK's web flow does with a browser
        that runs no JavaScript: opens the page, fills in its new-account form, follows the
        redirect to the app's URL scheme, and finishes with `signInWithIdp` on the link it carries.
        For providers without a native SDK (Yahoo, GitHub, Microsoft, ...)."""
        raw_session = secrets.token_hex(10)
        event_id = secrets.token_hex(5)
        query = {"apiKey": self.api_key, "authType": "signInWithRedirect", "ibi": "com.example.app",
                 "sessionId": hashlib.sha256(raw_session.encode()).hexdigest(), "v": "FirebaseAuth.iOS/12.19.0",
                 "eventId": event_id, "providerId": provider_id, "appId": IOS_APP_ID, "scopes": ""}
        page = self._transport.send("GET", "/emulator/auth/handler", query=query)
        action = _MainForm.action_of(page.text)
        form = [("email", email), ("name", name or ""), ("screenName", screen_name or ""), ("picture", picture or "")]
        if email_verified:
            form.append(("emailVerified", "on"))
        if hide_email:
            form.append(("hideEmail", "on"))
        redirect = self._transport.send("POST", urllib.parse.urljoin("/emulator/auth/handler", action) if action
                                        else "/emulator/auth/handler", form=form, follow_redirects=False)
        location = redirect.headers.get("Location", "")
        deep_link = _first(urllib.parse.urlsplit(location).query, "deep_link_id")
        link = _first(urllib.parse.urlsplit(deep_link or "").query, "link")
        if redirect.status not in (302, 303) or not link:
            raise ValueError(f"the sign-in page answered {redirect.status} without the app's redirect "
                             f"(Location: {location!r}):\n{redirect.text[:2000]}")
        return self._sign_in("signInWithIdp", {"requestUri": link, "postBody": f"providerId={provider_id}",
                                               "sessionId": raw_session})


class _MainForm(html.parser.HTMLParser):
    """Finds the action of the page's new-account form (`<form id="main-form">`)."""

    def __init__(self) -> None:
        super().__init__()
        self.action: Optional[str] = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, Optional[str]]]) -> None:
        values = dict(attrs)
        if tag == "form" and values.get("id") == "main-form":
            self.action = values.get("action") or ""

    @classmethod
    def action_of(cls, page: str) -> Optional[str]:
        parser = cls()
        parser.feed(page)
        if parser.action is None:
            raise ValueError(f"the sign-in page has no new-account form (form#main-form):\n{page[:2000]}")
        return parser.action


def _first(query: str, name: str) -> Optional[str]:
    values = urllib.parse.parse_qs(query).get(name)
    return values[0] if values else None


def _link_mode(link: str) -> Optional[str]:
    return _first(urllib.parse.urlsplit(link).query, "mode")


def _code_and_recipient(message: Union[Message, str]) -> tuple[str, Optional[str]]:
    if isinstance(message, Message):
        if not message.code:
            raise ValueError(f"message {message.summary()} carries no code")
        return message.code, message.to
    code = _first(urllib.parse.urlsplit(message).query, "oobCode")
    if code is None:  # an app link wraps the action link in `link=`
        inner = _first(urllib.parse.urlsplit(message).query, "link")
        code = inner and _first(urllib.parse.urlsplit(inner).query, "oobCode")
    if not code:
        raise ValueError(f"no oobCode in the link {message!r}")
    return code, None
