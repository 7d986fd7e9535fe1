//! MPLP v1.0.0 **Role** module: a named role and the capabilities it holds
//! (permission tags such as `plan.create` or `confirm.approve`).
//!
//! - [`Role`], [`RoleId`]: the wire type, exactly as `mplp-role.schema.json`
//!   says; reading and all-errors validation through
//!   [`mplp_core::Document`] (kind `role`).
//! - Capabilities: [`Role::can`], [`Role::grant`], [`Role::revoke`]; a
//!   capability listed twice is the warning [`ROLE_UNIQUE_CAPABILITIES`].
//!
//! A Role has no status, so no lifecycle.
//!
//! ```
//! use mplp_role::Role;
//! use mplp_core::Document;
//!
//! let mut reviewer = Role::new("DBA reviewer").with_capabilities(["confirm.approve", "plan.read"]);
//! assert!(reviewer.can("confirm.approve"));
//! assert!(!reviewer.can("plan.create"));
//! reviewer.grant("plan.create");
//! reviewer.grant("plan.create"); // already held: nothing changes
//! assert_eq!(reviewer.capabilities.as_deref().map(<[String]>::len), Some(3));
//!
//! let back = Role::from_json(reviewer.to_json())?;
//! assert_eq!(back, reviewer);
//! # Ok::<(), mplp_core::Error>(())
//! ```
//!
//! # Spec notes
//! (Also in `docs/spec-notes.md`, section "mplp-role".)
//! - **`role_id` is a UUID v4** here (the schema refers to the common
//!   identifier), while Collab participants and MAP events use readable
//!   role names (`coder`, `orchestrator`). The two are not tied together:
//!   a participant's `role_id` is not required to name a Role document.
//! - **Capabilities** are free strings (the schema allows any string); a
//!   capability listed twice is a *warning* (`role_unique_capabilities`):
//!   it changes nothing about what the role may do.
#![cfg_attr(docsrs, feature(doc_cfg))]

use mplp_core::rules::Source;
use mplp_core::{
    BaseEvent, Document, Governance, Meta, Pointer, Report, Timestamp, TraceBase, Wire,
};

mplp_core::declare_rules! {
    /// Every rule of this crate, with its severity per profile and its source.
    pub const RULES;
    /// `role_unique_capabilities`: a capability is listed once (a warning).
    pub const ROLE_UNIQUE_CAPABILITIES = "role_unique_capabilities" {
        strict: Warning,
        scope: Document,
        source: Source::Sdk { note: "mplp-role" },
        summary: "`role_unique_capabilities`: a capability is listed once (a warning).",
    }
}

/// Every rule of this crate ([`RULES`]).
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES.iter()
}

mplp_core::mplp_id! {
    /// Identifies a Role.
    pub struct RoleId;
}

/// A Role document (`mplp-role.schema.json`, core profile).
///
/// ```
/// use mplp_role::Role;
/// use mplp_core::Document;
/// let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"),
///     "/../../schemas/examples/valid/role-reviewer.json")).unwrap();
/// let role = Role::from_json(&json)?;
/// assert!(role.can("confirm.approve"));
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct Role {
    /// Protocol metadata. Required.
    pub meta: Meta,
    /// Governance state (lifecycle phase, truth domain, lock, last Confirm).
    pub governance: Option<Governance>,
    /// The role's id. Required.
    pub role_id: RoleId,
    /// The role's name. Required.
    pub name: String,
    /// What the role does, for people and agents.
    pub description: Option<String>,
    /// Capability (permission) tags the role holds.
    pub capabilities: Option<Vec<String>>,
    /// When the role was created.
    pub created_at: Option<Timestamp>,
    /// When the role last changed.
    pub updated_at: Option<Timestamp>,
    /// The trace span the role is recorded under.
    pub trace: Option<TraceBase>,
    /// Notable events about the role.
    pub events: Option<Vec<BaseEvent>>,
}

impl Role {
    /// A role with a fresh id, created now, without capabilities.
    pub fn new(name: impl Into<String>) -> Self {
        Role {
            meta: Meta::v1(),
            governance: None,
            role_id: RoleId::new(),
            name: name.into(),
            description: None,
            capabilities: None,
            created_at: Some(Timestamp::now()),
            updated_at: None,
            trace: None,
            events: None,
        }
    }

    /// The same role with a description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The same role, granted these capabilities too (each once).
    #[must_use]
    pub fn with_capabilities<I, S>(mut self, capabilities: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        for c in capabilities {
            self.grant(c);
        }
        self
    }

    /// True when the role holds `capability` (exact match).
    pub fn can(&self, capability: &str) -> bool {
        self.capabilities
            .as_ref()
            .is_some_and(|cs| cs.iter().any(|c| c == capability))
    }

    /// Grants `capability` unless the role holds it already; true when it
    /// was added.
    pub fn grant(&mut self, capability: impl Into<String>) -> bool {
        let capability = capability.into();
        if self.can(&capability) {
            return false;
        }
        self.capabilities
            .get_or_insert_with(Vec::new)
            .push(capability);
        true
    }

    /// Revokes `capability` (every listing of it); true when the role held it.
    ///
    /// ```
    /// use mplp_role::Role;
    /// let mut r = Role::new("ops").with_capabilities(["deploy"]);
    /// assert!(r.revoke("deploy"));
    /// assert!(!r.can("deploy"));
    /// assert!(!r.revoke("deploy"));
    /// ```
    pub fn revoke(&mut self, capability: &str) -> bool {
        let Some(cs) = self.capabilities.as_mut() else {
            return false;
        };
        let before = cs.len();
        cs.retain(|c| c != capability);
        cs.len() != before
    }
}

impl Document for Role {
    const KIND: &'static str = "role";

    /// The `role_unique_capabilities` warning, at each repeated listing.
    fn check_rules(&self, report: &mut Report) {
        let Some(cs) = self.capabilities.as_deref() else {
            return;
        };
        let at = Pointer::root().key("capabilities");
        mplp_core::check::for_each_repeat(cs, String::as_str, |i, first| {
            report.warn(
                at.index(i),
                ROLE_UNIQUE_CAPABILITIES,
                format!("capability `{}` is already listed at {first}", cs[i]),
            );
        });
    }
}
