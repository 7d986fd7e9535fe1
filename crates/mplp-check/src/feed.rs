//! A log fed chunk by chunk ([`LogStream`]): the log branch of
//! [`validate_source`](crate::validate_source) in push form, for front ends
//! that are handed the bytes rather than a reader to pull them from (the
//! WebAssembly package's `LogValidator`, fed from a browser's
//! `ReadableStream`).
//!
//! It decides what the dispatch decides for [`Source::log`](crate::Source::log),
//! in the same order: a byte-order mark is skipped with the warning
//! `input-bom` (also when it comes in pieces), the log's kind is the one
//! given or the one its first non-blank line tells
//! ([`detect_log`](crate::detect_log)), each line goes to that kind's
//! validator (the row's [`LogFeed`]), and the profile is applied to each
//! violation before the [`Sink`] sees it. So a log gives the same findings,
//! in the same order, however it is cut (a property test holds it to that).
//!
//! One difference, for bounded memory: the dispatch reads a log's whole
//! first line to tell its kind; here the first line is kept up to the
//! log line limit (16 MiB), and a longer one is told from what was kept
//! (so read as a MAP log: a cut line is not JSON). Such a line is refused
//! by either path (`log_line_too_long`).

use std::ops::ControlFlow;

use mplp_events::log::LogFeed;

use crate::dispatch::Profiled;
use crate::kinds::Reader;
use crate::{Checked, DocKind, Options, Sink};

/// A log validated as its bytes are pushed in; its findings go to a
/// [`Sink`] as they are found.
///
/// ```
/// use mplp_check::{LogStream, Options};
/// use mplp_core::Report;
///
/// let log = std::fs::read("../../schemas/examples/valid/sa-log-code-review.ndjson")?;
/// let mut stream = LogStream::new(None, &Options::default(), Report::new()).unwrap();
/// for chunk in log.chunks(7) {
///     let _ = stream.push(chunk);
/// }
/// let (report, checked) = stream.finish();
/// assert_eq!(checked.kind, Some(&mplp_check::SA_LOG));
/// assert!(report.is_valid());
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct LogStream<S: Sink> {
    sink: S,
    options: Options,
    state: State,
    bom: bool,
    bytes: u64,
    checked: Checked,
}

impl<S: Sink> std::fmt::Debug for LogStream<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogStream")
            .field("kind", &self.checked.kind.map(|k| k.name))
            .field("bytes", &self.bytes)
            .field("stopped", &self.checked.stopped)
            .finish_non_exhaustive()
    }
}

/// Where the log is: looking at its first bytes for a byte-order mark,
/// waiting for its first non-blank line, or in its lines.
enum State {
    /// The bytes seen so far that may be a byte-order mark (fewer than 3),
    /// and the kind given, if any.
    Mark(Vec<u8>, Option<&'static DocKind>),
    /// No kind given: the bytes up to the first non-blank line.
    Head(Vec<u8>),
    /// The kind is known; each line goes to its validator.
    Lines(LogFeed),
    /// Stopped by the sink.
    Stopped,
}

/// A kind given to [`LogStream::new`] that is not a log's (its name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotALog(pub &'static str);

impl std::fmt::Display for NotALog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` is a document kind; a log fed chunk by chunk is a `map-log` or an `sa-log`",
            self.0
        )
    }
}

impl std::error::Error for NotALog {}

impl<S: Sink> LogStream<S> {
    /// A log of the given kind (`None`: told by its first non-blank line),
    /// checked with `options` (the profile, partial mode and event-id
    /// window; logs have no size limit).
    ///
    /// # Errors
    /// [`NotALog`] when `kind` is a document kind.
    pub fn new(
        kind: Option<&'static DocKind>,
        options: &Options,
        sink: S,
    ) -> Result<Self, NotALog> {
        if let Some(k) = kind.filter(|k| !k.is_log()) {
            return Err(NotALog(k.name));
        }
        Ok(LogStream {
            sink,
            options: options.clone(),
            state: State::Mark(Vec::with_capacity(3), kind),
            bom: false,
            bytes: 0,
            checked: Checked {
                kind,
                unreadable: false,
                stopped: false,
            },
        })
    }

    /// The kind, once known.
    pub fn kind(&self) -> Option<&'static DocKind> {
        match self.state {
            State::Lines(_) => self.checked.kind,
            _ => None,
        }
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The sink, to look at what it holds so far.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// Validates what `chunk` completes. `Break` once the sink has stopped
    /// the check (later chunks are then ignored).
    pub fn push(&mut self, chunk: &[u8]) -> ControlFlow<()> {
        self.bytes += chunk.len() as u64;
        self.step(chunk, false)
    }

    /// The end of the log: its last line and what it leaves open. The sink
    /// back, and how the check ended.
    pub fn finish(mut self) -> (S, Checked) {
        let _ = self.step(&[], true);
        if let State::Lines(feed) = std::mem::replace(&mut self.state, State::Stopped) {
            let mut sink = Profiled {
                sink: &mut self.sink,
                profile: self.options.profile,
            };
            if feed.finish(|v| sink.violation(v)).is_break() {
                self.checked.stopped = true;
            }
        }
        (self.sink, self.checked)
    }

    fn step(&mut self, chunk: &[u8], end: bool) -> ControlFlow<()> {
        let mut chunk = chunk;
        loop {
            match &mut self.state {
                State::Stopped => return ControlFlow::Break(()),
                State::Lines(feed) => {
                    let mut sink = Profiled {
                        sink: &mut self.sink,
                        profile: self.options.profile,
                    };
                    let flow = feed.push(chunk, |v| sink.violation(v));
                    if flow.is_break() {
                        self.stop();
                    }
                    return flow;
                }
                State::Mark(seen, kind) => {
                    const MARK: &[u8] = mplp_core::document::UTF8_BOM;
                    let kind = *kind;
                    while seen.len() < MARK.len() {
                        let Some((&byte, rest)) = chunk.split_first() else {
                            break;
                        };
                        if byte != MARK[seen.len()] {
                            break;
                        }
                        seen.push(byte);
                        chunk = rest;
                    }
                    let decided = seen.len() == MARK.len() || !chunk.is_empty() || end;
                    if !decided {
                        return ControlFlow::Continue(());
                    }
                    // The bytes looked at that are not a mark go first.
                    let seen = std::mem::take(seen);
                    self.bom = seen == MARK;
                    let head = if self.bom { Vec::new() } else { seen };
                    match kind {
                        Some(k) => {
                            self.start(k)?;
                            if !head.is_empty() {
                                self.step(&head, false)?;
                            }
                        }
                        None => self.state = State::Head(head),
                    }
                }
                State::Head(head) => {
                    let start = head.len();
                    head.extend_from_slice(chunk);
                    let max = self.options.log_options().max_line();
                    if !end && !first_line_ends(head, start) && head.len() <= max {
                        return ControlFlow::Continue(());
                    }
                    let head = std::mem::take(head);
                    let kind = crate::detect_log(&mut &head[..]).unwrap_or(&crate::MAP_LOG);
                    self.start(kind)?;
                    return self.step(&head, false);
                }
            }
        }
    }

    /// The kind is known: the sink hears it (and of a byte-order mark),
    /// and the lines go to the kind's validator.
    fn start(&mut self, kind: &'static DocKind) -> ControlFlow<()> {
        self.checked.kind = Some(kind);
        let Reader::Log(_, feed) = kind.reader else {
            // `new` refuses document kinds, and `detect_log` gives logs.
            self.stop();
            return ControlFlow::Break(());
        };
        self.state = State::Lines(feed(&self.options.log_options()));
        self.sink.kind(Some(kind));
        if self.bom {
            let mut sink = Profiled {
                sink: &mut self.sink,
                profile: self.options.profile,
            };
            if sink
                .violation(mplp_core::document::bom_warning())
                .is_break()
            {
                self.stop();
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    fn stop(&mut self) {
        self.state = State::Stopped;
        self.checked.stopped = true;
    }
}

/// Whether `head` holds a complete non-blank line, `head[..start]` being
/// known to hold only blank lines and the start of a line.
fn first_line_ends(head: &[u8], start: usize) -> bool {
    // Back to the start of the line that was open.
    let from = head[..start]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let mut line_start = from;
    for nl in memchr_all(&head[from..]).map(|i| i + from) {
        if head[line_start..nl]
            .iter()
            .any(|b| !b.is_ascii_whitespace())
        {
            return true;
        }
        line_start = nl + 1;
    }
    false
}

fn memchr_all(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i)
}
