//! Tests added for mutants of `log/read.rs`, `log/write.rs`, `validate.rs`,
//! `validate/map.rs` and `validate/sa.rs` that the other tests let live:
//! the line limit at its exact boundary (whole and cut by the reader's
//! buffer), the byte count of a refused line, a log of refused lines only,
//! violations streamed as they are found, the writer's line count and
//! flush, and the line a second start names.

use std::io::{self, BufReader, Write};
use std::ops::ControlFlow;

use mplp_core::{CollabId, CollabMode, Report};
use mplp_events::log::{
    EventSink, LogOptions, LogWriter, MapLogValidator, SaLogValidator, stream_map_log,
    stream_sa_log, validate_map_log, validate_map_log_with, validate_sa_log,
};
use mplp_events::map::RoleAssignment;
use mplp_events::{MapEvent, SaEvent, SaId};

fn found(r: &Report) -> Vec<(u64, &'static str)> {
    r.violations()
        .iter()
        .map(|v| (v.line.unwrap_or(0), v.rule.as_str()))
        .collect()
}

/// One valid session, one event per line (with its newline).
fn session_lines() -> Vec<Vec<u8>> {
    let s = CollabId::new();
    let events = [
        MapEvent::session_started(s, CollabMode::RoundRobin, 1),
        MapEvent::roles_assigned(s, vec![RoleAssignment::new("p1".into(), "coder".into())]),
        MapEvent::turn_dispatched(s, "coder", 1),
        MapEvent::turn_completed(s, "coder", 1, "completed"),
        MapEvent::session_completed(s, "completed", 1),
    ];
    events
        .iter()
        .map(|e| {
            let mut w = LogWriter::new(Vec::new());
            w.write(e).unwrap();
            w.into_inner()
        })
        .collect()
}

#[test]
fn a_line_of_exactly_the_limit_is_kept_whole_or_cut() {
    let lines = session_lines();
    let text: Vec<u8> = lines.concat();
    // The longest line, without its newline, is the limit.
    let longest = lines.iter().map(|l| l.len() - 1).max().unwrap();
    let options = LogOptions::default().max_line_bytes(longest);
    assert!(validate_map_log_with(&text[..], &options).is_empty());
    for cap in [1, 2, 3, 7, 8, 13, 64, longest - 1, longest, longest + 1] {
        let reader = BufReader::with_capacity(cap, &text[..]);
        let r = validate_map_log_with(reader, &options);
        assert!(r.is_empty(), "buffer of {cap}: {:?}", found(&r));
    }
    // One byte less: the longest lines are refused, whatever the buffer.
    let options = LogOptions::default().max_line_bytes(longest - 1);
    let want: Vec<u64> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.len() - 1 == longest)
        .map(|(i, _)| i as u64 + 1)
        .collect();
    for cap in [1, 8, 64, 1 << 16] {
        let reader = BufReader::with_capacity(cap, &text[..]);
        let r = validate_map_log_with(reader, &options);
        let refused: Vec<u64> = r
            .violations()
            .iter()
            .filter(|v| v.rule.as_str() == "log_line_too_long")
            .map(|v| v.line.unwrap())
            .collect();
        assert_eq!(refused, want, "buffer of {cap}");
        for v in r
            .violations()
            .iter()
            .filter(|v| v.rule.as_str() == "log_line_too_long")
        {
            assert_eq!(
                v.message,
                format!(
                    "the line is {longest} bytes long, more than the limit of {} bytes for one event; it was skipped",
                    longest - 1
                )
            );
        }
    }
}

#[test]
fn a_refused_line_is_counted_to_its_last_byte() {
    // 100 bytes, then the newline, read 30 bytes at a time: the newline
    // comes after 10 more bytes of the line in the fourth read.
    let mut text = vec![b'x'; 100];
    text.extend_from_slice(b"\n");
    for (cap, max) in [(30, 16), (7, 16), (30, 50), (1 << 16, 16)] {
        let options = LogOptions::default().max_line_bytes(max);
        let r = validate_map_log_with(BufReader::with_capacity(cap, &text[..]), &options);
        assert_eq!(found(&r), [(1, "log_line_too_long")], "buffer of {cap}");
        assert_eq!(
            r.violations()[0].message,
            format!(
                "the line is 100 bytes long, more than the limit of {max} bytes for one event; it was skipped"
            ),
            "buffer of {cap}"
        );
    }
}

#[test]
fn a_log_of_refused_lines_is_not_empty() {
    let options = LogOptions::default().max_line_bytes(4);
    for text in [&b"0123456789\n"[..], b"0123456789", b"\n0123456789\n\n"] {
        let r = validate_map_log_with(text, &options);
        let line = if text[0] == b'\n' { 2 } else { 1 };
        assert_eq!(found(&r), [(line, "log_line_too_long")], "{text:?}");
    }
}

#[test]
fn an_unterminated_last_line_has_its_own_number() {
    let r = validate_map_log(&b"nope\n\nnope"[..]);
    assert_eq!(found(&r), [(1, "json-syntax"), (3, "json-syntax")]);
}

#[test]
fn violations_are_streamed_in_the_order_found() {
    // Line 1 starts a session that never completes (found at the end of
    // the log, reported at line 1); line 2 is not JSON (found at once).
    let lines = session_lines();
    let mut text = lines[0].clone();
    text.extend_from_slice(b"nope\n");
    let mut streamed = Vec::new();
    let flow = stream_map_log(&text[..], &LogOptions::default(), |v| {
        streamed.push((v.line.unwrap_or(0), v.rule.as_str()));
        ControlFlow::Continue(())
    });
    assert!(flow.is_continue());
    assert_eq!(
        streamed,
        [(2, "json-syntax"), (1, "map_session_completed_last")]
    );
    // The report sorts them by line.
    assert_eq!(
        found(&validate_map_log(&text[..])),
        [(1, "map_session_completed_last"), (2, "json-syntax")]
    );
    // Stopping at the first: the end of the log is not judged.
    let mut seen = Vec::new();
    let flow = stream_map_log(&text[..], &LogOptions::default(), |v| {
        seen.push(v.line);
        ControlFlow::Break(())
    });
    assert!(flow.is_break());
    assert_eq!(seen, [Some(2)]);
}

#[test]
fn take_violations_hands_over_what_was_found_so_far() {
    let mut v = MapLogValidator::new();
    v.push_line(1, b"nope");
    let taken = v.take_violations();
    assert_eq!(found(&taken), [(1, "json-syntax")]);
    assert!(v.take_violations().is_empty());
    v.push_line(2, &session_lines()[0]);
    // Only what was not taken yet.
    assert_eq!(found(&v.finish()), [(2, "map_session_completed_last")]);
}

/// A writer that records its bytes and counts its flushes.
#[derive(Default)]
struct Recorder {
    bytes: Vec<u8>,
    flushes: usize,
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.flushes += 1;
        Ok(())
    }
}

#[test]
fn the_writer_counts_lines_and_passes_flushes_on() {
    let s = CollabId::new();
    let events = [
        MapEvent::session_started(s, CollabMode::RoundRobin, 1),
        MapEvent::turn_dispatched(s, "coder", 1),
        MapEvent::turn_completed(s, "coder", 1, "completed"),
    ];
    let mut w = LogWriter::new(Recorder::default());
    assert_eq!(w.lines(), 0);
    w.write(&events[0]).unwrap();
    assert_eq!(w.lines(), 1);
    w.emit(events[1].clone()).unwrap();
    w.emit(&events[2]).unwrap();
    assert_eq!(w.lines(), 3);
    assert_eq!(w.into_inner().flushes, 0);
    let mut w = LogWriter::new(Recorder::default());
    w.emit(events[0].clone()).unwrap();
    w.flush().unwrap();
    w.flush().unwrap();
    let out = w.into_inner();
    assert_eq!(out.flushes, 2);
    let mut line = serde_json::to_vec(&events[0]).unwrap();
    line.push(b'\n');
    assert_eq!(out.bytes, line);
}

#[test]
fn sa_violations_are_streamed_in_the_order_found_and_taken_out() {
    let sa = SaId::new();
    let mut text = serde_json::to_vec(&SaEvent::initialized(sa.clone())).unwrap();
    text.extend_from_slice(b"\nnope\n");
    let mut streamed = Vec::new();
    let flow = stream_sa_log(&text[..], &LogOptions::default(), |v| {
        streamed.push((v.line.unwrap_or(0), v.rule.as_str()));
        ControlFlow::Continue(())
    });
    assert!(flow.is_continue());
    assert_eq!(streamed, [(2, "json-syntax"), (1, "sa_completed_last")]);
    assert_eq!(
        found(&validate_sa_log(&text[..])),
        [(1, "sa_completed_last"), (2, "json-syntax")]
    );
    let mut v = SaLogValidator::new();
    v.push_line(1, b"nope");
    assert_eq!(found(&v.take_violations()), [(1, "json-syntax")]);
    assert!(v.take_violations().is_empty());
    v.push_line(2, &text[..text.len() - 6]);
    assert_eq!(found(&v.finish()), [(2, "sa_completed_last")]);
}

fn log_of<T: serde::Serialize>(events: &[T]) -> Vec<u8> {
    let mut w = LogWriter::new(Vec::new());
    for e in events {
        w.write(e).unwrap();
    }
    w.into_inner()
}

/// Asserts that `r` refuses line 3 alone, with `rule`, naming line 2 (the
/// first start).
fn started_again(r: &Report, rule: &str) {
    let again: Vec<_> = r
        .errors()
        .filter(|v| v.line == Some(3))
        .map(|v| (v.rule.as_str(), v.message.clone()))
        .collect();
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].0, rule);
    assert!(again[0].1.contains("(line 2)"), "{}", again[0].1);
}

/// A session started twice is refused with the line of its first start
/// (not line 1: another session's events come first).
#[test]
fn a_second_start_names_the_line_of_the_first() {
    let (other, s) = (CollabId::new(), CollabId::new());
    let log = log_of(&[
        MapEvent::session_started(other, CollabMode::RoundRobin, 1),
        MapEvent::session_started(s, CollabMode::RoundRobin, 1),
        MapEvent::session_started(s, CollabMode::RoundRobin, 1),
    ]);
    started_again(&validate_map_log(&log[..]), "map_session_started_first");

    let (other, run) = (SaId::new(), SaId::new());
    let log = log_of(&[
        SaEvent::initialized(other),
        SaEvent::initialized(run.clone()),
        SaEvent::initialized(run),
    ]);
    started_again(&validate_sa_log(&log[..]), "sa_initialized_first");
}
