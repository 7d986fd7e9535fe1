//! The plan and step lifecycles: the transition tables of the seed (one
//! place per entity, [`PlanStatus::can_transition_to`] and
//! [`StepStatus::can_transition_to`]), the triggers that drive them, and the
//! execution invariants that tie step and plan statuses together.
//!
//! Every trigger appends a [`BaseEvent`] to the plan's `events`, so that the
//! document carries its own history:
//!
//! | event type | when | data |
//! |---|---|---|
//! | `plan.status.changed` | any plan transition | `from`, `to`, `trigger` (+ `confirm` for approve/reject) |
//! | `plan.step.started` / `.completed` / `.failed` / `.skipped` | the step trigger of the same name | `step_id`, `from`, `to` |
//! | `plan.step.blocked` / `plan.step.unblocked` | a dependency failed / the retried dependency completed | `step_id`, `from`, `to`, `cause` |
//! | `plan.step.retried` | [`StepMut::retry`] | `step_id` (the failed one), `new_step_id` |

use std::collections::BTreeSet;

use mplp_confirm::{Confirm, ConfirmTargetType};
use mplp_core::rules::Source;
use mplp_core::{
    BaseEvent, ConfirmId, Error, EventType, JsonObject, Report, StepId, TransitionError, Violation,
};
use serde_json::Value;

use crate::index::Index;
use crate::rules::is_done;
use crate::{Plan, PlanStatus, PlanStep, StepStatus};

/// Event type of every plan status change.
pub const PLAN_STATUS_CHANGED: EventType = EventType::from_static("plan.status.changed");
/// Event type of [`StepMut::start`].
pub const STEP_STARTED: EventType = EventType::from_static("plan.step.started");
/// Event type of [`StepMut::complete`].
pub const STEP_COMPLETED: EventType = EventType::from_static("plan.step.completed");
/// Event type of [`StepMut::fail`].
pub const STEP_FAILED: EventType = EventType::from_static("plan.step.failed");
/// Event type of [`StepMut::skip`].
pub const STEP_SKIPPED: EventType = EventType::from_static("plan.step.skipped");
/// Event type of a pending step blocked by a failed dependency.
pub const STEP_BLOCKED: EventType = EventType::from_static("plan.step.blocked");
/// Event type of a blocked step that returns to pending.
pub const STEP_UNBLOCKED: EventType = EventType::from_static("plan.step.unblocked");
/// Event type of [`StepMut::retry`].
pub const STEP_RETRIED: EventType = EventType::from_static("plan.step.retried");

/// The `source` of the events the lifecycle appends.
pub const EVENT_SOURCE: &str = "plan";

mplp_core::declare_rules! {
    /// The rules of the lifecycle API.
    pub const RULES;

    /// The rule of an operation on a step id that is not in the plan.
    pub const UNKNOWN_STEP = "unknown-step" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-plan: Lifecycle" },
        summary: "an operation names a step id that is not in the plan",
    }

    /// The rule of a Confirm applied to a plan it does not target (or that
    /// has no decision to apply).
    pub const PLAN_CONFIRM_TARGET = "plan_confirm_target" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-plan: Plan and Confirm" },
        summary: "a Confirm applied to a plan targets another document, or has no decision",
    }
}

impl PlanStatus {
    /// The plan lifecycle table of the seed (Plan Module §3.3), the only
    /// place it lives:
    ///
    /// | from | to | trigger |
    /// |---|---|---|
    /// | draft | proposed | [`Plan::propose`] |
    /// | draft | cancelled | [`Plan::cancel`] |
    /// | proposed | approved | [`Plan::approve`] (Confirm approved) |
    /// | proposed | draft | [`Plan::reject`] (Confirm not approved) |
    /// | approved | in_progress | [`Plan::start`] |
    /// | in_progress | completed | all steps completed or skipped (derived) |
    /// | in_progress | failed | a critical step failed (derived) |
    /// | in_progress | cancelled | [`Plan::cancel`] |
    ///
    /// ```
    /// use mplp_plan::PlanStatus::*;
    /// assert!(Draft.can_transition_to(Proposed));
    /// assert!(!Approved.can_transition_to(Cancelled)); // not in the seed's table
    /// ```
    pub const fn can_transition_to(self, next: PlanStatus) -> bool {
        use PlanStatus::*;
        matches!(
            (self, next),
            (Draft, Proposed)
                | (Draft, Cancelled)
                | (Proposed, Approved)
                | (Proposed, Draft)
                | (Approved, InProgress)
                | (InProgress, Completed)
                | (InProgress, Failed)
                | (InProgress, Cancelled)
        )
    }

    /// True for `completed`, `cancelled` and `failed`: nothing follows them.
    pub fn is_terminal(self) -> bool {
        PlanStatus::ALL.iter().all(|&n| !self.can_transition_to(n))
    }

    /// `Ok(next)` when the table allows `self → next`, else the typed error.
    pub fn transition(self, next: PlanStatus) -> Result<PlanStatus, TransitionError> {
        if self.can_transition_to(next) {
            Ok(next)
        } else {
            Err(TransitionError::new(
                "plan",
                "/status",
                self.as_str(),
                next.as_str(),
                refusal(
                    self.is_terminal(),
                    self.as_str(),
                    successors(PlanStatus::ALL, |n| self.can_transition_to(n)),
                ),
            ))
        }
    }
}

impl StepStatus {
    /// The step lifecycle table of the seed (Plan Module §3.3), the only
    /// place it lives:
    ///
    /// | from | to | trigger |
    /// |---|---|---|
    /// | pending | in_progress | [`StepMut::start`] (all dependencies done) |
    /// | pending | blocked | a dependency failed (derived) |
    /// | pending | skipped | [`StepMut::skip`] |
    /// | in_progress | completed | [`StepMut::complete`] |
    /// | in_progress | failed | [`StepMut::fail`] |
    /// | blocked | pending | the failed dependency's retry completed (derived) |
    ///
    /// ```
    /// use mplp_plan::StepStatus::*;
    /// assert!(Pending.can_transition_to(InProgress));
    /// assert!(!Failed.can_transition_to(Pending)); // retry makes a new attempt instead
    /// ```
    pub const fn can_transition_to(self, next: StepStatus) -> bool {
        use StepStatus::*;
        matches!(
            (self, next),
            (Pending, InProgress)
                | (Pending, Blocked)
                | (Pending, Skipped)
                | (InProgress, Completed)
                | (InProgress, Failed)
                | (Blocked, Pending)
        )
    }

    /// True for `completed`, `skipped` and `failed`.
    pub fn is_terminal(self) -> bool {
        StepStatus::ALL.iter().all(|&n| !self.can_transition_to(n))
    }

    /// `Ok(next)` when the table allows `self → next`, else the typed error
    /// (located at `pointer`, e.g. `/steps/3/status`).
    pub fn transition(
        self,
        next: StepStatus,
        pointer: impl Into<String>,
    ) -> Result<StepStatus, TransitionError> {
        if self.can_transition_to(next) {
            Ok(next)
        } else {
            Err(TransitionError::new(
                "step",
                pointer,
                self.as_str(),
                next.as_str(),
                refusal(
                    self.is_terminal(),
                    self.as_str(),
                    successors(StepStatus::ALL, |n| self.can_transition_to(n)),
                ),
            ))
        }
    }
}

fn successors<T: Copy + std::fmt::Display>(all: &[T], ok: impl Fn(T) -> bool) -> String {
    all.iter()
        .filter(|&&n| ok(n))
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn refusal(terminal: bool, from: &str, next: String) -> String {
    if terminal {
        format!("`{from}` is a final status")
    } else {
        format!("from `{from}` the lifecycle only allows {next}")
    }
}

/// The Confirm module's decision on a proposed plan: the real
/// [`mplp_confirm::ConfirmDecision`] (the seed ties `proposed → approved` to
/// `Confirm.approved = true` and `proposed → draft` to
/// `Confirm.approved = false`, i.e. a decision `rejected` or `cancelled`).
///
/// ```
/// use mplp_plan::ConfirmDecision;
/// let yes = ConfirmDecision::approved("alice").with_reason("looks right");
/// assert!(yes.is_approval());
/// assert!(!ConfirmDecision::rejected("bob").is_approval());
/// ```
pub use mplp_confirm::ConfirmDecision;

/// The plan status a decision leads to from `proposed`, and the trigger's name.
fn decision_target(decision: &ConfirmDecision) -> (PlanStatus, &'static str) {
    if decision.is_approval() {
        (PlanStatus::Approved, "approve")
    } else {
        (PlanStatus::Draft, "reject")
    }
}

/// The event data of a decision (`data.confirm` of `plan.status.changed`).
fn decision_data(decision: &ConfirmDecision, confirm: Option<ConfirmId>) -> Value {
    let mut o = JsonObject::new();
    o.insert("approved", decision.is_approval());
    if let Some(id) = confirm {
        o.insert("confirm_id", id.to_string());
    }
    o.insert("decision_id", decision.decision_id.to_string());
    o.insert("status", decision.status.as_str());
    o.insert("decided_by_role", decision.decided_by_role.clone());
    o.insert("decided_at", decision.decided_at.to_string());
    if let Some(why) = &decision.reason {
        o.insert("reason", why.clone());
    }
    o.into()
}

/// Which steps are critical: when a critical step fails, the plan fails
/// (seed: "Plan is failed when ANY critical step is failed"). The schema has
/// no critical flag, so this is a policy of the caller; the default is
/// [`CriticalSteps::All`].
///
/// ```
/// use mplp_plan::CriticalSteps;
/// use mplp_core::StepId;
/// let a = StepId::new();
/// let only_a = CriticalSteps::Only([a].into_iter().collect());
/// assert!(matches!(CriticalSteps::default(), CriticalSteps::All));
/// # let _ = only_a;
/// ```
#[derive(Clone, Debug, Default)]
pub enum CriticalSteps {
    /// Every step is critical: any failure fails the plan.
    #[default]
    All,
    /// No step is critical: failures only block the dependents.
    None,
    /// Only these steps are critical.
    Only(BTreeSet<StepId>),
    /// Every step except these is critical.
    Except(BTreeSet<StepId>),
    /// Decided by a function of the step.
    Predicate(fn(&PlanStep) -> bool),
}

impl CriticalSteps {
    /// Whether `step` is critical under this policy.
    pub fn is_critical(&self, step: &PlanStep) -> bool {
        match self {
            CriticalSteps::All => true,
            CriticalSteps::None => false,
            CriticalSteps::Only(set) => set.contains(&step.step_id),
            CriticalSteps::Except(set) => !set.contains(&step.step_id),
            CriticalSteps::Predicate(f) => f(step),
        }
    }
}

impl Plan {
    fn record(&mut self, event_type: EventType, data: JsonObject) {
        let mut event = BaseEvent::new(event_type, EVENT_SOURCE).with_data(data);
        if let Some(trace) = &self.trace {
            event = event.with_trace(trace.trace_id);
        }
        self.events.get_or_insert_with(Vec::new).push(event);
    }

    fn set_status(
        &mut self,
        to: PlanStatus,
        trigger: &str,
        extra: Option<Value>,
    ) -> Result<(), Error> {
        let from = self.status;
        from.transition(to)?;
        self.status = to;
        let mut data = JsonObject::new();
        data.insert("from", from.as_str());
        data.insert("to", to.as_str());
        data.insert("trigger", trigger);
        if let Some(extra) = extra {
            data.insert("confirm", extra);
        }
        self.record(PLAN_STATUS_CHANGED, data);
        Ok(())
    }

    /// `draft → proposed`: an agent submits the plan.
    ///
    /// ```
    /// use mplp_plan::{ConfirmDecision, Plan, PlanStatus};
    /// let mut b = Plan::builder(mplp_core::ContextId::new(), "Fix login bug", "Fix the 500 on /login");
    /// b.step("Read error logs");
    /// let mut plan = b.build()?;
    /// plan.propose()?;
    /// plan.approve(&ConfirmDecision::approved("alice"))?;
    /// plan.start()?;
    /// assert_eq!(plan.status(), PlanStatus::InProgress);
    /// assert!(plan.propose().is_err()); // in_progress → proposed is not in the table
    /// assert_eq!(plan.events.as_ref().map(Vec::len), Some(3));
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn propose(&mut self) -> Result<(), Error> {
        self.set_status(PlanStatus::Proposed, "propose", None)
    }

    /// `proposed → approved`, on an approving Confirm decision (a rejection
    /// or cancellation is refused: use [`Plan::reject`]). The decision is
    /// recorded in the plan's `plan.status.changed` event; to record it in
    /// the Confirm document too, use [`Plan::decide`].
    pub fn approve(&mut self, decision: &ConfirmDecision) -> Result<(), Error> {
        if !decision.is_approval() {
            return Err(TransitionError::new(
                "plan",
                "/status",
                self.status.as_str(),
                PlanStatus::Approved.as_str(),
                format!(
                    "the Confirm decision is `{}`, not an approval (Confirm.approved = false); use reject",
                    decision.status
                ),
            )
            .into());
        }
        self.apply_decision(decision, None)
    }

    /// `proposed → draft`, on a Confirm decision that does not approve
    /// (`rejected`, or `cancelled`: the request was withdrawn).
    pub fn reject(&mut self, decision: &ConfirmDecision) -> Result<(), Error> {
        if decision.is_approval() {
            return Err(TransitionError::new(
                "plan",
                "/status",
                self.status.as_str(),
                PlanStatus::Draft.as_str(),
                "the Confirm decision approves the plan (Confirm.approved = true); use approve",
            )
            .into());
        }
        self.apply_decision(decision, None)
    }

    /// Applies a Confirm decision: [`Plan::approve`] or [`Plan::reject`].
    pub fn confirm(&mut self, decision: &ConfirmDecision) -> Result<(), Error> {
        self.apply_decision(decision, None)
    }

    fn apply_decision(
        &mut self,
        decision: &ConfirmDecision,
        confirm: Option<ConfirmId>,
    ) -> Result<(), Error> {
        let (to, trigger) = decision_target(decision);
        self.set_status(to, trigger, Some(decision_data(decision, confirm)))
    }

    /// Approving driven by a Confirm: takes `decision` on `confirm` (which
    /// must target this plan) and applies it to the plan, both or neither.
    /// The Confirm records the decision in its `decisions` (and moves its
    /// status by its own table); the plan moves `proposed → approved` on an
    /// approval, `proposed → draft` otherwise, and its event names the
    /// Confirm and the decision.
    ///
    /// ```
    /// use mplp_confirm::{Confirm, ConfirmStatus};
    /// use mplp_plan::{ConfirmDecision, Plan, PlanStatus};
    /// let mut b = Plan::builder(mplp_core::ContextId::new(), "Migrate users", "Zero downtime");
    /// b.step("Export the user table");
    /// let mut plan = b.build()?;
    /// let mut confirm = Confirm::for_plan(plan.plan_id, "agent");
    /// plan.propose()?;
    /// plan.decide(&mut confirm, ConfirmDecision::rejected("dba").with_reason("no rollback"))?;
    /// assert_eq!((plan.status(), confirm.status()), (PlanStatus::Draft, ConfirmStatus::Rejected));
    /// plan.propose()?;
    /// plan.decide(&mut confirm, ConfirmDecision::approved("dba"))?;
    /// assert_eq!((plan.status(), confirm.status()), (PlanStatus::Approved, ConfirmStatus::Approved));
    /// assert_eq!(confirm.decisions().len(), 2);
    /// // Approved is final for the Confirm: nothing changes on either side.
    /// assert!(plan.decide(&mut confirm, ConfirmDecision::rejected("dba")).is_err());
    /// assert_eq!(plan.status(), PlanStatus::Approved);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`PLAN_CONFIRM_TARGET`] (at `/target_id` of the Confirm) when the
    /// Confirm targets another document; a [`TransitionError`] when the
    /// plan is not `proposed` or the Confirm's table refuses the decision;
    /// `confirm_unique_decision_ids` when the Confirm already has a
    /// decision with that id. On any error neither document changes.
    pub fn decide(
        &mut self,
        confirm: &mut Confirm,
        decision: ConfirmDecision,
    ) -> Result<(), Error> {
        self.check_confirm_target(confirm)?;
        let (to, _) = decision_target(&decision);
        self.status.transition(to)?;
        let data = decision.clone();
        confirm.decide(decision)?;
        self.apply_decision(&data, Some(confirm.confirm_id))
    }

    /// Applies a Confirm decided elsewhere (read from a file, say): its
    /// last decision moves the plan as [`Plan::decide`] would, and the
    /// plan's event names the Confirm. The Confirm must target this plan
    /// and have a decision.
    ///
    /// ```
    /// use mplp_confirm::Confirm;
    /// use mplp_plan::{Plan, PlanStatus};
    /// let mut b = Plan::builder(mplp_core::ContextId::new(), "Migrate users", "Zero downtime");
    /// b.step("Export the user table");
    /// let mut plan = b.build()?;
    /// plan.propose()?;
    /// let mut confirm = Confirm::for_plan(plan.plan_id, "agent");
    /// assert!(plan.apply_confirm(&confirm).is_err()); // no decision yet
    /// confirm.approve("dba")?;
    /// plan.apply_confirm(&confirm)?;
    /// assert_eq!(plan.status(), PlanStatus::Approved);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`PLAN_CONFIRM_TARGET`] when the Confirm targets another document
    /// or has no decision; a [`TransitionError`] when the plan is not
    /// `proposed`.
    pub fn apply_confirm(&mut self, confirm: &Confirm) -> Result<(), Error> {
        self.check_confirm_target(confirm)?;
        let Some(last) = confirm.last_decision() else {
            return Err(Error::State(Violation::error(
                "/decisions",
                PLAN_CONFIRM_TARGET,
                format!(
                    "Confirm {} has no decision yet; there is nothing to apply to the plan",
                    confirm.confirm_id
                ),
            )));
        };
        self.apply_decision(last, Some(confirm.confirm_id))
    }

    fn check_confirm_target(&self, confirm: &Confirm) -> Result<(), Error> {
        if confirm.target_type == ConfirmTargetType::Plan && confirm.targets(self.plan_id) {
            return Ok(());
        }
        Err(Error::State(Violation::error(
            "/target_id",
            PLAN_CONFIRM_TARGET,
            format!(
                "Confirm {} targets {} {}, not this plan ({})",
                confirm.confirm_id, confirm.target_type, confirm.target_id, self.plan_id
            ),
        )))
    }

    /// `approved → in_progress`: the runtime starts the plan. (The seed also
    /// requires the Context to be `active`; the plan does not hold its
    /// Context, so the caller checks it with `mplp_context::Context::ensure_active`,
    /// and `mplp-check` reports an `in_progress` plan whose Context is not
    /// `active`.) If every step was already
    /// skipped, the plan completes at once.
    pub fn start(&mut self) -> Result<(), Error> {
        self.set_status(PlanStatus::InProgress, "start", None)?;
        self.derive_completion()
    }

    /// `draft → cancelled` or `in_progress → cancelled`: the user abandons
    /// the plan. Steps that were running stay `in_progress` (the step table
    /// has no way from `in_progress` to anything but `completed`/`failed`);
    /// validation reports them as a warning.
    pub fn cancel(&mut self) -> Result<(), Error> {
        self.set_status(PlanStatus::Cancelled, "cancel", None)
    }

    /// An `in_progress` plan whose steps are all completed or skipped
    /// becomes `completed` (after a step's trigger, or an edit of the steps).
    pub(crate) fn derive_completion(&mut self) -> Result<(), Error> {
        if self.status == PlanStatus::InProgress && self.lifecycle_index().all_done() {
            self.set_status(PlanStatus::Completed, "all_steps_done", None)?;
        }
        Ok(())
    }

    /// The lifecycle index (`src/index.rs`), built on first use.
    fn lifecycle_index(&self) -> &Index {
        self.index.get(&self.steps)
    }

    /// The index of the step with this id (its first occurrence). O(1)
    /// (the first call on a plan builds the lifecycle index, O(V + E)).
    pub fn position(&self, step: StepId) -> Option<usize> {
        self.lifecycle_index().position(&step)
    }

    /// The step with this id (its first occurrence). O(1), as [`Plan::position`].
    pub fn step(&self, step: StepId) -> Option<&PlanStep> {
        self.position(step).map(|i| &self.steps[i])
    }

    /// A handle to drive the lifecycle of one step
    /// ([`StepMut::start`], [`StepMut::complete`], [`StepMut::fail`],
    /// [`StepMut::skip`], [`StepMut::retry`]).
    ///
    /// ```
    /// use mplp_plan::{ConfirmDecision, Plan, PlanStatus, StepStatus};
    /// let mut b = Plan::builder(mplp_core::ContextId::new(), "Fix login bug", "Fix the 500 on /login");
    /// let logs = b.step("Read error logs");
    /// let cause = b.step_after("Identify the root cause", &[logs]);
    /// let mut plan = b.build()?;
    /// plan.propose()?;
    /// plan.approve(&ConfirmDecision::approved("lead"))?;
    /// plan.start()?;
    /// assert!(plan.step_mut(cause)?.start().is_err()); // its dependency is not done
    /// plan.step_mut(logs)?.start()?;
    /// plan.step_mut(logs)?.complete()?;
    /// plan.step_mut(cause)?.start()?;
    /// plan.step_mut(cause)?.complete()?;
    /// assert_eq!(plan.status(), PlanStatus::Completed); // derived
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn step_mut(&mut self, step: StepId) -> Result<StepMut<'_>, Error> {
        match self.position(step) {
            Some(index) => Ok(StepMut { plan: self, index }),
            None => Err(Error::State(Violation::error(
                "/steps",
                UNKNOWN_STEP,
                format!("no step of this plan has step_id {step}"),
            ))),
        }
    }

    /// The pending steps that [`StepMut::start`] would accept now: the plan
    /// is `in_progress` and all their dependencies are completed or skipped.
    /// In plan order. O(k) for k ready steps: the set is kept up to date by
    /// the triggers (see [`Plan::first_ready`] and [`Plan::ready_iter`] to
    /// take only the first few).
    pub fn ready_steps(&self) -> Vec<StepId> {
        self.ready_iter().collect()
    }

    /// [`Plan::ready_steps`] as a lazy iterator: the first ready step costs
    /// O(log V), each next one O(1) (`plan.ready_iter().take(workers)`).
    pub fn ready_iter(&self) -> impl Iterator<Item = StepId> + '_ {
        (self.status == PlanStatus::InProgress)
            .then(|| {
                self.lifecycle_index()
                    .ready()
                    .map(|i| self.steps[i].step_id)
            })
            .into_iter()
            .flatten()
    }

    /// The first of [`Plan::ready_steps`] (in plan order), in O(log V). A
    /// scheduler that takes one step at a time drives any plan in
    /// O((V + E) log V), however many steps are ready at once:
    ///
    /// ```
    /// use mplp_plan::{ConfirmDecision, Plan, PlanStatus};
    /// let mut b = Plan::builder(mplp_core::ContextId::new(), "Fan out", "One step, then many");
    /// let root = b.step("Prepare");
    /// for k in 0..100 {
    ///     b.step_after(format!("Part {k}"), &[root]);
    /// }
    /// let mut plan = b.build()?;
    /// plan.propose()?;
    /// plan.approve(&ConfirmDecision::approved("lead"))?;
    /// plan.start()?;
    /// assert_eq!(plan.first_ready(), Some(root));
    /// plan.step_mut(root)?.start()?;
    /// plan.step_mut(root)?.complete()?;
    /// assert_eq!(plan.ready_iter().count(), 100);
    /// while let Some(id) = plan.first_ready() {
    ///     plan.step_mut(id)?.start()?;
    ///     plan.step_mut(id)?.complete()?;
    /// }
    /// assert_eq!(plan.status(), PlanStatus::Completed);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn first_ready(&self) -> Option<StepId> {
        self.ready_iter().next()
    }

    /// Every semantic rule (as `check_rules`), as a report.
    pub fn check(&self) -> Report {
        let mut report = Report::new();
        crate::rules::check(self, &mut report);
        report
    }
}

/// A step of a plan, borrowed to drive its lifecycle (see [`Plan::step_mut`]).
///
/// Each trigger checks the step table, the execution invariants, updates the
/// dependents and the derived plan status, and appends events. Each costs
/// O(1 + d) for a step with d dependents (plus `log V` for the set of ready
/// steps), so that driving a whole plan costs O(V + E) in total (times
/// `log V`); the first trigger on a plan builds its lifecycle index, once,
/// in O(V + E).
#[derive(Debug)]
pub struct StepMut<'p> {
    plan: &'p mut Plan,
    index: usize,
}

impl StepMut<'_> {
    /// The step.
    pub fn get(&self) -> &PlanStep {
        &self.plan.steps[self.index]
    }

    fn pointer(&self) -> String {
        format!("/steps/{}/status", self.index)
    }

    fn refuse(&self, to: StepStatus, reason: String) -> Error {
        TransitionError::new(
            "step",
            self.pointer(),
            self.get().status.as_str(),
            to.as_str(),
            reason,
        )
        .into()
    }

    fn set(
        &mut self,
        i: usize,
        to: StepStatus,
        event: EventType,
        cause: Option<StepId>,
    ) -> Result<(), Error> {
        let step = &mut self.plan.steps.as_mut_slice()[i];
        let from = step.status;
        from.transition(to, format!("/steps/{i}/status"))?;
        step.status = to;
        let id = step.step_id;
        let plan = &mut *self.plan;
        if let Some(index) = plan.index.get_mut() {
            index.on_status(&plan.steps, i, from);
        }
        let mut data = JsonObject::new();
        data.insert("step_id", id.to_string());
        data.insert("from", from.as_str());
        data.insert("to", to.as_str());
        if let Some(cause) = cause {
            data.insert("cause", cause.to_string());
        }
        self.plan.record(event, data);
        Ok(())
    }

    fn require_running_plan(&self, to: StepStatus) -> Result<(), Error> {
        if self.plan.status == PlanStatus::InProgress {
            Ok(())
        } else {
            Err(self.refuse(
                to,
                format!(
                    "a step can only change while the plan is in_progress, and the plan is `{}`",
                    self.plan.status
                ),
            ))
        }
    }

    /// `pending → in_progress`: only while the plan is `in_progress` and
    /// when every dependency is `completed` or `skipped`.
    pub fn start(mut self) -> Result<(), Error> {
        self.require_running_plan(StepStatus::InProgress)?;
        self.get()
            .status
            .transition(StepStatus::InProgress, self.pointer())?;
        let index = self.plan.lifecycle_index();
        if !index.deps_done(self.index) {
            let waiting: Vec<String> = self
                .get()
                .dependency_ids()
                .iter()
                .filter(|d| {
                    index
                        .position(d)
                        .is_none_or(|k| !is_done(self.plan.steps[k].status) || k == self.index)
                })
                .map(|d| d.to_string())
                .collect();
            return Err(self.refuse(
                StepStatus::InProgress,
                format!(
                    "a step starts only when all its dependencies are completed or skipped; still waiting for {}",
                    waiting.join(", ")
                ),
            ));
        }
        let i = self.index;
        self.set(i, StepStatus::InProgress, STEP_STARTED, None)
    }

    /// `in_progress → completed`. Blocked dependents with no failed
    /// dependency left return to `pending`; when every step is completed or
    /// skipped, the plan becomes `completed`.
    pub fn complete(mut self) -> Result<(), Error> {
        self.require_running_plan(StepStatus::Completed)?;
        let i = self.index;
        self.set(i, StepStatus::Completed, STEP_COMPLETED, None)?;
        let id = self.get().step_id;
        let index = self.plan.lifecycle_index();
        let steps = &self.plan.steps;
        let unblocked: Vec<u32> = index
            .dependents(i)
            .iter()
            .copied()
            .filter(|&d| {
                steps[d as usize].status == StepStatus::Blocked && !index.has_failed_dep(d as usize)
            })
            .collect();
        for d in unblocked {
            self.set(d as usize, StepStatus::Pending, STEP_UNBLOCKED, Some(id))?;
        }
        self.plan.derive_completion()
    }

    /// `in_progress → failed`, with every step critical (see
    /// [`StepMut::fail_with`]).
    pub fn fail(self) -> Result<(), Error> {
        self.fail_with(&CriticalSteps::All)
    }

    /// `in_progress → failed`. Pending dependents become `blocked`; if the
    /// step is critical under `critical`, the plan becomes `failed`.
    pub fn fail_with(mut self, critical: &CriticalSteps) -> Result<(), Error> {
        self.require_running_plan(StepStatus::Failed)?;
        let i = self.index;
        self.set(i, StepStatus::Failed, STEP_FAILED, None)?;
        let id = self.get().step_id;
        let steps = &self.plan.steps;
        let blocked: Vec<u32> = self
            .plan
            .lifecycle_index()
            .dependents(i)
            .iter()
            .copied()
            .filter(|&d| steps[d as usize].status == StepStatus::Pending)
            .collect();
        for d in blocked {
            self.set(d as usize, StepStatus::Blocked, STEP_BLOCKED, Some(id))?;
        }
        if critical.is_critical(self.get()) {
            self.plan
                .set_status(PlanStatus::Failed, "critical_step_failed", None)?;
        }
        Ok(())
    }

    /// `pending → skipped` (conditional logic), while the plan is not
    /// finished. A skipped step counts as done for its dependents and for
    /// the plan's completion.
    pub fn skip(mut self) -> Result<(), Error> {
        if self.plan.status.is_terminal() {
            return Err(self.refuse(
                StepStatus::Skipped,
                format!("the plan is `{}`, a final status", self.plan.status),
            ));
        }
        let i = self.index;
        self.set(i, StepStatus::Skipped, STEP_SKIPPED, None)?;
        self.plan.derive_completion()
    }

    /// Retries a failed step while the plan is `in_progress`. The table has
    /// no way out of `failed`, so the retry is a new attempt: the failed step
    /// is replaced, at the same position, by a pending copy with a fresh
    /// `step_id` (same description, role, dependencies and `order_index`),
    /// every dependency on the failed step now names the new one, and a
    /// `plan.step.retried` event keeps the failed attempt in the history.
    /// The dependents blocked by the failure return to `pending` when the
    /// new attempt completes ("dependency retry success").
    ///
    /// Returns the new step's id.
    pub fn retry(self) -> Result<StepId, Error> {
        let step = self.get();
        if step.status != StepStatus::Failed {
            return Err(self.refuse(
                StepStatus::Pending,
                format!(
                    "only a failed step can be retried, and this one is `{}`",
                    step.status
                ),
            ));
        }
        self.require_running_plan(StepStatus::Pending)?;
        let old = step.step_id;
        let new = StepId::new();
        let i = self.index;
        let plan = self.plan;
        let _ = plan.lifecycle_index(); // built, so that it can follow
        let rename = |s: &mut PlanStep| {
            if let Some(deps) = &mut s.dependencies {
                for d in deps.iter_mut().filter(|d| **d == old) {
                    *d = new;
                }
            }
        };
        let steps = plan.steps.as_mut_slice();
        match plan.index.get_mut() {
            // Only the dependents of the step name it (and the step
            // itself, in a plan read unchecked): rename there.
            Some(index) if index.unique_ids() => {
                rename(&mut steps[i]);
                for &d in index.dependents(i) {
                    rename(&mut steps[d as usize]);
                }
                index.rename(&old, &new, i);
            }
            // A repeated id (a plan read unchecked): look everywhere, and
            // let the index be built again.
            _ => {
                steps.iter_mut().for_each(rename);
                plan.index.clear();
            }
        }
        let slot = &mut steps[i];
        slot.step_id = new;
        slot.status = StepStatus::Pending;
        if let Some(index) = plan.index.get_mut() {
            index.on_status(steps, i, StepStatus::Failed);
        }
        let mut data = JsonObject::new();
        data.insert("step_id", old.to_string());
        data.insert("new_step_id", new.to_string());
        plan.record(STEP_RETRIED, data);
        Ok(new)
    }
}
