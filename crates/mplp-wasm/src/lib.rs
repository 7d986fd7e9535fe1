//! mplp-rs as WebAssembly: the validator of `mplp validate` for Node and
//! browsers. `cargo xtask wasm` builds it with `wasm-bindgen` into the npm
//! package `mplp-rs` (`target/npm/`), an ES module with generated
//! TypeScript types.
//!
//! Everything goes through the one dispatch of the SDK,
//! [`mplp_check::validate_source`] (or its push form for logs fed chunk by
//! chunk, [`mplp_check::LogStream`]), and every result is the record
//! [`mplp_check::record::Record`] writes: byte for byte the line
//! `mplp validate --format json` prints for the same input.
//!
//! The functions here are plain Rust (so they are tested natively too);
//! [`wasm`] is their JavaScript face (it compiles everywhere, so that
//! clippy and rustdoc see it, but works only in a WebAssembly host).
//!
//! ```
//! let plan = std::fs::read("../../schemas/examples/valid/plan-minimal.json")?;
//! let options = mplp_wasm::Settings::default();
//! let record = mplp_wasm::validate_text(&plan, &options);
//! assert!(record.contains(r#""kind":"plan","errors":[],"warnings":[],"valid":true"#));
//! assert_eq!(mplp_wasm::detect_kind(&plan).map(|k| k.name), Some("plan"));
//! # Ok::<(), std::io::Error>(())
//! ```

use std::ops::ControlFlow;

use mplp_check::record::{Held, Limit, Record};
use mplp_check::{DocKind, LogStream, Options, Sink, Source};
use mplp_core::Violation;
use mplp_core::rules::Profile;

pub mod wasm;

/// The file name of an input that has none (as standard input is `-` in
/// `mplp validate`): it is then told a log or a document by its first lines.
pub const NO_NAME: &str = "-";

/// How many errors (and warnings) a [`LogValidator`] shows by default: a
/// log's record stays bounded however many violations the log has (the
/// rest are counted).
pub const DEFAULT_STREAM_MAX_ERRORS: u64 = 1000;

/// What a front end asks for: the kind, the dispatch's options, how many
/// errors to show, and the input's name.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// The kind (`None`: recognised, as `--kind auto`).
    pub kind: Option<&'static DocKind>,
    /// The dispatch's options (profile, partial, event-id window, size limit).
    pub options: Options,
    /// At most this many errors and this many warnings are shown.
    pub limit: Limit,
    /// The file name: a `.ndjson`/`.jsonl` name is a log, another a
    /// document; `None` is [`NO_NAME`] (told by its first lines).
    pub name: Option<String>,
}

impl Default for Settings {
    /// Recognised, the default options, every violation shown, no name.
    fn default() -> Self {
        Settings {
            kind: None,
            options: Options::default(),
            limit: Limit::All,
            name: None,
        }
    }
}

/// A kind name, `auto` or a profile that is not one (the message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSetting(pub String);

impl std::fmt::Display for BadSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadSetting {}

impl Settings {
    /// With the kind called `name` (`auto`: recognised).
    ///
    /// # Errors
    /// When `name` is neither a kind nor `auto` (the message lists them).
    pub fn kind_named(mut self, name: &str) -> Result<Self, BadSetting> {
        self.kind = mplp_check::parse_or_auto(name).map_err(|e| BadSetting(e.to_string()))?;
        Ok(self)
    }

    /// With the profile called `name` (`strict` or `canonical`).
    ///
    /// # Errors
    /// For any other name.
    pub fn profile_named(mut self, name: &str) -> Result<Self, BadSetting> {
        let profile = match name {
            "strict" => Profile::Strict,
            "canonical" => Profile::Canonical,
            other => {
                return Err(BadSetting(format!(
                    "unknown profile `{other}`, expected `strict` or `canonical`"
                )));
            }
        };
        self.options = self.options.profile(profile);
        Ok(self)
    }

    /// With this limit on the errors (and warnings) shown.
    #[must_use]
    pub fn limit(mut self, limit: Limit) -> Self {
        self.limit = limit;
        self
    }

    /// With this file name.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// With these dispatch options.
    #[must_use]
    pub fn options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    fn file(&self) -> &str {
        self.name.as_deref().unwrap_or(NO_NAME)
    }
}

/// Validates `bytes` through the dispatch: the record, as the line
/// `mplp validate --format json` prints for a file of that name (or for
/// standard input), without its newline.
pub fn validate_text(bytes: &[u8], settings: &Settings) -> String {
    let file = settings.file();
    let mut record = Record::new(
        Vec::with_capacity(512),
        file,
        settings.limit,
        Held::in_memory(),
    );
    let source = match &settings.name {
        Some(name) => Source::file(name, Some(bytes.len() as u64), bytes),
        None => Source::stream(NO_NAME, bytes),
    };
    mplp_check::validate_source(settings.kind, source, &settings.options, &mut record);
    finished(record)
}

/// The record's text: an in-memory record cannot fail to be written.
fn finished(record: Record<Vec<u8>>) -> String {
    let mut bytes = match record.finish() {
        Ok((bytes, _)) => bytes,
        Err(e) => format!("{{\"error\":{:?}}}", e.to_string()).into_bytes(),
    };
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    // The record is serde_json's output and ASCII text around it.
    String::from_utf8(bytes).unwrap_or_default()
}

/// The kind the dispatch checks `bytes` as (an input without a name), or
/// `None` when it recognises none: the record's `kind`. It stops at the
/// first violation; a valid input is read whole.
pub fn detect_kind(bytes: &[u8]) -> Option<&'static DocKind> {
    struct KindOnly(Option<&'static DocKind>);
    impl Sink for KindOnly {
        fn kind(&mut self, kind: Option<&'static DocKind>) {
            self.0 = kind;
        }
        fn violation(&mut self, _: Violation) -> ControlFlow<()> {
            ControlFlow::Break(())
        }
    }
    let mut found = KindOnly(None);
    mplp_check::validate_source(
        None,
        Source::stream(NO_NAME, bytes),
        &Options::default(),
        &mut found,
    );
    found.0
}

/// A log validated as its chunks are pushed in ([`LogStream`] into a
/// [`Record`]). Its memory is bounded by constants (the event-id window,
/// the ids of the last 2^18 completed sessions, the line limit, and the
/// violations shown: [`DEFAULT_STREAM_MAX_ERRORS`] unless said otherwise)
/// and by what the log leaves open; a log whose sessions close stops
/// growing it once those are full (under 40 MB with the default options,
/// see `docs/spec-notes.md`).
///
/// ```
/// let log = std::fs::read("../../schemas/examples/valid/map-log-round-robin.ndjson")?;
/// let mut v = mplp_wasm::LogValidator::new(&mplp_wasm::Settings::default())?;
/// for chunk in log.chunks(100) {
///     v.push(chunk);
/// }
/// assert_eq!(v.bytes(), log.len() as u64);
/// let record = v.finish();
/// assert!(record.contains(r#""file":"-","kind":"map-log""#));
/// assert!(record.contains(r#""valid":true"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct LogValidator {
    stream: LogStream<Record<Vec<u8>>>,
}

impl LogValidator {
    /// A log of the settings' kind (or told by its first line), its record
    /// called by the settings' name (else [`NO_NAME`]).
    ///
    /// # Errors
    /// When the kind is a document's.
    pub fn new(settings: &Settings) -> Result<Self, BadSetting> {
        let record = Record::new(
            Vec::new(),
            settings.file(),
            settings.limit,
            Held::in_memory(),
        );
        let stream = LogStream::new(settings.kind, &settings.options, record)
            .map_err(|e| BadSetting(e.to_string()))?;
        Ok(LogValidator { stream })
    }

    /// Validates the lines `chunk` completes.
    pub fn push(&mut self, chunk: &[u8]) {
        let _ = self.stream.push(chunk);
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> u64 {
        self.stream.bytes()
    }

    /// Errors found so far (shown or not).
    pub fn errors(&self) -> u64 {
        self.stream.sink().tally().errors
    }

    /// Warnings found so far (shown or not).
    pub fn warnings(&self) -> u64 {
        self.stream.sink().tally().warnings
    }

    /// The kind, once its first line has told it (or given).
    pub fn kind(&self) -> Option<&'static DocKind> {
        self.stream.kind()
    }

    /// The end of the log: its record.
    pub fn finish(self) -> String {
        let (record, _) = self.stream.finish();
        finished(record)
    }
}

/// The most MAP events drawn as a session picture (the report's limit).
pub const MAX_DRAWN_EVENTS: usize = 400;

/// Draws a plan (`plan`: `svg`, `mermaid` or `dot`) or a MAP log's session
/// (`map-log`: `svg` or `mermaid`) with the SDK's renderers. A plan that
/// breaks rules is drawn as read (as `mplp report` draws it); a log's
/// events that do not parse are left out.
///
/// # Errors
/// Another kind or format, a plan that is not JSON of a plan's shape, or a
/// log with no MAP event (or more than [`MAX_DRAWN_EVENTS`]).
pub fn render(kind: &str, bytes: &[u8], format: &str) -> Result<String, BadSetting> {
    let (json, _) = mplp_core::document::strip_bom(bytes);
    match kind {
        "plan" => {
            let value: serde_json::Value = mplp_json::nesting::from_slice(json)
                .map_err(|e| BadSetting(format!("the plan is not JSON: {e}")))?;
            let plan = <mplp_plan::Plan as mplp_core::Wire>::deserialize_unchecked(&value)
                .map_err(|e| BadSetting(format!("not a plan that can be drawn: {e}")))?;
            match format {
                "svg" => Ok(mplp_plan::render::svg(&plan)),
                "mermaid" => Ok(mplp_plan::render::mermaid(&plan)),
                "dot" => Ok(mplp_plan::render::dot(&plan)),
                other => Err(BadSetting(format!(
                    "a plan is drawn as `svg`, `mermaid` or `dot`, not `{other}`"
                ))),
            }
        }
        "map-log" => {
            let mut events = Vec::new();
            for line in json.split(|b| *b == b'\n') {
                if let Ok(e) = mplp_json::nesting::from_slice::<mplp_events::MapEvent>(line) {
                    events.push(e);
                    if events.len() > MAX_DRAWN_EVENTS {
                        return Err(BadSetting(format!(
                            "the log holds more than {MAX_DRAWN_EVENTS} MAP events: too many to draw"
                        )));
                    }
                }
            }
            if events.is_empty() {
                return Err(BadSetting("the log holds no MAP event to draw".to_owned()));
            }
            match format {
                "svg" => Ok(mplp_collab::render::svg_sequence(&events)),
                "mermaid" => Ok(mplp_collab::render::mermaid_sequence(&events)),
                other => Err(BadSetting(format!(
                    "a session is drawn as `svg` or `mermaid`, not `{other}`"
                ))),
            }
        }
        other => Err(BadSetting(format!(
            "`{other}` has no picture: `plan` and `map-log` have"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = "../../schemas/examples/valid/plan-minimal.json";
    const LOG: &str = "../../schemas/examples/valid/map-log-round-robin.ndjson";

    #[test]
    fn a_named_input_is_framed_by_its_name_and_a_nameless_one_by_its_lines() {
        let log = std::fs::read(LOG).unwrap();
        let named = validate_text(&log, &Settings::default().name("x.json"));
        // Read as one document: not JSON (a second value follows the first).
        assert!(named.starts_with(r#"{"file":"x.json","#), "{named}");
        assert!(named.contains(r#""valid":false"#), "{named}");
        let nameless = validate_text(&log, &Settings::default());
        assert!(
            nameless.starts_with(r#"{"file":"-","kind":"map-log""#),
            "{nameless}"
        );
        assert!(nameless.contains(r#""valid":true"#), "{nameless}");
    }

    #[test]
    fn settings_refuse_unknown_names() {
        assert!(Settings::default().kind_named("plans").is_err());
        assert!(Settings::default().profile_named("loose").is_err());
        let s = Settings::default()
            .kind_named("plan")
            .unwrap()
            .profile_named("canonical")
            .unwrap();
        assert_eq!(s.kind, Some(&mplp_check::PLAN));
        assert_eq!(s.options.profile, Profile::Canonical);
        assert_eq!(Settings::default().kind_named("auto").unwrap().kind, None);
        assert!(LogValidator::new(&s).is_err());
    }

    #[test]
    fn a_log_pushed_in_any_chunks_gives_the_record_of_the_whole() {
        let mut log = std::fs::read(LOG).unwrap();
        // Broken: the last line (the session's completion) goes.
        let cut = log[..log.len() - 1]
            .iter()
            .rposition(|b| *b == b'\n')
            .unwrap();
        log.truncate(cut + 1);
        let whole = validate_text(&log, &Settings::default().kind_named("map-log").unwrap());
        assert!(whole.contains(r#""valid":false"#), "{whole}");
        for size in [1, 2, 3, 17, 4096] {
            let mut v = LogValidator::new(&Settings::default().limit(Limit::All)).unwrap();
            for chunk in log.chunks(size) {
                v.push(chunk);
            }
            // What is wrong (a session left open) shows at the end only.
            assert_eq!(v.errors(), 0, "chunks of {size}");
            assert_eq!(v.finish(), whole, "chunks of {size}");
        }
    }

    #[test]
    fn render_draws_plans_and_sessions_and_refuses_the_rest() {
        let plan = std::fs::read(PLAN).unwrap();
        assert!(render("plan", &plan, "svg").unwrap().starts_with("<svg"));
        assert!(
            render("plan", &plan, "mermaid")
                .unwrap()
                .contains("flowchart TD")
        );
        assert!(render("plan", &plan, "dot").unwrap().starts_with("digraph"));
        assert!(render("plan", &plan, "png").is_err());
        assert!(render("plan", b"{", "svg").is_err());
        let log = std::fs::read(LOG).unwrap();
        assert!(render("map-log", &log, "svg").unwrap().contains("lifeline"));
        assert!(
            render("map-log", &log, "mermaid")
                .unwrap()
                .starts_with("sequenceDiagram")
        );
        assert!(render("map-log", b"{}\n", "svg").is_err());
        assert!(render("dialog", &plan, "svg").is_err());
    }

    #[test]
    fn detect_kind_is_the_records_kind() {
        let plan = std::fs::read(PLAN).unwrap();
        assert_eq!(detect_kind(&plan), Some(&mplp_check::PLAN));
        assert_eq!(
            detect_kind(&std::fs::read(LOG).unwrap()),
            Some(&mplp_check::MAP_LOG)
        );
        assert_eq!(detect_kind(br#"{"x":1}"#), None);
    }
}
