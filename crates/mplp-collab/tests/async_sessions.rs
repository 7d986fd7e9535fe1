//! Async sessions (feature `tokio`): for the same seed, the async driver
//! with async agents and an async sink writes the log the blocking driver
//! writes, byte for byte, in every mode and whatever the caller does
//! (refused operations included); many async sessions run concurrently on
//! one thread; a failing async sink stops the session with `Sink`.
#![cfg(feature = "tokio")]
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

mod common;

use std::io;

use mplp_collab::conflict::{ConflictPolicy, Winner};
use mplp_collab::rng::SplitMix64;
use mplp_collab::runtime::async_session::{AsyncAgent, AsyncMapSession};
use mplp_collab::runtime::{
    Agent, MapSession, SessionError, TurnContext, TurnOutcome, WriteOutcome,
};
use mplp_collab::sink::{MemorySink, SimClock};
use mplp_collab::{Collab, Participant};
use mplp_core::{CollabMode, ContextId, JsonObject};
use mplp_events::MapEvent;
use mplp_events::log::async_io::{AsyncEventSink, AsyncLogWriter};
use proptest::prelude::*;
use serde_json::{Value, json};

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

/// What a participant does, decided by a seeded generator: fail, give up
/// with an error, write from a fresh or a stale read.
struct Behaviour {
    rng: SplitMix64,
    seen: Vec<Option<u64>>,
}

impl Behaviour {
    fn new(seed: u64) -> Self {
        Behaviour {
            rng: SplitMix64::new(seed),
            seen: vec![None; 8],
        }
    }

    fn act(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
        match self.rng.below(10) {
            0 => return Ok(TurnOutcome::failed("could not")),
            1 => {
                return Err(SessionError::Agent {
                    participant: turn.participant().participant_id.to_string(),
                    message: "model timed out".into(),
                });
            }
            _ => {}
        }
        let me = turn.holder();
        let value = json!({"by": turn.holder(), "turn": turn.turn_number()});
        let outcome = match self.seen.get(me).copied().flatten() {
            Some(v) if self.rng.chance(1, 2) => turn.write_at("doc", v, value)?,
            _ => turn.write("doc", value)?,
        };
        let version = match outcome {
            WriteOutcome::Written(v) => v,
            WriteOutcome::Resolved(r) => r.version,
        };
        self.seen[me] = Some(version);
        let mut result = JsonObject::new();
        result.insert("version", version);
        Ok(TurnOutcome::completed().with_result(result))
    }

    fn vote(&mut self, index: usize) -> JsonObject {
        let mut a = JsonObject::new();
        a.insert("vote", if self.rng.chance(2, 3) { "go" } else { "no" });
        a.insert("from", index as u64);
        a
    }
}

struct SyncAgent(Behaviour);

impl Agent for SyncAgent {
    fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
        self.0.act(turn)
    }
    fn answer(&mut self, index: usize, _: &Participant, _: &JsonObject) -> JsonObject {
        self.0.vote(index)
    }
}

/// The same behaviour, waiting (yielding to the runtime) before and after
/// acting, with the turn token held across the `.await`s.
struct AsyncSim(Behaviour);

impl AsyncAgent for AsyncSim {
    async fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
        tokio::task::yield_now().await;
        let r = self.0.act(turn);
        tokio::task::yield_now().await;
        r
    }
    async fn answer(&mut self, index: usize, _: &Participant, _: &JsonObject) -> JsonObject {
        tokio::task::yield_now().await;
        self.0.vote(index)
    }
}

#[derive(Clone, Debug)]
enum Op {
    Turn,
    TurnFor(usize, bool),
    Broadcast(usize),
    Swarm(Vec<usize>, Vec<usize>),
    Suspend,
    Resume,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => Just(Op::Turn),
        3 => (0usize..6, any::<bool>()).prop_map(|(h, t)| Op::TurnFor(h, t)),
        2 => (0usize..6).prop_map(Op::Broadcast),
        2 => (prop::collection::vec(0usize..6, 0..4), prop::collection::vec(0usize..4, 0..4))
            .prop_map(|(c, o)| Op::Swarm(c, o)),
        1 => Just(Op::Suspend),
        1 => Just(Op::Resume),
    ]
}

fn policy(pick: u8) -> ConflictPolicy<'static, Value> {
    match pick % 4 {
        0 => ConflictPolicy::FirstWriterWins,
        1 => ConflictPolicy::LastWriterWins,
        2 => ConflictPolicy::Hierarchy([("p1".to_owned(), 2), ("p2".to_owned(), 1)].into()),
        _ => ConflictPolicy::OrchestratorDecides(Box::new(|c, _| {
            if c.challenger() < c.incumbent() {
                Winner::Challenger
            } else {
                Winner::Incumbent
            }
        })),
    }
}

/// The outcome of an operation, comparable across drivers.
fn seen<T: std::fmt::Debug>(r: &Result<T, SessionError>) -> String {
    match r {
        Ok(v) => format!("ok {v:?}"),
        Err(e) => format!("err {e}"),
    }
}

fn run_sync(c: Collab, seed: u64, pick: u8, ops: &[Op], cancel: bool) -> (String, Vec<String>) {
    let mut s = MapSession::with_clock(c, MemorySink::new(), SimClock::new(seed)).unwrap();
    s.set_conflict_policy(policy(pick));
    let mut agent = SyncAgent(Behaviour::new(seed ^ 1));
    let mut results = vec![seen(&s.start())];
    for op in ops {
        let r = match op {
            Op::Turn => seen(&s.turn(&mut agent)),
            Op::TurnFor(h, t) => seen(&s.turn_for(*h, t.then_some("task"), &mut agent)),
            Op::Broadcast(from) => seen(&s.broadcast(*from, JsonObject::new(), &mut agent)),
            Op::Swarm(who, order) => {
                let claims: Vec<(usize, &str)> = who.iter().map(|h| (*h, "claim")).collect();
                seen(&s.swarm_round(&claims, order, &mut agent))
            }
            Op::Suspend => seen(&s.suspend()),
            Op::Resume => seen(&s.resume()),
        };
        results.push(r);
    }
    let end = if cancel { s.cancel() } else { s.complete() };
    results.push(seen(&end));
    if end.is_err() {
        // A suspended session cannot complete; it can be cancelled.
        results.push(seen(&s.cancel()));
    }
    (s.sink().to_ndjson(), results)
}

async fn run_async(
    c: Collab,
    seed: u64,
    pick: u8,
    ops: &[Op],
    cancel: bool,
) -> (String, Vec<String>) {
    let sink = AsyncLogWriter::new(Vec::new());
    let mut s = AsyncMapSession::with_clock(c, sink, SimClock::new(seed)).unwrap();
    s.set_conflict_policy(policy(pick));
    let mut agent = AsyncSim(Behaviour::new(seed ^ 1));
    let mut results = vec![seen(&s.start().await)];
    for op in ops {
        let r = match op {
            Op::Turn => seen(&s.turn(&mut agent).await),
            Op::TurnFor(h, t) => seen(&s.turn_for(*h, t.then_some("task"), &mut agent).await),
            Op::Broadcast(from) => seen(&s.broadcast(*from, JsonObject::new(), &mut agent).await),
            Op::Swarm(who, order) => {
                let claims: Vec<(usize, &str)> = who.iter().map(|h| (*h, "claim")).collect();
                seen(&s.swarm_round(&claims, order, &mut agent).await)
            }
            Op::Suspend => seen(&s.suspend().await),
            Op::Resume => seen(&s.resume().await),
        };
        results.push(r);
    }
    let end = if cancel {
        s.cancel().await
    } else {
        s.complete().await
    };
    results.push(seen(&end));
    if end.is_err() {
        results.push(seen(&s.cancel().await));
    }
    let bytes = s.into_sink().into_inner();
    (String::from_utf8(bytes).unwrap(), results)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The async and the blocking driver write the same log (and give the
    /// same results, refusals included) for the same seed.
    #[test]
    fn async_and_sync_drivers_write_the_same_log(
        mode in prop::sample::select(CollabMode::ALL.to_vec()),
        n in 1usize..5,
        seed in any::<u64>(),
        pick in any::<u8>(),
        ops in prop::collection::vec(op(), 0..24),
        cancel in any::<bool>(),
    ) {
        let c = Collab::of_agents(ContextId::new(), "t", "p", mode, n).unwrap();
        let (sync_log, sync_results) = run_sync(c.clone(), seed, pick, &ops, cancel);
        let (async_log, async_results) = block_on(run_async(c, seed, pick, &ops, cancel));
        prop_assert_eq!(&sync_results, &async_results);
        prop_assert_eq!(&sync_log, &async_log);
        // And the log is a valid MAP log.
        let report = common::validate_log(&async_log);
        prop_assert!(report.is_valid(), "{:?}\n{}", report, async_log);
    }
}

/// Sync agents serve async sessions unchanged (every `Agent` is an `AsyncAgent`).
#[test]
fn a_closure_agent_drives_an_async_session() {
    let log = block_on(async {
        let mut s = AsyncMapSession::with_clock(
            Collab::of_agents(ContextId::new(), "t", "p", CollabMode::RoundRobin, 3).unwrap(),
            MemorySink::new(),
            SimClock::new(3),
        )
        .unwrap();
        s.start().await.unwrap();
        let mut agent = |t: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
            t.write("n", json!(t.turn_number()))?;
            Ok(TurnOutcome::completed())
        };
        for _ in 0..4 {
            s.turn(&mut agent).await.unwrap();
        }
        assert_eq!(s.turns().dispatched(), 4);
        s.complete().await.unwrap();
        s.into_sink()
    });
    let holders: Vec<String> = log
        .events
        .iter()
        .filter(|e| e.event_type().as_str() == "MAPTurnDispatched")
        .map(|e| e.target_roles.clone().unwrap_or_default().join(","))
        .collect();
    assert_eq!(holders, ["r0", "r1", "r2", "r0"]);
    assert!(common::validate_log(&log.to_ndjson()).is_valid());
}

/// Many sessions advance concurrently on one thread (a `LocalSet`), each
/// agent waiting in its turns; every log is complete and valid.
#[test]
fn many_async_sessions_interleave_on_one_thread() {
    let logs = block_on(async {
        let local = tokio::task::LocalSet::new();
        let handles: Vec<_> = (0..20u64)
            .map(|i| {
                local.spawn_local(async move {
                    let mode = CollabMode::ALL[i as usize % CollabMode::ALL.len()];
                    let mut s = AsyncMapSession::with_clock(
                        Collab::of_agents(ContextId::new(), "t", "p", mode, 3).unwrap(),
                        Vec::new(),
                        SimClock::new(i),
                    )
                    .unwrap();
                    let mut agent = AsyncSim(Behaviour::new(i));
                    s.start().await.unwrap();
                    for k in 0..5 {
                        match mode {
                            CollabMode::Broadcast => {
                                s.broadcast(0, JsonObject::new(), &mut agent).await.unwrap();
                            }
                            CollabMode::Swarm => {
                                s.swarm_round(&[(0, "a"), (1, "b")], &[1], &mut agent)
                                    .await
                                    .unwrap();
                            }
                            CollabMode::Orchestrated => {
                                s.turn_for(1 + k % 2, None, &mut agent).await.unwrap();
                            }
                            _ => {
                                s.turn(&mut agent).await.unwrap();
                            }
                        }
                    }
                    s.complete().await.unwrap();
                    s.into_sink()
                })
            })
            .collect();
        local
            .run_until(async {
                let mut out = Vec::new();
                for h in handles {
                    out.push(h.await.unwrap());
                }
                out
            })
            .await
    });
    assert_eq!(logs.len(), 20);
    for events in logs {
        let text = MemorySink { events }.to_ndjson();
        let report = common::validate_log(&text);
        assert!(report.is_valid(), "{report:?}\n{text}");
    }
}

/// An async sink that fails after `left` events.
struct Flaky {
    left: usize,
    got: Vec<MapEvent>,
}

impl AsyncEventSink<MapEvent> for Flaky {
    async fn emit(&mut self, event: MapEvent) -> io::Result<()> {
        tokio::task::yield_now().await;
        if self.left == 0 {
            return Err(io::Error::other("broker gone"));
        }
        self.left -= 1;
        self.got.push(event);
        Ok(())
    }
}

#[test]
fn a_failing_async_sink_stops_the_session() {
    block_on(async {
        let sink = Flaky {
            left: 3,
            got: Vec::new(),
        };
        let mut s = AsyncMapSession::new(
            Collab::of_agents(ContextId::new(), "t", "p", CollabMode::RoundRobin, 2).unwrap(),
            sink,
        )
        .unwrap();
        s.start().await.unwrap(); // started + roles assigned
        let mut agent = AsyncSim(Behaviour::new(0));
        // The dispatch is the third event; the completion fails.
        let err = s.turn(&mut agent).await.unwrap_err();
        assert!(
            matches!(err, SessionError::Sink(ref e) if e.to_string() == "broker gone"),
            "{err:?}"
        );
        let types: Vec<&str> = s
            .sink()
            .got
            .iter()
            .map(|e| e.event_type().as_str())
            .collect();
        assert_eq!(
            types,
            ["MAPSessionStarted", "MAPRolesAssigned", "MAPTurnDispatched"]
        );
    });
}

/// An async session keeps its history only when asked, like the blocking
/// one: the writes and resolutions with history are those of the blocking
/// session with history, and without it only the count is kept.
#[test]
fn async_sessions_keep_their_history_only_when_asked() {
    let c = Collab::of_agents(ContextId::new(), "t", "p", CollabMode::RoundRobin, 3).unwrap();
    let mut sync = MapSession::with_clock(c.clone(), MemorySink::new(), SimClock::new(5))
        .unwrap()
        .with_history();
    sync.start().unwrap();
    let mut agent = SyncAgent(Behaviour::new(9));
    for _ in 0..60 {
        let _ = sync.turn(&mut agent);
    }
    assert!(
        !sync.resolutions().is_empty(),
        "the behaviour makes conflicts"
    );
    for history in [true, false] {
        let mut s =
            AsyncMapSession::with_clock(c.clone(), MemorySink::new(), SimClock::new(5)).unwrap();
        if history {
            s = s.with_history();
        }
        assert_eq!(s.keeps_history(), history);
        let mut agent = AsyncSim(Behaviour::new(9));
        block_on(async {
            s.start().await.unwrap();
            for _ in 0..60 {
                let _ = s.turn(&mut agent).await;
            }
        });
        assert_eq!(s.write_count(), sync.write_count());
        assert_eq!(s.sink().to_ndjson(), sync.sink().to_ndjson());
        // The same shared state, and the same session underneath.
        let values =
            |r: &mplp_collab::conflict::ResourceStore<Value>| -> Vec<(String, Value, u64)> {
                r.iter()
                    .map(|(k, v, n)| (k.to_owned(), v.clone(), n))
                    .collect()
            };
        assert_eq!(values(s.resources()), values(sync.resources()));
        assert!(!values(s.resources()).is_empty());
        assert_eq!(
            format!("{s:?}"),
            format!("AsyncMapSession {{ session: {sync:?}, .. }}")
        );
        if history {
            assert_eq!(s.writes(), sync.writes());
            assert_eq!(s.resolutions(), sync.resolutions());
        } else {
            assert!(s.writes().is_empty() && s.resolutions().is_empty());
            assert!(s.resources().record().is_empty());
        }
    }
}
