//! The performance table in one run: for each document (plans of 10/100/1000
//! steps, dialogs of 10/100/1000 messages, a collab of 8 participants) and
//! each NDJSON log (MAP, SA; read line by line), the throughput of the
//! `IgnoredAny` scan, the `jsonschema` crate (parse + validate) and
//! `validate_json` (the log validators for logs) and the `mplp validate`
//! path (kind detection, then the validator), as ratios against
//! `serde_json::from_slice::<Value>` on the same bytes (higher is faster).
//! Contenders are interleaved, round after round; each figure is the median
//! of the rounds.
//!
//! `cargo run --release -p mplp --example perf_report [-- ROUNDS [MS_PER_CELL [LOG_EVENTS]]]`
//! (defaults: 5 rounds, 200 ms per contender and round, 20,000 log events).
//!
//! The `Value` baseline allocates a node or a string for almost every
//! token, and its speed moves with the state of the heap: between two builds
//! whose `Value` code and instruction counts are the same, it was 13-20%
//! apart on every row, and heap churn before the timing moved it
//! by as much within one build. So each round runs on a heap in a state of
//! its own (`common::heap_state`: 0 to 300,000 blocks left, five states),
//! the same for every contender of the round, and the medians are taken
//! over those states. Compare builds by instruction counts (callgrind) as
//! well.
//!
//! To profile one contender on one row, set `PERF_REPORT_ONLY=<contender>:<label prefix>`
//! (for example `validate_json:plan, 1000`): the example then only runs that
//! for the whole budget of every round, and prints only the time per read
//! of each round (to compare two builds: the lowest of many short rounds is
//! steadier than a ratio on a busy machine).

// A benchmark that cannot set itself up should stop at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

#[path = "../benches/common/mod.rs"]
mod common;

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
    if let Ok(only) = std::env::var("PERF_REPORT_ONLY") {
        let (contender, prefix) = only.split_once(':').unwrap_or((only.as_str(), ""));
        for input in common::inputs(log_events) {
            if input.label.starts_with(prefix) {
                for r in 0..rounds {
                    let _heap = common::heap_state(r);
                    let ns = common::time_once(&input, contender, budget);
                    println!("{}: {contender}: {ns:.0} ns per read", input.label);
                }
            }
        }
        return;
    }
    println!(
        "ratio = reads per second / serde_json::from_slice::<Value> reads per second on the same bytes \
         ({rounds} interleaved rounds, medians)\n"
    );
    println!(
        "| document | size | Value µs | scan with `IgnoredAny` | `jsonschema` (parse + validate) | mplp-rs `validate_json` | `mplp validate` path (detect + validate) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for input in common::inputs(log_events) {
        let [value, scan, schema, mplp, cli] = common::measure(&input, rounds, budget);
        let size = input.bytes.len() as f64 / 1024.0;
        let size = if size >= 1024.0 {
            format!("{:.1} MB", size / 1024.0)
        } else {
            format!("{size:.1} KB")
        };
        println!(
            "| {} | {size} | {:.1} | {:.2} | {:.2} | {:.2} | {:.2} |",
            input.label,
            value / 1e3,
            value / scan,
            value / schema,
            value / mplp,
            value / cli,
        );
    }
}
