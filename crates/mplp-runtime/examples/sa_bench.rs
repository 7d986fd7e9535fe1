//! The cost of `SaSession` per step.
//!
//! ```text
//! cargo run --release -p mplp-runtime --example sa_bench [-- STEPS...]
//! ```
//!
//! 1. In memory: a chain of 10^3, 10^4 and 10^5 steps, a no-op executor,
//!    `MemoryStore`, a sink that drops events. Prints µs per step (the
//!    goal: under 20, flat as the plan grows) and, as a same-run baseline
//!    on a noisy machine, the time `serde_json::from_slice::<Value>` takes
//!    to parse the log the run wrote, per step.
//! 2. In a directory (`DirStore`, an fsync per event): steps per second
//!    and fsyncs per step.
//!
//! With `--once`, each size runs once after the warm-up and the directory
//! part is skipped: for instruction counts and simulated cache misses under
//! `valgrind --tool=callgrind --toggle-collect='*SaSession*::run'`
//! (see `docs/spec-notes.md`, "The SA runtime's cost per step").
#![allow(clippy::unwrap_used, clippy::expect_used)] // an example: a failure is a crash with a message

use std::time::Instant;

use mplp_events::log::NullSink;
use mplp_runtime::store::{DirStore, MemoryStore, Store};
use mplp_runtime::{AutoApprove, SaSession, StepRequest, StepResult};

#[path = "../../../tests/support/chain_plan.rs"]
mod chain_plan;
use chain_plan::chain as inputs;

fn noop(_: &StepRequest<'_>) -> StepResult {
    StepResult::done()
}

fn main() {
    let once = std::env::args().any(|a| a == "--once");
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1_000, 10_000, 100_000]
    } else {
        sizes
    };
    // The first session of a process pays one-time costs (page faults as the
    // heap grows, lazily built tables): measured here, 155 µs/step for the
    // first 1,000 steps against 7 µs/step afterwards. One unmeasured run
    // first, then the median of at least three runs per size (and of at
    // least 100,000 steps in all, so that a short run's noise averages out).
    let (c, p) = inputs(1_000);
    let mut warm = SaSession::new(c, p, NullSink::default(), MemoryStore::new()).unwrap();
    warm.run(&mut noop, &mut AutoApprove::default()).unwrap();
    drop(warm);
    println!("MemoryStore, no-op executor, chain plans (median run after a warm-up run):");
    for &n in &sizes {
        let mut times = Vec::new();
        let mut last = None;
        let runs = if once { 1 } else { (100_000 / n.max(1)).max(3) };
        for _ in 0..runs {
            let (c, p) = inputs(n);
            let t = Instant::now();
            let mut s = SaSession::new(c, p, NullSink::default(), MemoryStore::new()).unwrap();
            let r = s.run(&mut noop, &mut AutoApprove::default()).unwrap();
            times.push(t.elapsed());
            // The previous run's session is dropped here, outside the timing.
            last = Some((r, s));
        }
        times.sort_unstable();
        let took = times[times.len() / 2];
        let (r, s) = last.unwrap();
        let log = s.store().ndjson();
        let t = Instant::now();
        let mut parsed = 0usize;
        for line in log.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let v: serde_json::Value = serde_json::from_slice(line).unwrap();
            parsed += usize::from(v.is_object());
        }
        let base = t.elapsed();
        println!(
            "  {n:>7} steps: {:>7.2} µs/step ({} events); baseline serde_json::Value parse of its log: {:>5.2} µs/step; ratio {:.1}x",
            took.as_secs_f64() * 1e6 / n as f64,
            r.events,
            base.as_secs_f64() * 1e6 / n as f64,
            took.as_secs_f64() / base.as_secs_f64().max(1e-9),
        );
        assert_eq!(parsed as u64, r.events);
    }
    if once {
        return;
    }
    println!("DirStore (fsync per event):");
    for n in [100usize, 1_000] {
        let dir = std::env::temp_dir().join(format!("mplp-sa-bench-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (c, p) = inputs(n);
        let t = Instant::now();
        let store = DirStore::open(&dir).unwrap();
        let mut s = SaSession::new(c, p, NullSink::default(), store).unwrap();
        let r = s.run(&mut noop, &mut AutoApprove::default()).unwrap();
        let took = t.elapsed();
        let fsyncs = s.store().fsyncs();
        println!(
            "  {n:>7} steps: {:>8.0} steps/s, {:.2} fsyncs/step, {} events",
            n as f64 / took.as_secs_f64(),
            fsyncs as f64 / n as f64,
            s.store().event_count(),
        );
        assert_eq!(r.events, s.store().event_count());
        drop(s);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
