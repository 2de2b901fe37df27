// The outbox through the kit: long-poll waits and what a timeout says, typed messages, the
// email-action helpers, SMS codes, the relay, tenants.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { WaitTimeoutError } from "@auth-emulator/testing";
import { emulatorForThisFile, uniqueEmail } from "./support.js";

const emulator = await emulatorForThisFile();
beforeEach(() => emulator.reset());

const signInLink = (email, extra = {}) =>
  emulator.call("sendOobCode", { requestType: "EMAIL_SIGNIN", email, continueUrl: "https://app.example.com/done", ...extra });

test("a wait started before the mail is sent answers with it; the message is typed", async () => {
  const email = uniqueEmail("wait");
  const waiting = emulator.outbox.waitFor({ to: email });
  await signInLink(email, { canHandleCodeInApp: true, iOSBundleId: "com.example.app" });
  const message = await waiting;
  assert.equal(message.to, email);
  assert.equal(message.requestType, "EMAIL_SIGNIN");
  assert.equal(message.mode, "signIn");
  assert.equal(message.link, message.oobLink);
  assert.equal(new URL(message.link).searchParams.get("oobCode"), message.oobCode);
  assert.equal(message.continueUrl, "https://app.example.com/done");
  assert.ok(message.appLink);
  assert.deepEqual(message.delivery, { status: "delivered", forwardedTo: null, reason: null });
  assert.deepEqual(await emulator.outbox.get(message.id), message);
  assert.deepEqual(await emulator.outbox.latest({ to: email }), message);
});

test("a wait that times out says what it waited for and what the outbox held, bounced mail with its reason", async () => {
  await signInLink(uniqueEmail("someone-else"));
  await signInLink("nobody@privaterelay.appleid.com");
  await assert.rejects(emulator.outbox.waitFor({ to: "expected@example.com", requestType: "PASSWORD_RESET", timeoutMs: 500 }), (error) => {
    assert.ok(error instanceof WaitTimeoutError);
    assert.equal(error.seconds, 0.5);
    assert.match(error.waitedFor, /to=expected@example\.com, requestType=PASSWORD_RESET in the outbox of demo-project/);
    assert.match(error.saw, /#\d+ EMAIL_SIGNIN to nobody@privaterelay\.appleid\.com, bounced \(Unknown relay address: /);
    assert.match(error.saw, /EMAIL_SIGNIN to someone-else\.[^,]*, delivered/);
    return true;
  });
  await emulator.outbox.clear();
  await assert.rejects(emulator.outbox.waitFor({ timeoutMs: 200 }), { saw: "an empty outbox" });
});

test("a wait the emulator refuses fails with the emulator's error, not at its deadline", async () => {
  await assert.rejects(emulator.outbox.waitFor({ since: "not-an-id", timeoutMs: 600_000 }),
    (error) => error.code === "INVALID_ARGUMENT" && /since must be a message id/.test(error.detail));
  await assert.rejects(emulator.outbox.latest({ bogus: "x" }), { code: "INVALID_ARGUMENT" });
});

test("since waits for mail newer than a message; latest skips bounced mail unless asked; clear deletes", async () => {
  const email = uniqueEmail("since");
  assert.equal(await emulator.outbox.newestId(), null);
  await signInLink(email);
  const first = await emulator.outbox.waitFor({ to: email });
  assert.equal(await emulator.outbox.newestId(), first.id);
  await assert.rejects(emulator.outbox.waitFor({ to: email, since: first.id, timeoutMs: 300 }), WaitTimeoutError);
  await signInLink(email);
  const second = await emulator.outbox.waitFor({ to: email, since: first.id });
  assert.notEqual(second.id, first.id);
  assert.deepEqual((await emulator.outbox.list({ to: email })).map((m) => m.id), [second.id, first.id]);

  await signInLink("gone@privaterelay.appleid.com");
  assert.equal(await emulator.outbox.latest({ to: "gone@privaterelay.appleid.com" }), null);
  assert.equal((await emulator.outbox.latest({ to: "gone@privaterelay.appleid.com", status: "bounced" })).delivery.status, "bounced");

  await emulator.outbox.clear(first.id);
  assert.deepEqual((await emulator.outbox.list({ to: email })).map((m) => m.id), [second.id]);
  await emulator.outbox.clear();
  assert.deepEqual(await emulator.outbox.list(), []);
});

test("applyCode does what the JS SDK does with each action code", async () => {
  const email = uniqueEmail("codes");
  const user = await emulator.call("signUp", { email, password: "secret123", returnSecureToken: true });

  await emulator.call("sendOobCode", { requestType: "VERIFY_EMAIL", idToken: user.idToken });
  const verify = await emulator.outbox.waitFor({ to: email, requestType: "VERIFY_EMAIL" });
  assert.equal(verify.mode, "verifyEmail");
  await emulator.outbox.applyCode(verify);
  assert.equal((await emulator.users.lookup({ email })).emailVerified, true);

  await emulator.call("sendOobCode", { requestType: "PASSWORD_RESET", email });
  const reset = await emulator.outbox.waitFor({ to: email, requestType: "PASSWORD_RESET" });
  await assert.rejects(emulator.outbox.applyCode(reset), /needs \{ newPassword \}/);
  await emulator.outbox.applyCode(reset, { newPassword: "secret456" });
  await emulator.call("signInWithPassword", { email, password: "secret456" });
  await assert.rejects(emulator.call("signInWithPassword", { email, password: "secret123" }), { code: "INVALID_PASSWORD" });

  await signInLink(email);
  const link = await emulator.outbox.waitFor({ to: email, requestType: "EMAIL_SIGNIN" });
  assert.equal((await emulator.outbox.applyCode(link)).localId, user.localId);
  await assert.rejects(emulator.outbox.completeEmailLink(reset), /needs an EMAIL_SIGNIN message/);
});

test("completeEmailLink with idToken links the email to the signed-in user", async () => {
  const anonymous = await emulator.call("signUp", { returnSecureToken: true });
  const email = uniqueEmail("link");
  await signInLink(email);
  const linked = await emulator.outbox.completeEmailLink(await emulator.outbox.waitFor({ to: email }), { idToken: anonymous.idToken });
  assert.equal(linked.localId, anonymous.localId);
  assert.equal(linked.email, email);
});

test("SMS codes: phone sign-in with the code read from the outbox, and the official list", async () => {
  const phoneNumber = "+16505550142";
  const { sessionInfo } = await emulator.call("sendVerificationCode", { phoneNumber });
  const codes = await emulator.sms.verificationCodes();
  assert.equal(codes.length, 1);
  const code = await emulator.sms.waitForCode(phoneNumber, { requestType: "PHONE_SIGN_IN" });
  assert.equal(code, codes[0].code);
  const user = await emulator.call("signInWithPhoneNumber", { sessionInfo, code });
  assert.equal(user.phoneNumber, phoneNumber);
  assert.equal((await emulator.sms.waitFor(phoneNumber)).mode, null);
});

test("second-factor SMS codes: a seeded phone factor signs in with the code from the outbox", async () => {
  const phoneNumber = "+16505550143";
  const seeded = await emulator.users.seed({ email: uniqueEmail("mfa-sms"), password: "secret123", emailVerified: true, mfa: [{ phoneNumber }] });
  const first = await emulator.call("signInWithPassword", { email: seeded.email, password: "secret123", returnSecureToken: true });
  const [hint] = first.mfaInfo;
  const { phoneResponseInfo } = await emulator.call("v2/accounts/mfaSignIn:start", {
    mfaPendingCredential: first.mfaPendingCredential, mfaEnrollmentId: hint.mfaEnrollmentId, phoneSignInInfo: { phoneNumber: hint.phoneInfo } });
  const code = await emulator.sms.waitForCode(phoneNumber, { requestType: "MFA_SIGN_IN" });
  const done = await emulator.call("v2/accounts/mfaSignIn:finalize", {
    mfaPendingCredential: first.mfaPendingCredential, phoneVerificationInfo: { sessionInfo: phoneResponseInfo.sessionInfo, code } });
  assert.ok(done.idToken);
});

test("the relay: settings, registered senders, addresses and their forwarding", async () => {
  const { token } = await emulator.apple.signIn({ email: uniqueEmail("relay"), hideEmail: true });
  assert.deepEqual(await emulator.relay.settings(), { registeredSenders: ["noreply@demo-project.firebaseapp.com"], spfFailingDomains: [], dailyLimit: 100 });
  const updated = await emulator.relay.registerSenders("@shop.example", "noreply@demo-project.firebaseapp.com");
  assert.deepEqual(updated.registeredSenders, ["noreply@demo-project.firebaseapp.com", "@shop.example"]);
  assert.equal((await emulator.relay.update({ dailyLimit: 5 })).dailyLimit, 5);
  const entry = (await emulator.relay.addresses()).find((address) => address.address === token.email);
  assert.deepEqual(entry, { address: token.email, forwardTo: token.realEmail, forwarding: true });
  assert.equal((await emulator.relay.setForwarding(token.email, false)).forwarding, false);
  await signInLink(token.email);
  const bounced = await emulator.outbox.waitFor({ to: token.email, status: "bounced" });
  assert.match(bounced.delivery.reason, /^Forwarding off/);
  await emulator.relay.setForwarding(token.email, true); // relay addresses outlive resets
});

test("a tenant's outbox holds the tenant's mail only", async () => {
  const tenant = await emulator.tenant("team-outbox");
  const email = uniqueEmail("tenant");
  await tenant.call("sendOobCode", { requestType: "EMAIL_SIGNIN", email, continueUrl: "https://app.example.com/done" });
  await signInLink(email);
  const inTenant = await tenant.outbox.waitFor({ to: email });
  assert.equal(inTenant.tenantId, "team-outbox");
  assert.equal((await tenant.outbox.list()).length, 1);
  assert.equal((await emulator.outbox.list({ to: email })).length, 2);
  const user = await tenant.outbox.completeEmailLink(inTenant);
  assert.equal((await tenant.users.lookup({ uid: user.localId })).email, email);
  assert.equal(await emulator.users.lookup({ uid: user.localId }), null);
});
