//! The rule ids this crate reports, beyond the schema rules of
//! [`mplp_core::Rule`].
//!
//! Canonical invariant ids of MPLP v1.0.0 (`map-invariants.yaml`) are used
//! where they exist; the others are snake_case ids prefixed `map_` or `sa_`.
//! Rules prefixed `map_payload_` / `sa_payload_` are SDK-level payload rules:
//! the canonical schemas only require `payload` to be an object.

use mplp_core::rules::Source;

pub use crate::invariants::*;

mplp_core::declare_rules! {
    /// Every rule of this module, in declaration order.
    pub const RULES;

    /// A payload member that the SDK requires for the event type is missing
    /// (e.g. `mode` of `MAPSessionStarted`), or the payload itself is.
    pub const MAP_PAYLOAD_REQUIRED = "map_payload_required" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "MAP Events", section: "3.1 Event Matrix; 5. Event Schemas" },
        summary: "a payload member the event type needs is missing (or the payload is)",
    }

    /// A typed payload member has the wrong JSON type (e.g. `turn_number: "1"`).
    pub const MAP_PAYLOAD_TYPE = "map_payload_type" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "MAP Events", section: "5. Event Schemas" },
        summary: "a typed payload member has the wrong JSON type",
    }

    /// A typed payload member is not one of its allowed values (e.g. `mode`).
    pub const MAP_PAYLOAD_ENUM = "map_payload_enum" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "MAP Events", section: "5. Event Schemas" },
        summary: "a typed payload member is not one of its allowed values",
    }

    /// A typed payload member is not of its format.
    pub const MAP_PAYLOAD_FORMAT = "map_payload_format" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: "MAP Events", section: "5. Event Schemas" },
        summary: "a typed payload member is not of its format",
    }

    /// Canonical: every `MAPTurnDispatched` has a `MAPTurnCompleted` with the same
    /// session, role and turn number (reported at the dispatch).
    pub const MAP_TURN_COMPLETION_MATCHES_DISPATCH = "map_turn_completion_matches_dispatch" {
        strict: Error,
        scope: Log,
        source: Source::Invariant { file: "map-invariants.yaml", id: "map_turn_completion_matches_dispatch" },
        summary: "a `MAPTurnDispatched` never completed (reported at the dispatch)",
    }

    /// A `MAPTurnCompleted` that answers no open dispatch of the same session,
    /// role and turn number.
    pub const MAP_TURN_COMPLETED_WITHOUT_DISPATCH = "map_turn_completed_without_dispatch" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "MAP Events", section: "7.1 Turn Completion Matching" },
        summary: "a `MAPTurnCompleted` answers no open dispatch of the same session, role and turn",
    }

    /// Turn numbers of a session are 1, 2, 3, ... in dispatch order.
    pub const MAP_TURN_NUMBER_SEQUENCE = "map_turn_number_sequence" {
        strict: Error,
        scope: Log,
        source: Source::Sdk { note: "mplp-events: Turn accounting (SPEC-QUESTIONS 13)" },
        summary: "turn numbers of a session are not 1, 2, 3, ... in dispatch order",
    }

    /// Canonical: every `MAPBroadcastSent` has at least one `MAPBroadcastReceived`
    /// answering it (reported at the broadcast).
    pub const MAP_BROADCAST_HAS_RECEIVERS = "map_broadcast_has_receivers" {
        strict: Error,
        scope: Log,
        source: Source::Invariant { file: "map-invariants.yaml", id: "map_broadcast_has_receivers" },
        summary: "a `MAPBroadcastSent` no `MAPBroadcastReceived` answers (reported at the broadcast)",
    }

    /// A `MAPBroadcastReceived` that answers no earlier broadcast of its session.
    pub const MAP_BROADCAST_RECEIVER_UNMATCHED = "map_broadcast_receiver_unmatched" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "MAP Events", section: "7.2 Broadcast Receiver Matching" },
        summary: "a `MAPBroadcastReceived` answers no earlier broadcast of its session",
    }

    /// The first event of a session is its one `MAPSessionStarted`.
    pub const MAP_SESSION_STARTED_FIRST = "map_session_started_first" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "MAP Events", section: "3.1 Event Matrix (Initialize)" },
        summary: "a session's first event is not its one `MAPSessionStarted`",
    }

    /// `MAPRolesAssigned` comes after `MAPSessionStarted` and before any turn,
    /// broadcast, conflict or completion of the session.
    pub const MAP_ROLES_ASSIGNED_REQUIRED = "map_roles_assigned_required" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "MAP Events", section: "3.1 Event Matrix (Assign)" },
        summary: "an event of a session comes before its `MAPRolesAssigned`",
    }

    /// A session has one `MAPRolesAssigned` (the profile's `assign_roles` phase).
    pub const MAP_ROLES_ASSIGNED_ONCE = "map_roles_assigned_once" {
        strict: Error,
        scope: Log,
        source: Source::Sdk { note: "mplp-events: Sessions" },
        summary: "a session assigns roles a second time",
    }

    /// Every session ends with one `MAPSessionCompleted`, and nothing follows it.
    pub const MAP_SESSION_COMPLETED_LAST = "map_session_completed_last" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "MAP Events", section: "3.1 Event Matrix (Complete)" },
        summary: "a session never completes, or an event follows its `MAPSessionCompleted`",
    }

    /// The counts of `MAPSessionCompleted` (`turns_total`, `broadcasts_count`,
    /// `conflicts_count`, `participants_count`) equal what the log shows.
    pub const MAP_SESSION_COUNTS_MATCH = "map_session_counts_match" {
        strict: Error,
        scope: Log,
        source: Source::Sdk { note: "mplp-events: Turn accounting (SPEC-QUESTIONS 13)" },
        summary: "a count of `MAPSessionCompleted` differs from what the log shows",
    }

    /// Every `MAPConflictDetected` is resolved by a `MAPConflictResolved` of the
    /// same session (and `conflict_id`) before the session completes.
    pub const MAP_CONFLICT_RESOLVED = "map_conflict_resolved" {
        strict: Error,
        scope: Log,
        source: Source::Sdk { note: "mplp-events: conflicts" },
        summary: "a `MAPConflictDetected` is never resolved",
    }

    /// A `MAPConflictResolved` that resolves no open conflict of its session.
    pub const MAP_CONFLICT_RESOLUTION_UNMATCHED = "map_conflict_resolution_unmatched" {
        strict: Error,
        scope: Log,
        source: Source::Sdk { note: "mplp-events: conflicts" },
        summary: "a `MAPConflictResolved` resolves no open conflict of its session",
    }

    /// `round_robin`, `orchestrated` and `pair` sessions have at most one open
    /// turn: a `MAPTurnDispatched` while another turn of the session is open
    /// (reported at the dispatch). `swarm` and `broadcast` turns may overlap.
    pub const MAP_MODE_EXCLUSIVE_TURNS = "map_mode_exclusive_turns" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "Collab Module", section: "5.1 Core Invariants (`map_exclusive_write`); 5.2 Turn Management" },
        summary: "a turn is dispatched while another is open in a `round_robin`, `orchestrated` or `pair` session",
    }

    /// `round_robin` turns rotate over the roles of `MAPRolesAssigned` in
    /// their order, from the first: the k-th dispatch of the session goes to
    /// assignment (k - 1) mod n (the seed's `advanceTurn`).
    pub const MAP_MODE_ROUND_ROBIN_ORDER = "map_mode_round_robin_order" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "Collab Module", section: "5.2 Turn Management (`advanceTurn`)" },
        summary: "a `round_robin` turn goes to another role than the rotation's next",
    }

    /// A `pair` session has two participants: `participant_count` of its
    /// `MAPSessionStarted` and the assignments of its `MAPRolesAssigned`.
    pub const MAP_MODE_PAIR_TWO_PARTICIPANTS = "map_mode_pair_two_participants" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "Collab Module", section: "3.1 Mode Descriptions (`pair`)" },
        summary: "a `pair` session starts with, or assigns roles to, other than two participants",
    }

    /// A turn is dispatched to a role that the session's `MAPRolesAssigned`
    /// names (a warning: the sources describe roles assigned before turns
    /// are dispatched, but state no rule).
    pub const MAP_TURN_ROLE_ASSIGNED = "map_turn_role_assigned" {
        strict: Warning,
        scope: Log,
        source: Source::Prose { doc: "MAP Events", section: "3.1 Event Matrix (Assign, then Dispatch)" },
        summary: "a turn is dispatched to a role the session's `MAPRolesAssigned` does not name",
    }

    /// The timestamps of a session's events do not go backwards, in log
    /// order (compared as instants; equal is fine). A warning.
    pub const MAP_TIMESTAMPS_NON_DECREASING = "map_timestamps_non_decreasing" {
        strict: Warning,
        scope: Log,
        source: Source::Sdk { note: "mplp-events: Coordination modes in MAP logs" },
        summary: "an event of a session is timestamped earlier than an event before it",
    }

    /// A payload member that the SDK requires for the SA event type is missing.
    pub const SA_PAYLOAD_REQUIRED = "sa_payload_required" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-events: Typed payloads are SDK rules (SPEC-QUESTIONS 9)" },
        summary: "a payload member the SA event type needs is missing",
    }

    /// A typed SA payload member has the wrong JSON type.
    pub const SA_PAYLOAD_TYPE = "sa_payload_type" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-events: Typed payloads are SDK rules (SPEC-QUESTIONS 9)" },
        summary: "a typed SA payload member has the wrong JSON type",
    }

    /// A typed SA payload member is not one of its allowed values.
    pub const SA_PAYLOAD_ENUM = "sa_payload_enum" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-events: Typed payloads are SDK rules (SPEC-QUESTIONS 9)" },
        summary: "a typed SA payload member is not one of its allowed values",
    }

    /// A typed SA payload member is not of its format (`step_id`: `format: uuid`).
    pub const SA_PAYLOAD_FORMAT = "sa_payload_format" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-events: Typed payloads are SDK rules (SPEC-QUESTIONS 9)" },
        summary: "a typed SA payload member is not of its format",
    }

    /// The first event of an SA run (`sa_id`) is its one `SAInitialized`.
    pub const SA_INITIALIZED_FIRST = "sa_initialized_first" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "SA Profile (profiles/sa-profile.yaml)", section: "lifecycle.phases (initialize)" },
        summary: "a run's first event is not its one `SAInitialized`",
    }

    /// Every SA run ends with one `SACompleted`, and nothing follows it.
    pub const SA_COMPLETED_LAST = "sa_completed_last" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "SA Profile (profiles/sa-profile.yaml)", section: "lifecycle.phases (complete)" },
        summary: "a run never completes, or an event follows its `SACompleted`",
    }

    /// The phases of an SA run come in the profile's order: initialize,
    /// load_context, evaluate_plan, execute_steps, emit_trace, complete.
    pub const SA_LIFECYCLE_ORDER = "sa_lifecycle_order" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "SA Profile (profiles/sa-profile.yaml)", section: "lifecycle.phases" },
        summary: "the phases of a run are out of the profile's order",
    }

    /// A mandatory SA event (`SAContextLoaded`, `SAPlanEvaluated`,
    /// `SATraceEmitted`) is missing from a completed run (a warning).
    pub const SA_MANDATORY_EVENT_MISSING = "sa_mandatory_event_missing" {
        strict: Warning,
        scope: Log,
        source: Source::Prose { doc: "SA Profile (profiles/sa-profile.yaml)", section: "event_types.mandatory" },
        summary: "a completed run lacks `SAContextLoaded`, `SAPlanEvaluated` or `SATraceEmitted`",
    }

    /// Every `SAStepStarted` is followed by `SAStepCompleted` or `SAStepFailed`
    /// for the same step (reported at the start).
    pub const SA_STEP_STARTED_IS_FINISHED = "sa_step_started_is_finished" {
        strict: Error,
        scope: Log,
        source: Source::Sdk { note: "mplp-events: SA logs" },
        summary: "an `SAStepStarted` is never completed or failed",
    }

    /// An `SAStepCompleted` / `SAStepFailed` for a step that is not running.
    pub const SA_STEP_FINISHED_WITHOUT_START = "sa_step_finished_without_start" {
        strict: Error,
        scope: Log,
        source: Source::Sdk { note: "mplp-events: SA logs" },
        summary: "an `SAStepCompleted`/`SAStepFailed` for a step that is not running",
    }

    /// An `event_id` repeats an earlier event's id anywhere in the log (same
    /// or another session or run); reported at the repeat, naming the first
    /// line. See [`crate::unique_ids`] for the window within which repeats
    /// are found.
    pub const LOG_UNIQUE_EVENT_IDS = "log_unique_event_ids" {
        strict: Error,
        scope: Log,
        source: Source::Prose { doc: "MAP and SA event schemas", section: "`event_id`: the event's unique identifier" },
        summary: "an `event_id` repeats an earlier event's id in the same log",
    }

    /// A line of the log could not be read (an I/O error); reading stops.
    pub const LOG_READ_ERROR = "log_read_error" {
        strict: Error,
        scope: Log,
        source: Source::Sdk { note: "mplp-events: logs" },
        summary: "a line of the log could not be read (an I/O error); reading stops",
    }

    /// A line of the log is longer than the reader's limit (16 MiB by
    /// default): it is skipped without being kept in memory.
    pub const LOG_LINE_TOO_LONG = "log_line_too_long" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "Logs: bounded lines, empty logs, logs in progress" },
        summary: "a line is longer than the limit for one event; it was skipped",
    }

    /// The log holds no event at all (empty, or blank lines only).
    pub const LOG_EMPTY = "log_empty" {
        strict: Warning,
        scope: Log,
        source: Source::Sdk { note: "Logs: bounded lines, empty logs, logs in progress" },
        summary: "the log holds no event",
    }
}

/// Every rule of mplp-events ([`RULES`]).
///
/// ```
/// let ids: Vec<_> = mplp_events::rules::rules().map(|r| r.rule.as_str()).collect();
/// assert!(ids.contains(&"map_turn_completion_matches_dispatch"));
/// assert!(ids.contains(&"obs_event_id_is_uuid"));
/// assert!(ids.contains(&"learning_delta_risk_valid"));
/// assert!(ids.contains(&"integration_ci_run_id_non_empty"));
/// ```
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES
        .iter()
        .chain(OBS_RULES)
        .chain(LEARNING_RULES)
        .chain(INTEGRATION_RULES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_lists_every_registry_once_in_order() {
        let ids: Vec<&str> = rules().map(|r| r.rule.as_str()).collect();
        let want: Vec<&str> = [RULES, OBS_RULES, LEARNING_RULES, INTEGRATION_RULES]
            .iter()
            .flat_map(|list| list.iter())
            .map(|r| r.rule.as_str())
            .collect();
        assert_eq!(ids, want);
        assert!(ids.len() > 40, "{ids:?}");
        let unique: std::collections::HashSet<&str> = ids.iter().copied().collect();
        assert_eq!(unique.len(), ids.len(), "a rule id is declared twice");
        assert_eq!(ids.first().copied(), Some(MAP_PAYLOAD_REQUIRED.as_str()));
    }
}
