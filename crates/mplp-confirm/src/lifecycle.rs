//! The Confirm lifecycle: each decision is a trigger, one table
//! ([`DecisionStatus::rule`]).

use mplp_core::{Error, TransitionError, Violation};

use crate::{CONFIRM_UNIQUE_DECISION_IDS, Confirm, ConfirmDecision, ConfirmStatus, DecisionStatus};

impl DecisionStatus {
    /// The lifecycle table, and the only place it lives: the Confirm
    /// statuses this decision may be taken in, and the status it leads to.
    ///
    /// | decision (trigger) | from | to |
    /// |---|---|---|
    /// | `approved` | pending, rejected | approved |
    /// | `rejected` | pending | rejected |
    /// | `cancelled` | pending, rejected | cancelled |
    ///
    /// `approved` and `cancelled` are final; a rejection may be followed
    /// by a later approval (FLOW-05) or a cancellation.
    ///
    /// ```
    /// use mplp_confirm::{ConfirmStatus, DecisionStatus};
    /// assert_eq!(DecisionStatus::Rejected.rule(), (&[ConfirmStatus::Pending][..], ConfirmStatus::Rejected));
    /// ```
    pub const fn rule(self) -> (&'static [ConfirmStatus], ConfirmStatus) {
        use ConfirmStatus::*;
        match self {
            DecisionStatus::Approved => (&[Pending, Rejected], Approved),
            DecisionStatus::Rejected => (&[Pending], Rejected),
            DecisionStatus::Cancelled => (&[Pending, Rejected], Cancelled),
        }
    }
}

mplp_core::trigger_table!(
    ConfirmStatus,
    DecisionStatus,
    "confirm",
    refusal = "a decision `{}` is taken only on a Confirm that is {}; this one is `{}`"
);

impl ConfirmStatus {
    /// The status a `decision` leads to from this one, or the typed refusal
    /// (at `/status`). `is_final` is true when no decision may be taken any
    /// more (`approved`, `cancelled`).
    ///
    /// ```
    /// use mplp_confirm::{ConfirmStatus::*, DecisionStatus};
    /// assert_eq!(Rejected.decide(DecisionStatus::Approved), Ok(Approved));
    /// assert!(Approved.is_final() && Cancelled.is_final() && !Rejected.is_final());
    /// let err = Approved.decide(DecisionStatus::Rejected).unwrap_err();
    /// assert_eq!(err.to_string(), "confirm cannot go from `approved` to `rejected`: `approved` is a final status");
    /// let err = Rejected.decide(DecisionStatus::Rejected).unwrap_err();
    /// assert!(err.to_string().ends_with("a decision `rejected` is taken only on a Confirm that is `pending`; this one is `rejected`"));
    /// ```
    pub fn decide(self, decision: DecisionStatus) -> Result<ConfirmStatus, TransitionError> {
        self.fire_at(decision, "/status")
    }
}

impl Confirm {
    /// Takes `decision`: checks it against the table, then records it and
    /// moves the status, together. On refusal nothing changes.
    ///
    /// ```
    /// use mplp_confirm::{Confirm, ConfirmDecision, DecisionStatus, ConfirmStatus};
    /// use mplp_core::PlanId;
    /// let mut c = Confirm::for_plan(PlanId::new(), "agent");
    /// c.decide(ConfirmDecision::new(DecisionStatus::Approved, "lead").with_reason("fine"))?;
    /// assert_eq!(c.status(), ConfirmStatus::Approved);
    /// assert_eq!(c.decisions()[0].reason.as_deref(), Some("fine"));
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// A [`TransitionError`] (rule `lifecycle-transition`, at `/status`);
    /// `confirm_unique_decision_ids` when a recorded decision has the same id.
    pub fn decide(&mut self, decision: ConfirmDecision) -> Result<(), Error> {
        let next = self.status.decide(decision.status)?;
        if let Some(i) = self
            .decisions()
            .iter()
            .position(|d| d.decision_id == decision.decision_id)
        {
            return Err(Error::State(Violation::error(
                format!("/decisions/{i}/decision_id"),
                CONFIRM_UNIQUE_DECISION_IDS,
                format!(
                    "decision {} is already recorded (decision {i}); decision ids must be unique",
                    decision.decision_id
                ),
            )));
        }
        self.status = next;
        self.decisions.get_or_insert_with(Vec::new).push(decision);
        Ok(())
    }

    /// Approves, now, by `role`.
    ///
    /// # Errors
    /// As [`Confirm::decide`].
    pub fn approve(&mut self, role: impl Into<mplp_core::ShortString>) -> Result<(), Error> {
        self.decide(ConfirmDecision::new(DecisionStatus::Approved, role))
    }

    /// Rejects, now, by `role`, for `reason`.
    ///
    /// # Errors
    /// As [`Confirm::decide`].
    pub fn reject(
        &mut self,
        role: impl Into<mplp_core::ShortString>,
        reason: impl Into<String>,
    ) -> Result<(), Error> {
        self.decide(ConfirmDecision::new(DecisionStatus::Rejected, role).with_reason(reason))
    }

    /// Withdraws the request, now, by `role`.
    ///
    /// # Errors
    /// As [`Confirm::decide`].
    pub fn cancel(&mut self, role: impl Into<mplp_core::ShortString>) -> Result<(), Error> {
        self.decide(ConfirmDecision::new(DecisionStatus::Cancelled, role))
    }
}
