//! Structural checkers of provider request bodies, written from the
//! providers' API references: what OpenAI Chat Completions and Anthropic
//! Messages refuse with a 400 before any model runs.
//!
//! They read a body as JSON (any producer's, not only ours), report every
//! problem in one pass with the JSON pointer of the offending member, and
//! are used three ways: by [`AgentDialog::to_openai_chat`] and
//! [`AgentDialog::to_anthropic_messages`] as a last guard (a body that fails
//! is never returned), by the property tests over random dialogs and
//! operations, and by the test emulators of both APIs, which refuse a body
//! as the real services would.
//!
//! **OpenAI Chat Completions** ([`check_openai`]):
//! - top level: only documented members; `model` a non-empty string;
//!   `messages` a non-empty array;
//! - roles `system`, `developer`, `user`, `assistant`, `tool` (nothing else);
//! - `system`/`developer`/`tool` content: a string or a non-empty array of
//!   text parts; `user` content: a string or a non-empty array of `text`,
//!   `image_url`, `input_audio` or `file` parts; `assistant` content: a
//!   string, `null` or an array of `text`/`refusal` parts, and required
//!   unless there are `tool_calls`;
//! - `name`, where present, matches `^[a-zA-Z0-9_-]{1,64}$`;
//! - `tool_calls`: a non-empty array of `{id, type: "function", function:
//!   {name, arguments}}` with non-empty, unique ids and `arguments` a string;
//! - pairing: the messages right after an assistant message with
//!   `tool_calls` are `tool` messages answering each of its ids exactly once;
//!   no other message comes before every call is answered (the body may not
//!   end with an unanswered call either); a `tool` message answers a call of
//!   that assistant message, not yet answered;
//! - `tools`: `{type: "function", function: {name, description?,
//!   parameters?}}` with names matching `^[a-zA-Z0-9_-]{1,64}$`.
//!
//! **Anthropic Messages** ([`check_anthropic`]):
//! - top level: only documented members; `model` a non-empty string;
//!   `max_tokens` an integer of at least 1; `messages` a non-empty array;
//!   `system` (outside the messages) a string or an array of text blocks;
//! - roles `user` and `assistant` only, starting with `user` and alternating;
//! - content: a non-empty string or a non-empty array of blocks; `user`
//!   blocks are `text`, `image`, `document`, `tool_result`; `assistant`
//!   blocks are `text`, `tool_use`, `thinking`, `redacted_thinking`;
//! - text blocks (also inside tool results) hold non-whitespace text; image
//!   sources are `base64` (`image/jpeg`, `image/png`, `image/gif`,
//!   `image/webp`) or `url`;
//! - `tool_use`: an `id` matching `^[a-zA-Z0-9_-]+$`, unique in the request;
//!   a non-empty `name`; an object `input`;
//! - pairing: every `tool_use` of an assistant message is answered by a
//!   `tool_result` in the next message, which is a user message whose
//!   `tool_result` blocks come first; a `tool_result` answers a `tool_use` of
//!   the message just before it, once;
//! - a final assistant message does not end with whitespace;
//! - `tools`: names matching `^[a-zA-Z0-9_-]{1,64}$`, `input_schema` an
//!   object.
//!
//! ```
//! use mplp_dialog::agent::check::{check_anthropic, check_openai};
//! use serde_json::json;
//! let orphan = json!({"model": "gpt-4o", "messages": [
//!     {"role": "user", "content": "hi"},
//!     {"role": "tool", "tool_call_id": "call_1", "content": "18°C"}]});
//! let problems = check_openai(&orphan);
//! assert_eq!(problems[0].pointer, "/messages/1/tool_call_id");
//!
//! let ok = json!({"model": "claude-sonnet-4-5", "max_tokens": 64, "system": "Be brief.",
//!     "messages": [{"role": "user", "content": "hi"}]});
//! assert!(check_anthropic(&ok).is_empty());
//! ```
//!
//! [`AgentDialog::to_openai_chat`]: super::AgentDialog::to_openai_chat
//! [`AgentDialog::to_anthropic_messages`]: super::AgentDialog::to_anthropic_messages

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{Map, Value};

/// One reason a provider would refuse a body: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rejection {
    /// The JSON pointer of the offending member (`/messages/3/tool_call_id`).
    pub pointer: String,
    /// What is wrong, and what the provider expects.
    pub message: String,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

/// The top-level members the Chat Completions reference documents.
const OPENAI_MEMBERS: &[&str] = &[
    "model",
    "messages",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "stream",
    "stream_options",
    "temperature",
    "top_p",
    "n",
    "stop",
    "max_tokens",
    "max_completion_tokens",
    "presence_penalty",
    "frequency_penalty",
    "logit_bias",
    "logprobs",
    "top_logprobs",
    "response_format",
    "seed",
    "user",
    "metadata",
    "store",
    "reasoning_effort",
    "modalities",
    "audio",
    "prediction",
    "service_tier",
    "web_search_options",
];

/// The top-level members the Messages reference documents.
const ANTHROPIC_MEMBERS: &[&str] = &[
    "model",
    "max_tokens",
    "messages",
    "system",
    "tools",
    "tool_choice",
    "stream",
    "temperature",
    "top_p",
    "top_k",
    "stop_sequences",
    "metadata",
    "thinking",
    "service_tier",
];

struct Out(Vec<Rejection>);

impl Out {
    fn push(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.0.push(Rejection {
            pointer: pointer.into(),
            message: message.into(),
        });
    }
}

/// True for `^[a-zA-Z0-9_-]{1,max}$` (`max = 0`: no upper bound).
fn is_identifier(s: &str, max: usize) -> bool {
    !s.is_empty()
        && (max == 0 || s.len() <= max)
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The common top level: an object with only `allowed` members, a model
/// and a non-empty `messages` array, which is returned.
fn top<'a>(body: &'a Value, allowed: &[&str], out: &mut Out) -> Option<&'a [Value]> {
    let Some(obj) = body.as_object() else {
        out.push(
            "",
            format!("the body must be a JSON object, not {}", type_name(body)),
        );
        return None;
    };
    for key in obj.keys() {
        if !allowed.contains(&key.as_str()) {
            out.push(format!("/{key}"), format!("unknown member `{key}`"));
        }
    }
    match obj.get("model") {
        Some(Value::String(m)) if !m.is_empty() => {}
        _ => out.push("/model", "`model` must be a non-empty string"),
    }
    match obj.get("messages") {
        Some(Value::Array(m)) if !m.is_empty() => Some(m.as_slice()),
        Some(Value::Array(_)) => {
            out.push("/messages", "`messages` must not be empty");
            None
        }
        _ => {
            out.push("/messages", "`messages` must be an array of messages");
            None
        }
    }
}

/// Every reason the OpenAI Chat Completions API would refuse `body` (empty
/// when it would take it); see the [module docs](self) for the rules.
pub fn check_openai(body: &Value) -> Vec<Rejection> {
    let mut out = Out(Vec::new());
    let messages = top(body, OPENAI_MEMBERS, &mut out);
    if let Some(tools) = body.get("tools") {
        openai_tools(tools, &mut out);
    }
    let Some(messages) = messages else {
        return out.0;
    };
    // Calls of the last assistant message with tool_calls not yet answered,
    // and the index of that message; `answered` are its answered ids.
    let mut pending: Vec<String> = Vec::new();
    let mut answered: BTreeSet<String> = BTreeSet::new();
    let mut open: Option<usize> = None;
    for (i, m) in messages.iter().enumerate() {
        let at = format!("/messages/{i}");
        let Some(obj) = m.as_object() else {
            out.push(at, "a message must be an object");
            continue;
        };
        let role = obj.get("role").and_then(Value::as_str).unwrap_or("");
        if role != "tool" {
            if let Some(call) = open.filter(|_| !pending.is_empty()) {
                out.push(
                    format!("/messages/{call}/tool_calls"),
                    format!(
                        "an assistant message with `tool_calls` must be followed by `tool` messages answering each call; {} unanswered before message {i}",
                        pending.join(", ")
                    ),
                );
            }
            pending.clear();
            answered.clear();
            open = None;
        }
        if let Some(name) = obj.get("name") {
            if !name.as_str().is_some_and(|n| is_identifier(n, 64)) {
                out.push(
                    format!("{at}/name"),
                    "`name` must match ^[a-zA-Z0-9_-]{1,64}$",
                );
            }
        }
        let content = obj.get("content");
        match role {
            "system" | "developer" => {
                openai_text_content(content, &at, &["text"], &mut out);
                only(obj, &["role", "content", "name"], &at, &mut out);
            }
            "user" => {
                openai_text_content(
                    content,
                    &at,
                    &["text", "image_url", "input_audio", "file"],
                    &mut out,
                );
                only(obj, &["role", "content", "name"], &at, &mut out);
            }
            "assistant" => {
                only(
                    obj,
                    &[
                        "role",
                        "content",
                        "name",
                        "tool_calls",
                        "refusal",
                        "audio",
                        "function_call",
                    ],
                    &at,
                    &mut out,
                );
                let calls = obj.get("tool_calls");
                match content {
                    None | Some(Value::Null) if calls.is_none() => out.push(
                        format!("{at}/content"),
                        "an assistant message needs `content` unless it has `tool_calls`",
                    ),
                    None | Some(Value::Null) => {}
                    Some(c) => openai_text_content(Some(c), &at, &["text", "refusal"], &mut out),
                }
                if let Some(calls) = calls {
                    let ids = openai_tool_calls(calls, &format!("{at}/tool_calls"), &mut out);
                    pending = ids;
                    answered.clear();
                    open = Some(i);
                }
            }
            "tool" => {
                only(obj, &["role", "content", "tool_call_id"], &at, &mut out);
                openai_text_content(content, &at, &["text"], &mut out);
                match obj.get("tool_call_id").and_then(Value::as_str) {
                    None => out.push(
                        format!("{at}/tool_call_id"),
                        "a `tool` message needs a string `tool_call_id`",
                    ),
                    Some(id) => {
                        if let Some(k) = pending.iter().position(|p| p == id) {
                            pending.remove(k);
                            answered.insert(id.to_owned());
                        } else if answered.contains(id) {
                            out.push(
                                format!("{at}/tool_call_id"),
                                format!("call `{id}` is answered twice"),
                            );
                        } else {
                            out.push(
                                format!("{at}/tool_call_id"),
                                format!(
                                    "a `tool` message must answer a call of the assistant message with `tool_calls` just before it; `{id}` is not one"
                                ),
                            );
                        }
                    }
                }
            }
            other => out.push(
                format!("{at}/role"),
                format!(
                    "unknown role `{other}` (expected system, developer, user, assistant or tool)"
                ),
            ),
        }
    }
    if let Some(call) = open.filter(|_| !pending.is_empty()) {
        out.push(
            format!("/messages/{call}/tool_calls"),
            format!(
                "an assistant message with `tool_calls` must be followed by `tool` messages answering each call; {} unanswered at the end",
                pending.join(", ")
            ),
        );
    }
    out.0
}

fn only(obj: &Map<String, Value>, allowed: &[&str], at: &str, out: &mut Out) {
    for k in obj.keys() {
        if !allowed.contains(&k.as_str()) {
            out.push(format!("{at}/{k}"), format!("unknown member `{k}`"));
        }
    }
}

fn openai_text_content(content: Option<&Value>, at: &str, parts: &[&str], out: &mut Out) {
    let at = format!("{at}/content");
    match content {
        Some(Value::String(_)) => {}
        Some(Value::Array(a)) if a.is_empty() => out.push(at, "a content array must not be empty"),
        Some(Value::Array(a)) => {
            for (k, p) in a.iter().enumerate() {
                let kind = p.get("type").and_then(Value::as_str).unwrap_or("");
                let pat = format!("{at}/{k}");
                if !parts.contains(&kind) {
                    out.push(
                        format!("{pat}/type"),
                        format!(
                            "part type `{kind}` is not allowed here (expected {})",
                            parts.join(", ")
                        ),
                    );
                    continue;
                }
                let ok = match kind {
                    "text" => p.get("text").is_some_and(Value::is_string),
                    "refusal" => p.get("refusal").is_some_and(Value::is_string),
                    "image_url" => p
                        .get("image_url")
                        .and_then(|u| u.get("url"))
                        .and_then(Value::as_str)
                        .is_some_and(|u| !u.is_empty()),
                    _ => true,
                };
                if !ok {
                    out.push(pat, format!("a `{kind}` part lacks its value"));
                }
            }
        }
        Some(v) => out.push(
            at,
            format!(
                "content must be a string or an array of parts, not {}",
                type_name(v)
            ),
        ),
        None => out.push(at, "`content` is required"),
    }
}

/// Checks `tool_calls`, returning its ids.
fn openai_tool_calls(calls: &Value, at: &str, out: &mut Out) -> Vec<String> {
    let Some(calls) = calls.as_array() else {
        out.push(at, "`tool_calls` must be an array");
        return Vec::new();
    };
    if calls.is_empty() {
        out.push(at, "`tool_calls` must not be empty (leave it out)");
    }
    let mut ids = Vec::new();
    for (k, c) in calls.iter().enumerate() {
        let cat = format!("{at}/{k}");
        match c.get("id").and_then(Value::as_str) {
            Some(id) if !id.is_empty() => {
                if ids.iter().any(|x| x == id) {
                    out.push(
                        format!("{cat}/id"),
                        format!("duplicate tool call id `{id}`"),
                    );
                } else {
                    ids.push(id.to_owned());
                }
            }
            _ => out.push(
                format!("{cat}/id"),
                "a tool call needs a non-empty string `id`",
            ),
        }
        if c.get("type").and_then(Value::as_str) != Some("function") {
            out.push(
                format!("{cat}/type"),
                "a tool call's `type` must be `function`",
            );
        }
        let f = c.get("function");
        if f.and_then(|f| f.get("name"))
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            out.push(
                format!("{cat}/function/name"),
                "a tool call needs a function name",
            );
        }
        if !f
            .and_then(|f| f.get("arguments"))
            .is_some_and(Value::is_string)
        {
            out.push(
                format!("{cat}/function/arguments"),
                "a tool call's `arguments` must be a JSON text (a string)",
            );
        }
    }
    ids
}

fn openai_tools(tools: &Value, out: &mut Out) {
    let Some(tools) = tools.as_array() else {
        out.push("/tools", "`tools` must be an array");
        return;
    };
    for (k, t) in tools.iter().enumerate() {
        if t.get("type").and_then(Value::as_str) != Some("function") {
            out.push(
                format!("/tools/{k}/type"),
                "a tool's `type` must be `function`",
            );
        }
        let f = t.get("function");
        if !f
            .and_then(|f| f.get("name"))
            .and_then(Value::as_str)
            .is_some_and(|n| is_identifier(n, 64))
        {
            out.push(
                format!("/tools/{k}/function/name"),
                "a function name must match ^[a-zA-Z0-9_-]{1,64}$",
            );
        }
        if let Some(p) = f.and_then(|f| f.get("parameters")) {
            if !p.is_object() {
                out.push(
                    format!("/tools/{k}/function/parameters"),
                    "`parameters` must be a JSON Schema object",
                );
            }
        }
    }
}

/// Every reason the Anthropic Messages API would refuse `body` (empty when
/// it would take it); see the [module docs](self) for the rules.
pub fn check_anthropic(body: &Value) -> Vec<Rejection> {
    let mut out = Out(Vec::new());
    let messages = top(body, ANTHROPIC_MEMBERS, &mut out);
    match body.get("max_tokens") {
        Some(v) if v.as_u64().is_some_and(|n| n >= 1) => {}
        _ => out.push(
            "/max_tokens",
            "`max_tokens` must be an integer of at least 1",
        ),
    }
    match body.get("system") {
        None | Some(Value::String(_)) => {}
        Some(Value::Array(blocks)) => {
            for (k, b) in blocks.iter().enumerate() {
                if b.get("type").and_then(Value::as_str) != Some("text") {
                    out.push(
                        format!("/system/{k}/type"),
                        "`system` blocks must be text blocks",
                    );
                } else {
                    text_block(b, &format!("/system/{k}"), &mut out);
                }
            }
        }
        Some(v) => out.push(
            "/system",
            format!(
                "`system` must be a string or text blocks, not {}",
                type_name(v)
            ),
        ),
    }
    if let Some(tools) = body.get("tools") {
        anthropic_tools(tools, &mut out);
    }
    let Some(messages) = messages else {
        return out.0;
    };
    let mut seen_ids: BTreeSet<String> = BTreeSet::new();
    // The tool_use ids of the previous (assistant) message, to be answered now.
    let mut to_answer: Vec<String> = Vec::new();
    let mut prev_role: Option<&str> = None;
    let last = messages.len() - 1;
    for (i, m) in messages.iter().enumerate() {
        let at = format!("/messages/{i}");
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        if !matches!(role, "user" | "assistant") {
            out.push(
                format!("{at}/role"),
                format!("role must be `user` or `assistant`, not `{role}` (the system prompt goes in the top-level `system`)"),
            );
        }
        if m.as_object()
            .is_some_and(|o| o.keys().any(|k| k != "role" && k != "content"))
        {
            out.push(at.clone(), "a message has only `role` and `content`");
        }
        if i == 0 && role != "user" {
            out.push(
                format!("{at}/role"),
                "the first message must be a user message",
            );
        }
        if prev_role == Some(role) {
            out.push(
                format!("{at}/role"),
                format!("two `{role}` messages in a row: roles must alternate"),
            );
        }
        prev_role = Some(role);
        let blocks: Vec<Value> = match m.get("content") {
            Some(Value::String(s)) => {
                if s.trim().is_empty() {
                    out.push(
                        format!("{at}/content"),
                        "text content must hold non-whitespace text",
                    );
                }
                vec![serde_json::json!({"type": "text", "text": s})]
            }
            Some(Value::Array(a)) if a.is_empty() => {
                out.push(
                    format!("{at}/content"),
                    "content must not be an empty array",
                );
                Vec::new()
            }
            Some(Value::Array(a)) => a.clone(),
            _ => {
                out.push(
                    format!("{at}/content"),
                    "content must be a string or an array of blocks",
                );
                Vec::new()
            }
        };
        let mut uses: Vec<String> = Vec::new();
        let mut results_done = false;
        let mut answered: BTreeSet<String> = BTreeSet::new();
        for (k, b) in blocks.iter().enumerate() {
            let bat = format!("{at}/content/{k}");
            let kind = b.get("type").and_then(Value::as_str).unwrap_or("");
            let allowed: &[&str] = if role == "assistant" {
                &["text", "tool_use", "thinking", "redacted_thinking"]
            } else {
                &["text", "image", "document", "tool_result"]
            };
            if !allowed.contains(&kind) {
                out.push(
                    format!("{bat}/type"),
                    format!(
                        "a `{role}` message cannot hold a `{kind}` block (expected {})",
                        allowed.join(", ")
                    ),
                );
                continue;
            }
            if kind != "tool_result" {
                results_done = true;
            }
            match kind {
                "text" => text_block(b, &bat, &mut out),
                "image" => image_block(b, &bat, &mut out),
                "tool_use" => {
                    match b.get("id").and_then(Value::as_str) {
                        Some(id) if is_identifier(id, 0) => {
                            if !seen_ids.insert(id.to_owned()) {
                                out.push(
                                    format!("{bat}/id"),
                                    format!("`tool_use` ids must be unique; `{id}` is used twice"),
                                );
                            }
                            uses.push(id.to_owned());
                        }
                        _ => out.push(
                            format!("{bat}/id"),
                            "a `tool_use` id must match ^[a-zA-Z0-9_-]+$",
                        ),
                    }
                    if b.get("name")
                        .and_then(Value::as_str)
                        .is_none_or(str::is_empty)
                    {
                        out.push(
                            format!("{bat}/name"),
                            "a `tool_use` block needs a non-empty `name`",
                        );
                    }
                    if !b.get("input").is_some_and(Value::is_object) {
                        out.push(
                            format!("{bat}/input"),
                            "a `tool_use` input must be a JSON object",
                        );
                    }
                }
                "tool_result" => {
                    if results_done {
                        out.push(bat.clone(), "`tool_result` blocks must come first in a user message, before any other block");
                    }
                    match b.get("tool_use_id").and_then(Value::as_str) {
                        Some(id) if to_answer.iter().any(|u| u == id) && !answered.contains(id) => {
                            answered.insert(id.to_owned());
                        }
                        Some(id) if answered.contains(id) => out.push(format!("{bat}/tool_use_id"), format!("`{id}` is answered twice")),
                        Some(id) => out.push(
                            format!("{bat}/tool_use_id"),
                            format!("a `tool_result` must answer a `tool_use` of the message just before it; `{id}` is not one"),
                        ),
                        None => out.push(format!("{bat}/tool_use_id"), "a `tool_result` needs a string `tool_use_id`"),
                    }
                    match b.get("content") {
                        None | Some(Value::String(_)) => {}
                        Some(Value::Array(inner)) => {
                            for (j, ib) in inner.iter().enumerate() {
                                let iat = format!("{bat}/content/{j}");
                                match ib.get("type").and_then(Value::as_str) {
                                    Some("text") => text_block(ib, &iat, &mut out),
                                    Some("image") => image_block(ib, &iat, &mut out),
                                    Some("document") | Some("search_result") => {}
                                    other => out.push(
                                        format!("{iat}/type"),
                                        format!(
                                            "a `tool_result` cannot hold a `{}` block",
                                            other.unwrap_or("")
                                        ),
                                    ),
                                }
                            }
                        }
                        Some(v) => out.push(
                            format!("{bat}/content"),
                            format!(
                                "`tool_result` content must be a string or blocks, not {}",
                                type_name(v)
                            ),
                        ),
                    }
                    if b.get("is_error").is_some_and(|e| !e.is_boolean()) {
                        out.push(format!("{bat}/is_error"), "`is_error` must be a boolean");
                    }
                }
                _ => {}
            }
        }
        let missing: Vec<&str> = to_answer
            .iter()
            .filter(|u| !answered.contains(u.as_str()))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            out.push(
                format!("/messages/{}", i - 1),
                format!(
                    "`tool_use` ids were found without `tool_result` blocks immediately after: {}",
                    missing.join(", ")
                ),
            );
        }
        to_answer = uses;
        if i == last && role == "assistant" {
            if let Some(t) = blocks
                .last()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .and_then(|b| b.get("text"))
                .and_then(Value::as_str)
            {
                if t.trim_end() != t {
                    out.push(
                        format!("{at}/content"),
                        "final assistant content cannot end with trailing whitespace",
                    );
                }
            }
        }
    }
    if !to_answer.is_empty() {
        out.push(
            format!("/messages/{last}"),
            format!(
                "`tool_use` ids were found without `tool_result` blocks immediately after: {}",
                to_answer.join(", ")
            ),
        );
    }
    out.0
}

fn text_block(b: &Value, at: &str, out: &mut Out) {
    match b.get("text").and_then(Value::as_str) {
        Some(t) if !t.trim().is_empty() => {}
        Some(_) => out.push(
            format!("{at}/text"),
            "text content blocks must contain non-whitespace text",
        ),
        None => out.push(format!("{at}/text"), "a text block needs a string `text`"),
    }
}

fn image_block(b: &Value, at: &str, out: &mut Out) {
    let source = b.get("source");
    match source.and_then(|s| s.get("type")).and_then(Value::as_str) {
        Some("base64") => {
            let media = source
                .and_then(|s| s.get("media_type"))
                .and_then(Value::as_str)
                .unwrap_or("");
            if !matches!(
                media,
                "image/jpeg" | "image/png" | "image/gif" | "image/webp"
            ) {
                out.push(format!("{at}/source/media_type"), format!("image media type `{media}` is not one of image/jpeg, image/png, image/gif, image/webp"));
            }
            if !source
                .and_then(|s| s.get("data"))
                .is_some_and(Value::is_string)
            {
                out.push(
                    format!("{at}/source/data"),
                    "base64 image data must be a string",
                );
            }
        }
        Some("url") => {
            if source
                .and_then(|s| s.get("url"))
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                out.push(
                    format!("{at}/source/url"),
                    "an image URL must be a non-empty string",
                );
            }
        }
        _ => out.push(
            format!("{at}/source/type"),
            "an image source is `base64` or `url`",
        ),
    }
}

fn anthropic_tools(tools: &Value, out: &mut Out) {
    let Some(tools) = tools.as_array() else {
        out.push("/tools", "`tools` must be an array");
        return;
    };
    for (k, t) in tools.iter().enumerate() {
        if !t
            .get("name")
            .and_then(Value::as_str)
            .is_some_and(|n| is_identifier(n, 64))
        {
            out.push(
                format!("/tools/{k}/name"),
                "a tool name must match ^[a-zA-Z0-9_-]{1,64}$",
            );
        }
        if !t.get("input_schema").is_some_and(Value::is_object) {
            out.push(
                format!("/tools/{k}/input_schema"),
                "`input_schema` must be a JSON Schema object",
            );
        }
    }
}

/// Returns `request` as checked by `check`, or [`ConvertError::Rejected`].
pub(crate) fn guard<T: serde::Serialize>(
    provider: &'static str,
    request: &T,
    check: fn(&Value) -> Vec<Rejection>,
) -> Result<(), crate::ConvertError> {
    let value = serde_json::to_value(request).map_err(|e| crate::ConvertError::Rejected {
        provider,
        problems: vec![format!("the body cannot be written as JSON: {e}")],
    })?;
    let problems = check(&value);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(crate::ConvertError::Rejected {
            provider,
            problems: problems.iter().map(ToString::to_string).collect(),
        })
    }
}
