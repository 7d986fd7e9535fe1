// The page: files dropped, chosen or pasted are checked by the WebAssembly
// module inlined in this page (no network); big logs stream through a Web
// Worker with a progress bar. `window.mplpPage.addFiles(files)` is what the
// drop zone calls, `window.mplpPage.paste(text)` what the paste button
// calls (the page test drives both).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const status = $("status");
  // Logs larger than this go to the worker (`?worker=always`: every log).
  const WORKER_AT = /[?&]worker=always\b/.test(location.search) ? 0 : 4 << 20;
  // Sources larger than this are not shown (the record still is).
  const SHOW_AT = 2 << 20;
  let module = null;

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  function options() {
    const o = { profile: $("profile").value, partial: $("partial").checked };
    if ($("kind").value !== "auto") o.kind = $("kind").value;
    return o;
  }

  const isLogName = (name) => /\.(ndjson|jsonl)$/.test(name);

  // Where each value of a JSON text is: pointer -> [start, end).
  function locate(text) {
    const spans = new Map();
    let i = 0;
    const n = text.length;
    const ws = () => {
      while (i < n && (text[i] === " " || text[i] === "\n" || text[i] === "\r" || text[i] === "\t")) i++;
    };
    const str = () => {
      const s = i++;
      while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      return JSON.parse(text.slice(s, i));
    };
    const esc = (k) => k.replace(/~/g, "~0").replace(/\//g, "~1");
    const value = (ptr, depth) => {
      if (depth > 256) throw new Error("too deep to show");
      ws();
      const start = i;
      const c = text[i];
      if (c === "{" || c === "[") {
        const close = c === "{" ? "}" : "]";
        i++;
        ws();
        let k = 0;
        if (text[i] === close) i++;
        else
          for (;;) {
            ws();
            let key = String(k++);
            if (c === "{") {
              key = esc(str());
              ws();
              if (text[i] !== ":") throw new Error("not JSON");
              i++;
            }
            value(`${ptr}/${key}`, depth + 1);
            ws();
            if (text[i] === ",") {
              i++;
              continue;
            }
            if (text[i] !== close) throw new Error("not JSON");
            i++;
            break;
          }
      } else if (c === '"') str();
      else while (i < n && !",]} \t\r\n".includes(text[i])) i++;
      spans.set(ptr, [start, i]);
    };
    try {
      value("", 0);
    } catch (_) {
      /* what was found before the error is kept */
    }
    return spans;
  }

  // The span of `pointer`, or of its nearest ancestor that is there.
  function spanOf(spans, pointer) {
    let p = pointer;
    for (;;) {
      if (spans.has(p)) return [p, spans.get(p)];
      if (p === "") return null;
      p = p.slice(0, p.lastIndexOf("/"));
    }
  }

  // The source, with the value the violation points at marked.
  function showSource(pre, text, isLog, v) {
    pre.textContent = "";
    let base = 0;
    let part = text;
    if (isLog && v && v.line) {
      let start = 0;
      for (let l = 1; l < v.line && start >= 0; l++) start = text.indexOf("\n", start) + 1;
      if (start >= 0) {
        const end = text.indexOf("\n", start);
        base = start;
        part = text.slice(start, end < 0 ? text.length : end);
      }
    } else if (isLog) {
      pre.textContent = text;
      return;
    }
    const found = v ? spanOf(locate(part), v.pointer) : null;
    if (!found) {
      pre.textContent = text;
      return;
    }
    const [pointer, [s, e]] = found;
    const mark = el("mark", { class: "hl", "data-pointer": pointer }, text.slice(base + s, base + e) || " ");
    if (v.line) mark.setAttribute("data-line", String(v.line));
    pre.append(text.slice(0, base + s), mark, text.slice(base + e));
    const top = mark.offsetTop - pre.offsetTop - 40;
    pre.scrollTop = top > 0 ? top : 0;
  }

  function section(name) {
    const s = el("section", { class: "file pending" });
    s.append(el("h2", {}, el("span", { class: "name" }, name)));
    $("results").prepend(s);
    return s;
  }

  function showRecord(s, name, record, text) {
    s.className = `file ${record.valid ? "valid" : "invalid"}`;
    s.textContent = "";
    const counts = `${record.error_count} error${record.error_count === 1 ? "" : "s"}, ${record.warning_count} warning${record.warning_count === 1 ? "" : "s"}`;
    s.append(
      el("h2", {}, el("span", { class: "name" }, name), el("span", { class: "verdict" }, record.valid ? "valid" : "invalid"),
        el("span", { class: "kind" }, record.kind), el("span", { class: "counts" }, counts)),
    );
    const rows = [...record.errors.map((v) => ["error", v]), ...record.warnings.map((v) => ["warning", v])];
    const isLog = record.kind.endsWith("-log");
    const pre = text != null && text.length <= SHOW_AT ? el("pre", { class: "source" }) : null;
    if (rows.length > 0) {
      const table = el("table", {}, el("tr", {}, el("th", {}, "severity"), el("th", {}, "line"), el("th", {}, "pointer"), el("th", {}, "rule"), el("th", {}, "message")));
      for (const [severity, v] of rows) {
        const tr = el("tr", { class: severity, "data-pointer": v.pointer },
          el("td", {}, severity), el("td", {}, v.line ? String(v.line) : ""),
          el("td", {}, el("code", { class: "pointer" }, v.pointer || "(document)")), el("td", {}, v.rule), el("td", {}, v.message));
        if (pre)
          tr.addEventListener("click", () => {
            for (const r of table.querySelectorAll("tr.selected")) r.classList.remove("selected");
            tr.classList.add("selected");
            showSource(pre, text, isLog, v);
          });
        table.append(tr);
      }
      s.append(table);
      const cut = record.suppressed_errors + record.suppressed_warnings;
      if (cut > 0) s.append(el("p", { class: "note" }, `${cut} more not listed.`));
    }
    if (pre) {
      s.append(el("details", { open: "" }, el("summary", {}, "Source"), pre));
      const first = rows[0];
      showSource(pre, text, isLog, first ? first[1] : null);
      const tr = s.querySelector("tr[data-pointer]");
      if (tr) tr.classList.add("selected");
    }
    return s;
  }

  function picture(s, kind, bytes) {
    const what = kind === "plan" ? "Plan" : kind === "map-log" ? "Session" : null;
    if (!what || bytes == null) return;
    try {
      const fig = el("figure", { class: "picture" });
      fig.innerHTML = wasm_bindgen.render(kind, bytes, "svg");
      fig.append(el("figcaption", {}, what));
      s.append(fig);
    } catch (e) {
      s.append(el("p", { class: "note" }, `No picture: ${e.message || e}`));
    }
  }

  // A file's name frames its input (a `.ndjson`/`.jsonl` name is a log,
  // another a document, as in `mplp validate FILE`); pasted text has none
  // and is told by its first lines (as `mplp validate -`).
  function checkBytes(name, bytes, named) {
    const s = section(name);
    const o = options();
    if (named) o.name = name;
    const record = wasm_bindgen.validate(bytes, o);
    let text = null;
    if (bytes.length <= SHOW_AT) text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    showRecord(s, name, record, text);
    picture(s, record.kind, bytes);
  }

  function checkInWorker(file, named) {
    return new Promise((resolve) => {
      const s = section(file.name);
      const bar = el("progress", { max: String(file.size || 1), value: "0" });
      const label = el("p", { class: "note" }, "Validating in a worker…");
      s.append(bar, label);
      const source = $("mplp-glue").textContent + "\n" + $("mplp-worker").textContent;
      const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      const worker = new Worker(url);
      const mb = (n) => (n / 1048576).toFixed(1);
      let memory = 0;
      worker.onmessage = (e) => {
        // The worker's module memory: it stops growing however long the log.
        if (e.data.memory != null) {
          memory = e.data.memory;
          bar.setAttribute("data-memory", String(memory));
        }
        if (e.data.progress != null) {
          bar.value = e.data.progress;
          label.textContent = `${mb(e.data.progress)} of ${mb(file.size)} MB (${Math.floor((100 * e.data.progress) / (file.size || 1))}%), validator memory ${mb(memory)} MB`;
          return;
        }
        worker.terminate();
        URL.revokeObjectURL(url);
        if (e.data.error) {
          s.append(el("p", { class: "note" }, `Failed: ${e.data.error}`));
        } else {
          const record = JSON.parse(e.data.record);
          showRecord(s, file.name, record, null);
          s.append(el("p", { class: "note" }, `${mb(file.size)} MB streamed through a worker (validator memory ${mb(memory)} MB).`));
          if (record.kind === "map-log" && file.size <= SHOW_AT) {
            file.arrayBuffer().then((b) => picture(s, record.kind, new Uint8Array(b))).then(resolve, resolve);
            return;
          }
        }
        resolve();
      };
      worker.onerror = (e) => {
        worker.terminate();
        s.append(el("p", { class: "note" }, `The worker failed: ${e.message || "it could not start"}`));
        resolve();
      };
      const o = options();
      if (named) o.name = file.name;
      worker.postMessage({ module, file, options: o });
    });
  }

  // Whether a nameless input is a log: its first lines (up to 64 KiB, cut
  // after the last newline in them) are told as a log.
  async function looksLikeLog(file) {
    const head = new Uint8Array(await file.slice(0, 64 << 10).arrayBuffer());
    const end = head.lastIndexOf(10);
    return end > 0 && (wasm_bindgen.detectKind(head.subarray(0, end + 1)) || "").endsWith("-log");
  }

  // `named`: false for pasted text (see checkBytes).
  async function addFiles(files, named = true) {
    status.textContent = `Checking ${files.length} file${files.length === 1 ? "" : "s"}…`;
    for (const file of files) {
      const big = file.size >= WORKER_AT;
      const log = $("kind").value.endsWith("-log") || (named ? isLogName(file.name) : big && (await looksLikeLog(file)));
      if (log && big) await checkInWorker(file, named);
      else checkBytes(file.name, new Uint8Array(await file.arrayBuffer()), named);
    }
    status.textContent = "Ready. Drop more files, or click an error to see where it points.";
  }

  // Pasted text goes the way of a dropped file, without a name: a big
  // pasted log streams through the worker too.
  const paste = (text) => addFiles([new File([text], "pasted")], false);

  async function start() {
    const b64 = $("mplp-wasm").textContent.trim();
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    module = await WebAssembly.compile(bytes);
    await wasm_bindgen({ module_or_path: module });
    for (const k of wasm_bindgen.kinds()) $("kind").append(el("option", { value: k }, k));
    const drop = $("drop");
    drop.addEventListener("dragover", (e) => {
      e.preventDefault();
      drop.classList.add("over");
    });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      addFiles([...e.dataTransfer.files]);
    });
    $("files").addEventListener("change", (e) => addFiles([...e.target.files]));
    $("paste-go").addEventListener("click", () => {
      paste($("paste").value);
    });
    status.textContent = "Ready: drop files, choose them, or paste.";
  }

  const ready = start().catch((e) => {
    status.textContent = `The validator could not start: ${e.message || e}`;
    throw e;
  });
  window.mplpPage = { ready, addFiles, paste };
})();
