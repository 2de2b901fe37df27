// A running emulator, seen from a test: one project (or one tenant of it) and everything the
// emulator offers around it. Browser-safe: it only fetches.
import { EmulatorVersionError, WaitTimeoutError } from "./errors.js";
import { Connection } from "./http.js";
import { Clock } from "./clock.js";
import { Outbox, Relay, Sms } from "./outbox.js";
import { Users } from "./users.js";
import { AppleProvider, FacebookProvider, FakeProvider, GameCenterProvider } from "./providers.js";
import { totpCode } from "./crypto.js";

/** This kit's version: the emulator release it was made with (`auth-emulator --version`). */
export const VERSION = "0.1.0";

export const DEFAULT_HOST = "127.0.0.1:9099";
export const DEFAULT_PROJECT = "demo-project";
/** The API key the emulator's own links carry; any key maps to the emulator's project. */
export const DEFAULT_API_KEY = "fake-api-key";

const OWNER = { Authorization: "Bearer owner" };

/** -1, 0 or 1 as `a` is older than, the same as, or newer than `b` (a pre-release is older). */
export function compareVersions(a, b) {
  const parse = (version) => {
    const [core, pre = ""] = version.split("-", 2);
    return { parts: core.split(".").map((part) => Number.parseInt(part, 10) || 0), pre };
  };
  const left = parse(a);
  const right = parse(b);
  for (let index = 0; index < 3; index += 1) {
    const difference = (left.parts[index] ?? 0) - (right.parts[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === "") return 1;
  if (right.pre === "") return -1;
  return left.pre < right.pre ? -1 : 1;
}

/** One project, or one tenant of it: its users, outbox, SMS codes, relay settings and sign-ins. */
export class AuthScope {
  /** @param {{connection: Connection, projectId: string, tenantId?: string | null, apiKey: string}} options */
  constructor({ connection, projectId, tenantId = null, apiKey }) {
    this.connection = connection;
    this.projectId = projectId;
    this.tenantId = tenantId;
    this.apiKey = apiKey;
    this.outbox = new Outbox(this);
    this.sms = new Sms(this.outbox);
    this.users = new Users(this);
    this.relay = new Relay(this);
    this.clock = new Clock(connection);
    this.apple = new AppleProvider(this);
    this.facebook = new FacebookProvider(this);
    this.google = new FakeProvider(this, "google.com");
    this.yahoo = new FakeProvider(this, "yahoo.com");
    this.gameCenter = new GameCenterProvider(this);
  }

  /** The fake provider with any other id (`oidc.example`, `github.com`, …). */
  provider(providerId) {
    return new FakeProvider(this, providerId);
  }

  /**
   * Calls the client REST API with the scope's API key, as a client SDK does, with `tenantId`
   * added in a tenant: `call("signUp", body)` is v1 `accounts:signUp`; a name with a slash is a
   * path under identitytoolkit.googleapis.com (`call("v2/accounts/mfaEnrollment:start", body)`).
   * Answers the JSON body; throws AuthEmulatorError with Google's code on a refusal.
   */
  async call(name, body = {}) {
    const path = name.includes("/") ? `/identitytoolkit.googleapis.com/${name}` : `/identitytoolkit.googleapis.com/v1/accounts:${name}`;
    const json = this.tenantId && body.tenantId === undefined ? { ...body, tenantId: this.tenantId } : body;
    return this.connection.json("POST", path, { query: { key: this.apiKey }, json });
  }

  /** The TOTP code of `secret` at the emulator's time (which a test may have moved). */
  async totpCode(secret) {
    return totpCode(secret, await this.clock.now());
  }
}

export class AuthEmulator extends AuthScope {
  /**
   * @param {{host?: string, url?: string, projectId?: string, apiKey?: string,
   *          fetch?: typeof fetch, timeoutMs?: number, connection?: Connection}} [options]
   */
  constructor({ host, url, projectId = DEFAULT_PROJECT, apiKey = DEFAULT_API_KEY, fetch, timeoutMs, connection } = {}) {
    const address = url ?? `http://${host ?? DEFAULT_HOST}`;
    super({ connection: connection ?? new Connection({ url: address, fetch, timeoutMs }), projectId, apiKey });
    /** `http://host:port`. */
    this.url = this.connection.url;
    /** `host:port`, as FIREBASE_AUTH_EMULATOR_HOST takes it. */
    this.host = new URL(this.url).host;
  }

  /** What the Admin SDKs and the code under test read to find this emulator and project. */
  get env() {
    return { FIREBASE_AUTH_EMULATOR_HOST: this.host, GCLOUD_PROJECT: this.projectId, GOOGLE_CLOUD_PROJECT: this.projectId };
  }

  /** The emulator's status document (`GET /`). */
  async status() {
    return this.connection.json("GET", "/");
  }

  /**
   * The emulator's version; throws EmulatorVersionError when it is older than this kit, or too
   * old to say.
   */
  async checkVersion() {
    const version = (await this.status())?.authEmulator?.version ?? null;
    if (version === null || compareVersions(version, VERSION) < 0) {
      throw new EmulatorVersionError({ kitVersion: VERSION, emulatorVersion: version, url: this.url });
    }
    return version;
  }

  /** Waits until the emulator answers `GET /` as ready, at most `timeoutMs`. */
  async ready({ timeoutMs = 15_000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    let last = "no answer yet";
    while (Date.now() < deadline) {
      try {
        const status = await this.connection.send("GET", "/", { timeoutMs: Math.max(1, Math.min(2_000, deadline - Date.now())) });
        if (status.status === 200 && status.body?.authEmulator?.ready === true) return;
        last = `${status.status} ${typeof status.body === "string" ? status.body.slice(0, 200) : JSON.stringify(status.body)}`;
      } catch (error) {
        last = error.message;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new WaitTimeoutError({ waitedFor: `auth-emulator at ${this.url} to be ready`, seconds: timeoutMs / 1000, saw: last });
  }

  /** Everything back to a fresh start, for every project, and the clock to real time. */
  async reset() {
    await this.connection.json("POST", "/emulator/v1/reset");
  }

  /** This project only back to a fresh start (other projects and the clock stay). */
  async resetProject() {
    await this.connection.json("POST", `/emulator/v1/projects/${encodeURIComponent(this.projectId)}:reset`);
  }

  /**
   * The same emulator seen from another project (admin routes, outbox, users). Client calls
   * still reach the emulator's own project: every API key maps to it.
   */
  project(projectId) {
    return new AuthEmulator({ connection: this.connection, projectId, apiKey: this.apiKey });
  }

  /** A tenant of the project, created with all sign-in methods enabled if it does not exist. */
  async tenant(tenantId) {
    const path = `/identitytoolkit.googleapis.com/v2/projects/${encodeURIComponent(this.projectId)}/tenants/${encodeURIComponent(tenantId)}`;
    await this.connection.json("GET", path, { headers: OWNER });
    return new AuthScope({ connection: this.connection, projectId: this.projectId, tenantId, apiKey: this.apiKey });
  }
}

/**
 * An emulator that is already running: at `url`, `host` (`host:port`), else
 * FIREBASE_AUTH_EMULATOR_HOST (where there is a `process`), else 127.0.0.1:9099.
 */
export function connect(options = {}) {
  const host = options.host ?? (options.url ? undefined : globalThis.process?.env?.FIREBASE_AUTH_EMULATOR_HOST || DEFAULT_HOST);
  return new AuthEmulator({ ...options, host });
}
