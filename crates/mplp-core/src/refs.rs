//! References between MPLP objects, governance blocks and trace references.

use crate::{ContextId, JsonObject, MplpId, SpanId, TraceId, Wire};

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
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(crate = "crate")]
#[non_exhaustive]
pub struct Ref {
    /// The id of the object referred to.
    pub id: MplpId,
    /// The module of the object referred to.
    pub module: ModuleName,
    /// What the reference means, for people.
    pub description: Option<String>,
}

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

/// The `governance` block of Dialog and Collab documents (Plan has none).
///
/// The wire names are camelCase (`lifecyclePhase`, `truthDomain`,
/// `lastConfirmRef`), unlike the rest of MPLP: that is what the schema says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Wire)]
#[wire(crate = "crate")]
#[non_exhaustive]
pub struct Governance {
    /// The current phase of the lifecycle fence (`design`, `implementation`, `review`, ...).
    #[wire(rename = "lifecyclePhase")]
    pub lifecycle_phase: Option<String>,
    /// The truth domain the object belongs to (`requirements`, `architecture`, ...).
    #[wire(rename = "truthDomain")]
    pub truth_domain: Option<String>,
    /// When true, the object may be changed only by a governance override.
    pub locked: Option<bool>,
    /// The last Confirm decision that approved this state.
    #[wire(rename = "lastConfirmRef")]
    pub last_confirm_ref: Option<Ref>,
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
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(crate = "crate")]
#[non_exhaustive]
pub struct TraceBase {
    /// The whole execution chain; every span of it shares this id.
    pub trace_id: TraceId,
    /// This operation.
    pub span_id: SpanId,
    /// The operation this one is part of; absent for a root span.
    pub parent_span_id: Option<SpanId>,
    /// The context the trace belongs to.
    pub context_id: Option<ContextId>,
    /// Free-form attributes.
    pub attributes: Option<JsonObject>,
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_span_keeps_the_trace_and_context_and_names_its_parent() {
        let mut root = TraceBase::root();
        root.context_id = Some(ContextId::new());
        let mut attributes = JsonObject::new();
        attributes.insert("k", 1);
        root.attributes = Some(attributes);
        let child = root.child();
        assert_eq!(child.trace_id, root.trace_id);
        assert_ne!(child.span_id, root.span_id);
        assert_eq!(child.parent_span_id, Some(root.span_id));
        assert_eq!(child.context_id, root.context_id);
        assert_eq!(child.attributes, None);
        let grandchild = child.child();
        assert_eq!(grandchild.parent_span_id, Some(child.span_id));
        assert_eq!(TraceBase::root().parent_span_id, None);
    }
}
