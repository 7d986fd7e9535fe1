//! Log validation rules, one by one.

use mplp_core::{CollabId, CollabMode, Report, StepId};
use mplp_events::log::{
    EventSink, LogWriter, MapLogValidator, SaLogValidator, validate_map_log, validate_sa_log,
};
use mplp_events::map::RoleAssignment;
use mplp_events::sa::StepOutcome;
use mplp_events::{MapEvent, SaEvent, SaId, SessionId};

fn found(r: &Report) -> Vec<(u64, &'static str)> {
    r.errors()
        .map(|v| (v.line.unwrap(), v.rule.as_str()))
        .collect()
}

fn ndjson<T: serde::Serialize>(events: &[T]) -> Vec<u8> {
    let mut w = LogWriter::new(Vec::new());
    for e in events {
        w.write(e).unwrap();
    }
    w.into_inner()
}

fn session(s: CollabId) -> Vec<MapEvent> {
    vec![
        MapEvent::session_started(s, CollabMode::Swarm, 2),
        MapEvent::roles_assigned(
            s,
            vec![
                RoleAssignment::new("p1".into(), "a".into()),
                RoleAssignment::new("p2".into(), "b".into()),
            ],
        ),
    ]
}

#[test]
fn swarm_turns_may_overlap_and_counts_are_checked() {
    let s = CollabId::new();
    let mut v = session(s);
    v.push(MapEvent::turn_dispatched(s, "a", 1));
    v.push(MapEvent::turn_dispatched(s, "b", 2));
    v.push(MapEvent::turn_completed(s, "b", 2, "failed"));
    v.push(MapEvent::turn_completed(s, "a", 1, "completed"));
    let mut done = MapEvent::session_completed(s, "completed", 2);
    if let mplp_events::MapPayload::SessionCompleted(p) = &mut done.payload {
        p.broadcasts_count = Some(1);
        p.participants_count = Some(3);
    }
    v.push(done);
    assert_eq!(
        found(&validate_map_log(&ndjson(&v)[..])),
        [
            (7, "map_session_counts_match"),
            (7, "map_session_counts_match")
        ]
    );
}

#[test]
fn turn_numbers_go_one_by_one_and_completions_match_role() {
    let s = CollabId::new();
    let mut v = session(s);
    v.push(MapEvent::turn_dispatched(s, "a", 2)); // line 3: should be 1
    v.push(MapEvent::turn_completed(s, "b", 2, "completed")); // line 4: wrong role
    v.push(MapEvent::turn_completed(s, "a", 2, "completed"));
    v.push(MapEvent::session_completed(s, "completed", 1));
    assert_eq!(
        found(&validate_map_log(&ndjson(&v)[..])),
        [
            (3, "map_turn_number_sequence"),
            (4, "map_turn_completed_without_dispatch")
        ]
    );
}

#[test]
fn broadcasts_conflicts_and_events_after_completion() {
    let s = CollabId::new();
    let mut v = session(s);
    v.push(MapEvent::broadcast_sent(s, "b1", "a", vec!["b".into()])); // 3: never answered
    v.push(MapEvent::broadcast_received(s, "b2", "b")); // 4: answers nothing
    v.push(MapEvent::conflict_detected(s, "c1", "x", vec![])); // 5: never resolved
    v.push(MapEvent::conflict_resolved(s, "c2", "y")); // 6: resolves nothing
    v.push(MapEvent::session_completed(s, "completed", 0)); // 7
    v.push(MapEvent::turn_dispatched(s, "a", 1)); // 8: after completion
    assert_eq!(
        found(&validate_map_log(&ndjson(&v)[..])),
        [
            (3, "map_broadcast_has_receivers"),
            (4, "map_broadcast_receiver_unmatched"),
            (5, "map_conflict_resolved"),
            (6, "map_conflict_resolution_unmatched"),
            (8, "map_session_completed_last"),
        ]
    );
}

#[test]
fn bad_lines_are_reported_with_their_line_and_reading_goes_on() {
    let s = CollabId::new();
    let mut text = ndjson(&session(s));
    text.extend_from_slice(b"\n{not json}\n{\"event_type\":\"MAPTurnDispatched\"}\r\n");
    text.extend_from_slice(&ndjson(&[MapEvent::session_completed(s, "completed", 0)]));
    let r = validate_map_log(&text[..]);
    let got = found(&r);
    assert_eq!(got[0], (4, "json-syntax"));
    assert!(got.contains(&(5, "required")), "{got:?}");
    assert!(got.contains(&(5, "map_payload_required")), "{got:?}");
    // syntax; event_id, timestamp, session_id missing; the payload missing.
    assert_eq!(got.len(), 5, "{got:?}");
}

#[test]
fn sessions_are_keyed_by_uuid_value() {
    let s = CollabId::new();
    let mut v = session(s);
    let mut done = MapEvent::session_completed(s, "completed", 0);
    done.session_id = SessionId::parse(&s.to_string().to_uppercase()).unwrap();
    v.push(done);
    assert!(validate_map_log(&ndjson(&v)[..]).is_empty());
}

#[test]
fn memory_follows_what_is_open() {
    let mut val = MapLogValidator::new();
    for _ in 0..1000 {
        let s = CollabId::new();
        for e in session(s) {
            val.emit(e).unwrap();
        }
        val.emit(MapEvent::turn_dispatched(s, "a", 1)).unwrap();
        assert_eq!(val.open_items(), 2); // the session and its turn
        val.emit(MapEvent::turn_completed(s, "a", 1, "completed"))
            .unwrap();
        val.emit(MapEvent::session_completed(s, "completed", 1))
            .unwrap();
        assert_eq!(val.open_items(), 0);
    }
    assert!(val.finish().is_empty());
}

fn sa_run(sa: &SaId, steps: &[StepId]) -> Vec<SaEvent> {
    let mut v = vec![
        SaEvent::initialized(sa.clone()),
        SaEvent::new(sa.clone(), mplp_events::SaPayload::ContextLoaded(None)),
        SaEvent::new(sa.clone(), mplp_events::SaPayload::PlanEvaluated(None)),
    ];
    for s in steps {
        v.push(SaEvent::step_started(sa.clone(), *s));
        v.push(SaEvent::step_completed(
            sa.clone(),
            *s,
            StepOutcome::Completed,
        ));
    }
    v.push(SaEvent::new(
        sa.clone(),
        mplp_events::SaPayload::TraceEmitted(None),
    ));
    v.push(SaEvent::completed(sa.clone()));
    v
}

#[test]
fn sa_runs_follow_the_profile() {
    let sa = SaId::new();
    let steps = [StepId::new(), StepId::new()];
    let good = sa_run(&sa, &steps);
    assert!(validate_sa_log(&ndjson(&good)[..]).is_empty());

    // A step that never finishes, a finish without a start, a phase out of order.
    let mut bad = good.clone();
    bad.remove(4); // step 0 completion (line 5 in the good log)
    bad.insert(5, SaEvent::step_failed(sa.clone(), StepId::new()));
    bad.insert(
        1,
        SaEvent::new(sa.clone(), mplp_events::SaPayload::PlanEvaluated(None)),
    );
    let r = validate_sa_log(&ndjson(&bad)[..]);
    assert_eq!(
        found(&r),
        [
            (3, "sa_lifecycle_order"),          // SAContextLoaded after SAPlanEvaluated
            (5, "sa_step_started_is_finished"), // step 0 never finishes
            (7, "sa_step_finished_without_start"),
        ]
    );

    // No SACompleted; events after completion; missing mandatory events are warnings.
    let sa2 = SaId::new();
    let mut v = vec![
        SaEvent::initialized(sa2.clone()),
        SaEvent::completed(sa2.clone()),
        SaEvent::completed(sa2.clone()),
    ];
    v.push(SaEvent::step_started(SaId::new(), StepId::new()));
    let r = validate_sa_log(&ndjson(&v)[..]);
    assert_eq!(
        found(&r),
        [
            (3, "sa_completed_last"),
            (4, "sa_initialized_first"),
            (4, "sa_completed_last"),
            (4, "sa_step_started_is_finished")
        ]
    );
    assert_eq!(r.warnings().count(), 3);

    let mut live = SaLogValidator::new();
    for e in good {
        live.emit(e).unwrap();
    }
    assert!(live.finish().is_empty());
}
