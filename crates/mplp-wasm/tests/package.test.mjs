// The package as its users get it: `npm pack target/npm` makes a tarball,
// `npm install` of that tarball (no network: the package has no
// dependencies) gives `mplp-rs`, which Node imports by its name, and whose
// types a strict TypeScript program compiles against (`tsc`, installed by
// `cargo xtask wasm test` under target/wasm-tools; `MPLP_TSC`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mplp, npm, root, scratch } from "./common.mjs";

const dir = join(scratch, "consumer");

function sh(cmd, args, cwd) {
  const o = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 1 << 26 });
  assert.equal(o.status, 0, `${cmd} ${args.join(" ")}: ${o.stdout}\n${o.stderr}`);
  return o.stdout;
}

test("npm pack accepts target/npm, and the installed package is imported by its name", { timeout: 300_000 }, () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(npm, "package.json"), "utf8"));
  assert.equal(manifest.name, "mplp-rs");
  assert.match(manifest.version, /^\d+\.\d+\.\d+/);
  const packed = JSON.parse(sh("npm", ["pack", "--json", "--pack-destination", dir, npm], dir));
  const names = packed[0].files.map((f) => f.path).sort();
  // Every file package.json names is in the tarball, and nothing else
  // (npm adds package.json itself).
  assert.deepEqual(names, [...manifest.files, "package.json"].sort());
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  sh("npm", ["install", "--offline", "--no-audit", "--no-fund", "--silent", join(dir, packed[0].filename)], dir);
  const plan = readFileSync(join(root, "schemas/examples/valid/plan-minimal.json"), "utf8");
  writeFileSync(
    join(dir, "use.mjs"),
    `import { validateText, detectKind } from "mplp-rs";
import { readFileSync } from "node:fs";
const plan = readFileSync(process.argv[2]);
console.log(JSON.stringify([validateText(plan), detectKind(plan)]));
`,
  );
  const [record, kind] = JSON.parse(sh("node", ["use.mjs", join(root, "schemas/examples/valid/plan-minimal.json")], dir));
  assert.equal(record, mplp.validateText(plan));
  assert.equal(kind, "plan");
});

test("the package's types compile in a strict TypeScript program, and refuse misuse", { timeout: 300_000 }, (t) => {
  const tsc = process.env.MPLP_TSC;
  if (!tsc || !existsSync(tsc)) {
    if (process.env.CI) throw new Error(`tsc is missing (MPLP_TSC=${tsc}), and CI is set: cargo xtask wasm test installs it`);
    console.error(`SKIPPED: tsc is missing (MPLP_TSC=${tsc}): run the tests with cargo xtask wasm test`);
    return t.skip("no tsc");
  }
  assert.ok(existsSync(join(dir, "node_modules/mplp-rs/index.d.ts")), "the package is installed by the test before");
  writeFileSync(
    join(dir, "use.ts"),
    `import { validate, validateText, validateStream, detectKind, render, kinds, memoryBytes, LogValidator } from "mplp-rs";
import type { ValidationRecord, ValidateOptions, Violation, StreamOptions } from "mplp-rs";

const options: ValidateOptions = { kind: "plan", profile: "canonical", maxErrors: 3, name: "p.json", partial: false, eventIdWindow: 10, maxDocumentBytes: 1 << 20 };
const record: ValidationRecord = validate(new Uint8Array([123, 125]), options);
const valid: boolean = record.valid;
const counts: number = record.error_count + record.warning_count + record.suppressed_errors + record.suppressed_warnings;
const first: Violation | undefined = record.errors[0];
const where: string | undefined = first?.pointer;
const line: number | undefined = first?.line;
const text: string = validateText("{}", { maxErrors: "all" });
const kind: string | undefined = detectKind("{}");
const all: string[] = kinds();
const svg: string = render("plan", "{}", "svg");
const memory: number = memoryBytes();
const log = new LogValidator({ kind: "map-log" });
log.push(new Uint8Array(0));
const read: number = log.bytes + log.errorCount + log.warningCount;
const logKind: string | undefined = log.kind;
const done: ValidationRecord = log.finish();
const streamOptions: StreamOptions = { onProgress: (bytes: number) => void bytes };
const later: Promise<ValidationRecord> = validateStream(new Blob([]).stream(), streamOptions);
// Misuse is refused: each line below is an error, or tsc fails on the
// directive that is not needed.
// @ts-expect-error: not a profile
validate("{}", { profile: "loose" });
// @ts-expect-error: the input is bytes or a string
validate(42);
// @ts-expect-error: a record's verdict is a boolean
const wrong: string = record.valid;
export { valid, counts, where, line, text, kind, all, svg, memory, read, logKind, done, later, wrong };
`,
  );
  const args = ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--lib", "es2022,dom", "use.ts"];
  sh(process.execPath, [tsc, ...args], dir);
});
