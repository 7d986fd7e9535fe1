//! Benchmarks of mplp-dialog.
//!
//! - `parse/{10,100,1000}`: the same dialog bytes read three ways:
//!   `value` (`serde_json::from_slice::<Value>`, the baseline), `mplp`
//!   (`Dialog::validate_json`: typed parse plus the timing rules) and
//!   `jsonschema` (`from_slice::<Value>` plus a `jsonschema` 0.60 validator
//!   built from `schemas/mplp-dialog.schema.json` with `schemas/common/`
//!   registered, formats asserted).
//! - `prune/{1000,10000,100000}`: `DefaultContextManager::prune` with a budget
//!   of half the dialog's tokens (the work grows with the message count).
//!
//! Run: `cargo bench -p mplp-dialog -- --warm-up-time 1 --measurement-time 3`.

// A benchmark that cannot set itself up should stop loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use jsonschema::{Draft, Registry, Validator};
use mplp_core::Document;
use mplp_dialog::{ContextManager, DefaultContextManager, Dialog, EstimateCounter, TokenCounter};
use serde_json::Value;

mod common;
use common::dialog;

fn schema_validator() -> Validator {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas");
    let load = |p: &Path| -> Value { serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap() };
    let mut resources = Vec::new();
    for entry in std::fs::read_dir(dir.join("common")).unwrap() {
        let schema = load(&entry.unwrap().path());
        let id = schema["$id"].as_str().unwrap().to_owned();
        resources.push((id, schema));
    }
    let registry = Registry::new()
        .draft(Draft::Draft7)
        .extend(resources.iter().map(|(id, s)| (id.as_str(), s)))
        .and_then(|b| b.prepare())
        .unwrap();
    let schema = load(&dir.join("mplp-dialog.schema.json"));
    jsonschema::options()
        .with_draft(Draft::Draft7)
        .with_registry(&registry)
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

fn parse(c: &mut Criterion) {
    let validator = schema_validator();
    let mut group = c.benchmark_group("parse");
    for n in [10usize, 100, 1000] {
        let bytes = dialog(n).to_json().into_bytes();
        // Every path must agree that the document is valid, or the race is unfair.
        assert!(Dialog::validate_json(&bytes).report.is_empty());
        assert!(validator.is_valid(&serde_json::from_slice(&bytes).unwrap()));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("value", n), &bytes, |b, bytes| {
            b.iter(|| serde_json::from_slice::<Value>(black_box(bytes)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("typed-only", n), &bytes, |b, bytes| {
            b.iter(|| serde_json::from_slice::<Dialog>(black_box(bytes)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("mplp", n), &bytes, |b, bytes| {
            b.iter(|| Dialog::validate_json(black_box(bytes)))
        });
        group.bench_with_input(BenchmarkId::new("jsonschema", n), &bytes, |b, bytes| {
            b.iter(|| {
                let v: Value = serde_json::from_slice(black_box(bytes)).unwrap();
                validator.is_valid(&v)
            })
        });
    }
    group.finish();
}

fn prune(c: &mut Criterion) {
    let mut group = c.benchmark_group("prune");
    group.sample_size(20);
    for n in [1_000usize, 10_000, 100_000] {
        let d = dialog(n);
        let total: usize = d
            .messages()
            .iter()
            .map(|m| EstimateCounter.count_message(m))
            .sum();
        let cm = DefaultContextManager::new(total / 2).with_safety_margin(0);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &d, |b, d| {
            b.iter(|| cm.prune(black_box(d)).unwrap())
        });
    }
    group.finish();
}

/// Throughput ratios measured interleaved: each round times a batch of every
/// contender back to back, and the best round of each is kept, so load from
/// other processes on a shared machine skews all contenders alike.
fn interleaved_ratios() {
    use std::time::{Duration, Instant};
    let validator = schema_validator();
    println!("\ninterleaved best-of-rounds, throughput relative to serde_json::Value:");
    for n in [10usize, 100, 1000] {
        let bytes = dialog(n).to_json().into_bytes();
        let batch = 20_000 / n;
        let time = |f: &dyn Fn()| {
            let start = Instant::now();
            for _ in 0..batch {
                f();
            }
            start.elapsed()
        };
        let mut best = [Duration::MAX; 3];
        for _ in 0..60 {
            let runs = [
                time(&|| {
                    black_box(serde_json::from_slice::<Value>(black_box(&bytes)).unwrap());
                }),
                time(&|| {
                    black_box(Dialog::validate_json(black_box(&bytes)));
                }),
                time(&|| {
                    let v: Value = serde_json::from_slice(black_box(&bytes)).unwrap();
                    black_box(validator.is_valid(&v));
                }),
            ];
            for (b, r) in best.iter_mut().zip(runs) {
                *b = (*b).min(r);
            }
        }
        let per = |d: Duration| d.as_secs_f64() * 1e6 / batch as f64;
        println!(
            "  {n:>4} messages ({:>6} bytes): Value {:>8.2} us | mplp {:>8.2} us = {:.2}x | jsonschema {:>8.2} us = {:.2}x | mplp vs jsonschema {:.2}x",
            bytes.len(),
            per(best[0]),
            per(best[1]),
            best[0].as_secs_f64() / best[1].as_secs_f64(),
            per(best[2]),
            best[0].as_secs_f64() / best[2].as_secs_f64(),
            best[2].as_secs_f64() / best[1].as_secs_f64(),
        );
    }
    println!("interleaved best-of-rounds, DefaultContextManager::prune (budget: half the tokens):");
    let mut last = None;
    for n in [1_000usize, 10_000, 100_000] {
        let d = dialog(n);
        let total: usize = d
            .messages()
            .iter()
            .map(|m| EstimateCounter.count_message(m))
            .sum();
        let cm = DefaultContextManager::new(total / 2).with_safety_margin(0);
        let mut best = Duration::MAX;
        for _ in 0..15 {
            let start = Instant::now();
            black_box(cm.prune(black_box(&d)).unwrap());
            best = best.min(start.elapsed());
        }
        let ns_per_message = best.as_secs_f64() * 1e9 / n as f64;
        let growth = last
            .map(|l: Duration| {
                format!(
                    ", x{:.1} for x10 messages",
                    best.as_secs_f64() / l.as_secs_f64()
                )
            })
            .unwrap_or_default();
        println!(
            "  {n:>6} messages: {:>8.3} ms ({ns_per_message:.0} ns/message{growth})",
            best.as_secs_f64() * 1e3
        );
        last = Some(best);
    }
}

criterion_group!(benches, parse, prune);

fn main() {
    benches();
    // Skipped when criterion only lists or smoke-tests the benchmarks.
    let quick = std::env::args().any(|a| a == "--test" || a == "--list");
    if !quick {
        interleaved_ratios();
    }
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
