// The emulator clock through the kit, and TOTP codes computed at its time.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { AuthEmulatorError, totpCode } from "@auth-emulator/testing";
import { emulatorForThisFile, uniqueEmail } from "./support.js";

const emulator = await emulatorForThisFile();
beforeEach(() => emulator.reset());

test("read, advance, set and reset", async () => {
  const start = await emulator.clock.read();
  assert.equal(start.offsetSeconds, 0);
  assert.ok(start.now instanceof Date);
  const advanced = await emulator.clock.advance(3600);
  assert.ok(advanced - start.now >= 3600_000, `${advanced.toISOString()} vs ${start.now.toISOString()}`);
  assert.ok((await emulator.clock.read()).offsetSeconds >= 3599);
  // The clock runs on from the time set, so the answer is that time or a moment after it.
  const runsOnFrom = (answer, time) => answer - new Date(time) >= 0 && answer - new Date(time) < 60_000;
  assert.ok(runsOnFrom(await emulator.clock.set(new Date("2031-05-01T12:00:00Z")), "2031-05-01T12:00:00Z"));
  assert.ok(runsOnFrom(await emulator.clock.set("2032-01-01T00:00:00+09:00"), "2031-12-31T15:00:00Z"));
  await emulator.clock.reset();
  assert.equal((await emulator.clock.read()).offsetSeconds, 0);
  await assert.rejects(emulator.clock.advance(-1), (error) => error instanceof AuthEmulatorError && error.code === "INVALID_ARGUMENT" && /only moves forward/.test(error.detail));
  await assert.rejects(emulator.clock.set("2001-01-01T00:00:00Z"), { code: "INVALID_ARGUMENT" });
});

test("scoped puts the clock back whether the body passes or throws", async () => {
  const answer = await emulator.clock.scoped(async (clock) => {
    await clock.advance(86_400);
    assert.ok((await clock.read()).offsetSeconds >= 86_399);
    return "done";
  });
  assert.equal(answer, "done");
  assert.equal((await emulator.clock.read()).offsetSeconds, 0);
  await assert.rejects(emulator.clock.scoped(async (clock) => {
    await clock.advance(600);
    throw new Error("the test failed");
  }), /the test failed/);
  assert.equal((await emulator.clock.read()).offsetSeconds, 0);
});

test("an email code expires when the clock passes its lifetime", async () => {
  const email = uniqueEmail("expiry");
  await emulator.users.seed({ email, password: "secret123" });
  await emulator.call("sendOobCode", { requestType: "PASSWORD_RESET", email });
  const reset = await emulator.outbox.waitFor({ to: email });
  await emulator.clock.advance(3601);
  await assert.rejects(emulator.outbox.applyCode(reset, { newPassword: "secret456" }), { code: "EXPIRED_OOB_CODE" });
});

test("the emulator takes a TOTP code at its own time, not this machine's", async () => {
  const email = uniqueEmail("totp");
  await emulator.users.seed({ email, password: "secret123", emailVerified: true });
  const { idToken } = await emulator.call("signInWithPassword", { email, password: "secret123", returnSecureToken: true });
  await emulator.clock.advance(7200);
  const { totpSessionInfo } = await emulator.call("v2/accounts/mfaEnrollment:start", { idToken, totpEnrollmentInfo: {} });
  const byThisMachine = await totpCode(totpSessionInfo.sharedSecretKey, Date.now());
  await assert.rejects(emulator.call("v2/accounts/mfaEnrollment:finalize", {
    idToken, totpVerificationInfo: { sessionInfo: totpSessionInfo.sessionInfo, verificationCode: byThisMachine } }), { code: "INVALID_CODE" });
  await emulator.call("v2/accounts/mfaEnrollment:finalize", {
    idToken, totpVerificationInfo: { sessionInfo: totpSessionInfo.sessionInfo, verificationCode: await emulator.totpCode(totpSessionInfo.sharedSecretKey) } });
  assert.equal((await emulator.users.lookup({ email })).mfaInfo.length, 1);
});
