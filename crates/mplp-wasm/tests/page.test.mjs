// The offline page (target/web/index.html, one file) in headless Chromium:
// a valid plan, an invalid plan and a MAP log (through the Web Worker) are
// fed to it; the verdicts and the highlighted pointer are read from the
// DOM, and a screenshot is saved under target/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync, readdirSync, statSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { mplp, root, scratch } from "./common.mjs";

const page = resolve(process.env.MPLP_PAGE ?? join(root, "target/web/index.html"));

function chromium() {
  for (const b of ["chromium", "chromium-browser", "google-chrome"]) {
    const o = spawnSync(b, ["--version"]);
    if (o.status === 0) return b;
  }
  if (process.env.CI) throw new Error("chromium is missing, and CI is set: .ci/run installs it");
  console.error("SKIPPED: chromium is not installed (apt-get install chromium); the page was not opened");
  return null;
}

/**
 * Headless Chromium driven over the DevTools protocol (`--remote-debugging-pipe`):
 * the page's worker runs in real time, so the test waits for the page to say
 * it is done rather than for a virtual-time budget.
 */
async function open(browser, url) {
  const profile = join(scratch, "chromium-profile");
  rmSync(profile, { recursive: true, force: true });
  const child = spawn(
    browser,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-extensions",
      // No background connections: CI's network is closed.
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--hide-scrollbars",
      "--remote-debugging-pipe",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const [input, output] = [child.stdio[3], child.stdio[4]];
  let next = 1;
  const waiting = new Map();
  let buffer = "";
  output.on("data", (data) => {
    buffer += data.toString("utf8");
    let at;
    while ((at = buffer.indexOf("\0")) >= 0) {
      const message = JSON.parse(buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
      const w = waiting.get(message.id);
      if (w) {
        waiting.delete(message.id);
        if (message.error) w.reject(new Error(JSON.stringify(message.error)));
        else w.resolve(message.result);
      }
    }
  });
  const send = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      input.write(JSON.stringify({ id, method, params, sessionId }) + "\0");
    });
  const { targetInfos } = await send("Target.getTargets");
  const target = targetInfos.find((t) => t.type === "page");
  assert.ok(target, `no page target: ${stderr}`);
  const { sessionId } = await send("Target.attachToTarget", { targetId: target.targetId, flatten: true });
  const page = (method, params) => send(method, params, sessionId);
  await page("Emulation.setDeviceMetricsOverride", { width: 1200, height: 2200, deviceScaleFactor: 1, mobile: false });
  await page("Page.enable");
  await page("Page.navigate", { url });
  const evaluate = async (expression) =>
    (await page("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true })).result.value;
  return {
    evaluate,
    page,
    close: () => {
      child.kill("SIGKILL");
    },
  };
}

/** The value at a JSON pointer, or undefined. */
function at(value, pointer) {
  let v = value;
  for (const raw of pointer.split("/").slice(1)) {
    const k = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (v == null || typeof v !== "object" || !(k in v)) return undefined;
    v = v[k];
  }
  return v;
}

test("the page checks a valid plan, an invalid plan and a MAP log", { timeout: 300_000 }, async (t) => {
  const browser = chromium();
  if (!browser) return t.skip("no chromium");
  assert.ok(existsSync(page), `${page}: run cargo xtask wasm`);
  const valid = readFileSync(join(root, "schemas/examples/valid/plan-code-review-dag.json"));
  const log = readFileSync(join(root, "schemas/examples/valid/map-log-round-robin.ndjson"));
  // An invalid plan whose first error points at a value that is there.
  const dir = join(root, "schemas/examples/invalid");
  let invalid = null;
  let pointer = null;
  for (const name of readdirSync(dir).sort()) {
    if (!name.startsWith("plan-") || !name.endsWith(".json") || name.endsWith(".expect.json")) continue;
    if (!statSync(join(dir, name)).isFile()) continue;
    const bytes = readFileSync(join(dir, name));
    const record = mplp.validate(bytes, { name });
    const p = record.errors[0]?.pointer;
    if (!record.valid && p && p.split("/").length > 2 && at(JSON.parse(bytes), p) !== undefined) {
      invalid = { name, bytes };
      pointer = p;
      break;
    }
  }
  assert.ok(invalid, "an invalid plan whose error points inside it");
  const feed = [
    ["plan-valid.json", valid],
    [invalid.name, invalid.bytes],
    ["session.ndjson", log],
  ];
  const harness = join(scratch, "page-test.html");
  const script = `<script>
window.mplpPage.ready.then(async () => {
  const file = (name, b64) => new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name);
  await window.mplpPage.addFiles([${feed.map(([n, b]) => `file(${JSON.stringify(n)}, "${b.toString("base64")}")`).join(", ")}]);
  document.body.setAttribute("data-done", "yes");
}, (e) => document.body.setAttribute("data-done", "failed: " + e));
</script>`;
  writeFileSync(harness, readFileSync(page, "utf8").replace("</body>", `${script}\n</body>`));
  const url = `file://${harness}?worker=always`;
  const chrome = await open(browser, url);
  let dom;
  try {
    const deadline = Date.now() + 120_000;
    let done = null;
    while (Date.now() < deadline) {
      done = await chrome.evaluate("document.body && document.body.getAttribute('data-done')");
      if (done) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    dom = await chrome.evaluate("document.documentElement.outerHTML");
    const shot = join(scratch, "page.png");
    const { data } = await chrome.page("Page.captureScreenshot", { format: "png", captureBeyondViewport: true });
    writeFileSync(shot, Buffer.from(data, "base64"));
    console.error(`screenshot: ${shot}`);
  } finally {
    chrome.close();
  }
  assert.match(dom, /<body[^>]*data-done="yes"/, dom.slice(-3000));
  const sections = [...dom.matchAll(/<section class="file (valid|invalid)">.*?<span class="name">([^<]*)<\/span><span class="verdict">(valid|invalid)<\/span><span class="kind">([^<]*)<\/span>/gs)].map((m) => [m[2], m[3], m[4]]);
  // Newest first.
  assert.deepEqual(sections, [
    ["session.ndjson", "valid", "map-log"],
    [invalid.name, "invalid", "plan"],
    ["plan-valid.json", "valid", "plan"],
  ]);
  // The invalid plan's first error is selected and its value marked.
  const marks = [...dom.matchAll(/<mark class="hl" data-pointer="([^"]*)">/g)].map((m) => m[1]);
  assert.deepEqual(marks, [pointer], dom.slice(0, 2000));
  // The log went through the worker; the plans have their pictures.
  assert.match(dom, /streamed through a worker/);
  assert.ok(dom.match(/<g class="step"/g)?.length >= 2, "the plans are drawn");
  const png = readFileSync(join(scratch, "page.png"));
  assert.equal(png.subarray(1, 4).toString(), "PNG");
  assert.ok(png.length > 20_000, `${png.length} bytes: a nearly blank page?`);
});
