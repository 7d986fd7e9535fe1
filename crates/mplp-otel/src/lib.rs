//! MPLP v1.0.0 multi-agent sessions as **`tracing`** spans and
//! **OpenTelemetry** spans, and the observability events (pipeline stage,
//! runtime execution, graph update, ...) as OpenTelemetry spans.
//!
//! Both sinks wrap the `EventSink` a `MapSession` (or `AsyncMapSession`,
//! feature `tokio`) writes to, so the session runtime itself is unchanged
//! and pays nothing when they are not used. Every session, turn, broadcast
//! and conflict becomes a span:
//!
//! | span | opened by | closed by | parent |
//! |---|---|---|---|
//! | `mplp.session` | `MAPSessionStarted` | `MAPSessionCompleted` | (the session, see below) |
//! | `mplp.turn` | `MAPTurnDispatched` | `MAPTurnCompleted` (same `turn_number`) | session |
//! | `mplp.broadcast` | `MAPBroadcastSent` | its last `MAPBroadcastReceived`, at session end | session |
//! | `mplp.conflict` | `MAPConflictDetected` | `MAPConflictResolved` (same `conflict_id`, else the oldest open) | session |
//!
//! `MAPRolesAssigned` and each `MAPBroadcastReceived` are events on the
//! session and broadcast spans. Attributes are the MPLP ids and payload
//! members: `mplp.session_id`, `mplp.event_id` (the opening event),
//! `mplp.role_id`, `mplp.turn_number`, `mplp.token_id`, `mplp.status`,
//! `mplp.broadcast_id`, `mplp.conflict_id`, ... A turn whose status is not
//! `completed`, a session that does not complete, and what is still open
//! when its session completes end with an error status.
//!
//! **Ids agree**: the trace id of every span of a session *is* its
//! `session_id` ([`trace_id_of`]: the UUID's 128 bits; the hex digits
//! without hyphens), both in OpenTelemetry (the session span's parent is
//! the session as a remote span context, whose span id is the UUID's last 8
//! bytes) and in `tracing` (the `trace_id` field), and each span carries
//! the `event_id` of the event that opened it. OpenTelemetry spans start and
//! end at the events' timestamps; `tracing` spans are live (opened and
//! closed when the sink sees the events).
//!
//! ```
//! use mplp_collab::{CollabMode, simulate::{SimConfig, simulate}};
//! use mplp_otel::TracingSink;
//!
//! let mut log = Vec::new();
//! // With a `tracing` subscriber installed, the session shows up as spans.
//! simulate(&SimConfig::new(CollabMode::RoundRobin, 3, 6), TracingSink::new(&mut log))?;
//! assert!(matches!(log.last().map(|e| &e.payload), Some(mplp_events::MapPayload::SessionCompleted(_))));
//! # Ok::<(), mplp_collab::runtime::SessionError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "opentelemetry")]
mod otel;
mod spans;
#[cfg(feature = "tracing")]
mod tracing_sink;

#[cfg(feature = "opentelemetry")]
pub use crate::otel::{OtelSink, record_event};
pub use crate::spans::{trace_id_hex, trace_id_of};
#[cfg(feature = "tracing")]
pub use crate::tracing_sink::TracingSink;

// The crate README: each of its Rust snippets is a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
