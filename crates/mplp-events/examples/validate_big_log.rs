//! Validates a generated MAP log of N events (default 1,000,000) and compares
//! the throughput with plain `serde_json` parsing of the same lines into
//! `serde_json::Value`; prints the peak memory (VmHWM) of the validation.
//!
//! `cargo run --release -p mplp-events --example validate_big_log -- [N] [CONCURRENT_SESSIONS]`
//!
//! The log is streamed to a temporary file (never held in memory), then both
//! readers stream it back through a 64 KiB `BufReader`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // an example binary: failing loudly is right

mod gen_log;

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter};
use std::time::Instant;

fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn reset_hwm() {
    // Linux: writing 5 to clear_refs resets the peak RSS (VmHWM).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().map_or(1_000_000, |a| a.parse().unwrap());
    let concurrent: usize = args.next().map_or(16, |a| a.parse().unwrap());
    let path = std::env::temp_dir().join(format!("mplp-big-log-{}.ndjson", std::process::id()));

    let t = Instant::now();
    let (events, bytes) =
        gen_log::write_log(BufWriter::new(File::create(&path).unwrap()), n, concurrent).unwrap();
    let mb = bytes as f64 / 1e6;
    println!(
        "generated {events} events, {mb:.1} MB, {concurrent} concurrent sessions, in {:.2?}",
        t.elapsed()
    );

    // Warm the page cache so both readers see the same I/O.
    let _ = std::fs::read(&path).map(|b| b.len());

    let rounds = 3;
    let mut best_value = f64::MAX;
    let mut best_validate = f64::MAX;
    let mut best_typed = f64::MAX;
    let mut hwm_validate = 0;
    for _ in 0..rounds {
        // Baseline: every line into serde_json::Value.
        let t = Instant::now();
        let mut reader = BufReader::with_capacity(1 << 16, File::open(&path).unwrap());
        let mut buf = Vec::new();
        let mut count = 0u64;
        while {
            buf.clear();
            reader.read_until(b'\n', &mut buf).unwrap() > 0
        } {
            let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
            count += u64::from(v.is_object());
        }
        assert_eq!(count, events);
        best_value = best_value.min(t.elapsed().as_secs_f64());

        // The typed parse alone (no validation state).
        let t = Instant::now();
        let mut reader = BufReader::with_capacity(1 << 16, File::open(&path).unwrap());
        let mut count = 0u64;
        while {
            buf.clear();
            reader.read_until(b'\n', &mut buf).unwrap() > 0
        } {
            let e: mplp_events::MapEvent = serde_json::from_slice(&buf).unwrap();
            count += u64::from(e.event_id.as_uuid().get_version_num() == 4);
        }
        assert_eq!(count, events);
        best_typed = best_typed.min(t.elapsed().as_secs_f64());

        reset_hwm();
        let t = Instant::now();
        let report = mplp_events::log::validate_map_log(BufReader::with_capacity(
            1 << 16,
            File::open(&path).unwrap(),
        ));
        best_validate = best_validate.min(t.elapsed().as_secs_f64());
        assert!(report.is_empty(), "{:?}", report.violations().first());
        hwm_validate = hwm_validate.max(vm_hwm_kib().unwrap_or(0));
    }
    let _ = std::fs::remove_file(&path);

    let value_mbs = mb / best_value;
    let validate_mbs = mb / best_validate;
    println!(
        "serde_json::Value parse : {value_mbs:8.1} MB/s ({best_value:.3} s, best of {rounds})"
    );
    println!("typed MapEvent parse    : {:8.1} MB/s", mb / best_typed);
    println!(
        "validate_map_log        : {validate_mbs:8.1} MB/s ({best_validate:.3} s, best of {rounds})"
    );
    println!("ratio validate / Value  : {:.2}x", validate_mbs / value_mbs);
    println!(
        "peak memory (VmHWM) during validation: {:.1} MiB",
        hwm_validate as f64 / 1024.0
    );
}
