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

/// A plan of `n` steps `s0`, `s1`, ... read without its rules:
/// `deps` are `(dependency, step)` pairs (a step may name itself),
/// `missing` a dependency id that names no step, `status` a step's status.
pub(crate) fn plan(
    n: usize,
    deps: &[(usize, usize)],
    missing: &[(usize, &str)],
    status: &[(usize, &str)],
) -> Plan {
    let mut b = Plan::builder(mplp_core::ContextId::new(), "T", "o");
    for i in 0..n {
        b.step(format!("s{i}"));
    }
    let mut json = b.build().unwrap().to_value();
    let ids: Vec<serde_json::Value> = (0..n)
        .map(|i| json["steps"][i]["step_id"].clone())
        .collect();
    for i in 0..n {
        let mut list: Vec<serde_json::Value> = deps
            .iter()
            .filter(|(_, s)| *s == i)
            .map(|(d, _)| ids[*d].clone())
            .collect();
        list.extend(
            missing
                .iter()
                .filter(|(s, _)| *s == i)
                .map(|(_, id)| serde_json::Value::from(*id)),
        );
        json["steps"][i]["dependencies"] = list.into();
    }
    for (i, s) in status {
        json["steps"][*i]["status"] = (*s).into();
    }
    <Plan as mplp_core::Wire>::deserialize_unchecked(&json).unwrap()
}
