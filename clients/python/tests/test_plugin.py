"""The pytest plugin as a user's suite meets it: each case writes a small test file and runs pytest
on it in a process of its own, with the kit loaded from its entry point."""

SAME_NAMES_TWICE = """
import os

import firebase_admin
from firebase_admin import auth


def test_first(auth_emulator, users, outbox, auth_client):
    assert os.environ["FIREBASE_AUTH_EMULATOR_HOST"] == auth_emulator.host
    assert os.environ["GCLOUD_PROJECT"] == auth_emulator.project_id == "demo-inner"
    users.create("same@example.com", "secret123", uid="same-uid")
    auth_client.send_password_reset("same@example.com")
    assert [m.to for m in outbox.messages()] == ["same@example.com"]
    app = firebase_admin.initialize_app(options={"projectId": os.environ["GCLOUD_PROJECT"]})
    assert auth.get_user_by_email("same@example.com", app=app).uid == "same-uid"


def test_second_reuses_every_name(users, outbox, auth_client):
    assert outbox.messages() == [] and users.count() == 0
    users.create("same@example.com", "secret123", uid="same-uid")
    auth_client.send_password_reset("same@example.com")
    assert len(outbox.messages()) == 1


def test_without_the_emulator():
    assert True
"""


def test_each_test_that_uses_the_emulator_starts_fresh(inner, pytester):
    pytester.makepyfile(test_names=SAME_NAMES_TWICE)
    result = inner("--auth-emulator-project", "demo-inner")
    result.assert_outcomes(passed=3)


def test_without_resets_state_carries_over(inner, pytester):
    pytester.makepyfile(test_names=SAME_NAMES_TWICE)
    result = inner("--auth-emulator-project", "demo-inner", "--auth-emulator-reset", "none")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*test_second_reuses_every_name*", "*assert * == []*"])


def test_the_variables_are_restored_after_the_session(inner, pytester, monkeypatch):
    monkeypatch.setenv("GCLOUD_PROJECT", "the-users-own")
    pytester.makepyfile(test_env="""
import os

def test_uses_it(auth_emulator):
    assert os.environ["FIREBASE_AUTH_EMULATOR_HOST"] == auth_emulator.host
    assert os.environ["GCLOUD_PROJECT"] == os.environ["GOOGLE_CLOUD_PROJECT"] == "demo-project"
""")
    pytester.makeconftest("""
import os

def pytest_unconfigure(config):
    print("AFTER", [os.environ.get(name) for name in
                    ("FIREBASE_AUTH_EMULATOR_HOST", "GCLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT")])
""")
    result = inner("-s")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["AFTER [None, 'the-users-own', None]"])


def test_tests_that_do_not_use_it_never_start_it(inner, pytester):
    pytester.makepyfile(test_lazy="""
def test_plain():
    assert 1 + 1 == 2

def test_needs_it(auth_emulator):
    pass
""")
    result = inner("--auth-emulator-bin", "/nonexistent/auth-emulator")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*auth-emulator: auth-emulator binary not found or not executable: "
                                 "/nonexistent/auth-emulator*"])


def test_a_failed_start_shows_the_binarys_stderr(inner, pytester):
    pytester.makepyfile(test_start="""
def test_needs_it(auth_emulator):
    pass
""")
    result = inner("--auth-emulator-args", "--idp-tokens sometimes")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*exited before it was ready (exit status 2)*", "*--- stderr ---*", "*sometimes*"])


def test_an_emulator_that_dies_fails_the_next_test_that_needs_it_and_no_other(inner, pytester):
    pytester.makepyfile(test_dies="""
def test_kills_it(auth_emulator):
    auth_emulator.process.process.kill()
    auth_emulator.process.process.wait()

def test_needs_it_next(users):
    pass

def test_does_not_need_it():
    pass
""")
    result = inner("-p", "no:randomly")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*ERROR at setup of test_needs_it_next*",
                                 "*auth-emulator exited during the session (status -9)*"])


def test_the_clock_fixture_puts_the_clock_back(inner, pytester):
    pytester.makepyfile(test_clock="""
def test_moves_it(clock):
    clock.advance(3600)
    assert clock.offset() >= 3600

def test_after(auth_emulator):
    assert auth_emulator.clock.offset() == 0
""")
    # No resets between the tests: only the fixture can have put the clock back.
    result = inner("-p", "no:randomly", "--auth-emulator-reset", "none")
    result.assert_outcomes(passed=2)


def test_attached_it_resets_only_its_project(inner, pytester, auth_emulator, monkeypatch):
    mine, other = auth_emulator.project("demo-attached"), auth_emulator.project("demo-bystander")
    mine.users.create("left-over@example.com", "secret123")
    other.users.create("bystander@example.com", "secret123")
    pytester.makepyfile(test_attached=f"""
def test_attached(auth_emulator, users):
    assert auth_emulator.process is None and auth_emulator.host == "{auth_emulator.host}"
    assert auth_emulator.project_id == "demo-attached"
    assert users.count() == 0
    users.create("attached@example.com", "secret123")
""")
    monkeypatch.setenv("GCLOUD_PROJECT", "demo-attached")
    result = inner("--auth-emulator-host", auth_emulator.host)
    result.assert_outcomes(passed=1)
    assert other.users.count() == 1, "a project reset reached another project"
    assert [user["email"] for user in mine.users.all()] == ["attached@example.com"]


def test_settings_come_from_the_ini_file_too(inner, pytester):
    pytester.makeini("""
[pytest]
auth_emulator_project = demo-from-ini
auth_emulator_args = --idp-tokens strict
""")
    pytester.makepyfile(test_ini="""
import pytest
from auth_emulator import EmulatorError

def test_strict(auth_emulator, auth_client):
    assert auth_emulator.project_id == "demo-from-ini"
    unsigned = "providerId=google.com&id_token=" + '{"sub":"1","iss":"https://accounts.google.com"}'
    with pytest.raises(EmulatorError) as refused:
        auth_client.sign_in_with_idp(unsigned)
    assert refused.value.code == "INVALID_IDP_RESPONSE"
""")
    result = inner()
    result.assert_outcomes(passed=1)


def test_xdist_workers_attached_to_one_emulator_are_refused(inner, pytester, auth_emulator, monkeypatch):
    # What pytest-xdist sets in each worker; its workers would reset each other's project.
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    pytester.makepyfile(test_workers="""
def test_one(users):
    pass
""")
    result = inner("--auth-emulator-host", auth_emulator.host)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*xdist workers share the emulator at*each would reset the others' state*"])
    result = inner("--auth-emulator-host", auth_emulator.host, "--auth-emulator-reset", "none")
    result.assert_outcomes(passed=1)
