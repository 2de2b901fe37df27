// The seeds' six flows of flows-kit.test.js, written with bare fetch as a team without the kit
// writes them (the emulator is started by the kit, which the counts leave out; the shared
// helpers between the "helpers" markers are counted once). Same assertions, same requests.
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { beforeEach, test } from "node:test";
import { emulatorForThisFile } from "./support.js";

const emulator = await emulatorForThisFile();
beforeEach(() => emulator.reset());

// helpers
const base = emulator.url;
const project = emulator.projectId;
async function call(path, body, { method = "POST", owner = false } = {}) {
  const headers = { "Content-Type": "application/json", ...(owner ? { Authorization: "Bearer owner" } : {}) };
  const response = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw Object.assign(new Error(json.error?.message), { code: json.error?.message.split(" : ")[0] });
  return json;
}
const api = (name, body) => call(`/identitytoolkit.googleapis.com/${name.includes("/") ? name : `v1/accounts:${name}`}?key=fake-api-key`, body);
const latest = (query) => call(`/emulator/v1/projects/${project}/messages/latest?${new URLSearchParams({ waitSeconds: 10, ...query })}`, undefined, { method: "GET" });
// end helpers

test("Sign in with Apple: nonce, hidden email, relay forwarding", async () => {
  // flow: apple-relay
  const token = await call("/emulator/v1/idp/apple.com/tokens", { email: "ada@example.com", hideEmail: true, nonce: randomBytes(32).toString("hex") });
  const user = await api("signInWithIdp", { requestUri: "http://localhost", returnSecureToken: true, returnIdpCredential: true, postBody: token.postBody });
  assert.match(user.email, /@privaterelay\.appleid\.com$/);
  assert.equal(token.realEmail, "ada@example.com");
  await api("sendOobCode", { requestType: "VERIFY_EMAIL", idToken: user.idToken });
  const relayed = await latest({ to: user.email });
  assert.deepEqual(relayed.delivery, { status: "relayed", forwardedTo: "ada@example.com", reason: null });
  await call(`/emulator/v1/idp/apple.com/relay/${encodeURIComponent(user.email)}`, { forwarding: false }, { method: "PATCH" });
  await api("sendOobCode", { requestType: "VERIFY_EMAIL", idToken: user.idToken });
  const bounced = await latest({ to: user.email, status: "bounced", since: relayed.id });
  assert.match(bounced.delivery.reason, /^Forwarding off/);
  // end flow
});

test("email-link sign-in", async () => {
  // flow: email-link
  const email = "eli@example.com";
  await api("sendOobCode", { requestType: "EMAIL_SIGNIN", email, continueUrl: "https://app.example.com/done", canHandleCodeInApp: true });
  const message = await latest({ to: email, requestType: "EMAIL_SIGNIN" });
  assert.equal(new URL(message.oobLink).searchParams.get("mode"), "signIn");
  assert.equal(message.continueUrl, "https://app.example.com/done");
  const user = await api("signInWithEmailLink", { email, oobCode: message.oobCode });
  assert.equal(user.email, email);
  assert.equal(user.isNewUser, true);
  // end flow
});

test("Facebook Limited Login", async () => {
  // flow: facebook-limited
  const token = await call("/emulator/v1/idp/facebook.com/tokens", { email: "fay@example.com", name: "Fay Book", nonce: randomBytes(32).toString("hex") });
  const user = await api("signInWithIdp", { requestUri: "http://localhost", returnSecureToken: true, returnIdpCredential: true, postBody: token.postBody });
  assert.equal(user.displayName, "Fay Book");
  assert.equal(user.providerId, "facebook.com");
  await assert.rejects(api("signInWithIdp", { requestUri: "http://localhost", returnSecureToken: true,
    postBody: `providerId=facebook.com&id_token=${token.idToken}&nonce=another` }), { code: "MISSING_OR_INVALID_NONCE" });
  // end flow
});

test("Yahoo through the headful page, without JavaScript", async () => {
  // flow: yahoo-headful
  const query = new URLSearchParams({ apiKey: "fake-api-key", appName: "[DEFAULT]", authType: "signInViaRedirect", redirectUrl: "http://localhost/", eventId: "1", providerId: "yahoo.com" });
  const page = await (await fetch(`${base}/emulator/auth/handler?${query}`)).text();
  const [, action, inside] = /<form[^>]*id="main-form"[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
  const form = new URLSearchParams({ email: "yo@example.com", name: "Yo Hoo" });
  if (/name="emailVerified"[^>]*checked/.test(inside)) form.set("emailVerified", "on");
  const answerPage = await (await fetch(base + action.replaceAll("&amp;", "&"), { method: "POST", body: form, redirect: "manual" })).text();
  const { authEvent } = JSON.parse(/<script type="application\/json" id="auth-answer">([\s\S]*?)<\/script>/.exec(answerPage)[1]);
  const user = await api("signInWithIdp", { requestUri: authEvent.urlResponse, sessionId: authEvent.sessionId, returnSecureToken: true, returnIdpCredential: true });
  assert.equal(user.providerId, "yahoo.com");
  assert.equal(user.displayName, "Yo Hoo");
  assert.equal(user.isNewUser, true);
  // end flow
});

test("Apple token revocation before account deletion", async () => {
  // flow: revoke-then-delete
  const token = await call("/emulator/v1/idp/apple.com/tokens", { email: "del@example.com" });
  const user = await api("signInWithIdp", { requestUri: "http://localhost", returnSecureToken: true, returnIdpCredential: true, postBody: token.postBody });
  await api("v2/accounts:revokeToken", { providerId: "apple.com", tokenType: "CODE", token: token.authorizationCode, idToken: user.idToken });
  await api("delete", { idToken: user.idToken });
  const { revocations: [revocation] } = await call("/emulator/v1/idp/apple.com/revocations", undefined, { method: "GET" });
  assert.equal(revocation.sub, token.sub);
  assert.equal(revocation.projectId, project);
  const { users } = await call(`/identitytoolkit.googleapis.com/v1/projects/${project}/accounts:lookup`, { localId: [user.localId] }, { owner: true });
  assert.equal(users, undefined);
  // end flow
});

test("TOTP second factor: enroll, then sign in with it", async () => {
  // flow: mfa-totp
  const totp = async (secret) => {
    const { now } = await call("/emulator/v1/clock", undefined, { method: "GET" });
    const bits = [...secret.toUpperCase()].map((c) => "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".indexOf(c).toString(2).padStart(5, "0")).join("");
    const key = Buffer.from(bits.match(/.{8}/g).map((byte) => parseInt(byte, 2)));
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(BigInt(Math.floor(Date.parse(now) / 30_000)));
    const digest = createHmac("sha1", key).update(counter).digest();
    return String((digest.readUInt32BE(digest[19] & 15) & 0x7fffffff) % 1_000_000).padStart(6, "0");
  };
  await call(`/identitytoolkit.googleapis.com/v1/projects/${project}/accounts:batchCreate`, { users: [{ localId: "tess", email: "tess@example.com", rawPassword: "secret123", emailVerified: true }] }, { owner: true });
  const first = await api("signInWithPassword", { email: "tess@example.com", password: "secret123", returnSecureToken: true });
  const { totpSessionInfo } = await api("v2/accounts/mfaEnrollment:start", { idToken: first.idToken, totpEnrollmentInfo: {} });
  await api("v2/accounts/mfaEnrollment:finalize", { idToken: first.idToken, displayName: "phone app",
    totpVerificationInfo: { sessionInfo: totpSessionInfo.sessionInfo, verificationCode: await totp(totpSessionInfo.sharedSecretKey) } });
  const second = await api("signInWithPassword", { email: "tess@example.com", password: "secret123", returnSecureToken: true });
  await call("/emulator/v1/clock:advance", { seconds: 60 });
  const done = await api("v2/accounts/mfaSignIn:finalize", { mfaPendingCredential: second.mfaPendingCredential,
    mfaEnrollmentId: second.mfaInfo[0].mfaEnrollmentId, totpVerificationInfo: { verificationCode: await totp(totpSessionInfo.sharedSecretKey) } });
  assert.ok(done.idToken);
  // end flow
});
