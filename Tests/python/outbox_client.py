"""Helpers for the email-action tests: the outbox over HTTP, and email links as the Apple SDK reads them.

Nothing here asks the server how to read a link: `ios_link_items` is the Apple SDK's own parse
(firebase-ios-sdk-auth-wire.md §4.1), written out in Python, so a link the SDK would not accept
fails the test even when the server is happy with it.
"""

import urllib.parse

from emulator_client import TIMEOUT

MESSAGES = "/emulator/v1/projects/{project}/messages"


class Outbox:
    """`/emulator/v1/projects/{p}/messages` and `…/privateRelay` of one emulator (no credentials)."""

    def __init__(self, client, project_id=None):
        self.client = client
        self.project_id = project_id or client.project_id
        self.path = MESSAGES.format(project=self.project_id)

    def get(self, suffix="", *, timeout=TIMEOUT, **filters):
        """GET the list (or `/<suffix>`); `filters` become query parameters (None left out)."""
        params = {name: value for name, value in filters.items() if value is not None}
        return self.client.request("GET", self.path + suffix, params=params, timeout=timeout)

    def messages(self, **filters):
        response = self.get(**filters)
        assert response.status_code == 200, f"{response.request.url} -> {response.status_code}: {response.text}"
        body = response.json()
        assert set(body) == {"messages"}, body
        return body["messages"]

    def only(self, **filters):
        """The one message matching `filters` (fails when there are none or several)."""
        found = self.messages(**filters)
        assert len(found) == 1, f"expected one message for {filters}, got {len(found)}: {[m['subject'] for m in found]}"
        return found[0]

    def delete(self):
        return self.client.request("DELETE", self.path)

    def relay_senders(self):
        return self.client.request("GET", f"/emulator/v1/projects/{self.project_id}/privateRelay")

    def set_relay_senders(self, senders):
        return self.client.request("PATCH", f"/emulator/v1/projects/{self.project_id}/privateRelay",
                                   json={"registeredSenders": senders})


# Links as the Apple SDK parses them ---------------------------------------------------------

def ios_link_items(link):
    """`Auth.getQueryItems`: take the query decoded once (URLComponents.query), split on `&`, split
    each piece at its first `=`, percent-decode key and value again (`+` stays `+`), drop a piece
    whose second decoding fails; later keys overwrite earlier ones."""
    query = urllib.parse.unquote(urllib.parse.urlsplit(link).query, errors="strict")
    items = {}
    for piece in query.split("&"):
        if not piece:
            continue
        name, _, value = piece.partition("=")
        try:
            items[_strict_unquote(name)] = _strict_unquote(value)
        except ValueError:
            continue
    return items


def _strict_unquote(text):
    """Percent-decoding that fails, as Foundation's removingPercentEncoding does, on a stray `%`."""
    for index, char in enumerate(text):
        if char == "%":
            pair = text[index + 1:index + 3]
            if len(pair) != 2 or any(c not in "0123456789abcdefABCDEF" for c in pair):
                raise ValueError(f"bad percent escape in {text!r}")
    return urllib.parse.unquote(text, errors="strict")


def ios_is_sign_in_link(link):
    """`Auth.isSignIn(withEmailLink:)`: an `oobCode` item and `mode` == `signIn`."""
    items = ios_link_items(link) if link else {}
    return bool(items.get("oobCode")) and items.get("mode") == "signIn"


def ios_oob_code(link):
    """The oobCode `signIn(withEmail:link:)` sends (it would crash on a link that is not a sign-in link)."""
    assert ios_is_sign_in_link(link), f"the Apple SDK would not take this as a sign-in link: {link}"
    return ios_link_items(link)["oobCode"]


def query_of(link):
    """The link's query, decoded as a browser's URLSearchParams does (one value per name, last wins)."""
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query, keep_blank_values=True))
