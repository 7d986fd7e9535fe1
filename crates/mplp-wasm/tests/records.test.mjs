// Every example gives, through the package, the record `mplp validate
// --format json` prints for it: byte for byte, named or read from
// standard input, with each profile and a limit; and so do mutants of the
// valid examples (the differential corpus of the Node side).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { mplp, files, cliRecords, haveCli, root, scratch, random } from "./common.mjs";

const examples = [...files("schemas/examples/valid"), ...files("schemas/examples/invalid")];

test("there are examples of every shape", () => {
  assert.ok(examples.length > 200, `${examples.length} examples`);
  assert.ok(examples.some((f) => f.endsWith(".ndjson")));
  assert.ok(examples.some((f) => f.includes("/invalid/")));
});

test("each example's record is the CLI's, byte for byte", { skip: !haveCli() }, () => {
  const cli = cliRecords(examples);
  assert.equal(cli.length, examples.length);
  examples.forEach((path, i) => {
    const bytes = readFileSync(join(root, path));
    assert.equal(mplp.validateText(bytes, { name: path }), cli[i], path);
    // The object form is the same record.
    assert.deepEqual(mplp.validate(bytes, { name: path }), JSON.parse(cli[i]), path);
  });
});

test("a nameless input is told as standard input is", { skip: !haveCli() }, () => {
  for (const path of examples.filter((_, i) => i % 3 === 0)) {
    const bytes = readFileSync(join(root, path));
    const [cli] = cliRecords(["-"], [], bytes);
    assert.equal(mplp.validateText(bytes), cli, path);
    // A string is its UTF-8 bytes.
    assert.equal(mplp.validateText(bytes.toString("utf8")), cli, path);
  }
});

test("kind, profile and limit are the CLI's flags", { skip: !haveCli() }, () => {
  const invalid = examples.filter((f) => f.includes("/invalid/")).slice(0, 40);
  const cases = [
    [["--profile", "canonical"], { profile: "canonical" }],
    [["--max-errors", "1"], { maxErrors: 1 }],
    [["--max-errors", "0"], { maxErrors: 0 }],
    [["--kind", "plan"], { kind: "plan" }],
    [["--partial"], { partial: true }],
    [["--max-document-bytes", "100"], { maxDocumentBytes: 100 }],
  ];
  for (const [flags, options] of cases) {
    const cli = cliRecords(invalid, flags);
    invalid.forEach((path, i) => {
      const bytes = readFileSync(join(root, path));
      assert.equal(mplp.validateText(bytes, { ...options, name: path }), cli[i], `${flags} ${path}`);
    });
  }
});

test("options that are not understood throw; the input never does", () => {
  assert.throws(() => mplp.validate("{}", { kind: "plans" }), /unknown kind `plans`/);
  assert.throws(() => mplp.validate("{}", { profile: "loose" }), /unknown profile/);
  assert.throws(() => mplp.validate("{}", { maxErrors: -1 }), /maxErrors/);
  assert.throws(() => mplp.validate(42), /Uint8Array or a string/);
  const r = mplp.validate("{}");
  assert.equal(r.valid, false);
  assert.equal(r.kind, "auto");
  assert.ok(mplp.kinds().includes("plan") && mplp.kinds().includes("sa-log"));
});

test("detectKind is the record's kind", () => {
  for (const path of examples) {
    const bytes = readFileSync(join(root, path));
    const kind = mplp.validate(bytes).kind;
    assert.equal(mplp.detectKind(bytes) ?? "auto", kind, path);
  }
});

/** Mutants of a JSON value: a member removed, a value of another type, a string changed, a member added. */
function mutate(value, next) {
  const paths = [];
  const walk = (v, path) => {
    paths.push(path);
    if (v && typeof v === "object") for (const k of Object.keys(v)) walk(v[k], [...path, k]);
  };
  walk(value, []);
  const copy = structuredClone(value);
  const path = paths[Math.floor(next() * paths.length)];
  if (path.length === 0) return copy;
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k];
  const key = path[path.length - 1];
  const replacements = [undefined, 7, -1.5, "", "x".repeat(3), null, true, [], {}, "2025-13-45T99:00:00Z", "not-a-uuid"];
  const pick = replacements[Math.floor(next() * replacements.length)];
  if (pick === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (next() < 0.15 && !Array.isArray(parent)) {
    parent[`extra_${key}`] = pick;
  } else {
    parent[key] = pick;
  }
  return copy;
}

test("mutants of the valid examples: the CLI's records", { skip: !haveCli() }, () => {
  const next = random(0x5eed);
  const dir = join(scratch, "mutants");
  mkdirSync(dir, { recursive: true });
  const paths = [];
  for (const path of examples.filter((f) => f.includes("/valid/") && f.endsWith(".json"))) {
    const value = JSON.parse(readFileSync(join(root, path), "utf8"));
    for (let i = 0; i < 6; i++) {
      const file = join(dir, `${path.split("/").pop().replace(".json", "")}-${i}.json`);
      writeFileSync(file, JSON.stringify(mutate(value, next), null, i % 2 ? 2 : 0));
      paths.push(file);
    }
  }
  const cli = cliRecords(paths);
  let invalid = 0;
  paths.forEach((file, i) => {
    const bytes = readFileSync(file);
    const text = mplp.validateText(bytes, { name: file });
    assert.equal(text, cli[i], file);
    if (!JSON.parse(text).valid) invalid += 1;
  });
  assert.ok(invalid > paths.length / 3, `${invalid} of ${paths.length} mutants are invalid`);
});
