//! Memory of the repeated-event-id check (`log_unique_event_ids`) at N
//! events (default 10,000,000): with the default window, and with a window
//! large enough to track every id exactly. Prints, for each, the resident
//! memory the tracker added (Linux `VmRSS`) and the size its tables report,
//! in bytes per event.
//!
//! `cargo run --release -p mplp-events --example event_id_memory -- [N]`
#![allow(clippy::unwrap_used, clippy::expect_used)] // an example binary: failing loudly is right

use mplp_events::unique_ids::{DEFAULT_EVENT_ID_WINDOW, UniqueIds};
use uuid::Uuid;

fn vm_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn measure(label: &str, n: u64, window: usize) {
    let before = vm_rss_kib();
    let mut ids = UniqueIds::with_window(window);
    let mut repeats = 0u64;
    for line in 1..=n {
        if ids.see(Uuid::new_v4(), line).is_some() {
            repeats += 1;
        }
    }
    let after = vm_rss_kib();
    let table = ids.table_bytes() as f64;
    let rss = match (before, after) {
        (Some(b), Some(a)) => {
            let bytes = a.saturating_sub(b) as f64 * 1024.0;
            format!(
                "{:.1} MiB RSS = {:.1} B/event",
                bytes / 1048576.0,
                bytes / n as f64
            )
        }
        _ => "RSS n/a (not Linux)".to_owned(),
    };
    println!(
        "{label:<28} window {window:>10}: {} ids kept; {rss}; tables {:.1} MiB = {:.1} B/event; {repeats} repeats",
        ids.len(),
        table / 1048576.0,
        table / n as f64,
    );
    drop(ids);
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map_or(10_000_000, |a| a.parse().expect("N: a number of events"));
    println!("{n} events with random UUID v4 ids");
    measure("default (bounded) window", n, DEFAULT_EVENT_ID_WINDOW);
    measure(
        "exact (window >= N)",
        n,
        usize::try_from(n).unwrap_or(usize::MAX),
    );
}
