//! `mplp dialog send` end to end, against the in-process API emulator of
//! mplp-dialog's tests (127.0.0.1 only).
#![cfg(feature = "http")]
// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../mplp-dialog/tests/it/emulator.rs"]
mod emulator;

use std::path::PathBuf;
use std::process::{Command, Output};

use emulator::{Emulator, Step};
use mplp_core::{ContextId, Document};
use mplp_dialog::Dialog;
use mplp_dialog::agent::{AgentDialog, AgentMessage, AgentRole, FunctionCall, Put};
use serde_json::json;

fn dialog_file(name: &str, d: &AgentDialog) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mplp-send-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, d.to_mplp().to_json_pretty()).unwrap();
    path
}

fn send(args: &[&str], key_var: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mplp"))
        .args(["dialog", "send"])
        .args(args)
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env(key_var, "sk-cli-SECRET")
        .output()
        .unwrap()
}

fn asking() -> AgentDialog {
    let mut d = AgentDialog::new(ContextId::new(), "coder", "Be brief.");
    d.put_text("Weather in Paris?", Put::new()).unwrap();
    d
}

#[test]
fn sends_appends_the_reply_and_prints_valid_mplp() {
    let emu = Emulator::start(vec![Step::json(
        200,
        &json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "18°C."}}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 4, "total_tokens": 16}}),
    )]);
    let path = dialog_file("openai.json", &asking());
    let base = emu.openai_base();
    let out = send(
        &[
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "gpt-4o",
            path.to_str().unwrap(),
        ],
        "OPENAI_API_KEY",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let checked = Dialog::validate_json(stdout.as_bytes());
    assert!(checked.is_valid(), "{:?}", checked.report);
    let back = AgentDialog::from_mplp(&Dialog::from_json(stdout.as_bytes()).unwrap())
        .unwrap()
        .dialog;
    assert_eq!(back.messages().len(), 3);
    assert_eq!(back.messages()[2].text_content(), "18°C.");
    assert_eq!(back.messages()[2].usage.unwrap().output_tokens, 4);
    assert!(
        stderr.contains("usage: 12 input tokens (0 cached), 4 output tokens; model gpt-4o"),
        "{stderr}"
    );
    assert!(!stdout.contains("SECRET") && !stderr.contains("SECRET"));
    assert_eq!(
        emu.seen()[0].headers["authorization"],
        "Bearer sk-cli-SECRET"
    );
}

#[test]
fn streams_from_anthropic() {
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_s", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [], "usage": {"input_tokens": 9, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Sunny, "}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "18°C."}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 6}}),
        json!({"type": "message_stop"}),
    ];
    let sse: String = events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect();
    let emu = Emulator::start(vec![Step::sse(&sse, 7)]);
    let path = dialog_file("anthropic.json", &asking());
    let out = send(
        &[
            "--provider",
            "anthropic",
            "--base-url",
            &emu.url,
            "--model",
            "claude-sonnet-4-5",
            "--stream",
            path.to_str().unwrap(),
        ],
        "ANTHROPIC_API_KEY",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.starts_with("Sunny, 18°C.\n"), "{stderr}");
    assert!(
        stderr.contains("usage: 9 input tokens (0 cached), 6 output tokens"),
        "{stderr}"
    );
    let back = AgentDialog::from_mplp(&Dialog::from_json(&out.stdout).unwrap())
        .unwrap()
        .dialog;
    assert_eq!(back.tail().unwrap().text_content(), "Sunny, 18°C.");
    assert_eq!(emu.seen()[0].headers["x-api-key"], "sk-cli-SECRET");
    assert_eq!(emu.seen()[0].body["max_tokens"], 1024);
}

#[test]
fn a_client_error_exits_2_with_the_servers_message() {
    let emu = Emulator::start(vec![Step::json(
        404,
        &json!({"error": {"message": "The model `gpt-9` does not exist", "type": "invalid_request_error"}}),
    )]);
    let path = dialog_file("missing-model.json", &asking());
    let base = emu.openai_base();
    let out = send(
        &[
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            "gpt-9",
            path.to_str().unwrap(),
        ],
        "OPENAI_API_KEY",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the server answered 404: The model `gpt-9` does not exist"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    assert_eq!(emu.seen().len(), 1, "a 4xx is not retried");
}

#[test]
fn a_body_the_provider_would_refuse_is_not_sent() {
    let emu = Emulator::start(vec![Step::json(200, &json!({}))]);
    let mut d = asking();
    let call = FunctionCall::new("call_1", "weather", json!({"city": "Paris"})).unwrap();
    d.append(AgentMessage::tool_calls("", vec![call])).unwrap();
    d.append(AgentMessage::text(AgentRole::User, "hello?"))
        .unwrap();
    let path = dialog_file("unanswered.json", &d);
    let out = send(
        &[
            "--provider",
            "anthropic",
            "--base-url",
            &emu.url,
            "--model",
            "claude-sonnet-4-5",
            path.to_str().unwrap(),
        ],
        "ANTHROPIC_API_KEY",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("message 2 requests tool call `call_1`"),
        "{stderr}"
    );
    assert!(emu.seen().is_empty());
}
