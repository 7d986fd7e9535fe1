//! SA (Single-Agent Profile) events (`events/mplp-sa-event.schema.json`).
//!
//! ```
//! use mplp_core::{Document, StepId};
//! use mplp_events::sa::{SaEvent, SaEventType, StepOutcome};
//! use mplp_events::SaId;
//!
//! let agent = SaId::new();
//! let step = StepId::new();
//! let done = SaEvent::step_completed(agent.clone(), step, StepOutcome::Completed);
//! assert_eq!(done.event_type(), SaEventType::StepCompleted);
//! assert_eq!(SaEvent::from_json(done.to_json())?, done);
//! # Ok::<(), mplp_core::Error>(())
//! ```

use std::fmt;

use mplp_core::check::{CheckValue, ObjectCheck};
use mplp_core::{Document, JsonObject, Pointer, Report, Timestamp};
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::payload::{Key, PayloadRules, PayloadSlot, payload_struct, take};
use crate::rules;
use crate::{SaId, SchemaUuid};

mplp_core::wire_enum! {
    /// The eight SA event types (the schema's `event_type` enum).
    pub enum SaEventType {
        /// The SA instance was created (phase `initialize`).
        Initialized = "SAInitialized",
        /// The Context was bound (phase `load_context`).
        ContextLoaded = "SAContextLoaded",
        /// The Plan was parsed and its steps ordered (phase `evaluate_plan`).
        PlanEvaluated = "SAPlanEvaluated",
        /// A step started (phase `execute_steps`).
        StepStarted = "SAStepStarted",
        /// A step finished (phase `execute_steps`).
        StepCompleted = "SAStepCompleted",
        /// A step failed (phase `execute_steps`; recommended).
        StepFailed = "SAStepFailed",
        /// The execution trace was finalized (phase `emit_trace`).
        TraceEmitted = "SATraceEmitted",
        /// The SA run ended (phase `complete`).
        Completed = "SACompleted",
    }
}

impl SaEventType {
    /// The position of the event's lifecycle phase in the SA profile
    /// (initialize 0, load_context 1, evaluate_plan 2, execute_steps 3,
    /// emit_trace 4, complete 5).
    pub const fn phase(self) -> u8 {
        match self {
            SaEventType::Initialized => 0,
            SaEventType::ContextLoaded => 1,
            SaEventType::PlanEvaluated => 2,
            SaEventType::StepStarted | SaEventType::StepCompleted | SaEventType::StepFailed => 3,
            SaEventType::TraceEmitted => 4,
            SaEventType::Completed => 5,
        }
    }

    /// The payload members the SDK requires for this type.
    pub const fn required_payload_fields(self) -> &'static [&'static str] {
        match self {
            SaEventType::StepStarted | SaEventType::StepFailed => &["step_id"],
            SaEventType::StepCompleted => &["step_id", "status"],
            _ => &[],
        }
    }
}

mplp_core::wire_enum! {
    /// The `status` of `SAStepCompleted` (the schema's `step_completed_payload`).
    pub enum StepOutcome {
        /// The step succeeded.
        Completed = "completed",
        /// The step failed.
        Failed = "failed",
    }
}

payload_struct! {
    /// Payload of `SAStepStarted` (the schema's `step_started_payload`).
    pub struct StepStarted {
        required {
            /// The Plan step started (`format: uuid`).
            step_id: SchemaUuid,
        }
        optional {
            /// The role the agent plays for this step.
            agent_role: String,
            /// What the step does, for people.
            description: String,
        }
    }
}

payload_struct! {
    /// Payload of `SAStepCompleted` (the schema's `step_completed_payload`).
    pub struct StepCompleted {
        required {
            /// The Plan step finished (`format: uuid`).
            step_id: SchemaUuid,
            /// How it ended.
            status: StepOutcome,
        }
        optional {
            /// What the step produced.
            result: JsonObject,
        }
    }
}

payload_struct! {
    /// Payload of `SAStepFailed` (no schema definition; the SDK requires the step).
    pub struct StepFailed {
        required {
            /// The Plan step that failed (`format: uuid`).
            step_id: SchemaUuid,
        }
        optional {}
    }
}

/// The typed payload of an [`SaEvent`]; the variant decides the event type.
///
/// Event types without a typed payload keep it as an optional object.
#[derive(Clone, Debug, PartialEq)]
pub enum SaPayload {
    /// `SAInitialized`.
    Initialized(Option<JsonObject>),
    /// `SAContextLoaded`.
    ContextLoaded(Option<JsonObject>),
    /// `SAPlanEvaluated`.
    PlanEvaluated(Option<JsonObject>),
    /// `SAStepStarted`.
    StepStarted(StepStarted),
    /// `SAStepCompleted`.
    StepCompleted(StepCompleted),
    /// `SAStepFailed`.
    StepFailed(StepFailed),
    /// `SATraceEmitted`.
    TraceEmitted(Option<JsonObject>),
    /// `SACompleted`.
    Completed(Option<JsonObject>),
}

impl SaPayload {
    /// The event type this payload belongs to.
    pub const fn event_type(&self) -> SaEventType {
        match self {
            SaPayload::Initialized(_) => SaEventType::Initialized,
            SaPayload::ContextLoaded(_) => SaEventType::ContextLoaded,
            SaPayload::PlanEvaluated(_) => SaEventType::PlanEvaluated,
            SaPayload::StepStarted(_) => SaEventType::StepStarted,
            SaPayload::StepCompleted(_) => SaEventType::StepCompleted,
            SaPayload::StepFailed(_) => SaEventType::StepFailed,
            SaPayload::TraceEmitted(_) => SaEventType::TraceEmitted,
            SaPayload::Completed(_) => SaEventType::Completed,
        }
    }

    /// The step this payload is about, for the step events.
    pub fn step_id(&self) -> Option<&SchemaUuid> {
        match self {
            SaPayload::StepStarted(p) => Some(&p.step_id),
            SaPayload::StepCompleted(p) => Some(&p.step_id),
            SaPayload::StepFailed(p) => Some(&p.step_id),
            _ => None,
        }
    }

    fn is_present(&self) -> bool {
        match self {
            SaPayload::Initialized(p)
            | SaPayload::ContextLoaded(p)
            | SaPayload::PlanEvaluated(p)
            | SaPayload::TraceEmitted(p)
            | SaPayload::Completed(p) => p.is_some(),
            _ => true,
        }
    }

    fn absent<E: de::Error>(t: SaEventType) -> Result<Self, E> {
        Ok(match t {
            SaEventType::Initialized => SaPayload::Initialized(None),
            SaEventType::ContextLoaded => SaPayload::ContextLoaded(None),
            SaEventType::PlanEvaluated => SaPayload::PlanEvaluated(None),
            SaEventType::TraceEmitted => SaPayload::TraceEmitted(None),
            SaEventType::Completed => SaPayload::Completed(None),
            _ => return Err(mplp_core::de::missing_member("payload")),
        })
    }
}

impl Serialize for SaPayload {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SaPayload::Initialized(p)
            | SaPayload::ContextLoaded(p)
            | SaPayload::PlanEvaluated(p)
            | SaPayload::TraceEmitted(p)
            | SaPayload::Completed(p) => p.serialize(s),
            SaPayload::StepStarted(p) => p.serialize(s),
            SaPayload::StepCompleted(p) => p.serialize(s),
            SaPayload::StepFailed(p) => p.serialize(s),
        }
    }
}

struct PayloadSeed(SaEventType);

impl<'de> DeserializeSeed<'de> for PayloadSeed {
    type Value = SaPayload;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<SaPayload, D::Error> {
        Ok(match self.0 {
            SaEventType::Initialized => SaPayload::Initialized(Some(JsonObject::deserialize(d)?)),
            SaEventType::ContextLoaded => {
                SaPayload::ContextLoaded(Some(JsonObject::deserialize(d)?))
            }
            SaEventType::PlanEvaluated => {
                SaPayload::PlanEvaluated(Some(JsonObject::deserialize(d)?))
            }
            SaEventType::StepStarted => SaPayload::StepStarted(StepStarted::deserialize(d)?),
            SaEventType::StepCompleted => SaPayload::StepCompleted(StepCompleted::deserialize(d)?),
            SaEventType::StepFailed => SaPayload::StepFailed(StepFailed::deserialize(d)?),
            SaEventType::TraceEmitted => SaPayload::TraceEmitted(Some(JsonObject::deserialize(d)?)),
            SaEventType::Completed => SaPayload::Completed(Some(JsonObject::deserialize(d)?)),
        })
    }
}

/// One SA event (`events/mplp-sa-event.schema.json`).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SaEvent {
    /// UUID naming this event (`format: uuid`).
    pub event_id: SchemaUuid,
    /// RFC 3339 date-time at which the event happened.
    pub timestamp: Timestamp,
    /// The single-agent instance that emitted the event.
    pub sa_id: SaId,
    /// The Context the agent is running in.
    pub context_id: Option<SchemaUuid>,
    /// The Plan the agent is carrying out.
    pub plan_id: Option<SchemaUuid>,
    /// The Trace that records the event.
    pub trace_id: Option<SchemaUuid>,
    /// The typed payload (which also gives the event type).
    pub payload: SaPayload,
}

impl SaEvent {
    /// The envelope members, in the order they are written.
    pub const FIELDS: &'static [&'static str] = &[
        "event_id",
        "event_type",
        "timestamp",
        "sa_id",
        "context_id",
        "plan_id",
        "trace_id",
        "payload",
    ];

    /// An event with a fresh event id (lowercase UUID v4) and the current time.
    pub fn new(sa_id: SaId, payload: SaPayload) -> Self {
        SaEvent {
            event_id: SchemaUuid::new(),
            timestamp: Timestamp::now(),
            sa_id,
            context_id: None,
            plan_id: None,
            trace_id: None,
            payload,
        }
    }

    /// `SAInitialized`, without payload.
    pub fn initialized(sa_id: SaId) -> Self {
        Self::new(sa_id, SaPayload::Initialized(None))
    }

    /// `SAStepStarted` for a step.
    pub fn step_started(sa_id: SaId, step_id: impl Into<SchemaUuid>) -> Self {
        Self::new(
            sa_id,
            SaPayload::StepStarted(StepStarted::new(step_id.into())),
        )
    }

    /// `SAStepCompleted` for a step, with its outcome.
    pub fn step_completed(
        sa_id: SaId,
        step_id: impl Into<SchemaUuid>,
        status: StepOutcome,
    ) -> Self {
        Self::new(
            sa_id,
            SaPayload::StepCompleted(StepCompleted::new(step_id.into(), status)),
        )
    }

    /// `SAStepFailed` for a step.
    pub fn step_failed(sa_id: SaId, step_id: impl Into<SchemaUuid>) -> Self {
        Self::new(
            sa_id,
            SaPayload::StepFailed(StepFailed::new(step_id.into())),
        )
    }

    /// `SACompleted`, without payload.
    pub fn completed(sa_id: SaId) -> Self {
        Self::new(sa_id, SaPayload::Completed(None))
    }

    /// The same event bound to a Context, Plan and Trace (each optional).
    #[must_use]
    pub fn with_bindings(
        mut self,
        context_id: Option<SchemaUuid>,
        plan_id: Option<SchemaUuid>,
        trace_id: Option<SchemaUuid>,
    ) -> Self {
        self.context_id = context_id;
        self.plan_id = plan_id;
        self.trace_id = trace_id;
        self
    }

    /// The event type (from the payload variant).
    pub const fn event_type(&self) -> SaEventType {
        self.payload.event_type()
    }
}

impl Serialize for SaEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("event_id", &self.event_id)?;
        m.serialize_entry("event_type", &self.event_type())?;
        m.serialize_entry("timestamp", &self.timestamp)?;
        m.serialize_entry("sa_id", &self.sa_id)?;
        if let Some(v) = &self.context_id {
            m.serialize_entry("context_id", v)?;
        }
        if let Some(v) = &self.plan_id {
            m.serialize_entry("plan_id", v)?;
        }
        if let Some(v) = &self.trace_id {
            m.serialize_entry("trace_id", v)?;
        }
        if self.payload.is_present() {
            m.serialize_entry("payload", &self.payload)?;
        }
        m.end()
    }
}

struct SaEventVisitor;

impl<'de> Visitor<'de> for SaEventVisitor {
    type Value = SaEvent;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an SA event object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SaEvent, A::Error> {
        let mut event_id = None;
        let mut event_type: Option<SaEventType> = None;
        let mut timestamp = None;
        let mut sa_id = None;
        let mut context_id = None;
        let mut plan_id = None;
        let mut trace_id = None;
        let mut payload = PayloadSlot::Empty;
        while let Some(Key(key)) = map.next_key()? {
            match key.as_ref() {
                "event_id" => take(&mut event_id, &mut map, "event_id")?,
                "event_type" => take(&mut event_type, &mut map, "event_type")?,
                "timestamp" => take(&mut timestamp, &mut map, "timestamp")?,
                "sa_id" => take(&mut sa_id, &mut map, "sa_id")?,
                "context_id" => take(&mut context_id, &mut map, "context_id")?,
                "plan_id" => take(&mut plan_id, &mut map, "plan_id")?,
                "trace_id" => take(&mut trace_id, &mut map, "trace_id")?,
                "payload" => payload.read(&mut map, event_type.map(PayloadSeed))?,
                other => return Err(mplp_core::de::unknown_member(other, SaEvent::FIELDS)),
            }
        }
        let event_type = event_type.ok_or_else(|| mplp_core::de::missing_member("event_type"))?;
        let payload = payload.finish(PayloadSeed(event_type), || SaPayload::absent(event_type))?;
        Ok(SaEvent {
            event_id: event_id.ok_or_else(|| mplp_core::de::missing_member("event_id"))?,
            timestamp: timestamp.ok_or_else(|| mplp_core::de::missing_member("timestamp"))?,
            sa_id: sa_id.ok_or_else(|| mplp_core::de::missing_member("sa_id"))?,
            context_id,
            plan_id,
            trace_id,
            payload,
        })
    }
}

impl<'de> Deserialize<'de> for SaEvent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(SaEventVisitor)
    }
}

const SA_PAYLOAD_RULES: PayloadRules = PayloadRules {
    required: rules::SA_PAYLOAD_REQUIRED,
    type_: rules::SA_PAYLOAD_TYPE,
    enum_: rules::SA_PAYLOAD_ENUM,
    format: rules::SA_PAYLOAD_FORMAT,
};

fn check_sa_payload(t: SaEventType, payload: Option<&Value>, at: &Pointer, report: &mut Report) {
    let at = at.key("payload");
    let Some(payload) = payload else {
        SA_PAYLOAD_RULES.missing_payload(t, t.required_payload_fields(), "", &at, report);
        return;
    };
    if !payload.is_object() {
        return;
    }
    let mut sub = Report::new();
    match t {
        SaEventType::StepStarted => <StepStarted as CheckValue>::check_value(payload, &at, &mut sub),
        SaEventType::StepCompleted => <StepCompleted as CheckValue>::check_value(payload, &at, &mut sub),
        SaEventType::StepFailed => <StepFailed as CheckValue>::check_value(payload, &at, &mut sub),
        _ => {}
    }
    SA_PAYLOAD_RULES.push_remapped(sub, report);
}

impl CheckValue for SaEvent {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        let Some(mut o) = ObjectCheck::new(value, at, report) else {
            return;
        };
        o.required::<SchemaUuid>("event_id");
        let event_type = o.required::<SaEventType>("event_type");
        o.required::<Timestamp>("timestamp");
        o.required::<SaId>("sa_id");
        o.optional::<SchemaUuid>("context_id");
        o.optional::<SchemaUuid>("plan_id");
        o.optional::<SchemaUuid>("trace_id");
        let payload = o.optional::<JsonObject>("payload");
        o.deny_unknown();
        if let Some(t) = event_type
            .and_then(Value::as_str)
            .and_then(SaEventType::from_wire)
        {
            check_sa_payload(t, payload, at, report);
        }
    }
}

// The envelope is read by a hand-written visitor (the payload's type depends
// on `event_type`, which may come after it); `Wire` exposes it like the
// derived objects.
impl mplp_core::Wire for SaEvent {
    const NAME: &'static str = "SaEvent";
    const FIELDS: &'static [&'static str] = SaEvent::FIELDS;
    const REQUIRED: &'static [&'static str] = &["event_id", "event_type", "timestamp", "sa_id"];
    fn deserialize_unchecked<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <Self as Deserialize>::deserialize(d)
    }
}

impl Document for SaEvent {
    const KIND: &'static str = "sa-event";
}
