//! The wire types: [`Plan`], [`PlanStep`], [`PlanStatus`] and [`StepStatus`],
//! exactly as `schemas/mplp-plan.schema.json` describes them.

use mplp_core::check::CheckValue;
use mplp_core::{
    BaseEvent, ContextId, Meta, NonEmpty, NonEmptyString, NonEmptyVec, PlanId, Pointer, Report,
    Rule, ShortString, StepId, TraceBase, Wire,
};
use serde_json::Value;

use crate::index::LifecycleIndex;

mplp_core::wire_enum! {
    /// Where a [`Plan`] is in its lifecycle (schema: `status`).
    ///
    /// The allowed transitions are given by [`PlanStatus::can_transition_to`].
    pub enum PlanStatus {
        /// Being written; not yet submitted.
        Draft = "draft",
        /// Submitted by an agent, waiting for a Confirm decision.
        Proposed = "proposed",
        /// Confirmed; ready to run.
        Approved = "approved",
        /// Running.
        InProgress = "in_progress",
        /// Every step completed or was skipped (final).
        Completed = "completed",
        /// Abandoned by the user (final).
        Cancelled = "cancelled",
        /// A critical step failed (final).
        Failed = "failed",
    }
}

mplp_core::wire_enum! {
    /// The execution state of a [`PlanStep`] (schema: `plan_step_core.status`).
    ///
    /// The allowed transitions are given by [`StepStatus::can_transition_to`].
    pub enum StepStatus {
        /// Not started.
        Pending = "pending",
        /// Running.
        InProgress = "in_progress",
        /// Finished successfully (final).
        Completed = "completed",
        /// Cannot run because a dependency failed.
        Blocked = "blocked",
        /// Not needed (conditional logic, final).
        Skipped = "skipped",
        /// Finished with an error (final).
        Failed = "failed",
    }
}

/// An MPLP Plan: the work a group of agents intends to do, broken into steps
/// with dependencies (`schemas/mplp-plan.schema.json`).
///
/// Read one with [`Document::from_json`](mplp_core::Document::from_json)
/// (which also runs the DAG and status rules), build one with
/// [`Plan::builder`], drive it with the lifecycle methods
/// ([`Plan::propose`], [`Plan::start`], [`Plan::step_mut`], ...).
///
/// ```
/// use mplp_core::Document;
/// use mplp_plan::{Plan, PlanStatus};
/// let json = r#"{
///   "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
///   "plan_id": "27650952-d4ac-41e7-948b-97528f277c51",
///   "context_id": "2530dc8f-0e8c-4a00-994e-7a9146b010c2",
///   "title": "Fix login bug",
///   "objective": "Investigate and fix the 500 error on /login",
///   "status": "draft",
///   "steps": [{"step_id": "4242b91a-6189-4d80-8203-e0d674ea1f8f",
///              "description": "Read error logs", "status": "pending"}]
/// }"#;
/// let plan = Plan::from_json(json)?;
/// assert_eq!(plan.status(), PlanStatus::Draft);
/// assert_eq!(plan.steps().len(), 1);
/// # Ok::<(), mplp_core::Error>(())
/// ```
///
/// Every public way to obtain a `Plan` yields a valid one: `Deserialize`
/// (through any serde format, or embedded in your own struct) runs the DAG
/// and status rules too. The status and the steps are guarded: they change
/// only through the lifecycle methods and [`Plan::edit_steps`], so these do
/// not compile:
///
/// ```compile_fail,E0616
/// # use mplp_plan::{Plan, PlanStatus};
/// fn force(plan: &mut Plan) { plan.status = PlanStatus::Completed; }
/// ```
///
/// ```compile_fail,E0616
/// # use mplp_plan::Plan;
/// fn clear(plan: &mut Plan) { plan.steps.as_mut_slice()[0].dependencies = None; }
/// ```
///
/// ```compile_fail,E0616
/// # use mplp_plan::{PlanStep, StepStatus};
/// fn force(step: &mut PlanStep) { step.status = StepStatus::Completed; }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct Plan {
    /// [PROTOCOL-CORE] Protocol and schema version information plus optional
    /// authorship, tags and cross-cutting concerns.
    pub meta: Meta,
    /// [PROTOCOL-CORE] UUID v4 that names this Plan everywhere.
    pub plan_id: PlanId,
    /// [PROTOCOL-CORE] UUID v4 of the Context that owns this Plan.
    pub context_id: ContextId,
    /// [PROTOCOL-CORE] Short, non-empty name of the Plan.
    pub title: NonEmptyString,
    /// [PROTOCOL-CORE] Non-empty statement of what the Plan is meant to achieve.
    pub objective: NonEmptyString,
    /// [PROTOCOL-CORE] Where the Plan is in its lifecycle. Guarded: read it
    /// with [`Plan::status`], change it with the lifecycle methods.
    pub(crate) status: PlanStatus,
    /// [PROTOCOL-CORE] The steps the Plan is broken into; at least one.
    /// Guarded: read them with [`Plan::steps`], change them with
    /// [`Plan::step_mut`] (statuses) or [`Plan::edit_steps`] (the rest).
    #[wire(check = "check_steps")]
    pub(crate) steps: NonEmptyVec<PlanStep>,
    /// [PROTOCOL-CORE] Trace span under which the Plan is executed.
    pub trace: Option<TraceBase>,
    /// [PROTOCOL-CORE] Notable events about this Plan, such as edits,
    /// approvals or status changes. `None` (absent) and `Some(vec![])` (`[]`)
    /// are kept apart so that documents round-trip exactly.
    pub events: Option<Vec<BaseEvent>>,
    /// Not a member: the lifecycle index, derived from `steps` (built on
    /// first use, kept up to date by the triggers, dropped by
    /// [`Plan::edit_steps`]); neutral for `PartialEq` and `Debug`. See
    /// `src/index.rs`.
    #[wire(skip)]
    pub(crate) index: LifecycleIndex,
}

/// One unit of work inside a [`Plan`] (`$defs/plan_step_core`).
///
/// ```
/// use mplp_plan::{PlanStep, StepStatus};
/// let first = PlanStep::new("Read error logs".parse()?).with_role("debugger");
/// assert_eq!(first.status(), StepStatus::Pending);
/// assert!(first.dependency_ids().is_empty());
/// let second = PlanStep::new("Write the fix".parse()?).with_dependencies([first.step_id]);
/// assert_eq!(second.dependency_ids(), [first.step_id]);
/// # Ok::<(), mplp_core::EmptyStringError>(())
/// ```
///
/// A step is at most 96 bytes (a test says so): the text of its
/// description and its dependencies are held in blocks of their length
/// (`Box<str>`, `Box<[StepId]>`, 16 bytes each), not in growable
/// `String`/`Vec` (24), so that the steps of a plan of 10 take less than
/// 1 KiB, which glibc serves from its per-thread cache (issue 41; see
/// `docs/spec-notes.md`, "Stop 55: a step of 96 bytes").
#[derive(Clone, Debug, PartialEq, Eq, Hash, Wire)]
#[non_exhaustive]
pub struct PlanStep {
    /// [PROTOCOL-CORE] UUID v4 that names this step.
    pub step_id: StepId,
    /// [PROTOCOL-CORE] Non-empty text saying what the step has to get done
    /// (set it with `"text".parse()?`, or with `.into()` from a
    /// [`NonEmptyString`]).
    pub description: NonEmpty<Box<str>>,
    /// [PROTOCOL-CORE] Execution state of the step. Guarded: read it with
    /// [`PlanStep::status`], change it with [`Plan::step_mut`].
    pub(crate) status: StepStatus,
    /// [PROTOCOL-CORE] `step_id` values of the steps that must finish before
    /// this one can start. `None` (absent) and `Some([].into())` (`[]`) are
    /// kept apart. Set them with [`PlanStep::with_dependencies`] or
    /// [`PlanStep::set_dependencies`] (or `Some(vec![a, b].into())`), read
    /// them with [`PlanStep::dependency_ids`].
    pub dependencies: Option<Box<[StepId]>>,
    /// [PROTOCOL-CORE] Role expected to carry out the step; ideally a
    /// `role_id` known to the Role module. Must not be empty when present
    /// (invariant `sa_steps_agent_role_if_present`).
    pub agent_role: Option<ShortString>,
    /// [PROTOCOL-CORE] Non-negative position of the step within the Plan,
    /// used for ordering execution or display. Dependencies decide the order
    /// of execution; `order_index` only breaks ties.
    pub order_index: Option<u64>,
}

impl Plan {
    /// Where the plan is in its lifecycle.
    pub fn status(&self) -> PlanStatus {
        self.status
    }

    /// The steps, in document order (at least one).
    pub fn steps(&self) -> &[PlanStep] {
        &self.steps
    }

    /// Edits the steps (descriptions, dependencies, roles, order, adding
    /// and removing steps) and checks the result: when it breaks a rule
    /// (no step left, a cycle, a dangling or repeated id, statuses that
    /// disagree), the plan is left as it was and the error lists every
    /// violation. Step statuses are not writable here; they change through
    /// [`Plan::step_mut`]. When the plan is `in_progress` and the edit leaves
    /// every step completed or skipped (say, the last pending step is
    /// removed), the plan becomes `completed`, as when its last step
    /// completes, and a `plan.status.changed` event records it.
    ///
    /// ```
    /// use mplp_plan::{Plan, PlanStep};
    /// let mut b = Plan::builder(mplp_core::ContextId::new(), "Fix login", "No more 500s");
    /// let a = b.step("Read logs");
    /// let c = b.step_after("Patch", &[a]);
    /// let mut plan = b.build()?;
    ///
    /// // Adding a step after the patch is fine.
    /// plan.edit_steps(|steps| steps.push(PlanStep::new("Deploy".parse().unwrap())))?;
    /// assert_eq!(plan.steps().len(), 3);
    ///
    /// // Making `a` depend on `c` would close a cycle: refused, nothing changes.
    /// let err = plan
    ///     .edit_steps(|steps| steps[0].set_dependencies([c]))
    ///     .unwrap_err();
    /// assert_eq!(err.violations()[0].rule.as_str(), "sa_plan_dag_acyclic");
    /// assert!(plan.steps()[0].dependency_ids().is_empty());
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn edit_steps<R>(
        &mut self,
        edit: impl FnOnce(&mut Vec<PlanStep>) -> R,
    ) -> Result<R, mplp_core::Error> {
        let mut steps = self.steps.to_vec();
        let out = edit(&mut steps);
        let steps = NonEmptyVec::try_from(steps).map_err(|_| {
            let mut report = Report::new();
            report.error(
                "/steps",
                Rule::MIN_ITEMS,
                format!(
                    "expected at least 1 step, found none (the edit removed every step): {NO_STEPS}"
                ),
            );
            report.state_invariants(<Plan as mplp_core::Document>::STATED_BY_SCHEMA);
            mplp_core::Error::Invalid(report.into_violations())
        })?;
        let old = std::mem::replace(&mut self.steps, steps);
        // The index derives from the old steps: keep it aside for a refusal.
        let old_index = std::mem::take(&mut self.index);
        let mut report = Report::new();
        mplp_core::Document::check_rules(self, &mut report);
        if report.is_valid() {
            self.derive_completion()?;
            Ok(out)
        } else {
            self.steps = old;
            self.index = old_index;
            Err(mplp_core::Error::Invalid(
                report
                    .into_iter()
                    .filter(mplp_core::Violation::is_error)
                    .collect(),
            ))
        }
    }
}

impl PlanStep {
    /// A pending step with a fresh id and the given (non-empty) description,
    /// no dependencies, no role and no `order_index`. A [`NonEmptyString`]
    /// is passed with `.into()`.
    pub fn new(description: NonEmpty<Box<str>>) -> Self {
        PlanStep {
            step_id: StepId::new(),
            description,
            status: StepStatus::Pending,
            dependencies: None,
            agent_role: None,
            order_index: None,
        }
    }

    /// The same step with a role.
    #[must_use]
    pub fn with_role(mut self, role: impl Into<ShortString>) -> Self {
        self.agent_role = Some(role.into());
        self
    }

    /// The same step with these dependencies (they replace any it had).
    #[must_use]
    pub fn with_dependencies(mut self, dependencies: impl IntoIterator<Item = StepId>) -> Self {
        self.set_dependencies(dependencies);
        self
    }

    /// Replaces the dependencies with these (`Some`, even when there are
    /// none: `[]` on the wire; set `dependencies` to `None` to drop the
    /// member).
    pub fn set_dependencies(&mut self, dependencies: impl IntoIterator<Item = StepId>) {
        self.dependencies = Some(dependencies.into_iter().collect());
    }

    /// The execution state of the step.
    pub fn status(&self) -> StepStatus {
        self.status
    }

    /// The step ids this step depends on (empty when there are none).
    pub fn dependency_ids(&self) -> &[StepId] {
        self.dependencies.as_deref().unwrap_or(&[])
    }
}

/// What every refusal of a plan without steps says after what it found
/// (the schema pass, [`PlanBuilder::build`](crate::PlanBuilder::build) and
/// [`Plan::edit_steps`]): the rule in words, and the invariants it is.
pub(crate) const NO_STEPS: &str =
    "a plan needs at least one step (invariants sa_plan_has_steps / sa_plan_min_steps)";

/// The schema check of `steps` (`NonEmptyVec<PlanStep>`), whose `min-items`
/// message also names the invariant it is (`sa_plan_has_steps`).
fn check_steps(value: &Value, at: &Pointer, report: &mut Report) {
    let mut inner = Report::new();
    NonEmptyVec::<PlanStep>::check_value(value, at, &mut inner);
    for mut v in inner {
        if v.rule == Rule::MIN_ITEMS && v.pointer == at.as_str() {
            v.message.push_str(": ");
            v.message.push_str(NO_STEPS);
        }
        report.push(v);
    }
}

#[cfg(test)]
mod tests {
    use super::PlanStep;
    use mplp_core::StepId;

    /// `set_dependencies` and `with_dependencies` replace the dependencies
    /// with exactly the ids given, in their order (`Some(empty)` for none:
    /// `[]` on the wire), whatever the step had.
    #[test]
    fn dependencies_are_replaced_by_those_given() {
        let (a, b, c) = (StepId::new(), StepId::new(), StepId::new());
        let description = "write the tests".parse().unwrap();
        let mut step = PlanStep::new(description).with_dependencies([a, b]);
        assert_eq!(step.dependencies.as_deref(), Some(&[a, b][..]));
        step.set_dependencies([c]);
        assert_eq!(step.dependencies.as_deref(), Some(&[c][..]));
        step.set_dependencies([]);
        assert_eq!(step.dependencies.as_deref(), Some(&[][..]));
        let json = serde_json::to_value(&step).unwrap();
        assert_eq!(json["dependencies"], serde_json::json!([]));
        step.dependencies = None;
        step.set_dependencies([b, a, c]);
        assert_eq!(step.dependencies.as_deref(), Some(&[b, a, c][..]));
    }

    /// A step is at most 96 bytes on a 64-bit target (112 with a `String`
    /// description and a `Vec` of dependencies): the steps of a plan of 10
    /// are then read into one block of at most 960 bytes
    /// (`List::FIRST_CAPACITY` is 10), which glibc serves from its
    /// per-thread cache (up to 1,032 bytes). A block of 1,120 bytes or more
    /// is a "large" request, which merges the free lists and sorts the
    /// unsorted bin on every read (issue 41: `docs/spec-notes.md`, "Stop 55:
    /// a step of 96 bytes").
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_step_is_at_most_96_bytes() {
        assert!(
            std::mem::size_of::<PlanStep>() <= 96,
            "{}",
            std::mem::size_of::<PlanStep>()
        );
        assert_eq!(
            mplp_core::__private::mplp_json::de::List::<PlanStep>::FIRST_CAPACITY,
            10
        );
    }
}
