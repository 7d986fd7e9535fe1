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

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use mplp_core::{ContextId, Document};
use mplp_dialog::Dialog;
use mplp_dialog::agent::client::{BlockingChatClient, ChatConfig};
use mplp_dialog::agent::{
    AgentDialog, AgentMessage, FunctionCall, Price, PricingTable, Prompt, Put, TemplatePrompt,
    ToolSpec,
};
use serde_json::{Value, json};

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

/// A one-thread HTTP/1.1 server for the scripted model; its base URL.
fn start_scripted_server() -> Result<String, Box<dyn std::error::Error>> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let base = format!("http://{}/v1", listener.local_addr()?);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut length = 0usize;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                if let Some((k, v)) = line.split_once(':') {
                    if k.eq_ignore_ascii_case("content-length") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                }
                line.clear();
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                continue;
            }
            let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let reply = scripted_reply(&request).to_string();
            let mut out = &stream;
            let _ = write!(
                out,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    Ok(base)
}

/// The tools, run for real (on fixed data).
fn run_tool(call: &FunctionCall) -> (String, bool) {
    match call.name.as_str() {
        "search_files" => (
            "src/auth.rs:12: pub fn login(token: &Token)".to_owned(),
            false,
        ),
        "read_file" => (
            "pub fn login(token: &Token) -> bool { token.expires_at > now_millis() / 1000 * 1000 }"
                .to_owned(),
            false,
        ),
        other => (format!("unknown tool {other}"), true),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let prompt = TemplatePrompt::new("debug/task", "Find the bug behind: {symptom}. Answer in JSON.")
        .with_json_reply()
        .with_tool(ToolSpec::new(
            "search_files",
            "Search the repository for a pattern",
            json!({"type": "object", "properties": {"pattern": {"type": "string"}}, "required": ["pattern"]}),
        ))
        .with_tool(ToolSpec::new(
            "read_file",
            "Read a file",
            json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        ));

    let (base_url, model) = match std::env::var("MPLP_BASE_URL") {
        Ok(url) => (
            url,
            std::env::var("MPLP_MODEL").unwrap_or_else(|_| "gpt-4o-mini".to_owned()),
        ),
        Err(_) => (start_scripted_server()?, "scripted-1".to_owned()),
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
            let (output, failed) = run_tool(call);
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
