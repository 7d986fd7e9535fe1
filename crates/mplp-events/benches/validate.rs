//! Throughput of MAP log validation against plain `serde_json` parsing of the
//! same lines into `serde_json::Value` (compare the two in one run).
//!
//! `cargo bench -p mplp-events -- --warm-up-time 1 --measurement-time 3`
//! (`-- leaf_parsers` for the id and timestamp readers alone)
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

/// The leaf parsers of a log line, each on 1024 texts: the two UUID readers
/// (`format: uuid` and a typed id), the `uuid` crate's `parse_str`, and
/// RFC 3339 timestamps; with `serde_json::from_slice::<Value>` of the same
/// texts as JSON strings as the baseline measured in the same run.
fn leaf_parsers(c: &mut Criterion) {
    let uuids: Vec<String> = (0..1024u128)
        .map(|i| {
            let bits = i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834);
            uuid::Builder::from_random_bytes(bits.to_be_bytes())
                .into_uuid()
                .to_string()
        })
        .collect();
    let stamps: Vec<String> = (0..1024u32)
        .map(|i| {
            format!(
                "20{:02}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
                i % 100,
                i % 12 + 1,
                i % 28 + 1,
                i % 24,
                i % 60,
                (i * 7) % 60,
                i % 1000
            )
        })
        .collect();
    let quoted = |v: &[String]| -> Vec<Vec<u8>> {
        v.iter().map(|s| format!("\"{s}\"").into_bytes()).collect()
    };
    let (uuids_json, stamps_json) = (quoted(&uuids), quoted(&stamps));
    let mut g = c.benchmark_group("leaf_parsers_1024");
    g.throughput(Throughput::Elements(1024));
    g.bench_function("schema_uuid_parse", |b| {
        b.iter(|| {
            for s in &uuids {
                black_box(mplp_events::SchemaUuid::parse(black_box(s)).is_ok());
            }
        })
    });
    g.bench_function("typed_id_parse", |b| {
        b.iter(|| {
            for s in &uuids {
                black_box(mplp_core::EventId::parse(black_box(s)).is_ok());
            }
        })
    });
    g.bench_function("uuid_crate_parse_str", |b| {
        b.iter(|| {
            for s in &uuids {
                black_box(uuid::Uuid::parse_str(black_box(s)).is_ok());
            }
        })
    });
    g.bench_function("serde_json_value_uuid_string", |b| {
        b.iter(|| {
            for s in &uuids_json {
                let v: serde_json::Value = serde_json::from_slice(black_box(s)).unwrap();
                black_box(v.is_string());
            }
        })
    });
    g.bench_function("timestamp_parse", |b| {
        b.iter(|| {
            for s in &stamps {
                black_box(mplp_core::Timestamp::parse(black_box(s)).is_ok());
            }
        })
    });
    g.bench_function("serde_json_value_timestamp_string", |b| {
        b.iter(|| {
            for s in &stamps_json {
                let v: serde_json::Value = serde_json::from_slice(black_box(s)).unwrap();
                black_box(v.is_string());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench, leaf_parsers);
criterion_main!(benches);
