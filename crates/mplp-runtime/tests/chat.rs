//! The chat executor (feature `chat`): whole SA runs whose steps are turns
//! of an agent dialog sent to the in-process emulators of the OpenAI Chat
//! Completions and Anthropic Messages APIs (mplp-dialog's test emulator,
//! which fails the test on any body the provider would refuse). Replies,
//! a tool round, HTTP errors, rate limits and refusals become step
//! outputs and step failures that the failure policy handles; the packs
//! pass the bundle rules, the SA log validator and the evidence-pack checks.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

#[path = "../../mplp-dialog/tests/it/emulator.rs"]
mod emulator;
mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use emulator::{Emulator, Step};
use mplp_core::Document;
use mplp_dialog::agent::client::{ApiKey, Backoff as HttpBackoff, ChatConfig, Provider};
use mplp_dialog::agent::{AgentRole, Price, PricingTable, ToolSpec};
use mplp_events::SaEvent;
use mplp_events::sa::SaPayload;
use mplp_plan::{Plan, PlanStatus};
use mplp_runtime::async_session::AsyncSaSession;
use mplp_runtime::chat::ChatExecutor;
use mplp_runtime::store::{DirStore, Expect, Store};
use mplp_runtime::{AutoApprove, Backoff, FailurePolicy, OnExhausted, SaOutcome, SaSession};
use serde_json::{Value, json};
use support::{check_log, context};

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mplp-runtime-chat-{name}-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// s0 → s1 → s2 and s0 → s3: run in the order s0, s1, s2, s3.
fn plan(ctx: &mplp_context::Context) -> Plan {
    let mut b = Plan::builder(ctx.context_id, "Release notes", "Write the release notes");
    let s0 = b.step("Outline the notes");
    let s1 = b.step_after("Check the weather for the launch", &[s0]);
    b.step_after("Write the notes", &[s1]);
    b.step_after("Post the notes", &[s0]);
    b.build().unwrap()
}

fn weather() -> ToolSpec {
    ToolSpec::new(
        "weather",
        "The weather in a city",
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    )
}

/// The client retries nothing itself: each HTTP error is a step failure.
fn config(provider: Provider, emu: &Emulator) -> ChatConfig {
    let base = match provider {
        Provider::Openai => emu.openai_base(),
        _ => emu.url.clone(),
    };
    ChatConfig::new(provider, base, "test-model")
        .with_api_key(ApiKey::new("sk-test"))
        .with_tools(vec![weather()])
        .with_retries(
            0,
            HttpBackoff::new(Duration::from_millis(5), Duration::from_millis(5)),
        )
        .with_timeout(Duration::from_secs(10))
}

fn openai_text(text: &str) -> Step {
    Step::json(
        200,
        &json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "test-model",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13}}),
    )
}

fn openai_call() -> Step {
    Step::json(
        200,
        &json!({"id": "chatcmpl-2", "object": "chat.completion", "created": 1, "model": "test-model",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]}}],
            "usage": {"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25}}),
    )
}

fn openai_refusal() -> Step {
    Step::json(
        200,
        &json!({"id": "chatcmpl-3", "object": "chat.completion", "created": 1, "model": "test-model",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": null,
                "refusal": "I cannot write that."}}]}),
    )
}

fn anthropic_text(text: &str) -> Step {
    Step::json(
        200,
        &json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "test-model",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "usage": {"input_tokens": 12, "output_tokens": 3}}),
    )
}

fn anthropic_refusal() -> Step {
    Step::json(
        200,
        &json!({"id": "msg_2", "type": "message", "role": "assistant", "model": "test-model",
            "content": [{"type": "text", "text": "I will not do that."}], "stop_reason": "refusal",
            "usage": {"input_tokens": 12, "output_tokens": 5}}),
    )
}

fn anthropic_call() -> Step {
    Step::json(
        200,
        &json!({"id": "msg_3", "type": "message", "role": "assistant", "model": "test-model",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Nice"}}],
            "stop_reason": "tool_use", "usage": {"input_tokens": 30, "output_tokens": 9}}),
    )
}

fn events(dir: &Path) -> (Vec<u8>, Vec<SaEvent>) {
    let log = std::fs::read(dir.join("timeline/events.ndjson")).unwrap();
    let events = log
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| SaEvent::from_json(l).unwrap())
        .collect();
    (log, events)
}

/// The pack passes the bundle rules, the SA log validator and the
/// evidence-pack checks of `mplp conformance`.
fn check_pack(dir: &Path) {
    let bundle = mplp_check::bundle::check_dir(&dir.join("artifacts")).unwrap();
    let errors: Vec<String> = bundle
        .violations()
        .filter(|(_, v)| v.is_error())
        .map(|(n, v)| format!("{n}: {v}"))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let (log, _) = events(dir);
    let r = check_log(&log);
    assert!(r.is_valid(), "{:?}", r.violations());
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    for check in mplp_conformance::pack::check_pack(dir, &name, "") {
        assert!(
            check.findings.is_empty(),
            "{}: {:?}",
            check.name,
            check.findings
        );
    }
}

fn failures(events: &[SaEvent]) -> Vec<String> {
    events
        .iter()
        .filter(|e| matches!(e.payload, SaPayload::StepFailed(_)))
        .map(|e| e.to_json())
        .collect()
}

fn results(events: &[SaEvent]) -> Vec<Value> {
    events
        .iter()
        .filter_map(|e| match &e.payload {
            SaPayload::StepCompleted(_) => {
                let v: Value = serde_json::from_str(&e.to_json()).unwrap();
                Some(v["payload"]["result"].clone())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn openai_steps_are_dialog_turns_and_failures_follow_the_policy() {
    let emu = Emulator::start(vec![
        openai_text("1. Features 2. Fixes"),           // s0
        openai_call(),                                 // s1: a tool round
        openai_text("Sunny in Paris: launch outside"), // s1: the answer
        Step::raw(500, "internal error"),              // s2 attempt 1
        openai_refusal(),                              // s2 attempt 2
        openai_text("The notes."),                     // s2 attempt 3
        openai_text("Posted."),                        // s3
    ]);
    let ctx = context();
    let dir = tmp("openai");
    let p = plan(&ctx);
    // $1 an input token, $2 an output token: costs are whole numbers.
    let mut prices = PricingTable::new();
    prices.insert("test-model", Price::new(1e6, 2e6));
    let config = config(Provider::Openai, &emu).with_prices(prices);
    let mut agent = ChatExecutor::new(config, "You write release notes.")
        .unwrap()
        .with_tools(|call| {
            assert_eq!(call.name.as_str(), "weather");
            let city = call.arguments["city"].as_str().unwrap_or("?");
            Ok(format!("{city}: 21°C, sunny"))
        });
    let mut session = SaSession::new(ctx, p, Vec::new(), DirStore::open(&dir).unwrap())
        .unwrap()
        .with_policy(FailurePolicy::retry(2).with_backoff(Backoff::NONE));
    let report = session
        .run(&mut agent, &mut AutoApprove::default())
        .unwrap();
    assert_eq!(report.outcome, SaOutcome::Completed);
    assert_eq!(
        (report.attempts, report.retries, report.failures),
        (6, 2, 2)
    );
    assert_eq!(session.plan().status(), PlanStatus::Completed);
    drop(session);
    emu.assert_clean();
    assert_eq!(emu.seen().len(), 7);
    // The failed attempts left no turn behind: attempt 3 of s2 sent the
    // same conversation as attempt 1.
    let seen = emu.seen();
    assert_eq!(seen[3].body["messages"], seen[5].body["messages"]);
    assert_eq!(seen[3].headers["authorization"], "Bearer sk-test");
    let (_, evs) = events(&dir);
    let failed = failures(&evs);
    assert_eq!(failed.len(), 2);
    assert!(failed[0].contains("HTTP 500"), "{}", failed[0]);
    assert!(
        failed[1].contains("the model refused: I cannot write that."),
        "{}",
        failed[1]
    );
    let out = results(&evs);
    assert_eq!(out.len(), 4);
    assert_eq!(out[0]["reply"], "1. Features 2. Fixes");
    assert_eq!(out[1]["reply"], "Sunny in Paris: launch outside");
    assert_eq!(out[1]["tool_calls"], 1);
    assert_eq!(out[1]["http_attempts"], 2);
    assert_eq!(out[1]["input_tokens"], 30);
    assert_eq!(out[1]["output_tokens"], 8);
    // Both replies of the tool round are paid for: 20 + 2 × 5, then 10 + 2 × 3.
    assert_eq!(out[1]["cost_usd"].as_f64(), Some(46.0));
    assert_eq!(out[0]["cost_usd"].as_f64(), Some(16.0));
    assert_eq!(out[2]["reply"], "The notes.");
    assert_eq!(out[3]["model"], "test-model");
    // The dialog: system, then per step its user turn and the replies.
    let dialog = agent.dialog().unwrap().clone();
    let roles: Vec<AgentRole> = dialog.messages().iter().map(|m| m.role).collect();
    use AgentRole::*;
    assert_eq!(
        roles,
        [
            System, User, Assistant, User, ToolCall, Tool, Assistant, User, Assistant, User,
            Assistant
        ]
    );
    assert_eq!(
        dialog.messages()[1].text_content(),
        "Step 1 of 4: Outline the notes"
    );
    assert_eq!(out[3]["message"], 10);
    assert_eq!(out[3]["dialog_id"], dialog.dialog_id().to_string());
    // Debug shows the executor, never the key.
    let debug = format!("{agent:?}");
    assert!(
        debug.starts_with("ChatExecutor") && debug.contains("max_tool_rounds: 8"),
        "{debug}"
    );
    assert!(!debug.contains("sk-test"), "{debug}");
    assert_eq!(agent.into_dialog(), Some(dialog.clone()));
    // The dialog joins the evidence: bound to the run's Context, it passes
    // the bundle rules with the other documents.
    let mut store = DirStore::open(&dir).unwrap();
    let id = dialog.dialog_id().to_string();
    store
        .put(
            "dialog",
            &id,
            dialog.to_mplp().to_json().as_bytes(),
            Expect::Absent,
        )
        .unwrap();
    store.seal().unwrap();
    drop(store);
    check_pack(&dir);
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn anthropic_steps_through_the_async_session_and_the_plan_fails_as_the_policy_says() {
    let emu = Emulator::start(vec![
        anthropic_text("Outline."), // s0
        Step::json(
            429,
            &json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}),
        )
        .header("retry-after", "0"), // s1 attempt 1: the client does not retry
        anthropic_text("Sunny."),   // s1 attempt 2
        anthropic_refusal(),        // s2 attempt 1
        anthropic_call(),           // s2 attempt 2: a tool call, and no tool handler
    ]);
    let ctx = context();
    let p = plan(&ctx);
    let dir = tmp("anthropic");
    let core = SaSession::new(ctx, p, Vec::new(), DirStore::open(&dir).unwrap())
        .unwrap()
        .with_policy(
            FailurePolicy::retry(1)
                .with_backoff(Backoff::NONE)
                .then(OnExhausted::FailPlan),
        );
    let mut agent = ChatExecutor::new(
        config(Provider::Anthropic, &emu),
        "You write release notes.",
    )
    .unwrap()
    .with_prompt(|req| format!("[{}] {}", req.plan.title, req.step.description));
    let mut session = AsyncSaSession::new(core, Vec::<SaEvent>::new());
    let report = session
        .run(&mut agent, &mut AutoApprove::default())
        .await
        .unwrap();
    assert_eq!(report.outcome, SaOutcome::Failed);
    assert_eq!(session.session().plan().status(), PlanStatus::Failed);
    assert_eq!(
        (report.attempts, report.completed, report.failures),
        (5, 2, 3)
    );
    drop(session);
    emu.assert_clean();
    let seen = emu.seen();
    assert_eq!(seen.len(), 5);
    assert!(seen.iter().all(|s| s.path == "/v1/messages"));
    assert_eq!(seen[0].headers["x-api-key"], "sk-test");
    assert!(
        seen[0].body["messages"][0]
            .to_string()
            .contains("[Release notes] Outline the notes"),
        "{}",
        seen[0].body
    );
    assert!(
        seen[0].body["system"]
            .to_string()
            .contains("You write release notes.")
    );
    // Both attempts of s2 sent the same conversation (the refusal was rolled back).
    assert_eq!(seen[3].body["messages"], seen[4].body["messages"]);
    let (_, evs) = events(&dir);
    let failed = failures(&evs);
    assert_eq!(failed.len(), 3);
    assert!(
        failed[0].contains("HTTP 429") && failed[0].contains("slow down"),
        "{}",
        failed[0]
    );
    assert!(
        failed[1].contains("the model refused: I will not do that."),
        "{}",
        failed[1]
    );
    assert!(
        failed[2].contains("the model called weather, and this executor has no tool handler"),
        "{}",
        failed[2]
    );
    assert!(failed[2].contains("fail_plan"), "{}", failed[2]);
    check_pack(&dir);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unreachable_server_is_a_step_failure() {
    // A port nothing listens on (bound, then closed).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = ChatConfig::new(Provider::Openai, format!("http://127.0.0.1:{port}/v1"), "m")
        .with_retries(
            0,
            HttpBackoff::new(Duration::from_millis(1), Duration::from_millis(1)),
        );
    let mut agent = ChatExecutor::new(config, "sys").unwrap();
    let ctx = context();
    let p = plan(&ctx);
    let mut session = SaSession::new(ctx, p, Vec::new(), mplp_runtime::store::MemoryStore::new())
        .unwrap()
        .with_policy(FailurePolicy::retry(0).then(OnExhausted::SkipDependents));
    let report = session
        .run(&mut agent, &mut AutoApprove::default())
        .unwrap();
    // s0 fails, and every other step depends on it.
    assert_eq!(report.outcome, SaOutcome::Failed);
    assert_eq!(
        (report.attempts, report.completed, report.skipped),
        (1, 0, 3)
    );
    let failed: Vec<String> = session
        .sink()
        .iter()
        .filter(|e| matches!(e.payload, SaPayload::StepFailed(_)))
        .map(|e| e.to_json())
        .collect();
    assert!(
        failed[0].contains("chat: cannot reach the server"),
        "{}",
        failed[0]
    );
    // Nothing of the failed attempt stays in the dialog.
    assert_eq!(agent.dialog().unwrap().messages().len(), 1);
}

fn openai_finish(reason: &str, text: &str) -> Step {
    Step::json(
        200,
        &json!({"id": "chatcmpl-9", "object": "chat.completion", "created": 1, "model": "test-model",
            "choices": [{"index": 0, "finish_reason": reason, "message": {"role": "assistant", "content": text}}]}),
    )
}

/// A content filter is a refusal; a reply cut at `length` is an output
/// (its `stop_reason` says so); a model that keeps calling tools past the
/// allowed rounds fails the attempt; a tool's error goes back to the model.
#[test]
fn content_filter_length_and_tool_rounds() {
    let emu = Emulator::start(vec![
        openai_finish("content_filter", ""),       // s0 attempt 1
        openai_finish("length", "Cut sh"),         // s0 attempt 2
        openai_call(),                             // s1 attempt 1: round 1
        openai_call(),                             // round 2: over the limit of 1
        openai_call(),                             // s1 attempt 2: round 1 (the tool fails)
        openai_text("Weather unknown; going on."), // the answer
        openai_text("Notes."),                     // s2
        openai_text("Posted."),                    // s3
    ]);
    let ctx = context();
    let p = plan(&ctx);
    let mut calls = 0;
    let mut agent = ChatExecutor::new(config(Provider::Openai, &emu), "sys")
        .unwrap()
        .with_max_tool_rounds(1)
        .with_tools(move |_| {
            calls += 1;
            if calls == 1 {
                Ok("sunny".to_owned())
            } else {
                Err("the weather service is down".to_owned())
            }
        });
    let mut session = SaSession::new(ctx, p, Vec::new(), mplp_runtime::store::MemoryStore::new())
        .unwrap()
        .with_policy(FailurePolicy::retry(1).with_backoff(Backoff::NONE));
    let report = session
        .run(&mut agent, &mut AutoApprove::default())
        .unwrap();
    assert_eq!(report.outcome, SaOutcome::Completed);
    assert_eq!((report.attempts, report.failures), (6, 2));
    emu.assert_clean();
    assert_eq!(emu.seen().len(), 8);
    let failed: Vec<String> = session
        .sink()
        .iter()
        .filter(|e| matches!(e.payload, SaPayload::StepFailed(_)))
        .map(|e| e.to_json())
        .collect();
    assert!(
        failed[0].contains("the content filter stopped the reply"),
        "{}",
        failed[0]
    );
    assert!(
        failed[1].contains("still calls tools after 1 rounds"),
        "{}",
        failed[1]
    );
    let out = results(session.sink());
    assert_eq!(out[0]["reply"], "Cut sh");
    assert_eq!(out[0]["stop_reason"], "length");
    assert_eq!(out[1]["tool_calls"], 1);
    // The failing tool's result went back marked as an error.
    let seen = emu.seen();
    let tool = seen[5].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["role"] == "tool")
        .unwrap()
        .clone();
    assert!(
        tool.to_string().contains("the weather service is down"),
        "{tool}"
    );
}
