//! Property tests of the collab module.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

mod common;

use std::sync::{Arc, Mutex};

use mplp_collab::conflict::{ConflictPolicy, ResourceStore, Winner};
use mplp_collab::runtime::{MapSession, SessionError, TurnContext, TurnOutcome};
use mplp_collab::simulate::{SimConfig, simulate};
use mplp_collab::sink::{MemorySink, SimClock};
use mplp_collab::swarm::TaskBoard;
use mplp_collab::turns::TurnManager;
use mplp_collab::{Collab, CollabStatus};
use mplp_core::check::CheckValue;
use mplp_core::{CollabMode, ContextId, Document, Pointer, Report, Timestamp};
use proptest::prelude::*;
use serde_json::{Value, json};

fn mode() -> impl Strategy<Value = CollabMode> {
    prop::sample::select(CollabMode::ALL.to_vec())
}

fn status() -> impl Strategy<Value = CollabStatus> {
    prop::sample::select(CollabStatus::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Simulated sessions of every mode always produce a valid MAP log, with
    /// the counts of the summary.
    #[test]
    fn simulated_logs_are_valid(mode in mode(), n in 1usize..6, turns in 0u64..12, seed in any::<u64>()) {
        let n = if mode == CollabMode::Pair { 2 } else { n };
        let mut sink = MemorySink::new();
        let summary = simulate(&SimConfig::new(mode, n, turns).with_seed(seed), &mut sink).unwrap();
        let text = sink.to_ndjson();
        let report = common::validate_log(&text);
        prop_assert!(report.is_valid(), "{:?}\n{}", report, text);
        let expected_turns = if mode == CollabMode::Broadcast { 0 } else { turns };
        prop_assert_eq!(summary.turns_total, expected_turns);
    }

    /// Random operation sequences on a session: whatever the caller does,
    /// refused operations leave the log valid.
    #[test]
    fn random_operations_keep_the_log_valid(mode in mode(), n in 1usize..5, ops in prop::collection::vec(0u8..6, 0..30), seed in any::<u64>()) {
        let c = Collab::of_agents(ContextId::new(), "t", "p", mode, n).unwrap();
        let count = c.participants().len();
        let mut s = MapSession::with_clock(c, MemorySink::new(), SimClock::new(seed)).unwrap();
        s.start().unwrap();
        let mut agent = |t: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
            let v = t.read("r").map_or(0, |(_, v)| v);
            t.write_at("r", v.saturating_sub(u64::from(t.turn_number() % 2 == 0)), json!(t.turn_number()))?;
            Ok(TurnOutcome::completed())
        };
        for (i, op) in ops.iter().enumerate() {
            let _ = match op {
                0 => s.turn(&mut agent).map(|_| ()),
                1 => s.turn_for(i % count, Some("task"), &mut agent).map(|_| ()),
                2 => s.broadcast(i % count, mplp_core::JsonObject::new(), &mut agent).map(|_| ()),
                3 => s.suspend(),
                4 => s.resume(),
                _ => s.swarm_round(&[(i % count, "a"), ((i + 1) % count, "b")], &[1, 0], &mut agent).map(|_| ()),
            };
        }
        if s.collab().status() == CollabStatus::Suspended {
            s.resume().unwrap();
        }
        s.complete().unwrap();
        prop_assert!(s.resources().unresolved().next().is_none());
        let text = s.sink().to_ndjson();
        let report = common::validate_log(&text);
        prop_assert!(report.is_valid(), "{:?}\n{}", report, text);
    }

    /// Round robin is fair: over k·n turns each of n participants holds exactly k.
    #[test]
    fn round_robin_is_fair(n in 1usize..8, k in 1u64..6) {
        let ids: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let mut turns = TurnManager::new(CollabMode::RoundRobin, ids, None).unwrap();
        for _ in 0..(k * n as u64) {
            let t = turns.dispatch_next(Timestamp::now()).unwrap();
            turns.complete(t, Timestamp::now()).unwrap();
        }
        prop_assert!(turns.turns_held().iter().all(|h| *h == k));
    }

    /// Only the token holder ever writes: every write of a session is made
    /// under the turn of the participant who wrote.
    #[test]
    fn only_the_token_holder_writes(mode in mode(), n in 1usize..5, turns in 1u64..10, seed in any::<u64>()) {
        let c = Collab::of_agents(ContextId::new(), "t", "p", mode, n).unwrap();
        let count = c.participants().len();
        let mut s = MapSession::with_clock(c, MemorySink::new(), SimClock::new(seed)).unwrap().with_history();
        s.start().unwrap();
        let mut holders = Vec::new();
        let mut agent = |t: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
            holders.push((t.turn_number(), t.participant().participant_id.to_string()));
            t.write("doc", json!(1))?;
            Ok(TurnOutcome::completed())
        };
        for i in 0..turns {
            match mode {
                CollabMode::RoundRobin | CollabMode::Pair => { s.turn(&mut agent).unwrap(); }
                _ => { s.turn_for(i as usize % count, None, &mut agent).unwrap(); }
            }
        }
        let writes: Vec<(u64, String)> = s.writes().iter().map(|w| (w.turn_number, w.participant.clone())).collect();
        prop_assert_eq!(writes, holders);
    }

    /// No swarm task is claimed twice, even by threads racing for them.
    #[test]
    fn no_task_is_claimed_twice(tasks in 0usize..40, workers in 1usize..6) {
        let board = Arc::new(Mutex::new(TaskBoard::new((0..tasks).map(|i| format!("t{i}")))));
        let handles: Vec<_> = (0..workers).map(|w| {
            let board = Arc::clone(&board);
            std::thread::spawn(move || {
                let mut mine = Vec::new();
                loop {
                    let claim = board.lock().unwrap().claim_next(w);
                    let Some(claim) = claim else { break };
                    mine.push(claim.task());
                    board.lock().unwrap().finish(claim).unwrap();
                }
                mine
            })
        }).collect();
        let mut all: Vec<usize> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
        all.sort_unstable();
        prop_assert_eq!(all, (0..tasks).collect::<Vec<_>>());
        prop_assert!(board.lock().unwrap().all_done());
    }

    /// Every detected conflict is resolved, under every strategy, and the
    /// store's record pairs each detection with one resolution.
    #[test]
    fn every_conflict_is_resolved(writes in prop::collection::vec((0usize..4, 0u64..4), 1..40), strategy in 0u8..4) {
        let mut store: ResourceStore<u64> = ResourceStore::with_seed(1);
        let mut policy: ConflictPolicy<'_, u64> = match strategy {
            0 => ConflictPolicy::Hierarchy((0..4).map(|i| (format!("w{i}"), i as u32)).collect()),
            1 => ConflictPolicy::FirstWriterWins,
            2 => ConflictPolicy::LastWriterWins,
            _ => ConflictPolicy::OrchestratorDecides(Box::new(|c, _| if c.challenger() < c.incumbent() { Winner::Challenger } else { Winner::Incumbent })),
        };
        let shown = format!("{policy:?}");
        prop_assert!(shown.starts_with(["Hierarchy({\"w0\": 0", "first_writer_wins", "last_writer_wins", "orchestrator_decides"][usize::from(strategy)]), "{}", shown);
        let mut detected = 0;
        // A write based on a version of a resource that does not exist yet
        // is a conflict with version 0, not a creation.
        let c = store.compare_and_set("fresh", 1, 0, "w0").unwrap_err();
        prop_assert_eq!((c.expected_version(), c.current_version()), (1, 0));
        prop_assert!(store.get("fresh").is_none());
        prop_assert_eq!(store.unresolved().collect::<Vec<_>>(), vec![c.id()]);
        store.resolve(c, &mut ConflictPolicy::FirstWriterWins).unwrap();
        // Equal ranks: the incumbent's value stands.
        store.compare_and_set("tie", 0, 1, "w2").unwrap();
        store.compare_and_set("tie", 0, 2, "w2").unwrap();
        let c = store.compare_and_set("tie", 0, 3, "w2").unwrap_err();
        let ranks = (0..4).map(|i| (format!("w{i}"), 1)).collect();
        let tie = store.resolve(c, &mut ConflictPolicy::Hierarchy(ranks)).unwrap();
        prop_assert_eq!(tie.winner.as_str(), "w2");
        prop_assert_eq!(store.get("tie"), Some((&2, 1)));
        detected += 2;
        for (i, (writer, lag)) in writes.iter().enumerate() {
            let current = store.get("x").map_or(0, |(_, v)| v);
            let incumbent = store.last_writer("x").map(str::to_owned);
            let who = format!("w{writer}");
            match store.compare_and_set("x", current.saturating_sub(*lag), i as u64, &who) {
                Ok(_) => prop_assert_eq!(store.last_writer("x"), Some(who.as_str())),
                Err(c) => {
                    detected += 1;
                    let incumbent = incumbent.unwrap();
                    prop_assert_eq!(c.expected_version(), current.saturating_sub(*lag));
                    prop_assert_eq!(c.current_version(), current);
                    prop_assert_eq!(c.incumbent(), incumbent.as_str());
                    prop_assert_eq!(c.challenger(), who.as_str());
                    prop_assert_eq!(store.unresolved().collect::<Vec<_>>(), vec![c.id()]);
                    // Hierarchy: w{i} has rank i, and a tie goes to the incumbent.
                    let challenger_wins = match strategy {
                        0 => who > incumbent,
                        1 => false,
                        2 => true,
                        _ => who < incumbent,
                    };
                    let resolution = store.resolve(c, &mut policy).unwrap();
                    let winner = if challenger_wins { &who } else { &incumbent };
                    prop_assert_eq!(&resolution.winner, winner);
                    prop_assert_eq!(store.last_writer("x"), Some(winner.as_str()));
                }
            }
        }
        prop_assert!(store.unresolved().next().is_none());
        let resolved = store.record().iter().filter(|r| matches!(r, mplp_collab::conflict::ConflictRecord::Resolved(_))).count();
        prop_assert_eq!(resolved, detected);
    }

    /// Illegal lifecycle transitions are always refused, legal ones accepted,
    /// and participants act only while active.
    #[test]
    fn lifecycle_follows_the_table(from in status(), to in status()) {
        // A collab in any status is a valid document: read one from JSON.
        let mut v = Collab::of_agents(ContextId::new(), "t", "p", CollabMode::Swarm, 2).unwrap().to_value();
        v["status"] = serde_json::json!(from.as_str());
        let mut c = Collab::from_value(&v).unwrap();
        let legal = matches!((from, to),
            (CollabStatus::Draft, CollabStatus::Active | CollabStatus::Cancelled)
            | (CollabStatus::Active, CollabStatus::Suspended | CollabStatus::Completed | CollabStatus::Cancelled)
            | (CollabStatus::Suspended, CollabStatus::Active | CollabStatus::Cancelled));
        let result = c.transition_at(to, Timestamp::now());
        prop_assert_eq!(result.is_ok(), legal);
        if let Err(e) = result {
            prop_assert_eq!(e.rule(), Some(mplp_core::Rule::LIFECYCLE_TRANSITION));
            prop_assert_eq!(c.status(), from);
        }
        prop_assert_eq!(c.ensure_can_act().is_ok(), c.status() == CollabStatus::Active);
    }

    /// Typed parse and CheckValue agree on mutated valid examples.
    #[test]
    fn typed_parse_and_check_value_agree(file in 0usize..5, mutation in mutation()) {
        let mut value = valid_examples().swap_remove(file);
        mutation.apply(&mut value);
        // The schema level (the checker knows nothing of the collab rules).
        let typed = <Collab as mplp_core::Wire>::deserialize_unchecked(&value).is_ok();
        // Deserialize means valid: the public impl adds the rules.
        prop_assert_eq!(
            serde_json::from_value::<Collab>(value.clone()).is_ok(),
            Collab::validate_value(&value).is_valid()
        );
        let mut report = Report::new();
        Collab::check_value(&value, &Pointer::root(), &mut report);
        prop_assert_eq!(typed, report.is_valid(), "{:?}\n{}", report, value);
    }
}

#[test]
fn valid_examples_round_trip_json_equal() {
    for v in valid_examples() {
        let c = Collab::from_value(&v).unwrap();
        assert_eq!(c.to_value(), v);
    }
}

fn valid_examples() -> Vec<Value> {
    ["broadcast", "orchestrated", "pair", "round-robin", "swarm"]
        .iter()
        .map(|m| {
            let path = format!(
                "{}/../../schemas/examples/valid/collab-{m}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
        })
        .collect()
}

/// A change to a JSON document at a random place.
#[derive(Clone, Debug)]
struct Mutation {
    path_seed: u64,
    kind: u8,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (any::<u64>(), 0u8..7).prop_map(|(path_seed, kind)| Mutation { path_seed, kind })
}

impl Mutation {
    fn apply(&self, root: &mut Value) {
        // Walk down a random path, then change the value found there.
        let mut seed = self.path_seed;
        let mut at = root;
        loop {
            let go_deeper = seed % 3 != 0;
            seed /= 3;
            let next_len = match &*at {
                Value::Object(m) => m.len(),
                Value::Array(a) => a.len(),
                _ => 0,
            };
            if !go_deeper || next_len == 0 {
                break;
            }
            let i = (seed % next_len as u64) as usize;
            seed /= next_len as u64;
            at = match at {
                Value::Object(m) => m.values_mut().nth(i).unwrap(),
                Value::Array(a) => &mut a[i],
                _ => unreachable!(),
            };
        }
        match self.kind {
            0 => *at = Value::Null,
            1 => *at = json!(""),
            2 => *at = json!(17),
            3 => *at = json!([]),
            4 => {
                if let Value::Object(m) = at {
                    m.insert("unexpected".into(), json!(1));
                }
            }
            5 => {
                if let Value::Object(m) = at {
                    let first = m.keys().next().cloned();
                    if let Some(k) = first {
                        m.remove(&k);
                    }
                }
            }
            _ => *at = json!({}),
        }
    }
}

proptest! {
    /// `TurnState` against a model: `advance` moves to the next position
    /// (wrapping) and returns its holder, `jump_to` moves to a position of
    /// the order or refuses one past it, unchanged; the order never changes
    /// and every accepted move restarts the turn's clock.
    #[test]
    fn turn_state_follows_its_model(
        n in 1usize..6,
        moves in prop::collection::vec(prop::option::of(0usize..8), 0..30),
    ) {
        use mplp_collab::turns::TurnState;
        let order: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let at = |k: usize| Timestamp::parse(&format!("2025-12-07T00:00:{:02}Z", k % 60)).unwrap();
        let mut s = TurnState::new(order.clone(), at(0)).unwrap();
        let mut index = 0;
        let mut started = at(0);
        for (k, m) in moves.into_iter().enumerate() {
            let t = at(k + 1);
            match m {
                None => {
                    index = (index + 1) % n;
                    started = t.clone();
                    prop_assert_eq!(s.advance(t), order[index].as_str());
                }
                Some(j) => {
                    let accepted = j < n;
                    if accepted {
                        index = j;
                        started = t.clone();
                    }
                    prop_assert_eq!(s.jump_to(j, t), accepted);
                }
            }
            prop_assert_eq!(s.current_turn_holder(), order[index].as_str());
            prop_assert_eq!(s.turn_index(), index);
            prop_assert_eq!(s.turn_order(), &order[..]);
            prop_assert_eq!(s.turn_started_at(), &started);
        }
    }
}

proptest! {
    /// `TurnManager` against a model, in every mode: who `peek_next` names
    /// is who `dispatch_next` picks (the mode's cycle, without the
    /// orchestrator in `orchestrated`, resuming after a `dispatch_to`), and
    /// the counts, the participants, the orchestrator and the seed's turn
    /// state follow every accepted operation.
    #[test]
    fn turn_manager_follows_its_model(
        mode in mode(),
        n in 1usize..5,
        orchestrator in 0usize..5,
        ops in prop::collection::vec((0u8..3, 0usize..6), 0..30),
    ) {
        let n = if mode == CollabMode::Pair { 2 } else { n };
        let orchestrator = (mode == CollabMode::Orchestrated).then_some(orchestrator % n);
        let ids: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let mut m = TurnManager::new(mode, ids.clone(), orchestrator).unwrap();
        prop_assert_eq!(m.participants(), &ids[..]);
        prop_assert_eq!(m.participant(n - 1), Some(ids[n - 1].as_str()));
        prop_assert_eq!(m.participant(n), None);
        prop_assert_eq!(m.orchestrator(), orchestrator);
        prop_assert!(m.state().is_none());
        let cycle: Vec<usize> = match orchestrator {
            Some(o) if n > 1 => (0..n).filter(|i| *i != o).collect(),
            _ => (0..n).collect(),
        };
        let mut pos: Option<usize> = None;
        let mut tokens = Vec::new();
        let (mut dispatched, mut completed) = (0u64, 0u64);
        let t = Timestamp::parse("2025-12-07T00:00:00Z").unwrap();
        for (op, k) in ops {
            let next = pos.map_or(0, |p| (p + 1) % cycle.len());
            let expect_peek = (mode != CollabMode::Swarm).then(|| cycle[next]);
            prop_assert_eq!(m.peek_next(), expect_peek);
            let issued = match op {
                0 => m.dispatch_next(t.clone()).ok().inspect(|tok| {
                    assert_eq!(Some(tok.holder()), expect_peek);
                    pos = Some(next);
                }),
                1 => m.dispatch_to(k % (n + 1), t.clone()).ok().inspect(|tok| {
                    if let Some(p) = cycle.iter().position(|i| *i == tok.holder()) {
                        pos = Some(p);
                    }
                }),
                _ => {
                    if !tokens.is_empty() {
                        let tok = tokens.remove(k % tokens.len());
                        m.complete(tok, t.clone()).unwrap();
                        completed += 1;
                    }
                    None
                }
            };
            if let Some(tok) = issued {
                dispatched += 1;
                prop_assert_eq!(tok.turn_number(), dispatched);
                let state = m.state().unwrap();
                prop_assert_eq!(state.current_turn_holder(), ids[tok.holder()].as_str());
                prop_assert_eq!(state.turn_index(), tok.holder());
                tokens.push(tok);
            }
            prop_assert_eq!(m.dispatched(), dispatched);
            prop_assert_eq!(m.completed(), completed);
            prop_assert_eq!(m.outstanding(), tokens.len());
        }
    }
}

proptest! {
    /// `BroadcastRound` against a model: the targets are everyone but the
    /// sender (the sender alone when it is the only participant); each
    /// target answers once, anyone else is refused and nothing changes;
    /// `pending`, `answers` and `is_complete` follow every answer, in the
    /// targets' order, and the round keeps its id, sender and message.
    #[test]
    fn broadcast_round_follows_its_model(
        n in 1usize..6,
        sender in 0usize..6,
        id in any::<u128>(),
        answers in prop::collection::vec(0usize..7, 0..12),
    ) {
        use mplp_collab::broadcast::BroadcastRound;
        let sender = sender % n;
        let id = uuid::Uuid::from_u128(id);
        let message = json!({"question": id.to_string()});
        let mut round = BroadcastRound::new(id, sender, n, message.clone());
        let targets: Vec<usize> = if n == 1 {
            vec![sender]
        } else {
            (0..n).filter(|i| *i != sender).collect()
        };
        let mut model: Vec<Option<Value>> = vec![None; targets.len()];
        for (k, target) in answers.into_iter().enumerate() {
            let answer = json!({"answer": k});
            let slot = targets.iter().position(|t| *t == target);
            let accepted = slot.is_some_and(|s| model[s].is_none());
            let result = round.receive(target, answer.clone());
            prop_assert_eq!(result.is_ok(), accepted);
            if let Err(e) = result {
                prop_assert!(e.to_string().contains("map_broadcast_unexpected_answer"), "{}", e);
            }
            if accepted {
                model[slot.unwrap()] = Some(answer);
            }
            let pending: Vec<usize> = targets.iter().zip(&model).filter(|(_, a)| a.is_none()).map(|(t, _)| *t).collect();
            let answered: Vec<(usize, Value)> = targets.iter().zip(&model).filter_map(|(t, a)| a.clone().map(|a| (*t, a))).collect();
            prop_assert_eq!(round.pending().collect::<Vec<_>>(), pending.clone());
            prop_assert_eq!(round.answers().map(|(t, a)| (t, a.clone())).collect::<Vec<_>>(), answered);
            prop_assert_eq!(round.is_complete(), pending.is_empty());
        }
        prop_assert_eq!(round.id(), id);
        prop_assert_eq!(round.sender(), sender);
        prop_assert_eq!(round.targets(), &targets[..]);
        prop_assert_eq!(round.message(), &message);
    }
}
