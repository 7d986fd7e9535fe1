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
use mplp_core::{Report, Violation};
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
