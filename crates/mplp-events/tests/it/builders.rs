//! Event builders and accessors: each sets or reads exactly its member, and
//! the required-member lists agree with what the validators report.

use mplp_core::{CollabId, CollabMode, Document, Timestamp};
use mplp_events::map::{BroadcastReceived, MapPayload};
use mplp_events::{MapEvent, MapEventType, SaEvent, SaEventType, SaId, SchemaUuid};
use serde_json::{Value, json};

const EVENT_ID: &str = "0b5aa778-4224-467d-8331-240366095f3f";
const TIME: &str = "2025-12-07T00:00:03.000Z";

fn uuid(s: &str) -> SchemaUuid {
    SchemaUuid::parse(s).unwrap()
}

#[test]
fn map_builders_set_their_member_and_nothing_else() {
    let s = CollabId::new();
    let at: Timestamp = TIME.parse().unwrap();
    let base = MapEvent::session_started(s, CollabMode::Broadcast, 2);
    let e = base
        .clone()
        .with_initiator_role("orchestrator")
        .with_target_roles(vec!["coder".into(), "tester".into()])
        .with_timestamp(at.clone())
        .with_event_id(uuid(EVENT_ID));
    assert_eq!(e.initiator_role.as_deref(), Some("orchestrator"));
    assert_eq!(
        e.target_roles.as_deref(),
        Some(&["coder".into(), "tester".into()][..])
    );
    assert_eq!(e.timestamp, at);
    assert_eq!(e.event_id, uuid(EVENT_ID));
    assert_eq!(
        (&e.session_id, &e.payload),
        (&base.session_id, &base.payload)
    );
    let wire: Value = serde_json::from_str(&e.to_json()).unwrap();
    assert_eq!(wire["event_id"], EVENT_ID);
    assert_eq!(wire["timestamp"], TIME);
    assert_eq!(wire["initiator_role"], "orchestrator");
    assert_eq!(wire["target_roles"], json!(["coder", "tester"]));
    assert_eq!(MapEvent::from_json(e.to_json()).unwrap(), e);

    // new_at takes the id and the time as given, and no roles.
    let n = MapEvent::new_at(s, base.payload.clone(), uuid(EVENT_ID), at.clone());
    assert_eq!((n.event_id, n.timestamp), (uuid(EVENT_ID), at));
    assert_eq!((n.initiator_role, n.target_roles), (None, None));
    assert_eq!(n.payload, base.payload);
    assert_eq!(n.session_id, base.session_id);
}

#[test]
fn a_received_broadcast_links_by_id_then_by_ref() {
    let read = |members: Value| -> BroadcastReceived { serde_json::from_value(members).unwrap() };
    let both = read(json!({"broadcast_id": "b-1", "broadcast_ref": "b-2"}));
    assert_eq!(both.broadcast_link(), Some("b-1"));
    let by_ref = read(json!({"broadcast_ref": "b-2"}));
    assert_eq!(by_ref.broadcast_link(), Some("b-2"));
    let by_id = read(json!({"broadcast_id": "b-1"}));
    assert_eq!(by_id.broadcast_link(), Some("b-1"));
    assert_eq!(read(json!({})).broadcast_link(), None);
}

#[test]
fn a_payload_is_present_when_the_event_has_one() {
    let s = CollabId::new();
    for &t in MapEventType::ALL {
        let text = |payload: &str| {
            format!(
                r#"{{"event_id":"{EVENT_ID}","timestamp":"{TIME}","session_id":"{s}","event_type":"{t}"{payload}}}"#
            )
        };
        let required = !t.required_payload_fields().is_empty();
        match MapEvent::from_json(text("")) {
            Ok(e) => {
                assert!(!required, "{t}");
                assert!(!e.payload.is_present(), "{t}");
                assert_eq!(e.payload.extra(), None, "{t}");
            }
            Err(_) => assert!(required, "{t}"),
        }
        let members: serde_json::Map<String, Value> = t
            .required_payload_fields()
            .iter()
            .map(|f| ((*f).to_owned(), sample(f)))
            .chain([("note".to_owned(), json!("kept"))])
            .collect();
        let e = MapEvent::from_json(text(&format!(r#","payload":{}"#, Value::Object(members))))
            .unwrap_or_else(|err| panic!("{t}: {err}"));
        assert!(e.payload.is_present(), "{t}");
        assert_eq!(
            e.payload.extra().unwrap().get("note"),
            Some(&json!("kept")),
            "{t}"
        );
        assert!(
            matches!(e.payload, MapPayload::SessionStarted(_))
                == (t == MapEventType::SessionStarted)
        );
    }
}

/// A valid value for a required payload member.
fn sample(field: &str) -> Value {
    match field {
        "mode" => json!("broadcast"),
        "assignments" => json!([]),
        "status" => json!("completed"),
        "role_id" => json!("coder"),
        _ => json!(1),
    }
}

/// Asserts that the members `report` names as missing from `payload: {}`
/// are `required` (in any order).
fn assert_asks_for(report: mplp_core::Report, required: &[&str], t: &dyn std::fmt::Display) {
    let mut got: Vec<String> = report
        .errors()
        .filter(|v| v.rule.as_str().ends_with("_required"))
        .map(|v| v.pointer.trim_start_matches("/payload/").to_owned())
        .collect();
    got.sort();
    let mut want = required.to_vec();
    want.sort_unstable();
    assert_eq!(got, want, "{t}");
}

#[test]
fn the_required_payload_members_are_those_the_validator_asks_for() {
    let s = CollabId::new();
    for t in MapEventType::ALL {
        let text = format!(
            r#"{{"event_id":"{EVENT_ID}","timestamp":"{TIME}","session_id":"{s}","event_type":"{t}","payload":{{}}}}"#
        );
        let report = MapEvent::validate_json(&text).report;
        assert_asks_for(report, t.required_payload_fields(), t);
    }
    let sa = SaId::new();
    for t in SaEventType::ALL {
        let text = format!(
            r#"{{"event_id":"{EVENT_ID}","timestamp":"{TIME}","sa_id":"{sa}","event_type":"{t}","payload":{{}}}}"#
        );
        let report = SaEvent::validate_json(&text).report;
        assert_asks_for(report, t.required_payload_fields(), t);
    }
}

#[test]
fn sa_bindings_set_the_three_ids() {
    let (c, p, t) = (
        uuid("5f9e3c8a-1b2d-4e6f-8a7b-9c0d1e2f3a4b"),
        uuid("6a0f4d9b-2c3e-4f70-9b8c-0d1e2f3a4b5c"),
        uuid(EVENT_ID),
    );
    let e = SaEvent::initialized(SaId::new()).with_bindings(
        Some(c.clone()),
        Some(p.clone()),
        Some(t.clone()),
    );
    assert_eq!(
        (&e.context_id, &e.plan_id, &e.trace_id),
        (&Some(c.clone()), &Some(p.clone()), &Some(t.clone()))
    );
    let wire: Value = serde_json::from_str(&e.to_json()).unwrap();
    assert_eq!(wire["context_id"], c.to_string());
    assert_eq!(wire["plan_id"], p.to_string());
    assert_eq!(wire["trace_id"], t.to_string());
    let cleared = e.with_bindings(None, Some(c.clone()), None);
    assert_eq!(
        (cleared.context_id, cleared.plan_id, cleared.trace_id),
        (None, Some(c), None)
    );
}

#[test]
fn a_map_family_is_the_core_family_of_the_same_name() {
    use mplp_events::{CoreFamily, EventFamily};
    let camel = |snake: &str| -> String {
        snake
            .split('_')
            .map(|w| w[..1].to_uppercase() + &w[1..])
            .collect()
    };
    for t in MapEventType::ALL {
        let family = t.family();
        let named = CoreFamily::ALL
            .iter()
            .copied()
            .find(|c| camel(c.as_str()) + "Event" == family.as_str());
        assert_eq!(family.core_family(), named, "{family}");
    }
    // The names the MAP events spec gives the families, as shown.
    let names: Vec<String> = [
        EventFamily::GraphUpdateEvent,
        EventFamily::RuntimeExecutionEvent,
        EventFamily::CommunicationEvent,
        EventFamily::ConflictEvent,
    ]
    .iter()
    .map(|f| {
        assert_eq!(f.to_string(), f.as_str());
        f.to_string()
    })
    .collect();
    assert_eq!(
        names,
        [
            "GraphUpdateEvent",
            "RuntimeExecutionEvent",
            "CommunicationEvent",
            "ConflictEvent"
        ]
    );
    assert_eq!(
        EventFamily::GraphUpdateEvent.core_family(),
        Some(CoreFamily::GraphUpdate)
    );
    assert_eq!(EventFamily::CommunicationEvent.core_family(), None);
}

/// The JSON Schema of a learning sample has the core sections for every
/// family, and the intent and delta sections under their family's tag.
#[cfg(feature = "schemars")]
#[test]
fn the_learning_sample_schema_has_its_sections_and_family_branches() {
    use mplp_events::learning::{LearningSample, SampleFamily};
    let schema = schemars::schema_for!(LearningSample).to_value();
    for section in ["input", "state", "output", "meta"] {
        assert!(
            schema["properties"].get(section).is_some(),
            "{section}: {schema}"
        );
    }
    let required = schema["required"].as_array().unwrap();
    for section in ["input", "output"] {
        assert!(required.contains(&json!(section)), "{section}: {schema}");
    }
    let branches: Vec<String> = schema["allOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.to_string())
        .collect();
    for family in [SampleFamily::INTENT_RESOLUTION, SampleFamily::DELTA_IMPACT] {
        assert_eq!(
            branches
                .iter()
                .filter(|b| b.contains(&format!("\"{family}\"")))
                .count(),
            1,
            "{family}: {branches:?}"
        );
    }
}

/// Inside a payload, a member of the wrong format is reported under the
/// payload's format rule, and a repeated member as a `duplicate-key` (by
/// the parser, before any payload rule).
#[test]
fn payload_members_keep_their_format_and_duplicate_rules() {
    let sa = SaId::new();
    let text = format!(
        r#"{{"event_id":"{EVENT_ID}","timestamp":"{TIME}","sa_id":"{sa}","event_type":"SAStepStarted","payload":{{"step_id":"step-1"}}}}"#
    );
    let rules: Vec<(String, String)> = SaEvent::validate_json(&text)
        .report
        .errors()
        .map(|v| (v.pointer.clone(), v.rule.as_str().to_owned()))
        .collect();
    assert_eq!(
        rules,
        [(
            "/payload/step_id".to_owned(),
            "sa_payload_format".to_owned()
        )]
    );
    let s = CollabId::new();
    let text = format!(
        r#"{{"event_id":"{EVENT_ID}","timestamp":"{TIME}","session_id":"{s}","event_type":"MAPTurnDispatched","payload":{{"role_id":"a","role_id":"b","turn_number":1}}}}"#
    );
    let rules: Vec<String> = MapEvent::validate_json(&text)
        .report
        .errors()
        .map(|v| v.rule.as_str().to_owned())
        .collect();
    assert_eq!(rules, ["duplicate-key"]);
}
