//! mplp-json against simd-json and sonic-rs, on the documents and logs of
//! `crates/mplp/examples/perf_report.rs` (the same generator), in one run:
//! for each row, the reads per second of each contender as a ratio against
//! `serde_json::from_slice::<Value>` on the same bytes (higher is faster),
//! the median of interleaved rounds, each round on a heap in a state of its
//! own (as perf_report does).
//!
//! - `serde_json Value`: the baseline.
//! - `mplp from_json`: mplp-rs's typed parse (`Document::from_json`: the
//!   fast reader of mplp-json, then the module's rules).
//! - `simd-json Value`: `simd_json::to_owned_value` (on a copy of the
//!   input, which simd-json needs mutable; the copy is timed).
//! - `simd-json serde`: `simd_json::serde::from_slice` into our types (the
//!   same `Deserialize`, so the same rules; on a copy).
//! - `sonic-rs Value`: `sonic_rs::from_slice::<sonic_rs::Value>`.
//! - `sonic-rs serde`: `sonic_rs::from_slice` into our types.
//!
//! Logs are read line by line, each line an event.
//!
//! `cargo run --release --manifest-path benches/json-engines/Cargo.toml [-- ROUNDS [MS_PER_CELL [LOG_EVENTS]]]`

// A benchmark that cannot set itself up should stop at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use mplp::collab::Collab;
use mplp::dialog::Dialog;
use mplp::events::{MapEvent, SaEvent};
use mplp::plan::Plan;
use mplp_core::Document;
use serde::de::DeserializeOwned;
use serde_json::Value;

#[path = "../../../crates/mplp/benches/common/mod.rs"]
mod common;

use common::{Input, Kind};

const CONTENDERS: [&str; 6] = [
    "serde_json Value",
    "mplp from_json",
    "simd-json Value",
    "simd-json serde",
    "sonic-rs Value",
    "sonic-rs serde",
];

fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty())
}

/// Reads `bytes` (one JSON text) as `T` with contender `c`; true when read.
fn read_one<T: Document + DeserializeOwned>(c: usize, bytes: &[u8]) -> bool {
    match c {
        0 => serde_json::from_slice::<Value>(bytes).is_ok(),
        1 => T::from_json(bytes).is_ok(),
        2 => simd_json::to_owned_value(&mut bytes.to_vec()).is_ok(),
        3 => simd_json::serde::from_slice::<T>(&mut bytes.to_vec()).is_ok(),
        4 => sonic_rs::from_slice::<sonic_rs::Value>(bytes).is_ok(),
        5 => sonic_rs::from_slice::<T>(bytes).is_ok(),
        _ => unreachable!(),
    }
}

fn read<T: Document + DeserializeOwned>(c: usize, input: &Input) -> bool {
    let bytes = black_box(&input.bytes[..]);
    match input.kind {
        Kind::MapLog | Kind::SaLog => lines(bytes).all(|l| read_one::<T>(c, l)),
        _ => read_one::<T>(c, bytes),
    }
}

fn run(c: usize, input: &Input) -> bool {
    match input.kind {
        Kind::Plan => read::<Plan>(c, input),
        Kind::Dialog => read::<Dialog>(c, input),
        Kind::Collab => read::<Collab>(c, input),
        Kind::MapLog => read::<MapEvent>(c, input),
        Kind::SaLog => read::<SaEvent>(c, input),
    }
}

fn time_once(c: usize, input: &Input, budget: Duration) -> f64 {
    let started = Instant::now();
    let mut runs = 0u32;
    while runs == 0 || started.elapsed() < budget {
        black_box(run(c, input));
        runs += 1;
    }
    started.elapsed().as_nanos() as f64 / f64::from(runs)
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("ROUNDS MS_PER_CELL LOG_EVENTS are numbers")
        })
        .collect();
    let rounds = args.first().copied().unwrap_or(5).max(1) as usize;
    let budget = Duration::from_millis(args.get(1).copied().unwrap_or(200));
    let log_events = args.get(2).copied().unwrap_or(20_000);
    println!(
        "ratio = reads per second / serde_json::from_slice::<Value> reads per second on the same bytes \
         ({rounds} interleaved rounds, medians)\n"
    );
    println!(
        "| document | size | Value µs | {} |",
        CONTENDERS[1..].join(" | ")
    );
    println!("|---|---|---|{}", "---|".repeat(CONTENDERS.len() - 1));
    for input in common::inputs(log_events) {
        for c in 0..CONTENDERS.len() {
            assert!(
                run(c, &input),
                "{}: {} refuses it",
                input.label,
                CONTENDERS[c]
            );
        }
        let mut samples: Vec<Vec<f64>> = vec![Vec::new(); CONTENDERS.len()];
        for r in 0..rounds {
            let _heap = common::heap_state(r);
            for k in 0..CONTENDERS.len() {
                let c = (r + k) % CONTENDERS.len();
                samples[c].push(time_once(c, &input, budget));
            }
        }
        let ns: Vec<f64> = samples
            .into_iter()
            .map(|mut s| {
                s.sort_by(f64::total_cmp);
                s[s.len() / 2]
            })
            .collect();
        let size = input.bytes.len() as f64 / 1024.0;
        let size = if size >= 1024.0 {
            format!("{:.1} MB", size / 1024.0)
        } else {
            format!("{size:.1} KB")
        };
        let ratios: Vec<String> = ns[1..]
            .iter()
            .map(|n| format!("{:.2}", ns[0] / n))
            .collect();
        println!(
            "| {} | {size} | {:.1} | {} |",
            input.label,
            ns[0] / 1000.0,
            ratios.join(" | ")
        );
    }
}
