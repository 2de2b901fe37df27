// The client's errors and deadlines, the resets, and several projects on one emulator.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:net";
import { beforeEach, test } from "node:test";
import { AuthEmulatorError, compareVersions, connect } from "@auth-emulator/testing";
import { emulatorForThisFile, uniqueEmail } from "./support.js";

const emulator = await emulatorForThisFile();
beforeEach(() => emulator.reset());

test("a refusal is an AuthEmulatorError with Google's code, the detail, and what was asked", async () => {
  const email = uniqueEmail("exists");
  await emulator.call("signUp", { email, password: "secret123" });
  await assert.rejects(emulator.call("signUp", { email, password: "secret123" }), (error) => {
    assert.ok(error instanceof AuthEmulatorError);
    assert.equal(error.status, 400);
    assert.equal(error.code, "EMAIL_EXISTS");
    assert.equal(error.detail, "");
    assert.equal(error.method, "POST");
    assert.match(error.url, /\/identitytoolkit\.googleapis\.com\/v1\/accounts:signUp\?key=fake-api-key$/);
    assert.equal(error.body.error.message, "EMAIL_EXISTS");
    assert.match(error.message, /^POST http:\/\/.*accounts:signUp\?key=fake-api-key → 400: EMAIL_EXISTS$/);
    return true;
  });
  await assert.rejects(emulator.apple.mint({ emial: "typo@example.com" }), (error) =>
    error.code === "INVALID_ARGUMENT" && /^unknown field "emial"/.test(error.detail));
  await assert.rejects(emulator.connection.json("GET", "/emulator/v1/nothing-here"), { status: 404, code: "NOT_FOUND" });
});

test("no answer is an error too: a closed port, and a server that never answers, within the deadline", async () => {
  const silent = createServer(() => {}); // accepts, never answers
  silent.listen(0, "127.0.0.1");
  await once(silent, "listening");
  const { port } = silent.address();
  try {
    await assert.rejects(connect({ host: `127.0.0.1:${port}`, timeoutMs: 300 }).status(),
      { status: 0, code: "DEADLINE_EXCEEDED", emulatorMessage: "no answer within 0.3 s" });
  } finally {
    silent.close();
  }
  await assert.rejects(connect({ host: `127.0.0.1:${port}` }).reset(), (error) =>
    error instanceof AuthEmulatorError && error.code === "UNAVAILABLE" && /could not connect \(ECONNREFUSED\)/.test(error.message));
});

test("reset returns every project and the clock to a fresh start; resetProject only its project", async () => {
  const other = emulator.project("demo-other");
  const email = uniqueEmail("reset");
  await emulator.users.seed({ email });
  await other.users.seed({ email });
  await emulator.call("sendOobCode", { requestType: "EMAIL_SIGNIN", email, continueUrl: "https://app.example.com/" });
  await emulator.relay.update({ dailyLimit: 3 });
  await emulator.tenant("team-reset");
  await emulator.clock.advance(600);

  await emulator.resetProject();
  assert.deepEqual(await emulator.users.list(), []);
  assert.deepEqual(await emulator.outbox.list(), []);
  assert.equal((await emulator.relay.settings()).dailyLimit, 100);
  assert.equal((await other.users.list()).length, 1);
  assert.ok((await emulator.clock.read()).offsetSeconds >= 599);

  await emulator.reset();
  assert.deepEqual(await other.users.list(), []);
  assert.equal((await emulator.clock.read()).offsetSeconds, 0);
});

test("connect reads FIREBASE_AUTH_EMULATOR_HOST, and env says what the code under test needs", async () => {
  assert.equal(process.env.FIREBASE_AUTH_EMULATOR_HOST, emulator.host);
  const connected = connect({ projectId: "demo-project" });
  assert.equal(connected.url, emulator.url);
  assert.equal((await connected.status()).authEmulator.ready, true);
  assert.deepEqual(emulator.env, { FIREBASE_AUTH_EMULATOR_HOST: emulator.host, GCLOUD_PROJECT: "demo-project", GOOGLE_CLOUD_PROJECT: "demo-project" });
  assert.equal(connect({ url: "http://10.1.2.3:9099/" }).host, "10.1.2.3:9099");
});

test("compareVersions orders releases and pre-releases", () => {
  assert.equal(compareVersions("0.1.0", "0.1.0"), 0);
  assert.equal(compareVersions("0.1.1", "0.1.0"), 1);
  assert.equal(compareVersions("0.10.0", "0.9.0"), 1);
  assert.equal(compareVersions("0.1.0-dev", "0.1.0"), -1);
  assert.equal(compareVersions("1.0.0", "0.99.99"), 1);
});
