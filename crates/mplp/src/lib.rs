//! The Rust SDK for **MPLP v1.0.0**, the Multi-Agent Lifecycle Protocol, in
//! one dependency.
//!
//! This crate re-exports the mplp-rs crates: the core types of
//! [`mplp-core`](mplp_core) at the root ([`Document`], the typed ids such as
//! [`PlanId`] and [`StepId`], [`Timestamp`], [`Meta`], [`Error`],
//! [`Report`], ...) and one module per MPLP module, each behind a feature:
//!
//! | module | crate | feature | default |
//! |---|---|---|---|
//! | [`plan`] | `mplp-plan` | `plan` | yes |
//! | [`dialog`] | `mplp-dialog` | `dialog` | yes |
//! | [`collab`] | `mplp-collab` | `collab` (turns on `plan` and `events`) | yes |
//! | [`events`] | `mplp-events` | `events` | yes |
//! | [`context`] | `mplp-context` | `context` | yes |
//! | [`confirm`] | `mplp-confirm` | `confirm` | yes |
//! | [`trace`] | `mplp-trace` | `trace` (turns on `plan`) | yes |
//! | [`role`] | `mplp-role` | `role` | yes |
//! | `check` | `mplp-check` (from bytes to a verdict: the kind table, the rule registry, the one validation dispatch, bundles) | `check` (turns on every module; `kinds` and `bundle` are other names of it) | no |
//! | `nats` | `mplp-nats` | `nats` (turns on `collab` and `tokio`) | no |
//! | `cloudevents` | `mplp-cloudevents` | `cloudevents` (turns on `events`) | no |
//! | `otel` | `mplp-otel` | `otel` (turns on `events`) | no |
//! | [`extension`] | `mplp-extension` | `extension` | yes |
//! | [`network`] | `mplp-network` | `network` | yes |
//! | [`manifest`] | `mplp-manifest` (the Core module, kind `core`) | `manifest` | yes |
//!
//! Pass-through features, off by default: `tokio` (async sinks, async log
//! validation and `AsyncMapSession` in [`events`] and [`collab`]), `schema` (the embedded JSON
//! Schemas and `jsonschema` validation, as `mplp::schema`), `schemars`
//! (`schemars::JsonSchema` for the document types), `tiktoken` (exact
//! OpenAI token counts in [`dialog`]) and `http` (the chat client
//! `dialog::agent::client`).
//!
//! [`prelude`] holds what the common tasks need, so one `use` line is enough:
//!
//! ```
//! use mplp::prelude::*;
//!
//! let mut b = Plan::builder(ContextId::new(), "Ship it", "Release 1.0");
//! let test = b.step("Run the tests");
//! let mut plan = b.build()?;
//! plan.propose()?;
//! plan.approve(&ConfirmDecision::approved("lead"))?;
//! plan.start()?;
//! assert_eq!(plan.ready_steps(), [test]);
//! let again = Plan::from_json(plan.to_json())?; // exact round trip
//! assert_eq!(again.to_json(), plan.to_json());
//! # Ok::<(), mplp::Error>(())
//! ```
//!
//! The workspace README (also this crate's README) has a quick start per
//! common task; each of its Rust snippets is a doc test of this crate.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[doc(no_inline)]
pub use mplp_core::*;

/// The JSON library of the SDK's public API (`Document::to_value`, payloads,
/// provider request bodies), re-exported so that its version always matches.
pub use serde_json;

/// Plans (`mplp-plan`): a DAG of steps, builders, lifecycles, scheduling, rendering.
#[cfg(feature = "plan")]
#[doc(inline)]
pub use mplp_plan as plan;

/// Dialogs (`mplp-dialog`): messages, lifecycle, context windows, forking,
/// OpenAI and Anthropic request bodies.
#[cfg(feature = "dialog")]
#[doc(inline)]
pub use mplp_dialog as dialog;

/// Collab sessions (`mplp-collab`): participants, coordination modes, turn
/// tokens, conflicts, and `MapSession`, a runtime that emits MAP event logs.
#[cfg(feature = "collab")]
#[doc(inline)]
pub use mplp_collab as collab;

/// Events (`mplp-events`): typed MAP, SA and core events, NDJSON logs and
/// their validators.
#[cfg(feature = "events")]
#[doc(inline)]
pub use mplp_events as events;

/// Contexts (`mplp-context`): the root of a piece of work, its lifecycle and
/// owner role.
#[cfg(feature = "context")]
#[doc(inline)]
pub use mplp_context as context;

/// Confirms (`mplp-confirm`): approval requests, decisions taken as a
/// lifecycle.
#[cfg(feature = "confirm")]
#[doc(inline)]
pub use mplp_confirm as confirm;

/// Traces (`mplp-trace`): execution records of a plan, segments and their
/// lifecycles.
#[cfg(feature = "trace")]
#[doc(inline)]
pub use mplp_trace as trace;

/// Roles (`mplp-role`): capabilities and permissions of an agent role.
#[cfg(feature = "role")]
#[doc(inline)]
pub use mplp_role as role;

/// From bytes to a verdict (`mplp-check`): the kind table (detect a
/// document's kind, validate input of any kind), the rule registry, the one
/// validation dispatch every front end uses, and bundles (the rules between
/// documents: a plan's Context and Confirm, a trace's Context and Plan, ...).
#[cfg(feature = "check")]
#[doc(inline)]
pub use mplp_check as check;

/// Extensions (`mplp-extension`): type, SemVer version, configuration,
/// lifecycle.
#[cfg(feature = "extension")]
#[doc(inline)]
pub use mplp_extension as extension;
/// Sessions across processes and machines over NATS JetStream (`mplp-nats`).
#[cfg(feature = "nats")]
#[doc(inline)]
pub use mplp_nats as nats;

/// MPLP events as CloudEvents 1.0 and back (`mplp-cloudevents`).
#[cfg(feature = "cloudevents")]
#[doc(inline)]
pub use mplp_cloudevents as cloudevents;

/// Sessions as `tracing` and OpenTelemetry spans (`mplp-otel`).
#[cfg(feature = "otel")]
#[doc(inline)]
pub use mplp_otel as otel;

/// The SA session runtime (`mplp-runtime`): `SaSession`, executors,
/// approvers, failure policies, stores and evidence packs.
#[cfg(feature = "runtime")]
#[doc(inline)]
pub use mplp_runtime as runtime;

/// Networks (`mplp-network`): topology, nodes, network and node lifecycles.
#[cfg(feature = "network")]
#[doc(inline)]
pub use mplp_network as network;

/// The Core module (`mplp-manifest`): the manifest of a protocol instance
/// (protocol version, enabled modules, lifecycles); document kind `core`.
#[cfg(feature = "manifest")]
#[doc(inline)]
pub use mplp_manifest as manifest;

/// What the common tasks need: `use mplp::prelude::*;`.
///
/// Always: the [`Document`] trait (`from_json`, `validate_json`, `to_json`),
/// the typed ids, [`Timestamp`], [`Meta`], [`Error`], [`Report`] and
/// [`Violation`]. With the module features: the main document types and
/// the traits their methods need.
///
/// ```
/// use mplp::prelude::*;
///
/// let err = Dialog::from_json(r#"{"dialog_id": "d1"}"#).unwrap_err();
/// assert!(err.violations().iter().any(|v| v.pointer == "/dialog_id" && v.rule.as_str() == "pattern"));
/// ```
pub mod prelude {
    pub use mplp_core::{
        CollabId, CollabMode, ContextId, DialogId, Document, Error, EventId, Meta, MplpId, PlanId,
        Report, SpanId, StepId, ThreadId, Timestamp, TraceId, Violation,
    };

    #[cfg(feature = "plan")]
    pub use mplp_plan::{ConfirmDecision, Plan, PlanStatus, PlanStep, StepStatus};

    #[cfg(feature = "dialog")]
    pub use mplp_dialog::{
        ContextManager, DefaultContextManager, Dialog, DialogRole, DialogStatus,
    };

    #[cfg(feature = "collab")]
    pub use mplp_collab::{
        Collab, Participant,
        simulate::{SimConfig, simulate},
        sink::MemorySink,
    };

    #[cfg(feature = "events")]
    pub use mplp_events::{MapEvent, SaEvent};

    #[cfg(feature = "context")]
    pub use mplp_context::{Context, ContextStatus};

    #[cfg(feature = "confirm")]
    pub use mplp_confirm::{Confirm, ConfirmStatus, DecisionStatus};

    #[cfg(feature = "trace")]
    pub use mplp_trace::{Trace, TraceStatus};

    #[cfg(feature = "role")]
    pub use mplp_role::Role;
}

// The workspace README: every Rust snippet in it is a doc test of this crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
