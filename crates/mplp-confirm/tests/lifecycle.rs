//! The Confirm lifecycle table, pinned literally, the decision rules, and
//! property tests over random decision sequences.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use mplp_confirm::ConfirmStatus::{self, *};
use mplp_confirm::{Confirm, ConfirmDecision, DecisionStatus};
use mplp_core::{Document, PlanId, Rule, Severity};
use proptest::prelude::*;
use serde_json::{Value, json};

#[path = "../../../tests/support/named_transitions.rs"]
#[allow(dead_code)] // only `reachable` is used here
mod named_transitions;
use named_transitions::reachable;

/// (from, to) pairs the table allows, written out so any change shows in review.
const EDGES: [(ConfirmStatus, ConfirmStatus); 5] = [
    (Pending, Approved),
    (Pending, Rejected),
    (Pending, Cancelled),
    (Rejected, Approved),
    (Rejected, Cancelled),
];

fn confirm() -> Confirm {
    Confirm::for_plan(PlanId::new(), "agent")
}

#[test]
fn table_over_all_pairs() {
    for from in ConfirmStatus::ALL {
        for to in ConfirmStatus::ALL {
            assert_eq!(
                from.can_transition_to(*to),
                EDGES.contains(&(*from, *to)),
                "{from} -> {to}"
            );
        }
    }
    let finals: Vec<_> = ConfirmStatus::ALL.iter().filter(|s| s.is_final()).collect();
    assert_eq!(finals, [&Approved, &Cancelled]);
}

#[test]
fn every_edge_is_reachable_from_a_new_request() {
    let (edges, statuses) = reachable(Pending, DecisionStatus::ALL, |s, d| s.decide(d).ok());
    assert_eq!(edges, EDGES.into_iter().collect());
    assert_eq!(statuses.len(), ConfirmStatus::ALL.len());
}

/// FLOW-05: a rejection answered by a later approval.
#[test]
fn a_rejection_can_be_followed_by_an_approval_but_nothing_follows_approval() {
    let mut c = confirm();
    c.reject("dba", "no rollback").unwrap();
    assert_eq!(c.status(), Rejected);
    c.approve("dba").unwrap();
    assert_eq!(c.status(), Approved);
    let err = c.reject("dba", "changed my mind").unwrap_err();
    assert_eq!(err.rule(), Some(Rule::LIFECYCLE_TRANSITION));
    assert_eq!(err.pointer(), Some("/status"));
    assert_eq!(c.decisions().len(), 2, "a refused decision is not recorded");
    let statuses: Vec<_> = c.decisions().iter().map(|d| d.status).collect();
    assert_eq!(
        statuses,
        [DecisionStatus::Rejected, DecisionStatus::Approved]
    );
}

#[test]
fn a_reused_decision_id_is_refused_and_changes_nothing() {
    let mut c = confirm();
    let first = ConfirmDecision::new(DecisionStatus::Rejected, "dba");
    let mut again = ConfirmDecision::new(DecisionStatus::Approved, "dba");
    again.decision_id = first.decision_id;
    c.decide(first).unwrap();
    let before = c.clone();
    let err = c.decide(again).unwrap_err();
    assert_eq!(
        err.rule().map(|r| r.as_str()),
        Some("confirm_unique_decision_ids")
    );
    // The rule is in the crate's catalogue (`mplp rules`).
    assert!(mplp_confirm::rules().any(|r| Some(r.rule) == err.rule()));
    assert_eq!(err.pointer(), Some("/decisions/0/decision_id"));
    assert_eq!(c, before);
}

fn rules_of(v: &Value) -> Vec<(String, String, Severity)> {
    Confirm::validate_value(v)
        .report
        .violations()
        .iter()
        .map(|x| (x.pointer.clone(), x.rule.as_str().to_owned(), x.severity))
        .collect()
}

fn doc(status: &str, decisions: &[&str]) -> Value {
    let ds: Vec<Value> = decisions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({"decision_id": format!("2b4d6f8a-1c3e-4f5a-9b7d-3e5f7a9c1b{i:02}"), "status": s,
                   "decided_by_role": "r", "decided_at": "2026-01-01T00:00:00Z"})
        })
        .collect();
    json!({"meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
           "confirm_id": "6a1f3e5d-7c9b-4b2a-8e4d-1f3a5c7e9b0d", "target_type": "plan",
           "target_id": "3f1c2a9e-7b4d-4e2a-9c1f-5a6b7c8d9e01", "status": status,
           "requested_by_role": "a", "requested_at": "2026-01-01T00:00:00Z", "decisions": ds})
}

/// Spec note "Decisions and status agree": errors and warnings.
#[test]
fn decisions_and_status_agree() {
    assert!(rules_of(&doc("approved", &["rejected", "approved"])).is_empty());
    assert!(rules_of(&doc("pending", &[])).is_empty());
    let status = "confirm_status_matches_decisions".to_owned();
    // FLOW-05's input: pending with a decision is a warning only.
    assert_eq!(
        rules_of(&doc("pending", &["approved"])),
        [("/status".to_owned(), status.clone(), Severity::Warning)]
    );
    assert_eq!(
        rules_of(&doc("approved", &[])),
        [("/status".to_owned(), status.clone(), Severity::Warning)]
    );
    assert_eq!(
        rules_of(&doc("cancelled", &["rejected"])),
        [("/status".to_owned(), status, Severity::Error)]
    );
    assert_eq!(
        rules_of(&doc("approved", &["approved", "approved"])),
        [(
            "/decisions/1/status".to_owned(),
            "confirm_decision_sequence".to_owned(),
            Severity::Error
        )]
    );
}

/// The `confirm_unique_decision_ids` findings: (pointer, message).
fn repeats(v: &Value) -> Vec<(String, String)> {
    Confirm::validate_value(v)
        .report
        .violations()
        .iter()
        .filter(|x| x.rule.as_str() == "confirm_unique_decision_ids")
        .map(|x| (x.pointer.clone(), x.message.clone()))
        .collect()
}

/// Spec note "Decisions and status agree", unique ids: a repeated
/// `decision_id` is reported at the repeat, naming the first decision with
/// that id, in short lists and long ones (compared one by one up to 32,
/// hashed beyond), the same on the value path (a document that fails its
/// schema elsewhere) as on the typed one; there, an id that is not what the
/// schema asks for (a lowercase UUID v4) is not read, so two equal ones are
/// not a repeat (the schema error is the finding).
#[test]
fn repeated_decision_ids_are_reported_at_the_repeat_in_short_and_long_lists() {
    for n in [3usize, 31, 32, 33, 40] {
        let mut v = doc("approved", &vec!["rejected"; n]);
        let id = |v: &Value, i: usize| {
            v["decisions"][i]["decision_id"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        let first = id(&v, 0);
        // The last decision repeats the first; the middle one repeats the
        // second.
        v["decisions"][n - 1]["decision_id"] = first.clone().into();
        let second = id(&v, 1);
        let mid = n / 2 + 1;
        v["decisions"][mid]["decision_id"] = second.clone().into();
        let mut expected = vec![(
            format!("/decisions/{mid}/decision_id"),
            format!(
                "decision_id {second} is already used by decision 1; decision ids must be unique"
            ),
        )];
        if mid != n - 1 {
            expected.push((
                format!("/decisions/{}/decision_id", n - 1),
                format!(
                    "decision_id {first} is already used by decision 0; decision ids must be unique"
                ),
            ));
        }
        assert_eq!(repeats(&v), expected, "{n} decisions, typed");
        // The value path: the document fails its schema elsewhere.
        v["requested_by_role"] = json!(5);
        assert!(
            Confirm::validate_value(&v)
                .report
                .violations()
                .iter()
                .any(|x| x.pointer == "/requested_by_role")
        );
        assert_eq!(repeats(&v), expected, "{n} decisions, value path");
        // Ids that are not UUIDs are not read, so not compared.
        for i in [0, n - 1] {
            v["decisions"][i]["decision_id"] = json!(first.to_uppercase());
        }
        expected.retain(|(p, _)| *p != format!("/decisions/{}/decision_id", n - 1));
        assert_eq!(repeats(&v), expected, "{n} decisions, unreadable ids");
    }
}

fn decision() -> impl Strategy<Value = DecisionStatus> {
    prop::sample::select(DecisionStatus::ALL.to_vec())
}

proptest! {
    /// Random decision sequences never leave the table: an accepted one
    /// moves to its target and is recorded, a refused one changes nothing,
    /// and the document stays valid (no errors) and round-trips.
    #[test]
    fn random_decisions_follow_the_table(ds in prop::collection::vec(decision(), 0..12)) {
        let mut c = confirm();
        for d in ds {
            let before = c.clone();
            let (from, to) = d.rule();
            match c.decide(ConfirmDecision::new(d, "r")) {
                Ok(()) => {
                    prop_assert!(from.contains(&before.status()));
                    prop_assert_eq!(c.status(), to);
                    prop_assert_eq!(c.decisions().len(), before.decisions().len() + 1);
                }
                Err(e) => {
                    prop_assert!(!from.contains(&before.status()));
                    prop_assert_eq!(e.rule(), Some(Rule::LIFECYCLE_TRANSITION));
                    prop_assert_eq!(&c, &before);
                }
            }
            let v = Confirm::validate_json(c.to_json());
            prop_assert!(v.report.is_empty(), "{:?}", v.report);
            prop_assert_eq!(v.value.unwrap(), c.clone());
        }
    }

    /// Any decision list: the validator accepts it (without error) exactly
    /// when replaying it through the table succeeds and the status is the
    /// replayed one.
    #[test]
    fn validation_agrees_with_replay(
        ds in prop::collection::vec(decision(), 0..5),
        status in prop::sample::select(ConfirmStatus::ALL.to_vec()),
    ) {
        let names: Vec<&str> = ds.iter().map(|d| d.as_str()).collect();
        let v = doc(status.as_str(), &names);
        let replay = ds.iter().try_fold(Pending, |s, d| s.decide(*d));
        let expect_ok = match replay {
            Ok(end) => ds.is_empty() || status == Pending || status == end,
            Err(_) => false,
        };
        let report = Confirm::validate_value(&v).report;
        prop_assert_eq!(report.is_valid(), expect_ok, "{:?}", report);
    }
}

/// Each named decision (`approve`, `reject`, `cancel`) takes its status from
/// every status the table reaches: the same verdict and status as
/// [`Confirm::decide`], and on acceptance the last decision is the new one
/// (its role, its reason, whether it approves).
#[test]
fn the_named_decisions_take_their_status() {
    type Named = fn(&mut Confirm) -> Result<(), mplp_core::Error>;
    let named: [(Named, DecisionStatus, Option<&str>); 3] = [
        (|c| c.approve("lead"), DecisionStatus::Approved, None),
        (
            |c| c.reject("lead", "why"),
            DecisionStatus::Rejected,
            Some("why"),
        ),
        (|c| c.cancel("lead"), DecisionStatus::Cancelled, None),
    ];
    // A Confirm in each status: pending, then after each named decision.
    let mut starts = vec![confirm()];
    for (method, _, _) in named {
        let mut c = confirm();
        method(&mut c).unwrap();
        starts.push(c);
    }
    let statuses: Vec<_> = starts.iter().map(Confirm::status).collect();
    assert_eq!(statuses, [Pending, Approved, Rejected, Cancelled]);
    for start in &starts {
        assert_eq!(start.last_decision(), start.decisions().last());
        for (method, d, reason) in named {
            let mut c = start.clone();
            let expected = start.status().decide(d);
            let r = method(&mut c);
            assert_eq!(r.is_ok(), expected.is_ok(), "{}: {d}", start.status());
            if r.is_err() {
                assert_eq!(&c, start, "a refusal changes nothing");
                continue;
            }
            assert_eq!(Ok(c.status()), expected);
            assert_eq!(c.decisions().len(), start.decisions().len() + 1);
            let last = c.last_decision().unwrap();
            assert_eq!(last.status, d);
            assert_eq!(last.decided_by_role, "lead");
            assert_eq!(last.reason.as_deref(), reason);
            assert_eq!(last.is_approval(), d == DecisionStatus::Approved);
        }
    }
    assert_eq!(confirm().last_decision(), None);
}

/// A Confirm names its target: `targets` is true for the target's id only,
/// and `target_ref` points at it in its module (none for `other`).
#[test]
fn a_confirm_names_its_target() {
    use mplp_confirm::ConfirmTargetType;
    use mplp_core::{ContextId, ModuleName, MplpId, Ref, TraceId};
    let plan = PlanId::new();
    let c = Confirm::for_plan(plan, "agent");
    assert!(c.targets(plan));
    assert!(!c.targets(PlanId::new()));
    assert_eq!(
        c.target_ref(),
        Some(Ref::new(plan.into(), ModuleName::Plan))
    );
    let context = ContextId::new();
    let c = Confirm::for_context(context, "agent");
    assert!(c.targets(context));
    assert_eq!(
        c.target_ref(),
        Some(Ref::new(context.into(), ModuleName::Context))
    );
    let trace = TraceId::new();
    assert_eq!(
        Confirm::for_trace(trace, "agent").target_ref(),
        Some(Ref::new(trace.into(), ModuleName::Trace))
    );
    let other = MplpId::new();
    let c = Confirm::request(ConfirmTargetType::Other, other, "agent");
    assert!(c.targets(other));
    assert_eq!(c.target_ref(), None);
    let modules: Vec<_> = ConfirmTargetType::ALL
        .iter()
        .map(|t| (*t, t.module()))
        .collect();
    assert_eq!(
        modules,
        [
            (ConfirmTargetType::Context, Some(ModuleName::Context)),
            (ConfirmTargetType::Plan, Some(ModuleName::Plan)),
            (ConfirmTargetType::Trace, Some(ModuleName::Trace)),
            (ConfirmTargetType::Extension, Some(ModuleName::Extension)),
            (ConfirmTargetType::Other, None),
        ]
    );
}
