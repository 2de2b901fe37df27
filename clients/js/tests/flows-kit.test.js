// The seeds' six flows written with the kit, each driving the REST API as the Firebase JS SDK
// does (`call` is the SDK's request; the kit does the emulator side). flows-raw.test.js has the
// same flows with bare fetch; tests/flow-lines.test.js counts the lines between the markers.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { emulatorForThisFile } from "./support.js";

const emulator = await emulatorForThisFile();
beforeEach(() => emulator.reset());

test("Sign in with Apple: nonce, hidden email, relay forwarding", async () => {
  // flow: apple-relay
  const { user, token } = await emulator.apple.signIn({ email: "ada@example.com", hideEmail: true, nonce: true });
  assert.match(user.email, /@privaterelay\.appleid\.com$/);
  assert.equal(token.realEmail, "ada@example.com");
  await emulator.call("sendOobCode", { requestType: "VERIFY_EMAIL", idToken: user.idToken });
  const relayed = await emulator.outbox.waitFor({ to: user.email });
  assert.deepEqual(relayed.delivery, { status: "relayed", forwardedTo: "ada@example.com", reason: null });
  await emulator.relay.setForwarding(user.email, false);
  await emulator.call("sendOobCode", { requestType: "VERIFY_EMAIL", idToken: user.idToken });
  const bounced = await emulator.outbox.waitFor({ to: user.email, status: "bounced", since: relayed.id });
  assert.match(bounced.delivery.reason, /^Forwarding off/);
  // end flow
});

test("email-link sign-in", async () => {
  // flow: email-link
  const email = "eli@example.com";
  await emulator.call("sendOobCode", { requestType: "EMAIL_SIGNIN", email, continueUrl: "https://app.example.com/done", canHandleCodeInApp: true });
  const message = await emulator.outbox.waitFor({ to: email, requestType: "EMAIL_SIGNIN" });
  assert.equal(message.mode, "signIn");
  assert.equal(message.continueUrl, "https://app.example.com/done");
  const user = await emulator.outbox.completeEmailLink(message);
  assert.equal(user.email, email);
  assert.equal(user.isNewUser, true);
  // end flow
});

test("Facebook Limited Login", async () => {
  // flow: facebook-limited
  const { user, token } = await emulator.facebook.signIn({ email: "fay@example.com", name: "Fay Book", nonce: true });
  assert.equal(user.displayName, "Fay Book");
  assert.equal(user.providerId, "facebook.com");
  await assert.rejects(emulator.call("signInWithIdp", { requestUri: "http://localhost", returnSecureToken: true,
    postBody: `providerId=facebook.com&id_token=${token.idToken}&nonce=another` }), { code: "MISSING_OR_INVALID_NONCE" });
  // end flow
});

test("Yahoo through the headful page, without JavaScript", async () => {
  // flow: yahoo-headful
  const user = await emulator.yahoo.signInHeadful({ email: "yo@example.com", name: "Yo Hoo" });
  assert.equal(user.providerId, "yahoo.com");
  assert.equal(user.displayName, "Yo Hoo");
  assert.equal(user.isNewUser, true);
  // end flow
});

test("Apple token revocation before account deletion", async () => {
  // flow: revoke-then-delete
  const { user, token } = await emulator.apple.signIn({ email: "del@example.com" });
  await emulator.call("v2/accounts:revokeToken", { providerId: "apple.com", tokenType: "CODE", token: token.authorizationCode, idToken: user.idToken });
  await emulator.call("delete", { idToken: user.idToken });
  const [revocation] = await emulator.apple.revocations();
  assert.equal(revocation.sub, token.sub);
  assert.equal(revocation.projectId, emulator.projectId);
  assert.equal(await emulator.users.lookup({ uid: user.localId }), null);
  // end flow
});

test("TOTP second factor: enroll, then sign in with it", async () => {
  // flow: mfa-totp
  await emulator.users.seed({ email: "tess@example.com", password: "secret123", emailVerified: true });
  const first = await emulator.call("signInWithPassword", { email: "tess@example.com", password: "secret123", returnSecureToken: true });
  const { totpSessionInfo } = await emulator.call("v2/accounts/mfaEnrollment:start", { idToken: first.idToken, totpEnrollmentInfo: {} });
  await emulator.call("v2/accounts/mfaEnrollment:finalize", { idToken: first.idToken, displayName: "phone app",
    totpVerificationInfo: { sessionInfo: totpSessionInfo.sessionInfo, verificationCode: await emulator.totpCode(totpSessionInfo.sharedSecretKey) } });
  const second = await emulator.call("signInWithPassword", { email: "tess@example.com", password: "secret123", returnSecureToken: true });
  await emulator.clock.advance(60);
  const done = await emulator.call("v2/accounts/mfaSignIn:finalize", { mfaPendingCredential: second.mfaPendingCredential,
    mfaEnrollmentId: second.mfaInfo[0].mfaEnrollmentId, totpVerificationInfo: { verificationCode: await emulator.totpCode(totpSessionInfo.sharedSecretKey) } });
  assert.ok(done.idToken);
  // end flow
});

test("the JS SDK's own revokeAccessToken (tokenType ACCESS_TOKEN)", async () => {
  const { user, token } = await emulator.apple.signIn({ email: "web@example.com" });
  await emulator.call("v2/accounts:revokeToken", { providerId: "apple.com", tokenType: "ACCESS_TOKEN", token: token.accessToken, idToken: user.idToken });
  const revoked = (await emulator.apple.revocations()).filter((revocation) => revocation.accessToken === token.accessToken);
  assert.equal(revoked.length, 1);
  assert.equal(revoked[0].tokenType, "ACCESS_TOKEN");
});
