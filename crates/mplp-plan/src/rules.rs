//! The semantic rules of a plan document (those JSON Schema cannot express),
//! run by [`Document::check_rules`](mplp_core::Document::check_rules) after the
//! schema rules passed. Every rule has a stable id (the constants below).
//!
//! | rule | severity | what |
//! |---|---|---|
//! | [`SA_PLAN_STEP_UNIQUE_IDS`] | error | a `step_id` appears twice (pointer: the repeat's `step_id`) |
//! | [`SA_PLAN_DEPENDENCY_EXISTS`] | error | a dependency names no step of the plan (`/steps/i/dependencies/j`) |
//! | [`SA_PLAN_NO_SELF_DEPENDENCY`] | error | a step depends on itself (`/steps/i/dependencies/j`) |
//! | [`SA_PLAN_DAG_ACYCLIC`] | error | the dependencies form a cycle (`/steps`; the message names one cycle, in order) |
//! | [`SA_STEPS_AGENT_ROLE_IF_PRESENT`] | error | an `agent_role` is the empty string |
//! | [`SA_TRACE_CONTEXT_BINDING`] | error | `trace.context_id` differs from the plan's `context_id` |
//! | [`SA_PLAN_COMPLETED_STEPS_DONE`] | error | plan `completed`, a step neither `completed` nor `skipped` |
//! | [`SA_PLAN_STEP_BEFORE_START`] | error | plan `draft`/`proposed`/`approved`, a step neither `pending` nor `skipped` |
//! | [`SA_PLAN_STEP_DEPENDENCIES_DONE`] | error | a step `in_progress`/`completed`/`failed` with a dependency neither `completed` nor `skipped` |
//! | [`SA_PLAN_STEP_RUNS_IN_PLAN`] | warning | a step `in_progress` in a `cancelled` or `failed` plan (interrupted) |
//! | [`SA_PLAN_FAILED_HAS_FAILED_STEP`] | warning | plan `failed` but no step `failed` |
//! | [`SA_PLAN_ALL_STEPS_DONE`] | warning | plan `in_progress` although every step is `completed` or `skipped` |
//! | [`SA_PLAN_STEP_SHOULD_BE_BLOCKED`] | warning | a `pending` step with a `failed` dependency |
//! | [`SA_PLAN_STEP_BLOCKED_WITHOUT_CAUSE`] | warning | a `blocked` step whose dependencies are all `completed`/`skipped` (or that has none) |
//! | [`SA_PLAN_ORDER_INDEX_DEPENDENCY`] | warning | a step's `order_index` is smaller than one of its dependencies' |
//! | [`SA_PLAN_DUPLICATE_DEPENDENCY`] | warning | a step lists the same dependency twice |
//!
//! `sa_plan_has_steps` (the seed's `sa_plan_min_steps`) is enforced by the
//! type ([`NonEmptyVec`](mplp_core::NonEmptyVec)) and reported by the schema
//! pass as `min-items` at `/steps`. [`SA_PLAN_CONTEXT_BINDING`] needs the
//! context, so it is checked by [`Plan::check_context`].

use mplp_core::{ContextId, Error, Report, Rule, Violation};

use crate::graph::{Graph, cycle_violation};
use crate::{Plan, PlanStatus, StepStatus};

/// Canonical: the plan's `context_id` must be the loaded Context's id.
pub const SA_PLAN_CONTEXT_BINDING: Rule = Rule::new("sa_plan_context_binding");
/// Canonical: a plan has at least one step (seed name: `sa_plan_min_steps`);
/// reported as `min-items`.
pub const SA_PLAN_HAS_STEPS: Rule = Rule::new("sa_plan_has_steps");
/// Seed: all `step_id`s are different.
pub const SA_PLAN_STEP_UNIQUE_IDS: Rule = Rule::new("sa_plan_step_unique_ids");
/// Seed ("Referential"): every dependency is the `step_id` of a step of the same plan.
pub const SA_PLAN_DEPENDENCY_EXISTS: Rule = Rule::new("sa_plan_dependency_exists");
/// A step does not depend on itself (the shortest cycle, reported on its own).
pub const SA_PLAN_NO_SELF_DEPENDENCY: Rule = Rule::new("sa_plan_no_self_dependency");
/// Seed: the dependencies form a directed acyclic graph.
pub const SA_PLAN_DAG_ACYCLIC: Rule = Rule::new("sa_plan_dag_acyclic");
/// Canonical: an `agent_role`, when present, is not empty.
pub const SA_STEPS_AGENT_ROLE_IF_PRESENT: Rule = Rule::new("sa_steps_agent_role_if_present");
/// Canonical: the trace's `context_id` (when given) is the plan's context.
pub const SA_TRACE_CONTEXT_BINDING: Rule = Rule::new("sa_trace_context_binding");
/// Seed: a plan is `completed` when all steps are `completed` or `skipped`.
pub const SA_PLAN_COMPLETED_STEPS_DONE: Rule = Rule::new("sa_plan_completed_steps_done");
/// Steps do not run (or finish, fail or get blocked) before the plan starts.
pub const SA_PLAN_STEP_BEFORE_START: Rule = Rule::new("sa_plan_step_before_start");
/// Seed: a step runs only when all its dependencies are done.
pub const SA_PLAN_STEP_DEPENDENCIES_DONE: Rule = Rule::new("sa_plan_step_dependencies_done");
/// Seed: a step is `in_progress` only while the plan is (warning for ended plans).
pub const SA_PLAN_STEP_RUNS_IN_PLAN: Rule = Rule::new("sa_plan_step_runs_in_plan");
/// Seed: a plan fails because a critical step failed (warning when none did).
pub const SA_PLAN_FAILED_HAS_FAILED_STEP: Rule = Rule::new("sa_plan_failed_has_failed_step");
/// A running plan whose steps are all done should be `completed` (warning).
pub const SA_PLAN_ALL_STEPS_DONE: Rule = Rule::new("sa_plan_all_steps_done");
/// Seed: a pending step whose dependency failed becomes `blocked` (warning).
pub const SA_PLAN_STEP_SHOULD_BE_BLOCKED: Rule = Rule::new("sa_plan_step_should_be_blocked");
/// A `blocked` step needs a dependency that is not done (warning).
pub const SA_PLAN_STEP_BLOCKED_WITHOUT_CAUSE: Rule =
    Rule::new("sa_plan_step_blocked_without_cause");
/// `order_index` disagrees with the dependencies (warning; dependencies win).
pub const SA_PLAN_ORDER_INDEX_DEPENDENCY: Rule = Rule::new("sa_plan_order_index_dependency");
/// A step lists the same dependency more than once (warning).
pub const SA_PLAN_DUPLICATE_DEPENDENCY: Rule = Rule::new("sa_plan_duplicate_dependency");

/// True for the statuses that satisfy a dependency: `completed` and `skipped`.
pub(crate) fn is_done(s: StepStatus) -> bool {
    matches!(s, StepStatus::Completed | StepStatus::Skipped)
}

/// Runs every rule of the table above.
pub(crate) fn check(plan: &Plan, report: &mut Report) {
    let steps = &plan.steps[..];
    let (mut graph, problems) = Graph::build_forward(steps);
    for &(i, first) in &problems.duplicate_ids {
        report.error(
            format!("/steps/{i}/step_id"),
            SA_PLAN_STEP_UNIQUE_IDS,
            format!(
                "step_id {} is already used by /steps/{first}; step ids must be unique within a plan",
                steps[i].step_id
            ),
        );
    }
    for &(i, j) in &problems.unknown {
        let dep = steps[i].dependency_ids()[j];
        report.error(
            format!("/steps/{i}/dependencies/{j}"),
            SA_PLAN_DEPENDENCY_EXISTS,
            format!("dependency {dep} is not the step_id of any step of this plan"),
        );
    }
    for &(i, j) in &problems.self_deps {
        report.error(
            format!("/steps/{i}/dependencies/{j}"),
            SA_PLAN_NO_SELF_DEPENDENCY,
            format!(
                "step {} depends on itself, so it could never start",
                steps[i].step_id
            ),
        );
    }
    for &(i, j, first) in &problems.repeated {
        report.warn(
            format!("/steps/{i}/dependencies/{j}"),
            SA_PLAN_DUPLICATE_DEPENDENCY,
            format!(
                "dependency {} is already listed at /steps/{i}/dependencies/{first}",
                steps[i].dependency_ids()[j]
            ),
        );
    }
    if !graph.is_ordered() {
        graph.ensure_reverse();
        if let Err(cycle) = graph.kahn() {
            report.push(cycle_violation(steps, &cycle));
        }
    }
    if let Some(trace_ctx) = plan.trace.as_ref().and_then(|t| t.context_id) {
        if trace_ctx != plan.context_id {
            report.error(
                "/trace/context_id",
                SA_TRACE_CONTEXT_BINDING,
                format!(
                    "the trace belongs to context {trace_ctx}, but the plan to context {}",
                    plan.context_id
                ),
            );
        }
    }
    check_statuses(plan, &graph, report);
}

fn check_statuses(plan: &Plan, graph: &Graph, report: &mut Report) {
    let steps = &plan.steps[..];
    let plan_status = plan.status;
    let not_started = matches!(
        plan_status,
        PlanStatus::Draft | PlanStatus::Proposed | PlanStatus::Approved
    );
    let mut all_done = true;
    let mut any_failed = false;
    for (i, step) in steps.iter().enumerate() {
        let status = step.status;
        if matches!(step.agent_role.as_deref(), Some("")) {
            report.error(
                format!("/steps/{i}/agent_role"),
                SA_STEPS_AGENT_ROLE_IF_PRESENT,
                "agent_role must not be empty when present (omit it instead)",
            );
        }
        all_done &= is_done(status);
        any_failed |= status == StepStatus::Failed;
        let deps = graph.deps(i);
        if let Some(me) = step.order_index {
            for &d in deps {
                if let Some(dep_idx) = steps[d as usize].order_index {
                    if me < dep_idx {
                        report.warn(
                            format!("/steps/{i}/order_index"),
                            SA_PLAN_ORDER_INDEX_DEPENDENCY,
                            format!(
                                "order_index {me} is smaller than {dep_idx}, the order_index of its dependency /steps/{d}; dependencies decide the execution order"
                            ),
                        );
                        break;
                    }
                }
            }
        }
        if plan_status == PlanStatus::Completed && !is_done(status) {
            report.error(
                format!("/steps/{i}/status"),
                SA_PLAN_COMPLETED_STEPS_DONE,
                format!(
                    "the plan is completed but this step is `{status}`; a completed plan has every step completed or skipped"
                ),
            );
        }
        if not_started && !matches!(status, StepStatus::Pending | StepStatus::Skipped) {
            report.error(
                format!("/steps/{i}/status"),
                SA_PLAN_STEP_BEFORE_START,
                format!(
                    "the plan is `{plan_status}` (not started), so its steps can only be pending or skipped, not `{status}`"
                ),
            );
        }
        if status == StepStatus::InProgress
            && matches!(plan_status, PlanStatus::Cancelled | PlanStatus::Failed)
        {
            report.warn(
                format!("/steps/{i}/status"),
                SA_PLAN_STEP_RUNS_IN_PLAN,
                format!(
                    "the step is still in_progress although the plan is `{plan_status}`; it was interrupted"
                ),
            );
        }
        match status {
            StepStatus::InProgress | StepStatus::Completed | StepStatus::Failed => {
                if let Some(&d) = deps.iter().find(|&&d| !is_done(steps[d as usize].status)) {
                    report.error(
                        format!("/steps/{i}/status"),
                        SA_PLAN_STEP_DEPENDENCIES_DONE,
                        format!(
                            "the step is `{status}`, so it has run, but its dependency /steps/{d} is `{}`; a step runs only when all its dependencies are completed or skipped",
                            steps[d as usize].status
                        ),
                    );
                }
            }
            StepStatus::Pending => {
                if let Some(&d) = deps
                    .iter()
                    .find(|&&d| steps[d as usize].status == StepStatus::Failed)
                {
                    report.warn(
                        format!("/steps/{i}/status"),
                        SA_PLAN_STEP_SHOULD_BE_BLOCKED,
                        format!(
                            "the step is pending but its dependency /steps/{d} failed; it should be blocked"
                        ),
                    );
                }
            }
            StepStatus::Blocked => {
                if deps.iter().all(|&d| is_done(steps[d as usize].status)) {
                    report.warn(
                        format!("/steps/{i}/status"),
                        SA_PLAN_STEP_BLOCKED_WITHOUT_CAUSE,
                        "the step is blocked, but none of its dependencies is failed or unfinished; it should be pending",
                    );
                }
            }
            StepStatus::Skipped => {}
        }
    }
    if plan_status == PlanStatus::Failed && !any_failed {
        report.warn(
            "/status",
            SA_PLAN_FAILED_HAS_FAILED_STEP,
            "the plan is failed, but none of its steps is; a plan fails when a critical step fails",
        );
    }
    if plan_status == PlanStatus::InProgress && all_done {
        report.warn(
            "/status",
            SA_PLAN_ALL_STEPS_DONE,
            "every step is completed or skipped, so the plan should be completed",
        );
    }
}

impl Plan {
    /// Checks invariant `sa_plan_context_binding`: this plan belongs to the
    /// context `context_id` (the one the agent has loaded).
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_plan::Plan;
    /// let ctx = ContextId::new();
    /// let mut b = Plan::builder(ctx, "Fix login bug", "Find and fix the 500 on /login");
    /// b.step("Read error logs");
    /// let plan = b.build()?;
    /// assert!(plan.check_context(ctx).is_ok());
    /// let err = plan.check_context(ContextId::new()).unwrap_err();
    /// assert_eq!(err.rule().map(|r| r.as_str()), Some("sa_plan_context_binding"));
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn check_context(&self, context_id: ContextId) -> Result<(), Error> {
        if self.context_id == context_id {
            Ok(())
        } else {
            Err(Error::State(Violation::error(
                "/context_id",
                SA_PLAN_CONTEXT_BINDING,
                format!(
                    "the plan belongs to context {}, not to the loaded context {context_id}",
                    self.context_id
                ),
            )))
        }
    }

    /// Every semantic rule of this plan (as [`Document::check_rules`](mplp_core::Document::check_rules)),
    /// plus `sa_plan_context_binding` against `context_id`.
    pub fn validate_in_context(&self, context_id: ContextId) -> Report {
        let mut report = Report::new();
        if let Err(e) = self.check_context(context_id) {
            report.extend(e.violations());
        }
        check(self, &mut report);
        report
    }
}
