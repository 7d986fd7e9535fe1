//! [`PlanBuilder`]: makes plans that are valid by construction.

use mplp_core::{
    ContextId, Document, Error, Meta, NonEmptyString, NonEmptyVec, PlanId, Report, Rule, StepId,
    TraceBase,
};

use crate::index::LifecycleIndex;
use crate::{Plan, PlanStatus, PlanStep, StepStatus};

/// What one step of a [`PlanBuilder`] should look like.
///
/// ```
/// use mplp_plan::{Plan, StepSpec};
/// let mut b = Plan::builder(mplp_core::ContextId::new(), "Fix login bug", "Fix the 500 on /login");
/// let logs = b.add(StepSpec::new("Read error logs").role("debugger"));
/// let fix = b.add(StepSpec::new("Write the fix").after(logs).role("coder"));
/// let plan = b.build()?;
/// assert_eq!(plan.steps()[1].dependency_ids(), &[logs]);
/// assert_eq!(plan.steps()[1].order_index, Some(1));
/// # let _ = fix;
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepSpec {
    step_id: Option<StepId>,
    description: String,
    dependencies: Vec<StepId>,
    agent_role: Option<mplp_core::ShortString>,
}

impl StepSpec {
    /// A step doing `description`, without dependencies.
    pub fn new(description: impl Into<String>) -> Self {
        StepSpec {
            step_id: None,
            description: description.into(),
            dependencies: Vec::new(),
            agent_role: None,
        }
    }

    /// Uses this `step_id` instead of a fresh one (dependencies may then
    /// name steps added later; `build` checks that they exist and that there
    /// is no cycle).
    #[must_use]
    pub fn id(mut self, step_id: StepId) -> Self {
        self.step_id = Some(step_id);
        self
    }

    /// Adds a dependency (the handle returned by [`PlanBuilder::add`] is the step's id).
    #[must_use]
    pub fn after(mut self, dependency: StepId) -> Self {
        self.dependencies.push(dependency);
        self
    }

    /// Adds several dependencies.
    #[must_use]
    pub fn after_all(mut self, dependencies: impl IntoIterator<Item = StepId>) -> Self {
        self.dependencies.extend(dependencies);
        self
    }

    /// Sets the role expected to carry out the step.
    #[must_use]
    pub fn role(mut self, agent_role: impl Into<mplp_core::ShortString>) -> Self {
        self.agent_role = Some(agent_role.into());
        self
    }
}

/// Builds a [`Plan`] that passes every rule: a `draft` plan with a fresh v4
/// `plan_id`, pending steps with fresh v4 ids, `order_index` filled in from
/// the order of addition, and dependencies given by handle (the [`StepId`]
/// returned when a step is added) or by id. [`PlanBuilder::build`] refuses
/// anything invalid (empty texts, no step, unknown dependency, cycle) with
/// [`Error::Invalid`].
///
/// ```
/// use mplp_plan::{Plan, PlanStatus, StepStatus};
/// let mut b = Plan::builder(mplp_core::ContextId::new(), "Fix login bug", "Fix the 500 on /login");
/// let logs = b.step("Read error logs");
/// let cause = b.step_after("Identify the root cause", &[logs]);
/// let plan = b.build()?;
/// assert_eq!(plan.status(), PlanStatus::Draft);
/// assert!(plan.steps().iter().all(|s| s.status() == StepStatus::Pending));
/// assert_eq!(plan.topological_order()?, [logs, cause]);
///
/// let empty = Plan::builder(mplp_core::ContextId::new(), "", "o").build().unwrap_err();
/// let rules: Vec<_> = empty.violations().iter().map(|v| (v.pointer.clone(), v.rule.as_str())).collect();
/// assert_eq!(rules, [("/title".to_string(), "min-length"), ("/steps".to_string(), "sa_plan_has_steps")]);
/// assert_eq!(
///     empty.violations()[1].message,
///     "expected at least 1 step, found none (add steps with `PlanBuilder::step` or \
///      `step_after` before `build`): a plan needs at least one step \
///      (invariants sa_plan_has_steps / sa_plan_min_steps) (schema `min-items`)"
/// );
/// assert_eq!(empty.violations()[1].schema_keyword(), Some("min-items"));
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct PlanBuilder {
    context_id: ContextId,
    title: String,
    objective: String,
    meta: Meta,
    trace: Option<TraceBase>,
    steps: Vec<StepSpec>,
    ids: Vec<StepId>,
}

impl Plan {
    /// Starts building a plan of context `context_id` (see [`PlanBuilder`]).
    pub fn builder(
        context_id: ContextId,
        title: impl Into<String>,
        objective: impl Into<String>,
    ) -> PlanBuilder {
        PlanBuilder {
            context_id,
            title: title.into(),
            objective: objective.into(),
            meta: Meta::v1(),
            trace: None,
            steps: Vec::new(),
            ids: Vec::new(),
        }
    }
}

impl PlanBuilder {
    /// Adds a step; returns its id, the handle to depend on it.
    pub fn add(&mut self, spec: StepSpec) -> StepId {
        let id = spec.step_id.unwrap_or_else(StepId::new);
        self.ids.push(id);
        self.steps.push(spec);
        id
    }

    /// Adds a step without dependencies.
    pub fn step(&mut self, description: impl Into<String>) -> StepId {
        self.add(StepSpec::new(description))
    }

    /// Adds a step that depends on `dependencies`.
    pub fn step_after(
        &mut self,
        description: impl Into<String>,
        dependencies: &[StepId],
    ) -> StepId {
        self.add(StepSpec::new(description).after_all(dependencies.iter().copied()))
    }

    /// Uses this metadata instead of [`Meta::v1`].
    #[must_use]
    pub fn meta(mut self, meta: Meta) -> Self {
        self.meta = meta;
        self
    }

    /// Sets the trace span of the plan.
    #[must_use]
    pub fn trace(mut self, trace: TraceBase) -> Self {
        self.trace = Some(trace);
        self
    }

    /// The plan, or [`Error::Invalid`] with every problem, each reported
    /// as reading the plan's JSON would report it (no step at all is
    /// `sa_plan_has_steps`, the schema's `min-items` kept behind it: see
    /// [`Report::state_invariants`]).
    pub fn build(self) -> Result<Plan, Error> {
        let mut errors = Report::new();
        let title = non_empty(self.title, "/title", &mut errors);
        let objective = non_empty(self.objective, "/objective", &mut errors);
        let had_steps = !self.steps.is_empty();
        let mut steps = Vec::with_capacity(self.steps.len());
        for (i, (spec, id)) in self.steps.into_iter().zip(self.ids).enumerate() {
            let description = non_empty(
                spec.description,
                &format!("/steps/{i}/description"),
                &mut errors,
            );
            if let Some(description) = description {
                steps.push(PlanStep {
                    step_id: id,
                    description: description.into(),
                    status: StepStatus::Pending,
                    dependencies: Some(spec.dependencies.into_boxed_slice()),
                    agent_role: spec.agent_role,
                    order_index: Some(i as u64),
                });
            }
        }
        let steps = match NonEmptyVec::try_from(steps) {
            Ok(steps) => Some(steps),
            Err(_) => {
                if !had_steps {
                    errors.error(
                        "/steps",
                        Rule::MIN_ITEMS,
                        format!(
                            "expected at least 1 step, found none (add steps with \
                             `PlanBuilder::step` or `step_after` before `build`): {}",
                            crate::model::NO_STEPS
                        ),
                    );
                }
                None
            }
        };
        let (Some(title), Some(objective), Some(steps), true) =
            (title, objective, steps, errors.is_empty())
        else {
            errors.state_invariants(Plan::STATED_BY_SCHEMA);
            return Err(Error::Invalid(errors.into_violations()));
        };
        let plan = Plan {
            meta: self.meta,
            plan_id: PlanId::new(),
            context_id: self.context_id,
            title,
            objective,
            status: PlanStatus::Draft,
            steps,
            trace: self.trace,
            events: None,
            index: LifecycleIndex::default(),
        };
        let mut report = Report::new();
        crate::rules::check(&plan, &mut report);
        report.into_result(plan)
    }
}

fn non_empty(text: String, pointer: &str, errors: &mut Report) -> Option<NonEmptyString> {
    match NonEmptyString::new(text) {
        Ok(s) => Some(s),
        Err(_) => {
            errors.error(
                pointer,
                Rule::MIN_LENGTH,
                "expected a string of at least 1 character, found an empty string",
            );
            None
        }
    }
}
