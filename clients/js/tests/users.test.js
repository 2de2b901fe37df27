// Seeding and reading users through the official import and admin routes.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { SeedError } from "@auth-emulator/testing";
import { claimsOf, emulatorForThisFile, uniqueEmail } from "./support.js";

const emulator = await emulatorForThisFile();
beforeEach(() => emulator.reset());

test("seed creates password, provider, MFA, disabled and claimed users in one call, answered as stored", async () => {
  const [ada, apple, guarded, off] = await emulator.users.seed([
    { uid: "ada", email: "Ada@Example.com", password: "secret123", displayName: "Ada", customClaims: { role: "admin" } },
    { email: uniqueEmail("apple"), providers: [{ providerId: "apple.com", uid: "001234.abc.0123", email: "hidden@privaterelay.appleid.com" }] },
    { email: uniqueEmail("mfa"), emailVerified: true, password: "secret123", mfa: [{ phoneNumber: "+16505550177", displayName: "work phone" }] },
    { email: uniqueEmail("off"), password: "secret123", disabled: true },
  ]);
  assert.equal(ada.localId, "ada");
  assert.equal(ada.email, "ada@example.com");
  assert.equal(ada.customAttributes, '{"role":"admin"}');
  assert.match(apple.localId, /^[A-Za-z0-9]{28}$/);
  assert.deepEqual(apple.providerUserInfo.map((info) => [info.providerId, info.rawId]), [["apple.com", "001234.abc.0123"]]);
  assert.equal(guarded.mfaInfo[0].phoneInfo, "+16505550177");
  assert.equal(off.disabled, true);

  const signedIn = await emulator.call("signInWithPassword", { email: "ada@example.com", password: "secret123", returnSecureToken: true });
  assert.equal(claimsOf(signedIn.idToken).role, "admin");
  const second = await emulator.call("signInWithPassword", { email: guarded.email, password: "secret123", returnSecureToken: true });
  assert.ok(second.mfaPendingCredential);
  await assert.rejects(emulator.call("signInWithPassword", { email: off.email, password: "secret123" }), { code: "USER_DISABLED" });
});

test("a refused seed names each refused user; the others exist", async () => {
  await assert.rejects(emulator.users.seed([
    { uid: "fine", email: uniqueEmail("fine") },
    { uid: "bad", email: "not an email" },
    { uid: "mfa", email: uniqueEmail("unverified"), mfa: [{ phoneNumber: "+16505550178" }] },
  ]), (error) => {
    assert.ok(error instanceof SeedError);
    assert.deepEqual(error.failures.map(({ index, message }) => [index, message]),
      [[1, "email is invalid"], [2, "Second factor account requires email to be verified."]]);
    assert.match(error.message, /#1 \(not an email\): email is invalid/);
    return true;
  });
  assert.deepEqual((await emulator.users.list()).map((user) => user.localId), ["fine"]);
});

test("lookup, list, delete and clear", async () => {
  const one = await emulator.users.seed({ email: uniqueEmail("one"), phoneNumber: "+16505550179" });
  await emulator.users.seed({ email: uniqueEmail("two") });
  assert.equal((await emulator.users.lookup({ email: one.email })).localId, one.localId);
  assert.equal((await emulator.users.lookup({ phoneNumber: "+16505550179" })).localId, one.localId);
  assert.equal((await emulator.users.lookup({ uid: one.localId })).email, one.email);
  assert.equal(await emulator.users.lookup({ email: "nobody@example.com" }), null);
  assert.equal((await emulator.users.list()).length, 2);
  await emulator.users.delete(one.localId);
  assert.equal(await emulator.users.lookup({ uid: one.localId }), null);
  await emulator.users.clear();
  assert.deepEqual(await emulator.users.list(), []);
});

test("a tenant's users are its own", async () => {
  const tenant = await emulator.tenant("team-users");
  const seeded = await tenant.users.seed({ email: uniqueEmail("tenant"), password: "secret123" });
  assert.equal(seeded.tenantId, "team-users");
  assert.deepEqual(await emulator.users.list(), []);
  const signedIn = await tenant.call("signInWithPassword", { email: seeded.email, password: "secret123", returnSecureToken: true });
  assert.equal(signedIn.localId, seeded.localId);
  await assert.rejects(emulator.call("signInWithPassword", { email: seeded.email, password: "secret123" }), { code: "EMAIL_NOT_FOUND" });
  await tenant.users.clear();
  assert.deepEqual(await tenant.users.list(), []);
});

test("lookup takes exactly one key", async () => {
  await assert.rejects(emulator.users.lookup({}), /exactly one of/);
  await assert.rejects(emulator.users.lookup({ email: "a@example.com", uid: "a" }), /exactly one of/);
});
