"""A JWT's payload read without verifying it (the emulator and your backend verify)."""

from __future__ import annotations

import base64
import json
from typing import Any


def claims_of(token: str) -> dict[str, Any]:
    payload = token.split(".")[1]
    claims: dict[str, Any] = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return claims
