//! The streaming MAP and SA log validators, and what they share: the open
//! sessions (runs) by id, the bounded memory of completed ones, and the
//! driver that feeds a log's lines to a validator.
//!
//! The validators are also reachable as `mplp_events::log::{MapLogValidator,
//! SaLogValidator, validate_map_log, validate_sa_log}`.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::BufRead;

use mplp_core::{Document, Report, Rule, Violation};
use uuid::Uuid;

use crate::log::read::{for_each_line, parse_line};

mod map;
mod sa;

pub use map::{MapLogValidator, validate_map_log};
pub use sa::{SaLogValidator, validate_sa_log};

/// How many completed sessions (or SA runs) a validator remembers, to report
/// events that come after their completion. Older ones are forgotten first;
/// an event of a forgotten session is then reported as one without a start.
pub const DEFAULT_COMPLETED_MEMORY: usize = 1 << 18;

/// The hasher of the validators' maps keyed by UUIDs and turn numbers, which
/// are looked up on every event: foldhash, several times cheaper than SipHash
/// on 16-byte keys. Its `RandomState` is seeded per process and per map, so a
/// log cannot be crafted in advance to collide (see `docs/spec-notes.md`,
/// "One fast hasher").
pub(crate) type IdMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// A bounded memory of completed sessions (FIFO).
pub(crate) struct Completed {
    set: HashSet<Uuid, foldhash::fast::RandomState>,
    order: VecDeque<Uuid>,
    cap: usize,
}

impl Completed {
    fn new(cap: usize) -> Self {
        Completed {
            set: HashSet::default(),
            order: VecDeque::new(),
            cap,
        }
    }

    fn insert(&mut self, id: Uuid) {
        if self.cap == 0 || !self.set.insert(id) {
            return;
        }
        self.order.push_back(id);
        if self.order.len() > self.cap {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
            }
        }
    }

    fn contains(&self, id: &Uuid) -> bool {
        self.set.contains(id)
    }
}

/// What the MAP and SA validators share: the open sessions (runs) by id,
/// the bounded memory of completed ones, the violations found so far and the
/// number of events seen.
pub(crate) struct Books<S> {
    /// Event ids seen (rule `log_unique_event_ids`, [`crate::unique_ids`]).
    pub(crate) ids: crate::unique_ids::UniqueIds,
    open: IdMap<Uuid, S>,
    completed: Completed,
    report: Report,
    events: u64,
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
        match self.open.entry(id) {
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
        let state = self.open.remove(&id);
        self.completed.insert(id);
        state
    }

    /// Takes every open session out, in the order they started.
    fn take_open(&mut self) -> Vec<(Uuid, S)> {
        let mut open: Vec<_> = std::mem::take(&mut self.open).into_iter().collect();
        open.sort_by_key(|(_, s)| s.started_line());
        open
    }
}

impl<S> Books<S> {
    fn new(completed_memory: usize) -> Self {
        Books {
            ids: crate::unique_ids::UniqueIds::new(),
            open: IdMap::default(),
            completed: Completed::new(completed_memory),
            report: Report::new(),
            events: 0,
        }
    }

    /// Parses one line; the violations of a line that does not parse (or
    /// breaks a rule of its own) are reported.
    fn parse<T: Document>(&mut self, line: u64, bytes: &[u8]) -> Option<T> {
        match parse_line::<T>(line, bytes) {
            Ok(e) => Some(e),
            Err(v) => {
                self.report.extend(v);
                None
            }
        }
    }

    fn err(&mut self, line: u64, pointer: &str, rule: Rule, message: String) {
        self.report
            .push(Violation::error(pointer, rule, message).at_line(line));
    }
}

/// Feeds every line of `reader` to a validator and finishes it; an I/O
/// error is reported after the validator's findings.
pub(crate) fn validate_log<V>(
    reader: impl BufRead,
    mut validator: V,
    push_line: fn(&mut V, u64, &[u8]),
    finish: fn(V) -> Report,
) -> Report {
    let mut io_report = Report::new();
    for_each_line(reader, &mut io_report, |line, bytes| {
        push_line(&mut validator, line, bytes)
    });
    let mut report = finish(validator);
    report.extend(io_report);
    report
}

/// Sorts violations by line (stable) into a report.
pub(crate) fn sorted(report: Report) -> Report {
    let mut v = report.into_violations();
    v.sort_by_key(|v| v.line.unwrap_or(u64::MAX));
    let mut r = Report::new();
    r.extend(v);
    r
}
