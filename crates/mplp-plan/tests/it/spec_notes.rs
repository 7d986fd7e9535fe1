//! One test per spec note of docs/spec-notes.md ("mplp-plan").

use mplp_core::Document;
use mplp_plan::{ConfirmDecision, CriticalSteps, Plan, PlanStatus, StepStatus};
use serde_json::json;

use crate::{errors, in_progress, pr};

#[test]
fn no_governance_on_plan() {
    let mut doc = in_progress();
    doc["governance"] = json!({"locked": false});
    assert_eq!(errors(&doc), [pr("/governance", "additional-properties")]);
}

#[test]
fn integer_one_point_zero_is_refused() {
    let mut doc = in_progress();
    doc["steps"][0]["order_index"] = json!(1.0);
    assert_eq!(errors(&doc), [pr("/steps/0/order_index", "type")]);
    doc["steps"][0]["order_index"] = json!(1);
    assert!(errors(&doc).is_empty());
}

#[test]
fn empty_steps_is_min_items_naming_the_invariant() {
    let mut doc = in_progress();
    doc["steps"] = json!([]);
    let v = Plan::validate_json(serde_json::to_vec(&doc).unwrap());
    let e: Vec<_> = v.report.errors().collect();
    assert_eq!(e.len(), 1);
    assert_eq!(
        (e[0].pointer.as_str(), e[0].rule.as_str()),
        ("/steps", "sa_plan_has_steps")
    );
    assert_eq!(e[0].schema_keyword(), Some("min-items"));
    assert!(e[0].message.contains("sa_plan_has_steps"));
}

/// Issue 39 item 6: every violation of a frozen invariant is reported
/// under its canonical id. A plan without steps is `sa_plan_has_steps`
/// (the schema's `min-items` behind it) whether it is read from JSON,
/// built without a step or edited down to none, each message saying what
/// to do; the refused edit leaves the plan as it was.
#[test]
fn a_plan_without_steps_is_sa_plan_has_steps_on_every_path() {
    let mut doc = in_progress();
    doc["steps"] = json!([]);
    let read = Plan::validate_json(serde_json::to_vec(&doc).unwrap())
        .report
        .into_violations();
    let built = Plan::builder(mplp_core::ContextId::new(), "t", "o")
        .build()
        .unwrap_err()
        .violations();
    let mut b = Plan::builder(mplp_core::ContextId::new(), "t", "o");
    b.step("the only step");
    let mut plan = b.build().unwrap();
    let before = plan.clone();
    let edited = plan.edit_steps(Vec::clear).unwrap_err().violations();
    assert_eq!(plan, before);
    for (found, cause) in [
        (read, "expected at least 1 item, found 0"),
        (
            built,
            "add steps with `PlanBuilder::step` or `step_after` before `build`",
        ),
        (edited, "the edit removed every step"),
    ] {
        assert_eq!(found.len(), 1, "{found:?}");
        let v = &found[0];
        assert_eq!(
            (
                v.pointer.as_str(),
                v.rule.as_str(),
                v.schema_keyword(),
                v.is_error()
            ),
            ("/steps", "sa_plan_has_steps", Some("min-items"), true)
        );
        assert!(v.message.contains(cause), "{}", v.message);
        assert!(
            v.message.ends_with(
                ": a plan needs at least one step \
                 (invariants sa_plan_has_steps / sa_plan_min_steps) (schema `min-items`)"
            ),
            "{}",
            v.message
        );
    }
}

fn running(steps: usize) -> (Plan, Vec<mplp_core::StepId>) {
    let mut b = Plan::builder(mplp_core::ContextId::new(), "t", "o");
    let mut ids = Vec::new();
    for i in 0..steps {
        let deps: Vec<_> = ids.last().copied().into_iter().collect();
        ids.push(b.step_after(format!("step {i}"), &deps));
    }
    let mut plan = b.build().unwrap();
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    plan.start().unwrap();
    (plan, ids)
}

#[test]
fn skipped_dependency_satisfies_dependents() {
    let (mut plan, ids) = running(2);
    plan.step_mut(ids[0]).unwrap().skip().unwrap();
    assert_eq!(plan.ready_steps(), [ids[1]]);
    plan.step_mut(ids[1]).unwrap().start().unwrap();
    plan.step_mut(ids[1]).unwrap().complete().unwrap();
    assert_eq!(plan.status(), PlanStatus::Completed);
}

#[test]
fn every_step_is_critical_by_default() {
    let (mut plan, ids) = running(2);
    plan.step_mut(ids[0]).unwrap().start().unwrap();
    plan.step_mut(ids[0]).unwrap().fail().unwrap();
    assert_eq!(plan.status(), PlanStatus::Failed);
    assert_eq!(plan.step(ids[1]).unwrap().status(), StepStatus::Blocked);
    assert!(plan.check().is_valid());
}

#[test]
fn a_failed_step_is_retried_as_a_new_attempt() {
    let (mut plan, ids) = running(2);
    plan.step_mut(ids[0]).unwrap().start().unwrap();
    plan.step_mut(ids[0])
        .unwrap()
        .fail_with(&CriticalSteps::None)
        .unwrap();
    assert_eq!(plan.status(), PlanStatus::InProgress);
    assert_eq!(plan.step(ids[1]).unwrap().status(), StepStatus::Blocked);
    let again = plan.step_mut(ids[0]).unwrap().retry().unwrap();
    assert_ne!(again, ids[0]);
    assert!(plan.step(ids[0]).is_none());
    assert_eq!(plan.steps()[0].step_id, again);
    assert_eq!(plan.steps()[1].dependency_ids(), &[again]);
    // Still blocked until the retry succeeds.
    assert_eq!(plan.step(ids[1]).unwrap().status(), StepStatus::Blocked);
    plan.step_mut(again).unwrap().start().unwrap();
    plan.step_mut(again).unwrap().complete().unwrap();
    assert_eq!(plan.step(ids[1]).unwrap().status(), StepStatus::Pending);
    plan.step_mut(ids[1]).unwrap().start().unwrap();
    plan.step_mut(ids[1]).unwrap().complete().unwrap();
    assert_eq!(plan.status(), PlanStatus::Completed);
    let types: Vec<_> = plan
        .events
        .iter()
        .flatten()
        .map(|e| e.event_type.as_str())
        .collect();
    assert!(types.contains(&"plan.step.retried"));
    assert!(types.contains(&"plan.step.unblocked"));
    // The retried plan reads back equal, retry history and all.
    let back = Plan::from_json(plan.to_json()).unwrap();
    assert_eq!(back, plan);
    assert_eq!(back.to_json(), plan.to_json());
}

#[test]
fn cancelling_leaves_running_steps_in_progress_with_a_warning() {
    let (mut plan, ids) = running(1);
    plan.step_mut(ids[0]).unwrap().start().unwrap();
    plan.cancel().unwrap();
    assert_eq!(plan.steps()[0].status(), StepStatus::InProgress);
    let report = plan.check();
    assert!(report.is_valid());
    assert_eq!(
        report.warnings().next().unwrap().rule.as_str(),
        "sa_plan_step_runs_in_plan"
    );
    // And no step can change any more.
    assert!(plan.step_mut(ids[0]).unwrap().complete().is_err());
}
