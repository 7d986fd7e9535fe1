//! `cargo xtask peak-memory`: the peak resident memory (VmHWM) of real
//! `mplp` processes on large and hostile input.
//!
//! ```text
//! cargo build --release -p mplp-cli
//! cargo xtask peak-memory [--bin target/release/mplp] [--log-mib 1024]
//!                         [--bad-lines 1000000] [--endless-seconds 30] [--dialog-mib 64]
//! ```
//!
//! Each scenario runs `mplp` as a child process, feeds its standard input
//! from this process, drains its output, and reads the child's
//! `/proc/PID/status` `VmHWM` (the kernel's high-water mark of resident
//! memory) until it exits: the figure is the largest value read, which the
//! kernel only ever raises. Linux only.
//!
//! Scenarios: a generated MAP log of `--log-mib` MiB (concatenated
//! `mplp collab simulate` sessions) piped to `validate --kind map-log -`;
//! `--bad-lines` lines that are all errors in JSON mode; an endless
//! `{}` stream for `--endless-seconds` (then the child is killed); and
//! `dialog prune` on a dialog of `--dialog-mib` MiB (the figure there is the
//! factor peak / input size).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: cargo xtask peak-memory [--bin PATH] [--log-mib N] [--bad-lines N] [--endless-seconds S] [--dialog-mib N]";

struct Options {
    bin: PathBuf,
    log_mib: u64,
    bad_lines: u64,
    endless_seconds: u64,
    dialog_mib: u64,
}

/// The entry point of `cargo xtask peak-memory ARGS`.
pub(crate) fn main(args: &[String], root: &Path) -> ExitCode {
    let mut o = Options {
        bin: root.join("target/release/mplp"),
        log_mib: 1024,
        bad_lines: 1_000_000,
        endless_seconds: 30,
        dialog_mib: 64,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let Some(value) = it.next() else {
            eprintln!("{arg} needs a value\n{USAGE}");
            return ExitCode::from(2);
        };
        let number = || value.parse::<u64>().map_err(|e| format!("{arg}: {e}"));
        let parsed = match arg.as_str() {
            "--bin" => {
                o.bin = PathBuf::from(value);
                Ok(())
            }
            "--log-mib" => number().map(|n| o.log_mib = n),
            "--bad-lines" => number().map(|n| o.bad_lines = n),
            "--endless-seconds" => number().map(|n| o.endless_seconds = n),
            "--dialog-mib" => number().map(|n| o.dialog_mib = n),
            _ => Err(format!("unknown option `{arg}`\n{USAGE}")),
        };
        if let Err(e) = parsed {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    }
    if !o.bin.exists() {
        eprintln!(
            "peak-memory: {} not found (cargo build --release -p mplp-cli)",
            o.bin.display()
        );
        return ExitCode::from(2);
    }
    match run(&o) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("peak-memory: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What one scenario measured.
struct Measured {
    peak_kib: u64,
    fed: u64,
    out: u64,
    status: Option<i32>,
    seconds: f64,
}

fn run(o: &Options) -> Result<(), String> {
    println!("scenario | input | output | exit | peak VmHWM | time");
    // 1. A big valid log through standard input.
    let target = o.log_mib << 20;
    let log = measure(
        Command::new(&o.bin).args(["validate", "--kind", "map-log", "-"]),
        |stdin| {
            let mut fed = 0u64;
            let mut seed = 0u64;
            while fed < target {
                let session = Command::new(&o.bin)
                    .args(["collab", "simulate", "--mode", "round_robin"])
                    .args(["--participants", "5", "--turns", "100000"])
                    .args(["--seed", &seed.to_string()])
                    .output()
                    .map_err(|e| e.to_string())?;
                stdin
                    .write_all(&session.stdout)
                    .map_err(|e| e.to_string())?;
                fed += session.stdout.len() as u64;
                seed += 1;
            }
            Ok(fed)
        },
        None,
    )?;
    print_row("validate --kind map-log - (valid log)", &log);
    // 2. Lines that are all errors, JSON output.
    let bad = measure(
        Command::new(&o.bin).args(["validate", "--kind", "map-log", "--format", "json", "-"]),
        |stdin| {
            let chunk = "{\"x\":1}\n".repeat(10_000);
            let mut fed = 0u64;
            for _ in 0..o.bad_lines / 10_000 {
                stdin
                    .write_all(chunk.as_bytes())
                    .map_err(|e| e.to_string())?;
                fed += chunk.len() as u64;
            }
            Ok(fed)
        },
        None,
    )?;
    print_row(
        &format!("validate --format json ({} bad lines)", o.bad_lines),
        &bad,
    );
    // 3. An endless stream of `{}` lines, stopped after a while.
    let endless = measure(
        Command::new(&o.bin).args(["validate", "--kind", "map-log", "-"]),
        |stdin| {
            let chunk = "{}\n".repeat(100_000);
            let mut fed = 0u64;
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(o.endless_seconds) {
                if stdin.write_all(chunk.as_bytes()).is_err() {
                    break;
                }
                fed += chunk.len() as u64;
            }
            Ok(fed)
        },
        Some(Duration::from_secs(o.endless_seconds)),
    )?;
    print_row(
        &format!(
            "validate - (endless {{}} for {} s, killed)",
            o.endless_seconds
        ),
        &endless,
    );
    // 4. dialog prune on a big dialog.
    let dialog = big_dialog(o.dialog_mib << 20);
    let prune = measure(
        Command::new(&o.bin).args(["dialog", "prune", "--max-tokens", "100000", "-"]),
        |stdin| {
            stdin.write_all(&dialog).map_err(|e| e.to_string())?;
            Ok(dialog.len() as u64)
        },
        None,
    )?;
    print_row("dialog prune --max-tokens 100000", &prune);
    println!(
        "dialog prune: peak / input = {:.2}",
        (prune.peak_kib << 10) as f64 / dialog.len() as f64
    );
    Ok(())
}

fn print_row(what: &str, m: &Measured) {
    println!(
        "{what} | {:.1} MiB | {:.1} MiB | {:?} | {:.1} MiB | {:.1} s",
        m.fed as f64 / 1048576.0,
        m.out as f64 / 1048576.0,
        m.status,
        m.peak_kib as f64 / 1024.0,
        m.seconds
    );
}

/// Runs `cmd`, feeding its standard input with `feed` (on a thread), and
/// returns the peak VmHWM read while it ran. With `kill_after`, the child
/// is killed once feeding is done.
fn measure(
    cmd: &mut Command,
    feed: impl FnOnce(&mut std::process::ChildStdin) -> Result<u64, String>,
    kill_after: Option<Duration>,
) -> Result<Measured, String> {
    let start = Instant::now();
    let mut child: Child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start mplp: {e}"))?;
    let pid = child.id();
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    let peak = std::sync::atomic::AtomicU64::new(0);
    let done = std::sync::atomic::AtomicBool::new(false);
    let (fed, out) = std::thread::scope(|s| {
        let drain = s.spawn(|| {
            let mut buf = vec![0u8; 1 << 16];
            let mut n = 0u64;
            while let Ok(k) = stdout.read(&mut buf) {
                if k == 0 {
                    break;
                }
                n += k as u64;
            }
            n
        });
        let poll = s.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                if let Some(kib) = vm_hwm_kib(pid) {
                    peak.fetch_max(kib, std::sync::atomic::Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let fed = feed(&mut stdin);
        drop(stdin);
        if kill_after.is_some() {
            if let Some(kib) = vm_hwm_kib(pid) {
                peak.fetch_max(kib, std::sync::atomic::Ordering::Relaxed);
            }
            let _ = child.kill();
        }
        let out = drain.join().unwrap_or(0);
        // The child has closed its output: it is exiting; poll until then.
        let _ = child.wait();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        let _ = poll.join();
        (fed, out)
    });
    let status = child.wait().map_err(|e| e.to_string())?.code();
    Ok(Measured {
        peak_kib: peak.into_inner(),
        fed: fed?,
        out,
        status,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// `VmHWM` of process `pid`, in KiB.
fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A valid active dialog of about `bytes` bytes: many short messages and
/// one long one in the middle.
fn big_dialog(bytes: u64) -> Vec<u8> {
    let mut out = String::from(
        r#"{"meta":{"protocol_version":"1.0.0","schema_version":"1.0.0"},"dialog_id":"36398c50-7383-4f61-b96f-4525123599da","context_id":"0ddb0a8e-a488-47b1-8fbc-0133d0a359a2","status":"active","started_at":"2025-12-07T00:00:00Z","messages":["#,
    );
    let short = r#"{"role":"user","content":"Please look at invoice INV-2025-12-0042 again, it was charged twice.","timestamp":"2025-12-07T00:00:01Z"}"#;
    let half = bytes / 2;
    let mut first = true;
    while (out.len() as u64) < half {
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(short);
    }
    out.push_str(r#",{"role":"assistant","content":""#);
    let long = (bytes / 4) as usize;
    out.push_str(&"word ".repeat(long / 5));
    out.push_str(r#"","timestamp":"2025-12-07T00:00:02Z"}"#);
    while (out.len() as u64) < bytes {
        out.push(',');
        out.push_str(short);
    }
    out.push_str("]}");
    out.into_bytes()
}
