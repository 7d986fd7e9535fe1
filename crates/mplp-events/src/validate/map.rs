//! The streaming MAP log validator.

use mplp_core::{Report, Rule, ShortString, Violation};

use super::few::FewMap;
use super::{Books, Refused, Tracked};
use crate::map::{MapEvent, MapEventType, MapPayload};
use crate::rules::*;

#[derive(Default)]
struct SessionState {
    started_line: u64,
    participant_count: Option<u64>,
    roles_assigned: bool,
    roles_reported: bool,
    /// The highest turn number dispatched so far.
    last_turn: u64,
    completed_turns: u64,
    /// Turn number → (role, line of the dispatch). The role is a
    /// `ShortString` as the event has it: a clone of a role id of up to 24
    /// bytes (all the usual ones) allocates nothing, where a `Box<str>` cost
    /// an allocation and a free per turn.
    /// Usually one or none: a short list.
    open_turns: FewMap<u64, (ShortString, u64)>,
    broadcasts: u64,
    /// broadcast_id → (line of the broadcast, answered). A short list
    /// (usually a few ids a session) with `ShortString` keys: an id of up
    /// to 24 bytes is kept without an allocation, where a `HashMap` of
    /// `Box<str>` cost its table and the key's allocations (and SipHash).
    broadcast_ids: FewMap<ShortString, (u64, bool)>,
    /// Lines of broadcasts without `broadcast_id` not yet answered.
    unlinked_broadcasts: Vec<u64>,
    unlinked_sent: u64,
    conflicts: u64,
    /// conflict_id → line of the detection (as `broadcast_ids`).
    open_conflicts: FewMap<ShortString, u64>,
    unlinked_conflicts: Vec<u64>,
    /// The coordination-mode rules (`validate/modes.rs`).
    modes: super::modes::Modes,
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
/// `map_session_counts_match`, `map_session_completed_last`; and the
/// coordination modes (`validate/modes.rs`): `map_mode_exclusive_turns`,
/// `map_mode_round_robin_order`, `map_mode_pair_two_participants`,
/// `map_turn_role_assigned` and `map_timestamps_non_decreasing` (the last
/// two are warnings).
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

impl MapLogValidator {
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
        // Unique event ids across the log (crate::unique_ids), looked up
        // at the next event (Books::hold_id).
        self.books.hold_id(&event.event_id, line);
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
        // Coordination modes, before this event opens or closes a turn.
        state.modes.push(line, event, &state.open_turns, &mut out);
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
                    .insert_absent(p.turn_number, || (p.role_id.clone(), line));
            }
            MapPayload::TurnCompleted(p) => match state.open_turns.get(&p.turn_number) {
                Some((role, _)) if *role == p.role_id => {
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
                        state
                            .broadcast_ids
                            .insert_absent(b.into(), || (line, false));
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
                        state.open_conflicts.insert_absent(c.into(), || line);
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
                        ("completed turn", "completed turns", " (MAPTurnCompleted)"),
                    ),
                    (
                        "broadcasts_count",
                        p.broadcasts_count,
                        state.broadcasts,
                        ("MAPBroadcastSent event", "MAPBroadcastSent events", ""),
                    ),
                    (
                        "conflicts_count",
                        p.conflicts_count,
                        state.conflicts,
                        (
                            "MAPConflictDetected event",
                            "MAPConflictDetected events",
                            "",
                        ),
                    ),
                ];
                for (field, claimed, seen, (one, many, note)) in counts {
                    if let Some(claimed) = claimed {
                        if claimed != seen {
                            err(
                                &format!("/payload/{field}"),
                                MAP_SESSION_COUNTS_MATCH,
                                format!(
                                    "{field} is {claimed}, but the log shows {}{note} in this session",
                                    mplp_core::text::count_as(seen, one, many)
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
        if !out.is_empty() {
            self.books.report.extend(out);
        }
        if close {
            // The session's name is written only for a session that
            // leaves something open (`close` reports nothing otherwise).
            if let Some(state) = self.books.complete(id) {
                if state.open_items() > 0 {
                    let session = event.session_id.to_string();
                    self.close(&session, state, false);
                }
            }
        }
    }

    /// Reports everything a session leaves open.
    fn close(&mut self, session: &str, state: SessionState, at_end: bool) {
        let mut turns: Vec<_> = state.open_turns.into_entries().collect();
        turns.sort_by_key(|(_, (_, line))| *line);
        for (turn, (role, line)) in turns {
            self.books.open_item(
                at_end,
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
            .into_entries()
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
            self.books.open_item(
                at_end,
                line,
                "/payload",
                MAP_BROADCAST_HAS_RECEIVERS,
                format!("{what} of session {session} has no MAPBroadcastReceived answering it"),
            );
        }
        let mut conflicts: Vec<_> = state
            .open_conflicts
            .into_entries()
            .map(|(id, line)| (line, Some(id)))
            .chain(state.unlinked_conflicts.into_iter().map(|l| (l, None)))
            .collect();
        conflicts.sort_by_key(|(line, _)| *line);
        for (line, id) in conflicts {
            let what = id.map_or_else(
                || "a conflict without conflict_id".to_owned(),
                |id| format!("conflict `{id}`"),
            );
            self.books.open_item(
                at_end,
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
            self.books.open_at_end(
                state.started_line,
                "/session_id",
                MAP_SESSION_COMPLETED_LAST,
                format!(
                    "session {session} is never completed: a session ends with MAPSessionCompleted"
                ),
            );
            self.close(&session, state, true);
        }
        self.books.empty_log_warning();
        self.books.into_sorted()
    }
}

log_entry_points!(
    MapLogValidator,
    MapEvent,
    "a MAP",
    "sessions",
    validate_map_log,
    validate_map_log_with,
    stream_map_log
);
