//! The debugging task of the `tool_loop` and `chat_tool_loop` examples: its
//! prompt (two tools, a JSON reply) and the tools, run on fixed data.
//! Included with `#[path = "support/debug_task.rs"] mod debug_task;`.

use mplp_dialog::agent::{FunctionCall, TemplatePrompt, ToolSpec};
use serde_json::json;

/// The task's prompt: find the bug behind `{symptom}`, with a file search
/// and a file read, answering in JSON.
pub(crate) fn prompt() -> TemplatePrompt {
    TemplatePrompt::new("debug/task", "Find the bug behind: {symptom}. Answer in JSON.")
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
        ))
}

/// The tools, run for real (on fixed data): the output, and whether the
/// call failed.
pub(crate) fn run_tool(call: &FunctionCall) -> (String, bool) {
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
