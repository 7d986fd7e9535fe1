//! The one mapping of MAP events to spans, shared by both sinks: which
//! event opens, annotates or closes which span, and the one record of the
//! spans each session has open. A sink only says how a span is opened,
//! annotated and closed ([`Backend`]).

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

/// How a sink makes its spans: the only part the two sinks do differently.
pub(crate) trait Backend {
    /// An open span (a `tracing` span, an OpenTelemetry context).
    type Span;

    /// Opens the span `name` under `parent` (none: a session span, or a span
    /// whose session span is not open), in the trace `trace_id`.
    fn open(
        &self,
        name: &'static str,
        parent: Option<&Self::Span>,
        trace_id: u128,
        at: &Timestamp,
        attrs: Attrs,
    ) -> Self::Span;

    /// Records the event `name` on an open span.
    fn note(&self, span: &Self::Span, name: &'static str, at: &Timestamp, attrs: Attrs);

    /// Closes a span, in error with `error`.
    fn close(&self, span: Self::Span, at: &Timestamp, error: Option<String>, attrs: Attrs);
}

/// An open broadcast: its id, its last receipt (or when it was sent) and
/// its span.
struct Broadcast<S> {
    id: ShortString,
    last: Timestamp,
    span: S,
}

/// The open spans of a session; turns, broadcasts and conflicts in the
/// order opened.
struct Session<S> {
    span: Option<S>,
    turns: Vec<(u64, S)>,
    broadcasts: Vec<Broadcast<S>>,
    conflicts: Vec<(ShortString, S)>,
}

impl<S> Default for Session<S> {
    fn default() -> Self {
        Session {
            span: None,
            turns: Vec::new(),
            broadcasts: Vec::new(),
            conflicts: Vec::new(),
        }
    }
}

impl<S> Session<S> {
    fn len(&self) -> usize {
        usize::from(self.span.is_some())
            + self.turns.len()
            + self.broadcasts.len()
            + self.conflicts.len()
    }
}

/// Keeps `span` under `key` in `list`: in the place of a span already open
/// under the same key (which is dropped, as a span opened twice replaces
/// the first), else at the end.
fn keep<K: PartialEq, S>(list: &mut Vec<(K, S)>, key: K, span: S) {
    match list.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = span,
        None => list.push((key, span)),
    }
}

/// Follows MAP events and keeps the spans they open, by session, until the
/// events that close them.
pub(crate) struct Tracker<S> {
    sessions: HashMap<u128, Session<S>>,
}

impl<S> Default for Tracker<S> {
    fn default() -> Self {
        Tracker {
            sessions: HashMap::new(),
        }
    }
}

fn str_attr(name: &'static str, value: &str) -> (&'static str, Attr) {
    (name, Attr::Str(value.to_string()))
}

fn int_attr(name: &'static str, value: u64) -> (&'static str, Attr) {
    (name, Attr::Int(i64::try_from(value).unwrap_or(i64::MAX)))
}

impl<S> Tracker<S> {
    /// How many spans are open.
    pub(crate) fn len(&self) -> usize {
        self.sessions.values().map(Session::len).sum()
    }

    /// The span of a session while it runs.
    pub(crate) fn session(&self, session: &mplp_events::SessionId) -> Option<&S> {
        let sid = trace_id_of(session)?;
        self.sessions.get(&sid)?.span.as_ref()
    }

    /// The span of an open turn.
    pub(crate) fn turn(&self, session: &mplp_events::SessionId, turn: u64) -> Option<&S> {
        let sid = trace_id_of(session)?;
        let open = self.sessions.get(&sid)?;
        open.turns.iter().find(|(t, _)| *t == turn).map(|(_, s)| s)
    }

    /// Opens, annotates and closes the spans of one event through `backend`.
    pub(crate) fn follow<B: Backend<Span = S>>(&mut self, backend: &B, event: &MapEvent) {
        let Some(sid) = trace_id_of(&event.session_id) else {
            return;
        };
        let at = &event.timestamp;
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
        if let MapPayload::SessionCompleted(p) = &event.payload {
            let open = self.sessions.remove(&sid).unwrap_or_default();
            let left = |what: &str| Some(format!("{what} still open when the session completed"));
            for (_, span) in open.turns {
                backend.close(span, at, left("turn"), Vec::new());
            }
            for (_, span) in open.conflicts {
                backend.close(span, at, left("conflict"), Vec::new());
            }
            // A broadcast has no end of its own: it ends with its last receipt.
            for b in open.broadcasts {
                backend.close(b.span, &b.last, None, Vec::new());
            }
            attrs.push(str_attr("mplp.status", &p.status));
            attrs.push(int_attr("mplp.turns_total", p.turns_total));
            let error = (p.status != "completed").then(|| format!("session {}", p.status));
            if let Some(span) = open.span {
                backend.close(span, at, error, attrs);
            }
            return;
        }
        let open = self.sessions.entry(sid).or_default();
        match &event.payload {
            MapPayload::SessionStarted(p) => {
                attrs.push(str_attr("mplp.mode", &p.mode.to_string()));
                attrs.push(int_attr("mplp.participant_count", p.participant_count));
                open.span = Some(backend.open("mplp.session", None, sid, at, attrs));
            }
            MapPayload::RolesAssigned(p) => {
                attrs.push(int_attr("mplp.assignments", p.assignments.len() as u64));
                if let Some(span) = &open.span {
                    backend.note(span, "mplp.roles_assigned", at, attrs);
                }
            }
            MapPayload::TurnDispatched(p) => {
                attrs.push(str_attr("mplp.role_id", &p.role_id));
                attrs.push(int_attr("mplp.turn_number", p.turn_number));
                if let Some(token) = &p.token_id {
                    attrs.push(str_attr("mplp.token_id", token));
                }
                let span = backend.open("mplp.turn", open.span.as_ref(), sid, at, attrs);
                keep(&mut open.turns, p.turn_number, span);
            }
            MapPayload::TurnCompleted(p) => {
                attrs.push(str_attr("mplp.status", &p.status));
                let error = (p.status != "completed").then(|| format!("turn {}", p.status));
                if let Some(index) = open.turns.iter().position(|(t, _)| *t == p.turn_number) {
                    let (_, span) = open.turns.remove(index);
                    backend.close(span, at, error, attrs);
                }
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
                let span = backend.open("mplp.broadcast", open.span.as_ref(), sid, at, attrs);
                let last = at.clone();
                match open.broadcasts.iter_mut().find(|b| b.id == id) {
                    Some(b) => {
                        b.span = span;
                        b.last = last;
                    }
                    None => open.broadcasts.push(Broadcast { id, last, span }),
                }
            }
            MapPayload::BroadcastReceived(p) => {
                // The broadcast it answers, or (without a link) the latest one.
                let link = p.as_ref().and_then(|p| p.broadcast_link());
                let found = match link {
                    Some(id) => open.broadcasts.iter_mut().find(|b| &*b.id == id),
                    None => open.broadcasts.last_mut(),
                };
                if let Some(b) = found {
                    b.last = at.clone();
                    if let Some(role) = p
                        .as_ref()
                        .and_then(|p| p.receiver_role_id.as_ref().or(p.receiver_role.as_ref()))
                    {
                        attrs.push(str_attr("mplp.receiver_role_id", role));
                    }
                    backend.note(&b.span, "mplp.broadcast_received", at, attrs);
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
                let span = backend.open("mplp.conflict", open.span.as_ref(), sid, at, attrs);
                keep(&mut open.conflicts, id, span);
            }
            MapPayload::ConflictResolved(p) => {
                let named = p.as_ref().and_then(|p| p.conflict_id.as_ref());
                // The conflict it names, or (without an id) the oldest open one.
                let index = match named {
                    Some(id) => open.conflicts.iter().position(|(c, _)| c == id),
                    None => (!open.conflicts.is_empty()).then_some(0),
                };
                if let Some(index) = index {
                    let (_, span) = open.conflicts.remove(index);
                    if let Some(p) = p {
                        if let Some(s) = p.strategy.as_ref().or(p.resolution_strategy.as_ref()) {
                            attrs.push(str_attr("mplp.strategy", s));
                        }
                        if let Some(w) = p.winner.as_ref().or(p.winning_role.as_ref()) {
                            attrs.push(str_attr("mplp.winner", w));
                        }
                    }
                    backend.close(span, at, None, attrs);
                }
            }
            MapPayload::SessionCompleted(_) => {}
        }
    }
}
