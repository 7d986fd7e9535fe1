//! MAP event types, constructors and payload rules.

use mplp_core::{CollabId, CollabMode, Document};
use mplp_events::map::RoleAssignment;
use mplp_events::{EventFamily, MapEvent, MapEventType, MapPayload, SessionId};
use serde_json::json;

fn errors(text: &str) -> Vec<(String, String)> {
    MapEvent::validate_json(text)
        .report
        .errors()
        .map(|v| (v.pointer.clone(), v.rule.as_str().to_owned()))
        .collect()
}

const ENVELOPE: &str = r#""event_id":"0b5aa778-4224-467d-8331-240366095f3f","timestamp":"2025-12-07T00:00:03.000Z","session_id":"940bda79-b539-44e0-9089-f61899b16f4c""#;

#[test]
fn constructors_write_valid_events() {
    let s = CollabId::new();
    let events = [
        MapEvent::session_started(s, CollabMode::Orchestrated, 2),
        MapEvent::roles_assigned(
            s,
            vec![
                RoleAssignment::new("p1".into(), "orchestrator".into()).with_kind("agent"),
                RoleAssignment::new("p2".into(), "coder".into()),
            ],
        ),
        MapEvent::turn_dispatched(s, "coder", 1),
        MapEvent::turn_completed(s, "coder", 1, "completed"),
        MapEvent::broadcast_sent(s, "b-1", "orchestrator", vec!["coder".into()]),
        MapEvent::broadcast_received(s, "b-1", "coder"),
        MapEvent::conflict_detected(s, "c-1", "file.rs", vec!["a".into(), "b".into()]),
        MapEvent::conflict_resolved(s, "c-1", "orchestrator_decides"),
        MapEvent::session_completed(s, "completed", 1),
    ];
    for (e, t) in events.iter().zip(MapEventType::ALL) {
        assert_eq!(e.event_type(), *t);
        assert_eq!(e.session_id, SessionId::from(s));
        assert_eq!(e.session_id.to_collab_id(), Ok(s));
        let back = MapEvent::from_json(e.to_json()).unwrap();
        assert_eq!(&back, e);
        // Fresh ids are lowercase v4.
        let id = e.event_id.to_string();
        assert!(mplp_core::EventId::parse(&id).is_ok(), "{id}");
    }
}

#[test]
fn family_is_derived_from_the_type() {
    use EventFamily::*;
    let expected = [
        GraphUpdateEvent,
        GraphUpdateEvent,
        RuntimeExecutionEvent,
        RuntimeExecutionEvent,
        CommunicationEvent,
        CommunicationEvent,
        ConflictEvent,
        ConflictEvent,
        GraphUpdateEvent,
    ];
    let got: Vec<_> = MapEventType::ALL.iter().map(|t| t.family()).collect();
    assert_eq!(got, expected);
}

#[test]
fn event_family_on_the_wire_is_refused_with_a_clear_message() {
    let text = format!(
        r#"{{{ENVELOPE},"event_type":"MAPTurnDispatched","event_family":"RuntimeExecutionEvent","payload":{{"role_id":"coder","turn_number":1}}}}"#
    );
    let r = MapEvent::validate_json(&text).report;
    let e: Vec<_> = r.errors().collect();
    assert_eq!(e.len(), 1, "{r:?}");
    assert_eq!(e[0].pointer, "/event_family");
    assert_eq!(e[0].rule, mplp_core::Rule::ADDITIONAL_PROPERTIES);
    assert!(e[0].message.contains("follows from `event_type`"));
}

#[test]
fn handoff_initiated_is_refused_with_a_clear_message() {
    let text = format!(r#"{{{ENVELOPE},"event_type":"MAPHandoffInitiated","payload":{{}}}}"#);
    let r = MapEvent::validate_json(&text).report;
    let e: Vec<_> = r.errors().collect();
    assert_eq!(e.len(), 1, "{r:?}");
    assert_eq!(
        (e[0].pointer.as_str(), e[0].rule.as_str()),
        ("/event_type", "enum")
    );
    assert!(e[0].message.contains("not an event type of MPLP v1.0.0"));
}

#[test]
fn payload_rules_are_sdk_rules() {
    let ev = |t: &str, payload: &str| {
        let p = if payload.is_empty() {
            String::new()
        } else {
            format!(r#","payload":{payload}"#)
        };
        format!(r#"{{{ENVELOPE},"event_type":"{t}"{p}}}"#)
    };
    assert_eq!(
        errors(&ev(
            "MAPTurnCompleted",
            r#"{"role_id":"coder","turn_number":1}"#
        )),
        [("/payload/status".into(), "map_payload_required".into())]
    );
    assert_eq!(
        errors(&ev("MAPSessionStarted", "")),
        [("/payload".into(), "map_payload_required".into())]
    );
    assert_eq!(
        errors(&ev(
            "MAPTurnDispatched",
            r#"{"role_id":"coder","turn_number":"1"}"#
        )),
        [("/payload/turn_number".into(), "map_payload_type".into())]
    );
    assert_eq!(
        errors(&ev(
            "MAPSessionStarted",
            r#"{"mode":"chaos","participant_count":-1}"#
        )),
        [
            ("/payload/mode".into(), "map_payload_enum".into()),
            (
                "/payload/participant_count".into(),
                "map_payload_type".into()
            )
        ]
    );
    assert_eq!(
        errors(&ev(
            "MAPRolesAssigned",
            r#"{"assignments":[{"participant_id":"p"}]}"#
        )),
        [(
            "/payload/assignments/0/role_id".into(),
            "map_payload_required".into()
        )]
    );
    // Payload-less recommended events are fine, and stay payload-less.
    let text = ev("MAPConflictResolved", "");
    let e = MapEvent::from_json(&text).unwrap();
    assert_eq!(e.payload, MapPayload::ConflictResolved(None));
    assert_eq!(
        e.to_value(),
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    );
    assert!(!e.to_json().contains("payload"));
    // A payload that is not an object is a schema `type` error.
    assert_eq!(
        errors(&ev("MAPBroadcastSent", "[]")),
        [("/payload".into(), "type".into())]
    );
}

#[test]
fn unknown_payload_members_are_kept_exactly() {
    let text = format!(
        r#"{{{ENVELOPE},"event_type":"MAPTurnDispatched","payload":{{"role_id":"coder","turn_number":1,"token_id":"t","x-trace":{{"b":[1,2.5,null],"a":"z"}},"priority":"high"}}}}"#
    );
    let e = MapEvent::from_json(&text).unwrap();
    let MapPayload::TurnDispatched(p) = &e.payload else {
        panic!()
    };
    assert_eq!(p.token_id.as_deref(), Some("t"));
    assert_eq!(p.extra.get("priority"), Some(&json!("high")));
    let back: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
    let input: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back, input);
}

#[test]
fn payload_before_event_type_is_read() {
    let text = format!(
        r#"{{"payload":{{"role_id":"coder","turn_number":2,"status":"failed"}},"event_type":"MAPTurnCompleted",{ENVELOPE}}}"#
    );
    let e = MapEvent::from_json(&text).unwrap();
    assert_eq!(e.event_type(), MapEventType::TurnCompleted);
    let text = format!(
        r#"{{"payload":{{"role_id":"coder","turn_number":2}},"event_type":"MAPTurnCompleted",{ENVELOPE}}}"#
    );
    assert_eq!(
        errors(&text),
        [("/payload/status".into(), "map_payload_required".into())]
    );
}

#[test]
fn session_id_keeps_any_uuid_text() {
    // format: uuid admits upper case and other versions; the text is kept.
    let text = r#"{"event_id":"F308A72C-FA84-11EB-9A03-0242AC130003","event_type":"MAPConflictDetected","timestamp":"2025-12-07T00:00:03.000Z","session_id":"940BDA79-B539-44E0-9089-F61899B16F4C"}"#;
    let e = MapEvent::from_json(text).unwrap();
    assert_eq!(e.to_json(), text);
    assert!(e.session_id.to_collab_id().is_err());
}
