// The generated classes are disposable (`[Symbol.dispose]`, for `using`):
// their type needs this library of TypeScript 5.2 and later, whatever the
// program's `lib` says.
/// <reference lib="esnext.disposable" />
// The package's types: the generated ones (mplp_wasm.d.ts, from the Rust
// crate by wasm-bindgen) and `validateStream`, written in JavaScript here.
export {
  validate,
  validateText,
  detectKind,
  render,
  kinds,
  LogValidator,
  ValidateOptions,
  ValidationRecord,
  Violation,
} from "./mplp_wasm.js";

import type { ValidateOptions, ValidationRecord } from "./mplp_wasm.js";

/** The options of `validateStream`: those of `LogValidator`, and a progress callback. */
export interface StreamOptions extends ValidateOptions {
  /** Called after each chunk with the bytes read so far. */
  onProgress?: (bytes: number) => void;
}

/**
 * Validates a log read from a `ReadableStream` of bytes, chunk by chunk, in
 * bounded memory: the record of `mplp validate --format json`.
 */
export function validateStream(
  stream: ReadableStream<Uint8Array>,
  options?: StreamOptions,
): Promise<ValidationRecord>;

/** The size of the module's linear memory in bytes: the peak of what validation needed so far. */
export function memoryBytes(): number;
