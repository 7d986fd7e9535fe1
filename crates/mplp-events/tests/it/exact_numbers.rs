//! Numbers in event payloads and other free-form members come back with
//! their exact value, on every reading path: a typed payload,
//! a payload seen before its `event_type`, a flattened learning-sample
//! body, the log reader and writer.

use mplp_core::Document;
use mplp_events::learning::LearningSample;
use mplp_events::{MapEvent, SaEvent};

/// Numbers a `serde_json::Map` cannot hold with their value.
const NUMBERS: &str = r#"{"big":18446744073709551617,"neg":-18446744073709551617,"pi":3.141592653589793238462643383279,"tiny":1e-400,"huge":1e400,"z":-0.0}"#;

const MAP_ENVELOPE: &str = r#""event_id":"0b5aa778-4224-467d-8331-240366095f3f","timestamp":"2025-12-07T00:00:03.000Z","session_id":"940bda79-b539-44e0-9089-f61899b16f4c""#;

fn holds_the_numbers(out: &str) {
    for n in [
        "18446744073709551617",
        "-18446744073709551617",
        "3.141592653589793238462643383279",
        "1e-400",
        "1e400",
        "-0.0",
    ] {
        assert!(out.contains(n), "{n} missing from {out}");
    }
}

#[test]
fn a_map_payload_keeps_them_before_and_after_its_event_type() {
    let payload = format!(
        r#"{{"role_id":"coder","turn_number":2,"status":"completed","stats":{NUMBERS},"list":[1e400,[18446744073709551617]]}}"#
    );
    let after =
        format!(r#"{{"event_type":"MAPTurnCompleted",{MAP_ENVELOPE},"payload":{payload}}}"#);
    let before =
        format!(r#"{{"payload":{payload},"event_type":"MAPTurnCompleted",{MAP_ENVELOPE}}}"#);
    let a = MapEvent::from_json(&after).unwrap();
    let b = MapEvent::from_json(&before).unwrap();
    assert_eq!(a, b);
    holds_the_numbers(&a.to_json());
    assert!(a.to_json().contains("[1e400,[18446744073709551617]]"));
    assert_eq!(a.to_json(), b.to_json());
    // The log reader and writer, and the log validator.
    let log = format!("{after}\n{before}\n");
    let mut w = mplp_events::log::LogWriter::new(Vec::new());
    for entry in mplp_events::log::LogReader::<_, MapEvent>::new(log.as_bytes()) {
        w.write(&entry.event.unwrap()).unwrap();
    }
    let out = String::from_utf8(w.into_inner()).unwrap();
    for line in out.lines() {
        assert_eq!(line, a.to_json());
    }
    let report = mplp_events::log::validate_map_log(log.as_bytes());
    assert!(
        report.errors().all(|v| v.rule.as_str() != "json-syntax"),
        "{report:?}"
    );
}

#[test]
fn an_sa_payload_keeps_them() {
    let text = format!(
        r#"{{"event_id":"3a457ad7-6a79-4345-8ce9-54ad9da0867c","event_type":"SAInitialized","timestamp":"2025-12-07T00:00:00.000Z","sa_id":"610cd501-b032-48ae-ab0d-94c72582466b","payload":{NUMBERS}}}"#
    );
    let e = SaEvent::from_json(&text).unwrap();
    holds_the_numbers(&e.to_json());
    assert_eq!(SaEvent::from_json(e.to_json()).unwrap(), e);
}

#[test]
fn a_flattened_learning_sample_body_keeps_them() {
    let text = format!(
        r#"{{"sample_id":"0b5aa778-4224-467d-8331-240366095f3f","sample_family":"pipeline_outcome","created_at":"2025-12-01T00:00:00Z","input":{NUMBERS},"output":{{"ok":1e400}},"x-extra":{NUMBERS}}}"#
    );
    let s = LearningSample::from_json(&text).unwrap();
    let out = s.to_json();
    holds_the_numbers(&out);
    assert!(out.contains(r#""output":{"ok":1e400}"#), "{out}");
    assert_eq!(out.matches("18446744073709551617").count(), 4, "{out}");
    assert_eq!(LearningSample::from_json(&out).unwrap(), s);
}
