//! From bytes to a verdict: the one place every front end of mplp-rs
//! (`mplp validate`, `report`, `watch` and `conformance`, the Python
//! bindings, xtask and the tests) goes through to check MPLP input. It owns
//! three things:
//!
//! - **The kind table** ([`KINDS`]): one row ([`DocKind`]) per kind of
//!   input, the documents (`plan`, `dialog`, ..., the events) and the logs
//!   (`map-log`, `sa-log`). A row holds what only it knows, its help text
//!   and the signs [`detect`] recognises it by; a document kind's name is
//!   its type's `Document::KIND`, its members its `Wire` declaration's.
//! - **The rule registry** ([`all_rules`], [`rules_by_crate`],
//!   [`rule_info`]): every rule of the SDK, from each crate's registry,
//!   with this crate's (kind detection, the Python bindings' input) and the
//!   bundle rules.
//! - **One dispatch** ([`validate_source`]): the byte-order mark, the size
//!   limit, document or log, kind detection, the typed validation or the
//!   streaming log validator, and the profile, handing each finding to a
//!   [`Sink`] as it is found. [`validate_bytes`], [`validate_file`] and
//!   [`DocKind::validate`] are its short forms.
//!
//! A log can also be pushed in chunk by chunk ([`LogStream`], the log
//! branch of the dispatch in push form).
//!
//! The JSON record of one input (what `mplp validate --format json` prints
//! and the WebAssembly package returns) is [`record::Record`], a [`Sink`].
//!
//! And, built on them, [`bundle`]: the documents of one piece of work
//! checked together, with the rules that bind them.
//!
//! ```
//! use mplp_check::{KINDS, Options, Shape, Source, validate_source};
//! use mplp_core::Report;
//!
//! let plan = mplp_check::by_name("plan").unwrap();
//! assert_eq!(plan.example_prefix(), "plan-");
//! assert_eq!(plan.shape, Shape::Document);
//! assert!(!plan.validate(b"{}").is_valid());
//!
//! // Recognising a document from its members:
//! let kind = mplp_check::detect(br#"{"collab_id": "x"}"#).unwrap();
//! assert_eq!(kind.name, "collab");
//!
//! // Recognising an example file from its name:
//! assert_eq!(mplp_check::for_example("map-log-round-robin.ndjson").unwrap().name, "map-log");
//! assert_eq!(KINDS.len(), 23);
//!
//! // Any input, any front end: a stream with no name is sniffed.
//! let log = std::fs::read("../../schemas/examples/valid/sa-log-code-review.ndjson")?;
//! let mut report = Report::new();
//! let checked = validate_source(None, Source::stream("-", &log[..]), &Options::default(), &mut report);
//! assert_eq!(checked.kind, Some(&mplp_check::SA_LOG));
//! assert!(report.is_valid());
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! Why a crate of its own: the table needs the types of every module crate
//! (plan, dialog, collab, events, ...), so it cannot live in `mplp-core`;
//! the CLI is a binary, and xtask and the tests are not published. A
//! library above the module crates is the one place all of them can read.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod bundle;
mod detect;
mod dispatch;
mod event_log;
mod feed;
mod kinds;
pub mod listing;
pub mod record;
mod registry;
mod sniff;

pub use detect::{detect, detect_log};
pub use dispatch::{
    Checked, DEFAULT_EVENT_ID_WINDOW, DEFAULT_MAX_DOCUMENT_BYTES, Options, Sink, Source,
    read_capped, too_large, validate_bytes, validate_file, validate_path, validate_source,
};
pub use feed::{LogStream, NotALog};
pub use kinds::{
    AUTO, AnyDocument, CI_EVENT, COLLAB, COMMON_LEARNING_SAMPLE, CONFIRM, CONTEXT, CORE, DIALOG,
    DocKind, EVENT, EVENT_KINDS, EVENT_LOG, EXTENSION, FILE_UPDATE_EVENT, GIT_EVENT, KINDS,
    LEARNING_SAMPLE, MAP_EVENT, MAP_LOG, MODULE_EVENT, NETWORK, PLAN, ROLE, Recognise, SA_EVENT,
    SA_LOG, Shape, TOOL_EVENT, TRACE, UnknownKind, auto_description, by_name, for_example,
    is_log_file_name, parse_or_auto,
};
pub use mplp_core::rules::Profile;
pub use registry::{
    PYTHON_VALUE, RULES, UNKNOWN_KIND, all_rules, rule_info, rules, rules_by_crate, strict_severity,
};
pub use sniff::{SNIFF_LIMIT, Sniffed, sniff_log};

// The crate README: its Rust snippet is a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}

#[cfg(test)]
mod tests {
    use super::*;
    use mplp_core::{Rule, Severity};

    #[test]
    fn names_and_prefixes_are_unique() {
        for (i, a) in KINDS.iter().enumerate() {
            for b in &KINDS[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.example_prefix(), b.example_prefix());
            }
            assert_eq!(by_name(a.name).map(|k| k.name), Some(a.name));
            // Logs have a line kind, except the event log (each line its own).
            assert!(
                a.is_log() == a.line_kind.is_some() || a.name == EVENT_LOG.name,
                "{}",
                a.name
            );
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
    fn each_kind_parses_by_name_and_each_valid_example_reads_as_its_kind() {
        for kind in KINDS {
            assert_eq!(parse_or_auto(kind.name), Ok(Some(*kind)));
            assert_eq!(kind.name.parse::<&DocKind>(), Ok(*kind));
        }
        assert_eq!(parse_or_auto(AUTO), Ok(None));
        assert!(by_name(AUTO).is_none());
        assert!(AUTO.parse::<&DocKind>().is_err());
        // Every document kind's valid examples come back as a document of
        // that kind (the variant of `AnyDocument` the row declares).
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples/valid");
        let mut seen = std::collections::BTreeSet::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            let Some(kind) = for_example(&file).filter(|k| !k.is_log()) else {
                continue;
            };
            struct Keep(Option<AnyDocument>);
            impl crate::Sink for Keep {
                fn violation(&mut self, v: mplp_core::Violation) -> std::ops::ControlFlow<()> {
                    panic!("{v}")
                }
                fn document(&mut self, d: AnyDocument) {
                    self.0 = Some(d);
                }
            }
            let mut keep = Keep(None);
            let bytes = std::fs::read(&path).unwrap();
            let checked = validate_source(
                None,
                crate::Source::text(&bytes),
                &crate::Options::default(),
                &mut keep,
            );
            assert_eq!(checked.kind, Some(kind), "{file}");
            let document = keep.0.unwrap();
            assert_eq!(document.kind(), kind, "{file}");
            // What the dispatch kept is the document: it writes back as the round trip does.
            assert_eq!(
                Some(Ok(document.to_json())),
                kind.round_trip(&bytes),
                "{file}"
            );
            seen.insert(kind.name);
        }
        assert!(seen.len() >= 10, "{seen:?}");
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
