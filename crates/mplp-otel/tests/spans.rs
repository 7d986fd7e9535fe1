//! The spans of simulated sessions, read back from the OpenTelemetry SDK's
//! in-memory exporter and from a `tracing` layer, against the MAP log the
//! same session wrote (the model): one span per session, turn, broadcast
//! and conflict, ids that agree with the events', times that are the
//! events' timestamps.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use mplp_collab::CollabMode;
use mplp_collab::simulate::{SimConfig, simulate};
use mplp_core::{Document, Timestamp};
use mplp_events::{CoreEvent, MapEvent, MapPayload};
use mplp_otel::{OtelSink, TracingSink, record_event, trace_id_hex, trace_id_of};
use opentelemetry::trace::{SpanId, Status, TraceId, TracerProvider};
use opentelemetry::{Key, Value};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use proptest::prelude::*;

/// Hands `events` to `sink`, in order.
fn feed<S: mplp_events::log::EventSink<MapEvent>>(
    sink: &mut S,
    events: impl IntoIterator<Item = MapEvent>,
) {
    for e in events {
        sink.emit(e).unwrap_or_default();
    }
}

fn provider() -> (SdkTracerProvider, InMemorySpanExporter) {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    (provider, exporter)
}

fn attr<'a>(span: &'a SpanData, name: &str) -> Option<&'a Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key == Key::from(name.to_string()))
        .map(|kv| &kv.value)
}

fn text(span: &SpanData, name: &str) -> Option<String> {
    attr(span, name).map(|v| v.as_str().into_owned())
}

fn time(at: &Timestamp) -> SystemTime {
    SystemTime::from(at.instant())
}

fn modes() -> impl Strategy<Value = CollabMode> {
    prop_oneof![
        Just(CollabMode::Broadcast),
        Just(CollabMode::RoundRobin),
        Just(CollabMode::Orchestrated),
        Just(CollabMode::Swarm),
        Just(CollabMode::Pair),
    ]
}

fn config() -> impl Strategy<Value = SimConfig> {
    (modes(), 2usize..6, 1u64..10, any::<u64>()).prop_map(|(mode, n, turns, seed)| {
        let n = if mode == CollabMode::Pair { 2 } else { n };
        SimConfig::new(mode, n, turns).with_seed(seed)
    })
}

/// Checks the exported spans against the log.
fn spans_follow_the_log(log: &[MapEvent], spans: &[SpanData]) -> Result<(), TestCaseError> {
    // No attribute is given twice.
    for s in spans {
        let mut keys: Vec<_> = s.attributes.iter().map(|kv| kv.key.as_str()).collect();
        let all = keys.len();
        keys.sort_unstable();
        keys.dedup();
        prop_assert_eq!(keys.len(), all, "{}: {:?}", s.name, s.attributes);
    }
    let session_id = &log[0].session_id;
    let trace = trace_id_of(session_id).unwrap_or_default();
    let by_name = |name: &str| spans.iter().filter(|s| s.name == name).collect::<Vec<_>>();
    let sessions = by_name("mplp.session");
    prop_assert_eq!(sessions.len(), 1);
    let session = sessions[0];
    // The trace is the session; the session span's parent is the session
    // as a remote span context.
    for s in spans {
        prop_assert_eq!(s.span_context.trace_id(), TraceId::from(trace));
    }
    prop_assert_eq!(session.parent_span_id, SpanId::from(trace as u64));
    prop_assert!(session.parent_span_is_remote);
    prop_assert_eq!(
        text(session, "mplp.session_id"),
        Some(session_id.to_string())
    );
    prop_assert_eq!(
        text(session, "mplp.event_id"),
        Some(log[0].event_id.to_string())
    );
    prop_assert_eq!(session.start_time, time(&log[0].timestamp));
    let last = &log[log.len() - 1];
    prop_assert_eq!(session.end_time, time(&last.timestamp));
    for s in spans.iter().filter(|s| s.name != "mplp.session") {
        prop_assert_eq!(s.parent_span_id, session.span_context.span_id());
    }

    // Turns: one span per dispatch, from it to its completion.
    let mut dispatched = BTreeMap::new();
    let mut completed = BTreeMap::new();
    let (mut sent, mut received, mut detected, mut resolved) = (0, 0, 0, 0);
    for e in log {
        match &e.payload {
            MapPayload::TurnDispatched(p) => {
                dispatched.insert(p.turn_number, e);
            }
            MapPayload::TurnCompleted(p) => {
                completed.insert(p.turn_number, (e, p.status.clone()));
            }
            MapPayload::BroadcastSent(_) => sent += 1,
            MapPayload::BroadcastReceived(_) => received += 1,
            MapPayload::ConflictDetected(_) => detected += 1,
            MapPayload::ConflictResolved(_) => resolved += 1,
            _ => {}
        }
    }
    let turns = by_name("mplp.turn");
    prop_assert_eq!(turns.len(), dispatched.len());
    for span in turns {
        let number = attr(span, "mplp.turn_number").and_then(|v| match v {
            Value::I64(i) => u64::try_from(*i).ok(),
            _ => None,
        });
        let Some(number) = number else {
            return Err(TestCaseError::fail("a turn span without mplp.turn_number"));
        };
        let start = dispatched[&number];
        prop_assert_eq!(
            text(span, "mplp.event_id"),
            Some(start.event_id.to_string())
        );
        prop_assert_eq!(span.start_time, time(&start.timestamp));
        let (end, status) = &completed[&number];
        prop_assert_eq!(span.end_time, time(&end.timestamp));
        prop_assert_eq!(
            text(span, "mplp.end_event_id"),
            Some(end.event_id.to_string())
        );
        prop_assert_eq!(text(span, "mplp.status"), Some(status.to_string()));
        prop_assert_eq!(matches!(span.status, Status::Ok), status == "completed");
    }
    let broadcasts = by_name("mplp.broadcast");
    prop_assert_eq!(broadcasts.len(), sent);
    let notes: usize = broadcasts.iter().map(|b| b.events.len()).sum();
    prop_assert_eq!(notes, received);
    let conflicts = by_name("mplp.conflict");
    prop_assert_eq!(conflicts.len(), detected);
    prop_assert_eq!(
        conflicts
            .iter()
            .filter(|c| matches!(c.status, Status::Ok))
            .count(),
        resolved
    );
    prop_assert_eq!(spans.len(), 1 + dispatched.len() + sent + detected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn opentelemetry_spans_follow_the_log(config in config()) {
        let (provider, exporter) = provider();
        let mut log = Vec::new();
        simulate(&config, OtelSink::new(provider.tracer("mplp-test"), &mut log))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let spans = exporter.get_finished_spans().map_err(|e| TestCaseError::fail(e.to_string()))?;
        spans_follow_the_log(&log, &spans)?;
    }

    /// The async sink gives the spans the sync one gives.
    #[test]
    fn the_async_sink_gives_the_same_spans(config in config()) {
        let mut log = Vec::new();
        simulate(&config, &mut log).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (provider, exporter) = provider();
        let runtime = tokio::runtime::Builder::new_current_thread().build()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut copy = Vec::new();
        runtime.block_on(async {
            use mplp_events::log::async_io::AsyncEventSink;
            let mut sink = OtelSink::new(provider.tracer("mplp-test"), &mut copy);
            for e in &log {
                sink.emit(e.clone()).await?;
            }
            Ok::<(), std::io::Error>(())
        }).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&copy, &log);
        let spans = exporter.get_finished_spans().map_err(|e| TestCaseError::fail(e.to_string()))?;
        spans_follow_the_log(&log, &spans)?;
    }

    #[test]
    fn tracing_spans_follow_the_log(config in config()) {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let subscriber = tracing_subscriber::layer::SubscriberExt::with(
            tracing_subscriber::registry(),
            Recorder(seen.clone()),
        );
        let mut log = Vec::new();
        tracing::subscriber::with_default(subscriber, || {
            simulate(&config, TracingSink::new(&mut log)).map(|_| ())
        }).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let seen = seen.lock().map_err(|_| TestCaseError::fail("poisoned"))?;
        let session = trace_id_hex(trace_id_of(&log[0].session_id).unwrap_or_default());
        let count = |name: &str| seen.spans.values().filter(|s| s.name == name).count();
        let turns = log.iter().filter(|e| matches!(e.payload, MapPayload::TurnDispatched(_))).count();
        let sent = log.iter().filter(|e| matches!(e.payload, MapPayload::BroadcastSent(_))).count();
        let detected = log.iter().filter(|e| matches!(e.payload, MapPayload::ConflictDetected(_))).count();
        prop_assert_eq!(count("mplp.session"), 1);
        prop_assert_eq!(count("mplp.turn"), turns);
        prop_assert_eq!(count("mplp.broadcast"), sent);
        prop_assert_eq!(count("mplp.conflict"), detected);
        for span in seen.spans.values() {
            prop_assert_eq!(span.fields.get("trace_id"), Some(&session));
            prop_assert!(span.closed, "{} left open", span.name);
            prop_assert_eq!(span.parent.is_some(), span.name != "mplp.session");
            if let Some(parent) = &span.parent {
                prop_assert_eq!(seen.spans[parent].name, "mplp.session");
            }
        }
        // Each turn span names the event that opened it.
        let dispatch_ids: Vec<String> = log.iter()
            .filter(|e| matches!(e.payload, MapPayload::TurnDispatched(_)))
            .map(|e| e.event_id.to_string()).collect();
        let mut span_ids: Vec<String> = seen.spans.values()
            .filter(|s| s.name == "mplp.turn")
            .filter_map(|s| s.fields.get("mplp.event_id").cloned()).collect();
        let mut want = dispatch_ids;
        want.sort();
        span_ids.sort();
        prop_assert_eq!(span_ids, want);
    }
}

/// What the `tracing` layer saw.
#[derive(Default)]
struct Seen {
    spans: HashMap<u64, SeenSpan>,
    /// The fields of each event (`tracing::info!`), in order.
    events: Vec<HashMap<String, String>>,
}

struct SeenSpan {
    name: &'static str,
    parent: Option<u64>,
    fields: HashMap<String, String>,
    closed: bool,
}

struct Fields<'a>(&'a mut HashMap<String, String>);

impl tracing::field::Visit for Fields<'_> {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0
            .insert(field.name().to_string(), format!("{value:?}"));
    }
}

struct Recorder(Arc<Mutex<Seen>>);

impl<S> tracing_subscriber::Layer<S> for Recorder
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let parent = ctx
            .span(id)
            .and_then(|s| s.parent())
            .map(|p| p.id().into_u64());
        let mut fields = HashMap::new();
        attrs.record(&mut Fields(&mut fields));
        if let Ok(mut seen) = self.0.lock() {
            seen.spans.insert(
                id.into_u64(),
                SeenSpan {
                    name: attrs.metadata().name(),
                    parent,
                    fields,
                    closed: false,
                },
            );
        }
    }

    fn on_record(
        &self,
        id: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) {
        if let Ok(mut seen) = self.0.lock() {
            if let Some(span) = seen.spans.get_mut(&id.into_u64()) {
                values.record(&mut Fields(&mut span.fields));
            }
        }
    }

    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        let mut fields = HashMap::new();
        event.record(&mut Fields(&mut fields));
        if let Ok(mut seen) = self.0.lock() {
            seen.events.push(fields);
        }
    }

    fn on_close(&self, id: tracing::span::Id, _: tracing_subscriber::layer::Context<'_, S>) {
        if let Ok(mut seen) = self.0.lock() {
            if let Some(span) = seen.spans.get_mut(&id.into_u64()) {
                span.closed = true;
            }
        }
    }
}

fn example(name: &str) -> CoreEvent {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples/valid")
        .join(name);
    match CoreEvent::from_json(std::fs::read(path).unwrap_or_default()) {
        Ok(e) => e,
        Err(e) => unreachable!("{name}: {e}"),
    }
}

#[test]
fn observability_events_become_spans() {
    let (provider, exporter) = provider();
    let tracer = provider.tracer("mplp-test");
    let runtime = example("event-runtime-execution.json");
    let stage = example("event-pipeline-stage.json");
    let graph = example("event-graph-update.json");
    let mut failed = runtime.to_value();
    failed["status"] = "failed".into();
    let failed = CoreEvent::from_value(&failed).unwrap_or_else(|e| unreachable!("{e}"));
    for e in [&runtime, &stage, &graph, &failed] {
        record_event(&tracer, e);
    }
    let spans = exporter.get_finished_spans().unwrap_or_default();
    let names: Vec<_> = spans.iter().map(|s| s.name.to_string()).collect();
    assert_eq!(
        names,
        [
            "mplp.runtime_execution",
            "mplp.pipeline_stage",
            "mplp.graph_update",
            "mplp.runtime_execution"
        ]
    );
    let [run, stage_span, graph_span, failed_span] = &spans[..] else {
        unreachable!("four spans");
    };
    // Ids, times, members and payload members.
    assert_eq!(
        text(run, "mplp.event_id"),
        Some(runtime.event_id.to_string())
    );
    assert_eq!(text(run, "mplp.executor_kind"), Some("tool".into()));
    assert_eq!(attr(run, "mplp.payload.exit_code"), Some(&Value::I64(0)));
    assert_eq!(
        text(run, "mplp.payload.command"),
        Some("cargo test --workspace".into())
    );
    assert_eq!(run.start_time, time(&runtime.timestamp));
    assert_eq!(run.end_time, run.start_time);
    assert_eq!(run.status, Status::Unset);
    assert_eq!(attr(stage_span, "mplp.stage_order"), Some(&Value::I64(1)));
    assert_eq!(attr(graph_span, "mplp.edge_delta"), Some(&Value::I64(-1)));
    // A project's events share its trace; an event without one gets a new trace.
    let project = runtime
        .project_id
        .as_ref()
        .map(|p| p.as_uuid().as_u128())
        .unwrap_or_default();
    assert_eq!(run.span_context.trace_id(), TraceId::from(project));
    assert_eq!(graph_span.span_context.trace_id(), TraceId::from(project));
    assert!(stage.project_id.is_none());
    assert_ne!(stage_span.span_context.trace_id(), TraceId::from(project));
    assert!(
        matches!(&failed_span.status, Status::Error { description } if description.contains("failed"))
    );
}

#[test]
fn a_turn_that_fails_or_is_left_open_ends_in_error() {
    let (provider, exporter) = provider();
    let session = mplp_collab::CollabId::new();
    let events = [
        MapEvent::session_started(session, CollabMode::RoundRobin, 2),
        MapEvent::turn_dispatched(session, "a", 1),
        MapEvent::turn_completed(session, "a", 1, "failed"),
        MapEvent::turn_dispatched(session, "b", 2),
        MapEvent::session_completed(session, "cancelled", 1),
    ];
    let mut sink = OtelSink::new(provider.tracer("t"), Vec::new());
    feed(&mut sink, events);
    let spans = exporter.get_finished_spans().unwrap_or_default();
    let status: Vec<_> = spans
        .iter()
        .map(|s| (s.name.to_string(), matches!(s.status, Status::Error { .. })))
        .collect();
    assert_eq!(
        status,
        [
            ("mplp.turn".to_string(), true),
            ("mplp.turn".to_string(), true),
            ("mplp.session".to_string(), true)
        ]
    );
    assert!(
        matches!(&spans[1].status, Status::Error { description } if description.contains("still open"))
    );
}

#[test]
fn the_contexts_of_open_session_and_turn_spans_are_offered() {
    use opentelemetry::trace::TraceContextExt;
    let (provider, _exporter) = provider();
    let session = mplp_collab::CollabId::new();
    let sid = mplp_events::SessionId::from(session);
    let other = mplp_events::SessionId::from(mplp_collab::CollabId::new());
    let mut sink = OtelSink::new(provider.tracer("t"), Vec::new());
    assert_eq!(format!("{sink:?}"), "OtelSink { open_spans: 0, .. }");
    assert!(sink.session_context(&sid).is_none());
    feed(
        &mut sink,
        [MapEvent::session_started(
            session,
            CollabMode::RoundRobin,
            2,
        )],
    );
    feed(&mut sink, [MapEvent::turn_dispatched(session, "a", 1)]);
    assert_eq!(format!("{sink:?}"), "OtelSink { open_spans: 2, .. }");
    let trace = TraceId::from(trace_id_of(&sid).unwrap_or_default());
    let session_span = sink
        .session_context(&sid)
        .map(|c| c.span().span_context().clone());
    let turn_span = sink
        .turn_context(&sid, 1)
        .map(|c| c.span().span_context().clone());
    let (Some(session_span), Some(turn_span)) = (session_span, turn_span) else {
        panic!("the session and its turn are open");
    };
    assert_eq!(session_span.trace_id(), trace);
    assert_eq!(turn_span.trace_id(), trace);
    assert_ne!(turn_span.span_id(), session_span.span_id());
    assert!(session_span.is_valid() && !session_span.is_remote());
    assert!(sink.turn_context(&sid, 2).is_none());
    assert!(sink.session_context(&other).is_none());
    assert!(sink.turn_context(&other, 1).is_none());
    feed(
        &mut sink,
        [MapEvent::turn_completed(session, "a", 1, "completed")],
    );
    assert!(sink.turn_context(&sid, 1).is_none());
    assert!(sink.session_context(&sid).is_some());
    feed(
        &mut sink,
        [MapEvent::session_completed(session, "completed", 1)],
    );
    assert!(sink.session_context(&sid).is_none());
    assert_eq!(format!("{sink:?}"), "OtelSink { open_spans: 0, .. }");
}

#[test]
fn the_trace_id_is_the_session_uuid() {
    let session = mplp_events::SessionId::parse("2b1d4a4e-8f3c-4c1e-9a6b-0d2f3e4a5b6c")
        .unwrap_or_else(|e| unreachable!("{e}"));
    assert_eq!(
        trace_id_of(&session),
        Some(0x2b1d4a4e_8f3c_4c1e_9a6b_0d2f3e4a5b6c)
    );
    let zero = mplp_events::SessionId::parse("00000000-0000-0000-0000-000000000000")
        .unwrap_or_else(|e| unreachable!("{e}"));
    assert_eq!(trace_id_of(&zero), None);
    assert_eq!(trace_id_hex(0x2b), format!("{}2b", "0".repeat(30)));
    assert_eq!(
        trace_id_hex(0x2b1d4a4e_8f3c_4c1e_9a6b_0d2f3e4a5b6c),
        "2b1d4a4e8f3c4c1e9a6b0d2f3e4a5b6c"
    );
}

#[test]
fn a_turn_left_open_beside_a_finished_one_and_a_conflict_resolved_without_its_id() {
    let (provider, exporter) = provider();
    let session = mplp_collab::CollabId::new();
    let mut resolved = mplp_events::map::ConflictResolved::new();
    resolved.strategy = Some("vote".into());
    let events = [
        MapEvent::session_started(session, CollabMode::Swarm, 2),
        MapEvent::turn_dispatched(session, "a", 1),
        MapEvent::turn_dispatched(session, "b", 2),
        MapEvent::turn_completed(session, "a", 1, "completed"),
        MapEvent::conflict_detected(session, "c1", "file.rs", vec!["a".into(), "b".into()]),
        // No conflict id: the oldest open conflict is the one resolved.
        MapEvent::new(session, MapPayload::ConflictResolved(Some(resolved))),
        MapEvent::session_completed(session, "completed", 1),
    ];
    let mut sink = OtelSink::new(provider.tracer("t"), Vec::new());
    feed(&mut sink, events);
    let spans = exporter.get_finished_spans().unwrap_or_default();
    let seen: Vec<_> = spans
        .iter()
        .map(|s| {
            let error = match &s.status {
                Status::Error { description } => description.to_string(),
                _ => String::new(),
            };
            (s.name.to_string(), error)
        })
        .collect();
    let turn_2_error = seen.get(2).map(|(_, e)| e.clone()).unwrap_or_default();
    assert!(turn_2_error.contains("still open"), "{seen:?}");
    assert_eq!(
        seen.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["mplp.turn", "mplp.conflict", "mplp.turn", "mplp.session"]
    );
    assert_eq!((seen[0].1.as_str(), seen[1].1.as_str()), ("", ""));
    assert_eq!(text(&spans[1], "mplp.strategy"), Some("vote".into()));
}

#[test]
fn a_failed_stage_is_an_error_and_flags_are_booleans() {
    let (provider, exporter) = provider();
    let tracer = provider.tracer("mplp-test");
    let stage = example("event-pipeline-stage.json").to_value();
    let read =
        |v: &serde_json::Value| CoreEvent::from_value(v).unwrap_or_else(|e| unreachable!("{e}"));
    let mut failed = stage.clone();
    failed["stage_status"] = "failed".into();
    // "failed" in another member is not a status.
    let mut named = stage.clone();
    named["stage_name"] = "failed".into();
    let mut run = example("event-runtime-execution.json").to_value();
    run["payload"]["cached"] = true.into();
    for e in [&failed, &named, &run] {
        record_event(&tracer, &read(e));
    }
    let spans = exporter.get_finished_spans().unwrap_or_default();
    let errors: Vec<bool> = spans
        .iter()
        .map(|s| matches!(s.status, Status::Error { .. }))
        .collect();
    assert_eq!(errors, [true, false, false]);
    assert_eq!(
        attr(&spans[2], "mplp.payload.cached"),
        Some(&Value::Bool(true))
    );
}

#[test]
fn the_tracing_sink_offers_the_open_session_and_turn_spans() {
    let session = mplp_collab::CollabId::new();
    let sid = mplp_events::SessionId::from(session);
    let other = mplp_events::SessionId::from(mplp_collab::CollabId::new());
    let seen = Arc::new(Mutex::new(Seen::default()));
    let subscriber = tracing_subscriber::layer::SubscriberExt::with(
        tracing_subscriber::registry(),
        Recorder(seen.clone()),
    );
    let roles_id = tracing::subscriber::with_default(subscriber, || {
        let mut sink = TracingSink::new(Vec::new());
        assert_eq!(format!("{sink:?}"), "TracingSink { open_spans: 0, .. }");
        feed(
            &mut sink,
            [MapEvent::session_started(
                session,
                CollabMode::RoundRobin,
                2,
            )],
        );
        let roles = MapEvent::roles_assigned(
            session,
            vec![
                mplp_events::map::RoleAssignment::new("p1".into(), "coder".into()),
                mplp_events::map::RoleAssignment::new("p2".into(), "critic".into()),
            ],
        );
        let roles_id = roles.event_id.to_string();
        feed(&mut sink, [roles]);
        feed(&mut sink, [MapEvent::turn_dispatched(session, "a", 1)]);
        assert_eq!(format!("{sink:?}"), "TracingSink { open_spans: 2, .. }");
        let session_span = sink.session_span(&sid).and_then(tracing::Span::id);
        let turn_span = sink.turn_span(&sid, 1).and_then(tracing::Span::id);
        assert!(session_span.is_some() && turn_span.is_some());
        assert_ne!(session_span, turn_span);
        assert!(sink.turn_span(&sid, 2).is_none());
        assert!(sink.session_span(&other).is_none());
        feed(
            &mut sink,
            [MapEvent::turn_completed(session, "a", 1, "completed")],
        );
        assert!(sink.turn_span(&sid, 1).is_none());
        assert!(sink.session_span(&sid).is_some());
        feed(
            &mut sink,
            [MapEvent::session_completed(session, "completed", 1)],
        );
        assert!(sink.session_span(&sid).is_none());
        roles_id
    });
    // The roles' note names its event and counts the assignments.
    let seen = seen.lock().unwrap_or_else(|e| unreachable!("{e}"));
    let note = seen
        .events
        .iter()
        .find(|e| e.get("message").map(String::as_str) == Some("mplp.roles_assigned"));
    let note = note.unwrap_or_else(|| panic!("no roles note in {:?}", seen.events));
    assert_eq!(note.get("mplp.event_id"), Some(&roles_id));
    assert_eq!(note.get("mplp.assignments").map(String::as_str), Some("2"));
}
