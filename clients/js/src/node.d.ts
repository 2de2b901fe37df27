// Types of @auth-emulator/testing/node: the lifecycle, plus everything of the client.
import { AuthEmulator, ConnectOptions } from "./index.js";

export * from "./index.js";

/** The binary could not start, died, or did not stop cleanly; carries its output. */
export declare class EmulatorProcessError extends Error {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** The child process, as far as the kit's users need it (Node's ChildProcess). */
export interface EmulatorChildProcess {
  readonly pid?: number;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: string | number): boolean;
}

export interface StartOptions {
  /** The binary; default $AUTH_EMULATOR_BIN, else `auth-emulator` on PATH. */
  binary?: string;
  /** Default demo-project. */
  projectId?: string;
  /** `--host`; default the binary's (127.0.0.1). */
  host?: string;
  /** Default 0: any free port. A taken port falls back to a free one unless `strictPort`. */
  port?: number;
  strictPort?: boolean;
  /** Also take the app's mail over SMTP (0: any free port); see `smtp`. */
  smtpPort?: number;
  /** Default warn. */
  logLevel?: "debug" | "info" | "warn" | "error";
  /** More command-line arguments (`["--idp-tokens", "strict"]`, …). */
  args?: string[];
  /** More environment for the binary. */
  env?: Record<string, string>;
  /** Set FIREBASE_AUTH_EMULATOR_HOST, GCLOUD_PROJECT, GOOGLE_CLOUD_PROJECT (default true); stop() restores them. */
  setEnv?: boolean;
  /** Deadline of the start, in milliseconds (default 15 000). */
  startTimeoutMs?: number;
  apiKey?: string;
  /** Deadline of each request, in milliseconds (default 10 000). */
  timeoutMs?: number;
}

export interface AttachOptions extends Pick<ConnectOptions, "apiKey" | "timeoutMs"> {
  /** Default $FIREBASE_AUTH_EMULATOR_HOST. */
  host?: string;
  /** Default $GCLOUD_PROJECT, $GOOGLE_CLOUD_PROJECT, then demo-project. */
  projectId?: string;
  /** The SMTP listener, `host:port`; default $FIREBASE_AUTH_EMULATOR_SMTP. */
  smtp?: string;
  readyTimeoutMs?: number;
}

/** An emulator this kit started (`process` set) or attached to (`process` null). */
export declare class RunningEmulator extends AuthEmulator {
  readonly process: EmulatorChildProcess | null;
  /** The SMTP listener when started with `smtpPort`. */
  readonly smtp: { host: string; port: number } | null;
  /** As AuthEmulator's, plus FIREBASE_AUTH_EMULATOR_SMTP with an SMTP listener. */
  readonly env: { FIREBASE_AUTH_EMULATOR_HOST: string; GCLOUD_PROJECT: string; GOOGLE_CLOUD_PROJECT: string; FIREBASE_AUTH_EMULATOR_SMTP?: string };
  /** What the binary printed so far (the last 64 KiB of stderr). */
  output(): { stdout: string; stderr: string };
  /** SIGTERM, then SIGKILL after `timeoutMs`; restores the environment; throws when it had died or exited non-zero. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

/** The binary to run: `binary`, else $AUTH_EMULATOR_BIN, else `auth-emulator`. */
export declare function binaryPath(binary?: string): string;
/** Starts the binary on a free port, waits until ready, checks its version, sets the environment. */
export declare function startEmulator(options?: StartOptions): Promise<RunningEmulator>;
/** An emulator already running (default $FIREBASE_AUTH_EMULATOR_HOST); stop() leaves it running. */
export declare function attachEmulator(options?: AttachOptions): Promise<RunningEmulator>;
/** Attaches when FIREBASE_AUTH_EMULATOR_HOST is set, else starts one. */
export declare function useEmulator(options?: StartOptions & AttachOptions): Promise<RunningEmulator>;
