"""RFC 3339 as the emulator writes it (`2026-12-01T08:11:51.520Z`)."""

from __future__ import annotations

from datetime import datetime, timezone


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def format_time(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError(f"{moment!r} has no time zone: give an aware datetime (e.g. tzinfo=timezone.utc)")
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
