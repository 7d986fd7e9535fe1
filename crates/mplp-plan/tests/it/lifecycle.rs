//! The lifecycle tables and triggers.

use crate::{pr, violations};
use mplp_core::{ContextId, Document, Error, StepId};
use mplp_plan::{ConfirmDecision, Plan, PlanStatus, StepStatus};

/// The seed's plan table, written out literally.
const PLAN_TABLE: &[(&str, &str)] = &[
    ("draft", "proposed"),
    ("draft", "cancelled"),
    ("proposed", "approved"),
    ("proposed", "draft"),
    ("approved", "in_progress"),
    ("in_progress", "completed"),
    ("in_progress", "failed"),
    ("in_progress", "cancelled"),
];

/// The seed's step table, written out literally.
const STEP_TABLE: &[(&str, &str)] = &[
    ("pending", "in_progress"),
    ("pending", "blocked"),
    ("pending", "skipped"),
    ("in_progress", "completed"),
    ("in_progress", "failed"),
    ("blocked", "pending"),
];

#[test]
fn plan_table_all_pairs() {
    let mut count = 0;
    for &from in PlanStatus::ALL {
        for &to in PlanStatus::ALL {
            let expected = PLAN_TABLE.contains(&(from.as_str(), to.as_str()));
            assert_eq!(from.can_transition_to(to), expected, "{from} -> {to}");
            assert_eq!(from.transition(to).is_ok(), expected);
            count += 1;
        }
    }
    assert_eq!(count, 49);
    let terminal: Vec<_> = PlanStatus::ALL.iter().filter(|s| s.is_terminal()).collect();
    assert_eq!(
        terminal,
        [
            &PlanStatus::Completed,
            &PlanStatus::Cancelled,
            &PlanStatus::Failed
        ]
    );
}

#[test]
fn step_table_all_pairs() {
    let mut count = 0;
    for &from in StepStatus::ALL {
        for &to in StepStatus::ALL {
            let expected = STEP_TABLE.contains(&(from.as_str(), to.as_str()));
            assert_eq!(from.can_transition_to(to), expected, "{from} -> {to}");
            assert_eq!(from.transition(to, "/steps/0/status").is_ok(), expected);
            count += 1;
        }
    }
    assert_eq!(count, 36);
    let terminal: Vec<_> = StepStatus::ALL.iter().filter(|s| s.is_terminal()).collect();
    assert_eq!(
        terminal,
        [
            &StepStatus::Completed,
            &StepStatus::Skipped,
            &StepStatus::Failed
        ]
    );
}

#[test]
fn refused_transitions_name_from_to_and_why() {
    let e = PlanStatus::Completed
        .transition(PlanStatus::Draft)
        .unwrap_err();
    assert_eq!(
        (e.from, e.to, e.entity, e.pointer.as_str()),
        ("completed", "draft", "plan", "/status")
    );
    assert_eq!(e.reason, "`completed` is a final status");
    let e = PlanStatus::Approved
        .transition(PlanStatus::Cancelled)
        .unwrap_err();
    assert_eq!(
        e.reason,
        "from `approved` the lifecycle only allows `in_progress`"
    );
    let e = StepStatus::Blocked
        .transition(StepStatus::InProgress, "/steps/2/status")
        .unwrap_err();
    assert_eq!(e.pointer, "/steps/2/status");
    assert_eq!(e.to_violation().rule.as_str(), "lifecycle-transition");
}

fn two_steps() -> (Plan, StepId, StepId) {
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let a = b.step("a");
    let c = b.step_after("c", &[a]);
    (b.build().unwrap(), a, c)
}

#[test]
fn confirm_decisions_drive_proposed() {
    let (mut plan, _, _) = two_steps();
    plan.propose().unwrap();
    let err = plan
        .approve(&ConfirmDecision::rejected("lead"))
        .unwrap_err();
    assert!(matches!(err, Error::Transition(ref t) if t.to == "approved"));
    plan.reject(&ConfirmDecision::rejected("bob").with_reason("too vague"))
        .unwrap();
    assert_eq!(plan.status(), PlanStatus::Draft);
    plan.propose().unwrap();
    assert!(plan.reject(&ConfirmDecision::approved("lead")).is_err());
    plan.confirm(&ConfirmDecision::approved("lead")).unwrap();
    assert_eq!(plan.status(), PlanStatus::Approved);
    let events = plan.events.as_ref().unwrap();
    assert_eq!(events.len(), 4);
    let data = events[1].data.clone().unwrap().unwrap();
    assert_eq!(data["from"], "proposed");
    assert_eq!(data["to"], "draft");
    assert_eq!(data["confirm"]["decided_by_role"], "bob");
    assert_eq!(data["confirm"]["approved"], false);
}

#[test]
fn step_triggers_check_the_plan_and_the_dependencies() {
    let (mut plan, a, c) = two_steps();
    // Not while the plan is a draft.
    let err = plan.step_mut(a).unwrap().start().unwrap_err();
    assert!(err.to_string().contains("the plan is `draft`"), "{err}");
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    // Approved plans cannot be cancelled (not in the seed's table).
    assert!(plan.cancel().is_err());
    plan.start().unwrap();
    assert_eq!(plan.ready_steps(), [a]);
    let err = plan.step_mut(c).unwrap().start().unwrap_err();
    assert!(err.to_string().contains(&a.to_string()), "{err}");
    assert!(plan.step_mut(a).unwrap().complete().is_err()); // pending -> completed
    plan.step_mut(a).unwrap().start().unwrap();
    assert!(plan.step_mut(a).unwrap().skip().is_err()); // in_progress -> skipped
    plan.step_mut(a).unwrap().complete().unwrap();
    assert_eq!(plan.ready_steps(), [c]);
    assert!(plan.step_mut(StepId::new()).is_err());
    plan.step_mut(c).unwrap().start().unwrap();
    plan.step_mut(c).unwrap().complete().unwrap();
    assert_eq!(plan.status(), PlanStatus::Completed);
    assert!(plan.ready_steps().is_empty());
    // The document carries its history and is still valid.
    let types: Vec<_> = plan
        .events
        .iter()
        .flatten()
        .map(|e| e.event_type.as_str())
        .collect();
    assert_eq!(
        types,
        [
            "plan.status.changed",
            "plan.status.changed",
            "plan.status.changed",
            "plan.step.started",
            "plan.step.completed",
            "plan.step.started",
            "plan.step.completed",
            "plan.status.changed",
        ]
    );
    let back = Plan::from_json(plan.to_json()).unwrap();
    assert_eq!(back, plan);
    assert!(back.check().is_empty());
}

#[test]
fn events_carry_the_trace_id() {
    let trace = mplp_core::TraceBase::root();
    let mut b = Plan::builder(ContextId::new(), "t", "o").trace(trace.clone());
    b.step("a");
    let mut plan = b.build().unwrap();
    plan.propose().unwrap();
    assert_eq!(plan.events.unwrap()[0].trace_id, Some(trace.trace_id));
}

#[test]
fn skipping_everything_before_start_completes_at_start() {
    let (mut plan, a, c) = two_steps();
    plan.step_mut(a).unwrap().skip().unwrap();
    plan.step_mut(c).unwrap().skip().unwrap();
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    plan.start().unwrap();
    assert_eq!(plan.status(), PlanStatus::Completed);
    assert!(plan.check().is_empty());
}

#[test]
fn builder_refuses_what_it_cannot_represent() {
    let mut b = Plan::builder(ContextId::new(), "t", "");
    b.step("");
    let unknown = StepId::new();
    b.step_after("x", &[unknown]);
    let err = b.build().unwrap_err();
    assert_eq!(
        violations(&err),
        [
            pr("/objective", "min-length"),
            pr("/steps/0/description", "min-length")
        ]
    );
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    b.step_after("x", &[unknown]);
    let err = b.build().unwrap_err();
    assert_eq!(err.rule().unwrap().as_str(), "sa_plan_dependency_exists");
    // Explicit ids can make a cycle; build refuses it.
    let (x, y) = (StepId::new(), StepId::new());
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    b.add(mplp_plan::StepSpec::new("x").id(x).after(y));
    b.add(mplp_plan::StepSpec::new("y").id(y).after(x));
    assert_eq!(
        b.build().unwrap_err().rule().unwrap().as_str(),
        "sa_plan_dag_acyclic"
    );
}

/// The lifecycle index (`#[wire(skip)]`) is not a member: not in `FIELDS`,
/// not written, refused when read, and neutral for equality and `Debug`.
#[test]
fn the_lifecycle_index_is_not_a_member() {
    use mplp_core::Wire;
    assert!(!Plan::FIELDS.contains(&"index"));
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let a = b.step("a");
    b.step_after("b", &[a]);
    let mut plan = b.build().unwrap();
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    plan.start().unwrap();
    plan.step_mut(a).unwrap().start().unwrap();
    // `plan` has its index built; the copy read back has none yet.
    let back = Plan::from_value(&plan.to_value()).unwrap();
    assert_eq!(back, plan);
    assert_eq!(format!("{back:?}"), format!("{plan:?}"));
    assert!(format!("{plan:?}").contains(", index: .. }"), "{plan:?}");
    assert!(plan.to_value().get("index").is_none());
    let mut doc = plan.to_value();
    doc["index"] = serde_json::json!({});
    assert!(Plan::from_value(&doc).is_err());
    assert!(<Plan as Wire>::deserialize_unchecked(&doc).is_err());
    assert_eq!(crate::errors(&doc), [pr("/index", "additional-properties")]);
}

/// Removing the last unfinished step of a running plan completes the plan,
/// as completing that step would have; an edit that leaves work to do, or a
/// plan that is not running, keeps its status.
#[test]
fn an_edit_that_leaves_every_step_done_completes_a_running_plan() {
    let mut b = Plan::builder(ContextId::new(), "Ship", "Shipped");
    let a = b.step("Build");
    let c = b.step_after("Test", &[a]);
    let d = b.step("Docs");
    let mut plan = b.build().unwrap();
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    plan.start().unwrap();
    plan.step_mut(a).unwrap().start().unwrap();
    plan.step_mut(a).unwrap().complete().unwrap();
    plan.step_mut(d).unwrap().skip().unwrap();

    // Removing `d` (skipped) leaves `c` pending: still running.
    plan.edit_steps(|s| s.retain(|s| s.step_id != d)).unwrap();
    assert_eq!(plan.status(), PlanStatus::InProgress);
    let before = plan.events.as_ref().map_or(0, Vec::len);

    plan.edit_steps(|s| s.retain(|s| s.step_id != c)).unwrap();
    assert_eq!(plan.status(), PlanStatus::Completed);
    let events = plan.events.as_deref().unwrap_or_default();
    assert_eq!(events.len(), before + 1);
    let last = events.last().unwrap();
    assert_eq!(last.event_type.as_str(), "plan.status.changed");
    let data = last.data.clone().flatten().unwrap();
    assert_eq!(data["from"], "in_progress");
    assert_eq!(data["to"], "completed");
    assert!(plan.check().is_empty(), "{:?}", plan.check());
}

#[test]
fn an_edit_of_a_plan_that_is_not_running_keeps_its_status() {
    let mut b = Plan::builder(ContextId::new(), "Ship", "Shipped");
    let a = b.step("Build");
    let mut plan = b.build().unwrap();
    plan.edit_steps(|s| s[0].description = "Build it".parse().unwrap())
        .unwrap();
    assert_eq!(plan.status(), PlanStatus::Draft);
    assert!(plan.step(a).is_some());
    assert!(plan.events.as_deref().unwrap_or_default().is_empty());
}

/// Proposes, approves and starts `plan`, then starts step `x` and fails it
/// (not critical: the plan keeps running).
fn run_and_fail(plan: &mut Plan, x: StepId) {
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    plan.start().unwrap();
    plan.step_mut(x).unwrap().start().unwrap();
    plan.step_mut(x)
        .unwrap()
        .fail_with(&mplp_plan::CriticalSteps::None)
        .unwrap();
}

/// A blocked step returns to `pending` only when no dependency is failed:
/// completing one dependency leaves it blocked while another is failed.
#[test]
fn a_blocked_step_stays_blocked_while_another_dependency_is_failed() {
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let x = b.step("x");
    let y = b.step("y");
    let z = b.step_after("z", &[x, y]);
    let mut plan = b.build().unwrap();
    run_and_fail(&mut plan, x);
    assert_eq!(plan.step(z).unwrap().status(), StepStatus::Blocked);
    plan.step_mut(y).unwrap().start().unwrap();
    plan.step_mut(y).unwrap().complete().unwrap();
    assert_eq!(plan.step(z).unwrap().status(), StepStatus::Blocked);
    assert!(plan.ready_steps().is_empty());
    let again = plan.step_mut(x).unwrap().retry().unwrap();
    plan.step_mut(again).unwrap().start().unwrap();
    plan.step_mut(again).unwrap().complete().unwrap();
    assert_eq!(plan.step(z).unwrap().status(), StepStatus::Pending);
    assert_eq!(plan.ready_steps(), [z]);
}

/// Retrying a step whose id another step repeats (a plan read unchecked)
/// renames that id in every dependency and rebuilds the lifecycle index: the
/// other step keeps the id and is still found by it, and the retried step is
/// found by its new id.
#[test]
fn retrying_a_step_whose_id_is_repeated() {
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let x = b.step("x");
    b.step("twin");
    let z = b.step_after("z", &[x]);
    let mut doc = b.build().unwrap().to_value();
    doc["steps"][1]["step_id"] = doc["steps"][0]["step_id"].clone();
    let mut plan = crate::unchecked(&doc);
    run_and_fail(&mut plan, x);
    let again = plan.step_mut(x).unwrap().retry().unwrap();
    assert_eq!(plan.steps()[0].step_id, again);
    assert_eq!(plan.steps()[2].dependency_ids(), &[again]);
    // The twin still has the old id, and is found by it.
    assert_eq!(plan.steps()[1].step_id, x);
    plan.step_mut(x).unwrap().start().unwrap();
    assert_eq!(plan.steps()[1].status(), StepStatus::InProgress);
    plan.step_mut(again).unwrap().start().unwrap();
    plan.step_mut(again).unwrap().complete().unwrap();
    assert_eq!(plan.step(z).unwrap().status(), StepStatus::Pending);
    assert_eq!(plan.ready_steps(), [z]);
}
