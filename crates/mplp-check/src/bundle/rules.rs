//! The binding rules of a bundle: each declared once below (or, for the
//! canonical ids, in the module crate that owns them), each checked in one
//! function of [`check`].

use std::collections::BTreeMap;

use mplp_confirm::{Confirm, ConfirmStatus, ConfirmTargetType};
use mplp_context::{Context, ContextStatus};
use mplp_core::rules::Source;
use mplp_core::{ContextId, Document, MplpId, Report, Rule};
use mplp_plan::{Plan, PlanStatus};
use mplp_trace::{SA_TRACE_CONTEXT_BINDING, SA_TRACE_PLAN_BINDING};

use super::{Doc, Entry, Invalid};

const NOTE: Source = Source::Sdk {
    note: "mplp-check: bundles",
};

mplp_core::declare_rules! {
    /// Every binding rule of a bundle, with its severity and its source.
    pub const RULES;

    /// `bundle_partner_outside`: a document binds to a kind of document the
    /// bundle does not hold at all; the partner is outside the bundle, so
    /// the binding is not checked.
    pub const BUNDLE_PARTNER_OUTSIDE = "bundle_partner_outside" {
        strict: Warning,
        scope: Bundle,
        source: NOTE,
        summary: "`bundle_partner_outside`: a document binds to a kind of document the bundle does not hold; the binding is not checked.",
    }

    /// `bundle_plan_context_active`: an `in_progress` plan runs in an
    /// `active` Context (Plan Module, 5.2: "Plan can only transition to
    /// in_progress when Context status == 'active'", and steps only run
    /// while the plan is `in_progress`).
    pub const BUNDLE_PLAN_CONTEXT_ACTIVE = "bundle_plan_context_active" {
        strict: Error,
        scope: Bundle,
        source: Source::Prose { doc: "Plan Module", section: "5.2 Execution Invariants" },
        summary: "`bundle_plan_context_active`: an `in_progress` plan's Context is `active`.",
    }

    /// `bundle_plan_approved_by_confirm`: a plan that is `approved` (or
    /// went on to `in_progress`, `completed`, `failed`) has an approved
    /// Confirm among the Confirms of the bundle that target it (Plan Module,
    /// 3.3: `proposed → approved` on `Confirm.approved = true`).
    pub const BUNDLE_PLAN_APPROVED_BY_CONFIRM = "bundle_plan_approved_by_confirm" {
        strict: Error,
        scope: Bundle,
        source: Source::Prose { doc: "Plan Module", section: "3.3 Valid Transitions" },
        summary: "`bundle_plan_approved_by_confirm`: an approved (or later) plan has an approved Confirm among those of the bundle that target it.",
    }

    /// `bundle_confirm_applied`: a plan that an approved Confirm of the
    /// bundle approves is no longer `draft` or `proposed` (the decision has
    /// not been applied to the plan yet).
    pub const BUNDLE_CONFIRM_APPLIED = "bundle_confirm_applied" {
        strict: Warning,
        scope: Bundle,
        source: NOTE,
        summary: "`bundle_confirm_applied`: a plan approved by a Confirm of the bundle is still `draft` or `proposed`.",
    }

    /// `bundle_confirm_target`: a Confirm's `target_id` names a document of
    /// its `target_type` in the bundle (when the bundle holds that kind).
    pub const BUNDLE_CONFIRM_TARGET = "bundle_confirm_target" {
        strict: Error,
        scope: Bundle,
        source: NOTE,
        summary: "`bundle_confirm_target`: a Confirm's target names no document of its `target_type` in the bundle.",
    }

    /// `bundle_collab_context_binding`: a Collab's `context_id` names a
    /// Context of the bundle ("the Context this collaboration session
    /// belongs to", schema).
    pub const BUNDLE_COLLAB_CONTEXT_BINDING = "bundle_collab_context_binding" {
        strict: Error,
        scope: Bundle,
        source: NOTE,
        summary: "`bundle_collab_context_binding`: a Collab's `context_id` names no Context of the bundle.",
    }

    /// `bundle_dialog_context_binding`: a Dialog's `context_id` names a
    /// Context of the bundle.
    pub const BUNDLE_DIALOG_CONTEXT_BINDING = "bundle_dialog_context_binding" {
        strict: Error,
        scope: Bundle,
        source: NOTE,
        summary: "`bundle_dialog_context_binding`: a Dialog's `context_id` names no Context of the bundle.",
    }

    /// `bundle_extension_context_binding`: an Extension's `context_id`
    /// names a Context of the bundle.
    pub const BUNDLE_EXTENSION_CONTEXT_BINDING = "bundle_extension_context_binding" {
        strict: Error,
        scope: Bundle,
        source: NOTE,
        summary: "`bundle_extension_context_binding`: an Extension's `context_id` names no Context of the bundle.",
    }

    /// `bundle_network_context_binding`: a Network's `context_id` names a
    /// Context of the bundle.
    pub const BUNDLE_NETWORK_CONTEXT_BINDING = "bundle_network_context_binding" {
        strict: Error,
        scope: Bundle,
        source: NOTE,
        summary: "`bundle_network_context_binding`: a Network's `context_id` names no Context of the bundle.",
    }

    /// `bundle_unique_ids`: no two documents of one kind in a bundle share
    /// their id (bindings would not know which one they name).
    pub const BUNDLE_UNIQUE_IDS = "bundle_unique_ids" {
        strict: Error,
        scope: Bundle,
        source: NOTE,
        summary: "`bundle_unique_ids`: two documents of one kind in the bundle have the same id.",
    }
}

/// The documents of a bundle, by kind, each with its index in the bundle.
struct Index<'a> {
    entries: &'a [Entry],
    /// The invalid documents whose ids could be read.
    invalid: &'a [Invalid],
    contexts: Vec<(usize, &'a Context)>,
    plans: Vec<(usize, &'a Plan)>,
    confirms: Vec<(usize, &'a Confirm)>,
    traces: Vec<(usize, &'a mplp_trace::Trace)>,
}

/// Where a reference leads.
enum Found<'a, T> {
    /// To this document (index, document).
    Yes(usize, &'a T),
    /// The bundle holds no document of the kind: the partner is outside.
    Outside,
    /// The bundle holds documents of the kind, none with this id.
    Broken,
    /// To a document of the bundle that failed its own validation but
    /// whose id could be read: the reference holds, and the rules that
    /// would read that document's other members are not checked.
    Invalid,
}

impl<'a> Index<'a> {
    fn find<T>(
        &self,
        list: &[(usize, &'a T)],
        kind: &str,
        id: MplpId,
        id_of: impl Fn(&T) -> MplpId,
    ) -> Found<'a, T> {
        if let Some(&(i, d)) = list.iter().find(|(_, d)| id_of(d) == id) {
            return Found::Yes(i, d);
        }
        let mut invalid = self.invalid.iter().filter(|x| x.kind == kind).peekable();
        if invalid.clone().any(|x| x.id == id) {
            Found::Invalid
        } else if list.is_empty() && invalid.peek().is_none() {
            Found::Outside
        } else {
            Found::Broken
        }
    }
}

impl<'a> Index<'a> {
    fn new(entries: &'a [Entry], invalid: &'a [Invalid]) -> Self {
        let mut ix = Index {
            entries,
            invalid,
            contexts: Vec::new(),
            plans: Vec::new(),
            confirms: Vec::new(),
            traces: Vec::new(),
        };
        for (i, e) in entries.iter().enumerate() {
            match &e.doc {
                Doc::Context(d) => ix.contexts.push((i, d)),
                Doc::Plan(d) => ix.plans.push((i, d)),
                Doc::Confirm(d) => ix.confirms.push((i, d)),
                Doc::Trace(d) => ix.traces.push((i, d)),
                Doc::Collab(_) | Doc::Dialog(_) | Doc::Extension(_) | Doc::Network(_) => {}
            }
        }
        ix
    }

    fn name(&self, i: usize) -> &str {
        &self.entries[i].name
    }

    fn context(&self, id: ContextId) -> Found<'a, Context> {
        self.find(&self.contexts, Context::KIND, id.into(), |c| {
            c.context_id.into()
        })
    }

    fn plan(&self, id: MplpId) -> Found<'a, Plan> {
        self.find(&self.plans, Plan::KIND, id, |p| p.plan_id.into())
    }

    /// The names of the documents of one kind, for messages (the invalid
    /// ones too).
    fn names<T>(&self, list: &[(usize, &T)], kind: &str) -> String {
        let names: Vec<String> = list
            .iter()
            .map(|(i, _)| format!("`{}`", self.name(*i)))
            .chain(
                self.invalid
                    .iter()
                    .filter(|x| x.kind == kind)
                    .map(|x| format!("`{}` (invalid)", x.name)),
            )
            .collect();
        names.join(", ")
    }
}

/// Checks every binding rule; one report per entry, in order.
pub(crate) fn check(entries: &[Entry], invalid: &[Invalid]) -> Vec<Report> {
    let ix = Index::new(entries, invalid);
    let mut reports = vec![Report::new(); entries.len()];
    unique_ids(entries, &mut reports);
    for (i, e) in entries.iter().enumerate() {
        let report = &mut reports[i];
        match &e.doc {
            Doc::Context(_) => {}
            Doc::Plan(p) => {
                plan_context(&ix, p, report);
                plan_approval(&ix, p, report);
            }
            Doc::Confirm(c) => confirm_target(&ix, c, report),
            Doc::Trace(t) => trace_bindings(&ix, t, report),
            Doc::Collab(c) => context_binding(
                &ix,
                c.context_id,
                "collab",
                BUNDLE_COLLAB_CONTEXT_BINDING,
                report,
            ),
            Doc::Dialog(d) => context_binding(
                &ix,
                d.context_id,
                "dialog",
                BUNDLE_DIALOG_CONTEXT_BINDING,
                report,
            ),
            Doc::Extension(d) => context_binding(
                &ix,
                d.context_id,
                "extension",
                BUNDLE_EXTENSION_CONTEXT_BINDING,
                report,
            ),
            Doc::Network(d) => context_binding(
                &ix,
                d.context_id,
                "network",
                BUNDLE_NETWORK_CONTEXT_BINDING,
                report,
            ),
        }
    }
    reports
}

/// `bundle_unique_ids`: the second (third, ...) document of a kind with an
/// id already seen gets the error.
fn unique_ids(entries: &[Entry], reports: &mut [Report]) {
    let mut seen: BTreeMap<(&str, MplpId), usize> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        let key = (e.doc.kind(), e.doc.id());
        if let Some(&first) = seen.get(&key) {
            reports[i].error(
                e.doc.id_pointer(),
                BUNDLE_UNIQUE_IDS,
                format!(
                    "{} {} is also the id of `{}`; the documents of one kind in a bundle have distinct ids",
                    key.0, key.1, entries[first].name
                ),
            );
        } else {
            seen.insert(key, i);
        }
    }
}

fn outside(report: &mut Report, pointer: &str, what: &str, id: impl std::fmt::Display) {
    report.warn(
        pointer,
        BUNDLE_PARTNER_OUTSIDE,
        format!("the bundle holds no {what}, so {what} {id} is outside it and this binding is not checked"),
    );
}

/// A `context_id` that must name a Context of the bundle.
fn context_binding(ix: &Index<'_>, id: ContextId, who: &str, rule: Rule, report: &mut Report) {
    match ix.context(id) {
        Found::Yes(..) | Found::Invalid => {}
        Found::Outside => outside(report, "/context_id", "context", id),
        Found::Broken => report.error(
            "/context_id",
            rule,
            format!(
                "the {who} belongs to context {id}, which is none of the bundle's contexts ({})",
                ix.names(&ix.contexts, Context::KIND)
            ),
        ),
    }
}

/// `sa_plan_context_binding` and `bundle_plan_context_active`.
fn plan_context(ix: &Index<'_>, plan: &Plan, report: &mut Report) {
    let id = plan.context_id;
    match ix.context(id) {
        Found::Yes(i, ctx) => {
            if plan.status() == PlanStatus::InProgress && ctx.status() != ContextStatus::Active {
                report.error(
                    "/status",
                    BUNDLE_PLAN_CONTEXT_ACTIVE,
                    format!(
                        "the plan is `in_progress` but its context {id} (`{}`) is `{}`; a plan executes only in an `active` context",
                        ix.name(i),
                        ctx.status()
                    ),
                );
            }
        }
        Found::Invalid => {}
        Found::Outside => outside(report, "/context_id", "context", id),
        Found::Broken => report.error(
            "/context_id",
            mplp_plan::rules::SA_PLAN_CONTEXT_BINDING,
            format!(
                "the plan belongs to context {id}, which is none of the bundle's contexts ({})",
                ix.names(&ix.contexts, Context::KIND)
            ),
        ),
    }
}

/// True for the statuses a plan reaches only through `approved`.
fn past_approval(s: PlanStatus) -> bool {
    matches!(
        s,
        PlanStatus::Approved | PlanStatus::InProgress | PlanStatus::Completed | PlanStatus::Failed
    )
}

/// `bundle_plan_approved_by_confirm` and `bundle_confirm_applied`.
fn plan_approval(ix: &Index<'_>, plan: &Plan, report: &mut Report) {
    let id = MplpId::from(plan.plan_id);
    let mine: Vec<&(usize, &Confirm)> = ix
        .confirms
        .iter()
        .filter(|(_, c)| c.target_type == ConfirmTargetType::Plan && c.targets(id))
        .collect();
    let approved = mine
        .iter()
        .find(|(_, c)| c.status() == ConfirmStatus::Approved);
    let status = plan.status();
    if past_approval(status) {
        if mine.is_empty() {
            report.warn(
                "/status",
                BUNDLE_PARTNER_OUTSIDE,
                format!(
                    "the plan is `{status}` and no Confirm of the bundle targets it, so its approval is outside the bundle and is not checked"
                ),
            );
        } else if approved.is_none() {
            let found: Vec<String> = mine
                .iter()
                .map(|(i, c)| format!("`{}` is `{}`", ix.name(*i), c.status()))
                .collect();
            report.error(
                "/status",
                BUNDLE_PLAN_APPROVED_BY_CONFIRM,
                format!(
                    "the plan is `{status}` but none of its Confirms approves it ({}); a plan is approved only by an approved Confirm",
                    found.join(", ")
                ),
            );
        }
    } else if let (Some((i, c)), PlanStatus::Draft | PlanStatus::Proposed) = (approved, status) {
        report.warn(
            "/status",
            BUNDLE_CONFIRM_APPLIED,
            format!(
                "Confirm {} (`{}`) approves this plan, but the plan is still `{status}`; applying the decision (Plan::decide) moves a `proposed` plan to `approved`",
                c.confirm_id,
                ix.name(*i)
            ),
        );
    }
}

/// `bundle_confirm_target`.
fn confirm_target(ix: &Index<'_>, c: &Confirm, report: &mut Report) {
    let id = c.target_id;
    let found = match c.target_type {
        ConfirmTargetType::Plan => found_any(ix.plan(id)),
        ConfirmTargetType::Context => {
            found_any(ix.find(&ix.contexts, Context::KIND, id, |x| x.context_id.into()))
        }
        ConfirmTargetType::Trace => {
            found_any(ix.find(&ix.traces, "trace", id, |x| x.trace_id().into()))
        }
        // Extensions bind to a Context, not by a Confirm's list; `other`
        // names no module.
        ConfirmTargetType::Extension | ConfirmTargetType::Other => return,
    };
    let kind = c.target_type;
    match found {
        Found::Yes(..) | Found::Invalid => {}
        Found::Outside => outside(report, "/target_id", kind.as_str(), id),
        Found::Broken => report.error(
            "/target_id",
            BUNDLE_CONFIRM_TARGET,
            format!("the Confirm targets {kind} {id}, which is none of the bundle's {kind}s"),
        ),
    }
}

fn found_any<T>(f: Found<'_, T>) -> Found<'_, ()> {
    match f {
        Found::Yes(i, _) => Found::Yes(i, &()),
        Found::Outside => Found::Outside,
        Found::Broken => Found::Broken,
        Found::Invalid => Found::Invalid,
    }
}

/// `sa_trace_context_binding` and `sa_trace_plan_binding`.
fn trace_bindings(ix: &Index<'_>, t: &mplp_trace::Trace, report: &mut Report) {
    let ctx = t.context_id();
    let context_broken = matches!(ix.context(ctx), Found::Broken);
    match ix.context(ctx) {
        Found::Yes(..) | Found::Invalid => {}
        Found::Outside => outside(report, "/context_id", "context", ctx),
        Found::Broken => report.error(
            "/context_id",
            SA_TRACE_CONTEXT_BINDING,
            format!(
                "the trace belongs to context {ctx}, which is none of the bundle's contexts ({})",
                ix.names(&ix.contexts, Context::KIND)
            ),
        ),
    }
    let Some(plan_id) = t.plan_id() else {
        return;
    };
    match ix.plan(plan_id.into()) {
        Found::Yes(i, plan) => {
            // A context that is already a broken binding is reported once.
            if plan.context_id != ctx && !context_broken {
                report.error(
                    "/context_id",
                    SA_TRACE_CONTEXT_BINDING,
                    format!(
                        "the trace belongs to context {ctx}, but its plan {plan_id} (`{}`) belongs to context {}",
                        ix.name(i),
                        plan.context_id
                    ),
                );
            }
        }
        Found::Invalid => {}
        Found::Outside => outside(report, "/plan_id", "plan", plan_id),
        Found::Broken => report.error(
            "/plan_id",
            SA_TRACE_PLAN_BINDING,
            format!(
                "the trace records plan {plan_id}, which is none of the bundle's plans ({})",
                ix.names(&ix.plans, Plan::KIND)
            ),
        ),
    }
}
