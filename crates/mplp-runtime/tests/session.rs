//! `SaSession` on random valid plans (chains, fan-outs, diamonds, random
//! DAGs; 1 to 200 steps) with random executor outcomes (success, failure,
//! approval granted or refused), random failure policies and random plan
//! approval: the log passes the SA log validator through mplp-check, the
//! documents pass their rules and the bundle rules, the trace has exactly
//! one segment per executed attempt, and the plan's final state follows
//! the outcomes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

mod support;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use mplp_confirm::Confirm;
use mplp_core::{Document, StepId};
use mplp_events::SaEvent;
use mplp_events::sa::{SaPayload, StepOutcome};
use mplp_plan::{ConfirmDecision, Plan, PlanStatus, PlanStep, StepStatus};
use mplp_runtime::store::MemoryStore;
use mplp_runtime::{
    Approver, Backoff, FailurePolicy, OnExhausted, SaError, SaOutcome, SaSession, StepRequest,
    StepResult,
};
use proptest::prelude::*;
use support::{Shape, check_documents, check_log, context, plan};

/// Approves plans as told; approves a step when the executor's last code says so.
struct Scripted {
    plan_ok: bool,
    step_ok: Rc<Cell<bool>>,
}

impl Approver for Scripted {
    fn approve_plan(&mut self, _plan: &Plan, _confirm: &Confirm) -> ConfirmDecision {
        if self.plan_ok {
            ConfirmDecision::approved("lead").with_reason("fine")
        } else {
            ConfirmDecision::rejected("lead").with_reason("too risky")
        }
    }
    fn approve_step(&mut self, _step: &PlanStep, _reason: &str) -> ConfirmDecision {
        if self.step_ok.get() {
            ConfirmDecision::approved("lead")
        } else {
            ConfirmDecision::rejected("lead").with_reason("not this one")
        }
    }
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Chain),
        Just(Shape::FanOut),
        Just(Shape::Diamonds),
        Just(Shape::Random)
    ]
}

#[derive(Debug, Clone)]
struct Case {
    shape: Shape,
    n: usize,
    seeds: Vec<u32>,
    /// Per executor call: 0..=5 success, 6 failure, 7 approval granted, 8 refused.
    script: Vec<u8>,
    retries: u32,
    skip: bool,
    /// None: the plan is approved beforehand; Some(ok): the approver decides.
    plan_approval: Option<bool>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        shape(),
        prop_oneof![3 => 1usize..20, 1 => 20usize..=200],
        prop::collection::vec(any::<u32>(), 200),
        prop::collection::vec(
            prop_oneof![12 => 0u8..=5, 3 => Just(6u8), 1 => Just(7u8), 1 => Just(8u8)],
            1..64,
        ),
        0u32..3,
        any::<bool>(),
        prop_oneof![2 => Just(None), 2 => Just(Some(true)), 1 => Just(Some(false))],
    )
        .prop_map(
            |(shape, n, seeds, script, retries, skip, plan_approval)| Case {
                shape,
                n,
                seeds,
                script,
                retries,
                skip,
                plan_approval,
            },
        )
}

fn events_of(ndjson: &[u8]) -> Vec<SaEvent> {
    ndjson
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| SaEvent::from_json(l).unwrap())
        .collect()
}

fn extra_str<'a>(p: &'a mplp_events::sa::StepFailed, k: &str) -> &'a str {
    p.extra.get(k).and_then(|v| v.as_str()).unwrap_or("")
}

fn run_case(c: &Case) {
    let ctx = context();
    let mut p = plan(&ctx, c.shape, c.n, &c.seeds);
    let original: Vec<(StepId, Vec<StepId>)> = p
        .steps()
        .iter()
        .map(|s| (s.step_id, s.dependency_ids().to_vec()))
        .collect();
    let pos_of: HashMap<StepId, usize> = original
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i))
        .collect();
    if c.plan_approval.is_none() {
        p.propose().unwrap();
        p.approve(&ConfirmDecision::approved("lead")).unwrap();
    }
    let policy = FailurePolicy::retry(c.retries)
        .with_backoff(Backoff::NONE)
        .then(if c.skip {
            OnExhausted::SkipDependents
        } else {
            OnExhausted::FailPlan
        });
    let waits = Rc::new(Cell::new(0u32));
    let w = waits.clone();
    let mut session = SaSession::new(ctx, p, Vec::new(), MemoryStore::new())
        .unwrap()
        .with_policy(policy)
        .with_sleep(move |_| w.set(w.get() + 1));
    let step_ok = Rc::new(Cell::new(true));
    let mut approver = Scripted {
        plan_ok: c.plan_approval.unwrap_or(true),
        step_ok: step_ok.clone(),
    };
    // What the executor answered for each attempt: (position, attempt, code).
    let calls: Rc<RefCell<Vec<(usize, u32, u8)>>> = Rc::default();
    let k = Cell::new(0usize);
    let log = calls.clone();
    let script = c.script.clone();
    let mut executor = move |req: &StepRequest<'_>| {
        if req.approval.is_some() {
            return StepResult::done();
        }
        let code = script[k.get() % script.len()];
        k.set(k.get() + 1);
        log.borrow_mut().push((req.position, req.attempt, code));
        match code {
            0..=5 => {
                let mut out = mplp_core::JsonObject::new();
                out.insert("position", req.position as u64);
                StepResult::Output(out)
            }
            6 => StepResult::failure("scripted failure"),
            7 | 8 => {
                step_ok.set(code == 7);
                StepResult::NeedsApproval("about to touch production".to_owned())
            }
            _ => unreachable!(),
        }
    };
    let report = session.run(&mut executor, &mut approver).unwrap();
    let ndjson = session.store().ndjson();

    // The log passes the SA log validator through mplp-check.
    let r = check_log(&ndjson);
    assert!(r.is_valid(), "{:?}", r.violations());
    // The sink got the same events as the store.
    let events = events_of(&ndjson);
    assert_eq!(session.sink().len(), events.len());
    assert_eq!(session.sink().last(), events.last());
    // The documents pass their rules and the bundle rules.
    let errors = check_documents(&session);
    assert!(errors.is_empty(), "{errors:#?}");

    // Plan approval.
    if c.plan_approval == Some(false) {
        assert_eq!(report.outcome, SaOutcome::Rejected);
        assert_eq!(session.plan().status(), PlanStatus::Draft);
        let confirm = session.confirm().unwrap();
        assert_eq!(
            confirm.last_decision().unwrap().reason.as_deref(),
            Some("too risky")
        );
        assert_eq!(report.attempts, 0);
        return;
    }

    // The trace covers exactly the executed attempts, in order.
    let started: Vec<(String, u32)> = events
        .iter()
        .filter_map(|e| match &e.payload {
            SaPayload::StepStarted(p) => Some((
                p.step_id.to_string(),
                p.extra.get("attempt").and_then(|v| v.as_u64()).unwrap() as u32,
            )),
            _ => None,
        })
        .collect();
    let segments: Vec<String> = session
        .trace()
        .segments()
        .iter()
        .map(|s| s.label.clone())
        .collect();
    let expected: Vec<String> = started
        .iter()
        .map(|(id, a)| format!("step {id} attempt {a}"))
        .collect();
    assert_eq!(segments, expected);
    assert_eq!(calls.borrow().len(), started.len());
    assert_eq!(report.attempts, started.len() as u64);

    // Per position, what the log says happened, against the script and the policy.
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut current: Vec<StepId> = original.iter().map(|(id, _)| *id).collect();
    // Follow retries through the plan's own history (old id → new id).
    for e in session.plan().events.as_deref().unwrap_or(&[]) {
        if e.event_type.as_str() == "plan.step.retried" {
            let d = e.data.clone().flatten().unwrap();
            let old = StepId::parse(d.get("step_id").unwrap().as_str().unwrap()).unwrap();
            let new = StepId::parse(d.get("new_step_id").unwrap().as_str().unwrap()).unwrap();
            let i = current.iter().position(|x| *x == old).unwrap();
            by_id.insert(old.to_string(), i);
            current[i] = new;
        }
    }
    for (i, id) in current.iter().enumerate() {
        by_id.insert(id.to_string(), i);
    }
    let mut failures = vec![0u32; c.n];
    let mut completed_at: HashMap<usize, usize> = HashMap::new();
    let mut last: Vec<&str> = vec!["none"; c.n];
    let mut call = 0usize;
    for (line, e) in events.iter().enumerate() {
        match &e.payload {
            SaPayload::StepStarted(p) => {
                let pos = by_id[&p.step_id.to_string()];
                // Dependencies completed before the start.
                for d in &original[pos].1 {
                    let dpos = pos_of[d];
                    assert!(
                        completed_at.get(&dpos).is_some_and(|l| *l < line),
                        "step {pos} started before its dependency {dpos} completed"
                    );
                }
                let (cpos, cattempt, _) = calls.borrow()[call];
                assert_eq!((cpos, cattempt), (pos, failures[pos] + 1));
                call += 1;
            }
            SaPayload::StepCompleted(p) => {
                assert_eq!(p.status, StepOutcome::Completed);
                let pos = by_id[&p.step_id.to_string()];
                let code = calls.borrow()[call - 1].2;
                assert!(code <= 5 || code == 7, "code {code} completed");
                assert!(
                    completed_at.insert(pos, line).is_none(),
                    "step {pos} completed twice"
                );
                last[pos] = "completed";
            }
            SaPayload::StepFailed(p) => {
                let pos = by_id[&p.step_id.to_string()];
                let code = calls.borrow()[call - 1].2;
                let disposition = extra_str(p, "disposition");
                if code == 8 {
                    assert_eq!(disposition, "cancel");
                } else {
                    assert_eq!(code, 6);
                    let want = if failures[pos] < c.retries {
                        "retry"
                    } else if c.skip {
                        "skip_dependents"
                    } else {
                        "fail_plan"
                    };
                    assert_eq!(disposition, want);
                }
                failures[pos] += 1;
                last[pos] = if disposition == "retry" {
                    "retry"
                } else {
                    "final"
                };
            }
            _ => {}
        }
    }
    assert_eq!(waits.get() as u64, report.retries);

    // The plan's final state follows the outcomes.
    let steps = session.plan().steps();
    let final_failures = last.iter().filter(|l| **l == "final").count();
    for (pos, s) in steps.iter().enumerate() {
        match last[pos] {
            "completed" => assert_eq!(s.status(), StepStatus::Completed),
            "final" => assert_eq!(s.status(), StepStatus::Failed, "step {pos}"),
            "retry" => assert_eq!(s.status(), StepStatus::Pending, "step {pos}"),
            _ => assert!(
                matches!(
                    s.status(),
                    StepStatus::Pending | StepStatus::Blocked | StepStatus::Skipped
                ),
                "step {pos} never ran but is {}",
                s.status()
            ),
        }
    }
    let refused = events.iter().any(|e| {
        matches!(&e.payload, SaPayload::StepFailed(p) if extra_str(p, "disposition") == "cancel")
    });
    let want = if refused {
        (SaOutcome::Rejected, PlanStatus::Cancelled)
    } else if final_failures > 0 {
        (SaOutcome::Failed, PlanStatus::Failed)
    } else {
        (SaOutcome::Completed, PlanStatus::Completed)
    };
    assert_eq!((report.outcome, session.plan().status()), want);
    if want.0 == SaOutcome::Completed {
        assert!(steps.iter().all(|s| s.status() == StepStatus::Completed));
    }
    // Skipped steps are exactly the ones downstream of a skip_dependents failure.
    if c.skip && !refused {
        for (pos, s) in steps.iter().enumerate() {
            if s.status() == StepStatus::Skipped {
                assert_eq!(last[pos], "none");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_plans_and_outcomes(c in case()) {
        run_case(&c);
    }
}

#[test]
fn an_inactive_context_is_refused() {
    let ctx =
        mplp_context::Context::new("Draft", mplp_context::ContextRoot::new("d", "e")).unwrap();
    let p = plan(&ctx, Shape::Chain, 2, &[]);
    let err = SaSession::new(ctx, p, Vec::new(), MemoryStore::new()).unwrap_err();
    let SaError::Mplp(e) = err else {
        panic!("{err}")
    };
    assert_eq!(
        e.rule().map(|r| r.as_str()),
        Some("sa_context_must_be_active")
    );
}

#[test]
fn a_plan_of_another_context_is_refused() {
    let ctx = context();
    let other = context();
    let p = plan(&other, Shape::Chain, 2, &[]);
    let err = SaSession::new(ctx, p, Vec::new(), MemoryStore::new()).unwrap_err();
    let SaError::Mplp(e) = err else {
        panic!("{err}")
    };
    assert_eq!(
        e.rule().map(|r| r.as_str()),
        Some("sa_plan_context_binding")
    );
}

#[test]
fn a_cyclic_plan_is_refused_and_nothing_is_written() {
    let ctx = context();
    let a = StepId::new();
    let b = StepId::new();
    let json = serde_json::json!({
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "plan_id": mplp_core::PlanId::new().to_string(),
        "context_id": ctx.context_id.to_string(),
        "title": "Cycle", "objective": "Loop", "status": "draft",
        "steps": [
            {"step_id": a.to_string(), "description": "A", "status": "pending", "dependencies": [b.to_string()]},
            {"step_id": b.to_string(), "description": "B", "status": "pending", "dependencies": [a.to_string()]}
        ]
    });
    // A cyclic plan may or may not parse; either way no session runs it.
    let Ok(p) = Plan::from_value(&json) else {
        return;
    };
    let mut store = MemoryStore::new();
    let err = SaSession::new(ctx, p, Vec::new(), &mut store).unwrap_err();
    assert!(err.to_string().contains("cycle"), "{err}");
    use mplp_runtime::store::Store;
    assert_eq!(store.event_count(), 0);
    assert!(store.checkpoint("sa-session").unwrap().is_none());
}

#[test]
fn a_plan_that_already_ran_is_refused() {
    let ctx = context();
    let mut p = plan(&ctx, Shape::Chain, 1, &[]);
    p.propose().unwrap();
    p.approve(&ConfirmDecision::approved("lead")).unwrap();
    p.start().unwrap();
    let err = SaSession::new(ctx, p, Vec::new(), MemoryStore::new()).unwrap_err();
    assert!(err.to_string().contains("in_progress"), "{err}");
}
