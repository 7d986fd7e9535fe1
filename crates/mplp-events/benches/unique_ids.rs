//! The unique-event-id tracker (`log_unique_event_ids`) on 10^5, 10^6 and
//! 10^7 distinct random v4 ids, with `mplp_check`'s default window (229,376
//! ids: what `mplp validate` uses) and this crate's (917,504): the time per
//! id is the time shown divided by the number of ids (criterion prints it as
//! throughput, ids per second). The time is the thread's CPU time (Linux
//! `schedstat`; wall time elsewhere), so that other processes sharing the
//! cores do not count.
//!
//! `cargo bench -p mplp-events --bench unique_ids -- --warm-up-time 1 --measurement-time 5`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // a benchmark binary

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mplp_events::unique_ids::{DEFAULT_EVENT_ID_WINDOW, UniqueIds};
use uuid::Uuid;

/// `mplp_check::DEFAULT_EVENT_ID_WINDOW` (mplp-check depends on this crate).
const CHECK_WINDOW: usize = (1 << 18) / 8 * 7;

/// `n` random v4 ids (xorshift: a fixed sequence, no system randomness).
fn ids(n: usize) -> Vec<Uuid> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            let bytes = (u128::from(next()) << 64 | u128::from(next())).to_le_bytes();
            uuid::Builder::from_random_bytes(bytes).into_uuid()
        })
        .collect()
}

/// The CPU time of this thread (Linux `schedstat`), `None` elsewhere.
fn cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        s.split_whitespace().next()?.parse().ok()?,
    ))
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("unique_ids");
    g.sample_size(10);
    for n in [100_000usize, 1_000_000, 10_000_000] {
        let ids = ids(n);
        g.throughput(Throughput::Elements(n as u64));
        for (name, window) in [
            ("check_window", CHECK_WINDOW),
            ("events_window", DEFAULT_EVENT_ID_WINDOW),
        ] {
            g.bench_with_input(BenchmarkId::new(name, n), &ids, |b, ids| {
                b.iter_custom(|iterations| {
                    let mut spent = Duration::ZERO;
                    for _ in 0..iterations {
                        let (started, wall) = (cpu_time(), Instant::now());
                        let mut t = UniqueIds::with_window(window);
                        let mut repeats = 0u32;
                        for (line, id) in (1u64..).zip(ids) {
                            repeats += u32::from(t.see(*id, line).is_some());
                        }
                        black_box(t.len());
                        drop(t);
                        spent += match (started, cpu_time()) {
                            (Some(a), Some(b)) => b.saturating_sub(a),
                            _ => wall.elapsed(),
                        };
                        assert_eq!(repeats, 0);
                    }
                    spent
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
