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
        let (pointer, rule) = (
            expect["pointer"].as_str().unwrap(),
            expect["rule"].as_str().unwrap(),
        );
        assert!(
            report
                .errors()
                .any(|v| v.pointer == pointer && v.rule.as_str() == rule),
            "{}: expected [{rule}] at `{pointer}`, got {:#?}",
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
