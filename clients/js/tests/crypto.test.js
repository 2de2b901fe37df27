// Nonces, SHA-256 and TOTP with Web Crypto, and with node:crypto's where there is no global one
// (Node 18, the Debian package's version).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";
import { randomNonce, sha256Hex, totpCode } from "@auth-emulator/testing";
import { KIT_ROOT } from "./support.js";

const RFC_6238_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; // base32 of "12345678901234567890"

test("sha256Hex, randomNonce and totpCode match known answers", async () => {
  assert.equal(await sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const [one, two] = [await randomNonce(), await randomNonce()];
  assert.match(one, /^[0-9a-f]{64}$/);
  assert.notEqual(one, two);
  // RFC 6238's SHA-1 vectors, cut to six digits.
  assert.equal(await totpCode(RFC_6238_SECRET, 59_000), "287082");
  assert.equal(await totpCode(RFC_6238_SECRET, new Date(1_111_111_109_000)), "081804");
  assert.equal(await totpCode(RFC_6238_SECRET, 1_234_567_890_000), "005924");
  assert.equal(await totpCode(RFC_6238_SECRET.toLowerCase(), 59_000), "287082");
  await assert.rejects(totpCode("not base32!", 0), TypeError);
  await assert.rejects(totpCode(RFC_6238_SECRET, Number.NaN), TypeError);
});

test("without a global Web Crypto, as on Node 18, the same answers come from node:crypto", async () => {
  const script = `
    Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });
    const { randomNonce, sha256Hex, totpCode } = await import("@auth-emulator/testing");
    console.log(JSON.stringify([typeof globalThis.crypto, await sha256Hex("abc"), await totpCode("${RFC_6238_SECRET}", 59000), (await randomNonce()).length]));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: KIT_ROOT });
  assert.deepEqual(JSON.parse(stdout), ["undefined", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "287082", 64]);
});
