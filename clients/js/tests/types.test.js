// The declarations checked by a compiler: tests/typecheck/usage.ts, written against the .d.ts
// files alone, is compiled with Debian's tsc in strict mode and then run against the real binary.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { test } from "node:test";
import { BINARY, KIT_ROOT } from "./support.js";

const tsc = spawnSync("tsc", ["--version"], { encoding: "utf8" });

test("usage.ts type-checks against the .d.ts files and runs against the modules", { skip: tsc.error ? "no tsc on PATH (scripts/test installs Debian's node-typescript)" : false }, async () => {
  try {
    execFileSync("tsc", ["-p", `${KIT_ROOT}tests/typecheck/tsconfig.json`], { encoding: "utf8" });
  } catch (error) {
    assert.fail(`tsc refused usage.ts:\n${error.stdout}${error.stderr}`);
  }
  const { main } = await import(`${KIT_ROOT}.typecheck/usage.js?${Date.now()}`);
  assert.deepEqual(await main(BINARY), ["apple", "facebook", "outbox", "providers", "users", "clock", "scopes", "errors"]);
});
