"""RFC 6238 TOTP, as an authenticator app computes it (SHA-1, 6 digits, 30 s steps)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct


def totp_code(secret: str, unix_time: float, digits: int = 6, period: int = 30) -> str:
    """The code for a base32 `secret` at `unix_time`. Use the emulator's time (`Client.totp_code`),
    not this machine's: a test may have moved the emulator clock."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(unix_time) // period), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = (struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 10 ** digits
    return f"{value:0{digits}d}"
