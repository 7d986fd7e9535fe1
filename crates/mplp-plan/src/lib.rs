//! Typed MPLP v1.0.0 **Plan** documents (`schemas/mplp-plan.schema.json`):
//! a plan decomposes an objective into steps that form a directed acyclic
//! graph of dependencies.
//!
//! - [`Plan`], [`PlanStep`], [`PlanStatus`], [`StepStatus`]: the wire types,
//!   exactly as the canonical schema says (no `governance` block on a plan).
//! - Reading and validation through [`mplp_core::Document`] (kind `plan`):
//!   every schema violation and every semantic rule ([`rules`]) with its
//!   JSON pointer, in O(V + E) and without recursion.
//! - [`Plan::builder`]: plans that are valid by construction.
//! - The lifecycle ([`lifecycle`]): the seed's transition tables and the
//!   triggers ([`Plan::propose`], [`Plan::approve`], [`Plan::start`],
//!   [`Plan::step_mut`] ...), each recorded as an event in the plan. Driving
//!   a whole plan costs O(V + E) in total (times `log V` for the set of
//!   ready steps): the plan keeps a lifecycle index, derived state that is
//!   not a member of the document (`#[wire(skip)]`), built on the first
//!   lifecycle call and kept up to date by every trigger. Why it lives in
//!   the plan rather than in a separate driver: see "Lifecycle index" below.
//! - Scheduling ([`Dag`]): ready steps, stable topological order, execution
//!   layers, longest path, descendants.
//! - [`render`]: Mermaid and Graphviz diagrams.
//!
//! ```
//! use mplp_core::{ContextId, Document};
//! use mplp_plan::{ConfirmDecision, Plan, PlanStatus};
//!
//! let mut b = Plan::builder(ContextId::new(), "Fix login bug", "Find and fix the 500 on /login");
//! let logs = b.step("Read error logs");
//! let fix = b.step_after("Write the fix", &[logs]);
//! let mut plan = b.build()?;
//! plan.propose()?;
//! plan.approve(&ConfirmDecision::approved("lead"))?;
//! plan.start()?;
//! assert_eq!(plan.ready_steps(), [logs]);
//!
//! let back = Plan::from_json(plan.to_json())?;
//! assert_eq!(back, plan);
//! assert_eq!(back.status(), PlanStatus::InProgress);
//! # let _ = fix;
//! # Ok::<(), mplp_core::Error>(())
//! ```
//!
//! # Spec notes
//! (Also in `docs/spec-notes.md ("mplp-plan")`; each is pinned by a test in
//! `tests/it/spec_notes.rs` and `tests/it/rules.rs`.)
//! - **No governance on Plan**: only Dialog and Collab have that block; a
//!   plan with one is refused (`additional-properties` at `/governance`).
//! - **Integers**: `order_index: 1.0` is refused (`type`), a core decision.
//! - **Rule ids**: the canonical invariant ids where they exist
//!   (`sa_plan_context_binding`, `sa_plan_has_steps` — the seed's
//!   `sa_plan_min_steps`, the schema's `min-items` at `/steps` —
//!   `sa_steps_agent_role_if_present`, `sa_trace_context_binding`), the
//!   seed's (`sa_plan_step_unique_ids`, `sa_plan_dag_acyclic`), and ours for
//!   the rest (`sa_plan_dependency_exists`, `sa_plan_no_self_dependency`, the
//!   status rules). See [`rules`] for the table of errors and warnings.
//! - **Skipped dependencies** satisfy their dependents, as they count as done
//!   for the plan's completion.
//! - **Critical steps**: the schema has no flag; [`CriticalSteps`] is the
//!   caller's policy, every step by default.
//! - **Retry**: the step table has no way out of `failed`, so
//!   [`StepMut::retry`] replaces a failed step by a new attempt with a fresh
//!   id; blocked dependents return to `pending` when it completes.
//! - **`order_index` vs dependencies**: dependencies decide the order;
//!   `order_index` breaks ties; a contradiction is a warning.
//! - **Cancelling** leaves running steps `in_progress` (warning).
//!
//! # Lifecycle index
//! A trigger does not rebuild the dependency graph nor scan the steps (which
//! would make driving an N-step plan cost O(N · (N + E))): the plan carries
//! an index (step id → position, the edges both ways, per step the
//! dependencies not yet done and those failed, the ready set, the steps per
//! status), and a trigger updates it for the step and its direct dependents
//! only.
//!
//! It lives in the [`Plan`] itself, in a field that is not a member
//! (`#[wire(skip)]`), rather than in a lifecycle driver type beside it:
//! - one way to drive a plan, fast for everyone: `plan.step_mut(id)?` and
//!   [`Plan::ready_steps`] need no new type, and a driver would have left
//!   them quadratic (or made two APIs for one thing);
//! - "parse, don't validate" is untouched: the index is private and derived
//!   from guarded state (steps and statuses) that changes only through the
//!   triggers (which update it) and [`Plan::edit_steps`] (which drops it);
//!   reading a plan does not build it, so validation costs nothing more;
//! - "one declaration per wire object" too: the field is not written, not
//!   read and not in the schema, and it compares equal, hashes and prints
//!   the same whatever it holds, so two plans with the same members are
//!   equal whether their index is built or not.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod builder;
mod dag;
mod graph;
mod index;
pub mod lifecycle;
mod model;
pub mod render;
pub mod rules;

pub use builder::{PlanBuilder, StepSpec};
pub use dag::Dag;
pub use lifecycle::{ConfirmDecision, CriticalSteps, StepMut};
pub use model::{Plan, PlanStatus, PlanStep, StepStatus};

impl mplp_core::Document for Plan {
    const KIND: &'static str = "plan";

    /// The SA invariants the Plan schema states (`steps`, each step's
    /// `step_id` and `agent_role`): their schema violations carry the
    /// invariant's id. (`sa_plan_context_binding` relates two documents: a
    /// bundle rule.)
    const STATED_BY_SCHEMA: &'static [mplp_core::Stated] = &[
        mplp_core::Stated::at("/steps", rules::SA_PLAN_HAS_STEPS),
        mplp_core::Stated::at("/steps/*/step_id", rules::SA_STEPS_HAVE_VALID_IDS),
        mplp_core::Stated::at("/steps/*/agent_role", rules::SA_STEPS_AGENT_ROLE_IF_PRESENT),
    ];

    fn check_rules(&self, report: &mut mplp_core::Report) {
        rules::check(self, report);
    }

    /// Every rule of [`rules`] whose inputs can still be read: the
    /// dependency graph's rules (unique step ids, dependencies that exist,
    /// no self-dependency, no cycle) over the step ids and dependencies
    /// that parse, `sa_trace_context_binding`, and the status rules over
    /// the statuses, `order_index` values and roles that parse (a rule
    /// that reads a step's dependencies needs every step id and that
    /// step's dependencies; one whose finding an unread member could
    /// change is not reported).
    fn check_rules_of_value(value: &serde_json::Value, report: &mut mplp_core::Report) {
        rules::check_value(value, report);
    }
}

// --- Re-exports and README doc tests; keep this block last. ---

/// What users of this crate need from `mplp-core`, so that depending on
/// `mplp-plan` alone is enough to read, check and write its documents.
#[doc(no_inline)]
pub use mplp_core::{
    ContextId, Document, Error, Meta, PlanId, Report, StepId, Timestamp, TransitionError, Violation,
};

// The crate README: each of its Rust snippets is a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
