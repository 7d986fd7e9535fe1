//! The one table of MPLP document kinds: what the CLI (`mplp validate
//! --kind`), xtask (`schema-check`), the language bindings and the tests
//! read to know which kinds exist, how a file or a document is recognised,
//! and how each kind is validated and written back.
//!
//! Each row ([`DocKind`]) carries everything about one kind: its name and
//! help text, its example-file prefix, its shape (document or log), how
//! [`detect`] recognises it ([`Recognise`]), and how it is validated and
//! written back. [`validate_bytes`] and [`validate_file`] are the one
//! dispatch that `mplp validate` and the Python bindings call, so they give
//! the same verdicts, pointers and rule ids for the same input. Adding a
//! kind is adding one row (and listing it in [`KINDS`]).
//!
//! Why a crate of its own: the table needs the types of every module crate
//! (plan, dialog, collab, events, ...), so it cannot live in `mplp-core`;
//! the CLI is a binary, and xtask and the tests are not published. A small
//! library that depends on the module crates is the one place all of them
//! can read. (It replaces the `mplp-validate` crate, whose second table of
//! kinds it absorbed.)
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
//! assert_eq!(KINDS.len(), 21);
//! ```

use std::io::BufRead;

use mplp_core::rules::{RuleInfo, Source};
use mplp_core::{Document, Report, Severity, Violation};

mod detect;
mod sniff;

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
    /// How [`detect`] recognises a document of this kind.
    pub recognise: Recognise,
    /// For documents: what the typed parse tells about the top-level members.
    typed: Option<Typed>,
}

/// The top-level members of a document kind, from its `Wire` declaration,
/// and its validation when the typed parse succeeds: what
/// [`validate_bytes`] needs to keep a guessed kind without [`detect`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Typed {
    /// `Wire::FIELDS`.
    pub(crate) fields: &'static [&'static str],
    /// `Wire::OPEN`: members beyond `fields` are taken.
    pub(crate) open: bool,
    /// `mplp_core::document::report_parsed`.
    pub(crate) report_parsed: fn(&str) -> Option<Report>,
}

/// How [`detect`] tells a kind from a document's top-level members: the
/// signs of one row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Recognise {
    /// Precedence when several kinds are marked: the lowest rank wins.
    /// Ranks are unique among the kinds that can be recognised.
    pub rank: u8,
    /// An `event_type` prefix that marks the kind (`MAP`, `SA`).
    pub event_type_prefix: Option<&'static str>,
    /// Top-level members whose presence marks the kind, whatever their value.
    pub members: &'static [&'static str],
}

impl Recognise {
    /// Not recognised from a document's content (the logs: [`detect_log`]
    /// or the file name tells them).
    pub const NEVER: Recognise = Recognise {
        rank: u8::MAX,
        event_type_prefix: None,
        members: &[],
    };

    /// Marked by any of `members`, at `rank`.
    pub const fn members(rank: u8, members: &'static [&'static str]) -> Recognise {
        Recognise {
            rank,
            event_type_prefix: None,
            members,
        }
    }

    /// Marked by an `event_type` starting with `prefix`, or by any of `members`.
    pub const fn event(
        rank: u8,
        prefix: &'static str,
        members: &'static [&'static str],
    ) -> Recognise {
        Recognise {
            rank,
            event_type_prefix: Some(prefix),
            members,
        }
    }

    /// False for [`Recognise::NEVER`].
    pub fn is_recognisable(&self) -> bool {
        self.event_type_prefix.is_some() || !self.members.is_empty()
    }
}

impl PartialEq for DocKind {
    /// Kinds are equal when their names are (each name is one row).
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for DocKind {}

impl std::fmt::Display for DocKind {
    /// The kind's name (`plan`, `map-log`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
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
    ($name:literal, $prefix:literal, $ty:ty, $description:literal, $recognise:expr) => {
        DocKind {
            name: $name,
            description: $description,
            example_prefix: $prefix,
            shape: Shape::Document,
            line_kind: None,
            validate_bytes: validate_document::<$ty>,
            validate_reader: validate_document_reader::<$ty>,
            round_trip: Some(round_trip::<$ty>),
            recognise: $recognise,
            typed: Some(Typed {
                fields: <$ty as mplp_core::Wire>::FIELDS,
                open: <$ty as mplp_core::Wire>::OPEN,
                report_parsed: mplp_core::document::report_parsed::<$ty>,
            }),
        }
    };
}

/// A Plan document.
pub static PLAN: DocKind = document_kind!(
    "plan",
    "plan-",
    mplp_plan::Plan,
    "A Plan document",
    Recognise::members(50, &["plan_id"])
);
/// A Dialog document.
pub static DIALOG: DocKind = document_kind!(
    "dialog",
    "dialog-",
    mplp_dialog::Dialog,
    "A Dialog document",
    Recognise::members(60, &["dialog_id"])
);
/// A Collab document.
pub static COLLAB: DocKind = document_kind!(
    "collab",
    "collab-",
    mplp_collab::Collab,
    "A Collab document",
    Recognise::members(70, &["collab_id"])
);
/// A Context document.
pub static CONTEXT: DocKind = document_kind!(
    "context",
    "context-",
    mplp_context::Context,
    "A Context document",
    // Last: every module but Role carries `context_id`.
    Recognise::members(200, &["root", "context_id"])
);
/// A Confirm document.
pub static CONFIRM: DocKind = document_kind!(
    "confirm",
    "confirm-",
    mplp_confirm::Confirm,
    "A Confirm document",
    Recognise::members(80, &["confirm_id"])
);
/// A Trace document.
pub static TRACE: DocKind = document_kind!(
    "trace",
    "trace-",
    mplp_trace::Trace,
    "A Trace document",
    // Before Plan: a Trace carries `plan_id` too.
    Recognise::members(40, &["root_span", "trace_id"])
);
/// A Role document.
pub static ROLE: DocKind = document_kind!(
    "role",
    "role-",
    mplp_role::Role,
    "A Role document",
    Recognise::members(90, &["role_id"])
);
/// An Extension document.
pub static EXTENSION: DocKind = document_kind!(
    "extension",
    "extension-",
    mplp_extension::Extension,
    "An Extension document",
    Recognise::members(100, &["extension_id"])
);
/// A Network document.
pub static NETWORK: DocKind = document_kind!(
    "network",
    "network-",
    mplp_network::Network,
    "A Network document",
    Recognise::members(110, &["network_id"])
);
/// A Core module document (the manifest of a protocol instance).
pub static CORE: DocKind = document_kind!(
    "core",
    "core-",
    mplp_manifest::CoreManifest,
    "A Core module document (protocol instance manifest)",
    Recognise::members(120, &["core_id"])
);
/// One MAP event.
pub static MAP_EVENT: DocKind = document_kind!(
    "map-event",
    "map-event-",
    mplp_events::MapEvent,
    "One MAP event",
    // Events first: they carry `plan_id`, `context_id` and `trace_id` too.
    Recognise::event(10, "MAP", &["session_id"])
);
/// One SA event.
pub static SA_EVENT: DocKind = document_kind!(
    "sa-event",
    "sa-event-",
    mplp_events::SaEvent,
    "One SA event",
    Recognise::event(20, "SA", &["sa_id"])
);
/// One core (observability) event.
pub static EVENT: DocKind = document_kind!(
    "event",
    "event-",
    mplp_events::CoreEvent,
    "One core (observability) event",
    Recognise::members(30, &["event_family"])
);
/// One learning sample of the learning taxonomy (`learning/`).
pub static LEARNING_SAMPLE: DocKind = document_kind!(
    "learning-sample",
    "learning-sample-",
    mplp_events::learning::LearningSample,
    "One learning sample (core, intent resolution or delta impact)",
    // After the events, before the documents (samples carry `plan_id` too),
    // and after the structured sample, whose required members tell it apart
    // (`sample_id` alone is read as this kind).
    Recognise::members(32, &["sample_family", "sample_id"])
);
/// One structured learning sample (`common/learning-sample.schema.json`).
pub static COMMON_LEARNING_SAMPLE: DocKind = document_kind!(
    "common-learning-sample",
    "common-learning-sample-",
    mplp_events::learning::CommonLearningSample,
    "One structured learning sample (common/learning-sample)",
    // Its required members, none of which a learning sample of the taxonomy has.
    Recognise::members(31, &["success_flag", "timestamps", "project_id"])
);
/// One CI integration event.
pub static CI_EVENT: DocKind = document_kind!(
    "ci-event",
    "ci-event-",
    mplp_events::integration::CiEvent,
    "One CI integration event",
    Recognise::members(33, &["ci_provider"])
);
/// One tool integration event.
pub static TOOL_EVENT: DocKind = document_kind!(
    "tool-event",
    "tool-event-",
    mplp_events::integration::ToolEvent,
    "One tool integration event",
    Recognise::members(34, &["tool_id", "invocation_id"])
);
/// One Git integration event.
pub static GIT_EVENT: DocKind = document_kind!(
    "git-event",
    "git-event-",
    mplp_events::integration::GitEvent,
    "One Git integration event",
    Recognise::members(35, &["repo_url", "event_kind"])
);
/// One file update integration event.
pub static FILE_UPDATE_EVENT: DocKind = document_kind!(
    "file-update-event",
    "file-update-event-",
    mplp_events::integration::FileUpdateEvent,
    "One file update integration event",
    Recognise::members(36, &["file_path", "change_type"])
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
    recognise: Recognise::NEVER,
    typed: None,
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
    recognise: Recognise::NEVER,
    typed: None,
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
    &EXTENSION,
    &NETWORK,
    &CORE,
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

/// The spelling of "recognise the kind from the input" next to the kind
/// names (`--kind auto`, the Python `kind="auto"`).
pub const AUTO: &str = "auto";

/// What [`AUTO`] does, in one line (its `--help` text), from the signs in
/// the table.
pub fn auto_description() -> String {
    format!(
        "Recognise the kind from the document ({}) or a `.ndjson`/`.jsonl` name",
        detect::signs().join(", ")
    )
}

/// Parses a kind name or [`AUTO`]: `Ok(None)` for `auto`.
///
/// # Errors
/// [`UnknownKind`] for any other text; its message lists the names.
///
/// ```
/// assert_eq!(mplp_kinds::parse_or_auto("auto"), Ok(None));
/// assert_eq!(mplp_kinds::parse_or_auto("plan"), Ok(Some(&mplp_kinds::PLAN)));
/// let err = mplp_kinds::parse_or_auto("plans").unwrap_err().to_string();
/// assert!(err.starts_with("unknown kind `plans`, expected one of: auto, dialog, plan,"));
/// ```
pub fn parse_or_auto(name: &str) -> Result<Option<&'static DocKind>, UnknownKind> {
    if name == AUTO {
        return Ok(None);
    }
    by_name(name)
        .map(Some)
        .ok_or_else(|| UnknownKind(name.to_owned()))
}

/// A kind name that is neither a kind of [`KINDS`] nor [`AUTO`] (the text given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKind(pub String);

impl std::fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown kind `{}`, expected one of: {AUTO}", self.0)?;
        for kind in KINDS {
            write!(f, ", {}", kind.name)?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownKind {}

/// Validates bytes of the given kind, or of the kind [`detect`] recognises
/// when `kind` is `None`. Returns the kind that was used (`None` when it
/// could not be recognised: the report then holds the `unknown-kind`,
/// `type` or syntax error). A log kind validates the bytes as a log.
///
/// Without a kind, a document is usually parsed once: the kind is guessed
/// from the first top-level member that marks one (the table's signs), and
/// kept when the document passes that kind's typed parse and no document
/// that does can bear the sign of a kind [`detect`] would prefer (the
/// kind's declared members exclude those signs). Otherwise [`detect`]
/// decides, as it always did; the kind and the report are the same either
/// way.
///
/// ```
/// let plan = std::fs::read("../../schemas/examples/valid/plan-minimal.json")?;
/// let (kind, report) = mplp_kinds::validate_bytes(None, &plan);
/// assert_eq!(kind, Some(&mplp_kinds::PLAN));
/// assert!(report.is_valid());
///
/// let (kind, report) = mplp_kinds::validate_bytes(None, br#"{"hello": 1}"#);
/// assert_eq!(kind, None); // not an MPLP document
/// assert_eq!(report.violations()[0].rule.as_str(), "unknown-kind");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn validate_bytes(
    kind: Option<&'static DocKind>,
    bytes: &[u8],
) -> (Option<&'static DocKind>, Report) {
    let kind = match kind {
        Some(k) => k,
        None => {
            if let Some((guess, report)) = detect::validate_guess(bytes) {
                return (Some(guess), report);
            }
            match detect(bytes) {
                Ok(k) => k,
                Err(v) => {
                    let mut report = Report::new();
                    report.push(v);
                    return (None, report);
                }
            }
        }
    };
    (Some(kind), kind.validate(bytes))
}

/// Validates the file at `path` as the CLI does: logs (a log `kind`, or
/// `None` with a `.ndjson`/`.jsonl` name) are streamed from the file, other
/// documents are read whole. Returns the kind used, as [`validate_bytes`].
///
/// A UTF-8 byte-order mark at the start of the file is skipped with the
/// warning `input-bom`, as `mplp validate` does
/// ([`mplp_core::document::strip_bom`]; docs/spec-notes.md, "Byte-order
/// marks"). [`validate_bytes`] and [`detect`] take a JSON text and refuse
/// the mark, naming it.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("mplp-kinds-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("plan.json");
/// let mut bytes = b"\xEF\xBB\xBF".to_vec();
/// bytes.extend(std::fs::read("../../schemas/examples/valid/plan-minimal.json")?);
/// std::fs::write(&path, &bytes)?;
/// let (kind, report) = mplp_kinds::validate_file(None, &path)?;
/// assert_eq!(kind, Some(&mplp_kinds::PLAN));
/// assert!(report.is_valid());
/// assert_eq!(report.warnings().next().unwrap().rule.as_str(), "input-bom");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// When the file cannot be opened or read.
pub fn validate_file(
    kind: Option<&'static DocKind>,
    path: &std::path::Path,
) -> std::io::Result<(Option<&'static DocKind>, Report)> {
    let log_name = is_log_file_name(&path.to_string_lossy());
    let mut report = Report::new();
    if kind.is_some_and(DocKind::is_log) || (kind.is_none() && log_name) {
        let mut reader = std::io::BufReader::new(std::fs::File::open(path)?);
        if mplp_core::document::skip_bom(&mut reader)? {
            report.push(mplp_core::document::bom_warning());
        }
        let kind = match kind {
            Some(k) => k,
            None => detect_log(&mut reader)?,
        };
        report.extend(kind.validate_reader(&mut reader));
        return Ok((Some(kind), report));
    }
    let bytes = std::fs::read(path)?;
    let (json, bom) = mplp_core::document::strip_bom(&bytes);
    if bom {
        report.push(mplp_core::document::bom_warning());
    }
    let (kind, found) = validate_bytes(kind, json);
    report.extend(found);
    Ok((kind, report))
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

pub use detect::{detect, detect_log};
pub use sniff::{SNIFF_LIMIT, Sniffed, sniff_log};

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
        ("mplp-extension", mplp_extension::rules().collect()),
        ("mplp-network", mplp_network::rules().collect()),
        ("mplp-manifest", mplp_manifest::rules().collect()),
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
    use mplp_core::Rule;

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
    fn ranks_are_unique_and_only_logs_are_unrecognisable() {
        let mut ranks: Vec<u8> = KINDS
            .iter()
            .filter(|k| k.recognise.is_recognisable())
            .map(|k| k.recognise.rank)
            .collect();
        let n = ranks.len();
        ranks.sort_unstable();
        ranks.dedup();
        assert_eq!(ranks.len(), n, "two kinds share a detection rank");
        for kind in KINDS {
            assert_eq!(kind.recognise.is_recognisable(), !kind.is_log(), "{kind}");
            assert!(kind.recognise.rank < u8::MAX || kind.is_log(), "{kind}");
        }
        assert!(KINDS.len() <= 64, "the probe keeps a bit per kind in a u64");
    }

    #[test]
    fn the_table_agrees_with_each_document_kind_constant() {
        let documents = [
            (&PLAN, <mplp_plan::Plan as Document>::KIND),
            (&DIALOG, <mplp_dialog::Dialog as Document>::KIND),
            (&COLLAB, <mplp_collab::Collab as Document>::KIND),
            (&CONTEXT, <mplp_context::Context as Document>::KIND),
            (&ROLE, <mplp_role::Role as Document>::KIND),
            (&TRACE, <mplp_trace::Trace as Document>::KIND),
            (&CONFIRM, <mplp_confirm::Confirm as Document>::KIND),
            (&MAP_EVENT, <mplp_events::MapEvent as Document>::KIND),
            (&SA_EVENT, <mplp_events::SaEvent as Document>::KIND),
            (&EVENT, <mplp_events::CoreEvent as Document>::KIND),
            (&EXTENSION, <mplp_extension::Extension as Document>::KIND),
            (&NETWORK, <mplp_network::Network as Document>::KIND),
            (&CORE, <mplp_manifest::CoreManifest as Document>::KIND),
        ];
        for (kind, name) in documents {
            assert_eq!(kind.name, name);
            assert!(!kind.is_log());
            assert_eq!(parse_or_auto(name), Ok(Some(kind)));
        }
        assert_eq!(parse_or_auto(AUTO), Ok(None));
        assert!(by_name(AUTO).is_none());
    }

    #[test]
    fn detection_order_puts_events_before_plans() {
        let cases: &[(&[u8], &DocKind)] = &[
            // An SA event carries plan_id: it must not be taken for a plan.
            (
                br#"{"event_type":"SAInitialized","plan_id":"x"}"#,
                &SA_EVENT,
            ),
            (br#"{"sa_id":1,"plan_id":2}"#, &SA_EVENT),
            (br#"{"session_id":1,"plan_id":2}"#, &MAP_EVENT),
            (br#"{"event_type":"MAPTurnDispatched"}"#, &MAP_EVENT),
            (br#"{"event_family":"x","plan_id":2}"#, &EVENT),
            (br#"{"dialog_id":1}"#, &DIALOG),
            (br#"{"collab_id":1}"#, &COLLAB),
            // A Context: `root`, or `context_id` when no other id is there.
            (br#"{"context_id":1,"root":{}}"#, &CONTEXT),
            (br#"{"context_id":1,"title":2}"#, &CONTEXT),
            (br#"{"context_id":1,"collab_id":2}"#, &COLLAB),
            (br#"{"context_id":1,"trace_id":2}"#, &TRACE),
            (br#"{"trace_id":1,"plan_id":2}"#, &TRACE),
            (br#"{"trace_id":1,"event_family":"x"}"#, &EVENT),
            (br#"{"root":1,"plan_id":2}"#, &PLAN),
            (br#"{"confirm_id":1,"target_id":2}"#, &CONFIRM),
            (br#"{"root_span":{},"plan_id":1,"context_id":2}"#, &TRACE),
            (br#"{"role_id":1,"name":2}"#, &ROLE),
            (br#"{"extension_id":1,"context_id":2}"#, &EXTENSION),
            (br#"{"network_id":1,"context_id":2}"#, &NETWORK),
            (br#"{"core_id":1,"modules":[]}"#, &CORE),
            (br#"{"core_id":1,"plan_id":2}"#, &PLAN),
            (br#"{"sample_family":"x","plan_id":2}"#, &LEARNING_SAMPLE),
            (br#"{"sample_id":1,"sample_family":"x"}"#, &LEARNING_SAMPLE),
            (br#"{"sample_id":1}"#, &LEARNING_SAMPLE),
            (
                br#"{"sample_id":1,"success_flag":true,"sample_family":"x"}"#,
                &COMMON_LEARNING_SAMPLE,
            ),
            (br#"{"ci_provider":1,"tool_id":2}"#, &CI_EVENT),
            (br#"{"invocation_id":1}"#, &TOOL_EVENT),
            (br#"{"event_kind":1,"file_path":2}"#, &GIT_EVENT),
            (br#"{"change_type":1}"#, &FILE_UPDATE_EVENT),
            (br#"{"plan_id": null}"#, &PLAN),
            // A non-string event_type is skipped whatever its shape.
            (br#"{"event_type":{"a":[1,{"b":2}]},"plan_id":1}"#, &PLAN),
            (br#"{"event_type":[1,2],"dialog_id":1}"#, &DIALOG),
            // A repeated member: the last event_type wins.
            (
                br#"{"event_type":"x","event_type":"SAInitialized","plan_id":1,"plan_id":2}"#,
                &SA_EVENT,
            ),
        ];
        for (doc, kind) in cases {
            assert_eq!(detect(doc), Ok(*kind), "{}", String::from_utf8_lossy(doc));
        }
        let unknown = detect(br#"{"x":1}"#).unwrap_err();
        assert_eq!(unknown.rule, UNKNOWN_KIND);
        assert!(unknown.message.contains("`plan_id`"), "{}", unknown.message);
        assert!(
            unknown
                .message
                .contains("an `event_type` starting with `MAP`"),
            "{}",
            unknown.message
        );
        for text in [&b"{"[..], b"[", b"", b"nul", b"[1,]", b"{\"a\":}"] {
            let syntax = detect(text).unwrap_err();
            assert_eq!(syntax.rule, Rule::JSON_SYNTAX, "{text:?}");
        }
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
        let (kind, report) = validate_bytes(None, br#"{"plan_id":1,"plan_id":2}"#);
        assert_eq!(kind, Some(&PLAN));
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
    fn log_detection_reads_the_first_non_blank_line() {
        let mut sa: &[u8] = b"\n  \n{\"event_type\":\"SAInitialized\"}\n";
        assert_eq!(detect_log(&mut sa).map(|k| k.name).ok(), Some("sa-log"));
        let mut other: &[u8] = b"not json\n";
        assert_eq!(detect_log(&mut other).map(|k| k.name).ok(), Some("map-log"));
    }

    #[test]
    fn a_log_kind_validates_bytes_as_a_log() {
        let (kind, report) = validate_bytes(Some(&MAP_LOG), b"\n\n");
        assert_eq!(kind, Some(&MAP_LOG));
        assert!(report.is_valid(), "{:?}", report.violations());
        let (_, report) = validate_bytes(Some(&MAP_LOG), b"{\n");
        assert!(!report.is_valid());
        assert_eq!(report.violations()[0].line, Some(1));
    }

    #[test]
    fn help_texts_come_from_the_table() {
        let help = auto_description();
        for kind in KINDS.iter().filter(|k| !k.is_log()) {
            for member in kind.recognise.members {
                assert!(help.contains(&format!("`{member}`")), "{help}");
            }
        }
        let err = UnknownKind("x".into()).to_string();
        for kind in KINDS {
            assert!(err.contains(kind.name), "{err}");
        }
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
