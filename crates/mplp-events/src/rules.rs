//! The rule ids this crate reports, beyond the schema rules of
//! [`mplp_core::Rule`].
//!
//! Canonical invariant ids of MPLP v1.0.0 (`map-invariants.yaml`) are used
//! where they exist; the others are snake_case ids prefixed `map_` or `sa_`.
//! Rules prefixed `map_payload_` / `sa_payload_` are SDK-level payload rules:
//! the canonical schemas only require `payload` to be an object.

use mplp_core::Rule;

/// A payload member that the SDK requires for the event type is missing
/// (e.g. `mode` of `MAPSessionStarted`), or the payload itself is.
pub const MAP_PAYLOAD_REQUIRED: Rule = Rule::new("map_payload_required");
/// A typed payload member has the wrong JSON type (e.g. `turn_number: "1"`).
pub const MAP_PAYLOAD_TYPE: Rule = Rule::new("map_payload_type");
/// A typed payload member is not one of its allowed values (e.g. `mode`).
pub const MAP_PAYLOAD_ENUM: Rule = Rule::new("map_payload_enum");
/// A typed payload member is not of its format.
pub const MAP_PAYLOAD_FORMAT: Rule = Rule::new("map_payload_format");

/// Canonical: every `MAPTurnDispatched` has a `MAPTurnCompleted` with the same
/// session, role and turn number (reported at the dispatch).
pub const MAP_TURN_COMPLETION_MATCHES_DISPATCH: Rule =
    Rule::new("map_turn_completion_matches_dispatch");
/// A `MAPTurnCompleted` that answers no open dispatch of the same session,
/// role and turn number.
pub const MAP_TURN_COMPLETED_WITHOUT_DISPATCH: Rule =
    Rule::new("map_turn_completed_without_dispatch");
/// Turn numbers of a session are 1, 2, 3, ... in dispatch order.
pub const MAP_TURN_NUMBER_SEQUENCE: Rule = Rule::new("map_turn_number_sequence");
/// Canonical: every `MAPBroadcastSent` has at least one `MAPBroadcastReceived`
/// answering it (reported at the broadcast).
pub const MAP_BROADCAST_HAS_RECEIVERS: Rule = Rule::new("map_broadcast_has_receivers");
/// A `MAPBroadcastReceived` that answers no earlier broadcast of its session.
pub const MAP_BROADCAST_RECEIVER_UNMATCHED: Rule = Rule::new("map_broadcast_receiver_unmatched");
/// The first event of a session is its one `MAPSessionStarted`.
pub const MAP_SESSION_STARTED_FIRST: Rule = Rule::new("map_session_started_first");
/// `MAPRolesAssigned` comes after `MAPSessionStarted` and before any turn,
/// broadcast, conflict or completion of the session.
pub const MAP_ROLES_ASSIGNED_REQUIRED: Rule = Rule::new("map_roles_assigned_required");
/// A session has one `MAPRolesAssigned` (the profile's `assign_roles` phase).
pub const MAP_ROLES_ASSIGNED_ONCE: Rule = Rule::new("map_roles_assigned_once");
/// Every session ends with one `MAPSessionCompleted`, and nothing follows it.
pub const MAP_SESSION_COMPLETED_LAST: Rule = Rule::new("map_session_completed_last");
/// The counts of `MAPSessionCompleted` (`turns_total`, `broadcasts_count`,
/// `conflicts_count`, `participants_count`) equal what the log shows.
pub const MAP_SESSION_COUNTS_MATCH: Rule = Rule::new("map_session_counts_match");
/// Every `MAPConflictDetected` is resolved by a `MAPConflictResolved` of the
/// same session (and `conflict_id`) before the session completes.
pub const MAP_CONFLICT_RESOLVED: Rule = Rule::new("map_conflict_resolved");
/// A `MAPConflictResolved` that resolves no open conflict of its session.
pub const MAP_CONFLICT_RESOLUTION_UNMATCHED: Rule = Rule::new("map_conflict_resolution_unmatched");

/// A payload member that the SDK requires for the SA event type is missing.
pub const SA_PAYLOAD_REQUIRED: Rule = Rule::new("sa_payload_required");
/// A typed SA payload member has the wrong JSON type.
pub const SA_PAYLOAD_TYPE: Rule = Rule::new("sa_payload_type");
/// A typed SA payload member is not one of its allowed values.
pub const SA_PAYLOAD_ENUM: Rule = Rule::new("sa_payload_enum");
/// A typed SA payload member is not of its format (`step_id`: `format: uuid`).
pub const SA_PAYLOAD_FORMAT: Rule = Rule::new("sa_payload_format");
/// The first event of an SA run (`sa_id`) is its one `SAInitialized`.
pub const SA_INITIALIZED_FIRST: Rule = Rule::new("sa_initialized_first");
/// Every SA run ends with one `SACompleted`, and nothing follows it.
pub const SA_COMPLETED_LAST: Rule = Rule::new("sa_completed_last");
/// The phases of an SA run come in the profile's order: initialize,
/// load_context, evaluate_plan, execute_steps, emit_trace, complete.
pub const SA_LIFECYCLE_ORDER: Rule = Rule::new("sa_lifecycle_order");
/// A mandatory SA event (`SAContextLoaded`, `SAPlanEvaluated`,
/// `SATraceEmitted`) is missing from a completed run (a warning).
pub const SA_MANDATORY_EVENT_MISSING: Rule = Rule::new("sa_mandatory_event_missing");
/// Every `SAStepStarted` is followed by `SAStepCompleted` or `SAStepFailed`
/// for the same step (reported at the start).
pub const SA_STEP_STARTED_IS_FINISHED: Rule = Rule::new("sa_step_started_is_finished");
/// An `SAStepCompleted` / `SAStepFailed` for a step that is not running.
pub const SA_STEP_FINISHED_WITHOUT_START: Rule = Rule::new("sa_step_finished_without_start");

/// A line of the log could not be read (an I/O error); reading stops.
pub const LOG_READ_ERROR: Rule = Rule::new("log_read_error");
