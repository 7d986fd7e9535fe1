//! The observability, learning and integration invariants of MPLP v1.0.0
//! (`invariants/observability-invariants.yaml`, `learning-invariants.yaml`,
//! `integration-invariants.yaml`), with their canonical ids.
//!
//! Every invariant of the three files is declared here once. Most say what
//! the canonical schema already says (an enum, a date-time, a required
//! member, a `minLength`, a `pattern`): the typed values enforce those, and
//! a violation is reported with the schema rule id (`enum`, `format`,
//! `required`, `min-length`, `pattern`) at the member's pointer, as the
//! summaries say. The others are stricter than the schema and are checked
//! by the documents' `check_rules` with the invariant's own id:
//!
//! - `uuid-v4`: a `format: uuid` member must be a version 4 UUID of the RFC
//!   4122 variant (either letter case, as the reference harness accepts);
//! - `non-empty-string`: a string must have a character that is not white
//!   space (the reference harness trims), even where the schema has
//!   `minLength: 1` or no bound at all.
//!
//! None of these invariants relates two events: in a log they apply to each
//! line, which is what the log validators do with every line they read.

use mplp_core::Stated;
use mplp_core::rules::Source;

/// The members where the observability event schemas state an invariant
/// (the `event` scope: every core event; the family members only where the
/// family has them). Their schema violations carry the invariant's id.
pub(crate) const OBS_STATED: &[Stated] = &[
    Stated::at("/event_id", OBS_EVENT_ID_IS_UUID),
    Stated::at("/event_type", OBS_EVENT_TYPE_NON_EMPTY),
    Stated::at("/event_family", OBS_EVENT_FAMILY_VALID),
    Stated::at("/timestamp", OBS_TIMESTAMP_ISO_FORMAT),
    Stated::at("/pipeline_id", OBS_PIPELINE_EVENT_HAS_PIPELINE_ID),
    Stated::at("/stage_id", OBS_PIPELINE_STAGE_ID_NON_EMPTY),
    Stated::at("/stage_status", OBS_PIPELINE_STAGE_STATUS_VALID),
    Stated::at("/graph_id", OBS_GRAPH_EVENT_HAS_GRAPH_ID),
    Stated::at("/update_kind", OBS_GRAPH_UPDATE_KIND_VALID),
    Stated::at("/execution_id", OBS_RUNTIME_EVENT_HAS_EXECUTION_ID),
    Stated::at("/executor_kind", OBS_RUNTIME_EXECUTOR_KIND_VALID),
    Stated::at("/status", OBS_RUNTIME_STATUS_VALID),
];

/// The members where the learning sample schemas state an invariant.
pub(crate) const LEARNING_STATED: &[Stated] = &[
    Stated::at("/sample_id", LEARNING_SAMPLE_ID_IS_UUID),
    Stated::at("/sample_family", LEARNING_SAMPLE_FAMILY_NON_EMPTY),
    Stated::at("/created_at", LEARNING_SAMPLE_CREATED_AT_ISO),
    Stated::at("/input", LEARNING_SAMPLE_HAS_INPUT_SECTION),
    Stated::at("/output", LEARNING_SAMPLE_HAS_OUTPUT_SECTION),
    Stated::at(
        "/meta/human_feedback_label",
        LEARNING_SAMPLE_FEEDBACK_LABEL_VALID,
    ),
    Stated::at(
        "/meta/source_flow_id",
        LEARNING_SAMPLE_SOURCE_FLOW_NON_EMPTY,
    ),
    Stated::at("/input/intent_id", LEARNING_INTENT_HAS_INTENT_ID),
    Stated::at(
        "/output/resolution_quality_label",
        LEARNING_INTENT_QUALITY_LABEL_VALID,
    ),
    Stated::at("/input/delta_id", LEARNING_DELTA_HAS_DELTA_ID),
    Stated::at("/output/impact_scope", LEARNING_DELTA_SCOPE_VALID),
    Stated::at("/state/risk_level", LEARNING_DELTA_RISK_VALID),
];

/// The members where the tool event schema states an invariant.
pub(crate) const TOOL_STATED: &[Stated] = &[
    Stated::at("/tool_id", INTEGRATION_TOOL_EVENT_ID_NON_EMPTY),
    Stated::at("/tool_kind", INTEGRATION_TOOL_KIND_VALID),
    Stated::at("/invocation_id", INTEGRATION_TOOL_INVOCATION_ID_UUID),
    Stated::at("/status", INTEGRATION_TOOL_STATUS_VALID),
    Stated::at("/started_at", INTEGRATION_TOOL_STARTED_AT_ISO),
];

/// The members where the file update event schema states an invariant.
pub(crate) const FILE_STATED: &[Stated] = &[
    Stated::at("/file_path", INTEGRATION_FILE_PATH_NON_EMPTY),
    Stated::at("/change_type", INTEGRATION_FILE_CHANGE_TYPE_VALID),
    Stated::at("/timestamp", INTEGRATION_FILE_TIMESTAMP_ISO),
];

/// The members where the git event schema states an invariant.
pub(crate) const GIT_STATED: &[Stated] = &[
    Stated::at("/repo_url", INTEGRATION_GIT_REPO_URL_NON_EMPTY),
    Stated::at("/commit_id", INTEGRATION_GIT_COMMIT_ID_NON_EMPTY),
    Stated::at("/ref_name", INTEGRATION_GIT_REF_NAME_NON_EMPTY),
    Stated::at("/event_kind", INTEGRATION_GIT_EVENT_KIND_VALID),
    Stated::at("/timestamp", INTEGRATION_GIT_TIMESTAMP_ISO),
];

/// The members where the CI event schema states an invariant.
pub(crate) const CI_STATED: &[Stated] = &[
    Stated::at("/ci_provider", INTEGRATION_CI_PROVIDER_NON_EMPTY),
    Stated::at("/pipeline_id", INTEGRATION_CI_PIPELINE_ID_NON_EMPTY),
    Stated::at("/run_id", INTEGRATION_CI_RUN_ID_NON_EMPTY),
    Stated::at("/status", INTEGRATION_CI_STATUS_VALID),
    Stated::at("/started_at", INTEGRATION_CI_STARTED_AT_ISO),
    Stated::at("/completed_at", INTEGRATION_CI_COMPLETED_AT_ISO),
];

mplp_core::declare_rules! {
    /// The observability invariants (`observability-invariants.yaml`).
    pub const OBS_RULES;

    /// Canonical (`observability-invariants.yaml`), checked by `check_rules` with this id.
    pub const OBS_EVENT_ID_IS_UUID = "obs_event_id_is_uuid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_event_id_is_uuid" },
        summary: "an event's `event_id` is not a version 4 UUID (any other `format: uuid` text passes the schema)",
    }

    /// Canonical (`observability-invariants.yaml`), checked by `check_rules` with this id.
    pub const OBS_EVENT_TYPE_NON_EMPTY = "obs_event_type_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_event_type_non_empty" },
        summary: "an event's `event_type` is empty or blank",
    }

    /// Canonical (`observability-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const OBS_EVENT_FAMILY_VALID = "obs_event_family_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_event_family_valid" },
        summary: "`event_family` is not one of the twelve families (reported as `enum`)",
    }

    /// Canonical (`observability-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `format`.
    pub const OBS_TIMESTAMP_ISO_FORMAT = "obs_timestamp_iso_format" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_timestamp_iso_format" },
        summary: "`timestamp` is not an RFC 3339 date-time (reported as `format`)",
    }

    /// Canonical (`observability-invariants.yaml`), checked by `check_rules` with this id.
    pub const OBS_PIPELINE_EVENT_HAS_PIPELINE_ID = "obs_pipeline_event_has_pipeline_id" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_pipeline_event_has_pipeline_id" },
        summary: "a `pipeline_stage` event's `pipeline_id` is not a version 4 UUID (missing: `required`)",
    }

    /// Canonical (`observability-invariants.yaml`), checked by `check_rules` with this id.
    pub const OBS_PIPELINE_STAGE_ID_NON_EMPTY = "obs_pipeline_stage_id_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_pipeline_stage_id_non_empty" },
        summary: "a `pipeline_stage` event's `stage_id` is empty or blank",
    }

    /// Canonical (`observability-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const OBS_PIPELINE_STAGE_STATUS_VALID = "obs_pipeline_stage_status_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_pipeline_stage_status_valid" },
        summary: "a `pipeline_stage` event's `stage_status` is not a known status (reported as `enum`)",
    }

    /// Canonical (`observability-invariants.yaml`), checked by `check_rules` with this id.
    pub const OBS_GRAPH_EVENT_HAS_GRAPH_ID = "obs_graph_event_has_graph_id" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_graph_event_has_graph_id" },
        summary: "a `graph_update` event's `graph_id` is not a version 4 UUID (missing: `required`)",
    }

    /// Canonical (`observability-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const OBS_GRAPH_UPDATE_KIND_VALID = "obs_graph_update_kind_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_graph_update_kind_valid" },
        summary: "a `graph_update` event's `update_kind` is not a known kind (reported as `enum`)",
    }

    /// Canonical (`observability-invariants.yaml`), checked by `check_rules` with this id.
    pub const OBS_RUNTIME_EVENT_HAS_EXECUTION_ID = "obs_runtime_event_has_execution_id" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_runtime_event_has_execution_id" },
        summary: "a `runtime_execution` event's `execution_id` is not a version 4 UUID (missing: `required`)",
    }

    /// Canonical (`observability-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const OBS_RUNTIME_EXECUTOR_KIND_VALID = "obs_runtime_executor_kind_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_runtime_executor_kind_valid" },
        summary: "a `runtime_execution` event's `executor_kind` is not a known kind (reported as `enum`)",
    }

    /// Canonical (`observability-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const OBS_RUNTIME_STATUS_VALID = "obs_runtime_status_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "observability-invariants.yaml", id: "obs_runtime_status_valid" },
        summary: "a `runtime_execution` event's `status` is not a known status (reported as `enum`)",
    }
}

mplp_core::declare_rules! {
    /// The learning sample invariants (`learning-invariants.yaml`).
    pub const LEARNING_RULES;

    /// Canonical (`learning-invariants.yaml`), checked by `check_rules` with this id.
    pub const LEARNING_SAMPLE_ID_IS_UUID = "learning_sample_id_is_uuid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_sample_id_is_uuid" },
        summary: "a learning sample's `sample_id` is not a version 4 UUID",
    }

    /// Canonical (`learning-invariants.yaml`), checked by `check_rules` with this id.
    pub const LEARNING_SAMPLE_FAMILY_NON_EMPTY = "learning_sample_family_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_sample_family_non_empty" },
        summary: "a learning sample's `sample_family` is empty or blank",
    }

    /// Canonical (`learning-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `format`.
    pub const LEARNING_SAMPLE_CREATED_AT_ISO = "learning_sample_created_at_iso" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_sample_created_at_iso" },
        summary: "`created_at` is not an RFC 3339 date-time (reported as `format`)",
    }

    /// Canonical (`learning-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `required`.
    pub const LEARNING_SAMPLE_HAS_INPUT_SECTION = "learning_sample_has_input_section" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_sample_has_input_section" },
        summary: "a learning sample has no `input` (reported as `required`)",
    }

    /// Canonical (`learning-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `required`.
    pub const LEARNING_SAMPLE_HAS_OUTPUT_SECTION = "learning_sample_has_output_section" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_sample_has_output_section" },
        summary: "a learning sample has no `output` (reported as `required`)",
    }

    /// Canonical (`learning-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const LEARNING_SAMPLE_FEEDBACK_LABEL_VALID = "learning_sample_feedback_label_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_sample_feedback_label_valid" },
        summary: "`meta.human_feedback_label` is not a known label (reported as `enum`)",
    }

    /// Canonical (`learning-invariants.yaml`), checked by `check_rules` with this id.
    pub const LEARNING_SAMPLE_SOURCE_FLOW_NON_EMPTY = "learning_sample_source_flow_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_sample_source_flow_non_empty" },
        summary: "`meta.source_flow_id` is present but empty or blank",
    }

    /// Canonical (`learning-invariants.yaml`), checked by `check_rules` with this id.
    pub const LEARNING_INTENT_HAS_INTENT_ID = "learning_intent_has_intent_id" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_intent_has_intent_id" },
        summary: "an `intent_resolution` sample's `input.intent_id` is empty or blank (missing: `required`)",
    }

    /// Canonical (`learning-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const LEARNING_INTENT_QUALITY_LABEL_VALID = "learning_intent_quality_label_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_intent_quality_label_valid" },
        summary: "an `intent_resolution` sample's `output.resolution_quality_label` is not a known label (reported as `enum`)",
    }

    /// Canonical (`learning-invariants.yaml`), checked by `check_rules` with this id.
    pub const LEARNING_DELTA_HAS_DELTA_ID = "learning_delta_has_delta_id" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_delta_has_delta_id" },
        summary: "a `delta_impact` sample's `input.delta_id` is empty or blank (missing: `required`)",
    }

    /// Canonical (`learning-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const LEARNING_DELTA_SCOPE_VALID = "learning_delta_scope_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_delta_scope_valid" },
        summary: "a `delta_impact` sample's `output.impact_scope` is not a known scope (reported as `enum`)",
    }

    /// Canonical (`learning-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const LEARNING_DELTA_RISK_VALID = "learning_delta_risk_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "learning-invariants.yaml", id: "learning_delta_risk_valid" },
        summary: "a `delta_impact` sample's `state.risk_level` is not a known level (reported as `enum`)",
    }
}

mplp_core::declare_rules! {
    /// The integration event invariants (`integration-invariants.yaml`).
    pub const INTEGRATION_RULES;

    /// Canonical (`integration-invariants.yaml`), checked by `check_rules` with this id.
    pub const INTEGRATION_TOOL_EVENT_ID_NON_EMPTY = "integration_tool_event_id_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_tool_event_id_non_empty" },
        summary: "a tool event's `tool_id` is blank (empty: `min-length`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const INTEGRATION_TOOL_KIND_VALID = "integration_tool_kind_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_tool_kind_valid" },
        summary: "a tool event's `tool_kind` is not a known kind (reported as `enum`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `pattern`.
    pub const INTEGRATION_TOOL_INVOCATION_ID_UUID = "integration_tool_invocation_id_uuid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_tool_invocation_id_uuid" },
        summary: "a tool event's `invocation_id` is not a lowercase UUID v4 (reported as `pattern`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const INTEGRATION_TOOL_STATUS_VALID = "integration_tool_status_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_tool_status_valid" },
        summary: "a tool event's `status` is not a known status (reported as `enum`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `format`.
    pub const INTEGRATION_TOOL_STARTED_AT_ISO = "integration_tool_started_at_iso" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_tool_started_at_iso" },
        summary: "a tool event's `started_at` is not an RFC 3339 date-time (reported as `format`)",
    }

    /// Canonical (`integration-invariants.yaml`), checked by `check_rules` with this id.
    pub const INTEGRATION_FILE_PATH_NON_EMPTY = "integration_file_path_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_file_path_non_empty" },
        summary: "a file update event's `file_path` is blank (empty: `min-length`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const INTEGRATION_FILE_CHANGE_TYPE_VALID = "integration_file_change_type_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_file_change_type_valid" },
        summary: "a file update event's `change_type` is not a known type (reported as `enum`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `format`.
    pub const INTEGRATION_FILE_TIMESTAMP_ISO = "integration_file_timestamp_iso" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_file_timestamp_iso" },
        summary: "a file update event's `timestamp` is not an RFC 3339 date-time (reported as `format`)",
    }

    /// Canonical (`integration-invariants.yaml`), checked by `check_rules` with this id.
    pub const INTEGRATION_GIT_REPO_URL_NON_EMPTY = "integration_git_repo_url_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_git_repo_url_non_empty" },
        summary: "a git event's `repo_url` is blank (empty: `min-length`)",
    }

    /// Canonical (`integration-invariants.yaml`), checked by `check_rules` with this id.
    pub const INTEGRATION_GIT_COMMIT_ID_NON_EMPTY = "integration_git_commit_id_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_git_commit_id_non_empty" },
        summary: "a git event's `commit_id` is blank (empty: `min-length`)",
    }

    /// Canonical (`integration-invariants.yaml`), checked by `check_rules` with this id.
    pub const INTEGRATION_GIT_REF_NAME_NON_EMPTY = "integration_git_ref_name_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_git_ref_name_non_empty" },
        summary: "a git event's `ref_name` is blank (empty: `min-length`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const INTEGRATION_GIT_EVENT_KIND_VALID = "integration_git_event_kind_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_git_event_kind_valid" },
        summary: "a git event's `event_kind` is not a known kind (reported as `enum`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `format`.
    pub const INTEGRATION_GIT_TIMESTAMP_ISO = "integration_git_timestamp_iso" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_git_timestamp_iso" },
        summary: "a git event's `timestamp` is not an RFC 3339 date-time (reported as `format`)",
    }

    /// Canonical (`integration-invariants.yaml`), checked by `check_rules` with this id.
    pub const INTEGRATION_CI_PROVIDER_NON_EMPTY = "integration_ci_provider_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_ci_provider_non_empty" },
        summary: "a CI event's `ci_provider` is blank (empty: `min-length`)",
    }

    /// Canonical (`integration-invariants.yaml`), checked by `check_rules` with this id.
    pub const INTEGRATION_CI_PIPELINE_ID_NON_EMPTY = "integration_ci_pipeline_id_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_ci_pipeline_id_non_empty" },
        summary: "a CI event's `pipeline_id` is blank (empty: `min-length`)",
    }

    /// Canonical (`integration-invariants.yaml`), checked by `check_rules` with this id.
    pub const INTEGRATION_CI_RUN_ID_NON_EMPTY = "integration_ci_run_id_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_ci_run_id_non_empty" },
        summary: "a CI event's `run_id` is blank (empty: `min-length`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `enum`.
    pub const INTEGRATION_CI_STATUS_VALID = "integration_ci_status_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_ci_status_valid" },
        summary: "a CI event's `status` is not a known status (reported as `enum`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `format`.
    pub const INTEGRATION_CI_STARTED_AT_ISO = "integration_ci_started_at_iso" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_ci_started_at_iso" },
        summary: "a CI event's `started_at` is not an RFC 3339 date-time (reported as `format`)",
    }

    /// Canonical (`integration-invariants.yaml`); the schema says the same, so a violation is reported with the schema rule `format`.
    pub const INTEGRATION_CI_COMPLETED_AT_ISO = "integration_ci_completed_at_iso" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: "integration-invariants.yaml", id: "integration_ci_completed_at_iso" },
        summary: "a CI event's `completed_at` is not an RFC 3339 date-time (reported as `format`)",
    }
}
