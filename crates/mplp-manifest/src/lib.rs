//! MPLP v1.0.0 **Core module** documents (`mplp-core.schema.json`): the
//! manifest of one protocol instance, saying which protocol version it
//! speaks, which L2 modules it enables, and where it is in its lifecycle.
//!
//! - [`CoreManifest`], [`ModuleDescriptor`], [`CoreStatus`],
//!   [`ModuleStatus`] (module ids are [`mplp_core::ModuleName`]): the wire
//!   types, exactly as the schema says; reading and all-errors validation
//!   through [`mplp_core::Document`] (kind `core`) with the manifest rules.
//! - Two lifecycles, each one table of triggers: [`CoreTrigger::rule`] for
//!   the instance, [`ModuleTrigger::rule`] for a module, refusing with a
//!   typed [`mplp_core::TransitionError`] (rule `lifecycle-transition`).
//!
//! **Why `mplp-manifest`.** The schema is the *Core module* of MPLP, but
//! `mplp-core` is this workspace's foundation crate (ids, `Meta`, errors,
//! `Document`), which every module crate depends on. A crate holding the
//! Core module's document must depend on `mplp-core` and so cannot share its
//! name; `mplp-core-module` would read as part of the foundation. The
//! document *is* a manifest (version, enabled modules, status), so the
//! crate and type are named for what it is; the document kind stays `core`,
//! the module's name in the protocol (`Ref.module`, `module_id`).
//!
//! ```
//! use mplp_manifest::{CoreManifest, CoreStatus, ModuleStatus};
//! use mplp_core::{Document, ModuleName};
//!
//! let mut core = CoreManifest::new([ModuleName::Context, ModuleName::Plan, ModuleName::Trace])?;
//! core.set_required(ModuleName::Context, true)?;
//! core.activate()?;
//! core.disable_module(ModuleName::Trace)?;
//! assert!(core.disable_module(ModuleName::Context).is_err()); // required
//! assert_eq!(core.module(ModuleName::Trace).map(|m| m.status()), Some(ModuleStatus::Disabled));
//! assert_eq!(core.status(), CoreStatus::Active);
//!
//! let back = CoreManifest::from_json(core.to_json())?;
//! assert_eq!(back, core);
//! # Ok::<(), mplp_core::Error>(())
//! ```
//!
//! # Spec notes
//! (Also in `docs/spec-notes.md`, section "mplp-manifest"; each is pinned by
//! a test in `tests/`.)
//! - **Lifecycle tables** are ours (the schema gives the statuses only).
//!   `archived` is final for the instance; a module has no final status.
//! - **Modules** are listed once each ([`CORE_UNIQUE_MODULES`]); a module
//!   marked `required` is not `disabled` ([`CORE_REQUIRED_MODULE_ENABLED`]).
//! - **Stamps.** The schema gives the document no timestamps of its own, so
//!   changes stamp `meta.updated_at`.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod lifecycle;

pub use lifecycle::{CoreTrigger, ModuleTrigger};

use mplp_core::rules::Source;
use mplp_core::{
    BaseEvent, Governance, Meta, NonEmptyString, NonEmptyVec, Pointer, Report, Rule, Timestamp,
    TraceBase, Violation, Wire,
};
/// Re-exported so that depending on this crate alone is enough.
pub use mplp_core::{Document, Error, ModuleName};

mplp_core::declare_rules! {
    /// Every rule of this crate, with its severity per profile and its source.
    pub const RULES;
    /// `core_unique_modules`: a module is listed once in `modules`.
    pub const CORE_UNIQUE_MODULES = "core_unique_modules" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-manifest" },
        summary: "`core_unique_modules`: a module is listed once in a Core manifest's `modules`.",
    }

    /// `core_required_module_enabled`: a module marked `required` is not
    /// `disabled` (nor removed).
    pub const CORE_REQUIRED_MODULE_ENABLED = "core_required_module_enabled" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-manifest" },
        summary: "`core_required_module_enabled`: a module marked `required` is not `disabled` (nor removed).",
    }

    /// `core_archived_is_frozen`: the modules of an `archived` instance no
    /// longer change.
    pub const CORE_ARCHIVED_IS_FROZEN = "core_archived_is_frozen" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-manifest" },
        summary: "`core_archived_is_frozen`: the modules of an `archived` Core instance no longer change.",
    }

    /// `unknown-module`: an operation names a module the manifest does not list.
    pub const UNKNOWN_MODULE = "unknown-module" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-manifest" },
        summary: "`unknown-module`: an operation names a module the Core manifest does not list.",
    }
}

/// Every rule of this crate ([`RULES`]).
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES.iter()
}

mplp_core::mplp_id! {
    /// Identifies a Core instance.
    pub struct CoreId;
}

mplp_core::wire_enum! {
    /// Lifecycle status of a Core instance. See [`CoreTrigger::rule`].
    pub enum CoreStatus {
        /// Being prepared.
        Draft = "draft",
        /// In use.
        Active = "active",
        /// Still readable, superseded by a newer instance.
        Deprecated = "deprecated",
        /// Kept for the record only (final).
        Archived = "archived",
    }
}

mplp_core::wire_enum! {
    /// Status of a module in the instance. See [`ModuleTrigger::rule`].
    pub enum ModuleStatus {
        /// In use.
        Enabled = "enabled",
        /// Switched off.
        Disabled = "disabled",
        /// In use on trial.
        Experimental = "experimental",
        /// In use, to be removed.
        Deprecated = "deprecated",
    }
}

/// One module of the instance (`core_module_descriptor`).
///
/// ```
/// use mplp_manifest::{ModuleDescriptor, ModuleStatus};
/// use mplp_core::ModuleName;
/// let d = ModuleDescriptor::new(ModuleName::Plan, "1.0.0")?.with_description("plans and steps");
/// assert_eq!(d.status(), ModuleStatus::Enabled);
/// assert_eq!(serde_json::to_string(&d).unwrap(),
///     r#"{"module_id":"plan","version":"1.0.0","status":"enabled","description":"plans and steps"}"#);
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[non_exhaustive]
pub struct ModuleDescriptor {
    /// Which module. Required. Guarded (listed once per manifest).
    pub(crate) module_id: ModuleName,
    /// The protocol version the module speaks here (SemVer recommended).
    /// Required, non-empty.
    pub version: NonEmptyString,
    /// Status. Required. Guarded: see [`ModuleTrigger::rule`].
    pub(crate) status: ModuleStatus,
    /// Whether the instance cannot do without the module. Guarded: change
    /// it with [`CoreManifest::set_required`].
    pub(crate) required: Option<bool>,
    /// What the module does here, for people and agents.
    pub description: Option<String>,
}

impl ModuleDescriptor {
    /// An `enabled` module at `version`.
    ///
    /// # Errors
    /// `min-length` at `/version` when `version` is empty.
    pub fn new(module_id: ModuleName, version: impl Into<String>) -> Result<Self, Error> {
        let version = NonEmptyString::new(version).map_err(|_| {
            Error::single("/version", Rule::MIN_LENGTH, "`version` must not be empty")
        })?;
        Ok(ModuleDescriptor {
            module_id,
            version,
            status: ModuleStatus::Enabled,
            required: None,
            description: None,
        })
    }

    /// The same module with a description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Which module.
    pub fn module_id(&self) -> ModuleName {
        self.module_id
    }

    /// The module's status.
    pub fn status(&self) -> ModuleStatus {
        self.status
    }

    /// Whether the module is marked required (`None`: not said).
    pub fn required(&self) -> Option<bool> {
        self.required
    }
}

/// A Core module document (`mplp-core.schema.json`, core profile): the
/// manifest of one protocol instance.
///
/// ```
/// use mplp_manifest::{CoreManifest, CoreStatus};
/// use mplp_core::{Document, ModuleName};
/// let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"),
///     "/../../schemas/examples/valid/core-active-all-modules.json")).unwrap();
/// let core = CoreManifest::from_json(&json)?;
/// assert_eq!(core.status(), CoreStatus::Active);
/// assert_eq!(core.modules().len(), 10);
/// assert!(core.is_enabled(ModuleName::Plan));
/// # Ok::<(), mplp_core::Error>(())
/// ```
///
/// The status and the modules are guarded, so this does not compile:
///
/// ```compile_fail,E0616
/// # use mplp_manifest::{CoreManifest, CoreStatus};
/// fn force(c: &mut CoreManifest) { c.status = CoreStatus::Active; }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct CoreManifest {
    /// Protocol metadata. Required.
    pub meta: Meta,
    /// Governance state (lifecycle phase, truth domain, lock, last Confirm).
    pub governance: Option<Governance>,
    /// The instance's id. Required.
    pub core_id: CoreId,
    /// The protocol version of the instance (`1.0.0`). Required, non-empty.
    pub protocol_version: NonEmptyString,
    /// Lifecycle status. Required. Guarded: read it with
    /// [`CoreManifest::status`], change it with [`CoreManifest::fire`].
    pub(crate) status: CoreStatus,
    /// The enabled L2 modules, at least one. Required. Guarded: read them
    /// with [`CoreManifest::modules`].
    pub(crate) modules: NonEmptyVec<ModuleDescriptor>,
    /// The trace span that audits changes to the instance.
    pub trace: Option<TraceBase>,
    /// Notable events (version upgrades, modules enabled or disabled, ...).
    pub events: Option<Vec<BaseEvent>>,
}

/// A refusal of an API call: one violation as a state error.
pub(crate) fn state_error(pointer: &str, rule: Rule, message: String) -> Error {
    Error::State(Violation::error(pointer, rule, message))
}

impl CoreManifest {
    /// A `draft` manifest of protocol `1.0.0` with a fresh id, metadata
    /// created now, and `modules` enabled at version `1.0.0`.
    ///
    /// ```
    /// use mplp_manifest::CoreManifest;
    /// use mplp_core::ModuleName;
    /// let err = CoreManifest::new([]).unwrap_err();
    /// assert_eq!((err.pointer(), err.rule().map(|r| r.as_str())), (Some("/modules"), Some("min-items")));
    /// let err = CoreManifest::new([ModuleName::Plan, ModuleName::Plan]).unwrap_err();
    /// assert_eq!(err.pointer(), Some("/modules/1/module_id"));
    /// ```
    ///
    /// # Errors
    /// `min-items` at `/modules` when `modules` is empty;
    /// [`CORE_UNIQUE_MODULES`] when a module is named twice.
    pub fn new(modules: impl IntoIterator<Item = ModuleName>) -> Result<Self, Error> {
        let mut list: Vec<ModuleDescriptor> = Vec::new();
        for (i, m) in modules.into_iter().enumerate() {
            if list.iter().any(|d| d.module_id == m) {
                return Err(Error::single(
                    format!("/modules/{i}/module_id"),
                    CORE_UNIQUE_MODULES,
                    format!("module `{m}` is listed twice"),
                ));
            }
            list.push(ModuleDescriptor::new(m, "1.0.0")?);
        }
        let modules = NonEmptyVec::try_from(list).map_err(|_| {
            Error::single(
                "/modules",
                Rule::MIN_ITEMS,
                "a Core manifest enables at least one module",
            )
        })?;
        Ok(CoreManifest {
            meta: Meta::created_now(None),
            governance: None,
            core_id: CoreId::new(),
            protocol_version: NonEmptyString::new("1.0.0").map_err(|_| {
                Error::single(
                    "/protocol_version",
                    Rule::MIN_LENGTH,
                    "empty protocol version",
                )
            })?,
            status: CoreStatus::Draft,
            modules,
            trace: None,
            events: None,
        })
    }

    /// Where the instance is in its lifecycle.
    pub fn status(&self) -> CoreStatus {
        self.status
    }

    /// The modules, in document order (at least one).
    pub fn modules(&self) -> &[ModuleDescriptor] {
        &self.modules
    }

    /// The descriptor of module `m`, if listed.
    pub fn module(&self, m: ModuleName) -> Option<&ModuleDescriptor> {
        self.modules.iter().find(|d| d.module_id == m)
    }

    /// The descriptor of module `m`, to change its version or description
    /// (its id, status and `required` flag stay guarded).
    pub fn module_mut(&mut self, m: ModuleName) -> Option<&mut ModuleDescriptor> {
        self.modules
            .as_mut_slice()
            .iter_mut()
            .find(|d| d.module_id == m)
    }

    /// True when module `m` is listed and `enabled`.
    pub fn is_enabled(&self, m: ModuleName) -> bool {
        self.module(m)
            .is_some_and(|d| d.status == ModuleStatus::Enabled)
    }

    pub(crate) fn ensure_not_archived(&self) -> Result<(), Error> {
        if self.status == CoreStatus::Archived {
            return Err(state_error(
                "/status",
                CORE_ARCHIVED_IS_FROZEN,
                format!(
                    "Core instance {} is `archived`: its modules no longer change",
                    self.core_id
                ),
            ));
        }
        Ok(())
    }

    pub(crate) fn module_index(&self, m: ModuleName) -> Result<usize, Error> {
        self.modules
            .iter()
            .position(|d| d.module_id == m)
            .ok_or_else(|| {
                state_error(
                    "/modules",
                    UNKNOWN_MODULE,
                    format!(
                        "module `{m}` is not listed in Core instance {}",
                        self.core_id
                    ),
                )
            })
    }

    /// Lists `module` at the end, stamping `meta.updated_at` now.
    ///
    /// # Errors
    /// [`CORE_UNIQUE_MODULES`] when the module is listed already;
    /// [`CORE_REQUIRED_MODULE_ENABLED`] for a required, disabled descriptor;
    /// [`CORE_ARCHIVED_IS_FROZEN`].
    pub fn add_module(&mut self, module: ModuleDescriptor) -> Result<(), Error> {
        self.ensure_not_archived()?;
        if let Ok(i) = self.module_index(module.module_id) {
            return Err(state_error(
                &format!("/modules/{i}/module_id"),
                CORE_UNIQUE_MODULES,
                format!("module `{}` is listed already", module.module_id),
            ));
        }
        if module.required == Some(true) && module.status == ModuleStatus::Disabled {
            return Err(state_error(
                &format!("/modules/{}/status", self.modules.len()),
                CORE_REQUIRED_MODULE_ENABLED,
                format!("required module `{}` cannot be disabled", module.module_id),
            ));
        }
        self.modules.push(module);
        self.meta.updated_at = Some(Timestamp::now());
        Ok(())
    }

    /// Removes module `m` from the list and returns its descriptor,
    /// stamping `meta.updated_at` now.
    ///
    /// # Errors
    /// [`UNKNOWN_MODULE`]; `min-items` at `/modules` for the last module;
    /// [`CORE_REQUIRED_MODULE_ENABLED`] for a required module;
    /// [`CORE_ARCHIVED_IS_FROZEN`].
    pub fn remove_module(&mut self, m: ModuleName) -> Result<ModuleDescriptor, Error> {
        self.ensure_not_archived()?;
        let i = self.module_index(m)?;
        if self.modules[i].required == Some(true) {
            return Err(state_error(
                &format!("/modules/{i}"),
                CORE_REQUIRED_MODULE_ENABLED,
                format!("module `{m}` is required: it cannot be removed"),
            ));
        }
        let mut list: Vec<ModuleDescriptor> = self.modules.clone().into_vec();
        let removed = list.remove(i);
        self.modules = NonEmptyVec::try_from(list).map_err(|_| {
            state_error(
                "/modules",
                Rule::MIN_ITEMS,
                format!(
                    "module `{m}` is the last one: a Core manifest enables at least one module"
                ),
            )
        })?;
        self.meta.updated_at = Some(Timestamp::now());
        Ok(removed)
    }

    /// Marks module `m` as required or not, stamping `meta.updated_at` now.
    ///
    /// # Errors
    /// [`UNKNOWN_MODULE`]; [`CORE_REQUIRED_MODULE_ENABLED`] when marking a
    /// disabled module required; [`CORE_ARCHIVED_IS_FROZEN`].
    pub fn set_required(&mut self, m: ModuleName, required: bool) -> Result<(), Error> {
        self.ensure_not_archived()?;
        let i = self.module_index(m)?;
        let d = &mut self.modules.as_mut_slice()[i];
        if required && d.status == ModuleStatus::Disabled {
            return Err(state_error(
                &format!("/modules/{i}/required"),
                CORE_REQUIRED_MODULE_ENABLED,
                format!("module `{m}` is disabled: enable it before marking it required"),
            ));
        }
        d.required = Some(required);
        self.meta.updated_at = Some(Timestamp::now());
        Ok(())
    }
}

/// [`CORE_UNIQUE_MODULES`] and [`CORE_REQUIRED_MODULE_ENABLED`] over
/// `(index in modules, module id, required, status)`, a member `None` when
/// it cannot be read: the rules of the clean pass and of the one pass.
fn module_rules(
    modules: impl Iterator<Item = (usize, Option<ModuleName>, bool, Option<ModuleStatus>)>,
    report: &mut Report,
) {
    let at = Pointer::root().key("modules");
    let mut seen: Vec<(ModuleName, usize)> = Vec::new();
    for (i, id, required, status) in modules {
        let Some(id) = id else { continue };
        match seen.iter().find(|(m, _)| *m == id) {
            Some((_, first)) => report.error(
                at.index(i).key("module_id"),
                CORE_UNIQUE_MODULES,
                format!("module `{id}` is already listed at {first}"),
            ),
            None => seen.push((id, i)),
        }
        if required && status == Some(ModuleStatus::Disabled) {
            report.error(
                at.index(i).key("status"),
                CORE_REQUIRED_MODULE_ENABLED,
                format!("module `{id}` is required but `disabled`"),
            );
        }
    }
}

impl Document for CoreManifest {
    const KIND: &'static str = "core";

    /// [`CORE_UNIQUE_MODULES`] at each repeated `module_id`, and
    /// [`CORE_REQUIRED_MODULE_ENABLED`] at the status of each required,
    /// disabled module.
    fn check_rules(&self, report: &mut Report) {
        module_rules(
            self.modules.iter().enumerate().map(|(i, d)| {
                (
                    i,
                    Some(d.module_id),
                    d.required == Some(true),
                    Some(d.status),
                )
            }),
            report,
        );
    }

    /// The same rules over what can still be read of a Core that failed its
    /// schema: a module whose `module_id` (or `status`) does not parse
    /// takes no part in the rule that reads it.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        let Some(modules) = value.get("modules").and_then(serde_json::Value::as_array) else {
            return;
        };
        fn read<'v>(m: &'v serde_json::Value, key: &str) -> Option<&'v str> {
            m.get(key).and_then(serde_json::Value::as_str)
        }
        module_rules(
            modules.iter().enumerate().map(|(i, m)| {
                (
                    i,
                    read(m, "module_id").and_then(|s| s.parse::<ModuleName>().ok()),
                    m.get("required") == Some(&serde_json::Value::Bool(true)),
                    read(m, "status").and_then(|s| s.parse::<ModuleStatus>().ok()),
                )
            }),
            report,
        );
    }
}
