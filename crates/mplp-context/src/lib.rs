//! MPLP v1.0.0 **Context** module: the root document of one piece of work
//! (a project or a session). Plans, dialogs, collabs and traces name their
//! Context by `context_id`.
//!
//! - [`Context`], [`ContextRoot`], [`ContextStatus`]: the wire types,
//!   exactly as `mplp-context.schema.json` says; reading and all-errors
//!   validation through [`mplp_core::Document`] (kind `context`).
//! - The lifecycle: one table of triggers ([`ContextTrigger::rule`]),
//!   driven by [`Context::fire`] and its named shortcuts
//!   ([`Context::activate`], [`Context::suspend`], ...), refusing with a
//!   typed [`mplp_core::TransitionError`] (rule `lifecycle-transition`).
//! - [`Context::ensure_active`]: the `sa_context_must_be_active` invariant.
//!
//! ```
//! use mplp_context::{Context, ContextRoot, ContextStatus};
//! use mplp_core::Document;
//!
//! let mut ctx = Context::new("Checkout revamp", ContextRoot::new("commerce", "staging"))?;
//! assert_eq!(ctx.status(), ContextStatus::Draft);
//! assert!(ctx.ensure_active().is_err());
//! ctx.activate()?;
//! ctx.ensure_active()?;
//!
//! let back = Context::from_json(ctx.to_json())?;
//! assert_eq!(back, ctx);
//! # Ok::<(), mplp_core::Error>(())
//! ```
//!
//! # Spec notes
//! (Also in `docs/spec-notes.md`, section "mplp-context"; each is pinned by
//! a test in `tests/lifecycle.rs`.)
//! - **Lifecycle table.** The schema lists the five statuses and no
//!   transitions; the table is ours (see [`ContextTrigger::rule`]).
//!   `closed` is the only final status; `archived` is a read-only rest state
//!   that can be restored to `active` or closed.
//! - **`sa_context_must_be_active`** is a rule about *executing* in a
//!   context, not about the document: a suspended context is a valid
//!   document. It is checked by [`Context::ensure_active`], not by
//!   validation.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod lifecycle;

pub use lifecycle::ContextTrigger;

use mplp_core::rules::Source;
use mplp_core::{
    BaseEvent, ContextId, Document, Error, Governance, JsonObject, Meta, NonEmptyString, Report,
    Rule, Timestamp, TraceBase, Violation, Wire,
};

mplp_core::declare_rules! {
    /// Every rule of this crate, with its severity per profile and its source.
    pub const RULES;
    /// `sa_context_must_be_active`: agents execute only in an `active` Context
    /// (canonical id from `invariants/sa-invariants.yaml`).
    pub const SA_CONTEXT_MUST_BE_ACTIVE = "sa_context_must_be_active" {
        strict: Error,
        scope: Api,
        source: Source::Invariant { file: "sa-invariants.yaml", id: "sa_context_must_be_active" },
        summary: "`sa_context_must_be_active`: agents execute only in an `active` Context (canonical id from `invariants/sa-invariants.yaml`).",
    }
    /// `sa_requires_context`: a Context's `context_id` is a UUID v4. Enforced
    /// by the schema's identifier pattern (reported as `pattern`, `format` or
    /// `type`) and by the type [`ContextId`](mplp_core::ContextId).
    pub const SA_REQUIRES_CONTEXT = "sa_requires_context" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "sa-invariants.yaml", id: "sa_requires_context" },
        summary: "`sa_requires_context`: the Context's `context_id` is not a UUID v4 (reported as `pattern`, `format` or `type`).",
    }
}

/// Every rule of this crate ([`RULES`]).
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES.iter()
}

mplp_core::wire_enum! {
    /// Lifecycle status of a Context. See [`ContextTrigger::rule`] for the
    /// transition table.
    pub enum ContextStatus {
        /// Being prepared; nothing executes in it yet.
        Draft = "draft",
        /// In use: the only status in which agents execute.
        Active = "active",
        /// Paused; may be resumed.
        Suspended = "suspended",
        /// Kept for reference, read-only; may be restored or closed.
        Archived = "archived",
        /// Ended for good (final).
        Closed = "closed",
    }
}

/// The root node of a Context (`root`): the business domain and runtime
/// environment the work happens in. Open: members other than the three
/// declared ones are kept in [`ContextRoot::extra`].
///
/// ```
/// use mplp_context::ContextRoot;
/// let root = ContextRoot::new("payments", "production").with_entry_point("svc://ledger");
/// assert_eq!(serde_json::to_string(&root).unwrap(),
///     r#"{"domain":"payments","environment":"production","entry_point":"svc://ledger"}"#);
/// let open: ContextRoot = serde_json::from_str(
///     r#"{"domain":"d","environment":"e","region":"eu-west-1"}"#).unwrap();
/// assert_eq!(open.extra.get("region").and_then(|v| v.as_str()), Some("eu-west-1"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[non_exhaustive]
pub struct ContextRoot {
    /// Business domain identifier. Required.
    pub domain: String,
    /// Runtime environment identifier (`development`, `production`, ...). Required.
    pub environment: String,
    /// Identifier of the entry point resource.
    pub entry_point: Option<String>,
    /// Any other member (the schema leaves `root` open).
    #[wire(extra)]
    pub extra: JsonObject,
}

impl ContextRoot {
    /// A root with a domain and an environment.
    pub fn new(domain: impl Into<String>, environment: impl Into<String>) -> Self {
        ContextRoot {
            domain: domain.into(),
            environment: environment.into(),
            entry_point: None,
            extra: JsonObject::default(),
        }
    }

    /// The same root with an entry point.
    #[must_use]
    pub fn with_entry_point(mut self, entry_point: impl Into<String>) -> Self {
        self.entry_point = Some(entry_point.into());
        self
    }
}

/// A Context document (`mplp-context.schema.json`, core profile).
///
/// ```
/// use mplp_context::{Context, ContextStatus};
/// use mplp_core::Document;
/// let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"),
///     "/../../schemas/examples/valid/context-active.json")).unwrap();
/// let ctx = Context::from_json(&json)?;
/// assert_eq!(ctx.status(), ContextStatus::Active);
/// assert_eq!(ctx.root.domain, "commerce");
/// # Ok::<(), mplp_core::Error>(())
/// ```
///
/// The status is guarded (change it with the lifecycle methods), so this
/// does not compile:
///
/// ```compile_fail,E0616
/// # use mplp_context::{Context, ContextStatus};
/// fn force(c: &mut Context) { c.status = ContextStatus::Closed; }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct Context {
    /// Protocol metadata. Required.
    pub meta: Meta,
    /// Governance state (lifecycle phase, truth domain, lock, last Confirm).
    pub governance: Option<Governance>,
    /// The Context's id. Required.
    pub context_id: ContextId,
    /// Domain and environment. Required.
    pub root: ContextRoot,
    /// Name for people and agents. Required, non-empty.
    pub title: NonEmptyString,
    /// Background and scope, in a few sentences.
    pub summary: Option<String>,
    /// Lifecycle status. Required. Guarded: read it with
    /// [`Context::status`], change it with [`Context::fire`].
    pub(crate) status: ContextStatus,
    /// Classification tags, each non-empty.
    pub tags: Option<Vec<NonEmptyString>>,
    /// Main working language (`en`, `zh-CN`, ...).
    pub language: Option<String>,
    /// The `role_id` of the owning role (Role module).
    pub owner_role: Option<mplp_core::ShortString>,
    /// Security boundaries, compliance, budget, deadlines: free-form.
    pub constraints: Option<JsonObject>,
    /// When the Context was created.
    pub created_at: Option<Timestamp>,
    /// When the Context last changed (the lifecycle methods stamp it).
    pub updated_at: Option<Timestamp>,
    /// The main trace span bound to this Context.
    pub trace: Option<TraceBase>,
    /// Notable events about the Context (creation, status changes, ...).
    pub events: Option<Vec<BaseEvent>>,
}

impl Context {
    /// A new `draft` Context with a fresh id, created now.
    ///
    /// # Errors
    /// `min-length` at `/title` when `title` is empty.
    pub fn new(title: impl Into<String>, root: ContextRoot) -> Result<Self, Error> {
        Context::new_at(ContextId::new(), title, root, Timestamp::now())
    }

    /// Like [`Context::new`], with the id and creation time given (for
    /// reproducible documents).
    ///
    /// # Errors
    /// `min-length` at `/title` when `title` is empty.
    pub fn new_at(
        context_id: ContextId,
        title: impl Into<String>,
        root: ContextRoot,
        created_at: Timestamp,
    ) -> Result<Self, Error> {
        let title = NonEmptyString::new(title)
            .map_err(|_| Error::single("/title", Rule::MIN_LENGTH, "`title` must not be empty"))?;
        Ok(Context {
            meta: Meta::v1(),
            governance: None,
            context_id,
            root,
            title,
            summary: None,
            status: ContextStatus::Draft,
            tags: None,
            language: None,
            owner_role: None,
            constraints: None,
            created_at: Some(created_at),
            updated_at: None,
            trace: None,
            events: None,
        })
    }

    /// Where the Context is in its lifecycle.
    pub fn status(&self) -> ContextStatus {
        self.status
    }

    /// `Ok(())` when agents may execute in this Context (it is `active`),
    /// else a state error with rule `sa_context_must_be_active` at `/status`.
    ///
    /// ```
    /// use mplp_context::{Context, ContextRoot};
    /// let mut ctx = Context::new("t", ContextRoot::new("d", "e"))?;
    /// let err = ctx.ensure_active().unwrap_err();
    /// assert_eq!(err.rule().map(|r| r.as_str()), Some("sa_context_must_be_active"));
    /// ctx.activate()?;
    /// assert!(ctx.ensure_active().is_ok());
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn ensure_active(&self) -> Result<(), Error> {
        if self.status == ContextStatus::Active {
            return Ok(());
        }
        Err(Error::State(Violation::error(
            "/status",
            SA_CONTEXT_MUST_BE_ACTIVE,
            format!(
                "agents execute only in an `active` context; context {} is `{}`",
                self.context_id, self.status
            ),
        )))
    }
}

impl Document for Context {
    const KIND: &'static str = "context";

    /// `sa_requires_context`: a schema violation of `context_id` carries the
    /// invariant's id. (`sa_context_must_be_active` is not stated by the
    /// schema: a Context may be in any status until an SA run loads it.)
    const STATED_BY_SCHEMA: &'static [mplp_core::Stated] =
        &[mplp_core::Stated::at("/context_id", SA_REQUIRES_CONTEXT)];

    /// A Context has no rule beyond its schema: `sa_context_must_be_active`
    /// concerns execution ([`Context::ensure_active`]).
    fn check_rules(&self, _report: &mut Report) {}
}
