//! The shared examples in schemas/examples: valid ones parse and round-trip,
//! invalid ones are reported at the pointer and rule of their sidecar.

#[path = "../../../../tests/support/members.rs"]
mod members;
use members::members_in_order;
use std::path::PathBuf;

use mplp_core::Document;
use mplp_events::MapEvent;
use serde_json::Value;

pub(crate) fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples")
}

pub(crate) fn files(kind: &str, prefix: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(examples_dir().join(kind))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with(prefix) && name.ends_with(ext) && !name.ends_with(".expect.json")
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no {kind} examples for {prefix}");
    v
}

/// The top-level keys in order, and the keys of `payload` in order.
pub(crate) fn key_order(text: &[u8]) -> (Vec<String>, Vec<String>) {
    let keys = |members: Vec<(String, _)>| members.into_iter().map(|(k, _)| k).collect();
    let outer = members_in_order(text).unwrap();
    let payload = outer
        .iter()
        .find(|(k, _)| k == "payload")
        .map(|(_, x)| keys(members_in_order(x.get().as_bytes()).unwrap()))
        .unwrap_or_default();
    (keys(outer), payload)
}

pub(crate) fn check_valid<T: Document + PartialEq + std::fmt::Debug>(
    prefix: &str,
    typed_payload: bool,
) {
    for path in files("valid", prefix, ".json") {
        let text = std::fs::read(&path).unwrap();
        let v = T::validate_json(&text);
        assert!(v.report.is_empty(), "{}: {:?}", path.display(), v.report);
        let doc = v.value.unwrap();
        let input: Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(doc.to_value(), input, "{}", path.display());
        // The typed value written in compact form reads back the same.
        assert_eq!(T::from_json(doc.to_json()).unwrap(), doc);
        // And the text keeps the key order of the envelope and the payload
        // (free-form nested objects are kept as values: serde_json sorts their keys).
        let (ours, theirs) = (key_order(doc.to_json().as_bytes()), key_order(&text));
        assert_eq!(ours.0, theirs.0, "{}", path.display());
        if typed_payload {
            assert_eq!(ours.1, theirs.1, "{}", path.display());
        }
    }
}

pub(crate) fn check_invalid<T: Document + std::fmt::Debug>(prefix: &str) {
    for path in files("invalid", prefix, ".json") {
        let text = std::fs::read(&path).unwrap();
        let expect: Value =
            serde_json::from_slice(&std::fs::read(path.with_extension("expect.json")).unwrap())
                .unwrap();
        let v = T::validate_json(&text);
        assert!(v.value.is_none(), "{} should be invalid", path.display());
        let found = v.report.errors().any(|e| {
            e.pointer == expect["pointer"].as_str().unwrap()
                && e.rule.as_str() == expect["rule"].as_str().unwrap()
        });
        assert!(
            found,
            "{}: expected {expect}, got {:#?}",
            path.display(),
            v.report
        );
        // from_value agrees with from_json.
        let value: Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(
            T::validate_value(&value).report,
            v.report,
            "{}",
            path.display()
        );
    }
}

#[test]
fn map_event_examples() {
    check_valid::<MapEvent>("map-event-", true);
    check_invalid::<MapEvent>("map-event-");
}

#[test]
fn sa_event_examples() {
    check_valid::<mplp_events::SaEvent>("sa-event-", true);
    check_invalid::<mplp_events::SaEvent>("sa-event-");
}

#[test]
fn core_event_examples() {
    check_valid::<mplp_events::CoreEvent>("event-", false);
    check_invalid::<mplp_events::CoreEvent>("event-");
}

#[test]
fn log_examples_are_valid_and_round_trip_exactly() {
    for path in files("valid", "map-log-", ".ndjson") {
        let text = std::fs::read(&path).unwrap();
        let report = mplp_events::log::validate_map_log(&text[..]);
        assert!(report.is_empty(), "{}: {report:?}", path.display());
        check_lines_round_trip::<MapEvent>(&text);
    }
    for path in files("valid", "sa-log-", ".ndjson") {
        let text = std::fs::read(&path).unwrap();
        let report = mplp_events::log::validate_sa_log(&text[..]);
        assert!(report.is_empty(), "{}: {report:?}", path.display());
        check_lines_round_trip::<mplp_events::SaEvent>(&text);
    }
}

/// Every line reads and writes back: the same JSON value, the same key order
/// of envelope and typed payload (free-form nested objects come back with
/// sorted keys, as serde_json's Map sorts them).
fn check_lines_round_trip<T: Document + std::fmt::Debug>(text: &[u8]) {
    let mut w = mplp_events::log::LogWriter::new(Vec::new());
    for entry in mplp_events::log::LogReader::<_, T>::new(text) {
        w.write(&entry.event.unwrap()).unwrap();
    }
    let out = w.into_inner();
    let ours: Vec<&[u8]> = out.split(|b| *b == b'\n').collect();
    let theirs: Vec<&[u8]> = text.split(|b| *b == b'\n').collect();
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.iter().zip(&theirs).filter(|(a, _)| !a.is_empty()) {
        assert_eq!(key_order(a).0, key_order(b).0);
        let va: Value = serde_json::from_slice(a).unwrap();
        let vb: Value = serde_json::from_slice(b).unwrap();
        assert_eq!(va, vb);
        // Byte-exact after normalising both through serde_json::Value.
        assert_eq!(
            serde_json::to_string(&va).unwrap(),
            serde_json::to_string(&vb).unwrap()
        );
    }
}
