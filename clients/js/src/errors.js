// The kit's errors. Every failure names what was asked and what came back, so a failing test
// reads as a sentence without a debugger.

/** An answer from the emulator that was not a success, or a request that got no answer. */
export class AuthEmulatorError extends Error {
  /**
   * @param {{status: number, code: string, detail?: string, message: string, method: string,
   *          url: string, body?: unknown, cause?: unknown}} fields
   */
  constructor({ status, code, detail = "", message, method, url, body, cause }) {
    super(`${method} ${url} → ${status || "no answer"}: ${message}`, cause === undefined ? undefined : { cause });
    this.name = "AuthEmulatorError";
    /** HTTP status; 0 when no answer came (refused connection, deadline). */
    this.status = status;
    /** Google's error code, the part of `error.message` before " : " (`EMAIL_EXISTS`, …). */
    this.code = code;
    /** The part after " : ", or "". */
    this.detail = detail;
    /** The emulator's own message, whole. */
    this.emulatorMessage = message;
    this.method = method;
    this.url = url;
    /** The parsed answer body (or its text when it was not JSON). */
    this.body = body;
  }
}

/** A wait (the outbox, start-up, readiness) whose deadline passed. */
export class WaitTimeoutError extends Error {
  /** @param {{waitedFor: string, seconds: number, saw: string}} fields */
  constructor({ waitedFor, seconds, saw }) {
    super(`waited ${seconds} s for ${waitedFor}; saw ${saw}`);
    this.name = "WaitTimeoutError";
    this.waitedFor = waitedFor;
    this.seconds = seconds;
    this.saw = saw;
  }
}

/** The emulator is older than this kit (or too old to say its version). */
export class EmulatorVersionError extends Error {
  /** @param {{kitVersion: string, emulatorVersion: string | null, url: string}} fields */
  constructor({ kitVersion, emulatorVersion, url }) {
    const found = emulatorVersion === null ? "does not report a version (it predates 0.1.0)" : `is ${emulatorVersion}`;
    super(`the auth-emulator at ${url} ${found}; this kit (@auth-emulator/testing ${kitVersion}) needs ${kitVersion} or newer: build or install a newer auth-emulator, or use the kit from the same release`);
    this.name = "EmulatorVersionError";
    this.kitVersion = kitVersion;
    this.emulatorVersion = emulatorVersion;
    this.url = url;
  }
}

/** Some users of a `users.seed()` call were refused (the others were created). */
export class SeedError extends Error {
  /** @param {{failures: {index: number, message: string, user: object}[]}} fields */
  constructor({ failures }) {
    super(`the emulator refused ${failures.length} seeded user(s): ` +
      failures.map((f) => `#${f.index} (${f.user.email ?? f.user.localId}): ${f.message}`).join("; "));
    this.name = "SeedError";
    this.failures = failures;
  }
}

/**
 * Google's `{"error": {"code", "message": "CODE : detail"}}`, the emulator's own
 * `{"authEmulator": {"error"}}`, Graph's `{"error": {"type": "OAuthException"}}`, or anything else.
 * @returns {{code: string, detail: string, message: string}}
 */
export function describeFailure(status, body) {
  const error = body && typeof body === "object" ? body.error : undefined;
  if (error && typeof error === "object" && typeof error.message === "string") {
    if (typeof error.type === "string") return { code: error.type, detail: error.message, message: error.message };
    const separator = error.message.indexOf(" : ");
    const head = separator < 0 ? error.message : error.message.slice(0, separator);
    if (/^[A-Z][A-Z0-9_]*$/.test(head)) {
      return { code: head, detail: separator < 0 ? "" : error.message.slice(separator + 3), message: error.message };
    }
    // A message that is a sentence ("Not Found"): the status names the error.
    return { code: error.status ?? `HTTP_${status}`, detail: error.message, message: error.message };
  }
  const own = body && typeof body === "object" && body.authEmulator;
  if (own && typeof own.error === "string") return { code: "AUTH_EMULATOR_ERROR", detail: own.error, message: own.error };
  const text = typeof body === "string" ? body.slice(0, 500) : JSON.stringify(body);
  return { code: `HTTP_${status}`, detail: text ?? "", message: text || "(empty body)" };
}
