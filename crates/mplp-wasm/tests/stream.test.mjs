// A log fed chunk by chunk gives the record of the whole log, however it
// is cut; `validateStream` reads a ReadableStream; a long log is checked in
// memory that stops growing once the validator's bounds are reached.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mplp, files, root, random, sessionCopier, SHORT_SESSION } from "./common.mjs";

const logs = [...files("schemas/examples/valid"), ...files("schemas/examples/invalid")].filter((f) =>
  f.endsWith(".ndjson"),
);

function pushAll(bytes, sizes, options) {
  const v = new mplp.LogValidator(options);
  let at = 0;
  let i = 0;
  while (at < bytes.length) {
    const n = sizes[i++ % sizes.length];
    v.push(bytes.subarray(at, at + n));
    at += n;
  }
  assert.equal(v.bytes, bytes.length);
  return v.finishText();
}

test("every log, cut anywhere, gives the record of the whole", () => {
  assert.ok(logs.length >= 3, `${logs.length} logs`);
  const next = random(44);
  // Each log, and broken forms of it: its last line gone, a bad line in the
  // middle, CRLF line ends, no final newline, blank lines first.
  const variants = [];
  for (const path of logs) {
    const text = readFileSync(join(root, path), "utf8");
    const lines = text.split("\n").filter((l) => l.length > 0);
    const half = Math.floor(lines.length / 2);
    variants.push(
      [path, text],
      [`${path} (cut)`, lines.slice(0, -1).join("\n") + "\n"],
      [`${path} (bad line)`, [...lines.slice(0, half), "not json", ...lines.slice(half)].join("\n") + "\n"],
      [`${path} (crlf)`, lines.join("\r\n")],
      [`${path} (blank first)`, "\n  \n" + lines.join("\n")],
    );
  }
  for (const [path, text] of variants) {
    const bytes = Buffer.from(text);
    for (const options of [{}, { kind: "map-log" }, { kind: "sa-log" }, { partial: true, profile: "canonical" }]) {
      // A `.ndjson` name: a log, its kind from its first line (as the stream).
      const named = { ...options, name: "log.ndjson", maxErrors: "all" };
      const expected = mplp.validateText(bytes, named);
      for (const sizes of [[1], [2, 3], [bytes.length], Array.from({ length: 9 }, () => 1 + Math.floor(next() * 64))]) {
        assert.equal(pushAll(bytes, sizes, named), expected, `${path} ${JSON.stringify(options)} ${sizes}`);
      }
    }
    // With a byte-order mark, in pieces: skipped with the warning.
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
    const record = JSON.parse(pushAll(marked, [1, 1, 1, 5], { maxErrors: "all" }));
    assert.ok(record.warnings.some((w) => w.rule === "input-bom"), path);
  }
});

test("the stream's limit: 1000 of each shown by default, all counted", () => {
  const bad = Buffer.from("not json\n".repeat(1500));
  const record = new mplp.LogValidator();
  record.push(bad);
  const r = record.finish();
  assert.equal(r.errors.length, 1000);
  assert.equal(r.error_count, 1500);
  assert.equal(r.suppressed_errors, 500);
  assert.throws(() => new mplp.LogValidator({ kind: "plan" }), /document kind/);
});

test("validateStream reads a ReadableStream and reports progress", async () => {
  for (const path of logs) {
    const bytes = readFileSync(join(root, path));
    const seen = [];
    const record = await mplp.validateStream(new Blob([bytes]).stream(), {
      name: "log.ndjson",
      onProgress: (n) => seen.push(n),
    });
    assert.deepEqual(record, mplp.validate(bytes, { name: "log.ndjson", maxErrors: 1000 }), path);
    assert.equal(seen.at(-1), bytes.length);
  }
});

// What a log validator keeps, with the default options: the ids of the
// last 229,376 events (the repeated-id window, 9 generations of 28,672: 6 MB
// of ids and their table), the ids of the last 2^18 completed sessions
// (events after a completion; 8 MB of set and 4-8 MB of queue), the state of
// the sessions still open, the line being read (at most 16 MiB), and the
// violations listed (1000 errors and 1000 warnings). All but the open
// sessions are bounded by constants; a log whose sessions close reaches
// those bounds after 2^18 sessions and 258,048 events, and from then on its
// memory does not grow at all.
const COMPLETED_REMEMBERED = 1 << 18;

test("a long log streams in memory that stops growing", { timeout: 600_000 }, () => {
  // The shortest complete sessions (3 events, 700 bytes) reach the bounds
  // in the fewest bytes: 2^18 sessions are 175 MB.
  const copier = sessionCopier(SHORT_SESSION);
  assert.equal(mplp.validate(SHORT_SESSION + SHORT_SESSION.replace(/000000000000/g, "000000000001")).valid, true);
  const perChunk = Math.floor((1 << 20) / copier.size);
  const chunk = new Uint8Array(perChunk * copier.size);
  const v = new mplp.LogValidator({ kind: "map-log" });
  let sessions = 0;
  const feedTo = (n) => {
    while (sessions < n) {
      for (let j = 0; j < perChunk; j++) copier.copy(sessions++, chunk, j * copier.size);
      v.push(chunk);
    }
    return mplp.memoryBytes();
  };
  const start = feedTo(perChunk);
  // Warm-up: past 2^18 completed sessions (and the id window).
  const warm = COMPLETED_REMEMBERED + (1 << 14);
  const after = feedTo(warm);
  // The measure sees the validator's state (it grew while the bounds filled)...
  assert.ok(after - start > 8 << 20, `memory ${start} after ${perChunk} sessions, ${after} after ${warm}`);
  // ...which is bounded by constants, far below the log's size...
  assert.ok(after < 64 << 20, `${after} bytes of memory`);
  // ...and then does not grow at all, however much more is fed.
  for (const times of [1.25, 1.5, 1.75, 2]) {
    const now = feedTo(warm * times);
    assert.equal(now, after, `memory after ${sessions} sessions (${v.bytes} bytes) against after ${warm}`);
  }
  assert.ok(v.bytes > 350 << 20, `${v.bytes} bytes`);
  const record = v.finish();
  assert.equal(record.kind, "map-log");
  assert.equal(record.error_count, 0, JSON.stringify(record.errors.slice(0, 3)));
  assert.equal(record.valid, true);
});
