//! Coordination modes in MAP logs: what a session's mode (the `mode` of its
//! `MAPSessionStarted`) allows its turns, checked as the log streams by.
//!
//! - `round_robin`, `orchestrated`, `pair`: at most one open turn
//!   ([`MAP_MODE_EXCLUSIVE_TURNS`]; Collab Module 5.1 `map_exclusive_write`,
//!   "only the active speaker can modify", and 5.2's one turn holder).
//!   `swarm` ("self-organizing parallel work") and `broadcast` ("all
//!   participants ... simultaneously") may overlap.
//! - `round_robin`: the k-th dispatch goes to assignment (k - 1) mod n of
//!   `MAPRolesAssigned` ([`MAP_MODE_ROUND_ROBIN_ORDER`]; 5.2 `advanceTurn`,
//!   from turn index 0).
//! - `pair`: two participants ([`MAP_MODE_PAIR_TWO_PARTICIPANTS`]; 3.1).
//! - Every mode: turns only for assigned roles ([`MAP_TURN_ROLE_ASSIGNED`],
//!   a warning) and timestamps that do not go backwards within a session
//!   ([`MAP_TIMESTAMPS_NON_DECREASING`], a warning).
//!
//! O(1) work per event (hash lookups, one index); per session the state holds
//! the roles of its one `MAPRolesAssigned` (a line's worth) and a few numbers.

use std::collections::HashSet;

use mplp_core::{CollabMode, Rule, Severity, ShortString, Timestamp, Violation};

use super::few::FewMap;
use crate::map::{MapEvent, MapPayload};
use crate::rules::{
    MAP_MODE_EXCLUSIVE_TURNS, MAP_MODE_PAIR_TWO_PARTICIPANTS, MAP_MODE_ROUND_ROBIN_ORDER,
    MAP_TIMESTAMPS_NON_DECREASING, MAP_TURN_ROLE_ASSIGNED, RULES,
};

/// Where each rule comes from, as its messages say it.
const EXCLUSIVE_SOURCE: &str = "Collab Module, 5.1 Core Invariants: `map_exclusive_write`, only the active speaker can modify; 5.2 Turn Management";
const ROTATION_SOURCE: &str = "Collab Module, 5.2 Turn Management: `advanceTurn`";
const PAIR_SOURCE: &str =
    "Collab Module, 3.1 Mode Descriptions: `pair` is two-participant direct collaboration";
const ASSIGNED_SOURCE: &str =
    "MAP Events, 3.1 Event Matrix: roles are assigned, then turns dispatched to them";
const TIME_SOURCE: &str = "MAP event schema: `timestamp` is when the event occurred; a session's events are logged as they occur";

/// The mode rules' state of one session.
#[derive(Default)]
pub(super) struct Modes {
    /// The session's mode (from its `MAPSessionStarted`).
    mode: Option<CollabMode>,
    /// The roles of the session's first `MAPRolesAssigned`, in order (the
    /// rotation of `round_robin`); `None` before it. `ShortString`s as the
    /// event has them: a session's usual roles (up to 24 bytes each) take
    /// this list's one allocation, where `Box<str>`s took one each.
    order: Option<Vec<ShortString>>,
    /// The same roles, for membership, when there are more than
    /// [`FEW_ROLES`] (else the list is searched: see [`is_assigned`]).
    /// Boxed: absent in almost every session, it then takes 8 bytes of the
    /// session's state instead of a set's 40 (as `FewMap`'s map).
    #[allow(clippy::box_collection)]
    assigned: Option<Box<HashSet<ShortString, foldhash::fast::RandomState>>>,
    /// Turns dispatched so far.
    dispatched: u64,
    /// The latest dispatch: (turn number, line), to name it while it is open.
    latest_turn: Option<(u64, u64)>,
    /// The latest timestamp so far and its line.
    latest_time: Option<(Timestamp, u64)>,
}

impl Modes {
    /// Checks `event` (on `line`) against the session's mode; `open_turns`
    /// are the session's open turns before this event (turn number → role,
    /// line of the dispatch). Violations go to `out`.
    pub(super) fn push(
        &mut self,
        line: u64,
        event: &MapEvent,
        open_turns: &FewMap<u64, (ShortString, u64)>,
        out: &mut Vec<Violation>,
    ) {
        self.timestamp(line, &event.timestamp, out);
        match &event.payload {
            MapPayload::SessionStarted(p) => {
                self.mode = Some(p.mode);
                if p.mode == CollabMode::Pair && p.participant_count != 2 {
                    report(
                        out,
                        line,
                        "/payload/participant_count",
                        MAP_MODE_PAIR_TWO_PARTICIPANTS,
                        format!(
                            "a `pair` session has 2 participants, this one starts with participant_count {} ({PAIR_SOURCE})",
                            p.participant_count
                        ),
                    );
                }
            }
            MapPayload::RolesAssigned(p) if self.order.is_none() => {
                if self.mode == Some(CollabMode::Pair) && p.assignments.len() != 2 {
                    report(
                        out,
                        line,
                        "/payload/assignments",
                        MAP_MODE_PAIR_TWO_PARTICIPANTS,
                        format!(
                            "a `pair` session assigns roles to 2 participants, this one to {} ({PAIR_SOURCE})",
                            p.assignments.len()
                        ),
                    );
                }
                let order: Vec<ShortString> =
                    p.assignments.iter().map(|a| a.role_id.clone()).collect();
                if order.len() > FEW_ROLES {
                    self.assigned = Some(Box::new(order.iter().cloned().collect()));
                }
                self.order = Some(order);
            }
            MapPayload::TurnDispatched(p) => {
                self.dispatched += 1;
                let role = p.role_id.as_str();
                let mode = self.mode;
                if let Some(mode) = mode.filter(|m| is_exclusive(*m)) {
                    self.exclusive(line, mode, p.turn_number, open_turns, out);
                }
                if let Some(order) = &self.order {
                    // The role whose turn it is in a `round_robin` session
                    // (dispatch k goes to assignment (k - 1) mod n): a
                    // dispatch to it is to an assigned role, so the search
                    // of the roles is spared (two string comparisons a
                    // dispatch were one, stop 55).
                    let rotation = (mode == Some(CollabMode::RoundRobin) && !order.is_empty())
                        .then(|| {
                            let k = self.dispatched - 1;
                            let at = usize::try_from(k % order.len() as u64).unwrap_or_default();
                            (k, at)
                        });
                    let expected = rotation.and_then(|(_, at)| order.get(at));
                    let in_turn = expected.is_some_and(|e| e.as_str() == role);
                    if !in_turn && !is_assigned(order, self.assigned.as_deref(), role) {
                        report(
                            out,
                            line,
                            "/payload/role_id",
                            MAP_TURN_ROLE_ASSIGNED,
                            format!(
                                "turn {} goes to role `{role}`, which the session's MAPRolesAssigned does not name ({ASSIGNED_SOURCE})",
                                p.turn_number
                            ),
                        );
                    }
                    if let (Some((k, at)), Some(expected)) = (rotation, expected) {
                        if !in_turn {
                            report(
                                out,
                                line,
                                "/payload/role_id",
                                MAP_MODE_ROUND_ROBIN_ORDER,
                                format!(
                                    "turn {} goes to `{role}`, but dispatch {} of this `round_robin` session is the turn of `{expected}` (assignment {} of {} in MAPRolesAssigned; turns rotate in that order from the first) ({ROTATION_SOURCE})",
                                    p.turn_number,
                                    k + 1,
                                    at + 1,
                                    order.len()
                                ),
                            );
                        }
                    }
                }
                self.latest_turn = Some((p.turn_number, line));
            }
            _ => {}
        }
    }

    /// A dispatch in an exclusive mode while turns are open.
    fn exclusive(
        &self,
        line: u64,
        mode: CollabMode,
        turn: u64,
        open_turns: &FewMap<u64, (ShortString, u64)>,
        out: &mut Vec<Violation>,
    ) {
        if open_turns.is_empty() {
            return;
        }
        // Name the latest dispatch when it is still open (O(1)); else count.
        let open = self
            .latest_turn
            .and_then(|(t, _)| open_turns.get(&t).map(|(role, at)| (t, role, at)));
        let what = match open {
            Some((t, role, at)) if open_turns.len() == 1 => {
                format!("turn {t} of `{role}` (line {at}) is still open")
            }
            Some((t, role, at)) => format!(
                "{} turns are still open, the latest turn {t} of `{role}` (line {at})",
                open_turns.len()
            ),
            None => format!(
                "{} still open",
                mplp_core::text::count_as(open_turns.len() as u64, "turn is", "turns are")
            ),
        };
        report(
            out,
            line,
            "/event_type",
            MAP_MODE_EXCLUSIVE_TURNS,
            format!(
                "turn {turn} is dispatched while {what}: a `{mode}` session has one open turn at a time ({EXCLUSIVE_SOURCE})"
            ),
        );
    }

    /// Timestamps do not go backwards within the session.
    fn timestamp(&mut self, line: u64, at: &Timestamp, out: &mut Vec<Violation>) {
        match &self.latest_time {
            Some((latest, latest_line)) if at.instant() < latest.instant() => report(
                out,
                line,
                "/timestamp",
                MAP_TIMESTAMPS_NON_DECREASING,
                format!(
                    "{at} is earlier than {latest} (line {latest_line}) of the same session: a session's timestamps do not go backwards ({TIME_SOURCE})"
                ),
            ),
            _ => self.latest_time = Some((at.clone(), line)),
        }
    }
}

/// Roles of a session searched in their list (at most this many) rather
/// than in a hash set: a dispatch's membership test is then a few
/// comparisons of short strings, not a hash, and a session's roles take no
/// set (nor the allocations of the set and of the boxed roles it held).
const FEW_ROLES: usize = 8;

/// Whether `role` is one of the session's assigned roles `order` (whose
/// set `many` there is when there are more than [`FEW_ROLES`]).
fn is_assigned(
    order: &[ShortString],
    many: Option<&HashSet<ShortString, foldhash::fast::RandomState>>,
    role: &str,
) -> bool {
    match many {
        Some(set) => set.contains(role),
        None => order.iter().any(|r| r.as_str() == role),
    }
}

/// The modes with one open turn at a time.
fn is_exclusive(mode: CollabMode) -> bool {
    matches!(
        mode,
        CollabMode::RoundRobin | CollabMode::Orchestrated | CollabMode::Pair
    )
}

/// A violation of `rule` at the strict severity of its declaration.
fn report(out: &mut Vec<Violation>, line: u64, pointer: &str, rule: Rule, message: String) {
    let severity = RULES
        .iter()
        .find(|r| r.rule == rule)
        .map_or(Severity::Error, |r| r.strict);
    let v = match severity {
        Severity::Warning => Violation::warning(pointer, rule, message),
        Severity::Error => Violation::error(pointer, rule, message),
    };
    out.push(v.at_line(line));
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

    use super::*;

    #[test]
    fn each_rule_is_reported_at_its_declared_severity() {
        let mut out = Vec::new();
        for rule in [
            MAP_MODE_EXCLUSIVE_TURNS,
            MAP_MODE_ROUND_ROBIN_ORDER,
            MAP_MODE_PAIR_TWO_PARTICIPANTS,
            MAP_TURN_ROLE_ASSIGNED,
            MAP_TIMESTAMPS_NON_DECREASING,
        ] {
            report(&mut out, 7, "", rule, String::new());
        }
        let got: Vec<_> = out.iter().map(|v| (v.rule.as_str(), v.severity)).collect();
        assert_eq!(
            got,
            [
                ("map_mode_exclusive_turns", Severity::Error),
                ("map_mode_round_robin_order", Severity::Error),
                ("map_mode_pair_two_participants", Severity::Error),
                ("map_turn_role_assigned", Severity::Warning),
                ("map_timestamps_non_decreasing", Severity::Warning),
            ]
        );
        assert!(out.iter().all(|v| v.line == Some(7)));
    }

    proptest::proptest! {
        /// A role is assigned when the session's list names it, whether the
        /// list is searched (up to `FEW_ROLES` roles) or its set is (more):
        /// the answer of a `HashSet` of the roles, as before.
        #[test]
        fn roles_are_found_in_the_list_or_the_set_as_in_a_hash_set(
            roles in proptest::collection::vec("[a-c]{1,2}|[a-z]{25,26}", 0..20),
            asked in "[a-c]{1,2}|[a-z]{25,26}",
        ) {
            let order: Vec<ShortString> = roles.iter().map(|r| r.as_str().into()).collect();
            let model: std::collections::HashSet<&str> = roles.iter().map(String::as_str).collect();
            let set: HashSet<ShortString, foldhash::fast::RandomState> = order.iter().cloned().collect();
            let many = (order.len() > FEW_ROLES).then_some(&set);
            for role in roles.iter().map(String::as_str).chain([asked.as_str()]) {
                proptest::prop_assert_eq!(is_assigned(&order, many, role), model.contains(role));
                // Either way of looking gives the same answer.
                proptest::prop_assert_eq!(is_assigned(&order, None, role), is_assigned(&order, Some(&set), role));
            }
        }
    }

    #[test]
    fn only_three_modes_are_exclusive() {
        let got: Vec<_> = CollabMode::ALL
            .iter()
            .map(|m| (*m, is_exclusive(*m)))
            .collect();
        for (m, e) in got {
            let want = !matches!(m, CollabMode::Swarm | CollabMode::Broadcast);
            assert_eq!(e, want, "{m}");
        }
    }
}
