// The Node benchmark of the package (`cargo xtask wasm bench [ROUNDS]`):
// for each document of the performance table (perf_report's plans,
// dialogs and collab, written by `examples/bench_docs.rs`), the time to
// check it from its bytes with
//   - mplp-rs (WebAssembly): `validate(bytes)`, the CLI's path (kind
//     recognised, every rule), its record as a JS object;
//   - ajv 8 with ajv-formats on our rendering of the canonical schemas
//     (schemas/): UTF-8 decoding, `JSON.parse`, then the compiled validator;
//   - `JSON.parse` alone (UTF-8 decoding and parsing; no checking at all);
// interleaved round by round, medians of the rounds. The ratios are taken
// within each round (the three contenders measured one after the other, so
// a shared machine's load weighs on all three alike) and their median is
// shown with their range over the rounds. Then the `.wasm` size.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(fileURLToPath(import.meta.url), "../../../..");
const npm = resolve(process.env.MPLP_NPM ?? join(root, "target/npm"));
const benchDir = resolve(process.env.MPLP_BENCH ?? join(root, "target/wasm-bench"));
const rounds = Math.max(1, Number(process.argv[2] ?? 5));
const budgetMs = Number(process.env.MPLP_BENCH_MS ?? 300);

const mplp = await import(join(npm, "index.js"));
const require = createRequire(join(benchDir, "package.json"));
const Ajv = require("ajv").default;
const addFormats = require("ajv-formats").default;

// Every schema of schemas/ (not the examples), under its $id.
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "examples") walk(path);
    } else if (name.endsWith(".schema.json")) {
      ajv.addSchema(JSON.parse(readFileSync(path, "utf8")));
    }
  }
};
walk(join(root, "schemas"));
const schemaOf = (kind) => `https://schemas.mplp.dev/v1.0/mplp-${kind}.schema.json`;

const docs = JSON.parse(readFileSync(join(benchDir, "docs/index.json"), "utf8"));
const decoder = new TextDecoder();

const contenders = {
  "JSON.parse": (bytes) => JSON.parse(decoder.decode(bytes)) !== null,
  ajv: (bytes, kind) => ajv.getSchema(schemaOf(kind))(JSON.parse(decoder.decode(bytes))),
  "mplp-rs wasm": (bytes) => mplp.validate(bytes).valid,
};

function time(f, bytes, kind) {
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(budgetMs) * 1_000_000n;
  let now = start;
  do {
    for (let i = 0; i < 8; i++) f(bytes, kind);
    n += 8;
    now = process.hrtime.bigint();
  } while (now < end);
  return Number(now - start) / 1000 / n; // µs per document
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { loadavg } = await import("node:os");
console.log(`µs per document (medians of ${rounds} interleaved rounds of ${budgetMs} ms per contender), Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
console.log("| document | size | `JSON.parse` µs | ajv + formats (parse + validate) µs | mplp-rs wasm `validate` µs | ajv time / wasm time (range over rounds) | wasm time / `JSON.parse` time (range) |");
console.log("|---|---|---|---|---|---|---|");
for (const doc of docs) {
  const bytes = readFileSync(join(benchDir, "docs", doc.file));
  for (const [name, f] of Object.entries(contenders)) {
    if (!f(bytes, doc.kind)) {
      const errors = name === "ajv" ? JSON.stringify(ajv.getSchema(schemaOf(doc.kind)).errors?.slice(0, 3)) : "";
      throw new Error(`${doc.label}: ${name} says it is not valid ${errors}`);
    }
  }
  // One round unmeasured: V8 compiles the module in tiers (a fast baseline
  // first, optimised code later, in the background), so the first round
  // of the first document measured the baseline code (5x slower).
  for (const f of Object.values(contenders)) time(f, bytes, doc.kind);
  const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, f] of Object.entries(contenders)) times[name].push(time(f, bytes, doc.kind));
  }
  const [p, a, w] = ["JSON.parse", "ajv", "mplp-rs wasm"].map((k) => median(times[k]));
  // Ratios within each round, then their median and range.
  const ratio = (num, den) => {
    const rs = times[num].map((t, r) => t / times[den][r]);
    return `${median(rs).toFixed(2)}x (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})`;
  };
  const size = bytes.length >= 1 << 20 ? `${(bytes.length / (1 << 20)).toFixed(1)} MB` : `${(bytes.length / 1024).toFixed(1)} KB`;
  console.log(`| ${doc.label} | ${size} | ${p.toFixed(1)} | ${a.toFixed(1)} | ${w.toFixed(1)} | ${ratio("ajv", "mplp-rs wasm")} | ${ratio("mplp-rs wasm", "JSON.parse")} |`);
}
const wasm = readFileSync(join(npm, "mplp_wasm_bg.wasm"));
console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
const gz = gzipSync(wasm, { level: 9 }).length;
console.log(`mplp_wasm_bg.wasm: ${wasm.length} bytes (${(wasm.length / 1048576).toFixed(2)} MB), ${gz} bytes gzipped (${(gz / 1048576).toFixed(2)} MB)`);
