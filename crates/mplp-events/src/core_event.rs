//! Observability events of the event taxonomy (`events/mplp-event-core.schema.json`
//! and the family schemas).
//!
//! The generic core envelope allows additional members: a [`CoreEvent`]
//! keeps them, in order, in [`CoreEvent::extensions`]. The three families
//! with their own schema get typed fields ([`CoreBody`]).

use std::fmt;

use mplp_core::check::{CheckValue, ObjectCheck};
use mplp_core::{Document, JsonObject, Pointer, Report, StrictValue, Timestamp};
use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::SchemaUuid;
use crate::payload::Key;

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

/// The fields of a `graph_update` event (`mplp-graph-update-event.schema.json`).
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct RuntimeExecution {
    /// UUID of the execution reported on.
    pub execution_id: SchemaUuid,
    /// What kind of executor does the work.
    pub executor_kind: ExecutorKind,
    /// Role name of the executor, for example `reviewer`.
    pub executor_role: Option<String>,
    /// State of the execution.
    pub status: ExecutionStatus,
}

/// The fields of a `pipeline_stage` event (`mplp-pipeline-stage-event.schema.json`).
#[derive(Clone, Debug, PartialEq)]
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

/// Top-level members that no schema names (`additionalProperties: true` in
/// the core schema): kept in their order and written back after the known ones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extensions(Vec<(String, Value)>);

impl Extensions {
    /// No extensions.
    pub fn new() -> Self {
        Extensions(Vec::new())
    }

    /// The value of an extension member.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Sets a member (replacing it in place, or appending it); returns the old value.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Value>) -> Option<Value> {
        let key = key.into();
        let value = value.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => Some(std::mem::replace(v, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    /// The members, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

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
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CoreEvent {
    /// UUID naming this event (`format: uuid`).
    pub event_id: SchemaUuid,
    /// Finer-grained name within the family, e.g. `pipeline_stage_completed`.
    pub event_type: String,
    /// RFC 3339 date-time at which the event happened.
    pub timestamp: Timestamp,
    /// UUID of the project the event concerns.
    pub project_id: Option<SchemaUuid>,
    /// Family-specific event data.
    pub payload: Option<JsonObject>,
    /// The family, with its own fields for the three families with a schema.
    pub body: CoreBody,
    /// Every other top-level member, in order.
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
            payload: None,
            body,
            extensions: Extensions::new(),
        }
    }

    /// The `event_family`.
    pub fn family(&self) -> CoreFamily {
        self.body.family()
    }
}

pub(crate) const CORE_FIELDS: &[&str] = &[
    "event_id",
    "event_type",
    "event_family",
    "timestamp",
    "project_id",
    "payload",
];

pub(crate) fn family_fields(f: CoreFamily) -> &'static [&'static str] {
    match f {
        CoreFamily::GraphUpdate => &[
            "graph_id",
            "update_kind",
            "node_delta",
            "edge_delta",
            "source_module",
        ],
        CoreFamily::RuntimeExecution => {
            &["execution_id", "executor_kind", "executor_role", "status"]
        }
        CoreFamily::PipelineStage => &[
            "pipeline_id",
            "stage_id",
            "stage_name",
            "stage_status",
            "stage_order",
        ],
        _ => &[],
    }
}

impl Serialize for CoreEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("event_id", &self.event_id)?;
        m.serialize_entry("event_type", &self.event_type)?;
        m.serialize_entry("event_family", &self.family())?;
        m.serialize_entry("timestamp", &self.timestamp)?;
        if let Some(p) = &self.project_id {
            m.serialize_entry("project_id", p)?;
        }
        match &self.body {
            CoreBody::GraphUpdate(g) => {
                m.serialize_entry("graph_id", &g.graph_id)?;
                m.serialize_entry("update_kind", &g.update_kind)?;
                m.serialize_entry("node_delta", &g.node_delta)?;
                m.serialize_entry("edge_delta", &g.edge_delta)?;
                if let Some(v) = &g.source_module {
                    m.serialize_entry("source_module", v)?;
                }
            }
            CoreBody::RuntimeExecution(r) => {
                m.serialize_entry("execution_id", &r.execution_id)?;
                m.serialize_entry("executor_kind", &r.executor_kind)?;
                if let Some(v) = &r.executor_role {
                    m.serialize_entry("executor_role", v)?;
                }
                m.serialize_entry("status", &r.status)?;
            }
            CoreBody::PipelineStage(p) => {
                m.serialize_entry("pipeline_id", &p.pipeline_id)?;
                m.serialize_entry("stage_id", &p.stage_id)?;
                if let Some(v) = &p.stage_name {
                    m.serialize_entry("stage_name", v)?;
                }
                m.serialize_entry("stage_status", &p.stage_status)?;
                if let Some(v) = &p.stage_order {
                    m.serialize_entry("stage_order", v)?;
                }
            }
            CoreBody::Generic(_) => {}
        }
        if let Some(p) = &self.payload {
            m.serialize_entry("payload", p)?;
        }
        let family = family_fields(self.family());
        for (k, v) in self.extensions.iter() {
            if !CORE_FIELDS.contains(&k) && !family.contains(&k) {
                m.serialize_entry(k, v)?;
            }
        }
        m.end()
    }
}

/// The members of an object in order, refusing duplicate keys.
struct Entries(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an event object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut v: Vec<(String, Value)> = Vec::new();
                while let Some(Key(k)) = map.next_key()? {
                    if v.iter().any(|(x, _)| *x == k) {
                        return Err(de::Error::custom(format_args!(
                            "duplicate key `{k}`: an object must not name a key twice"
                        )));
                    }
                    let StrictValue(value) = map.next_value()?;
                    v.push((k.into_owned(), value));
                }
                Ok(Entries(v))
            }
        }
        d.deserialize_map(V)
    }
}

fn take_field<T: DeserializeOwned, E: de::Error>(
    entries: &mut Vec<(String, Value)>,
    key: &'static str,
) -> Result<Option<T>, E> {
    match entries.iter().position(|(k, _)| k == key) {
        None => Ok(None),
        Some(i) => {
            let (_, v) = entries.remove(i);
            T::deserialize(v)
                .map(Some)
                .map_err(|e| E::custom(format_args!("`{key}`: {e}")))
        }
    }
}

fn need<T, E: de::Error>(v: Option<T>, key: &'static str) -> Result<T, E> {
    v.ok_or_else(|| E::missing_field(key))
}

fn integer<E: de::Error>(v: Option<Value>, key: &'static str) -> Result<Option<Value>, E> {
    // `integer` fields refuse fractions, as mplp-core's check does.
    match &v {
        Some(Value::Number(n)) if !(n.is_i64() || n.is_u64()) => Err(E::custom(format_args!(
            "`{key}`: expected an integer written without a fraction or exponent"
        ))),
        _ => Ok(v),
    }
}

impl<'de> Deserialize<'de> for CoreEvent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Entries(mut e) = Entries::deserialize(d)?;
        let event_id = need(
            take_field::<SchemaUuid, D::Error>(&mut e, "event_id")?,
            "event_id",
        )?;
        let event_type = need(
            take_field::<String, D::Error>(&mut e, "event_type")?,
            "event_type",
        )?;
        let family = need(
            take_field::<CoreFamily, D::Error>(&mut e, "event_family")?,
            "event_family",
        )?;
        let timestamp = need(
            take_field::<Timestamp, D::Error>(&mut e, "timestamp")?,
            "timestamp",
        )?;
        let project_id = take_field::<SchemaUuid, D::Error>(&mut e, "project_id")?;
        let payload = take_field::<JsonObject, D::Error>(&mut e, "payload")?;
        let body = match family {
            CoreFamily::GraphUpdate => {
                for k in ["node_delta", "edge_delta"] {
                    let v = e.iter().find(|(x, _)| x == k).map(|(_, v)| v.clone());
                    integer::<D::Error>(v, k)?;
                }
                CoreBody::GraphUpdate(GraphUpdate {
                    graph_id: need(take_field(&mut e, "graph_id")?, "graph_id")?,
                    update_kind: need(take_field(&mut e, "update_kind")?, "update_kind")?,
                    node_delta: need(take_field(&mut e, "node_delta")?, "node_delta")?,
                    edge_delta: need(take_field(&mut e, "edge_delta")?, "edge_delta")?,
                    source_module: take_field(&mut e, "source_module")?,
                })
            }
            CoreFamily::RuntimeExecution => CoreBody::RuntimeExecution(RuntimeExecution {
                execution_id: need(take_field(&mut e, "execution_id")?, "execution_id")?,
                executor_kind: need(take_field(&mut e, "executor_kind")?, "executor_kind")?,
                executor_role: take_field(&mut e, "executor_role")?,
                status: need(take_field(&mut e, "status")?, "status")?,
            }),
            CoreFamily::PipelineStage => {
                let v = e
                    .iter()
                    .find(|(x, _)| x == "stage_order")
                    .map(|(_, v)| v.clone());
                integer::<D::Error>(v, "stage_order")?;
                CoreBody::PipelineStage(PipelineStage {
                    pipeline_id: need(take_field(&mut e, "pipeline_id")?, "pipeline_id")?,
                    stage_id: need(take_field(&mut e, "stage_id")?, "stage_id")?,
                    stage_name: take_field(&mut e, "stage_name")?,
                    stage_status: need(take_field(&mut e, "stage_status")?, "stage_status")?,
                    stage_order: take_field(&mut e, "stage_order")?,
                })
            }
            other => match GenericFamily::from_wire(other.as_str()) {
                Some(g) => CoreBody::Generic(g),
                None => return Err(de::Error::custom("unreachable family")),
            },
        };
        Ok(CoreEvent {
            event_id,
            event_type,
            timestamp,
            project_id,
            payload,
            body,
            extensions: Extensions(e),
        })
    }
}

impl CheckValue for CoreEvent {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        let Some(mut o) = ObjectCheck::new(value, at, report) else {
            return;
        };
        o.required::<SchemaUuid>("event_id");
        o.required::<String>("event_type");
        let family = o.required::<CoreFamily>("event_family");
        o.required::<Timestamp>("timestamp");
        o.optional::<SchemaUuid>("project_id");
        o.optional::<JsonObject>("payload");
        let int = |min: Option<i64>| {
            move |v: &Value, at: &Pointer, r: &mut Report| {
                mplp_core::check::check_integer(v, at, r, min);
                if let Some(n) = v.as_u64() {
                    if n > i64::MAX as u64 && min.is_none() {
                        mplp_core::check::type_error(v, at, r, "an integer that fits in 64 bits");
                    }
                }
            }
        };
        match family
            .and_then(Value::as_str)
            .and_then(CoreFamily::from_wire)
        {
            Some(CoreFamily::GraphUpdate) => {
                o.required::<SchemaUuid>("graph_id");
                o.required::<UpdateKind>("update_kind");
                o.required_with("node_delta", int(None));
                o.required_with("edge_delta", int(None));
                o.optional::<String>("source_module");
            }
            Some(CoreFamily::RuntimeExecution) => {
                o.required::<SchemaUuid>("execution_id");
                o.required::<ExecutorKind>("executor_kind");
                o.optional::<String>("executor_role");
                o.required::<ExecutionStatus>("status");
            }
            Some(CoreFamily::PipelineStage) => {
                o.required::<SchemaUuid>("pipeline_id");
                o.required::<String>("stage_id");
                o.optional::<String>("stage_name");
                o.required::<StageStatus>("stage_status");
                o.optional_with("stage_order", int(Some(0)));
            }
            _ => {}
        }
        o.allow_unknown();
    }
}

// The envelope is read by a hand-written visitor (the payload's type depends
// on `event_type`, which may come after it); `Wire` exposes it like the
// derived objects.
impl mplp_core::Wire for CoreEvent {
    const NAME: &'static str = "CoreEvent";
    const FIELDS: &'static [&'static str] = CORE_FIELDS;
    const REQUIRED: &'static [&'static str] =
        &["event_id", "event_family", "event_type", "timestamp"];
    fn deserialize_unchecked<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <Self as Deserialize>::deserialize(d)
    }
}

impl Document for CoreEvent {
    const KIND: &'static str = "event";
}
