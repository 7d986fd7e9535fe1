//! The one table of MPLP document kinds: what the CLI (`mplp validate
//! --kind`), xtask (`schema-check`), the language bindings and the tests
//! read to know which kinds exist, how a file or a document is recognised,
//! and how each kind is validated and written back.
//!
//! Why a crate of its own: the table needs the types of every module crate
//! (plan, dialog, collab, events), so it cannot live in `mplp-core`; the CLI
//! is a binary, and xtask and the tests are not published. A small library
//! that depends on the module crates is the one place all of them can read.
//!
//! ```
//! use mplp_kinds::{KINDS, Shape};
//!
//! let plan = mplp_kinds::by_name("plan").unwrap();
//! assert_eq!(plan.example_prefix, "plan-");
//! assert_eq!(plan.shape, Shape::Document);
//! assert!(!plan.validate(b"{}").is_valid());
//!
//! // Recognising a document from its members:
//! let kind = mplp_kinds::detect(br#"{"collab_id": "x"}"#).unwrap();
//! assert_eq!(kind.name, "collab");
//!
//! // Recognising an example file from its name:
//! assert_eq!(mplp_kinds::for_example("map-log-round-robin.ndjson").unwrap().name, "map-log");
//! assert_eq!(KINDS.len(), 18);
//! ```

use std::io::BufRead;

use mplp_core::rules::{RuleInfo, Source};
use mplp_core::{Document, Report, Rule, Severity, Violation};
use serde::Deserialize;
use serde::de::IgnoredAny;

/// Whether a kind is one JSON document or an NDJSON log of events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One JSON document (or one event).
    Document,
    /// An NDJSON log: one event per line, validated as a stream.
    Log,
}

/// One kind of MPLP document: the row of the table.
#[derive(Debug)]
#[non_exhaustive]
pub struct DocKind {
    /// The name (`plan`, `map-log`): the CLI's `--kind` value and the
    /// `kind` of its JSON output.
    pub name: &'static str,
    /// What the kind is, in a few words (the CLI's help text).
    pub description: &'static str,
    /// The file-name prefix of its examples in `schemas/examples/`.
    pub example_prefix: &'static str,
    /// One document, or a log.
    pub shape: Shape,
    /// For logs: the kind of each line.
    pub line_kind: Option<&'static DocKind>,
    validate_bytes: fn(&[u8]) -> Report,
    validate_reader: fn(&mut dyn BufRead) -> Report,
    round_trip: Option<RoundTrip>,
}

/// Parses a document and writes it back.
type RoundTrip = fn(&[u8]) -> Result<String, mplp_core::Error>;

impl DocKind {
    /// Validates bytes as a document (or log) of this kind: every error and
    /// warning (`Document::validate_json` for documents, the streaming log
    /// validator for logs).
    pub fn validate(&self, bytes: &[u8]) -> Report {
        (self.validate_bytes)(bytes)
    }

    /// Validates what `reader` gives: logs are streamed line by line (memory
    /// does not grow with the log); a document is read whole first.
    pub fn validate_reader(&self, reader: &mut dyn BufRead) -> Report {
        (self.validate_reader)(reader)
    }

    /// Parses a single document of this kind and writes it back as JSON;
    /// `None` for logs.
    pub fn round_trip(&self, bytes: &[u8]) -> Option<Result<String, mplp_core::Error>> {
        self.round_trip.map(|f| f(bytes))
    }

    /// True for [`Shape::Log`].
    pub fn is_log(&self) -> bool {
        self.shape == Shape::Log
    }
}

fn validate_document<T: Document>(bytes: &[u8]) -> Report {
    T::validate_json(bytes).report
}

fn validate_document_reader<T: Document>(reader: &mut dyn BufRead) -> Report {
    let mut bytes = Vec::new();
    match reader.read_to_end(&mut bytes) {
        Ok(_) => T::validate_json(&bytes).report,
        Err(e) => {
            let mut report = Report::new();
            report.push(Violation::error(
                "",
                mplp_events::log::LOG_READ_ERROR,
                format!("cannot read the document: {e}"),
            ));
            report
        }
    }
}

fn round_trip<T: Document>(bytes: &[u8]) -> Result<String, mplp_core::Error> {
    T::from_json(bytes).map(|d| d.to_json())
}

macro_rules! document_kind {
    ($name:literal, $prefix:literal, $ty:ty, $description:literal) => {
        DocKind {
            name: $name,
            description: $description,
            example_prefix: $prefix,
            shape: Shape::Document,
            line_kind: None,
            validate_bytes: validate_document::<$ty>,
            validate_reader: validate_document_reader::<$ty>,
            round_trip: Some(round_trip::<$ty>),
        }
    };
}

/// A Plan document.
pub static PLAN: DocKind = document_kind!("plan", "plan-", mplp_plan::Plan, "A Plan document");
/// A Dialog document.
pub static DIALOG: DocKind = document_kind!(
    "dialog",
    "dialog-",
    mplp_dialog::Dialog,
    "A Dialog document"
);
/// A Collab document.
pub static COLLAB: DocKind = document_kind!(
    "collab",
    "collab-",
    mplp_collab::Collab,
    "A Collab document"
);
/// A Context document.
pub static CONTEXT: DocKind = document_kind!(
    "context",
    "context-",
    mplp_context::Context,
    "A Context document"
);
/// A Confirm document.
pub static CONFIRM: DocKind = document_kind!(
    "confirm",
    "confirm-",
    mplp_confirm::Confirm,
    "A Confirm document"
);
/// A Trace document.
pub static TRACE: DocKind =
    document_kind!("trace", "trace-", mplp_trace::Trace, "A Trace document");
/// A Role document.
pub static ROLE: DocKind = document_kind!("role", "role-", mplp_role::Role, "A Role document");
/// One MAP event.
pub static MAP_EVENT: DocKind = document_kind!(
    "map-event",
    "map-event-",
    mplp_events::MapEvent,
    "One MAP event"
);
/// One SA event.
pub static SA_EVENT: DocKind = document_kind!(
    "sa-event",
    "sa-event-",
    mplp_events::SaEvent,
    "One SA event"
);
/// One core (observability) event.
pub static EVENT: DocKind = document_kind!(
    "event",
    "event-",
    mplp_events::CoreEvent,
    "One core (observability) event"
);
/// One learning sample of the learning taxonomy (`learning/`).
pub static LEARNING_SAMPLE: DocKind = document_kind!(
    "learning-sample",
    "learning-sample-",
    mplp_events::learning::LearningSample,
    "One learning sample (core, intent resolution or delta impact)"
);
/// One structured learning sample (`common/learning-sample.schema.json`).
pub static COMMON_LEARNING_SAMPLE: DocKind = document_kind!(
    "common-learning-sample",
    "common-learning-sample-",
    mplp_events::learning::CommonLearningSample,
    "One structured learning sample (common/learning-sample)"
);
/// One tool integration event.
pub static TOOL_EVENT: DocKind = document_kind!(
    "tool-event",
    "tool-event-",
    mplp_events::integration::ToolEvent,
    "One tool integration event"
);
/// One file update integration event.
pub static FILE_UPDATE_EVENT: DocKind = document_kind!(
    "file-update-event",
    "file-update-event-",
    mplp_events::integration::FileUpdateEvent,
    "One file update integration event"
);
/// One Git integration event.
pub static GIT_EVENT: DocKind = document_kind!(
    "git-event",
    "git-event-",
    mplp_events::integration::GitEvent,
    "One Git integration event"
);
/// One CI integration event.
pub static CI_EVENT: DocKind = document_kind!(
    "ci-event",
    "ci-event-",
    mplp_events::integration::CiEvent,
    "One CI integration event"
);
/// An NDJSON log of MAP events.
pub static MAP_LOG: DocKind = DocKind {
    name: "map-log",
    description: "An NDJSON log of MAP events",
    example_prefix: "map-log-",
    shape: Shape::Log,
    line_kind: Some(&MAP_EVENT),
    validate_bytes: |bytes| mplp_events::log::validate_map_log(bytes),
    validate_reader: |reader| mplp_events::log::validate_map_log(reader),
    round_trip: None,
};
/// An NDJSON log of SA events.
pub static SA_LOG: DocKind = DocKind {
    name: "sa-log",
    description: "An NDJSON log of SA events",
    example_prefix: "sa-log-",
    shape: Shape::Log,
    line_kind: Some(&SA_EVENT),
    validate_bytes: |bytes| mplp_events::log::validate_sa_log(bytes),
    validate_reader: |reader| mplp_events::log::validate_sa_log(reader),
    round_trip: None,
};

/// Every kind, in the order the CLI lists them.
pub static KINDS: &[&DocKind] = &[
    &DIALOG,
    &PLAN,
    &COLLAB,
    &CONTEXT,
    &CONFIRM,
    &TRACE,
    &ROLE,
    &MAP_EVENT,
    &SA_EVENT,
    &EVENT,
    &LEARNING_SAMPLE,
    &COMMON_LEARNING_SAMPLE,
    &TOOL_EVENT,
    &FILE_UPDATE_EVENT,
    &GIT_EVENT,
    &CI_EVENT,
    &MAP_LOG,
    &SA_LOG,
];

/// The kind called `name` (`plan`, `map-log`, ...).
pub fn by_name(name: &str) -> Option<&'static DocKind> {
    KINDS.iter().copied().find(|k| k.name == name)
}

/// The kind of an example file from its name (the longest matching
/// prefix wins: `map-event-x.json` is a MAP event, not a core `event-`).
pub fn for_example(file_name: &str) -> Option<&'static DocKind> {
    KINDS
        .iter()
        .copied()
        .filter(|k| file_name.starts_with(k.example_prefix))
        .max_by_key(|k| k.example_prefix.len())
}

/// True for a file name that holds a log (`.ndjson`, `.jsonl`).
pub fn is_log_file_name(file_name: &str) -> bool {
    file_name.ends_with(".ndjson") || file_name.ends_with(".jsonl")
}

mplp_core::declare_rules! {
    /// The rules of kind detection.
    pub const RULES;

    /// A document whose kind cannot be recognised (pass the kind explicitly).
    pub const UNKNOWN_KIND = "unknown-kind" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-kinds: kind detection" },
        summary: "the kind of the document cannot be recognised from its members",
    }

    /// A Python value with no JSON form was given to the Python bindings
    /// (a `set`, `NaN`, a circular reference, nesting past the limit).
    pub const PYTHON_VALUE = "python-value" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-py: input" },
        summary: "a Python value has no JSON form",
    }
}

/// Every rule of this crate ([`RULES`]).
pub fn rules() -> impl Iterator<Item = &'static RuleInfo> {
    RULES.iter()
}

/// The members that tell the kinds apart. Unknown members are ignored, so
/// this reads the document once without building it.
#[derive(Deserialize)]
struct Probe {
    plan_id: Option<IgnoredAny>,
    dialog_id: Option<IgnoredAny>,
    collab_id: Option<IgnoredAny>,
    session_id: Option<IgnoredAny>,
    sa_id: Option<IgnoredAny>,
    event_family: Option<IgnoredAny>,
    event_type: Option<IgnoredAny>,
    sample_family: Option<IgnoredAny>,
    sample_id: Option<IgnoredAny>,
    ci_provider: Option<IgnoredAny>,
    tool_id: Option<IgnoredAny>,
    invocation_id: Option<IgnoredAny>,
    repo_url: Option<IgnoredAny>,
    event_kind: Option<IgnoredAny>,
    file_path: Option<IgnoredAny>,
    change_type: Option<IgnoredAny>,
}

/// Probes only the top-level `event_type` string.
#[derive(Deserialize)]
struct EventTypeProbe {
    event_type: Option<String>,
}

/// Recognises the kind of a single document from its members: a MAP
/// `event_type` or `session_id` (MAP event), an SA `event_type` or `sa_id`
/// (SA event), `event_family` (core event), `sample_family` (learning
/// sample), `sample_id` (structured learning sample), `ci_provider` (CI
/// event), `tool_id` or `invocation_id` (tool event), `repo_url` or
/// `event_kind` (Git event), `file_path` or `change_type` (file update
/// event), then `plan_id`, `dialog_id`, `collab_id`. Events come first: SA
/// events carry `plan_id` too.
///
/// Not a JSON object: a `type` (or `json-syntax`) violation; none of the
/// members: [`UNKNOWN_KIND`].
pub fn detect(bytes: &[u8]) -> Result<&'static DocKind, Violation> {
    let probe: Probe = serde_json::from_slice(bytes).map_err(|e| {
        if e.is_data() {
            Violation::error(
                "",
                Rule::TYPE,
                format!("expected a JSON object (an MPLP document): {e}"),
            )
        } else {
            mplp_core::document::syntax_violation(&e)
        }
    })?;
    let event_type = if probe.event_type.is_some() {
        serde_json::from_slice::<EventTypeProbe>(bytes)
            .ok()
            .and_then(|p| p.event_type)
    } else {
        None
    };
    let et = event_type.as_deref().unwrap_or("");
    if et.starts_with("MAP") || probe.session_id.is_some() {
        Ok(&MAP_EVENT)
    } else if et.starts_with("SA") || probe.sa_id.is_some() {
        Ok(&SA_EVENT)
    } else if probe.event_family.is_some() {
        Ok(&EVENT)
    } else if probe.sample_family.is_some() {
        Ok(&LEARNING_SAMPLE)
    } else if probe.sample_id.is_some() {
        Ok(&COMMON_LEARNING_SAMPLE)
    } else if probe.ci_provider.is_some() {
        Ok(&CI_EVENT)
    } else if probe.tool_id.is_some() || probe.invocation_id.is_some() {
        Ok(&TOOL_EVENT)
    } else if probe.repo_url.is_some() || probe.event_kind.is_some() {
        Ok(&GIT_EVENT)
    } else if probe.file_path.is_some() || probe.change_type.is_some() {
        Ok(&FILE_UPDATE_EVENT)
    } else if probe.plan_id.is_some() {
        Ok(&PLAN)
    } else if probe.dialog_id.is_some() {
        Ok(&DIALOG)
    } else if probe.collab_id.is_some() {
        Ok(&COLLAB)
    } else {
        Err(Violation::error(
            "",
            UNKNOWN_KIND,
            "cannot tell what kind of MPLP document this is: expected `plan_id`, `dialog_id`, `collab_id`, a MAP or SA `event_type`, `event_family`, `sample_family`, `sample_id`, `ci_provider`, `tool_id`, `repo_url` or `file_path` (or pass --kind)",
        ))
    }
}

/// Recognises a log's kind from its first non-blank line: an SA log when
/// that line's `event_type` starts with `SA`, a MAP log otherwise. Only
/// looks at what the reader has buffered (nothing is consumed).
pub fn detect_log<R: BufRead + ?Sized>(reader: &mut R) -> std::io::Result<&'static DocKind> {
    let buf = reader.fill_buf()?;
    let first = buf
        .split(|b| *b == b'\n')
        .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
        .unwrap_or(&[]);
    let probe: Option<EventTypeProbe> = serde_json::from_slice(first).ok();
    let et = probe.and_then(|p| p.event_type).unwrap_or_default();
    Ok(if et.starts_with("SA") {
        &SA_LOG
    } else {
        &MAP_LOG
    })
}

/// The rule registries of the SDK, by crate: mplp-core's schema rules,
/// then plan, dialog, collab, events and this crate's (`cargo xtask rules`
/// writes `docs/rules.md` from them).
pub fn rules_by_crate() -> Vec<(&'static str, Vec<&'static RuleInfo>)> {
    vec![
        ("mplp-core", mplp_core::rules::rules().collect()),
        ("mplp-plan", mplp_plan::rules::rules().collect()),
        ("mplp-dialog", mplp_dialog::rules::rules().collect()),
        ("mplp-collab", mplp_collab::rules::rules().collect()),
        ("mplp-events", mplp_events::rules::rules().collect()),
        ("mplp-context", mplp_context::rules().collect()),
        ("mplp-confirm", mplp_confirm::rules().collect()),
        ("mplp-trace", mplp_trace::rules().collect()),
        ("mplp-role", mplp_role::rules().collect()),
        ("mplp-kinds", rules().collect()),
    ]
}

/// Every rule of the SDK, from every crate's registry ([`rules_by_crate`]).
///
/// ```
/// let all: Vec<_> = mplp_kinds::all_rules().collect();
/// assert!(all.iter().any(|r| r.rule.as_str() == "sa_plan_dag_acyclic"));
/// assert!(all.iter().any(|r| r.rule.as_str() == "map_session_counts_match"));
/// ```
pub fn all_rules() -> impl Iterator<Item = &'static RuleInfo> {
    rules_by_crate().into_iter().flat_map(|(_, rules)| rules)
}

/// The severity of a rule id under the strict profile, if it is registered.
pub fn strict_severity(rule: &str) -> Option<Severity> {
    all_rules()
        .find(|r| r.rule.as_str() == rule)
        .map(|r| r.strict)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_prefixes_are_unique() {
        for (i, a) in KINDS.iter().enumerate() {
            for b in &KINDS[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.example_prefix, b.example_prefix);
            }
            assert_eq!(by_name(a.name).map(|k| k.name), Some(a.name));
            assert_eq!(a.is_log(), a.line_kind.is_some(), "{}", a.name);
            assert_eq!(a.round_trip(b"{}").is_none(), a.is_log(), "{}", a.name);
        }
    }

    #[test]
    fn longest_prefix_wins() {
        assert_eq!(
            for_example("map-event-x.json").map(|k| k.name),
            Some("map-event")
        );
        assert_eq!(for_example("event-x.json").map(|k| k.name), Some("event"));
        assert_eq!(
            for_example("sa-log-1.ndjson").map(|k| k.name),
            Some("sa-log")
        );
        assert!(for_example("readme.json").is_none());
    }

    #[test]
    fn detection_follows_the_members() {
        let cases: [(&[u8], &str); 15] = [
            (
                br#"{"sample_family":"x","sample_id":"y"}"#,
                "learning-sample",
            ),
            (
                br#"{"sample_id":"y","success_flag":true}"#,
                "common-learning-sample",
            ),
            (br#"{"ci_provider":"x","commit_id":"y"}"#, "ci-event"),
            (br#"{"tool_id":"x"}"#, "tool-event"),
            (br#"{"repo_url":"x","commit_id":"y"}"#, "git-event"),
            (br#"{"event_kind":"push"}"#, "git-event"),
            (br#"{"file_path":"x"}"#, "file-update-event"),
            (br#"{"change_type":"created"}"#, "file-update-event"),
            (
                br#"{"event_type":"SAInitialized","plan_id":"x"}"#,
                "sa-event",
            ),
            (br#"{"event_type":"MAPTurnDispatched"}"#, "map-event"),
            (br#"{"sa_id":"x","plan_id":"y"}"#, "sa-event"),
            (br#"{"event_family":"x"}"#, "event"),
            (br#"{"plan_id":"x"}"#, "plan"),
            (br#"{"dialog_id":"x"}"#, "dialog"),
            (br#"{"collab_id":"x"}"#, "collab"),
        ];
        for (doc, name) in cases {
            assert_eq!(
                detect(doc).map(|k| k.name),
                Ok(name),
                "{}",
                String::from_utf8_lossy(doc)
            );
        }
        assert_eq!(
            detect(b"{}").map(|k| k.name).map_err(|v| v.rule),
            Err(UNKNOWN_KIND)
        );
        assert_eq!(
            detect(b"[1]").map(|k| k.name).map_err(|v| v.rule),
            Err(Rule::TYPE)
        );
        assert_eq!(
            detect(b"{").map(|k| k.name).map_err(|v| v.rule),
            Err(Rule::JSON_SYNTAX)
        );
    }

    #[test]
    fn log_detection_reads_the_first_non_blank_line() {
        let mut sa: &[u8] = b"\n  \n{\"event_type\":\"SAInitialized\"}\n";
        assert_eq!(detect_log(&mut sa).map(|k| k.name).ok(), Some("sa-log"));
        let mut other: &[u8] = b"not json\n";
        assert_eq!(detect_log(&mut other).map(|k| k.name).ok(), Some("map-log"));
    }

    #[test]
    fn rule_ids_are_registered_once() {
        let mut ids: Vec<&str> = all_rules().map(|r| r.rule.as_str()).collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n, "a rule id is registered twice");
        assert_eq!(
            strict_severity("sa_plan_all_steps_done"),
            Some(Severity::Warning)
        );
        assert_eq!(strict_severity("no_such_rule"), None);
    }
}
