//! Walks the declaration of the MAP and SA event types: every declared type
//! round-trips with its payload, answers its family, mandatory flag or
//! phase as the spec's tables say, and a payload missing any member its
//! payload struct requires (`Wire::REQUIRED`) is refused at that member's
//! pointer with the profile's `*_payload_required` rule.

use mplp_core::{CollabMode, Document, JsonObject, Timestamp, Wire};
use mplp_events::map::{
    BroadcastReceived, BroadcastSent, ConflictDetected, ConflictResolved, RoleAssignment,
    RolesAssigned, SessionCompleted, SessionStarted, TurnCompleted, TurnDispatched,
};
use mplp_events::sa::{StepCompleted, StepFailed, StepOutcome, StepStarted};
use mplp_events::{
    EventFamily, MapEvent, MapEventType, MapPayload, SaEvent, SaEventType, SaId, SaPayload,
    SchemaUuid, SessionId,
};
use serde_json::{Value, json};

const EVENT_ID: &str = "0b5aa778-4224-467d-8331-240366095f3f";
const SESSION: &str = "940bda79-b539-44e0-9089-f61899b16f4c";
const STEP: &str = "6c1a4e7f-0d8a-4a55-9b51-3f3c7e2a9d10";

fn at() -> Timestamp {
    Timestamp::parse("2025-12-07T00:00:03.000Z").unwrap()
}

fn object(v: Value) -> JsonObject {
    JsonObject::try_from(v).unwrap()
}

/// One payload of each MAP type with every typed member set (the members
/// its struct requires, as `Wire::REQUIRED` names them, beside it). The
/// `match` is exhaustive: a new type cannot be declared without a sample.
fn map_sample(t: MapEventType) -> (MapPayload, &'static [&'static str]) {
    match t {
        MapEventType::SessionStarted => {
            let mut p = SessionStarted::new(CollabMode::RoundRobin, 3);
            p.context_id = Some("ctx".into());
            p.purpose = Some("review".into());
            p.extra = object(json!({"x-note": [1, 2.5]}));
            (MapPayload::SessionStarted(p), SessionStarted::REQUIRED)
        }
        MapEventType::RolesAssigned => {
            let p = RolesAssigned::new(vec![
                RoleAssignment::new("p1".into(), "coder".into()).with_kind("agent"),
            ]);
            (MapPayload::RolesAssigned(p), RolesAssigned::REQUIRED)
        }
        MapEventType::TurnDispatched => {
            let mut p = TurnDispatched::new("coder".into(), 1);
            p.token_id = Some("t-1".into());
            p.task = Some("write it".into());
            (MapPayload::TurnDispatched(p), TurnDispatched::REQUIRED)
        }
        MapEventType::TurnCompleted => {
            let mut p = TurnCompleted::new("coder".into(), 1, "completed".into());
            p.duration_ms = Some(12);
            p.output_summary = Some("done".into());
            p.result = Some(object(json!({"ok": true})));
            (MapPayload::TurnCompleted(p), TurnCompleted::REQUIRED)
        }
        MapEventType::BroadcastSent => {
            let mut p = BroadcastSent::new();
            p.broadcaster_role_id = Some("lead".into());
            p.target_count = Some(2);
            p.broadcast_id = Some("b-1".into());
            p.message_type = Some("task_assignment".into());
            p.message = Some(object(json!({"text": "go"})));
            (MapPayload::BroadcastSent(Some(p)), BroadcastSent::REQUIRED)
        }
        MapEventType::BroadcastReceived => {
            let mut p = BroadcastReceived::new();
            p.receiver_role_id = Some("coder".into());
            p.receiver_role = Some("coder".into());
            p.broadcast_id = Some("b-1".into());
            p.broadcast_ref = Some("b-1".into());
            p.response = Some(object(json!({"ack": true})));
            let required = BroadcastReceived::REQUIRED;
            (MapPayload::BroadcastReceived(Some(p)), required)
        }
        MapEventType::ConflictDetected => {
            let mut p = ConflictDetected::new();
            p.conflict_id = Some("c-1".into());
            p.resource = Some("file.rs".into());
            p.resource_type = Some("plan_step".into());
            p.resource_id = Some("r-1".into());
            p.participants = Some(vec!["a".into(), "b".into()]);
            p.conflicting_roles = Some(vec!["a".into()]);
            p.conflict_type = Some("concurrent_modification".into());
            p.details = Some("both wrote".into());
            let required = ConflictDetected::REQUIRED;
            (MapPayload::ConflictDetected(Some(p)), required)
        }
        MapEventType::ConflictResolved => {
            let mut p = ConflictResolved::new();
            p.conflict_id = Some("c-1".into());
            p.strategy = Some("orchestrator_decides".into());
            p.resolution_strategy = Some("orchestrator_decides".into());
            p.winner = Some("a".into());
            p.winning_role = Some("a".into());
            p.reason = Some("first".into());
            let required = ConflictResolved::REQUIRED;
            (MapPayload::ConflictResolved(Some(p)), required)
        }
        MapEventType::SessionCompleted => {
            let mut p = SessionCompleted::new("completed".into(), 4);
            p.participants_count = Some(2);
            p.broadcasts_count = Some(1);
            p.conflicts_count = Some(0);
            p.duration_ms = Some(100);
            (MapPayload::SessionCompleted(p), SessionCompleted::REQUIRED)
        }
    }
}

/// One payload of each SA type, and the members its struct requires.
fn sa_sample(t: SaEventType) -> (SaPayload, &'static [&'static str]) {
    let step: SchemaUuid = STEP.parse().unwrap();
    let free = || Some(object(json!({"note": "free", "n": 1})));
    match t {
        SaEventType::Initialized => (SaPayload::Initialized(free()), &[]),
        SaEventType::ContextLoaded => (SaPayload::ContextLoaded(free()), &[]),
        SaEventType::PlanEvaluated => (SaPayload::PlanEvaluated(free()), &[]),
        SaEventType::StepStarted => {
            let mut p = StepStarted::new(step);
            p.agent_role = Some("coder".into());
            p.description = Some("step one".into());
            (SaPayload::StepStarted(p), StepStarted::REQUIRED)
        }
        SaEventType::StepCompleted => {
            let mut p = StepCompleted::new(step, StepOutcome::Failed);
            p.result = Some(object(json!({"out": [1]})));
            (SaPayload::StepCompleted(p), StepCompleted::REQUIRED)
        }
        SaEventType::StepFailed => (
            SaPayload::StepFailed(StepFailed::new(step)),
            StepFailed::REQUIRED,
        ),
        SaEventType::TraceEmitted => (SaPayload::TraceEmitted(free()), &[]),
        SaEventType::Completed => (SaPayload::Completed(free()), &[]),
    }
}

/// The payload of `p` left out, when its type allows that.
fn map_without_payload(p: &MapPayload) -> Option<MapPayload> {
    match p {
        MapPayload::BroadcastSent(_) => Some(MapPayload::BroadcastSent(None)),
        MapPayload::BroadcastReceived(_) => Some(MapPayload::BroadcastReceived(None)),
        MapPayload::ConflictDetected(_) => Some(MapPayload::ConflictDetected(None)),
        MapPayload::ConflictResolved(_) => Some(MapPayload::ConflictResolved(None)),
        _ => None,
    }
}

fn sa_without_payload(p: &SaPayload) -> Option<SaPayload> {
    match p {
        SaPayload::Initialized(_) => Some(SaPayload::Initialized(None)),
        SaPayload::ContextLoaded(_) => Some(SaPayload::ContextLoaded(None)),
        SaPayload::PlanEvaluated(_) => Some(SaPayload::PlanEvaluated(None)),
        SaPayload::TraceEmitted(_) => Some(SaPayload::TraceEmitted(None)),
        SaPayload::Completed(_) => Some(SaPayload::Completed(None)),
        _ => None,
    }
}

fn map_event(p: MapPayload) -> MapEvent {
    let session: SessionId = SESSION.parse().unwrap();
    MapEvent::new_at(session, p, EVENT_ID.parse().unwrap(), at())
}

fn sa_event(p: SaPayload) -> SaEvent {
    let sa: SaId = SESSION.parse().unwrap();
    let mut e = SaEvent::new(sa, p);
    e.event_id = EVENT_ID.parse().unwrap();
    e.timestamp = at();
    e
}

/// A violation as (pointer, rule, message).
type Found = (String, String, String);

/// The errors of `validate_json`, and the pointer and rule of `from_json`'s
/// refusal.
fn refusals<D: Document + std::fmt::Debug>(v: &Value) -> (Vec<Found>, (String, String)) {
    let text = v.to_string();
    let errors = D::validate_json(&text)
        .report
        .errors()
        .map(|v| {
            (
                v.pointer.clone(),
                v.rule.as_str().to_owned(),
                v.message.clone(),
            )
        })
        .collect();
    let e = D::from_json(&text).unwrap_err();
    let first = (
        e.pointer().unwrap_or_default().to_owned(),
        e.rule().map(|r| r.as_str()).unwrap_or_default().to_owned(),
    );
    (errors, first)
}

/// Round-trips `e` (typed -> JSON -> typed) and checks that what it writes
/// is valid; the value written is returned.
fn round_trip<D: Document + PartialEq + std::fmt::Debug>(e: &D) -> Value {
    let text = e.to_json();
    assert_eq!(&D::from_json(&text).unwrap(), e, "{text}");
    assert!(D::validate_json(&text).report.is_valid(), "{text}");
    e.to_value()
}

/// The event's `payload` member without `member`.
fn without_member(v: &Value, member: &str) -> Value {
    let mut v = v.clone();
    let removed = v["payload"].as_object_mut().unwrap().remove(member);
    assert!(removed.is_some(), "{member} not written in {v}");
    v
}

fn without_payload(v: &Value) -> Value {
    let mut v = v.clone();
    v.as_object_mut().unwrap().remove("payload");
    v
}

#[test]
fn every_map_event_type_is_declared_once_and_answers_from_its_declaration() {
    // The MAP events spec's tables: family, and the five MUST events.
    use EventFamily::*;
    let spec: [(&str, EventFamily, bool); 9] = [
        ("MAPSessionStarted", GraphUpdateEvent, true),
        ("MAPRolesAssigned", GraphUpdateEvent, true),
        ("MAPTurnDispatched", RuntimeExecutionEvent, true),
        ("MAPTurnCompleted", RuntimeExecutionEvent, true),
        ("MAPBroadcastSent", CommunicationEvent, false),
        ("MAPBroadcastReceived", CommunicationEvent, false),
        ("MAPConflictDetected", ConflictEvent, false),
        ("MAPConflictResolved", ConflictEvent, false),
        ("MAPSessionCompleted", GraphUpdateEvent, true),
    ];
    assert_eq!(MapEventType::ALL.len(), spec.len());
    for (t, (name, family, mandatory)) in MapEventType::ALL.iter().copied().zip(spec) {
        assert_eq!(
            (t.as_str(), t.family(), t.is_mandatory()),
            (name, family, mandatory)
        );
        let (payload, required) = map_sample(t);
        assert_eq!(payload.event_type(), t);
        assert_eq!(t.required_payload_fields(), required, "{t}");
        assert!(payload.is_present());
        let e = map_event(payload.clone());
        assert_eq!((e.event_type(), e.family()), (t, family));
        let written = round_trip(&e);
        assert_eq!(written["event_type"], name);
        assert!(payload.extra().is_some(), "{t}");

        // Each required member left out is refused at its pointer.
        for member in required {
            let at = format!("/payload/{member}");
            let (errors, first) = refusals::<MapEvent>(&without_member(&written, member));
            assert_eq!(
                errors,
                [(
                    at.clone(),
                    "map_payload_required".into(),
                    format!("missing required property `{member}`")
                )],
                "{t}"
            );
            assert_eq!(first, (at, "map_payload_required".to_owned()), "{t}");
        }

        // The payload left out: allowed exactly when nothing is required.
        let bare = without_payload(&written);
        match map_without_payload(&payload) {
            Some(none) => {
                assert!(required.is_empty(), "{t}");
                assert!(!none.is_present());
                assert_eq!(none.extra(), None);
                let e = map_event(none);
                assert_eq!(round_trip(&e), bare);
            }
            None => {
                assert!(!required.is_empty(), "{t}");
                let fields: Vec<String> = required.iter().map(|m| format!("`{m}`")).collect();
                let message = format!(
                    "{name} needs a payload with {} (the MAP events spec requires them)",
                    fields.join(", ")
                );
                let (errors, first) = refusals::<MapEvent>(&bare);
                assert_eq!(
                    errors,
                    [(
                        "/payload".to_owned(),
                        "map_payload_required".to_owned(),
                        message
                    )]
                );
                assert_eq!(
                    first,
                    ("/payload".to_owned(), "map_payload_required".to_owned())
                );
            }
        }
    }
}

#[test]
fn every_sa_event_type_is_declared_once_and_answers_from_its_declaration() {
    // The SA profile's phases, in order.
    let spec: [(&str, u8); 8] = [
        ("SAInitialized", 0),
        ("SAContextLoaded", 1),
        ("SAPlanEvaluated", 2),
        ("SAStepStarted", 3),
        ("SAStepCompleted", 3),
        ("SAStepFailed", 3),
        ("SATraceEmitted", 4),
        ("SACompleted", 5),
    ];
    assert_eq!(SaEventType::ALL.len(), spec.len());
    for (t, (name, phase)) in SaEventType::ALL.iter().copied().zip(spec) {
        assert_eq!((t.as_str(), t.phase()), (name, phase));
        let (payload, required) = sa_sample(t);
        assert_eq!(payload.event_type(), t);
        assert_eq!(t.required_payload_fields(), required, "{t}");
        let e = sa_event(payload.clone());
        assert_eq!(e.event_type(), t);
        let written = round_trip(&e);
        assert_eq!(written["event_type"], name);
        assert_eq!(
            payload.step_id().map(|s| s.to_string()),
            written["payload"]["step_id"].as_str().map(str::to_owned)
        );

        for member in required {
            let at = format!("/payload/{member}");
            let (errors, first) = refusals::<SaEvent>(&without_member(&written, member));
            assert_eq!(
                errors,
                [(
                    at.clone(),
                    "sa_payload_required".into(),
                    format!("missing required property `{member}`")
                )],
                "{t}"
            );
            assert_eq!(first, (at, "sa_payload_required".to_owned()), "{t}");
        }

        let bare = without_payload(&written);
        match sa_without_payload(&payload) {
            Some(none) => {
                assert!(required.is_empty(), "{t}");
                assert_eq!(round_trip(&sa_event(none)), bare);
            }
            None => {
                assert!(!required.is_empty(), "{t}");
                let fields: Vec<String> = required.iter().map(|m| format!("`{m}`")).collect();
                let message = format!("{name} needs a payload with {}", fields.join(", "));
                let (errors, first) = refusals::<SaEvent>(&bare);
                assert_eq!(
                    errors,
                    [(
                        "/payload".to_owned(),
                        "sa_payload_required".to_owned(),
                        message
                    )]
                );
                assert_eq!(
                    first,
                    ("/payload".to_owned(), "sa_payload_required".to_owned())
                );
            }
        }
    }
}
