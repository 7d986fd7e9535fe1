// The offline page (target/web/index.html, one file) in headless Chromium:
// a valid plan, an invalid plan and a MAP log (through the Web Worker) are
// fed to it; the verdicts and the highlighted pointer are read from the
// DOM, and a screenshot is saved under target/. Then a log of hundreds of
// megabytes, made in the page, streams through the worker: the progress
// bar, a page that stays responsive, the worker's memory, the record.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync, readdirSync, statSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { createServer } from "node:http";
import { mplp, npm, root, scratch, sessionCopier, SHORT_SESSION } from "./common.mjs";

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

/**
 * The page with `script` added at its end (it sets `data-done` on the body
 * when it is done), opened with `query`; waits up to `wait` ms for
 * `data-done`, then `collect(chrome)`. Chromium is closed after.
 */
async function withPage(browser, name, script, query, wait, collect) {
  const harness = join(scratch, name);
  writeFileSync(harness, readFileSync(page, "utf8").replace("</body>", `${script}\n</body>`));
  return visit(browser, `file://${harness}${query}`, wait, collect);
}

/** Opens `url`, waits up to `wait` ms for `data-done` on its body, then `collect(chrome)`. */
async function visit(browser, url, wait, collect) {
  const chrome = await open(browser, url);
  try {
    const deadline = Date.now() + wait;
    while (Date.now() < deadline) {
      if (await chrome.evaluate("document.body && document.body.getAttribute('data-done')")) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    return await collect(chrome);
  } finally {
    chrome.close();
  }
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
  const script = `<script>
window.mplpPage.ready.then(async () => {
  const file = (name, b64) => new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name);
  await window.mplpPage.addFiles([${feed.map(([n, b]) => `file(${JSON.stringify(n)}, "${b.toString("base64")}")`).join(", ")}]);
  // Pasted (through the button): the log, then the valid plan; pasted
  // text has no name, so it is told by its first lines.
  const done = () => document.querySelectorAll("#results section.file:not(.pending)").length;
  let n = done();
  for (const text of [${JSON.stringify(log.toString("utf8"))}, ${JSON.stringify(valid.toString("utf8"))}]) {
    document.getElementById("paste").value = text;
    document.getElementById("paste-go").click();
    n++;
    for (let i = 0; i < 600 && done() < n; i++) await new Promise((r) => setTimeout(r, 50));
  }
  document.body.setAttribute("data-done", "yes");
}, (e) => document.body.setAttribute("data-done", "failed: " + e));
</script>`;
  let dom;
  await withPage(browser, "page-test.html", script, "?worker=always", 120_000, async (chrome) => {
    dom = await chrome.evaluate("document.documentElement.outerHTML");
    const shot = join(scratch, "page.png");
    const { data } = await chrome.page("Page.captureScreenshot", { format: "png", captureBeyondViewport: true });
    writeFileSync(shot, Buffer.from(data, "base64"));
    console.error(`screenshot: ${shot}`);
  });
  assert.match(dom, /<body[^>]*data-done="yes"/, dom.slice(-3000));
  const sections = [...dom.matchAll(/<section class="file (valid|invalid)">.*?<span class="name">([^<]*)<\/span><span class="verdict">(valid|invalid)<\/span><span class="kind">([^<]*)<\/span>/gs)].map((m) => [m[2], m[3], m[4]]);
  // Newest first.
  assert.deepEqual(sections, [
    ["pasted", "valid", "plan"],
    ["pasted", "valid", "map-log"],
    ["session.ndjson", "valid", "map-log"],
    [invalid.name, "invalid", "plan"],
    ["plan-valid.json", "valid", "plan"],
  ]);
  // The invalid plan's first error is selected and its value marked.
  const marks = [...dom.matchAll(/<mark class="hl" data-pointer="([^"]*)">/g)].map((m) => m[1]);
  assert.deepEqual(marks, [pointer], dom.slice(0, 2000));
  // The logs (dropped and pasted) went through the worker; the plans have
  // their pictures.
  // (The page's note, not the same words in its inlined script.)
  assert.equal(dom.match(/<p class="note">[^<]*streamed through a worker/g)?.length, 2);
  assert.ok(dom.match(/<g class="step"/g)?.length >= 2, "the plans are drawn");
  const png = readFileSync(join(scratch, "page.png"));
  assert.equal(png.subarray(1, 4).toString(), "PNG");
  assert.ok(png.length > 20_000, `${png.length} bytes: a nearly blank page?`);
});

test("the npm package, as an ES module, works in a browser", { timeout: 300_000 }, async (t) => {
  const browser = chromium();
  if (!browser) return t.skip("no chromium");
  // Browsers load modules over HTTP only: target/npm and a page that
  // imports it, served on 127.0.0.1.
  const plan = readFileSync(join(root, "schemas/examples/valid/plan-code-review-dag.json"), "utf8");
  const log = readFileSync(join(root, "schemas/examples/valid/map-log-round-robin.ndjson"), "utf8");
  const html = `<!doctype html><meta charset="utf-8"><body><script type="module">
import { validate, validateText, detectKind, kinds, render, LogValidator, validateStream, memoryBytes } from "./index.js";
const plan = ${JSON.stringify(plan)};
const log = ${JSON.stringify(log)};
const bad = plan.replace('"plan_id"', '"plan_idx"');
const v = new LogValidator();
v.push(new TextEncoder().encode(log));
const seen = [];
window.result = {
  plan: validateText(plan),
  bad: validateText(new TextEncoder().encode(bad), { name: "bad.json" }),
  kind: detectKind(log),
  kinds: kinds(),
  svg: render("plan", plan, "svg").slice(0, 4),
  pushed: v.finishText(),
  streamed: JSON.stringify(await validateStream(new Blob([log]).stream(), { onProgress: (n) => seen.push(n) })),
  seen,
  memory: memoryBytes() > 0,
  parsed: validate(plan).valid,
};
document.body.setAttribute("data-done", "yes");
</script>`;
  const types = { ".js": "text/javascript", ".wasm": "application/wasm" };
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://127.0.0.1").pathname;
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end(html);
    }
    const file = join(npm, path.slice(1));
    if (!/^\/[\w.]+$/.test(path) || !existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { "content-type": types[path.slice(path.lastIndexOf("."))] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  let r;
  try {
    r = await visit(browser, `http://127.0.0.1:${server.address().port}/`, 60_000, (chrome) =>
      chrome.evaluate("window.result && JSON.stringify(window.result)"),
    );
  } finally {
    server.close();
  }
  assert.ok(r, "the module did not run in the page");
  r = JSON.parse(r);
  // The browser's records are Node's, byte for byte.
  const bad = plan.replace('"plan_id"', '"plan_idx"');
  assert.equal(r.plan, mplp.validateText(plan));
  assert.equal(r.bad, mplp.validateText(Buffer.from(bad), { name: "bad.json" }));
  assert.match(r.bad, /"valid":false/);
  assert.equal(r.kind, "map-log");
  assert.deepEqual(r.kinds, mplp.kinds());
  assert.equal(r.svg, "<svg");
  assert.equal(r.pushed, mplp.validateText(log, { maxErrors: 1000 }));
  assert.deepEqual(JSON.parse(r.streamed), mplp.validate(log, { maxErrors: 1000 }));
  assert.equal(r.seen.at(-1), Buffer.byteLength(log));
  assert.equal(r.memory, true);
  assert.equal(r.parsed, true);
});

// The size of the log of the next test, in MiB (`MPLP_PAGE_LOG_MB`).
const LOG_MB = Number(process.env.MPLP_PAGE_LOG_MB ?? 300);

test(`a log of ${LOG_MB} MB streams through the page's worker, with progress, the page responsive, in bounded memory`, { timeout: 900_000 }, async (t) => {
  const browser = chromium();
  if (!browser) return t.skip("no chromium");
  assert.ok(existsSync(page), `${page}: run cargo xtask wasm`);
  // Made in the page: parts of ~4 MiB, each a complete session copied with
  // ids of its own (the shortest: they reach the validator's bounds in the
  // fewest bytes, docs/spec-notes.md) and one line that is not JSON at its
  // end, joined into a Blob, given to the page as a dropped `.ndjson` file.
  const template = SHORT_SESSION;
  const script = `<script>
const sessionCopier = ${sessionCopier.toString()};
window.mplpPage.ready.then(async () => {
  const copier = sessionCopier(${JSON.stringify(template)});
  const bad = new TextEncoder().encode("not json\\n");
  const perPart = Math.floor((4 << 20) / copier.size);
  const partSize = perPart * copier.size + bad.length;
  const parts = Math.ceil((${LOG_MB} * 1048576) / partSize);
  const made = performance.now();
  let blob = new Blob([]);
  let n = 0;
  for (let p = 0; p < parts; p++) {
    const buf = new Uint8Array(partSize);
    for (let j = 0; j < perPart; j++) copier.copy(n++, buf, j * copier.size);
    buf.set(bad, perPart * copier.size);
    blob = new Blob([blob, buf]);
  }
  const file = new File([blob], "big.ndjson");
  const makeMs = performance.now() - made;
  // What the page shows as it goes: the bar's value and the worker's memory.
  const results = document.getElementById("results");
  const samples = [];
  new MutationObserver(() => {
    const bar = results.querySelector("progress");
    if (bar) samples.push([Number(bar.value), Number(bar.max), Number(bar.getAttribute("data-memory") || 0)]);
  }).observe(results, { subtree: true, attributes: true, attributeFilter: ["value", "data-memory"] });
  // The main thread: a timer and animation frames keep coming; long tasks.
  let last = performance.now();
  let ticks = 0;
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    ticks++;
  }, 25);
  let frames = 0;
  let running = true;
  const frame = () => {
    frames++;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const long = [];
  try {
    new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => Math.round(e.duration)))).observe({ type: "longtask" });
  } catch (_) {}
  const start = performance.now();
  await window.mplpPage.addFiles([file]);
  const elapsed = performance.now() - start;
  running = false;
  clearInterval(timer);
  const s = results.querySelector("section.file");
  window.bigLog = {
    size: file.size, parts, perPart, partSize, linesPerPart: perPart * copier.lines + 1, makeMs, elapsed, ticks, frames, maxGap, long, samples,
    verdict: s.querySelector(".verdict")?.textContent,
    kind: s.querySelector(".kind")?.textContent,
    counts: s.querySelector(".counts")?.textContent,
    rows: [...s.querySelectorAll("tr.error")].map((tr) => [tr.children[1].textContent, tr.children[3].textContent]),
    notes: [...s.querySelectorAll("p.note")].map((p) => p.textContent),
  };
  document.body.setAttribute("data-done", "yes");
}).catch((e) => document.body.setAttribute("data-done", "failed: " + e));
</script>`;
  const r = await withPage(browser, "page-big-log.html", script, "", 800_000, async (chrome) => {
    const done = await chrome.evaluate("document.body.getAttribute('data-done')");
    assert.equal(done, "yes");
    const shot = join(scratch, "page-big-log.png");
    const { data } = await chrome.page("Page.captureScreenshot", { format: "png" });
    writeFileSync(shot, Buffer.from(data, "base64"));
    console.error(`screenshot: ${shot}`);
    return JSON.parse(await chrome.evaluate("JSON.stringify(window.bigLog)"));
  });
  const mb = (n) => (n / 1048576).toFixed(1);
  const memories = r.samples.map((x) => x[2]).filter((m) => m > 0);
  console.error(
    `page, big log: ${mb(r.size)} MB made in ${(r.makeMs / 1000).toFixed(1)} s, validated in ${(r.elapsed / 1000).toFixed(1)} s ` +
      `(${(r.size / 1048576 / (r.elapsed / 1000)).toFixed(1)} MB/s); ${r.samples.length} progress updates; main thread: ${r.ticks} timer ticks, ` +
      `${r.frames} frames, longest gap ${Math.round(r.maxGap)} ms, long tasks ${JSON.stringify(r.long)}; worker memory ${mb(Math.min(...memories))}..${mb(Math.max(...memories))} MB over ${memories.length} figures`,
  );
  assert.ok(r.size >= LOG_MB * 1048576, `${r.size} bytes`);
  // The verdict and the counts: one error per part (its line not JSON), at
  // the line where each part ends, every one listed (fewer than 1000).
  assert.equal(r.verdict, "invalid");
  assert.equal(r.kind, "map-log");
  assert.equal(r.counts, `${r.parts} errors, 0 warnings`);
  assert.deepEqual(
    r.rows,
    Array.from({ length: r.parts }, (_, p) => [String((p + 1) * r.linesPerPart), "json-syntax"]),
  );
  assert.ok(r.notes.some((n) => n.includes("streamed through a worker")), JSON.stringify(r.notes));
  // Progress: reported all along, never backwards, up to the whole file.
  const values = r.samples.map((x) => x[0]);
  // (The worker reports every 50 ms: 20 figures at 300 MB/s.)
  assert.ok(values.length >= 8, `${values.length} progress updates`);
  for (let i = 1; i < values.length; i++) assert.ok(values[i] >= values[i - 1], `progress went back: ${values[i - 1]} then ${values[i]}`);
  assert.equal(values.at(-1), r.size);
  assert.ok(r.samples.every((x) => x[1] === r.size), "the bar's maximum is the file's size");
  assert.ok(values.filter((v) => v < r.size / 2).length >= 3, "progress shown in the first half");
  // Responsive: the timer kept firing (at least 4 times a second on
  // average, no gap of a second or more) and frames kept coming.
  assert.ok(r.ticks >= r.elapsed / 250, `${r.ticks} ticks in ${r.elapsed} ms`);
  assert.ok(r.maxGap < 1000, `the main thread was blocked for ${r.maxGap} ms`);
  assert.ok(r.long.every((d) => d < 1000), `long tasks: ${r.long}`);
  assert.ok(r.frames >= r.elapsed / 1000, `${r.frames} animation frames in ${r.elapsed} ms`);
  // Memory: the worker's module memory grows while the validator's bounds
  // fill (the id window, 2^18 completed sessions remembered), then not at
  // all: every figure reported past that point is the last one.
  const warmBytes = Math.ceil(((1 << 18) + (1 << 14)) / r.perPart) * r.partSize;
  const warm = r.samples.filter((x) => x[0] >= warmBytes && x[2] > 0);
  assert.ok(memories.length >= 8, `${memories.length} memory figures`);
  assert.ok(memories.every((m) => m < 64 << 20), `worker memory up to ${Math.max(...memories)} bytes`);
  assert.ok(memories.at(-1) - memories[0] > 8 << 20, `the memory figures do not show the bounds filling: ${memories}`);
  if (r.size >= warmBytes * 1.25) {
    assert.ok(warm.length >= 3, `${warm.length} figures past ${warmBytes} bytes`);
    assert.deepEqual(
      warm.map((x) => x[2]),
      warm.map(() => memories.at(-1)),
      `memory past ${mb(warmBytes)} MB: ${warm.map((x) => `${mb(x[0])}: ${mb(x[2])}`)}`,
    );
  } else {
    console.error(`NOTE: a log of ${LOG_MB} MB ends before the bounds are reached (${mb(warmBytes)} MB): the memory's plateau is not checked`);
  }
});
