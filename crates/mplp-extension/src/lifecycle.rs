//! The Extension lifecycle: one table of triggers ([`ExtensionTrigger::rule`]).

use mplp_core::{Error, Timestamp, TransitionError};

use crate::{Extension, ExtensionStatus};

mplp_core::wire_enum! {
    /// What changes an Extension's status. Each trigger leads to one status
    /// and fires from the statuses of [`ExtensionTrigger::rule`].
    pub enum ExtensionTrigger {
        /// `registered | inactive → active` (the taxonomy's `extension_activated`).
        Activate = "activate",
        /// `active → inactive`.
        Deactivate = "deactivate",
        /// `registered | active | inactive → deprecated`.
        Deprecate = "deprecate",
    }
}

impl ExtensionTrigger {
    /// The lifecycle table, and the only place it lives: the statuses this
    /// trigger fires from, and the status it leads to.
    ///
    /// | trigger | from | to |
    /// |---|---|---|
    /// | `activate` | registered, inactive | active |
    /// | `deactivate` | active | inactive |
    /// | `deprecate` | registered, active, inactive | deprecated |
    ///
    /// `deprecated` is final. A status never "changes" to itself.
    ///
    /// ```
    /// use mplp_extension::{ExtensionStatus::*, ExtensionTrigger};
    /// assert_eq!(ExtensionTrigger::Activate.rule(), (&[Registered, Inactive][..], Active));
    /// ```
    pub const fn rule(self) -> (&'static [ExtensionStatus], ExtensionStatus) {
        use ExtensionStatus::*;
        match self {
            ExtensionTrigger::Activate => (&[Registered, Inactive], Active),
            ExtensionTrigger::Deactivate => (&[Active], Inactive),
            ExtensionTrigger::Deprecate => (&[Registered, Active, Inactive], Deprecated),
        }
    }

    /// The status this trigger leads to.
    pub const fn target(self) -> ExtensionStatus {
        self.rule().1
    }
}

mplp_core::trigger_table!(ExtensionStatus, ExtensionTrigger, "extension");

impl ExtensionStatus {
    /// The status `trigger` leads to from this one, or the typed refusal
    /// (at `/status`).
    ///
    /// ```
    /// use mplp_extension::{ExtensionStatus::*, ExtensionTrigger};
    /// assert_eq!(Inactive.fire(ExtensionTrigger::Activate), Ok(Active));
    /// assert!(Inactive.can_transition_to(Active));
    /// assert!(!Registered.can_transition_to(Inactive));
    /// let err = Deprecated.fire(ExtensionTrigger::Activate).unwrap_err();
    /// assert_eq!(err.to_string(), "extension cannot go from `deprecated` to `active`: `deprecated` is a final status");
    /// ```
    pub fn fire(self, trigger: ExtensionTrigger) -> Result<ExtensionStatus, TransitionError> {
        self.fire_at(trigger, "/status")
    }
}

impl Extension {
    /// Fires `trigger` if the table allows it from the current status,
    /// stamping `meta.updated_at` with `at`; on refusal nothing changes.
    ///
    /// ```
    /// use mplp_extension::{Extension, ExtensionStatus, ExtensionTrigger, ExtensionType};
    /// use mplp_core::{ContextId, Timestamp};
    /// let mut e = Extension::new(ContextId::new(), "x", ExtensionType::Other, "0.1.0")?;
    /// assert!(e.fire(ExtensionTrigger::Deactivate, Timestamp::now()).is_err()); // registered
    /// e.fire(ExtensionTrigger::Activate, Timestamp::now())?;
    /// assert_eq!(e.status(), ExtensionStatus::Active);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// A [`TransitionError`] (rule `lifecycle-transition`, at `/status`).
    pub fn fire(&mut self, trigger: ExtensionTrigger, at: Timestamp) -> Result<(), Error> {
        self.status = self.status.fire_at(trigger, "/status")?;
        self.meta.updated_at = Some(at);
        Ok(())
    }

    /// `registered | inactive → active`, now.
    ///
    /// # Errors
    /// As [`Extension::fire`].
    pub fn activate(&mut self) -> Result<(), Error> {
        self.fire(ExtensionTrigger::Activate, Timestamp::now())
    }

    /// `active → inactive`, now.
    ///
    /// # Errors
    /// As [`Extension::fire`].
    pub fn deactivate(&mut self) -> Result<(), Error> {
        self.fire(ExtensionTrigger::Deactivate, Timestamp::now())
    }

    /// `registered | active | inactive → deprecated`, now.
    ///
    /// # Errors
    /// As [`Extension::fire`].
    pub fn deprecate(&mut self) -> Result<(), Error> {
        self.fire(ExtensionTrigger::Deprecate, Timestamp::now())
    }
}
