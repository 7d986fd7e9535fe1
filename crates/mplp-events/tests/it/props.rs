//! Property tests: generated valid logs validate; deleting, duplicating or
//! moving any mandatory event is detected with the right rule; typed events
//! round-trip; the typed parse and CheckValue agree on mutated events.

use std::collections::VecDeque;

use mplp_core::{CollabMode, Document, Pointer, Report};
use mplp_events::log::{LogWriter, validate_map_log};
use mplp_events::map::{RoleAssignment, SessionCompleted};
use mplp_events::{MapEvent, MapEventType, MapPayload, SaEvent, SessionId};
use proptest::prelude::*;
use serde_json::{Value, json};

#[derive(Clone, Debug)]
struct SessionSpec {
    mode: usize,
    participants: u64,
    /// Per turn: whether its completion waits until after the next dispatch.
    turns: Vec<bool>,
    /// Per broadcast: how many receivers answer it.
    broadcasts: Vec<u8>,
    conflicts: u8,
    with_counts: bool,
}

fn session_spec() -> impl Strategy<Value = SessionSpec> {
    (
        0..CollabMode::ALL.len(),
        1u64..5,
        prop::collection::vec(any::<bool>(), 0..6),
        prop::collection::vec(1u8..4, 0..3),
        0u8..3,
        any::<bool>(),
    )
        .prop_map(
            |(mode, participants, turns, broadcasts, conflicts, with_counts)| SessionSpec {
                mode,
                participants,
                turns,
                broadcasts,
                conflicts,
                with_counts,
            },
        )
}

/// A valid session: its turns rotate over the roles in assignment order,
/// overlap only where the mode allows it (`swarm`, `broadcast`), and a
/// `pair` has two participants.
fn session_events(spec: &SessionSpec) -> Vec<MapEvent> {
    let s = SessionId::new();
    let mode = CollabMode::ALL[spec.mode];
    let participants = if mode == CollabMode::Pair {
        2
    } else {
        spec.participants
    };
    let may_overlap = matches!(mode, CollabMode::Swarm | CollabMode::Broadcast);
    let roles: Vec<mplp_core::ShortString> = (0..participants)
        .map(|i| format!("role-{i}").into())
        .collect();
    let mut v = vec![
        MapEvent::session_started(s.clone(), mode, participants),
        MapEvent::roles_assigned(
            s.clone(),
            roles
                .iter()
                .enumerate()
                .map(|(i, r)| RoleAssignment::new(format!("p{i}").into(), r.clone()))
                .collect(),
        ),
    ];
    let mut deferred: Option<MapEvent> = None;
    for (i, overlap) in spec.turns.iter().enumerate() {
        let n = i as u64 + 1;
        let role = &roles[i % roles.len()];
        v.push(MapEvent::turn_dispatched(s.clone(), role.clone(), n));
        if let Some(done) = deferred.take() {
            v.push(done);
        }
        let done = MapEvent::turn_completed(s.clone(), role.clone(), n, "completed");
        if *overlap && may_overlap {
            deferred = Some(done)
        } else {
            v.push(done)
        }
    }
    v.extend(deferred);
    for (i, receivers) in spec.broadcasts.iter().enumerate() {
        let b = format!("b-{i}");
        v.push(MapEvent::broadcast_sent(
            s.clone(),
            b.clone(),
            roles[0].clone(),
            roles.clone(),
        ));
        for r in 0..*receivers {
            v.push(MapEvent::broadcast_received(
                s.clone(),
                b.clone(),
                roles[r as usize % roles.len()].clone(),
            ));
        }
    }
    for c in 0..spec.conflicts {
        let id = format!("c-{c}");
        v.push(MapEvent::conflict_detected(
            s.clone(),
            id.clone(),
            "file.rs",
            roles.clone(),
        ));
        v.push(MapEvent::conflict_resolved(
            s.clone(),
            id,
            "orchestrator_decides",
        ));
    }
    let mut done = SessionCompleted::new("completed".into(), spec.turns.len() as u64);
    if spec.with_counts {
        done.broadcasts_count = Some(spec.broadcasts.len() as u64);
        done.conflicts_count = Some(spec.conflicts.into());
        done.participants_count = Some(participants);
    }
    v.push(MapEvent::new(s, MapPayload::SessionCompleted(done)));
    v
}

pub(crate) fn log_spec() -> impl Strategy<Value = Vec<MapEvent>> {
    (
        prop::collection::vec(session_spec(), 1..4),
        prop::collection::vec(any::<u8>(), 200),
    )
        .prop_map(|(sessions, picks)| {
            let mut queues: Vec<VecDeque<MapEvent>> =
                sessions.iter().map(|s| session_events(s).into()).collect();
            let mut out = Vec::new();
            let mut k = 0;
            loop {
                queues.retain(|q| !q.is_empty());
                if queues.is_empty() {
                    restamp(&mut out);
                    return out;
                }
                let i = picks[k % picks.len()] as usize % queues.len();
                k += 1;
                out.extend(queues[i].pop_front());
            }
        })
}

/// The timestamp of the event at `index` in a test log timed in log
/// order: 2025-12-07T00:00:00.000Z, then one second apart.
pub(crate) fn log_time(index: usize) -> mplp_core::Timestamp {
    let t0 = mplp_core::Timestamp::parse("2025-12-07T00:00:00.000Z").unwrap();
    let after = std::time::Duration::from_secs(u64::try_from(index).unwrap());
    mplp_core::Timestamp::from_datetime(t0.instant() + after)
}

/// Times the events of a generated log in log order ([`log_time`]). They
/// were stamped with the clock when built (`MapEvent::new`), and a
/// session's overlapping turns put a `MAPTurnCompleted` built before the
/// next `MAPTurnDispatched` after it: when the clock's millisecond turned
/// in between, the log went back in time by 1 ms
/// (`map_timestamps_non_decreasing`), which made the generated logs
/// fail now and then.
fn restamp(events: &mut [MapEvent]) {
    for (i, e) in events.iter_mut().enumerate() {
        e.timestamp = log_time(i);
    }
}

pub(crate) fn to_ndjson(events: &[MapEvent]) -> Vec<u8> {
    let mut w = LogWriter::new(Vec::new());
    for e in events {
        w.write(e).unwrap();
    }
    w.into_inner()
}

fn rules_of(report: &Report) -> Vec<&'static str> {
    report.errors().map(|v| v.rule.as_str()).collect()
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    Delete,
    Duplicate,
    Move,
}

/// The index of the event of the same session next to `i` in direction `dir`.
fn neighbour(events: &[MapEvent], i: usize, dir: isize) -> Option<usize> {
    let mut j = i as isize + dir;
    while j >= 0 && (j as usize) < events.len() {
        if events[j as usize].session_id == events[i].session_id {
            return Some(j as usize);
        }
        j += dir;
    }
    None
}

/// The index of the completion (or dispatch) of the same turn as event `i`.
fn partner(events: &[MapEvent], i: usize) -> Option<usize> {
    let (want, n) = match &events[i].payload {
        MapPayload::TurnDispatched(p) => (MapEventType::TurnCompleted, p.turn_number),
        MapPayload::TurnCompleted(p) => (MapEventType::TurnDispatched, p.turn_number),
        _ => return None,
    };
    events.iter().position(|e| {
        e.session_id == events[i].session_id
            && e.event_type() == want
            && match &e.payload {
                MapPayload::TurnDispatched(p) => p.turn_number == n,
                MapPayload::TurnCompleted(p) => p.turn_number == n,
                _ => false,
            }
    })
}

pub(crate) fn mutate(events: &[MapEvent], i: usize, op: Op) -> (Vec<MapEvent>, &'static str) {
    let mut v = events.to_vec();
    let t = events[i].event_type();
    use MapEventType::*;
    let rule = match (op, t) {
        (Op::Delete, SessionStarted)
        | (Op::Duplicate, SessionStarted)
        | (Op::Move, SessionStarted) => "map_session_started_first",
        (Op::Delete, RolesAssigned) | (Op::Move, RolesAssigned) => "map_roles_assigned_required",
        (Op::Duplicate, RolesAssigned) => "map_roles_assigned_once",
        (Op::Delete, TurnDispatched)
        | (Op::Duplicate, TurnCompleted)
        | (Op::Move, TurnDispatched)
        | (Op::Move, TurnCompleted) => "map_turn_completed_without_dispatch",
        (Op::Delete, TurnCompleted) => "map_turn_completion_matches_dispatch",
        (Op::Duplicate, TurnDispatched) => "map_turn_number_sequence",
        (_, SessionCompleted) => "map_session_completed_last",
        _ => unreachable!(),
    };
    match op {
        Op::Delete => {
            v.remove(i);
        }
        Op::Duplicate => v.insert(i + 1, events[i].clone()),
        Op::Move => {
            let e = v.remove(i);
            match t {
                SessionStarted | RolesAssigned => {
                    let j = neighbour(events, i, 1).unwrap();
                    v.insert(j, e); // after the next event of the session
                }
                TurnDispatched => {
                    let j = partner(events, i).unwrap();
                    v.insert(j, e); // just after its completion
                }
                TurnCompleted => {
                    let j = partner(events, i).unwrap();
                    v.insert(j, e); // just before its dispatch
                }
                _ => {
                    let j = neighbour(events, i, -1).unwrap();
                    v.insert(j, e); // before the previous event of the session
                }
            }
        }
    }
    (v, rule)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn generated_logs_are_valid(events in log_spec()) {
        let report = validate_map_log(&to_ndjson(&events)[..]);
        prop_assert!(report.is_empty(), "{:?}", report);
    }

    #[test]
    fn breaking_a_mandatory_event_is_detected(events in log_spec(), pick in any::<prop::sample::Index>(), op in 0..3u8) {
        let mandatory: Vec<usize> = (0..events.len()).filter(|i| events[*i].event_type().is_mandatory()).collect();
        let i = mandatory[pick.index(mandatory.len())];
        let op = [Op::Delete, Op::Duplicate, Op::Move][op as usize];
        let (broken, rule) = mutate(&events, i, op);
        let report = validate_map_log(&to_ndjson(&broken)[..]);
        prop_assert!(rules_of(&report).contains(&rule), "{:?} of {:?} at {}: expected {}, got {:?}", op, events[i].event_type(), i, rule, report);
        prop_assert!(report.errors().all(|v| v.line.is_some()));
    }

    #[test]
    fn typed_events_round_trip(events in log_spec(), extra in "[a-z]{1,8}", value in any::<i32>()) {
        for mut e in events {
            if let MapPayload::TurnDispatched(p) = &mut e.payload {
                p.extra.insert(format!("x_{extra}"), value);
            }
            let json = e.to_json();
            let back = MapEvent::from_json(&json).unwrap();
            prop_assert_eq!(&back, &e);
            prop_assert_eq!(back.to_json(), json);
        }
    }

    #[test]
    fn typed_parse_and_check_value_agree_on_map_events(events in log_spec(), pick in any::<prop::sample::Index>(), m in mutation()) {
        let e = &events[pick.index(events.len())];
        let mut v = e.to_value();
        m.apply(&mut v);
        agree::<MapEvent>(&v)?;
    }

    #[test]
    fn typed_parse_and_check_value_agree_on_sa_events(which in 0..4u8, m in mutation()) {
        let sa = mplp_events::SaId::new();
        let step = mplp_core::StepId::new();
        let e = match which {
            0 => SaEvent::initialized(sa),
            1 => SaEvent::step_started(sa, step),
            2 => SaEvent::step_completed(sa, step, mplp_events::sa::StepOutcome::Failed),
            _ => SaEvent::step_failed(sa, step),
        };
        let mut v = e.to_value();
        m.apply(&mut v);
        agree::<SaEvent>(&v)?;
    }
}

fn agree<T: Document>(v: &Value) -> Result<(), TestCaseError> {
    let typed = serde_json::from_value::<T>(v.clone()).is_ok();
    let mut report = Report::new();
    T::check_value(v, &Pointer::root(), &mut report);
    prop_assert_eq!(typed, report.is_valid(), "{} {:?}", v, report);
    let text = serde_json::to_vec(v).unwrap();
    prop_assert_eq!(T::validate_json(&text).is_valid(), typed);
    Ok(())
}

/// A change to one member of the event or of its payload.
#[derive(Clone, Debug)]
struct Mutation {
    in_payload: bool,
    key: String,
    value: Option<Value>,
}

impl Mutation {
    fn apply(&self, v: &mut Value) {
        let target = if self.in_payload {
            match v.get_mut("payload") {
                Some(p) => p,
                None => return,
            }
        } else {
            v
        };
        let Some(obj) = target.as_object_mut() else {
            return;
        };
        match &self.value {
            None => {
                obj.remove(&self.key);
            }
            Some(x) => {
                obj.insert(self.key.clone(), x.clone());
            }
        }
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let keys = prop::sample::select(vec![
        "event_id",
        "event_type",
        "timestamp",
        "session_id",
        "sa_id",
        "initiator_role",
        "target_roles",
        "payload",
        "event_family",
        "context_id",
        "plan_id",
        "trace_id",
        "mode",
        "participant_count",
        "assignments",
        "role_id",
        "turn_number",
        "status",
        "turns_total",
        "broadcast_id",
        "conflict_id",
        "target_count",
        "message",
        "result",
        "step_id",
        "duration_ms",
        "x-extra",
    ]);
    let values = prop::option::of(prop::sample::select(vec![
        Value::Null,
        json!(true),
        json!(-1),
        json!(0),
        json!(7),
        json!(1.5),
        json!(""),
        json!("coder"),
        json!("swarm"),
        json!("completed"),
        json!("MAPTurnCompleted"),
        json!("SAStepFailed"),
        json!("MAPHandoffInitiated"),
        json!("2025-12-07T00:00:00Z"),
        json!("2025-12-07 00:00:00"),
        json!("f308a72c-fa84-11eb-9a03-0242ac130003"),
        json!("sess-1"),
        json!([]),
        json!(["a"]),
        json!([{"participant_id": "p", "role_id": "r"}]),
        json!([{"participant_id": "p"}]),
        json!({}),
        json!({"role_id": "r", "turn_number": 1, "status": "completed"}),
    ]));
    (any::<bool>(), keys, values).prop_map(|(in_payload, key, value)| Mutation {
        in_payload,
        key: key.to_owned(),
        value,
    })
}
