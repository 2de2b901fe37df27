"""Identity-provider tokens built and taken apart in Python, independently of the server.

The emulator both mints provider tokens (`POST /emulator/v1/idp/{idp}/tokens`) and verifies them
(`signInWithIdp`). A test that used the server for both sides could not see a bug shared by the
two, so everything here is done with PyJWT and `cryptography` alone: verifying a minted token
against the published JWKS, re-encoding a token's header or payload while keeping its signature,
and forging tokens with keys the server has never seen.
"""

import base64
import functools
import hashlib
import json
import urllib.parse

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa


def b64url_encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(segment):
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def encode_segment(value):
    """A JSON object as a compact base64url JWT segment."""
    return b64url_encode(json.dumps(value, separators=(",", ":")).encode("utf-8"))


def parts(token):
    """(header dict, payload dict, signature segment) of a compact JWS, unverified."""
    header, payload, signature = token.split(".")
    return json.loads(b64url_decode(header)), json.loads(b64url_decode(payload)), signature


def header_of(token):
    return parts(token)[0]


def claims_of(token):
    return parts(token)[1]


def sha256_hex(text):
    """What Apple and Facebook put in `nonce`: the lowercase hex SHA-256 of the raw nonce."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# Tampering: change one half of a signed token and keep the original signature -----------------

def with_claims(token, **changes):
    """The token with its payload re-encoded with `changes` merged in; header and signature kept."""
    header_segment, _, signature = token.split(".")
    payload = {**claims_of(token), **changes}
    return f"{header_segment}.{encode_segment(payload)}.{signature}"


def with_header(token, **changes):
    """The token with its header re-encoded with `changes` merged in; payload and signature kept."""
    _, payload_segment, signature = token.split(".")
    header = {**header_of(token), **changes}
    return f"{encode_segment(header)}.{payload_segment}.{signature}"


def with_signature(token, signature):
    header_segment, payload_segment, _ = token.split(".")
    return f"{header_segment}.{payload_segment}.{signature}"


# Tokens the server did not sign --------------------------------------------------------------

def unsigned(claims):
    """The official emulator's fake JWT: header `{"alg":"none","typ":"JWT"}`, empty signature."""
    return f"{encode_segment({'alg': 'none', 'typ': 'JWT'})}.{encode_segment(claims)}."


def json_claims_parameter(claims):
    """`id_token=` value as the official test helper sends it: URL-encoded plain JSON claims."""
    return urllib.parse.quote(json.dumps(claims), safe="")


@functools.lru_cache(maxsize=None)
def own_rsa_key():
    """An RSA key the emulator has never seen (generated once per test run)."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@functools.lru_cache(maxsize=None)
def own_ec_key():
    return ec.generate_private_key(ec.SECP256R1())


def forge(claims, kid, alg="RS256"):
    """A correctly formed JWS over `claims`, signed with our own key, whose header names `kid`."""
    key = own_ec_key() if alg == "ES256" else own_rsa_key()
    return jwt.encode(claims, key, algorithm=alg, headers={"kid": kid, "typ": "JWT"})


# Verifying what the server minted ------------------------------------------------------------

def jwks_keys(jwks):
    """{kid: PyJWK} from a JWKS document."""
    return {key.key_id: key for key in jwt.PyJWKSet.from_dict(jwks).keys}


def verify(token, jwks, *, audience, issuer):
    """Verifies signature, `alg` (the key's own), `iss` and `aud` with PyJWT; returns the claims.

    Time claims are left to the caller, who compares them with the emulator's clock (which a
    test may have moved) rather than with this machine's.
    """
    header = header_of(token)
    key = jwks_keys(jwks)[header["kid"]]
    assert header["alg"] == key.algorithm_name, (header, key.algorithm_name)
    return jwt.decode(token, key.key, algorithms=[key.algorithm_name], audience=audience, issuer=issuer,
                      options={"verify_exp": False, "verify_iat": False, "verify_nbf": False,
                               "require": ["iss", "aud", "sub", "exp", "iat"]})


# postBody as the Apple SDK writes it ---------------------------------------------------------

def post_body(provider_id, *, id_token=None, nonce=None, access_token=None, user=None):
    """`providerId=…&id_token=…&nonce=…&access_token=…&user=…`, values raw (not percent-encoded),
    in the SDK's fixed order, absent items omitted (firebase-ios-sdk-auth-wire.md §3.1)."""
    items = [("providerId", provider_id), ("id_token", id_token), ("nonce", nonce),
             ("access_token", access_token), ("user", user)]
    return "&".join(f"{name}={value}" for name, value in items if value is not None)


def apple_user_parameter(first_name, last_name):
    """The Apple SDK's `user` item: compact JSON with sorted keys."""
    return json.dumps({"name": {"firstName": first_name, "lastName": last_name}},
                      separators=(",", ":"), sort_keys=True)


def sdk_query(query):
    """The Apple SDK's query splitter (AuthWebUtils.dictionary(withHttpArgumentsString:)): split on
    `&`, split at the first `=`, `+` → space, percent-decode; the first occurrence of a key wins."""
    result = {}
    for item in query.split("&"):
        if not item:
            continue
        name, _, value = item.partition("=")
        name = urllib.parse.unquote(name.replace("+", " "))
        result.setdefault(name, urllib.parse.unquote(value.replace("+", " ")))
    return result
