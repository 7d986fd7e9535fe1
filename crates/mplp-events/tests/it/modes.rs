//! Coordination modes in MAP logs (issue 39, item 3), from the sources:
//! Collab Module 5.1 (`map_exclusive_write`: only the active speaker can
//! modify), 5.2 (`advanceTurn`: the turn moves to the next in order) and
//! 3.1 (`pair`: two participants; `swarm`, `broadcast`: parallel), and the
//! MAP Events matrix (roles assigned, then turns dispatched). Each log is
//! written by hand; the expected lines are counted in it.

use mplp_core::{CollabId, CollabMode, Report, Severity, Timestamp};
use mplp_events::MapEvent;
use mplp_events::log::{LogWriter, MapLogValidator, validate_map_log};
use mplp_events::map::RoleAssignment;

use crate::props::log_time;

fn found(r: &Report) -> Vec<(u64, &'static str, Severity)> {
    r.violations()
        .iter()
        .map(|v| (v.line.unwrap_or(0), v.rule.as_str(), v.severity))
        .collect()
}

/// The events as NDJSON, timestamped one second apart in log order
/// ([`log_time`]).
fn log(events: &[MapEvent]) -> Vec<u8> {
    let mut w = LogWriter::new(Vec::new());
    for (i, e) in events.iter().enumerate() {
        w.write(&e.clone().with_timestamp(log_time(i))).unwrap();
    }
    w.into_inner()
}

/// Lines 1-2: the start in `mode` with `roles` (participant `p<i>` for the
/// i-th role).
fn start(s: CollabId, mode: CollabMode, roles: &[&str]) -> Vec<MapEvent> {
    vec![
        MapEvent::session_started(s, mode, roles.len() as u64),
        MapEvent::roles_assigned(
            s,
            roles
                .iter()
                .enumerate()
                .map(|(i, r)| RoleAssignment::new(format!("p{i}").into(), (*r).into()))
                .collect(),
        ),
    ]
}

fn turn(s: CollabId, role: &str, n: u64) -> [MapEvent; 2] {
    [
        MapEvent::turn_dispatched(s, role, n),
        MapEvent::turn_completed(s, role, n, "completed"),
    ]
}

fn end(s: CollabId, turns: u64) -> MapEvent {
    MapEvent::session_completed(s, "completed", turns)
}

const EXCLUSIVE: &str = "map_mode_exclusive_turns";
const ROTATION: &str = "map_mode_round_robin_order";
const PAIR: &str = "map_mode_pair_two_participants";
const ASSIGNED: &str = "map_turn_role_assigned";
const TIME: &str = "map_timestamps_non_decreasing";
use Severity::{Error, Warning};

#[test]
fn a_second_turn_while_the_first_is_open_breaks_exclusive_modes_only() {
    for mode in CollabMode::ALL.iter().copied() {
        let s = CollabId::new();
        let mut v = start(s, mode, &["a", "b"]);
        v.push(MapEvent::turn_dispatched(s, "a", 1)); // 3
        v.push(MapEvent::turn_dispatched(s, "b", 2)); // 4: turn 1 is open
        v.push(MapEvent::turn_completed(s, "a", 1, "completed")); // 5
        v.push(MapEvent::turn_completed(s, "b", 2, "completed")); // 6
        v.extend(turn(s, "a", 3)); // 7, 8: nothing open
        v.push(end(s, 3));
        let r = validate_map_log(&log(&v)[..]);
        let want = match mode {
            CollabMode::Swarm | CollabMode::Broadcast => vec![],
            _ => vec![(4, EXCLUSIVE, Error)],
        };
        assert_eq!(found(&r), want, "{mode}");
        if let Some(v) = r.violations().first() {
            assert_eq!(v.pointer, "/event_type");
            assert_eq!(
                v.message,
                format!(
                    "turn 2 is dispatched while turn 1 of `a` (line 3) is still open: a `{mode}` session has one open turn at a time (Collab Module, 5.1 Core Invariants: `map_exclusive_write`, only the active speaker can modify; 5.2 Turn Management)"
                )
            );
        }
    }
}

#[test]
fn each_dispatch_while_turns_are_open_is_reported() {
    let s = CollabId::new();
    let mut v = start(s, CollabMode::Orchestrated, &["lead", "a", "b"]);
    v.push(MapEvent::turn_dispatched(s, "a", 1)); // 3
    v.push(MapEvent::turn_dispatched(s, "b", 2)); // 4: 1 open
    v.push(MapEvent::turn_dispatched(s, "a", 3)); // 5: 2 open
    v.push(MapEvent::turn_completed(s, "a", 1, "completed")); // 6
    v.push(MapEvent::turn_completed(s, "b", 2, "completed")); // 7
    v.push(MapEvent::turn_dispatched(s, "b", 4)); // 8: turn 3 open (not the latest but one)
    v.push(MapEvent::turn_completed(s, "a", 3, "completed")); // 9
    v.push(MapEvent::turn_completed(s, "b", 4, "completed")); // 10
    v.push(end(s, 4));
    let r = validate_map_log(&log(&v)[..]);
    assert_eq!(
        found(&r),
        [
            (4, EXCLUSIVE, Error),
            (5, EXCLUSIVE, Error),
            (8, EXCLUSIVE, Error)
        ]
    );
    let m: Vec<&str> = r.violations().iter().map(|v| v.message.as_str()).collect();
    assert!(
        m[1].starts_with(
            "turn 3 is dispatched while 2 turns are still open, the latest turn 2 of `b` (line 4):"
        ),
        "{}",
        m[1]
    );
    assert!(
        m[2].starts_with("turn 4 is dispatched while turn 3 of `a` (line 5) is still open:"),
        "{}",
        m[2]
    );
}

#[test]
fn a_dispatch_while_an_older_turn_is_open_counts_it() {
    // The latest dispatch (2) completed, turn 1 is still open.
    let s = CollabId::new();
    let mut v = start(s, CollabMode::Pair, &["a", "b"]);
    v.push(MapEvent::turn_dispatched(s, "a", 1)); // 3
    v.push(MapEvent::turn_dispatched(s, "b", 2)); // 4: 1 open
    v.push(MapEvent::turn_completed(s, "b", 2, "completed")); // 5
    v.push(MapEvent::turn_dispatched(s, "a", 3)); // 6: 1 open, not the latest
    v.push(MapEvent::turn_completed(s, "a", 1, "completed"));
    v.push(MapEvent::turn_completed(s, "a", 3, "completed"));
    v.push(end(s, 3));
    let r = validate_map_log(&log(&v)[..]);
    assert_eq!(found(&r), [(4, EXCLUSIVE, Error), (6, EXCLUSIVE, Error)]);
    assert!(
        r.violations()[1]
            .message
            .starts_with("turn 3 is dispatched while 1 turn is still open: a `pair` session"),
        "{}",
        r.violations()[1].message
    );
}

#[test]
fn a_round_robin_without_assignments_has_no_rotation() {
    let s = CollabId::new();
    let mut v = vec![
        MapEvent::session_started(s, CollabMode::RoundRobin, 1),
        MapEvent::roles_assigned(s, vec![]),
    ];
    v.extend(turn(s, "a", 1));
    v.push(end(s, 1));
    assert_eq!(
        found(&validate_map_log(&log(&v)[..])),
        [(3, ASSIGNED, Warning)]
    );
}

#[test]
fn exclusive_turns_are_counted_per_session() {
    // Two round-robin sessions interleaved, each with one open turn.
    let (s, t) = (CollabId::new(), CollabId::new());
    let mut v = start(s, CollabMode::RoundRobin, &["a", "b"]);
    v.extend(start(t, CollabMode::RoundRobin, &["a", "b"]));
    v.push(MapEvent::turn_dispatched(s, "a", 1));
    v.push(MapEvent::turn_dispatched(t, "a", 1));
    v.push(MapEvent::turn_completed(t, "a", 1, "completed"));
    v.push(MapEvent::turn_completed(s, "a", 1, "completed"));
    v.push(end(s, 1));
    v.push(end(t, 1));
    assert_eq!(found(&validate_map_log(&log(&v)[..])), []);
}

#[test]
fn round_robin_turns_rotate_in_the_order_of_the_assignments() {
    // a, b, c, a, b, c: fine; wrapping around is the rotation.
    let s = CollabId::new();
    let mut v = start(s, CollabMode::RoundRobin, &["a", "b", "c"]);
    for (i, r) in ["a", "b", "c", "a", "b", "c"].iter().enumerate() {
        v.extend(turn(s, r, i as u64 + 1));
    }
    v.push(end(s, 6));
    assert_eq!(found(&validate_map_log(&log(&v)[..])), []);

    // Turns 2 and 3 swapped: a, c, b, a. Dispatches on lines 3, 5, 7, 9.
    let s = CollabId::new();
    let mut v = start(s, CollabMode::RoundRobin, &["a", "b", "c"]);
    for (i, r) in ["a", "c", "b", "a"].iter().enumerate() {
        v.extend(turn(s, r, i as u64 + 1));
    }
    v.push(end(s, 4));
    let r = validate_map_log(&log(&v)[..]);
    assert_eq!(found(&r), [(5, ROTATION, Error), (7, ROTATION, Error)]);
    assert_eq!(r.violations()[0].pointer, "/payload/role_id");
    assert_eq!(
        r.violations()[0].message,
        "turn 2 goes to `c`, but dispatch 2 of this `round_robin` session is the turn of `b` (assignment 2 of 3 in MAPRolesAssigned; turns rotate in that order from the first) (Collab Module, 5.2 Turn Management: `advanceTurn`)"
    );

    // The first turn goes to the first assignment.
    let s = CollabId::new();
    let mut v = start(s, CollabMode::RoundRobin, &["a", "b"]);
    v.extend(turn(s, "b", 1));
    v.extend(turn(s, "a", 2));
    v.push(end(s, 2));
    let r = validate_map_log(&log(&v)[..]);
    assert_eq!(found(&r), [(3, ROTATION, Error), (5, ROTATION, Error)]);

    // The same order in other modes is not a rule.
    for mode in [
        CollabMode::Orchestrated,
        CollabMode::Swarm,
        CollabMode::Broadcast,
    ] {
        let s = CollabId::new();
        let mut v = start(s, mode, &["a", "b", "c"]);
        for (i, r) in ["c", "a", "a", "b"].iter().enumerate() {
            v.extend(turn(s, r, i as u64 + 1));
        }
        v.push(end(s, 4));
        assert_eq!(found(&validate_map_log(&log(&v)[..])), [], "{mode}");
    }
}

#[test]
fn the_rotation_counts_positions_not_role_names() {
    // Two participants share role `a`: the rotation is a, a, b.
    let s = CollabId::new();
    let mut v = start(s, CollabMode::RoundRobin, &["a", "a", "b"]);
    for (i, r) in ["a", "a", "b", "a", "b"].iter().enumerate() {
        v.extend(turn(s, r, i as u64 + 1));
    }
    v.push(end(s, 5));
    // Dispatch 5 (line 11) should be `a` again.
    assert_eq!(
        found(&validate_map_log(&log(&v)[..])),
        [(11, ROTATION, Error)]
    );
}

#[test]
fn a_pair_has_two_participants() {
    // A third role in the assignments (and a turn for it).
    let s = CollabId::new();
    let mut v = vec![
        MapEvent::session_started(s, CollabMode::Pair, 2),
        MapEvent::roles_assigned(
            s,
            vec![
                RoleAssignment::new("p0".into(), "driver".into()),
                RoleAssignment::new("p1".into(), "navigator".into()),
                RoleAssignment::new("p2".into(), "third".into()),
            ],
        ),
    ];
    v.extend(turn(s, "driver", 1));
    v.extend(turn(s, "third", 2));
    v.push(end(s, 2));
    let r = validate_map_log(&log(&v)[..]);
    assert_eq!(found(&r), [(2, PAIR, Error)]);
    assert_eq!(r.violations()[0].pointer, "/payload/assignments");
    assert_eq!(
        r.violations()[0].message,
        "a `pair` session assigns roles to 2 participants, this one to 3 (Collab Module, 3.1 Mode Descriptions: `pair` is two-participant direct collaboration)"
    );

    // Started with three participants, assigned to one.
    let s = CollabId::new();
    let mut v = vec![
        MapEvent::session_started(s, CollabMode::Pair, 3),
        MapEvent::roles_assigned(s, vec![RoleAssignment::new("p0".into(), "solo".into())]),
    ];
    v.push(end(s, 0));
    let r = validate_map_log(&log(&v)[..]);
    assert_eq!(found(&r), [(1, PAIR, Error), (2, PAIR, Error)]);
    assert_eq!(r.violations()[0].pointer, "/payload/participant_count");

    // Three roles are fine in other modes.
    for mode in [CollabMode::RoundRobin, CollabMode::Swarm] {
        let s = CollabId::new();
        let mut v = start(s, mode, &["a", "b", "c"]);
        v.push(end(s, 0));
        assert_eq!(found(&validate_map_log(&log(&v)[..])), [], "{mode}");
    }
}

#[test]
fn a_pair_giving_a_turn_to_a_role_never_assigned_is_warned() {
    let s = CollabId::new();
    let mut v = start(s, CollabMode::Pair, &["driver", "navigator"]);
    v.extend(turn(s, "driver", 1));
    v.extend(turn(s, "intruder", 2)); // 5
    v.push(end(s, 2));
    let r = validate_map_log(&log(&v)[..]);
    assert_eq!(found(&r), [(5, ASSIGNED, Warning)]);
    assert_eq!(
        r.violations()[0].message,
        "turn 2 goes to role `intruder`, which the session's MAPRolesAssigned does not name (MAP Events, 3.1 Event Matrix: roles are assigned, then turns dispatched to them)"
    );
    assert!(r.is_valid(), "a warning only");
}

#[test]
fn turns_go_to_assigned_roles_in_every_mode() {
    for mode in CollabMode::ALL.iter().copied() {
        let s = CollabId::new();
        let mut v = start(s, mode, &["a", "b"]);
        v.extend(turn(s, "a", 1));
        v.extend(turn(s, "zed", 2)); // 5
        v.push(end(s, 2));
        let mut want = vec![(5, ASSIGNED, Warning)];
        if mode == CollabMode::RoundRobin {
            want.push((5, ROTATION, Error));
        }
        assert_eq!(found(&validate_map_log(&log(&v)[..])), want, "{mode}");
    }
    // Without MAPRolesAssigned no role is judged (the missing assignment is).
    let s = CollabId::new();
    let mut v = vec![MapEvent::session_started(s, CollabMode::RoundRobin, 2)];
    v.extend(turn(s, "zed", 1));
    v.push(end(s, 1));
    let rules: Vec<_> = found(&validate_map_log(&log(&v)[..]));
    assert_eq!(rules, [(2, "map_roles_assigned_required", Error)]);
}

#[test]
fn the_first_assignment_counts() {
    // A second MAPRolesAssigned (itself an error) changes neither the
    // assigned roles nor the rotation.
    let s = CollabId::new();
    let mut v = start(s, CollabMode::RoundRobin, &["a", "b"]);
    v.push(MapEvent::roles_assigned(
        s,
        vec![RoleAssignment::new("p9".into(), "z".into())],
    ));
    v.extend(turn(s, "a", 1));
    v.extend(turn(s, "z", 2)); // 6
    v.push(end(s, 2));
    assert_eq!(
        found(&validate_map_log(&log(&v)[..])),
        [
            (3, "map_roles_assigned_once", Error),
            (6, ASSIGNED, Warning),
            (6, ROTATION, Error)
        ]
    );
}

#[test]
fn timestamps_do_not_go_backwards_within_a_session() {
    let s = CollabId::new();
    let t = CollabId::new();
    let at = |text: &str| Timestamp::parse(text).unwrap();
    let mut v = start(s, CollabMode::Swarm, &["a"]);
    v.extend(turn(s, "a", 1));
    v.push(end(s, 1));
    let stamps = [
        "2025-12-07T00:00:00Z",
        "2025-12-07T00:00:01Z",
        "2025-12-07T08:00:01+08:00", // line 5: the same instant as line 2, fine
        "2025-12-07T00:00:00.5Z",    // line 6: before line 5
        "2025-12-07T00:00:01Z",      // line 7: equal to the latest, fine
    ];
    let mut v: Vec<MapEvent> = v
        .into_iter()
        .zip(stamps)
        .map(|(e, t)| e.with_timestamp(at(t)))
        .collect();
    // Another session earlier in time, interleaved (lines 3, 4, 8): its own clock.
    v.insert(
        2,
        MapEvent::session_started(t, CollabMode::Swarm, 1)
            .with_timestamp(at("2025-01-01T00:00:00Z")),
    );
    v.insert(
        3,
        MapEvent::roles_assigned(t, vec![RoleAssignment::new("q".into(), "a".into())])
            .with_timestamp(at("2025-01-01T00:00:00Z")),
    );
    v.push(end(t, 0).with_timestamp(at("2024-12-31T23:59:59.999Z"))); // 8
    let mut w = LogWriter::new(Vec::new());
    for e in &v {
        w.write(e).unwrap();
    }
    let r = validate_map_log(&w.into_inner()[..]);
    assert_eq!(found(&r), [(6, TIME, Warning), (8, TIME, Warning)]);
    assert_eq!(r.violations()[0].pointer, "/timestamp");
    assert_eq!(
        r.violations()[0].message,
        "2025-12-07T00:00:00.5Z is earlier than 2025-12-07T08:00:01+08:00 (line 5) of the same session: a session's timestamps do not go backwards (MAP event schema: `timestamp` is when the event occurred; a session's events are logged as they occur)"
    );
}

#[test]
fn events_fed_directly_are_judged_alike() {
    // The EventSink path (no NDJSON) gives the same lines.
    let s = CollabId::new();
    let mut v = start(s, CollabMode::Pair, &["a", "b"]);
    v.push(MapEvent::turn_dispatched(s, "a", 1));
    v.push(MapEvent::turn_dispatched(s, "b", 2));
    let mut validator = MapLogValidator::new();
    for (i, e) in v.iter().enumerate() {
        validator.push(i as u64 + 1, e);
    }
    let r = validator.finish();
    let modes: Vec<_> = found(&r).into_iter().filter(|f| f.1 == EXCLUSIVE).collect();
    assert_eq!(modes, [(4, EXCLUSIVE, Error)]);
}
