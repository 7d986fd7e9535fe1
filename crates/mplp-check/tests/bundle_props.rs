//! Property tests: bundles built through the lifecycle APIs (a Context, a
//! plan approved through its Confirm, a Trace, a Dialog, each present or
//! not) get exactly the findings a model of the binding rules predicts;
//! breaking one binding adds exactly the finding of its rule.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;

use mplp_check::bundle::Bundle;
use mplp_confirm::Confirm;
use mplp_context::{Context, ContextRoot};
use mplp_core::{ContextId, PlanId, Severity};
use mplp_dialog::Dialog;
use mplp_plan::{ConfirmDecision, Plan};
use mplp_trace::Trace;
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Shape {
    with_context: bool,
    suspended: bool,
    /// 0 draft, 1 proposed, 2 approved, 3 in_progress.
    stage: u8,
    with_confirm: bool,
    with_trace: bool,
    with_dialog: bool,
    /// 0: none; 1: plan names another context; 2: trace names another plan;
    /// 3: dialog names another context; 4: confirm targets another plan.
    break_one: u8,
}

fn shape() -> impl Strategy<Value = Shape> {
    (
        any::<[bool; 5]>(),
        prop::bool::weighted(0.3),
        0u8..4,
        0u8..5,
    )
        .prop_map(|(b, suspended, stage, break_one)| Shape {
            with_context: b[0],
            suspended,
            stage,
            with_confirm: b[1],
            with_trace: b[2],
            with_dialog: b[3],
            break_one: if b[4] { break_one } else { 0 },
        })
}

type Finding = (String, String, String, Severity);

fn f(file: &str, pointer: &str, rule: &str, sev: Severity) -> Finding {
    (file.into(), pointer.into(), rule.into(), sev)
}

/// The bundle of `s`, and the findings the model predicts.
fn build(s: &Shape) -> (Bundle, BTreeSet<Finding>) {
    use Severity::{Error, Warning};
    let mut ctx =
        Context::new("Orders migration", ContextRoot::new("commerce", "staging")).unwrap();
    ctx.activate().unwrap();
    let mut b = Plan::builder(ctx.context_id, "Migrate orders", "Zero downtime");
    b.step("Export");
    let mut plan = b.build().unwrap();
    let mut confirm = Confirm::for_plan(plan.plan_id, "planner");
    if s.stage >= 1 {
        plan.propose().unwrap();
    }
    if s.stage >= 2 {
        plan.decide(&mut confirm, ConfirmDecision::approved("lead"))
            .unwrap();
    }
    if s.stage >= 3 {
        plan.start().unwrap();
    }
    if s.suspended {
        ctx.suspend().unwrap();
    }
    let mut trace = Trace::for_plan(ctx.context_id, plan.plan_id);
    let mut dialog = Dialog::new(ctx.context_id);
    let mut want = BTreeSet::new();
    match s.break_one {
        1 => plan.context_id = ContextId::new(),
        2 => trace = Trace::for_plan(ctx.context_id, PlanId::new()),
        3 => dialog = Dialog::new(ContextId::new()),
        4 => confirm = Confirm::for_plan(PlanId::new(), "planner"),
        _ => {}
    }
    // The model.
    let plan_ctx_ok = s.break_one != 1;
    if s.with_context {
        if !plan_ctx_ok {
            want.insert(f("plan", "/context_id", "sa_plan_context_binding", Error));
        } else if s.stage == 3 && s.suspended {
            want.insert(f("plan", "/status", "bundle_plan_context_active", Error));
        }
        if s.with_dialog && s.break_one == 3 {
            want.insert(f(
                "dialog",
                "/context_id",
                "bundle_dialog_context_binding",
                Error,
            ));
        }
    } else {
        want.insert(f("plan", "/context_id", "bundle_partner_outside", Warning));
        if s.with_trace {
            want.insert(f("trace", "/context_id", "bundle_partner_outside", Warning));
        }
        if s.with_dialog {
            want.insert(f(
                "dialog",
                "/context_id",
                "bundle_partner_outside",
                Warning,
            ));
        }
    }
    let confirm_for_plan = s.with_confirm && s.break_one != 4;
    if s.stage >= 2 && !confirm_for_plan {
        want.insert(f("plan", "/status", "bundle_partner_outside", Warning));
    }
    if s.with_confirm && s.break_one == 4 {
        want.insert(f("confirm", "/target_id", "bundle_confirm_target", Error));
    }
    if s.with_trace {
        if s.break_one == 2 {
            want.insert(f("trace", "/plan_id", "sa_trace_plan_binding", Error));
        } else if !plan_ctx_ok {
            // The trace's context is not its plan's.
            want.insert(f("trace", "/context_id", "sa_trace_context_binding", Error));
        }
    }
    let mut bundle = Bundle::new().with("plan", plan);
    if s.with_context {
        bundle.add("context", ctx);
    }
    if s.with_confirm {
        bundle.add("confirm", confirm);
    }
    if s.with_trace {
        bundle.add("trace", trace);
    }
    if s.with_dialog {
        bundle.add("dialog", dialog);
    }
    (bundle, want)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn findings_follow_the_model(s in shape()) {
        let (bundle, want) = build(&s);
        let report = bundle.check();
        let got: BTreeSet<Finding> = report
            .violations()
            .map(|(n, v)| (n.to_owned(), v.pointer.clone(), v.rule.as_str().to_owned(), v.severity))
            .collect();
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(report.is_valid(), want.iter().all(|w| w.3 == Severity::Warning));
        // One report per document, in the bundle's order.
        let names: Vec<&str> = report.documents.iter().map(|d| d.name.as_str()).collect();
        let entries: Vec<&str> = bundle.entries().iter().map(|e| e.name.as_str()).collect();
        prop_assert_eq!(names, entries);
    }

    #[test]
    fn the_order_of_the_documents_does_not_change_the_findings(s in shape(), seed in any::<u64>()) {
        let (bundle, _) = build(&s);
        let mut entries: Vec<_> = bundle.entries().to_vec();
        // A deterministic shuffle.
        let n = entries.len();
        for i in (1..n).rev() {
            let j = (seed.wrapping_mul(i as u64 + 7) % (i as u64 + 1)) as usize;
            entries.swap(i, j);
        }
        let shuffled: Bundle = entries.into_iter().map(|e| (e.name, e.doc)).collect();
        let a: BTreeSet<_> = bundle.check().violations().map(|(n, v)| (n.to_owned(), v.clone())).collect::<Vec<_>>().into_iter().map(|(n, v)| (n, v.pointer, v.rule.as_str().to_owned())).collect();
        let b: BTreeSet<_> = shuffled.check().violations().map(|(n, v)| (n.to_owned(), v.clone())).collect::<Vec<_>>().into_iter().map(|(n, v)| (n, v.pointer, v.rule.as_str().to_owned())).collect();
        prop_assert_eq!(a, b);
    }
}
