// The client in a real browser: Debian's headless Chromium opens a page that imports the kit's
// browser entry (src/index.js, served as it is) and drives the emulator from the page, across
// origins, as a Playwright test's browser-side code would. The page posts its results back.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { KIT_ROOT, emulatorForThisFile } from "./support.js";

const CHROMIUM = ["chromium", "chromium-browser", "google-chrome"].find((name) => !spawnSync(name, ["--version"]).error);
const RESULT_DEADLINE_MS = 60_000;

const PAGE = `<!DOCTYPE html><meta charset="utf-8"><title>kit</title>
<script type="module">
  const report = (result) => fetch("/result", { method: "POST", body: JSON.stringify(result) });
  try {
    const kit = await import("/kit/index.js");
    const emulator = kit.connect({ url: new URLSearchParams(location.search).get("emulator") });
    const results = { version: kit.VERSION };
    await emulator.reset();
    const { user, token } = await emulator.apple.signIn({ email: "ada@example.com", hideEmail: true, nonce: true });
    results.apple = { relayed: user.email.endsWith("@privaterelay.appleid.com"), realEmail: token.realEmail, nonceHash: await kit.sha256Hex(token.rawNonce) };
    await emulator.call("sendOobCode", { requestType: "EMAIL_SIGNIN", email: "eli@example.com", continueUrl: "https://app.example.com/" });
    const message = await emulator.outbox.waitFor({ to: "eli@example.com" });
    results.emailLink = { mode: message.mode, email: (await emulator.outbox.completeEmailLink(message)).email };
    results.clock = (await emulator.clock.advance(60)) instanceof Date;
    results.totp = await kit.totpCode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59000);
    try { await emulator.call("signUp", { email: "eli@example.com", password: "secret123" }); }
    catch (error) { results.error = { name: error.name, code: error.code }; }
    results.tokenNonce = JSON.parse(atob(token.idToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).nonce;
    await report(results);
  } catch (error) {
    await report({ failed: String(error && error.stack || error) });
  }
</script>`;

test("the browser entry runs in Chromium against the emulator, across origins", { skip: CHROMIUM ? false : "no Chromium (scripts/test installs Debian's chromium)" }, async () => {
  const emulator = await emulatorForThisFile({ setEnv: false });
  let deliver;
  const posted = new Promise((resolve) => { deliver = resolve; });
  const server = createServer((request, response) => {
    if (request.method === "POST" && request.url === "/result") {
      let body = "";
      request.on("data", (chunk) => { body += chunk; });
      request.on("end", () => { response.end("ok"); deliver(JSON.parse(body)); });
    } else if (request.url.startsWith("/kit/") && /^\/kit\/\w+\.js$/.test(request.url)) {
      response.writeHead(200, { "Content-Type": "text/javascript" });
      response.end(readFileSync(`${KIT_ROOT}src/${request.url.slice(5)}`));
    } else {
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end(PAGE);
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const profile = mkdtempSync(join(tmpdir(), "kit-chromium-"));
  const browser = spawn(CHROMIUM, ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    `--user-data-dir=${profile}`, `http://127.0.0.1:${server.address().port}/?emulator=${encodeURIComponent(emulator.url)}`], { stdio: ["ignore", "ignore", "pipe"] });
  let browserErrors = "";
  browser.stderr.on("data", (chunk) => { browserErrors = (browserErrors + chunk).slice(-4000); });
  let timer;
  try {
    const results = await Promise.race([posted, new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the page posted no result within ${RESULT_DEADLINE_MS / 1000} s; Chromium said:\n${browserErrors}`)), RESULT_DEADLINE_MS);
    })]);
    assert.equal(results.failed, undefined, results.failed);
    assert.equal(results.version, "0.1.0");
    assert.deepEqual(results.apple, { relayed: true, realEmail: "ada@example.com", nonceHash: results.tokenNonce });
    assert.deepEqual(results.emailLink, { mode: "signIn", email: "eli@example.com" });
    assert.equal(results.clock, true);
    assert.equal(results.totp, "287082");
    assert.deepEqual(results.error, { name: "AuthEmulatorError", code: "EMAIL_EXISTS" });
  } finally {
    clearTimeout(timer);
    browser.kill("SIGKILL");
    await once(browser, "exit").catch(() => {});
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
