//! Shared test helpers: plans of every shape, checks through mplp-check.
#![allow(dead_code, unreachable_pub)]

use mplp_check::bundle::Bundle;
use mplp_check::{Options, Source, validate_source};
use mplp_context::{Context, ContextRoot};
use mplp_core::{Document, Report, StepId};
use mplp_plan::Plan;
use mplp_runtime::SaSession;
use mplp_runtime::store::Store;

/// An active Context.
pub fn context() -> Context {
    let mut c = Context::new("Test run", ContextRoot::new("tests", "ci")).unwrap();
    c.activate().unwrap();
    c
}

/// How the steps of a generated plan depend on each other.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// 0 → 1 → 2 → ...
    Chain,
    /// 0 → every other step.
    FanOut,
    /// Diamonds in a row: a → (b, c) → d → ...
    Diamonds,
    /// Each step after up to three earlier ones (by the seeds).
    Random,
}

/// A draft plan of `n` steps of `shape` in `context`; `seeds` drive `Random`.
pub fn plan(context: &Context, shape: Shape, n: usize, seeds: &[u32]) -> Plan {
    let mut b = Plan::builder(context.context_id, "Generated plan", "Exercise the runtime");
    let mut ids: Vec<StepId> = Vec::new();
    for i in 0..n {
        let deps: Vec<StepId> = match shape {
            Shape::Chain => ids.last().copied().into_iter().collect(),
            Shape::FanOut => ids.first().copied().into_iter().filter(|_| i > 0).collect(),
            Shape::Diamonds => match i % 3 {
                0 if i > 0 => vec![ids[i - 1], ids[i - 2]],
                1 | 2 if i > 0 => vec![ids[i - 1 - (i % 3 - 1)]],
                _ => Vec::new(),
            },
            Shape::Random => {
                let s = seeds.get(i).copied().unwrap_or(0) as usize;
                let mut d = Vec::new();
                if i > 0 {
                    for k in 0..(s % 4) {
                        let j = (s / 4 + k * 7) % i;
                        if !d.contains(&ids[j]) {
                            d.push(ids[j]);
                        }
                    }
                }
                d
            }
        };
        let id = if deps.is_empty() {
            b.step(format!("Step {i}"))
        } else {
            b.step_after(format!("Step {i}"), &deps)
        };
        ids.push(id);
    }
    b.build().unwrap()
}

/// Every error of the SA log through the one dispatch of mplp-check.
pub fn check_log(ndjson: &[u8]) -> Report {
    let mut report = Report::new();
    validate_source(
        Some(&mplp_check::SA_LOG),
        Source::log("events.ndjson", ndjson),
        &Options::default(),
        &mut report,
    );
    report
}

/// Every error of one document through the one dispatch.
pub fn check_doc(json: &str) -> Report {
    let mut report = Report::new();
    validate_source(
        None,
        Source::text(json.as_bytes()),
        &Options::default(),
        &mut report,
    );
    report
}

/// The session's documents, each valid alone and valid together.
pub fn check_documents<K, S: Store>(s: &SaSession<K, S>) -> Vec<String>
where
    K: mplp_events::log::EventSink<mplp_events::SaEvent>,
{
    let mut errors = Vec::new();
    let mut bundle = Bundle::new()
        .with("context.json", s.context().clone())
        .with("plan.json", s.plan().clone())
        .with("trace.json", s.trace().clone());
    if let Some(c) = s.confirm() {
        bundle.add("confirm.json", c.clone());
    }
    for (name, json) in [
        ("context", s.context().to_json()),
        ("plan", s.plan().to_json()),
        ("trace", s.trace().to_json()),
    ] {
        let r = check_doc(&json);
        if !r.is_valid() {
            errors.push(format!("{name}: {r:?}"));
        }
    }
    if let Some(c) = s.confirm() {
        let r = check_doc(&c.to_json());
        if !r.is_valid() {
            errors.push(format!("confirm: {r:?}"));
        }
    }
    let report = bundle.check();
    if !report.is_valid() {
        for (name, v) in report.violations() {
            if v.is_error() {
                errors.push(format!("bundle {name}: {v}"));
            }
        }
    }
    errors
}
