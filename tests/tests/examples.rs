//! Every example in `schemas/examples` gets the verdict of the folder it sits in.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mplp_integration_tests::{example_files, examples_dir, kind_of};
use serde_json::Value;

#[test]
fn every_valid_example_is_valid_and_round_trips() {
    let files = example_files(&examples_dir().join("valid"));
    assert!(
        files.len() >= 30,
        "expected the example set, found {}",
        files.len()
    );
    for path in files {
        let kind = kind_of(&path).unwrap_or_else(|| panic!("unknown kind: {}", path.display()));
        let bytes = std::fs::read(&path).unwrap();
        let report = kind.validate(&bytes);
        assert!(
            report.is_valid(),
            "{} should be valid: {:#?}",
            path.display(),
            report.violations()
        );
        if let Some(written) = kind.round_trip(&bytes) {
            let written = written.unwrap();
            let a: Value = serde_json::from_slice(&bytes).unwrap();
            let b: Value = serde_json::from_str(&written).unwrap();
            assert_eq!(a, b, "{} does not round-trip", path.display());
        } else {
            // Logs: every line round-trips through its typed event.
            let line_kind = kind.line_kind.unwrap();
            for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                let written = line_kind.round_trip(line).unwrap().unwrap();
                let a: Value = serde_json::from_slice(line).unwrap();
                let b: Value = serde_json::from_str(&written).unwrap();
                assert_eq!(a, b, "a line of {} does not round-trip", path.display());
            }
        }
    }
}

#[test]
fn every_invalid_example_is_rejected_with_the_expected_pointer_and_rule() {
    let dir = examples_dir().join("invalid");
    let files = example_files(&dir);
    assert!(
        files.len() >= 30,
        "expected the example set, found {}",
        files.len()
    );
    for path in files {
        let kind = kind_of(&path).unwrap_or_else(|| panic!("unknown kind: {}", path.display()));
        let bytes = std::fs::read(&path).unwrap();
        let report = kind.validate(&bytes);
        assert!(!report.is_valid(), "{} should be invalid", path.display());
        let expect_path = path.with_extension("expect.json");
        let expect: Value = serde_json::from_slice(&std::fs::read(&expect_path).unwrap()).unwrap();
        let (pointer, rule, keyword) = (
            expect["pointer"].as_str().unwrap(),
            expect["rule"].as_str().unwrap(),
            // A frozen invariant the schema states: the keyword behind it.
            expect.get("keyword").map(|k| k.as_str().unwrap()),
        );
        assert!(
            report.errors().any(|v| v.pointer == pointer
                && v.rule.as_str() == rule
                && v.schema_keyword() == keyword),
            "{}: expected [{rule}] ({keyword:?}) at `{pointer}`, got {:#?}",
            path.display(),
            report.violations()
        );
        // The file name says which rule it breaks.
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.contains(&format!("--{rule}--")),
            "{name} does not name rule {rule}"
        );
    }
}

#[test]
fn seed_style_documents_are_rejected_with_several_errors() {
    let files = example_files(&examples_dir().join("invalid/seed"));
    assert!(!files.is_empty());
    for path in files {
        let kind = kind_of(&path).unwrap_or_else(|| panic!("unknown kind: {}", path.display()));
        let bytes = std::fs::read(&path).unwrap();
        let report = kind.validate(&bytes);
        assert!(!report.is_valid(), "{} should be invalid", path.display());
        assert!(
            report.errors().count() >= 2,
            "{}: expected every error to be reported, got {:#?}",
            path.display(),
            report.violations()
        );
    }
}

/// Ported from the removed `schemas/tools/check_examples.py`: an invalid
/// example (outside `seed/`) breaks exactly one rule, at one place, so that
/// it tests what its name says and nothing else.
#[test]
fn every_invalid_example_breaks_exactly_its_rule() {
    for path in example_files(&examples_dir().join("invalid")) {
        let kind = kind_of(&path).unwrap_or_else(|| panic!("unknown kind: {}", path.display()));
        let report = kind.validate(&std::fs::read(&path).unwrap());
        let expect: Value =
            serde_json::from_slice(&std::fs::read(path.with_extension("expect.json")).unwrap())
                .unwrap();
        let found: Vec<(String, String)> = report
            .errors()
            .map(|v| (v.rule.as_str().to_owned(), v.pointer.clone()))
            .collect();
        let want = (
            expect["rule"].as_str().unwrap().to_owned(),
            expect["pointer"].as_str().unwrap().to_owned(),
        );
        assert_eq!(found, [want], "{}", path.display());
    }
}

fn is_lowercase_v4(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            14 => *c == b'4',
            19 => matches!(c, b'8' | b'9' | b'a' | b'b'),
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(c),
        })
}

/// Every `*_id` string that names an MPLP identifier, at `pointer`.
fn ids(v: &Value, pointer: String, out: &mut Vec<(String, String)>) {
    // Free-text ids of the schemas (role and participant names, stage names).
    const NOT_UUID: [&str; 13] = [
        "participant_id",
        "module_id",
        "role_id",
        "stage_id",
        "broadcaster_role_id",
        "receiver_role_id",
        // Learning samples and integration events (free text in their schemas).
        "commit_id",
        "run_id",
        "tool_id",
        "intent_id",
        "delta_id",
        "agent_id",
        "source_flow_id",
    ];
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let at = format!("{pointer}/{k}");
                if let (true, Some(s)) = (
                    k.ends_with("_id") && !NOT_UUID.contains(&k.as_str()),
                    x.as_str(),
                ) {
                    out.push((at.clone(), s.to_owned()));
                }
                ids(x, at, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                ids(x, format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Ported from the removed `schemas/tools/check_examples.py`: the valid
/// examples write ids as the SDK does (lowercase UUID v4, although the event
/// schemas accept any UUID) and `meta` versions `1.0.0`.
#[test]
fn valid_examples_use_lowercase_v4_ids_and_version_1_0_0() {
    for path in example_files(&examples_dir().join("valid")) {
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            let doc: Value = if path.extension().is_some_and(|e| e == "ndjson") {
                serde_json::from_str(line).unwrap()
            } else if n == 0 {
                serde_json::from_str(&text).unwrap()
            } else {
                break;
            };
            let mut found = Vec::new();
            ids(&doc, String::new(), &mut found);
            // Top-level members that are free text in one schema and UUIDs in
            // others: a CI pipeline, the structured learning sample's project.
            const FREE_TEXT: [(&str, &str); 2] = [
                ("ci-event-", "/pipeline_id"),
                ("common-learning-sample-", "/project_id"),
            ];
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            found.retain(|(at, _)| {
                !FREE_TEXT
                    .iter()
                    .any(|(prefix, member)| name.starts_with(prefix) && at == member)
            });
            for (at, id) in found {
                assert!(
                    is_lowercase_v4(&id),
                    "{} line {}: {at} = {id}",
                    path.display(),
                    n + 1
                );
            }
            // A learning sample's `meta` is its labels, not the protocol block.
            let protocol_meta = doc
                .get("meta")
                .filter(|_| !name.starts_with("learning-sample-"));
            if let Some(meta) = protocol_meta {
                assert_eq!(meta["protocol_version"], "1.0.0", "{}", path.display());
                assert_eq!(meta["schema_version"], "1.0.0", "{}", path.display());
            }
        }
    }
}
