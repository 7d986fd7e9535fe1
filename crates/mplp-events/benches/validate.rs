//! Throughput of MAP log validation against plain `serde_json` parsing of the
//! same lines into `serde_json::Value` (compare the two in one run).
//!
//! `cargo bench -p mplp-events -- --warm-up-time 1 --measurement-time 3`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // a benchmark binary

#[path = "../examples/gen_log/mod.rs"]
mod gen_log;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut log = Vec::new();
    gen_log::write_log(&mut log, 50_000, 16).unwrap();
    let mut g = c.benchmark_group("map_log_50k_events");
    g.throughput(Throughput::Bytes(log.len() as u64));
    g.bench_function("serde_json_value_per_line", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for line in log.split(|c| *c == b'\n').filter(|l| !l.is_empty()) {
                let v: serde_json::Value = serde_json::from_slice(line).unwrap();
                n += usize::from(v.is_object());
            }
            black_box(n)
        })
    });
    g.bench_function("typed_map_event_per_line", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for line in log.split(|c| *c == b'\n').filter(|l| !l.is_empty()) {
                let e: mplp_events::MapEvent = serde_json::from_slice(line).unwrap();
                n += usize::from(e.initiator_role.is_some());
            }
            black_box(n)
        })
    });
    g.bench_function("validate_map_log", |b| {
        b.iter(|| {
            let report = mplp_events::log::validate_map_log(black_box(&log[..]));
            assert!(report.is_empty());
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
