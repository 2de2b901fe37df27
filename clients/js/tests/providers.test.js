// The fake providers through the kit: what each mint carries, sign-ins, the headful page, keys,
// revocations, Game Center. Token claims are read here from the JWT itself, not from the kit.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { AuthEmulatorError, sha256Hex } from "@auth-emulator/testing";
import { claimsOf, emulatorForThisFile, uniqueEmail } from "./support.js";

const emulator = await emulatorForThisFile();
beforeEach(() => emulator.reset());

test("Apple: the raw nonce's SHA-256 is in the token, the raw nonce in postBody, the hidden email's real address in realEmail", async () => {
  const email = uniqueEmail("apple");
  const token = await emulator.apple.mint({ email, hideEmail: true, nonce: true });
  assert.match(token.rawNonce, /^[0-9a-f]{64}$/);
  const claims = claimsOf(token.idToken);
  assert.equal(claims.iss, "https://appleid.apple.com");
  assert.equal(claims.nonce, await sha256Hex(token.rawNonce));
  assert.equal(claims.is_private_email, "true");
  assert.match(token.email, /@privaterelay\.appleid\.com$/);
  assert.equal(token.realEmail, email);
  assert.ok(token.postBody.endsWith(`&nonce=${token.rawNonce}`), token.postBody);
  assert.deepEqual(token.credential, { providerId: "apple.com", idToken: token.idToken, rawNonce: token.rawNonce });
  assert.ok(token.authorizationCode);
});

test("Apple: the name comes with the first sign-in only, as Apple sends it", async () => {
  const email = uniqueEmail("named");
  const first = await emulator.apple.signIn({ email, name: { firstName: "Lin", lastName: "Chen" } });
  assert.equal(first.user.displayName, "Lin Chen");
  assert.equal(first.user.isNewUser, true);
  assert.ok(first.token.postBody.endsWith('&user={"name":{"firstName":"Lin","lastName":"Chen"}}'), first.token.postBody);
  const again = await emulator.apple.signIn({ email, name: "Someone Else" });
  assert.ok(!again.user.isNewUser); // a returning user: the answer leaves isNewUser out
  assert.equal(again.user.localId, first.user.localId);
  assert.equal((await emulator.users.lookup({ uid: first.user.localId })).displayName, "Lin Chen");
});

test("Apple: a revoked authorization code is recorded for the project that revoked it", async () => {
  const { user, token } = await emulator.apple.signIn({ email: uniqueEmail("revoke") });
  assert.deepEqual(await emulator.apple.revocations(), []);
  await emulator.call("v2/accounts:revokeToken", { providerId: "apple.com", tokenType: "CODE", token: token.authorizationCode, idToken: user.idToken });
  const revocations = await emulator.apple.revocations();
  assert.equal(revocations.length, 1);
  assert.equal(revocations[0].authorizationCode, token.authorizationCode);
  assert.equal(revocations[0].sub, token.sub);
  assert.equal(revocations[0].projectId, emulator.projectId);
});

test("Facebook: a Limited Login token hashes the nonce; a classic access token signs in through the fake Graph API", async () => {
  const email = uniqueEmail("fay");
  const limited = await emulator.facebook.limitedLogin({ email, name: "Fay Book", nonce: "raw-nonce" });
  assert.equal(claimsOf(limited.idToken).nonce, await sha256Hex("raw-nonce"));
  const classic = await emulator.facebook.classic({ email, name: "Fay Book", picture: "https://example.com/fay.png" });
  assert.equal(classic.postBody, `providerId=facebook.com&access_token=${classic.accessToken}`);
  assert.deepEqual(classic.credential, { providerId: "facebook.com", accessToken: classic.accessToken });
  const me = await emulator.facebook.me(classic.accessToken, ["id", "name", "picture"]);
  assert.deepEqual(Object.keys(me).sort(), ["id", "name", "picture"]);
  assert.equal(me.picture.data.url, "https://example.com/fay.png");
  const { user } = await emulator.facebook.signIn({ email, name: "Fay Book" });
  assert.equal(user.providerId, "facebook.com");
  const signedIn = await emulator.call("signInWithIdp", { requestUri: "http://localhost", returnSecureToken: true, postBody: classic.postBody });
  assert.equal(signedIn.localId, user.localId);
  await assert.rejects(emulator.facebook.me("not-a-token"), (error) => error instanceof AuthEmulatorError && error.code === "OAuthException" && error.status === 400);
});

test("Google, Yahoo and any OIDC id mint their own issuers and sign in", async () => {
  for (const [provider, issuer] of [[emulator.google, "https://accounts.google.com"], [emulator.yahoo, "https://api.login.yahoo.com"],
    [emulator.provider("oidc.example"), `${emulator.url}/emulator/v1/idp/oidc.example`]]) {
    const { user, token } = await provider.signIn({ email: uniqueEmail(provider.providerId), nonce: "n-1" });
    assert.equal(claimsOf(token.idToken).iss, issuer);
    assert.equal(claimsOf(token.idToken).nonce, "n-1"); // the raw nonce, unlike Apple's and Facebook's
    assert.equal(user.providerId, provider.providerId);
    assert.equal((await provider.discovery()).issuer, issuer);
  }
});

test("a refusal that signInWithIdp answers with 200 and errorMessage is thrown with its code", async () => {
  const email = uniqueEmail("linked");
  const { user } = await emulator.google.signIn({ email, sub: "google-sub-1" });
  const other = await emulator.call("signUp", { returnSecureToken: true });
  await assert.rejects(emulator.google.signIn({ email, sub: "google-sub-1" }, { idToken: other.idToken }),
    (error) => error instanceof AuthEmulatorError && error.code === "FEDERATED_USER_ID_ALREADY_LINKED" && error.status === 200);
  assert.ok(user.localId);
});

test("rotated keys: new tokens carry the new kid, and a token of the old key still signs in", async () => {
  const before = await emulator.yahoo.mint({ email: uniqueEmail("rotate") });
  const kid = await emulator.yahoo.rotateKeys();
  const kids = (await emulator.yahoo.jwks()).keys.map((key) => key.kid);
  assert.ok(kids.includes(kid) && kids.length >= 2, kids.join());
  const after = await emulator.yahoo.mint({ email: uniqueEmail("rotate") });
  assert.equal(JSON.parse(Buffer.from(after.idToken.split(".")[0], "base64url")).kid, kid);
  await emulator.call("signInWithIdp", { requestUri: "http://localhost", returnSecureToken: true, postBody: before.postBody });
  const ecKid = await emulator.yahoo.rotateKeys({ alg: "ES256" });
  assert.equal((await emulator.yahoo.jwks()).keys.find((key) => key.kid === ecKid).kty, "EC");
});

test("the headful page, driven without JavaScript: a new account, a returning one, Apple's hidden email, a tenant", async () => {
  const email = uniqueEmail("headful");
  const first = await emulator.yahoo.signInHeadful({ email, name: "Yo Hoo", screenName: "yohoo" });
  assert.equal(first.isNewUser, true);
  assert.equal(first.displayName, "Yo Hoo");
  assert.equal(first.email, email);
  const again = await emulator.yahoo.signInHeadful({ email });
  assert.ok(!again.isNewUser);
  assert.equal(again.localId, first.localId);

  const apple = await emulator.apple.signInHeadful({ email: uniqueEmail("hidden"), hideEmail: true });
  assert.match(apple.email, /@privaterelay\.appleid\.com$/);

  const tenant = await emulator.tenant("team-headful");
  const inTenant = await tenant.google.signInHeadful({ email });
  assert.equal(claimsOf(inTenant.idToken).firebase.tenant, "team-headful");
  assert.equal((await tenant.users.list()).length, 1);
});

test("the headful page names the fields it has when given one it lacks", async () => {
  await assert.rejects(emulator.yahoo.signInHeadful({ email: uniqueEmail("x"), hideEmail: true }),
    (error) => error instanceof TypeError && /no hideEmail field/.test(error.message) && /email, name/.test(error.message));
});

test("Game Center: a player identity signed by the fake provider signs in", async () => {
  const identity = await emulator.gameCenter.mint({ playerId: "G:1234", teamPlayerId: "T:5678", displayName: "Player One", bundleId: "com.example.game" });
  assert.ok(identity.requestBody, JSON.stringify(identity));
  const { user } = await emulator.gameCenter.signIn({ teamPlayerId: "T:5678", displayName: "Player One" });
  assert.equal(user.isNewUser, true);
  assert.equal(user.displayName, "Player One");
});
