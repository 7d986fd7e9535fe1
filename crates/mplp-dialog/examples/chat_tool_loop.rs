//! Seed 003's agent loop ("Run the agent loop"), driven by the chat client
//! (feature `http`): the `tool_loop` example, but each model turn is a real
//! HTTP call to an OpenAI-compatible server.
//!
//! By default the server is a scripted model started by this example on
//! 127.0.0.1 (nothing leaves the machine): it asks for a file search, then a
//! file read, then answers in JSON. Point it at a real server with
//! `MPLP_BASE_URL` and `MPLP_MODEL` (and `OPENAI_API_KEY`), for example
//! Ollama's `http://localhost:11434/v1`.
//!
//! ```text
//! cargo run -p mplp-dialog --features http --example chat_tool_loop
//! ```

use mplp_core::{ContextId, Document};
use mplp_dialog::Dialog;
use mplp_dialog::agent::client::{BlockingChatClient, ChatConfig};
use mplp_dialog::agent::{AgentDialog, AgentMessage, Price, PricingTable, Prompt, Put};
use serde_json::{Value, json};

#[path = "../../../tests/support/scripted_chat.rs"]
mod scripted_chat;

#[path = "support/debug_task.rs"]
mod debug_task;

/// The scripted model's answer to a request: what it does depends on how
/// many tool results the conversation already has.
fn scripted_reply(request: &Value) -> Value {
    let results = request["messages"]
        .as_array()
        .map(|m| m.iter().filter(|m| m["role"] == "tool").count())
        .unwrap_or(0);
    let message = match results {
        0 => json!({"role": "assistant", "content": "Let me find the login code.",
            "tool_calls": [{"id": "call_1", "type": "function",
                "function": {"name": "search_files", "arguments": "{\"pattern\":\"fn login\"}"}}]}),
        1 => json!({"role": "assistant", "content": null,
            "tool_calls": [{"id": "call_2", "type": "function",
                "function": {"name": "read_file", "arguments": "{\"path\":\"src/auth.rs\"}"}}]}),
        _ => json!({"role": "assistant",
            "content": "{\"bug\": \"the token expiry is compared in seconds against milliseconds\", \"file\": \"src/auth.rs\"}"}),
    };
    let finish = if message.get("tool_calls").is_some() {
        "tool_calls"
    } else {
        "stop"
    };
    json!({"id": format!("chatcmpl-{results}"), "object": "chat.completion", "created": 0,
        "model": "scripted-1", "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 900 + 150 * results, "completion_tokens": 40, "total_tokens": 940 + 150 * results}})
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let prompt = debug_task::prompt();

    let (base_url, model) = match std::env::var("MPLP_BASE_URL") {
        Ok(url) => (
            url,
            std::env::var("MPLP_MODEL").unwrap_or_else(|_| "gpt-4o-mini".to_owned()),
        ),
        Err(_) => (
            scripted_chat::start(scripted_reply)?,
            "scripted-1".to_owned(),
        ),
    };
    let mut prices = PricingTable::new();
    prices.insert("scripted-1", Price::new(1.0, 4.0));
    let client = BlockingChatClient::new(
        ChatConfig::openai(base_url, model)
            .with_tools(prompt.tools())
            .with_prices(prices.clone()),
    )?;

    let mut dialog = AgentDialog::new(ContextId::new(), "debugger", "You are a careful debugger.");
    let args = json!({"symptom": "users are logged out at once"});
    let args = args.as_object().ok_or("args are an object")?;
    dialog.put_prompt(&prompt, args, Put::new().name("user"))?;

    // The agent loop: call the model; run the tools it asks for and hand
    // back their results; stop when it answers.
    for turn in 1..=8 {
        let reply = client.send(&mut dialog)?;
        println!(
            "turn {turn}: {}",
            dialog.messages()[reply.index].text_content()
        );
        if reply.tool_calls.is_empty() {
            let text = dialog.messages()[reply.index].text_content();
            if let Some(parsed) = prompt.parse(&text) {
                println!("parsed: {}", parsed?);
            }
            break;
        }
        for call in &reply.tool_calls {
            let (output, failed) = debug_task::run_tool(call);
            println!("  tool {}({}) -> {output}", call.name, call.arguments);
            dialog.append(AgentMessage::tool_result(call, output, failed))?;
        }
    }

    println!("\n== overview\n{}", dialog.overview());
    let cost = dialog.cost(&prices);
    println!(
        "== cost: {} tokens, ${:.6}",
        cost.usage.total_tokens(),
        cost.dollars
    );

    let json = dialog.to_mplp().to_json_pretty();
    let checked = Dialog::validate_json(&json);
    if !checked.is_valid() {
        return Err(format!("the projected dialog is not valid: {:?}", checked.report).into());
    }
    println!(
        "== the projected MPLP dialog is valid ({} bytes)",
        json.len()
    );
    Ok(())
}
