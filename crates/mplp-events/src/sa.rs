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

use mplp_core::check::CheckValue;
use mplp_core::{Document, JsonObject, Pointer, Report, Timestamp, Wire};
use serde::de;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::payload::{PayloadRules, payload_struct};
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
            _ => return Err(mplp_json::de::missing_member("payload")),
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

impl mplp_core::wire::Tagged for SaPayload {
    type Tag = SaEventType;

    fn tag(&self) -> SaEventType {
        self.event_type()
    }

    fn is_present(&self) -> bool {
        SaPayload::is_present(self)
    }

    fn deserialize_tagged<'de, D: Deserializer<'de>>(
        tag: SaEventType,
        d: D,
    ) -> Result<Self, D::Error> {
        Ok(match tag {
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

    fn absent<E: de::Error>(tag: SaEventType) -> Result<Self, E> {
        SaPayload::absent(tag)
    }

    fn check_tag(value: &Value, at: &Pointer, report: &mut Report) {
        SaEventType::check_value(value, at, report);
    }

    fn check_member(value: &Value, at: &Pointer, report: &mut Report) {
        JsonObject::check_value(value, at, report);
    }

    fn check_payload(tag: &Value, payload: Option<&Value>, at: &Pointer, report: &mut Report) {
        if let Some(t) = tag.as_str().and_then(SaEventType::from_wire) {
            check_sa_payload(t, payload, at, report);
        }
    }
}

/// One SA event (`events/mplp-sa-event.schema.json`).
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document, tag = "event_type", tag_after = "event_id")]
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
    /// The typed payload (which also gives the event type, written as the
    /// `event_type` member).
    #[wire(tagged)]
    pub payload: SaPayload,
}

impl SaEvent {
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
        SaEventType::StepStarted => {
            <StepStarted as CheckValue>::check_value(payload, &at, &mut sub)
        }
        SaEventType::StepCompleted => {
            <StepCompleted as CheckValue>::check_value(payload, &at, &mut sub)
        }
        SaEventType::StepFailed => <StepFailed as CheckValue>::check_value(payload, &at, &mut sub),
        _ => {}
    }
    SA_PAYLOAD_RULES.push_remapped(sub, report);
}

impl Document for SaEvent {
    const KIND: &'static str = "sa-event";
}
