//! The SA session runtime on `NatsStore` against the same run on the
//! in-process stores, measured in the same run: steps per second, NATS
//! round trips per step (`NatsStore::round_trips`) and, for the directory
//! store, fsyncs per step, with the ratios NATS / memory and NATS /
//! directory.
//!
//! ```text
//! cargo run --release -p mplp-nats --example sa_store_bench [-- STEPS...]
//! ```
//!
//! Each size is a chain plan with a no-op executor, run three times per
//! store, interleaved (memory, directory, NATS, memory, ...), the median
//! kept. Starts its own `nats-server -js` on 127.0.0.1 (a free port, a
//! temporary store directory), or uses `MPLP_NATS_URL` when set.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // an example

use std::time::{Duration, Instant};

use mplp_events::log::NullSink;
use mplp_nats::NatsStore;
use mplp_runtime::store::{DirStore, MemoryStore, Store};
use mplp_runtime::{AutoApprove, SaOutcome, SaSession, StepRequest, StepResult};

#[path = "../../../tests/support/nats_server.rs"]
mod nats_server;

#[path = "../../../tests/support/chain_plan.rs"]
mod chain_plan;
use chain_plan::chain as inputs;

fn noop(_: &StepRequest<'_>) -> StepResult {
    StepResult::done()
}

/// Runs a chain of `n` steps on `store`; the time and the store back.
fn run<S: Store>(n: usize, store: S) -> (Duration, S) {
    let (c, p) = inputs(n);
    let t = Instant::now();
    let mut s = SaSession::new(c, p, NullSink::default(), store).unwrap();
    let r = s.run(&mut noop, &mut AutoApprove::default()).unwrap();
    let took = t.elapsed();
    assert_eq!(r.outcome, SaOutcome::Completed);
    let (_, store) = s.into_parts();
    (took, store)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn per_second(n: usize, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64().max(1e-9)
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![100, 1_000]
    } else {
        sizes
    };
    let (server, url) = nats_server::from_env_or_start();
    let scratch = std::env::temp_dir().join(format!("mplp-sa-store-bench-{}", std::process::id()));
    println!(
        "SA session, chain plans, no-op executor; median of 3 interleaved rounds; NATS at {url}"
    );
    let mut name = 0u32;
    for &n in &sizes {
        let (mut mem, mut dir, mut nats) = (Vec::new(), Vec::new(), Vec::new());
        let (mut fsyncs, mut trips) = (0u64, 0u64);
        for _ in 0..3 {
            mem.push(run(n, MemoryStore::new()).0);
            let path = scratch.join(format!("d{name}"));
            let (t, store) = run(n, DirStore::open(&path).unwrap());
            fsyncs = store.fsyncs();
            drop(store);
            std::fs::remove_dir_all(&path).ok();
            dir.push(t);
            name += 1;
            let store =
                NatsStore::connect(&url, &format!("bench{}_{name}", std::process::id())).unwrap();
            let before = store.round_trips();
            let (t, store) = run(n, store);
            trips = store.round_trips() - before;
            nats.push(t);
        }
        let (m, d, s) = (median(mem), median(dir), median(nats));
        println!("  {n:>6} steps:");
        println!(
            "    MemoryStore {:>10.0} steps/s ({:>8.2} µs/step)",
            per_second(n, m),
            m.as_secs_f64() * 1e6 / n as f64
        );
        println!(
            "    DirStore    {:>10.0} steps/s ({:>8.2} µs/step, {:.2} fsyncs/step)",
            per_second(n, d),
            d.as_secs_f64() * 1e6 / n as f64,
            fsyncs as f64 / n as f64
        );
        println!(
            "    NatsStore   {:>10.0} steps/s ({:>8.2} µs/step, {:.2} round trips/step, {:.1} µs/round trip)",
            per_second(n, s),
            s.as_secs_f64() * 1e6 / n as f64,
            trips as f64 / n as f64,
            s.as_secs_f64() * 1e6 / trips.max(1) as f64
        );
        println!(
            "    ratios: NATS takes {:.1}x the time of MemoryStore, {:.2}x that of DirStore",
            s.as_secs_f64() / m.as_secs_f64().max(1e-9),
            s.as_secs_f64() / d.as_secs_f64().max(1e-9)
        );
    }
    std::fs::remove_dir_all(&scratch).ok();
    // Stops our server and removes its store.
    drop(server);
}
