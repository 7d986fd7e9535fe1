//! The schema examples: valid ones round-trip, invalid ones fail where their sidecar says.

use mplp_core::{Document, Rule};
use mplp_dialog::Dialog;
use serde_json::Value;

use crate::common::{examples, examples_dir};

#[test]
fn valid_examples_parse_without_any_finding_and_round_trip_json_equal() {
    for (name, bytes) in examples("valid") {
        let v = Dialog::validate_json(&bytes);
        assert!(v.report.is_empty(), "{name}: {:?}", v.report);
        let dialog = v.value.unwrap();
        let input: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(dialog.to_value(), input, "{name}");
        let pretty: Value = serde_json::from_str(&dialog.to_json_pretty()).unwrap();
        assert_eq!(pretty, input, "{name}");
        // And the typed value survives a second trip unchanged.
        assert_eq!(
            Dialog::from_json(dialog.to_json()).unwrap(),
            dialog,
            "{name}"
        );
    }
}

#[test]
fn invalid_examples_report_the_expected_pointer_and_rule() {
    for (name, bytes) in examples("invalid") {
        let sidecar = examples_dir()
            .join("invalid")
            .join(name.replace(".json", ".expect.json"));
        let expect: Value = serde_json::from_slice(&std::fs::read(sidecar).unwrap()).unwrap();
        let (pointer, rule) = (
            expect["pointer"].as_str().unwrap(),
            expect["rule"].as_str().unwrap(),
        );
        let v = Dialog::validate_json(&bytes);
        assert!(!v.is_valid(), "{name} should be invalid");
        assert!(
            v.report
                .errors()
                .any(|e| e.pointer == pointer && e.rule.as_str() == rule),
            "{name}: expected {pointer} [{rule}], got {:?}",
            v.report.violations()
        );
        // from_json agrees, and the CheckValue pass alone finds it too (except
        // duplicate keys, which a Value cannot hold).
        assert!(Dialog::from_json(&bytes).is_err());
        if rule != Rule::DUPLICATE_KEY.as_str() {
            let value: Value = serde_json::from_slice(&bytes).unwrap();
            let by_value = Dialog::validate_value(&value);
            assert!(
                by_value
                    .report
                    .errors()
                    .any(|e| e.pointer == pointer && e.rule.as_str() == rule),
                "{name}: {:?}",
                by_value.report
            );
        }
    }
}

#[test]
fn message_extra_field_gets_a_readable_error() {
    let (_, bytes) = examples("invalid")
        .into_iter()
        .find(|(n, _)| n.contains("message-name"))
        .unwrap();
    let err = Dialog::from_json(&bytes).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("/messages/1/name") && msg.contains("unknown property `name`"),
        "{msg}"
    );
}

#[test]
fn seed_complete_example_is_refused_with_every_problem() {
    // The MPLP seed's "complete JSON example": non-UUID ids and meta.protocolVersion.
    let seed = r#"{"meta":{"protocolVersion":"1.0.0","source":"mplp-runtime"},
      "dialog_id":"dialog-550e8400-e29b-41d4-a716-446655440005",
      "context_id":"ctx-550e8400-e29b-41d4-a716-446655440000",
      "thread_id":"thread-login-fix-001","status":"completed",
      "started_at":"2025-12-07T00:00:00.000Z","ended_at":"2025-12-07T00:10:00.000Z",
      "messages":[{"role":"system","content":"x","timestamp":"2025-12-07T00:00:00.000Z"}]}"#;
    let report = Dialog::validate_json(seed).report;
    let found: Vec<_> = report
        .errors()
        .map(|v| (v.pointer.as_str(), v.rule.as_str()))
        .collect();
    for expected in [
        ("/meta/protocol_version", "required"),
        ("/meta/protocolVersion", "additional-properties"),
        ("/meta/source", "additional-properties"),
        ("/dialog_id", "pattern"),
        ("/context_id", "pattern"),
        ("/thread_id", "pattern"),
    ] {
        assert!(found.contains(&expected), "{expected:?} not in {found:?}");
    }
}

#[test]
fn arrays_of_field_values_are_not_objects() {
    // Serde's derived structs would read these as a message and a meta block.
    let doc = serde_json::json!({
        "meta": ["1.0.0", "1.0.0"],
        "dialog_id": "36398c50-7383-4f61-b96f-4525123599da",
        "context_id": "0ddb0a8e-a488-47b1-8fbc-0133d0a359a2",
        "status": "active",
        "messages": [["user", "hi", "2025-12-07T00:00:05Z"]]
    });
    let v = Dialog::validate_json(serde_json::to_vec(&doc).unwrap());
    let found: Vec<_> = v
        .report
        .errors()
        .map(|e| (e.pointer.as_str(), e.rule.as_str()))
        .collect();
    assert_eq!(found, [("/meta", "type"), ("/messages/0", "type")]);
    assert!(
        serde_json::from_str::<mplp_dialog::DialogTreeNode>(
            r#"["36398c50-7383-4f61-b96f-4525123599da"]"#
        )
        .is_err()
    );
}
