// Types of @auth-emulator/testing (the browser-safe client). Kept by hand beside index.js;
// test/exports.test.js checks that every export is declared here and every declared value exists.

/** This kit's version: the emulator release it was made with (`auth-emulator --version`). */
export declare const VERSION: string;
export declare const DEFAULT_HOST: string;
export declare const DEFAULT_PROJECT: string;
export declare const DEFAULT_API_KEY: string;

/** -1, 0 or 1 as `a` is older than, the same as, or newer than `b` (a pre-release is older). */
export declare function compareVersions(a: string, b: string): -1 | 0 | 1;

/** The lowercase hex SHA-256 of `text`: what Apple and Facebook tokens carry as `nonce`. */
export declare function sha256Hex(text: string): Promise<string>;
/** A fresh raw nonce: 32 random bytes as 64 hex digits. */
export declare function randomNonce(): Promise<string>;
/** The RFC 6238 code (SHA-1, 30 s, 6 digits) of a base32 secret at `time` (a Date or epoch milliseconds). */
export declare function totpCode(secret: string, time: Date | number): Promise<string>;

/** An answer from the emulator that was not a success, or a request that got no answer. */
export declare class AuthEmulatorError extends Error {
  /** HTTP status; 0 when no answer came. */
  readonly status: number;
  /** Google's error code (`EMAIL_EXISTS`, `INVALID_ARGUMENT`, …); `DEADLINE_EXCEEDED` or `UNAVAILABLE` without an answer. */
  readonly code: string;
  /** The part of the message after " : ", or "". */
  readonly detail: string;
  /** The emulator's message, whole. */
  readonly emulatorMessage: string;
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
}

/** A wait whose deadline passed: what it waited for, and what it saw instead. */
export declare class WaitTimeoutError extends Error {
  readonly waitedFor: string;
  readonly seconds: number;
  readonly saw: string;
}

/** The emulator is older than this kit, or too old to report its version (`emulatorVersion` null). */
export declare class EmulatorVersionError extends Error {
  readonly kitVersion: string;
  readonly emulatorVersion: string | null;
  readonly url: string;
}

/** Some users of `users.seed()` were refused (the others were created). */
export declare class SeedError extends Error {
  readonly failures: { index: number; message: string; user: Record<string, unknown> }[];
}

export interface ConnectOptions {
  /** `host:port`; default FIREBASE_AUTH_EMULATOR_HOST where there is a `process`, else 127.0.0.1:9099. */
  host?: string;
  /** `http://host:port`, instead of `host`. */
  url?: string;
  /** Default demo-project. */
  projectId?: string;
  /** The API key client calls carry (any maps to the emulator's project). Default fake-api-key. */
  apiKey?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /** Deadline of each request, in milliseconds (default 10 000). */
  timeoutMs?: number;
}

/** An emulator that is already running. */
export declare function connect(options?: ConnectOptions): AuthEmulator;

/** A JSON object as the emulator answers it. */
export type Json = Record<string, any>;

// Fake identity providers ----------------------------------------------------------------------

export interface MintOptions {
  sub?: string;
  email?: string;
  /** Default true. */
  emailVerified?: boolean;
  name?: string;
  picture?: string;
  /** The raw nonce (the token carries the provider's form of it); `true` makes a fresh one. */
  nonce?: string | true;
  /** The nonce claim exactly as the token should carry it (postBody then has no nonce). */
  hashedNonce?: string;
  audience?: string;
  expiresInSeconds?: number;
  alg?: "RS256" | "ES256";
  /** Merged into the payload last; keys kept as written. */
  claims?: Record<string, unknown>;
}

export interface AppleMintOptions extends Omit<MintOptions, "name"> {
  /** The token carries a private relay address that forwards to `email`. */
  hideEmail?: boolean;
  /** The name Apple gives once, on first authorization: into postBody (`user=`), not the token. */
  name?: string | { firstName?: string; lastName?: string };
}

/** What `OAuthProvider(providerId).credential()` (or `FacebookAuthProvider.credential(accessToken)`) takes. */
export interface ProviderCredential {
  providerId: string;
  idToken?: string;
  rawNonce?: string;
  accessToken?: string;
}

export interface MintedToken {
  providerId: string;
  /** The signed JWT. */
  idToken: string;
  /** An opaque access token the provider issued. */
  accessToken: string;
  /** Apple only: the code `accounts:revokeToken` takes. */
  authorizationCode?: string;
  sub: string;
  /** The email as the token carries it (a relay address when hidden). */
  email?: string;
  /** Apple with `hideEmail`: the address behind the relay address. */
  realEmail?: string;
  /** The credential as a client SDK sends it to signInWithIdp. */
  postBody: string;
  /** The raw nonce the mint was given (or made), if any. */
  rawNonce?: string;
  credential: ProviderCredential;
  warnings?: string[];
}

/** signInWithIdp's (or signInWithGameCenter's) answer. */
export interface SignInAnswer extends Json {
  localId: string;
  idToken: string;
  refreshToken: string;
  providerId?: string;
  email?: string;
  displayName?: string;
  isNewUser?: boolean;
  needConfirmation?: boolean;
}

export interface SignedIn<T = MintedToken> {
  /** The sign-in answer. */
  user: SignInAnswer;
  /** What was minted for it. */
  token: T;
}

/** The headful page's new-account form; field names as the page has them. */
export interface HeadfulForm {
  email: string;
  name?: string;
  screenName?: string;
  picture?: string;
  /** Default: the page's default (checked). */
  emailVerified?: boolean;
  /** Apple only. */
  hideEmail?: boolean;
}

export interface HeadfulOptions {
  /** Default signInViaRedirect. */
  authType?: "signInViaRedirect" | "signInViaPopup" | "linkViaRedirect" | "linkViaPopup" | "reauthViaRedirect" | "reauthViaPopup";
  apiKey?: string;
  redirectUrl?: string;
  /** Link to this signed-in user. */
  idToken?: string;
}

export interface FakeProvider {
  readonly providerId: string;
  /** Mints a signed token shaped like the real provider's. */
  mint(options?: MintOptions): Promise<MintedToken>;
  /** Mints and signs in as `signInWithCredential` does (`idToken` links instead). */
  signIn(options?: MintOptions, signInOptions?: { idToken?: string }): Promise<SignedIn>;
  /** Signs in through the headful page driven without JavaScript, as the JS SDK's redirect flow. */
  signInHeadful(form: HeadfulForm, options?: HeadfulOptions): Promise<SignInAnswer>;
  /** A new signing key; answers its `kid`. Old keys stay in the JWKS. */
  rotateKeys(options?: { alg?: "RS256" | "ES256" }): Promise<string>;
  jwks(): Promise<{ keys: Json[] }>;
  discovery(): Promise<Json>;
}

/** One `accounts:revokeToken`: an authorization code (tokenType CODE, the Apple SDK's) or an access token (ACCESS_TOKEN, the JS SDK's `revokeAccessToken`). */
export interface AppleRevocation {
  sub: string;
  tokenType: "CODE" | "ACCESS_TOKEN";
  authorizationCode?: string;
  accessToken?: string;
  projectId: string;
  revokedAt: string;
}

export interface AppleProvider extends FakeProvider {
  mint(options?: AppleMintOptions): Promise<MintedToken>;
  signIn(options?: AppleMintOptions, signInOptions?: { idToken?: string }): Promise<SignedIn>;
  /** Apple's record of revoked authorization codes. */
  revocations(): Promise<AppleRevocation[]>;
}

export interface FacebookProvider extends FakeProvider {
  /** A Limited Login token (OIDC, nonce hashed): the same as `mint`. */
  limitedLogin(options?: MintOptions): Promise<MintedToken>;
  /** A classic login: postBody and credential carry the opaque access token. */
  classic(options?: MintOptions): Promise<MintedToken>;
  /** The fake Graph API's `/me`. */
  me(accessToken: string, fields?: string[]): Promise<Json>;
}

export interface GameCenterOptions {
  playerId?: string;
  teamPlayerId?: string;
  gamePlayerId?: string;
  displayName?: string;
  bundleId?: string;
  /** Milliseconds since the epoch, or an RFC 3339 date-time; default the emulator clock's now. */
  timestamp?: number | string;
}

export interface GameCenterIdentity extends Json {
  /** Empty from GameKit's modern API; the legacy `G:…` id when only that was asked for. */
  playerId: string;
  teamPlayerId?: string;
  gamePlayerId?: string;
  displayName: string;
  bundleId: string;
  publicKeyUrl: string;
  signature: string;
  salt: string;
  timestamp: number;
  /** Ready for `accounts:signInWithGameCenter`. */
  requestBody: Json;
}

export interface GameCenterProvider {
  readonly providerId: "gc.apple.com";
  mint(options?: GameCenterOptions): Promise<GameCenterIdentity>;
  signIn(options?: GameCenterOptions, signInOptions?: { idToken?: string }): Promise<SignedIn<GameCenterIdentity>>;
}

// Outbox, SMS, relay ---------------------------------------------------------------------------

export type DeliveryStatus = "delivered" | "relayed" | "bounced";

export interface OutboxFilters {
  to?: string;
  requestType?: string;
  tenantId?: string;
  /** A message id: only newer messages. */
  since?: string;
  limit?: number;
  /** One status or several, comma-separated. */
  status?: DeliveryStatus | string;
  forwardedTo?: string;
  subject?: string;
  q?: string;
}

export interface Message extends Json {
  id: string;
  projectId: string;
  tenantId: string | null;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  requestType: string | null;
  oobCode: string | null;
  oobLink: string | null;
  appLink: string | null;
  continueUrl: string | null;
  createdAt: string;
  delivery: { status: DeliveryStatus; forwardedTo: string | null; reason: string | null };
  /** `"auth"` (Firebase's mail) or `"smtp"` (the app's). */
  source?: string;
  /** The emulator's action link (`oobLink`). */
  link: string | null;
  /** The link's `mode`: `signIn`, `resetPassword`, `verifyEmail`, …; null for SMS and SMTP mail. */
  mode: string | null;
}

export interface Outbox {
  /** Newest first. */
  list(filters?: OutboxFilters): Promise<Message[]>;
  get(id: string): Promise<Message>;
  /** The newest match, or null; bounced mail only when `status` asks for it. */
  latest(filters?: OutboxFilters): Promise<Message | null>;
  /** The newest message's id (any status), for `since`. */
  newestId(): Promise<string | null>;
  /** Long-polls for the newest match, at most `timeoutMs` (default 10 000), then throws WaitTimeoutError with what arrived. */
  waitFor(filters?: OutboxFilters & { timeoutMs?: number }): Promise<Message>;
  /** Deletes every message, or one by id. */
  clear(id?: string): Promise<void>;
  /** signInWithEmailLink with the message's code (`idToken` links). */
  completeEmailLink(message: Message, options?: { email?: string; idToken?: string }): Promise<SignInAnswer>;
  /** confirmPasswordReset / applyActionCode / the email link, by the message's requestType. */
  applyCode(message: Message, options?: { newPassword?: string }): Promise<Json>;
}

export interface Sms {
  waitFor(phoneNumber: string, options?: Omit<OutboxFilters, "to"> & { timeoutMs?: number }): Promise<Message>;
  /** The code of the newest SMS to the number, waiting for it. */
  waitForCode(phoneNumber: string, options?: Omit<OutboxFilters, "to"> & { timeoutMs?: number }): Promise<string>;
  /** The official emulator's list of unused codes. */
  verificationCodes(): Promise<{ code: string; phoneNumber: string; sessionInfo: string }[]>;
}

export interface RelaySettings {
  registeredSenders: string[];
  spfFailingDomains: string[];
  dailyLimit: number;
}

export interface RelayAddress {
  address: string;
  forwardTo: string;
  forwarding: boolean;
}

export interface Relay {
  settings(): Promise<RelaySettings>;
  update(changes: Partial<RelaySettings>): Promise<RelaySettings>;
  /** Adds senders (addresses or `@domain`) to the registered ones. */
  registerSenders(...senders: string[]): Promise<RelaySettings>;
  addresses(): Promise<RelayAddress[]>;
  setForwarding(address: string, forwarding: boolean): Promise<RelayAddress>;
}

// Clock and users ------------------------------------------------------------------------------

export interface Clock {
  read(): Promise<{ now: Date; offsetSeconds: number }>;
  now(): Promise<Date>;
  /** Forward only; answers the new time. */
  advance(seconds: number): Promise<Date>;
  /** Not before real time. */
  set(time: Date | string): Promise<Date>;
  /** Back to real time. */
  reset(): Promise<Date>;
  /** Runs `body` and resets the clock afterwards, passed or failed. */
  scoped<T>(body: (clock: Clock) => Promise<T> | T): Promise<T>;
}

export interface SeedUser {
  /** Made up when missing. */
  uid?: string;
  email?: string;
  password?: string;
  emailVerified?: boolean;
  displayName?: string;
  photoUrl?: string;
  phoneNumber?: string;
  disabled?: boolean;
  customClaims?: Record<string, unknown>;
  providers?: { providerId: string; uid: string; email?: string; displayName?: string; photoUrl?: string }[];
  /** Phone second factors. */
  mfa?: { phoneNumber: string; displayName?: string }[];
  /** Any other field goes to batchCreate as given. */
  [field: string]: unknown;
}

/** A user as accounts:lookup answers it. */
export interface UserRecord extends Json {
  localId: string;
  email?: string;
  emailVerified?: boolean;
  displayName?: string;
  disabled?: boolean;
  customAttributes?: string;
  providerUserInfo?: Json[];
  mfaInfo?: Json[];
}

export interface Users {
  /** Creates users in one import call; answers them as stored. */
  seed(users: SeedUser): Promise<UserRecord>;
  seed(users: SeedUser[]): Promise<UserRecord[]>;
  lookup(key: { email: string } | { uid: string } | { phoneNumber: string }): Promise<UserRecord | null>;
  list(): Promise<UserRecord[]>;
  delete(uid: string): Promise<void>;
  /** Deletes every user of the project (or tenant), nothing else. */
  clear(): Promise<void>;
}

// Scopes ---------------------------------------------------------------------------------------

/** One project, or one tenant of it. */
export declare class AuthScope {
  readonly projectId: string;
  readonly tenantId: string | null;
  readonly apiKey: string;
  readonly outbox: Outbox;
  readonly sms: Sms;
  readonly users: Users;
  readonly relay: Relay;
  /** The emulator's clock (one per emulator). */
  readonly clock: Clock;
  readonly apple: AppleProvider;
  readonly facebook: FacebookProvider;
  readonly google: FakeProvider;
  readonly yahoo: FakeProvider;
  readonly gameCenter: GameCenterProvider;
  /** Any other provider id (`oidc.example`, `github.com`, …). */
  provider(providerId: string): FakeProvider;
  /**
   * The client REST API with the scope's API key (and tenantId): `"signUp"` is v1
   * `accounts:signUp`; a name with a slash is a path (`"v2/accounts/mfaEnrollment:start"`).
   */
  call<T = Json>(name: string, body?: Json): Promise<T>;
  /** The TOTP code of `secret` at the emulator's time. */
  totpCode(secret: string): Promise<string>;
}

export declare class AuthEmulator extends AuthScope {
  constructor(options?: ConnectOptions);
  /** `http://host:port`. */
  readonly url: string;
  /** `host:port`. */
  readonly host: string;
  /** FIREBASE_AUTH_EMULATOR_HOST, GCLOUD_PROJECT and GOOGLE_CLOUD_PROJECT for the code under test. */
  readonly env: { FIREBASE_AUTH_EMULATOR_HOST: string; GCLOUD_PROJECT: string; GOOGLE_CLOUD_PROJECT: string };
  status(): Promise<Json>;
  /** Answers the emulator's version; throws EmulatorVersionError when older than the kit. */
  checkVersion(): Promise<string>;
  ready(options?: { timeoutMs?: number }): Promise<void>;
  /** Every project back to a fresh start, and the clock to real time. */
  reset(): Promise<void>;
  /** This project only. */
  resetProject(): Promise<void>;
  /** The same emulator from another project's side (client calls still reach the emulator's own). */
  project(projectId: string): AuthEmulator;
  /** A tenant, created with every sign-in method enabled when it does not exist. */
  tenant(tenantId: string): Promise<AuthScope>;
}
