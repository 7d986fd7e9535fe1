//! MPLP v1.0.0 **Extension** module: a plugin, policy or integration that
//! is registered in a Context, with its type, its SemVer version, its
//! configuration and its lifecycle.
//!
//! - [`Extension`], [`ExtensionType`], [`ExtensionStatus`], [`SemVer`]: the
//!   wire types, exactly as `mplp-extension.schema.json` says; reading and
//!   all-errors validation through [`mplp_core::Document`] (kind
//!   `extension`); lossless round trips (the free-form `config` keeps every
//!   member and value).
//! - The lifecycle: one table of triggers ([`ExtensionTrigger::rule`]),
//!   driven by [`Extension::fire`] and its shortcuts
//!   ([`Extension::activate`], [`Extension::deactivate`],
//!   [`Extension::deprecate`]), refusing with a typed
//!   [`mplp_core::TransitionError`] (rule `lifecycle-transition`).
//! - [`Extension::upgrade`]: a new version must have a higher SemVer
//!   precedence ([`EXTENSION_VERSION_INCREASES`]).
//!
//! ```
//! use mplp_extension::{Extension, ExtensionStatus, ExtensionType};
//! use mplp_core::{ContextId, Document};
//!
//! let mut ext = Extension::new(ContextId::new(), "pii-redactor", ExtensionType::Policy, "1.2.0")?;
//! ext.config_mut().insert("mask", "****");
//! assert_eq!(ext.status(), ExtensionStatus::Registered);
//! ext.activate()?;
//! ext.upgrade("1.3.0-rc.1".parse()?)?;
//! assert!(ext.upgrade("1.2.9".parse()?).is_err()); // not newer
//!
//! let back = Extension::from_json(ext.to_json())?;
//! assert_eq!(back, ext);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Spec notes
//! (Also in `docs/spec-notes.md`, section "mplp-extension"; each is pinned
//! by a test in `tests/`.)
//! - **Lifecycle table.** The schema lists the four statuses and no
//!   transitions; the table is ours (see [`ExtensionTrigger::rule`]).
//!   `deprecated` is the only final status: a deprecated extension is
//!   replaced by registering a new one.
//! - **Stamps.** The schema gives an Extension no timestamps of its own, so
//!   the lifecycle methods stamp `meta.updated_at`.
//! - **`version`** follows the schema's SemVer 2.0.0 pattern, ASCII digits
//!   only (ECMA-262 `\d`).
#![cfg_attr(docsrs, feature(doc_cfg))]

mod lifecycle;
mod semver;

pub use lifecycle::ExtensionTrigger;
pub use semver::{SEMVER_PATTERN, SemVer, SemVerError};

use mplp_core::rules::Source;
use mplp_core::{
    BaseEvent, Governance, JsonObject, Meta, NonEmptyString, Report, Rule, Timestamp, TraceBase,
    Violation, Wire,
};
/// Re-exported so that depending on this crate alone is enough.
pub use mplp_core::{ContextId, Document, Error};

mplp_core::declare_rules! {
    /// Every rule of this crate, with its severity per profile and its source.
    pub const RULES;
    /// `extension_version_increases`: [`Extension::upgrade`] moves to a
    /// version of higher SemVer precedence, and not once deprecated.
    pub const EXTENSION_VERSION_INCREASES = "extension_version_increases" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-extension" },
        summary: "`extension_version_increases`: an upgrade moves to a version of higher SemVer precedence, and a deprecated extension is not upgraded.",
    }
}

/// Every rule of this crate ([`RULES`]).
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES.iter()
}

mplp_core::mplp_id! {
    /// Identifies an Extension.
    pub struct ExtensionId;
}

mplp_core::wire_enum! {
    /// What kind of extension point an Extension fills (`extension_type`).
    pub enum ExtensionType {
        /// Adds a capability (a tool, a skill) to agents.
        Capability = "capability",
        /// Enforces a policy (redaction, limits, approvals).
        Policy = "policy",
        /// Connects an external system.
        Integration = "integration",
        /// Transforms documents or messages.
        Transformation = "transformation",
        /// Validates documents or results.
        Validation = "validation",
        /// Anything else.
        Other = "other",
    }
}

mplp_core::wire_enum! {
    /// Lifecycle status of an Extension. See [`ExtensionTrigger::rule`].
    pub enum ExtensionStatus {
        /// Known to the Context, not in use yet.
        Registered = "registered",
        /// In use.
        Active = "active",
        /// Switched off; may be activated again.
        Inactive = "inactive",
        /// Superseded, kept for the record (final).
        Deprecated = "deprecated",
    }
}

/// An Extension document (`mplp-extension.schema.json`, core profile).
///
/// ```
/// use mplp_extension::{Extension, ExtensionStatus, ExtensionType};
/// use mplp_core::Document;
/// let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"),
///     "/../../schemas/examples/valid/extension-active-config.json")).unwrap();
/// let ext = Extension::from_json(&json)?;
/// assert_eq!(ext.status(), ExtensionStatus::Active);
/// assert_eq!(ext.extension_type, ExtensionType::Integration);
/// assert_eq!(ext.version().as_str(), "2.4.1");
/// # Ok::<(), mplp_core::Error>(())
/// ```
///
/// The status and the version are guarded (change them with the lifecycle
/// methods and [`Extension::upgrade`]), so this does not compile:
///
/// ```compile_fail,E0616
/// # use mplp_extension::{Extension, ExtensionStatus};
/// fn force(e: &mut Extension) { e.status = ExtensionStatus::Active; }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct Extension {
    /// Protocol metadata. Required.
    pub meta: Meta,
    /// Governance state (lifecycle phase, truth domain, lock, last Confirm).
    pub governance: Option<Governance>,
    /// The Extension's id. Required.
    pub extension_id: ExtensionId,
    /// The Context the Extension is registered in. Required.
    pub context_id: ContextId,
    /// Name for people. Required, non-empty.
    pub name: NonEmptyString,
    /// The kind of extension point. Required.
    pub extension_type: ExtensionType,
    /// SemVer version. Required. Guarded: read it with
    /// [`Extension::version`], change it with [`Extension::upgrade`].
    pub(crate) version: SemVer,
    /// Lifecycle status. Required. Guarded: read it with
    /// [`Extension::status`], change it with [`Extension::fire`].
    pub(crate) status: ExtensionStatus,
    /// Configuration: any members (implementation details excluded).
    pub config: Option<JsonObject>,
    /// The trace span the Extension is recorded under.
    pub trace: Option<TraceBase>,
    /// Notable events about the Extension.
    pub events: Option<Vec<BaseEvent>>,
}

impl Extension {
    /// A `registered` Extension with a fresh id, in `context_id`, with
    /// metadata created now.
    ///
    /// # Errors
    /// `min-length` at `/name` when `name` is empty; `pattern` at
    /// `/version` when `version` is not SemVer 2.0.0.
    ///
    /// ```
    /// use mplp_extension::{Extension, ExtensionType};
    /// use mplp_core::ContextId;
    /// let err = Extension::new(ContextId::new(), "x", ExtensionType::Other, "v1").unwrap_err();
    /// assert_eq!((err.pointer(), err.rule().map(|r| r.as_str())), (Some("/version"), Some("pattern")));
    /// ```
    pub fn new(
        context_id: ContextId,
        name: impl Into<String>,
        extension_type: ExtensionType,
        version: &str,
    ) -> Result<Self, Error> {
        let name = NonEmptyString::new(name)
            .map_err(|_| Error::single("/name", Rule::MIN_LENGTH, "`name` must not be empty"))?;
        let version = SemVer::parse(version)
            .map_err(|e| Error::single("/version", Rule::PATTERN, e.to_string()))?;
        Ok(Extension {
            meta: Meta::created_now(None),
            governance: None,
            extension_id: ExtensionId::new(),
            context_id,
            name,
            extension_type,
            version,
            status: ExtensionStatus::Registered,
            config: None,
            trace: None,
            events: None,
        })
    }

    /// Where the Extension is in its lifecycle.
    pub fn status(&self) -> ExtensionStatus {
        self.status
    }

    /// The Extension's version.
    pub fn version(&self) -> &SemVer {
        &self.version
    }

    /// The configuration object, created empty if there was none.
    pub fn config_mut(&mut self) -> &mut JsonObject {
        self.config.get_or_insert_with(JsonObject::default)
    }

    /// Moves to `version`, stamping `meta.updated_at` now. The new version
    /// must have a higher SemVer precedence than the current one, and the
    /// Extension must not be `deprecated`; on refusal nothing changes.
    ///
    /// ```
    /// use mplp_extension::{Extension, ExtensionType};
    /// use mplp_core::ContextId;
    /// let mut e = Extension::new(ContextId::new(), "lint", ExtensionType::Validation, "1.0.0")?;
    /// e.upgrade("1.0.1".parse()?)?;
    /// let err = e.upgrade("1.0.1+other-build".parse()?).unwrap_err(); // same precedence
    /// assert_eq!(err.rule().map(|r| r.as_str()), Some("extension_version_increases"));
    /// assert_eq!(e.version().as_str(), "1.0.1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A state error with rule [`EXTENSION_VERSION_INCREASES`] at `/version`
    /// (or at `/status` for a deprecated Extension).
    pub fn upgrade(&mut self, version: SemVer) -> Result<(), Error> {
        if self.status == ExtensionStatus::Deprecated {
            return Err(Error::State(Violation::error(
                "/status",
                EXTENSION_VERSION_INCREASES,
                format!(
                    "extension {} is `deprecated`: register a new extension instead of upgrading it",
                    self.extension_id
                ),
            )));
        }
        if !version.precedence(&self.version).is_gt() {
            return Err(Error::State(Violation::error(
                "/version",
                EXTENSION_VERSION_INCREASES,
                format!(
                    "an upgrade needs a newer version than `{}`; `{version}` is not newer",
                    self.version
                ),
            )));
        }
        self.version = version;
        self.meta.updated_at = Some(Timestamp::now());
        Ok(())
    }
}

impl Document for Extension {
    const KIND: &'static str = "extension";

    /// An Extension has no rule beyond its schema (the upgrade rule
    /// concerns changes, [`Extension::upgrade`]).
    fn check_rules(&self, _report: &mut Report) {}
}
