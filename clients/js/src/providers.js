// The emulator's fake identity providers (one set per emulator, shared by all projects): mint
// tokens, sign in with them, rotate keys, and drive the headful sign-in page without JavaScript.
import { AuthEmulatorError, describeFailure } from "./errors.js";
import { failure } from "./http.js";
import { randomNonce } from "./crypto.js";

/** What signInWithCredential sends (the JS SDK's idp request), on the scope's project or tenant. */
async function signInWithIdp(scope, request) {
  const answer = await scope.call("signInWithIdp", { returnSecureToken: true, returnIdpCredential: true, ...request });
  // With returnIdpCredential, a refusal comes back as 200 with errorMessage; the SDK throws it.
  if (answer.errorMessage) {
    const url = `${scope.connection.url}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp`;
    const described = describeFailure(200, { error: { message: answer.errorMessage } });
    throw new AuthEmulatorError({ status: 200, ...described, method: "POST", url, body: answer });
  }
  return answer;
}

/** The Apple SDK's `user` item of postBody: the name Apple hands over on first authorization. */
function appleUserItem(name) {
  const { firstName, lastName } = typeof name === "string"
    ? { firstName: name.split(" ")[0], lastName: name.split(" ").slice(1).join(" ") }
    : name;
  return `&user=${JSON.stringify({ name: { firstName, lastName } })}`;
}

export class FakeProvider {
  /**
   * @param {import("./emulator.js").AuthScope} scope where sign-ins go (mints are emulator-wide)
   * @param {string} providerId
   */
  constructor(scope, providerId) {
    this.scope = scope;
    this.providerId = providerId;
    this.path = `/emulator/v1/idp/${encodeURIComponent(providerId)}`;
  }

  /**
   * Mints a signed token shaped like the real provider's. Options are the route's (`email`,
   * `emailVerified`, `sub`, `name`, `picture`, `nonce` (raw; `true` for a fresh one),
   * `hashedNonce`, `audience`, `expiresInSeconds`, `alg`, `claims`). Answers the route's fields
   * plus `rawNonce` and `credential` (what `OAuthProvider(providerId).credential()` takes).
   */
  async mint(options = {}) {
    const body = options.nonce === true ? { ...options, nonce: await randomNonce() } : options;
    const minted = await this.scope.connection.json("POST", `${this.path}/tokens`, { json: body });
    const rawNonce = typeof body.nonce === "string" ? body.nonce : undefined;
    return { ...minted, rawNonce, credential: { providerId: minted.providerId, idToken: minted.idToken, rawNonce } };
  }

  /**
   * Mints a token and signs in with it as `signInWithCredential` does; `idToken` links it to
   * that signed-in user instead. Answers `{user, token}`: the signInWithIdp answer and the mint.
   */
  async signIn(options = {}, { idToken } = {}) {
    const token = await this.mint(options);
    const user = await signInWithIdp(this.scope, { requestUri: "http://localhost", postBody: token.postBody, idToken });
    return { user, token };
  }

  /**
   * Signs in through the headful page (`/emulator/auth/handler`) as the JS SDK's redirect flow
   * does, with the page driven as a browser without JavaScript drives it: open it, fill the
   * new-account form (`email`, `name`, `screenName`, `picture`, `emailVerified`, `hideEmail`),
   * post it, read the auth event it delivers, and send that to signInWithIdp.
   */
  async signInHeadful(form, { authType = "signInViaRedirect", apiKey = this.scope.apiKey, redirectUrl = "http://localhost/", idToken } = {}) {
    const query = {
      apiKey, appName: "[DEFAULT]", authType, redirectUrl, v: "kit", eventId: String(Date.now()),
      providerId: this.providerId, tid: this.scope.tenantId,
    };
    const connection = this.scope.connection;
    const page = await connection.send("GET", "/emulator/auth/handler", { query });
    if (page.status !== 200) throw failure(page);
    const { action, fields } = newAccountForm(page.body, form);
    const target = new URL(action, page.url);
    const posted = await connection.send("POST", target.pathname + target.search, { form: fields });
    if (posted.status !== 200) throw failure(posted);
    const { authEvent } = deliveredAnswer(posted.body);
    return signInWithIdp(this.scope, {
      requestUri: authEvent.urlResponse, sessionId: authEvent.sessionId,
      postBody: authEvent.postBody || undefined, tenantId: authEvent.tenantId ?? undefined, idToken,
    });
  }

  /** A new signing key (`alg`: RS256 by default, or ES256); answers its `kid`. Old keys stay. */
  async rotateKeys({ alg } = {}) {
    const { kid } = await this.scope.connection.json("POST", `${this.path}/keys:rotate`, { json: alg ? { alg } : {} });
    return kid;
  }

  /** The provider's JWKS (`{keys: [...]}`). */
  async jwks() {
    return this.scope.connection.json("GET", `${this.path}/jwks`);
  }

  /** The provider's OpenID discovery document. */
  async discovery() {
    return this.scope.connection.json("GET", `${this.path}/.well-known/openid-configuration`);
  }
}

export class AppleProvider extends FakeProvider {
  constructor(scope) {
    super(scope, "apple.com");
  }

  /**
   * As FakeProvider.mint, plus `hideEmail` (the token carries a private relay address that
   * forwards to `email`; the answer's `realEmail` is the address behind it), and `name`
   * (`{firstName, lastName}` or "First Last"): the name Apple gives once, on first
   * authorization, which goes into `postBody` as the Apple SDK sends it, not into the token.
   */
  async mint({ name, ...options } = {}) {
    const minted = await super.mint(options);
    return name === undefined ? minted : { ...minted, postBody: minted.postBody + appleUserItem(name) };
  }

  /** Apple's record of revoked authorization codes: `[{sub, authorizationCode, projectId, revokedAt}]`. */
  async revocations() {
    return (await this.scope.connection.json("GET", `${this.path}/revocations`)).revocations;
  }
}

export class FacebookProvider extends FakeProvider {
  constructor(scope) {
    super(scope, "facebook.com");
  }

  /** A Limited Login token (OIDC, nonce hashed as Apple's): the same as `mint`. */
  async limitedLogin(options = {}) {
    return this.mint(options);
  }

  /**
   * A classic login: an opaque access token that the fake Graph API resolves; `postBody` and
   * `credential` carry the access token (`FacebookAuthProvider.credential(accessToken)`).
   */
  async classic(options = {}) {
    const minted = await this.mint(options);
    return {
      ...minted,
      postBody: `providerId=facebook.com&access_token=${minted.accessToken}`,
      credential: { providerId: "facebook.com", accessToken: minted.accessToken },
    };
  }

  /** The fake Graph API's `/me` for an access token (`fields` such as `["id", "email"]`). */
  async me(accessToken, fields) {
    const query = { access_token: accessToken, fields: fields?.join(",") };
    return this.scope.connection.json("GET", `${this.path}/me`, { query });
  }
}

export class GameCenterProvider {
  /** @param {import("./emulator.js").AuthScope} scope */
  constructor(scope) {
    this.scope = scope;
    this.providerId = "gc.apple.com";
  }

  /**
   * A player identity and its signature, as `GKLocalPlayer` hands them to the Apple SDK
   * (`playerId`, `teamPlayerId`, `gamePlayerId`, `displayName`, `bundleId`, `timestamp`, all
   * optional); the answer's `requestBody` is ready for `accounts:signInWithGameCenter`.
   */
  async mint(options = {}) {
    return this.scope.connection.json("POST", "/emulator/v1/idp/gc.apple.com/tokens", { json: options });
  }

  /** Mints and signs in with Game Center; `idToken` links instead. Answers `{user, token}`. */
  async signIn(options = {}, { idToken } = {}) {
    const token = await this.mint(options);
    const user = await this.scope.call("signInWithGameCenter", { ...token.requestBody, idToken });
    return { user, token };
  }
}

// The headful page, read without a DOM (Node has none): its #main-form and the delivery page's
// `<script type="application/json" id="auth-answer">`, both part of the page's contract.

function decodeEntities(text) {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" })[name]);
}

function attributes(tag) {
  const found = {};
  for (const [, name, , quoted, bare] of tag.matchAll(/([a-zA-Z_:][-\w:.]*)(\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    found[name.toLowerCase()] = decodeEntities(quoted ?? bare ?? "");
  }
  return found;
}

/** The new-account form's action and fields filled from `form`, as a browser would post them. */
function newAccountForm(html, form) {
  const match = /<form\b([^>]*\bid="main-form"[^>]*)>([\s\S]*?)<\/form>/.exec(html);
  if (!match) throw new Error(`the headful page has no new-account form (#main-form):\n${html.slice(0, 500)}`);
  const { action = "" } = attributes(match[1]);
  const inputs = [...match[2].matchAll(/<input\b([^>]*)>/g)].map(([, tag]) => attributes(tag)).filter((input) => input.name);
  const names = new Set(inputs.map((input) => input.name));
  const unknown = Object.keys(form).filter((name) => !names.has(name));
  if (unknown.length > 0) throw new TypeError(`the headful page's form has no ${unknown.join(", ")} field (it has ${[...names].join(", ")})`);
  const fields = [];
  for (const input of inputs) {
    const given = form[input.name];
    if ((input.type ?? "text") === "checkbox") {
      if (given === undefined ? "checked" in input : given) fields.push([input.name, input.value || "on"]);
    } else {
      fields.push([input.name, given === undefined ? input.value ?? "" : String(given)]);
    }
  }
  return { action, fields };
}

/** What the delivery page hands its script: `{authEvent, delivery, …}`. */
function deliveredAnswer(html) {
  const match = /<script type="application\/json" id="auth-answer">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error(`the headful page's answer carries no auth event:\n${html.slice(0, 500)}`);
  return JSON.parse(match[1]);
}
