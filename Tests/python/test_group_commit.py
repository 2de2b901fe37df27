"""--data under load: writers share their syncs (group commit), and still nothing answered is lost
when the process is killed in the middle of it."""

import signal
import sqlite3
import threading
import time

import requests

from conftest import PROJECT_ID, start_emulator, stop_emulator
from emulator_client import IDENTITY_TOOLKIT, EmulatorClient

WRITERS = 8
ENOUGH_ANSWERS = 300  # then kill, once a checkpoint has run too; bounded by MAX_LOAD_SECONDS
MAX_LOAD_SECONDS = 60.0  # a checkpoint comes every ~1400 sign-ups (8192 log frames): 2-6 s in a debug build


def sign_up_until_killed(host, acknowledged, stop):
    """Anonymous sign-ups, one after another, until the emulator is gone; keeps every 200's id."""
    url = f"http://{host}{IDENTITY_TOOLKIT}/accounts:signUp"
    with requests.Session() as session:
        while not stop.is_set():
            try:
                response = session.post(url, params={"key": "fake-api-key"}, json={"returnSecureToken": True},
                                        timeout=10)
            except requests.RequestException:
                return  # killed: this request's answer never came, so nothing was promised
            if response.status_code == 200:
                answer = response.json()
                acknowledged.append((answer["localId"], answer["refreshToken"]))
            else:
                acknowledged.append(("unexpected", f"{response.status_code}: {response.text}"))


def test_every_acknowledged_sign_up_survives_a_kill_under_concurrent_load(tmp_path):
    data = tmp_path / "auth.sqlite"
    first = start_emulator("--data", str(data))
    # The database file grows only when a checkpoint (on a thread of its own) copies the log into it.
    size_before_load = data.stat().st_size
    acknowledged = []  # list.append is atomic under the GIL
    stop = threading.Event()
    writers = [threading.Thread(target=sign_up_until_killed, args=(first.host, acknowledged, stop))
               for _ in range(WRITERS)]
    for writer in writers:
        writer.start()
    try:
        deadline = time.monotonic() + MAX_LOAD_SECONDS
        checkpointed_at = None
        while time.monotonic() < deadline:
            if checkpointed_at is None and data.stat().st_size > size_before_load:
                checkpointed_at = len(acknowledged)
            # A while past the first checkpoint: the log is being rewritten from its start, and
            # the next checkpoint may be running.
            if checkpointed_at is not None and len(acknowledged) >= max(ENOUGH_ANSWERS, checkpointed_at + 200):
                break
            time.sleep(0.05)
        # Killed with requests in flight: some committed but unanswered, some answered just now.
        first.process.send_signal(signal.SIGKILL)
        first.process.wait()
    finally:
        stop.set()
        for writer in writers:
            writer.join(timeout=15)
    assert not any(writer.is_alive() for writer in writers)
    assert [entry for entry in acknowledged if entry[0] == "unexpected"] == []
    assert len(acknowledged) >= 50, f"only {len(acknowledged)} sign-ups were answered before the kill"
    assert checkpointed_at is not None, f"no checkpoint in {len(acknowledged)} sign-ups before the kill"

    # The file is a sound SQLite database by SQLite's own check (this recovers the WAL, as a
    # restart would).
    with sqlite3.connect(data) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    connection.close()

    second = start_emulator("--data", str(data))
    client = EmulatorClient(second.host, PROJECT_ID)
    try:
        ids = [local_id for local_id, _ in acknowledged]
        missing = []
        for start in range(0, len(ids), 100):
            batch = ids[start:start + 100]
            found = client.admin_call("lookup", {"localId": batch})
            assert found.status_code == 200, found.text
            present = {user["localId"] for user in found.json().get("users", [])}
            missing += [local_id for local_id in batch if local_id not in present]
        assert missing == [], f"{len(missing)} of {len(ids)} acknowledged sign-ups were lost"
        # Their refresh tokens were written in the same transactions: the last answered still works.
        local_id, refresh_token = acknowledged[-1]
        refreshed = client.refresh_json(refresh_token)
        assert refreshed.status_code == 200, refreshed.text
        assert refreshed.json()["user_id"] == local_id
    finally:
        client.close()
        stop_emulator(second)
