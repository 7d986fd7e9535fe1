// The npm package `mplp-rs`: the WebAssembly module of mplp-rs, ready to
// use. In Node the module is read from disk; in a browser it is fetched
// next to this file. Either way it is instantiated once, before this
// module's importers run (top-level await).
import init, { initSync, LogValidator } from "./mplp_wasm.js";

export {
  validate,
  validateText,
  detectKind,
  render,
  kinds,
  LogValidator,
} from "./mplp_wasm.js";

const wasmUrl = new URL("./mplp_wasm_bg.wasm", import.meta.url);

let instance;
if (typeof process !== "undefined" && process.versions != null && process.versions.node != null) {
  const { readFileSync } = await import("node:fs");
  instance = initSync({ module: readFileSync(wasmUrl) });
} else {
  instance = await init({ module_or_path: wasmUrl });
}

/**
 * The size of the module's linear memory, in bytes (it grows, never
 * shrinks: the peak of what validation needed so far).
 *
 * @returns {number}
 */
export function memoryBytes() {
  return instance.memory.buffer.byteLength;
}

/**
 * Validates a log read from a `ReadableStream` of bytes (a `fetch` body, a
 * `Blob.stream()`, Node's `Readable.toWeb`), chunk by chunk: memory stays
 * bounded however long the log is.
 *
 * @param {ReadableStream<Uint8Array>} stream
 * @param {import("./index.d.ts").StreamOptions} [options]
 * @returns {Promise<import("./index.d.ts").ValidationRecord>}
 */
export async function validateStream(stream, options = {}) {
  const { onProgress, ...rest } = options;
  const validator = new LogValidator(rest);
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      validator.push(value);
      if (onProgress) onProgress(validator.bytes);
    }
  } catch (e) {
    validator.free();
    throw e;
  } finally {
    reader.releaseLock();
  }
  return validator.finish();
}
