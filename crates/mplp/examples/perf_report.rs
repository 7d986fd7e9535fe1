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
//! **Logs through the CLI** (whole processes): with `PERF_REPORT_MPLP` set
//! to one or more `mplp` binaries (`LABEL=PATH,LABEL=PATH`, e.g. a build of
//! main and one of a branch), the example also writes a MAP log and an SA
//! log of `PERF_REPORT_CLI_EVENTS` events (default 1,000,000) to temporary
//! files and times, round after round and interleaved, `mplp validate FILE`
//! (default settings) with each binary and the per-line `Value` parse of the
//! same file by this example's own binary (`perf_report --value-lines FILE`:
//! a `BufReader` of 64 KiB, each line into a `serde_json::Value`), built in
//! the same run. Each figure is the median of the rounds: CPU time (user +
//! system, from `/usr/bin/time`), wall time, and the peak resident memory.
//!
//! `perf_report --write-logs EVENTS DIR` writes those two logs to
//! `DIR/map.ndjson` and `DIR/sa.ndjson` and stops.
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
    let raw: Vec<String> = std::env::args().skip(1).collect();
    match &raw[..] {
        [flag, path] if flag == "--value-lines" => {
            value_lines(path);
            return;
        }
        // The logs of the CLI rows, kept (for measurements by hand).
        [flag, events, dir] if flag == "--write-logs" => {
            let n = events.parse().expect("EVENTS: a number");
            let dir = std::path::Path::new(dir);
            let map = common::write_map_log(&dir.join("map.ndjson"), n);
            let sa = common::write_sa_log(&dir.join("sa.ndjson"), n);
            println!("{map} MAP events, {sa} SA events in {}", dir.display());
            return;
        }
        _ => {}
    }
    let args: Vec<u64> = raw
        .iter()
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
                    let (ns, reads) = common::time_counted(&input, contender, budget);
                    println!(
                        "{}: {contender}: {ns:.0} ns per read ({reads} reads)",
                        input.label
                    );
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
    if let Ok(bins) = std::env::var("PERF_REPORT_MPLP") {
        cli_logs(&bins, rounds);
    }
}

/// The per-line `Value` parse program: every line of the file at `path`
/// into a `serde_json::Value` (what a program that reads a log without
/// validating it does); prints the number of objects.
fn value_lines(path: &str) {
    use std::io::BufRead;
    let file = std::fs::File::open(path).expect("the log to parse");
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let mut line = Vec::new();
    let mut objects = 0u64;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).expect("readable") == 0 {
            break;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let v: serde_json::Value = serde_json::from_slice(&line).expect("a JSON line");
        objects += u64::from(v.is_object());
    }
    println!("{objects}");
}

/// One whole process: CPU seconds (user + system), wall seconds, peak RSS
/// in MiB. Exits non-zero: the example stops.
fn run_process(program: &str, args: &[&str]) -> (f64, f64, f64) {
    let started = std::time::Instant::now();
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "PERF %U %S %M"])
        .arg(program)
        .args(args)
        .output()
        .expect("/usr/bin/time runs");
    let wall = started.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .rev()
        .find(|l| l.starts_with("PERF "))
        .expect("the figures of /usr/bin/time");
    let f: Vec<f64> = line[5..]
        .split(' ')
        .map(|x| x.parse().expect("a number"))
        .collect();
    (f[0] + f[1], wall, f[2] / 1024.0)
}

/// The log rows through the CLI: `mplp validate FILE` with each binary of
/// `bins` (`LABEL=PATH,...`) against the per-line `Value` parse, whole
/// processes, interleaved, medians of `rounds`.
fn cli_logs(bins: &str, rounds: usize) {
    let bins: Vec<(&str, &str)> = bins
        .split(',')
        .map(|b| b.split_once('=').unwrap_or(("mplp", b)))
        .collect();
    let events: u64 = std::env::var("PERF_REPORT_CLI_EVENTS")
        .ok()
        .map_or(1_000_000, |n| {
            n.parse().expect("PERF_REPORT_CLI_EVENTS: a number")
        });
    let me = std::env::current_exe().expect("this example's path");
    let me = me.to_str().expect("a UTF-8 path");
    let dir = std::env::temp_dir();
    let map = dir.join(format!("perf-report-{}-map.ndjson", std::process::id()));
    let sa = dir.join(format!("perf-report-{}-sa.ndjson", std::process::id()));
    let map_events = common::write_map_log(&map, events);
    let sa_events = common::write_sa_log(&sa, events);
    println!(
        "\nLogs through the CLI: whole processes, {rounds} interleaved rounds, medians; \
         ratio = CPU time (user + system) of the per-line `Value` parse / CPU time of `mplp validate FILE`\n"
    );
    print!("| log | size | `Value` per line: CPU s, wall s, peak MiB |");
    for (label, _) in &bins {
        print!(" `mplp validate` ({label}): ratio, CPU s, wall s, peak MiB |");
    }
    println!();
    println!("|---|---|---|{}", "---|".repeat(bins.len()));
    for (label, path, n) in [("MAP log", &map, map_events), ("SA log", &sa, sa_events)] {
        let file = path.to_str().expect("a UTF-8 path");
        let size = std::fs::metadata(path).map_or(0, |m| m.len()) as f64 / 1e6;
        // Warm the page cache.
        let _ = std::fs::read(path);
        let mut samples: Vec<Vec<(f64, f64, f64)>> = vec![Vec::new(); bins.len() + 1];
        for r in 0..rounds {
            for k in 0..=bins.len() {
                let i = (r + k) % (bins.len() + 1);
                let figures = if i == 0 {
                    run_process(me, &["--value-lines", file])
                } else {
                    run_process(bins[i - 1].1, &["validate", file])
                };
                samples[i].push(figures);
            }
        }
        let median = |s: &[(f64, f64, f64)]| {
            let pick = |f: fn(&(f64, f64, f64)) -> f64| {
                let mut v: Vec<f64> = s.iter().map(f).collect();
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            (pick(|x| x.0), pick(|x| x.1), pick(|x| x.2))
        };
        let value = median(&samples[0]);
        print!(
            "| {label}, {n} events | {size:.0} MB | {:.2}, {:.2}, {:.1} |",
            value.0, value.1, value.2
        );
        for s in &samples[1..] {
            let m = median(s);
            print!(
                " **{:.2}**, {:.2}, {:.2}, {:.1} |",
                value.0 / m.0,
                m.0,
                m.1,
                m.2
            );
        }
        println!();
    }
    let _ = std::fs::remove_file(&map);
    let _ = std::fs::remove_file(&sa);
}
