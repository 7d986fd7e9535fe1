//! Our request bodies against real client libraries' request types.
//!
//! Each body must deserialise into the library's request type, and that
//! value must serialise back to JSON equal to ours: so no field of ours is
//! unknown to (and silently dropped by) the library, and every value has the
//! shape it expects.

use async_openai::types::chat::{ChatCompletionRequestMessage, CreateChatCompletionRequest};
use mplp_core::{ContextId, Document};
use mplp_dialog::*;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::common::examples;

pub(crate) fn assert_async_openai_accepts(req: &OpenAiRequest) {
    let ours = serde_json::to_value(req).unwrap();
    let theirs = CreateChatCompletionRequest::deserialize(&ours)
        .unwrap_or_else(|e| panic!("async-openai refuses {ours}: {e}"));
    assert_eq!(serde_json::to_value(&theirs).unwrap(), ours);
    assert_eq!(theirs.messages.len(), req.messages.len());
    for (t, o) in theirs.messages.iter().zip(&req.messages) {
        let same_role = matches!(
            (t, o.role),
            (ChatCompletionRequestMessage::System(_), OpenAiRole::System)
                | (ChatCompletionRequestMessage::User(_), OpenAiRole::User)
                | (
                    ChatCompletionRequestMessage::Assistant(_),
                    OpenAiRole::Assistant
                )
        );
        assert!(same_role, "{t:?} vs {o:?}");
    }
}

/// Our Anthropic body against a strict mirror of the documented Messages
/// API request, and the API's own rules: starts with user, alternates, a
/// single text is sent as a string. (The check against the
/// `anthropic-ai-sdk` client's types is in `tests/provider-compat`, out of
/// the default test build.)
pub(crate) fn assert_anthropic_shape(req: &AnthropicRequest) {
    let ours = serde_json::to_value(req).unwrap();
    let strict: StrictAnthropicRequest = serde_json::from_value(ours.clone())
        .unwrap_or_else(|e| panic!("not a documented Messages request: {ours}: {e}"));
    let roles: Vec<&StrictRole> = strict.messages.iter().map(|m| &m.role).collect();
    assert_eq!(roles.first(), Some(&&StrictRole::User));
    assert!(roles.windows(2).all(|w| w[0] != w[1]));
    for m in &strict.messages {
        if let StrictContent::Blocks(blocks) = &m.content {
            assert!(blocks.len() >= 2, "a single text is sent as a string");
        }
    }
}

/// A hand-written mirror of the documented Messages API request, strict:
/// unknown fields, a `system` role or an empty text are refused.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // Fields exist to be checked by serde.
struct StrictAnthropicRequest {
    model: String,
    max_tokens: u32,
    #[serde(default)]
    system: Option<String>,
    messages: Vec<StrictMessage>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct StrictMessage {
    role: StrictRole,
    content: StrictContent,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum StrictRole {
    User,
    Assistant,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
#[allow(dead_code)]
enum StrictContent {
    Text(String),
    Blocks(Vec<StrictBlock>),
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
#[allow(dead_code)]
enum StrictBlock {
    Text { text: String },
}

#[test]
fn every_valid_example_converts_to_accepted_requests() {
    for (name, bytes) in examples("valid") {
        let d = Dialog::from_json(&bytes).unwrap();
        match d.to_openai_request("gpt-4o") {
            Ok(req) => assert_async_openai_accepts(&req),
            Err(e) => assert!(d.messages().is_empty(), "{name}: {e}"),
        }
        match d.to_anthropic_request("claude-sonnet-4-5", 1024) {
            Ok(req) => assert_anthropic_shape(&req),
            Err(e) => assert!(d.messages().is_empty(), "{name}: {e}"),
        }
    }
}

#[test]
fn seed_agent_to_agent_dialog_becomes_a_valid_anthropic_request() {
    let mut d = Dialog::new(ContextId::new());
    for text in [
        "[Orchestrator] Starting code review session for PR #42",
        "[Coder] I've implemented the JWT migration. Key changes in auth/token.ts",
        "[Reviewer] I see a potential issue at line 45. Token expiry not handled.  ",
    ] {
        d.add_message(DialogRole::Agent, text).unwrap();
    }
    let req = d.to_anthropic_request("claude-sonnet-4-5", 512).unwrap();
    assert_eq!(
        serde_json::to_value(&req).unwrap(),
        json!({"model": "claude-sonnet-4-5", "max_tokens": 512, "messages": [
            {"role": "user", "content": ANTHROPIC_LEADING_USER},
            {"role": "assistant", "content": [
                {"type": "text", "text": "[Orchestrator] Starting code review session for PR #42"},
                {"type": "text", "text": "[Coder] I've implemented the JWT migration. Key changes in auth/token.ts"},
                {"type": "text", "text": "[Reviewer] I see a potential issue at line 45. Token expiry not handled."}
            ]}
        ]})
    );
    assert_anthropic_shape(&req);
}

#[test]
fn system_messages_join_and_empty_dialogs_are_refused() {
    let mut d = Dialog::with_system_prompt(ContextId::new(), "one");
    assert!(matches!(
        d.to_anthropic_request("m", 1),
        Err(ConvertError::NoMessages {
            provider: "anthropic"
        })
    ));
    d.add_message(DialogRole::User, "  ").unwrap();
    assert!(d.to_anthropic_request("m", 1).is_err());
    d.add_message(DialogRole::System, "two").unwrap();
    d.add_message(DialogRole::User, "hi").unwrap();
    let req = d.to_anthropic_request("m", 1).unwrap();
    assert_eq!(req.system.as_deref(), Some("one\n\ntwo"));
    assert_eq!(req.messages.len(), 1);
    let empty = Dialog::new(ContextId::new());
    assert!(matches!(
        empty.to_openai_request("gpt-4o"),
        Err(ConvertError::NoMessages { provider: "openai" })
    ));
    let v: Value = serde_json::to_value(d.to_openai_request("gpt-4o").unwrap()).unwrap();
    assert_eq!(v["messages"].as_array().unwrap().len(), 4);
}
