//! One criterion group per document kind and size (`validate/plan-10`, ...,
//! `validate/sa-log`), each measuring in the same run the `Value` parse, the
//! `IgnoredAny` scan, the `jsonschema` crate (parse + validate),
//! `validate_json` (the log validators for the MAP and SA logs) and the
//! `mplp validate` path (kind detection, then the validator) on the same
//! bytes. Run: `cargo bench -p mplp --bench validate -- --warm-up-time 1 --measurement-time 3`.
//! (`cargo run --release -p mplp --example perf_report` prints the ratios as one table.)

// A benchmark that cannot set itself up should stop at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod common;

fn bench(c: &mut Criterion) {
    for input in common::inputs(20_000) {
        let name = input
            .label
            .split([',', ' '])
            .filter(|w| w.chars().all(|c| c.is_ascii_alphanumeric()) && !w.is_empty())
            .take(2)
            .collect::<Vec<_>>()
            .join("-")
            .to_lowercase();
        let mut group = c.benchmark_group(format!("validate/{name}"));
        group.throughput(Throughput::Bytes(input.bytes.len() as u64));
        if input.bytes.len() > 1 << 20 {
            group.sample_size(10);
        }
        for contender in common::CONTENDERS {
            group.bench_function(contender, |b| b.iter(|| common::run(&input, contender)));
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
