"""The emulator clock through the kit: read, advance, set, reset, and the scoped helper."""

from datetime import datetime, timedelta, timezone

import pytest

from auth_emulator import EmulatorError
from conftest import unique_email


def test_advance_set_and_reset(clock):
    start = clock.now()
    assert start.tzinfo is not None and clock.offset() == 0
    moved = clock.advance(timedelta(hours=2))
    assert moved - start >= timedelta(hours=2) and clock.offset() >= 7200
    target = datetime(2031, 5, 1, 12, 0, tzinfo=timezone.utc)
    assert clock.set(target) == target
    assert clock.reset() - datetime.now(timezone.utc) < timedelta(minutes=5) and clock.offset() == 0


def test_refusals_are_typed_errors_and_change_nothing(clock):
    with pytest.raises(EmulatorError) as negative:
        clock.advance(-1)
    assert negative.value.code == "INVALID_ARGUMENT"
    with pytest.raises(EmulatorError, match="earlier than real time"):
        clock.set(datetime(2001, 1, 1, tzinfo=timezone.utc))
    with pytest.raises(ValueError, match="no time zone"):
        clock.set(datetime(2031, 1, 1))
    assert clock.offset() == 0


def test_moved_puts_it_back_however_the_block_ends(auth_emulator):
    with pytest.raises(RuntimeError):
        with auth_emulator.clock.moved() as clock:
            clock.advance(3600)
            raise RuntimeError("the test failed half-way")
    assert auth_emulator.clock.offset() == 0


def test_a_code_expires_when_the_clock_passes_it(clock, auth_client, outbox):
    email = unique_email("expiry")
    auth_client.sign_up(email, "secret123")
    auth_client.send_password_reset(email)
    reset = outbox.wait_for(email)
    clock.advance(3601)
    with pytest.raises(EmulatorError) as expired:
        auth_client.apply_code(reset, new_password="secret456")
    assert expired.value.code == "EXPIRED_OOB_CODE"
