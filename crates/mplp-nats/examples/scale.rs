//! Sessions over one local nats-server against the in-process `MapSession`:
//! events per second and turn latency for 1, 10, 100 and 1,000 concurrent
//! sessions (each: round robin, 3 participants, 10 turns, agents in this
//! process, every event published to JetStream and acknowledged), as ratios
//! to the same workload in process; and the memory of an idle session.
//!
//! ```text
//! cargo run --release -p mplp-nats --example scale [-- --max 1000] [--batch 8]
//! ```
//!
//! With `--batch N` (N > 1) each size also runs with `BrokerSink::with_batch(N)`
//! (N events published together, their acknowledgements awaited together)
//! and prints its gain over one acknowledgement per event.
//!
//! Starts its own `nats-server -js` on 127.0.0.1 (a free port, a temporary
//! store), or uses `MPLP_NATS_URL` when set.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // an example

use std::time::{Duration, Instant};

use futures_util::future::join_all;
use mplp_collab::Collab;
use mplp_collab::runtime::async_session::AsyncMapSession;
use mplp_collab::runtime::{MapSession, SessionError, TurnContext, TurnOutcome};
use mplp_collab::sink::NullSink;
use mplp_core::{CollabMode, ContextId};
use mplp_nats::{BrokerSink, NatsTransport, Subjects};

#[path = "../../../tests/support/nats_server.rs"]
mod nats_server;

const TURNS: usize = 10;

fn collab() -> Collab {
    Collab::of_agents(
        ContextId::new(),
        "bench",
        "scale",
        CollabMode::RoundRobin,
        3,
    )
    .unwrap()
}

fn agent(t: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
    t.write("doc", serde_json::json!(t.turn_number()))?;
    Ok(TurnOutcome::completed())
}

/// Events of one session of the workload: started, roles, 2 per turn, completed.
const EVENTS: usize = 3 + 2 * TURNS;

/// In process: (events per second, mean turn latency).
fn in_process(sessions: usize) -> (f64, Duration) {
    let start = Instant::now();
    let mut turn_time = Duration::ZERO;
    for _ in 0..sessions {
        let mut s = MapSession::new(collab(), NullSink::default()).unwrap();
        s.start().unwrap();
        for _ in 0..TURNS {
            let t = Instant::now();
            s.turn(&mut agent).unwrap();
            turn_time += t.elapsed();
        }
        s.complete().unwrap();
    }
    let secs = start.elapsed().as_secs_f64();
    (
        (sessions * EVENTS) as f64 / secs,
        turn_time / (sessions * TURNS) as u32,
    )
}

/// Over NATS, all sessions concurrently on one thread.
async fn over_nats(
    transport: &NatsTransport,
    subjects: &Subjects,
    sessions: usize,
    batch: usize,
) -> (f64, Duration) {
    let start = Instant::now();
    let runs = (0..sessions).map(|_| async {
        let mut s = AsyncMapSession::new(
            collab(),
            BrokerSink::new(transport.clone(), subjects.clone()).with_batch(batch),
        )
        .unwrap();
        s.start().await.unwrap();
        let mut turn_time = Duration::ZERO;
        for _ in 0..TURNS {
            let t = Instant::now();
            s.turn(&mut agent).await.unwrap();
            turn_time += t.elapsed();
        }
        s.complete().await.unwrap();
        turn_time
    });
    let times = join_all(runs).await;
    let secs = start.elapsed().as_secs_f64();
    let total: Duration = times.iter().sum();
    (
        (sessions * EVENTS) as f64 / secs,
        total / (sessions * TURNS) as u32,
    )
}

fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .nth(1)
                .and_then(|p| p.parse::<u64>().ok())
        })
        .map_or(0, |pages| pages * 4096)
}

fn main() {
    let max: usize = std::env::args()
        .skip_while(|a| a != "--max")
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let batch: usize = std::env::args()
        .skip_while(|a| a != "--batch")
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let (server, url) = nats_server::from_env_or_start();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = mplp_nats::async_nats::connect(&url).await.unwrap();
        let subjects = Subjects::default();
        let transport = NatsTransport::new(client, "MPLP_BENCH", &subjects).await.unwrap();
        // Memory of idle sessions (measured first, before the allocator holds
        // freed memory): started, waiting for their first turn.
        let idle = 1000;
        let before = rss_bytes();
        let mut sessions = Vec::with_capacity(idle);
        for _ in 0..idle {
            let mut s = AsyncMapSession::new(collab(), BrokerSink::new(transport.clone(), subjects.clone())).unwrap();
            s.start().await.unwrap();
            sessions.push(s);
        }
        let after = rss_bytes();
        println!("idle session: {} bytes each (RSS growth over {idle} started sessions)", after.saturating_sub(before) / idle as u64);
        drop(sessions);
        println!("sessions | in-process events/s | NATS events/s | ratio | in-process turn | NATS turn | ratio");
        for n in [1usize, 10, 100, 1000].into_iter().filter(|n| *n <= max) {
            let (base_eps, base_turn) = in_process(n);
            let (eps, turn) = over_nats(&transport, &subjects, n, 1).await;
            println!(
                "{n:>8} | {base_eps:>19.0} | {eps:>13.0} | {:>5.4} | {:>15?} | {:>9?} | {:>5.0}",
                eps / base_eps,
                base_turn,
                turn,
                turn.as_secs_f64() / base_turn.as_secs_f64().max(1e-9),
            );
            if batch > 1 {
                let (beps, bturn) = over_nats(&transport, &subjects, n, batch).await;
                println!(
                    "{n:>8} | batch {batch}: NATS events/s {beps:.0} ({:.2}x one ack per event), turn {bturn:?} ({:.2}x)",
                    beps / eps,
                    bturn.as_secs_f64() / turn.as_secs_f64().max(1e-9),
                );
            }
        }
    });
    // Stops our server and removes its store.
    drop(server);
}
