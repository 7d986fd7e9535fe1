//! Plan driving: a plan's ready steps become the session's turns
//! ([`MapSession::run_plan`]). Session driving is in the parent module.

use mplp_core::rules::Source;
use mplp_core::{CollabMode, Error, Violation};
use mplp_events::MapEvent;

use super::{Agent, MapSession, SessionError, TurnOutcome, TurnStatus};
use crate::sink::{Clock, EventSink};

mplp_core::declare_rules! {
    /// The rules of plan driving.
    pub(crate) const RULES;

    /// A plan drives a session only when it is `approved` (then started) or
    /// `in_progress`.
    pub const MAP_PLAN_IN_PROGRESS = "map_plan_in_progress" {
        strict: Error,
        scope: Api,
        source: Source::Prose { doc: "Plan Module", section: "5.2 Execution Invariants" },
        summary: "a plan drives a session only when approved or in_progress",
    }
}

/// What [`MapSession::run_plan`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlanRun {
    /// Steps completed, in order.
    pub completed: Vec<mplp_core::StepId>,
    /// Steps failed, in order.
    pub failed: Vec<mplp_core::StepId>,
    /// Turns taken.
    pub turns: u64,
}

impl<K: EventSink<MapEvent>, C: Clock> MapSession<K, C> {
    /// Lets a plan drive the session: each turn takes one of the plan's
    /// ready steps (`Plan::ready_steps`), goes to the participant whose
    /// `role_id` equals the step's `agent_role`, starts the step, and
    /// completes or fails it with the turn's outcome, through mplp-plan's
    /// lifecycle. Stops when no step is ready or after `max_turns` turns.
    ///
    /// - `orchestrated`, `broadcast`: the orchestrator dispatches to the
    ///   matching participant; a step without a match (or without
    ///   `agent_role`) goes to the next participant in order.
    /// - `round_robin`, `pair`: the order is fixed; the participant whose
    ///   turn it is takes the first ready step of its role, else the first
    ///   ready step.
    /// - `swarm`: every ready step is claimed at once, one per participant
    ///   (matching roles first), and the claims run as overlapping turns.
    ///
    /// An `approved` plan is started; any other status but `in_progress` is refused.
    pub fn run_plan(
        &mut self,
        plan: &mut mplp_plan::Plan,
        max_turns: u64,
        agent: &mut dyn Agent,
    ) -> Result<PlanRun, SessionError> {
        use mplp_plan::PlanStatus;
        if plan.status() == PlanStatus::Approved {
            plan.start()?;
        }
        if plan.status() != PlanStatus::InProgress && plan.status() != PlanStatus::Completed {
            return Err(Error::State(Violation::error(
                "/status",
                MAP_PLAN_IN_PROGRESS,
                format!(
                    "a plan drives a session only when approved or in_progress; it is `{}`",
                    plan.status()
                ),
            ))
            .into());
        }
        let mut run = PlanRun::default();
        while run.turns < max_turns {
            let ready = plan.ready_steps();
            if ready.is_empty() {
                break;
            }
            if self.collab.mode == CollabMode::Swarm {
                let budget = usize::try_from(max_turns - run.turns).unwrap_or(usize::MAX);
                let claims = self.swarm_claims(plan, &ready, budget);
                let tasks: Vec<(usize, mplp_core::StepId, String)> = claims
                    .into_iter()
                    .filter_map(|(h, id)| plan.step(id).map(|s| (h, id, s.description.to_string())))
                    .collect();
                for (_, id, _) in &tasks {
                    plan.step_mut(*id)?.start()?;
                }
                let pairs: Vec<(usize, &str)> =
                    tasks.iter().map(|(h, _, d)| (*h, d.as_str())).collect();
                let outcomes = self.swarm_round(&pairs, &[], agent)?;
                for ((_, id, _), o) in tasks.iter().zip(outcomes) {
                    settle_step(plan, *id, &o, &mut run)?;
                }
                continue;
            }
            let Some(first) = ready.first().copied() else {
                break;
            };
            let (holder, step) = self.pick(plan, first, &ready);
            let description = plan
                .step(step)
                .map(|s| s.description.to_string())
                .unwrap_or_default();
            plan.step_mut(step)?.start()?;
            let outcome = match (self.collab.mode, holder) {
                (CollabMode::RoundRobin | CollabMode::Pair, _) | (_, None) => {
                    let token = self.dispatch(None, Some(&description))?;
                    self.finish(token, Some(&description), agent)?
                }
                (_, Some(h)) => self.turn_for(h, Some(&description), agent)?,
            };
            settle_step(plan, step, &outcome, &mut run)?;
        }
        Ok(run)
    }

    fn role_holder(&self, role: Option<&str>, busy: &[usize]) -> Option<usize> {
        let role = role?;
        self.collab
            .participants
            .iter()
            .enumerate()
            .find(|(i, p)| !busy.contains(i) && p.role_id.as_deref() == Some(role))
            .map(|(i, _)| i)
    }

    /// The participant and step of the next plan-driven turn (sequential modes).
    fn pick(
        &self,
        plan: &mplp_plan::Plan,
        first: mplp_core::StepId,
        ready: &[mplp_core::StepId],
    ) -> (Option<usize>, mplp_core::StepId) {
        let role_of = |id: &mplp_core::StepId| plan.step(*id).and_then(|s| s.agent_role.as_deref());
        if matches!(self.collab.mode, CollabMode::RoundRobin | CollabMode::Pair) {
            let next = self.turns.peek_next();
            let my_role = next
                .and_then(|i| self.collab.participants.get(i))
                .and_then(|p| p.role_id.as_deref());
            let step = my_role
                .and_then(|mine| ready.iter().copied().find(|id| role_of(id) == Some(mine)))
                .unwrap_or(first);
            return (next, step);
        }
        (self.role_holder(role_of(&first), &[]), first)
    }

    /// Swarm claims: each ready step to an idle participant of its role,
    /// else to any idle participant; at most one step per participant.
    fn swarm_claims(
        &self,
        plan: &mplp_plan::Plan,
        ready: &[mplp_core::StepId],
        budget: usize,
    ) -> Vec<(usize, mplp_core::StepId)> {
        let mut busy: Vec<usize> = Vec::new();
        let mut claims = Vec::new();
        let mut unmatched = Vec::new();
        for id in ready {
            let role = plan.step(*id).and_then(|s| s.agent_role.as_deref());
            match self.role_holder(role, &busy) {
                Some(h) => {
                    busy.push(h);
                    claims.push((h, *id));
                }
                None => unmatched.push(*id),
            }
        }
        for id in unmatched {
            if let Some(h) = (0..self.collab.participants.len()).find(|i| !busy.contains(i)) {
                busy.push(h);
                claims.push((h, id));
            }
        }
        claims.truncate(budget);
        claims
    }
}

fn settle_step(
    plan: &mut mplp_plan::Plan,
    step: mplp_core::StepId,
    outcome: &TurnOutcome,
    run: &mut PlanRun,
) -> Result<(), SessionError> {
    run.turns += 1;
    match outcome.status {
        TurnStatus::Completed => {
            plan.step_mut(step)?.complete()?;
            run.completed.push(step);
        }
        TurnStatus::Failed => {
            plan.step_mut(step)?.fail()?;
            run.failed.push(step);
        }
    }
    Ok(())
}
