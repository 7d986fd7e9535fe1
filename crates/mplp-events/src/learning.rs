//! Learning samples: what an MPLP runtime records from its execution
//! history to learn from (`learning/mplp-learning-sample-*.schema.json`
//! and `common/learning-sample.schema.json`).
//!
//! - [`LearningSample`] (kind `learning-sample`): the family-typed sample of
//!   the learning taxonomy. `sample_family` decides the types of `input`,
//!   `state`, `output` and `meta` ([`SampleBody`]): `intent_resolution`
//!   (`mplp-learning-sample-intent`) and `delta_impact`
//!   (`mplp-learning-sample-delta`) have schemas of their own; every other
//!   family (`pipeline_outcome`, `confirm_decision`, ... or one of a
//!   runtime's own) uses the core schema, with free-form sections. The
//!   sample and its sections are open objects: unknown members are kept.
//! - [`CommonLearningSample`] (kind `common-learning-sample`): the
//!   structured sample of `common/learning-sample.schema.json` (success
//!   flag, token usage, feedback, timestamps), a closed object.
//!
//! The invariants of `learning-invariants.yaml` are rules of
//! [`crate::rules`] (`learning_*`); those stricter than the schemas (a
//! version 4 `sample_id`, non-blank `sample_family`, `meta.source_flow_id`,
//! `input.intent_id`, `input.delta_id`) are checked by
//! [`Document::check_rules`].
//!
//! ```
//! use mplp_core::Document;
//! use mplp_events::learning::{LearningSample, SampleBody};
//!
//! let json = r#"{
//!   "sample_id": "0f8b8a53-5a43-4b8e-9f0a-1c2d3e4f5a6b",
//!   "sample_family": "intent_resolution",
//!   "created_at": "2025-12-01T10:00:00Z",
//!   "input": {"intent_id": "intent-42", "raw_request_summary": "Add a login page"},
//!   "output": {"final_intent_summary": "Login page with OAuth", "resolution_quality_label": "good"}
//! }"#;
//! let sample = LearningSample::from_json(json)?;
//! let SampleBody::IntentResolution(intent) = &sample.body else { panic!("typed by its family") };
//! assert_eq!(intent.input.intent_id, "intent-42");
//!
//! // The intent family needs `input.intent_id`: the family's schema says so,
//! // and states the frozen invariant, whose id the violation carries.
//! let err = LearningSample::from_json(json.replace(r#""intent_id": "intent-42", "#, "")).unwrap_err();
//! assert!(err.violations().iter().any(|v| v.pointer == "/input/intent_id"
//!     && v.rule.as_str() == "learning_intent_has_intent_id"
//!     && v.schema_keyword() == Some("required")));
//! # Ok::<(), mplp_core::Error>(())
//! ```

use std::fmt;

use mplp_core::check::{CheckValue, expect_str};
use mplp_core::wire::{Flattened, SerializeMembers, pick_members, take_members_exact};
use mplp_core::{Document, JsonObject, Pointer, Report, Timestamp, Wire};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::SchemaUuid;
use crate::core_event::{require_non_blank, require_v4};
use crate::formats::{NonNegative, Rating, UnitInterval};
use crate::rules::*;

/// `sample_family` of a learning sample: any string (the taxonomy names
/// six families; runtimes may add their own). The invariant
/// `learning_sample_family_non_empty` wants it non-blank.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SampleFamily(String);

impl SampleFamily {
    /// `intent_resolution` (schema `mplp-learning-sample-intent`).
    pub const INTENT_RESOLUTION: &'static str = "intent_resolution";
    /// `delta_impact` (schema `mplp-learning-sample-delta`).
    pub const DELTA_IMPACT: &'static str = "delta_impact";
    /// The six families of the learning taxonomy.
    pub const KNOWN: [&'static str; 6] = [
        "intent_resolution",
        "delta_impact",
        "pipeline_outcome",
        "confirm_decision",
        "graph_evolution",
        "multi_agent_coordination",
    ];

    /// A family name.
    pub fn new(name: impl Into<String>) -> Self {
        SampleFamily(name.into())
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SampleFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl CheckValue for SampleFamily {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        expect_str(value, at, report);
    }
}

mplp_core::__schemars_string!(SampleFamily, { "type": "string" });

mplp_core::wire_enum! {
    /// `meta.human_feedback_label`: a person's verdict on the sample.
    pub enum FeedbackLabel {
        /// Approved.
        Approved = "approved",
        /// Rejected.
        Rejected = "rejected",
        /// Not reviewed yet.
        NotReviewed = "not_reviewed",
    }
}

mplp_core::wire_enum! {
    /// `output.resolution_quality_label` of an intent resolution sample.
    pub enum QualityLabel {
        /// Good.
        Good = "good",
        /// Acceptable.
        Acceptable = "acceptable",
        /// Bad.
        Bad = "bad",
        /// Not known.
        Unknown = "unknown",
    }
}

mplp_core::wire_enum! {
    /// `input.delta_type` of a delta impact sample.
    pub enum DeltaType {
        /// A refinement.
        Refinement = "refinement",
        /// A correction.
        Correction = "correction",
        /// An expansion.
        Expansion = "expansion",
        /// A reduction.
        Reduction = "reduction",
        /// A change of direction.
        Pivot = "pivot",
    }
}

mplp_core::wire_enum! {
    /// `state.risk_level` of a delta impact sample.
    pub enum RiskLevel {
        /// Low.
        Low = "low",
        /// Medium.
        Medium = "medium",
        /// High.
        High = "high",
        /// Critical.
        Critical = "critical",
    }
}

mplp_core::wire_enum! {
    /// `output.impact_scope` of a delta impact sample.
    pub enum ImpactScope {
        /// One place.
        Local = "local",
        /// One module.
        Module = "module",
        /// The system.
        System = "system",
        /// Beyond the system.
        Global = "global",
    }
}

mplp_core::wire_enum! {
    /// `meta.predicted_vs_actual_accuracy` of a delta impact sample.
    pub enum PredictionAccuracy {
        /// The prediction was right.
        Accurate = "accurate",
        /// The impact was larger than predicted.
        Underestimated = "underestimated",
        /// The impact was smaller than predicted.
        Overestimated = "overestimated",
    }
}

/// Declares a `meta` section: the core schema's five members, the family's
/// own, and the other members kept (the section is an open object).
macro_rules! sample_meta {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $f:ident : $t:ty,)* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, Default, PartialEq, Wire)]
        #[non_exhaustive]
        pub struct $name {
            /// The flow that produced the sample, e.g. `FLOW-01`.
            pub source_flow_id: Option<String>,
            /// Observability events the sample refers to (`format: uuid`).
            pub source_event_ids: Option<Vec<SchemaUuid>>,
            /// The project (`format: uuid`).
            pub project_id: Option<SchemaUuid>,
            /// A person's verdict.
            pub human_feedback_label: Option<FeedbackLabel>,
            /// An automated quality score from 0 to 1.
            pub quality_score: Option<UnitInterval>,
            $($(#[$fm])* pub $f: $t,)*
            /// Every other member.
            #[wire(extra)]
            pub extra: JsonObject,
        }
    };
}

sample_meta!(
    /// `meta` of a sample of a family with no schema of its own.
    SampleMeta {}
);

sample_meta!(
    /// `meta` of an intent resolution sample.
    IntentMeta {
        /// Clarification rounds before the intent was resolved.
        clarification_rounds: Option<u64>,
        /// Kinds of ambiguity found, e.g. `vague_scope`.
        ambiguity_flags: Option<Vec<String>>,
    }
);

sample_meta!(
    /// `meta` of a delta impact sample.
    DeltaMeta {
        /// Time spent on the impact analysis, in milliseconds.
        impact_analysis_duration_ms: Option<u64>,
        /// How the predicted impact compared with the actual one.
        predicted_vs_actual_accuracy: Option<PredictionAccuracy>,
    }
);

/// `input` of an intent resolution sample.
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct IntentInput {
    /// The intent (from an intent event or a plan's intent model).
    pub intent_id: String,
    /// The request, summarised (and scrubbed of personal data).
    pub raw_request_summary: String,
    /// Constraints named in the request.
    pub constraints_summary: Option<String>,
    /// Dialog turns before the intent was resolved.
    pub dialog_turns_count: Option<u64>,
    /// Every other member.
    #[wire(extra)]
    pub extra: JsonObject,
}

/// `state` of an intent resolution sample.
#[derive(Clone, Debug, Default, PartialEq, Wire)]
#[non_exhaustive]
pub struct IntentState {
    /// The project's phase, e.g. `greenfield`.
    pub project_phase: Option<String>,
    /// PSG size before the intent was applied.
    pub psg_node_count: Option<u64>,
    /// Plans already in the context.
    pub existing_plan_count: Option<u64>,
    /// Every other member.
    #[wire(extra)]
    pub extra: JsonObject,
}

/// `output` of an intent resolution sample.
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct IntentOutput {
    /// The intent after clarification.
    pub final_intent_summary: String,
    /// The plan generated, if any (`format: uuid`).
    pub plan_id: Option<SchemaUuid>,
    /// Steps of the generated plan.
    pub plan_step_count: Option<u64>,
    /// How good the resolution was.
    pub resolution_quality_label: Option<QualityLabel>,
    /// Every other member.
    #[wire(extra)]
    pub extra: JsonObject,
}

/// `input` of a delta impact sample.
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct DeltaInput {
    /// The delta intent.
    pub delta_id: String,
    /// The intent it changes.
    pub intent_id: String,
    /// What sort of change it is.
    pub delta_type: Option<DeltaType>,
    /// The change, summarised.
    pub change_summary: String,
    /// Every other member.
    #[wire(extra)]
    pub extra: JsonObject,
}

/// `state` of a delta impact sample.
#[derive(Clone, Debug, Default, PartialEq, Wire)]
#[non_exhaustive]
pub struct DeltaState {
    /// Artifacts the change may affect.
    pub affected_artifact_count: Option<u64>,
    /// The risk assessed before the change.
    pub risk_level: Option<RiskLevel>,
    /// A PSG complexity metric before the change.
    pub psg_complexity_score: Option<NonNegative>,
    /// Every other member.
    #[wire(extra)]
    pub extra: JsonObject,
}

/// `output` of a delta impact sample.
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct DeltaOutput {
    /// The impact found by the analysis, summarised.
    pub actual_impact_summary: String,
    /// How far the impact reaches.
    pub impact_scope: ImpactScope,
    /// Whether a compensation plan was needed.
    pub comp_plan_required: Option<bool>,
    /// Whether compensation was applied.
    pub comp_plan_applied: Option<bool>,
    /// Whether a rollback was triggered.
    pub rollback_used: Option<bool>,
    /// Every other member.
    #[wire(extra)]
    pub extra: JsonObject,
}

/// The sections of an `intent_resolution` sample.
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct IntentSample {
    /// The request and its intent.
    pub input: IntentInput,
    /// The state before resolution.
    pub state: Option<IntentState>,
    /// The resolved intent.
    pub output: IntentOutput,
    /// Labels and provenance.
    pub meta: Option<IntentMeta>,
}

/// The sections of a `delta_impact` sample.
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct DeltaSample {
    /// The change requested.
    pub input: DeltaInput,
    /// The state before the change.
    pub state: Option<DeltaState>,
    /// The impact found.
    pub output: DeltaOutput,
    /// Labels and provenance.
    pub meta: Option<DeltaMeta>,
}

/// The sections of a sample of any other family (the core schema: free-form
/// `input`, `state` and `output`).
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct Sections {
    /// The input conditions, abstracted.
    pub input: JsonObject,
    /// The system state before execution.
    pub state: Option<JsonObject>,
    /// The outcome, abstracted.
    pub output: JsonObject,
    /// Labels and provenance.
    pub meta: Option<SampleMeta>,
}

/// The family of a [`LearningSample`] with its typed sections.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SampleBody {
    /// `intent_resolution`.
    IntentResolution(IntentSample),
    /// `delta_impact`.
    DeltaImpact(DeltaSample),
    /// Any other family, with the core schema's sections.
    Other(SampleFamily, Sections),
}

impl SampleBody {
    /// The `sample_family`.
    pub fn family(&self) -> SampleFamily {
        match self {
            SampleBody::IntentResolution(_) => SampleFamily::new(SampleFamily::INTENT_RESOLUTION),
            SampleBody::DeltaImpact(_) => SampleFamily::new(SampleFamily::DELTA_IMPACT),
            SampleBody::Other(f, _) => f.clone(),
        }
    }

    /// `meta.source_flow_id`, whatever the family.
    pub fn source_flow_id(&self) -> Option<&str> {
        match self {
            SampleBody::IntentResolution(s) => s.meta.as_ref()?.source_flow_id.as_deref(),
            SampleBody::DeltaImpact(s) => s.meta.as_ref()?.source_flow_id.as_deref(),
            SampleBody::Other(_, s) => s.meta.as_ref()?.source_flow_id.as_deref(),
        }
    }
}

fn read<T: Wire, E: serde::de::Error>(v: mplp_json::exact::ExactValue) -> Result<T, E> {
    mplp_core::wire::read_exact(v, mplp_core::wire::Unchecked)
}

impl Flattened for SampleBody {
    type Tag = SampleFamily;

    fn tag(&self) -> SampleFamily {
        self.family()
    }

    fn is_member(&self, member: &str) -> bool {
        Sections::FIELDS.contains(&member)
    }

    fn take<E: serde::de::Error>(tag: SampleFamily, extra: &mut JsonObject) -> Result<Self, E> {
        let members = take_members_exact(extra, Sections::FIELDS);
        Ok(match tag.as_str() {
            SampleFamily::INTENT_RESOLUTION => SampleBody::IntentResolution(read(members)?),
            SampleFamily::DELTA_IMPACT => SampleBody::DeltaImpact(read(members)?),
            _ => SampleBody::Other(tag, read(members)?),
        })
    }

    fn serialize_members<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        match self {
            SampleBody::IntentResolution(s) => s.serialize_members(map),
            SampleBody::DeltaImpact(s) => s.serialize_members(map),
            SampleBody::Other(_, s) => s.serialize_members(map),
        }
    }

    fn check_tag(value: &Value, at: &Pointer, report: &mut Report) {
        SampleFamily::check_value(value, at, report);
    }

    fn check_members(tag: Option<&Value>, object: &Value, at: &Pointer, report: &mut Report) {
        let members = pick_members(object, Sections::FIELDS);
        match tag.and_then(Value::as_str) {
            Some(SampleFamily::INTENT_RESOLUTION) => {
                IntentSample::check_value(&members, at, report)
            }
            Some(SampleFamily::DELTA_IMPACT) => DeltaSample::check_value(&members, at, report),
            _ => Sections::check_value(&members, at, report),
        }
    }
}

#[cfg(feature = "schemars")]
impl mplp_core::wire::FlattenedSchema for SampleBody {
    fn extend_schema(
        generator: &mut schemars::SchemaGenerator,
        properties: &mut serde_json::Map<String, Value>,
        required: &mut Vec<Value>,
        all_of: &mut Vec<Value>,
    ) {
        // The core schema's sections, for every family.
        let core = <Sections as schemars::JsonSchema>::json_schema(generator).to_value();
        if let Some(Value::Object(p)) = core.get("properties") {
            properties.extend(p.clone());
        }
        if let Some(Value::Array(r)) = core.get("required") {
            required.extend(r.iter().cloned());
        }
        all_of.push(crate::schema::tag_branch(
            "sample_family",
            SampleFamily::INTENT_RESOLUTION,
            <IntentSample as schemars::JsonSchema>::json_schema(generator),
        ));
        all_of.push(crate::schema::tag_branch(
            "sample_family",
            SampleFamily::DELTA_IMPACT,
            <DeltaSample as schemars::JsonSchema>::json_schema(generator),
        ));
    }
}

/// A learning sample of the learning taxonomy
/// (`learning/mplp-learning-sample-core.schema.json`, and the intent and
/// delta schemas for those two families).
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document, tag = "sample_family", tag_after = "sample_id")]
#[non_exhaustive]
pub struct LearningSample {
    /// The sample (`format: uuid`; `learning_sample_id_is_uuid` wants v4).
    pub sample_id: SchemaUuid,
    /// When the sample was made (RFC 3339).
    pub created_at: Timestamp,
    /// The family (written as `sample_family`) and its sections (`input`,
    /// `state`, `output`, `meta`).
    #[wire(tagged, flatten)]
    pub body: SampleBody,
    /// Every other top-level member.
    #[wire(extra)]
    pub extra: JsonObject,
}

impl LearningSample {
    /// A sample with a fresh id, made now.
    pub fn new(body: SampleBody) -> Self {
        LearningSample {
            sample_id: SchemaUuid::new(),
            created_at: Timestamp::now(),
            body,
            extra: JsonObject::new(),
        }
    }

    /// The `sample_family`.
    pub fn family(&self) -> SampleFamily {
        self.body.family()
    }
}

impl Document for LearningSample {
    const KIND: &'static str = "learning-sample";
    const STATED_BY_SCHEMA: &'static [mplp_core::Stated] = crate::invariants::LEARNING_STATED;

    /// The learning invariants beyond the schemas: `learning_sample_id_is_uuid`,
    /// `learning_sample_family_non_empty`, `learning_sample_source_flow_non_empty`,
    /// `learning_intent_has_intent_id`, `learning_delta_has_delta_id`.
    /// The same rules over what can still be read of a sample that failed
    /// its schema.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        let text = |pointer: &str| value.pointer(pointer).and_then(serde_json::Value::as_str);
        if let Some(id) = text("/sample_id").and_then(|s| SchemaUuid::parse(s).ok()) {
            require_v4(&id, "/sample_id", LEARNING_SAMPLE_ID_IS_UUID, report);
        }
        let family = text("/sample_family");
        if let Some(f) = family {
            require_non_blank(
                f,
                "/sample_family",
                LEARNING_SAMPLE_FAMILY_NON_EMPTY,
                report,
            );
        }
        if let Some(flow) = text("/meta/source_flow_id") {
            require_non_blank(
                flow,
                "/meta/source_flow_id",
                LEARNING_SAMPLE_SOURCE_FLOW_NON_EMPTY,
                report,
            );
        }
        let (pointer, rule) = match family {
            Some(SampleFamily::INTENT_RESOLUTION) => {
                ("/input/intent_id", LEARNING_INTENT_HAS_INTENT_ID)
            }
            Some(SampleFamily::DELTA_IMPACT) => ("/input/delta_id", LEARNING_DELTA_HAS_DELTA_ID),
            _ => return,
        };
        if let Some(id) = text(pointer) {
            require_non_blank(id, pointer, rule, report);
        }
    }

    fn check_rules(&self, report: &mut Report) {
        require_v4(
            &self.sample_id,
            "/sample_id",
            LEARNING_SAMPLE_ID_IS_UUID,
            report,
        );
        require_non_blank(
            self.family().as_str(),
            "/sample_family",
            LEARNING_SAMPLE_FAMILY_NON_EMPTY,
            report,
        );
        if let Some(flow) = self.body.source_flow_id() {
            require_non_blank(
                flow,
                "/meta/source_flow_id",
                LEARNING_SAMPLE_SOURCE_FLOW_NON_EMPTY,
                report,
            );
        }
        match &self.body {
            SampleBody::IntentResolution(s) => require_non_blank(
                &s.input.intent_id,
                "/input/intent_id",
                LEARNING_INTENT_HAS_INTENT_ID,
                report,
            ),
            SampleBody::DeltaImpact(s) => require_non_blank(
                &s.input.delta_id,
                "/input/delta_id",
                LEARNING_DELTA_HAS_DELTA_ID,
                report,
            ),
            SampleBody::Other(..) => {}
        }
    }
}

mplp_core::mplp_id! {
    /// Identifies a [`CommonLearningSample`].
    pub struct SampleId;
}

mplp_core::wire_enum! {
    /// `user_feedback.decision` of a [`CommonLearningSample`].
    pub enum FeedbackDecision {
        /// Approved.
        Approve = "approve",
        /// Rejected.
        Reject = "reject",
        /// Overridden by a person.
        Override = "override",
        /// Not known.
        Unknown = "unknown",
    }
}

/// `error_info` of a [`CommonLearningSample`].
#[derive(Clone, Debug, Default, PartialEq, Wire)]
#[non_exhaustive]
pub struct ErrorInfo {
    /// A machine-readable code.
    pub error_code: Option<String>,
    /// The message.
    pub error_message: Option<String>,
    /// The stack trace.
    pub stack_trace: Option<String>,
}

/// One agent's share of `token_usage.by_agent`.
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct AgentTokens {
    /// The agent.
    pub agent_id: mplp_core::ShortString,
    /// Its role.
    pub role: Option<mplp_core::ShortString>,
    /// The tokens it used.
    pub tokens: NonNegative,
}

/// `token_usage` of a [`CommonLearningSample`]: language model tokens used.
#[derive(Clone, Debug, Default, PartialEq, Wire)]
#[non_exhaustive]
pub struct TokenUsage {
    /// All tokens.
    pub total_tokens: Option<NonNegative>,
    /// Prompt tokens.
    pub prompt_tokens: Option<NonNegative>,
    /// Completion tokens.
    pub completion_tokens: Option<NonNegative>,
    /// Per agent.
    pub by_agent: Option<Vec<AgentTokens>>,
}

/// `user_feedback` of a [`CommonLearningSample`].
#[derive(Clone, Debug, Default, PartialEq, Wire)]
#[non_exhaustive]
pub struct UserFeedback {
    /// The person's decision.
    pub decision: Option<FeedbackDecision>,
    /// Their comment.
    pub comment: Option<String>,
    /// Their rating, from 0 to 5.
    pub rating: Option<Rating>,
}

/// `timestamps` of a [`CommonLearningSample`].
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct SampleTimestamps {
    /// When the action started (RFC 3339).
    pub started_at: Timestamp,
    /// When it finished (RFC 3339).
    pub completed_at: Option<Timestamp>,
}

/// The structured learning sample of `common/learning-sample.schema.json`.
///
/// ```
/// use mplp_core::Document;
/// use mplp_events::learning::CommonLearningSample;
/// let json = r#"{"sample_id": "0f8b8a53-5a43-4b8e-9f0a-1c2d3e4f5a6b", "project_id": "demo",
///   "success_flag": true, "timestamps": {"started_at": "2025-12-01T10:00:00Z"},
///   "impact_score": 0.5}"#;
/// let sample = CommonLearningSample::from_json(json)?;
/// assert!(sample.success_flag);
/// assert!(CommonLearningSample::from_json(json.replace("0.5", "1.5")).is_err()); // maximum 1
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct CommonLearningSample {
    /// The sample (a lowercase UUID v4).
    pub sample_id: SampleId,
    /// The project it belongs to.
    pub project_id: String,
    /// The original intent.
    pub intent_before: Option<JsonObject>,
    /// The plan used.
    pub plan: Option<JsonObject>,
    /// Delta intents proposed or applied.
    pub delta_intents: Option<Vec<JsonObject>>,
    /// The knowledge graph before the change.
    pub graph_before: Option<JsonObject>,
    /// The knowledge graph after the change.
    pub graph_after: Option<JsonObject>,
    /// The pipeline stages passed through, in order.
    pub pipeline_path: Option<Vec<String>>,
    /// Whether the action succeeded.
    pub success_flag: bool,
    /// What went wrong, if it failed.
    pub error_info: Option<ErrorInfo>,
    /// Language model tokens used.
    pub token_usage: Option<TokenUsage>,
    /// How long it took, in milliseconds.
    pub execution_time_ms: Option<NonNegative>,
    /// Impact score from 0 to 1.
    pub impact_score: Option<UnitInterval>,
    /// A person's feedback.
    pub user_feedback: Option<UserFeedback>,
    /// Governance rules evaluated.
    pub governance_decisions: Option<Vec<JsonObject>>,
    /// When it ran.
    pub timestamps: SampleTimestamps,
    /// Other metadata.
    pub metadata: Option<JsonObject>,
    /// Vendor-specific extensions.
    pub vendor_extensions: Option<JsonObject>,
}

impl Document for CommonLearningSample {
    const KIND: &'static str = "common-learning-sample";
}
