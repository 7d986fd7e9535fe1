//! The Context lifecycle: one table of triggers ([`ContextTrigger::rule`]).

use mplp_core::{Error, Timestamp, TransitionError};

use crate::{Context, ContextStatus};

mplp_core::wire_enum! {
    /// What changes a Context's status. Each trigger leads to one status
    /// and fires from the statuses of [`ContextTrigger::rule`].
    pub enum ContextTrigger {
        /// `draft → active`.
        Activate = "activate",
        /// `active → suspended`.
        Suspend = "suspend",
        /// `suspended → active`.
        Resume = "resume",
        /// `active | suspended → archived`.
        Archive = "archive",
        /// `archived → active`.
        Restore = "restore",
        /// `draft | active | suspended | archived → closed`.
        Close = "close",
    }
}

impl ContextTrigger {
    /// The lifecycle table, and the only place it lives: the statuses this
    /// trigger fires from, and the status it leads to.
    ///
    /// | trigger | from | to |
    /// |---|---|---|
    /// | `activate` | draft | active |
    /// | `suspend` | active | suspended |
    /// | `resume` | suspended | active |
    /// | `archive` | active, suspended | archived |
    /// | `restore` | archived | active |
    /// | `close` | draft, active, suspended, archived | closed |
    ///
    /// `closed` is final. A status never "changes" to itself.
    ///
    /// ```
    /// use mplp_context::{ContextStatus::*, ContextTrigger};
    /// assert_eq!(ContextTrigger::Archive.rule(), (&[Active, Suspended][..], Archived));
    /// ```
    pub const fn rule(self) -> (&'static [ContextStatus], ContextStatus) {
        use ContextStatus::*;
        match self {
            ContextTrigger::Activate => (&[Draft], Active),
            ContextTrigger::Suspend => (&[Active], Suspended),
            ContextTrigger::Resume => (&[Suspended], Active),
            ContextTrigger::Archive => (&[Active, Suspended], Archived),
            ContextTrigger::Restore => (&[Archived], Active),
            ContextTrigger::Close => (&[Draft, Active, Suspended, Archived], Closed),
        }
    }

    /// The status this trigger leads to.
    pub const fn target(self) -> ContextStatus {
        self.rule().1
    }
}

mplp_core::trigger_table!(ContextStatus, ContextTrigger, "context");

impl ContextStatus {
    /// The status `trigger` leads to from this one, or the typed refusal
    /// (at `/status`).
    ///
    /// ```
    /// use mplp_context::{ContextStatus::*, ContextTrigger};
    /// assert_eq!(Suspended.fire(ContextTrigger::Resume), Ok(Active));
    /// assert!(Archived.can_transition_to(Active));
    /// assert!(!Draft.can_transition_to(Suspended));
    /// assert!(Closed.is_final() && !Archived.is_final());
    /// let err = Closed.fire(ContextTrigger::Restore).unwrap_err();
    /// assert_eq!(err.to_string(), "context cannot go from `closed` to `active`: `closed` is a final status");
    /// ```
    pub fn fire(self, trigger: ContextTrigger) -> Result<ContextStatus, TransitionError> {
        self.fire_at(trigger, "/status")
    }
}

impl Context {
    /// Fires `trigger` if the table allows it from the current status,
    /// stamping `updated_at` with `at`; on refusal nothing changes.
    ///
    /// ```
    /// use mplp_context::{Context, ContextRoot, ContextStatus, ContextTrigger};
    /// use mplp_core::Timestamp;
    /// let mut ctx = Context::new("t", ContextRoot::new("d", "e"))?;
    /// assert!(ctx.fire(ContextTrigger::Suspend, Timestamp::now()).is_err()); // a draft
    /// ctx.fire(ContextTrigger::Activate, Timestamp::now())?;
    /// assert_eq!(ctx.status(), ContextStatus::Active);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// A [`TransitionError`] (rule `lifecycle-transition`, at `/status`).
    pub fn fire(&mut self, trigger: ContextTrigger, at: Timestamp) -> Result<(), Error> {
        self.status = self.status.fire(trigger)?;
        self.updated_at = Some(at);
        Ok(())
    }

    /// `draft → active`, now.
    ///
    /// # Errors
    /// As [`Context::fire`].
    pub fn activate(&mut self) -> Result<(), Error> {
        self.fire(ContextTrigger::Activate, Timestamp::now())
    }

    /// `active → suspended`, now.
    ///
    /// # Errors
    /// As [`Context::fire`].
    pub fn suspend(&mut self) -> Result<(), Error> {
        self.fire(ContextTrigger::Suspend, Timestamp::now())
    }

    /// `suspended → active`, now.
    ///
    /// # Errors
    /// As [`Context::fire`].
    pub fn resume(&mut self) -> Result<(), Error> {
        self.fire(ContextTrigger::Resume, Timestamp::now())
    }

    /// `active | suspended → archived`, now.
    ///
    /// # Errors
    /// As [`Context::fire`].
    pub fn archive(&mut self) -> Result<(), Error> {
        self.fire(ContextTrigger::Archive, Timestamp::now())
    }

    /// `archived → active`, now.
    ///
    /// # Errors
    /// As [`Context::fire`].
    pub fn restore(&mut self) -> Result<(), Error> {
        self.fire(ContextTrigger::Restore, Timestamp::now())
    }

    /// `draft | active | suspended | archived → closed`, now.
    ///
    /// # Errors
    /// As [`Context::fire`].
    pub fn close(&mut self) -> Result<(), Error> {
        self.fire(ContextTrigger::Close, Timestamp::now())
    }
}
