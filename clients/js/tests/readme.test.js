// Every ```js block of README.md runs, each as a file of its own inside the package (so it
// imports the kit by its name), with node --test when it is a test file; ```js no-run and
// ```sh no-run blocks are the only ones left out, and the first test must fit in 15 lines.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { promisify } from "node:util";
import { BINARY, KIT_ROOT } from "./support.js";

const FENCE = /^```(\S*)(.*)\n([\s\S]*?)^```$/gm;
const blocks = [...readFileSync(`${KIT_ROOT}README.md`, "utf8").matchAll(FENCE)].map(([, language, attributes, text]) => ({
  language, runs: !attributes.includes("no-run"), text,
}));
const runnable = blocks.filter((block) => block.runs);
const directory = `${KIT_ROOT}.readme-run/`;
const environment = { ...process.env, AUTH_EMULATOR_BIN: BINARY };
for (const name of ["FIREBASE_AUTH_EMULATOR_HOST", "GCLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT"]) delete environment[name];

test("the README's blocks are js or sh, every sh block is marked no-run, and at least six js blocks run", () => {
  assert.deepEqual(blocks.filter((block) => !["js", "sh"].includes(block.language)), []);
  assert.deepEqual(blocks.filter((block) => block.language === "sh" && block.runs), []);
  assert.ok(runnable.length >= 6, `${runnable.length} runnable blocks`);
});

test("the first test is complete in at most 15 lines", () => {
  const first = runnable[0].text.trimEnd().split("\n");
  assert.ok(first.length <= 15, `${first.length} lines`);
  assert.match(runnable[0].text, /from "node:test"/);
});

rmSync(directory, { recursive: true, force: true });
mkdirSync(directory, { recursive: true });
runnable.forEach((block, index) => {
  const firstLine = block.text.split("\n").find((line) => line.trim() && !line.startsWith("import")) ?? "";
  test(`README block ${index + 1} runs (${firstLine.trim().slice(0, 60)})`, async () => {
    const file = `${directory}block-${index + 1}.mjs`;
    writeFileSync(file, block.text);
    const asTest = block.text.includes('from "node:test"');
    try {
      await promisify(execFile)(process.execPath, asTest ? ["--test", file] : [file], { cwd: directory, env: environment, timeout: 60_000 });
    } catch (error) {
      assert.fail(`README block ${index + 1} failed (${error.code ?? error.signal}):\n${block.text}\n--- stdout ---\n${error.stdout}\n--- stderr ---\n${error.stderr}`);
    }
  });
});
