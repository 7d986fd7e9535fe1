//! MPLP v1.0.0 **bundles**: the documents of one piece of work (its
//! Context, Plans, Confirms, Traces, Collabs and Dialogs) validated
//! together, with the rules that bind one document to another.
//!
//! A single document can only say that its `context_id` *is* a UUID; a
//! bundle can say that it names the Context next to it, that this Context
//! is `active` while the plan runs, that an approved plan was approved by
//! a Confirm, and so on. Each of these binding rules is declared once, in
//! [`RULES`] (or, where MPLP gives it a canonical id, in the module crate
//! that owns that id: `sa_plan_context_binding` in mplp-plan,
//! `sa_trace_context_binding` and `sa_trace_plan_binding` in mplp-trace).
//!
//! | rule | severity | a document ... |
//! |---|---|---|
//! | `sa_plan_context_binding` | error | plan whose `context_id` names no Context of the bundle (which holds Contexts) |
//! | [`BUNDLE_PLAN_CONTEXT_ACTIVE`] | error | `in_progress` plan whose Context is not `active` |
//! | [`BUNDLE_PLAN_APPROVED_BY_CONFIRM`] | error | approved (or later) plan whose Confirms in the bundle include no approval |
//! | [`BUNDLE_CONFIRM_APPLIED`] | warning | `draft`/`proposed` plan that an approved Confirm of the bundle approves |
//! | [`BUNDLE_CONFIRM_TARGET`] | error | Confirm whose target names no document of its `target_type` in the bundle (which holds such documents) |
//! | `sa_trace_context_binding` | error | Trace bound to a Context not in the bundle, or not its plan's |
//! | `sa_trace_plan_binding` | error | Trace whose `plan_id` names no Plan of the bundle (which holds Plans) |
//! | [`BUNDLE_COLLAB_CONTEXT_BINDING`] | error | Collab whose `context_id` names no Context of the bundle (which holds Contexts) |
//! | [`BUNDLE_DIALOG_CONTEXT_BINDING`] | error | Dialog whose `context_id` names no Context of the bundle (which holds Contexts) |
//! | [`BUNDLE_UNIQUE_IDS`] | error | second document of a kind with the same id |
//! | [`BUNDLE_PARTNER_OUTSIDE`] | warning | document whose partner kind is absent from the bundle |
//!
//! **A partner outside the bundle is a warning, not an error.** A bundle
//! that holds no document of the partner's kind (no Context at all, say)
//! says nothing about it: the partner is elsewhere, and the binding is
//! reported as [`BUNDLE_PARTNER_OUTSIDE`]. A bundle that holds documents of
//! that kind holds all of them for its piece of work, so a reference that
//! matches none of them is a broken binding, an error.
//!
//! ```
//! use mplp_check::bundle::Bundle;
//! use mplp_confirm::Confirm;
//! use mplp_context::{Context, ContextRoot};
//! use mplp_plan::Plan;
//!
//! let mut context = Context::new("Fix login bug", ContextRoot::new("web", "prod"))?;
//! context.activate()?;
//! let mut b = Plan::builder(context.context_id, "Fix login bug", "Find and fix the 500 on /login");
//! b.step("Read error logs");
//! let mut plan = b.build()?;
//! plan.propose()?;
//! let mut confirm = Confirm::for_plan(plan.plan_id, "planner");
//! plan.decide(&mut confirm, mplp_confirm::ConfirmDecision::approved("lead"))?;
//! plan.start()?;
//!
//! let bundle = Bundle::new()
//!     .with("context.json", context.clone())
//!     .with("plan.json", plan.clone())
//!     .with("confirm.json", confirm);
//! assert!(bundle.check().is_empty());
//!
//! // The Context is suspended while the plan runs: a broken binding.
//! context.suspend()?;
//! let report = Bundle::new().with("context.json", context).with("plan.json", plan).check();
//! let v = report.violations().next().unwrap();
//! assert_eq!((v.0, v.1.rule.as_str()), ("plan.json", "bundle_plan_context_active"));
//! # Ok::<(), mplp_core::Error>(())
//! ```
//!
//! Files: [`check_files`] and [`check_dir`] validate each file as
//! `mplp validate` does (its kind recognised from its members) and then
//! the bundle rules over the documents that are valid, so every finding
//! of a file, its own and its bindings', is in one report
//! (`mplp validate --bundle DIR`).
//!
//! Files are read through the crate's one dispatch
//! ([`validate_source`](crate::validate_source)), so a file gets the
//! verdict `mplp validate` gives it. mplp-conformance (the golden-flow
//! runner) uses bundles for the flows' cross-document rules. Spec notes:
//! `docs/spec-notes.md`, section "Bundles".

mod load;
mod rules;

use mplp_collab::Collab;
use mplp_confirm::Confirm;
use mplp_context::Context;
use mplp_core::{Document, MplpId, Report, Rule, Violation};
use mplp_dialog::Dialog;
use mplp_extension::Extension;
use mplp_network::Network;
use mplp_plan::Plan;
use mplp_trace::Trace;

pub use load::{LoadError, check_dir, check_files, check_files_with, files_in};
pub use rules::{
    BUNDLE_COLLAB_CONTEXT_BINDING, BUNDLE_CONFIRM_APPLIED, BUNDLE_CONFIRM_TARGET,
    BUNDLE_DIALOG_CONTEXT_BINDING, BUNDLE_EXTENSION_CONTEXT_BINDING,
    BUNDLE_NETWORK_CONTEXT_BINDING, BUNDLE_PARTNER_OUTSIDE, BUNDLE_PLAN_APPROVED_BY_CONFIRM,
    BUNDLE_PLAN_CONTEXT_ACTIVE, BUNDLE_UNIQUE_IDS, RULES,
};

/// Every rule the bundle declares ([`RULES`]). The bundle also reports
/// the canonical binding rules declared by mplp-plan and mplp-trace.
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES.iter()
}

/// The canonical binding rules the bundle reports, declared by the module
/// crates that own their ids (`sa_plan_context_binding` in mplp-plan,
/// `sa_trace_context_binding` and `sa_trace_plan_binding` in mplp-trace).
pub const CANONICAL_BINDING_RULES: [Rule; 3] = [
    mplp_plan::rules::SA_PLAN_CONTEXT_BINDING,
    mplp_trace::SA_TRACE_CONTEXT_BINDING,
    mplp_trace::SA_TRACE_PLAN_BINDING,
];

/// True for the rules a bundle check reports ([`RULES`] and
/// [`CANONICAL_BINDING_RULES`]): what a file's report holds beyond the
/// file's own validation.
///
/// ```
/// use mplp_core::Rule;
/// assert!(mplp_check::bundle::is_binding_rule(mplp_check::bundle::BUNDLE_PLAN_CONTEXT_ACTIVE));
/// assert!(mplp_check::bundle::is_binding_rule(Rule::new("sa_trace_plan_binding")));
/// assert!(!mplp_check::bundle::is_binding_rule(Rule::ENUM));
/// ```
pub fn is_binding_rule(rule: Rule) -> bool {
    RULES.iter().any(|r| r.rule == rule) || CANONICAL_BINDING_RULES.contains(&rule)
}

/// A document of a bundle: one of the modules that bind to others.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Doc {
    /// A Context.
    Context(Context),
    /// A Plan.
    Plan(Plan),
    /// A Confirm.
    Confirm(Confirm),
    /// A Trace.
    Trace(Trace),
    /// A Collab.
    Collab(Collab),
    /// A Dialog.
    Dialog(Dialog),
    /// An Extension.
    Extension(Extension),
    /// A Network.
    Network(Network),
}

impl Doc {
    /// The document's kind (`context`, `plan`, ...), as `Document::KIND`.
    pub fn kind(&self) -> &'static str {
        match self {
            Doc::Context(_) => Context::KIND,
            Doc::Plan(_) => Plan::KIND,
            Doc::Confirm(_) => Confirm::KIND,
            Doc::Trace(_) => Trace::KIND,
            Doc::Collab(_) => Collab::KIND,
            Doc::Dialog(_) => Dialog::KIND,
            Doc::Extension(_) => Extension::KIND,
            Doc::Network(_) => Network::KIND,
        }
    }

    /// The document's own id (`context_id`, `plan_id`, `confirm_id`, ...).
    pub fn id(&self) -> MplpId {
        match self {
            Doc::Context(d) => d.context_id.into(),
            Doc::Plan(d) => d.plan_id.into(),
            Doc::Confirm(d) => d.confirm_id.into(),
            Doc::Trace(d) => d.trace_id().into(),
            Doc::Collab(d) => d.collab_id.into(),
            Doc::Dialog(d) => d.dialog_id.into(),
            Doc::Extension(d) => d.extension_id.to_mplp_id(),
            Doc::Network(d) => d.network_id.to_mplp_id(),
        }
    }

    /// The JSON pointer of the member that holds [`Doc::id`].
    pub fn id_pointer(&self) -> &'static str {
        id_pointer(self.kind()).unwrap_or("")
    }
}

macro_rules! doc_from {
    ($($t:ident),*) => {$(
        impl From<$t> for Doc {
            fn from(d: $t) -> Doc {
                Doc::$t(d)
            }
        }
    )*};
}
doc_from!(
    Context, Plan, Confirm, Trace, Collab, Dialog, Extension, Network
);

/// The pointer of the id member of a bundle kind's documents.
pub(crate) fn id_pointer(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "context" => "/context_id",
        "plan" => "/plan_id",
        "confirm" => "/confirm_id",
        "trace" => "/trace_id",
        "collab" => "/collab_id",
        "dialog" => "/dialog_id",
        "extension" => "/extension_id",
        "network" => "/network_id",
        _ => return None,
    })
}

impl Doc {
    /// The bundle document a document of any kind is, if its kind binds
    /// to others (a Context, Plan, Confirm, Trace, Collab or Dialog).
    pub fn from_any(document: crate::AnyDocument) -> Option<Doc> {
        use crate::AnyDocument as Any;
        Some(match document {
            Any::Context(d) => Doc::Context(*d),
            Any::Plan(d) => Doc::Plan(*d),
            Any::Confirm(d) => Doc::Confirm(*d),
            Any::Trace(d) => Doc::Trace(*d),
            Any::Collab(d) => Doc::Collab(*d),
            Any::Dialog(d) => Doc::Dialog(*d),
            Any::Extension(d) => Doc::Extension(*d),
            Any::Network(d) => Doc::Network(*d),
            _ => return None,
        })
    }
}

/// One document of a bundle and the name it is reported under (its file).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Entry {
    /// The name findings are reported under (a file path, a label).
    pub name: String,
    /// The document.
    pub doc: Doc,
}

/// A document of the bundle that failed its own validation but whose id
/// could be read: it still answers the references to it (its other
/// members are not trusted, so the rules that read them are not checked).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Invalid {
    pub(crate) name: String,
    pub(crate) kind: &'static str,
    pub(crate) id: MplpId,
}

/// The documents of one piece of work, to be checked together
/// ([`Bundle::check`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bundle {
    entries: Vec<Entry>,
    invalid: Vec<Invalid>,
}

impl Bundle {
    /// An empty bundle.
    pub fn new() -> Self {
        Bundle::default()
    }

    /// Adds a document under `name` (the name its findings carry).
    pub fn add(&mut self, name: impl Into<String>, doc: impl Into<Doc>) -> &mut Self {
        self.entries.push(Entry {
            name: name.into(),
            doc: doc.into(),
        });
        self
    }

    /// The bundle with one more document.
    #[must_use]
    pub fn with(mut self, name: impl Into<String>, doc: impl Into<Doc>) -> Self {
        self.add(name, doc);
        self
    }

    /// The documents, in the order they were added.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Checks every binding rule: one report per document, in order (each
    /// finding points into its document). O(n log n) in the number of
    /// documents plus the size of their decisions.
    pub fn check(&self) -> BundleReport {
        let reports = rules::check(&self.entries, &self.invalid);
        BundleReport {
            documents: self
                .entries
                .iter()
                .zip(reports)
                .map(|(e, report)| DocumentReport {
                    name: e.name.clone(),
                    kind: Some(e.doc.kind()),
                    report,
                })
                .collect(),
        }
    }
}

impl<N: Into<String>, D: Into<Doc>> FromIterator<(N, D)> for Bundle {
    fn from_iter<I: IntoIterator<Item = (N, D)>>(iter: I) -> Self {
        let mut b = Bundle::new();
        for (n, d) in iter {
            b.add(n, d);
        }
        b
    }
}

/// What was found in one document of a bundle.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DocumentReport {
    /// The document's name (its file).
    pub name: String,
    /// Its kind, when it was recognised (`plan`, `map-log`, ...).
    pub kind: Option<&'static str>,
    /// Its findings: for files, the document's own validation first, then
    /// the bundle's.
    pub report: Report,
}

/// What was found in a bundle: one [`DocumentReport`] per document.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct BundleReport {
    /// One entry per document, in the bundle's order.
    pub documents: Vec<DocumentReport>,
}

impl BundleReport {
    /// True when no document has an error (warnings allowed).
    pub fn is_valid(&self) -> bool {
        self.documents.iter().all(|d| d.report.is_valid())
    }

    /// True when nothing at all was found.
    pub fn is_empty(&self) -> bool {
        self.documents.iter().all(|d| d.report.is_empty())
    }

    /// Every finding with the name of its document.
    pub fn violations(&self) -> impl Iterator<Item = (&str, &Violation)> {
        self.documents
            .iter()
            .flat_map(|d| d.report.violations().iter().map(|v| (d.name.as_str(), v)))
    }

    /// The report of the document named `name`.
    pub fn document(&self, name: &str) -> Option<&DocumentReport> {
        self.documents.iter().find(|d| d.name == name)
    }
}
