//! OpenTelemetry spans: the session sink and the observability events.

use std::io;
use std::time::SystemTime;

use mplp_core::{Document, Timestamp};
use mplp_events::log::EventSink;
use mplp_events::{CoreEvent, MapEvent};
use opentelemetry::trace::{
    SpanBuilder, SpanContext, SpanId, Status, TraceContextExt, TraceFlags, TraceId, TraceState,
    Tracer,
};
use opentelemetry::{Context, KeyValue, Value};
use serde_json::Value as Json;

use crate::spans::{Attr, Attrs, Backend, Tracker};

fn time_of(at: &Timestamp) -> SystemTime {
    SystemTime::from(at.instant())
}

fn key_values(attrs: Attrs) -> Vec<KeyValue> {
    attrs
        .into_iter()
        .map(|(name, value)| match value {
            Attr::Str(s) => KeyValue::new(name, s),
            Attr::Int(i) => KeyValue::new(name, i),
        })
        .collect()
}

/// The context of a trace whose id is `trace_id`, as a remote parent (span
/// id: the id's last 8 bytes), so that a span built in it gets that trace id.
fn remote_parent(trace_id: u128) -> Context {
    // Truncation intended: the low 64 bits; never zero for a UUID v4 (the
    // variant bits), and a zero id only makes the parent invalid.
    let span_id = SpanId::from(trace_id as u64);
    let parent = SpanContext::new(
        TraceId::from(trace_id),
        span_id,
        TraceFlags::SAMPLED,
        true,
        TraceState::default(),
    );
    Context::new().with_remote_span_context(parent)
}

/// An [`EventSink`] that turns the MAP events going through it into
/// OpenTelemetry spans (see the [crate docs](crate)) and hands each event
/// on to the sink it wraps.
///
/// ```
/// use mplp_collab::{CollabMode, simulate::{SimConfig, simulate}};
/// use mplp_otel::OtelSink;
/// use opentelemetry::trace::noop::NoopTracer;
///
/// let mut log = Vec::new();
/// simulate(&SimConfig::new(CollabMode::Broadcast, 3, 2), OtelSink::new(NoopTracer::new(), &mut log))?;
/// assert!(!log.is_empty());
/// # Ok::<(), mplp_collab::runtime::SessionError>(())
/// ```
pub struct OtelSink<T: Tracer, S> {
    tracer: Traced<T>,
    inner: S,
    tracker: Tracker<Context>,
}

impl<T: Tracer, S> std::fmt::Debug for OtelSink<T, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OtelSink")
            .field("open_spans", &self.tracker.len())
            .finish_non_exhaustive()
    }
}

impl<T, S> OtelSink<T, S>
where
    T: Tracer,
    T::Span: Send + Sync + 'static,
{
    /// Spans from `tracer`; events go on to `inner`.
    pub fn new(tracer: T, inner: S) -> Self {
        OtelSink {
            tracer: Traced(tracer),
            inner,
            tracker: Tracker::default(),
        }
    }

    /// The sink this one wraps.
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// The context of an open span (a session, turn, broadcast or conflict
    /// span), to make an agent's own spans its children: the session's span
    /// while it runs.
    pub fn session_context(&self, session: &mplp_events::SessionId) -> Option<&Context> {
        self.tracker.session(session)
    }

    /// The context of an open turn span.
    pub fn turn_context(&self, session: &mplp_events::SessionId, turn: u64) -> Option<&Context> {
        self.tracker.turn(session, turn)
    }

    fn apply(&mut self, event: &MapEvent) {
        self.tracker.follow(&self.tracer, event);
    }
}

/// OpenTelemetry spans from a tracer, each kept as the context it makes (to
/// parent the spans under it), starting and ending at the events' times.
struct Traced<T>(T);

impl<T> Backend for Traced<T>
where
    T: Tracer,
    T::Span: Send + Sync + 'static,
{
    type Span = Context;

    fn open(
        &self,
        name: &'static str,
        parent: Option<&Context>,
        trace_id: u128,
        at: &Timestamp,
        attrs: Attrs,
    ) -> Context {
        let parent = parent.cloned().unwrap_or_else(|| remote_parent(trace_id));
        let builder = SpanBuilder::from_name(name)
            .with_start_time(time_of(at))
            .with_attributes(key_values(attrs));
        let span = self.0.build_with_context(builder, &parent);
        parent.with_span(span)
    }

    fn note(&self, cx: &Context, name: &'static str, at: &Timestamp, attrs: Attrs) {
        cx.span()
            .add_event_with_timestamp(name, time_of(at), key_values(attrs));
    }

    fn close(&self, cx: Context, at: &Timestamp, error: Option<String>, attrs: Attrs) {
        let span = cx.span();
        span.set_attributes(key_values(attrs));
        span.set_status(match error {
            Some(message) => Status::error(message),
            None => Status::Ok,
        });
        span.end_with_timestamp(time_of(at));
    }
}

impl<T, S> EventSink<MapEvent> for OtelSink<T, S>
where
    T: Tracer,
    T::Span: Send + Sync + 'static,
    S: EventSink<MapEvent>,
{
    fn emit(&mut self, event: MapEvent) -> io::Result<()> {
        self.apply(&event);
        self.inner.emit(event)
    }
}

#[cfg(feature = "tokio")]
impl<T, S> mplp_events::log::async_io::AsyncEventSink<MapEvent> for OtelSink<T, S>
where
    T: Tracer,
    T::Span: Send + Sync + 'static,
    S: mplp_events::log::async_io::AsyncEventSink<MapEvent>,
{
    fn emit(&mut self, event: MapEvent) -> impl Future<Output = io::Result<()>> {
        self.apply(&event);
        self.inner.emit(event)
    }
}

fn json_value(value: &Json) -> Option<Value> {
    match value {
        Json::String(s) => Some(Value::from(s.clone())),
        Json::Bool(b) => Some(Value::from(*b)),
        Json::Number(n) => n
            .as_i64()
            .map(Value::from)
            .or_else(|| n.as_f64().map(Value::from)),
        _ => None,
    }
}

/// Records an observability event (kind `event`: pipeline stage, runtime
/// execution, graph update, and the generic families) as one span of
/// `tracer`, started and ended at the event's timestamp:
///
/// - **name** `mplp.<event_family>` (`mplp.pipeline_stage`, ...);
/// - **attributes** `mplp.<member>` for every scalar member of the event
///   (`mplp.event_id`, `mplp.event_type`, `mplp.stage_status`,
///   `mplp.node_delta`, ...) and `mplp.payload.<member>` for the scalar
///   members of its payload;
/// - **status** error when its `status` or `stage_status` is `failed`;
/// - **trace** the event's `project_id` (its UUID's 128 bits), so that a
///   project's events share a trace; a new trace without one.
///
/// ```
/// use mplp_core::Document;
/// use mplp_events::CoreEvent;
/// use opentelemetry::trace::noop::NoopTracer;
///
/// let event = CoreEvent::from_json(include_str!("../../../schemas/examples/valid/event-runtime-execution.json"))?;
/// mplp_otel::record_event(&NoopTracer::new(), &event);
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub fn record_event<T>(tracer: &T, event: &CoreEvent)
where
    T: Tracer,
    T::Span: Send + Sync + 'static,
{
    let value = event.to_value();
    let mut attrs = Vec::new();
    let mut failed = false;
    if let Json::Object(members) = &value {
        for (name, member) in members {
            if let Some(v) = json_value(member) {
                if (name == "status" || name == "stage_status") && member == "failed" {
                    failed = true;
                }
                attrs.push(KeyValue::new(format!("mplp.{name}"), v));
            }
        }
        if let Some(Json::Object(payload)) = members.get("payload") {
            for (name, member) in payload {
                if let Some(v) = json_value(member) {
                    attrs.push(KeyValue::new(format!("mplp.payload.{name}"), v));
                }
            }
        }
    }
    let family = value
        .get("event_family")
        .and_then(Json::as_str)
        .unwrap_or("event")
        .to_string();
    let parent = event
        .project_id
        .as_ref()
        .map(|p| p.as_uuid().as_u128())
        .filter(|id| *id != 0)
        .map_or_else(Context::new, remote_parent);
    let at = time_of(&event.timestamp);
    let builder = SpanBuilder::from_name(format!("mplp.{family}"))
        .with_start_time(at)
        .with_attributes(attrs);
    let cx = parent.with_span(tracer.build_with_context(builder, &parent));
    let span = cx.span();
    if failed {
        span.set_status(Status::error(format!("{} failed", event.event_type)));
    }
    span.end_with_timestamp(at);
}
