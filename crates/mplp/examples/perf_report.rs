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
//! the same run. Beside them stands the same reading with each line only
//! scanned (`perf_report --scan-lines FILE`: `serde_json::from_slice::<IgnoredAny>`),
//! the cost of reading the lines with serde_json and keeping nothing, as
//! the documents' table has it. Each figure is the median of the rounds: CPU time (user +
//! system, from `/usr/bin/time`), wall time, and the peak resident memory.
//! Beside the ratio of the medians stand the median of the rounds' own
//! ratios (each `Value` run against the same round's run of the binary)
//! and the ratio of the minima: on a shared machine whose load moves within
//! the run the three part, and the minima are the programs' cost when it
//! was least loaded.
//!
//! `perf_report --write-logs EVENTS DIR` writes those two logs to
//! `DIR/map.ndjson` and `DIR/sa.ndjson` and stops; `perf_report
//! --write-docs DIR` writes the table's documents (`plan-10.json`, ...,
//! `collab-8.json`), which `crates/mplp-py/bench/bench.py --docs DIR` times
//! in Python (against `json.loads` and `orjson.loads`).
//!
//! **The runtimes** (always printed, after the documents): the cost per
//! step of `SaSession` (a chain plan of `PERF_REPORT_SA_STEPS` steps, default
//! 1,000, a no-op executor, `MemoryStore`, a sink that drops events) and
//! per turn of `MapSession` (round robin over 3 participants,
//! `PERF_REPORT_MAP_TURNS` turns, default 1,000, a no-op agent, the system
//! clock, a sink that drops events), each against the `Value` parse of the
//! NDJSON log that the same run writes (every line into a
//! `serde_json::Value`): ratio = time of that parse / time of the run, so
//! 1.0 means a step or turn costs what parsing its own events costs. Rounds
//! are interleaved on the same heap states as the documents; medians.
//!
//! `perf_report --reads READS CONTENDER PREFIX` reads each row whose label
//! starts with `PREFIX` exactly `READS` times with `CONTENDER` (`value`,
//! `validate_json`, `mplp_validate`, ...), for instruction counts, which
//! the load of a shared machine does not move:
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*counted_reads*'
//! perf_report --reads 200 validate_json "plan, 10 "` (instructions / reads;
//! the same with `value` gives the baseline).
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

#[path = "../../../tests/support/chain_plan.rs"]
mod chain_plan;

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    match &raw[..] {
        [flag, path] if flag == "--value-lines" => {
            value_lines(path);
            return;
        }
        [flag, path] if flag == "--scan-lines" => {
            scan_lines(path);
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
        // The documents of the table, for the Python bench
        // (`crates/mplp-py/bench/bench.py --docs DIR`): one file per row,
        // named after its kind and size (`plan-10.json`, `collab-8.json`).
        [flag, dir] if flag == "--write-docs" => {
            let dir = std::path::Path::new(dir);
            std::fs::create_dir_all(dir).unwrap();
            for input in common::inputs(1) {
                let kind = match input.kind {
                    common::Kind::Plan => "plan",
                    common::Kind::Dialog => "dialog",
                    common::Kind::Collab => "collab",
                    common::Kind::MapLog | common::Kind::SaLog => continue,
                };
                let n = input.label.split(' ').nth(1).expect("a size in the label");
                let path = dir.join(format!("{kind}-{n}.json"));
                std::fs::write(&path, &input.bytes).unwrap();
                println!("{}", path.display());
            }
            return;
        }
        // A fixed number of reads of the rows whose label starts with
        // PREFIX, for instruction counts (see `common::counted_reads`).
        [flag, reads, contender, prefix] if flag == "--reads" => {
            let reads = reads.parse().expect("READS: a number");
            for input in common::inputs(100) {
                if input.label.starts_with(prefix.as_str()) {
                    let valid = common::counted_reads(&input, contender, reads);
                    println!("{}: {contender}: {reads} reads, {valid} valid", input.label);
                }
            }
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
    runtimes(rounds, budget);
    if let Ok(bins) = std::env::var("PERF_REPORT_MPLP") {
        cli_logs(&bins, rounds);
    }
}

/// A number from the environment variable `name`, or `default`.
fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name).ok().map_or(default, |n| {
        n.parse()
            .unwrap_or_else(|_| panic!("{name}: a number, not {n:?}"))
    })
}

/// One run of a runtime: the session built and driven to the end. Returns
/// the NDJSON log it wrote when `keep` (for the baseline), else nothing
/// (the events are dropped as they come, as a runtime that only needs the
/// store does).
trait RuntimeRow {
    /// The row's label.
    fn label(&self) -> String;
    /// Steps or turns per run.
    fn units(&self) -> usize;
    /// Runs once, timing only the session (not building its inputs).
    fn timed_run(&self) -> Duration;
    /// The log one run writes.
    fn log(&self) -> Vec<u8>;
}

/// `SaSession` over a chain of `steps` steps.
struct SaRow {
    steps: usize,
}

impl SaRow {
    fn noop(_: &mplp_runtime::StepRequest<'_>) -> mplp_runtime::StepResult {
        mplp_runtime::StepResult::done()
    }
}

impl RuntimeRow for SaRow {
    fn label(&self) -> String {
        format!("`SaSession`, {} steps (per step)", self.steps)
    }
    fn units(&self) -> usize {
        self.steps
    }
    fn timed_run(&self) -> Duration {
        // The session is dropped outside the timing (as the documents'
        // reads drop nothing they keep).
        self.run().0
    }
    fn log(&self) -> Vec<u8> {
        self.run().1.store().ndjson()
    }
}

/// The session `SaRow` runs.
type Sa = mplp_runtime::SaSession<mplp::events::log::NullSink, mplp_runtime::store::MemoryStore>;

impl SaRow {
    /// One run to the end: the time it took (not building its inputs) and
    /// the session.
    fn run(&self) -> (Duration, Sa) {
        use mplp_runtime::{AutoApprove, store::MemoryStore};
        let (c, p) = chain_plan::chain(self.steps);
        let started = std::time::Instant::now();
        let mut s = Sa::new(
            c,
            p,
            mplp::events::log::NullSink::default(),
            MemoryStore::new(),
        )
        .unwrap();
        s.run(&mut Self::noop, &mut AutoApprove::default()).unwrap();
        (started.elapsed(), s)
    }
}

/// `MapSession`, round robin over 3 participants, `turns` turns.
struct MapRow {
    turns: usize,
}

impl MapRow {
    fn drive<K: mplp::events::log::EventSink<mplp::events::MapEvent>>(
        &self,
        s: &mut mplp::collab::runtime::MapSession<K>,
    ) {
        use mplp::collab::runtime::{SessionError, TurnContext, TurnOutcome};
        let mut agent = |_: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
            Ok(TurnOutcome::completed())
        };
        s.start().unwrap();
        for _ in 0..self.turns {
            s.turn(&mut agent).unwrap();
        }
        s.complete().unwrap();
    }
}

impl RuntimeRow for MapRow {
    fn label(&self) -> String {
        format!("`MapSession`, round robin, {} turns (per turn)", self.turns)
    }
    fn units(&self) -> usize {
        self.turns
    }
    fn timed_run(&self) -> Duration {
        let collab = common::collab(3);
        let started = std::time::Instant::now();
        let mut s =
            mplp::collab::runtime::MapSession::new(collab, mplp::events::log::NullSink::default())
                .unwrap();
        self.drive(&mut s);
        let took = started.elapsed();
        std::hint::black_box(s);
        took
    }
    fn log(&self) -> Vec<u8> {
        let mut s = mplp::collab::runtime::MapSession::new(
            common::collab(3),
            mplp::collab::sink::MemorySink::new(),
        )
        .unwrap();
        self.drive(&mut s);
        s.sink().to_ndjson().into_bytes()
    }
}

/// Every line of an NDJSON log into a `Value`; the time it took.
fn value_parse(log: &[u8]) -> Duration {
    let started = std::time::Instant::now();
    let mut objects = 0usize;
    for line in log.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let v: serde_json::Value = serde_json::from_slice(line).unwrap();
        objects += usize::from(v.is_object());
    }
    let took = started.elapsed();
    assert!(objects > 0, "the runtime wrote no event");
    std::hint::black_box(objects);
    took
}

/// The runtime rows: µs per step or turn, the `Value` parse of the run's
/// own log per step or turn, and their ratio (interleaved rounds on the
/// documents' heap states, medians; within a round, as many runs as fit in
/// `budget`, at least one, and the fastest kept).
fn runtimes(rounds: usize, budget: Duration) {
    let rows: Vec<Box<dyn RuntimeRow>> = vec![
        Box::new(SaRow {
            steps: env_count("PERF_REPORT_SA_STEPS", 1_000),
        }),
        Box::new(MapRow {
            turns: env_count("PERF_REPORT_MAP_TURNS", 1_000),
        }),
    ];
    println!(
        "\nRuntimes: ratio = time of the `Value` parse of the log the run writes / time of the run \
         ({rounds} interleaved rounds, medians)\n"
    );
    println!(
        "| runtime | events per unit | µs per unit | `Value` parse of its log, µs per unit | ratio |"
    );
    println!("|---|---|---|---|---|");
    for row in rows {
        let log = row.log();
        let events = log.split(|b| *b == b'\n').filter(|l| !l.is_empty()).count();
        // One unmeasured run first: the first session of a process pays
        // one-time costs (page faults, lazily built tables).
        let _ = row.timed_run();
        let (mut runs, mut parses) = (Vec::new(), Vec::new());
        for r in 0..rounds {
            let _heap = common::heap_state(r);
            let best = |f: &dyn Fn() -> Duration| {
                let started = std::time::Instant::now();
                let mut best = f();
                while started.elapsed() < budget {
                    best = best.min(f());
                }
                best.as_secs_f64()
            };
            if r % 2 == 0 {
                runs.push(best(&|| row.timed_run()));
                parses.push(best(&|| value_parse(&log)));
            } else {
                parses.push(best(&|| value_parse(&log)));
                runs.push(best(&|| row.timed_run()));
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (run, parse) = (median(&mut runs), median(&mut parses));
        let units = row.units() as f64;
        println!(
            "| {} | {:.2} | {:.2} | {:.2} | {:.2} |",
            row.label(),
            events as f64 / units,
            run * 1e6 / units,
            parse * 1e6 / units,
            parse / run,
        );
    }
}

/// The per-line `Value` parse program: every line of the file at `path`
/// into a `serde_json::Value` (what a program that reads a log without
/// validating it does); prints the number of objects.
fn value_lines(path: &str) {
    let objects = each_line(path, |line| {
        let v: serde_json::Value = serde_json::from_slice(line).expect("a JSON line");
        u64::from(v.is_object())
    });
    println!("{objects}");
}

/// `--scan-lines FILE`: the same reading as [`value_lines`], each line
/// scanned with `serde_json::from_slice::<IgnoredAny>` (the JSON read and
/// checked, nothing kept): the cost of reading a log's lines with
/// serde_json and nothing else, the floor of any validator built on it.
fn scan_lines(path: &str) {
    let lines = each_line(path, |line| {
        let _: serde::de::IgnoredAny = serde_json::from_slice(line).expect("a JSON line");
        1
    });
    println!("{lines}");
}

/// Calls `f` on every non-blank line of the file at `path` (a `BufReader`
/// of 64 KiB, `read_until` of each line), and sums what it returns.
fn each_line(path: &str, mut f: impl FnMut(&[u8]) -> u64) -> u64 {
    use std::io::BufRead;
    let file = std::fs::File::open(path).expect("the log to parse");
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let mut line = Vec::new();
    let mut sum = 0u64;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).expect("readable") == 0 {
            break;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        sum += f(&line);
    }
    sum
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
/// `bins` (`LABEL=PATH,...`), and the per-line `IgnoredAny` scan, against
/// the per-line `Value` parse, whole processes, interleaved, medians of
/// `rounds`.
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
         ratio = CPU time (user + system) of the per-line `Value` parse / CPU time of the contender \
         (the per-line `IgnoredAny` scan, `mplp validate FILE`): \
         of the medians, then (in brackets) the median of the rounds' own ratios and the ratio of the minima. \
         On a shared machine the three part when the load moves during the run (see docs/spec-notes.md, \
         \"Stop 57\")\n"
    );
    print!(
        "| log | size | `Value` per line: CPU s, wall s, peak MiB | `IgnoredAny` per line: ratio (of rounds, of minima), CPU s, wall s, peak MiB |"
    );
    for (label, _) in &bins {
        print!(
            " `mplp validate` ({label}): ratio (of rounds, of minima), CPU s, wall s, peak MiB |"
        );
    }
    println!();
    println!("|---|---|---|---|{}", "---|".repeat(bins.len()));
    for (label, path, n) in [("MAP log", &map, map_events), ("SA log", &sa, sa_events)] {
        let file = path.to_str().expect("a UTF-8 path");
        let size = std::fs::metadata(path).map_or(0, |m| m.len()) as f64 / 1e6;
        // Warm the page cache.
        let _ = std::fs::read(path);
        // Contender 0 is the `Value` parse, 1 the `IgnoredAny` scan, then
        // the binaries; each round starts with the next one.
        let contenders = bins.len() + 2;
        let mut samples: Vec<Vec<(f64, f64, f64)>> = vec![Vec::new(); contenders];
        for r in 0..rounds {
            for k in 0..contenders {
                let i = (r + k) % contenders;
                let figures = match i {
                    0 => run_process(me, &["--value-lines", file]),
                    1 => run_process(me, &["--scan-lines", file]),
                    _ => run_process(bins[i - 2].1, &["validate", file]),
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
        let lowest = |s: &[(f64, f64, f64)]| s.iter().map(|x| x.0).fold(f64::INFINITY, f64::min);
        for s in &samples[1..] {
            let m = median(s);
            // The rounds' own ratios: each `Value` run against this
            // contender's run (the scan or a binary) in the same round.
            let mut pairs: Vec<f64> = samples[0].iter().zip(s).map(|(v, b)| v.0 / b.0).collect();
            pairs.sort_by(f64::total_cmp);
            print!(
                " **{:.2}** ({:.2}, {:.2}), {:.2}, {:.2}, {:.1} |",
                value.0 / m.0,
                pairs[pairs.len() / 2],
                lowest(&samples[0]) / lowest(s),
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
