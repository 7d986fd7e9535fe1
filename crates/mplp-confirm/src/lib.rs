//! MPLP v1.0.0 **Confirm** module: a request to approve another document (a
//! plan, a context, a trace, an extension) and the decisions taken on it.
//!
//! - [`Confirm`], [`ConfirmDecision`], [`ConfirmStatus`],
//!   [`DecisionStatus`], [`ConfirmTargetType`]: the wire types, exactly as
//!   `mplp-confirm.schema.json` says; reading and all-errors validation
//!   through [`mplp_core::Document`] (kind `confirm`) with the decision
//!   rules ([`CONFIRM_DECISION_SEQUENCE`],
//!   [`CONFIRM_STATUS_MATCHES_DECISIONS`], [`CONFIRM_UNIQUE_DECISION_IDS`]).
//! - The lifecycle: each decision is a trigger; one table
//!   ([`DecisionStatus::rule`]) says from which statuses it may be taken and
//!   which status it leads to. [`Confirm::decide`] checks the table and
//!   records the decision, so the status and the decisions never disagree.
//!
//! ```
//! use mplp_confirm::{Confirm, ConfirmStatus};
//! use mplp_core::{Document, PlanId};
//!
//! let plan = PlanId::new();
//! let mut confirm = Confirm::for_plan(plan, "agent-planner");
//! assert_eq!(confirm.status(), ConfirmStatus::Pending);
//! confirm.reject("dba-reviewer", "no rollback plan")?;
//! confirm.approve("dba-reviewer")?;             // a later round approves
//! assert_eq!(confirm.status(), ConfirmStatus::Approved);
//! assert_eq!(confirm.decisions().len(), 2);
//! assert!(confirm.targets(plan));
//! assert!(confirm.cancel("agent-planner").is_err()); // approved is final
//!
//! let back = Confirm::from_json(confirm.to_json())?;
//! assert_eq!(back, confirm);
//! # Ok::<(), mplp_core::Error>(())
//! ```
//!
//! # Spec notes
//! (Also in `docs/spec-notes.md`, section "mplp-confirm"; pinned by
//! `tests/lifecycle.rs` and `tests/rules.rs`.)
//! - **Lifecycle table.** The schema gives the statuses; the golden flow
//!   FLOW-05 shows `pending → rejected → approved` (a rejection answered by
//!   a later approval). The table is [`DecisionStatus::rule`]: `approve` from
//!   `pending` or `rejected`, `reject` from `pending`, `cancel` from
//!   `pending` or `rejected`; `approved` and `cancelled` are final.
//! - **Decisions and status agree.** The decisions are the Confirm's
//!   history: replayed in order from `pending` they follow the table
//!   (error [`CONFIRM_DECISION_SEQUENCE`]), and a decided Confirm's status is
//!   its last decision's (error [`CONFIRM_STATUS_MATCHES_DECISIONS`]). A
//!   `pending` Confirm that carries decisions, or a decided one without any,
//!   is a *warning* under the same id (FLOW-05's input is such a document).
#![cfg_attr(docsrs, feature(doc_cfg))]

mod lifecycle;

use mplp_core::rules::Source;
use mplp_core::{
    BaseEvent, ConfirmId, ContextId, Document, Governance, Meta, ModuleName, MplpId, PlanId,
    Pointer, Ref, Report, Timestamp, TraceBase, TraceId, Wire,
};

mplp_core::declare_rules! {
    /// Every rule of this crate, with its severity per profile and its source.
    pub const RULES;
    /// `confirm_decision_sequence`: the decisions, replayed in order from
    /// `pending`, follow the lifecycle table.
    pub const CONFIRM_DECISION_SEQUENCE = "confirm_decision_sequence" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-confirm" },
        summary: "`confirm_decision_sequence`: the decisions, replayed in order from `pending`, follow the lifecycle table.",
    }

    /// `confirm_status_matches_decisions`: a decided Confirm's status is the
    /// status of its last decision.
    pub const CONFIRM_STATUS_MATCHES_DECISIONS = "confirm_status_matches_decisions" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-confirm" },
        summary: "`confirm_status_matches_decisions`: a decided Confirm's status is the status of its last decision.",
    }

    /// `confirm_unique_decision_ids`: no two decisions share a `decision_id`.
    pub const CONFIRM_UNIQUE_DECISION_IDS = "confirm_unique_decision_ids" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-confirm" },
        summary: "`confirm_unique_decision_ids`: no two decisions share a `decision_id`.",
    }
}

/// Every rule of this crate ([`RULES`]).
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES.iter()
}

mplp_core::mplp_id! {
    /// Identifies one decision of a Confirm.
    pub struct DecisionId;
}

mplp_core::wire_enum! {
    /// Lifecycle status of a Confirm. See [`DecisionStatus::rule`] for the
    /// transition table.
    pub enum ConfirmStatus {
        /// Waiting for a decision.
        Pending = "pending",
        /// Approved (final).
        Approved = "approved",
        /// Rejected; a later round may still approve or cancel it.
        Rejected = "rejected",
        /// Withdrawn (final).
        Cancelled = "cancelled",
    }
}

mplp_core::wire_enum! {
    /// What a decision says: the trigger of a Confirm transition.
    pub enum DecisionStatus {
        /// Approve the target.
        Approved = "approved",
        /// Reject the target.
        Rejected = "rejected",
        /// Withdraw the request.
        Cancelled = "cancelled",
    }
}

mplp_core::wire_enum! {
    /// What kind of document a Confirm asks approval for.
    pub enum ConfirmTargetType {
        /// A Context.
        Context = "context",
        /// A Plan.
        Plan = "plan",
        /// A Trace.
        Trace = "trace",
        /// An Extension.
        Extension = "extension",
        /// Anything else.
        Other = "other",
    }
}

impl ConfirmTargetType {
    /// The module of the target, when it is one (`None` for `other`).
    pub const fn module(self) -> Option<ModuleName> {
        match self {
            ConfirmTargetType::Context => Some(ModuleName::Context),
            ConfirmTargetType::Plan => Some(ModuleName::Plan),
            ConfirmTargetType::Trace => Some(ModuleName::Trace),
            ConfirmTargetType::Extension => Some(ModuleName::Extension),
            ConfirmTargetType::Other => None,
        }
    }
}

/// One decision on a Confirm (`confirm_decision_core`).
///
/// ```
/// use mplp_confirm::{ConfirmDecision, DecisionStatus};
/// let d = ConfirmDecision::new(DecisionStatus::Rejected, "dba").with_reason("no rollback plan");
/// let json = serde_json::to_value(&d).unwrap();
/// assert_eq!(json["status"], "rejected");
/// assert_eq!(json["reason"], "no rollback plan");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[non_exhaustive]
pub struct ConfirmDecision {
    /// The decision's id. Required.
    pub decision_id: DecisionId,
    /// What was decided. Required.
    pub status: DecisionStatus,
    /// The role that decided. Required.
    pub decided_by_role: mplp_core::ShortString,
    /// When it was decided. Required.
    pub decided_at: Timestamp,
    /// Why.
    pub reason: Option<String>,
}

impl ConfirmDecision {
    /// A decision with a fresh id, taken now.
    pub fn new(status: DecisionStatus, decided_by_role: impl Into<mplp_core::ShortString>) -> Self {
        ConfirmDecision {
            decision_id: DecisionId::new(),
            status,
            decided_by_role: decided_by_role.into(),
            decided_at: Timestamp::now(),
            reason: None,
        }
    }

    /// An approval by `role`, with a fresh id, taken now.
    ///
    /// ```
    /// use mplp_confirm::{ConfirmDecision, DecisionStatus};
    /// let d = ConfirmDecision::approved("lead").with_reason("rollback documented");
    /// assert_eq!(d.status, DecisionStatus::Approved);
    /// assert_eq!(d.decided_by_role, "lead");
    /// ```
    pub fn approved(role: impl Into<mplp_core::ShortString>) -> Self {
        ConfirmDecision::new(DecisionStatus::Approved, role)
    }

    /// A rejection by `role`, with a fresh id, taken now.
    pub fn rejected(role: impl Into<mplp_core::ShortString>) -> Self {
        ConfirmDecision::new(DecisionStatus::Rejected, role)
    }

    /// A withdrawal of the request by `role`, with a fresh id, taken now.
    pub fn cancelled(role: impl Into<mplp_core::ShortString>) -> Self {
        ConfirmDecision::new(DecisionStatus::Cancelled, role)
    }

    /// True when the decision approves the target (`Confirm.approved` of
    /// the Plan seed's transition table).
    pub fn is_approval(&self) -> bool {
        self.status == DecisionStatus::Approved
    }

    /// The same decision with a reason.
    #[must_use]
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// The same decision, taken at `at`.
    #[must_use]
    pub fn at(mut self, at: Timestamp) -> Self {
        self.decided_at = at;
        self
    }
}

/// A Confirm document (`mplp-confirm.schema.json`, core profile).
///
/// ```
/// use mplp_confirm::{Confirm, ConfirmStatus, ConfirmTargetType};
/// use mplp_core::Document;
/// let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"),
///     "/../../schemas/examples/valid/confirm-two-rounds.json")).unwrap();
/// let confirm = Confirm::from_json(&json)?;
/// assert_eq!(confirm.status(), ConfirmStatus::Approved);
/// assert_eq!(confirm.target_type, ConfirmTargetType::Plan);
/// # Ok::<(), mplp_core::Error>(())
/// ```
///
/// The status and the decisions are guarded (they change together, through
/// [`Confirm::decide`]), so this does not compile:
///
/// ```compile_fail,E0616
/// # use mplp_confirm::{Confirm, ConfirmStatus};
/// fn force(c: &mut Confirm) { c.status = ConfirmStatus::Approved; }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct Confirm {
    /// Protocol metadata. Required.
    pub meta: Meta,
    /// Governance state (lifecycle phase, truth domain, lock, last Confirm).
    pub governance: Option<Governance>,
    /// The Confirm's id. Required.
    pub confirm_id: ConfirmId,
    /// What kind of document the target is. Required.
    pub target_type: ConfirmTargetType,
    /// The id of the target document (its `plan_id`, `context_id`, ...). Required.
    pub target_id: MplpId,
    /// Lifecycle status. Required. Guarded: read it with [`Confirm::status`].
    pub(crate) status: ConfirmStatus,
    /// The role that asked for approval. Required.
    pub requested_by_role: mplp_core::ShortString,
    /// When approval was asked for. Required.
    pub requested_at: Timestamp,
    /// Why approval is needed.
    pub reason: Option<String>,
    /// The decisions, oldest first. Guarded: read them with
    /// [`Confirm::decisions`], add one with [`Confirm::decide`].
    pub(crate) decisions: Option<Vec<ConfirmDecision>>,
    /// The trace span the Confirm is recorded under.
    pub trace: Option<TraceBase>,
    /// Notable events about the Confirm.
    pub events: Option<Vec<BaseEvent>>,
}

impl Confirm {
    /// A `pending` request to approve the document `target_id` of kind
    /// `target_type`, asked now by `requested_by_role`, with a fresh id.
    pub fn request(
        target_type: ConfirmTargetType,
        target_id: MplpId,
        requested_by_role: impl Into<mplp_core::ShortString>,
    ) -> Self {
        Confirm {
            meta: Meta::v1(),
            governance: None,
            confirm_id: ConfirmId::new(),
            target_type,
            target_id,
            status: ConfirmStatus::Pending,
            requested_by_role: requested_by_role.into(),
            requested_at: Timestamp::now(),
            reason: None,
            decisions: None,
            trace: None,
            events: None,
        }
    }

    /// A request to approve a Plan.
    pub fn for_plan(plan_id: PlanId, requested_by_role: impl Into<mplp_core::ShortString>) -> Self {
        Confirm::request(ConfirmTargetType::Plan, plan_id.into(), requested_by_role)
    }

    /// A request to approve a Context.
    pub fn for_context(
        context_id: ContextId,
        requested_by_role: impl Into<mplp_core::ShortString>,
    ) -> Self {
        Confirm::request(
            ConfirmTargetType::Context,
            context_id.into(),
            requested_by_role,
        )
    }

    /// A request to approve a Trace.
    pub fn for_trace(
        trace_id: TraceId,
        requested_by_role: impl Into<mplp_core::ShortString>,
    ) -> Self {
        Confirm::request(ConfirmTargetType::Trace, trace_id.into(), requested_by_role)
    }

    /// The same request with a reason.
    #[must_use]
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// Where the Confirm is in its lifecycle.
    pub fn status(&self) -> ConfirmStatus {
        self.status
    }

    /// The decisions, oldest first (empty when there are none).
    pub fn decisions(&self) -> &[ConfirmDecision] {
        self.decisions.as_deref().unwrap_or(&[])
    }

    /// The last decision, if any.
    pub fn last_decision(&self) -> Option<&ConfirmDecision> {
        self.decisions().last()
    }

    /// True when the target is the document with this id (a `PlanId`,
    /// `ContextId`, `TraceId`, ... or an untyped [`MplpId`]).
    pub fn targets(&self, id: impl Into<MplpId>) -> bool {
        self.target_id == id.into()
    }

    /// The target as a [`Ref`] (`None` for target type `other`, which names
    /// no module).
    pub fn target_ref(&self) -> Option<Ref> {
        self.target_type
            .module()
            .map(|m| Ref::new(self.target_id, m))
    }

    /// A [`Ref`] to this Confirm, for a `governance.lastConfirmRef`.
    ///
    /// ```
    /// use mplp_confirm::Confirm;
    /// use mplp_core::{ModuleName, PlanId};
    /// let c = Confirm::for_plan(PlanId::new(), "agent");
    /// assert_eq!(c.to_ref().module, ModuleName::Confirm);
    /// assert_eq!(c.to_ref().id.to_string(), c.confirm_id.to_string());
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn to_ref(&self) -> Ref {
        Ref::new(self.confirm_id.into(), ModuleName::Confirm)
    }

    /// The decision rules (see the crate's spec notes): unique decision
    /// ids, decisions that follow the table, a status that matches the last
    /// decision.
    pub fn check_decisions(&self, report: &mut Report) {
        decision_rules(
            Some(self.status),
            self.decisions()
                .iter()
                .map(|d| (Some(d.decision_id), Some(d.status))),
            report,
        );
    }
}

/// The decision rules over what can be read of a Confirm: its status and,
/// per decision, its id and status (`None` where unreadable, in a document
/// that failed its schema: a rule that needs a member that cannot be read
/// is not checked). One function for the typed document and the value;
/// `decisions` is walked more than once (it is a cheap iterator over the
/// document), so nothing is copied; repeated ids are found as every
/// uniqueness rule finds them ([`mplp_core::check::for_each_repeated_key`]).
fn decision_rules<I>(status: Option<ConfirmStatus>, decisions: I, report: &mut Report)
where
    I: Iterator<Item = (Option<DecisionId>, Option<DecisionStatus>)> + Clone,
{
    let at = Pointer::root().key("decisions");
    let ids = decisions.clone().map(|(id, _)| id);
    mplp_core::check::for_each_repeated_key(ids, |i, first, id| {
        report.error(
            at.index(i).key("decision_id"),
            CONFIRM_UNIQUE_DECISION_IDS,
            format!(
                "decision_id {id} is already used by decision {first}; decision ids must be unique"
            ),
        );
    });
    let mut replayed = ConfirmStatus::Pending;
    let mut last = None;
    for (i, (_, d)) in decisions.clone().enumerate() {
        // A decision whose status cannot be read ends the replay.
        let Some(d) = d else { return };
        last = Some(d);
        match replayed.decide(d) {
            Ok(next) => replayed = next,
            Err(e) => {
                report.error(
                    at.index(i).key("status"),
                    CONFIRM_DECISION_SEQUENCE,
                    format!("decision {i} cannot follow the earlier ones: {}", e.reason),
                );
                return;
            }
        }
    }
    let Some(status) = status else { return };
    match (status, last) {
        (ConfirmStatus::Pending, Some(last)) => report.warn(
            "/status",
            CONFIRM_STATUS_MATCHES_DECISIONS,
            format!(
                "the Confirm is `pending` but carries {} decision(s), the last `{last}`",
                decisions.count()
            ),
        ),
        (ConfirmStatus::Pending, _) => {}
        (status, None) => report.warn(
            "/status",
            CONFIRM_STATUS_MATCHES_DECISIONS,
            format!("the Confirm is `{status}` but records no decision"),
        ),
        (status, Some(_)) if status != replayed => report.error(
            "/status",
            CONFIRM_STATUS_MATCHES_DECISIONS,
            format!(
                "the Confirm is `{status}` but its decisions lead to `{replayed}` (expected the status of the last decision)"
            ),
        ),
        _ => {}
    }
}

impl DecisionStatus {
    /// The Confirm status this decision leads to.
    pub const fn target(self) -> ConfirmStatus {
        self.rule().1
    }
}

impl Document for Confirm {
    const KIND: &'static str = "confirm";

    /// The decision rules over what can still be read.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        fn read(v: Option<&serde_json::Value>) -> Option<&str> {
            v.and_then(serde_json::Value::as_str)
        }
        let status = read(value.get("status")).and_then(|s| s.parse().ok());
        let decisions = value
            .get("decisions")
            .and_then(serde_json::Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        decision_rules(
            status,
            decisions.iter().map(|d| {
                (
                    // Read only when it is what the schema asks for (a
                    // UUID, compared as one), as in the typed document.
                    read(d.get("decision_id")).and_then(|s| s.parse().ok()),
                    read(d.get("status")).and_then(|s| s.parse().ok()),
                )
            }),
            report,
        );
    }

    fn check_rules(&self, report: &mut Report) {
        self.check_decisions(report);
    }
}
