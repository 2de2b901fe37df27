// What the kit's own tests share: the binary under test, one emulator per test file (node --test
// runs each file in a process of its own), unique names, and a JWT reader.
import { after } from "node:test";
import { fileURLToPath } from "node:url";
import { startEmulator } from "@auth-emulator/testing/node";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const KIT_ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The binary under test: $AUTH_EMULATOR_BIN, else the repository's debug build. */
export const BINARY = process.env.AUTH_EMULATOR_BIN || `${REPO_ROOT}.build/debug/auth-emulator`;

/** Starts an emulator for this test file and stops it (checking it exits 0) after the file's tests. */
export async function emulatorForThisFile(options = {}) {
  const emulator = await startEmulator({ binary: BINARY, ...options });
  after(() => emulator.stop());
  return emulator;
}

let counter = 0;
/** An address no other test of the run uses. */
export function uniqueEmail(label = "user") {
  counter += 1;
  return `${label}.${process.pid}.${counter}@example.com`.toLowerCase();
}

/** A JWT's payload, unverified. */
export function claimsOf(token) {
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
}
