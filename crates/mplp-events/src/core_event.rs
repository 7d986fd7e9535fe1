//! Observability events of the event taxonomy (`events/mplp-event-core.schema.json`
//! and the family schemas).
//!
//! The generic core envelope allows additional members: a [`CoreEvent`]
//! keeps them in [`CoreEvent::extensions`]. The three families with their
//! own schema get typed fields ([`CoreBody`]), which sit beside the
//! envelope's members on the wire: the body is declared with
//! `#[wire(tagged, flatten)]` and `event_family` as its tag
//! ([`mplp_core::wire::Flattened`]).
//!
//! The observability invariants (`observability-invariants.yaml`) are the
//! rules of [`crate::rules`] named `obs_*`: those JSON Schema already says
//! (enums, date-times) are reported with the schema rule id; the stricter
//! ones (UUID **v4** ids, non-blank `event_type` and `stage_id`) are checked
//! by [`Document::check_rules`] with their canonical ids.

use mplp_core::check::CheckValue;
use mplp_core::wire::{Flattened, SerializeMembers, pick_members, take_members_exact};
use mplp_core::{Document, JsonObject, Pointer, Report, Timestamp, Wire};
use serde_json::Value;

use crate::SchemaUuid;
use crate::rules::*;

mplp_core::wire_enum! {
    /// The twelve event families of the MPLP v1.0.0 event taxonomy
    /// (`event_family` of the core event schema).
    pub enum CoreFamily {
        /// Project import, repository scanning.
        ImportProcess = "import_process",
        /// User intentions, actor actions.
        Intent = "intent",
        /// Intent deltas, change requests.
        DeltaIntent = "delta_intent",
        /// Impact assessment results.
        ImpactAnalysis = "impact_analysis",
        /// Compensation planning.
        CompensationPlan = "compensation_plan",
        /// Methodology selection and execution.
        Methodology = "methodology",
        /// Reasoning graph construction.
        ReasoningGraph = "reasoning_graph",
        /// Pipeline stage transitions (own schema, required).
        PipelineStage = "pipeline_stage",
        /// PSG structural updates (own schema, required).
        GraphUpdate = "graph_update",
        /// Runtime execution lifecycle (own schema, recommended).
        RuntimeExecution = "runtime_execution",
        /// Cost and token usage.
        CostBudget = "cost_budget",
        /// External system integration.
        ExternalIntegration = "external_integration",
    }
}

mplp_core::wire_enum! {
    /// The nine families that use the generic core schema (no own fields).
    pub enum GenericFamily {
        /// Project import, repository scanning.
        ImportProcess = "import_process",
        /// User intentions, actor actions.
        Intent = "intent",
        /// Intent deltas, change requests.
        DeltaIntent = "delta_intent",
        /// Impact assessment results.
        ImpactAnalysis = "impact_analysis",
        /// Compensation planning.
        CompensationPlan = "compensation_plan",
        /// Methodology selection and execution.
        Methodology = "methodology",
        /// Reasoning graph construction.
        ReasoningGraph = "reasoning_graph",
        /// Cost and token usage.
        CostBudget = "cost_budget",
        /// External system integration.
        ExternalIntegration = "external_integration",
    }
}

mplp_core::wire_enum! {
    /// `update_kind` of a graph update event.
    pub enum UpdateKind {
        /// A node was added.
        NodeAdd = "node_add",
        /// A node was changed.
        NodeUpdate = "node_update",
        /// A node was removed.
        NodeDelete = "node_delete",
        /// An edge was added.
        EdgeAdd = "edge_add",
        /// An edge was changed.
        EdgeUpdate = "edge_update",
        /// An edge was removed.
        EdgeDelete = "edge_delete",
        /// Several changes at once.
        Bulk = "bulk",
    }
}

mplp_core::wire_enum! {
    /// `executor_kind` of a runtime execution event.
    pub enum ExecutorKind {
        /// An agent.
        Agent = "agent",
        /// A tool.
        Tool = "tool",
        /// A language model.
        Llm = "llm",
        /// A worker.
        Worker = "worker",
        /// An external system.
        External = "external",
    }
}

mplp_core::wire_enum! {
    /// `status` of a runtime execution event.
    pub enum ExecutionStatus {
        /// Not started yet.
        Pending = "pending",
        /// Running.
        Running = "running",
        /// Finished successfully.
        Completed = "completed",
        /// Finished with an error.
        Failed = "failed",
        /// Stopped before finishing.
        Cancelled = "cancelled",
    }
}

mplp_core::wire_enum! {
    /// `stage_status` of a pipeline stage event.
    pub enum StageStatus {
        /// Not started yet.
        Pending = "pending",
        /// Running.
        Running = "running",
        /// Finished successfully.
        Completed = "completed",
        /// Finished with an error.
        Failed = "failed",
        /// Not run.
        Skipped = "skipped",
    }
}

impl CoreFamily {
    /// True for the three families with their own schema (`graph_update`,
    /// `runtime_execution`, `pipeline_stage`).
    pub const fn has_own_schema(self) -> bool {
        matches!(
            self,
            CoreFamily::GraphUpdate | CoreFamily::RuntimeExecution | CoreFamily::PipelineStage
        )
    }
}

impl From<GenericFamily> for CoreFamily {
    fn from(f: GenericFamily) -> Self {
        match f {
            GenericFamily::ImportProcess => CoreFamily::ImportProcess,
            GenericFamily::Intent => CoreFamily::Intent,
            GenericFamily::DeltaIntent => CoreFamily::DeltaIntent,
            GenericFamily::ImpactAnalysis => CoreFamily::ImpactAnalysis,
            GenericFamily::CompensationPlan => CoreFamily::CompensationPlan,
            GenericFamily::Methodology => CoreFamily::Methodology,
            GenericFamily::ReasoningGraph => CoreFamily::ReasoningGraph,
            GenericFamily::CostBudget => CoreFamily::CostBudget,
            GenericFamily::ExternalIntegration => CoreFamily::ExternalIntegration,
        }
    }
}

/// The fields of a `graph_update` event (`mplp-graph-update-event.schema.json`),
/// written beside the envelope's members.
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct GraphUpdate {
    /// UUID of the graph that changed.
    pub graph_id: SchemaUuid,
    /// What sort of change was made.
    pub update_kind: UpdateKind,
    /// Change in the number of nodes.
    pub node_delta: i64,
    /// Change in the number of edges.
    pub edge_delta: i64,
    /// Module that made the change, for example `plan`.
    pub source_module: Option<String>,
}

/// The fields of a `runtime_execution` event (`mplp-runtime-execution-event.schema.json`).
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct RuntimeExecution {
    /// UUID of the execution reported on.
    pub execution_id: SchemaUuid,
    /// What kind of executor does the work.
    pub executor_kind: ExecutorKind,
    /// Role name of the executor, for example `reviewer`.
    pub executor_role: Option<mplp_core::ShortString>,
    /// State of the execution.
    pub status: ExecutionStatus,
}

/// The fields of a `pipeline_stage` event (`mplp-pipeline-stage-event.schema.json`).
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct PipelineStage {
    /// UUID of the pipeline run.
    pub pipeline_id: SchemaUuid,
    /// Machine name of the stage, for example `analyze`.
    pub stage_id: String,
    /// Name of the stage as shown to people.
    pub stage_name: Option<String>,
    /// State the stage is in.
    pub stage_status: StageStatus,
    /// Zero-based position of the stage within the pipeline.
    pub stage_order: Option<u64>,
}

impl GraphUpdate {
    /// The required fields.
    pub fn new(
        graph_id: SchemaUuid,
        update_kind: UpdateKind,
        node_delta: i64,
        edge_delta: i64,
    ) -> Self {
        GraphUpdate {
            graph_id,
            update_kind,
            node_delta,
            edge_delta,
            source_module: None,
        }
    }
}

impl RuntimeExecution {
    /// The required fields.
    pub fn new(
        execution_id: SchemaUuid,
        executor_kind: ExecutorKind,
        status: ExecutionStatus,
    ) -> Self {
        RuntimeExecution {
            execution_id,
            executor_kind,
            executor_role: None,
            status,
        }
    }
}

impl PipelineStage {
    /// The required fields.
    pub fn new(
        pipeline_id: SchemaUuid,
        stage_id: impl Into<String>,
        stage_status: StageStatus,
    ) -> Self {
        PipelineStage {
            pipeline_id,
            stage_id: stage_id.into(),
            stage_name: None,
            stage_status,
            stage_order: None,
        }
    }
}

/// The family of a [`CoreEvent`] with its family-specific fields.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CoreBody {
    /// `graph_update`.
    GraphUpdate(GraphUpdate),
    /// `runtime_execution`.
    RuntimeExecution(RuntimeExecution),
    /// `pipeline_stage`.
    PipelineStage(PipelineStage),
    /// One of the nine families of the generic core schema.
    Generic(GenericFamily),
}

impl CoreBody {
    /// The `event_family`.
    pub fn family(&self) -> CoreFamily {
        match self {
            CoreBody::GraphUpdate(_) => CoreFamily::GraphUpdate,
            CoreBody::RuntimeExecution(_) => CoreFamily::RuntimeExecution,
            CoreBody::PipelineStage(_) => CoreFamily::PipelineStage,
            CoreBody::Generic(f) => CoreFamily::from(*f),
        }
    }
}

/// The members a family adds to the envelope: the `FIELDS` of its
/// declaration (none for the nine generic families).
pub fn family_members(family: CoreFamily) -> &'static [&'static str] {
    match family {
        CoreFamily::GraphUpdate => GraphUpdate::FIELDS,
        CoreFamily::RuntimeExecution => RuntimeExecution::FIELDS,
        CoreFamily::PipelineStage => PipelineStage::FIELDS,
        _ => &[],
    }
}

fn read<T: Wire, E: serde::de::Error>(v: mplp_json::exact::ExactValue) -> Result<T, E> {
    mplp_core::wire::read_exact(v, mplp_core::wire::Unchecked)
}

impl Flattened for CoreBody {
    type Tag = CoreFamily;

    fn tag(&self) -> CoreFamily {
        self.family()
    }

    fn is_member(&self, member: &str) -> bool {
        family_members(self.family()).contains(&member)
    }

    fn take<E: serde::de::Error>(tag: CoreFamily, extra: &mut JsonObject) -> Result<Self, E> {
        let members = take_members_exact(extra, family_members(tag));
        Ok(match tag {
            CoreFamily::GraphUpdate => CoreBody::GraphUpdate(read(members)?),
            CoreFamily::RuntimeExecution => CoreBody::RuntimeExecution(read(members)?),
            CoreFamily::PipelineStage => CoreBody::PipelineStage(read(members)?),
            other => match GenericFamily::from_wire(other.as_str()) {
                Some(g) => CoreBody::Generic(g),
                None => return Err(E::custom("an event family without a body type")),
            },
        })
    }

    fn serialize_members<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        match self {
            CoreBody::GraphUpdate(b) => b.serialize_members(map),
            CoreBody::RuntimeExecution(b) => b.serialize_members(map),
            CoreBody::PipelineStage(b) => b.serialize_members(map),
            CoreBody::Generic(_) => Ok(()),
        }
    }

    fn check_tag(value: &Value, at: &Pointer, report: &mut Report) {
        CoreFamily::check_value(value, at, report);
    }

    fn check_members(tag: Option<&Value>, object: &Value, at: &Pointer, report: &mut Report) {
        let Some(family) = tag.and_then(Value::as_str).and_then(CoreFamily::from_wire) else {
            return;
        };
        let members = pick_members(object, family_members(family));
        match family {
            CoreFamily::GraphUpdate => GraphUpdate::check_value(&members, at, report),
            CoreFamily::RuntimeExecution => RuntimeExecution::check_value(&members, at, report),
            CoreFamily::PipelineStage => PipelineStage::check_value(&members, at, report),
            _ => {}
        }
    }
}

#[cfg(feature = "schemars")]
impl mplp_core::wire::FlattenedSchema for CoreBody {
    fn extend_schema(
        generator: &mut schemars::SchemaGenerator,
        _properties: &mut serde_json::Map<String, Value>,
        _required: &mut Vec<Value>,
        all_of: &mut Vec<Value>,
    ) {
        // In the order of `CoreFamily::ALL`.
        let branches = [
            (
                CoreFamily::PipelineStage,
                <PipelineStage as schemars::JsonSchema>::json_schema(generator),
            ),
            (
                CoreFamily::GraphUpdate,
                <GraphUpdate as schemars::JsonSchema>::json_schema(generator),
            ),
            (
                CoreFamily::RuntimeExecution,
                <RuntimeExecution as schemars::JsonSchema>::json_schema(generator),
            ),
        ];
        for (family, schema) in branches {
            all_of.push(crate::schema::tag_branch(
                "event_family",
                family.as_str(),
                schema,
            ));
        }
    }
}

/// Top-level members that no schema names (`additionalProperties: true` in
/// the core schema), kept and written back after the known ones.
pub type Extensions = JsonObject;

/// An observability event of the event taxonomy (`mplp-event-core.schema.json`,
/// and the family schemas for `graph_update`, `runtime_execution` and
/// `pipeline_stage`).
///
/// ```
/// use mplp_core::Document;
/// use mplp_events::core_event::{CoreBody, CoreEvent, GenericFamily};
/// let mut e = CoreEvent::new("intent_captured", CoreBody::Generic(GenericFamily::Intent));
/// e.extensions.insert("x-origin", "cli");
/// let back = CoreEvent::from_json(e.to_json())?;
/// assert_eq!(back, e);
/// assert_eq!(back.extensions.get("x-origin"), Some(&serde_json::json!("cli")));
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document, tag = "event_family", tag_after = "event_type")]
#[non_exhaustive]
pub struct CoreEvent {
    /// UUID naming this event (`format: uuid`; the invariant
    /// `obs_event_id_is_uuid` wants a version 4 UUID).
    pub event_id: SchemaUuid,
    /// Finer-grained name within the family, e.g. `pipeline_stage_completed`.
    pub event_type: String,
    /// RFC 3339 date-time at which the event happened.
    pub timestamp: Timestamp,
    /// UUID of the project the event concerns.
    pub project_id: Option<SchemaUuid>,
    /// The family (written as `event_family`), with its own fields for the
    /// three families with a schema (written beside the envelope's members).
    #[wire(tagged, flatten)]
    pub body: CoreBody,
    /// Family-specific event data.
    pub payload: Option<JsonObject>,
    /// Every other top-level member.
    #[wire(extra)]
    pub extensions: Extensions,
}

impl CoreEvent {
    /// An event with a fresh id and the current time.
    pub fn new(event_type: impl Into<String>, body: CoreBody) -> Self {
        CoreEvent {
            event_id: SchemaUuid::new(),
            event_type: event_type.into(),
            timestamp: Timestamp::now(),
            project_id: None,
            body,
            payload: None,
            extensions: Extensions::new(),
        }
    }

    /// The `event_family`.
    pub fn family(&self) -> CoreFamily {
        self.body.family()
    }
}

/// True for a UUID of version 4 and the RFC 4122 variant, in either case
/// (the invariants' `uuid-v4` rule).
pub(crate) fn is_v4(u: &SchemaUuid) -> bool {
    u.as_uuid().get_version_num() == 4 && u.as_uuid().get_variant() == uuid::Variant::RFC4122
}

/// True for a string with a character that is not white space (the
/// invariants' `non-empty-string` rule).
pub(crate) fn is_non_blank(s: &str) -> bool {
    !s.trim().is_empty()
}

pub(crate) fn require_v4(
    u: &SchemaUuid,
    pointer: &str,
    rule: mplp_core::Rule,
    report: &mut Report,
) {
    if !is_v4(u) {
        report.error(
            pointer,
            rule,
            format!(
                "expected a version 4 UUID, found `{u}` (version {})",
                u.as_uuid().get_version_num()
            ),
        );
    }
}

pub(crate) fn require_non_blank(
    s: &str,
    pointer: &str,
    rule: mplp_core::Rule,
    report: &mut Report,
) {
    if !is_non_blank(s) {
        report.error(
            pointer,
            rule,
            format!("expected a non-blank string, found {s:?}"),
        );
    }
}

impl Document for CoreEvent {
    const KIND: &'static str = "event";
    const STATED_BY_SCHEMA: &'static [mplp_core::Stated] = crate::invariants::OBS_STATED;

    /// The observability invariants beyond the schema: `obs_event_id_is_uuid`,
    /// `obs_event_type_non_empty`, and per family `obs_graph_event_has_graph_id`,
    /// `obs_runtime_event_has_execution_id`, `obs_pipeline_event_has_pipeline_id`,
    /// `obs_pipeline_stage_id_non_empty`.
    fn check_rules(&self, report: &mut Report) {
        let family = match &self.body {
            CoreBody::GraphUpdate(g) => FamilyIds::Graph(Some(&g.graph_id)),
            CoreBody::RuntimeExecution(r) => FamilyIds::Runtime(Some(&r.execution_id)),
            CoreBody::PipelineStage(p) => {
                FamilyIds::Pipeline(Some(&p.pipeline_id), Some(&p.stage_id))
            }
            CoreBody::Generic(_) => FamilyIds::Other,
        };
        check_core_event(Some(&self.event_id), Some(&self.event_type), family, report);
    }

    /// The same rules over what can still be read of an event that failed
    /// its schema: the ids that parse as UUIDs, the texts that are strings
    /// and passed their own schema rules, the family's members when
    /// `event_family` can be read.
    fn check_rules_of_value(value: &Value, report: &mut Report) {
        let uuid = |pointer: &str, report: &Report| {
            read_text(value, pointer, report).and_then(|s| SchemaUuid::parse(s).ok())
        };
        let event_id = uuid("/event_id", report);
        let family: Option<CoreFamily> =
            read_text(value, "/event_family", report).and_then(|f| f.parse().ok());
        let (graph, execution, pipeline) = (
            uuid("/graph_id", report),
            uuid("/execution_id", report),
            uuid("/pipeline_id", report),
        );
        let family = match family {
            None => FamilyIds::Other,
            Some(CoreFamily::GraphUpdate) => FamilyIds::Graph(graph.as_ref()),
            Some(CoreFamily::RuntimeExecution) => FamilyIds::Runtime(execution.as_ref()),
            Some(CoreFamily::PipelineStage) => {
                FamilyIds::Pipeline(pipeline.as_ref(), read_text(value, "/stage_id", report))
            }
            Some(_) => FamilyIds::Other,
        };
        let event_type = read_text(value, "/event_type", report);
        check_core_event(event_id.as_ref(), event_type, family, report);
    }
}

/// The text at `pointer` of a document that failed its schema, when it is a
/// string and no violation was reported at that pointer (a member that
/// failed its own schema rules is not read: an empty string has its
/// `min-length` violation already).
pub(crate) fn read_text<'v>(value: &'v Value, pointer: &str, report: &Report) -> Option<&'v str> {
    let text = value.pointer(pointer)?.as_str()?;
    let flagged = report.violations().iter().any(|v| v.pointer == pointer);
    (!flagged).then_some(text)
}

/// The members of a family that the observability rules read (`None`: not
/// read).
enum FamilyIds<'a> {
    Graph(Option<&'a SchemaUuid>),
    Runtime(Option<&'a SchemaUuid>),
    Pipeline(Option<&'a SchemaUuid>, Option<&'a str>),
    /// A generic family, or one that cannot be read.
    Other,
}

/// The observability rules of a core event, typed or read from one that
/// failed its schema (a member that cannot be read, `None`, is not
/// checked).
fn check_core_event(
    event_id: Option<&SchemaUuid>,
    event_type: Option<&str>,
    family: FamilyIds<'_>,
    report: &mut Report,
) {
    if let Some(id) = event_id {
        require_v4(id, "/event_id", OBS_EVENT_ID_IS_UUID, report);
    }
    if let Some(t) = event_type {
        require_non_blank(t, "/event_type", OBS_EVENT_TYPE_NON_EMPTY, report);
    }
    match family {
        FamilyIds::Graph(Some(id)) => {
            require_v4(id, "/graph_id", OBS_GRAPH_EVENT_HAS_GRAPH_ID, report);
        }
        FamilyIds::Runtime(Some(id)) => require_v4(
            id,
            "/execution_id",
            OBS_RUNTIME_EVENT_HAS_EXECUTION_ID,
            report,
        ),
        FamilyIds::Pipeline(id, stage) => {
            if let Some(id) = id {
                require_v4(
                    id,
                    "/pipeline_id",
                    OBS_PIPELINE_EVENT_HAS_PIPELINE_ID,
                    report,
                );
            }
            if let Some(stage) = stage {
                require_non_blank(stage, "/stage_id", OBS_PIPELINE_STAGE_ID_NON_EMPTY, report);
            }
        }
        _ => {}
    }
}
