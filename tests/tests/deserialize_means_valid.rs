//! One declaration per wire object, and a typed value that is always valid:
//! every public way to read a document runs its rules, and nothing but a
//! JSON object is read as an MPLP object.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use mplp_collab::Collab;
use mplp_core::{BaseEvent, Document, Governance, Meta, Ref, TraceBase, Wire};
use mplp_dialog::Dialog;
use mplp_events::{CoreEvent, MapEvent, SaEvent};
use mplp_plan::Plan;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

fn example(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../schemas/examples/valid")
        .join(name);
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A valid plan whose first step now depends on its last one: a cycle.
fn cyclic_plan() -> Value {
    let mut doc = example("plan-with-trace-events.json");
    let steps = doc["steps"].as_array().unwrap();
    let last = steps[steps.len() - 1]["step_id"].clone();
    doc["steps"][0]["dependencies"] = json!([last]);
    doc
}

#[test]
fn serde_alone_refuses_a_cyclic_plan_naming_the_rule() {
    let text = cyclic_plan().to_string();
    let err = serde_json::from_str::<Plan>(&text).unwrap_err().to_string();
    assert!(
        err.starts_with("rule `sa_plan_dag_acyclic` is violated at /steps"),
        "{err}"
    );
    // The same through a `Value` and through the document API, which
    // reports every violation with its rule.
    assert!(serde_json::from_value::<Plan>(cyclic_plan()).is_err());
    let report = Plan::validate_json(&text).report;
    let rules: Vec<&str> = report.errors().map(|v| v.rule.as_str()).collect();
    assert!(rules.contains(&"sa_plan_dag_acyclic"), "{rules:?}");
}

#[test]
fn a_plan_embedded_in_a_user_struct_is_checked_too() {
    #[derive(Debug, serde::Deserialize)]
    struct Job {
        #[allow(dead_code)]
        name: String,
        #[allow(dead_code)]
        plan: Plan,
    }
    let good = json!({"name": "nightly", "plan": example("plan-with-trace-events.json")});
    assert!(serde_json::from_value::<Job>(good).is_ok());
    let bad = json!({"name": "nightly", "plan": cyclic_plan()});
    let err = serde_json::from_value::<Job>(bad).unwrap_err().to_string();
    assert!(err.contains("sa_plan_dag_acyclic"), "{err}");
}

#[test]
fn dialogs_and_collabs_run_their_rules_on_deserialize() {
    // An active dialog that has ended breaks a timing rule.
    let mut dialog = example("dialog-multi-turn.json");
    dialog["ended_at"] = json!("2030-01-01T00:00:00Z");
    let err = serde_json::from_value::<Dialog>(dialog.clone())
        .unwrap_err()
        .to_string();
    assert!(err.contains("dialog_open_with_ended_at"), "{err}");
    assert!(<Dialog as Wire>::deserialize_unchecked(&dialog).is_ok());

    // Two participants with one id break `map_unique_participant_ids`.
    let mut collab = example("collab-orchestrated.json");
    let first = collab["participants"][0].clone();
    collab["participants"].as_array_mut().unwrap().push(first);
    let err = serde_json::from_value::<Collab>(collab)
        .unwrap_err()
        .to_string();
    assert!(err.contains("map_unique_participant_ids"), "{err}");
}

/// Every public way to read `T` refuses a JSON array in place of the object
/// (serde's own derive would read it as the field values in order).
fn arrays_are_refused<T: DeserializeOwned + Wire + std::fmt::Debug>(fields: Value) {
    let text = fields.to_string();
    assert!(serde_json::from_str::<T>(&text).is_err(), "{}", T::NAME);
    assert!(
        serde_json::from_value::<T>(fields.clone()).is_err(),
        "{}",
        T::NAME
    );
    assert!(T::deserialize_unchecked(&fields).is_err(), "{}", T::NAME);
}

fn documents_refuse_arrays<T: Document + std::fmt::Debug>(fields: Value) {
    arrays_are_refused::<T>(fields.clone());
    let text = fields.to_string();
    assert!(T::from_json(&text).is_err(), "{}", T::NAME);
    assert!(T::from_value(&fields).is_err(), "{}", T::NAME);
    let v = T::validate_json(&text);
    assert!(!v.is_valid());
    assert_eq!(v.report.errors().next().unwrap().rule.as_str(), "type");
}

/// The values of an object's members, in order: what serde's derive would
/// have accepted as an array.
fn as_array(object: &Value) -> Value {
    Value::Array(object.as_object().unwrap().values().cloned().collect())
}

#[test]
fn a_json_array_is_never_an_mplp_object() {
    let plan = example("plan-with-trace-events.json");
    documents_refuse_arrays::<Plan>(as_array(&plan));
    documents_refuse_arrays::<Dialog>(as_array(&example("dialog-multi-turn.json")));
    documents_refuse_arrays::<Collab>(as_array(&example("collab-orchestrated.json")));
    documents_refuse_arrays::<MapEvent>(json!([
        "550e8400-e29b-41d4-a716-446655440000",
        "MAPSessionCompleted",
        "2025-12-07T00:00:00Z"
    ]));
    documents_refuse_arrays::<SaEvent>(json!(["x"]));
    documents_refuse_arrays::<CoreEvent>(json!(["x"]));
    arrays_are_refused::<Meta>(json!(["1.0.0", "1.0.0"]));
    arrays_are_refused::<Ref>(json!(["550e8400-e29b-41d4-a716-446655440000", "plan"]));
    arrays_are_refused::<Governance>(json!([]));
    arrays_are_refused::<TraceBase>(json!([
        "550e8400-e29b-41d4-a716-446655440000",
        "550e8400-e29b-41d4-a716-446655440001"
    ]));
    arrays_are_refused::<BaseEvent>(as_array(&plan["events"][0]));
    arrays_are_refused::<mplp_plan::PlanStep>(as_array(&plan["steps"][0]));
}

#[test]
fn member_errors_carry_their_rule_where_they_are_raised() {
    // Duplicate, missing and unknown members: rule ids from the derive,
    // through the document API's thorough pass.
    let mut plan = example("plan-with-trace-events.json");
    let text = plan.to_string();
    let dup = text.replacen("\"title\":", "\"title\": \"x\", \"title\":", 1);
    let rules: Vec<String> = Plan::validate_json(&dup)
        .report
        .errors()
        .map(|v| v.rule.as_str().to_owned())
        .collect();
    assert_eq!(rules, ["duplicate-key"]);

    plan.as_object_mut().unwrap().remove("objective");
    plan["planId"] = json!("x");
    let err = serde_json::from_value::<Plan>(plan.clone())
        .unwrap_err()
        .to_string();
    assert!(err.contains("objective") || err.contains("planId"), "{err}");
    let found: Vec<(String, String)> = Plan::validate_value(&plan)
        .report
        .errors()
        .map(|v| (v.pointer.clone(), v.rule.as_str().to_owned()))
        .collect();
    assert_eq!(
        found,
        [
            ("/objective".to_owned(), "required".to_owned()),
            ("/planId".to_owned(), "additional-properties".to_owned())
        ]
    );
}

#[test]
fn the_field_lists_come_from_the_declaration() {
    assert_eq!(
        Plan::FIELDS,
        [
            "meta",
            "plan_id",
            "context_id",
            "title",
            "objective",
            "status",
            "steps",
            "trace",
            "events"
        ]
    );
    assert_eq!(
        Plan::REQUIRED,
        [
            "meta",
            "plan_id",
            "context_id",
            "title",
            "objective",
            "status",
            "steps"
        ]
    );
    assert_eq!(
        Governance::FIELDS,
        ["lifecyclePhase", "truthDomain", "locked", "lastConfirmRef"]
    );
    // The written member order is the declaration's.
    let plan: Plan = serde_json::from_value(example("plan-with-trace-events.json")).unwrap();
    let text = plan.to_json();
    let positions: Vec<usize> = Plan::FIELDS
        .iter()
        .filter_map(|k| text.find(&format!("\"{k}\":")))
        .collect();
    assert!(positions.len() >= Plan::REQUIRED.len());
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
}
