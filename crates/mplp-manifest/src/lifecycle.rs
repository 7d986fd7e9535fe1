//! The instance and module lifecycles: one table of triggers each
//! ([`CoreTrigger::rule`], [`ModuleTrigger::rule`]).

use mplp_core::{Error, ModuleName, Timestamp};

use crate::{CORE_REQUIRED_MODULE_ENABLED, CoreManifest, CoreStatus, ModuleStatus, state_error};

mplp_core::wire_enum! {
    /// What changes a Core instance's status.
    pub enum CoreTrigger {
        /// `draft → active` (the taxonomy's `protocol_initialized`).
        Activate = "activate",
        /// `active → deprecated`.
        Deprecate = "deprecate",
        /// `draft | active | deprecated → archived`.
        Archive = "archive",
    }
}

mplp_core::wire_enum! {
    /// What changes a module's status in the instance.
    pub enum ModuleTrigger {
        /// `disabled | experimental → enabled` (the taxonomy's `module_enabled`).
        Enable = "enable",
        /// `enabled | experimental | deprecated → disabled` (`module_disabled`).
        Disable = "disable",
        /// `disabled → experimental`.
        Trial = "trial",
        /// `enabled | experimental → deprecated`.
        Deprecate = "deprecate",
    }
}

impl CoreTrigger {
    /// The instance lifecycle table, and the only place it lives: the
    /// statuses this trigger fires from, and the status it leads to.
    ///
    /// | trigger | from | to |
    /// |---|---|---|
    /// | `activate` | draft | active |
    /// | `deprecate` | active | deprecated |
    /// | `archive` | draft, active, deprecated | archived |
    ///
    /// `archived` is final.
    ///
    /// ```
    /// use mplp_manifest::{CoreStatus::*, CoreTrigger};
    /// assert_eq!(CoreTrigger::Archive.rule(), (&[Draft, Active, Deprecated][..], Archived));
    /// ```
    pub const fn rule(self) -> (&'static [CoreStatus], CoreStatus) {
        use CoreStatus::*;
        match self {
            CoreTrigger::Activate => (&[Draft], Active),
            CoreTrigger::Deprecate => (&[Active], Deprecated),
            CoreTrigger::Archive => (&[Draft, Active, Deprecated], Archived),
        }
    }
}

impl ModuleTrigger {
    /// The module lifecycle table, and the only place it lives.
    ///
    /// | trigger | from | to |
    /// |---|---|---|
    /// | `enable` | disabled, experimental | enabled |
    /// | `disable` | enabled, experimental, deprecated | disabled |
    /// | `trial` | disabled | experimental |
    /// | `deprecate` | enabled, experimental | deprecated |
    ///
    /// No status is final: a disabled module can be enabled again.
    ///
    /// ```
    /// use mplp_manifest::{ModuleStatus::*, ModuleTrigger};
    /// assert_eq!(ModuleTrigger::Enable.rule(), (&[Disabled, Experimental][..], Enabled));
    /// ```
    pub const fn rule(self) -> (&'static [ModuleStatus], ModuleStatus) {
        use ModuleStatus::*;
        match self {
            ModuleTrigger::Enable => (&[Disabled, Experimental], Enabled),
            ModuleTrigger::Disable => (&[Enabled, Experimental, Deprecated], Disabled),
            ModuleTrigger::Trial => (&[Disabled], Experimental),
            ModuleTrigger::Deprecate => (&[Enabled, Experimental], Deprecated),
        }
    }
}

mplp_core::trigger_table!(CoreStatus, CoreTrigger, "core instance");
mplp_core::trigger_table!(ModuleStatus, ModuleTrigger, "module");

impl CoreManifest {
    /// Fires `trigger` if the table allows it, stamping `meta.updated_at`
    /// with `at`; on refusal nothing changes.
    ///
    /// ```
    /// use mplp_manifest::{CoreManifest, CoreStatus, CoreTrigger};
    /// use mplp_core::{ModuleName, Timestamp};
    /// let mut c = CoreManifest::new([ModuleName::Core])?;
    /// let err = c.fire(CoreTrigger::Deprecate, Timestamp::now()).unwrap_err();
    /// assert_eq!(err.to_string(), "core instance cannot go from `draft` to `deprecated`: `deprecate` fires only from `active`, the core instance is `draft`");
    /// c.fire(CoreTrigger::Activate, Timestamp::now())?;
    /// assert_eq!(c.status(), CoreStatus::Active);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// A [`TransitionError`](mplp_core::TransitionError) (rule `lifecycle-transition`, at `/status`).
    pub fn fire(&mut self, trigger: CoreTrigger, at: Timestamp) -> Result<(), Error> {
        self.status = self.status.fire_at(trigger, "/status")?;
        self.meta.updated_at = Some(at);
        Ok(())
    }

    /// `draft → active`, now.
    ///
    /// # Errors
    /// As [`CoreManifest::fire`].
    pub fn activate(&mut self) -> Result<(), Error> {
        self.fire(CoreTrigger::Activate, Timestamp::now())
    }

    /// `active → deprecated`, now.
    ///
    /// # Errors
    /// As [`CoreManifest::fire`].
    pub fn deprecate(&mut self) -> Result<(), Error> {
        self.fire(CoreTrigger::Deprecate, Timestamp::now())
    }

    /// `draft | active | deprecated → archived`, now.
    ///
    /// # Errors
    /// As [`CoreManifest::fire`].
    pub fn archive(&mut self) -> Result<(), Error> {
        self.fire(CoreTrigger::Archive, Timestamp::now())
    }

    /// Fires `trigger` on module `m`, stamping `meta.updated_at` with `at`.
    /// A required module is never disabled; an archived instance's modules
    /// no longer change. On refusal nothing changes.
    ///
    /// # Errors
    /// [`crate::UNKNOWN_MODULE`]; [`crate::CORE_ARCHIVED_IS_FROZEN`];
    /// [`CORE_REQUIRED_MODULE_ENABLED`]; a [`TransitionError`](mplp_core::TransitionError) at
    /// `/modules/i/status`.
    pub fn fire_module(
        &mut self,
        m: ModuleName,
        trigger: ModuleTrigger,
        at: Timestamp,
    ) -> Result<(), Error> {
        self.ensure_not_archived()?;
        let i = self.module_index(m)?;
        let d = &mut self.modules.as_mut_slice()[i];
        let pointer = format!("/modules/{i}/status");
        let next = d.status.fire_at(trigger, &pointer)?;
        if next == ModuleStatus::Disabled && d.required == Some(true) {
            return Err(state_error(
                &pointer,
                CORE_REQUIRED_MODULE_ENABLED,
                format!("module `{m}` is required: it cannot be disabled"),
            ));
        }
        d.status = next;
        self.meta.updated_at = Some(at);
        Ok(())
    }

    /// `disabled | experimental → enabled` for module `m`, now.
    ///
    /// # Errors
    /// As [`CoreManifest::fire_module`].
    pub fn enable_module(&mut self, m: ModuleName) -> Result<(), Error> {
        self.fire_module(m, ModuleTrigger::Enable, Timestamp::now())
    }

    /// `enabled | experimental | deprecated → disabled` for module `m`, now.
    ///
    /// # Errors
    /// As [`CoreManifest::fire_module`].
    pub fn disable_module(&mut self, m: ModuleName) -> Result<(), Error> {
        self.fire_module(m, ModuleTrigger::Disable, Timestamp::now())
    }
}
