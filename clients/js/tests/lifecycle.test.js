// Starting, attaching to and stopping the real binary, and every way that can go wrong.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  EmulatorProcessError, EmulatorVersionError, WaitTimeoutError, attachEmulator, startEmulator, useEmulator,
} from "@auth-emulator/testing/node";
import { BINARY } from "./support.js";

const FAKE = fileURLToPath(new URL("./fixtures/fake-emulator.js", import.meta.url));
const ENV_NAMES = ["FIREBASE_AUTH_EMULATOR_HOST", "GCLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT"];

/** A port something else holds for the duration of `body`. */
async function withTakenPort(body) {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    return await body(server.address().port);
  } finally {
    server.close();
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (at most 5 s) for a killed process to be gone; a deadline, not a speed claim. */
async function gone(pid) {
  const deadline = Date.now() + 5_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return !isAlive(pid);
}

test("starts on a free port, sets the SDKs' environment, stops with status 0 and puts the environment back", async () => {
  for (const name of ENV_NAMES) delete process.env[name];
  const emulator = await startEmulator({ binary: BINARY, projectId: "demo-lifecycle" });
  assert.match(emulator.host, /^127\.0\.0\.1:\d+$/);
  assert.notEqual(emulator.host, "127.0.0.1:0");
  assert.equal(process.env.FIREBASE_AUTH_EMULATOR_HOST, emulator.host);
  assert.equal(process.env.GCLOUD_PROJECT, "demo-lifecycle");
  assert.equal(process.env.GOOGLE_CLOUD_PROJECT, "demo-lifecycle");
  assert.equal((await emulator.status()).authEmulator.ready, true);
  await emulator.stop();
  assert.equal(emulator.process.exitCode, 0);
  for (const name of ENV_NAMES) assert.equal(process.env[name], undefined, name);
  await emulator.stop(); // a second stop does nothing
});

test("a port in use picks another, unless strictPort", async () => {
  await withTakenPort(async (port) => {
    const emulator = await startEmulator({ binary: BINARY, port, setEnv: false });
    try {
      assert.notEqual(emulator.host, `127.0.0.1:${port}`);
      assert.equal((await emulator.status()).authEmulator.ready, true);
    } finally {
      await emulator.stop();
    }
    await assert.rejects(startEmulator({ binary: BINARY, port, strictPort: true, setEnv: false }),
      (error) => error instanceof EmulatorProcessError && new RegExp(`could not listen on 127\\.0\\.0\\.1:${port}: .*in use`).test(error.stderr) && error.exitCode !== 0);
  });
});

test("a binary that is not there says where the kit looked and how to point it elsewhere", async () => {
  await assert.rejects(startEmulator({ binary: "/nonexistent/auth-emulator", setEnv: false }),
    (error) => error instanceof EmulatorProcessError && /ENOENT/.test(error.message) && /AUTH_EMULATOR_BIN/.test(error.message));
});

test("a binary that fails to start reports its stderr and exit status", async () => {
  await assert.rejects(startEmulator({ binary: BINARY, args: ["--bogus"], setEnv: false }), (error) => {
    assert.ok(error instanceof EmulatorProcessError);
    assert.match(error.stderr, /unknown option --bogus/);
    assert.match(error.message, /exited before it was ready \(exit status 2\)/);
    return true;
  });
});

test("a binary that prints nothing fails the start at its deadline and is killed", async () => {
  await assert.rejects(startEmulator({ binary: FAKE, env: { FAKE_SILENT: "1" }, startTimeoutMs: 1_000, setEnv: false }),
    (error) => error instanceof EmulatorProcessError && /printed no start-up lines within 1 s; killed/.test(error.message));
});

test("a binary older than the kit, or too old to say its version, is refused and stopped", async () => {
  for (const version of [undefined, "0.0.9", "0.1.0-dev"]) {
    const env = version === undefined ? {} : { FAKE_VERSION: version };
    await assert.rejects(startEmulator({ binary: FAKE, env, setEnv: false }), (error) => {
      assert.ok(error instanceof EmulatorVersionError, String(error));
      assert.equal(error.emulatorVersion, version ?? null);
      assert.match(error.message, /needs 0\.1\.0 or newer/);
      return true;
    });
  }
  const newer = await startEmulator({ binary: FAKE, env: { FAKE_VERSION: "9.0.0" }, setEnv: false });
  assert.equal(await newer.checkVersion(), "9.0.0");
  await newer.stop();
});

test("attaches to a running emulator by FIREBASE_AUTH_EMULATOR_HOST, and leaves it running", async () => {
  const owner = await startEmulator({ binary: BINARY, setEnv: false });
  const previous = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  try {
    const attached = await attachEmulator({ host: owner.host });
    assert.equal(attached.process, null);
    await attached.stop();
    process.env.FIREBASE_AUTH_EMULATOR_HOST = owner.host;
    const used = await useEmulator({ binary: "/nonexistent/auth-emulator" });
    assert.equal(used.host, owner.host);
    await used.stop();
    assert.equal((await owner.status()).authEmulator.ready, true);
  } finally {
    if (previous === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    else process.env.FIREBASE_AUTH_EMULATOR_HOST = previous;
    await owner.stop();
  }
});

test("attaching to nothing fails at its deadline with what it saw", async () => {
  const port = await withTakenPort(async (taken) => taken); // a port that was free a moment ago
  await assert.rejects(attachEmulator({ host: `127.0.0.1:${port}`, readyTimeoutMs: 500 }),
    (error) => error instanceof WaitTimeoutError && /to be ready/.test(error.waitedFor) && /could not connect/.test(error.saw));
});

test("stop() after the emulator died reports it, with its output", async () => {
  const emulator = await startEmulator({ binary: BINARY, setEnv: false });
  emulator.process.ref(); // keep this test's process alive until the exit event
  const exited = once(emulator.process, "exit");
  emulator.process.kill("SIGKILL");
  await exited;
  await assert.rejects(emulator.stop(), (error) => error instanceof EmulatorProcessError && /had died before stop\(\) \(exit status SIGKILL\)/.test(error.message));
});

test("a test run that forgets stop() still ends, and takes the binary with it", async () => {
  const script = `
    import { startEmulator } from "@auth-emulator/testing/node";
    const emulator = await startEmulator({ binary: process.env.BIN, setEnv: false });
    console.log(emulator.process.pid);`;
  const run = promisify(execFile);
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("./", import.meta.url)), env: { ...process.env, BIN: BINARY }, timeout: 20_000,
  });
  const pid = Number(stdout.trim());
  assert.ok(pid > 0, stdout);
  assert.equal(await gone(pid), true, `auth-emulator ${pid} outlived the test process`);
});

test("under `auth-emulator exec`, useEmulator attaches to exec's emulator, project and SMTP listener", async () => {
  const script = `
    import { useEmulator } from "@auth-emulator/testing/node";
    const emulator = await useEmulator({ binary: "/nonexistent/auth-emulator" });
    await emulator.users.seed({ email: "exec@example.com" });
    console.log(JSON.stringify({ host: emulator.host, projectId: emulator.projectId, smtp: emulator.smtp, started: emulator.process !== null }));
    await emulator.stop();`;
  const { stdout } = await promisify(execFile)(BINARY, ["exec", "--project", "demo-exec", "--smtp-port", "0", "--",
    process.execPath, "--input-type=module", "-e", script], { cwd: fileURLToPath(new URL("./", import.meta.url)), timeout: 30_000 });
  const seen = JSON.parse(stdout.trim().split("\n").pop());
  assert.match(seen.host, /^127\.0\.0\.1:\d+$/);
  assert.equal(seen.projectId, "demo-exec");
  assert.ok(seen.smtp.port > 0, stdout);
  assert.equal(seen.started, false);
});
