//! The compat policy: which rule is an error in which [`Profile`], and why.
//!
//! mplp-rs checks more than the canonical schemas: the frozen invariant
//! files, rules the seed prose states as MUST, and SDK rules of its own.
//! [`RULES`] lists **every rule id the SDK raises**, with its severity in each
//! profile and its source, in one table (`docs/spec-notes.md`, "Compat
//! policy", shows the same table; a test keeps them equal).
//!
//! - [`Profile::Strict`] (the default): every rule at the severity the SDK
//!   raises it. What the SDK writes always passes it.
//! - [`Profile::Canonical`]: only the canonical schema, the frozen invariants,
//!   the MAP/SA profile's mandatory events and the seed prose's MUST rules are
//!   errors; every other rule is at most a warning. Use it for third-party
//!   documents and logs that are schema-valid.
//!
//! A profile changes a validation **report**; the SDK's typed values still
//! hold every strict rule (a document valid only under `canonical` is
//! judged valid, but `Document::from_json` still refuses it).
//!
//! ```
//! use mplp_core::policy::{apply, Profile};
//! use mplp_core::{Report, Rule};
//! let mut report = Report::new();
//! report.error("/payload/mode", Rule::new("map_payload_type"), "expected a string");
//! report.error("/plan_id", Rule::PATTERN, "not a UUID v4");
//! let canonical = apply(report.clone(), Profile::Canonical);
//! assert_eq!(canonical.errors().count(), 1); // the schema rule
//! assert_eq!(canonical.warnings().count(), 1); // the SDK rule, downgraded
//! assert_eq!(apply(report, Profile::Strict).errors().count(), 2);
//! ```

use crate::{Report, Severity};

/// Which rules are errors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Every rule at the SDK's severity (the default).
    #[default]
    Strict,
    /// Only canonical rules are errors; SDK rules are at most warnings.
    Canonical,
}

impl Profile {
    /// `strict` or `canonical`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Profile::Strict => "strict",
            Profile::Canonical => "canonical",
        }
    }
}

/// Where a rule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A JSON Schema keyword of the canonical schemas.
    Schema,
    /// JSON itself (RFC 8259).
    Json,
    /// A frozen invariant file (`invariants/*.yaml`).
    Invariant,
    /// A MAP/SA profile file (`profiles/*.yaml`) or the seed's mandatory-event table.
    ProfileFile,
    /// A rule the seed prose states as MUST or lists among its invariants.
    Seed,
    /// An SDK recommendation or decision (see `docs/spec-notes.md`).
    Sdk,
    /// Refused by an SDK operation (builders, lifecycles, runtimes, I/O), not
    /// by document validation; profiles do not apply.
    Api,
    /// A finding of the golden-flow runner (`mplp-conformance`).
    Conformance,
}

impl Source {
    /// The name used in the table.
    pub const fn as_str(self) -> &'static str {
        match self {
            Source::Schema => "schema",
            Source::Json => "json",
            Source::Invariant => "invariant",
            Source::ProfileFile => "profile",
            Source::Seed => "seed",
            Source::Sdk => "sdk",
            Source::Api => "api",
            Source::Conformance => "conformance",
        }
    }
}

/// One row of the policy table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulePolicy {
    /// The rule id.
    pub id: &'static str,
    /// Its severity under [`Profile::Strict`] (as raised).
    pub strict: Severity,
    /// Its severity under [`Profile::Canonical`].
    pub canonical: Severity,
    /// Where it comes from.
    pub source: Source,
    /// The precise reference (keyword, invariant id, seed section) or reason.
    pub reference: &'static str,
}

use Severity::{Error as E, Warning as W};
use Source::*;

const fn r(
    id: &'static str,
    strict: Severity,
    canonical: Severity,
    source: Source,
    reference: &'static str,
) -> RulePolicy {
    RulePolicy {
        id,
        strict,
        canonical,
        source,
        reference,
    }
}

/// Every rule id the SDK raises, with its severity per profile and source.
pub const RULES: &[RulePolicy] = &[
    // JSON and the schemas.
    r("json-syntax", E, E, Json, "RFC 8259"),
    r(
        "duplicate-key",
        E,
        W,
        Sdk,
        "RFC 8259: object names SHOULD be unique (spec notes, core)",
    ),
    r("required", E, E, Schema, "required"),
    r(
        "additional-properties",
        E,
        E,
        Schema,
        "additionalProperties",
    ),
    r("enum", E, E, Schema, "enum"),
    r("pattern", E, E, Schema, "pattern (identifiers: UUID v4)"),
    r("format", E, E, Schema, "format (date-time, uuid)"),
    r("min-length", E, E, Schema, "minLength"),
    r("max-length", E, E, Schema, "maxLength"),
    r("min-items", E, E, Schema, "minItems"),
    r("max-items", E, E, Schema, "maxItems"),
    r("unique-items", E, E, Schema, "uniqueItems"),
    r("type", E, E, Schema, "type"),
    r("minimum", E, E, Schema, "minimum"),
    r("maximum", E, E, Schema, "maximum"),
    r("exclusive-minimum", E, E, Schema, "exclusiveMinimum"),
    r("exclusive-maximum", E, E, Schema, "exclusiveMaximum"),
    r("multiple-of", E, E, Schema, "multipleOf"),
    r("any-of", E, E, Schema, "anyOf"),
    r("one-of", E, E, Schema, "oneOf"),
    r("all-of", E, E, Schema, "allOf"),
    r("not", E, E, Schema, "not"),
    r("property-names", E, E, Schema, "propertyNames"),
    r("contains", E, E, Schema, "contains"),
    r("false-schema", E, E, Schema, "false schema"),
    r("ref", E, E, Schema, "$ref"),
    r(
        "schema",
        E,
        E,
        Schema,
        "feature `schema`: the schema cannot be applied",
    ),
    // Operations and I/O.
    r(
        "lifecycle-transition",
        E,
        E,
        Api,
        "lifecycle tables (spec notes Q18)",
    ),
    r("unknown-step", E, E, Api, "plan lifecycle: no such step"),
    r(
        "unknown-kind",
        E,
        E,
        Api,
        "mplp validate: the kind cannot be recognised",
    ),
    r("log_read_error", E, E, Api, "I/O error while reading a log"),
    // Dialog.
    r(
        "dialog_not_active",
        E,
        E,
        Api,
        "Dialog::add_message on a dialog that is not active",
    ),
    r("dialog_ended_before_started", E, W, Sdk, "spec notes Q19"),
    r("dialog_open_with_ended_at", E, W, Sdk, "spec notes Q19"),
    r("dialog_ended_without_ended_at", W, W, Sdk, "spec notes Q19"),
    r("dialog_message_after_end", W, W, Sdk, "spec notes Q19"),
    r("dialog_messages_out_of_order", W, W, Sdk, "spec notes Q19"),
    // Plan.
    r(
        "sa_plan_context_binding",
        E,
        E,
        Invariant,
        "sa_plan_context_binding",
    ),
    r(
        "sa_plan_has_steps",
        E,
        E,
        Invariant,
        "sa_plan_has_steps (raised as min-items)",
    ),
    r(
        "sa_steps_agent_role_if_present",
        E,
        E,
        Invariant,
        "sa_steps_agent_role_if_present",
    ),
    r(
        "sa_trace_context_binding",
        E,
        E,
        Invariant,
        "sa_trace_context_binding",
    ),
    r(
        "sa_plan_step_unique_ids",
        E,
        E,
        Seed,
        "Plan seed 5.1 Core Invariants",
    ),
    r(
        "sa_plan_dependency_exists",
        E,
        E,
        Seed,
        "Plan seed 2: Dependencies MUST reference valid step_id",
    ),
    r(
        "sa_plan_no_self_dependency",
        E,
        E,
        Seed,
        "Plan seed 5.1 sa_plan_dag_acyclic (a cycle of one)",
    ),
    r(
        "sa_plan_dag_acyclic",
        E,
        E,
        Seed,
        "Plan seed 5.1 Core Invariants",
    ),
    r(
        "sa_plan_completed_steps_done",
        E,
        E,
        Seed,
        "Plan seed 5.2 Execution Invariants",
    ),
    r(
        "sa_plan_step_before_start",
        E,
        W,
        Sdk,
        "spec notes, plan (Q17)",
    ),
    r(
        "sa_plan_step_dependencies_done",
        E,
        W,
        Sdk,
        "spec notes, plan (Q17)",
    ),
    r(
        "sa_plan_step_runs_in_plan",
        W,
        W,
        Seed,
        "Plan seed 5.2 (warning for ended plans)",
    ),
    r(
        "sa_plan_failed_has_failed_step",
        W,
        W,
        Seed,
        "Plan seed 5.2 (critical steps undefined, Q17)",
    ),
    r("sa_plan_all_steps_done", W, W, Sdk, "spec notes, plan"),
    r(
        "sa_plan_step_should_be_blocked",
        W,
        W,
        Sdk,
        "spec notes, plan (Q17)",
    ),
    r(
        "sa_plan_step_blocked_without_cause",
        W,
        W,
        Sdk,
        "spec notes, plan (Q17)",
    ),
    r(
        "sa_plan_order_index_dependency",
        W,
        W,
        Sdk,
        "spec notes, plan (Q17)",
    ),
    r(
        "sa_plan_duplicate_dependency",
        W,
        W,
        Sdk,
        "spec notes, plan",
    ),
    // Collab.
    r(
        "map_session_requires_participants",
        E,
        E,
        Invariant,
        "map_session_requires_participants (raised as min-items)",
    ),
    r(
        "map_min_participants",
        E,
        E,
        Seed,
        "Collab seed 5.1 (name of map_session_requires_participants)",
    ),
    r(
        "map_unique_participant_ids",
        E,
        E,
        Seed,
        "Collab seed 5.1 Core Invariants",
    ),
    r(
        "map_participant_kind_valid",
        E,
        E,
        Invariant,
        "map_participant_kind_valid (raised as enum)",
    ),
    r(
        "map_participants_have_role_ids",
        W,
        W,
        Invariant,
        "map_participants_have_role_ids vs map_role_ids_non_empty (Q16)",
    ),
    r(
        "map_orchestrator_required",
        E,
        E,
        Seed,
        "Collab seed 5.1; a second orchestrator is a warning (Q15)",
    ),
    r("map_pair_two_participants", E, W, Sdk, "spec notes, collab"),
    r(
        "map_exclusive_write",
        E,
        E,
        Api,
        "Collab seed 5.1 map_exclusive_write (TurnToken)",
    ),
    r(
        "map_participants_can_act",
        E,
        E,
        Api,
        "collab lifecycle: only active sessions act",
    ),
    r(
        "map_turn_order",
        E,
        E,
        Api,
        "TurnManager: the mode forbids this dispatch",
    ),
    r(
        "map_broadcast_unexpected_answer",
        E,
        E,
        Api,
        "broadcast tracker",
    ),
    r("map_conflict_unknown", E, E, Api, "conflict store"),
    r("map_task_claimed_once", E, E, Api, "swarm task board"),
    r("map_plan_in_progress", E, E, Api, "MapSession::run_plan"),
    r(
        "map_session_finished",
        E,
        E,
        Api,
        "MapSession after completion",
    ),
    // MAP events and logs.
    r(
        "map_payload_required",
        E,
        E,
        Seed,
        "MAP events seed 3.1 Required Fields (MUST emit)",
    ),
    r("map_payload_type", E, W, Sdk, "spec notes, events (Q9)"),
    r("map_payload_enum", E, W, Sdk, "spec notes, events (Q9)"),
    r("map_payload_format", E, W, Sdk, "spec notes, events (Q9)"),
    r(
        "map_turn_completion_matches_dispatch",
        E,
        E,
        Invariant,
        "map_turn_completion_matches_dispatch",
    ),
    r(
        "map_broadcast_has_receivers",
        E,
        E,
        Invariant,
        "map_broadcast_has_receivers",
    ),
    r(
        "map_session_started_first",
        E,
        E,
        ProfileFile,
        "MAP events seed 3 (MUST emit) and MAP profile lifecycle",
    ),
    r(
        "map_roles_assigned_required",
        E,
        E,
        ProfileFile,
        "MAP events seed 3 (MUST emit) and MAP profile lifecycle",
    ),
    r(
        "map_session_completed_last",
        E,
        E,
        ProfileFile,
        "MAP events seed 3 (MUST emit) and MAP profile lifecycle",
    ),
    r("map_roles_assigned_once", E, W, Sdk, "spec notes, events"),
    r(
        "map_turn_completed_without_dispatch",
        E,
        W,
        Sdk,
        "spec notes, events (Q13)",
    ),
    r(
        "map_turn_number_sequence",
        E,
        W,
        Sdk,
        "spec notes, events (Q13)",
    ),
    r(
        "map_broadcast_receiver_unmatched",
        E,
        W,
        Sdk,
        "spec notes, events (Q10)",
    ),
    r(
        "map_session_counts_match",
        E,
        W,
        Sdk,
        "spec notes, events (Q13)",
    ),
    r("map_conflict_resolved", E, W, Sdk, "spec notes, events"),
    r(
        "map_conflict_resolution_unmatched",
        E,
        W,
        Sdk,
        "spec notes, events",
    ),
    // SA events and logs.
    r(
        "sa_payload_required",
        E,
        W,
        Sdk,
        "spec notes, events (schema $defs, unreferenced)",
    ),
    r("sa_payload_type", E, W, Sdk, "spec notes, events"),
    r("sa_payload_enum", E, W, Sdk, "spec notes, events"),
    r("sa_payload_format", E, W, Sdk, "spec notes, events"),
    r(
        "sa_initialized_first",
        E,
        E,
        ProfileFile,
        "SA profile: mandatory SAInitialized, phase initialize",
    ),
    r(
        "sa_completed_last",
        E,
        E,
        ProfileFile,
        "SA profile: mandatory SACompleted, phase complete",
    ),
    r(
        "sa_lifecycle_order",
        E,
        W,
        ProfileFile,
        "SA profile lifecycle phases (descriptive order)",
    ),
    r(
        "sa_mandatory_event_missing",
        W,
        W,
        ProfileFile,
        "SA profile event_types.mandatory",
    ),
    r(
        "sa_step_started_is_finished",
        E,
        W,
        Sdk,
        "spec notes, events",
    ),
    r(
        "sa_step_finished_without_start",
        E,
        W,
        Sdk,
        "spec notes, events",
    ),
    r(
        "log_unique_event_ids",
        E,
        E,
        Schema,
        "event_id: \"unique identifier for the event\" (spec notes)",
    ),
    // The golden-flow runner (mplp-conformance); invariant ids of a flow are reported as they are.
    r(
        "invariants-syntax",
        E,
        E,
        Conformance,
        "invariants.yaml cannot be read",
    ),
    r("io", E, E, Conformance, "a flow file cannot be read"),
    r(
        "pack-required-file",
        E,
        E,
        Conformance,
        "evidence pack: required files",
    ),
    r(
        "pack-manifest",
        E,
        E,
        Conformance,
        "evidence pack: manifest.json",
    ),
    r(
        "pack-timeline-event",
        E,
        E,
        Conformance,
        "evidence pack: timeline event",
    ),
    r(
        "pack-timeline-parent",
        E,
        E,
        Conformance,
        "evidence pack: parent_event_id",
    ),
    r(
        "pack-timeline-unique-event-ids",
        E,
        E,
        Conformance,
        "evidence pack: unique event ids",
    ),
    r(
        "pack-integrity",
        E,
        E,
        Conformance,
        "evidence pack: sha256 list",
    ),
];

/// The policy of rule `id`, if it is in the table.
pub fn rule(id: &str) -> Option<&'static RulePolicy> {
    RULES.iter().find(|r| r.id == id)
}

/// The report as `profile` judges it: under [`Profile::Canonical`], errors
/// of rules whose canonical severity is a warning become warnings. Rules not
/// in the table (a flow's invariant ids) are left as they are.
pub fn apply(report: Report, profile: Profile) -> Report {
    if profile == Profile::Strict {
        return report;
    }
    let mut out = Report::new();
    for mut v in report {
        if v.severity == Severity::Error
            && rule(v.rule.as_str()).is_some_and(|p| p.canonical == Severity::Warning)
        {
            v.severity = Severity::Warning;
        }
        out.push(v);
    }
    out
}

/// The table as Markdown (the one in `docs/spec-notes.md`).
pub fn markdown_table() -> String {
    let mut s = String::from(
        "| rule id | strict | canonical | source | reference |\n|---|---|---|---|---|\n",
    );
    for r in RULES {
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            r.id,
            r.strict,
            r.canonical,
            r.source.as_str(),
            r.reference
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_canonical_is_never_stricter() {
        for (i, a) in RULES.iter().enumerate() {
            assert!(RULES[..i].iter().all(|b| b.id != a.id), "{} twice", a.id);
            // Canonical never raises what strict does not.
            assert!(a.canonical >= a.strict, "{}", a.id);
            // Only canonical sources are errors in the canonical profile.
            if a.canonical == Severity::Error {
                assert!(
                    a.source != Source::Sdk,
                    "{}: an SDK rule is an error in canonical",
                    a.id
                );
            }
        }
    }

    #[test]
    fn the_docs_table_is_this_table() {
        let notes = include_str!("../../../docs/spec-notes.md");
        let start = "<!-- rule-table:start -->\n";
        let end = "<!-- rule-table:end -->";
        let from = notes.find(start).map(|i| i + start.len());
        let to = notes.find(end);
        let (Some(from), Some(to)) = (from, to) else {
            panic!("docs/spec-notes.md has no rule table markers");
        };
        assert_eq!(
            &notes[from..to],
            markdown_table(),
            "docs/spec-notes.md (Compat policy) differs from mplp_core::policy::RULES; paste the table printed here"
        );
    }

    #[test]
    fn canonical_downgrades_only_sdk_errors() {
        let mut r = Report::new();
        r.error("", crate::Rule::new("map_turn_number_sequence"), "x");
        r.error("", crate::Rule::new("map_broadcast_has_receivers"), "x");
        r.error("", crate::Rule::new("flow01_plan_has_uuid"), "x");
        r.warn("", crate::Rule::new("map_participants_have_role_ids"), "x");
        let c = apply(r, Profile::Canonical);
        let sev: Vec<Severity> = c.violations().iter().map(|v| v.severity).collect();
        assert_eq!(sev, [W, E, E, W]);
    }
}
