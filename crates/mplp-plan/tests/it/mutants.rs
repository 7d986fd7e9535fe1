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
            "sa_steps_have_valid_ids",
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

/// `CriticalSteps` against its meaning, for a step inside and outside the set.
#[test]
fn a_critical_step_policy_picks_the_steps_it_names() {
    use mplp_plan::{CriticalSteps, PlanStep};
    use std::collections::BTreeSet;
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let (a, z) = (b.step("a"), b.step("z"));
    let plan = b.build().unwrap();
    let step = |id| plan.step(id).unwrap();
    let named: BTreeSet<StepId> = [a].into();
    fn long(s: &PlanStep) -> bool {
        s.description.as_str() == "a"
    }
    for (policy, on_a, on_z) in [
        (CriticalSteps::All, true, true),
        (CriticalSteps::None, false, false),
        (CriticalSteps::Only(named.clone()), true, false),
        (CriticalSteps::Except(named.clone()), false, true),
        (CriticalSteps::Predicate(long), true, false),
    ] {
        assert_eq!(
            (policy.is_critical(step(a)), policy.is_critical(step(z))),
            (on_a, on_z),
            "{policy:?}"
        );
    }
}

/// A builder's errors, all of them and only them: no step at all is one
/// `/steps` error; steps whose descriptions are all empty are one error per
/// description (the steps were there).
#[test]
fn a_builder_reports_missing_steps_once_and_empty_descriptions_each() {
    let found = |b: mplp_plan::PlanBuilder| -> Vec<(String, String)> {
        match b.build() {
            Err(mplp_core::Error::Invalid(v)) => v
                .iter()
                .map(|v| (v.pointer.clone(), v.rule.as_str().to_owned()))
                .collect(),
            other => panic!("{other:?}"),
        }
    };
    let none = Plan::builder(ContextId::new(), "t", "o");
    assert_eq!(found(none), [("/steps".into(), "sa_plan_has_steps".into())]);
    let mut blank = Plan::builder(ContextId::new(), "t", "o");
    blank.step("");
    blank.step("");
    assert_eq!(
        found(blank),
        [
            ("/steps/0/description".into(), "min-length".into()),
            ("/steps/1/description".into(), "min-length".into())
        ]
    );
}

/// A refused step transition names the step's status, and a step waiting
/// for its dependencies names only those not done.
#[test]
fn a_refused_step_names_its_status_and_the_dependencies_not_done() {
    use mplp_plan::ConfirmDecision;
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let done = b.step("done");
    let open = b.step("open");
    let last = b.step_after("last", &[done, open]);
    let mut plan = b.build().unwrap();
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    plan.start().unwrap();
    plan.step_mut(done).unwrap().start().unwrap();
    plan.step_mut(done).unwrap().complete().unwrap();
    let e = plan.step_mut(last).unwrap().start().unwrap_err();
    let v = e.violations();
    assert_eq!(v.len(), 1, "{e}");
    assert_eq!(v[0].pointer, "/steps/2/status");
    assert!(v[0].message.contains(&open.to_string()), "{e}");
    assert!(!v[0].message.contains(&done.to_string()), "{e}");
    // A transition the step table refuses names the same pointer.
    let e = plan.step_mut(done).unwrap().complete().unwrap_err();
    assert_eq!(e.violations()[0].pointer, "/steps/0/status", "{e}");
}

/// The `min-items` message of `steps` names the invariant; other problems
/// at `/steps` keep their own message.
#[test]
fn only_an_empty_step_list_names_the_has_steps_invariant() {
    let minimal = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../schemas/examples/valid/plan-minimal.json"
    );
    let minimal: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(minimal).unwrap()).unwrap();
    let doc = |steps: serde_json::Value| {
        let mut d = minimal.clone();
        d["steps"] = steps;
        d.to_string()
    };
    let errors = |steps| -> Vec<(String, String, bool)> {
        Plan::validate_json(doc(steps))
            .report
            .errors()
            .map(|v| {
                (
                    v.pointer.clone(),
                    v.rule.as_str().to_owned(),
                    v.message.contains("sa_plan_has_steps"),
                )
            })
            .collect()
    };
    assert_eq!(
        errors(json!([])),
        [("/steps".into(), "sa_plan_has_steps".into(), true)]
    );
    // Not an array: the schema's `type`, also reported under the invariant
    // the schema states there (its keyword at the end of the message), but
    // only the empty list's message explains the invariant.
    assert_eq!(
        errors(json!("x")),
        [("/steps".into(), "sa_plan_has_steps".into(), false)]
    );
}
