"""The emulator clock: one per emulator (not per project), never behind real time."""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta
from typing import Iterator, Union

from ._http import Transport
from ._time import format_time, parse_time

Seconds = Union[int, float, timedelta]


class Clock:
    """`GET /emulator/v1/clock`, `clock:advance`, `clock:set`, `clock:reset`. Each call answers the
    emulator's time after it, as an aware UTC datetime."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def now(self) -> datetime:
        return parse_time(self._transport.call("GET", "/emulator/v1/clock")["now"])

    def offset(self) -> float:
        """How far ahead of real time the clock is, in seconds."""
        return float(self._transport.call("GET", "/emulator/v1/clock")["offsetSeconds"])

    def advance(self, seconds: Seconds) -> datetime:
        if isinstance(seconds, timedelta):
            seconds = seconds.total_seconds()
        return parse_time(self._transport.call("POST", "/emulator/v1/clock:advance", {"seconds": seconds})["now"])

    def set(self, moment: Union[datetime, str]) -> datetime:
        """Sets the time (not before real time); it runs on from there."""
        text = moment if isinstance(moment, str) else format_time(moment)
        return parse_time(self._transport.call("POST", "/emulator/v1/clock:set", {"time": text})["now"])

    def reset(self) -> datetime:
        """Back to real time."""
        return parse_time(self._transport.call("POST", "/emulator/v1/clock:reset")["now"])

    @contextlib.contextmanager
    def moved(self) -> Iterator["Clock"]:
        """A block that may move the clock; it is back at real time when the block ends, however it ends."""
        try:
            yield self
        finally:
            self.reset()
