//! MPLP v1.0.0 **Trace** module: the record of one execution chain, with
//! its root span, its segments (the steps of the execution, as a tree), and
//! its binding to a Context and a Plan.
//!
//! - [`Trace`], [`TraceSegment`], [`TraceStatus`], [`SegmentStatus`]: the
//!   wire types, exactly as `mplp-trace.schema.json` says; reading and
//!   all-errors validation through [`mplp_core::Document`] (kind `trace`)
//!   with the trace rules (see [`Trace::check_structure`]).
//! - Two lifecycles, each one table of triggers: [`TraceTrigger::rule`]
//!   for the trace, [`SegmentTrigger::rule`] for a segment.
//! - [`Trace::check_binding`]: the SA invariants that tie a trace to the
//!   Context and Plan it executes (`sa_trace_context_binding`,
//!   `sa_trace_plan_binding`, `sa_trace_not_empty`).
//!
//! ```
//! use mplp_trace::{SegmentStatus, SegmentTrigger, Trace, TraceStatus};
//! use mplp_core::{ContextId, Document, PlanId, Timestamp};
//!
//! let (context, plan) = (ContextId::new(), PlanId::new());
//! let mut trace = Trace::for_plan(context, plan);
//! assert_eq!(trace.root_span().context_id, Some(context));
//! trace.start()?;
//! let fetch = trace.add_segment("fetch sources", None)?;
//! let parse = trace.add_segment("parse", Some(fetch))?;
//! trace.fire_segment(fetch, SegmentTrigger::Start, Timestamp::now())?;
//! trace.fire_segment(fetch, SegmentTrigger::Complete, Timestamp::now())?;
//! trace.fire_segment(parse, SegmentTrigger::Skip, Timestamp::now())?;
//! trace.complete()?;
//! assert_eq!(trace.status(), TraceStatus::Completed);
//! assert_eq!(trace.segment(parse).map(|s| s.status()), Some(SegmentStatus::Skipped));
//!
//! let back = Trace::from_json(trace.to_json())?;
//! assert_eq!(back, trace);
//! # Ok::<(), mplp_core::Error>(())
//! ```
//!
//! # Spec notes
//! (Also in `docs/spec-notes.md`, section "mplp-trace"; pinned by the tests
//! in `tests/`.)
//! - **Lifecycle tables** are ours (the schema gives statuses only).
//! - **Root span.** `root_span.trace_id` is the trace's `trace_id`, the root
//!   span has no `parent_span_id`, and a `root_span.context_id` equals the
//!   trace's `context_id` ([`TRACE_ROOT_SPAN_BINDING`]).
//! - **Segments** form a forest: ids unique, each `parent_segment_id` names
//!   another segment of the trace, no cycles.
//! - **Times**: `finished_at` is not before `started_at` (trace and each
//!   segment).
#![cfg_attr(docsrs, feature(doc_cfg))]

mod lifecycle;

pub use lifecycle::{SegmentTrigger, TraceTrigger};

use mplp_core::rules::Source;
/// Declared once, in mplp-plan (the plan-side binding rules live there).
pub use mplp_plan::rules::SA_TRACE_CONTEXT_BINDING;
use std::collections::BTreeMap;

use mplp_core::{
    BaseEvent, ContextId, Document, Error, Governance, JsonObject, Meta, PlanId, Pointer, Report,
    Rule, SpanId, Timestamp, TraceBase, TraceId, Violation, Wire,
};

mplp_core::declare_rules! {
    /// Every rule of this crate, with its severity per profile and its source.
    pub const RULES;
    /// `trace_root_span_binding`: the root span belongs to this trace (same
    /// `trace_id`), has no parent, and names the trace's context if it names one.
    pub const TRACE_ROOT_SPAN_BINDING = "trace_root_span_binding" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-trace" },
        summary: "`trace_root_span_binding`: the root span belongs to this trace (same `trace_id`), has no parent, and names the trace's context if it names one.",
    }

    /// `trace_unique_segment_ids`: no two segments share a `segment_id`.
    pub const TRACE_UNIQUE_SEGMENT_IDS = "trace_unique_segment_ids" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-trace" },
        summary: "`trace_unique_segment_ids`: no two segments share a `segment_id`.",
    }

    /// `trace_segment_parent_exists`: a `parent_segment_id` names another
    /// segment of the same trace.
    pub const TRACE_SEGMENT_PARENT_EXISTS = "trace_segment_parent_exists" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-trace" },
        summary: "`trace_segment_parent_exists`: a `parent_segment_id` names another segment of the same trace.",
    }

    /// `trace_segment_tree_acyclic`: following `parent_segment_id` never comes
    /// back to where it started.
    pub const TRACE_SEGMENT_TREE_ACYCLIC = "trace_segment_tree_acyclic" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-trace" },
        summary: "`trace_segment_tree_acyclic`: following `parent_segment_id` never comes back to where it started.",
    }

    /// `trace_finished_after_started`: `finished_at` is not before `started_at`.
    pub const TRACE_FINISHED_AFTER_STARTED = "trace_finished_after_started" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-trace" },
        summary: "`trace_finished_after_started`: `finished_at` is not before `started_at`.",
    }

    /// `trace_segments_need_running_trace`: segments change only while the
    /// trace is `running` (new segments also while it is `pending`).
    pub const TRACE_SEGMENTS_NEED_RUNNING_TRACE = "trace_segments_need_running_trace" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-trace" },
        summary: "`trace_segments_need_running_trace`: segments change only while the trace is `running` (new segments also while it is `pending`).",
    }

    /// `unknown-segment`: an operation names a segment the trace does not have.
    pub const UNKNOWN_SEGMENT = "unknown-segment" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-trace" },
        summary: "`unknown-segment`: an operation names a segment the trace does not have.",
    }

    /// `sa_trace_plan_binding` (SA invariants): the trace's `plan_id` is the
    /// Plan the agent executes.
    pub const SA_TRACE_PLAN_BINDING = "sa_trace_plan_binding" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "sa-invariants.yaml", id: "sa_trace_plan_binding" },
        summary: "`sa_trace_plan_binding` (SA invariants): the trace's `plan_id` is the Plan the agent executes.",
    }

    /// `sa_trace_not_empty` (SA invariants): a completed execution emitted at
    /// least one trace event.
    pub const SA_TRACE_NOT_EMPTY = "sa_trace_not_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "sa-invariants.yaml", id: "sa_trace_not_empty" },
        summary: "`sa_trace_not_empty` (SA invariants): a completed execution emitted at least one trace event.",
    }
}

/// Every rule of this crate ([`RULES`]).
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES.iter()
}

mplp_core::mplp_id! {
    /// Identifies a segment of a Trace.
    pub struct SegmentId;
}

mplp_core::wire_enum! {
    /// Lifecycle status of a Trace. See [`TraceTrigger::rule`].
    pub enum TraceStatus {
        /// Not started yet.
        Pending = "pending",
        /// Executing.
        Running = "running",
        /// Finished successfully (final).
        Completed = "completed",
        /// Finished with a failure (final).
        Failed = "failed",
        /// Stopped before finishing (final).
        Cancelled = "cancelled",
    }
}

mplp_core::wire_enum! {
    /// Lifecycle status of a segment. See [`SegmentTrigger::rule`].
    pub enum SegmentStatus {
        /// Not started yet.
        Pending = "pending",
        /// Executing.
        Running = "running",
        /// Finished successfully (final).
        Completed = "completed",
        /// Finished with a failure (final).
        Failed = "failed",
        /// Stopped before finishing (final).
        Cancelled = "cancelled",
        /// Not executed on purpose (final).
        Skipped = "skipped",
    }
}

/// One segment of a trace (`trace_segment_core`): a step of the execution.
///
/// ```
/// use mplp_trace::{SegmentStatus, TraceSegment};
/// let s = TraceSegment::new("compile", None);
/// assert_eq!(s.status(), SegmentStatus::Pending);
/// let json = serde_json::to_value(&s).unwrap();
/// assert_eq!(json["label"], "compile");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[non_exhaustive]
pub struct TraceSegment {
    /// The segment's id. Required. Guarded (unique in the trace).
    pub(crate) segment_id: SegmentId,
    /// The enclosing segment. Guarded (must exist in the trace).
    pub(crate) parent_segment_id: Option<SegmentId>,
    /// What the segment does. Required.
    pub label: String,
    /// Lifecycle status. Required. Guarded: see [`SegmentTrigger::rule`].
    pub(crate) status: SegmentStatus,
    /// When it started (set by the `start` trigger).
    pub(crate) started_at: Option<Timestamp>,
    /// When it finished (set by the final triggers).
    pub(crate) finished_at: Option<Timestamp>,
    /// Free-form attributes.
    pub attributes: Option<JsonObject>,
}

impl TraceSegment {
    /// A `pending` segment with a fresh id (add it with [`Trace::add_segment`]).
    pub fn new(label: impl Into<String>, parent: Option<SegmentId>) -> Self {
        TraceSegment {
            segment_id: SegmentId::new(),
            parent_segment_id: parent,
            label: label.into(),
            status: SegmentStatus::Pending,
            started_at: None,
            finished_at: None,
            attributes: None,
        }
    }

    /// The segment's id.
    pub fn segment_id(&self) -> SegmentId {
        self.segment_id
    }

    /// The enclosing segment, if any.
    pub fn parent_segment_id(&self) -> Option<SegmentId> {
        self.parent_segment_id
    }

    /// Where the segment is in its lifecycle.
    pub fn status(&self) -> SegmentStatus {
        self.status
    }

    /// When it started.
    pub fn started_at(&self) -> Option<&Timestamp> {
        self.started_at.as_ref()
    }

    /// When it finished.
    pub fn finished_at(&self) -> Option<&Timestamp> {
        self.finished_at.as_ref()
    }
}

/// A Trace document (`mplp-trace.schema.json`, core profile).
///
/// ```
/// use mplp_trace::{Trace, TraceStatus};
/// use mplp_core::Document;
/// let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"),
///     "/../../schemas/examples/valid/trace-completed.json")).unwrap();
/// let trace = Trace::from_json(&json)?;
/// assert_eq!(trace.status(), TraceStatus::Completed);
/// assert_eq!(trace.segments().len(), 3);
/// # Ok::<(), mplp_core::Error>(())
/// ```
///
/// The ids, the root span, the status, the times and the segments are
/// guarded, so this does not compile:
///
/// ```compile_fail,E0616
/// # use mplp_trace::{Trace, TraceStatus};
/// fn force(t: &mut Trace) { t.status = TraceStatus::Completed; }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct Trace {
    /// Protocol metadata. Required.
    pub meta: Meta,
    /// Governance state (lifecycle phase, truth domain, lock, last Confirm).
    pub governance: Option<Governance>,
    /// The trace's id. Required. Guarded (the root span carries it too).
    pub(crate) trace_id: TraceId,
    /// The Context the execution runs in. Required. Guarded.
    pub(crate) context_id: ContextId,
    /// The Plan executed, if any. Guarded.
    pub(crate) plan_id: Option<PlanId>,
    /// The span the whole execution hangs from. Required. Guarded.
    pub(crate) root_span: TraceBase,
    /// Lifecycle status. Required. Guarded: see [`TraceTrigger::rule`].
    pub(crate) status: TraceStatus,
    /// When the execution started (set by `start`). Guarded.
    pub(crate) started_at: Option<Timestamp>,
    /// When it finished (set by the final triggers). Guarded.
    pub(crate) finished_at: Option<Timestamp>,
    /// The steps of the execution. Guarded: read them with
    /// [`Trace::segments`], add with [`Trace::add_segment`].
    pub(crate) segments: Option<Vec<TraceSegment>>,
    /// Events recorded during the execution.
    pub events: Option<Vec<BaseEvent>>,
}

impl Trace {
    /// A `pending` trace of an execution in `context_id`, with a fresh
    /// trace id and a fresh root span bound to the context.
    pub fn new(context_id: ContextId) -> Self {
        let trace_id = TraceId::new();
        let mut root_span = TraceBase::new(trace_id, SpanId::new());
        root_span.context_id = Some(context_id);
        Trace {
            meta: Meta::v1(),
            governance: None,
            trace_id,
            context_id,
            plan_id: None,
            root_span,
            status: TraceStatus::Pending,
            started_at: None,
            finished_at: None,
            segments: None,
            events: None,
        }
    }

    /// Like [`Trace::new`], for the execution of the Plan `plan_id`.
    pub fn for_plan(context_id: ContextId, plan_id: PlanId) -> Self {
        Trace {
            plan_id: Some(plan_id),
            ..Trace::new(context_id)
        }
    }

    /// The trace's id.
    pub fn trace_id(&self) -> TraceId {
        self.trace_id
    }

    /// The Context the execution runs in.
    pub fn context_id(&self) -> ContextId {
        self.context_id
    }

    /// The Plan executed, if any.
    pub fn plan_id(&self) -> Option<PlanId> {
        self.plan_id
    }

    /// The root span.
    pub fn root_span(&self) -> &TraceBase {
        &self.root_span
    }

    /// Where the trace is in its lifecycle.
    pub fn status(&self) -> TraceStatus {
        self.status
    }

    /// When the execution started.
    pub fn started_at(&self) -> Option<&Timestamp> {
        self.started_at.as_ref()
    }

    /// When it finished.
    pub fn finished_at(&self) -> Option<&Timestamp> {
        self.finished_at.as_ref()
    }

    /// The segments, in document order (empty when there are none).
    pub fn segments(&self) -> &[TraceSegment] {
        self.segments.as_deref().unwrap_or(&[])
    }

    /// The segment with this id.
    pub fn segment(&self, id: SegmentId) -> Option<&TraceSegment> {
        self.segments().iter().find(|s| s.segment_id == id)
    }

    /// A child span of the root span (same trace), for an operation of
    /// this execution.
    pub fn child_span(&self) -> TraceBase {
        self.root_span.child()
    }

    /// Adds a `pending` segment under `parent` (or at the top) and returns
    /// its id. Allowed while the trace is `pending` or `running`.
    ///
    /// # Errors
    /// `trace_segments_need_running_trace` when the trace is final;
    /// `unknown-segment` when `parent` is not a segment of this trace.
    pub fn add_segment(
        &mut self,
        label: impl Into<String>,
        parent: Option<SegmentId>,
    ) -> Result<SegmentId, Error> {
        if self.status.is_final() {
            return Err(state_error(
                "/status",
                TRACE_SEGMENTS_NEED_RUNNING_TRACE,
                format!("the trace is `{}`: no segment can be added", self.status),
            ));
        }
        if let Some(p) = parent {
            if self.segment(p).is_none() {
                return Err(state_error(
                    "/segments",
                    UNKNOWN_SEGMENT,
                    format!("there is no segment {p} in this trace"),
                ));
            }
        }
        let segment = TraceSegment::new(label, parent);
        let id = segment.segment_id;
        self.segments.get_or_insert_with(Vec::new).push(segment);
        Ok(id)
    }

    /// Checks the trace against the Context and Plan an agent executes (the
    /// SA invariants): `context_id` is `context` (`sa_trace_context_binding`),
    /// `plan_id` is `plan` (`sa_trace_plan_binding`; an absent `plan_id` is
    /// reported too), and a completed trace has at least one event
    /// (`sa_trace_not_empty`).
    ///
    /// ```
    /// use mplp_trace::Trace;
    /// use mplp_core::{ContextId, PlanId};
    /// let (c, p) = (ContextId::new(), PlanId::new());
    /// let trace = Trace::for_plan(c, p);
    /// assert!(trace.check_binding(c, p).is_valid());
    /// let report = trace.check_binding(ContextId::new(), p);
    /// assert_eq!(report.violations()[0].rule.as_str(), "sa_trace_context_binding");
    /// ```
    pub fn check_binding(&self, context: ContextId, plan: PlanId) -> Report {
        let mut report = Report::new();
        if self.context_id != context {
            report.error(
                "/context_id",
                SA_TRACE_CONTEXT_BINDING,
                format!(
                    "the trace belongs to context {}, the agent runs in context {context}",
                    self.context_id
                ),
            );
        }
        match self.plan_id {
            Some(p) if p == plan => {}
            Some(p) => report.error(
                "/plan_id",
                SA_TRACE_PLAN_BINDING,
                format!("the trace records plan {p}, the agent executes plan {plan}"),
            ),
            None => report.error(
                "/plan_id",
                SA_TRACE_PLAN_BINDING,
                format!("the trace names no plan, the agent executes plan {plan}"),
            ),
        }
        if self.status == TraceStatus::Completed && self.events.as_ref().is_none_or(Vec::is_empty) {
            report.error(
                "/events",
                SA_TRACE_NOT_EMPTY,
                "a completed execution must have emitted at least one trace event",
            );
        }
        report
    }

    /// The trace rules: root span binding, unique segment ids, existing
    /// parents, an acyclic segment tree, and times in order.
    pub fn check_structure(&self, report: &mut Report) {
        let head = Head {
            trace_id: Some(self.trace_id),
            context_id: Some(self.context_id),
            root_trace_id: Some(self.root_span.trace_id),
            root_parent: self.root_span.parent_span_id,
            root_context: self.root_span.context_id,
            started_at: self.started_at.as_ref(),
            finished_at: self.finished_at.as_ref(),
        };
        check_structure_of(&head, self.segments(), true, report);
    }
}

/// What the trace rules read of the trace itself and its root span: all of
/// it for a typed [`Trace`]; for a trace that failed its schema, a member
/// that cannot be read is `None` (and so is an absent one: a rule reports
/// only on members that are there and read).
struct Head<'a> {
    trace_id: Option<TraceId>,
    context_id: Option<ContextId>,
    root_trace_id: Option<TraceId>,
    root_parent: Option<SpanId>,
    root_context: Option<ContextId>,
    started_at: Option<&'a Timestamp>,
    finished_at: Option<&'a Timestamp>,
}

/// What the trace rules read of a segment: a typed [`TraceSegment`] has
/// every member; a segment read from a trace that failed its schema
/// ([`ReadSegment`]) may miss some, and the rules that need them are not
/// checked (never guessed).
trait SegmentNode {
    /// The segment's id, `None` when it cannot be read.
    fn read_id(&self) -> Option<SegmentId>;
    /// The parent (`Some(None)`: none), `None` when it cannot be read.
    fn read_parent(&self) -> Option<Option<SegmentId>>;
    /// `started_at`, `None` when absent or unread.
    fn read_started_at(&self) -> Option<&Timestamp>;
    /// `finished_at`, `None` when absent or unread.
    fn read_finished_at(&self) -> Option<&Timestamp>;
}

impl SegmentNode for TraceSegment {
    #[inline]
    fn read_id(&self) -> Option<SegmentId> {
        Some(self.segment_id)
    }
    #[inline]
    fn read_parent(&self) -> Option<Option<SegmentId>> {
        Some(self.parent_segment_id)
    }
    #[inline]
    fn read_started_at(&self) -> Option<&Timestamp> {
        self.started_at.as_ref()
    }
    #[inline]
    fn read_finished_at(&self) -> Option<&Timestamp> {
        self.finished_at.as_ref()
    }
}

/// What can be read of a segment of a trace that failed its schema.
struct ReadSegment {
    id: Option<SegmentId>,
    parent: Option<Option<SegmentId>>,
    started_at: Option<Timestamp>,
    finished_at: Option<Timestamp>,
}

impl SegmentNode for ReadSegment {
    fn read_id(&self) -> Option<SegmentId> {
        self.id
    }
    fn read_parent(&self) -> Option<Option<SegmentId>> {
        self.parent
    }
    fn read_started_at(&self) -> Option<&Timestamp> {
        self.started_at.as_ref()
    }
    fn read_finished_at(&self) -> Option<&Timestamp> {
        self.finished_at.as_ref()
    }
}

/// The member `key` of `value`, parsed with `FromStr`; `None` when absent,
/// not a string or not parsed.
fn read<T: std::str::FromStr>(value: &serde_json::Value, key: &str) -> Option<T> {
    value.get(key)?.as_str()?.parse().ok()
}

fn read_segment(segment: &serde_json::Value) -> ReadSegment {
    ReadSegment {
        id: read(segment, "segment_id"),
        // A segment that is not an object has no readable id: it is in no
        // walk, and its parent (read as absent) is never looked at.
        parent: match segment.get("parent_segment_id") {
            None => Some(None),
            Some(_) => read(segment, "parent_segment_id").map(Some),
        },
        started_at: read(segment, "started_at"),
        finished_at: read(segment, "finished_at"),
    }
}

/// The trace rules over what can still be read of a trace that failed its
/// schema (see [`Document::check_rules_of_value`]): the same function as
/// [`Trace::check_structure`], fed with the ids, parents and times that
/// parse. A rule is reported only when its inputs are read: a parent that
/// names no readable segment is not reported while some segment id cannot
/// be read (it may name that one), nor is a cycle through a parent that
/// cannot be read.
fn check_structure_of_value(value: &serde_json::Value, report: &mut Report) {
    let root = value.get("root_span").unwrap_or(&serde_json::Value::Null);
    let started_at: Option<Timestamp> = read(value, "started_at");
    let finished_at: Option<Timestamp> = read(value, "finished_at");
    let head = Head {
        trace_id: read(value, "trace_id"),
        context_id: read(value, "context_id"),
        root_trace_id: read(root, "trace_id"),
        root_parent: read(root, "parent_span_id"),
        root_context: read(root, "context_id"),
        started_at: started_at.as_ref(),
        finished_at: finished_at.as_ref(),
    };
    let segments: Vec<ReadSegment> = value
        .get("segments")
        .and_then(serde_json::Value::as_array)
        .map(|segs| segs.iter().map(read_segment).collect())
        .unwrap_or_default();
    let ids_complete = segments.iter().all(|s| s.id.is_some());
    check_structure_of(&head, &segments, ids_complete, report);
}

/// The trace rules over `head` and `segs`, typed or read from a trace that
/// failed its schema; `ids_complete` says whether every segment id could
/// be read (when not, a parent that names no readable segment may name the
/// unread one, and is not reported).
fn check_structure_of<S: SegmentNode>(
    head: &Head<'_>,
    segs: &[S],
    ids_complete: bool,
    report: &mut Report,
) {
    let root = Pointer::root().key("root_span");
    if let (Some(root_trace), Some(trace_id)) = (head.root_trace_id, head.trace_id) {
        if root_trace != trace_id {
            report.error(
                root.key("trace_id"),
                TRACE_ROOT_SPAN_BINDING,
                format!(
                    "the root span belongs to trace {root_trace}, expected this trace ({trace_id})"
                ),
            );
        }
    }
    if let Some(parent) = head.root_parent {
        report.error(
            root.key("parent_span_id"),
            TRACE_ROOT_SPAN_BINDING,
            format!("a root span has no parent, found parent span {parent}"),
        );
    }
    if let (Some(c), Some(context_id)) = (head.root_context, head.context_id) {
        if c != context_id {
            report.error(
                root.key("context_id"),
                TRACE_ROOT_SPAN_BINDING,
                format!(
                    "the root span names context {c}, the trace belongs to context {context_id}"
                ),
            );
        }
    }
    check_times(&Pointer::root(), head.started_at, head.finished_at, report);
    let at = Pointer::root().key("segments");
    let mut index: BTreeMap<SegmentId, usize> = BTreeMap::new();
    for (i, s) in segs.iter().enumerate() {
        if let Some(id) = s.read_id() {
            if let Some(first) = index.get(&id) {
                report.error(
                    at.index(i).key("segment_id"),
                    TRACE_UNIQUE_SEGMENT_IDS,
                    format!(
                        "segment_id {id} is already used by segment {first}; segment ids must be unique"
                    ),
                );
            } else {
                index.insert(id, i);
            }
        }
        check_times(
            &at.index(i),
            s.read_started_at(),
            s.read_finished_at(),
            report,
        );
    }
    for (i, s) in segs.iter().enumerate() {
        let Some(Some(parent)) = s.read_parent() else {
            continue;
        };
        let itself = s.read_id() == Some(parent);
        if itself || !index.contains_key(&parent) {
            if itself || ids_complete {
                report.error(
                    at.index(i).key("parent_segment_id"),
                    TRACE_SEGMENT_PARENT_EXISTS,
                    format!(
                        "parent_segment_id {parent} names {}",
                        if itself {
                            "the segment itself"
                        } else {
                            "no segment of this trace"
                        }
                    ),
                );
            }
            continue;
        }
        let Some(id) = s.read_id() else {
            continue;
        };
        // Walk up at most `segs.len()` ancestors: a cycle through `id` is
        // found within them, and a longer walk is a cycle that is not.
        let mut current = Some(parent);
        for _ in 0..segs.len() {
            let Some(c) = current else {
                break;
            };
            if c == id {
                report.error(
                    at.index(i).key("parent_segment_id"),
                    TRACE_SEGMENT_TREE_ACYCLIC,
                    format!("segment {id} is its own ancestor"),
                );
                break;
            }
            current = index
                .get(&c)
                .and_then(|j| segs.get(*j))
                .and_then(|p| p.read_parent().flatten());
        }
    }
}

fn check_times(
    at: &Pointer,
    started: Option<&Timestamp>,
    finished: Option<&Timestamp>,
    report: &mut Report,
) {
    if let (Some(s), Some(f)) = (started, finished) {
        if f.instant() < s.instant() {
            report.error(
                at.key("finished_at"),
                TRACE_FINISHED_AFTER_STARTED,
                format!("finished at {f}, before it started ({s})"),
            );
        }
    }
}

pub(crate) fn state_error(pointer: &str, rule: Rule, message: impl Into<String>) -> Error {
    Error::State(Violation::error(pointer, rule, message))
}

impl Document for Trace {
    const KIND: &'static str = "trace";

    fn check_rules(&self, report: &mut Report) {
        self.check_structure(report);
    }

    /// The trace rules ([`Trace::check_structure`]) over the ids, parents
    /// and times that can still be read of a trace that failed its schema.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        check_structure_of_value(value, report);
    }
}
