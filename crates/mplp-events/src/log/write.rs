//! Writing NDJSON logs, and the one sink trait every event producer writes to.

use std::io::{self, Write};

use serde::Serialize;

/// Where a runtime sends the events it emits: the one sink trait of the SDK
/// (the collab runtime's `mplp_collab::sink::EventSink` is this trait).
///
/// Implemented by [`LogWriter`] (NDJSON), by `Vec<E>` (collect in memory),
/// by [`NullSink`] (drop, counting), by the validators
/// ([`MapLogValidator`](crate::validate::MapLogValidator),
/// [`SaLogValidator`](crate::validate::SaLogValidator): check as you go),
/// by `&mut S` for any sink `S`, and by the collab runtime's `MemorySink`.
pub trait EventSink<E> {
    /// Takes one event. An error stops the producer's current operation.
    fn emit(&mut self, event: E) -> io::Result<()>;
}

impl<E, S: EventSink<E> + ?Sized> EventSink<E> for &mut S {
    fn emit(&mut self, event: E) -> io::Result<()> {
        (**self).emit(event)
    }
}

impl<E> EventSink<E> for Vec<E> {
    fn emit(&mut self, event: E) -> io::Result<()> {
        self.push(event);
        Ok(())
    }
}

/// Drops every event, counting them: for benchmarks, dry runs, and runtimes
/// whose store already keeps the log (the SA runtime's).
///
/// ```
/// use mplp_core::CollabId;
/// use mplp_events::log::{EventSink, NullSink};
/// use mplp_events::MapEvent;
/// let mut sink = NullSink::default();
/// sink.emit(MapEvent::turn_dispatched(CollabId::new(), "coder", 1))?;
/// assert_eq!(sink.count, 1);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NullSink {
    /// How many events were dropped.
    pub count: u64,
}

impl<E> EventSink<E> for NullSink {
    fn emit(&mut self, event: E) -> io::Result<()> {
        drop(event);
        self.count += 1;
        Ok(())
    }
}

/// Writes events as NDJSON: compact JSON, one event per line.
///
/// ```
/// use mplp_core::CollabId;
/// use mplp_events::log::{EventSink, LogWriter};
/// use mplp_events::MapEvent;
/// let mut w = LogWriter::new(Vec::new());
/// w.emit(MapEvent::turn_dispatched(CollabId::new(), "coder", 1))?;
/// assert_eq!(w.lines(), 1);
/// let bytes = w.into_inner();
/// assert!(bytes.ends_with(b"}\n"));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct LogWriter<W: Write> {
    out: W,
    lines: u64,
}

impl<W: Write> LogWriter<W> {
    /// Writes to `out` (wrap files in a `BufWriter`).
    pub fn new(out: W) -> Self {
        LogWriter { out, lines: 0 }
    }

    /// Writes one event and a newline.
    pub fn write<E: Serialize + ?Sized>(&mut self, event: &E) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, event).map_err(io::Error::other)?;
        self.out.write_all(b"\n")?;
        self.lines += 1;
        Ok(())
    }

    /// How many events were written.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The output.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write, E: Serialize> EventSink<E> for LogWriter<W> {
    fn emit(&mut self, event: E) -> io::Result<()> {
        self.write(&event)
    }
}
