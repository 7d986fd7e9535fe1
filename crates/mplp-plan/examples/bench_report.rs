//! Prints the cost of validating plans of 10 to 1,000,000 steps from JSON
//! bytes, in nanoseconds per step, and its ratio against a plain
//! `serde_json::Value` parse and against the `jsonschema` crate on the same
//! bytes (all measured in the same run).
//!
//! `cargo run --release -p mplp-plan --example bench_report`

// A benchmark that cannot set itself up should stop at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use mplp_core::Document;
use mplp_plan::Plan;
use serde_json::Value;

#[path = "../benches/common/mod.rs"]
mod common;

/// The best time per run of `f` over enough runs to fill ~`budget`.
fn time(budget: Duration, mut f: impl FnMut() -> bool) -> Duration {
    let mut best = Duration::MAX;
    let started = Instant::now();
    let mut runs = 0;
    while runs < 3 || (started.elapsed() < budget && runs < 10_000) {
        let t = Instant::now();
        assert!(f());
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

fn main() {
    let validator = common::jsonschema_validator();
    let budget = Duration::from_millis(1500);
    println!(
        "{:>9} {:>7} {:>13} {:>11} {:>11} {:>14} {:>14} {:>11} {:>13}",
        "steps",
        "MiB",
        "plan ns/step",
        "(of: parse",
        "rules)",
        "Value ns/step",
        "jsonschema",
        "Value/plan",
        "jschema/plan"
    );
    let mut per_step = Vec::new();
    for n in [10usize, 1_000, 100_000, 1_000_000] {
        let bytes = common::plan_json(n);
        let per = |d: Duration| d.as_nanos() as f64 / n as f64;
        let plan = time(budget, || Plan::validate_json(&bytes).report.is_empty());
        let value = time(budget, || serde_json::from_slice::<Value>(&bytes).is_ok());
        let parse = time(budget, || serde_json::from_slice::<Plan>(&bytes).is_ok());
        let typed: Plan = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{e}"));
        let rules = time(budget, || {
            let mut report = mplp_core::Report::new();
            typed.check_rules(&mut report);
            report.is_empty()
        });
        let schema = time(budget, || {
            let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            validator.is_valid(&v)
        });
        println!(
            "{n:>9} {:>7.1} {:>13.1} {:>11.1} {:>11.1} {:>14.1} {:>14.1} {:>10.2}x {:>12.2}x",
            bytes.len() as f64 / (1024.0 * 1024.0),
            per(plan),
            per(parse),
            per(rules),
            per(value),
            per(schema),
            per(value) / per(plan),
            per(schema) / per(plan),
        );
        per_step.push(per(plan));
    }
    println!(
        "scaling: ns/step at 1,000,000 steps / ns/step at 1,000 steps = {:.2}",
        per_step[3] / per_step[1]
    );
}
