//! NDJSON event logs: streaming reading, writing and validation.
//!
//! A log is one JSON event per line. Everything here streams: memory does not
//! grow with the length of the log, only with what is still open (sessions
//! not completed, turns not completed, broadcasts not answered, conflicts not
//! resolved, steps not finished) and with the bounded window of event ids
//! kept to find repeats ([`crate::unique_ids`]). Blank lines are skipped; a bad line is
//! reported with its (1-based) line number and reading goes on.
//!
//! ```
//! use mplp_core::{CollabId, CollabMode};
//! use mplp_events::log::{validate_map_log, EventSink, LogWriter};
//! use mplp_events::map::RoleAssignment;
//! use mplp_events::MapEvent;
//!
//! let s = CollabId::new();
//! let mut log = LogWriter::new(Vec::new());
//! log.emit(MapEvent::session_started(s, CollabMode::RoundRobin, 1))?;
//! log.emit(MapEvent::roles_assigned(s, vec![RoleAssignment::new("p1".into(), "coder".into())]))?;
//! log.emit(MapEvent::turn_dispatched(s, "coder", 1))?;
//! log.emit(MapEvent::turn_completed(s, "coder", 1, "completed"))?;
//! log.emit(MapEvent::session_completed(s, "completed", 1))?;
//! let bytes = log.into_inner();
//! assert!(validate_map_log(&bytes[..]).is_empty());
//!
//! // Without the completion of turn 1:
//! let broken: Vec<&[u8]> = bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()).collect();
//! let text = [broken[0], broken[1], broken[2], broken[4]].join(&b'\n');
//! let report = validate_map_log(&text[..]);
//! let found: Vec<_> = report.errors().map(|v| (v.line, v.rule.as_str())).collect();
//! assert_eq!(found, [
//!     (Some(3), "map_turn_completion_matches_dispatch"),
//!     (Some(4), "map_session_counts_match"),
//! ]);
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hasher, RandomState};
use std::io::{self, BufRead, Write};
use std::marker::PhantomData;

use mplp_core::document::thorough;
use mplp_core::{Document, Report, Rule, Violation};
use serde::Serialize;
use uuid::Uuid;

use crate::map::{MapEvent, MapEventType, MapPayload};
use crate::rules::*;
use crate::sa::{SaEvent, SaEventType, SaPayload};

/// A line of the log could not be read (an I/O error); reading stops.
pub const LOG_READ_ERROR: Rule = Rule::new("log_read_error");

/// How many completed sessions (or SA runs) a validator remembers, to report
/// events that come after their completion. Older ones are forgotten first;
/// an event of a forgotten session is then reported as one without a start.
pub const DEFAULT_COMPLETED_MEMORY: usize = 1 << 18;

// ---------------------------------------------------------------------------
// Reading

/// Calls `f(line_number, bytes)` for every non-blank line. Lines that lie
/// whole in the reader's buffer are handed over in place (no copy); only a
/// line cut by the buffer's end is gathered in a side buffer. An I/O error is
/// reported in `report` and ends the reading.
fn for_each_line(mut reader: impl BufRead, report: &mut Report, mut f: impl FnMut(u64, &[u8])) {
    let mut carry: Vec<u8> = Vec::new();
    let mut line = 0u64;
    let mut emit = |line: u64, bytes: &[u8]| {
        if !bytes.iter().all(u8::is_ascii_whitespace) {
            f(line, bytes);
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
            if !carry.is_empty() {
                line += 1;
                emit(line, &carry);
            }
            return;
        }
        let len = avail.len();
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', avail) {
            line += 1;
            let piece = avail.get(start..nl).unwrap_or_default();
            if carry.is_empty() {
                emit(line, piece);
            } else {
                carry.extend_from_slice(piece);
                emit(line, &carry);
                carry.clear();
            }
            start = nl + 1;
        }
        carry.extend_from_slice(avail.get(start..).unwrap_or_default());
        reader.consume(len);
    }
}

/// Parses one line as a `T`: the typed fast path, and on failure every
/// violation of the line (with its line number).
fn parse_line<T: Document>(line: u64, bytes: &[u8]) -> Result<T, Vec<Violation>> {
    // Checking UTF-8 once for the whole line lets serde_json skip the check
    // per string (from_str instead of from_slice).
    let parsed = match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str::<T>(text),
        Err(_) => serde_json::from_slice::<T>(bytes),
    };
    match parsed {
        Ok(doc) => {
            let mut report = Report::new();
            doc.check_rules(&mut report);
            if report.is_valid() {
                Ok(doc)
            } else {
                Err(report.into_iter().map(|v| v.at_line(line)).collect())
            }
        }
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

// ---------------------------------------------------------------------------
// Writing

/// Where a runtime sends the events it emits.
///
/// Implemented by [`LogWriter`] (NDJSON), by `Vec<E>` (collect in memory) and
/// by the validators ([`MapLogValidator`], [`SaLogValidator`]: check as you go).
pub trait EventSink<E> {
    /// Takes one event.
    fn emit(&mut self, event: E) -> io::Result<()>;
}

impl<E> EventSink<E> for Vec<E> {
    fn emit(&mut self, event: E) -> io::Result<()> {
        self.push(event);
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

// ---------------------------------------------------------------------------
// Hashing ids and turn numbers

/// The hasher of the validators' maps keyed by UUIDs and turn numbers, which
/// are looked up on every event: a folded 64x64->128 multiply with keys drawn
/// from the standard library's random source (as foldhash does), several
/// times cheaper than SipHash on 16-byte keys. The keys are random per map,
/// so a log cannot be crafted in advance to collide.
#[derive(Clone, Copy)]
pub(crate) struct IdHash {
    k0: u64,
    k1: u64,
}

impl Default for IdHash {
    fn default() -> Self {
        let s = RandomState::new();
        IdHash {
            k0: s.hash_one(0x243f_6a88_85a3_08d3_u64),
            k1: s.hash_one(0x1319_8a2e_0370_7344_u64) | 1,
        }
    }
}

impl BuildHasher for IdHash {
    type Hasher = IdHasher;
    fn build_hasher(&self) -> IdHasher {
        IdHasher {
            h: self.k0,
            k: self.k1,
        }
    }
}

pub(crate) struct IdHasher {
    h: u64,
    k: u64,
}

fn fold_mul(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            for (d, b) in w.iter_mut().zip(c) {
                *d = *b;
            }
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.h = fold_mul(self.h ^ x, self.k);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        fold_mul(self.h, self.k ^ 0x9e37_79b9_7f4a_7c15)
    }
}

type IdMap<K, V> = HashMap<K, V, IdHash>;

// ---------------------------------------------------------------------------
// Completed sessions

/// A bounded memory of completed sessions (FIFO).
struct Completed {
    set: HashSet<Uuid, IdHash>,
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
struct Books<S> {
    /// Event ids seen (rule `log_unique_event_ids`, crate::unique_ids).
    ids: crate::unique_ids::UniqueIds,
    open: IdMap<Uuid, S>,
    completed: Completed,
    report: Report,
    events: u64,
}

/// The state the validators keep per open session (run).
trait Tracked: Default {
    /// The line of the session's first event.
    fn started_line(&self) -> u64;
    /// Records the line of the session's first event.
    fn set_started_line(&mut self, line: u64);
}

/// Why an event is refused before the rules of its session are checked.
enum Refused {
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
fn validate_log<V>(
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
fn sorted(report: Report) -> Report {
    let mut v = report.into_violations();
    v.sort_by_key(|v| v.line.unwrap_or(u64::MAX));
    let mut r = Report::new();
    r.extend(v);
    r
}

// ---------------------------------------------------------------------------
// MAP logs

#[derive(Default)]
struct SessionState {
    started_line: u64,
    participant_count: Option<u64>,
    roles_assigned: bool,
    roles_reported: bool,
    /// The highest turn number dispatched so far.
    last_turn: u64,
    completed_turns: u64,
    /// Turn number → (role, line of the dispatch).
    open_turns: IdMap<u64, (Box<str>, u64)>,
    broadcasts: u64,
    /// broadcast_id → (line of the broadcast, answered).
    broadcast_ids: HashMap<Box<str>, (u64, bool)>,
    /// Lines of broadcasts without `broadcast_id` not yet answered.
    unlinked_broadcasts: Vec<u64>,
    unlinked_sent: u64,
    conflicts: u64,
    /// conflict_id → line of the detection.
    open_conflicts: HashMap<Box<str>, u64>,
    unlinked_conflicts: Vec<u64>,
}

impl Tracked for SessionState {
    fn started_line(&self) -> u64 {
        self.started_line
    }
    fn set_started_line(&mut self, line: u64) {
        self.started_line = line;
    }
}

impl SessionState {
    fn open_items(&self) -> usize {
        self.open_turns.len()
            + self.broadcast_ids.len()
            + self.unlinked_broadcasts.len()
            + self.open_conflicts.len()
            + self.unlinked_conflicts.len()
    }
}

/// The streaming MAP log validator: O(1) work per event, memory bounded by
/// what is still open. Sessions may interleave.
///
/// Rules (all reported with the line and rule id; see [`crate::rules`]):
/// schema and payload rules of each line; `map_session_started_first`,
/// `map_roles_assigned_required`, `map_roles_assigned_once`, `map_turn_number_sequence`,
/// `map_turn_completion_matches_dispatch`, `map_turn_completed_without_dispatch`,
/// `map_broadcast_has_receivers`, `map_broadcast_receiver_unmatched`,
/// `map_conflict_resolved`, `map_conflict_resolution_unmatched`,
/// `map_session_counts_match`, `map_session_completed_last`.
///
/// ```
/// use mplp_events::log::MapLogValidator;
/// let mut v = MapLogValidator::new();
/// v.push_line(1, br#"{"event_id":"ca7350a9-f7ff-4c29-b07d-de720544a6a0","event_type":"MAPTurnDispatched","timestamp":"2025-12-07T00:00:00Z","session_id":"35e68fcd-928b-41d2-b8ee-b6a4232ea2a3","payload":{"role_id":"coder","turn_number":1}}"#);
/// let report = v.finish();
/// let rules: Vec<_> = report.errors().map(|e| e.rule.as_str()).collect();
/// assert_eq!(rules, [
///     "map_session_started_first",            // no MAPSessionStarted before it
///     "map_roles_assigned_required",          // no MAPRolesAssigned before it
///     "map_session_completed_last",           // the session never completes
///     "map_turn_completion_matches_dispatch", // the turn never completes
/// ]);
/// ```
pub struct MapLogValidator {
    books: Books<SessionState>,
}

impl Default for MapLogValidator {
    fn default() -> Self {
        Self::new()
    }
}

impl MapLogValidator {
    /// A validator that remembers the last [`DEFAULT_COMPLETED_MEMORY`] completed sessions.
    pub fn new() -> Self {
        Self::with_completed_memory(DEFAULT_COMPLETED_MEMORY)
    }

    /// A validator that remembers the last `n` completed sessions.
    pub fn with_completed_memory(n: usize) -> Self {
        MapLogValidator {
            books: Books::new(n),
        }
    }

    /// The same validator, finding repeated event ids within `window` events
    /// (0: not at all); see [`crate::unique_ids`].
    #[must_use]
    pub fn with_event_id_window(mut self, window: usize) -> Self {
        self.books.ids = crate::unique_ids::UniqueIds::with_window(window);
        self
    }

    /// Validates one line of the log (its bytes, without the newline or with it).
    pub fn push_line(&mut self, line: u64, bytes: &[u8]) {
        if let Some(e) = self.books.parse::<MapEvent>(line, bytes) {
            self.push(line, &e);
        }
    }

    /// The number of items still open (sessions, turns, broadcasts,
    /// conflicts): what the validator's memory grows with.
    pub fn open_items(&self) -> usize {
        self.books.open.len()
            + self
                .books
                .open
                .values()
                .map(SessionState::open_items)
                .sum::<usize>()
    }

    /// Validates one (already parsed) event found on `line`.
    pub fn push(&mut self, line: u64, event: &MapEvent) {
        // Unique event ids across the log (crate::unique_ids).
        if let Some(first) = self.books.ids.see(*event.event_id.as_uuid(), line) {
            let msg = crate::unique_ids::repeat_message(&event.event_id, first);
            self.books.err(line, "/event_id", LOG_UNIQUE_EVENT_IDS, msg);
        }
        let id = *event.session_id.as_schema_uuid().as_uuid();
        let t = event.event_type();
        let (state, fresh) = match self
            .books
            .enter(id, line, t == MapEventType::SessionStarted)
        {
            Ok(entered) => entered,
            Err(Refused::AfterCompletion) => {
                self.books.err(
                    line,
                    "/event_type",
                    MAP_SESSION_COMPLETED_LAST,
                    format!(
                        "{t} comes after the MAPSessionCompleted of session {}: nothing may follow it",
                        event.session_id
                    ),
                );
                return;
            }
            Err(Refused::StartedAgain(first)) => {
                self.books.err(
                    line,
                    "/event_type",
                    MAP_SESSION_STARTED_FIRST,
                    format!(
                        "session {} was already started (line {first}); a session starts once",
                        event.session_id
                    ),
                );
                return;
            }
        };
        let mut out: Vec<Violation> = Vec::new();
        let mut err = |pointer: &str, rule: Rule, message: String| {
            out.push(Violation::error(pointer, rule, message).at_line(line));
        };
        if fresh && t != MapEventType::SessionStarted {
            err(
                "/event_type",
                MAP_SESSION_STARTED_FIRST,
                format!(
                    "the first event of session {} is {t}; a session begins with MAPSessionStarted",
                    event.session_id
                ),
            );
        }
        if !matches!(
            t,
            MapEventType::SessionStarted | MapEventType::RolesAssigned
        ) && !state.roles_assigned
            && !state.roles_reported
        {
            state.roles_reported = true;
            err(
                "/event_type",
                MAP_ROLES_ASSIGNED_REQUIRED,
                format!(
                    "{t} before any MAPRolesAssigned of session {}: roles are assigned right after the session starts",
                    event.session_id
                ),
            );
        }
        let mut close = false;
        match &event.payload {
            MapPayload::SessionStarted(p) => state.participant_count = Some(p.participant_count),
            MapPayload::RolesAssigned(_) => {
                if state.roles_assigned {
                    err(
                        "/event_type",
                        MAP_ROLES_ASSIGNED_ONCE,
                        format!(
                            "session {} assigns roles a second time; a session has one MAPRolesAssigned",
                            event.session_id
                        ),
                    );
                }
                state.roles_assigned = true;
            }
            MapPayload::TurnDispatched(p) => {
                let expected = state.last_turn + 1;
                if p.turn_number != expected {
                    err(
                        "/payload/turn_number",
                        MAP_TURN_NUMBER_SEQUENCE,
                        if p.turn_number <= state.last_turn {
                            format!(
                                "turn {} was dispatched again (or out of order): turn numbers of a session go 1, 2, 3, ... and the next one is {expected}",
                                p.turn_number
                            )
                        } else {
                            format!(
                                "turn {} skips turn {expected}: turn numbers of a session go 1, 2, 3, ... without gaps",
                                p.turn_number
                            )
                        },
                    );
                }
                if p.turn_number > state.last_turn {
                    state.last_turn = p.turn_number;
                }
                state
                    .open_turns
                    .entry(p.turn_number)
                    .or_insert_with(|| (p.role_id.as_str().into(), line));
            }
            MapPayload::TurnCompleted(p) => match state.open_turns.get(&p.turn_number) {
                Some((role, _)) if **role == *p.role_id => {
                    state.open_turns.remove(&p.turn_number);
                    state.completed_turns += 1;
                }
                Some((role, at)) => err(
                    "/payload/role_id",
                    MAP_TURN_COMPLETED_WITHOUT_DISPATCH,
                    format!(
                        "turn {} was dispatched to `{role}` (line {at}), not to `{}`",
                        p.turn_number, p.role_id
                    ),
                ),
                None => err(
                    "/payload/turn_number",
                    MAP_TURN_COMPLETED_WITHOUT_DISPATCH,
                    format!(
                        "turn {} of `{}` completes, but no such turn is open in this session (never dispatched, or already completed)",
                        p.turn_number, p.role_id
                    ),
                ),
            },
            MapPayload::BroadcastSent(p) => {
                state.broadcasts += 1;
                match p.as_ref().and_then(|p| p.broadcast_id.as_deref()) {
                    Some(b) => {
                        state.broadcast_ids.entry(b.into()).or_insert((line, false));
                    }
                    None => {
                        state.unlinked_broadcasts.push(line);
                        state.unlinked_sent += 1;
                    }
                }
            }
            MapPayload::BroadcastReceived(p) => match p.as_ref().and_then(|p| p.broadcast_link()) {
                Some(b) => match state.broadcast_ids.get_mut(b) {
                    Some(entry) => entry.1 = true,
                    None => err(
                        "/payload/broadcast_id",
                        MAP_BROADCAST_RECEIVER_UNMATCHED,
                        format!(
                            "no earlier MAPBroadcastSent of this session has broadcast_id `{b}`"
                        ),
                    ),
                },
                None if state.unlinked_sent > 0 => state.unlinked_broadcasts.clear(),
                None => err(
                    "/payload",
                    MAP_BROADCAST_RECEIVER_UNMATCHED,
                    "a broadcast is received, but no broadcast was sent in this session".into(),
                ),
            },
            MapPayload::ConflictDetected(p) => {
                state.conflicts += 1;
                match p.as_ref().and_then(|p| p.conflict_id.as_deref()) {
                    Some(c) => {
                        state.open_conflicts.entry(c.into()).or_insert(line);
                    }
                    None => state.unlinked_conflicts.push(line),
                }
            }
            MapPayload::ConflictResolved(p) => {
                match p.as_ref().and_then(|p| p.conflict_id.as_deref()) {
                    Some(c) => {
                        if state.open_conflicts.remove(c).is_none() {
                            err(
                                "/payload/conflict_id",
                                MAP_CONFLICT_RESOLUTION_UNMATCHED,
                                format!(
                                    "conflict `{c}` is not open in this session (never detected, or already resolved)"
                                ),
                            );
                        }
                    }
                    None => {
                        if state.unlinked_conflicts.pop().is_none() {
                            err(
                                "/payload",
                                MAP_CONFLICT_RESOLUTION_UNMATCHED,
                                "a conflict is resolved, but no conflict without conflict_id is open in this session".into(),
                            );
                        }
                    }
                }
            }
            MapPayload::SessionCompleted(p) => {
                let counts = [
                    (
                        "turns_total",
                        Some(p.turns_total),
                        state.completed_turns,
                        "completed turns (MAPTurnCompleted)",
                    ),
                    (
                        "broadcasts_count",
                        p.broadcasts_count,
                        state.broadcasts,
                        "MAPBroadcastSent events",
                    ),
                    (
                        "conflicts_count",
                        p.conflicts_count,
                        state.conflicts,
                        "MAPConflictDetected events",
                    ),
                ];
                for (field, claimed, seen, what) in counts {
                    if let Some(claimed) = claimed {
                        if claimed != seen {
                            err(
                                &format!("/payload/{field}"),
                                MAP_SESSION_COUNTS_MATCH,
                                format!(
                                    "{field} is {claimed}, but the log shows {seen} {what} in this session"
                                ),
                            );
                        }
                    }
                }
                if let (Some(claimed), Some(started)) =
                    (p.participants_count, state.participant_count)
                {
                    if claimed != started {
                        err(
                            "/payload/participants_count",
                            MAP_SESSION_COUNTS_MATCH,
                            format!(
                                "participants_count is {claimed}, but MAPSessionStarted said participant_count {started}"
                            ),
                        );
                    }
                }
                close = true;
            }
        }
        self.books.report.extend(out);
        if close {
            if let Some(state) = self.books.complete(id) {
                let session = event.session_id.to_string();
                self.close(&session, state);
            }
        }
    }

    /// Reports everything a session leaves open.
    fn close(&mut self, session: &str, state: SessionState) {
        let mut turns: Vec<_> = state.open_turns.into_iter().collect();
        turns.sort_by_key(|(_, (_, line))| *line);
        for (turn, (role, line)) in turns {
            self.books.err(
                line,
                "/payload/turn_number",
                MAP_TURN_COMPLETION_MATCHES_DISPATCH,
                format!(
                    "turn {turn} of `{role}` in session {session} is dispatched but never completed"
                ),
            );
        }
        let mut unanswered: Vec<_> = state
            .broadcast_ids
            .into_iter()
            .filter(|(_, (_, answered))| !answered)
            .map(|(id, (line, _))| (line, Some(id)))
            .chain(state.unlinked_broadcasts.into_iter().map(|l| (l, None)))
            .collect();
        unanswered.sort_by_key(|(line, _)| *line);
        for (line, id) in unanswered {
            let what = id.map_or_else(
                || "a broadcast without broadcast_id".to_owned(),
                |id| format!("broadcast `{id}`"),
            );
            self.books.err(
                line,
                "/payload",
                MAP_BROADCAST_HAS_RECEIVERS,
                format!("{what} of session {session} has no MAPBroadcastReceived answering it"),
            );
        }
        let mut conflicts: Vec<_> = state
            .open_conflicts
            .into_iter()
            .map(|(id, line)| (line, Some(id)))
            .chain(state.unlinked_conflicts.into_iter().map(|l| (l, None)))
            .collect();
        conflicts.sort_by_key(|(line, _)| *line);
        for (line, id) in conflicts {
            let what = id.map_or_else(
                || "a conflict without conflict_id".to_owned(),
                |id| format!("conflict `{id}`"),
            );
            self.books.err(
                line,
                "/payload",
                MAP_CONFLICT_RESOLVED,
                format!("{what} of session {session} is never resolved (no MAPConflictResolved)"),
            );
        }
    }

    /// Ends the log: reports every session not completed (and what it left
    /// open), and returns all violations sorted by line.
    pub fn finish(mut self) -> Report {
        let open = self.books.take_open();
        for (id, state) in open {
            let session = id.hyphenated().to_string();
            self.books.err(
                state.started_line,
                "/session_id",
                MAP_SESSION_COMPLETED_LAST,
                format!(
                    "session {session} is never completed: a session ends with MAPSessionCompleted"
                ),
            );
            self.close(&session, state);
        }
        sorted(self.books.report)
    }
}

impl EventSink<MapEvent> for MapLogValidator {
    /// Validates the event as the next line.
    fn emit(&mut self, event: MapEvent) -> io::Result<()> {
        let line = self.books.events + 1;
        self.push(line, &event);
        Ok(())
    }
}

impl EventSink<&MapEvent> for MapLogValidator {
    fn emit(&mut self, event: &MapEvent) -> io::Result<()> {
        let line = self.books.events + 1;
        self.push(line, event);
        Ok(())
    }
}

/// Validates a MAP event log (NDJSON), streaming: every violation carries its
/// line. See [`MapLogValidator`] for the rules.
pub fn validate_map_log(reader: impl BufRead) -> Report {
    validate_log(
        reader,
        MapLogValidator::new(),
        MapLogValidator::push_line,
        MapLogValidator::finish,
    )
}

// ---------------------------------------------------------------------------
// SA logs

#[derive(Default)]
struct RunState {
    started_line: u64,
    /// The highest lifecycle phase seen.
    phase: u8,
    /// Which event types were seen (bit per `SaEventType` index).
    seen: u16,
    /// step_id → line of its start.
    open_steps: IdMap<Uuid, u64>,
}

impl Tracked for RunState {
    fn started_line(&self) -> u64 {
        self.started_line
    }
    fn set_started_line(&mut self, line: u64) {
        self.started_line = line;
    }
}

fn type_bit(t: SaEventType) -> u16 {
    let i = SaEventType::ALL.iter().position(|x| *x == t).unwrap_or(0);
    1 << i
}

const PHASE_NAMES: [&str; 6] = [
    "initialize",
    "load_context",
    "evaluate_plan",
    "execute_steps",
    "emit_trace",
    "complete",
];

/// The streaming SA log validator (runs keyed by `sa_id`, which may interleave).
///
/// Rules: schema and payload rules of each line; `sa_initialized_first`,
/// `sa_lifecycle_order` (the profile's phases in order: initialize,
/// load_context, evaluate_plan, execute_steps, emit_trace, complete),
/// `sa_step_started_is_finished`, `sa_step_finished_without_start`,
/// `sa_completed_last`, and the warning `sa_mandatory_event_missing`.
pub struct SaLogValidator {
    books: Books<RunState>,
}

impl Default for SaLogValidator {
    fn default() -> Self {
        Self::new()
    }
}

impl SaLogValidator {
    /// A validator that remembers the last [`DEFAULT_COMPLETED_MEMORY`] completed runs.
    pub fn new() -> Self {
        Self::with_completed_memory(DEFAULT_COMPLETED_MEMORY)
    }

    /// A validator that remembers the last `n` completed runs.
    pub fn with_completed_memory(n: usize) -> Self {
        SaLogValidator {
            books: Books::new(n),
        }
    }

    /// The same validator, finding repeated event ids within `window` events
    /// (0: not at all); see [`crate::unique_ids`].
    #[must_use]
    pub fn with_event_id_window(mut self, window: usize) -> Self {
        self.books.ids = crate::unique_ids::UniqueIds::with_window(window);
        self
    }

    /// Validates one line of the log.
    pub fn push_line(&mut self, line: u64, bytes: &[u8]) {
        if let Some(e) = self.books.parse::<SaEvent>(line, bytes) {
            self.push(line, &e);
        }
    }

    /// The number of items still open (runs and running steps).
    pub fn open_items(&self) -> usize {
        self.books.open.len()
            + self
                .books
                .open
                .values()
                .map(|r| r.open_steps.len())
                .sum::<usize>()
    }

    /// Validates one (already parsed) event found on `line`.
    pub fn push(&mut self, line: u64, event: &SaEvent) {
        // Unique event ids across the log (crate::unique_ids).
        if let Some(first) = self.books.ids.see(*event.event_id.as_uuid(), line) {
            let msg = crate::unique_ids::repeat_message(&event.event_id, first);
            self.books.err(line, "/event_id", LOG_UNIQUE_EVENT_IDS, msg);
        }
        let id = *event.sa_id.as_schema_uuid().as_uuid();
        let t = event.event_type();
        let (state, fresh) = match self.books.enter(id, line, t == SaEventType::Initialized) {
            Ok(entered) => entered,
            Err(Refused::AfterCompletion) => {
                self.books.err(
                    line,
                    "/event_type",
                    SA_COMPLETED_LAST,
                    format!(
                        "{t} comes after the SACompleted of run {}: nothing may follow it",
                        event.sa_id
                    ),
                );
                return;
            }
            Err(Refused::StartedAgain(first)) => {
                self.books.err(
                    line,
                    "/event_type",
                    SA_INITIALIZED_FIRST,
                    format!("run {} was already initialized (line {first})", event.sa_id),
                );
                return;
            }
        };
        let mut out: Vec<Violation> = Vec::new();
        let mut err = |pointer: &str, rule: Rule, message: String| {
            out.push(Violation::error(pointer, rule, message).at_line(line));
        };
        if fresh && t != SaEventType::Initialized {
            err(
                "/event_type",
                SA_INITIALIZED_FIRST,
                format!(
                    "the first event of run {} is {t}; a run begins with SAInitialized",
                    event.sa_id
                ),
            );
        }
        let phase = t.phase();
        if phase < state.phase {
            err(
                "/event_type",
                SA_LIFECYCLE_ORDER,
                format!(
                    "{t} (phase {}) comes after phase {}: the SA phases are {}",
                    PHASE_NAMES[usize::from(phase).min(5)],
                    PHASE_NAMES[usize::from(state.phase).min(5)],
                    PHASE_NAMES.join(", ")
                ),
            );
        } else {
            state.phase = phase;
        }
        state.seen |= type_bit(t);
        let mut close = false;
        match &event.payload {
            SaPayload::StepStarted(p) => {
                let step = *p.step_id.as_uuid();
                if let Some(first) = state.open_steps.get(&step) {
                    err(
                        "/payload/step_id",
                        SA_STEP_STARTED_IS_FINISHED,
                        format!(
                            "step {} starts again, but its start on line {first} has not finished",
                            p.step_id
                        ),
                    );
                } else {
                    state.open_steps.insert(step, line);
                }
            }
            SaPayload::StepCompleted(_) | SaPayload::StepFailed(_) => {
                if let Some(step) = event.payload.step_id() {
                    if state.open_steps.remove(step.as_uuid()).is_none() {
                        err(
                            "/payload/step_id",
                            SA_STEP_FINISHED_WITHOUT_START,
                            format!(
                                "step {step} finishes, but it is not running (no SAStepStarted, or already finished)"
                            ),
                        );
                    }
                }
            }
            SaPayload::Completed(_) => close = true,
            _ => {}
        }
        if close {
            for (t, why) in [
                (SaEventType::ContextLoaded, "load_context"),
                (SaEventType::PlanEvaluated, "evaluate_plan"),
                (SaEventType::TraceEmitted, "emit_trace"),
            ] {
                if state.seen & type_bit(t) == 0 {
                    out.push(
                        Violation::warning(
                            "/event_type",
                            SA_MANDATORY_EVENT_MISSING,
                            format!("run {} completes without {t} (phase {why}), which the SA profile lists as mandatory", event.sa_id),
                        )
                        .at_line(line),
                    );
                }
            }
        }
        self.books.report.extend(out);
        if close {
            if let Some(state) = self.books.complete(id) {
                self.close(&event.sa_id.to_string(), state);
            }
        }
    }

    fn close(&mut self, run: &str, state: RunState) {
        let mut steps: Vec<_> = state.open_steps.into_iter().collect();
        steps.sort_by_key(|(_, line)| *line);
        for (step, line) in steps {
            self.books.err(
                line,
                "/payload/step_id",
                SA_STEP_STARTED_IS_FINISHED,
                format!(
                    "step {} of run {run} starts but never completes or fails",
                    step.hyphenated()
                ),
            );
        }
    }

    /// Ends the log: reports every run not completed, and returns all
    /// violations sorted by line.
    pub fn finish(mut self) -> Report {
        let open = self.books.take_open();
        for (id, state) in open {
            let run = id.hyphenated().to_string();
            self.books.err(
                state.started_line,
                "/sa_id",
                SA_COMPLETED_LAST,
                format!("run {run} is never completed: a run ends with SACompleted"),
            );
            self.close(&run, state);
        }
        sorted(self.books.report)
    }
}

impl EventSink<SaEvent> for SaLogValidator {
    fn emit(&mut self, event: SaEvent) -> io::Result<()> {
        let line = self.books.events + 1;
        self.push(line, &event);
        Ok(())
    }
}

/// Validates an SA event log (NDJSON), streaming: every violation carries its
/// line. See [`SaLogValidator`] for the rules.
pub fn validate_sa_log(reader: impl BufRead) -> Report {
    validate_log(
        reader,
        SaLogValidator::new(),
        SaLogValidator::push_line,
        SaLogValidator::finish,
    )
}
