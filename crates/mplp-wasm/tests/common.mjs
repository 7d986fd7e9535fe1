// What the Node tests of the package share: where the package, the CLI and
// the examples are, and the CLI's records.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(fileURLToPath(import.meta.url), "../../../..");
const npm = resolve(process.env.MPLP_NPM ?? join(root, "target/npm"));
export const bin = resolve(process.env.MPLP_BIN ?? join(root, "target/debug/mplp"));
export const scratch = resolve(process.env.MPLP_SCRATCH ?? join(root, "target/wasm-test"));
mkdirSync(scratch, { recursive: true });

/** The package, as its users import it. */
export const mplp = await import(join(npm, "index.js"));

/** Every `.json` and `.ndjson` file under `dir` (relative to the root), sorted. */
export function files(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(join(root, d)).sort()) {
      const path = `${d}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (/\.(json|ndjson)$/.test(name)) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** Whether the CLI is there (it is built by `cargo xtask wasm test`). */
export function haveCli() {
  if (existsSync(bin)) return true;
  if (process.env.CI) throw new Error(`the mplp CLI is missing (${bin}), and CI is set`);
  console.error(`SKIPPED: the mplp CLI is missing (${bin}): cargo build -p mplp-cli`);
  return false;
}

/** The CLI's records (one line each) of `paths`, run from the root with `args`. */
export function cliRecords(paths, args = [], input) {
  const o = spawnSync(bin, ["validate", "--format", "json", ...args, ...paths], {
    cwd: root,
    input,
    maxBuffer: 1 << 30,
  });
  if (o.status === null || o.status > 2) {
    throw new Error(`mplp validate failed: ${o.stderr}`);
  }
  return o.stdout.toString("utf8").split("\n").filter((l) => l.length > 0);
}

/** A seeded pseudo-random generator (mulberry32). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
