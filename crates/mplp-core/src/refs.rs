//! References between MPLP objects, governance blocks and trace references.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::check::{CheckValue, ObjectCheck};
use crate::{ContextId, JsonObject, MplpId, Pointer, Report, SpanId, TraceId};

crate::wire_enum! {
    /// The MPLP module an object belongs to.
    pub enum ModuleName {
        /// Context.
        Context = "context",
        /// Plan.
        Plan = "plan",
        /// Confirm.
        Confirm = "confirm",
        /// Trace.
        Trace = "trace",
        /// Role.
        Role = "role",
        /// Extension.
        Extension = "extension",
        /// Dialog.
        Dialog = "dialog",
        /// Collab.
        Collab = "collab",
        /// Core.
        Core = "core",
        /// Network.
        Network = "network",
    }
}

/// A reference to another MPLP object (`common-types.schema.json#/definitions/Ref`).
///
/// ```
/// use mplp_core::{ModuleName, MplpId, Ref};
/// let r = Ref::new(MplpId::new(), ModuleName::Confirm);
/// assert!(serde_json::to_string(&r).unwrap().contains(r#""module":"confirm""#));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(remote = "Self", deny_unknown_fields)]
#[non_exhaustive]
pub struct Ref {
    /// The id of the object referred to.
    pub id: MplpId,
    /// The module of the object referred to.
    pub module: ModuleName,
    /// What the reference means, for people.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::not_null"
    )]
    pub description: Option<String>,
}

crate::object_only!(Ref);

impl Ref {
    /// A reference without a description.
    pub fn new(id: MplpId, module: ModuleName) -> Self {
        Ref {
            id,
            module,
            description: None,
        }
    }
}

impl CheckValue for Ref {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        let Some(mut o) = ObjectCheck::new(value, at, report) else {
            return;
        };
        o.required::<MplpId>("id");
        o.required::<ModuleName>("module");
        o.optional::<String>("description");
        o.deny_unknown();
    }
}

/// The `governance` block of Dialog and Collab documents (Plan has none).
///
/// The wire names are camelCase (`lifecyclePhase`, `truthDomain`,
/// `lastConfirmRef`), unlike the rest of MPLP: that is what the schema says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(remote = "Self", deny_unknown_fields)]
#[non_exhaustive]
pub struct Governance {
    /// The current phase of the lifecycle fence (`design`, `implementation`, `review`, ...).
    #[serde(
        rename = "lifecyclePhase",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::not_null"
    )]
    pub lifecycle_phase: Option<String>,
    /// The truth domain the object belongs to (`requirements`, `architecture`, ...).
    #[serde(
        rename = "truthDomain",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::not_null"
    )]
    pub truth_domain: Option<String>,
    /// When true, the object may be changed only by a governance override.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::not_null"
    )]
    pub locked: Option<bool>,
    /// The last Confirm decision that approved this state.
    #[serde(
        rename = "lastConfirmRef",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::not_null"
    )]
    pub last_confirm_ref: Option<Ref>,
}

crate::object_only!(Governance);

impl CheckValue for Governance {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        let Some(mut o) = ObjectCheck::new(value, at, report) else {
            return;
        };
        o.optional::<String>("lifecyclePhase");
        o.optional::<String>("truthDomain");
        o.optional::<bool>("locked");
        o.optional::<Ref>("lastConfirmRef");
        o.deny_unknown();
    }
}

/// A reference to a trace span (`common/trace-base.schema.json`), modelled on
/// W3C Trace Context. Both `trace_id` and `span_id` are required.
///
/// ```
/// use mplp_core::TraceBase;
/// let root = TraceBase::root();
/// let child = root.child();
/// assert_eq!(child.trace_id, root.trace_id);
/// assert_eq!(child.parent_span_id, Some(root.span_id));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(remote = "Self", deny_unknown_fields)]
#[non_exhaustive]
pub struct TraceBase {
    /// The whole execution chain; every span of it shares this id.
    pub trace_id: TraceId,
    /// This operation.
    pub span_id: SpanId,
    /// The operation this one is part of; absent for a root span.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::not_null"
    )]
    pub parent_span_id: Option<SpanId>,
    /// The context the trace belongs to.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::not_null"
    )]
    pub context_id: Option<ContextId>,
    /// Free-form attributes.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::not_null"
    )]
    pub attributes: Option<JsonObject>,
}

crate::object_only!(TraceBase);

impl TraceBase {
    /// A new root span of a new trace.
    pub fn root() -> Self {
        TraceBase::new(TraceId::new(), SpanId::new())
    }

    /// The given trace and span, with nothing else set.
    pub fn new(trace_id: TraceId, span_id: SpanId) -> Self {
        TraceBase {
            trace_id,
            span_id,
            parent_span_id: None,
            context_id: None,
            attributes: None,
        }
    }

    /// A new span of the same trace, whose parent is this span.
    #[must_use]
    pub fn child(&self) -> Self {
        TraceBase {
            parent_span_id: Some(self.span_id),
            context_id: self.context_id,
            ..TraceBase::new(self.trace_id, SpanId::new())
        }
    }
}

impl CheckValue for TraceBase {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        let Some(mut o) = ObjectCheck::new(value, at, report) else {
            return;
        };
        o.required::<TraceId>("trace_id");
        o.required::<SpanId>("span_id");
        o.optional::<SpanId>("parent_span_id");
        o.optional::<ContextId>("context_id");
        o.optional::<JsonObject>("attributes");
        o.deny_unknown();
    }
}

crate::wire_enum! {
    /// How the participants of a collaboration session coordinate
    /// (shared by mplp-collab documents and mplp-events MAP payloads).
    pub enum CollabMode {
        /// One message fans out to every participant, whose answers fan back in.
        Broadcast = "broadcast",
        /// Participants take turns in a fixed order.
        RoundRobin = "round_robin",
        /// An orchestrator dispatches each turn.
        Orchestrated = "orchestrated",
        /// Participants claim independent tasks in parallel.
        Swarm = "swarm",
        /// Exactly two participants alternate.
        Pair = "pair",
    }
}
