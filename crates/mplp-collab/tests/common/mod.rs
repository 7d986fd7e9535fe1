//! The MAP log check used by the tests.
//!
//! Every line must be a valid `MapEvent` (mplp-events' typed parse and
//! rules), and the log must satisfy the session invariants of the MAP
//! profile: started first, roles assigned before anything else, every
//! dispatch completed (same role and turn number), turn numbers 1, 2, 3, ...,
//! every broadcast answered, every conflict resolved, completed last with
//! the counts of the log.
// Both mplp_events::log::validate_map_log and the checks below must pass.

use std::collections::BTreeMap;

use mplp_core::{Document, Report, Rule};
use mplp_events::{MapEvent, MapPayload};

pub(crate) fn validate_log(text: &str) -> Report {
    // mplp-events' validator first; then our own reading of the invariants.
    let mut report = mplp_events::log::validate_map_log(text.as_bytes());
    let mut err = |line: usize, rule: &'static str, msg: String| {
        report.push(mplp_core::Violation::error("", Rule::new(rule), msg).at_line(line as u64));
    };
    let mut events = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match MapEvent::from_json(line) {
            Ok(e) => events.push((i + 1, e)),
            Err(e) => err(i + 1, "map_event", e.to_string()),
        }
    }
    let mut open_turns: BTreeMap<u64, mplp_core::ShortString> = BTreeMap::new();
    let mut next_turn = 1;
    let mut completed_turns = 0u64;
    let mut broadcasts: BTreeMap<mplp_core::ShortString, usize> = BTreeMap::new();
    let mut conflicts: BTreeMap<mplp_core::ShortString, bool> = BTreeMap::new();
    let (mut started, mut assigned, mut finished) = (false, false, false);
    for (n, (line, e)) in events.iter().enumerate() {
        if finished {
            err(
                *line,
                "map_session_completed_last",
                "event after completion".into(),
            );
        }
        match &e.payload {
            MapPayload::SessionStarted(_) => {
                if n != 0 {
                    err(*line, "map_session_started_first", "not first".into())
                }
                started = true;
            }
            MapPayload::RolesAssigned(_) => assigned = true,
            other => {
                if !started || !assigned {
                    err(
                        *line,
                        "map_roles_assigned_required",
                        format!("{:?} before roles", other.event_type()),
                    );
                }
                match other {
                    MapPayload::TurnDispatched(p) => {
                        if p.turn_number != next_turn {
                            err(
                                *line,
                                "map_turn_number_sequence",
                                format!("turn {}", p.turn_number),
                            )
                        }
                        next_turn += 1;
                        open_turns.insert(p.turn_number, p.role_id.clone());
                    }
                    MapPayload::TurnCompleted(p) => {
                        if open_turns.remove(&p.turn_number).as_deref() != Some(p.role_id.as_str())
                        {
                            err(
                                *line,
                                "map_turn_completed_without_dispatch",
                                format!("turn {}", p.turn_number),
                            );
                        }
                        completed_turns += 1;
                    }
                    MapPayload::BroadcastSent(Some(p)) => {
                        broadcasts.insert(p.broadcast_id.clone().unwrap_or_default(), 0);
                    }
                    MapPayload::BroadcastReceived(Some(p)) => {
                        match broadcasts.get_mut(p.broadcast_link().unwrap_or("")) {
                            Some(c) => *c += 1,
                            None => err(
                                *line,
                                "map_broadcast_receiver_unmatched",
                                "unknown broadcast".into(),
                            ),
                        }
                    }
                    MapPayload::ConflictDetected(Some(p)) => {
                        conflicts.insert(p.conflict_id.clone().unwrap_or_default(), false);
                    }
                    MapPayload::ConflictResolved(Some(p)) => {
                        match conflicts.get_mut(p.conflict_id.as_deref().unwrap_or("")) {
                            Some(r) if !*r => *r = true,
                            _ => err(
                                *line,
                                "map_conflict_resolution_unmatched",
                                "unknown conflict".into(),
                            ),
                        }
                    }
                    MapPayload::SessionCompleted(p) => {
                        finished = true;
                        if p.turns_total != completed_turns {
                            err(*line, "map_session_counts_match", "turns_total".into())
                        }
                        if p.broadcasts_count
                            .is_some_and(|b| b != broadcasts.len() as u64)
                        {
                            err(*line, "map_session_counts_match", "broadcasts".into())
                        }
                        if p.conflicts_count
                            .is_some_and(|c| c != conflicts.len() as u64)
                        {
                            err(*line, "map_session_counts_match", "conflicts".into())
                        }
                        if !open_turns.is_empty() {
                            err(
                                *line,
                                "map_turn_completion_matches_dispatch",
                                format!("{open_turns:?}"),
                            )
                        }
                        if broadcasts.values().any(|c| *c == 0) {
                            err(*line, "map_broadcast_has_receivers", "unanswered".into())
                        }
                        if conflicts.values().any(|r| !*r) {
                            err(*line, "map_conflict_resolved", "unresolved".into())
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    if !finished {
        err(
            0,
            "map_session_completed_last",
            "no MAPSessionCompleted".into(),
        );
    }
    report
}
