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
use mplp_core::{Document, JsonObject, Timestamp, Wire};

use crate::payload::{PayloadRules, event_types, payload_struct};
use crate::rules;
use crate::{SaId, SchemaUuid};

event_types! {
    /// The eight SA event types (the schema's `event_type` enum).
    pub enum SaEventType;

    /// The typed payload of an [`SaEvent`]; the variant decides the event type.
    ///
    /// Event types without a typed payload keep it as an optional object.
    pub enum SaPayload;

    columns {
        /// The position of the event's lifecycle phase in the SA profile
        /// (initialize 0, load_context 1, evaluate_plan 2, execute_steps 3,
        /// emit_trace 4, complete 5).
        phase: u8,
    }

    rules = SA_PAYLOAD_RULES,
    check_tag = SaEventType::check_value;

    /// The SA instance was created (phase `initialize`).
    Initialized = "SAInitialized" => Option<JsonObject> { phase: 0 },
    /// The Context was bound (phase `load_context`).
    ContextLoaded = "SAContextLoaded" => Option<JsonObject> { phase: 1 },
    /// The Plan was parsed and its steps ordered (phase `evaluate_plan`).
    PlanEvaluated = "SAPlanEvaluated" => Option<JsonObject> { phase: 2 },
    /// A step started (phase `execute_steps`).
    StepStarted = "SAStepStarted" => StepStarted { phase: 3 },
    /// A step finished (phase `execute_steps`).
    StepCompleted = "SAStepCompleted" => StepCompleted { phase: 3 },
    /// A step failed (phase `execute_steps`; recommended).
    StepFailed = "SAStepFailed" => StepFailed { phase: 3 },
    /// The execution trace was finalized (phase `emit_trace`).
    TraceEmitted = "SATraceEmitted" => Option<JsonObject> { phase: 4 },
    /// The SA run ended (phase `complete`).
    Completed = "SACompleted" => Option<JsonObject> { phase: 5 },
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

impl SaPayload {
    /// The step this payload is about, for the step events.
    pub fn step_id(&self) -> Option<&SchemaUuid> {
        match self {
            SaPayload::StepStarted(p) => Some(&p.step_id),
            SaPayload::StepCompleted(p) => Some(&p.step_id),
            SaPayload::StepFailed(p) => Some(&p.step_id),
            _ => None,
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
    missing_why: "",
};

impl Document for SaEvent {
    const KIND: &'static str = "sa-event";
}
