//! One entry point to validate any MPLP v1.0.0 document or event log.
//!
//! This crate holds **the table of document kinds** ([`Kind`]), the
//! recognition of a document's kind from its content ([`detect`],
//! [`detect_log`]) and the dispatch to the module validators
//! (`mplp_plan::Plan`, `mplp_dialog::Dialog`, `mplp_collab::Collab`, the
//! `mplp_events` events and log validators). The `mplp validate` command and
//! the Python bindings (`crates/mplp-py`) both call it, so they give the same
//! verdicts, pointers and rule ids for the same input.
//!
//! ```
//! use mplp_validate::{Kind, validate_bytes};
//! let plan = std::fs::read("../../schemas/examples/valid/plan-minimal.json")?;
//! let (kind, report) = validate_bytes(None, &plan); // None: recognise the kind
//! assert_eq!(kind, Some(Kind::Plan));
//! assert!(report.is_valid());
//!
//! let (kind, report) = validate_bytes(None, br#"{"hello": 1}"#);
//! assert_eq!(kind, None); // not an MPLP document
//! assert_eq!(report.violations()[0].rule.as_str(), "unknown-kind");
//! # Ok::<(), std::io::Error>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

use std::fs::File;
use std::io::{BufRead, BufReader, Cursor};
use std::path::Path;

use mplp_core::{Document, Report, Rule, Violation};
use serde::Deserialize;
use serde::de::IgnoredAny;

mplp_core::wire_enum! {
    /// What kind of document (or log) an input holds: the one table of
    /// kinds, spelled as `mplp validate --kind` and the Python `kind=`
    /// argument spell them.
    ///
    /// ```
    /// use mplp_validate::Kind;
    /// assert_eq!("map-log".parse::<Kind>().unwrap(), Kind::MapLog);
    /// assert!(Kind::MapLog.is_log());
    /// assert_eq!(Kind::NAMES.len(), 12);
    /// ```
    pub enum Kind {
        /// A Dialog document.
        Dialog = "dialog",
        /// A Plan document.
        Plan = "plan",
        /// A Collab document.
        Collab = "collab",
        /// A Context document.
        Context = "context",
        /// A Confirm document.
        Confirm = "confirm",
        /// A Trace document.
        Trace = "trace",
        /// A Role document.
        Role = "role",
        /// One MAP event.
        MapEvent = "map-event",
        /// One SA event.
        SaEvent = "sa-event",
        /// One core (observability) event.
        Event = "event",
        /// An NDJSON log of MAP events.
        MapLog = "map-log",
        /// An NDJSON log of SA events.
        SaLog = "sa-log",
    }
}

/// The spelling of "recognise the kind from the input" next to the
/// [`Kind`] names (`--kind auto`, `kind="auto"`).
pub const AUTO: &str = "auto";

/// What [`AUTO`] does, in one line (its `--help` text).
pub const AUTO_DESCRIPTION: &str = "Recognise the kind from the document (`plan_id`, `dialog_id`, `collab_id`, `confirm_id`, `role_id`, a Trace's `root_span` or `trace_id`, a Context's `root` or `context_id`, MAP/SA `event_type`, `event_family`) or a `.ndjson` name";

/// The rule of a document whose kind cannot be recognised (declared once,
/// in the mplp-kinds rule registry).
pub use mplp_kinds::UNKNOWN_KIND;

impl Kind {
    /// Whether this kind is an NDJSON log (one event a line), read as a stream.
    pub const fn is_log(self) -> bool {
        matches!(self, Kind::MapLog | Kind::SaLog)
    }

    /// One line on what the kind is (the `--help` text of its name).
    pub const fn description(self) -> &'static str {
        match self {
            Kind::Dialog => "A Dialog document",
            Kind::Plan => "A Plan document",
            Kind::Collab => "A Collab document",
            Kind::Context => "A Context document",
            Kind::Role => "A Role document",
            Kind::Trace => "A Trace document",
            Kind::Confirm => "A Confirm document",
            Kind::MapEvent => "One MAP event",
            Kind::SaEvent => "One SA event",
            Kind::Event => "One core (observability) event",
            Kind::MapLog => "An NDJSON log of MAP events",
            Kind::SaLog => "An NDJSON log of SA events",
        }
    }

    /// Parses a kind name or [`AUTO`]: `Ok(None)` for `auto`.
    ///
    /// # Errors
    /// [`UnknownKind`] for any other text; its message lists the names.
    ///
    /// ```
    /// use mplp_validate::Kind;
    /// assert_eq!(Kind::parse_or_auto("auto"), Ok(None));
    /// assert_eq!(Kind::parse_or_auto("plan"), Ok(Some(Kind::Plan)));
    /// let err = Kind::parse_or_auto("plans").unwrap_err().to_string();
    /// assert_eq!(err, "unknown kind `plans`, expected one of: auto, dialog, plan, collab, context, confirm, trace, role, map-event, sa-event, event, map-log, sa-log");
    /// ```
    pub fn parse_or_auto(name: &str) -> Result<Option<Kind>, UnknownKind> {
        if name == AUTO {
            return Ok(None);
        }
        Kind::from_wire(name)
            .map(Some)
            .ok_or_else(|| UnknownKind(name.to_owned()))
    }
}

/// A kind name that is neither a [`Kind`] nor [`AUTO`] (the text given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKind(pub String);

impl std::fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown kind `{}`, expected one of: {AUTO}", self.0)?;
        for name in Kind::NAMES {
            write!(f, ", {name}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownKind {}

/// Whether a file name says it holds an NDJSON log (`.ndjson`, `.jsonl`).
pub fn is_log_name(name: &str) -> bool {
    name.ends_with(".ndjson") || name.ends_with(".jsonl")
}

/// Validates one document (not a log) of a known kind.
///
/// A log kind is validated as a log read from `bytes`.
pub fn validate_document(kind: Kind, bytes: &[u8]) -> Report {
    match kind {
        Kind::Plan => mplp_plan::Plan::validate_json(bytes).report,
        Kind::Dialog => mplp_dialog::Dialog::validate_json(bytes).report,
        Kind::Collab => mplp_collab::Collab::validate_json(bytes).report,
        Kind::Context => mplp_context::Context::validate_json(bytes).report,
        Kind::Role => mplp_role::Role::validate_json(bytes).report,
        Kind::Trace => mplp_trace::Trace::validate_json(bytes).report,
        Kind::Confirm => mplp_confirm::Confirm::validate_json(bytes).report,
        Kind::MapEvent => mplp_events::MapEvent::validate_json(bytes).report,
        Kind::SaEvent => mplp_events::SaEvent::validate_json(bytes).report,
        Kind::Event => mplp_events::CoreEvent::validate_json(bytes).report,
        Kind::MapLog | Kind::SaLog => validate_log(kind, Cursor::new(bytes)),
    }
}

/// Validates an NDJSON log read from `reader`, in constant memory apart from
/// the per-session state the log rules need. A document kind is read as a
/// MAP log, an [`Kind::SaLog`] as an SA log.
pub fn validate_log(kind: Kind, reader: impl BufRead) -> Report {
    match kind {
        Kind::SaLog => mplp_events::log::validate_sa_log(reader),
        _ => mplp_events::log::validate_map_log(reader),
    }
}

/// Validates bytes of the given kind, or of the kind [`detect`] recognises
/// when `kind` is `None`. Returns the kind that was used (`None` when it
/// could not be recognised: the report then holds the `unknown-kind` or
/// syntax error).
pub fn validate_bytes(kind: Option<Kind>, bytes: &[u8]) -> (Option<Kind>, Report) {
    let kind = match kind {
        Some(k) => k,
        None => match detect(bytes) {
            Ok(k) => k,
            Err(v) => {
                let mut report = Report::new();
                report.push(v);
                return (None, report);
            }
        },
    };
    (Some(kind), validate_document(kind, bytes))
}

/// Validates the file at `path` as the CLI does: logs (a log `kind`, or
/// `None` with a `.ndjson`/`.jsonl` name) are streamed from the file, other
/// documents are read whole. Returns the kind used, as [`validate_bytes`].
///
/// # Errors
/// When the file cannot be opened or read.
pub fn validate_file(kind: Option<Kind>, path: &Path) -> std::io::Result<(Option<Kind>, Report)> {
    let log_name = is_log_name(&path.to_string_lossy());
    if kind.is_some_and(Kind::is_log) || (kind.is_none() && log_name) {
        let mut reader = BufReader::new(File::open(path)?);
        let kind = match kind {
            Some(k) => k,
            None => detect_log(&mut reader)?,
        };
        return Ok((Some(kind), validate_log(kind, reader)));
    }
    let bytes = std::fs::read(path)?;
    Ok(validate_bytes(kind, &bytes))
}

/// The members that tell the kinds apart (present or not, whatever their
/// value, `null` included). Unknown members are ignored, so this reads the
/// document once without building it.
#[derive(Deserialize)]
struct Probe {
    #[serde(default, deserialize_with = "present")]
    plan_id: bool,
    #[serde(default, deserialize_with = "present")]
    dialog_id: bool,
    #[serde(default, deserialize_with = "present")]
    collab_id: bool,
    #[serde(default, deserialize_with = "present")]
    session_id: bool,
    #[serde(default, deserialize_with = "present")]
    sa_id: bool,
    #[serde(default, deserialize_with = "present")]
    event_family: bool,
    #[serde(default, deserialize_with = "present")]
    event_type: bool,
    #[serde(default, deserialize_with = "present")]
    confirm_id: bool,
    #[serde(default, deserialize_with = "present")]
    root_span: bool,
    #[serde(default, deserialize_with = "present")]
    role_id: bool,
    /// Only a Trace has a top-level `trace_id` among the documents
    /// (events, which have one too, are recognised first).
    #[serde(default, deserialize_with = "present")]
    trace_id: bool,
    /// Only a Context has a top-level `root` (Trace's is `root_span`).
    #[serde(default, deserialize_with = "present")]
    root: bool,
    /// Every module but Role carries `context_id`: the last resort (Context).
    #[serde(default, deserialize_with = "present")]
    context_id: bool,
}

/// `true` for a member that is there, skipping its value.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    IgnoredAny::deserialize(d).map(|_| true)
}

/// Probes only the top-level `event_type` string.
#[derive(Deserialize)]
struct EventTypeProbe {
    event_type: Option<String>,
}

/// Recognises the kind of a single document from its members, in this
/// order: a MAP or SA `event_type` (or `session_id`/`sa_id`), `event_family`
/// (events first: they carry `plan_id`, `context_id` and `trace_id` too),
/// `root_span` or a top-level `trace_id` (a Trace, which carries `plan_id`
/// too), `plan_id`, `dialog_id`, `collab_id`, `confirm_id`, `role_id`, a
/// top-level `root` (a Context), and last `context_id` alone (a Context:
/// every other module carries `context_id` too, so it decides only when no
/// other id does; a kind added later must be tested before it).
/// A member counts when it is present, whatever its value (`"plan_id": null`
/// is a plan with a wrong `plan_id`).
///
/// # Errors
/// A syntax violation when the bytes are not JSON, a `type` violation when
/// they are not an object, and an [`UNKNOWN_KIND`] violation when no member
/// tells the kind.
///
/// ```
/// use mplp_validate::{Kind, detect};
/// assert_eq!(detect(br#"{"event_type": "MAPTurnDispatched"}"#), Ok(Kind::MapEvent));
/// assert_eq!(detect(br#"{"plan_id": 1}"#), Ok(Kind::Plan));
/// assert_eq!(detect(b"[1]").unwrap_err().rule.as_str(), "type");
/// ```
pub fn detect(bytes: &[u8]) -> Result<Kind, Violation> {
    if let Some(found) = json_type_name(bytes) {
        // Not an object: a syntax error if it is not JSON, else a type error.
        return Err(match serde_json::from_slice::<IgnoredAny>(bytes) {
            Err(e) => mplp_core::document::syntax_violation(&e),
            Ok(_) => Violation::error(
                "",
                Rule::TYPE,
                format!("expected a JSON object (an MPLP document), found {found}"),
            ),
        });
    }
    let (probe, event_type) = match serde_json::from_slice::<Probe>(bytes) {
        Ok(probe) => {
            let event_type = if probe.event_type {
                serde_json::from_slice::<EventTypeProbe>(bytes)
                    .ok()
                    .and_then(|p| p.event_type)
            } else {
                None
            };
            (probe, event_type)
        }
        // An object that repeats a member the probe reads: read it as a map
        // (the last value wins) to find the kind; the module validator then
        // reports the duplicate key.
        Err(e) if e.is_data() => probe_map(bytes).ok_or_else(|| not_an_object(&e))?,
        Err(e) => return Err(not_an_object(&e)),
    };
    let et = event_type.as_deref().unwrap_or("");
    // Events first: SA events carry `plan_id` and `context_id` too.
    let kind = if et.starts_with("MAP") || probe.session_id {
        Kind::MapEvent
    } else if et.starts_with("SA") || probe.sa_id {
        Kind::SaEvent
    } else if probe.event_family {
        Kind::Event
    } else if probe.root_span || probe.trace_id {
        // Before plans: a Trace carries `plan_id` too.
        Kind::Trace
    } else if probe.plan_id {
        Kind::Plan
    } else if probe.dialog_id {
        Kind::Dialog
    } else if probe.collab_id {
        Kind::Collab
    } else if probe.confirm_id {
        Kind::Confirm
    } else if probe.role_id {
        Kind::Role
    } else if probe.root || probe.context_id {
        Kind::Context
    } else {
        return Err(Violation::error(
            "",
            UNKNOWN_KIND,
            "cannot tell what kind of MPLP document this is: expected `plan_id`, `dialog_id`, `collab_id`, `confirm_id`, `role_id`, `root_span`/`trace_id` (a Trace), `root`/`context_id` (a Context), a MAP or SA `event_type`, or `event_family` (or pass the kind)",
        ));
    };
    Ok(kind)
}

/// The [`Probe`] of an object read whole as a map, and its `event_type`.
fn probe_map(bytes: &[u8]) -> Option<(Probe, Option<String>)> {
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(bytes).ok()?;
    let has = |key: &str| map.contains_key(key);
    let probe = Probe {
        plan_id: has("plan_id"),
        dialog_id: has("dialog_id"),
        collab_id: has("collab_id"),
        session_id: has("session_id"),
        sa_id: has("sa_id"),
        event_family: has("event_family"),
        event_type: has("event_type"),
        confirm_id: has("confirm_id"),
        root_span: has("root_span"),
        role_id: has("role_id"),
        trace_id: has("trace_id"),
        root: has("root"),
        context_id: has("context_id"),
    };
    let event_type = map
        .get("event_type")
        .and_then(|v| v.as_str())
        .map(str::to_owned);
    Some((probe, event_type))
}

/// The violation of an object the probe cannot read.
fn not_an_object(e: &serde_json::Error) -> Violation {
    if e.is_data() {
        Violation::error(
            "",
            Rule::TYPE,
            format!("expected a JSON object (an MPLP document): {e}"),
        )
    } else {
        mplp_core::document::syntax_violation(e)
    }
}

/// What the JSON value in `bytes` is, by its first character ("an array",
/// ...); `None` for an object.
fn json_type_name(bytes: &[u8]) -> Option<&'static str> {
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => None,
        Some(b'[') => Some("an array"),
        Some(b'"') => Some("a string"),
        Some(b't' | b'f') => Some("a boolean"),
        Some(b'n') => Some("null"),
        _ => Some("a number"),
    }
}

/// Recognises a log's kind from its first non-empty line without consuming
/// it: [`Kind::SaLog`] when that line is an SA event, else [`Kind::MapLog`].
///
/// # Errors
/// When the reader fails.
///
/// ```
/// use mplp_validate::{Kind, detect_log};
/// let mut log = std::io::Cursor::new(&b"\n{\"event_type\":\"SAInitialized\"}\n"[..]);
/// assert_eq!(detect_log(&mut log)?, Kind::SaLog);
/// assert_eq!(log.position(), 0);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn detect_log<R: BufRead + ?Sized>(reader: &mut R) -> std::io::Result<Kind> {
    let buf = reader.fill_buf()?;
    let first = buf
        .split(|b| *b == b'\n')
        .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
        .unwrap_or(&[]);
    let probe: Option<EventTypeProbe> = serde_json::from_slice(first).ok();
    let et = probe.and_then(|p| p.event_type).unwrap_or_default();
    Ok(if et.starts_with("SA") {
        Kind::SaLog
    } else {
        Kind::MapLog
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_name_round_trips_and_auto_is_not_a_kind() {
        for k in Kind::ALL {
            assert_eq!(Kind::parse_or_auto(k.as_str()), Ok(Some(*k)));
        }
        assert!(AUTO.parse::<Kind>().is_err());
        assert_eq!(
            Kind::ALL.iter().filter(|k| k.is_log()).count(),
            2,
            "map-log and sa-log"
        );
    }

    #[test]
    fn the_table_agrees_with_each_document_kind_constant() {
        let documents = [
            (Kind::Plan, <mplp_plan::Plan as Document>::KIND),
            (Kind::Dialog, <mplp_dialog::Dialog as Document>::KIND),
            (Kind::Collab, <mplp_collab::Collab as Document>::KIND),
            (Kind::Context, <mplp_context::Context as Document>::KIND),
            (Kind::Role, <mplp_role::Role as Document>::KIND),
            (Kind::Trace, <mplp_trace::Trace as Document>::KIND),
            (Kind::Confirm, <mplp_confirm::Confirm as Document>::KIND),
            (Kind::MapEvent, <mplp_events::MapEvent as Document>::KIND),
            (Kind::SaEvent, <mplp_events::SaEvent as Document>::KIND),
            (Kind::Event, <mplp_events::CoreEvent as Document>::KIND),
        ];
        for (kind, name) in documents {
            assert_eq!(kind.as_str(), name);
            assert!(!kind.is_log());
        }
        assert_eq!(documents.len() + 2, Kind::ALL.len(), "and the two logs");
    }

    #[test]
    fn detection_order_puts_events_before_plans() {
        // An SA event carries plan_id: it must not be taken for a plan.
        let sa = br#"{"event_type":"SAInitialized","plan_id":"x"}"#;
        assert_eq!(detect(sa), Ok(Kind::SaEvent));
        assert_eq!(detect(br#"{"sa_id":1,"plan_id":2}"#), Ok(Kind::SaEvent));
        assert_eq!(
            detect(br#"{"session_id":1,"plan_id":2}"#),
            Ok(Kind::MapEvent)
        );
        assert_eq!(
            detect(br#"{"event_family":"x","plan_id":2}"#),
            Ok(Kind::Event)
        );
        assert_eq!(detect(br#"{"dialog_id":1}"#), Ok(Kind::Dialog));
        assert_eq!(detect(br#"{"collab_id":1}"#), Ok(Kind::Collab));
        // A Context is told by `root`, or by `context_id` when no other id is there.
        assert_eq!(detect(br#"{"context_id":1,"root":{}}"#), Ok(Kind::Context));
        assert_eq!(detect(br#"{"context_id":1,"title":2}"#), Ok(Kind::Context));
        assert_eq!(
            detect(br#"{"context_id":1,"collab_id":2}"#),
            Ok(Kind::Collab)
        );
        assert_eq!(detect(br#"{"context_id":1,"trace_id":2}"#), Ok(Kind::Trace));
        assert_eq!(detect(br#"{"trace_id":1,"plan_id":2}"#), Ok(Kind::Trace));
        assert_eq!(
            detect(br#"{"trace_id":1,"event_family":"x"}"#),
            Ok(Kind::Event)
        );
        assert_eq!(detect(br#"{"root":1,"plan_id":2}"#), Ok(Kind::Plan));
        assert_eq!(
            detect(br#"{"confirm_id":1,"target_id":2}"#),
            Ok(Kind::Confirm)
        );
        assert_eq!(
            detect(br#"{"root_span":{},"plan_id":1,"context_id":2}"#),
            Ok(Kind::Trace)
        );
        assert_eq!(detect(br#"{"role_id":1,"name":2}"#), Ok(Kind::Role));
        let unknown = detect(br#"{"x":1}"#).unwrap_err();
        assert_eq!(unknown.rule, UNKNOWN_KIND);
        for text in [&b"{"[..], b"[", b"", b"nul", b"[1,]"] {
            let syntax = detect(text).unwrap_err();
            assert_eq!(syntax.rule.as_str(), "json-syntax", "{text:?}");
        }
        assert_eq!(detect(br#"{"plan_id": null}"#), Ok(Kind::Plan));
        for (text, found) in [
            (&b" [1]"[..], "found an array"),
            (b"\"x\"", "found a string"),
            (b"true", "found a boolean"),
            (b"null", "found null"),
            (b"-1.5", "found a number"),
            (b"[{\"plan_id\": 1}]", "found an array"),
        ] {
            let v = detect(text).unwrap_err();
            assert_eq!(v.rule, Rule::TYPE);
            assert!(v.message.ends_with(found), "{}", v.message);
        }
        // A repeated member is the module validator's duplicate-key error.
        let twice = br#"{"event_type":"x","event_type":"SAInitialized","plan_id":1,"plan_id":2}"#;
        assert_eq!(detect(twice), Ok(Kind::SaEvent));
        let (kind, report) = validate_bytes(None, br#"{"plan_id":1,"plan_id":2}"#);
        assert_eq!(kind, Some(Kind::Plan));
        assert!(
            report
                .violations()
                .iter()
                .any(|v| v.rule.as_str() == "duplicate-key"),
            "{:?}",
            report.violations()
        );
    }

    #[test]
    fn a_log_kind_validates_bytes_as_a_log() {
        let (kind, report) = validate_bytes(Some(Kind::MapLog), b"\n\n");
        assert_eq!(kind, Some(Kind::MapLog));
        assert!(report.is_valid(), "{:?}", report.violations());
        let (_, report) = validate_bytes(Some(Kind::MapLog), b"{\n");
        assert!(!report.is_valid());
        assert_eq!(report.violations()[0].line, Some(1));
    }
}
