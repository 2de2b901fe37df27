// @auth-emulator/testing/node: the lifecycle (Node only): start the binary on a free port for a
// test session, or attach to one already running, and stop it. Everything of the browser-safe
// client is exported from here too.
import { spawn } from "node:child_process";
import { AuthEmulator, DEFAULT_PROJECT } from "./emulator.js";

export * from "./index.js";

const LISTENING = /^auth-emulator (\S+) listening on http:\/\/(\S+) for project (\S+) /;
const EXPORTED = /^export FIREBASE_AUTH_EMULATOR_HOST=(\S+)$/;
const SMTP = /^\s+smtp\s+(\S+):(\d+) /;
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 10_000;
// The tail of stdout and stderr kept for error messages (an info-level log writes a line per request).
const OUTPUT_KEPT = 64 * 1024;

/** The binary could not start, died, or did not stop cleanly; carries its output. */
export class EmulatorProcessError extends Error {
  /** @param {{message: string, stdout: string, stderr: string, exitCode?: number | null, signal?: string | null}} fields */
  constructor({ message, stdout, stderr, exitCode = null, signal = null }) {
    super(`${message}\n--- stdout ---\n${stdout}--- stderr ---\n${stderr}`);
    this.name = "EmulatorProcessError";
    this.stdout = stdout;
    this.stderr = stderr;
    this.exitCode = exitCode;
    this.signal = signal;
  }
}

/** The binary to run: `binary`, else $AUTH_EMULATOR_BIN, else `auth-emulator` on PATH. */
export function binaryPath(binary) {
  return binary ?? (process.env.AUTH_EMULATOR_BIN || "auth-emulator");
}

/** The variables this kit sets for the code under test, restored by `stop()`. */
function applyEnvironment(values) {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** An emulator this kit started (`process` set) or attached to (`process` null). */
export class RunningEmulator extends AuthEmulator {
  constructor({ child = null, output = null, smtp = null, restoreEnvironment = () => {}, ...options }) {
    super(options);
    /** The emulator's child process, or null when attached to one started elsewhere. */
    this.process = child;
    /** The SMTP listener (`{host, port}`) when started with `smtpPort`, else null. */
    this.smtp = smtp;
    this.captured = output;
    this.restoreEnvironment = restoreEnvironment;
    this.stopped = false;
  }

  /** The SDKs' variables, and FIREBASE_AUTH_EMULATOR_SMTP (`host:port`) with an SMTP listener, as `auth-emulator exec` sets them. */
  get env() {
    return this.smtp ? { ...super.env, FIREBASE_AUTH_EMULATOR_SMTP: `${this.smtp.host}:${this.smtp.port}` } : super.env;
  }

  /** What the binary printed so far: `{stdout, stderr}` (the last 64 KiB of stderr). */
  output() {
    return this.captured ? { stdout: this.captured.stdout, stderr: this.captured.stderr } : { stdout: "", stderr: "" };
  }

  /**
   * Stops the emulator with SIGTERM (a graceful stop exits 0), at most `timeoutMs`, then kills
   * it; restores the environment. Throws, with its output, when it had died, did not stop in
   * time or exited with another status. A second call does nothing.
   */
  async stop({ timeoutMs = STOP_TIMEOUT_MS } = {}) {
    if (this.stopped) return;
    this.stopped = true;
    this.restoreEnvironment();
    const child = this.process;
    if (!child) return;
    child.ref(); // start() unref'd it; waiting for its exit must keep this process alive
    const fail = (message) => new EmulatorProcessError({ message, ...this.output(), exitCode: child.exitCode, signal: child.signalCode });
    if (child.exitCode !== null || child.signalCode !== null) {
      throw fail(`auth-emulator had died before stop() (exit status ${child.exitCode ?? child.signalCode})`);
    }
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    let timer;
    const inTime = await Promise.race([
      exited.then(() => true),
      new Promise((resolve) => { timer = setTimeout(resolve, timeoutMs, false); }),
    ]);
    clearTimeout(timer);
    if (!inTime) {
      child.kill("SIGKILL");
      await exited;
      throw fail(`auth-emulator did not stop within ${timeoutMs / 1000} s of SIGTERM; killed`);
    }
    if (child.exitCode !== 0) throw fail(`auth-emulator exited with ${child.exitCode ?? child.signalCode} after SIGTERM`);
  }
}

/** Spawns the binary once and resolves when its start-up lines say where it listens. */
function spawnOnce(binary, args, { env, startTimeoutMs, wantSmtp }) {
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  const output = { stdout: "", stderr: "" };
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => { output.stderr = (output.stderr + chunk).slice(-OUTPUT_KEPT); });
  child.stdout.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    const seen = { host: null, version: null, projectId: null, exported: false, smtp: null };
    let pending = "";
    let settled = false;
    const settle = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (message, extra = {}) => settle(() => reject(new EmulatorProcessError({ message, ...output, ...extra })));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(`auth-emulator (${binary}) printed no start-up lines within ${startTimeoutMs / 1000} s; killed`);
    }, startTimeoutMs);
    child.stdout.on("data", (chunk) => {
      output.stdout += chunk;
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop();
      for (const line of lines) {
        let match;
        if ((match = LISTENING.exec(line))) [, seen.version, seen.host, seen.projectId] = match;
        else if ((match = EXPORTED.exec(line.trim()))) { seen.exported = true; seen.host = match[1]; }
        else if ((match = SMTP.exec(line))) seen.smtp = { host: match[1], port: Number(match[2]) };
      }
      // Output keeps being read after start, so the emulator never blocks on a full pipe.
      if (output.stdout.length > OUTPUT_KEPT) output.stdout = output.stdout.slice(-OUTPUT_KEPT);
      if (seen.exported && (!wantSmtp || seen.smtp)) settle(() => resolve({ child, output, ...seen }));
    });
    child.once("error", (error) => fail(`could not run auth-emulator at ${binary}: ${error.code ?? error.message}` +
      (error.code === "ENOENT" ? " (not found: pass `binary`, set AUTH_EMULATOR_BIN, or put auth-emulator on PATH)" : "")));
    // "close", not "exit": by then all of stderr has been read, so the error carries it whole.
    child.once("close", (exitCode, signal) => fail(`auth-emulator (${binary}) exited before it was ready (exit status ${exitCode ?? signal})`, { exitCode, signal }));
  });
}

/**
 * Starts the binary for a test session on a free port (or `port`; when that port is taken, on a
 * free one unless `strictPort`), waits until it is ready, checks its version against the kit's,
 * and sets FIREBASE_AUTH_EMULATOR_HOST, GCLOUD_PROJECT and GOOGLE_CLOUD_PROJECT for the code
 * under test (`setEnv: false` leaves them; `stop()` restores them).
 * @param {import("./node.d.ts").StartOptions} [options]
 */
export async function startEmulator({
  binary, projectId = DEFAULT_PROJECT, host, port = 0, strictPort = false, smtpPort, logLevel = "warn",
  args = [], env = {}, setEnv = true, startTimeoutMs = START_TIMEOUT_MS, apiKey, timeoutMs,
} = {}) {
  const path = binaryPath(binary);
  const argumentsFor = (chosenPort) => [
    ...(host ? ["--host", host] : []), "--port", String(chosenPort), "--project", projectId, "--log-level", logLevel,
    ...(smtpPort === undefined ? [] : ["--smtp-port", String(smtpPort)]), ...args,
  ];
  let started;
  try {
    started = await spawnOnce(path, argumentsFor(port), { env, startTimeoutMs, wantSmtp: smtpPort !== undefined });
  } catch (error) {
    // The binary names the port it could not take ("could not listen on HOST:PORT: …"): try any.
    const portTaken = port !== 0 && !strictPort && /could not listen on /.test(error.stderr ?? "");
    if (!portTaken) throw error;
    started = await spawnOnce(path, argumentsFor(0), { env, startTimeoutMs, wantSmtp: smtpPort !== undefined });
  }
  const { child, output, smtp } = started;
  // A test run that forgets stop() must still end, and must not leave the binary behind.
  child.unref();
  child.stdout.unref?.();
  child.stderr.unref?.();
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.removeListener("exit", killOnExit));

  const emulator = new RunningEmulator({ child, output, smtp, host: started.host, projectId, apiKey, timeoutMs });
  if (started.projectId !== projectId) {
    await emulator.stop().catch(() => {});
    throw new EmulatorProcessError({ message: `auth-emulator reports project ${started.projectId}, not ${projectId}`, ...output });
  }
  try {
    await emulator.ready({ timeoutMs: startTimeoutMs });
    await emulator.checkVersion();
  } catch (error) {
    await emulator.stop().catch(() => {});
    throw error;
  }
  if (setEnv) emulator.restoreEnvironment = applyEnvironment(emulator.env);
  return emulator;
}

/** `{host, port}` of a `host:port` text, or null. */
function smtpAddress(text) {
  const match = text ? /^(.*):(\d+)$/.exec(text) : null;
  return match ? { host: match[1], port: Number(match[2]) } : null;
}

/**
 * An emulator already running at `host` (`host:port`, default $FIREBASE_AUTH_EMULATOR_HOST, as
 * `auth-emulator exec` sets it): waits until it is ready and checks its version. `projectId`
 * defaults to $GCLOUD_PROJECT, $GOOGLE_CLOUD_PROJECT, then demo-project; `smtp` to
 * $FIREBASE_AUTH_EMULATOR_SMTP. `stop()` leaves it running.
 */
export async function attachEmulator({
  host = process.env.FIREBASE_AUTH_EMULATOR_HOST, projectId, smtp = process.env.FIREBASE_AUTH_EMULATOR_SMTP, apiKey, timeoutMs,
  readyTimeoutMs = START_TIMEOUT_MS,
} = {}) {
  if (!host) throw new TypeError("attachEmulator needs `host` or FIREBASE_AUTH_EMULATOR_HOST (host:port)");
  const project = projectId ?? (process.env.GCLOUD_PROJECT || process.env.GOOGLE_CLOUD_PROJECT || DEFAULT_PROJECT);
  const emulator = new RunningEmulator({ host, projectId: project, smtp: smtpAddress(smtp), apiKey, timeoutMs });
  await emulator.ready({ timeoutMs: readyTimeoutMs });
  await emulator.checkVersion();
  return emulator;
}

/** Attaches when FIREBASE_AUTH_EMULATOR_HOST is set, else starts one (`options` as startEmulator's). */
export async function useEmulator(options = {}) {
  return process.env.FIREBASE_AUTH_EMULATOR_HOST ? attachEmulator(options) : startEmulator(options);
}
