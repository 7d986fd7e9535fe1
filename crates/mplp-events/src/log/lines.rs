//! The driver of logs whose lines are judged by the caller: mplp-check's
//! event log, whose lines are each of their own kind (a module event, a
//! core event, a tool event, a MAP event, ...), so that only a caller that
//! knows every kind can judge them.

use std::io::BufRead;
use std::ops::ControlFlow;

use mplp_core::{Report, Violation};
use uuid::Uuid;

use crate::rules::{LOG_EMPTY, LOG_UNIQUE_EVENT_IDS};
use crate::unique_ids::UniqueIds;
use crate::validate::{LineValidator, LogOptions, stream_log};

/// Streams a log whose lines `check` judges: `check` gets each non-blank
/// line's bytes, pushes the line's violations (their lines are set here)
/// and returns the line's event id when it has one. This driver does what
/// every log gets: lines over [`LogOptions::max_line`] are refused unread
/// (`log_line_too_long`), event ids are unique within
/// [`LogOptions::id_window`] events (`log_unique_event_ids`), an empty log
/// is a warning (`log_empty`), and a read error ends the log
/// (`log_read_error`). Each violation goes to `on` as soon as it is found;
/// `on` returning `Break` stops the reading. Memory: one line, and the id
/// window.
///
/// ```
/// use std::ops::ControlFlow;
/// use mplp_core::{Report, Rule};
/// use mplp_events::log::{LogOptions, stream_lines};
///
/// let log = "{\"n\": 1}\nnot json\n";
/// let mut found = Vec::new();
/// let _ = stream_lines(log.as_bytes(), &LogOptions::default(), |bytes, report| {
///     if serde_json::from_slice::<serde_json::Value>(bytes).is_err() {
///         report.error("", Rule::new("json-syntax"), "not JSON");
///     }
///     None
/// }, |v| { found.push((v.line, v.rule.to_string())); ControlFlow::Continue(()) });
/// assert_eq!(found, [(Some(2), "json-syntax".to_string())]);
/// ```
pub fn stream_lines(
    reader: impl BufRead,
    options: &LogOptions,
    check: impl FnMut(&[u8], &mut Report) -> Option<Uuid>,
    on: impl FnMut(Violation) -> ControlFlow<()>,
) -> ControlFlow<()> {
    stream_log(reader, options.max_line(), Lines::new(check, options), on)
}

/// The validator of [`stream_lines`] (and of its push form,
/// [`LogFeed::judged_by`](crate::log::LogFeed::judged_by)).
pub(crate) struct Lines<F> {
    check: F,
    ids: UniqueIds,
    report: Report,
    lines: u64,
}

impl<F> Lines<F> {
    pub(crate) fn new(check: F, options: &LogOptions) -> Self {
        Lines {
            check,
            ids: UniqueIds::with_window(options.id_window()),
            report: Report::new(),
            lines: 0,
        }
    }
}

impl<F: FnMut(&[u8], &mut Report) -> Option<Uuid>> LineValidator for Lines<F> {
    fn push_line(&mut self, line: u64, bytes: &[u8]) {
        self.lines += 1;
        let mut found = Report::new();
        let id = (self.check)(bytes, &mut found);
        for v in found {
            self.report.push(v.at_line(line));
        }
        if let Some(id) = id {
            if let Some(first) = self.ids.see(id, line) {
                self.report.push(
                    Violation::error(
                        "/event_id",
                        LOG_UNIQUE_EVENT_IDS,
                        format!(
                            "event id {id} was already used on line {first}: every event of a log has its own `event_id`"
                        ),
                    )
                    .at_line(line),
                );
            }
        }
    }

    fn take(&mut self) -> Vec<Violation> {
        std::mem::take(&mut self.report).into_violations()
    }

    fn flush(&mut self) -> Vec<Violation> {
        self.take()
    }

    fn end(mut self) -> Report {
        if self.lines == 0 {
            self.report.push(Violation::warning(
                "",
                LOG_EMPTY,
                "the log holds no event (it is empty or blank)",
            ));
        }
        self.report
    }

    fn refuse(&mut self, v: Violation) {
        self.lines += 1;
        self.report.push(v);
    }
}
