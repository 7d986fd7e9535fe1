//! Shared by `benches/validate.rs` and `examples/bench_report.rs`: plan
//! documents of any size, and a `jsonschema` validator built from
//! `schemas/mplp-plan.schema.json` with the `common/` schemas registered.

#![allow(dead_code)]

use std::fmt::Write;
use std::path::PathBuf;

use mplp_core::StepId;
use serde_json::Value;

/// A valid `approved` plan of `n` steps as JSON bytes: step `i` depends on
/// step `i - 1` and, when `i >= 2`, on step `i / 2` (so the graph is a DAG
/// of depth `n`, the worst case for recursive algorithms), with a
/// description, a role and an `order_index`, like real plans.
pub(crate) fn plan_json(n: usize) -> Vec<u8> {
    let ids: Vec<StepId> = (0..n).map(|_| StepId::new()).collect();
    let roles = ["planner", "coder", "reviewer", "ci-runner"];
    let mut s = String::with_capacity(n * 230 + 400);
    s.push_str(r#"{"meta":{"protocol_version":"1.0.0","schema_version":"1.0.0","created_at":"2025-12-07T00:00:00.000Z","created_by":"agent-planner"},"plan_id":"27650952-d4ac-41e7-948b-97528f277c51","context_id":"2530dc8f-0e8c-4a00-994e-7a9146b010c2","title":"Benchmark plan","objective":"Validate a large plan quickly","status":"approved","steps":["#);
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            r#"{{"step_id":"{id}","description":"Carry out work item number {i} of the plan","status":"pending","dependencies":["#
        );
        if i >= 1 {
            let _ = write!(s, r#""{}""#, ids[i - 1]);
        }
        if i >= 2 && i / 2 != i - 1 {
            let _ = write!(s, r#","{}""#, ids[i / 2]);
        }
        let _ = write!(
            s,
            r#"],"agent_role":"{}","order_index":{i}}}"#,
            roles[i % roles.len()]
        );
    }
    s.push_str("]}");
    s.into_bytes()
}

fn schemas_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

/// A draft-07 validator of `schemas/mplp-plan.schema.json`, with every
/// `common/*.schema.json` registered as a resource under its `$id`, and
/// format assertions on.
pub(crate) fn jsonschema_validator() -> jsonschema::Validator {
    let read = |path: &std::path::Path| -> Value {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    };
    let plan = read(&schemas_dir().join("mplp-plan.schema.json"));
    let mut resources: Vec<(String, Value)> = Vec::new();
    for entry in std::fs::read_dir(schemas_dir().join("common")).unwrap() {
        let schema = read(&entry.unwrap().path());
        let id = schema["$id"].as_str().unwrap().to_owned();
        resources.push((id, schema));
    }
    let registry = jsonschema::Registry::new()
        .draft(jsonschema::Draft::Draft7)
        .extend(resources.iter().map(|(id, schema)| (id.as_str(), schema)))
        .and_then(|b| b.prepare())
        .unwrap();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .with_registry(&registry)
        .should_validate_formats(true)
        .build(&plan)
        .unwrap()
}
