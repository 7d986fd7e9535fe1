//! The streaming MAP and SA log validators, and what they share: the open
//! sessions (runs) by id, the bounded memory of completed ones, and the
//! driver that feeds a log's lines to a validator.
//!
//! The validators are also reachable as `mplp_events::log::{MapLogValidator,
//! SaLogValidator, validate_map_log, validate_sa_log}`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::BufRead;
use std::ops::ControlFlow;

use mplp_core::{Report, Rule, Severity, Violation};
use uuid::Uuid;

use completed::Completed;

/// Declares what the MAP and SA validators offer alike, word for word: their
/// constructors and settings (`new`, `with_completed_memory`,
/// `with_event_id_window`, `partial`, `with_options`), `take_violations`
/// and `push_line`; the public entry points `validate_*_log`,
/// `validate_*_log_with` and `stream_*_log`; the
/// [`EventSink`](crate::log::EventSink) impls (an event, owned or borrowed,
/// is validated as the next line) and the [`LineValidator`] impl the
/// streaming driver uses. `$unit` names what the validator keeps books of
/// (`sessions`, `runs`).
macro_rules! log_entry_points {
    (
        $validator:ident, $event:ty, $what:literal, $unit:literal,
        $validate:ident, $validate_with:ident, $stream:ident
    ) => {
        impl Default for $validator {
            fn default() -> Self {
                Self::new()
            }
        }

        impl $validator {
            #[doc = concat!("A validator that remembers the last [`DEFAULT_COMPLETED_MEMORY`](crate::log::DEFAULT_COMPLETED_MEMORY) completed ", $unit, ".")]
            pub fn new() -> Self {
                Self::with_completed_memory($crate::validate::DEFAULT_COMPLETED_MEMORY)
            }

            #[doc = concat!("A validator that remembers the last `n` completed ", $unit, " (about 22 bytes each; at most 2^31 − 2, a larger `n` is taken as that).")]
            pub fn with_completed_memory(n: usize) -> Self {
                $validator {
                    books: $crate::validate::Books::new(n),
                }
            }

            /// The same validator, finding repeated event ids within `window` events
            /// (0: not at all); see [`crate::unique_ids`].
            #[must_use]
            pub fn with_event_id_window(mut self, window: usize) -> Self {
                self.books.ids = $crate::unique_ids::UniqueIds::with_window(window);
                self
            }

            /// The same validator, judging a log still being written: what is open
            /// at its end is reported as warnings (see
            /// [`LogOptions::partial`](crate::log::LogOptions::partial)).
            #[must_use]
            pub fn partial(mut self, partial: bool) -> Self {
                self.books.open_at_end = if partial {
                    mplp_core::Severity::Warning
                } else {
                    mplp_core::Severity::Error
                };
                self
            }

            /// The same validator with the options' partial mode and event-id
            /// window (the line limit belongs to the reader).
            #[must_use]
            pub fn with_options(self, options: &$crate::validate::LogOptions) -> Self {
                self.with_event_id_window(options.id_window())
                    .partial(options.is_partial())
            }

            /// Takes out the violations found so far, in the order found (a
            /// streaming caller prints them as it goes; [`Self::finish`] then
            /// returns only the rest). Memory then stays bounded by what is open,
            /// however many violations the log has.
            pub fn take_violations(&mut self) -> mplp_core::Report {
                let mut report = mplp_core::Report::new();
                report.extend(self.books.take_report());
                report
            }

            /// Validates one line of the log (its bytes, without the newline or with it).
            pub fn push_line(&mut self, line: u64, bytes: &[u8]) {
                self.books.lines += 1;
                // The event is validated where it was parsed (not moved out).
                let parsed = $crate::log::read::with_parsed_line::<$event, _>(line, bytes, |e| {
                    self.push(line, e)
                });
                if let Err(v) = parsed {
                    self.books.report.extend(v);
                }
            }
        }

        impl $crate::log::EventSink<$event> for $validator {
            /// Validates the event as the next line.
            fn emit(&mut self, event: $event) -> std::io::Result<()> {
                let line = self.books.events + 1;
                self.push(line, &event);
                Ok(())
            }
        }

        impl $crate::log::EventSink<&$event> for $validator {
            /// Validates the event as the next line.
            fn emit(&mut self, event: &$event) -> std::io::Result<()> {
                let line = self.books.events + 1;
                self.push(line, event);
                Ok(())
            }
        }

        #[doc = concat!("Validates ", $what, " event log (NDJSON), streaming: every violation carries its")]
        #[doc = concat!("line. See [`", stringify!($validator), "`] for the rules.")]
        pub fn $validate(reader: impl std::io::BufRead) -> mplp_core::Report {
            $validate_with(reader, &$crate::validate::LogOptions::default())
        }

        #[doc = concat!("[`", stringify!($validate), "`] with options: a log in progress")]
        /// ([`LogOptions::partial`](crate::log::LogOptions::partial)), another line limit or
        /// event-id window.
        pub fn $validate_with(
            reader: impl std::io::BufRead,
            options: &$crate::validate::LogOptions,
        ) -> mplp_core::Report {
            $crate::validate::validate_log(
                reader,
                options.max_line(),
                $validator::new().with_options(options),
            )
        }

        /// Validates a log as a stream: each violation goes to `on` as soon as it
        /// is found (so in the order found, not sorted by line: what a session
        /// leaves open is reported when it completes or at the end of the log),
        /// and memory stays bounded by what is open, not by the number of
        /// violations. `on` returning `ControlFlow::Break` stops the reading
        /// (then the end of the log is not judged), and so does this function's
        /// result.
        ///
        /// ```
        /// use std::ops::ControlFlow;
        #[doc = concat!("use mplp_events::log::{LogOptions, ", stringify!($stream), "};")]
        /// let mut rules = Vec::new();
        #[doc = concat!("let flow = ", stringify!($stream), "(&b\"not json\\n\\nnot json either\\n\"[..], &LogOptions::default(), |v| {")]
        ///     rules.push((v.line, v.rule.as_str()));
        ///     ControlFlow::Continue(())
        /// });
        /// assert!(flow.is_continue());
        /// assert_eq!(rules, [(Some(1), "json-syntax"), (Some(3), "json-syntax")]);
        /// ```
        pub fn $stream(
            reader: impl std::io::BufRead,
            options: &$crate::validate::LogOptions,
            on: impl FnMut(mplp_core::Violation) -> std::ops::ControlFlow<()>,
        ) -> std::ops::ControlFlow<()> {
            $crate::validate::stream_log(
                reader,
                options.max_line(),
                $validator::new().with_options(options),
                on,
            )
        }

        impl $crate::validate::LineValidator for $validator {
            fn push_line(&mut self, line: u64, bytes: &[u8]) {
                $validator::push_line(self, line, bytes);
            }
            fn take(&mut self) -> Vec<mplp_core::Violation> {
                self.books.take_settled()
            }
            fn flush(&mut self) -> Vec<mplp_core::Violation> {
                self.books.take_report()
            }
            fn end(self) -> mplp_core::Report {
                self.finish()
            }
            fn refuse(&mut self, v: mplp_core::Violation) {
                self.books.refuse(v);
            }
        }
    };
}

mod completed;
mod feed;
mod few;
mod map;
mod modes;
mod sa;

pub use feed::LogFeed;

pub use map::{MapLogValidator, stream_map_log, validate_map_log, validate_map_log_with};
pub use sa::{SaLogValidator, stream_sa_log, validate_sa_log, validate_sa_log_with};

/// How many completed sessions (or SA runs) a validator remembers, to report
/// events that come after their completion. Older ones are forgotten first;
/// an event of a forgotten session is then reported as one without a start.
/// Remembering takes about 22 bytes a session (5.5 MiB for this default; at
/// most 2^31 − 2 are remembered, a larger memory is taken as that).
pub const DEFAULT_COMPLETED_MEMORY: usize = 1 << 18;

/// The longest line the log readers keep in memory (16 MiB): a longer line
/// is skipped up to its newline and reported (rule
/// [`LOG_LINE_TOO_LONG`](crate::rules::LOG_LINE_TOO_LONG)), so an endless
/// line cannot exhaust memory.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// How a log is read and judged by [`validate_map_log_with`],
/// [`stream_map_log`] and their SA twins.
///
/// ```
/// use mplp_events::log::LogOptions;
/// let options = LogOptions::default().partial(true).max_line_bytes(1 << 20);
/// assert!(options.is_partial());
/// assert_eq!(options.max_line(), 1 << 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogOptions {
    partial: bool,
    max_line_bytes: usize,
    event_id_window: usize,
}

impl Default for LogOptions {
    /// Strict (not partial), [`DEFAULT_MAX_LINE_BYTES`], the default
    /// event-id window ([`crate::unique_ids::DEFAULT_EVENT_ID_WINDOW`]).
    fn default() -> Self {
        LogOptions {
            partial: false,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            event_id_window: crate::unique_ids::DEFAULT_EVENT_ID_WINDOW,
        }
    }
}

impl LogOptions {
    /// A log still being written: what is still open at its end (sessions
    /// or runs not completed, turns not completed, broadcasts not answered,
    /// conflicts not resolved, steps not finished) is reported as
    /// **warnings** with the same rule ids, instead of errors. Everything
    /// else is judged as usual. The default is `false` (a log is complete).
    #[must_use]
    pub fn partial(mut self, partial: bool) -> Self {
        self.partial = partial;
        self
    }

    /// The longest line kept in memory (at least 1 byte).
    #[must_use]
    pub fn max_line_bytes(mut self, bytes: usize) -> Self {
        self.max_line_bytes = bytes.max(1);
        self
    }

    /// Repeated event ids are found within `window` events (0: not at all);
    /// see [`crate::unique_ids`] for the memory this takes.
    #[must_use]
    pub fn event_id_window(mut self, window: usize) -> Self {
        self.event_id_window = window;
        self
    }

    /// Whether open items at the end are warnings ([`LogOptions::partial`]).
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// The longest line kept in memory.
    pub fn max_line(&self) -> usize {
        self.max_line_bytes
    }

    /// The window of the repeated-event-id check.
    pub fn id_window(&self) -> usize {
        self.event_id_window
    }
}

/// The hasher of the validators' maps keyed by UUIDs and turn numbers, which
/// are looked up on every event: foldhash, several times cheaper than SipHash
/// on 16-byte keys. Its `RandomState` is seeded per process and per map, so a
/// log cannot be crafted in advance to collide (see `docs/spec-notes.md`,
/// "One fast hasher").
pub(crate) type IdMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// What the MAP and SA validators share: the open sessions (runs) by id,
/// the bounded memory of completed ones, the violations found so far and the
/// number of events seen.
pub(crate) struct Books<S> {
    /// Event ids seen (rule `log_unique_event_ids`, [`crate::unique_ids`]).
    pub(crate) ids: crate::unique_ids::UniqueIds,
    /// The event id of the last event, not yet looked up ([`Books::hold_id`]).
    held: Option<HeldId>,
    /// The open sessions by id, the id as its `u128`: its hash is then one
    /// of a `u128` (one folded multiplication), where a `Uuid` hashes as a
    /// byte slice (its length, then its bytes).
    open: IdMap<u128, S>,
    completed: Completed,
    /// The violations found so far, in the order found (a repeat of the
    /// held id goes in at its line's place).
    report: Vec<Violation>,
    events: u64,
    /// Non-blank lines seen (parsed or not).
    lines: u64,
    /// The severity of what is still open at the end ([`LogOptions::partial`]).
    open_at_end: Severity,
}

/// An event id whose lookup waits for the next event ([`Books::hold_id`]).
struct HeldId {
    id: crate::SchemaUuid,
    /// Its hash and buckets in the tracker.
    probe: crate::unique_ids::Probe,
    line: u64,
    /// Where the findings of its line start in [`Books::report`]: a repeat
    /// is reported there, first among them, as if looked up at once.
    at: usize,
}

/// The state the validators keep per open session (run).
pub(crate) trait Tracked: Default {
    /// The line of the session's first event.
    fn started_line(&self) -> u64;
    /// Records the line of the session's first event.
    fn set_started_line(&mut self, line: u64);
}

/// Why an event is refused before the rules of its session are checked.
pub(crate) enum Refused {
    /// Its session (run) was already completed.
    AfterCompletion,
    /// It starts a session (run) that was started on the given line.
    StartedAgain(u64),
}

impl<S: Tracked> Books<S> {
    /// The state of session `id` for an event on `line` (`starts`: the event
    /// is the session's start), created when the session is new (`true`).
    fn enter(&mut self, id: Uuid, line: u64, starts: bool) -> Result<(&mut S, bool), Refused> {
        self.events += 1;
        // Open and completed sessions are disjoint (a session leaves `open`
        // when it completes, and a completed one is refused before it could
        // reopen), so only a session that is not open needs the second lookup.
        match self.open.entry(id.as_u128()) {
            Entry::Occupied(o) => {
                let state = o.into_mut();
                if starts {
                    return Err(Refused::StartedAgain(state.started_line()));
                }
                Ok((state, false))
            }
            Entry::Vacant(_) if self.completed.contains(&id) => Err(Refused::AfterCompletion),
            Entry::Vacant(v) => {
                let state = v.insert(S::default());
                state.set_started_line(line);
                Ok((state, true))
            }
        }
    }

    /// Closes session `id` (remembered as completed); its state, if it was open.
    fn complete(&mut self, id: Uuid) -> Option<S> {
        let state = self.open.remove(&id.as_u128());
        self.completed.insert(id);
        state
    }

    /// Takes every open session out, in the order they started.
    fn take_open(&mut self) -> Vec<(Uuid, S)> {
        let mut open: Vec<_> = std::mem::take(&mut self.open)
            .into_iter()
            .map(|(id, s)| (Uuid::from_u128(id), s))
            .collect();
        open.sort_by_key(|(_, s)| s.started_line());
        open
    }
}

impl<S> Books<S> {
    fn new(completed_memory: usize) -> Self {
        Books {
            ids: crate::unique_ids::UniqueIds::new(),
            held: None,
            open: IdMap::default(),
            completed: Completed::new(completed_memory),
            report: Vec::new(),
            events: 0,
            lines: 0,
            open_at_end: Severity::Error,
        }
    }

    /// The unique-id check (rule `log_unique_event_ids`) of the event on
    /// `line`, begun: the held id of the event before is looked up, and
    /// this one's buckets are prefetched ([`UniqueIds::prefetch`](crate::unique_ids::UniqueIds::prefetch))
    /// and its lookup held until the next event, or until the findings are
    /// taken. So the table's memory is read while this event's rules run
    /// and the next line is parsed, not waited for (the table does not stay
    /// in the CPU's caches while ~250 bytes of input a line stream
    /// through). A repeat is reported first among its line's findings, as
    /// if looked up at once: the findings and their order are the same.
    #[inline]
    pub(crate) fn hold_id(&mut self, id: &crate::SchemaUuid, line: u64) {
        // At window 0 nothing is ever held (a test and a branch, inlined:
        // the hold's own frame is set up only when ids are tracked).
        if self.ids.tracks() {
            self.hold(id, line);
        }
    }

    /// [`Books::hold_id`] when ids are tracked.
    #[inline(never)]
    fn hold(&mut self, id: &crate::SchemaUuid, line: u64) {
        // This id's buckets are asked for first, so that the memory is
        // read while the held id is looked up (a probe made before that
        // insert makes the table grow is found again by `see_probed`).
        let probe = self.ids.prefetch_probe(*id.as_uuid());
        // The held id is looked up before this one's findings start: a
        // repeat it reports goes in before them.
        self.settle_id();
        self.held = Some(HeldId {
            id: id.clone(),
            probe,
            line,
            at: self.report.len(),
        });
    }

    /// Looks the held event id up (see [`Books::hold_id`]); a repeat, rare,
    /// is reported out of line.
    #[inline]
    fn settle_id(&mut self) {
        if let Some(held) = self.held.take() {
            if let Some(first) = self
                .ids
                .see_probed(*held.id.as_uuid(), held.probe, held.line)
            {
                self.repeat(&held, first);
            }
        }
    }

    /// Reports `held`'s id as a repeat of line `first`, first among its
    /// line's findings.
    #[cold]
    #[inline(never)]
    fn repeat(&mut self, held: &HeldId, first: u64) {
        let message = crate::unique_ids::repeat_message(&held.id, first);
        let v = Violation::error("/event_id", crate::rules::LOG_UNIQUE_EVENT_IDS, message)
            .at_line(held.line);
        self.report.insert(held.at.min(self.report.len()), v);
    }

    /// Every violation found so far, taken out (the held event id looked
    /// up first).
    pub(crate) fn take_report(&mut self) -> Vec<Violation> {
        self.settle_id();
        std::mem::take(&mut self.report)
    }

    /// The violations found so far, taken out, but for a repeat of the
    /// held event id when its line has no other finding (what the
    /// streaming driver hands out line by line: that repeat follows once
    /// the id is looked up, at the next line or at the end of the chunk,
    /// by [`Books::take_report`]). A held line with findings has its id
    /// looked up now, so that they all go out together.
    #[inline]
    pub(crate) fn take_settled(&mut self) -> Vec<Violation> {
        if self.report.is_empty() {
            return Vec::new();
        }
        match &mut self.held {
            Some(held) if held.at < self.report.len() => self.settle_id(),
            Some(held) => held.at = 0,
            None => {}
        }
        std::mem::take(&mut self.report)
    }

    /// Everything found, sorted by line (at the end of the log).
    fn into_sorted(mut self) -> Report {
        self.settle_id();
        let mut report = Report::new();
        report.extend(self.report);
        sorted(report)
    }

    /// Reports what the log leaves open at its end, at the severity of
    /// [`LogOptions::partial`].
    fn open_at_end(&mut self, line: u64, pointer: &str, rule: Rule, message: String) {
        let v = match self.open_at_end {
            Severity::Warning => Violation::warning(pointer, rule, message),
            Severity::Error => Violation::error(pointer, rule, message),
        };
        self.report.push(v.at_line(line));
    }

    /// Reports an item left open: an error when its session completed
    /// (`at_end` false), at the severity of [`LogOptions::partial`] when the
    /// log ended with it still open.
    fn open_item(&mut self, at_end: bool, line: u64, pointer: &str, rule: Rule, message: String) {
        if at_end {
            self.open_at_end(line, pointer, rule, message);
        } else {
            self.err(line, pointer, rule, message);
        }
    }

    /// A line refused before parsing (too long): reported, and counted.
    pub(crate) fn refuse(&mut self, v: Violation) {
        self.lines += 1;
        self.report.push(v);
    }

    /// At the end of the log: the warning of a log without any line.
    fn empty_log_warning(&mut self) {
        if self.events == 0 && self.lines == 0 {
            self.report.push(Violation::warning(
                "",
                crate::rules::LOG_EMPTY,
                "the log holds no event (it is empty or blank)",
            ));
        }
    }

    fn err(&mut self, line: u64, pointer: &str, rule: Rule, message: String) {
        self.report
            .push(Violation::error(pointer, rule, message).at_line(line));
    }
}

/// What the MAP and SA validators offer the streaming driver.
pub(crate) trait LineValidator {
    fn push_line(&mut self, line: u64, bytes: &[u8]);
    /// The violations found so far, taken out, but for those of a line
    /// whose check is not done (a held event id, [`Books::hold_id`]):
    /// what the driver hands out after each line.
    fn take(&mut self) -> Vec<Violation>;
    /// Every violation found so far, taken out (checks held are done
    /// first): what the driver hands out before it waits for more input.
    fn flush(&mut self) -> Vec<Violation>;
    /// Ends the log: what is left, sorted by line.
    fn end(self) -> Report;
    /// Where a refused line's violation goes.
    fn refuse(&mut self, v: Violation);
}

/// Feeds every line of `reader` to a validator and finishes it; an I/O
/// error is reported after the validator's findings. Every violation goes
/// to `on` as soon as it is found (in the order found, not sorted by line);
/// `on` returning `Break` stops the reading (the end of the log is then not
/// judged). The driver is [`LogFeed`]'s, pulling the chunks from `reader`.
pub(crate) fn stream_log<V: LineValidator>(
    mut reader: impl BufRead,
    max_line_bytes: usize,
    validator: V,
    mut on: impl FnMut(Violation) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut feed = feed::Feed::new(validator, max_line_bytes);
    loop {
        let avail = match reader.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return feed.fail(&e, &mut on),
        };
        if avail.is_empty() {
            return feed.finish(true, &mut on);
        }
        let len = avail.len();
        feed.push(avail, &mut on)?;
        reader.consume(len);
    }
}

/// [`stream_log`] pulling from an async reader: the same driver, so the
/// same violations in the same order (the async `validate_*_log_async`
/// functions).
#[cfg(feature = "tokio")]
pub(crate) async fn stream_log_async<V: LineValidator>(
    mut reader: impl tokio::io::AsyncBufRead + Unpin,
    max_line_bytes: usize,
    validator: V,
    mut on: impl FnMut(Violation) -> ControlFlow<()>,
) -> ControlFlow<()> {
    use tokio::io::AsyncBufReadExt as _;
    let mut feed = feed::Feed::new(validator, max_line_bytes);
    loop {
        let avail = match reader.fill_buf().await {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return feed.fail(&e, &mut on),
        };
        if avail.is_empty() {
            return feed.finish(true, &mut on);
        }
        let len = avail.len();
        feed.push(avail, &mut on)?;
        reader.consume(len);
    }
}

/// [`stream_log`] into one report sorted by line.
pub(crate) fn validate_log<V: LineValidator>(
    reader: impl BufRead,
    max_line_bytes: usize,
    validator: V,
) -> Report {
    let mut gathered = Gathered::default();
    let _ = stream_log(reader, max_line_bytes, validator, |v| gathered.on(v));
    gathered.report()
}

/// The violations of a streamed log gathered into one report: sorted by
/// line, with a read error last (what the `validate_*_log` functions
/// return, blocking or async).
#[derive(Default)]
pub(crate) struct Gathered {
    all: Vec<Violation>,
    io: Vec<Violation>,
}

impl Gathered {
    /// Takes one violation (never stops the stream).
    pub(crate) fn on(&mut self, v: Violation) -> ControlFlow<()> {
        if v.rule == crate::rules::LOG_READ_ERROR {
            self.io.push(v);
        } else {
            self.all.push(v);
        }
        ControlFlow::Continue(())
    }

    /// The report.
    pub(crate) fn report(self) -> Report {
        let mut report = Report::new();
        report.extend(self.all);
        let mut report = sorted(report);
        report.extend(self.io);
        report
    }
}

/// Sorts violations by line (stable) into a report.
pub(crate) fn sorted(report: Report) -> Report {
    let mut v = report.into_violations();
    v.sort_by_key(|v| v.line.unwrap_or(u64::MAX));
    let mut r = Report::new();
    r.extend(v);
    r
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use mplp_core::{Report, Severity, Violation};
    use proptest::prelude::*;

    use crate::log::{LogOptions, stream_map_log, validate_map_log, validate_map_log_with};

    const LOG: &str = include_str!("../../../schemas/examples/valid/map-log-round-robin.ndjson");

    fn collect(input: impl std::io::BufRead, options: &LogOptions) -> Vec<Violation> {
        let mut all = Vec::new();
        let flow = stream_map_log(input, options, |v| {
            all.push(v);
            ControlFlow::Continue(())
        });
        assert!(flow.is_continue());
        all
    }

    fn key(v: &Violation) -> (Option<u64>, String, String, Severity) {
        (v.line, v.rule.to_string(), v.pointer.clone(), v.severity)
    }

    #[test]
    fn a_line_longer_than_the_limit_is_refused_and_reading_goes_on() {
        let options = LogOptions::default().max_line_bytes(64);
        for cut in [0usize, 1, 10] {
            // A 1,000-byte line whose bytes arrive in small reads (cut > 0)
            // or at once: it is never kept whole.
            let mut input = vec![b'x'; 1000];
            input.push(b'\n');
            input.extend_from_slice(b"{}\n");
            input.extend_from_slice(&[b'y'; 100]); // unterminated at the end
            let reader = std::io::BufReader::with_capacity(cut.max(8), &input[..]);
            let report = validate_map_log_with(reader, &options);
            let found: Vec<_> = report
                .violations()
                .iter()
                .map(|v| (v.line, v.rule.as_str()))
                .collect();
            assert_eq!(
                found.first(),
                Some(&(Some(1), "log_line_too_long")),
                "{found:?}"
            );
            assert!(found.contains(&(Some(2), "required")), "{found:?}");
            assert_eq!(
                found.last(),
                Some(&(Some(3), "log_line_too_long")),
                "{found:?}"
            );
            assert!(
                report.violations()[0].message.contains("1000 bytes"),
                "{:?}",
                report.violations()[0]
            );
        }
    }

    #[test]
    fn partial_turns_what_is_open_at_the_end_into_warnings() {
        let lines: Vec<&str> = LOG.lines().collect();
        let cut = lines[..lines.len() - 2].join("\n");
        let strict = validate_map_log(cut.as_bytes());
        let partial = validate_map_log_with(cut.as_bytes(), &LogOptions::default().partial(true));
        assert!(!strict.is_valid());
        assert!(partial.is_valid(), "{:?}", partial.violations());
        let rules = |r: &Report, s: Severity| -> Vec<String> {
            r.violations()
                .iter()
                .filter(|v| v.severity == s)
                .map(|v| v.rule.to_string())
                .collect()
        };
        assert_eq!(
            rules(&strict, Severity::Error),
            rules(&partial, Severity::Warning)
        );
        assert!(rules(&strict, Severity::Error).contains(&"map_session_completed_last".to_owned()));
        // A completed session's open turn is an error even in partial mode.
        let no_completion: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| !l.contains("\"turn_number\":1,") || !l.contains("MAPTurnCompleted"))
            .collect();
        let report = validate_map_log_with(
            no_completion.join("\n").as_bytes(),
            &LogOptions::default().partial(true),
        );
        assert!(!report.is_valid(), "{:?}", report.violations());
    }

    #[test]
    fn an_empty_log_has_one_warning_and_a_log_of_bad_lines_has_none() {
        for input in [&b""[..], b"\n\n  \n"] {
            let report = validate_map_log(input);
            assert!(report.is_valid());
            let rules: Vec<_> = report
                .violations()
                .iter()
                .map(|v| v.rule.as_str())
                .collect();
            assert_eq!(rules, ["log_empty"]);
        }
        let report = validate_map_log(&b"nope\n"[..]);
        assert!(
            report
                .violations()
                .iter()
                .all(|v| v.rule.as_str() != "log_empty")
        );
    }

    #[test]
    fn a_repeat_goes_out_before_the_feed_waits_for_more_input() {
        // Line 2 repeats line 1's event id and has no other finding: its
        // lookup is held for the next line, but the chunk ends there.
        let first = LOG.lines().next().unwrap_or_default();
        let second = LOG.lines().nth(1).unwrap_or_default();
        let id = |line: &str| {
            line.split("\"event_id\":\"")
                .nth(1)
                .map(|s| s[..36].to_owned())
        };
        let (Some(a), Some(b)) = (id(first), id(second)) else {
            panic!("the example log has event ids");
        };
        let chunk = format!("{first}\n{}\n", second.replace(&b, &a));
        let mut feed = crate::log::LogFeed::map(&LogOptions::default());
        let mut rules = Vec::new();
        let flow = feed.push(chunk.as_bytes(), |v| {
            rules.push((v.line, v.rule.to_string()));
            ControlFlow::Continue(())
        });
        assert!(flow.is_continue());
        assert_eq!(rules, [(Some(2), "log_unique_event_ids".to_owned())]);
        // Taken from the validator, it is there too.
        let mut v = crate::log::MapLogValidator::new();
        v.push_line(1, first.as_bytes());
        v.push_line(2, second.replace(&b, &a).as_bytes());
        let taken = v.take_violations();
        assert_eq!(taken.violations().len(), 1, "{taken:?}");
        assert_eq!(
            taken.violations()[0].rule,
            crate::rules::LOG_UNIQUE_EVENT_IDS
        );
    }

    #[test]
    fn breaking_the_stream_stops_reading() {
        let input = "nope\n".repeat(100);
        let mut seen = 0;
        let flow = stream_map_log(input.as_bytes(), &LogOptions::default(), |_| {
            seen += 1;
            if seen == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert!(flow.is_break());
        assert_eq!(seen, 3);
    }

    /// Lines of a valid log, cut, repeated, swapped and broken at random.
    fn mangled_log() -> impl Strategy<Value = String> {
        mangled_with(LOG, 6, 40)
    }

    const SA_LOG: &str = include_str!("../../../schemas/examples/valid/sa-log-code-review.ndjson");

    /// What a validator found line by line, each line's findings taken at
    /// once (so each event id looked up at once, before the next line is
    /// read: what the validators did before ids were held for the next
    /// line), then what the end finds.
    fn at_once<V>(
        log: &str,
        mut v: V,
        push_line: fn(&mut V, u64, &[u8]),
        take: fn(&mut V) -> Report,
        finish: fn(V) -> Report,
    ) -> Vec<Violation> {
        let mut all = Vec::new();
        for (n, line) in log.split('\n').enumerate() {
            if line.bytes().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            push_line(&mut v, n as u64 + 1, line.as_bytes());
            all.extend(take(&mut v));
        }
        all.extend(finish(v));
        all
    }

    /// What a [`LogFeed`](crate::log::LogFeed) hands out for `log` cut into
    /// chunks at `cuts`.
    fn fed(log: &str, mut feed: crate::log::LogFeed, cuts: &[usize]) -> Vec<Violation> {
        let mut all = Vec::new();
        let mut start = 0;
        for &cut in cuts.iter().chain([&log.len()]) {
            let cut = cut.clamp(start, log.len());
            let flow = feed.push(&log.as_bytes()[start..cut], |v| {
                all.push(v);
                ControlFlow::Continue(())
            });
            assert!(flow.is_continue());
            start = cut;
        }
        let flow = feed.finish(|v| {
            all.push(v);
            ControlFlow::Continue(())
        });
        assert!(flow.is_continue());
        all
    }

    /// A log made of `lines`, picked, repeated (so repeated event ids), cut
    /// and blanked at random.
    fn mangled(lines: &'static str) -> impl Strategy<Value = String> {
        mangled_with(lines, 8, 60)
    }

    /// Up to `max - 1` lines picked from `lines`: of `hows` equally likely
    /// ways, one cuts the line in half, one blanks it, the others keep it.
    fn mangled_with(lines: &'static str, hows: u8, max: usize) -> impl Strategy<Value = String> {
        let lines: Vec<String> = lines.lines().map(str::to_owned).collect();
        let n = lines.len();
        prop::collection::vec((0..n, 0u8..hows), 0..max).prop_map(move |picks| {
            let mut out = String::new();
            for (i, how) in picks {
                match how {
                    0 => out.push_str(&lines[i][..lines[i].len() / 2]),
                    1 => out.push_str("   "),
                    _ => out.push_str(&lines[i]),
                }
                out.push('\n');
            }
            out
        })
    }

    proptest! {
        /// Holding each event id's lookup until the next line (or the end of
        /// a chunk) changes nothing a caller sees: the same violations, in
        /// the same order, as when each id is looked up at once; however
        /// the log is cut into chunks or read; with a window small enough
        /// to forget ids too.
        #[test]
        fn held_ids_are_reported_in_place(
            map in mangled(LOG),
            sa in mangled(SA_LOG),
            window in prop::sample::select(vec![0usize, 3, 20, 1 << 20]),
            cuts in prop::collection::vec(0usize..4000, 0..12),
            cap in 8usize..200,
        ) {
            use crate::log::{LogFeed, MapLogValidator, SaLogValidator, stream_sa_log};
            let options = LogOptions::default().event_id_window(window);
            let mut cuts = cuts;
            cuts.sort_unstable();
            // MAP
            let expected = at_once(
                &map,
                MapLogValidator::new().with_options(&options),
                MapLogValidator::push_line,
                MapLogValidator::take_violations,
                MapLogValidator::finish,
            );
            let reader = std::io::BufReader::with_capacity(cap, map.as_bytes());
            prop_assert_eq!(&collect(reader, &options), &expected);
            prop_assert_eq!(&fed(&map, LogFeed::map(&options), &cuts), &expected);
            // Without takes: the findings sorted by line, as the report is.
            let mut v = MapLogValidator::new().with_options(&options);
            for (n, line) in map.split('\n').enumerate() {
                if !line.bytes().all(|b| b.is_ascii_whitespace()) {
                    v.push_line(n as u64 + 1, line.as_bytes());
                }
            }
            let report = validate_map_log_with(map.as_bytes(), &options);
            prop_assert_eq!(v.finish(), report);
            // SA
            let expected = at_once(
                &sa,
                SaLogValidator::new().with_options(&options),
                SaLogValidator::push_line,
                SaLogValidator::take_violations,
                SaLogValidator::finish,
            );
            let mut streamed = Vec::new();
            let reader = std::io::BufReader::with_capacity(cap, sa.as_bytes());
            let flow = stream_sa_log(reader, &options, |v| {
                streamed.push(v);
                ControlFlow::Continue(())
            });
            prop_assert!(flow.is_continue());
            prop_assert_eq!(&streamed, &expected);
            prop_assert_eq!(&fed(&sa, LogFeed::sa(&options), &cuts), &expected);
            // A whole line of the example twice is a repeat, found.
            let whole: Vec<&str> = sa.lines().filter(|l| SA_LOG.lines().any(|x| x == *l)).collect();
            let distinct: std::collections::HashSet<&str> = whole.iter().copied().collect();
            let repeats = expected.iter().filter(|v| v.rule == crate::rules::LOG_UNIQUE_EVENT_IDS).count();
            if window == 1 << 20 {
                prop_assert_eq!(repeats, whole.len() - distinct.len());
            }
        }

        /// The stream gives the same violations as the sorted report, in the
        /// order found; with a small buffer and a small line limit too.
        #[test]
        fn streaming_finds_what_the_report_finds(log in mangled_log(), partial in any::<bool>(), cap in 8usize..64) {
            let options = LogOptions::default().partial(partial);
            let streamed = collect(log.as_bytes(), &options);
            let report = validate_map_log_with(log.as_bytes(), &options);
            let mut a: Vec<_> = streamed.iter().map(key).collect();
            let b: Vec<_> = report.violations().iter().map(key).collect();
            a.sort_by_key(|k| k.0.unwrap_or(u64::MAX));
            prop_assert_eq!(&a, &b);
            // A reader with a tiny buffer splits lines across reads.
            let small = std::io::BufReader::with_capacity(cap, log.as_bytes());
            let report_small = validate_map_log_with(small, &options);
            let c: Vec<_> = report_small.violations().iter().map(key).collect();
            prop_assert_eq!(&c, &b);
            // Partial mode only changes severities, never the findings.
            let strict = validate_map_log(log.as_bytes());
            let d: Vec<_> = strict.violations().iter().map(|v| (v.line, v.rule.to_string())).collect();
            let e: Vec<_> = report.violations().iter().map(|v| (v.line, v.rule.to_string())).collect();
            prop_assert_eq!(d, e);
        }
    }
}
