//! The event log ([`EVENT_LOG`](crate::EVENT_LOG)): NDJSON whose lines are
//! events of any kind, as runtimes write them (`execution.ndjson`,
//! `tool-events.ndjson`, `fs-events.ndjson`, a mix of module, core,
//! integration and learning events). Each line is recognised by the table
//! ([`detect`](crate::detect)) and validated as that kind; a line that is
//! not an event ([`EVENT_KINDS`](crate::EVENT_KINDS)) is an `unknown-kind`
//! error at its line. Event ids are unique across the log, as in every log.

use std::io::BufRead;
use std::ops::ControlFlow;

use mplp_core::{Report, Violation};
use mplp_events::log::LogOptions;
use uuid::Uuid;

use crate::kinds::{EVENT_KINDS, Reader};

/// Streams an event log (the row's streaming validator).
pub(crate) fn stream_event_log(
    reader: &mut dyn BufRead,
    options: &LogOptions,
    on: &mut dyn FnMut(Violation) -> ControlFlow<()>,
) -> ControlFlow<()> {
    mplp_events::log::stream_lines(reader, options, check_line, on)
}

/// The push form (a [`LogFeed`](mplp_events::log::LogFeed) fed chunk by chunk).
pub(crate) fn feed(options: &LogOptions) -> mplp_events::log::LogFeed {
    mplp_events::log::LogFeed::judged_by(options, check_line)
}

/// Probes a line's `event_id` only.
#[derive(serde::Deserialize)]
struct IdProbe {
    event_id: Option<String>,
}

/// Validates one line as the event kind it is; its event id, when it has
/// a readable one.
fn check_line(bytes: &[u8], report: &mut Report) -> Option<Uuid> {
    let kind = match crate::detect(bytes) {
        Ok(kind) => kind,
        Err(v) => {
            report.push(v);
            return None;
        }
    };
    if !EVENT_KINDS.contains(&kind) {
        report.error(
            "",
            crate::UNKNOWN_KIND,
            format!(
                "expected an event (one of: {}), found a {} document",
                EVENT_KINDS
                    .iter()
                    .map(|k| k.name)
                    .collect::<Vec<_>>()
                    .join(", "),
                kind.name
            ),
        );
        return None;
    }
    if let Reader::Document(typed) = kind.reader {
        let (found, _) = (typed.parse)(bytes);
        for mut v in found {
            v.message = format!("{} (the line is read as a {})", v.message, kind.name);
            report.push(v);
        }
    }
    let probe: IdProbe = mplp_json::nesting::from_slice(bytes).ok()?;
    Uuid::parse_str(&probe.event_id?).ok()
}
