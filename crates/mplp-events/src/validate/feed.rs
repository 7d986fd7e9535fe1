//! A log validator fed chunk by chunk ([`LogFeed`]): the streaming driver
//! of the MAP and SA validators with the input pushed in, for callers that
//! cannot lend a reader (a browser's `ReadableStream`, a socket's
//! callbacks). [`stream_map_log`](crate::log::stream_map_log) and its SA
//! twin are the same driver pulling from a reader, so a log gives the same
//! violations in the same order however it is cut.

use std::ops::ControlFlow;

use mplp_core::{Report, Violation};

use crate::log::read::{Line, Splitter};
use crate::validate::{LineValidator, LogOptions, MapLogValidator, SaLogValidator};

/// The driver: lines cut as the bytes come, each handed to the validator,
/// whose findings go out at once.
pub(crate) struct Feed<V> {
    lines: Splitter,
    validator: V,
    stopped: bool,
}

impl<V: LineValidator> Feed<V> {
    pub(crate) fn new(validator: V, max_line_bytes: usize) -> Self {
        Feed {
            lines: Splitter::new(max_line_bytes),
            validator,
            stopped: false,
        }
    }

    /// Lines ended so far (blank ones included).
    pub(crate) fn lines(&self) -> u64 {
        self.lines.line()
    }

    pub(crate) fn push(
        &mut self,
        chunk: &[u8],
        on: &mut impl FnMut(Violation) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.stopped {
            return ControlFlow::Break(());
        }
        let Feed {
            lines, validator, ..
        } = self;
        let mut flow = lines.chunk(chunk, &mut |line, bytes| {
            Self::line(validator, line, bytes, on)
        });
        if flow.is_continue() {
            // Before waiting for more input, the findings of the last line
            // too (a check the validator held for the next line).
            flow = Self::flush(validator, on);
        }
        self.stopped = flow.is_break();
        flow
    }

    /// Hands out every finding so far ([`LineValidator::flush`]).
    fn flush(
        validator: &mut V,
        on: &mut impl FnMut(Violation) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for v in validator.flush() {
            on(v)?;
        }
        ControlFlow::Continue(())
    }

    fn line(
        validator: &mut V,
        line: u64,
        bytes: Line<'_>,
        on: &mut impl FnMut(Violation) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match bytes {
            Line::Bytes(bytes) => validator.push_line(line, bytes),
            Line::Refused(v) => validator.refuse(v),
        }
        for v in validator.take() {
            on(v)?;
        }
        ControlFlow::Continue(())
    }

    /// The end of the log: its last line when it has no newline (`rest`),
    /// then what the validator judges at the end. Nothing when the feed
    /// was stopped.
    pub(crate) fn finish(
        mut self,
        rest: bool,
        on: &mut impl FnMut(Violation) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.stopped {
            return ControlFlow::Break(());
        }
        if rest {
            let Feed {
                lines, validator, ..
            } = &mut self;
            lines.end(&mut |line, bytes| Self::line(validator, line, bytes, on))?;
        }
        // The last line's findings, in their place before what the end finds.
        Self::flush(&mut self.validator, on)?;
        for v in self.validator.end() {
            on(v)?;
        }
        ControlFlow::Continue(())
    }

    /// The end of a log whose reading failed with `e`: the line the error
    /// cut is not judged; what the validator judges at the end, then the
    /// [`LOG_READ_ERROR`](crate::rules::LOG_READ_ERROR) violation, at the
    /// line after the last one ended.
    pub(crate) fn fail(
        self,
        e: &std::io::Error,
        on: &mut impl FnMut(Violation) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let line = self.lines() + 1;
        self.finish(false, on)?;
        on(Violation::error(
            "",
            crate::rules::LOG_READ_ERROR,
            format!("cannot read the log: {e}"),
        )
        .at_line(line))
    }
}

/// A validator behind a box: what [`LogFeed`] holds, whichever log it checks.
trait BoxedLines {
    fn push_line(&mut self, line: u64, bytes: &[u8]);
    fn take(&mut self) -> Vec<Violation>;
    fn flush(&mut self) -> Vec<Violation>;
    fn end(self: Box<Self>) -> Report;
    fn refuse(&mut self, v: Violation);
}

impl<V: LineValidator> BoxedLines for V {
    fn push_line(&mut self, line: u64, bytes: &[u8]) {
        LineValidator::push_line(self, line, bytes);
    }
    fn take(&mut self) -> Vec<Violation> {
        LineValidator::take(self)
    }
    fn flush(&mut self) -> Vec<Violation> {
        LineValidator::flush(self)
    }
    fn end(self: Box<Self>) -> Report {
        LineValidator::end(*self)
    }
    fn refuse(&mut self, v: Violation) {
        LineValidator::refuse(self, v);
    }
}

impl LineValidator for Box<dyn BoxedLines + Send> {
    fn push_line(&mut self, line: u64, bytes: &[u8]) {
        (**self).push_line(line, bytes);
    }
    fn take(&mut self) -> Vec<Violation> {
        (**self).take()
    }
    fn flush(&mut self) -> Vec<Violation> {
        (**self).flush()
    }
    fn end(self) -> Report {
        BoxedLines::end(self)
    }
    fn refuse(&mut self, v: Violation) {
        (**self).refuse(v);
    }
}

/// A MAP or SA log validator fed chunk by chunk: each chunk's complete
/// lines are validated at once and their violations handed to `on`; the
/// start of a line cut by the chunk's end waits for the next chunk (up to
/// the options' line limit: a longer line is counted, not kept). Memory is
/// bounded as [`stream_map_log`](crate::log::stream_map_log)'s: by what the
/// log leaves open and the event-id window, never by the chunks' sizes or
/// the log's length. The violations are exactly
/// [`stream_map_log`](crate::log::stream_map_log)'s (or
/// [`stream_sa_log`](crate::log::stream_sa_log)'s), in the same order.
///
/// ```
/// use std::ops::ControlFlow;
/// use mplp_events::log::{LogFeed, LogOptions};
///
/// let mut rules = Vec::new();
/// let mut on = |v: mplp_core::Violation| {
///     rules.push((v.line, v.rule.as_str().to_owned()));
///     ControlFlow::Continue(())
/// };
/// let mut feed = LogFeed::map(&LogOptions::default());
/// for chunk in [&b"not js"[..], b"on\n\n{", b"}"] {
///     let _ = feed.push(chunk, &mut on);
/// }
/// let _ = feed.finish(&mut on);
/// assert_eq!(rules[0], (Some(1), "json-syntax".to_owned()));
/// assert_eq!(rules[1].0, Some(3)); // `{}`, the last line, without its newline
/// ```
pub struct LogFeed {
    feed: Feed<Box<dyn BoxedLines + Send>>,
}

impl std::fmt::Debug for LogFeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogFeed")
            .field("lines", &self.feed.lines())
            .field("stopped", &self.feed.stopped)
            .finish_non_exhaustive()
    }
}

impl LogFeed {
    /// A MAP log's validator ([`MapLogValidator`]) with these options.
    pub fn map(options: &LogOptions) -> Self {
        Self::of(MapLogValidator::new().with_options(options), options)
    }

    /// An SA log's validator ([`SaLogValidator`]) with these options.
    pub fn sa(options: &LogOptions) -> Self {
        Self::of(SaLogValidator::new().with_options(options), options)
    }

    /// A log whose lines `check` judges (the validator of
    /// [`stream_lines`](crate::log::stream_lines), pushed).
    pub fn judged_by(
        options: &LogOptions,
        check: fn(&[u8], &mut mplp_core::Report) -> Option<uuid::Uuid>,
    ) -> Self {
        Self::of(crate::log::lines::Lines::new(check, options), options)
    }

    fn of(validator: impl LineValidator + Send + 'static, options: &LogOptions) -> Self {
        LogFeed {
            feed: Feed::new(Box::new(validator), options.max_line()),
        }
    }

    /// Validates the lines `chunk` completes, handing each violation to
    /// `on` as it is found. `Break` when `on` broke, now or before: the
    /// feed then stops (later chunks are not looked at, and the end of the
    /// log is not judged).
    pub fn push(
        &mut self,
        chunk: &[u8],
        mut on: impl FnMut(Violation) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.feed.push(chunk, &mut on)
    }

    /// Lines seen so far, blank ones included (the line number of the last
    /// complete line).
    pub fn lines(&self) -> u64 {
        self.feed.lines()
    }

    /// The end of the log: its last line (when it has no newline), then
    /// what the log leaves open, each violation to `on`.
    pub fn finish(self, mut on: impl FnMut(Violation) -> ControlFlow<()>) -> ControlFlow<()> {
        self.feed.finish(true, &mut on)
    }
}
