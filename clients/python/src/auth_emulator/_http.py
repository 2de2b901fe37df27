"""JSON over HTTP to one emulator, with the standard library only (no dependency to install)."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Mapping, Optional

from .errors import EmulatorError, Unreachable

DEFAULT_TIMEOUT = 10.0
OWNER = {"Authorization": "Bearer owner"}


@dataclass
class Answer:
    status: int
    headers: Mapping[str, str]
    text: str

    def json(self) -> Any:
        return json.loads(self.text) if self.text else {}


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_plain = urllib.request.build_opener(urllib.request.ProxyHandler({}))
_no_redirects = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects)


class Transport:
    """Sends requests to `base_url`; any answer outside 2xx/3xx raises `EmulatorError`."""

    def __init__(self, base_url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def url(self, path: str, query: Optional[Mapping[str, Any]] = None) -> str:
        url = self.base_url + path
        if query:
            items = {name: _query_value(value) for name, value in query.items() if value is not None}
            if items:
                url += "?" + urllib.parse.urlencode(items)
        return url

    def send(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, json_body: Any = None,
             form: Optional[list[tuple[str, str]]] = None, headers: Optional[Mapping[str, str]] = None,
             timeout: Optional[float] = None, follow_redirects: bool = True) -> Answer:
        url = self.url(path, query)
        data, all_headers = None, dict(headers or {})
        if json_body is not None:
            data = json.dumps(json_body).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode("utf-8")
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(url, data=data, headers=all_headers, method=method)
        opener = _plain if follow_redirects else _no_redirects
        try:
            with opener.open(request, timeout=timeout or self.timeout) as response:
                return Answer(response.status, dict(response.headers), response.read().decode("utf-8", "replace"))
        except urllib.error.HTTPError as error:
            answer = Answer(error.code, dict(error.headers or {}), error.read().decode("utf-8", "replace"))
            if 300 <= error.code < 400 and not follow_redirects:
                return answer
            raise _error_of(method, url, answer) from None
        except (urllib.error.URLError, ConnectionError, socket.timeout, TimeoutError) as error:
            reason = getattr(error, "reason", error)
            raise Unreachable(f"{method} {url}: no answer ({reason})") from None

    def call(self, method: str, path: str, body: Any = None, **kwargs: Any) -> dict[str, Any]:
        """The request's JSON object (`{}` for an empty body)."""
        answer = self.send(method, path, json_body=body, **kwargs)
        value = answer.json()
        if not isinstance(value, dict):
            raise EmulatorError(method, self.url(path), answer.status,
                                f"NOT_AN_OBJECT : expected a JSON object, got {answer.text[:200]!r}", value)
        return value


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(item) for item in value)
    return str(value)


def _error_of(method: str, url: str, answer: Answer) -> EmulatorError:
    try:
        body = answer.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return EmulatorError(method, url, answer.status, error["message"], body, error.get("status"))
    # Not Google's shape (an HTML page, Graph's OAuthException, a proxy): keep what came back.
    return EmulatorError(method, url, answer.status, f"HTTP_{answer.status} : {answer.text[:500]}", body)
