// What the Node tests of the package share: where the package, the CLI and
// the examples are, and the CLI's records.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(fileURLToPath(import.meta.url), "../../../..");
/** The npm package (`target/npm`, made by `cargo xtask wasm`). */
export const npm = resolve(process.env.MPLP_NPM ?? join(root, "target/npm"));
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

/**
 * A MAP log generator: `template` (a log of complete sessions) copied again
 * and again, each copy with ids of its own (the last 12 hex digits of every
 * UUID are the copy's number), written straight into bytes so that hundreds
 * of megabytes take a second or two. `copy(i, out, at)` writes copy `i` at
 * `at`. Plain JavaScript: the page test runs its source in the page.
 */
export function sessionCopier(template) {
  const enc = new TextEncoder();
  const bytes = enc.encode(template);
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const tails = [...template.matchAll(uuid)].map((m) => enc.encode(template.slice(0, m.index)).length + 24);
  const hex = enc.encode("0123456789abcdef");
  const lines = bytes.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
  return {
    size: bytes.length,
    lines,
    copy(i, out, at) {
      out.set(bytes, at);
      for (const t of tails) {
        let n = i;
        for (let d = 11; d >= 0; d--) {
          out[at + t + d] = hex[n % 16];
          n = Math.floor(n / 16);
        }
      }
    },
  };
}

/** The shortest complete MAP session: started, roles assigned, completed with no turn (3 lines). */
export const SHORT_SESSION = [
  `{"event_id":"1c7a3f2e-5b4d-4e6f-8a9b-000000000000","event_type":"MAPSessionStarted","timestamp":"2025-12-07T00:00:00Z","session_id":"2d8b4f3a-6c5e-4f70-9bac-000000000000","payload":{"mode":"round_robin","participant_count":1}}`,
  `{"event_id":"3e9c5a4b-7d6f-4a81-8cbd-000000000000","event_type":"MAPRolesAssigned","timestamp":"2025-12-07T00:00:01Z","session_id":"2d8b4f3a-6c5e-4f70-9bac-000000000000","payload":{"assignments":[{"participant_id":"agent-a","role_id":"writer"}]}}`,
  `{"event_id":"4fad6b5c-8e7a-4b92-9dce-000000000000","event_type":"MAPSessionCompleted","timestamp":"2025-12-07T00:00:02Z","session_id":"2d8b4f3a-6c5e-4f70-9bac-000000000000","payload":{"status":"completed","turns_total":0}}`,
].join("\n") + "\n";
