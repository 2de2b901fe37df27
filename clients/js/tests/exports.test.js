// The hand-written .d.ts files against the modules (every export declared, every declared value
// exported), and the kit's version against the emulator's (one release, one version string).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import * as client from "@auth-emulator/testing";
import * as lifecycle from "@auth-emulator/testing/node";
import { BINARY, KIT_ROOT, REPO_ROOT, emulatorForThisFile } from "./support.js";

/** The value names (const, function, class) and the type names a declaration file exports. */
function declared(file) {
  const text = readFileSync(`${KIT_ROOT}src/${file}`, "utf8");
  const values = [...text.matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((match) => match[1]);
  const types = [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]);
  const reexports = [...text.matchAll(/^export \* from "\.\/(\w+)\.js";/gm)].map((match) => match[1]);
  for (const other of reexports) {
    const inner = declared(`${other}.d.ts`);
    values.push(...inner.values);
    types.push(...inner.types);
  }
  return { values: [...new Set(values)].sort(), types };
}

test("every export of the browser module is declared in index.d.ts, and every declared value exists", () => {
  const { values } = declared("index.d.ts");
  assert.deepEqual(Object.keys(client).sort(), values);
});

test("every export of the Node module is declared in node.d.ts, and every declared value exists", () => {
  const { values } = declared("node.d.ts");
  assert.deepEqual(Object.keys(lifecycle).sort(), values);
});

test("package.json's exports and types point at files that exist, the browser entry without Node", () => {
  const manifest = JSON.parse(readFileSync(`${KIT_ROOT}package.json`, "utf8"));
  assert.equal(manifest.type, "module");
  for (const entry of [manifest.types, ...Object.values(manifest.exports).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target)))]) {
    assert.doesNotThrow(() => readFileSync(`${KIT_ROOT}${entry}`), entry);
  }
  // The client must load in a browser: no module of it but node.js may import a node: builtin
  // (crypto.js loads node:crypto only on Node 18, where Web Crypto is not global).
  for (const file of ["index.js", "emulator.js", "http.js", "errors.js", "clock.js", "outbox.js", "users.js", "providers.js"]) {
    assert.doesNotMatch(readFileSync(`${KIT_ROOT}src/${file}`, "utf8"), /from "node:/, file);
  }
});

test("the kit's version is the emulator's: package.json, VERSION, Sources/BuildInfo, --version and GET /", async () => {
  const manifest = JSON.parse(readFileSync(`${KIT_ROOT}package.json`, "utf8"));
  assert.equal(client.VERSION, manifest.version);
  const buildInfo = readFileSync(`${REPO_ROOT}Sources/BuildInfo/BuildInfo.swift`, "utf8");
  assert.equal(/static let version = "([^"]+)"/.exec(buildInfo)?.[1], client.VERSION);
  assert.equal(execFileSync(BINARY, ["--version"], { encoding: "utf8" }).split("\n")[0], `auth-emulator ${client.VERSION}`);
  const emulator = await emulatorForThisFile({ setEnv: false });
  assert.equal((await emulator.status()).authEmulator.version, client.VERSION);
});
