//! The canonical examples of schemas/examples and the seed's own examples.

use mplp_core::{Document, StepId};
use mplp_plan::Plan;
use serde_json::{Value, json};

use crate::{example_files, pr, violations};

#[test]
fn every_valid_example_is_valid_and_round_trips() {
    let files = example_files("valid", "plan-");
    assert!(files.len() >= 5, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let validation = Plan::validate_json(&bytes);
        assert!(
            validation.report.is_empty(),
            "{}: {:?}",
            file.display(),
            validation.report
        );
        let plan = validation.value.unwrap();
        let json = plan.to_json();
        assert_eq!(Plan::from_json(&json).unwrap(), plan, "{}", file.display());
        let input: Value = serde_json::from_slice(&bytes).unwrap();
        let output: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(input, output, "{}", file.display());
        // And through a Value.
        assert_eq!(Plan::from_value(&input).unwrap(), plan);
    }
}

#[test]
fn every_invalid_example_reports_the_expected_pointer_and_rule() {
    let mut files = example_files("invalid", "plan--");
    files.extend(example_files("invalid/seed", "plan--"));
    assert!(files.len() >= 20, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let expect: Value =
            serde_json::from_slice(&std::fs::read(file.with_extension("expect.json")).unwrap())
                .unwrap();
        let validation = Plan::validate_json(&bytes);
        assert!(!validation.is_valid(), "{} was accepted", file.display());
        let found: Vec<(String, String)> = validation
            .report
            .errors()
            .map(|v| (v.pointer.clone(), v.rule.to_string()))
            .collect();
        let wanted = (
            expect["pointer"].as_str().unwrap().to_owned(),
            expect["rule"].as_str().unwrap().to_owned(),
        );
        assert!(
            found.contains(&wanted),
            "{}: expected {wanted:?} among {found:?}",
            file.display()
        );
        // Every error message says what was expected.
        for v in validation.report.errors() {
            assert!(v.message.len() > 10, "{}: {v}", file.display());
        }
    }
}

/// Section 8 of the seed, verbatim.
const SEED_EXAMPLE: &str = r#"{
  "meta": { "protocolVersion": "1.0.0", "source": "mplp-sdk-ts" },
  "plan_id": "plan-550e8400-e29b-41d4-a716-446655440001",
  "context_id": "ctx-550e8400-e29b-41d4-a716-446655440000",
  "title": "Fix Login Bug",
  "objective": "Investigate and fix the 500 error on /login endpoint in production",
  "status": "in_progress",
  "steps": [
    { "step_id": "s1", "description": "Read server error logs from past 24 hours", "status": "completed", "dependencies": [], "agent_role": "debugger", "order_index": 0 },
    { "step_id": "s2", "description": "Identify root cause from stack traces", "status": "completed", "dependencies": ["s1"], "agent_role": "debugger", "order_index": 1 },
    { "step_id": "s3", "description": "Write code patch for null pointer exception", "status": "in_progress", "dependencies": ["s2"], "agent_role": "coder", "order_index": 2 },
    { "step_id": "s4", "description": "Write unit tests for the fix", "status": "pending", "dependencies": ["s3"], "agent_role": "coder", "order_index": 3 },
    { "step_id": "s5", "description": "Deploy to staging and verify", "status": "pending", "dependencies": ["s3", "s4"], "agent_role": "devops", "order_index": 4 }
  ],
  "trace": { "trace_id": "trace-plan-550e8401" }
}"#;

#[test]
fn the_seeds_own_json_is_rejected_with_helpful_errors() {
    let err = Plan::from_json(SEED_EXAMPLE).unwrap_err();
    let v = err.violations();
    let find = |pointer: &str, rule: &str| {
        v.iter()
            .find(|x| x.pointer == pointer && x.rule.as_str() == rule)
            .unwrap_or_else(|| panic!("no {pointer} {rule} in {v:#?}"))
    };
    assert!(
        find("/meta/protocolVersion", "additional-properties")
            .message
            .contains("did you mean `protocol_version`")
    );
    find("/meta/protocol_version", "required");
    find("/meta/schema_version", "required");
    find("/meta/source", "additional-properties");
    assert!(find("/plan_id", "pattern").message.contains("UUID"));
    find("/context_id", "pattern");
    for i in 0..5 {
        // The schema's pattern, which states `sa_steps_have_valid_ids`.
        let bad = find(&format!("/steps/{i}/step_id"), "sa_steps_have_valid_ids");
        assert_eq!(bad.schema_keyword(), Some("pattern"));
    }
    find("/steps/1/dependencies/0", "pattern");
    find("/steps/4/dependencies/1", "pattern");
    find("/trace/trace_id", "pattern");
    find("/trace/span_id", "required");
}

/// The seed's 5-step DAG (section 4.3), with the ids converted to v4.
fn seed_dag() -> (Value, [StepId; 5]) {
    let ids = [(); 5].map(|_| StepId::new());
    let [s1, s2, s3, s4, s5] = ids.map(|i| i.to_string());
    let step = |id: &str, desc: &str, deps: Vec<&str>| json!({"step_id": id, "description": desc, "status": "pending", "dependencies": deps});
    let doc = json!({
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "plan_id": "27650952-d4ac-41e7-948b-97528f277c51",
        "context_id": "2530dc8f-0e8c-4a00-994e-7a9146b010c2",
        "title": "Seed example DAG",
        "objective": "The five-step DAG of the Plan Module seed",
        "status": "draft",
        "steps": [
            step(&s1, "Analyze Requirements", vec![]),
            step(&s2, "Design Architecture", vec![&s1]),
            step(&s3, "Setup Testing", vec![&s1]),
            step(&s4, "Implement Core", vec![&s2]),
            step(&s5, "Integration Test", vec![&s3, &s4]),
        ]
    });
    (doc, ids)
}

#[test]
fn the_seeds_dag_with_v4_ids_is_valid_and_scheduled() {
    let (doc, [s1, s2, s3, s4, s5]) = seed_dag();
    let plan = Plan::from_value(&doc).unwrap();
    assert_eq!(plan.topological_order().unwrap(), [s1, s2, s3, s4, s5]);
    assert_eq!(
        plan.execution_layers().unwrap(),
        [vec![s1], vec![s2, s3], vec![s4], vec![s5]]
    );
    assert_eq!(plan.longest_path().unwrap(), [s1, s2, s4, s5]);
    assert_eq!(plan.affected_by_failure(s2).unwrap(), [s4, s5]);
    assert_eq!(plan.affected_by_failure(s3).unwrap(), [s5]);
    assert!(plan.affected_by_failure(s5).unwrap().is_empty());
}

#[test]
fn the_seeds_dag_with_its_own_ids_is_rejected() {
    let text = r#"{"meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
      "plan_id": "27650952-d4ac-41e7-948b-97528f277c51", "context_id": "2530dc8f-0e8c-4a00-994e-7a9146b010c2",
      "title": "t", "objective": "o", "status": "draft",
      "steps": [{ "step_id": "s1", "description": "Analyze Requirements", "dependencies": [] }]}"#;
    let err = Plan::from_json(text).unwrap_err();
    assert_eq!(
        violations(&err),
        [
            pr("/steps/0/step_id", "sa_steps_have_valid_ids"),
            pr("/steps/0/status", "required")
        ]
    );
}
