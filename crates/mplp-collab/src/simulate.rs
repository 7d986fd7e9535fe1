//! Simulated sessions: reproducible MAP event logs for any mode (what
//! `mplp collab simulate` prints).
//!
//! Simulated participants edit a shared document, sometimes from a stale
//! read (which the session detects as a conflict and resolves), sometimes
//! fail a turn, and answer broadcasts with a vote. Everything random comes
//! from the seed: the same configuration always writes the same log.
//!
//! ```
//! use mplp_collab::simulate::{simulate, SimConfig};
//! use mplp_collab::sink::MemorySink;
//! use mplp_core::CollabMode;
//! let config = SimConfig::new(CollabMode::RoundRobin, 3, 6).with_seed(7);
//! let mut a = MemorySink::new();
//! let summary = simulate(&config, &mut a)?;
//! assert_eq!(summary.turns_total, 6);
//! let mut b = MemorySink::new();
//! simulate(&config, &mut b)?;
//! assert_eq!(a.to_ndjson(), b.to_ndjson()); // deterministic
//! # Ok::<(), mplp_collab::runtime::SessionError>(())
//! ```

use std::collections::BTreeMap;

use serde_json::{Value, json};

use mplp_core::{
    CollabId, CollabMode, ContextId, Error, JsonObject, NonEmptyVec, Rule, ShortString,
};
use mplp_plan::{ConfirmDecision, Plan, PlanStatus};

use crate::conflict::{ConflictPolicy, Winner};
use crate::rng::SplitMix64;
use crate::runtime::{
    Agent, MapSession, SessionError, SessionSummary, TurnContext, TurnOutcome, WriteOutcome,
};
use crate::sink::{Clock, EventSink, SimClock};
use crate::swarm::TaskBoard;
use crate::{Collab, Participant, ParticipantKind};
use mplp_events::MapEvent;

/// The configuration of a simulated session.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SimConfig {
    /// The collaboration mode.
    pub mode: CollabMode,
    /// How many participants (2 for `pair`; the orchestrator counts in `orchestrated`).
    pub participants: usize,
    /// How many turns (broadcast rounds in `broadcast`, tasks in `swarm`,
    /// the maximum number of steps run with a plan).
    pub turns: u64,
    /// The seed of everything random.
    pub seed: u64,
    /// A plan to drive the turns (its steps' `agent_role`s become the
    /// participants' roles). A `draft` or `proposed` plan is approved and
    /// started by the simulation.
    pub plan: Option<Plan>,
}

impl SimConfig {
    /// A configuration with seed 0 and no plan.
    pub fn new(mode: CollabMode, participants: usize, turns: u64) -> Self {
        SimConfig {
            mode,
            participants,
            turns,
            seed: 0,
            plan: None,
        }
    }

    /// The same configuration with another seed.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The same configuration driven by a plan.
    #[must_use]
    pub fn with_plan(mut self, plan: Plan) -> Self {
        self.plan = Some(plan);
        self
    }
}

/// A simulated participant population (one value plays everyone).
#[derive(Debug)]
struct SimAgent {
    rng: SplitMix64,
    seen: Vec<Option<u64>>,
}

const DOC: &str = "shared/doc";

impl Agent for SimAgent {
    fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
        if self.rng.chance(1, 10) {
            return Ok(TurnOutcome::failed("simulated failure"));
        }
        let me = turn.holder();
        let value =
            json!({"by": turn.participant().participant_id.as_str(), "turn": turn.turn_number()});
        let cached = self.seen.get(me).copied().flatten();
        let outcome = match cached {
            Some(v) if self.rng.chance(1, 2) => turn.write_at(DOC, v, value)?,
            _ => turn.write(DOC, value)?,
        };
        let version = match &outcome {
            WriteOutcome::Written(v) => *v,
            WriteOutcome::Resolved(r) => r.version,
        };
        if let Some(slot) = self.seen.get_mut(me) {
            *slot = Some(version);
        }
        let mut result = JsonObject::new();
        result.insert("version", version);
        if let Some(task) = turn.task() {
            result.insert("task", task);
        }
        Ok(TurnOutcome::completed().with_result(result))
    }

    fn answer(&mut self, _: usize, _: &Participant, _: &JsonObject) -> JsonObject {
        let mut answer = JsonObject::new();
        let vote = if self.rng.chance(3, 4) { "go" } else { "no-go" };
        answer.insert("vote", vote);
        answer
    }
}

/// Runs a simulated session, writing its MAP events to `sink`.
///
/// Refuses configurations the Collab rules refuse (`pair` without exactly
/// two participants, no participant at all).
pub fn simulate<K: EventSink<MapEvent>>(
    config: &SimConfig,
    sink: K,
) -> Result<SessionSummary, SessionError> {
    let mut clock = SimClock::new(config.seed);
    let mut rng = SplitMix64::new(config.seed ^ 0xA5A5_5A5A_D00D_F00D);
    let mut plan = match &config.plan {
        Some(p) => Some(prepare_plan(p.clone())?),
        None => None,
    };
    let collab = sim_collab(config, plan.as_ref(), &mut clock)?;
    let n = collab.participants.len();
    let orchestrator = collab.orchestrator().is_some();
    let mut session = MapSession::with_clock(collab, sink, clock)?;
    session.set_conflict_policy(sim_policy(config, n, orchestrator, &mut rng));
    session.start()?;
    let mut agent = SimAgent {
        rng: SplitMix64::new(rng.next_u64()),
        seen: vec![None; n],
    };
    if let Some(plan) = plan.as_mut() {
        session.run_plan(plan, config.turns, &mut agent)?;
        return session.complete();
    }
    match config.mode {
        CollabMode::RoundRobin | CollabMode::Pair => {
            for _ in 0..config.turns {
                session.turn(&mut agent)?;
            }
        }
        CollabMode::Orchestrated => {
            for _ in 0..config.turns {
                let worker = if n > 1 {
                    1 + usize::try_from(rng.below(n as u64 - 1)).unwrap_or(0)
                } else {
                    0
                };
                session.turn_for(worker, None, &mut agent)?;
                if rng.chance(1, 5) {
                    let mut message = JsonObject::new();
                    message.insert("status", "checkpoint");
                    session.broadcast(0, message, &mut agent)?;
                }
            }
        }
        CollabMode::Broadcast => {
            for round in 0..config.turns {
                let mut message = JsonObject::new();
                message.insert("question", format!("go/no-go #{}", round + 1));
                session.broadcast(0, message, &mut agent)?;
            }
        }
        CollabMode::Swarm => {
            // Tasks `task-1..=turns`, claimed in order, one per participant
            // and round. A board holds one round's tasks at a time (at most
            // `n`), so memory does not grow with the number of tasks.
            let mut next: u64 = 1;
            let mut left = config.turns;
            while left > 0 {
                let round = left.min(n as u64);
                let first = next;
                let mut board = TaskBoard::new((0..round).map(|i| format!("task-{}", first + i)));
                next = next.saturating_add(round);
                left -= round;
                let mut claims = Vec::new();
                for p in 0..n {
                    if let Some(c) = board.claim_next(p) {
                        claims.push(c);
                    }
                }
                if claims.is_empty() {
                    break;
                }
                let names: Vec<(usize, String)> = claims
                    .iter()
                    .map(|c| {
                        (
                            c.participant(),
                            board.name(c.task()).unwrap_or("").to_owned(),
                        )
                    })
                    .collect();
                let pairs: Vec<(usize, &str)> =
                    names.iter().map(|(p, t)| (*p, t.as_str())).collect();
                let order = shuffled(pairs.len(), &mut rng);
                session.swarm_round(&pairs, &order, &mut agent)?;
                for c in claims {
                    board.finish(c)?;
                }
            }
        }
    }
    session.complete()
}

fn shuffled(n: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = usize::try_from(rng.below(i as u64 + 1)).unwrap_or(0);
        v.swap(i, j);
    }
    v
}

fn prepare_plan(mut plan: Plan) -> Result<Plan, Error> {
    if plan.status() == PlanStatus::Draft {
        plan.propose()?;
    }
    if plan.status() == PlanStatus::Proposed {
        plan.approve(&ConfirmDecision::approved("mplp-collab-simulate"))?;
    }
    if plan.status() == PlanStatus::Approved {
        plan.start()?;
    }
    Ok(plan)
}

/// The simulated Collab: `agent-1..N` (the orchestrator is `orchestrator-1`),
/// roles from the plan's `agent_role`s when there is a plan.
fn sim_collab(
    config: &SimConfig,
    plan: Option<&Plan>,
    clock: &mut SimClock,
) -> Result<Collab, Error> {
    if config.participants == 0 {
        return Err(Error::single(
            "/participants",
            Rule::MIN_ITEMS,
            "a session needs at least 1 participant",
        ));
    }
    let mut plan_roles: Vec<ShortString> = Vec::new();
    if let Some(plan) = plan {
        for step in plan.steps().iter() {
            if let Some(r) = &step.agent_role {
                if !r.is_empty() && !plan_roles.contains(r) {
                    plan_roles.push(r.clone());
                }
            }
        }
    }
    let orchestrated = config.mode == CollabMode::Orchestrated;
    let mut people: Vec<Participant> = Vec::with_capacity(config.participants);
    for i in 0..config.participants {
        let p = if orchestrated && i == 0 {
            Participant::orchestrator("orchestrator-1", ParticipantKind::Agent)?
        } else {
            let k = if orchestrated { i - 1 } else { i };
            let role = match (config.mode, plan_roles.get(k % plan_roles.len().max(1))) {
                (_, Some(r)) => r.clone(),
                (CollabMode::Pair, None) => ["driver", "navigator"][k % 2].into(),
                (_, None) => format!("role-{}", k + 1).into(),
            };
            Participant::new(format!("agent-{}", k + 1), ParticipantKind::Agent)?.with_role(role)
        };
        people.push(p);
    }
    let participants = NonEmptyVec::try_from(people).map_err(|_| {
        Error::single(
            "/participants",
            Rule::MIN_ITEMS,
            "a session needs at least 1 participant",
        )
    })?;
    let collab_id = CollabId::try_from(clock.uuid()).unwrap_or_else(|_| CollabId::new());
    let context_id = plan
        .map(|p| p.context_id)
        .or_else(|| ContextId::try_from(clock.uuid()).ok())
        .unwrap_or_else(ContextId::new);
    let created = clock.now();
    Collab::new_at(
        collab_id,
        context_id,
        format!("Simulated {} session", config.mode),
        format!(
            "Simulate {} among {} (seed {})",
            mplp_core::text::count(config.turns, "turn"),
            mplp_core::text::count(config.participants, "participant"),
            config.seed
        ),
        config.mode,
        participants,
        created,
    )
}

/// The conflict strategy of a simulation: the orchestrator decides in
/// `orchestrated` sessions; otherwise chosen by the seed among hierarchy
/// (participants ranked by position), first writer wins and last writer wins.
fn sim_policy(
    config: &SimConfig,
    n: usize,
    orchestrated: bool,
    rng: &mut SplitMix64,
) -> ConflictPolicy<'static, Value> {
    if orchestrated {
        let mut choice = SplitMix64::new(rng.next_u64());
        return ConflictPolicy::OrchestratorDecides(Box::new(move |_, _| {
            if choice.chance(1, 2) {
                Winner::Incumbent
            } else {
                Winner::Challenger
            }
        }));
    }
    match config.seed % 3 {
        0 => ConflictPolicy::Hierarchy(
            (0..n)
                .map(|i| (format!("agent-{}", i + 1), u32::try_from(i).unwrap_or(0)))
                .collect::<BTreeMap<_, _>>(),
        ),
        1 => ConflictPolicy::FirstWriterWins,
        _ => ConflictPolicy::LastWriterWins,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

    use super::*;
    use crate::sink::MemorySink;
    use proptest::prelude::*;

    /// The swarm simulation with one board holding every task, claimed in
    /// order by each participant every round: the log the bounded boards
    /// must reproduce.
    fn old_swarm(config: &SimConfig) -> MemorySink {
        let mut clock = SimClock::new(config.seed);
        let mut rng = SplitMix64::new(config.seed ^ 0xA5A5_5A5A_D00D_F00D);
        let collab = sim_collab(config, None, &mut clock).unwrap();
        let n = collab.participants.len();
        let mut session = MapSession::with_clock(collab, MemorySink::new(), clock).unwrap();
        session.set_conflict_policy(sim_policy(config, n, false, &mut rng));
        session.start().unwrap();
        let mut agent = SimAgent {
            rng: SplitMix64::new(rng.next_u64()),
            seen: vec![None; n],
        };
        let tasks: Vec<String> = (1..=config.turns).map(|i| format!("task-{i}")).collect();
        let mut board = TaskBoard::new(tasks);
        while !board.all_done() {
            let mut claims = Vec::new();
            for p in 0..n {
                if let Some(c) = board.claim_next(p) {
                    claims.push(c);
                }
            }
            let names: Vec<(usize, String)> = claims
                .iter()
                .map(|c| (c.participant(), board.name(c.task()).unwrap().to_owned()))
                .collect();
            let pairs: Vec<(usize, &str)> = names.iter().map(|(p, t)| (*p, t.as_str())).collect();
            let order = shuffled(pairs.len(), &mut rng);
            session.swarm_round(&pairs, &order, &mut agent).unwrap();
            for c in claims {
                board.finish(c).unwrap();
            }
        }
        session.complete().unwrap();
        session.into_sink()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A board per round (memory bounded by the participants) writes
        /// the log of the one board of every task, byte for byte.
        #[test]
        fn swarm_rounds_write_the_old_log(n in 1usize..7, turns in 0u64..40, seed in any::<u64>()) {
            let config = SimConfig::new(CollabMode::Swarm, n, turns).with_seed(seed);
            let mut new = MemorySink::new();
            simulate(&config, &mut new).unwrap();
            prop_assert_eq!(new.to_ndjson(), old_swarm(&config).to_ndjson());
        }
    }
}
