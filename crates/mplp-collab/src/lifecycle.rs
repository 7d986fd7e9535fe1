//! The session lifecycle: which status changes a Collab may make.
//!
//! | from \ to   | draft | active | suspended | completed | cancelled |
//! |-------------|-------|--------|-----------|-----------|-----------|
//! | `draft`     |   –   |  start |     –     |     –     |  cancel   |
//! | `active`    |   –   |   –    |  suspend  | complete  |  cancel   |
//! | `suspended` |   –   | resume |     –     |     –     |  cancel   |
//! | `completed` |   –   |   –    |     –     |     –     |     –     |
//! | `cancelled` |   –   |   –    |     –     |     –     |     –     |
//!
//! A session is completed only from `active` (a suspended session is resumed
//! first, a draft one never ran); it can be cancelled from any status that is
//! not final; nothing leaves `completed` or `cancelled`; a status never
//! "changes" to itself.

use mplp_core::{Error, Timestamp, TransitionError, Violation};

use crate::{Collab, CollabStatus, MAP_PARTICIPANTS_CAN_ACT};

impl CollabStatus {
    /// True when the lifecycle table allows `self → to`.
    ///
    /// ```
    /// use mplp_collab::CollabStatus::*;
    /// assert!(Draft.can_transition_to(Active));
    /// assert!(Suspended.can_transition_to(Active));
    /// assert!(!Suspended.can_transition_to(Completed));
    /// assert!(!Completed.can_transition_to(Active));
    /// ```
    pub const fn can_transition_to(self, to: CollabStatus) -> bool {
        use CollabStatus::*;
        matches!(
            (self, to),
            (Draft, Active)
                | (Draft, Cancelled)
                | (Active, Suspended)
                | (Active, Completed)
                | (Active, Cancelled)
                | (Suspended, Active)
                | (Suspended, Cancelled)
        )
    }

    /// The statuses reachable from this one in one step.
    pub fn next_statuses(self) -> impl Iterator<Item = CollabStatus> {
        CollabStatus::ALL
            .iter()
            .copied()
            .filter(move |to| self.can_transition_to(*to))
    }

    /// Checks `self → to` against the table, with a reason when refused.
    pub fn check_transition(self, to: CollabStatus) -> Result<(), TransitionError> {
        if self.can_transition_to(to) {
            return Ok(());
        }
        let reason = if self == to {
            format!("the session is already `{to}`")
        } else if self.is_final() {
            format!("`{self}` is a final status")
        } else {
            let allowed: Vec<&str> = self.next_statuses().map(CollabStatus::as_str).collect();
            format!(
                "from `{self}` a session can go only to {}",
                allowed
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        Err(TransitionError::new(
            "collab",
            "/status",
            self.as_str(),
            to.as_str(),
            reason,
        ))
    }
}

impl Collab {
    /// Moves the session to `to` if the lifecycle table allows it, stamping
    /// `updated_at` with `at`.
    ///
    /// ```
    /// use mplp_collab::{Collab, CollabStatus};
    /// use mplp_core::{Document, Timestamp};
    /// let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"),
    ///     "/../../schemas/examples/valid/collab-pair.json")).unwrap();
    /// let mut collab = Collab::from_json(&json)?;          // a draft
    /// let at = Timestamp::now();
    /// assert!(collab.transition_at(CollabStatus::Completed, at.clone()).is_err());
    /// collab.transition_at(CollabStatus::Active, at.clone())?;
    /// collab.transition_at(CollabStatus::Completed, at)?;
    /// assert_eq!(collab.status(), CollabStatus::Completed);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn transition_at(&mut self, to: CollabStatus, at: Timestamp) -> Result<(), Error> {
        self.status.check_transition(to)?;
        self.status = to;
        self.updated_at = Some(at);
        Ok(())
    }

    /// `draft → active`, now.
    pub fn start(&mut self) -> Result<(), Error> {
        self.require_from(CollabStatus::Draft, CollabStatus::Active)
    }

    /// `active → suspended`, now.
    pub fn suspend(&mut self) -> Result<(), Error> {
        self.require_from(CollabStatus::Active, CollabStatus::Suspended)
    }

    /// `suspended → active`, now.
    pub fn resume(&mut self) -> Result<(), Error> {
        self.require_from(CollabStatus::Suspended, CollabStatus::Active)
    }

    /// `active → completed`, now.
    pub fn complete(&mut self) -> Result<(), Error> {
        self.transition_at(CollabStatus::Completed, Timestamp::now())
    }

    /// `draft | active | suspended → cancelled`, now.
    pub fn cancel(&mut self) -> Result<(), Error> {
        self.transition_at(CollabStatus::Cancelled, Timestamp::now())
    }

    /// `start` and `resume` both lead to `active`; each only from its own status.
    fn require_from(&mut self, from: CollabStatus, to: CollabStatus) -> Result<(), Error> {
        if self.status != from {
            let reason = format!(
                "this operation moves a `{from}` session to `{to}`; the session is `{}`",
                self.status
            );
            return Err(TransitionError::new(
                "collab",
                "/status",
                self.status.as_str(),
                to.as_str(),
                reason,
            )
            .into());
        }
        self.transition_at(to, Timestamp::now())
    }

    /// `Ok(())` when participants may act, else a state error with rule
    /// `map_participants_can_act`.
    pub fn ensure_can_act(&self) -> Result<(), Error> {
        ensure_can_act(self.status)
    }
}

/// `Ok(())` when participants of a session in `status` may act.
pub(crate) fn ensure_can_act(status: CollabStatus) -> Result<(), Error> {
    if status.participants_can_act() {
        Ok(())
    } else {
        Err(Error::State(Violation::error(
            "/status",
            MAP_PARTICIPANTS_CAN_ACT,
            format!("participants can act only while the session is `active`; it is `{status}`"),
        )))
    }
}
