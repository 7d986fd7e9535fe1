//! The one dispatch, `validate_source`: every way in gives the verdict of
//! the in-memory form, whatever the framing, the chunking of the reader,
//! or a byte-order mark; options and sinks do what they say.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use mplp_check::{
    AnyDocument, Checked, DocKind, MAP_LOG, Options, PLAN, Profile, SA_LOG, Sink, Source,
    validate_bytes, validate_source,
};
use mplp_core::{Report, Severity, Violation};
use proptest::prelude::*;

fn examples() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for dir in ["valid", "invalid"] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples")
            .join(dir);
        for entry in std::fs::read_dir(root).unwrap() {
            let path: PathBuf = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_file() && !name.ends_with(".expect.json") {
                out.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// A reader that hands out its bytes in chunks of the given sizes (then
/// one byte at a time), as a pipe or a slow file does.
struct Chunked<'a> {
    bytes: &'a [u8],
    sizes: Vec<usize>,
    at: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let size = self.sizes.get(self.at).copied().unwrap_or(1).max(1);
        self.at += 1;
        let n = size.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Everything a sink is told, in order.
#[derive(Debug, Default, PartialEq)]
struct Record {
    kinds: Vec<Option<&'static str>>,
    violations: Vec<Violation>,
    unreadable: Vec<Violation>,
    documents: Vec<&'static str>,
}

impl Sink for Record {
    fn kind(&mut self, kind: Option<&'static DocKind>) {
        self.kinds.push(kind.map(|k| k.name));
    }
    fn violation(&mut self, v: Violation) -> ControlFlow<()> {
        self.violations.push(v);
        ControlFlow::Continue(())
    }
    fn unreadable(&mut self, v: Violation) -> ControlFlow<()> {
        self.unreadable.push(v);
        ControlFlow::Continue(())
    }
    fn document(&mut self, d: AnyDocument) {
        self.documents.push(d.kind().name);
    }
}

fn with_bom(bytes: &[u8]) -> Vec<u8> {
    let mut out = mplp_core::document::UTF8_BOM.to_vec();
    out.extend(bytes);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A file (by its name) or a nameless stream, read in any chunks, with
    /// or without a byte-order mark, is judged as the bytes are: the same
    /// kind and the same violations, after one `input-bom` warning when the
    /// mark was there; the document comes with the verdict when it is valid.
    #[test]
    fn every_framing_gives_the_verdict_of_the_bytes(
        pick in any::<prop::sample::Index>(),
        sizes in prop::collection::vec(1usize..300, 0..40),
        bom in any::<bool>(),
        as_stream in any::<bool>(),
    ) {
        let all = examples();
        let (name, bytes) = &all[pick.index(all.len())];
        // Document or log: a file's name says, a stream's first lines
        // (`sniff_log`); a log's kind comes from its first event.
        let log = if as_stream {
            mplp_check::sniff_log(&bytes[..]).unwrap().is_log
        } else {
            mplp_check::is_log_file_name(name)
        };
        let given = log.then(|| mplp_check::detect_log(&mut &bytes[..]).unwrap());
        let (kind, report) = validate_bytes(given, bytes);
        let input = if bom { with_bom(bytes) } else { bytes.clone() };
        let reader = BufReader::with_capacity(64, Chunked { bytes: &input, sizes, at: 0 });
        let source = if as_stream {
            Source::stream("-", reader)
        } else {
            Source::file(name, Some(input.len() as u64), reader)
        };
        let mut record = Record::default();
        let checked = validate_source(None, source, &Options::default(), &mut record);
        prop_assert_eq!(checked.kind.map(|k| k.name), kind.map(|k| k.name), "{}", name);
        prop_assert!(!checked.unreadable && !checked.stopped);
        prop_assert_eq!(&record.kinds, &vec![kind.map(|k| k.name)]);
        let mut expected: Vec<Violation> = Vec::new();
        if bom {
            expected.push(mplp_core::document::bom_warning());
        }
        expected.extend(report.violations().iter().cloned());
        prop_assert_eq!(&record.violations, &expected, "{}", name);
        let valid_document = !log && report.is_valid() && kind.is_some();
        prop_assert_eq!(record.documents.len(), usize::from(valid_document), "{}", name);
        if valid_document {
            prop_assert_eq!(Some(record.documents[0]), kind.map(|k| k.name));
        }
    }
}

#[test]
fn a_log_source_waits_for_its_first_line_and_tells_its_kind_from_it() {
    let log = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples/valid/sa-log-code-review.ndjson"),
    )
    .unwrap();
    // Delivered one byte at a time: the first line is read whole before
    // its kind is decided.
    let reader = BufReader::with_capacity(
        1,
        Chunked {
            bytes: &log,
            sizes: vec![],
            at: 0,
        },
    );
    let mut report = Report::new();
    let checked = validate_source(
        None,
        Source::log("live", reader),
        &Options::default(),
        &mut report,
    );
    assert_eq!(checked.kind, Some(&SA_LOG));
    assert!(report.is_valid(), "{report:?}");
    // Given a kind, the log is that kind.
    let mut report = Report::new();
    let checked = validate_source(
        Some(&MAP_LOG),
        Source::log("live", &log[..]),
        &Options::default(),
        &mut report,
    );
    assert_eq!(checked.kind, Some(&MAP_LOG));
    assert!(!report.is_valid());
}

#[test]
fn a_document_over_the_limit_is_refused_unread_or_after_the_limit() {
    let plan = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples/valid/plan-minimal.json"),
    )
    .unwrap();
    let max = plan.len() as u64 - 1;
    let options = Options::default().max_document_bytes(max);
    // The size known from the file system: refused before reading.
    struct Unread;
    impl Read for Unread {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            panic!("read past the size check")
        }
    }
    let mut record = Record::default();
    let checked = validate_source(
        None,
        Source::file("plan.json", Some(plan.len() as u64), BufReader::new(Unread)),
        &options,
        &mut record,
    );
    assert!(checked.unreadable);
    assert_eq!(checked.kind, None);
    assert!(record.kinds.is_empty() && record.violations.is_empty());
    assert_eq!(record.unreadable[0].rule.as_str(), "input-too-large");
    assert!(
        record.unreadable[0]
            .message
            .starts_with("`plan.json` holds at least")
    );
    // Size unknown: read up to the limit and one byte, then refused.
    let mut record = Record::default();
    let checked = validate_source(None, Source::stream("-", &plan[..]), &options, &mut record);
    assert!(checked.unreadable);
    assert_eq!(record.unreadable[0].rule.as_str(), "input-too-large");
    // At the limit: read.
    let options = Options::default().max_document_bytes(max + 1);
    let mut record = Record::default();
    let checked = validate_source(None, Source::stream("-", &plan[..]), &options, &mut record);
    assert_eq!((checked.kind, checked.unreadable), (Some(&PLAN), false));
    assert_eq!(record.documents, ["plan"]);
}

#[test]
fn a_read_error_is_the_inputs_io_violation() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::ConnectionReset.into())
        }
    }
    for source in [
        Source::file("x.json", None, BufReader::new(Failing)),
        Source::stream("-", BufReader::new(Failing)),
        Source::log("live", BufReader::new(Failing)),
    ] {
        let mut record = Record::default();
        let checked: Checked = validate_source(None, source, &Options::default(), &mut record);
        assert!(checked.unreadable);
        assert_eq!(record.unreadable.len(), 1);
        assert_eq!(record.unreadable[0].rule.as_str(), "io");
        assert!(
            record.unreadable[0].message.starts_with("cannot read `"),
            "{:?}",
            record.unreadable
        );
    }
}

#[test]
fn the_profile_is_applied_before_the_sink_and_a_break_stops_the_check() {
    // A log that leaves its session open: an error of an SDK rule under
    // strict... and under canonical only if the rule is normative.
    let log = b"{\"event_type\":\"MAPSessionStarted\"}\n{\"event_type\":\"MAPSessionStarted\"}\n";
    let strict = {
        let mut r = Report::new();
        validate_source(
            Some(&MAP_LOG),
            Source::log("l", &log[..]),
            &Options::default(),
            &mut r,
        );
        r
    };
    let canonical = {
        let mut r = Report::new();
        let options = Options::default().profile(Profile::Canonical);
        validate_source(Some(&MAP_LOG), Source::log("l", &log[..]), &options, &mut r);
        r
    };
    assert_eq!(strict.violations().len(), canonical.violations().len());
    let expected =
        mplp_core::rules::apply(strict.clone(), Profile::Canonical, mplp_check::rule_info);
    assert_eq!(canonical, expected);
    // A sink that stops at the first violation sees one.
    struct First(usize);
    impl Sink for First {
        fn violation(&mut self, _: Violation) -> ControlFlow<()> {
            self.0 += 1;
            ControlFlow::Break(())
        }
    }
    let mut first = First(0);
    let checked = validate_source(
        Some(&MAP_LOG),
        Source::log("l", &log[..]),
        &Options::default(),
        &mut first,
    );
    assert!(checked.stopped);
    assert_eq!(first.0, 1);
    assert!(strict.violations().len() > 1);
}

#[test]
fn a_stream_is_sniffed_a_text_is_not() {
    let log = b"{\"event_type\":\"SAInitialized\"}\n{\"event_type\":\"SACompleted\"}\n";
    let mut record = Record::default();
    let checked = validate_source(
        None,
        Source::stream("-", &log[..]),
        &Options::default(),
        &mut record,
    );
    assert_eq!(checked.kind, Some(&SA_LOG));
    // The same bytes as a JSON text are one document (with trailing data).
    let (kind, report) = validate_bytes(None, log);
    assert_ne!(kind, Some(&SA_LOG));
    assert!(!report.is_valid());
    // And a text keeps its byte-order mark as the syntax error that names it.
    let (_, report) = validate_bytes(Some(&PLAN), &with_bom(b"{}"));
    assert!(
        report
            .errors()
            .any(|v| v.message.contains("byte-order mark")),
        "{report:?}"
    );
    let reader: &mut dyn BufRead = &mut &with_bom(b"{}")[..];
    let report = PLAN.validate_reader(reader);
    assert_eq!(
        report.warnings().next().map(|v| v.rule.as_str()),
        Some("input-bom")
    );
}

fn round_robin() -> Vec<String> {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples/valid/map-log-round-robin.ndjson"),
    )
    .unwrap()
    .lines()
    .map(str::to_owned)
    .collect()
}

/// `(rule, severity)` of each violation of a MAP log checked with `options`,
/// from memory (`Source::text`) or as a log stream.
fn log_findings(log: &str, options: &Options, text: bool) -> Vec<(String, Severity)> {
    let source = if text {
        Source::text(log.as_bytes())
    } else {
        Source::log("session", log.as_bytes())
    };
    let mut report = Report::new();
    validate_source(Some(&MAP_LOG), source, options, &mut report);
    report
        .violations()
        .iter()
        .map(|v| (v.rule.as_str().to_owned(), v.severity))
        .collect()
}

/// Each option reaches the log validator, from memory and from a stream:
/// the profile relaxes an SDK rule, the event-id window finds or skips a
/// repeated id, `partial` makes what is open at the end a warning.
#[test]
fn the_options_reach_the_log_validator_and_the_profile_relaxes_sdk_rules() {
    let lines = round_robin();
    // The roles assigned twice: the same line again, so its id repeats too.
    let mut twice = lines.clone();
    twice.insert(2, lines[1].clone());
    let twice = twice.join("\n") + "\n";
    // The session never completed.
    let open = lines[..lines.len() - 1].join("\n") + "\n";
    let again = ("map_roles_assigned_once".to_owned(), Severity::Error);
    let repeat =
        |found: &[(String, Severity)]| found.iter().any(|(r, _)| r == "log_unique_event_ids");
    for text in [false, true] {
        let strict = log_findings(&twice, &Options::default(), text);
        assert!(strict.contains(&again), "{strict:?}");
        assert!(repeat(&strict), "{strict:?}");
        let canonical = log_findings(
            &twice,
            &Options::default().profile(Profile::Canonical),
            text,
        );
        assert!(
            canonical.contains(&("map_roles_assigned_once".to_owned(), Severity::Warning)),
            "{canonical:?}"
        );
        let blind = log_findings(&twice, &Options::default().event_id_window(0), text);
        assert!(!repeat(&blind) && blind.contains(&again), "{blind:?}");
        let complete = log_findings(&open, &Options::default(), text);
        assert!(
            complete.iter().any(|(_, s)| *s == Severity::Error),
            "{complete:?}"
        );
        let partial = log_findings(&open, &Options::default().partial(true), text);
        assert_eq!(partial.len(), complete.len(), "{partial:?}");
        assert!(
            partial.iter().all(|(_, s)| *s == Severity::Warning),
            "{partial:?}"
        );
    }
}

/// Blank lines before a log's first event: its kind still comes from the
/// event (read whole, line after line).
#[test]
fn a_log_kind_comes_from_the_first_event_after_blank_lines() {
    let log = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples/valid/sa-log-code-review.ndjson"),
    )
    .unwrap();
    let mut padded = b"\n  \n\t\n".to_vec();
    padded.extend(&log);
    let mut report = Report::new();
    let checked = validate_source(
        None,
        Source::log("live", &padded[..]),
        &Options::default(),
        &mut report,
    );
    assert_eq!(checked.kind, Some(&SA_LOG));
    assert!(report.is_valid(), "{report:?}");
}

/// A sink lent as `&mut` is told all a sink is told.
#[test]
fn a_sink_lent_mutably_hears_everything() {
    let plan = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples/valid/plan-minimal.json"),
    )
    .unwrap();
    let mut record = Record::default();
    let mut lent = &mut record;
    validate_source(None, Source::text(&plan), &Options::default(), &mut lent);
    assert_eq!(record.kinds, [Some("plan")]);
    assert_eq!(record.documents, ["plan"]);
    let mut record = Record::default();
    let mut lent = &mut record;
    let options = Options::default().max_document_bytes(1);
    validate_source(None, Source::stream("-", &plan[..]), &options, &mut lent);
    assert_eq!(record.unreadable.len(), 1);
}

/// A file exactly at the size limit is read; a reader interrupted before
/// its byte-order mark is read again.
#[test]
fn a_file_at_the_limit_is_read_and_an_interrupted_read_is_retried() {
    let plan = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples/valid/plan-minimal.json"),
    )
    .unwrap();
    let len = plan.len() as u64;
    let mut record = Record::default();
    let options = Options::default().max_document_bytes(len);
    let checked = validate_source(
        None,
        Source::file("plan.json", Some(len), &plan[..]),
        &options,
        &mut record,
    );
    assert_eq!((checked.kind, checked.unreadable), (Some(&PLAN), false));

    struct Interrupted<'a> {
        bytes: &'a [u8],
        once: bool,
    }
    impl Read for Interrupted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if !std::mem::replace(&mut self.once, true) {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            self.bytes.read(buf)
        }
    }
    let marked = with_bom(&plan);
    let reader = BufReader::new(Interrupted {
        bytes: &marked,
        once: false,
    });
    let mut record = Record::default();
    let checked = validate_source(
        None,
        Source::file("plan.json", None, reader),
        &Options::default(),
        &mut record,
    );
    assert_eq!((checked.kind, checked.unreadable), (Some(&PLAN), false));
    assert_eq!(record.violations, [mplp_core::document::bom_warning()]);
}

/// The documented defaults.
#[test]
fn the_defaults_are_the_documented_ones() {
    assert_eq!(mplp_check::DEFAULT_EVENT_ID_WINDOW, 229_376);
    assert_eq!(mplp_check::DEFAULT_MAX_DOCUMENT_BYTES, 256 * 1024 * 1024);
    let options = Options::default();
    assert_eq!(options.profile, Profile::Strict);
    assert!(!options.partial);
    assert_eq!(options.event_id_window, mplp_check::DEFAULT_EVENT_ID_WINDOW);
}
