//! Peak memory of a simulated session, as the turns grow.
//!
//! One run: simulates a session and prints one line,
//! `mode participants turns sink events vmhwm_kib seconds`, where
//! `vmhwm_kib` is the process's peak resident set (`VmHWM` in
//! `/proc/self/status`, Linux only; `-` elsewhere):
//!
//! ```text
//! cargo run --release -p mplp-collab --example session_memory -- \
//!     --turns 1000000 [--mode round_robin] [--participants 3] [--seed 0] [--sink null|stdout]
//! ```
//!
//! `--sink null` drops the events ([`NullSink`]); `--sink stdout` writes the
//! NDJSON log to standard output as `mplp collab simulate` does (the line
//! then goes to standard error).
//!
//! The table: `--table` runs one process per mode and turn count (10^5,
//! 10^6 and 10^7 by default; `--counts 1000,10000` to choose), so that each
//! peak is its own; `--cli PATH` adds, for each, the peak of
//! `PATH collab simulate ... >/dev/null` (measured by GNU
//! `/usr/bin/time -f %M`, the same high-water mark).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use mplp_collab::simulate::{SimConfig, simulate};
use mplp_collab::sink::{NdjsonSink, NullSink};
use mplp_core::CollabMode;

struct Args {
    mode: CollabMode,
    participants: usize,
    turns: u64,
    seed: u64,
    sink: String,
    table: bool,
    counts: Vec<u64>,
    cli: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        mode: CollabMode::RoundRobin,
        participants: 3,
        turns: 100_000,
        seed: 0,
        sink: "null".to_owned(),
        table: false,
        counts: vec![100_000, 1_000_000, 10_000_000],
        cli: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--table" {
            args.table = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--mode" => args.mode = value.parse().map_err(|e| bad(&e))?,
            "--participants" => args.participants = value.parse().map_err(|e| bad(&e))?,
            "--turns" => args.turns = value.parse().map_err(|e| bad(&e))?,
            "--seed" => args.seed = value.parse().map_err(|e| bad(&e))?,
            "--sink" => args.sink = value,
            "--counts" => {
                args.counts = value
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .map_err(|e| bad(&e))?;
            }
            "--cli" => args.cli = Some(value),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(args)
}

/// The peak resident set of this process in KiB (`VmHWM`), if known.
fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn participants_for(mode: CollabMode, asked: usize) -> usize {
    if mode == CollabMode::Pair { 2 } else { asked }
}

fn run_once(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let n = participants_for(args.mode, args.participants);
    let config = SimConfig::new(args.mode, n, args.turns).with_seed(args.seed);
    let start = Instant::now();
    let (events, to_stderr) = match args.sink.as_str() {
        "null" => {
            let mut sink = NullSink::default();
            simulate(&config, &mut sink)?;
            (sink.count, false)
        }
        "stdout" => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let mut sink = NdjsonSink::new(&mut out);
            simulate(&config, &mut sink)?;
            let lines = sink.lines();
            out.flush()?;
            (lines, true)
        }
        other => return Err(format!("--sink {other}: null or stdout").into()),
    };
    let secs = start.elapsed().as_secs_f64();
    let hwm = vm_hwm_kib().map_or_else(|| "-".to_owned(), |k| k.to_string());
    let line = format!(
        "{} {n} {} {} {events} {hwm} {secs:.1}",
        args.mode, args.turns, args.sink
    );
    if to_stderr {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
    Ok(())
}

/// The peak of `cli collab simulate ...` writing to /dev/null, in KiB.
fn cli_peak(cli: &str, mode: CollabMode, n: usize, turns: u64, seed: u64) -> String {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M", cli, "collab", "simulate", "--mode"])
        .arg(mode.as_str())
        .args(["--participants", &n.to_string()])
        .args(["--turns", &turns.to_string()])
        .args(["--seed", &seed.to_string()])
        .stdout(Stdio::null())
        .output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stderr)
            .lines()
            .last()
            .unwrap_or("?")
            .trim()
            .to_owned(),
        Ok(o) => format!("exit {:?}", o.status.code()),
        Err(e) => format!("({e})"),
    }
}

fn table(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let me = std::env::current_exe()?;
    println!("| mode | turns | NullSink VmHWM (KiB) | seconds | CLI > /dev/null VmHWM (KiB) |");
    println!("|---|---|---|---|---|");
    for mode in CollabMode::ALL {
        let n = participants_for(*mode, args.participants);
        for turns in &args.counts {
            let o = Command::new(&me)
                .args(["--mode", mode.as_str()])
                .args(["--participants", &n.to_string()])
                .args(["--turns", &turns.to_string()])
                .args(["--seed", &args.seed.to_string()])
                .args(["--sink", "null"])
                .output()?;
            let text = String::from_utf8_lossy(&o.stdout);
            let fields: Vec<&str> = text.split_whitespace().collect();
            let (hwm, secs) = match fields.as_slice() {
                [.., hwm, secs] if o.status.success() => ((*hwm).to_owned(), (*secs).to_owned()),
                _ => (format!("exit {:?}", o.status.code()), "-".to_owned()),
            };
            let cli = args.cli.as_deref().map_or_else(
                || "-".to_owned(),
                |c| cli_peak(c, *mode, n, *turns, args.seed),
            );
            println!("| {mode} | {turns} | {hwm} | {secs} | {cli} |");
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    if args.table {
        table(&args)
    } else {
        run_once(&args)
    }
}
