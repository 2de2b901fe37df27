// One emulator's address and the fetch that reaches it. Browser-safe: fetch, URL and
// AbortSignal only.
import { AuthEmulatorError, describeFailure } from "./errors.js";

/** Every request has a deadline, so a hung emulator fails the test instead of stalling it. */
export const DEFAULT_TIMEOUT_MS = 10_000;

export class Connection {
  /** @param {{url: string, fetch?: typeof fetch, timeoutMs?: number}} options */
  constructor({ url, fetch, timeoutMs = DEFAULT_TIMEOUT_MS }) {
    this.url = url.replace(/\/+$/, "");
    this.fetch = fetch;
    this.timeoutMs = timeoutMs;
  }

  /** `path` plus `query`, leaving out undefined and null values. */
  address(path, query) {
    const address = new URL(this.url + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) address.searchParams.set(name, String(value));
    }
    return address.toString();
  }

  /**
   * Sends one request and answers `{status, headers, body}` whatever the status; `body` is parsed
   * JSON when the answer says so, else text. Throws AuthEmulatorError only when no answer came.
   * @param {string} method
   * @param {string} path
   * @param {{query?: object, json?: unknown, form?: Iterable<[string, string]>,
   *          headers?: Record<string, string>, timeoutMs?: number, redirect?: RequestRedirect}} [options]
   */
  async send(method, path, { query, json, form, headers = {}, timeoutMs = this.timeoutMs, redirect = "manual" } = {}) {
    const url = this.address(path, query);
    const init = { method, headers: { ...headers }, redirect, signal: AbortSignal.timeout(timeoutMs) };
    if (json !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(json);
    } else if (form !== undefined) {
      init.headers["Content-Type"] = "application/x-www-form-urlencoded";
      init.body = new URLSearchParams([...form]).toString();
    }
    let response;
    try {
      response = await (this.fetch ?? globalThis.fetch)(url, init);
    } catch (cause) {
      const timedOut = cause?.name === "TimeoutError" || cause?.name === "AbortError";
      const reason = timedOut ? `no answer within ${timeoutMs / 1000} s` : `could not connect (${cause?.cause?.code ?? cause?.message ?? cause})`;
      throw new AuthEmulatorError({ status: 0, code: timedOut ? "DEADLINE_EXCEEDED" : "UNAVAILABLE", message: reason, method, url, cause });
    }
    const text = await response.text();
    let body = text;
    if ((response.headers.get("content-type") ?? "").includes("json") && text !== "") {
      try { body = JSON.parse(text); } catch { body = text; }
    }
    return { status: response.status, headers: response.headers, body, url, method };
  }

  /** Like `send`, but answers the JSON body of a 2xx and throws AuthEmulatorError otherwise. */
  async json(method, path, options) {
    const answer = await this.send(method, path, options);
    if (answer.status >= 200 && answer.status < 300) return answer.body === "" ? {} : answer.body;
    throw failure(answer);
  }
}

/** The typed error for a non-2xx answer of `send`. */
export function failure({ status, body, method, url }) {
  return new AuthEmulatorError({ status, ...describeFailure(status, body), method, url, body });
}
