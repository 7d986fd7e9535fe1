//! Typed MPLP v1.0.0 **events**: MAP (multi-agent) events, SA (single-agent)
//! events, the observability events of the event taxonomy, and streaming
//! validation of NDJSON event logs.
//!
//! ```
//! use mplp_core::{CollabId, CollabMode, Document};
//! use mplp_events::MapEvent;
//!
//! let session = CollabId::new();
//! let event = MapEvent::turn_dispatched(session, "coder", 1);
//! let json = event.to_json();
//! assert_eq!(MapEvent::from_json(&json)?, event);
//! # let _ = CollabMode::Swarm;
//! # Ok::<(), mplp_core::Error>(())
//! ```
//!
//! - [`MapEvent`] (KIND `map-event`), [`SaEvent`] (`sa-event`) and
//!   [`CoreEvent`] (`event`) implement [`mplp_core::Document`].
//! - [`learning`]: learning samples, [`learning::LearningSample`]
//!   (`learning-sample`, typed by `sample_family`) and
//!   [`learning::CommonLearningSample`] (`common-learning-sample`).
//! - [`integration`]: [`integration::ToolEvent`], [`integration::FileUpdateEvent`],
//!   [`integration::GitEvent`], [`integration::CiEvent`].
//! - [`formats`]: `format: uri`, `format: email` and bounded numbers.
//! - [`log`]: NDJSON logs as streams ([`log::LogReader`], [`log::LogWriter`],
//!   and [`log::EventSink`], the SDK's one sink trait).
//! - [`validate`]: the streaming validators behind
//!   [`validate::validate_map_log`] and [`validate::validate_sa_log`] (also
//!   re-exported from [`log`]).
//! - [`rules`]: the rules reported beyond the schema rules, each declared once
//!   with its severity per profile and its source ([`rules::RULES`]), and the
//!   observability, learning and integration invariants with their canonical
//!   ids ([`rules::OBS_RULES`], [`rules::LEARNING_RULES`],
//!   [`rules::INTEGRATION_RULES`]).
//! - [`unique_ids`]: repeated `event_id`s in a log (`log_unique_event_ids`),
//!   exact within a bounded window.
//!
//! # Spec notes
//! Decisions where the MPLP sources disagree or are silent (also in
//! `docs/spec-notes.md ("mplp-events")`; each is pinned by a test):
//! - **UUIDs of the event schemas** (SPEC-QUESTIONS 2): `format: uuid` fields
//!   accept what the `jsonschema` crate's `uuid` format accepts (36 characters,
//!   hyphenated, hex in either case, any version) and keep their text
//!   ([`SchemaUuid`]); constructors write lowercase v4. [`SessionId`] converts
//!   from `CollabId` and back when canonical.
//! - **Typed payloads are SDK rules** (SPEC-QUESTIONS 9): the schema only says
//!   `payload` is an object. The SDK requires the seed's fields (e.g. `mode`
//!   and `participant_count` of `MAPSessionStarted`; `role_id`, `turn_number`
//!   and `status` of `MAPTurnCompleted`) and types the optional ones it names;
//!   a miss is `map_payload_required` at `/payload/<field>` (or at `/payload`
//!   when the payload is absent), a wrong type `map_payload_type`, a bad enum
//!   value `map_payload_enum`. Other members are kept in `extra`. The turn
//!   `role_id` is free text (the schema's unreferenced `$defs` say uuid, every
//!   example says `coder`); both `receiver_role_id`/`receiver_role`,
//!   `broadcast_id`/`broadcast_ref` and the seed's and examples' conflict
//!   field names are typed. SA step payloads follow the schema's `$defs`
//!   (`step_id` uuid, `status` completed|failed), as `sa_payload_*` rules.
//! - **`event_family` and `MAPHandoffInitiated`** (SPEC-QUESTIONS 11, 12): refused
//!   on the wire (`additional-properties` at `/event_family`, `enum` at
//!   `/event_type`) with a message saying why; the family is derived by
//!   [`MapEvent::family`].
//! - **Broadcast links** (SPEC-QUESTIONS 10): a receiver names the broadcast
//!   it answers with `broadcast_ref` (what the SDK writes: the prose's
//!   spelling, which its check `validateBroadcastReceivers` reads) or
//!   `broadcast_id` (read as the same link). Broadcasts and receivers
//!   without ids are matched per session, as the invariant text says.
//! - **Turn accounting** (SPEC-QUESTIONS 13): turn numbers of a session are
//!   1, 2, 3, ... in dispatch order, without gaps or repeats; turns may
//!   overlap in `swarm` and `broadcast` sessions only (the coordination
//!   modes: exclusive turns, round-robin rotation, pairs of two, assigned
//!   roles, timestamps in order; see the spec notes); `turns_total` counts the `MAPTurnCompleted` events
//!   of the session (whatever their status); statuses are free text.
//! - **Sessions** are identified by the UUID value of `session_id`; a log
//!   may interleave sessions. A session has exactly one `MAPSessionStarted`
//!   (first), one `MAPRolesAssigned` (before any other event), one
//!   `MAPSessionCompleted` (last).
//! - **JSON Schema** (feature `schemars`): every event type's
//!   `schemars::JsonSchema` comes from its `#[derive(Wire)]` declaration,
//!   describing the envelope exactly as `Deserialize` accepts it; `payload`
//!   is an object there, since the typed payloads are SDK rules.
//!   `CoreEvent`'s three typed families and `LearningSample`'s two typed
//!   families are `if`/`then` branches on the tag member.
//! - **Round trips** are exact as JSON values; the envelope and typed
//!   payload members keep the order the SDK writes (the seed's and examples'
//!   order). Free-form objects (`extra`, `extensions`, `result`, `response`, ...) are
//!   `serde_json` maps, whose keys come back sorted unless serde_json's
//!   `preserve_order` feature is on.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod core_event;
pub mod formats;
pub mod integration;
mod invariants;
pub mod learning;
pub mod log;
pub mod map;
mod payload;
pub mod rules;
pub mod sa;
#[cfg(feature = "schemars")]
mod schema;
pub mod unique_ids;
mod uuid;
pub mod validate;

pub use crate::core_event::{CoreEvent, CoreFamily};
pub use crate::map::{EventFamily, MapEvent, MapEventType, MapPayload};
pub use crate::sa::{SaEvent, SaEventType, SaPayload};
pub use crate::uuid::{SaId, SchemaUuid, SessionId, UuidFormatError};

// --- Re-exports and README doc tests; keep this block last. ---

/// What users of this crate need from `mplp-core`, so that depending on
/// `mplp-events` alone is enough to read, check and write its documents.
#[doc(no_inline)]
pub use mplp_core::{
    BaseEvent, CollabId, ContextId, Document, Error, EventId, EventType, Report, SpanId, Timestamp,
    TraceId, Violation,
};

// The crate README: each of its Rust snippets is a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
