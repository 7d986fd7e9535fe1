//! Reading NDJSON logs: line splitting without copies, and typed parsing of
//! each line with every violation of a bad line.

use std::io::{self, BufRead};
use std::marker::PhantomData;
use std::ops::ControlFlow;

use mplp_core::document::{from_slice_unchecked, thorough, with_slice_unchecked};
use mplp_core::{Document, Report, Violation};

use crate::rules::{LOG_LINE_TOO_LONG, LOG_READ_ERROR};

/// What a [`Splitter`] hands over for one non-blank line.
pub(crate) enum Line<'a> {
    /// The line's bytes (without the newline).
    Bytes(&'a [u8]),
    /// The line is longer than the limit: its bytes were skipped, and this
    /// violation (rule [`LOG_LINE_TOO_LONG`]) says so.
    Refused(Violation),
}

/// Cuts a log into lines as its bytes come, in chunks of any size (a
/// reader's buffers, or the chunks pushed into a
/// [`LogFeed`](crate::log::LogFeed)). Lines that lie whole in a chunk are
/// handed over in place (no copy); only a line cut by a chunk's end is
/// gathered in a side buffer, which never grows past `max_line_bytes`: a
/// longer line is skipped up to its newline and handed over as
/// [`Line::Refused`]. So memory stays bounded whatever the input (an
/// endless line included).
#[derive(Debug)]
pub(crate) struct Splitter {
    /// The start of a line cut by a chunk's end (at most `max` bytes).
    carry: Vec<u8>,
    /// Bytes of the line being skipped because it is too long (0: none).
    skipped: u64,
    /// Lines ended so far.
    line: u64,
    max: usize,
}

impl Splitter {
    pub(crate) fn new(max_line_bytes: usize) -> Self {
        Splitter {
            carry: Vec::new(),
            skipped: 0,
            line: 0,
            max: max_line_bytes,
        }
    }

    /// The number of lines ended so far (blank ones included).
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    fn emit<F: FnMut(u64, Line<'_>) -> ControlFlow<()>>(
        max: usize,
        f: &mut F,
        line: u64,
        bytes: &[u8],
    ) -> ControlFlow<()> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            ControlFlow::Continue(())
        } else if bytes.len() > max {
            f(line, Line::Refused(too_long(line, bytes.len() as u64, max)))
        } else {
            f(line, Line::Bytes(bytes))
        }
    }

    /// Hands every line that `avail` ends to `f` (in place when it lies
    /// whole in `avail`) and keeps the start of the last one; `Break` as
    /// soon as `f` breaks (the rest of `avail` is then not looked at).
    pub(crate) fn chunk<F: FnMut(u64, Line<'_>) -> ControlFlow<()>>(
        &mut self,
        avail: &[u8],
        f: &mut F,
    ) -> ControlFlow<()> {
        let max = self.max;
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', avail) {
            self.line += 1;
            let line = self.line;
            let piece = avail.get(start..nl).unwrap_or_default();
            start = nl + 1;
            if self.skipped > 0 {
                let total = self.skipped + piece.len() as u64;
                self.skipped = 0;
                f(line, Line::Refused(too_long(line, total, max)))?;
            } else if self.carry.is_empty() {
                Self::emit(max, f, line, piece)?;
            } else {
                self.carry.extend_from_slice(piece);
                let flow = Self::emit(max, f, line, &self.carry);
                self.carry.clear();
                flow?;
            }
        }
        let rest = avail.get(start..).unwrap_or_default();
        if self.skipped > 0 {
            self.skipped += rest.len() as u64;
        } else if self.carry.len() + rest.len() > max {
            // Too long to keep: count it, forget its bytes.
            self.skipped = (self.carry.len() + rest.len()) as u64;
            self.carry = Vec::new();
        } else {
            self.carry.extend_from_slice(rest);
        }
        ControlFlow::Continue(())
    }

    /// The end of the input: the last line, when it has no newline.
    pub(crate) fn end<F: FnMut(u64, Line<'_>) -> ControlFlow<()>>(
        &mut self,
        f: &mut F,
    ) -> ControlFlow<()> {
        if self.skipped > 0 {
            self.line += 1;
            let total = std::mem::take(&mut self.skipped);
            f(
                self.line,
                Line::Refused(too_long(self.line, total, self.max)),
            )
        } else if !self.carry.is_empty() {
            self.line += 1;
            let carry = std::mem::take(&mut self.carry);
            Self::emit(self.max, f, self.line, &carry)
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Hands the non-blank lines of a log to `f`, chunk by chunk, with the
/// blocking reader's numbering and line limit; a line over the limit and a
/// read error go into a report. The loop body of [`for_each_line`] and of
/// its async twin (`async_io::for_each_line_async`), which differ only in
/// how they wait for the next chunk.
pub(crate) struct EachLine {
    lines: Splitter,
}

impl EachLine {
    pub(crate) fn new() -> Self {
        EachLine {
            lines: Splitter::new(crate::validate::DEFAULT_MAX_LINE_BYTES),
        }
    }

    fn hand(report: &mut Report, f: &mut impl FnMut(u64, &[u8]), line: u64, bytes: Line<'_>) {
        match bytes {
            Line::Bytes(bytes) => f(line, bytes),
            Line::Refused(v) => report.push(v),
        }
    }

    /// The lines `avail` ends.
    pub(crate) fn chunk(
        &mut self,
        avail: &[u8],
        report: &mut Report,
        f: &mut impl FnMut(u64, &[u8]),
    ) {
        let _ = self.lines.chunk(avail, &mut |line, bytes| {
            Self::hand(report, f, line, bytes);
            ControlFlow::Continue(())
        });
    }

    /// The end of the input: its last line, when it has no newline.
    pub(crate) fn end(mut self, report: &mut Report, f: &mut impl FnMut(u64, &[u8])) {
        let _ = self.lines.end(&mut |line, bytes| {
            Self::hand(report, f, line, bytes);
            ControlFlow::Continue(())
        });
    }

    /// The reading failed with `e`: a [`LOG_READ_ERROR`] at the line after
    /// the last one ended (the line the error cut is not handed over).
    pub(crate) fn fail(self, e: &io::Error, report: &mut Report) {
        report.push(
            Violation::error("", LOG_READ_ERROR, format!("cannot read the log: {e}"))
                .at_line(self.lines.line() + 1),
        );
    }
}

/// Calls `f(line_number, bytes)` for every non-blank line of `reader`, with
/// the numbering of [`LogReader`] and the validators (1-based, blank lines
/// counted but skipped). A line longer than
/// [`DEFAULT_MAX_LINE_BYTES`](crate::validate::DEFAULT_MAX_LINE_BYTES) is
/// skipped up to its newline without being kept, and its
/// [`LOG_LINE_TOO_LONG`] violation goes into `report`, so memory stays
/// bounded whatever the input; the bytes handed over need not be UTF-8. An
/// I/O error is reported in `report` ([`LOG_READ_ERROR`]) and ends the
/// reading. Lines that lie whole in the reader's buffer are handed over in
/// place (no copy).
///
/// ```
/// use mplp_core::Report;
/// let mut report = Report::new();
/// let mut lines = Vec::new();
/// mplp_events::log::for_each_line(&b"{}\n\n  \n[1]"[..], &mut report, |n, bytes| {
///     lines.push((n, bytes.to_vec()));
/// });
/// assert_eq!(lines, [(1, b"{}".to_vec()), (4, b"[1]".to_vec())]);
/// assert!(report.is_empty());
/// ```
pub fn for_each_line(mut reader: impl BufRead, report: &mut Report, mut f: impl FnMut(u64, &[u8])) {
    let mut lines = EachLine::new();
    loop {
        let avail = match reader.fill_buf() {
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

/// The violation of a line of `len` bytes, over the limit.
fn too_long(line: u64, len: u64, max: usize) -> Violation {
    Violation::error(
        "",
        LOG_LINE_TOO_LONG,
        format!(
            "the line is {len} bytes long, more than the limit of {} for one event; it was skipped",
            mplp_core::text::count(max, "byte")
        ),
    )
    .at_line(line)
}

/// Parses one line as a `T`: the typed fast path, and on failure every
/// violation of the line (with its line number).
#[inline]
pub(crate) fn parse_line<T: Document>(line: u64, bytes: &[u8]) -> Result<T, Vec<Violation>> {
    let first = match from_slice_unchecked::<T>(bytes) {
        Ok(doc) => match rules_error(&doc) {
            None => return Ok(doc),
            Some(rules) => rules,
        },
        Err(e) => e,
    };
    Err(violations::<T>(line, bytes, &first))
}

/// [`parse_line`], lending the parsed `T` to `f` where it was parsed: a
/// large event (a `MapEvent` is some 400 bytes) is then not copied through
/// `Result`s on its way to the validator. `Ok(f(&doc))` when the line
/// parses and keeps its rules, else every violation of the line (`f` is not
/// called).
#[inline]
pub(crate) fn with_parsed_line<T: Document, R>(
    line: u64,
    bytes: &[u8],
    f: impl FnOnce(&T) -> R,
) -> Result<R, Vec<Violation>> {
    let first = match with_slice_unchecked(bytes, |doc: &T| match rules_error(doc) {
        None => Ok(f(doc)),
        Some(rules) => Err(rules),
    }) {
        Ok(Ok(out)) => return Ok(out),
        Ok(Err(rules)) => rules,
        Err(e) => e,
    };
    Err(violations::<T>(line, bytes, &first))
}

/// The rules of a document parsed without them (the rules-free parse checks
/// UTF-8 once for the whole line, then the rules run once: `T`'s public
/// `Deserialize` would run them a first time): `None` when they hold, else
/// what `T`'s `Deserialize` fails with, a rules error (neither syntax nor
/// I/O), so that the thorough pass reports as `Deserialize` would.
#[inline]
fn rules_error<T: Document>(doc: &T) -> Option<serde_json::Error> {
    let mut report = Report::new();
    doc.check_rules(&mut report);
    (!report.is_valid())
        .then(|| <serde_json::Error as serde::de::Error>::custom("a semantic rule is violated"))
}

/// Every violation of a line that failed the fast path with `first`, each
/// with the line number.
#[cold]
fn violations<T: Document>(line: u64, bytes: &[u8], first: &serde_json::Error) -> Vec<Violation> {
    thorough::<T>(bytes, first)
        .into_iter()
        .map(|v| v.at_line(line))
        .collect()
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
/// [`LOG_READ_ERROR`] entry. A line longer than the limit
/// ([`DEFAULT_MAX_LINE_BYTES`](crate::validate::DEFAULT_MAX_LINE_BYTES)
/// unless [`LogReader::max_line_bytes`] says otherwise) is skipped up to its
/// newline without being kept, and read as one [`LOG_LINE_TOO_LONG`] entry:
/// memory stays bounded by the limit whatever the input.
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
///
/// let long: Vec<_> = LogReader::<_, MapEvent>::new(text.as_bytes()).max_line_bytes(100).collect();
/// assert_eq!(long[0].event.as_ref().unwrap_err()[0].rule.as_str(), "log_line_too_long");
/// ```
pub struct LogReader<R, T> {
    reader: R,
    buf: Vec<u8>,
    line: u64,
    max_line_bytes: usize,
    done: bool,
    _t: PhantomData<fn() -> T>,
}

impl<R: BufRead, T: Document> LogReader<R, T> {
    /// Reads from `reader`, with lines of at most
    /// [`DEFAULT_MAX_LINE_BYTES`](crate::validate::DEFAULT_MAX_LINE_BYTES).
    pub fn new(reader: R) -> Self {
        LogReader {
            reader,
            buf: Vec::with_capacity(1024),
            line: 0,
            max_line_bytes: crate::validate::DEFAULT_MAX_LINE_BYTES,
            done: false,
            _t: PhantomData,
        }
    }

    /// The longest line kept, in bytes without its newline (at least 1); a
    /// longer one is read as a [`LOG_LINE_TOO_LONG`] entry.
    #[must_use]
    pub fn max_line_bytes(mut self, bytes: usize) -> Self {
        self.max_line_bytes = bytes.max(1);
        self
    }

    /// Reads the next line into `buf` (with its newline, if any), keeping at
    /// most `max_line_bytes` of it: `Ok(None)` at the end of the input,
    /// `Ok(Some(n))` where `n` counts the bytes of an over-long line (the
    /// buffer is then empty), `Ok(Some(0))` for a line that was kept.
    fn read_line(&mut self) -> io::Result<Option<u64>> {
        self.buf.clear();
        let mut skipped: u64 = 0;
        let mut read_any = false;
        loop {
            let (used, found) = match self.reader.fill_buf() {
                Ok([]) => break,
                Ok(avail) => {
                    let (used, found) = memchr::memchr(b'\n', avail)
                        .map_or((avail.len(), false), |i| (i + 1, true));
                    let piece = avail.get(..used).unwrap_or_default();
                    let content = piece.len() - usize::from(found);
                    if skipped == 0 && self.buf.len() + content <= self.max_line_bytes {
                        self.buf.extend_from_slice(piece);
                    } else {
                        if skipped == 0 {
                            skipped = self.buf.len() as u64;
                            self.buf = Vec::with_capacity(1024);
                        }
                        skipped += content as u64;
                    }
                    (used, found)
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            read_any = true;
            self.reader.consume(used);
            if found {
                break;
            }
        }
        Ok(read_any.then_some(skipped))
    }
}

impl<R: BufRead, T: Document> Iterator for LogReader<R, T> {
    type Item = LogEntry<T>;
    fn next(&mut self) -> Option<LogEntry<T>> {
        while !self.done {
            match self.read_line() {
                Ok(None) => self.done = true,
                Ok(Some(skipped)) => {
                    self.line += 1;
                    let event = if skipped > 0 {
                        Err(vec![too_long(self.line, skipped, self.max_line_bytes)])
                    } else if self.buf.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    } else {
                        let text = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
                        parse_line(self.line, text)
                    };
                    return Some(LogEntry {
                        line: self.line,
                        event,
                    });
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MapEvent;
    use proptest::prelude::*;
    use std::io::Read;

    const EVENT: &str = r#"{"event_id":"ca7350a9-f7ff-4c29-b07d-de720544a6a0","event_type":"MAPConflictResolved","timestamp":"2025-12-07T00:00:00Z","session_id":"35e68fcd-928b-41d2-b8ee-b6a4232ea2a3"}"#;

    /// What the reader must say of one line, by a model written without
    /// buffers: blank lines are skipped, over-long lines are refused with
    /// their exact length, the rest parse as `parse_line` says.
    fn model(lines: &[String], max: usize) -> Vec<(u64, Result<MapEvent, Vec<Violation>>)> {
        let mut out = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let n = i as u64 + 1;
            if l.len() > max {
                out.push((n, Err(vec![too_long(n, l.len() as u64, max)])));
            } else if !l.bytes().all(|b| b.is_ascii_whitespace()) {
                out.push((n, parse_line::<MapEvent>(n, l.as_bytes())));
            }
        }
        out
    }

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => Just(EVENT.to_string()),
            1 => Just(String::new()),
            1 => Just("  \t".to_string()),
            1 => "[a-z{}\":, ]{0,40}",
            1 => (1usize..400).prop_map(|n| format!("{{\"pad\":\"{}\"}}", "x".repeat(n))),
        ]
    }

    proptest! {
        #[test]
        fn the_reader_agrees_with_the_model_whatever_the_buffer_and_limit(
            lines in prop::collection::vec(line(), 0..12),
            capacity in 1usize..64,
            max in prop_oneof![Just(crate::validate::DEFAULT_MAX_LINE_BYTES), 1usize..300],
            final_newline in any::<bool>(),
        ) {
            let mut text = lines.join("\n");
            if final_newline && !lines.is_empty() {
                text.push('\n');
            }
            // Without a final newline the last line still counts; an empty
            // last piece after a final newline is no line.
            let reader = io::BufReader::with_capacity(capacity, text.as_bytes());
            let got: Vec<_> = LogReader::<_, MapEvent>::new(reader)
                .max_line_bytes(max)
                .map(|e| (e.line, e.event))
                .collect();
            prop_assert_eq!(got, model(&lines, max));
        }
    }

    #[test]
    fn an_endless_line_is_refused_in_bounded_memory() {
        // 64 MiB of one line, over a 1 KiB limit: the buffer never holds it.
        let endless = io::repeat(b'x').take(64 << 20);
        let tail = io::Cursor::new(format!("\n{EVENT}\n"));
        let mut reader = LogReader::<_, MapEvent>::new(io::BufReader::new(endless.chain(tail)))
            .max_line_bytes(1024);
        let first = reader.next().unwrap();
        assert_eq!(first.line, 1);
        let v = first.event.unwrap_err();
        assert_eq!(v[0].rule, LOG_LINE_TOO_LONG);
        assert!(v[0].message.contains("67108864 bytes"), "{}", v[0].message);
        assert!(reader.buf.capacity() <= 4096, "{}", reader.buf.capacity());
        let second = reader.next().unwrap();
        assert_eq!(second.line, 2);
        assert!(second.event.is_ok());
        assert!(reader.next().is_none());
    }
}
