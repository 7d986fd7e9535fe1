//! MPLP v1.0.0 **Collab** module: collaboration sessions of several agents,
//! people and systems, and a runtime that drives them and emits MAP events.
//!
//! - [`Collab`], [`Participant`], [`CollabStatus`], [`ParticipantKind`]
//!   (and `mplp_core::CollabMode`): the wire types, exactly as the canonical
//!   schema says; reading and validation through [`mplp_core::Document`]
//!   (kind `collab`) with the MAP structure rules.
//! - The lifecycle table ([`CollabStatus::can_transition_to`],
//!   [`Collab::transition_at`]).
//! - Coordination: [`turns`] (turn management, turn tokens, exclusive
//!   write), [`broadcast`] (fan-out / fan-in), [`swarm`] (task claims),
//!   [`conflict`] (versioned resources and resolution strategies).
//! - [`runtime::MapSession`]: drives a session in any mode with the
//!   caller's agents and emits MAP events to a [`sink::EventSink`];
//!   plans can drive the turns ([`runtime::MapSession::run_plan`]).
//! - [`simulate`]: reproducible simulated sessions (`mplp collab simulate`);
//!   [`render`]: Mermaid sequence diagrams of logs; [`rng`]: the SDK's one
//!   seeded generator.
//! - [`rules`]: the registry of this crate's rules (id, severity per
//!   profile, source in the spec); see `docs/rules.md`.
//!
//! # Spec notes
//! (Also in `docs/spec-notes.md ("mplp-collab")`; each is pinned by a test in
//! `tests/spec_notes.rs`.)
//! - **Orchestrator designation** (SPEC-QUESTIONS 15): a participant is the
//!   orchestrator when its `participant_id` or `role_id` is `orchestrator`,
//!   `role-orchestrator` or `orchestrator-<n>` (any case; the seeds use
//!   both ids and roles), or when designated explicitly
//!   ([`orchestrator::Designation`]); build one with
//!   [`Participant::orchestrator`]. An `orchestrated` session needs one:
//!   none is an error at `/participants`, each extra one a warning at
//!   `/participants/i`, both `map_orchestrator_required`. Other modes may
//!   have one (it then sends broadcasts and decides conflicts), but need not.
//! - **`role_id` policy** (16): `map_participants_have_role_ids` is a
//!   **warning**, since the schema makes `role_id` optional. MAP events name
//!   a participant without a role by its `participant_id`.
//! - **`pair`** means exactly two participants (`map_pair_two_participants`);
//!   `map_session_requires_participants`/`map_min_participants` and
//!   `map_participant_kind_valid` are the schema's `min-items` and `enum`.
//! - **Lifecycle** (18): `draft → active | cancelled`, `active → suspended |
//!   completed | cancelled`, `suspended → active | cancelled`; `completed`
//!   and `cancelled` are final; participants act only while `active`
//!   (`map_participants_can_act`). See `CollabStatus::can_transition_to`.
//! - **Turn accounting** (13): turn numbers are 1, 2, 3, ... in dispatch
//!   order without gaps, across all participants; every dispatched turn is
//!   completed (status `completed` or `failed`), so `turns_total` counts
//!   completions and equals dispatches. Turns overlap only in `swarm` (at
//!   most one per participant); `broadcast` rounds are not turns.
//!   `MAPSessionCompleted.status` is the final Collab status
//!   (`completed`/`cancelled`).
//! - **Exclusive write** (`map_exclusive_write`): the shared state is
//!   written only through a [`TurnToken`], which cannot be cloned and is
//!   consumed when the turn completes (see [`turns`]).
//! - **Conflicts**: resources carry versions; a write based on a stale
//!   version is a conflict, recorded, resolved by `hierarchy`,
//!   `first_writer_wins`, `last_writer_wins` or `orchestrator_decides`
//!   ([`conflict`]), each emitted as `MAPConflictDetected`/`MAPConflictResolved`.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod broadcast;
mod collab;
pub mod conflict;
mod lifecycle;
pub mod orchestrator;
pub mod rng;
pub mod swarm;
pub mod turns;

pub use collab::*;
pub use turns::{TurnManager, TurnState, TurnToken};
pub mod render;
pub mod rules;
pub mod runtime;
pub mod simulate;
pub mod sink;

// --- Re-exports and README doc tests; keep this block last. ---

/// What users of this crate need from `mplp-core`, so that depending on
/// `mplp-collab` alone is enough to read, check and write its documents.
#[doc(no_inline)]
pub use mplp_core::{
    CollabId, CollabMode, ContextId, Document, Error, Meta, Report, Timestamp, Violation,
};

// The crate README: each of its Rust snippets is a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
