//! Reading files and bytes as `mplp validate` does: byte-order
//! marks skipped with a warning by `validate_file`, and deep nesting in
//! free-form members read up to the limit on every entry point.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use mplp_check::{MAP_LOG, PLAN, detect, validate_bytes, validate_file};
use mplp_json::nesting::MAX_NESTING;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn plan() -> String {
    std::fs::read_to_string(repo().join("schemas/examples/valid/plan-minimal.json")).unwrap()
}

fn log() -> String {
    std::fs::read_to_string(repo().join("schemas/examples/valid/map-log-round-robin.ndjson"))
        .unwrap()
}

/// A fresh empty directory under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mplp-check-input-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The minimal plan with a trace whose free-form `attributes` nest so that
/// the document nests `total` levels (plan 1, trace 2, attributes 3).
fn deep_plan(total: usize) -> String {
    let levels = total - 3;
    let deep = format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
    let trace = format!(
        r#""trace": {{"trace_id": "5f0c8f43-2b8e-4f4e-9d2b-1c6f0c1e2a3b", "span_id": "6a1d9e54-3c9f-4a5f-8e3c-2d7a1d2f3b4c", "attributes": {{"deep": {deep}}}}},"#
    );
    plan().replacen(r#""plan_id""#, &format!(r#"{trace} "plan_id""#), 1)
}

#[path = "../../../tests/support/small_stack.rs"]
mod small_stack;
use small_stack::on_small_stack;

#[test]
fn validate_file_skips_a_byte_order_mark_with_a_warning_for_documents_and_logs() {
    let dir = scratch("bom");
    for (name, text, kind) in [
        ("plan.json", plan(), &PLAN),
        ("log.ndjson", log(), &MAP_LOG),
    ] {
        let path = dir.join(name);
        let mut bytes = mplp_core::document::UTF8_BOM.to_vec();
        bytes.extend(text.as_bytes());
        std::fs::write(&path, &bytes).unwrap();
        for given in [None, Some(kind)] {
            let (found, report) = validate_file(given, &path).unwrap();
            assert_eq!(found.map(|k| k.name), Some(kind.name), "{name}");
            assert!(report.is_valid(), "{name}: {report:?}");
            let warnings: Vec<_> = report.warnings().map(|v| v.rule.as_str()).collect();
            assert_eq!(warnings, ["input-bom"], "{name}");
        }
        // Without the mark: no warning.
        std::fs::write(&path, text.as_bytes()).unwrap();
        let (_, report) = validate_file(None, &path).unwrap();
        assert!(
            report.is_valid() && report.warnings().next().is_none(),
            "{name}: {report:?}"
        );
        // The bytes API takes a JSON text and names the mark it refuses.
        let (_, report) = validate_bytes(Some(kind), &bytes);
        assert!(
            report
                .errors()
                .any(|v| v.message.contains("byte-order mark")),
            "{name}: {report:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deep_free_form_members_are_read_to_the_limit_by_detect_and_validate() {
    on_small_stack(|| {
        let text = deep_plan(MAX_NESTING);
        assert_eq!(mplp_json::nesting::depth(text.as_bytes()), MAX_NESTING);
        assert_eq!(detect(text.as_bytes()).map(|k| k.name), Ok("plan"));
        let (kind, report) = validate_bytes(None, text.as_bytes());
        assert_eq!(kind.map(|k| k.name), Some("plan"));
        assert!(report.is_valid(), "{report:?}");
        // The round trip writes the same attributes back.
        let back = PLAN.round_trip(text.as_bytes()).unwrap().unwrap();
        let written: serde_json::Value = mplp_json::nesting::from_slice(back.as_bytes()).unwrap();
        let read: serde_json::Value = mplp_json::nesting::from_slice(text.as_bytes()).unwrap();
        assert_eq!(written, read);

        let text = deep_plan(MAX_NESTING + 1);
        for report in [
            validate_bytes(None, text.as_bytes()).1,
            validate_bytes(Some(&PLAN), text.as_bytes()).1,
        ] {
            let v = report.errors().next().unwrap();
            assert_eq!(v.rule.as_str(), "json-depth", "{v:?}");
            assert!(
                v.pointer.starts_with("/trace/attributes/deep/0/"),
                "{}",
                v.pointer
            );
        }
    });
}

#[test]
fn a_log_file_with_a_deep_first_line_is_recognised_and_read() {
    let dir = scratch("deep-log");
    let path = dir.join("log.ndjson");
    let levels = MAX_NESTING - 2;
    let deep = format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
    let log = log();
    let (first, rest) = log.split_once('\n').unwrap();
    let first = first.strip_suffix("}}").unwrap();
    std::fs::write(&path, format!("{first},\"deep\":{deep}}}}}\n{rest}")).unwrap();
    on_small_stack(move || {
        let (kind, report) = validate_file(None, &path).unwrap();
        assert_eq!(kind.map(|k| k.name), Some("map-log"));
        assert!(report.is_valid(), "{report:?}");
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// Numbers a `serde_json::Map` cannot hold: valid in a free-form
/// member (the canonical schema accepts any number there), for a document
/// and a log, with or without a kind, from bytes and from a file.
#[test]
fn exact_numbers_in_free_form_members_are_valid_everywhere() {
    let numbers = r#"{"big":18446744073709551617,"pi":3.141592653589793238462643383279,"tiny":1e-400,"huge":-1e400}"#;
    let trace = format!(
        r#""trace": {{"trace_id": "5f0c8f43-2b8e-4f4e-9d2b-1c6f0c1e2a3b", "span_id": "6a1d9e54-3c9f-4a5f-8e3c-2d7a1d2f3b4c", "attributes": {numbers}}},"#
    );
    let plan = plan().replacen(r#""plan_id""#, &format!(r#"{trace} "plan_id""#), 1);
    for kind in [None, Some(&PLAN)] {
        let (found, report) = validate_bytes(kind, plan.as_bytes());
        assert_eq!(found, Some(&PLAN));
        assert!(report.is_valid(), "{report:?}");
    }
    let log = log();
    let line = log
        .lines()
        .find(|l| l.contains("MAPTurnCompleted"))
        .unwrap();
    let with = line.replacen(
        "\"payload\":{",
        &format!("\"payload\":{{\"stats\":{numbers},"),
        1,
    );
    assert_ne!(with, line);
    let text = log.replacen(line, &with, 1);
    let (_, report) = validate_bytes(Some(&MAP_LOG), text.as_bytes());
    assert!(report.is_valid(), "{report:?}");
    let dir = scratch("exact");
    let path = dir.join("log.ndjson");
    std::fs::write(&path, &text).unwrap();
    let (_, report) = validate_file(None, &path).unwrap();
    assert!(report.is_valid(), "{report:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
