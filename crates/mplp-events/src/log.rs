//! NDJSON event logs: streaming reading, writing and validation.
//!
//! A log is one JSON event per line. Everything here streams: memory does not
//! grow with the length of the log, only with what is still open (sessions
//! not completed, turns not completed, broadcasts not answered, conflicts not
//! resolved, steps not finished) and with the bounded window of event ids
//! kept to find repeats ([`crate::unique_ids`]). Blank lines are skipped; a bad line is
//! reported with its (1-based) line number and reading goes on.
//!
//! ```
//! use mplp_core::{CollabId, CollabMode};
//! use mplp_events::log::{validate_map_log, EventSink, LogWriter};
//! use mplp_events::map::RoleAssignment;
//! use mplp_events::MapEvent;
//!
//! let s = CollabId::new();
//! let mut log = LogWriter::new(Vec::new());
//! log.emit(MapEvent::session_started(s, CollabMode::RoundRobin, 1))?;
//! log.emit(MapEvent::roles_assigned(s, vec![RoleAssignment::new("p1".into(), "coder".into())]))?;
//! log.emit(MapEvent::turn_dispatched(s, "coder", 1))?;
//! log.emit(MapEvent::turn_completed(s, "coder", 1, "completed"))?;
//! log.emit(MapEvent::session_completed(s, "completed", 1))?;
//! let bytes = log.into_inner();
//! assert!(validate_map_log(&bytes[..]).is_empty());
//!
//! // Without the completion of turn 1:
//! let broken: Vec<&[u8]> = bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()).collect();
//! let text = [broken[0], broken[1], broken[2], broken[4]].join(&b'\n');
//! let report = validate_map_log(&text[..]);
//! let found: Vec<_> = report.errors().map(|v| (v.line, v.rule.as_str())).collect();
//! assert_eq!(found, [
//!     (Some(3), "map_turn_completion_matches_dispatch"),
//!     (Some(4), "map_session_counts_match"),
//! ]);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! The module is split by job: [`read`] (line splitting and typed parsing),
//! [`write`](mod@write) ([`EventSink`] and the NDJSON [`LogWriter`]); the validators live
//! in [`crate::validate`] and are re-exported here. With the `tokio` feature,
//! `async_io` has the async sink, writer and validation of `AsyncBufRead` streams.

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod async_io;
pub(crate) mod lines;
pub mod read;
pub mod write;

pub use lines::stream_lines;
pub use read::{LogEntry, LogReader, for_each_line};
pub use write::{EventSink, LogWriter, NullSink};

#[doc(no_inline)]
pub use crate::rules::{LOG_EMPTY, LOG_LINE_TOO_LONG, LOG_READ_ERROR};
#[doc(no_inline)]
pub use crate::validate::{
    DEFAULT_COMPLETED_MEMORY, DEFAULT_MAX_LINE_BYTES, LogFeed, LogOptions, MapLogValidator,
    SaLogValidator, stream_map_log, stream_sa_log, validate_map_log, validate_map_log_with,
    validate_sa_log, validate_sa_log_with,
};
