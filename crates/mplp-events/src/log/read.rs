//! Reading NDJSON logs: line splitting without copies, and typed parsing of
//! each line with every violation of a bad line.

use std::io::{self, BufRead};
use std::marker::PhantomData;
use std::ops::ControlFlow;

use mplp_core::document::{from_slice_unchecked, thorough};
use mplp_core::{Document, Report, Violation};

use crate::rules::{LOG_LINE_TOO_LONG, LOG_READ_ERROR};

/// What [`for_each_line`] hands over for one non-blank line.
pub(crate) enum Line<'a> {
    /// The line's bytes (without the newline).
    Bytes(&'a [u8]),
    /// The line is longer than the limit: its bytes were skipped, and this
    /// violation (rule [`LOG_LINE_TOO_LONG`]) says so.
    Refused(Violation),
}

/// Calls `f(line_number, line)` for every non-blank line. Lines that lie
/// whole in the reader's buffer are handed over in place (no copy); only a
/// line cut by the buffer's end is gathered in a side buffer, which never
/// grows past `max_line_bytes`: a longer line is skipped up to its newline
/// and handed over as [`Line::Refused`]. So memory stays bounded whatever
/// the input (an endless line included). An I/O error is pushed to `report`
/// and ends the reading; so does `f` returning `Break`.
pub(crate) fn for_each_line<F: FnMut(u64, Line<'_>) -> ControlFlow<()>>(
    mut reader: impl BufRead,
    max_line_bytes: usize,
    report: &mut Report,
    mut f: F,
) {
    let mut carry: Vec<u8> = Vec::new();
    // Bytes of the line being skipped because it is too long (0: none).
    let mut skipped: u64 = 0;
    let mut line = 0u64;
    let emit = |f: &mut F, line: u64, bytes: &[u8]| -> ControlFlow<()> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            ControlFlow::Continue(())
        } else if bytes.len() > max_line_bytes {
            f(
                line,
                Line::Refused(too_long(line, bytes.len() as u64, max_line_bytes)),
            )
        } else {
            f(line, Line::Bytes(bytes))
        }
    };
    loop {
        let avail = match reader.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                report.push(
                    Violation::error("", LOG_READ_ERROR, format!("cannot read the log: {e}"))
                        .at_line(line + 1),
                );
                return;
            }
        };
        if avail.is_empty() {
            if skipped > 0 {
                line += 1;
                let _ = f(line, Line::Refused(too_long(line, skipped, max_line_bytes)));
            } else if !carry.is_empty() {
                line += 1;
                let _ = emit(&mut f, line, &carry);
            }
            return;
        }
        let len = avail.len();
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', avail) {
            line += 1;
            let piece = avail.get(start..nl).unwrap_or_default();
            start = nl + 1;
            let flow = if skipped > 0 {
                let total = skipped + piece.len() as u64;
                skipped = 0;
                f(line, Line::Refused(too_long(line, total, max_line_bytes)))
            } else if carry.is_empty() {
                emit(&mut f, line, piece)
            } else {
                carry.extend_from_slice(piece);
                let flow = emit(&mut f, line, &carry);
                carry.clear();
                flow
            };
            if flow.is_break() {
                return;
            }
        }
        let rest = avail.get(start..).unwrap_or_default();
        if skipped > 0 {
            skipped += rest.len() as u64;
        } else if carry.len() + rest.len() > max_line_bytes {
            // Too long to keep: count it, forget its bytes.
            skipped = (carry.len() + rest.len()) as u64;
            carry = Vec::new();
        } else {
            carry.extend_from_slice(rest);
        }
        reader.consume(len);
    }
}

/// The violation of a line of `len` bytes, over the limit.
fn too_long(line: u64, len: u64, max: usize) -> Violation {
    Violation::error(
        "",
        LOG_LINE_TOO_LONG,
        format!(
            "the line is {len} bytes long, more than the limit of {max} bytes for one event; it was skipped"
        ),
    )
    .at_line(line)
}

/// Parses one line as a `T`: the typed fast path, and on failure every
/// violation of the line (with its line number).
#[inline]
pub(crate) fn parse_line<T: Document>(line: u64, bytes: &[u8]) -> Result<T, Vec<Violation>> {
    // The rules-free parse (UTF-8 checked once for the whole line), then the
    // rules once: `T`'s public `Deserialize` would run them a first time.
    let parsed = from_slice_unchecked::<T>(bytes).and_then(|doc| {
        let mut report = Report::new();
        doc.check_rules(&mut report);
        if report.is_valid() {
            Ok(doc)
        } else {
            // What `T`'s `Deserialize` fails with: a rules error, neither
            // syntax nor I/O, so the thorough pass below reports as before.
            Err(<serde_json::Error as serde::de::Error>::custom(
                "a semantic rule is violated",
            ))
        }
    });
    match parsed {
        Ok(doc) => Ok(doc),
        Err(first) => Err(thorough::<T>(bytes, &first)
            .into_iter()
            .map(|v| v.at_line(line))
            .collect()),
    }
}

/// One line of a log read by [`LogReader`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LogEntry<T> {
    /// The 1-based line number.
    pub line: u64,
    /// The event, or every violation of the line (each with `line` set).
    pub event: Result<T, Vec<Violation>>,
}

/// Reads an NDJSON log as a stream of typed events, one buffer reused for
/// every line. Blank lines are skipped; an I/O error ends the stream with one
/// [`LOG_READ_ERROR`] entry.
///
/// ```
/// use mplp_events::log::LogReader;
/// use mplp_events::MapEvent;
/// let text = "{\"event_id\":\"ca7350a9-f7ff-4c29-b07d-de720544a6a0\",\"event_type\":\"MAPConflictResolved\",\"timestamp\":\"2025-12-07T00:00:00Z\",\"session_id\":\"35e68fcd-928b-41d2-b8ee-b6a4232ea2a3\"}\n\nnot json\n";
/// let entries: Vec<_> = LogReader::<_, MapEvent>::new(text.as_bytes()).collect();
/// assert_eq!(entries.len(), 2);
/// assert!(entries[0].event.is_ok());
/// assert_eq!(entries[1].line, 3);
/// assert_eq!(entries[1].event.as_ref().unwrap_err()[0].rule.as_str(), "json-syntax");
/// ```
pub struct LogReader<R, T> {
    reader: R,
    buf: Vec<u8>,
    line: u64,
    done: bool,
    _t: PhantomData<fn() -> T>,
}

impl<R: BufRead, T: Document> LogReader<R, T> {
    /// Reads from `reader`.
    pub fn new(reader: R) -> Self {
        LogReader {
            reader,
            buf: Vec::with_capacity(1024),
            line: 0,
            done: false,
            _t: PhantomData,
        }
    }
}

impl<R: BufRead, T: Document> Iterator for LogReader<R, T> {
    type Item = LogEntry<T>;
    fn next(&mut self) -> Option<LogEntry<T>> {
        while !self.done {
            self.buf.clear();
            match self.reader.read_until(b'\n', &mut self.buf) {
                Ok(0) => self.done = true,
                Ok(_) => {
                    self.line += 1;
                    if self.buf.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    return Some(LogEntry {
                        line: self.line,
                        event: parse_line(self.line, &self.buf),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    self.line += 1;
                    return Some(LogEntry {
                        line: self.line,
                        event: Err(vec![
                            Violation::error(
                                "",
                                LOG_READ_ERROR,
                                format!("cannot read the log: {e}"),
                            )
                            .at_line(self.line),
                        ]),
                    });
                }
            }
        }
        None
    }
}
