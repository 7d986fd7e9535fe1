//! The semantic rules of a plan document (those JSON Schema cannot express),
//! run by [`Document::check_rules`](mplp_core::Document::check_rules) after the
//! schema rules passed, and by
//! [`Document::check_rules_of_value`](mplp_core::Document::check_rules_of_value)
//! (the same functions, fed from the value) on a plan that failed them.
//! Every rule has a stable id (the constants below).
//!
//! Each rule is declared once below ([`RULES`]): its id, severity (per
//! profile), scope, source in the specification and summary. The table of
//! all rules, `docs/rules.md`, is generated from these declarations by
//! `cargo xtask rules`.
//!
//! `sa_plan_has_steps` (the seed's `sa_plan_min_steps`) is enforced by the
//! type ([`NonEmptyVec`](mplp_core::NonEmptyVec)) and stated by the schema
//! (`min-items` at `/steps`): reading a plan, [`PlanBuilder::build`](crate::PlanBuilder::build)
//! and [`Plan::edit_steps`] report it under its id, the keyword behind it. [`SA_PLAN_CONTEXT_BINDING`] needs the
//! context, so it is checked by [`Plan::check_context`].

use mplp_core::rules::Source;
use mplp_core::{ContextId, Error, Report, StepId, Violation};

use crate::graph::{Graph, Node, ReadStep, cycle_violation, shown};
use crate::{Plan, PlanStatus, PlanStep, StepStatus};

mplp_core::declare_rules! {
    /// The semantic rules of a plan document, in the order of the table in
    /// `docs/rules.md`.
    pub const RULES;

    /// Canonical: the plan's `context_id` must be the loaded Context's id.
    pub const SA_PLAN_CONTEXT_BINDING = "sa_plan_context_binding" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "sa-invariants.yaml", id: "sa_plan_context_binding" },
        summary: "the plan's `context_id` is not the loaded Context's id",
    }

    /// Canonical: a plan has at least one step (seed name: `sa_plan_min_steps`);
    /// stated by the schema's `min-items` at `/steps`.
    pub const SA_PLAN_HAS_STEPS = "sa_plan_has_steps" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "sa-invariants.yaml", id: "sa_plan_has_steps" },
        summary: "a plan has no step (the schema's `min-items` at `/steps`)",
    }

    /// Canonical: every `step_id` is a UUID v4. Enforced by the schema's
    /// identifier pattern (reported as `pattern`, `format` or `type`) and by
    /// the type [`StepId`](mplp_core::StepId).
    pub const SA_STEPS_HAVE_VALID_IDS = "sa_steps_have_valid_ids" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "sa-invariants.yaml", id: "sa_steps_have_valid_ids" },
        summary: "a `step_id` is not a UUID v4 (reported as `pattern`, `format` or `type`)",
    }

    /// Seed: all `step_id`s are different.
    pub const SA_PLAN_STEP_UNIQUE_IDS = "sa_plan_step_unique_ids" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "5.1 Core Invariants" },
        summary: "a `step_id` appears twice",
    }

    /// Seed ("Referential"): every dependency is the `step_id` of a step of the same plan.
    pub const SA_PLAN_DEPENDENCY_EXISTS = "sa_plan_dependency_exists" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "4.1 Dependency Rules (Referential)" },
        summary: "a dependency names no step of the plan",
    }

    /// A step does not depend on itself (the shortest cycle, reported on its own).
    pub const SA_PLAN_NO_SELF_DEPENDENCY = "sa_plan_no_self_dependency" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "4.1 Dependency Rules (Acyclic)" },
        summary: "a step depends on itself",
    }

    /// Seed: the dependencies form a directed acyclic graph.
    pub const SA_PLAN_DAG_ACYCLIC = "sa_plan_dag_acyclic" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "4.1 Dependency Rules (Acyclic); 5.1 Core Invariants" },
        summary: "the dependencies form a cycle (the message names one, in order)",
    }

    /// Canonical: an `agent_role`, when present, is not empty.
    pub const SA_STEPS_AGENT_ROLE_IF_PRESENT = "sa_steps_agent_role_if_present" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "sa-invariants.yaml", id: "sa_steps_agent_role_if_present" },
        summary: "an `agent_role` is the empty string",
    }

    /// Canonical: the trace's `context_id` (when given) is the plan's context.
    pub const SA_TRACE_CONTEXT_BINDING = "sa_trace_context_binding" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "sa-invariants.yaml", id: "sa_trace_context_binding" },
        summary: "`trace.context_id` differs from the plan's `context_id`",
    }

    /// Seed: a plan is `completed` when all steps are `completed` or `skipped`.
    pub const SA_PLAN_COMPLETED_STEPS_DONE = "sa_plan_completed_steps_done" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "5.2 Execution Invariants" },
        summary: "plan `completed`, a step neither `completed` nor `skipped`",
    }

    /// Steps do not run (or finish, fail or get blocked) before the plan starts.
    pub const SA_PLAN_STEP_BEFORE_START = "sa_plan_step_before_start" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "3.3 Valid Transitions; 5.2 Execution Invariants" },
        summary: "plan `draft`/`proposed`/`approved`, a step neither `pending` nor `skipped`",
    }

    /// Seed: a step runs only when all its dependencies are done.
    pub const SA_PLAN_STEP_DEPENDENCIES_DONE = "sa_plan_step_dependencies_done" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "4.1 Dependency Rules (Execution Order)" },
        summary: "a step `in_progress`/`completed`/`failed` with a dependency neither `completed` nor `skipped`",
    }

    /// Seed: a step is `in_progress` only while the plan is (warning for ended plans).
    pub const SA_PLAN_STEP_RUNS_IN_PLAN = "sa_plan_step_runs_in_plan" {
        strict: Warning,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "5.2 Execution Invariants" },
        summary: "a step `in_progress` in a `cancelled` or `failed` plan (interrupted)",
    }

    /// Seed: a plan fails because a critical step failed (warning when none did).
    pub const SA_PLAN_FAILED_HAS_FAILED_STEP = "sa_plan_failed_has_failed_step" {
        strict: Warning,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "5.2 Execution Invariants" },
        summary: "plan `failed` but no step `failed`",
    }

    /// A running plan whose steps are all done should be `completed` (warning).
    pub const SA_PLAN_ALL_STEPS_DONE = "sa_plan_all_steps_done" {
        strict: Warning,
        scope: Document,
        source: Source::Sdk { note: "mplp-plan: Status consistency of a document" },
        summary: "plan `in_progress` although every step is `completed` or `skipped`",
    }

    /// Seed: a pending step whose dependency failed becomes `blocked` (warning).
    pub const SA_PLAN_STEP_SHOULD_BE_BLOCKED = "sa_plan_step_should_be_blocked" {
        strict: Warning,
        scope: Document,
        source: Source::Prose { doc: "Plan Module", section: "3.3 Valid Transitions" },
        summary: "a `pending` step with a `failed` dependency",
    }

    /// A `blocked` step needs a dependency that is not done (warning).
    pub const SA_PLAN_STEP_BLOCKED_WITHOUT_CAUSE = "sa_plan_step_blocked_without_cause" {
        strict: Warning,
        scope: Document,
        source: Source::Sdk { note: "mplp-plan: Status consistency of a document" },
        summary: "a `blocked` step whose dependencies are all `completed`/`skipped` (or that has none)",
    }

    /// `order_index` disagrees with the dependencies (warning; dependencies win).
    pub const SA_PLAN_ORDER_INDEX_DEPENDENCY = "sa_plan_order_index_dependency" {
        strict: Warning,
        scope: Document,
        source: Source::Sdk { note: "mplp-plan: Ordering" },
        summary: "a step's `order_index` is smaller than one of its dependencies'",
    }

    /// A step lists the same dependency more than once (warning).
    pub const SA_PLAN_DUPLICATE_DEPENDENCY = "sa_plan_duplicate_dependency" {
        strict: Warning,
        scope: Document,
        source: Source::Sdk { note: "mplp-plan: Status consistency of a document" },
        summary: "a step lists the same dependency twice",
    }
}

/// Every rule of mplp-plan: the document rules ([`RULES`]), then the
/// lifecycle API's ([`lifecycle::RULES`](crate::lifecycle::RULES)).
///
/// ```
/// let ids: Vec<_> = mplp_plan::rules::rules().map(|r| r.rule.as_str()).collect();
/// assert!(ids.contains(&"sa_plan_dag_acyclic"));
/// ```
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES.iter().chain(crate::lifecycle::RULES)
}

/// True for the statuses that satisfy a dependency: `completed` and `skipped`.
pub(crate) fn is_done(s: StepStatus) -> bool {
    matches!(s, StepStatus::Completed | StepStatus::Skipped)
}

/// The rules of the dependency graph (unique step ids, dependencies that
/// exist, no self-dependency, repeated dependencies, no cycle) over
/// `steps`, typed ([`crate::PlanStep`]) or read from a plan that failed its
/// schema ([`ReadStep`]); `ids_complete` says whether every step's id could
/// be read (when not, a dependency on an unknown id may name the unread
/// one, and is not reported). Returns the graph.
fn check_graph<S: Node>(steps: &[S], ids_complete: bool, report: &mut Report) -> Graph {
    let (mut graph, problems) = Graph::build_for_rules(steps);
    for &(i, first) in &problems.duplicate_ids {
        report.error(
            format!("/steps/{i}/step_id"),
            SA_PLAN_STEP_UNIQUE_IDS,
            format!(
                "step_id {} is already used by /steps/{first}; step ids must be unique within a plan",
                shown(steps[i].id())
            ),
        );
    }
    if ids_complete {
        for &(i, j) in &problems.unknown {
            report.error(
                format!("/steps/{i}/dependencies/{j}"),
                SA_PLAN_DEPENDENCY_EXISTS,
                format!(
                    "dependency {} is not the step_id of any step of this plan",
                    shown(steps[i].dep(j))
                ),
            );
        }
    }
    for &(i, j) in &problems.self_deps {
        report.error(
            format!("/steps/{i}/dependencies/{j}"),
            SA_PLAN_NO_SELF_DEPENDENCY,
            format!(
                "step {} depends on itself, so it could never start",
                shown(steps[i].id())
            ),
        );
    }
    for &(i, j, first) in &problems.repeated {
        report.warn(
            format!("/steps/{i}/dependencies/{j}"),
            SA_PLAN_DUPLICATE_DEPENDENCY,
            format!(
                "dependency {} is already listed at /steps/{i}/dependencies/{first}",
                shown(steps[i].dep(j))
            ),
        );
    }
    if !graph.is_ordered() {
        graph.ensure_reverse();
        if let Err(cycle) = graph.kahn() {
            report.push(cycle_violation(steps, &cycle));
        }
    }
    graph
}

/// What the status rules read of a step besides its id and dependencies
/// ([`Node`]): a typed [`PlanStep`] has every member; a step read from a
/// plan that failed its schema ([`ReadStep`]) may miss some, and a rule
/// whose inputs are missing is not checked (never guessed).
pub(crate) trait StatusNode: Node {
    /// The step's status, `None` when it cannot be read.
    fn read_status(&self) -> Option<StepStatus>;
    /// The step's `order_index` (`Some(None)` when absent), `None` when it
    /// cannot be read.
    fn read_order_index(&self) -> Option<Option<u64>>;
    /// Whether every dependency of the step could be read.
    fn deps_read(&self) -> bool;
    /// Whether `agent_role` is present and the empty string.
    fn empty_role(&self) -> bool;
}

impl StatusNode for PlanStep {
    #[inline]
    fn read_status(&self) -> Option<StepStatus> {
        Some(self.status)
    }
    #[inline]
    fn read_order_index(&self) -> Option<Option<u64>> {
        Some(self.order_index)
    }
    #[inline]
    fn deps_read(&self) -> bool {
        true
    }
    #[inline]
    fn empty_role(&self) -> bool {
        matches!(self.agent_role.as_deref(), Some(""))
    }
}

impl StatusNode for ReadStep {
    fn read_status(&self) -> Option<StepStatus> {
        self.status
    }
    fn read_order_index(&self) -> Option<Option<u64>> {
        self.order_index
    }
    fn deps_read(&self) -> bool {
        self.deps_read
    }
    fn empty_role(&self) -> bool {
        self.empty_role
    }
}

/// Reads what the rules need of one step of a plan that failed its schema.
fn read_step(step: &serde_json::Value) -> ReadStep {
    use serde_json::Value;
    let read_id = |v: &Value| v.as_str().and_then(|s| s.parse::<StepId>().ok());
    // A step that is not an object has no readable id, so no rule reads its
    // dependencies or its `order_index` (they are read as absent).
    let (deps, deps_read) = match step.get("dependencies") {
        None => (Vec::new(), true),
        Some(Value::Array(deps)) => {
            let deps: Vec<Option<StepId>> = deps.iter().map(read_id).collect();
            let whole = deps.iter().all(Option::is_some);
            (deps, whole)
        }
        Some(_) => (Vec::new(), false),
    };
    ReadStep {
        id: step.get("step_id").and_then(read_id),
        deps,
        deps_read,
        status: step
            .get("status")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok()),
        order_index: match step.get("order_index") {
            None => Some(None),
            Some(v) => v.as_u64().map(Some),
        },
        empty_role: step.get("agent_role").and_then(Value::as_str) == Some(""),
    }
}

/// The rules over what can still be read of a plan that failed its schema:
/// the graph rules ([`check_graph`]) over each step's `step_id` and
/// `dependencies` that parse as step ids (a step or dependency that does
/// not is left out), `sa_trace_context_binding` when both context ids
/// parse, and the status rules ([`check_statuses`]) over the statuses,
/// `order_index` values and roles that parse. A plan with no step (or
/// `steps` not an array) gets none of them.
pub(crate) fn check_value(value: &serde_json::Value, report: &mut Report) {
    use serde_json::Value;
    let Some(steps) = value.get("steps").and_then(Value::as_array) else {
        return;
    };
    if steps.is_empty() {
        // `min-items`: whatever steps the plan should have are unknown.
        return;
    }
    let steps: Vec<ReadStep> = steps.iter().map(read_step).collect();
    let ids_complete = steps.iter().all(|s| s.id.is_some());
    let graph = check_graph(&steps, ids_complete, report);
    let read_ctx = |v: &Value| v.as_str().and_then(|s| s.parse::<ContextId>().ok());
    if let Some(plan_ctx) = value.get("context_id").and_then(read_ctx) {
        // An absent trace or trace context binds nothing; one that cannot
        // be read is not checked.
        if let Some(trace_ctx) = value.get("trace").and_then(|t| t.get("context_id")) {
            if let Some(trace_ctx) = read_ctx(trace_ctx) {
                check_trace_binding(plan_ctx, trace_ctx, report);
            }
        }
    }
    let plan_status = value
        .get("status")
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok());
    check_statuses(&steps, plan_status, &graph, ids_complete, report);
}

/// Runs every rule of the table above.
pub(crate) fn check(plan: &Plan, report: &mut Report) {
    let graph = check_graph(&plan.steps, true, report);
    if let Some(trace_ctx) = plan.trace.as_ref().and_then(|t| t.context_id) {
        check_trace_binding(plan.context_id, trace_ctx, report);
    }
    check_statuses(&plan.steps, Some(plan.status), &graph, true, report);
}

/// `sa_trace_context_binding`: the trace's context is the plan's.
fn check_trace_binding(plan_ctx: ContextId, trace_ctx: ContextId, report: &mut Report) {
    if trace_ctx != plan_ctx {
        report.error(
            "/trace/context_id",
            SA_TRACE_CONTEXT_BINDING,
            format!("the trace belongs to context {trace_ctx}, but the plan to context {plan_ctx}"),
        );
    }
}

/// The first of `deps` whose status satisfies `pred`, with that status;
/// `None` when there is none or when a status that cannot be read comes
/// first (the clean pass might then name that dependency).
fn first_dep<S: StatusNode>(
    steps: &[S],
    deps: &[u32],
    pred: impl Fn(StepStatus) -> bool,
) -> Option<(u32, StepStatus)> {
    for &d in deps {
        match steps[d as usize].read_status() {
            None => return None,
            Some(s) if pred(s) => return Some((d, s)),
            Some(_) => {}
        }
    }
    None
}

/// The status rules (and `sa_steps_agent_role_if_present`) over `steps`,
/// typed or read from a plan that failed its schema: a rule is checked
/// where its inputs can be read, and reported only when no value of the
/// unread members could change its finding or message. `plan_status` is
/// `None` when it cannot be read; `edges_known` says whether every step id
/// could be read (when not, a dependency the graph could not resolve may
/// name the unread step, so no step's dependencies are known), and a step's
/// dependencies are known when, besides, each of them could be read.
fn check_statuses<S: StatusNode>(
    steps: &[S],
    plan_status: Option<PlanStatus>,
    graph: &Graph,
    edges_known: bool,
    report: &mut Report,
) {
    let not_started = matches!(
        plan_status,
        Some(PlanStatus::Draft | PlanStatus::Proposed | PlanStatus::Approved)
    );
    // `None` once a status that cannot be read leaves the answer open.
    let mut all_done = Some(true);
    let mut any_failed = Some(false);
    for (i, step) in steps.iter().enumerate() {
        if step.empty_role() {
            report.error(
                format!("/steps/{i}/agent_role"),
                SA_STEPS_AGENT_ROLE_IF_PRESENT,
                "agent_role must not be empty when present (omit it instead)",
            );
        }
        let status = step.read_status();
        all_done = match (all_done, status) {
            (Some(false), _) => Some(false),
            (_, Some(s)) if !is_done(s) => Some(false),
            (known, Some(_)) => known,
            (_, None) => None,
        };
        any_failed = match (any_failed, status) {
            (Some(true), _) | (_, Some(StepStatus::Failed)) => Some(true),
            (known, Some(_)) => known,
            (_, None) => None,
        };
        let deps = (edges_known && step.deps_read()).then(|| graph.deps(i));
        if let (Some(deps), Some(Some(me))) = (deps, step.read_order_index()) {
            for &d in deps {
                match steps[d as usize].read_order_index() {
                    // Unread: the clean pass might stop here.
                    None => break,
                    Some(Some(dep_idx)) if me < dep_idx => {
                        report.warn(
                            format!("/steps/{i}/order_index"),
                            SA_PLAN_ORDER_INDEX_DEPENDENCY,
                            format!(
                                "order_index {me} is smaller than {dep_idx}, the order_index of its dependency /steps/{d}; dependencies decide the execution order"
                            ),
                        );
                        break;
                    }
                    Some(_) => {}
                }
            }
        }
        let Some(status) = status else { continue };
        if plan_status == Some(PlanStatus::Completed) && !is_done(status) {
            report.error(
                format!("/steps/{i}/status"),
                SA_PLAN_COMPLETED_STEPS_DONE,
                format!(
                    "the plan is completed but this step is `{status}`; a completed plan has every step completed or skipped"
                ),
            );
        }
        if let (true, Some(plan_status)) = (not_started, plan_status) {
            if !matches!(status, StepStatus::Pending | StepStatus::Skipped) {
                report.error(
                    format!("/steps/{i}/status"),
                    SA_PLAN_STEP_BEFORE_START,
                    format!(
                        "the plan is `{plan_status}` (not started), so its steps can only be pending or skipped, not `{status}`"
                    ),
                );
            }
        }
        if let Some(plan_status @ (PlanStatus::Cancelled | PlanStatus::Failed)) = plan_status {
            if status == StepStatus::InProgress {
                report.warn(
                    format!("/steps/{i}/status"),
                    SA_PLAN_STEP_RUNS_IN_PLAN,
                    format!(
                        "the step is still in_progress although the plan is `{plan_status}`; it was interrupted"
                    ),
                );
            }
        }
        let Some(deps) = deps else { continue };
        match status {
            StepStatus::InProgress | StepStatus::Completed | StepStatus::Failed => {
                if let Some((d, dep_status)) = first_dep(steps, deps, |s| !is_done(s)) {
                    report.error(
                        format!("/steps/{i}/status"),
                        SA_PLAN_STEP_DEPENDENCIES_DONE,
                        format!(
                            "the step is `{status}`, so it has run, but its dependency /steps/{d} is `{dep_status}`; a step runs only when all its dependencies are completed or skipped"
                        ),
                    );
                }
            }
            StepStatus::Pending => {
                if let Some((d, _)) = first_dep(steps, deps, |s| s == StepStatus::Failed) {
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
                if deps
                    .iter()
                    .all(|&d| steps[d as usize].read_status().is_some_and(is_done))
                {
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
    if plan_status == Some(PlanStatus::Failed) && any_failed == Some(false) {
        report.warn(
            "/status",
            SA_PLAN_FAILED_HAS_FAILED_STEP,
            "the plan is failed, but none of its steps is; a plan fails when a critical step fails",
        );
    }
    if plan_status == Some(PlanStatus::InProgress) && all_done == Some(true) {
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
