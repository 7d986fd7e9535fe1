//! The cost per step of driving a whole plan through its lifecycle: a plan
//! of N steps is built, then timed from `propose` through `approve` and
//! `start` to the last step completed, every step started and completed
//! through `Plan::step_mut`. Three shapes:
//!
//! - `chain`: step `i` depends on step `i - 1`;
//! - `fan-out`: every step but the first depends on the first (after it
//!   completes, N - 1 steps are ready at once);
//! - `halves`: step `i` depends on `i - 1` and `i / 2` (the `bench_report`
//!   shape);
//!
//! and two ways to pick the next step:
//!
//! - `plan order`: the steps in the order of the plan (a dependency order);
//! - `scheduler`: always the first ready step (`Plan::first_ready`), as a
//!   runtime that does not know the shape would.
//!
//! Prints ns per step at 10^3 .. 10^6 steps; a size whose estimated run (if
//! the cost grew quadratically from the last size) exceeds the budget is
//! skipped and its estimate shown. Building the plan and dropping it are not
//! counted; the events every trigger appends to the plan are.
//!
//! `cargo run --release -p mplp-plan --example drive_lifecycle [-- BUDGET_SECONDS [MAX_STEPS]]`
//! (default budget: 60 s per run; default maximum: 1000000 steps).

// A benchmark that cannot set itself up should stop at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use mplp_core::{ContextId, StepId};
use mplp_plan::{ConfirmDecision, Plan, PlanStatus, StepStatus};

#[derive(Clone, Copy)]
enum Shape {
    Chain,
    FanOut,
    Halves,
}

impl Shape {
    fn name(self) -> &'static str {
        match self {
            Shape::Chain => "chain",
            Shape::FanOut => "fan-out",
            Shape::Halves => "halves",
        }
    }

    /// The dependencies of step `i`, as earlier step numbers.
    fn deps(self, i: usize) -> Vec<usize> {
        match (self, i) {
            (_, 0) => Vec::new(),
            (Shape::Chain, _) => vec![i - 1],
            (Shape::FanOut, _) => vec![0],
            (Shape::Halves, 1) => vec![0],
            (Shape::Halves, _) if i / 2 == i - 1 => vec![i - 1],
            (Shape::Halves, _) => vec![i - 1, i / 2],
        }
    }
}

fn plan(shape: Shape, n: usize) -> Plan {
    let mut b = Plan::builder(ContextId::new(), "Drive", "Every step, in dependency order");
    let mut ids: Vec<StepId> = Vec::with_capacity(n);
    for i in 0..n {
        let deps: Vec<StepId> = shape.deps(i).into_iter().map(|d| ids[d]).collect();
        ids.push(b.step_after(format!("Carry out work item number {i}"), &deps));
    }
    b.build().unwrap()
}

/// The first ready step (the scheduler's pick).
fn next_ready(plan: &Plan) -> Option<StepId> {
    plan.first_ready()
}

fn run_step(plan: &mut Plan, id: StepId) {
    plan.step_mut(id).unwrap().start().unwrap();
    plan.step_mut(id).unwrap().complete().unwrap();
}

/// Drives the plan; the time from `propose` to the last step completed.
fn drive(mut plan: Plan, scheduler: bool) -> (Duration, Plan) {
    let ids: Vec<StepId> = plan.steps().iter().map(|s| s.step_id).collect();
    let started = Instant::now();
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    plan.start().unwrap();
    if scheduler {
        while let Some(id) = next_ready(&plan) {
            run_step(&mut plan, id);
        }
    } else {
        for id in ids {
            run_step(&mut plan, id);
        }
    }
    let took = started.elapsed();
    assert_eq!(plan.status(), PlanStatus::Completed);
    assert!(
        plan.steps()
            .iter()
            .all(|s| s.status() == StepStatus::Completed)
    );
    (took, plan)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let budget = args
        .next()
        .map_or(60.0, |a| a.parse().expect("BUDGET_SECONDS is a number"));
    let max: usize = args
        .next()
        .map_or(1_000_000, |a| a.parse().expect("MAX_STEPS is a number"));
    println!(
        "{:<8} {:<11} {:>9} {:>12} {:>11} {:>8}",
        "shape", "order", "steps", "ns/step", "total", "vs 10^3"
    );
    for shape in [Shape::Chain, Shape::FanOut, Shape::Halves] {
        for scheduler in [false, true] {
            let order = if scheduler { "scheduler" } else { "plan order" };
            let mut last: Option<(usize, Duration)> = None;
            let mut first: Option<f64> = None;
            for n in [1_000usize, 10_000, 100_000, 1_000_000] {
                if n > max {
                    break;
                }
                if let Some((m, took)) = last {
                    let estimate = took.as_secs_f64() * (n as f64 / m as f64).powi(2);
                    if estimate > budget {
                        println!(
                            "{:<8} {order:<11} {n:>9} {:>12} {:>11}",
                            shape.name(),
                            "skipped",
                            format!("~{estimate:.0} s")
                        );
                        continue;
                    }
                }
                let p = plan(shape, n);
                let (took, p) = drive(p, scheduler);
                drop(p);
                let per_step = took.as_nanos() as f64 / n as f64;
                let base = *first.get_or_insert(per_step);
                println!(
                    "{:<8} {order:<11} {n:>9} {per_step:>12.0} {:>9.3} s {:>7.2}x",
                    shape.name(),
                    took.as_secs_f64(),
                    per_step / base
                );
                last = Some((n, took));
            }
        }
    }
}
