//! Coordination modes in the logs the SDK writes (issue 39, items 3 and 5):
//! - `MapSession` logs of every mode are clean for the MAP log validator
//!   (no error, no warning), and every single mutation that breaks a mode
//!   rule is reported at its line with its rule (and nothing else is);
//! - the logs pass the MAP events seed's own check functions (section 7,
//!   ported in `seed_checks`), `simulate` output and `MapSession` logs alike;
//! - the port itself fails on what the seed's functions fail on.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

mod seed_checks;

use std::collections::BTreeSet;

use mplp_collab::Collab;
use mplp_collab::runtime::{MapSession, SessionError, TurnContext, TurnOutcome};
use mplp_collab::simulate::{SimConfig, simulate};
use mplp_collab::sink::{MemorySink, SimClock};
use mplp_core::{CollabMode, ContextId, Document, JsonObject, Timestamp};
use mplp_events::log::validate_map_log;
use mplp_events::map::RoleAssignment;
use mplp_events::{MapEvent, MapPayload};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::json;

use seed_checks::{
    ValidationResult, assert_seed_checks_pass, validate_broadcast_receivers,
    validate_turn_completion,
};

fn mode() -> impl Strategy<Value = CollabMode> {
    prop::sample::select(CollabMode::ALL.to_vec())
}

/// A session of `mode` among `n` agents driven by `ops` (turns, dispatches
/// to a participant, broadcasts, swarm rounds; refused ones leave no event),
/// with stale writes that make conflicts.
fn session_log(mode: CollabMode, n: usize, ops: &[u8], seed: u64) -> Vec<MapEvent> {
    let c = Collab::of_agents(ContextId::new(), "t", "p", mode, n).unwrap();
    let count = c.participants().len();
    let mut s = MapSession::with_clock(c, MemorySink::new(), SimClock::new(seed)).unwrap();
    s.start().unwrap();
    let mut agent = |t: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
        let v = t.read("r").map_or(0, |(_, v)| v);
        let stale = u64::from(t.turn_number() % 3 == 0);
        t.write_at("r", v.saturating_sub(stale), json!(t.turn_number()))?;
        Ok(TurnOutcome::completed())
    };
    for (i, op) in ops.iter().enumerate() {
        let _ = match op % 6 {
            0..=2 => s.turn(&mut agent).map(drop),
            3 => s.turn_for(i % count, Some("task"), &mut agent).map(drop),
            4 => s
                .broadcast(i % count, JsonObject::new(), &mut agent)
                .map(drop),
            _ => s
                .swarm_round(
                    &[(i % count, "a"), ((i + 1) % count, "b")],
                    &[1, 0],
                    &mut agent,
                )
                .map(drop),
        };
    }
    s.complete().unwrap();
    s.into_sink().events
}

fn ndjson(events: &[MapEvent]) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&e.to_json());
        out.push('\n');
    }
    out
}

/// (line, rule) pairs.
type Reported = BTreeSet<(u64, String)>;

/// (line, rule) of every violation, errors and warnings.
fn reported(events: &[MapEvent]) -> Reported {
    validate_map_log(ndjson(events).as_bytes())
        .violations()
        .iter()
        .map(|v| (v.line.unwrap_or(0), v.rule.as_str().to_owned()))
        .collect()
}

const EXCLUSIVE: &str = "map_mode_exclusive_turns";
const ROTATION: &str = "map_mode_round_robin_order";
const PAIR: &str = "map_mode_pair_two_participants";
const ASSIGNED: &str = "map_turn_role_assigned";
const TIME: &str = "map_timestamps_non_decreasing";

/// A dispatch or completion of turn `n`: its index in the log.
fn turn_event(events: &[MapEvent], n: u64, dispatch: bool) -> Option<usize> {
    events.iter().position(|e| match &e.payload {
        MapPayload::TurnDispatched(p) => dispatch && p.turn_number == n,
        MapPayload::TurnCompleted(p) => !dispatch && p.turn_number == n,
        _ => false,
    })
}

fn turns(events: &[MapEvent]) -> u64 {
    events
        .iter()
        .filter(|e| matches!(e.payload, MapPayload::TurnDispatched(_)))
        .count() as u64
}

fn role_of(events: &[MapEvent], i: usize) -> String {
    match &events[i].payload {
        MapPayload::TurnDispatched(p) => p.role_id.to_string(),
        MapPayload::TurnCompleted(p) => p.role_id.to_string(),
        _ => unreachable!(),
    }
}

/// Gives turn `n` (its dispatch and completion) to `role`.
fn set_role(events: &mut [MapEvent], n: u64, role: &str) {
    for e in events.iter_mut() {
        match &mut e.payload {
            MapPayload::TurnDispatched(p) if p.turn_number == n => {
                p.role_id = role.into();
                e.target_roles = Some(mplp_core::ShortList::one(role.into()));
            }
            MapPayload::TurnCompleted(p) if p.turn_number == n => p.role_id = role.into(),
            _ => {}
        }
    }
}

/// The single mutations that can break a mode rule (issue 39's proof).
#[derive(Clone, Copy, Debug)]
enum Mutation {
    /// Turn k+1 is dispatched just before turn k completes (its timestamp
    /// made that completion's, so that time still runs forward).
    DispatchBeforeCompletion,
    /// Turns k and k+1 trade roles (dispatch and completion).
    SwapTwoTurns,
    /// `MAPRolesAssigned` names a third participant, and turn k goes to it.
    ThirdRole,
    /// Turn k goes to a role `MAPRolesAssigned` never names.
    UnassignedRole,
    /// Event i is timestamped one second before event i - 1.
    TimestampBack,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop::sample::select(vec![
        Mutation::DispatchBeforeCompletion,
        Mutation::SwapTwoTurns,
        Mutation::ThirdRole,
        Mutation::UnassignedRole,
        Mutation::TimestampBack,
    ])
}

/// The element of `xs` at `pick` (`None` when `xs` is empty).
fn choose<T: Copy>(pick: prop::sample::Index, xs: &[T]) -> Option<T> {
    (!xs.is_empty()).then(|| *pick.get(xs))
}

/// Applies `m` at a place chosen by `pick`; gives the mutated log and the
/// (line, rule) pairs the sources say it breaks in `mode` (`None` when the
/// log has no place for it).
fn mutate(
    events: &[MapEvent],
    mode: CollabMode,
    m: Mutation,
    pick: prop::sample::Index,
) -> Option<(Vec<MapEvent>, Reported)> {
    let mut v = events.to_vec();
    let mut want = BTreeSet::new();
    let exclusive = matches!(
        mode,
        CollabMode::RoundRobin | CollabMode::Orchestrated | CollabMode::Pair
    );
    let line = |i: usize| i as u64 + 1;
    match m {
        Mutation::DispatchBeforeCompletion => {
            // Turns k, k+1 that do not overlap already.
            let ks: Vec<u64> = (1..turns(events))
                .filter(|&k| turn_event(events, k, false) < turn_event(events, k + 1, true))
                .collect();
            let k = choose(pick, &ks)?;
            let c = turn_event(events, k, false)?;
            let d = turn_event(events, k + 1, true)?;
            let mut dispatch = v.remove(d);
            dispatch.timestamp = v[c].timestamp.clone();
            v.insert(c, dispatch);
            if exclusive {
                want.insert((line(c), EXCLUSIVE.to_owned()));
            }
        }
        Mutation::SwapTwoTurns => {
            let ks: Vec<u64> = (1..turns(events))
                .filter(|&k| {
                    role_of(events, turn_event(events, k, true).unwrap())
                        != role_of(events, turn_event(events, k + 1, true).unwrap())
                })
                .collect();
            let k = choose(pick, &ks)?;
            let (a, b) = (
                turn_event(events, k, true)?,
                turn_event(events, k + 1, true)?,
            );
            let (ra, rb) = (role_of(events, a), role_of(events, b));
            set_role(&mut v, k, &rb);
            set_role(&mut v, k + 1, &ra);
            if mode == CollabMode::RoundRobin {
                want.insert((line(a), ROTATION.to_owned()));
                want.insert((line(b), ROTATION.to_owned()));
            }
        }
        Mutation::ThirdRole => {
            // Every later round-robin position would shift: not a single break.
            if mode == CollabMode::RoundRobin {
                return None;
            }
            let ks: Vec<u64> = (1..=turns(events)).collect();
            let k = choose(pick, &ks)?;
            let at = v
                .iter()
                .position(|e| matches!(e.payload, MapPayload::RolesAssigned(_)))?;
            if let MapPayload::RolesAssigned(p) = &mut v[at].payload {
                p.assignments
                    .push(RoleAssignment::new("p-third".into(), "third".into()));
            }
            set_role(&mut v, k, "third");
            if mode == CollabMode::Pair {
                want.insert((line(at), PAIR.to_owned()));
            }
        }
        Mutation::UnassignedRole => {
            let ks: Vec<u64> = (1..=turns(events)).collect();
            let k = choose(pick, &ks)?;
            let d = turn_event(events, k, true)?;
            set_role(&mut v, k, "stranger");
            want.insert((line(d), ASSIGNED.to_owned()));
            if mode == CollabMode::RoundRobin {
                want.insert((line(d), ROTATION.to_owned()));
            }
        }
        Mutation::TimestampBack => {
            let is: Vec<usize> = (1..events.len()).collect();
            let i = choose(pick, &is)?;
            let before = events[i - 1].timestamp.instant() - std::time::Duration::from_secs(1);
            v[i].timestamp = Timestamp::from_datetime(before);
            want.insert((line(i), TIME.to_owned()));
        }
    }
    Some((v, want))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every `MapSession` log is clean, in every mode: no error, no warning,
    /// and the seed's check functions pass.
    #[test]
    fn session_logs_are_clean(mode in mode(), n in 1usize..5, ops in prop::collection::vec(any::<u8>(), 0..24), seed in any::<u64>()) {
        let events = session_log(mode, n, &ops, seed);
        let text = ndjson(&events);
        prop_assert_eq!(reported(&events), BTreeSet::new(), "{}", text);
        assert_seed_checks_pass(&text);
    }

    /// Each single mutation that breaks a mode rule is reported at its line
    /// with its rule, and nothing else is reported.
    #[test]
    fn each_broken_mode_rule_is_reported_at_its_line(
        mode in mode(),
        n in 1usize..5,
        ops in prop::collection::vec(any::<u8>(), 4..24),
        seed in any::<u64>(),
        m in mutation(),
        pick in any::<prop::sample::Index>(),
    ) {
        let events = session_log(mode, n, &ops, seed);
        let Some((mutated, want)) = mutate(&events, mode, m, pick) else {
            return Ok(());
        };
        prop_assert_eq!(reported(&mutated), want, "{:?} in {}\n{}", m, mode, ndjson(&mutated));
    }

    /// `simulate` (what `mplp collab simulate` prints) passes the seed's
    /// checks and the validator, without a warning, in every mode.
    #[test]
    fn simulated_logs_pass_the_seed_checks(mode in mode(), n in 1usize..6, turns in 0u64..12, seed in any::<u64>()) {
        let n = if mode == CollabMode::Pair { 2 } else { n };
        let mut sink = MemorySink::new();
        simulate(&SimConfig::new(mode, n, turns).with_seed(seed), &mut sink).unwrap();
        prop_assert_eq!(reported(&sink.events), BTreeSet::new());
        assert_seed_checks_pass(&sink.to_ndjson());
    }
}

/// Each mutation applies, and is caught, in each mode it concerns (the
/// property above may skip a mutation when a log has no place for it).
#[test]
fn every_mutation_is_exercised_in_every_mode() {
    let ops = [0u8, 0, 0, 4, 0, 0, 3, 0, 5, 0];
    for mode in CollabMode::ALL.iter().copied() {
        let events = session_log(mode, 3, &ops, 7);
        for m in [
            Mutation::DispatchBeforeCompletion,
            Mutation::SwapTwoTurns,
            Mutation::ThirdRole,
            Mutation::UnassignedRole,
            Mutation::TimestampBack,
        ] {
            let applies = !matches!((m, mode), (Mutation::ThirdRole, CollabMode::RoundRobin));
            let pick = any::<prop::sample::Index>()
                .new_tree(&mut proptest::test_runner::TestRunner::deterministic())
                .unwrap()
                .current();
            let got = mutate(&events, mode, m, pick);
            assert_eq!(got.is_some(), applies, "{m:?} in {mode}");
            if let Some((mutated, want)) = got {
                assert_eq!(reported(&mutated), want, "{m:?} in {mode}");
                let breaks = !want.is_empty();
                let should = match m {
                    Mutation::DispatchBeforeCompletion => matches!(
                        mode,
                        CollabMode::RoundRobin | CollabMode::Orchestrated | CollabMode::Pair
                    ),
                    Mutation::SwapTwoTurns => mode == CollabMode::RoundRobin,
                    Mutation::ThirdRole => mode == CollabMode::Pair,
                    Mutation::UnassignedRole | Mutation::TimestampBack => true,
                };
                assert_eq!(breaks, should, "{m:?} in {mode}");
            }
        }
    }
}

/// The seed's checks over logs of every mode written by `simulate` with
/// the configurations `mplp collab simulate` takes.
#[test]
fn simulated_logs_of_every_mode_pass_the_seed_checks() {
    for mode in CollabMode::ALL.iter().copied() {
        let n = if mode == CollabMode::Pair { 2 } else { 4 };
        let mut sink = MemorySink::new();
        simulate(&SimConfig::new(mode, n, 9).with_seed(3), &mut sink).unwrap();
        let text = sink.to_ndjson();
        let received = sink
            .events
            .iter()
            .filter(|e| matches!(e.payload, MapPayload::BroadcastReceived(_)))
            .count();
        if mode == CollabMode::Broadcast {
            assert!(received > 0, "the broadcast simulation answers broadcasts");
        }
        assert_seed_checks_pass(&text);
    }
}

#[test]
fn receivers_name_their_broadcast_as_broadcast_ref() {
    let mut sink = MemorySink::new();
    simulate(
        &SimConfig::new(CollabMode::Broadcast, 3, 2).with_seed(1),
        &mut sink,
    )
    .unwrap();
    let events = seed_checks::events(&sink.to_ndjson());
    let sent: Vec<_> = events
        .iter()
        .filter(|e| e["event_type"] == "MAPBroadcastSent")
        .map(|e| e["payload"]["broadcast_id"].clone())
        .collect();
    let received: Vec<_> = events
        .iter()
        .filter(|e| e["event_type"] == "MAPBroadcastReceived")
        .collect();
    assert_eq!((sent.len(), received.len()), (2, 4));
    for r in received {
        assert!(sent.contains(&r["payload"]["broadcast_ref"]), "{r}");
        // One spelling is written; `broadcast_id` is still read.
        assert!(r["payload"].get("broadcast_id").is_none(), "{r}");
    }
}

/// The port fails where the seed's functions fail.
#[test]
fn the_ported_checks_can_fail() {
    let s = mplp_core::CollabId::new();
    let ok = |errors: Vec<&str>| {
        Ok(ValidationResult {
            valid: errors.is_empty(),
            errors: errors.into_iter().map(str::to_owned).collect(),
        })
    };
    let values = |events: &[MapEvent]| -> Vec<serde_json::Value> {
        events.iter().map(Document::to_value).collect()
    };

    // A receiver naming its broadcast with `broadcast_id` only (what the
    // SDK wrote before): the seed's check finds no receiver.
    let mut old = mplp_events::map::BroadcastReceived::new();
    old.broadcast_id = Some("b-1".into());
    let log = [
        MapEvent::broadcast_sent(s, "b-1", "a", vec!["b".into()]),
        MapEvent::new(s, MapPayload::BroadcastReceived(Some(old))),
    ];
    assert_eq!(
        validate_broadcast_receivers(&values(&log)),
        ok(vec!["Broadcast b-1 has no receivers"])
    );
    // ... and with `broadcast_ref` it finds it; the SDK's validator takes both.
    let log = [
        MapEvent::broadcast_sent(s, "b-1", "a", vec!["b".into()]),
        MapEvent::broadcast_received(s, "b-1", "b"),
    ];
    assert_eq!(validate_broadcast_receivers(&values(&log)), ok(vec![]));

    // Another session's receiver does not count.
    let log = [
        MapEvent::broadcast_sent(s, "b-1", "a", vec!["b".into()]),
        MapEvent::broadcast_received(mplp_core::CollabId::new(), "b-1", "b"),
    ];
    assert_eq!(
        validate_broadcast_receivers(&values(&log)),
        ok(vec!["Broadcast b-1 has no receivers"])
    );

    // The seed's own examples (5.5, 5.6): the sent one has no
    // `broadcast_id`, so `undefined === "broadcast-001"` fails.
    let seed_sent = json!({"event_type": "MAPBroadcastSent", "session_id": "collab-550e8400", "payload": {"message_type": "task_assignment"}});
    let seed_received = json!({"event_type": "MAPBroadcastReceived", "session_id": "collab-550e8400", "payload": {"receiver_role": "role-agent-a", "broadcast_ref": "broadcast-001"}});
    assert_eq!(
        validate_broadcast_receivers(&[seed_sent.clone(), seed_received]),
        ok(vec!["Broadcast undefined has no receivers"])
    );
    // Without either id, undefined === undefined: answered.
    let bare = json!({"event_type": "MAPBroadcastReceived", "session_id": "collab-550e8400", "payload": {}});
    assert_eq!(validate_broadcast_receivers(&[seed_sent, bare]), ok(vec![]));
    // A receiver without payload: JavaScript throws.
    let no_payload = json!({"event_type": "MAPBroadcastReceived", "session_id": "collab-550e8400"});
    let sent =
        json!({"event_type": "MAPBroadcastSent", "session_id": "collab-550e8400", "payload": {}});
    assert!(validate_broadcast_receivers(&[sent, no_payload]).is_err());

    // Turns: a dispatch without completion, one completed by another role,
    // one completed with turn number 2.0 (=== 2 in JavaScript).
    let log = [
        MapEvent::turn_dispatched(s, "a", 1),
        MapEvent::turn_dispatched(s, "b", 2),
        MapEvent::turn_completed(s, "c", 2, "completed"),
        MapEvent::turn_dispatched(s, "c", 3),
    ];
    let mut events = values(&log);
    events.push(json!({"event_type": "MAPTurnCompleted", "session_id": s.to_string(), "payload": {"role_id": "c", "turn_number": 3.0}}));
    assert_eq!(
        validate_turn_completion(&events),
        ok(vec![
            "Turn 1 for a has no completion",
            "Turn 2 for b has no completion"
        ])
    );
}
