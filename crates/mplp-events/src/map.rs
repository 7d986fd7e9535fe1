//! MAP (Multi-Agent Profile) events (`events/mplp-map-event.schema.json`).
//!
//! A [`MapEvent`] is the canonical envelope (`event_id`, `event_type`,
//! `timestamp`, `session_id`, optional `initiator_role`, `target_roles`,
//! `payload`, nothing else) with a typed [`MapPayload`] chosen by the event
//! type. Constructors fill in a fresh event id and the current time:
//!
//! ```
//! use mplp_core::{CollabId, CollabMode, Document};
//! use mplp_events::{EventFamily, MapEvent, MapEventType};
//!
//! let session = CollabId::new();
//! let started = MapEvent::session_started(session, CollabMode::RoundRobin, 3);
//! let turn = MapEvent::turn_dispatched(session, "coder", 1);
//! assert_eq!(turn.event_type(), MapEventType::TurnDispatched);
//! assert_eq!(turn.family(), EventFamily::RuntimeExecutionEvent);
//! let back = MapEvent::from_json(turn.to_json())?;
//! assert_eq!(back, turn);
//! # let _ = started;
//! # Ok::<(), mplp_core::Error>(())
//! ```

use std::fmt;

use mplp_core::check::CheckValue;
use mplp_core::{
    CollabMode, Document, JsonObject, Pointer, Report, Rule, ShortList, ShortString, Timestamp,
    Wire,
};
use serde_json::Value;

use crate::payload::{PayloadRules, event_types, payload_struct};
use crate::rules;
use crate::{SchemaUuid, SessionId};

event_types! {
    /// The nine canonical MAP event types (the schema's `event_type` enum).
    ///
    /// `MAPHandoffInitiated`, which the MAP events prose recommends, is not
    /// in the v1.0.0 enum and is refused on the wire (see the spec notes).
    pub enum MapEventType;

    /// The typed payload of a [`MapEvent`]; the variant decides the event type.
    ///
    /// The four recommended event types have no required payload member, so
    /// their payload may be absent (`None`), which is kept apart from `{}`.
    pub enum MapPayload;

    columns {
        /// The event family of this type, as the MAP events spec's table gives it.
        family: EventFamily,
        /// True for the five events the MAP profile says MUST be emitted.
        is_mandatory: bool,
    }

    rules = MAP_PAYLOAD_RULES,
    check_tag = check_map_event_type;

    /// A collaboration session was created.
    SessionStarted = "MAPSessionStarted" => SessionStarted {
        family: EventFamily::GraphUpdateEvent, is_mandatory: true
    },
    /// Participants were bound to roles.
    RolesAssigned = "MAPRolesAssigned" => RolesAssigned {
        family: EventFamily::GraphUpdateEvent, is_mandatory: true
    },
    /// A turn was handed to a role.
    TurnDispatched = "MAPTurnDispatched" => TurnDispatched {
        family: EventFamily::RuntimeExecutionEvent, is_mandatory: true
    },
    /// A role finished its turn.
    TurnCompleted = "MAPTurnCompleted" => TurnCompleted {
        family: EventFamily::RuntimeExecutionEvent, is_mandatory: true
    },
    /// A message was fanned out to several roles.
    BroadcastSent = "MAPBroadcastSent" => Option<BroadcastSent> {
        family: EventFamily::CommunicationEvent, is_mandatory: false
    },
    /// A role answered a broadcast.
    BroadcastReceived = "MAPBroadcastReceived" => Option<BroadcastReceived> {
        family: EventFamily::CommunicationEvent, is_mandatory: false
    },
    /// Concurrent writes to one resource were detected.
    ConflictDetected = "MAPConflictDetected" => Option<ConflictDetected> {
        family: EventFamily::ConflictEvent, is_mandatory: false
    },
    /// A detected conflict was resolved.
    ConflictResolved = "MAPConflictResolved" => Option<ConflictResolved> {
        family: EventFamily::ConflictEvent, is_mandatory: false
    },
    /// The session ended.
    SessionCompleted = "MAPSessionCompleted" => SessionCompleted {
        family: EventFamily::GraphUpdateEvent, is_mandatory: true
    },
}

/// The event family a MAP event belongs to (the MAP events spec, section 2).
///
/// The family is derived from the event type and never written: the
/// canonical MAP envelope forbids an `event_family` member.
///
/// ```
/// use mplp_events::{EventFamily, MapEventType};
/// assert_eq!(MapEventType::BroadcastSent.family(), EventFamily::CommunicationEvent);
/// assert_eq!(EventFamily::GraphUpdateEvent.as_str(), "GraphUpdateEvent");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventFamily {
    /// Session state (the session's start, roles and end).
    GraphUpdateEvent,
    /// Turn flow.
    RuntimeExecutionEvent,
    /// Broadcasting.
    CommunicationEvent,
    /// State reconciliation.
    ConflictEvent,
}

impl EventFamily {
    /// The name as the MAP events prose writes it (`GraphUpdateEvent`).
    pub const fn as_str(self) -> &'static str {
        match self {
            EventFamily::GraphUpdateEvent => "GraphUpdateEvent",
            EventFamily::RuntimeExecutionEvent => "RuntimeExecutionEvent",
            EventFamily::CommunicationEvent => "CommunicationEvent",
            EventFamily::ConflictEvent => "ConflictEvent",
        }
    }

    /// The matching family of the observability taxonomy (`event-core`), if
    /// any: the taxonomy has no communication or conflict family.
    ///
    /// ```
    /// use mplp_events::{CoreFamily, EventFamily};
    /// assert_eq!(EventFamily::GraphUpdateEvent.core_family(), Some(CoreFamily::GraphUpdate));
    /// assert_eq!(EventFamily::ConflictEvent.core_family(), None);
    /// ```
    pub const fn core_family(self) -> Option<crate::CoreFamily> {
        match self {
            EventFamily::GraphUpdateEvent => Some(crate::CoreFamily::GraphUpdate),
            EventFamily::RuntimeExecutionEvent => Some(crate::CoreFamily::RuntimeExecution),
            EventFamily::CommunicationEvent | EventFamily::ConflictEvent => None,
        }
    }
}

impl fmt::Display for EventFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

payload_struct! {
    /// Payload of `MAPSessionStarted`.
    pub struct SessionStarted {
        required {
            /// How the participants coordinate.
            mode: CollabMode,
            /// How many participants take part.
            participant_count: u64,
        }
        optional {
            /// The Context the session works in (free text on the wire).
            context_id: String,
            /// What the session is for, for people.
            purpose: String,
        }
    }
}

payload_struct! {
    /// One participant-to-role binding of `MAPRolesAssigned`.
    pub struct RoleAssignment {
        required {
            /// The participant bound.
            participant_id: ShortString,
            /// The role it takes.
            role_id: ShortString,
        }
        optional {
            /// The participant kind (`agent`, `human`, `system`, `external`).
            kind: ShortString,
        }
    }
}

payload_struct! {
    /// Payload of `MAPRolesAssigned`.
    pub struct RolesAssigned {
        required {
            /// The participant-role bindings.
            assignments: Vec<RoleAssignment>,
        }
        optional {}
    }
}

payload_struct! {
    /// Payload of `MAPTurnDispatched`.
    pub struct TurnDispatched {
        required {
            /// The role handed the execution token for this turn.
            role_id: ShortString,
            /// Position of the turn in the session (1, 2, 3, ...).
            turn_number: u64,
        }
        optional {
            /// The execution token handed over.
            token_id: ShortString,
            /// What the role is asked to do.
            task: String,
        }
    }
}

payload_struct! {
    /// Payload of `MAPTurnCompleted`.
    pub struct TurnCompleted {
        required {
            /// The role that finished the turn.
            role_id: ShortString,
            /// The turn finished (same number as its dispatch).
            turn_number: u64,
            /// How the turn ended (`completed`, `failed`, ...; free text in v1.0.0).
            status: ShortString,
        }
        optional {
            /// How long the turn took, in milliseconds.
            duration_ms: u64,
            /// What the turn produced, for people.
            output_summary: String,
            /// The outcome of the turn.
            result: JsonObject,
        }
    }
}

payload_struct! {
    /// Payload of `MAPBroadcastSent`.
    pub struct BroadcastSent {
        required {}
        optional {
            /// The role that sent the broadcast.
            broadcaster_role_id: ShortString,
            /// How many roles the broadcast went to.
            target_count: u64,
            /// Names the broadcast; receivers refer to it with `broadcast_ref` (or `broadcast_id`).
            broadcast_id: ShortString,
            /// What kind of message this is (`task_assignment`, ...).
            message_type: ShortString,
            /// The body of the broadcast.
            message: JsonObject,
        }
    }
}

payload_struct! {
    /// Payload of `MAPBroadcastReceived`.
    pub struct BroadcastReceived {
        required {}
        optional {
            /// The role that got the broadcast (schema spelling).
            receiver_role_id: ShortString,
            /// The role that got the broadcast (prose spelling).
            receiver_role: ShortString,
            /// The `broadcast_id` of the broadcast answered (the spelling
            /// earlier releases of the SDK wrote; read like `broadcast_ref`).
            broadcast_id: ShortString,
            /// The broadcast answered: its `broadcast_id` (the prose's
            /// spelling, read by its check; what the SDK writes).
            broadcast_ref: ShortString,
            /// What the role answered.
            response: JsonObject,
        }
    }
}

payload_struct! {
    /// Payload of `MAPConflictDetected`.
    pub struct ConflictDetected {
        required {}
        optional {
            /// Names the conflict; its resolution carries the same id.
            conflict_id: ShortString,
            /// The resource written concurrently.
            resource: String,
            /// The kind of resource (`plan_step`, ...).
            resource_type: ShortString,
            /// The id of the resource.
            resource_id: String,
            /// The roles involved.
            participants: Vec<ShortString>,
            /// The roles involved (prose spelling).
            conflicting_roles: Vec<ShortString>,
            /// What kind of conflict (`concurrent_modification`, ...).
            conflict_type: ShortString,
            /// Details, for people.
            details: String,
        }
    }
}

payload_struct! {
    /// Payload of `MAPConflictResolved`.
    pub struct ConflictResolved {
        required {}
        optional {
            /// The conflict resolved (the `conflict_id` of its detection).
            conflict_id: ShortString,
            /// How it was resolved.
            strategy: ShortString,
            /// How it was resolved (prose spelling).
            resolution_strategy: ShortString,
            /// The role whose write won.
            winner: ShortString,
            /// The role whose write won (prose spelling).
            winning_role: ShortString,
            /// Why, for people.
            reason: String,
        }
    }
}

payload_struct! {
    /// Payload of `MAPSessionCompleted`.
    pub struct SessionCompleted {
        required {
            /// How the session ended (`completed`, `failed`, ...; free text in v1.0.0).
            status: ShortString,
            /// How many turns were completed in the session.
            turns_total: u64,
        }
        optional {
            /// How many participants took part.
            participants_count: u64,
            /// How many broadcasts were sent.
            broadcasts_count: u64,
            /// How many conflicts were detected.
            conflicts_count: u64,
            /// How long the session took, in milliseconds.
            duration_ms: u64,
        }
    }
}

impl RoleAssignment {
    /// A binding with a participant kind.
    #[must_use]
    pub fn with_kind(mut self, kind: impl Into<ShortString>) -> Self {
        self.kind = Some(kind.into());
        self
    }
}

impl BroadcastReceived {
    /// The broadcast this answers: `broadcast_id`, or else `broadcast_ref`.
    pub fn broadcast_link(&self) -> Option<&str> {
        self.broadcast_id
            .as_deref()
            .or(self.broadcast_ref.as_deref())
    }
}

/// One MAP event (`events/mplp-map-event.schema.json`).
///
/// The event type is not a field: it follows from the [`MapPayload`]
/// variant ([`MapEvent::event_type`]), so the two can never disagree.
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(
    document,
    tag = "event_type",
    tag_after = "event_id",
    unknown_hint = "event_family_hint"
)]
#[non_exhaustive]
pub struct MapEvent {
    /// UUID naming this event (`format: uuid`).
    pub event_id: SchemaUuid,
    /// RFC 3339 date-time at which the event happened.
    pub timestamp: Timestamp,
    /// The collaboration session: the `collab_id` of the Collab document.
    pub session_id: SessionId,
    /// Role that triggered the event, when the event type has one.
    pub initiator_role: Option<ShortString>,
    /// Roles the event is aimed at, for example the recipients of a broadcast
    /// (one role, a turn's, kept without an allocation: [`ShortList`]).
    pub target_roles: Option<ShortList<ShortString>>,
    /// The typed payload (which also gives the event type, written as the
    /// `event_type` member).
    #[wire(tagged)]
    pub payload: MapPayload,
}

impl MapEvent {
    /// An event of the given payload, with a fresh event id (lowercase UUID
    /// v4) and the current time.
    pub fn new(session_id: impl Into<SessionId>, payload: MapPayload) -> Self {
        Self::new_at(session_id, payload, SchemaUuid::new(), Timestamp::now())
    }

    /// An event of the given payload with the given event id and timestamp:
    /// what a runtime with its own clock uses (no random id is drawn and no
    /// clock is read, unlike [`MapEvent::new`] followed by
    /// [`MapEvent::with_event_id`] and [`MapEvent::with_timestamp`]).
    ///
    /// ```
    /// use mplp_core::{CollabId, Timestamp};
    /// use mplp_events::map::{MapPayload, TurnCompleted};
    /// use mplp_events::{MapEvent, SchemaUuid};
    /// let at = Timestamp::parse("2025-12-07T00:00:05.000Z")?;
    /// let id: SchemaUuid = "ca7350a9-f7ff-4c29-b07d-de720544a6a0".parse()?;
    /// let payload = MapPayload::TurnCompleted(TurnCompleted::new("coder".into(), 1, "completed".into()));
    /// let e = MapEvent::new_at(CollabId::new(), payload, id.clone(), at.clone());
    /// assert_eq!((&e.event_id, &e.timestamp), (&id, &at));
    /// assert_eq!(e.event_type().as_str(), "MAPTurnCompleted");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new_at(
        session_id: impl Into<SessionId>,
        payload: MapPayload,
        event_id: SchemaUuid,
        timestamp: Timestamp,
    ) -> Self {
        MapEvent {
            event_id,
            timestamp,
            session_id: session_id.into(),
            initiator_role: None,
            target_roles: None,
            payload,
        }
    }

    /// `MAPSessionStarted` with the mode and the number of participants.
    pub fn session_started(
        session_id: impl Into<SessionId>,
        mode: CollabMode,
        participant_count: u64,
    ) -> Self {
        Self::new(
            session_id,
            MapPayload::SessionStarted(SessionStarted::new(mode, participant_count)),
        )
    }

    /// `MAPRolesAssigned` with the participant-role bindings.
    pub fn roles_assigned(
        session_id: impl Into<SessionId>,
        assignments: Vec<RoleAssignment>,
    ) -> Self {
        Self::new(
            session_id,
            MapPayload::RolesAssigned(RolesAssigned::new(assignments)),
        )
    }

    /// `MAPTurnDispatched`: turn `turn_number` (1, 2, ...) goes to `role_id`.
    /// `target_roles` is set to `[role_id]`.
    pub fn turn_dispatched(
        session_id: impl Into<SessionId>,
        role_id: impl Into<ShortString>,
        turn_number: u64,
    ) -> Self {
        let role_id = role_id.into();
        let mut e = Self::new(
            session_id,
            MapPayload::TurnDispatched(TurnDispatched::new(role_id.clone(), turn_number)),
        );
        e.target_roles = Some(ShortList::one(role_id));
        e
    }

    /// `MAPTurnCompleted`: `role_id` finished turn `turn_number` with `status`
    /// (`"completed"` for a successful turn).
    pub fn turn_completed(
        session_id: impl Into<SessionId>,
        role_id: impl Into<ShortString>,
        turn_number: u64,
        status: impl Into<ShortString>,
    ) -> Self {
        Self::new(
            session_id,
            MapPayload::TurnCompleted(TurnCompleted::new(
                role_id.into(),
                turn_number,
                status.into(),
            )),
        )
    }

    /// `MAPBroadcastSent`: `broadcaster_role_id` fans a message out to
    /// `target_roles`. Sets `initiator_role`, `target_roles` and the payload's
    /// `broadcaster_role_id`, `target_count` and `broadcast_id`; receivers
    /// name it in `broadcast_ref` ([`MapEvent::broadcast_received`]).
    pub fn broadcast_sent(
        session_id: impl Into<SessionId>,
        broadcast_id: impl Into<ShortString>,
        broadcaster_role_id: impl Into<ShortString>,
        target_roles: Vec<ShortString>,
    ) -> Self {
        let broadcaster = broadcaster_role_id.into();
        let mut p = BroadcastSent::new();
        p.broadcaster_role_id = Some(broadcaster.clone());
        p.target_count = Some(target_roles.len() as u64);
        p.broadcast_id = Some(broadcast_id.into());
        let mut e = Self::new(session_id, MapPayload::BroadcastSent(Some(p)));
        e.initiator_role = Some(broadcaster);
        e.target_roles = Some(target_roles.into());
        e
    }

    /// `MAPBroadcastReceived`: `receiver_role_id` answers the broadcast whose
    /// `broadcast_id` is `broadcast`, named as `broadcast_ref` (the spelling
    /// of the MAP events seed's example and of its check,
    /// `validateBroadcastReceivers`; the canonical schema allows any payload
    /// member).
    ///
    /// ```
    /// use mplp_core::{CollabId, Document};
    /// use mplp_events::MapEvent;
    /// let e = MapEvent::broadcast_received(CollabId::new(), "b-1", "critic");
    /// let wire = e.to_value();
    /// assert_eq!(wire["payload"]["broadcast_ref"], "b-1");
    /// assert_eq!(wire["payload"]["receiver_role_id"], "critic");
    /// assert!(wire["payload"].get("broadcast_id").is_none());
    /// ```
    pub fn broadcast_received(
        session_id: impl Into<SessionId>,
        broadcast: impl Into<ShortString>,
        receiver_role_id: impl Into<ShortString>,
    ) -> Self {
        let mut p = BroadcastReceived::new();
        p.receiver_role_id = Some(receiver_role_id.into());
        p.broadcast_ref = Some(broadcast.into());
        Self::new(session_id, MapPayload::BroadcastReceived(Some(p)))
    }

    /// `MAPConflictDetected`: conflict `conflict_id` on `resource` between `participants`.
    pub fn conflict_detected(
        session_id: impl Into<SessionId>,
        conflict_id: impl Into<ShortString>,
        resource: impl Into<String>,
        participants: Vec<ShortString>,
    ) -> Self {
        let mut p = ConflictDetected::new();
        p.conflict_id = Some(conflict_id.into());
        p.resource = Some(resource.into());
        p.participants = Some(participants);
        Self::new(session_id, MapPayload::ConflictDetected(Some(p)))
    }

    /// `MAPConflictResolved`: conflict `conflict_id` resolved by `strategy`.
    pub fn conflict_resolved(
        session_id: impl Into<SessionId>,
        conflict_id: impl Into<ShortString>,
        strategy: impl Into<ShortString>,
    ) -> Self {
        let mut p = ConflictResolved::new();
        p.conflict_id = Some(conflict_id.into());
        p.strategy = Some(strategy.into());
        Self::new(session_id, MapPayload::ConflictResolved(Some(p)))
    }

    /// `MAPSessionCompleted` with the final status (`"completed"` for a
    /// successful session) and the number of completed turns.
    pub fn session_completed(
        session_id: impl Into<SessionId>,
        status: impl Into<ShortString>,
        turns_total: u64,
    ) -> Self {
        Self::new(
            session_id,
            MapPayload::SessionCompleted(SessionCompleted::new(status.into(), turns_total)),
        )
    }

    /// The same event with `initiator_role` set.
    #[must_use]
    pub fn with_initiator_role(mut self, role: impl Into<ShortString>) -> Self {
        self.initiator_role = Some(role.into());
        self
    }

    /// The same event with `target_roles` set.
    #[must_use]
    pub fn with_target_roles(mut self, roles: impl Into<ShortList<ShortString>>) -> Self {
        self.target_roles = Some(roles.into());
        self
    }

    /// The same event with another timestamp.
    #[must_use]
    pub fn with_timestamp(mut self, timestamp: Timestamp) -> Self {
        self.timestamp = timestamp;
        self
    }

    /// The same event with another event id.
    #[must_use]
    pub fn with_event_id(mut self, event_id: SchemaUuid) -> Self {
        self.event_id = event_id;
        self
    }

    /// The event type (from the payload variant).
    pub const fn event_type(&self) -> MapEventType {
        self.payload.event_type()
    }

    /// The event family, derived from the event type.
    pub const fn family(&self) -> EventFamily {
        self.payload.event_type().family()
    }
}

pub(crate) const EVENT_FAMILY_MESSAGE: &str = "MAP events carry no `event_family` (the canonical envelope forbids it; the MAP events prose's examples are wrong here): the family follows from `event_type`, see MapEvent::family";

/// The message for a MAP event's `event_family` member.
fn event_family_hint(member: &str) -> Option<&'static str> {
    (member == "event_family").then_some(EVENT_FAMILY_MESSAGE)
}

pub(crate) const MAP_PAYLOAD_RULES: PayloadRules = PayloadRules {
    required: rules::MAP_PAYLOAD_REQUIRED,
    type_: rules::MAP_PAYLOAD_TYPE,
    enum_: rules::MAP_PAYLOAD_ENUM,
    format: rules::MAP_PAYLOAD_FORMAT,
    missing_why: " (the MAP events spec requires them)",
};

fn check_map_event_type(value: &Value, at: &Pointer, report: &mut Report) {
    if value.as_str() == Some("MAPHandoffInitiated") {
        report.error(
            at,
            Rule::ENUM,
            format!(
                "`MAPHandoffInitiated` is recommended by the MAP events prose but is not an event type of MPLP v1.0.0 (the schema's enum); expected one of: {}",
                MapEventType::NAMES.join(", ")
            ),
        );
        return;
    }
    MapEventType::check_value(value, at, report);
}

impl Document for MapEvent {
    const KIND: &'static str = "map-event";
}
