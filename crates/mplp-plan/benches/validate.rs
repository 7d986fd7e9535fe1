//! Validation of plans of 10 to 1,000,000 steps from JSON bytes, against a
//! plain `serde_json::Value` parse of the same bytes and the `jsonschema`
//! crate. Run: `cargo bench -p mplp-plan -- --warm-up-time 1 --measurement-time 3`.
//! (`cargo run --release -p mplp-plan --example bench_report` prints ns/step and ratios.)

// A benchmark that cannot set itself up should stop at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mplp_core::Document;
use mplp_plan::Plan;
use serde_json::Value;

mod common;

fn bench(c: &mut Criterion) {
    let validator = common::jsonschema_validator();
    for n in [10usize, 1_000, 100_000, 1_000_000] {
        let bytes = common::plan_json(n);
        assert!(Plan::validate_json(&bytes).report.is_empty());
        let mut group = c.benchmark_group("plan_from_bytes");
        group.throughput(Throughput::Elements(n as u64));
        if n >= 100_000 {
            group.sample_size(10);
        }
        group.bench_with_input(
            BenchmarkId::new("mplp_plan_validate_json", n),
            &bytes,
            |b, bytes| b.iter(|| Plan::validate_json(bytes).is_valid()),
        );
        group.bench_with_input(
            BenchmarkId::new("serde_json_value", n),
            &bytes,
            |b, bytes| b.iter(|| serde_json::from_slice::<Value>(bytes).map(|v| v.is_object())),
        );
        if n <= 100_000 {
            group.bench_with_input(
                BenchmarkId::new("jsonschema_0_60", n),
                &bytes,
                |b, bytes| {
                    b.iter(|| {
                        let v: Value = serde_json::from_slice(bytes).unwrap_or(Value::Null);
                        validator.is_valid(&v)
                    })
                },
            );
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
