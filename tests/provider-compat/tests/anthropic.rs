//! Our Anthropic request bodies against `anthropic-ai-sdk`'s request type.
//!
//! Each body must deserialise into `CreateMessageParams`, and that value
//! must serialise back to JSON equal to ours: so no field of ours is unknown
//! to (and silently dropped by) the library, and every value has the shape
//! it expects. (Moved here from mplp-dialog's tests, which keep the
//! async-openai check and a strict hand-written mirror of the documented
//! request.)

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// mplp-dialog's own test helpers and strategies, shared rather than copied.
#[allow(dead_code, unreachable_pub)]
#[path = "../../../crates/mplp-dialog/tests/it/common.rs"]
mod common;

use anthropic_ai_sdk::types::message::{CreateMessageParams, MessageContent, Role};
use mplp_core::{ContextId, Document};
use mplp_dialog::{ANTHROPIC_LEADING_USER, AnthropicRequest, Dialog, DialogRole};
use proptest::prelude::*;
use serde::Deserialize;

use common::{dialog_with, examples, messages};

fn assert_anthropic_sdk_accepts(req: &AnthropicRequest) {
    let ours = serde_json::to_value(req).unwrap();
    let theirs = CreateMessageParams::deserialize(&ours)
        .unwrap_or_else(|e| panic!("anthropic-ai-sdk refuses {ours}: {e}"));
    assert_eq!(serde_json::to_value(&theirs).unwrap(), ours);
    // The API's own rules, which the SDK does not check: starts with user, alternates.
    let roles: Vec<bool> = theirs
        .messages
        .iter()
        .map(|m| matches!(m.role, Role::User))
        .collect();
    assert_eq!(roles.first(), Some(&true));
    assert!(roles.windows(2).all(|w| w[0] != w[1]));
    for m in &theirs.messages {
        if let MessageContent::Blocks { content } = &m.content {
            assert!(content.len() >= 2, "a single text is sent as a string");
        }
    }
}

#[test]
fn every_valid_example_converts_to_an_accepted_request() {
    let mut converted = 0;
    for (name, bytes) in examples("valid") {
        let d = Dialog::from_json(&bytes).unwrap();
        match d.to_anthropic_request("claude-sonnet-4-5", 1024) {
            Ok(req) => {
                assert_anthropic_sdk_accepts(&req);
                converted += 1;
            }
            Err(e) => assert!(d.to_openai_request("gpt-4o").is_err(), "{name}: {e}"),
        }
    }
    assert!(converted > 0);
}

#[test]
fn seed_agent_to_agent_dialog_is_accepted() {
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
        serde_json::to_value(&req).unwrap()["messages"][0]["content"],
        ANTHROPIC_LEADING_USER
    );
    assert_anthropic_sdk_accepts(&req);
}

proptest! {
    #[test]
    fn random_dialogs_convert_to_accepted_requests(msgs in messages(25)) {
        let d = dialog_with(msgs);
        if let Ok(req) = d.to_anthropic_request("claude-sonnet-4-5", 1024) {
            assert_anthropic_sdk_accepts(&req);
        }
    }
}
