"""The kit's version: the emulator release it was made with (`auth-emulator --version`'s first line
and `GET /`'s `authEmulator.version`). The build backend reads it from here; the kit's tests check that
it is the string in Sources/BuildInfo/BuildInfo.swift and what the binary under test reports."""

__version__ = "0.1.0"
