// The seeds' flows are no longer with the kit than with bare fetch, and shorter together: the
// non-blank lines between each "// flow: NAME" and "// end flow" in the two files (the raw
// file's shared helpers, between "// helpers" and "// end helpers", counted once beside them),
// and their characters without indentation. The counts are printed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { KIT_ROOT } from "./support.js";

function lines(file) {
  const text = readFileSync(`${KIT_ROOT}tests/${file}`, "utf8").split("\n");
  const counts = {};
  const characters = {};
  let current = null;
  for (const line of text) {
    const start = /^\s*\/\/ (?:flow: (\S+)|(helpers))$/.exec(line);
    if (start) current = start[1] ?? "(shared helpers)";
    else if (/^\s*\/\/ end (?:flow|helpers)$/.test(line)) current = null;
    else if (current && line.trim()) {
      counts[current] = (counts[current] ?? 0) + 1;
      characters[current] = (characters[current] ?? 0) + line.trim().length;
    }
  }
  return { counts, characters };
}

test("no seed flow takes more lines with the kit than with bare fetch, and the six take fewer", (t) => {
  const { counts: kit, characters: kitCharacters } = lines("flows-kit.test.js");
  const { counts: raw, characters: rawCharacters } = lines("flows-raw.test.js");
  const flows = Object.keys(kit);
  assert.deepEqual(flows, ["apple-relay", "email-link", "facebook-limited", "yahoo-headful", "revoke-then-delete", "mfa-totp"]);
  for (const flow of flows) {
    t.diagnostic(`${flow}: kit ${kit[flow]} lines (${kitCharacters[flow]} characters), fetch ${raw[flow]} (${rawCharacters[flow]})`);
    assert.ok(kit[flow] <= raw[flow], `${flow}: kit ${kit[flow]} lines, fetch ${raw[flow]}`);
  }
  const sum = (counts) => flows.reduce((total, flow) => total + counts[flow], 0);
  t.diagnostic(`all six: kit ${sum(kit)} lines, fetch ${sum(raw)} + ${raw["(shared helpers)"]} of shared helpers`);
  assert.ok(sum(kit) < sum(raw), `kit ${sum(kit)}, fetch ${sum(raw)}`);
});
