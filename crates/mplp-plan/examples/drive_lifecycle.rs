//! The cost per step of driving a whole plan through its lifecycle: an
//! approved plan of N steps (the `bench_report` shape: step `i` depends on
//! `i - 1` and `i / 2`) is started, then every step is started and completed
//! in plan order (a dependency order), through `Plan::step_mut`. Prints ns
//! per step at 10^3 .. 10^6 steps; a size whose estimated run (from the
//! growth seen so far) exceeds the budget is skipped and its estimate shown.
//!
//! `cargo run --release -p mplp-plan --example drive_lifecycle [-- BUDGET_SECONDS]`
//! (default budget: 60 s per size).

// A benchmark that cannot set itself up should stop at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use mplp_core::Document;
use mplp_plan::{Plan, StepStatus};

#[path = "../benches/common/mod.rs"]
mod common;

/// Drives the plan of `n` steps; the time taken, from `start` to the last
/// step completed (parsing the plan is not counted).
fn drive(n: usize) -> Duration {
    let mut plan = Plan::from_json(common::plan_json(n)).unwrap();
    let ids: Vec<_> = plan.steps().iter().map(|s| s.step_id).collect();
    let started = Instant::now();
    plan.start().unwrap();
    for id in ids {
        plan.step_mut(id).unwrap().start().unwrap();
        plan.step_mut(id).unwrap().complete().unwrap();
    }
    let took = started.elapsed();
    assert!(
        plan.steps()
            .iter()
            .all(|s| s.status() == StepStatus::Completed)
    );
    took
}

fn main() {
    let budget = Duration::from_secs(
        std::env::args()
            .nth(1)
            .map_or(60, |a| a.parse().expect("BUDGET_SECONDS is a number")),
    );
    println!("{:>9} {:>14} {:>12}", "steps", "ns/step", "total");
    let mut last: Option<(usize, Duration)> = None;
    for n in [1_000usize, 10_000, 100_000, 1_000_000] {
        if let Some((m, took)) = last {
            // Growth per step seen so far (1 = linear in total, 10 = quadratic).
            let estimate = took.as_secs_f64() * (n as f64 / m as f64).powi(2);
            if estimate > budget.as_secs_f64() {
                println!(
                    "{n:>9} {:>14} {:>12}",
                    "skipped",
                    format!("~{estimate:.0} s if quadratic")
                );
                continue;
            }
        }
        let took = drive(n);
        println!(
            "{n:>9} {:>14.0} {:>10.3} s",
            took.as_nanos() as f64 / n as f64,
            took.as_secs_f64()
        );
        last = Some((n, took));
    }
}
