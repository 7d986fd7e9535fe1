//! A log pushed chunk by chunk ([`LogStream`]) is the dispatch's log
//! branch in push form: for any log (the example logs, edited: lines
//! dropped, repeated, broken, blank, CRLF ends, a byte-order mark) cut into
//! chunks of any sizes, it gives the kind, the violations (values, in
//! order) and the ending [`validate_source`] gives for `Source::log`.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::ops::ControlFlow;

use mplp_check::{Checked, DocKind, LogStream, Options, Sink, Source, validate_source};
use mplp_core::Violation;
use mplp_core::rules::Profile;
use proptest::prelude::*;

const LOGS: [&str; 3] = [
    include_str!("../../../schemas/examples/valid/map-log-round-robin.ndjson"),
    include_str!("../../../schemas/examples/valid/map-log-broadcast.ndjson"),
    include_str!("../../../schemas/examples/valid/sa-log-code-review.ndjson"),
];

/// Everything a sink hears, in order.
#[derive(Debug, Default, PartialEq)]
struct Heard {
    kinds: Vec<Option<&'static str>>,
    violations: Vec<(Option<u64>, String, String, String, bool)>,
    stop_after: Option<usize>,
}

impl Sink for Heard {
    fn kind(&mut self, kind: Option<&'static DocKind>) {
        self.kinds.push(kind.map(|k| k.name));
    }
    fn violation(&mut self, v: Violation) -> ControlFlow<()> {
        self.violations.push((
            v.line,
            v.rule.to_string(),
            v.pointer.clone(),
            v.message.clone(),
            v.severity == mplp_core::Severity::Error,
        ));
        if self.stop_after.is_some_and(|n| self.violations.len() >= n) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

fn pulled(
    kind: Option<&'static DocKind>,
    bytes: &[u8],
    options: &Options,
    stop: Option<usize>,
) -> (Heard, Checked) {
    let mut heard = Heard {
        stop_after: stop,
        ..Heard::default()
    };
    let checked = validate_source(kind, Source::log("", bytes), options, &mut heard);
    (heard, checked)
}

fn pushed(
    kind: Option<&'static DocKind>,
    bytes: &[u8],
    sizes: &[usize],
    options: &Options,
    stop: Option<usize>,
) -> (Heard, Checked) {
    let heard = Heard {
        stop_after: stop,
        ..Heard::default()
    };
    let mut stream = LogStream::new(kind, options, heard).unwrap();
    let mut at = 0;
    let mut i = 0;
    while at < bytes.len() {
        let n = sizes[i % sizes.len()].max(1);
        let _ = stream.push(&bytes[at..bytes.len().min(at + n)]);
        at += n;
        i += 1;
    }
    assert_eq!(stream.bytes(), bytes.len() as u64);
    stream.finish()
}

/// One edit of a log's lines.
#[derive(Clone, Debug)]
enum Edit {
    Drop(usize),
    Repeat(usize),
    Break(usize, usize),
    Blank(usize),
}

fn edited(log: &str, edits: &[Edit], crlf: bool, bom: bool, final_newline: bool) -> Vec<u8> {
    let mut lines: Vec<String> = log.lines().map(str::to_owned).collect();
    for edit in edits {
        let n = lines.len().max(1);
        match *edit {
            Edit::Drop(i) if !lines.is_empty() => {
                lines.remove(i % n);
            }
            Edit::Repeat(i) if !lines.is_empty() => {
                let line = lines[i % n].clone();
                lines.insert(i % n, line);
            }
            Edit::Break(i, cut) if !lines.is_empty() => {
                let line = &mut lines[i % n];
                let at = cut % (line.len() + 1);
                // Cut on a character boundary.
                let at = (0..=at)
                    .rev()
                    .find(|a| line.is_char_boundary(*a))
                    .unwrap_or(0);
                line.truncate(at);
            }
            Edit::Blank(i) => lines.insert(i % (lines.len() + 1), "   ".to_owned()),
            _ => {}
        }
    }
    let mut text = lines.join(if crlf { "\r\n" } else { "\n" });
    if final_newline {
        text.push('\n');
    }
    let mut bytes = if bom {
        b"\xEF\xBB\xBF".to_vec()
    } else {
        Vec::new()
    };
    bytes.extend(text.into_bytes());
    bytes
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Drop),
        any::<usize>().prop_map(Edit::Repeat),
        (any::<usize>(), any::<usize>()).prop_map(|(i, c)| Edit::Break(i, c)),
        any::<usize>().prop_map(Edit::Blank),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_pushed_log_is_the_pulled_log(
        which in 0..LOGS.len(),
        // No edit in about a third of the cases: the valid path.
        edits in prop::collection::vec(edit(), 0..4),
        crlf in any::<bool>(),
        bom in any::<bool>(),
        final_newline in any::<bool>(),
        sizes in prop::collection::vec(1usize..200, 1..6),
        kind in prop_oneof![Just(None), Just(Some(&mplp_check::MAP_LOG)), Just(Some(&mplp_check::SA_LOG))],
        canonical in any::<bool>(),
        partial in any::<bool>(),
        stop in prop_oneof![Just(None), (1usize..4).prop_map(Some)],
    ) {
        let bytes = edited(LOGS[which], &edits, crlf, bom, final_newline);
        let options = Options::default()
            .profile(if canonical { Profile::Canonical } else { Profile::Strict })
            .partial(partial);
        let (want, want_checked) = pulled(kind, &bytes, &options, stop);
        let (got, got_checked) = pushed(kind, &bytes, &sizes, &options, stop);
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(got_checked, want_checked);
        prop_assert_eq!(got.kinds.len(), 1);
    }
}

#[test]
fn the_valid_logs_are_valid_in_any_chunks_and_a_document_kind_is_refused() {
    for log in LOGS {
        for size in [1, 2, 7, 64, 4096] {
            let (heard, checked) = pushed(None, log.as_bytes(), &[size], &Options::default(), None);
            assert!(heard.violations.is_empty(), "{:?}", heard.violations);
            assert!(!checked.stopped && !checked.unreadable);
            assert!(checked.kind.is_some_and(DocKind::is_log));
        }
    }
    let err = LogStream::new(
        Some(&mplp_check::PLAN),
        &Options::default(),
        Heard::default(),
    )
    .unwrap_err();
    assert_eq!(err.0, "plan");
    assert!(err.to_string().contains("map-log"), "{err}");
}

#[test]
fn an_empty_log_and_a_lone_mark() {
    for bytes in [&b""[..], b"\xEF\xBB", b"\xEF\xBB\xBF", b"\n \n"] {
        let (want, want_checked) = pulled(None, bytes, &Options::default(), None);
        for size in [1, 2, 3] {
            let (got, got_checked) = pushed(None, bytes, &[size], &Options::default(), None);
            assert_eq!(got, want, "{bytes:?} in chunks of {size}");
            assert_eq!(got_checked, want_checked);
        }
    }
}

#[test]
fn a_first_line_longer_than_the_line_limit_is_not_kept_whole() {
    // 17 MiB of a line, then an SA event: the stream decides at the limit
    // (a cut line is read as a MAP log's) and refuses the line.
    let mut bytes = vec![b'x'; 17 << 20];
    bytes.push(b'\n');
    let mut stream = LogStream::new(None, &Options::default(), Heard::default()).unwrap();
    for chunk in bytes.chunks(1 << 20) {
        let _ = stream.push(chunk);
    }
    assert_eq!(stream.kind(), Some(&mplp_check::MAP_LOG));
    let (heard, _) = stream.finish();
    assert_eq!(heard.violations[0].1, "log_line_too_long");
}
