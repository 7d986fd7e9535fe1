//! Async event logs (feature `tokio`): the async sink trait, an async NDJSON
//! writer, and validation of a log read from an [`AsyncBufRead`] stream (a
//! socket, a pipe, a file being written).
//!
//! Everything here gives the same results as its blocking counterpart in
//! [`log`](crate::log): the same lines are skipped, the same violations are
//! reported with the same line numbers (a property test compares them).
//!
//! ```
//! use mplp_core::{CollabId, CollabMode};
//! use mplp_events::log::async_io::{validate_map_log_async, AsyncEventSink, AsyncLogWriter};
//! use mplp_events::map::RoleAssignment;
//! use mplp_events::MapEvent;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let s = CollabId::new();
//! let mut log = AsyncLogWriter::new(Vec::new());
//! log.emit(MapEvent::session_started(s, CollabMode::RoundRobin, 1)).await?;
//! log.emit(MapEvent::roles_assigned(s, vec![RoleAssignment::new("p1".into(), "coder".into())])).await?;
//! log.emit(MapEvent::session_completed(s, "completed", 0)).await?;
//! let bytes = log.into_inner();
//! let report = validate_map_log_async(&bytes[..]).await;
//! assert!(report.is_empty(), "{report:?}");
//! // Cut after the first line: the session never completes.
//! let cut = bytes.iter().position(|b| *b == b'\n').unwrap() + 1;
//! let report = validate_map_log_async(&bytes[..cut]).await;
//! assert!(report.errors().any(|v| v.rule.as_str() == "map_session_completed_last"));
//! # Ok::<(), std::io::Error>(()) }).unwrap();
//! ```

use std::future::Future;
use std::io;

use serde::Serialize;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};

use mplp_core::Report;

use crate::log::EventSink;
use crate::log::read::EachLine;
use crate::validate::{
    Gathered, LineValidator, LogOptions, MapLogValidator, SaLogValidator, stream_log_async,
};

/// Where an async runtime sends the events it emits: the async twin of
/// [`EventSink`]. Implemented by `Vec<E>`, `&mut S`, the validators
/// ([`MapLogValidator`], [`SaLogValidator`]: check as you go), the NDJSON
/// [`AsyncLogWriter`], by [`Blocking`] around any blocking sink, and by
/// the collab runtime's `MemorySink` and `NullSink`; sinks that do I/O (a
/// broker client) implement it directly.
///
/// The returned future is not required to be `Send`; a sink whose futures
/// are `Send` (all of this crate's are, for `Send` events and writers) can
/// be driven from a spawned task.
pub trait AsyncEventSink<E> {
    /// Takes one event. An error stops the producer's current operation.
    fn emit(&mut self, event: E) -> impl Future<Output = io::Result<()>>;
}

impl<E, S: AsyncEventSink<E> + ?Sized> AsyncEventSink<E> for &mut S {
    fn emit(&mut self, event: E) -> impl Future<Output = io::Result<()>> {
        (**self).emit(event)
    }
}

impl<E> AsyncEventSink<E> for Vec<E> {
    fn emit(&mut self, event: E) -> impl Future<Output = io::Result<()>> {
        std::future::ready(EventSink::emit(self, event))
    }
}

impl<E> AsyncEventSink<E> for super::NullSink {
    fn emit(&mut self, event: E) -> impl Future<Output = io::Result<()>> {
        std::future::ready(EventSink::emit(self, event))
    }
}

impl AsyncEventSink<crate::MapEvent> for MapLogValidator {
    fn emit(&mut self, event: crate::MapEvent) -> impl Future<Output = io::Result<()>> {
        std::future::ready(EventSink::emit(self, event))
    }
}

impl AsyncEventSink<crate::SaEvent> for SaLogValidator {
    fn emit(&mut self, event: crate::SaEvent) -> impl Future<Output = io::Result<()>> {
        std::future::ready(EventSink::emit(self, event))
    }
}

/// A blocking [`EventSink`] used as an [`AsyncEventSink`]: each `emit`
/// runs the blocking one and completes at once. Fine for sinks that do not
/// wait (memory, validators); a sink that blocks on I/O stalls the task.
///
/// ```
/// use mplp_events::log::async_io::{AsyncEventSink, Blocking};
/// use mplp_events::log::LogWriter;
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut sink = Blocking(LogWriter::new(Vec::new()));
/// sink.emit(serde_json::json!({"n": 1})).await?;
/// assert_eq!(sink.0.into_inner(), b"{\"n\":1}\n");
/// # Ok::<(), std::io::Error>(()) }).unwrap();
/// ```
#[derive(Clone, Debug, Default)]
pub struct Blocking<S>(pub S);

impl<E, S: EventSink<E>> AsyncEventSink<E> for Blocking<S> {
    fn emit(&mut self, event: E) -> impl Future<Output = io::Result<()>> {
        std::future::ready(self.0.emit(event))
    }
}

/// Writes events as NDJSON to an [`AsyncWrite`] (compact JSON, one event per
/// line, exactly the bytes [`LogWriter`](crate::log::LogWriter) writes).
///
/// Each event is serialised into a reused buffer and written with one
/// `write_all`; call [`flush`](Self::flush) before dropping a buffered writer.
#[derive(Debug)]
pub struct AsyncLogWriter<W> {
    out: W,
    buf: Vec<u8>,
    lines: u64,
}

impl<W: AsyncWrite + Unpin> AsyncLogWriter<W> {
    /// Writes to `out`.
    pub fn new(out: W) -> Self {
        AsyncLogWriter {
            out,
            buf: Vec::with_capacity(512),
            lines: 0,
        }
    }

    /// Writes one event as one line.
    pub async fn write<E: Serialize + ?Sized>(&mut self, event: &E) -> io::Result<()> {
        self.buf.clear();
        serde_json::to_writer(&mut self.buf, event)?;
        self.buf.push(b'\n');
        self.out.write_all(&self.buf).await?;
        self.lines += 1;
        Ok(())
    }

    /// Lines written so far.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Flushes the underlying writer.
    pub async fn flush(&mut self) -> io::Result<()> {
        self.out.flush().await
    }

    /// Gives the writer back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<E: Serialize, W: AsyncWrite + Unpin> AsyncEventSink<E> for AsyncLogWriter<W> {
    async fn emit(&mut self, event: E) -> io::Result<()> {
        self.write(&event).await
    }
}

/// Calls `f(line_number, bytes)` for every non-blank line of `reader`, with
/// the line numbering of the blocking reader (1-based, blank lines counted
/// but skipped). A line longer than
/// [`DEFAULT_MAX_LINE_BYTES`](crate::validate::DEFAULT_MAX_LINE_BYTES) is
/// skipped up to its newline without being kept, and its
/// [`LOG_LINE_TOO_LONG`](crate::rules::LOG_LINE_TOO_LONG) violation goes
/// into `report`: memory stays bounded whatever the input. An I/O error is
/// reported in `report` and ends the reading: the async twin of
/// [`for_each_line`](crate::log::for_each_line).
pub async fn for_each_line_async<R: AsyncBufRead + Unpin>(
    mut reader: R,
    report: &mut Report,
    mut f: impl FnMut(u64, &[u8]),
) {
    let mut lines = EachLine::new();
    loop {
        let avail = match reader.fill_buf().await {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return lines.fail(&e, report),
        };
        if avail.is_empty() {
            return lines.end(report, &mut f);
        }
        let len = avail.len();
        lines.chunk(avail, report, &mut f);
        reader.consume(len);
    }
}

/// Validates a log read from an async stream with the blocking functions'
/// driver and options, into their report (sorted by line, a read error
/// last).
async fn validate_log_async<V: LineValidator, R: AsyncBufRead + Unpin>(
    reader: R,
    validator: impl FnOnce(&LogOptions) -> V,
) -> Report {
    let options = LogOptions::default();
    let mut gathered = Gathered::default();
    let _ = stream_log_async(reader, options.max_line(), validator(&options), |v| {
        gathered.on(v)
    })
    .await;
    gathered.report()
}

/// Validates a MAP event log (NDJSON) read from an async stream: the async
/// twin of [`validate_map_log`](crate::log::validate_map_log), with the same
/// report. Memory stays bounded as in the blocking validator.
pub async fn validate_map_log_async<R: AsyncBufRead + Unpin>(reader: R) -> Report {
    validate_log_async(reader, |o| MapLogValidator::new().with_options(o)).await
}

/// Validates an SA event log (NDJSON) read from an async stream: the async
/// twin of [`validate_sa_log`](crate::log::validate_sa_log), with the same
/// report.
pub async fn validate_sa_log_async<R: AsyncBufRead + Unpin>(reader: R) -> Report {
    validate_log_async(reader, |o| SaLogValidator::new().with_options(o)).await
}
