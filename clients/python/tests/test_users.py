"""Seeding users in one call through the official import route, and reading them back."""

import pytest
from firebase_admin import auth

from auth_emulator import EmulatorError, LinkedProvider, SeedError, User, claims_of
from conftest import unique_email


def test_seed_many_kinds_in_one_call(users, auth_client, providers):
    plain, admin, banned, federated, two_factor = (unique_email(kind) for kind in
                                                    ("plain", "admin", "banned", "federated", "mfa"))
    uids = users.seed(
        User(email=plain, password="secret123"),
        User(email=admin, password="secret123", uid="admin-uid", display_name="Ada", custom_claims={"admin": True}),
        User(email=banned, password="secret123", disabled=True),
        User(email=federated, providers=[LinkedProvider("google.com", "g-123", email=federated)]),
        User(email=two_factor, password="secret123", email_verified=True, phone_factors=["+16505550111"]),
    )
    assert len(uids) == 5 and uids[1] == "admin-uid" and users.count() == 5

    assert auth_client.sign_in_with_password(plain, "secret123").uid == uids[0]
    signed_in = auth_client.sign_in_with_password(admin, "secret123")
    assert claims_of(signed_in.id_token)["admin"] is True and users.get("admin-uid")["displayName"] == "Ada"
    with pytest.raises(EmulatorError) as disabled:
        auth_client.sign_in_with_password(banned, "secret123")
    assert disabled.value.code == "USER_DISABLED"
    # The seeded Google identity is the one a minted token with that sub signs into.
    minted = providers.google.mint(federated, sub="g-123")
    assert auth_client.sign_in_with_idp(minted).uid == uids[3]
    pending = auth_client.sign_in_with_password(two_factor, "secret123")
    assert pending.needs_second_factor and not pending.id_token
    assert pending.mfa_info[0]["phoneInfo"] == "+*******0111"


def test_refused_users_are_named(users):
    with pytest.raises(SeedError) as refused:
        users.seed(User(email=unique_email()), User(email="not-an-email"),
                   User(email=unique_email("mfa"), phone_factors=["+16505550112"]))
    report = str(refused.value)
    assert "user 1 (not-an-email): email is invalid" in report
    assert "Second factor account requires email to be verified." in report
    assert [error["index"] for error in refused.value.errors] == [1, 2]


def test_lookups(users):
    email = unique_email("lookup")
    uid = users.create(email, "secret123")
    assert users.get(uid)["email"] == email and users.by_email(email)["localId"] == uid
    assert users.get("no-such-uid") is None and users.by_email(unique_email("none")) is None
    assert [user["localId"] for user in users.all()] == [uid]
    users.clear()
    assert users.count() == 0


def test_other_projects_and_tenants_side_by_side(auth_emulator):
    email = unique_email("twice")
    other = auth_emulator.project("demo-other")
    tenant = auth_emulator.tenant("team-b")
    for project in (auth_emulator.default, other, tenant):
        project.users.create(email, "secret123")
    assert [p.users.count() for p in (auth_emulator.default, other, tenant)] == [1, 1, 1]
    other.reset()
    assert [p.users.count() for p in (auth_emulator.default, other, tenant)] == [1, 0, 1]
    assert tenant.client.sign_in_with_password(email, "secret123").raw["localId"]


def test_custom_tokens_and_refresh(users, auth_client, admin_app):
    uid = users.create(unique_email("custom"))
    token = auth.create_custom_token(uid, {"tier": "gold"}, app=admin_app)
    signed_in = auth_client.sign_in_with_custom_token(token)
    assert signed_in.uid == uid and claims_of(signed_in.id_token)["tier"] == "gold"
    refreshed = auth_client.refresh(signed_in.refresh_token)
    assert refreshed["user_id"] == uid and claims_of(refreshed["id_token"])["tier"] == "gold"
