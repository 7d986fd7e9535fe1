//! Validates a generated MAP log of N events (default 1,000,000) and compares
//! the throughput with plain `serde_json` parsing of the same lines into
//! `serde_json::Value`; prints the peak memory (VmHWM) of the validation.
//!
//! `cargo run --release -p mplp-events --example validate_big_log -- [N] [CONCURRENT_SESSIONS]`
//!
//! The log is streamed to a temporary file (never held in memory), then both
//! readers stream it back through a 64 KiB `BufReader`. Each reader's best of
//! three rounds is reported in wall time and in CPU time of the thread (Linux
//! `schedstat`), the latter less disturbed by other processes on shared machines.
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

/// CPU time of this thread in seconds (Linux `schedstat`: time on the CPU,
/// in ns), so that the ratios hold up when other processes share the cores;
/// `None` elsewhere.
fn cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// Wall and CPU seconds of `f`.
fn timed<R>(f: impl FnOnce() -> R) -> (R, f64, f64) {
    let c = cpu_secs();
    let t = Instant::now();
    let r = f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = match (c, cpu_secs()) {
        (Some(a), Some(b)) => b - a,
        _ => wall,
    };
    (r, wall, cpu)
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
    // Best of `rounds` for each reader, in wall time and in CPU time.
    let mut best_value = (f64::MAX, f64::MAX);
    let mut best_validate = (f64::MAX, f64::MAX);
    let mut best_typed = (f64::MAX, f64::MAX);
    let best = |b: &mut (f64, f64), wall: f64, cpu: f64| *b = (b.0.min(wall), b.1.min(cpu));
    let mut hwm_validate = 0;
    for _ in 0..rounds {
        // Baseline: every line into serde_json::Value.
        let (count, wall, cpu) = timed(|| {
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
            count
        });
        assert_eq!(count, events);
        best(&mut best_value, wall, cpu);

        // The typed parse alone (no validation state).
        let (count, wall, cpu) = timed(|| {
            let mut reader = BufReader::with_capacity(1 << 16, File::open(&path).unwrap());
            let mut buf = Vec::new();
            let mut count = 0u64;
            while {
                buf.clear();
                reader.read_until(b'\n', &mut buf).unwrap() > 0
            } {
                let e: mplp_events::MapEvent = serde_json::from_slice(&buf).unwrap();
                count += u64::from(e.event_id.as_uuid().get_version_num() == 4);
            }
            count
        });
        assert_eq!(count, events);
        best(&mut best_typed, wall, cpu);

        reset_hwm();
        let (report, wall, cpu) = timed(|| {
            mplp_events::log::validate_map_log(BufReader::with_capacity(
                1 << 16,
                File::open(&path).unwrap(),
            ))
        });
        best(&mut best_validate, wall, cpu);
        assert!(report.is_empty(), "{:?}", report.violations().first());
        hwm_validate = hwm_validate.max(vm_hwm_kib().unwrap_or(0));
    }
    let _ = std::fs::remove_file(&path);

    let value_mbs = mb / best_value.0;
    let validate_mbs = mb / best_validate.0;
    println!(
        "serde_json::Value parse : {value_mbs:8.1} MB/s ({:.3} s wall, {:.3} s CPU, best of {rounds})",
        best_value.0, best_value.1
    );
    println!(
        "typed MapEvent parse    : {:8.1} MB/s ({:.3} s wall, {:.3} s CPU)",
        mb / best_typed.0,
        best_typed.0,
        best_typed.1
    );
    println!(
        "validate_map_log        : {validate_mbs:8.1} MB/s ({:.3} s wall, {:.3} s CPU, best of {rounds})",
        best_validate.0, best_validate.1
    );
    println!("ratio validate / Value  : {:.2}x", validate_mbs / value_mbs);
    println!(
        "ratio validate / Value, CPU time: {:.2}x",
        best_value.1 / best_validate.1
    );
    println!(
        "peak memory (VmHWM) during validation: {:.1} MiB",
        hwm_validate as f64 / 1024.0
    );
}
