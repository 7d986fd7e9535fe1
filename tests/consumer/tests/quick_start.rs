//! The README's quick-start tasks, as a crate depending only on `mplp` would write them.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mplp::prelude::*;
use mplp_consumer_tests::examples_dir;

#[test]
fn validate_a_file() {
    let bytes = std::fs::read(examples_dir().join("valid/plan-code-review-dag.json")).unwrap();
    let plan = Plan::from_json(&bytes).unwrap();
    assert_eq!(
        mplp::serde_json::from_str::<mplp::serde_json::Value>(&plan.to_json()).unwrap(),
        mplp::serde_json::from_slice::<mplp::serde_json::Value>(&bytes).unwrap()
    );

    // An invalid file: every error, with its pointer and rule id, as its sidecar says.
    let bad = std::fs::read(
        examples_dir().join("invalid/plan--additional-properties--governance-block.json"),
    )
    .unwrap();
    assert!(!Plan::validate_json(&bad).is_valid());
    let err = Plan::from_json(&bad).unwrap_err();
    let found: Vec<(String, &str)> = err
        .violations()
        .into_iter()
        .map(|v| (v.pointer, v.rule.as_str()))
        .collect();
    assert!(
        found.contains(&("/governance".to_owned(), "additional-properties")),
        "{found:?}"
    );
}

#[test]
fn validate_an_event_log() {
    let log = std::fs::read(examples_dir().join("valid/map-log-round-robin.ndjson")).unwrap();
    let report = mplp::events::log::validate_map_log(log.as_slice());
    assert!(report.is_valid(), "{:?}", report.violations());
    // Cut the log after its first line: the session never completes.
    let first = log.split(|b| *b == b'\n').next().unwrap();
    assert!(!mplp::events::log::validate_map_log(first).is_valid());
}

#[test]
fn build_a_plan_and_run_its_lifecycle() {
    let mut b = Plan::builder(
        ContextId::new(),
        "Fix login bug",
        "Find and fix the 500 on /login",
    );
    let logs = b.step("Read error logs");
    let fix = b.step_after("Write the fix", &[logs]);
    let mut plan = b.build().unwrap();
    assert!(plan.ready_steps().is_empty(), "a draft plan runs nothing");
    plan.propose().unwrap();
    plan.approve(&ConfirmDecision::approved("lead")).unwrap();
    plan.start().unwrap();
    assert_eq!(plan.ready_steps(), [logs]);
    plan.step_mut(logs).unwrap().start().unwrap();
    plan.step_mut(logs).unwrap().complete().unwrap();
    assert_eq!(plan.ready_steps(), [fix]);
    // Illegal transitions are refused: `logs` is completed.
    assert!(plan.step_mut(logs).unwrap().start().is_err());
    let back = Plan::from_json(plan.to_json()).unwrap();
    assert_eq!(back.to_json(), plan.to_json());
}

#[test]
fn convert_a_dialog_for_a_provider() {
    let mut dialog = Dialog::with_system_prompt(ContextId::new(), "You are a senior engineer.");
    dialog
        .add_message(DialogRole::User, "Help me debug this authentication error")
        .unwrap();
    dialog
        .add_message(DialogRole::Assistant, "Which status code do you get?")
        .unwrap();
    let window = DefaultContextManager::new(128_000).prune(&dialog).unwrap();
    let anthropic = mplp::serde_json::to_value(
        window
            .to_anthropic_request("claude-sonnet-4-5", 1024)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(anthropic["system"], "You are a senior engineer.");
    assert_eq!(anthropic["messages"][0]["role"], "user");
    assert_eq!(anthropic["messages"][1]["role"], "assistant");
    let openai = mplp::serde_json::to_value(dialog.to_openai_request("gpt-4o").unwrap()).unwrap();
    assert_eq!(openai["messages"].as_array().unwrap().len(), 3);
    assert_eq!(openai["messages"][0]["role"], "system");
}

#[test]
fn simulate_a_session() {
    let config = SimConfig::new(CollabMode::RoundRobin, 3, 6).with_seed(7);
    let mut sink = MemorySink::new();
    let summary = simulate(&config, &mut sink).unwrap();
    assert_eq!(summary.turns_total, 6);
    let log = sink.to_ndjson();
    let report = mplp::events::log::validate_map_log(log.as_bytes());
    assert!(report.is_valid(), "{:?}", report.violations());
    // Deterministic: the same seed writes the same log.
    let mut again = MemorySink::new();
    simulate(&config, &mut again).unwrap();
    assert_eq!(again.to_ndjson(), log);
}
