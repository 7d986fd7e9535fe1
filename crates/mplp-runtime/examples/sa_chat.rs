//! An SA run whose agent is a language model: each plan step is a turn of
//! an agent dialog sent through the chat client (feature `chat`), the
//! run kept in a directory store laid out as an evidence pack.
//!
//! By default the model is a scripted OpenAI-compatible server started by
//! this example on 127.0.0.1 (nothing leaves the machine): it calls the
//! `word_count` tool once, then answers each step. Point it at a local
//! server with `MPLP_PROVIDER` (`openai` or `anthropic`), `MPLP_BASE_URL`
//! and `MPLP_MODEL` (keys from `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`),
//! for example Ollama:
//!
//! ```text
//! cargo run -p mplp-runtime --features chat --example sa_chat -- /tmp/pack
//! MPLP_BASE_URL=http://localhost:11434/v1 MPLP_MODEL=llama3.2 \
//!   cargo run -p mplp-runtime --features chat --example sa_chat -- /tmp/pack
//! mplp validate --bundle /tmp/pack/artifacts && mplp validate /tmp/pack/timeline/events.ndjson
//! ```

use std::time::Duration;

use mplp_context::{Context, ContextRoot};
use mplp_core::Document;
use mplp_dialog::agent::ToolSpec;
use mplp_dialog::agent::client::{ChatConfig, Provider};
use mplp_plan::Plan;
use mplp_runtime::chat::ChatExecutor;
use mplp_runtime::store::{DirStore, Expect, Store};
use mplp_runtime::{AutoApprove, Backoff, FailurePolicy, SaSession};
use serde_json::{Value, json};

#[path = "../../../tests/support/scripted_chat.rs"]
mod scripted_chat;

/// The scripted model: a tool call for the first step, then a short answer
/// naming the step it was asked.
fn scripted_reply(request: &Value) -> Value {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    let users = messages.iter().filter(|m| m["role"] == "user").count();
    let last = messages.last().cloned().unwrap_or(Value::Null);
    let message = if users == 1 && last["role"] == "user" {
        json!({"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": "word_count", "arguments": "{\"text\":\"MPLP runs single-agent work\"}"}}]})
    } else {
        let asked = messages
            .iter()
            .rev()
            .find(|m| m["role"] == "user")
            .and_then(|m| m["content"].as_str())
            .unwrap_or("the step");
        json!({"role": "assistant", "content": format!("Done: {asked}.")})
    };
    let finish = if message.get("tool_calls").is_some() {
        "tool_calls"
    } else {
        "stop"
    };
    json!({"id": "chatcmpl-x", "object": "chat.completion", "created": 0, "model": "scripted-1",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 100 * users, "completion_tokens": 12, "total_tokens": 100 * users + 12}})
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args().nth(1).map_or_else(
        || std::env::temp_dir().join(format!("mplp-sa-chat-{}", std::process::id())),
        Into::into,
    );
    let provider: Provider = std::env::var("MPLP_PROVIDER")
        .unwrap_or_else(|_| "openai".to_owned())
        .parse()?;
    let (base, model) = match std::env::var("MPLP_BASE_URL") {
        Ok(base) => (
            base,
            std::env::var("MPLP_MODEL").unwrap_or_else(|_| "llama3.2".to_owned()),
        ),
        Err(_) => (
            scripted_chat::start(scripted_reply)?,
            "scripted-1".to_owned(),
        ),
    };
    let config = match provider {
        Provider::Anthropic => ChatConfig::anthropic(base, model),
        _ => ChatConfig::openai(base, model),
    }
    .with_timeout(Duration::from_secs(120))
    .with_tools(vec![ToolSpec::new(
        "word_count",
        "Counts the words of a text",
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
    )]);

    let mut context = Context::new("Release notes", ContextRoot::new("docs", "dev"))?;
    context.activate()?;
    let mut b = Plan::builder(
        context.context_id,
        "Release notes",
        "Write the notes of release 1.2",
    );
    let outline = b.step("Outline the release notes in three bullet points");
    let draft = b.step_after("Write one sentence per bullet point", &[outline]);
    b.step_after("Give the notes a title", &[draft]);
    let plan = b.build()?;

    let mut agent =
        ChatExecutor::new(config, "You are a concise technical writer.")?.with_tools(|call| {
            match call.name.as_str() {
                "word_count" => Ok(call.arguments["text"]
                    .as_str()
                    .map_or(0, |t| t.split_whitespace().count())
                    .to_string()),
                other => Err(format!("no tool named {other}")),
            }
        });
    let store = DirStore::open(&out)?;
    let backoff = Backoff {
        initial: Duration::from_millis(500),
        factor: 2,
        max: Duration::from_secs(5),
    };
    let mut session = SaSession::new(context, plan, Vec::new(), store)?
        .with_policy(FailurePolicy::retry(2).with_backoff(backoff));
    let report = session.run(&mut agent, &mut AutoApprove::default())?;
    for e in session.sink() {
        let v: serde_json::Value = serde_json::from_str(&e.to_json())?;
        match v["payload"]["result"]["reply"].as_str() {
            Some(reply) => println!("{}: {reply}", e.event_type().as_str()),
            None => println!("{}", e.event_type().as_str()),
        }
    }
    let (_, mut store) = session.into_parts();
    // The dialog joins the evidence, bound to the same Context.
    if let Some(dialog) = agent.dialog() {
        let id = dialog.dialog_id().to_string();
        store.put(
            "dialog",
            &id,
            dialog.to_mplp().to_json_pretty().as_bytes(),
            Expect::Absent,
        )?;
        store.seal()?;
        let usage = dialog.usage();
        eprintln!(
            "{} messages, {} input and {} output tokens",
            dialog.messages().len(),
            usage.input_tokens,
            usage.output_tokens
        );
    }
    eprintln!(
        "{}: {} attempts, {} completed, {} failed; the pack is {}",
        report.outcome,
        report.attempts,
        report.completed,
        report.failures,
        out.display()
    );
    Ok(())
}
