// The outbox (every email and SMS the emulator would send, and the app's own SMTP mail), and
// the settings of Apple's simulated private relay.
import { WaitTimeoutError } from "./errors.js";
import { failure } from "./http.js";

const DEFAULT_WAIT_MS = 10_000;
// The emulator holds a long poll at most this long; a longer wait asks again.
const LONGEST_POLL_SECONDS = 60;

/** A stored message with `link` (the emulator's action link) and its `mode` read out. */
function typed(message) {
  const link = message.oobLink ?? null;
  const mode = link ? new URL(link).searchParams.get("mode") : null;
  return { ...message, link, mode };
}

/** `latest`'s 404 for "nothing matches" (any other 404 is a mistake to report). */
function nothingMatched(answer) {
  return answer.status === 404 && String(answer.body?.error?.message ?? "").startsWith("MESSAGE_NOT_FOUND");
}

function describe(message) {
  const what = message.requestType ?? message.source ?? "message";
  const delivery = message.delivery ?? {};
  const forwarded = delivery.forwardedTo ? ` to ${delivery.forwardedTo}` : "";
  const reason = delivery.reason ? ` (${delivery.reason})` : "";
  return `#${message.id} ${what} to ${message.to}, ${delivery.status ?? "?"}${forwarded}${reason}`;
}

function describeFilters(filters) {
  const parts = Object.entries(filters).filter(([, value]) => value !== undefined && value !== null);
  return parts.length === 0 ? "any message" : `a message with ${parts.map(([name, value]) => `${name}=${value}`).join(", ")}`;
}

export class Outbox {
  /** @param {import("./emulator.js").AuthScope} scope */
  constructor(scope) {
    this.scope = scope;
    this.path = `/emulator/v1/projects/${encodeURIComponent(scope.projectId)}/messages`;
  }

  query(filters) {
    return { tenantId: this.scope.tenantId, ...filters };
  }

  /** Messages matching `filters` (`to`, `requestType`, `since`, `status`, `q`, …), newest first. */
  async list(filters = {}) {
    const { messages } = await this.scope.connection.json("GET", this.path, { query: this.query(filters) });
    return messages.map(typed);
  }

  /** One message by id. */
  async get(id) {
    return typed(await this.scope.connection.json("GET", `${this.path}/${encodeURIComponent(id)}`));
  }

  /** The newest message matching `filters`, or null. Bounced mail only when `status` asks for it. */
  async latest(filters = {}) {
    const answer = await this.scope.connection.send("GET", `${this.path}/latest`, { query: this.query(filters) });
    if (nothingMatched(answer)) return null;
    if (answer.status !== 200) throw failure(answer);
    return typed(answer.body);
  }

  /** The id of the newest message (any status), to wait for mail newer than it with `since`. */
  async newestId() {
    const [newest] = await this.list({ limit: 1 });
    return newest ? newest.id : null;
  }

  /**
   * Waits for the newest message matching `filters` (long-poll: no sleeping), at most
   * `timeoutMs` (default 10 s), then fails with what the outbox did hold. Bounced mail counts
   * only when `status` asks for it; pass `since: <id>` to wait for mail newer than a message.
   * @param {object} [filters] outbox filters, plus `timeoutMs`
   */
  async waitFor({ timeoutMs = DEFAULT_WAIT_MS, ...filters } = {}) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      const waitSeconds = Math.min(LONGEST_POLL_SECONDS, remaining / 1000);
      const answer = await this.scope.connection.send("GET", `${this.path}/latest`, {
        query: this.query({ ...filters, waitSeconds: Number(waitSeconds.toFixed(3)) }),
        timeoutMs: waitSeconds * 1000 + 10_000,
      });
      if (answer.status === 200) return typed(answer.body);
      if (!nothingMatched(answer)) throw failure(answer);
    }
    const held = await this.list({ limit: 10 });
    throw new WaitTimeoutError({
      waitedFor: `${describeFilters(this.query(filters))} in the outbox of ${this.scope.projectId}`,
      seconds: timeoutMs / 1000,
      saw: held.length === 0 ? "an empty outbox" : `${held.length === 10 ? "the 10 newest: " : ""}${held.map(describe).join("; ")}`,
    });
  }

  /** Deletes every message of the project (or one, by id). */
  async clear(id) {
    await this.scope.connection.json("DELETE", id === undefined ? this.path : `${this.path}/${encodeURIComponent(id)}`);
  }

  /**
   * Signs in with an email link, as the app does when it opens one (`signInWithEmailLink`);
   * `idToken` links the email to that signed-in user instead.
   */
  async completeEmailLink(message, { email = message.to, idToken } = {}) {
    if (message.requestType !== "EMAIL_SIGNIN") {
      throw new TypeError(`completeEmailLink needs an EMAIL_SIGNIN message, got ${describe(message)}`);
    }
    return this.scope.call("signInWithEmailLink", { email, oobCode: message.oobCode, idToken });
  }

  /**
   * Applies an email action code as the JS SDK does: `confirmPasswordReset` (needs
   * `newPassword`) for PASSWORD_RESET, `applyActionCode` for VERIFY_EMAIL,
   * VERIFY_AND_CHANGE_EMAIL and RECOVER_EMAIL, the email link for EMAIL_SIGNIN.
   */
  async applyCode(message, { newPassword } = {}) {
    switch (message.requestType) {
      case "PASSWORD_RESET":
        if (newPassword === undefined) throw new TypeError("applyCode(PASSWORD_RESET message) needs { newPassword }");
        return this.scope.call("resetPassword", { oobCode: message.oobCode, newPassword });
      case "VERIFY_EMAIL":
      case "VERIFY_AND_CHANGE_EMAIL":
      case "RECOVER_EMAIL":
        return this.scope.call("update", { oobCode: message.oobCode });
      case "EMAIL_SIGNIN":
        return this.completeEmailLink(message);
      default:
        throw new TypeError(`applyCode needs an email action message, got ${describe(message)}`);
    }
  }
}

/** SMS codes (phone sign-in, second-factor enrollment and sign-in), from the same outbox. */
export class Sms {
  /** @param {Outbox} outbox */
  constructor(outbox) {
    this.outbox = outbox;
  }

  /** Waits for the newest SMS to `phoneNumber` (`requestType`, `since`, `timeoutMs` as in the outbox). */
  async waitFor(phoneNumber, options = {}) {
    return this.outbox.waitFor({ to: phoneNumber, ...options });
  }

  /** The code of the newest SMS to `phoneNumber`, waiting for it as `waitFor` does. */
  async waitForCode(phoneNumber, options = {}) {
    return (await this.waitFor(phoneNumber, options)).oobCode;
  }

  /** The official emulator's list of unused codes: `[{code, phoneNumber, sessionInfo}]`. */
  async verificationCodes() {
    const scope = this.outbox.scope;
    const tenant = scope.tenantId ? `/tenants/${encodeURIComponent(scope.tenantId)}` : "";
    const path = `/emulator/v1/projects/${encodeURIComponent(scope.projectId)}${tenant}/verificationCodes`;
    return (await scope.connection.json("GET", path)).verificationCodes;
  }
}

/** Apple's private relay: the project's sender settings, and the relay addresses handed out. */
export class Relay {
  /** @param {import("./emulator.js").AuthScope} scope */
  constructor(scope) {
    this.scope = scope;
    this.path = `/emulator/v1/projects/${encodeURIComponent(scope.projectId)}/privateRelay`;
  }

  /** `{registeredSenders, spfFailingDomains, dailyLimit}` of the project. */
  async settings() {
    return this.scope.connection.json("GET", this.path);
  }

  /** Changes the fields given (`registeredSenders`, `spfFailingDomains`, `dailyLimit`). */
  async update(changes) {
    return this.scope.connection.json("PATCH", this.path, { json: changes });
  }

  /** Adds senders (addresses or `@domain`) to the registered ones. */
  async registerSenders(...senders) {
    const { registeredSenders } = await this.settings();
    return this.update({ registeredSenders: [...new Set([...registeredSenders, ...senders])] });
  }

  /** Every relay address the fake Apple provider handed out: `[{address, forwardTo, forwarding}]`. */
  async addresses() {
    return (await this.scope.connection.json("GET", "/emulator/v1/idp/apple.com/relay")).addresses;
  }

  /** Turns forwarding of one relay address on or off, as the user does in their Apple ID settings. */
  async setForwarding(address, forwarding) {
    return this.scope.connection.json("PATCH", `/emulator/v1/idp/apple.com/relay/${encodeURIComponent(address)}`, { json: { forwarding } });
  }
}

