//! Plan ↔ Confirm: approving a plan driven by a Confirm decision
//! (`Plan::decide`, `Plan::apply_confirm`), against a model of both tables.

use mplp_confirm::{Confirm, ConfirmStatus, DecisionId, DecisionStatus};
use mplp_core::{ContextId, Document, Error, PlanId};
use mplp_plan::{ConfirmDecision, Plan, PlanStatus};
use proptest::prelude::*;

fn plan() -> Plan {
    let mut b = Plan::builder(ContextId::new(), "Migrate users", "Zero downtime");
    let a = b.step("Export");
    b.step_after("Import", &[a]);
    b.build().unwrap()
}

#[derive(Clone, Debug)]
enum Op {
    Propose,
    /// A decision on the plan's Confirm; `true`: reuse the last decision id.
    Decide(DecisionStatus, bool),
    /// The same, on a Confirm that targets another plan.
    DecideOther(DecisionStatus),
    /// Apply the Confirm's last decision.
    Apply,
}

fn op() -> impl Strategy<Value = Op> {
    let status = prop::sample::select(DecisionStatus::ALL.to_vec());
    prop_oneof![
        3 => Just(Op::Propose),
        6 => (status.clone(), prop::bool::weighted(0.1)).prop_map(|(s, d)| Op::Decide(s, d)),
        1 => status.prop_map(Op::DecideOther),
        1 => Just(Op::Apply),
    ]
}

/// The model: what the two tables say, side by side.
fn model_decide(
    plan: PlanStatus,
    confirm: ConfirmStatus,
    d: DecisionStatus,
) -> Option<(PlanStatus, ConfirmStatus)> {
    if plan != PlanStatus::Proposed {
        return None;
    }
    let next = confirm.decide(d).ok()?;
    let to = if d == DecisionStatus::Approved {
        PlanStatus::Approved
    } else {
        PlanStatus::Draft
    };
    Some((to, next))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn decisions_move_plan_and_confirm_together(ops in prop::collection::vec(op(), 1..24)) {
        let mut plan = plan();
        let mut confirm = Confirm::for_plan(plan.plan_id, "agent");
        let mut other = Confirm::for_plan(PlanId::new(), "agent");
        for op in ops {
            let (p0, c0, o0) = (plan.clone(), confirm.clone(), other.clone());
            match op {
                Op::Propose => {
                    let ok = plan.propose().is_ok();
                    prop_assert_eq!(ok, p0.status() == PlanStatus::Draft);
                }
                Op::Decide(d, dup) => {
                    let mut decision = ConfirmDecision::new(d, "dba");
                    let reuse = dup.then(|| confirm.last_decision().map(|l| l.decision_id)).flatten();
                    if let Some(id) = reuse {
                        decision.decision_id = id;
                    }
                    let id: DecisionId = decision.decision_id;
                    let expected = model_decide(p0.status(), c0.status(), d).filter(|_| reuse.is_none());
                    let result = plan.decide(&mut confirm, decision);
                    match expected {
                        Some((ps, cs)) => {
                            prop_assert!(result.is_ok(), "{:?}", result);
                            prop_assert_eq!((plan.status(), confirm.status()), (ps, cs));
                            prop_assert_eq!(confirm.decisions().len(), c0.decisions().len() + 1);
                            prop_assert_eq!(confirm.last_decision().map(|l| l.decision_id), Some(id));
                            // The plan's event names the Confirm and the decision.
                            let event = plan.events.as_ref().and_then(|e| e.last()).unwrap();
                            let data = event.data.clone().unwrap().unwrap();
                            prop_assert_eq!(&data["confirm"]["confirm_id"], &confirm.confirm_id.to_string());
                            prop_assert_eq!(&data["confirm"]["decision_id"], &id.to_string());
                            prop_assert_eq!(&data["confirm"]["status"], d.as_str());
                        }
                        None => {
                            prop_assert!(result.is_err());
                            prop_assert_eq!(&plan, &p0);
                            prop_assert_eq!(&confirm, &c0);
                        }
                    }
                }
                Op::DecideOther(d) => {
                    let err = plan.decide(&mut other, ConfirmDecision::new(d, "dba")).unwrap_err();
                    prop_assert_eq!(err.rule().map(|r| r.as_str()), Some("plan_confirm_target"));
                    prop_assert_eq!(&plan, &p0);
                    prop_assert_eq!(&other, &o0);
                }
                Op::Apply => {
                    let result = plan.apply_confirm(&confirm);
                    let expected = match (c0.last_decision(), p0.status()) {
                        (Some(last), PlanStatus::Proposed) => Some(if last.is_approval() { PlanStatus::Approved } else { PlanStatus::Draft }),
                        _ => None,
                    };
                    match expected {
                        Some(s) => prop_assert_eq!(plan.status(), s),
                        None => {
                            prop_assert!(result.is_err());
                            prop_assert_eq!(&plan, &p0);
                        }
                    }
                    prop_assert_eq!(&confirm, &c0);
                }
            }
            // Plan and Confirm agree: the plan is approved exactly when its Confirm is.
            prop_assert_eq!(
                plan.status() == PlanStatus::Approved,
                confirm.status() == ConfirmStatus::Approved
            );
            // Both stay valid documents that round-trip.
            prop_assert_eq!(&Plan::from_json(plan.to_json()).unwrap(), &plan);
            prop_assert_eq!(&Confirm::from_json(confirm.to_json()).unwrap(), &confirm);
        }
    }
}

#[test]
fn a_confirm_for_a_context_is_refused() {
    let mut plan = plan();
    plan.propose().unwrap();
    let mut c = Confirm::for_context(plan.context_id, "agent");
    let err = plan
        .decide(&mut c, ConfirmDecision::approved("dba"))
        .unwrap_err();
    assert_eq!(err.pointer(), Some("/target_id"));
    assert!(matches!(err, Error::State(_)));
    assert_eq!(c.status(), ConfirmStatus::Pending);
    assert_eq!(plan.status(), PlanStatus::Proposed);
}

#[test]
fn a_draft_plan_refuses_the_decision_and_the_confirm_does_not_record_it() {
    let mut plan = plan();
    let mut c = Confirm::for_plan(plan.plan_id, "agent");
    let err = plan
        .decide(&mut c, ConfirmDecision::approved("dba"))
        .unwrap_err();
    assert!(matches!(err, Error::Transition(ref t) if t.from == "draft" && t.to == "approved"));
    assert!(c.decisions().is_empty());
}

#[test]
fn a_cancelled_request_returns_the_plan_to_draft() {
    let mut plan = plan();
    plan.propose().unwrap();
    let mut c = Confirm::for_plan(plan.plan_id, "agent");
    plan.decide(&mut c, ConfirmDecision::cancelled("agent"))
        .unwrap();
    assert_eq!(
        (plan.status(), c.status()),
        (PlanStatus::Draft, ConfirmStatus::Cancelled)
    );
}
