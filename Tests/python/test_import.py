"""firebase-admin's `auth.import_users` against the real binary, with and without each password
hash algorithm, followed by signInWithPassword over REST with the original password (and a wrong
one refused); then `--import`, `--export-on-exit` and `auth-emulator export --data`.

Hashes are made here with Python's own hashlib/hmac and `cryptography` (for Firebase's modified
scrypt), independently of the emulator's OpenSSL wrappers; bcrypt uses published vectors.
"""

import base64
import hashlib
import hmac
import json
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from firebase_admin import auth

from conftest import PROJECT_ID, REPO_ROOT, binary_path, start_emulator, stop_emulator
from emulator_client import EmulatorClient, assert_error

PASSWORD = "correct horse battery"
SALT = b"pepper-and-salt"
KEY = b"hmac-signer-key"
OFFICIAL_EXPORT = REPO_ROOT / "fixtures" / "import" / "official-export"


def digest_rounds(name, data, rounds):
    output = hashlib.new(name, data).digest()
    for _ in range(max(rounds, 1) - 1):
        output = hashlib.new(name, output).digest()
    return output


def firebase_scrypt(password, salt, key, salt_separator, rounds, memory_cost):
    derived = hashlib.scrypt(password, salt=salt + salt_separator, n=2 ** memory_cost, r=rounds, p=1, dklen=32,
                             maxmem=2 ** 26)
    encryptor = Cipher(algorithms.AES(derived), modes.CTR(b"\0" * 16)).encryptor()
    return encryptor.update(key) + encryptor.finalize()


SALTED = SALT + PASSWORD.encode()
CASES = {
    "hmac_sha512": (auth.UserImportHash.hmac_sha512(key=KEY), hmac.new(KEY, SALTED, "sha512").digest()),
    "hmac_sha256": (auth.UserImportHash.hmac_sha256(key=KEY), hmac.new(KEY, SALTED, "sha256").digest()),
    "hmac_sha1": (auth.UserImportHash.hmac_sha1(key=KEY), hmac.new(KEY, SALTED, "sha1").digest()),
    "hmac_md5": (auth.UserImportHash.hmac_md5(key=KEY), hmac.new(KEY, SALTED, "md5").digest()),
    "md5": (auth.UserImportHash.md5(rounds=2), digest_rounds("md5", SALTED, 2)),
    "sha1": (auth.UserImportHash.sha1(rounds=1), digest_rounds("sha1", SALTED, 1)),
    "sha256": (auth.UserImportHash.sha256(rounds=3), digest_rounds("sha256", SALTED, 3)),
    "sha512": (auth.UserImportHash.sha512(rounds=1), digest_rounds("sha512", SALTED, 1)),
    "pbkdf_sha1": (auth.UserImportHash.pbkdf_sha1(rounds=1000),
                   hashlib.pbkdf2_hmac("sha1", PASSWORD.encode(), SALT, 1000)),
    "pbkdf2_sha256": (auth.UserImportHash.pbkdf2_sha256(rounds=1000),
                      hashlib.pbkdf2_hmac("sha256", PASSWORD.encode(), SALT, 1000)),
    "scrypt": (auth.UserImportHash.scrypt(key=KEY * 2, rounds=8, memory_cost=10, salt_separator=b"\x07"),
               firebase_scrypt(PASSWORD.encode(), SALT, KEY * 2, b"\x07", 8, 10)),
    "standard_scrypt": (auth.UserImportHash.standard_scrypt(memory_cost=1024, parallelization=2, block_size=8,
                                                            derived_key_length=48),
                        hashlib.scrypt(PASSWORD.encode(), salt=SALT, n=1024, r=8, p=2, dklen=48)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_import_with_hash_then_sign_in(client, name):
    hash_alg, password_hash = CASES[name]
    email = f"{name.replace('_', '-')}@example.com"
    result = auth.import_users(
        [auth.ImportUserRecord(uid=f"uid-{name}", email=email, password_hash=password_hash, password_salt=SALT)],
        hash_alg=hash_alg)
    assert result.success_count == 1, [error.reason for error in result.errors]
    assert result.failure_count == 0

    signed_in = client.sign_in_with_password_ok(email, PASSWORD)
    assert signed_in["localId"] == f"uid-{name}"
    assert_error(client.sign_in_with_password(email, PASSWORD + "!"), 400, "INVALID_PASSWORD")
    # The SDK reads the stored hash and salt back as it sent them (URL-safe base64).
    user = next(user for user in auth.list_users().iterate_all() if user.uid == f"uid-{name}")
    assert base64.urlsafe_b64decode(user.password_hash) == password_hash
    assert base64.urlsafe_b64decode(user.password_salt) == SALT


def test_firebase_scrypt_readme_example(client):
    """github.com/firebase/scrypt's README parameters, exactly as firebase-admin sends them."""
    key = base64.b64decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")
    salt = base64.b64decode("42xEC+ixf3L2lw==")
    password_hash = base64.b64decode(
        "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")
    assert firebase_scrypt(b"user1password", salt, key, b"\x07", 8, 14) == password_hash
    result = auth.import_users(
        [auth.ImportUserRecord(uid="readme", email="readme@example.com", password_hash=password_hash, password_salt=salt)],
        hash_alg=auth.UserImportHash.scrypt(key=key, rounds=8, memory_cost=14, salt_separator=b"\x07"))
    assert result.success_count == 1
    assert client.sign_in_with_password_ok("readme@example.com", "user1password")["localId"] == "readme"
    assert_error(client.sign_in_with_password("readme@example.com", "user2password"), 400, "INVALID_PASSWORD")


@pytest.mark.parametrize("password, encoded", [
    ("abc", "$2a$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i"),
    ("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
])
def test_import_bcrypt_then_sign_in(client, password, encoded):
    """OpenBSD's published bcrypt vectors; the hash is the whole `$2a$…` string."""
    result = auth.import_users(
        [auth.ImportUserRecord(uid="bcrypt-user", email="bcrypt@example.com", password_hash=encoded.encode())],
        hash_alg=auth.UserImportHash.bcrypt())
    assert result.success_count == 1
    assert client.sign_in_with_password_ok("bcrypt@example.com", password)["localId"] == "bcrypt-user"
    assert_error(client.sign_in_with_password("bcrypt@example.com", password + "x"), 400, "INVALID_PASSWORD")


def test_import_without_hash_keeps_profile_and_fake_hash(client):
    result = auth.import_users([
        auth.ImportUserRecord(uid="plain", email="plain@example.com", display_name="Plain",
                              custom_claims={"tier": "gold"},
                              provider_data=[auth.UserProvider(uid="g-123", provider_id="google.com",
                                                               email="plain@gmail.com")]),
        auth.ImportUserRecord(uid="phone", phone_number="+15555550111"),
    ])
    assert result.success_count == 2
    assert auth.get_user("phone").phone_number == "+15555550111"
    plain = auth.get_user("plain")
    assert plain.custom_claims == {"tier": "gold"}
    assert [(p.provider_id, p.uid) for p in plain.provider_data] == [("google.com", "g-123")]
    assert_error(client.sign_in_with_password("plain@example.com", "anything"), 400, "INVALID_PASSWORD")


def test_a_changed_password_replaces_the_imported_hash(client):
    hash_alg, password_hash = CASES["hmac_sha256"]
    auth.import_users([auth.ImportUserRecord(uid="mover", email="mover@example.com", password_hash=password_hash,
                                             password_salt=SALT)], hash_alg=hash_alg)
    auth.update_user("mover", password="brand-new-pass")
    assert client.sign_in_with_password_ok("mover@example.com", "brand-new-pass")["localId"] == "mover"
    assert_error(client.sign_in_with_password("mover@example.com", PASSWORD), 400, "INVALID_PASSWORD")
    mover = next(user for user in auth.list_users().iterate_all() if user.uid == "mover")
    assert mover.password_hash.startswith("fakeHash:")


def test_bad_entries_are_reported_and_good_ones_written(client):
    result = auth.import_users([
        auth.ImportUserRecord(uid="good", email="good@example.com"),
        auth.ImportUserRecord(uid="dup", email="good@example.com"),
        auth.ImportUserRecord(uid="linked", provider_data=[auth.UserProvider(uid="g-1", provider_id="google.com")]),
        auth.ImportUserRecord(uid="also-linked", provider_data=[auth.UserProvider(uid="g-1", provider_id="google.com")]),
        auth.ImportUserRecord(uid="also-good", display_name="Also"),
    ])
    assert result.success_count == 3
    assert [(error.index, error.reason) for error in result.errors] == [
        (1, "((Auth Emulator does not support importing duplicate email: good@example.com))"),
        (3, "raw id exists in other account in database"),
    ]
    assert auth.get_user("good").email == "good@example.com"
    assert auth.get_user("also-good").display_name == "Also"
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("dup")


def run_binary(*arguments):
    return subprocess.run([str(binary_path()), *arguments], capture_output=True, text=True, timeout=30, cwd=REPO_ROOT)


def read_users(directory, name="accounts.json"):
    return json.loads((Path(directory) / "auth_export" / name).read_text())["users"]


def assert_password_user_signs_in_then_stop(running):
    """Signs the official export's password user in on `running`, then stops it."""
    try:
        rest = EmulatorClient(running.host, PROJECT_ID)
        assert rest.sign_in_with_password_ok("password.user@example.com", "hunter22")["localId"] \
            == "pw-user-0000000000000000001"
        rest.close()
    finally:
        stop_emulator(running)


def test_import_then_export_on_exit_round_trips(tmp_path):
    out = tmp_path / "exported"
    running = start_emulator("--import", str(OFFICIAL_EXPORT), "--export-on-exit", str(out))
    assert_password_user_signs_in_then_stop(running)
    metadata = json.loads((out / "firebase-export-metadata.json").read_text())
    assert metadata["auth"]["path"] == "auth_export"
    assert json.loads((out / "auth_export" / "config.json").read_text())["signIn"] == {"allowDuplicateEmails": False}
    exported = {user["localId"]: user for user in read_users(out)}
    original = {user["localId"]: user for user in read_users(OFFICIAL_EXPORT)}
    assert sorted(exported) == sorted(original)
    for local_id, user in original.items():
        for key in ("email", "displayName", "phoneNumber", "passwordHash", "salt", "createdAt", "customAttributes"):
            assert exported[local_id].get(key) == user.get(key), (local_id, key)
    tenant_users = read_users(out, "accounts-tenant-one-x1y2z.json")
    assert [user["tenantId"] for user in tenant_users] == ["tenant-one-x1y2z"]

    # And the export loads again: the passwords still verify.
    again = start_emulator("--import", str(out))
    assert_password_user_signs_in_then_stop(again)


def test_export_from_a_stopped_data_file(tmp_path):
    data = tmp_path / "state.db"
    running = start_emulator("--data", str(data))
    try:
        rest = EmulatorClient(running.host, PROJECT_ID)
        rest.sign_up("kept@example.com", "kept-password")
        rest.close()
    finally:
        stop_emulator(running)
    out = tmp_path / "out"
    finished = run_binary("export", "--data", str(data), "--out", str(out))
    assert finished.returncode == 0, finished.stderr
    assert [user["email"] for user in read_users(out)] == ["kept@example.com"]
    missing = run_binary("export", "--data", str(tmp_path / "none.db"), "--out", str(out))
    assert missing.returncode == 1
    assert "no data file" in missing.stderr
    usage = run_binary("export", "--data", str(data))
    assert usage.returncode == 2


def test_import_of_a_missing_directory_fails_at_start(tmp_path):
    finished = run_binary("--port", "0", "--import", str(tmp_path / "nothing"))
    assert finished.returncode == 1
    assert "no such folder" in finished.stderr
