//! A scripted two-tool agent loop, offline: a fake model asks for a file
//! search, then for a file read, then answers. Prints the overview, the
//! OpenAI and Anthropic request bodies of the last turn and the projected
//! MPLP dialog, and validates that dialog.
//!
//! ```text
//! cargo run -p mplp-dialog --example tool_loop
//! ```

use mplp_core::{ContextId, Document};
use mplp_dialog::Dialog;
use mplp_dialog::agent::{
    AgentDialog, AgentMessage, AgentRole, FunctionCall, Price, PricingTable, Prompt, Put, Usage,
};
use serde_json::json;

#[path = "support/debug_task.rs"]
mod debug_task;

/// The fake model: answers turn by turn from a script.
fn fake_model(turn: usize) -> Result<AgentMessage, Box<dyn std::error::Error>> {
    let m = match turn {
        0 => AgentMessage::tool_calls(
            "Let me find the login code.",
            vec![FunctionCall::new(
                "call_1",
                "search_files",
                json!({"pattern": "fn login"}),
            )?],
        ),
        1 => AgentMessage::tool_calls(
            "",
            vec![FunctionCall::new(
                "call_2",
                "read_file",
                json!({"path": "src/auth.rs"}),
            )?],
        ),
        _ => AgentMessage::text(
            AgentRole::Assistant,
            "{\"bug\": \"the token expiry is compared in seconds against milliseconds\", \"file\": \"src/auth.rs\"}",
        ),
    };
    let usage = Usage::new(900 + 150 * turn as u64, 40);
    Ok(m.with_usage("fake-model-1", usage))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let prompt = debug_task::prompt();

    let mut dialog = AgentDialog::new(ContextId::new(), "debugger", "You are a careful debugger.");
    let args = json!({"symptom": "users are logged out at once"});
    let args = args.as_object().ok_or("args are an object")?;
    dialog.put_prompt(&prompt, args, Put::new().name("user"))?;

    let tools = prompt.tools();
    let mut last_openai = String::new();
    let mut last_anthropic = String::new();
    for turn in 0.. {
        // What would be sent to each provider on this turn.
        last_openai = serde_json::to_string_pretty(&dialog.to_openai_chat("gpt-4o", &tools)?)?;
        last_anthropic = serde_json::to_string_pretty(&dialog.to_anthropic_messages(
            "claude-sonnet-4-5",
            1024,
            &tools,
        )?)?;
        let mut reply = fake_model(turn)?;
        if !reply.is_function_call() {
            if let Some(parsed) = prompt.parse(&reply.text_content()) {
                reply.parsed = Some(parsed?);
            }
            dialog.append(reply)?;
            break;
        }
        let calls = reply.function_calls.clone();
        dialog.append(reply)?;
        for call in &calls {
            let (output, failed) = debug_task::run_tool(call);
            dialog.append(AgentMessage::tool_result(call, output, failed))?;
        }
    }

    println!("== overview\n{}", dialog.overview());
    let mut prices = PricingTable::new();
    prices.insert("fake-model-1", Price::new(1.0, 4.0));
    let cost = dialog.cost(&prices);
    println!(
        "== cost: {} tokens, ${:.6}\n",
        cost.usage.total_tokens(),
        cost.dollars
    );
    println!("== OpenAI request of the last turn\n{last_openai}\n");
    println!("== Anthropic request of the last turn\n{last_anthropic}\n");

    let mplp = dialog.to_mplp();
    let json = mplp.to_json_pretty();
    println!("== projected MPLP dialog\n{json}\n");
    let checked = Dialog::validate_json(&json);
    for v in checked.report.violations() {
        println!("{v}");
    }
    if !checked.is_valid() {
        return Err("the projected dialog is not valid".into());
    }
    let back = AgentDialog::from_mplp(&Dialog::from_json(&json)?)?;
    if back.dialog != dialog {
        return Err("the projection did not come back exactly".into());
    }
    println!(
        "== the projected dialog is valid ({} warnings) and reads back exactly",
        checked.report.warnings().count()
    );
    Ok(())
}
