//! Tests added for mutants that `cargo xtask mutants` found alive in
//! `rules.rs` and `graph.rs`: the rule list as a whole, and the exact text
//! of the cycle message (its separators, and the limit of 32 steps shown).

use mplp_core::{ContextId, Document, StepId};
use mplp_plan::Plan;
use serde_json::json;

use crate::unchecked;

#[test]
fn the_rule_list_has_every_document_and_lifecycle_rule_once() {
    let ids: Vec<&str> = mplp_plan::rules::rules().map(|r| r.rule.as_str()).collect();
    assert_eq!(
        ids,
        [
            "sa_plan_context_binding",
            "sa_plan_has_steps",
            "sa_plan_step_unique_ids",
            "sa_plan_dependency_exists",
            "sa_plan_no_self_dependency",
            "sa_plan_dag_acyclic",
            "sa_steps_agent_role_if_present",
            "sa_trace_context_binding",
            "sa_plan_completed_steps_done",
            "sa_plan_step_before_start",
            "sa_plan_step_dependencies_done",
            "sa_plan_step_runs_in_plan",
            "sa_plan_failed_has_failed_step",
            "sa_plan_all_steps_done",
            "sa_plan_step_should_be_blocked",
            "sa_plan_step_blocked_without_cause",
            "sa_plan_order_index_dependency",
            "sa_plan_duplicate_dependency",
            "unknown-step",
            "plan_confirm_target",
        ]
    );
}

/// A plan of `n` steps where step `i` depends on step `i - 1` and step 0 on
/// the last: one cycle through every step. Returns it with its step ids.
fn ring(n: usize) -> (Plan, Vec<StepId>) {
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let ids: Vec<StepId> = (0..n).map(|i| b.step(format!("s{i}"))).collect();
    let mut doc = b.build().unwrap().to_value();
    for i in 0..n {
        doc["steps"][i]["dependencies"] = json!([ids[(i + n - 1) % n]]);
    }
    (unchecked(&doc), ids)
}

#[test]
fn the_cycle_message_is_exact() {
    let (bad, ids) = ring(2);
    let cycle = bad.find_cycle().unwrap();
    let at = |id: StepId| ids.iter().position(|&x| x == id).unwrap();
    let (first, second) = (cycle[0], cycle[1]);
    let v = bad.dag().unwrap_err().violations().to_vec();
    assert_eq!(v.len(), 1);
    assert_eq!(
        v[0].message,
        format!(
            "the dependencies form a cycle of 2 steps: {first} (/steps/{}) -> {second} (/steps/{}) -> {first}; each step depends on the one before it, so none of them can ever start",
            at(first),
            at(second)
        )
    );
    // The document rules give the same violation.
    let report = Plan::validate_json(serde_json::to_vec(&bad.to_value()).unwrap()).report;
    let errors: Vec<_> = report.errors().map(|e| e.message.clone()).collect();
    assert_eq!(errors, [v[0].message.clone()]);
}

#[test]
fn a_cycle_of_exactly_32_steps_is_shown_whole() {
    let (bad, _) = ring(32);
    let m = bad.dag().unwrap_err().violations()[0].message.clone();
    assert!(
        m.starts_with("the dependencies form a cycle of 32 steps: "),
        "{m}"
    );
    assert_eq!(m.matches(" (/steps/").count(), 32, "{m}");
    // 31 arrows between the 32 steps shown, and one back to the first.
    assert_eq!(m.matches(" -> ").count(), 32, "{m}");
    assert!(!m.contains("..."), "{m}");
    // One more step: the 33rd is left out and counted.
    let (bad, _) = ring(33);
    let m = bad.dag().unwrap_err().violations()[0].message.clone();
    assert_eq!(m.matches(" (/steps/").count(), 32, "{m}");
    assert_eq!(m.matches(" -> ").count(), 33, "{m}");
    assert!(m.contains(" -> ... (1 more) -> "), "{m}");
}
