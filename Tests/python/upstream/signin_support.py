"""Helpers of the sign-in ports (password, emailLink, oob, idp, customToken, createAuthUri) beyond
upstream's `helpers.ts`: the blocking-function config and checks that stand in for nock, and
jsonwebtoken's unsigned tokens."""

import base64
import json
import time

from upstream.upstream_support import PROJECT_ID, update_config

BEFORE_CREATE_PATH = "/beforeCreate"
BEFORE_SIGN_IN_PATH = "/beforeSignIn"


def use_blocking_functions(api, server, *paths):
    """upstream's `updateConfig(… blockingFunctions.triggers …, "blockingFunctions")`, each trigger's
    `functionUri` on the local stand-in for upstream's fake host (`/beforeCreate`, `/beforeSignIn`)."""
    names = {BEFORE_CREATE_PATH: "beforeCreate", BEFORE_SIGN_IN_PATH: "beforeSignIn"}
    triggers = {names[path]: {"functionUri": server.url(path)} for path in paths}
    update_config(api, PROJECT_ID, {"blockingFunctions": {"triggers": triggers}}, "blockingFunctions")


def expect_blocking_calls_done(server):
    """upstream's `afterEach(() => expect(nock.isDone()).to.be.true)`: every mocked answer was asked for."""
    for path in server.responses:
        assert server.requests.get(path), f"blocking function {path} was never called"


def unsigned_jwt(payload, **options):
    """jsonwebtoken's `sign(payload, secret, {algorithm: "none", expiresIn, subject, issuer, audience})`:
    header `{"alg":"none","typ":"JWT"}`, an empty signature, and `iat`/`exp`/`sub`/`iss`/`aud` added."""
    def segment(value):
        return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).rstrip(b"=").decode()

    claims = dict(payload)
    now = int(time.time())
    claims["iat"] = now
    if "expires_in" in options:
        claims["exp"] = now + options["expires_in"]
    for name, claim in (("audience", "aud"), ("issuer", "iss"), ("subject", "sub")):
        if name in options:
            claims[claim] = options[name]
    return f"{segment({'alg': 'none', 'typ': 'JWT'})}.{segment(claims)}."
