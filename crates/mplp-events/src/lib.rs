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
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod core_event;
pub mod log;
pub mod map;
mod payload;
pub mod rules;
pub mod sa;
mod uuid;

pub use crate::core_event::{CoreEvent, CoreFamily};
pub use crate::map::{EventFamily, MapEvent, MapEventType, MapPayload};
pub use crate::sa::{SaEvent, SaEventType, SaPayload};
pub use crate::uuid::{SaId, SchemaUuid, SessionId, UuidFormatError};
