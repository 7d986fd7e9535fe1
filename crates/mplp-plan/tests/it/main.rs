//! Integration tests of mplp-plan (one binary, one module per area).

// Test helpers outside #[test] functions unwrap too: a failing unwrap is a failing test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod big;
mod confirm;
mod dag;
mod examples;
mod graph;
mod lifecycle;
mod mutants;
mod props;
mod render;
mod rules;
mod spec_notes;
#[cfg(feature = "svg")]
mod svg;

use std::path::PathBuf;

use mplp_core::Document;
use mplp_plan::Plan;
use serde_json::Value;

/// A plan read with its schema rules only (the escape hatch for plans that
/// break a semantic rule, such as a cycle).
pub fn unchecked(doc: &Value) -> Plan {
    <Plan as mplp_core::Wire>::deserialize_unchecked(doc).unwrap()
}

/// `schemas/examples` of the repository.
pub fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples")
}

/// The files of `dir` whose name starts with `prefix` and ends with `.json`
/// (not the `.expect.json` sidecars).
pub fn example_files(dir: &str, prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(examples_dir().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with(prefix) && name.ends_with(".json") && !name.ends_with(".expect.json")
        })
        .collect();
    files.sort();
    files
}

/// A valid, in-progress plan as JSON (schemas/examples/valid/plan-in-progress.json).
pub fn in_progress() -> Value {
    serde_json::from_slice(
        &std::fs::read(examples_dir().join("valid/plan-in-progress.json")).unwrap(),
    )
    .unwrap()
}

/// The errors of a document, as (pointer, rule).
pub fn errors(doc: &Value) -> Vec<(String, String)> {
    let text = serde_json::to_vec(doc).unwrap();
    Plan::validate_json(&text)
        .report
        .errors()
        .map(|v| (v.pointer.clone(), v.rule.to_string()))
        .collect()
}

/// The warnings of a document, as (pointer, rule).
pub fn warnings(doc: &Value) -> Vec<(String, String)> {
    let text = serde_json::to_vec(doc).unwrap();
    Plan::validate_json(&text)
        .report
        .warnings()
        .map(|v| (v.pointer.clone(), v.rule.to_string()))
        .collect()
}

/// The violations of an error, as (pointer, rule).
pub fn violations(err: &mplp_core::Error) -> Vec<(String, String)> {
    err.violations()
        .iter()
        .map(|v| (v.pointer.clone(), v.rule.to_string()))
        .collect()
}

/// `(pointer, rule)` as owned strings.
pub fn pr(pointer: &str, rule: &str) -> (String, String) {
    (pointer.to_owned(), rule.to_owned())
}
