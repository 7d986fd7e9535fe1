//! Sessions run in memory that does not grow with the turns, and
//! their MAP logs are byte for byte those of the sessions that kept a history.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use std::io::Write;

use mplp_collab::conflict::{ConflictPolicy, ConflictRecord};
use mplp_collab::runtime::{MapSession, SessionError, TurnContext, TurnOutcome, WriteOutcome};
use mplp_collab::simulate::{SimConfig, simulate};
use mplp_collab::sink::{Clock, EventSink, MemorySink, NdjsonSink, NullSink, SimClock};
use mplp_collab::{Collab, Participant};
use mplp_core::{CollabMode, ContextId, Document, JsonObject};
use mplp_events::{MapEvent, MapPayload};
use proptest::prelude::*;
use serde_json::json;

/// FNV-1a (64 bits) of everything written: a log's fingerprint without
/// keeping the log.
struct Fnv {
    hash: u64,
    bytes: u64,
}

impl Fnv {
    fn new() -> Self {
        Fnv {
            hash: 0xcbf2_9ce4_8422_2325,
            bytes: 0,
        }
    }
}

impl Write for Fnv {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for b in buf {
            self.hash ^= u64::from(*b);
            self.hash = self.hash.wrapping_mul(0x0100_0000_01b3);
        }
        self.bytes += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn plan(name: &str) -> mplp_plan::Plan {
    let path = format!(
        "{}/../../schemas/examples/valid/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    mplp_plan::Plan::from_json(std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The logs of `mplp collab simulate` as recorded from the sessions that
/// kept a history (FNV-1a 64 of the NDJSON, its length): the simulation is
/// unchanged byte for byte in every mode, under every conflict policy
/// (seed % 3), with partial swarm rounds and with a plan.
#[test]
fn simulated_logs_are_byte_identical_to_the_recorded_logs() {
    // (mode, participants, turns, seed, plan, fnv, bytes)
    // (Logs with broadcasts changed once on purpose: receivers write
    // `broadcast_ref` instead of `broadcast_id`, one byte more per receiver.)
    type Golden = (CollabMode, usize, u64, u64, Option<&'static str>, u64, u64);
    let golden: &[Golden] = &[
        (
            CollabMode::Broadcast,
            3,
            300,
            0,
            None,
            0xbf4ad8b1b3b88530,
            297445,
        ),
        (
            CollabMode::Broadcast,
            3,
            300,
            1,
            None,
            0x6d77774df5ef6aaf,
            297478,
        ),
        (
            CollabMode::Broadcast,
            3,
            300,
            2,
            None,
            0xccd3975fa390c537,
            297469,
        ),
        (
            CollabMode::RoundRobin,
            3,
            300,
            0,
            None,
            0xe07638e9994c1000,
            254021,
        ),
        (
            CollabMode::RoundRobin,
            3,
            300,
            1,
            None,
            0x0df18a0cee766db9,
            252546,
        ),
        (
            CollabMode::RoundRobin,
            3,
            300,
            2,
            None,
            0xdd1884d18a7e3c4e,
            257112,
        ),
        (
            CollabMode::Orchestrated,
            3,
            300,
            0,
            None,
            0x83772376f25c93be,
            275304,
        ),
        (
            CollabMode::Orchestrated,
            3,
            300,
            1,
            None,
            0x404d5b767df4b53d,
            279683,
        ),
        (
            CollabMode::Orchestrated,
            3,
            300,
            2,
            None,
            0x100a55392f66a2ec,
            295521,
        ),
        (
            CollabMode::Swarm,
            3,
            300,
            0,
            None,
            0xd403268b8f74cb8f,
            250787,
        ),
        (
            CollabMode::Swarm,
            3,
            300,
            1,
            None,
            0x7837f847c3bc10fb,
            254700,
        ),
        (
            CollabMode::Swarm,
            3,
            300,
            2,
            None,
            0xb56b5628de43cc7d,
            259720,
        ),
        (
            CollabMode::Pair,
            2,
            300,
            0,
            None,
            0x27bd667f8a0f675b,
            238534,
        ),
        (
            CollabMode::Pair,
            2,
            300,
            1,
            None,
            0x5b30e04cfbec1098,
            234154,
        ),
        (
            CollabMode::Pair,
            2,
            300,
            2,
            None,
            0x8877f40cd5e08d8b,
            248107,
        ),
        (
            CollabMode::Orchestrated,
            5,
            1000,
            4,
            None,
            0x442a0c3e1eb3f054,
            1128747,
        ),
        (CollabMode::Swarm, 4, 10, 5, None, 0x6f816dde8a3adb63, 7068),
        (
            CollabMode::Swarm,
            7,
            2000,
            8,
            None,
            0xbe4710cfed001a6a,
            1818012,
        ),
        (
            CollabMode::Broadcast,
            6,
            200,
            9,
            None,
            0x83fb9b4a26bc99a2,
            384095,
        ),
        (
            CollabMode::RoundRobin,
            1,
            50,
            10,
            None,
            0x2ab5f31aa814280d,
            29344,
        ),
        (
            CollabMode::Orchestrated,
            1,
            50,
            11,
            None,
            0x7ea4478afbbcf926,
            38838,
        ),
        (
            CollabMode::Swarm,
            1,
            20,
            12,
            None,
            0x28895ebbd5356770,
            12889,
        ),
        (
            CollabMode::RoundRobin,
            3,
            0,
            13,
            None,
            0xa6a539c8b5d6a376,
            1045,
        ),
        (
            CollabMode::RoundRobin,
            3,
            20,
            14,
            Some("plan-code-review-dag.json"),
            0x1b103c1f15f35190,
            5255,
        ),
        (
            CollabMode::Swarm,
            3,
            20,
            15,
            Some("plan-code-review-dag.json"),
            0xf37d8f5eac23aa56,
            5260,
        ),
        (
            CollabMode::Orchestrated,
            4,
            20,
            16,
            Some("plan-in-progress.json"),
            0xeae78dcecb50b8e2,
            1883,
        ),
        (
            CollabMode::Broadcast,
            3,
            5,
            17,
            Some("plan-minimal.json"),
            0x386fde12e96f22bf,
            1734,
        ),
        (
            CollabMode::Pair,
            2,
            20,
            18,
            Some("plan-code-review-dag.json"),
            0x82b3b26d77f38594,
            3014,
        ),
    ];
    assert!(!golden.is_empty());
    for (mode, n, turns, seed, plan_file, fnv, bytes) in golden {
        let mut config = SimConfig::new(*mode, *n, *turns).with_seed(*seed);
        if let Some(f) = plan_file {
            config = config.with_plan(plan(f));
        }
        let mut sink = NdjsonSink::new(Fnv::new());
        simulate(&config, &mut sink).unwrap();
        let out = sink.into_inner();
        assert_eq!(
            (out.hash, out.bytes),
            (*fnv, *bytes),
            "{mode} n={n} turns={turns} seed={seed} plan={plan_file:?}"
        );
    }
}

/// A population that writes one document, from a stale version on the
/// turns `stale` picks (so conflicts happen), and notes every write it
/// made: the from-scratch record of what the session's history must hold.
struct Writers<F: FnMut(u64) -> bool> {
    stale: F,
    seen: Vec<u64>,
    made: Vec<(u64, String)>,
    conflicts: u64,
}

impl<F: FnMut(u64) -> bool> mplp_collab::runtime::Agent for Writers<F> {
    fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
        let me = turn.holder();
        let who = turn.participant().participant_id.to_string();
        let value = json!({"by": who, "turn": turn.turn_number()});
        let last = self.seen.get(me).copied().unwrap_or(0);
        let outcome = if (self.stale)(turn.turn_number()) {
            turn.write_at("doc", last, value)?
        } else {
            turn.write("doc", value)?
        };
        self.made.push((turn.turn_number(), who.clone()));
        let version = match outcome {
            WriteOutcome::Written(v) => v,
            WriteOutcome::Resolved(r) => {
                // The resolution is a second write under the same turn.
                self.made.push((turn.turn_number(), who));
                self.conflicts += 1;
                r.version
            }
        };
        if let Some(slot) = self.seen.get_mut(me) {
            *slot = version;
        }
        Ok(TurnOutcome::completed())
    }

    fn answer(&mut self, index: usize, _: &Participant, _: &JsonObject) -> JsonObject {
        let mut a = JsonObject::new();
        a.insert("from", index as u64);
        a
    }
}

/// Drives `rounds` rounds of the mode's turns (with a broadcast every
/// third round, and overlapping turns in `swarm`).
fn drive<K: EventSink<MapEvent>, C: Clock, F: FnMut(u64) -> bool>(
    s: &mut MapSession<K, C>,
    agent: &mut Writers<F>,
    rounds: u64,
) {
    let mode = s.collab().mode();
    let n = s.collab().participants().len();
    for r in 0..rounds {
        match mode {
            CollabMode::RoundRobin | CollabMode::Pair => {
                s.turn(agent).unwrap();
            }
            CollabMode::Swarm => {
                let tasks: Vec<String> = (0..n).map(|i| format!("t{r}-{i}")).collect();
                let claims: Vec<(usize, &str)> = tasks
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (i, t.as_str()))
                    .collect();
                let order: Vec<usize> = (0..n).rev().collect();
                s.swarm_round(&claims, &order, agent).unwrap();
            }
            _ => {
                s.turn_for(usize::try_from(r).unwrap() % n, None, agent)
                    .unwrap();
            }
        }
        if r % 3 == 2 {
            let mut m = JsonObject::new();
            m.insert("round", r);
            s.broadcast(0, m, agent).unwrap();
        }
    }
}

fn policy(k: u8) -> ConflictPolicy<'static, serde_json::Value> {
    match k % 3 {
        0 => ConflictPolicy::FirstWriterWins,
        1 => ConflictPolicy::LastWriterWins,
        _ => ConflictPolicy::Hierarchy((0..6).map(|i| (format!("p{i}"), 5 - i)).collect()),
    }
}

/// Without history, what a session holds after thousands of turns is what
/// it held after a few: nothing recorded, nothing open, one resource.
#[test]
fn a_session_without_history_holds_no_per_turn_state() {
    for mode in CollabMode::ALL {
        let collab = Collab::of_agents(ContextId::new(), "memory", "memory", *mode, 4).unwrap();
        let n = collab.participants().len();
        let mut s = MapSession::with_clock(collab, NullSink::default(), SimClock::new(7)).unwrap();
        s.set_conflict_policy(policy(1));
        assert!(!s.keeps_history());
        s.start().unwrap();
        let mut agent = Writers {
            stale: |t| t % 2 == 0,
            seen: vec![0; n],
            made: Vec::new(),
            conflicts: 0,
        };
        for _ in 0..3 {
            drive(&mut s, &mut agent, 1000);
            assert!(s.writes().is_empty(), "{mode}");
            assert!(s.resolutions().is_empty(), "{mode}");
            assert!(s.resources().record().is_empty(), "{mode}");
            assert_eq!(s.resources().unresolved().count(), 0, "{mode}");
            assert_eq!(s.resources().iter().count(), 1, "{mode}");
            assert_eq!(s.turns().outstanding(), 0, "{mode}");
            assert_eq!(s.turns().turns_held().len(), n, "{mode}");
            agent.made.clear();
        }
        assert!(agent.conflicts > 0, "{mode}: the agent makes conflicts");
        let summary = s.complete().unwrap();
        assert_eq!(summary.conflicts_count, agent.conflicts, "{mode}");
        assert!(s.write_count() >= s.turns().completed(), "{mode}");
    }
}

/// The simulation itself holds nothing per turn: 200,000 events through a
/// counting sink, in every mode (the figures are in the session_memory
/// example).
#[test]
fn long_simulations_stream_in_every_mode() {
    for mode in CollabMode::ALL {
        let n = if *mode == CollabMode::Pair { 2 } else { 5 };
        let mut sink = NullSink::default();
        let summary = simulate(&SimConfig::new(*mode, n, 50_000).with_seed(3), &mut sink).unwrap();
        assert!(sink.count >= 100_000, "{mode}: {}", sink.count);
        let turns = match mode {
            CollabMode::Broadcast => 0,
            _ => 50_000,
        };
        assert!(summary.turns_total >= turns, "{mode}");
    }
}

/// Without a policy set, an orchestrated session lets the orchestrator
/// decide (it keeps the write already made); every other mode keeps the
/// first writer's: the resolutions name the strategy. The session's `Debug` names it, its status and turns.
#[test]
fn the_default_conflict_policy_follows_the_mode() {
    for &mode in CollabMode::ALL {
        let collab = Collab::of_agents(ContextId::new(), "memory", "memory", mode, 3).unwrap();
        let id = collab.collab_id;
        let count = collab.participants().len();
        let mut s = MapSession::with_clock(collab, MemorySink::new(), SimClock::new(7))
            .unwrap()
            .with_history();
        s.start().unwrap();
        let mut agent = Writers {
            stale: |t: u64| t > 1,
            seen: vec![0; count],
            made: Vec::new(),
            conflicts: 0,
        };
        drive(&mut s, &mut agent, 6);
        let strategies: std::collections::BTreeSet<&str> = s
            .resolutions()
            .iter()
            .map(|r| r.strategy.as_str())
            .collect();
        let expected = match mode {
            CollabMode::Orchestrated => ["orchestrator_decides"],
            _ => ["first_writer_wins"],
        };
        assert_eq!(
            strategies.into_iter().collect::<Vec<_>>(),
            expected,
            "{mode}"
        );
        assert_eq!(
            format!("{s:?}"),
            format!(
                "MapSession {{ collab_id: {id:?}, status: Active, turns: {}, .. }}",
                s.turns().dispatched()
            )
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// History changes nothing but the history: the same session with and
    /// without it writes the same MAP log and the same summary; with it, the
    /// writes, resolutions and conflict record are exactly what a
    /// from-scratch account of the agent's writes and of the log gives;
    /// without it they stay empty and only the counts are kept.
    #[test]
    fn history_is_opt_in_and_changes_nothing_else(
        mode in prop::sample::select(CollabMode::ALL.to_vec()),
        n in 1usize..6,
        rounds in 0u64..30,
        seed in any::<u64>(),
        stale_mask in any::<u32>(),
        k in 0u8..3,
    ) {
        let base = Collab::of_agents(ContextId::new(), "memory", "memory", mode, n).unwrap();
        let run = |history: bool| {
            let collab = base.clone();
            let count = collab.participants().len();
            let mut s = MapSession::with_clock(collab, MemorySink::new(), SimClock::new(seed)).unwrap();
            if history {
                s = s.with_history();
            }
            s.set_conflict_policy(policy(k));
            s.start().unwrap();
            let mut agent = Writers {
                stale: |t: u64| stale_mask & (1 << (t % 32)) != 0,
                seen: vec![0; count],
                made: Vec::new(),
                conflicts: 0,
            };
            drive(&mut s, &mut agent, rounds);
            let summary = s.complete().unwrap();
            (s, summary, agent.made)
        };
        let (kept, kept_summary, made) = run(true);
        let (plain, plain_summary, made_again) = run(false);
        prop_assert_eq!(kept.sink().to_ndjson(), plain.sink().to_ndjson());
        prop_assert_eq!(&kept_summary, &plain_summary);
        prop_assert_eq!(&made, &made_again);
        prop_assert!(kept.keeps_history());

        // With history: the writes are the agent's, in order.
        let writes: Vec<(u64, String)> =
            kept.writes().iter().map(|w| (w.turn_number, w.participant.clone())).collect();
        prop_assert_eq!(&writes, &made);
        prop_assert_eq!(kept.write_count(), made.len() as u64);
        // The resolutions are the log's MAPConflictResolved, in order.
        let logged: Vec<(String, String)> = kept.sink().events.iter().filter_map(|e| match &e.payload {
            MapPayload::ConflictResolved(Some(r)) => Some((r.conflict_id.clone()?.into_string(), r.strategy.clone()?.into_string())),
            _ => None,
        }).collect();
        let resolutions: Vec<(String, String)> = kept.resolutions().iter()
            .map(|r| (r.conflict_id.to_string(), r.strategy.as_str().to_owned())).collect();
        prop_assert_eq!(&resolutions, &logged);
        prop_assert_eq!(resolutions.len() as u64, kept_summary.conflicts_count);
        // The store's record pairs each detection with its resolution.
        let record = kept.resources().record();
        prop_assert_eq!(record.len(), 2 * resolutions.len());
        for (pair, (id, _)) in record.chunks(2).zip(&resolutions) {
            let ok = matches!(
                pair,
                [ConflictRecord::Detected { conflict_id: a, .. }, ConflictRecord::Resolved(r)]
                    if a.to_string() == *id && r.conflict_id == *a
            );
            prop_assert!(ok, "{:?}", pair);
        }

        // Without history: only the counts.
        prop_assert!(!plain.keeps_history());
        prop_assert!(plain.writes().is_empty());
        prop_assert!(plain.resolutions().is_empty());
        prop_assert!(plain.resources().record().is_empty());
        prop_assert_eq!(plain.write_count(), made.len() as u64);
    }
}

/// The records of a standalone `Shared` and `ResourceStore` are on by
/// default; turned off they drop what they held and record nothing more;
/// turned on again they record from then on. The state and the counts do
/// not depend on them.
#[test]
fn standalone_records_are_on_by_default_and_can_be_turned_off() {
    use mplp_collab::conflict::ResourceStore;
    use mplp_collab::turns::TurnManager;
    use mplp_core::Timestamp;

    let mut turns = TurnManager::new(CollabMode::RoundRobin, ["a", "b"], None).unwrap();
    let mut board = turns.shared(Vec::<u64>::new());
    assert!(board.records_writes());
    let mut step = |board: &mut mplp_collab::turns::Shared<Vec<u64>>, k: u64| {
        let token = turns.dispatch_next(Timestamp::now()).unwrap();
        board.write(&token).unwrap().push(k);
        turns.complete(token, Timestamp::now()).unwrap();
    };
    step(&mut board, 1);
    step(&mut board, 2);
    assert_eq!(board.writes().len(), 2);
    board.record_writes(false);
    assert!(!board.records_writes());
    assert!(board.writes().is_empty());
    step(&mut board, 3);
    assert!(board.writes().is_empty());
    board.record_writes(true);
    step(&mut board, 4);
    let recorded: Vec<(u64, &str)> = board
        .writes()
        .iter()
        .map(|w| (w.turn_number, w.participant.as_str()))
        .collect();
    assert_eq!(recorded, [(4, "b")]);
    assert_eq!(board.write_count(), 4);
    assert_eq!(board.get(), &[1, 2, 3, 4]);

    let mut store: ResourceStore<u32> = ResourceStore::with_seed(3);
    assert!(store.records_conflicts());
    let clash = |store: &mut ResourceStore<u32>, value: u32| {
        let current = store.get("x").map_or(0, |(_, v)| v);
        store.compare_and_set("x", current, value, "a").unwrap();
        let conflict = store
            .compare_and_set("x", current, value + 1, "b")
            .unwrap_err();
        store
            .resolve(conflict, &mut ConflictPolicy::LastWriterWins)
            .unwrap()
    };
    store.insert("x", 0, "a");
    clash(&mut store, 10);
    assert_eq!(store.record().len(), 2);
    store.record_conflicts(false);
    assert!(!store.records_conflicts());
    assert!(store.record().is_empty());
    let r = clash(&mut store, 20);
    assert!(store.record().is_empty());
    assert_eq!(store.get("x"), Some((&21, r.version)));
    store.record_conflicts(true);
    let r = clash(&mut store, 30);
    assert!(matches!(
        store.record(),
        [ConflictRecord::Detected { .. }, ConflictRecord::Resolved(x)] if *x == r
    ));
    assert_eq!(store.unresolved().count(), 0);
}
