//! Documents that break each rule, one at a time.

use mplp_core::{ContextId, Document, StepId};
use mplp_plan::Plan;
use serde_json::json;

use crate::{errors, in_progress, pr, warnings};

// plan-in-progress.json: s0 completed, s1 completed (after s0),
// s2 in_progress (after s0), s3 pending (after s0), s4 pending (after s1, s2, s3).

#[test]
fn the_base_document_is_clean() {
    assert!(errors(&in_progress()).is_empty());
    assert!(warnings(&in_progress()).is_empty());
}

#[test]
fn duplicate_step_id_points_at_the_second_occurrence() {
    let mut doc = in_progress();
    doc["steps"][3]["step_id"] = doc["steps"][1]["step_id"].clone();
    assert!(errors(&doc).contains(&pr("/steps/3/step_id", "sa_plan_step_unique_ids")));
}

#[test]
fn unknown_dependency() {
    let mut doc = in_progress();
    doc["steps"][4]["dependencies"][1] = json!(StepId::new().to_string());
    assert_eq!(
        errors(&doc),
        [pr("/steps/4/dependencies/1", "sa_plan_dependency_exists")]
    );
}

#[test]
fn self_dependency_is_its_own_rule_and_not_a_cycle() {
    let mut doc = in_progress();
    doc["steps"][3]["dependencies"] = json!([doc["steps"][3]["step_id"]]);
    assert_eq!(
        errors(&doc),
        [pr("/steps/3/dependencies/0", "sa_plan_no_self_dependency")]
    );
}

#[test]
fn a_cycle_is_reported_once_naming_the_cycle_in_order() {
    let mut doc = in_progress();
    // s0 now depends on s4: s0 -> s1 -> s4 -> s0 (and others).
    doc["steps"][0]["dependencies"] = json!([doc["steps"][4]["step_id"]]);
    doc["status"] = json!("approved");
    for i in 0..5 {
        doc["steps"][i]["status"] = json!("pending");
    }
    let v = Plan::validate_json(serde_json::to_vec(&doc).unwrap());
    let cycles: Vec<_> = v
        .report
        .errors()
        .filter(|e| e.rule.as_str() == "sa_plan_dag_acyclic")
        .collect();
    assert_eq!(cycles.len(), 1);
    assert_eq!(cycles[0].pointer, "/steps");
    let err = serde_json::from_value::<Plan>(doc.clone()).unwrap_err();
    assert!(err.to_string().contains("sa_plan_dag_acyclic"), "{err}");
    let plan = crate::unchecked(&doc);
    let cycle = plan.find_cycle().unwrap();
    assert!(cycle.len() >= 3);
    for (k, id) in cycle.iter().enumerate() {
        let next = cycle[(k + 1) % cycle.len()];
        assert!(plan.step(next).unwrap().dependency_ids().contains(id));
        assert!(cycles[0].message.contains(&id.to_string()));
    }
    assert!(plan.topological_order().is_err());
}

#[test]
fn empty_agent_role_is_refused() {
    let mut doc = in_progress();
    doc["steps"][2]["agent_role"] = json!("");
    assert_eq!(
        errors(&doc),
        [pr("/steps/2/agent_role", "sa_steps_agent_role_if_present")]
    );
}

#[test]
fn trace_of_another_context_is_refused() {
    let mut doc = in_progress();
    doc["trace"] = json!({
        "trace_id": "02d3c187-80e5-4d75-ac34-d99d0e4ee211",
        "span_id": "648296ea-571a-49d9-a5ab-82558d7b0287",
        "context_id": ContextId::new().to_string()
    });
    assert_eq!(
        errors(&doc),
        [pr("/trace/context_id", "sa_trace_context_binding")]
    );
}

#[test]
fn context_binding() {
    let plan = Plan::from_value(&in_progress()).unwrap();
    assert!(plan.check_context(plan.context_id).is_ok());
    assert!(plan.validate_in_context(plan.context_id).is_valid());
    let report = plan.validate_in_context(ContextId::new());
    let rules: Vec<_> = report
        .errors()
        .map(|v| (v.pointer.as_str(), v.rule.as_str()))
        .collect();
    assert_eq!(rules, [("/context_id", "sa_plan_context_binding")]);
}

#[test]
fn completed_plan_with_unfinished_steps() {
    let mut doc = in_progress();
    doc["status"] = json!("completed");
    doc["steps"][2]["status"] = json!("completed");
    doc["steps"][3]["status"] = json!("skipped");
    assert_eq!(
        errors(&doc),
        [pr("/steps/4/status", "sa_plan_completed_steps_done")]
    );
    doc["steps"][4]["status"] = json!("completed");
    assert!(errors(&doc).is_empty());
    assert!(warnings(&doc).is_empty());
}

#[test]
fn steps_cannot_have_run_before_the_plan_started() {
    for status in ["draft", "proposed", "approved"] {
        let mut doc = in_progress();
        doc["status"] = json!(status);
        doc["steps"][3]["status"] = json!("skipped"); // allowed before start
        assert_eq!(
            errors(&doc),
            [
                pr("/steps/0/status", "sa_plan_step_before_start"),
                pr("/steps/1/status", "sa_plan_step_before_start"),
                pr("/steps/2/status", "sa_plan_step_before_start"),
            ],
            "{status}"
        );
    }
}

#[test]
fn a_step_runs_only_after_its_dependencies() {
    let mut doc = in_progress();
    doc["steps"][0]["status"] = json!("in_progress");
    // s1 (completed) and s2 (in_progress) depend on s0, which is not done.
    assert_eq!(
        errors(&doc),
        [
            pr("/steps/1/status", "sa_plan_step_dependencies_done"),
            pr("/steps/2/status", "sa_plan_step_dependencies_done"),
        ]
    );
    // A skipped dependency satisfies its dependents.
    doc["steps"][0]["status"] = json!("skipped");
    assert!(errors(&doc).is_empty());
}

#[test]
fn interrupted_steps_are_warnings() {
    for status in ["cancelled", "failed"] {
        let mut doc = in_progress();
        doc["status"] = json!(status);
        assert!(errors(&doc).is_empty(), "{status}");
        let w = warnings(&doc);
        assert!(
            w.contains(&pr("/steps/2/status", "sa_plan_step_runs_in_plan")),
            "{w:?}"
        );
    }
}

#[test]
fn failed_plan_without_failed_step_is_a_warning() {
    let mut doc = in_progress();
    doc["status"] = json!("failed");
    assert!(warnings(&doc).contains(&pr("/status", "sa_plan_failed_has_failed_step")));
    doc["steps"][2]["status"] = json!("failed");
    assert!(!warnings(&doc).contains(&pr("/status", "sa_plan_failed_has_failed_step")));
}

#[test]
fn running_plan_with_all_steps_done_is_a_warning() {
    let mut doc = in_progress();
    for i in 0..5 {
        doc["steps"][i]["status"] = json!("completed");
    }
    assert!(errors(&doc).is_empty());
    assert_eq!(warnings(&doc), [pr("/status", "sa_plan_all_steps_done")]);
}

#[test]
fn blocked_and_pending_must_match_failed_dependencies() {
    let mut doc = in_progress();
    doc["steps"][2]["status"] = json!("failed");
    // s4 pending, its dependency s2 failed: should be blocked.
    assert_eq!(
        warnings(&doc),
        [pr("/steps/4/status", "sa_plan_step_should_be_blocked")]
    );
    doc["steps"][4]["status"] = json!("blocked");
    assert!(warnings(&doc).is_empty());
    // s3 blocked although its only dependency completed.
    doc["steps"][3]["status"] = json!("blocked");
    assert_eq!(
        warnings(&doc),
        [pr("/steps/3/status", "sa_plan_step_blocked_without_cause")]
    );
    assert!(errors(&doc).is_empty());
}

#[test]
fn order_index_against_dependencies_is_a_warning() {
    let mut doc = in_progress();
    doc["steps"][1]["order_index"] = json!(0);
    doc["steps"][0]["order_index"] = json!(7);
    let w = warnings(&doc);
    // s1, s2 and s3 depend on s0.
    assert_eq!(
        w,
        [
            pr("/steps/1/order_index", "sa_plan_order_index_dependency"),
            pr("/steps/2/order_index", "sa_plan_order_index_dependency"),
            pr("/steps/3/order_index", "sa_plan_order_index_dependency"),
        ]
    );
    assert!(errors(&doc).is_empty());
    // Dependencies still decide the order.
    let plan = Plan::from_value(&doc).unwrap();
    let order = plan.topological_order().unwrap();
    assert_eq!(order[0], plan.steps()[0].step_id);
}

#[test]
fn repeated_dependency_is_a_warning() {
    let mut doc = in_progress();
    doc["steps"][4]["dependencies"][2] = doc["steps"][4]["dependencies"][0].clone();
    assert!(errors(&doc).is_empty());
    assert_eq!(
        warnings(&doc),
        [pr(
            "/steps/4/dependencies/2",
            "sa_plan_duplicate_dependency"
        )]
    );
}

#[test]
fn every_error_is_reported_at_once() {
    let mut doc = in_progress();
    doc["steps"][3]["step_id"] = doc["steps"][1]["step_id"].clone();
    doc["steps"][4]["dependencies"][0] = json!(StepId::new().to_string());
    doc["steps"][2]["dependencies"] = json!([doc["steps"][2]["step_id"]]);
    doc["steps"][0]["agent_role"] = json!("");
    let e = errors(&doc);
    for want in [
        pr("/steps/3/step_id", "sa_plan_step_unique_ids"),
        pr("/steps/4/dependencies/0", "sa_plan_dependency_exists"),
        pr("/steps/2/dependencies/0", "sa_plan_no_self_dependency"),
        pr("/steps/0/agent_role", "sa_steps_agent_role_if_present"),
    ] {
        assert!(e.contains(&want), "{want:?} not in {e:?}");
    }
}

#[test]
fn null_optional_members_are_type_errors() {
    for (key, at) in [("trace", "/trace"), ("events", "/events")] {
        let mut doc = in_progress();
        doc[key] = json!(null);
        assert_eq!(errors(&doc), [pr(at, "type")], "{key}");
    }
    for (key, rule) in [
        ("dependencies", "type"),
        // The schema states `sa_steps_agent_role_if_present` there.
        ("agent_role", "sa_steps_agent_role_if_present"),
        ("order_index", "type"),
    ] {
        let mut doc = in_progress();
        doc["steps"][1][key] = json!(null);
        assert_eq!(
            errors(&doc),
            [pr(&format!("/steps/1/{key}"), rule)],
            "{key}"
        );
    }
}

#[test]
fn schema_errors_are_all_reported() {
    let mut doc = in_progress();
    doc["title"] = json!("");
    doc["steps"][0]["status"] = json!("done");
    doc["steps"][1]["order_index"] = json!(-3);
    doc["steps"][2]["stepId"] = json!("x");
    doc.as_object_mut().unwrap().remove("objective");
    let e = errors(&doc);
    assert_eq!(
        e,
        [
            pr("/title", "min-length"),
            pr("/objective", "required"),
            pr("/steps/0/status", "enum"),
            pr("/steps/1/order_index", "minimum"),
            pr("/steps/2/stepId", "additional-properties"),
        ]
    );
}

#[test]
fn structs_given_as_arrays_are_refused() {
    let mut doc = in_progress();
    let step = doc["steps"][0].clone();
    doc["steps"][0] = json!([step["step_id"], step["description"], step["status"]]);
    assert_eq!(errors(&doc), [pr("/steps/0", "type")]);
    let whole = json!([doc["meta"], doc["plan_id"]]);
    assert_eq!(errors(&whole), [pr("", "type")]);
}
