//! The JavaScript face of the crate (wasm-bindgen): `validate`,
//! `validateText`, `detectKind`, `LogValidator`, `render`, `kinds`. The
//! TypeScript types below go into the generated `.d.ts`. These functions
//! take and return JavaScript values: outside a WebAssembly host (natively)
//! they compile but cannot be called.

use js_sys::{JSON, Reflect, Uint8Array};
use mplp_check::record::Limit;
use wasm_bindgen::prelude::*;

use crate::{BadSetting, Settings};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** How an input is checked (every member optional). */
export interface ValidateOptions {
  /** A kind name (`plan`, `map-log`, ...; see `kinds()`), or `auto` (the default). */
  kind?: string;
  /** `strict` (the default: every rule at the SDK's severity) or `canonical`. */
  profile?: "strict" | "canonical";
  /** At most this many errors and this many warnings are listed (the rest are counted); `"all"` by default for `validate`, 1000 for `LogValidator`. */
  maxErrors?: number | "all";
  /** The file name: a `.ndjson`/`.jsonl` name is a log, another a document; without one, the input is told by its first lines (as `mplp validate -`). */
  name?: string;
  /** A log still being written: what it leaves open at its end is a warning. */
  partial?: boolean;
  /** Repeated event ids are looked for within this many events (0: not at all). */
  eventIdWindow?: number;
  /** Documents larger than this many bytes are refused unread (default 256 MiB). */
  maxDocumentBytes?: number;
}

/** One finding: where (a JSON pointer, and a log's line), which rule, what is wrong. */
export interface Violation {
  pointer: string;
  rule: string;
  message: string;
  line?: number;
}

/** The record of one input: what `mplp validate --format json` prints for it. */
export interface ValidationRecord {
  file: string;
  /** The kind checked, or `auto` when none was recognised. */
  kind: string;
  errors: Violation[];
  warnings: Violation[];
  valid: boolean;
  error_count: number;
  warning_count: number;
  suppressed_errors: number;
  suppressed_warnings: number;
}
"#;

fn error(e: BadSetting) -> JsError {
    JsError::new(&e.0)
}

/// The bytes of a `Uint8Array` (copied into the module's memory) or of a
/// string (UTF-8).
fn bytes_of(input: &JsValue) -> Result<Vec<u8>, JsError> {
    if let Some(text) = input.as_string() {
        return Ok(text.into_bytes());
    }
    // A view of the caller's array (`Uint8Array::new` would copy it first).
    if let Some(array) = input.dyn_ref::<Uint8Array>() {
        return Ok(array.to_vec());
    }
    Err(JsError::new("the input is a Uint8Array or a string"))
}

fn member(options: &JsValue, name: &str) -> Option<JsValue> {
    if options.is_undefined() || options.is_null() {
        return None;
    }
    Reflect::get(options, &JsValue::from_str(name))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// A whole number of at most 2^53 from a JS number.
fn count(v: &JsValue, name: &str) -> Result<u64, JsError> {
    match v.as_f64() {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_992.0 => Ok(n as u64),
        _ => Err(JsError::new(&format!(
            "`{name}` is a whole number of at least 0"
        ))),
    }
}

/// The settings from a `ValidateOptions` object.
fn settings(options: &JsValue, default_limit: Limit) -> Result<Settings, JsError> {
    let mut s = Settings::default().limit(default_limit);
    if let Some(kind) = member(options, "kind") {
        let kind = kind
            .as_string()
            .ok_or_else(|| JsError::new("`kind` is a string"))?;
        s = s.kind_named(&kind).map_err(error)?;
    }
    if let Some(profile) = member(options, "profile") {
        let profile = profile
            .as_string()
            .ok_or_else(|| JsError::new("`profile` is a string"))?;
        s = s.profile_named(&profile).map_err(error)?;
    }
    if let Some(max) = member(options, "maxErrors") {
        s = s.limit(if max.as_string().as_deref() == Some("all") {
            Limit::All
        } else {
            Limit::At(count(&max, "maxErrors")?)
        });
    }
    if let Some(name) = member(options, "name") {
        s = s.name(
            name.as_string()
                .ok_or_else(|| JsError::new("`name` is a string"))?,
        );
    }
    let mut o = s.options.clone();
    if let Some(partial) = member(options, "partial") {
        o = o.partial(partial.is_truthy());
    }
    if let Some(window) = member(options, "eventIdWindow") {
        let window = count(&window, "eventIdWindow")?;
        o = o.event_id_window(usize::try_from(window).unwrap_or(usize::MAX));
    }
    if let Some(max) = member(options, "maxDocumentBytes") {
        o = o.max_document_bytes(count(&max, "maxDocumentBytes")?);
    }
    Ok(s.options(o))
}

/// Validates a document or a log: its record, as `mplp validate --format
/// json` gives it. Throws only for options that are not understood; what
/// is wrong with the input is in the record.
#[wasm_bindgen(unchecked_return_type = "ValidationRecord")]
pub fn validate(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ValidateOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsError> {
    let text = validate_text(input, options)?;
    JSON::parse(&text).map_err(|_| JsError::new("the record is not JSON"))
}

/// `validate`, its record as the JSON text `mplp validate --format json`
/// prints (one line, without its newline).
#[wasm_bindgen(js_name = validateText)]
pub fn validate_text(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ValidateOptions | undefined")] options: JsValue,
) -> Result<String, JsError> {
    let bytes = bytes_of(&input)?;
    let settings = settings(&options, Limit::All)?;
    Ok(crate::validate_text(&bytes, &settings))
}

/// The kind `validate` checks the input as (`undefined`: none recognised).
#[wasm_bindgen(js_name = detectKind)]
pub fn detect_kind(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] input: JsValue,
) -> Result<Option<String>, JsError> {
    let bytes = bytes_of(&input)?;
    Ok(crate::detect_kind(&bytes).map(|k| k.name.to_owned()))
}

/// Every kind name (`plan`, ..., `map-log`, `sa-log`).
#[wasm_bindgen]
pub fn kinds() -> Vec<String> {
    mplp_check::KINDS
        .iter()
        .map(|k| k.name.to_owned())
        .collect()
}

/// Draws a plan (`plan`: `svg`, `mermaid`, `dot`) or a MAP log's session
/// (`map-log`: `svg`, `mermaid`) with the SDK's renderers.
#[wasm_bindgen]
pub fn render(
    kind: &str,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] input: JsValue,
    format: &str,
) -> Result<String, JsError> {
    let bytes = bytes_of(&input)?;
    crate::render(kind, &bytes, format).map_err(error)
}

/// A log validated chunk by chunk, in bounded memory: `push` each chunk as
/// it comes, then `finish` for the record.
#[wasm_bindgen(js_name = LogValidator)]
pub struct JsLogValidator {
    inner: crate::LogValidator,
}

#[wasm_bindgen(js_class = LogValidator)]
impl JsLogValidator {
    /// A log of the given kind (`map-log`, `sa-log`, or `auto`: told by its
    /// first line). `maxErrors` is 1000 unless given.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ValidateOptions | undefined")] options: JsValue,
    ) -> Result<JsLogValidator, JsError> {
        let settings = settings(&options, Limit::At(crate::DEFAULT_STREAM_MAX_ERRORS))?;
        let inner = crate::LogValidator::new(&settings).map_err(error)?;
        Ok(JsLogValidator { inner })
    }

    /// Validates the lines this chunk completes.
    pub fn push(&mut self, chunk: &[u8]) {
        self.inner.push(chunk);
    }

    /// Bytes pushed so far.
    #[wasm_bindgen(getter)]
    pub fn bytes(&self) -> f64 {
        self.inner.bytes() as f64
    }

    /// Errors found so far (listed or not).
    #[wasm_bindgen(getter, js_name = errorCount)]
    pub fn error_count(&self) -> f64 {
        self.inner.errors() as f64
    }

    /// Warnings found so far (listed or not).
    #[wasm_bindgen(getter, js_name = warningCount)]
    pub fn warning_count(&self) -> f64 {
        self.inner.warnings() as f64
    }

    /// The log's kind, once known.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> Option<String> {
        self.inner.kind().map(|k| k.name.to_owned())
    }

    /// The end of the log: its record (the validator is then used up).
    #[wasm_bindgen(unchecked_return_type = "ValidationRecord")]
    pub fn finish(self) -> Result<JsValue, JsError> {
        JSON::parse(&self.inner.finish()).map_err(|_| JsError::new("the record is not JSON"))
    }

    /// `finish`, the record as JSON text.
    #[wasm_bindgen(js_name = finishText)]
    pub fn finish_text(self) -> String {
        self.inner.finish()
    }
}
