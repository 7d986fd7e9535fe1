//! The one mapping of MAP events to spans, shared by both sinks: which
//! event opens, annotates or closes which span.

// Without `opentelemetry` the timestamps are not read (`tracing` spans are
// live), and without either sink only the id functions are used.
#![cfg_attr(not(feature = "opentelemetry"), allow(dead_code))]

use std::collections::HashMap;

use mplp_core::{ShortString, Timestamp};
use mplp_events::{MapEvent, MapPayload};

/// The trace id of a session: the 128 bits of its `session_id` (a UUID),
/// so the OpenTelemetry trace id *is* the session id (`b3ef…` ↔
/// `b3ef…`, hex without hyphens). `None` for the all-zero UUID, which
/// OpenTelemetry does not accept as a trace id.
///
/// ```
/// use mplp_events::SessionId;
/// let session = SessionId::parse("2b1d4a4e-8f3c-4c1e-9a6b-0d2f3e4a5b6c")?;
/// assert_eq!(mplp_otel::trace_id_of(&session), Some(0x2b1d4a4e_8f3c_4c1e_9a6b_0d2f3e4a5b6c));
/// # Ok::<(), mplp_events::UuidFormatError>(())
/// ```
pub fn trace_id_of(session: &mplp_events::SessionId) -> Option<u128> {
    Some(session.as_schema_uuid().as_uuid().as_u128()).filter(|id| *id != 0)
}

/// The 32 lowercase hex digits of a trace id, as W3C `traceparent` and the
/// OpenTelemetry exporters write it.
pub fn trace_id_hex(trace_id: u128) -> String {
    format!("{trace_id:032x}")
}

/// A scalar attribute value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Attr {
    Str(String),
    Int(i64),
}

pub(crate) type Attrs = Vec<(&'static str, Attr)>;

/// Which span.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Session(u128),
    Turn(u128, u64),
    Broadcast(u128, ShortString),
    Conflict(u128, ShortString),
}

/// What an event does to the spans.
#[derive(Debug)]
pub(crate) enum Action {
    Open {
        key: Key,
        parent: Option<Key>,
        name: &'static str,
        trace_id: u128,
        at: Timestamp,
        attrs: Attrs,
    },
    Note {
        key: Key,
        name: &'static str,
        at: Timestamp,
        attrs: Attrs,
    },
    Close {
        key: Key,
        at: Timestamp,
        error: Option<String>,
        attrs: Attrs,
    },
}

/// The open broadcasts and conflicts of a session, in the order opened.
#[derive(Default)]
struct Open {
    turns: Vec<u64>,
    broadcasts: Vec<(ShortString, Timestamp)>,
    conflicts: Vec<ShortString>,
}

/// Follows MAP events and says which spans they open and close.
#[derive(Default)]
pub(crate) struct Tracker {
    sessions: HashMap<u128, Open>,
}

fn str_attr(name: &'static str, value: &str) -> (&'static str, Attr) {
    (name, Attr::Str(value.to_string()))
}

fn int_attr(name: &'static str, value: u64) -> (&'static str, Attr) {
    (name, Attr::Int(i64::try_from(value).unwrap_or(i64::MAX)))
}

impl Tracker {
    /// The actions of one event, in order.
    pub(crate) fn follow(&mut self, event: &MapEvent) -> Vec<Action> {
        let Some(sid) = trace_id_of(&event.session_id) else {
            return Vec::new();
        };
        let at = event.timestamp.clone();
        // Opening and annotating events name the span's session and
        // themselves; closing events add their id as `mplp.end_event_id`.
        let closes = matches!(
            event.payload,
            MapPayload::TurnCompleted(_)
                | MapPayload::ConflictResolved(_)
                | MapPayload::SessionCompleted(_)
        );
        let mut attrs: Attrs = if closes {
            vec![str_attr("mplp.end_event_id", &event.event_id.to_string())]
        } else {
            vec![
                str_attr("mplp.session_id", &event.session_id.to_string()),
                str_attr("mplp.event_id", &event.event_id.to_string()),
            ]
        };
        if let (false, Some(role)) = (closes, &event.initiator_role) {
            attrs.push(str_attr("mplp.initiator_role", role));
        }
        let session = Key::Session(sid);
        let mut out = Vec::new();
        match &event.payload {
            MapPayload::SessionStarted(p) => {
                self.sessions.entry(sid).or_default();
                attrs.push(str_attr("mplp.mode", &p.mode.to_string()));
                attrs.push(int_attr("mplp.participant_count", p.participant_count));
                out.push(Action::Open {
                    key: session,
                    parent: None,
                    name: "mplp.session",
                    trace_id: sid,
                    at,
                    attrs,
                });
            }
            MapPayload::RolesAssigned(p) => {
                attrs.push(int_attr("mplp.assignments", p.assignments.len() as u64));
                out.push(Action::Note {
                    key: session,
                    name: "mplp.roles_assigned",
                    at,
                    attrs,
                });
            }
            MapPayload::TurnDispatched(p) => {
                self.sessions
                    .entry(sid)
                    .or_default()
                    .turns
                    .push(p.turn_number);
                attrs.push(str_attr("mplp.role_id", &p.role_id));
                attrs.push(int_attr("mplp.turn_number", p.turn_number));
                if let Some(token) = &p.token_id {
                    attrs.push(str_attr("mplp.token_id", token));
                }
                out.push(Action::Open {
                    key: Key::Turn(sid, p.turn_number),
                    parent: Some(session),
                    name: "mplp.turn",
                    trace_id: sid,
                    at,
                    attrs,
                });
            }
            MapPayload::TurnCompleted(p) => {
                if let Some(open) = self.sessions.get_mut(&sid) {
                    open.turns.retain(|t| *t != p.turn_number);
                }
                attrs.push(str_attr("mplp.status", &p.status));
                let error = (p.status != "completed").then(|| format!("turn {}", p.status));
                out.push(Action::Close {
                    key: Key::Turn(sid, p.turn_number),
                    at,
                    error,
                    attrs,
                });
            }
            MapPayload::BroadcastSent(p) => {
                let id = p
                    .as_ref()
                    .and_then(|p| p.broadcast_id.clone())
                    .unwrap_or_else(|| event.event_id.to_string().into());
                if let Some(p) = p {
                    if let Some(role) = &p.broadcaster_role_id {
                        attrs.push(str_attr("mplp.broadcaster_role_id", role));
                    }
                    if let Some(n) = p.target_count {
                        attrs.push(int_attr("mplp.target_count", n));
                    }
                }
                attrs.push(str_attr("mplp.broadcast_id", &id));
                self.sessions
                    .entry(sid)
                    .or_default()
                    .broadcasts
                    .push((id.clone(), at.clone()));
                out.push(Action::Open {
                    key: Key::Broadcast(sid, id),
                    parent: Some(session),
                    name: "mplp.broadcast",
                    trace_id: sid,
                    at,
                    attrs,
                });
            }
            MapPayload::BroadcastReceived(p) => {
                let open = self.sessions.entry(sid).or_default();
                // The broadcast it answers, or (without a link) the latest one.
                let link = p
                    .as_ref()
                    .and_then(|p| p.broadcast_link().map(str::to_string));
                let found = match &link {
                    Some(id) => open.broadcasts.iter_mut().find(|(b, _)| b == id),
                    None => open.broadcasts.last_mut(),
                };
                if let Some((id, last)) = found {
                    *last = at.clone();
                    if let Some(role) = p
                        .as_ref()
                        .and_then(|p| p.receiver_role_id.as_ref().or(p.receiver_role.as_ref()))
                    {
                        attrs.push(str_attr("mplp.receiver_role_id", role));
                    }
                    out.push(Action::Note {
                        key: Key::Broadcast(sid, id.clone()),
                        name: "mplp.broadcast_received",
                        at,
                        attrs,
                    });
                }
            }
            MapPayload::ConflictDetected(p) => {
                let id = p
                    .as_ref()
                    .and_then(|p| p.conflict_id.clone())
                    .unwrap_or_else(|| event.event_id.to_string().into());
                if let Some(p) = p {
                    if let Some(resource) = p.resource.as_ref().or(p.resource_id.as_ref()) {
                        attrs.push(str_attr("mplp.resource", resource));
                    }
                    if let Some(kind) = &p.conflict_type {
                        attrs.push(str_attr("mplp.conflict_type", kind));
                    }
                }
                attrs.push(str_attr("mplp.conflict_id", &id));
                self.sessions
                    .entry(sid)
                    .or_default()
                    .conflicts
                    .push(id.clone());
                out.push(Action::Open {
                    key: Key::Conflict(sid, id),
                    parent: Some(session),
                    name: "mplp.conflict",
                    trace_id: sid,
                    at,
                    attrs,
                });
            }
            MapPayload::ConflictResolved(p) => {
                let open = self.sessions.entry(sid).or_default();
                let named = p.as_ref().and_then(|p| p.conflict_id.clone());
                // The conflict it names, or (without an id) the oldest open one.
                let index = match &named {
                    Some(id) => open.conflicts.iter().position(|c| c == id),
                    None => (!open.conflicts.is_empty()).then_some(0),
                };
                if let Some(index) = index {
                    let id = open.conflicts.remove(index);
                    if let Some(p) = p {
                        if let Some(s) = p.strategy.as_ref().or(p.resolution_strategy.as_ref()) {
                            attrs.push(str_attr("mplp.strategy", s));
                        }
                        if let Some(w) = p.winner.as_ref().or(p.winning_role.as_ref()) {
                            attrs.push(str_attr("mplp.winner", w));
                        }
                    }
                    out.push(Action::Close {
                        key: Key::Conflict(sid, id),
                        at,
                        error: None,
                        attrs,
                    });
                }
            }
            MapPayload::SessionCompleted(p) => {
                let open = self.sessions.remove(&sid).unwrap_or_default();
                let left =
                    |what: &str| Some(format!("{what} still open when the session completed"));
                for turn in open.turns {
                    out.push(Action::Close {
                        key: Key::Turn(sid, turn),
                        at: at.clone(),
                        error: left("turn"),
                        attrs: Vec::new(),
                    });
                }
                for id in open.conflicts {
                    out.push(Action::Close {
                        key: Key::Conflict(sid, id),
                        at: at.clone(),
                        error: left("conflict"),
                        attrs: Vec::new(),
                    });
                }
                // A broadcast has no end of its own: it ends with its last receipt.
                for (id, last) in open.broadcasts {
                    out.push(Action::Close {
                        key: Key::Broadcast(sid, id),
                        at: last,
                        error: None,
                        attrs: Vec::new(),
                    });
                }
                attrs.push(str_attr("mplp.status", &p.status));
                attrs.push(int_attr("mplp.turns_total", p.turns_total));
                let error = (p.status != "completed").then(|| format!("session {}", p.status));
                out.push(Action::Close {
                    key: session,
                    at,
                    error,
                    attrs,
                });
            }
        }
        out
    }
}
