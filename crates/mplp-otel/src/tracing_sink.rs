//! `tracing` spans for the sessions going through an event sink.

use std::io;

use mplp_core::Timestamp;
use mplp_events::MapEvent;
use mplp_events::log::EventSink;
use tracing::Span;
use tracing::field::Empty;

use crate::spans::{Attr, Attrs, Backend, Tracker};

/// A span of `name` under `parent`, with every field an MPLP span may
/// record (a `tracing` span only records the fields it declares).
macro_rules! mplp_span {
    ($parent:expr, $name:literal) => {
        tracing::info_span!(
            parent: $parent,
            $name,
            trace_id = Empty,
            mplp.session_id = Empty,
            mplp.event_id = Empty,
            mplp.end_event_id = Empty,
            mplp.initiator_role = Empty,
            mplp.mode = Empty,
            mplp.participant_count = Empty,
            mplp.role_id = Empty,
            mplp.turn_number = Empty,
            mplp.token_id = Empty,
            mplp.status = Empty,
            mplp.turns_total = Empty,
            mplp.broadcast_id = Empty,
            mplp.broadcaster_role_id = Empty,
            mplp.target_count = Empty,
            mplp.conflict_id = Empty,
            mplp.resource = Empty,
            mplp.conflict_type = Empty,
            mplp.strategy = Empty,
            mplp.winner = Empty,
            error = Empty,
        )
    };
}

/// An [`EventSink`] that opens a `tracing` span (at level INFO) for every
/// session, turn, broadcast and conflict of the MAP events going through
/// it, closes it with the event that ends it (see the [crate docs](crate)),
/// and hands each event on to the sink it wraps. Spans are children of
/// their session span; their `trace_id` field is the session's trace id
/// ([`crate::trace_id_of`], as hex), the same as [`crate::OtelSink`] gives.
/// `MAPRolesAssigned` and `MAPBroadcastReceived` are `tracing` events
/// inside the session and broadcast spans. The spans are not entered (a
/// session's turns may overlap); [`TracingSink::turn_span`] gives a turn's
/// span for an agent to run its work in.
pub struct TracingSink<S> {
    inner: S,
    tracker: Tracker<Span>,
}

impl<S> std::fmt::Debug for TracingSink<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TracingSink")
            .field("open_spans", &self.tracker.len())
            .finish_non_exhaustive()
    }
}

impl<S> TracingSink<S> {
    /// Spans for the events going on to `inner`.
    pub fn new(inner: S) -> Self {
        TracingSink {
            inner,
            tracker: Tracker::default(),
        }
    }

    /// The sink this one wraps.
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// The span of a session while it runs.
    pub fn session_span(&self, session: &mplp_events::SessionId) -> Option<&Span> {
        self.tracker.session(session)
    }

    /// The span of an open turn.
    pub fn turn_span(&self, session: &mplp_events::SessionId, turn: u64) -> Option<&Span> {
        self.tracker.turn(session, turn)
    }

    fn apply(&mut self, event: &MapEvent) {
        self.tracker.follow(&Live, event);
    }
}

/// `tracing` spans, opened and closed as the sink sees the events.
struct Live;

impl Backend for Live {
    type Span = Span;

    fn open(
        &self,
        name: &'static str,
        parent: Option<&Span>,
        trace_id: u128,
        _: &Timestamp,
        attrs: Attrs,
    ) -> Span {
        let parent = parent.and_then(Span::id);
        let span = match name {
            "mplp.session" => mplp_span!(parent, "mplp.session"),
            "mplp.turn" => mplp_span!(parent, "mplp.turn"),
            "mplp.broadcast" => mplp_span!(parent, "mplp.broadcast"),
            _ => mplp_span!(parent, "mplp.conflict"),
        };
        span.record("trace_id", crate::trace_id_hex(trace_id).as_str());
        record(&span, attrs);
        span
    }

    fn note(&self, span: &Span, name: &'static str, _: &Timestamp, attrs: Attrs) {
        let text = |n: &str| {
            attrs.iter().find(|(a, _)| *a == n).map(|(_, v)| match v {
                Attr::Str(s) => s.clone(),
                Attr::Int(i) => i.to_string(),
            })
        };
        tracing::info!(
            parent: span,
            mplp.event_id = text("mplp.event_id"),
            mplp.receiver_role_id = text("mplp.receiver_role_id"),
            mplp.assignments = text("mplp.assignments"),
            "{name}"
        );
    }

    fn close(&self, span: Span, _: &Timestamp, error: Option<String>, attrs: Attrs) {
        record(&span, attrs);
        if let Some(error) = error {
            span.record("error", error.as_str());
        }
        // Dropped: the span closes once no clone is left.
    }
}

fn record(span: &Span, attrs: Attrs) {
    for (name, value) in attrs {
        match value {
            Attr::Str(s) => span.record(name, s.as_str()),
            Attr::Int(i) => span.record(name, i),
        };
    }
}

impl<S: EventSink<MapEvent>> EventSink<MapEvent> for TracingSink<S> {
    fn emit(&mut self, event: MapEvent) -> io::Result<()> {
        self.apply(&event);
        self.inner.emit(event)
    }
}

#[cfg(feature = "tokio")]
impl<S: mplp_events::log::async_io::AsyncEventSink<MapEvent>>
    mplp_events::log::async_io::AsyncEventSink<MapEvent> for TracingSink<S>
{
    fn emit(&mut self, event: MapEvent) -> impl Future<Output = io::Result<()>> {
        self.apply(&event);
        self.inner.emit(event)
    }
}
