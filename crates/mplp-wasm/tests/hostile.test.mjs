// Hostile input gives an error record: never a trap, a hang or memory
// that grows with the input beyond what it must hold.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mplp, root, cliRecords, haveCli } from "./common.mjs";

const MiB = 1 << 20;
const opts = { timeout: 120_000 };

function errorRecord(record, rule) {
  assert.equal(record.valid, false, JSON.stringify(record).slice(0, 500));
  assert.ok(record.error_count >= 1);
  if (rule) assert.ok(record.errors.some((e) => e.rule === rule), JSON.stringify(record.errors).slice(0, 500));
}

test("invalid UTF-8, as a document and in a log", opts, () => {
  const doc = Buffer.concat([Buffer.from('{"plan_id":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
  errorRecord(mplp.validate(doc));
  errorRecord(mplp.validate(doc, { kind: "plan" }));
  const log = Buffer.concat([Buffer.from([0xc0, 0x80, 0x0a]), Buffer.from("\n")]);
  errorRecord(mplp.validate(log, { kind: "map-log" }));
  const v = new mplp.LogValidator({ kind: "sa-log" });
  v.push(log);
  errorRecord(v.finish());
});

test("nesting 100,000 deep", opts, () => {
  for (const open of ["[", '{"a":']) {
    const deep = open.repeat(100_000);
    errorRecord(mplp.validate(deep));
    errorRecord(mplp.validate(deep, { kind: "plan" }));
    errorRecord(mplp.validate(`{"plan_id":${deep}`));
    errorRecord(mplp.validate(deep + "\n" + deep + "\n", { kind: "map-log" }));
    const closed = open.repeat(100_000) + (open === "[" ? "]" : "1}").repeat(100_000);
    errorRecord(mplp.validate(closed, { kind: "collab" }));
  }
});

test("a 64 MiB line: a document and a log line", opts, () => {
  const line = Buffer.alloc(64 * MiB, "a");
  line.write('{"plan_id":"', 0);
  errorRecord(mplp.validate(line));
  // A log: the line is over the line limit, refused, and memory does not
  // hold it when it comes in chunks.
  const before = mplp.memoryBytes();
  const v = new mplp.LogValidator({ kind: "map-log" });
  for (let at = 0; at < line.length; at += MiB) v.push(line.subarray(at, at + MiB));
  v.push(Buffer.from("\n"));
  const record = v.finish();
  errorRecord(record, "log_line_too_long");
  assert.ok(mplp.memoryBytes() - before < 40 * MiB, `memory grew by ${(mplp.memoryBytes() - before) / MiB} MiB`);
  // In one piece, through validate, as the CLI does.
  const whole = Buffer.concat([line, Buffer.from("\n")]);
  errorRecord(mplp.validate(whole, { kind: "map-log" }), "log_line_too_long");
});

test("truncated files", { ...opts, skip: !haveCli() }, () => {
  for (const path of [
    "schemas/examples/valid/plan-code-review-dag.json",
    "schemas/examples/valid/map-log-round-robin.ndjson",
  ]) {
    const bytes = readFileSync(join(root, path));
    for (const cut of [1, Math.floor(bytes.length / 3), bytes.length - 2]) {
      const part = bytes.subarray(0, cut);
      const record = mplp.validate(part, { name: path });
      errorRecord(record);
      const [cli] = cliRecords(["-"], path.endsWith(".ndjson") ? ["--kind", "map-log"] : [], part);
      assert.equal(mplp.validateText(part, path.endsWith(".ndjson") ? { kind: "map-log" } : {}), cli);
    }
  }
});

test("random bytes never trap", opts, () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) & 0xff;
  for (let i = 0; i < 300; i++) {
    const bytes = Uint8Array.from({ length: (i * 37) % 2000 }, next);
    const record = mplp.validate(bytes);
    assert.equal(typeof record.valid, "boolean");
    const v = new mplp.LogValidator();
    v.push(bytes);
    assert.equal(typeof v.finish().valid, "boolean");
  }
});
