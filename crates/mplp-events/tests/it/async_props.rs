//! The async log validation (feature `tokio`) reports exactly what the
//! blocking one reports: same violations, same lines, on valid logs, broken
//! logs, logs with blank and garbage lines, logs read through tiny buffers,
//! and streams that fail mid-way.

use std::io::{self, Read};
use std::pin::Pin;
use std::task::{Context, Poll};

use mplp_core::Report;
use mplp_events::log::async_io::{
    AsyncEventSink, AsyncLogWriter, Blocking, validate_map_log_async, validate_sa_log_async,
};
use mplp_events::log::{LogWriter, MapLogValidator, validate_map_log, validate_sa_log};
use proptest::prelude::*;
use tokio::io::{AsyncRead, BufReader, ReadBuf};

use crate::props::{Op, log_spec, mutate, to_ndjson};

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

/// The report as comparable values (rule, line, pointer, severity, message).
fn flat(report: &Report) -> Vec<String> {
    report
        .violations()
        .iter()
        .map(|v| format!("{v:?}"))
        .collect()
}

/// Garbage lines, blank lines and CRLF ends put into a log at chosen places.
fn noisy(log: &[u8], noise: &[(u8, u8)]) -> Vec<u8> {
    let lines: Vec<&[u8]> = log.split(|b| *b == b'\n').collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        for (at, kind) in noise {
            if *at as usize % (lines.len() + 1) == i {
                out.extend_from_slice(match kind % 4 {
                    0 => b"\n".as_slice(),
                    1 => b"   \t\n",
                    2 => b"not json\n",
                    _ => b"{\"event_type\":\"MAPTurnDispatched\"}\n",
                });
            }
        }
        out.extend_from_slice(line);
        if i + 1 < lines.len() {
            out.push(b'\n');
        }
    }
    out
}

/// A reader that fails after `limit` bytes.
struct Failing<'a> {
    data: &'a [u8],
    limit: usize,
}

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.limit == 0 {
            return Err(io::Error::other("connection reset"));
        }
        let n = buf.len().min(self.limit).min(self.data.len()).min(7);
        if n == 0 {
            return Ok(0);
        }
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.limit -= n;
        Ok(n)
    }
}

/// A blocking reader as an async one (each poll is one blocking read,
/// ready at once): each test reader here serves both sides.
struct AsAsync<R>(R);

impl<R: Read + Unpin> AsyncRead for AsAsync<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let mut tmp = vec![0; buf.remaining()];
        let n = self.get_mut().0.read(&mut tmp)?;
        buf.put_slice(&tmp[..n]);
        Poll::Ready(Ok(()))
    }
}

/// A reader whose every read after the first is first interrupted once
/// (`ErrorKind::Interrupted`, which a reader retries).
struct Interrupting<R> {
    inner: R,
    interrupt: bool,
}

impl<R: Read> Read for Interrupting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(io::ErrorKind::Interrupted.into());
        }
        self.inner.read(buf)
    }
}

/// What `for_each_line` should hand over for the first `limit` bytes of
/// `log` (a read error after them when `limit < log.len()`): the non-blank
/// complete lines with their numbers (the last line too when the input
/// ends without a newline), and the line of the read error.
fn lines_model(log: &[u8], limit: usize) -> (Vec<(u64, Vec<u8>)>, Option<u64>) {
    let read = &log[..limit.min(log.len())];
    let failed = limit < log.len();
    let mut pieces: Vec<&[u8]> = read.split(|b| *b == b'\n').collect();
    // The piece after the last newline: a cut line (dropped) or the end.
    let rest = pieces.pop().unwrap_or_default();
    let ended = pieces.len() as u64;
    if !failed && !rest.is_empty() {
        pieces.push(rest);
    }
    let lines = (1u64..)
        .zip(pieces)
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .map(|(n, l)| (n, l.to_vec()))
        .collect();
    (lines, failed.then_some(ended + 1))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn async_and_sync_validation_agree(
        events in log_spec(),
        pick in any::<prop::sample::Index>(),
        op in 0..4u8,
        noise in prop::collection::vec((any::<u8>(), any::<u8>()), 0..4),
        capacity in 1usize..64,
        trailing_newline in any::<bool>(),
    ) {
        let events = match op {
            0..=2 => {
                let mandatory: Vec<usize> = (0..events.len()).filter(|i| events[*i].event_type().is_mandatory()).collect();
                mutate(&events, mandatory[pick.index(mandatory.len())], [Op::Delete, Op::Duplicate, Op::Move][op as usize]).0
            }
            _ => events,
        };
        let mut log = noisy(&to_ndjson(&events), &noise);
        if !trailing_newline {
            while log.last() == Some(&b'\n') {
                log.pop();
            }
        }
        let sync = validate_map_log(&log[..]);
        let reader = BufReader::with_capacity(capacity, &log[..]);
        let asynchronous = block_on(validate_map_log_async(reader));
        prop_assert_eq!(flat(&sync), flat(&asynchronous));
        // The SA validator reads the same lines (and refuses them as SA events) alike.
        prop_assert_eq!(flat(&validate_sa_log(&log[..])), flat(&block_on(validate_sa_log_async(&log[..]))));
    }

    #[test]
    fn a_failing_stream_is_reported_alike(events in log_spec(), cut in any::<prop::sample::Index>()) {
        let log = to_ndjson(&events);
        let limit = cut.index(log.len());
        let sync = validate_map_log(io::BufReader::with_capacity(16, Failing { data: &log, limit }));
        let asynchronous = block_on(validate_map_log_async(BufReader::with_capacity(16, AsAsync(Failing { data: &log, limit }))));
        prop_assert!(sync.errors().any(|v| v.rule.as_str() == "log_read_error"), "{:?}", sync);
        prop_assert_eq!(flat(&sync), flat(&asynchronous));
    }

    /// `for_each_line` and `for_each_line_async` hand over the lines a
    /// model cuts, whatever the buffer sizes, with interrupted reads
    /// retried and a read error reported at the line it cut.
    #[test]
    fn each_line_hands_over_the_lines_the_model_cuts(
        events in log_spec(),
        noise in prop::collection::vec((any::<u8>(), any::<u8>()), 0..4),
        cut in any::<prop::sample::Index>(),
        fail in any::<bool>(),
        capacity in 1usize..64,
    ) {
        let log = noisy(&to_ndjson(&events), &noise);
        let limit = if fail { cut.index(log.len().max(1)) } else { usize::MAX };
        let (lines, error_line) = lines_model(&log, limit);
        let reader = || Interrupting { inner: Failing { data: &log, limit }, interrupt: true };
        let mut report = Report::new();
        let mut seen = Vec::new();
        mplp_events::log::for_each_line(io::BufReader::with_capacity(capacity, reader()), &mut report, |n, l| seen.push((n, l.to_vec())));
        prop_assert_eq!(&seen, &lines);
        let errors: Vec<_> = report.violations().iter().map(|v| (v.rule.as_str(), v.line)).collect();
        prop_assert_eq!(errors, error_line.map(|l| ("log_read_error", Some(l))).into_iter().collect::<Vec<_>>());
        let mut async_report = Report::new();
        let mut async_seen = Vec::new();
        block_on(mplp_events::log::async_io::for_each_line_async(BufReader::with_capacity(capacity, AsAsync(reader())), &mut async_report, |n, l| async_seen.push((n, l.to_vec()))));
        prop_assert_eq!(&async_seen, &lines);
        prop_assert_eq!(flat(&async_report), flat(&report));
    }

    #[test]
    fn async_writer_writes_the_bytes_of_the_blocking_one(events in log_spec()) {
        let bytes = block_on(async {
            let mut w = AsyncLogWriter::new(Vec::new());
            for e in &events {
                w.emit(e).await.unwrap();
            }
            assert_eq!(w.lines(), events.len() as u64);
            w.into_inner()
        });
        prop_assert_eq!(&bytes, &to_ndjson(&events));
        let mut blocking = Blocking(LogWriter::new(Vec::new()));
        let mut validator = MapLogValidator::new();
        block_on(async {
            for e in &events {
                blocking.emit(e).await.unwrap();
                validator.emit(e.clone()).await.unwrap();
            }
        });
        prop_assert_eq!(blocking.0.into_inner(), bytes);
        prop_assert!(validator.finish().is_empty());
    }
}

/// A line over the limit (16 MiB) between two events: skipped up to its
/// newline, not kept, and reported as `log_line_too_long` on its own line,
/// as the blocking reader does; the lines after it keep their numbers.
/// `for_each_line_async` hands over the same lines and reports the same
/// violation.
#[test]
fn an_overlong_line_is_refused_as_the_blocking_reader_refuses_it() {
    let events = [
        mplp_events::MapEvent::session_started(
            mplp_core::CollabId::new(),
            mplp_core::CollabMode::RoundRobin,
            1,
        ),
        mplp_events::MapEvent::session_started(
            mplp_core::CollabId::new(),
            mplp_core::CollabMode::RoundRobin,
            1,
        ),
    ];
    let mut log = to_ndjson(&events[..1]);
    log.extend(std::iter::repeat_n(
        b'x',
        mplp_events::validate::DEFAULT_MAX_LINE_BYTES + 1,
    ));
    log.push(b'\n');
    log.extend(to_ndjson(&events[1..]));
    let sync = validate_map_log(&log[..]);
    let too_long: Vec<_> = sync
        .violations()
        .iter()
        .filter(|v| v.rule.as_str() == "log_line_too_long")
        .map(|v| v.line)
        .collect();
    assert_eq!(too_long, [Some(2)], "{sync:?}");
    for capacity in [7, 8192, 1 << 20] {
        let asynchronous = block_on(validate_map_log_async(BufReader::with_capacity(
            capacity,
            &log[..],
        )));
        assert_eq!(flat(&sync), flat(&asynchronous), "buffer of {capacity}");
    }
    let mut report = Report::new();
    let mut seen = Vec::new();
    block_on(mplp_events::log::async_io::for_each_line_async(
        BufReader::with_capacity(4096, &log[..]),
        &mut report,
        |line, bytes| seen.push((line, bytes.len())),
    ));
    let lens: Vec<usize> = to_ndjson(&events)
        .split(|b| *b == b'\n')
        .map(<[u8]>::len)
        .take(2)
        .collect();
    assert_eq!(seen, [(1, lens[0]), (3, lens[1])]);
    let rules: Vec<_> = report
        .violations()
        .iter()
        .map(|v| (v.rule.as_str(), v.line))
        .collect();
    assert_eq!(rules, [("log_line_too_long", Some(2))]);
}
