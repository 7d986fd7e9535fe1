//! Lossless round trips, structured and binary, over generated valid events
//! of every family: each valid example of `schemas/examples/valid` (and
//! every line of its MAP and SA logs, every `events` member of its plans)
//! with its strings, timestamps and ids replaced by generated ones and its
//! optional members dropped, kept only where the family's parser still
//! accepts the result.

use std::fmt::Debug;
use std::path::PathBuf;

use mplp_cloudevents::cloudevents::event::ExtensionValue;
use mplp_cloudevents::cloudevents::{AttributesReader, AttributesWriter, Data, Event};
use mplp_cloudevents::{
    AnyEvent, BinaryMessage, Error, FromCloudEvent, IdFrom, SourceFrom, TIME_EXTENSION,
    ToCloudEvent, TypeFrom, from_structured, to_structured,
};
use mplp_core::{BaseEvent, Document, Timestamp};
use mplp_events::integration::{CiEvent, FileUpdateEvent, GitEvent, ToolEvent};
use mplp_events::learning::{CommonLearningSample, LearningSample};
use mplp_events::{CoreEvent, MapEvent, SaEvent};
use proptest::prelude::*;
use serde_json::{Map, Value};

fn valid_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples/valid")
}

/// Every valid example of a family, as JSON values.
fn examples(prefixes: &[&str]) -> Vec<Value> {
    let mut names: Vec<_> = std::fs::read_dir(valid_dir())
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| prefixes.iter().any(|p| n.starts_with(p)))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let text = std::fs::read_to_string(valid_dir().join(&name)).unwrap_or_default();
        if name.ends_with(".ndjson") {
            out.extend(text.lines().filter_map(|l| serde_json::from_str(l).ok()));
        } else if let Ok(v) = serde_json::from_str::<Value>(&text) {
            out.push(v);
        }
    }
    out
}

fn module_examples() -> Vec<Value> {
    examples(&["plan-"])
        .into_iter()
        .filter_map(|plan| plan.get("events").and_then(Value::as_array).cloned())
        .flatten()
        .collect()
}

/// What one generated case changes: which leaves, to what.
#[derive(Clone, Debug)]
struct Changes {
    bits: Vec<bool>,
    texts: Vec<String>,
    times: Vec<String>,
}

fn timestamp() -> impl Strategy<Value = String> {
    (
        1970u32..2100,
        1u32..13,
        1u32..29,
        0u32..24,
        0u32..60,
        0u32..60,
        proptest::option::of("[0-9]{1,9}"),
        prop_oneof![
            Just("Z".to_string()),
            (
                0u32..14,
                prop_oneof![Just(0u32), Just(30), Just(45)],
                any::<bool>()
            )
                .prop_map(|(h, m, minus)| format!(
                    "{}{h:02}:{m:02}",
                    if minus { '-' } else { '+' }
                )),
        ],
    )
        .prop_map(|(y, mo, d, h, mi, s, frac, off)| {
            let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
            format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{frac}{off}")
        })
}

fn changes() -> impl Strategy<Value = Changes> {
    (
        proptest::collection::vec(any::<bool>(), 64),
        proptest::collection::vec("\\PC{1,12}", 16),
        proptest::collection::vec(timestamp(), 8),
    )
        .prop_map(|(bits, texts, times)| Changes { bits, texts, times })
}

/// Walks the leaves of `root` and tries each change, keeping those after
/// which `valid` still holds, so the result is valid whenever the example
/// was.
fn perturb(example: &Value, c: &Changes, valid: &dyn Fn(&Value) -> bool) -> Value {
    let mut doc = example.clone();
    let mut paths = Vec::new();
    collect(&doc, &mut Vec::new(), &mut paths);
    let (mut bit, mut text, mut time) = (0usize, 0usize, 0usize);
    for path in paths {
        let Some(old) = at(&mut doc, &path).cloned() else {
            continue;
        };
        bit += 1;
        if !c.bits[bit % c.bits.len()] {
            continue;
        }
        let new = match &old {
            Value::String(s) if s.parse::<Timestamp>().is_ok() => {
                time += 1;
                Value::String(c.times[time % c.times.len()].clone())
            }
            Value::String(s) if s.len() == 36 && s.matches('-').count() == 4 => {
                Value::String(uuid::Uuid::new_v4().to_string())
            }
            Value::String(_) => {
                text += 1;
                Value::String(c.texts[text % c.texts.len()].clone())
            }
            _ => Value::Null, // a marker: try dropping the member
        };
        let mut next = doc.clone();
        if new.is_null() {
            remove(&mut next, &path);
        } else if let Some(slot) = at(&mut next, &path) {
            *slot = new;
        }
        if valid(&next) {
            doc = next;
        }
    }
    doc
}

fn collect(v: &Value, here: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if let Value::Object(map) = v {
        for (k, child) in map {
            here.push(k.clone());
            out.push(here.clone());
            collect(child, here, out);
            here.pop();
        }
    }
}

fn at<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, k| v.get_mut(k))
}

fn remove(v: &mut Value, path: &[String]) {
    if let Some((last, parent)) = path.split_last() {
        if let Some(Value::Object(map)) = at(v, parent) {
            map.remove(last);
        }
    }
}

/// Structured and binary round trips give the event back, exactly (as a
/// value and as JSON text), and `AnyEvent` finds its family.
fn round_trips<T>(event: &T, json: impl Fn(&T) -> String) -> Result<Event, TestCaseError>
where
    T: ToCloudEvent + FromCloudEvent + PartialEq + Debug,
{
    let ce = event
        .to_cloudevent()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let structured = from_structured(&to_structured(&ce).map_err(fail)?).map_err(fail)?;
    let back = T::from_cloudevent(&structured).map_err(fail)?;
    prop_assert_eq!(&back, event);
    prop_assert_eq!(json(&back), json(event));
    let binary = BinaryMessage::from_event(&ce).map_err(fail)?;
    for (name, value) in binary.headers() {
        prop_assert!(
            value
                .bytes()
                .all(|b| (0x21..=0x7e).contains(&b) && b != b'"'),
            "{name}: {value}"
        );
    }
    let back = T::from_cloudevent(&binary.to_event().map_err(fail)?).map_err(fail)?;
    prop_assert_eq!(&back, event);
    prop_assert_eq!(json(&back), json(event));
    let any = AnyEvent::from_cloudevent(&ce).map_err(fail)?;
    prop_assert_eq!(any.to_cloudevent().map_err(fail)?, ce.clone());
    Ok(ce)
}

fn fail(e: Error) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

/// The attributes hold what the mapping says, read from the MPLP JSON.
fn attributes_follow_the_mapping<T: FromCloudEvent>(
    value: &Value,
    ce: &Event,
) -> Result<(), TestCaseError> {
    let m = T::MAPPING;
    let text = |member: &str| {
        value
            .get(member)
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    match m.id {
        IdFrom::Member(member) => prop_assert_eq!(Some(ce.id().to_string()), text(member)),
        IdFrom::Derived => prop_assert!(uuid::Uuid::parse_str(ce.id()).is_ok()),
        _ => {}
    }
    match m.ty {
        TypeFrom::Member { prefix, member } => {
            prop_assert_eq!(
                Some(ce.ty().to_string()),
                text(member).map(|t| format!("{prefix}{t}"))
            );
        }
        TypeFrom::Fixed(fixed) => prop_assert_eq!(ce.ty(), fixed),
        _ => {}
    }
    if let SourceFrom::Member { prefix, .. } = m.source {
        prop_assert!(ce.source().starts_with(prefix) || ce.source().starts_with("/mplp/"));
    }
    if let Some(member) = m.time {
        let instant = text(member)
            .and_then(|t| t.parse::<Timestamp>().ok())
            .map(|t| t.instant());
        let got = ce.time().map(|t| t.timestamp_nanos_opt());
        let want = instant.map(|i| i64::try_from(i.unix_timestamp_nanos()).ok());
        prop_assert_eq!(got, want);
        // `mplptime` only when the text is not the instant's own spelling.
        if let (Some(at), Some(t)) = (ce.time(), text(member)) {
            let plain = at.to_rfc3339_opts(chrono_format(at), true) == t;
            prop_assert_eq!(ce.extension(TIME_EXTENSION).is_none(), plain);
        }
    }
    if let Some(member) = m.subject {
        prop_assert_eq!(ce.subject().map(str::to_string), text(member));
    }
    for ext in m.extensions {
        let want = value.get(ext.member).map(|v| match v {
            Value::String(s) if !ext.json => s.clone(),
            other => other.to_string(),
        });
        let got = ce.extension(ext.name).map(|v| match v {
            ExtensionValue::String(s) => s.clone(),
            other => other.to_string(),
        });
        prop_assert_eq!(got, want);
    }
    Ok(())
}

fn chrono_format(at: &chrono::DateTime<chrono::Utc>) -> chrono::SecondsFormat {
    if at.timestamp_subsec_nanos() % 1_000_000 == 0 {
        chrono::SecondsFormat::Millis
    } else {
        chrono::SecondsFormat::AutoSi
    }
}

fn family<T>(prefixes: &[&str], pick: usize, c: &Changes) -> Result<(), TestCaseError>
where
    T: Document + ToCloudEvent + FromCloudEvent + PartialEq + Debug,
{
    let all = examples(prefixes);
    prop_assert!(!all.is_empty(), "no examples for {prefixes:?}");
    let value = perturb(&all[pick % all.len()], c, &|v| T::from_value(v).is_ok());
    let event = T::from_value(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let ce = round_trips(&event, T::to_json)?;
    attributes_follow_the_mapping::<T>(&event.to_value(), &ce)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn map_events(pick in any::<usize>(), c in changes()) {
        family::<MapEvent>(&["map-event-", "map-log-"], pick, &c)?;
    }

    #[test]
    fn sa_events(pick in any::<usize>(), c in changes()) {
        family::<SaEvent>(&["sa-event-", "sa-log-"], pick, &c)?;
    }

    #[test]
    fn observability_events(pick in any::<usize>(), c in changes()) {
        family::<CoreEvent>(&["event-"], pick, &c)?;
    }

    #[test]
    fn learning_samples(pick in any::<usize>(), c in changes()) {
        family::<LearningSample>(&["learning-sample-"], pick, &c)?;
        family::<CommonLearningSample>(&["common-learning-sample-"], pick, &c)?;
    }

    #[test]
    fn integration_events(pick in any::<usize>(), c in changes()) {
        family::<ToolEvent>(&["tool-event-"], pick, &c)?;
        family::<FileUpdateEvent>(&["file-update-event-"], pick, &c)?;
        family::<GitEvent>(&["git-event-"], pick, &c)?;
        family::<CiEvent>(&["ci-event-"], pick, &c)?;
    }

    #[test]
    fn module_events(pick in any::<usize>(), c in changes()) {
        let all = module_examples();
        prop_assert!(!all.is_empty());
        let value = perturb(&all[pick % all.len()], &c, &|v| {
            serde_json::from_value::<BaseEvent>(v.clone()).is_ok()
        });
        let event: BaseEvent = serde_json::from_value(value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let text = |e: &BaseEvent| serde_json::to_string(e).unwrap_or_default();
        let ce = round_trips(&event, text)?;
        attributes_follow_the_mapping::<BaseEvent>(&serde_json::to_value(&event).unwrap_or_default(), &ce)?;
    }

    /// The MAP events the SDK writes (fresh ids, milliseconds and `Z`)
    /// need no `mplptime`.
    #[test]
    fn sdk_timestamps_need_no_time_extension(turn in 1u64..1000, role in "\\PC{1,12}") {
        let event = MapEvent::turn_dispatched(mplp_core::CollabId::new(), role, turn);
        let ce = round_trips(&event, MapEvent::to_json)?;
        prop_assert!(ce.extension(TIME_EXTENSION).is_none());
    }
}

fn first_example<T: Document>(prefix: &str) -> T {
    let value = examples(&[prefix]).into_iter().next().unwrap_or_default();
    match T::from_value(&value) {
        Ok(t) => t,
        Err(e) => unreachable!("{prefix}: {e}"),
    }
}

#[test]
fn a_map_event_maps_as_the_table_says() -> Result<(), Error> {
    let event: MapEvent = first_example("map-event-turn-dispatched");
    let ce = event.to_cloudevent()?;
    assert_eq!(ce.id(), "0b5aa778-4224-467d-8331-240366095f3f");
    assert_eq!(ce.ty(), "dev.mplp.map.MAPTurnDispatched");
    assert_eq!(
        ce.source(),
        "/mplp/sessions/940bda79-b539-44e0-9089-f61899b16f4c"
    );
    assert_eq!(ce.subject(), Some("orchestrator"));
    assert_eq!(ce.datacontenttype(), Some("application/json"));
    assert_eq!(
        ce.extension("mplptargetroles"),
        Some(&ExtensionValue::String(r#"["coder"]"#.into()))
    );
    assert_eq!(
        ce.time().map(|t| t.to_rfc3339()),
        Some("2025-12-07T00:00:03+00:00".into())
    );
    // "2025-12-07T00:00:03.000Z" is the instant's own spelling.
    assert_eq!(ce.extension(TIME_EXTENSION), None);
    let data: Value = ce
        .data()
        .cloned()
        .map(Value::try_from)
        .transpose()?
        .unwrap_or_default();
    assert_eq!(data, event.to_value()["payload"]);
    let message = BinaryMessage::from_event(&ce)?;
    let names: Vec<_> = message.headers().iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "ce-id",
            "ce-mplptargetroles",
            "ce-source",
            "ce-specversion",
            "ce-subject",
            "ce-time",
            "ce-type",
            "content-type"
        ]
    );
    assert_eq!(message.header("ce-mplptargetroles"), Some("[%22coder%22]"));
    // The body is the payload, as JSON.
    let body: Value = serde_json::from_slice(message.body().unwrap_or_default())?;
    assert_eq!(body, event.to_value()["payload"]);
    Ok(())
}

#[test]
fn a_binary_body_is_json_data_when_its_content_type_says_json() -> Result<(), Error> {
    let event: MapEvent = first_example("map-event-turn-dispatched");
    let message = BinaryMessage::from_event(&event.to_cloudevent()?)?;
    let payload = event.to_value()["payload"].clone();
    for (content_type, json) in [
        ("application/json", true),
        ("application/json; charset=utf-8", true),
        ("application/vnd.mplp+json", true),
        ("application/octet-stream", false),
    ] {
        let headers = message
            .headers()
            .iter()
            .map(|(n, v)| {
                let v = if n == "content-type" { content_type } else { v };
                (n.clone(), v.to_owned())
            })
            .collect::<Vec<_>>();
        let again = BinaryMessage::new(headers, message.body().map(<[u8]>::to_vec));
        let ce = again.to_event()?;
        assert_eq!(ce.datacontenttype(), Some(content_type));
        match ce.data() {
            Some(Data::Json(value)) => assert!(json && *value == payload, "{content_type}"),
            Some(Data::Binary(bytes)) => {
                assert!(!json, "{content_type}");
                assert_eq!(serde_json::from_slice::<Value>(bytes)?, payload);
            }
            other => panic!("{content_type}: {other:?}"),
        }
    }
    Ok(())
}

#[test]
fn a_family_type_needs_more_than_its_prefix() {
    let map = TypeFrom::Member {
        prefix: "dev.mplp.map.",
        member: "event_type",
    };
    assert!(map.matches("dev.mplp.map.MAPTurnDispatched"));
    assert!(map.matches("dev.mplp.map.X"));
    assert!(!map.matches("dev.mplp.map."));
    assert!(!map.matches("dev.mplp.map"));
    assert!(!map.matches("dev.mplp.sa.SAStarted"));
    let fixed = TypeFrom::Fixed("dev.mplp.learning");
    assert!(fixed.matches("dev.mplp.learning"));
    assert!(!fixed.matches("dev.mplp.learning.x"));
}

#[test]
fn an_offset_timestamp_keeps_its_text_in_mplptime() -> Result<(), Error> {
    let event: SaEvent = first_example("sa-event-step-completed");
    let ce = event.to_cloudevent()?;
    assert_eq!(
        ce.extension(TIME_EXTENSION),
        Some(&ExtensionValue::String(
            "2025-12-07T08:01:35.000+08:00".into()
        ))
    );
    assert_eq!(
        ce.time().map(|t| t.to_rfc3339()),
        Some("2025-12-07T00:01:35+00:00".into())
    );
    assert_eq!(
        ce.source(),
        "/mplp/agents/854bc387-99fe-4ebb-af60-0230aaeb38cd"
    );
    assert_eq!(
        ce.extension("mplptraceid"),
        Some(&ExtensionValue::String(
            "15923778-b89a-4cf2-81ba-6de4e7437b32".into()
        ))
    );
    // Without it, the timestamp comes back as the instant in UTC.
    let mut plain = ce.clone();
    plain.remove_extension(TIME_EXTENSION);
    let back = SaEvent::from_cloudevent(&plain)?;
    assert_eq!(back.timestamp.text(), "2025-12-07T00:01:35.000Z");
    // A `mplptime` that is not the instant of `time` is refused.
    let mut wrong = ce.clone();
    wrong.set_extension(TIME_EXTENSION, "2025-12-07T08:01:36.000+08:00");
    assert!(matches!(
        SaEvent::from_cloudevent(&wrong),
        Err(Error::Attribute { attribute, .. }) if attribute == TIME_EXTENSION
    ));
    // A UTC text with the instant's own digits needs no `mplptime`, below a
    // millisecond too (milliseconds, or as many digits as the instant has).
    for text in [
        "2025-12-07T00:01:35.002Z",
        "2025-12-07T00:01:35.001500Z",
        "2025-12-07T00:01:35.000500Z",
        "2025-12-07T00:01:35.000000001Z",
    ] {
        let mut value = event.to_value();
        value["timestamp"] = Value::String(text.into());
        let utc = SaEvent::from_value(&value)?;
        let ce = utc.to_cloudevent()?;
        assert_eq!(ce.extension(TIME_EXTENSION), None, "{text}");
        let back = SaEvent::from_cloudevent(&ce)?;
        assert_eq!(back.timestamp.text(), text);
    }
    Ok(())
}

#[test]
fn integration_ids_are_derived_from_the_event() -> Result<(), Error> {
    let tool: ToolEvent = first_example("tool-event-");
    let a = tool.to_cloudevent()?;
    assert_eq!(a.id(), tool.to_cloudevent()?.id());
    assert_eq!(a.source(), "/mplp/tools/eslint-v8.50.0");
    assert_eq!(a.subject(), Some("0a5bcd6c-7e8f-4b1a-82d3-2e1f0a9b8c7d"));
    let mut other = tool.clone();
    other.exit_code = Some(2);
    assert_ne!(other.to_cloudevent()?.id(), a.id());
    // Reading ignores the id.
    let mut renamed = a.clone();
    renamed.set_id("anything");
    assert_eq!(ToolEvent::from_cloudevent(&renamed)?, tool);
    Ok(())
}

#[test]
fn free_text_in_a_source_is_percent_encoded() -> Result<(), Error> {
    let mut ci: CiEvent = first_example("ci-event-");
    let Ok(provider) = "Jenkins / prod ü".parse() else {
        unreachable!("a non-empty string was refused");
    };
    ci.ci_provider = provider;
    let ce = ci.to_cloudevent()?;
    assert_eq!(ce.source(), "/mplp/ci/Jenkins%20%2F%20prod%20%C3%BC");
    assert_eq!(CiEvent::from_cloudevent(&ce)?, ci);
    Ok(())
}

#[test]
fn wrong_events_are_refused_with_the_attribute_named() -> Result<(), Error> {
    let event: MapEvent = first_example("map-event-turn-dispatched");
    let ce = event.to_cloudevent()?;

    // Another family: the error names the type expected.
    let err = SaEvent::from_cloudevent(&ce).unwrap_err();
    assert!(matches!(err, Error::Type { .. }));
    assert_eq!(
        err.to_string(),
        "CloudEvent type `dev.mplp.map.MAPTurnDispatched`: expected dev.mplp.sa.<event_type>"
    );
    let err = ToolEvent::from_cloudevent(&ce).unwrap_err();
    assert_eq!(
        err.to_string(),
        "CloudEvent type `dev.mplp.map.MAPTurnDispatched`: expected dev.mplp.integration.tool"
    );
    let mut foreign = ce.clone();
    foreign.set_type("com.example.thing");
    assert!(matches!(
        AnyEvent::from_cloudevent(&foreign),
        Err(Error::Type { .. })
    ));

    // A source outside the mapping.
    let mut bad = ce.clone();
    bad.set_source("/elsewhere");
    assert!(matches!(
        MapEvent::from_cloudevent(&bad),
        Err(Error::Attribute { attribute, .. }) if attribute == "source"
    ));

    // An invalid MPLP value is refused by the family's parser, with the pointer.
    let mut bad = ce.clone();
    bad.set_source("/mplp/sessions/not-a-uuid");
    let Err(Error::Mplp(err)) = MapEvent::from_cloudevent(&bad) else {
        unreachable!("a session id that is not a UUID was accepted");
    };
    assert!(
        err.violations().iter().any(|v| v.pointer == "/session_id"),
        "{err}"
    );

    // Data that is not JSON.
    let mut bad = ce.clone();
    bad.set_data_unchecked(Data::String("{not json".into()));
    assert!(matches!(
        MapEvent::from_cloudevent(&bad),
        Err(Error::Json(_))
    ));

    // A member given twice (by an attribute and by data) is refused.
    let core: CoreEvent = first_example("event-pipeline-stage");
    let mut ce = core.to_cloudevent()?;
    let mut data: Map<String, Value> = match ce.data().cloned().map(Value::try_from) {
        Some(Ok(Value::Object(m))) => m,
        _ => Map::new(),
    };
    data.insert("event_id".into(), Value::String(core.event_id.to_string()));
    ce.set_data_unchecked(Data::Json(Value::Object(data)));
    assert!(matches!(
        CoreEvent::from_cloudevent(&ce),
        Err(Error::Conflict { attribute, member }) if attribute == "id" && member == "event_id"
    ));
    Ok(())
}

#[test]
fn foreign_extensions_and_base64_data_are_read() -> Result<(), Error> {
    let event: MapEvent = first_example("map-event-conflict-detected");
    let mut ce = event.to_cloudevent()?;
    ce.set_extension(
        "traceparent",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    );
    let bytes = serde_json::to_vec(&event.to_value()["payload"])?;
    ce.set_data_unchecked(Data::Binary(bytes));
    let json = to_structured(&ce)?;
    assert!(String::from_utf8_lossy(&json).contains("data_base64"));
    assert_eq!(MapEvent::from_cloudevent(&from_structured(&json)?)?, event);
    Ok(())
}

#[test]
fn every_family_has_examples_and_a_distinct_type() {
    let rows = mplp_cloudevents::MAPPINGS;
    assert_eq!(rows.len(), 10);
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            let sample = |m: &mplp_cloudevents::Mapping| match m.ty {
                TypeFrom::Member { prefix, .. } => format!("{prefix}X"),
                TypeFrom::Fixed(f) => f.to_string(),
                _ => String::new(),
            };
            assert!(!a.ty.matches(&sample(b)), "{} and {}", a.kind, b.kind);
            assert!(!b.ty.matches(&sample(a)), "{} and {}", a.kind, b.kind);
        }
    }
}

/// The generator is not vacuous: with every change on, each example of
/// every family comes out different and still valid, and offset
/// timestamps (which need `mplptime`) are among the results.
#[test]
fn the_generator_changes_every_example() {
    let c = Changes {
        bits: vec![true],
        texts: vec!["ünï / %20 \"q\"".into(), "x".into()],
        times: vec!["2031-02-03T04:05:06.7+05:30".into()],
    };
    fn check<T: Document>(prefixes: &[&str], c: &Changes) -> usize {
        let mut offsets = 0;
        for example in examples(prefixes) {
            let out = perturb(&example, c, &|v| T::from_value(v).is_ok());
            assert_ne!(out, example, "{prefixes:?}");
            assert!(T::from_value(&out).is_ok());
            offsets += usize::from(out.to_string().contains("+05:30"));
        }
        offsets
    }
    let offsets = check::<MapEvent>(&["map-event-", "map-log-"], &c)
        + check::<SaEvent>(&["sa-event-", "sa-log-"], &c)
        + check::<CoreEvent>(&["event-"], &c)
        + check::<LearningSample>(&["learning-sample-"], &c)
        + check::<CommonLearningSample>(&["common-learning-sample-"], &c)
        + check::<ToolEvent>(&["tool-event-"], &c)
        + check::<FileUpdateEvent>(&["file-update-event-"], &c)
        + check::<GitEvent>(&["git-event-"], &c)
        + check::<CiEvent>(&["ci-event-"], &c);
    assert!(offsets > 20, "{offsets}");
}
