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
//!   runtime that does not know the shape would;
//! - `sched+sink`: the same, and the plan's events are taken out every 1,024
//!   steps and dropped (counted), as a runtime that ships them to a sink
//!   would: the plan's history then stops growing, which shows how much of
//!   the cost per step at 10^6 is the memory of two events per step.
//!
//! Prints ns per step at 10^3 .. 10^6 steps; a size whose estimated run (if
//! the cost grew quadratically from the last size) exceeds the budget is
//! skipped and its estimate shown. Building the plan and dropping it are not
//! counted; the events every trigger appends to the plan are.
//!
//! The time is the CPU time of the driving thread where Linux gives it (the
//! machine may be busy), the median of several runs for the small sizes.
//!
//! `cargo run --release -p mplp-plan --example drive_lifecycle [-- BUDGET_SECONDS [MAX_STEPS [SHAPE]]]`
//! (default budget: 60 s per run; default maximum: 1000000 steps; all shapes).

// A benchmark that cannot set itself up should stop at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use mplp_core::{ContextId, StepId};
use mplp_plan::{ConfirmDecision, Plan, PlanStatus, StepStatus};

/// Steps driven per size (in runs of N steps).
const REPS_FOR: f64 = 1e6;
/// No new run of a size after this much time driving it.
const MAX_REPEAT: Duration = Duration::from_secs(2);

/// How the next step is picked (see the top of the file).
#[derive(Clone, Copy, PartialEq)]
enum Order {
    Plan,
    Scheduler,
    Sink,
}

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

/// The time this thread has run on a CPU (Linux): unlike the wall clock, it
/// does not count the time the thread waited for a CPU on a busy machine.
#[cfg(target_os = "linux")]
fn cpu_time() -> Option<Duration> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Some(Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

/// Elsewhere: the wall clock.
#[cfg(not(target_os = "linux"))]
fn cpu_time() -> Option<Duration> {
    None
}

/// Drives the plan; the time (CPU time when known, else wall) from
/// `propose` to the last step completed.
fn drive(mut plan: Plan, order: Order) -> (Duration, Plan) {
    let ids: Vec<StepId> = plan.steps().iter().map(|s| s.step_id).collect();
    let started = Instant::now();
    let cpu = cpu_time();
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    plan.start().unwrap();
    if order != Order::Plan {
        let mut k = 0u32;
        while let Some(id) = next_ready(&plan) {
            run_step(&mut plan, id);
            k += 1;
            if order == Order::Sink && k % 1024 == 0 {
                drop(plan.events.take());
            }
        }
    } else {
        for id in ids {
            run_step(&mut plan, id);
        }
    }
    let took = match (cpu, cpu_time()) {
        (Some(a), Some(b)) => b - a,
        _ => started.elapsed(),
    };
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
    let only: Option<String> = args.next();
    println!(
        "time: {} (median of the runs of a size: {REPS_FOR:.0e} steps or {MAX_REPEAT:?} in all, 1 run at least)",
        if cpu_time().is_some() {
            "CPU time of the driving thread"
        } else {
            "wall clock"
        }
    );
    // An untimed drive first: the allocator's first large blocks (and
    // glibc's dynamic mmap threshold) would otherwise weigh on whichever
    // size is measured first.
    drop(drive(plan(Shape::Halves, 100_000), Order::Plan));
    println!(
        "{:<8} {:<11} {:>9} {:>12} {:>11} {:>8}",
        "shape", "order", "steps", "ns/step", "total", "vs 10^3"
    );
    for shape in [Shape::Chain, Shape::FanOut, Shape::Halves] {
        if only.as_deref().is_some_and(|o| o != shape.name()) {
            continue;
        }
        for how in [Order::Plan, Order::Scheduler, Order::Sink] {
            let order = match how {
                Order::Plan => "plan order",
                Order::Scheduler => "scheduler",
                Order::Sink => "sched+sink",
            };
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
                // Up to 100 runs, 10^6 steps or 2 s of driving in all.
                let runs = (REPS_FOR as usize / n).clamp(1, 100);
                let mut times: Vec<Duration> = Vec::new();
                while times.len() < runs && times.iter().sum::<Duration>() < MAX_REPEAT {
                    let (took, p) = drive(plan(shape, n), how);
                    drop(p);
                    times.push(took);
                }
                times.sort();
                let took = times[times.len() / 2];
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
