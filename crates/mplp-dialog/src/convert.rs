//! Conversion to and from the request bodies of LLM provider APIs.
//!
//! MPLP messages are `{role, content, timestamp}`; provider messages are
//! `{role, content}`. What the conversions lose:
//!
//! - **timestamps** (and a message's attached `event`): providers have no
//!   field for them. The reverse conversions take them from the caller.
//! - **the `agent`/`assistant` distinction**: both become `assistant`.
//! - For Anthropic only: **where system messages stood** (all of them are
//!   joined, in order, into the top-level `system` field), **message
//!   boundaries within a run of one role** (merged into one message of
//!   several text blocks, so the reverse conversion splits them again), and
//!   **messages whose content is empty or only whitespace** (the API refuses
//!   empty text blocks), **trailing whitespace of a final assistant
//!   message** (the API refuses it there), plus a placeholder user turn when
//!   the conversation would otherwise start with the assistant.
//!
//! The request types here are what we send; `tests/openai_compat.rs` and
//! `tests/anthropic_compat.rs` prove them against the request types of
//! `async-openai` and `anthropic-ai-sdk`.

use mplp_core::{ContextId, Timestamp};
use serde::{Deserialize, Serialize};

use crate::dialog::{Dialog, DialogRole, Message};

/// Why a dialog cannot become a provider request, or a request a dialog.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// The request would have no message, which the provider refuses.
    #[error(
        "the dialog has no message that the {provider} API can take (it refuses an empty `messages` list)"
    )]
    NoMessages {
        /// `openai` or `anthropic`.
        provider: &'static str,
    },
    /// An agent message has an image where the provider takes none.
    #[error(
        "message {index} ({role}) has an image, which the {provider} API does not take in that role"
    )]
    ImageNotSupported {
        /// The message's index in the agent dialog.
        index: usize,
        /// The message's role.
        role: &'static str,
        /// `openai` or `anthropic`.
        provider: &'static str,
    },
    /// A tool result does not name the call it answers.
    #[error("message {index} is a tool result without `tool_call_id`")]
    MissingToolCallId {
        /// The message's index in the agent dialog.
        index: usize,
    },
    /// Anthropic takes a tool call's arguments only as a JSON object.
    #[error("message {index}: the arguments of tool call `{call}` are not a JSON object")]
    ArgumentsNotObject {
        /// The message's index in the agent dialog.
        index: usize,
        /// The call's id.
        call: String,
    },
    /// A tool result does not answer a call of the message that opens its
    /// run of results (its call was dropped, is elsewhere, or was already
    /// answered): both providers refuse such a result.
    #[error(
        "message {index} is the result of tool call `{call}`, which the message just before its run of tool results does not request (or which is already answered): providers refuse a tool result without its call"
    )]
    OrphanToolResult {
        /// The message's index in the agent dialog.
        index: usize,
        /// The call id it names.
        call: String,
    },
    /// A tool call is not answered by the tool results right after it.
    #[error(
        "message {index} requests tool call `{call}`, which is not answered by a tool result {}: providers refuse a call without its result",
        match before { Some(b) => format!("before message {b}"), None => "before the end of the dialog".to_owned() }
    )]
    UnansweredToolCall {
        /// The index of the message with the call.
        index: usize,
        /// The call id.
        call: String,
        /// The message that came before the answer (`None`: the dialog ends).
        before: Option<usize>,
    },
    /// Two tool calls of the dialog have the same id.
    #[error("message {index}: tool call id `{call}` is used twice in the dialog")]
    DuplicateToolCallId {
        /// The index of the message with the second use.
        index: usize,
        /// The call id.
        call: String,
    },
    /// A tool call has an empty id.
    #[error("message {index}: a tool call has an empty id")]
    EmptyToolCallId {
        /// The message's index in the agent dialog.
        index: usize,
    },
    /// Function calls on a message whose role cannot carry them.
    #[error(
        "message {index} ({role}) has function calls, which only assistant, agent and tool-call messages can carry"
    )]
    CallsOnRole {
        /// The message's index in the agent dialog.
        index: usize,
        /// The message's role.
        role: &'static str,
    },
    /// A tool call id that the provider does not take.
    #[error(
        "message {index}: tool call id `{call}` does not match ^[a-zA-Z0-9_-]+$, which the {provider} API requires"
    )]
    BadToolCallId {
        /// The message's index in the agent dialog.
        index: usize,
        /// The call id.
        call: String,
        /// `openai` or `anthropic`.
        provider: &'static str,
    },
    /// The body built would be refused by the provider (the structural
    /// checker of [`crate::agent::check`] found these problems). Every
    /// dialog that passes the earlier checks converts without this error;
    /// it is a last guard, so that no refused body is ever returned.
    #[error("the {provider} API would refuse the request: {}", problems.join("; "))]
    Rejected {
        /// `openai` or `anthropic`.
        provider: &'static str,
        /// Each problem: the JSON pointer in the body, and what is wrong.
        problems: Vec<String>,
    },
    /// A provider response cannot become an agent message.
    #[error("the {provider} response cannot be read: {reason}")]
    BadResponse {
        /// `openai` or `anthropic`.
        provider: &'static str,
        /// What is wrong.
        reason: String,
    },
}

// ---------------------------------------------------------------- OpenAI

mplp_core::wire_enum! {
    /// A role in an OpenAI chat-completions request (serde, `Display` and
    /// `FromStr` use the API's spelling).
    ///
    /// ```
    /// use mplp_dialog::OpenAiRole;
    /// assert_eq!(OpenAiRole::Assistant.to_string(), "assistant");
    /// assert_eq!("system".parse::<OpenAiRole>()?, OpenAiRole::System);
    /// assert!("agent".parse::<OpenAiRole>().is_err());
    /// # Ok::<(), mplp_core::UnknownVariant>(())
    /// ```
    pub enum OpenAiRole {
        /// `system`.
        System = "system",
        /// `user`.
        User = "user",
        /// `assistant` (also what MPLP `agent` becomes).
        Assistant = "assistant",
    }
}

impl From<DialogRole> for OpenAiRole {
    fn from(role: DialogRole) -> Self {
        match role {
            DialogRole::System => OpenAiRole::System,
            DialogRole::User => OpenAiRole::User,
            DialogRole::Assistant | DialogRole::Agent => OpenAiRole::Assistant,
        }
    }
}

impl From<OpenAiRole> for DialogRole {
    fn from(role: OpenAiRole) -> Self {
        match role {
            OpenAiRole::System => DialogRole::System,
            OpenAiRole::User => DialogRole::User,
            OpenAiRole::Assistant => DialogRole::Assistant,
        }
    }
}

/// One message of an OpenAI chat-completions request: `{role, content}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenAiMessage {
    /// Who speaks.
    pub role: OpenAiRole,
    /// What is said.
    pub content: String,
}

/// The body of `POST /v1/chat/completions` (only the fields we set).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenAiRequest {
    /// The model to call, such as `gpt-4o`.
    pub model: String,
    /// The conversation, oldest first; never empty.
    pub messages: Vec<OpenAiMessage>,
}

impl Dialog {
    /// The messages as OpenAI chat messages, one for one (the seed's
    /// `toOpenAIMessages`): `agent` becomes `assistant`; timestamps are dropped.
    pub fn to_openai_messages(&self) -> Vec<OpenAiMessage> {
        self.messages
            .iter()
            .map(|m| OpenAiMessage {
                role: m.role.into(),
                content: m.content.clone(),
            })
            .collect()
    }

    /// A chat-completions request body for `model`.
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::{Dialog, DialogRole};
    /// let mut d = Dialog::with_system_prompt(ContextId::new(), "Be brief.");
    /// d.add_message(DialogRole::User, "Hi")?;
    /// d.add_message(DialogRole::Agent, "Hello")?;
    /// let body = serde_json::to_value(d.to_openai_request("gpt-4o")?)?;
    /// assert_eq!(body, serde_json::json!({"model": "gpt-4o", "messages": [
    ///     {"role": "system", "content": "Be brief."},
    ///     {"role": "user", "content": "Hi"},
    ///     {"role": "assistant", "content": "Hello"},
    /// ]}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_openai_request(
        &self,
        model: impl Into<String>,
    ) -> Result<OpenAiRequest, ConvertError> {
        if self.messages.is_empty() {
            return Err(ConvertError::NoMessages { provider: "openai" });
        }
        Ok(OpenAiRequest {
            model: model.into(),
            messages: self.to_openai_messages(),
        })
    }

    /// A new `active` dialog (see [`Dialog::new`]) holding OpenAI messages;
    /// `timestamp(i)` gives the time of message `i`.
    ///
    /// ```
    /// use mplp_core::{ContextId, Timestamp};
    /// use mplp_dialog::{Dialog, OpenAiMessage, OpenAiRole};
    /// let at: Timestamp = "2025-12-07T00:00:00Z".parse()?;
    /// let msgs = [OpenAiMessage { role: OpenAiRole::User, content: "Hi".into() }];
    /// let d = Dialog::from_openai_messages(ContextId::new(), &msgs, |_| at.clone());
    /// assert_eq!(d.to_openai_messages(), msgs);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_openai_messages(
        context_id: ContextId,
        messages: &[OpenAiMessage],
        mut timestamp: impl FnMut(usize) -> Timestamp,
    ) -> Dialog {
        let mut dialog = Dialog::new(context_id);
        dialog.messages = messages
            .iter()
            .enumerate()
            .map(|(i, m)| Message::new(m.role.into(), m.content.clone(), timestamp(i)))
            .collect();
        dialog
    }
}

// ------------------------------------------------------------- Anthropic

mplp_core::wire_enum! {
    /// A role in an Anthropic Messages request (there is no `system` role: the
    /// system prompt is a top-level field). Serde, `Display` and `FromStr`
    /// use the API's spelling.
    ///
    /// ```
    /// use mplp_dialog::AnthropicRole;
    /// assert_eq!(AnthropicRole::User.to_string(), "user");
    /// assert_eq!("assistant".parse::<AnthropicRole>()?, AnthropicRole::Assistant);
    /// assert!("system".parse::<AnthropicRole>().is_err());
    /// # Ok::<(), mplp_core::UnknownVariant>(())
    /// ```
    pub enum AnthropicRole {
        /// `user`.
        User = "user",
        /// `assistant` (also what MPLP `agent` becomes).
        Assistant = "assistant",
    }
}

/// A text content block: `{"type": "text", "text": ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum AnthropicBlock {
    /// A block of text; never empty or only whitespace.
    Text {
        /// The text.
        text: String,
    },
}

impl AnthropicBlock {
    /// The block's text.
    pub fn text(&self) -> &str {
        match self {
            AnthropicBlock::Text { text } => text,
        }
    }
}

/// The content of an Anthropic message: a string for a single MPLP message,
/// text blocks for several merged ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AnthropicContent {
    /// One text.
    Text(String),
    /// Several text blocks, one per merged MPLP message.
    Blocks(Vec<AnthropicBlock>),
}

impl AnthropicContent {
    /// The texts, one per MPLP message they came from.
    pub fn texts(&self) -> Vec<&str> {
        match self {
            AnthropicContent::Text(t) => vec![t.as_str()],
            AnthropicContent::Blocks(b) => b.iter().map(AnthropicBlock::text).collect(),
        }
    }
}

/// One message of an Anthropic Messages request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnthropicMessage {
    /// Who speaks.
    pub role: AnthropicRole,
    /// What is said.
    pub content: AnthropicContent,
}

/// The body of `POST /v1/messages` (only the fields we set).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnthropicRequest {
    /// The model to call, such as `claude-sonnet-4-5`.
    pub model: String,
    /// The most tokens the reply may have (required by the API).
    pub max_tokens: u32,
    /// Every system message of the dialog, in order, joined by a blank line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The conversation: starts with `user`, roles alternate, never empty.
    pub messages: Vec<AnthropicMessage>,
}

/// The user turn put first when a conversation would start with the
/// assistant, which the Anthropic API refuses.
pub const ANTHROPIC_LEADING_USER: &str = "(conversation so far)";

impl Dialog {
    /// An Anthropic Messages request body (the seed's `toAnthropicMessages`,
    /// made acceptable to the API):
    ///
    /// - `system` messages go, in order, to the top-level `system` field;
    /// - `user` stays `user`, `assistant` and `agent` become `assistant`;
    /// - messages with empty or whitespace-only content are left out;
    /// - consecutive messages of one role are merged into one message with a
    ///   text block each, so roles alternate;
    /// - if the first message is the assistant's, a user turn
    ///   [`ANTHROPIC_LEADING_USER`] is put before it;
    /// - a final assistant message (a prefill) loses its trailing whitespace.
    ///
    /// Fails only when no user or assistant message is left.
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::{Dialog, DialogRole};
    /// let mut d = Dialog::with_system_prompt(ContextId::new(), "Be brief.");
    /// d.add_message(DialogRole::Agent, "[Coder] done")?;
    /// d.add_message(DialogRole::Agent, "[Reviewer] looks good")?;
    /// d.add_message(DialogRole::User, "Ship it")?;
    /// let body = serde_json::to_value(d.to_anthropic_request("claude-sonnet-4-5", 1024)?)?;
    /// assert_eq!(body, serde_json::json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
    ///   "system": "Be brief.",
    ///   "messages": [
    ///     {"role": "user", "content": "(conversation so far)"},
    ///     {"role": "assistant", "content": [{"type": "text", "text": "[Coder] done"},
    ///                                       {"type": "text", "text": "[Reviewer] looks good"}]},
    ///     {"role": "user", "content": "Ship it"},
    /// ]}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_anthropic_request(
        &self,
        model: impl Into<String>,
        max_tokens: u32,
    ) -> Result<AnthropicRequest, ConvertError> {
        let mut system: Vec<&str> = Vec::new();
        let mut turns: Vec<(AnthropicRole, Vec<&str>)> = Vec::new();
        for m in &self.messages {
            if m.content.trim().is_empty() {
                continue;
            }
            let role = match m.role {
                DialogRole::System => {
                    system.push(&m.content);
                    continue;
                }
                DialogRole::User => AnthropicRole::User,
                DialogRole::Assistant | DialogRole::Agent => AnthropicRole::Assistant,
            };
            match turns.last_mut() {
                Some((r, texts)) if *r == role => texts.push(&m.content),
                _ => turns.push((role, vec![&m.content])),
            }
        }
        if turns.is_empty() {
            return Err(ConvertError::NoMessages {
                provider: "anthropic",
            });
        }
        // A final assistant turn is a prefill, and the API refuses one that
        // ends with whitespace.
        if let Some((AnthropicRole::Assistant, texts)) = turns.last_mut() {
            if let Some(last) = texts.last_mut() {
                *last = last.trim_end();
            }
        }
        let mut messages = Vec::with_capacity(turns.len() + 1);
        if turns
            .first()
            .is_some_and(|(r, _)| *r == AnthropicRole::Assistant)
        {
            messages.push(AnthropicMessage {
                role: AnthropicRole::User,
                content: AnthropicContent::Text(ANTHROPIC_LEADING_USER.to_owned()),
            });
        }
        messages.extend(turns.into_iter().map(|(role, texts)| {
            AnthropicMessage {
                role,
                content: match texts.as_slice() {
                    [one] => AnthropicContent::Text((*one).to_owned()),
                    many => AnthropicContent::Blocks(
                        many.iter()
                            .map(|t| AnthropicBlock::Text {
                                text: (*t).to_owned(),
                            })
                            .collect(),
                    ),
                },
            }
        }));
        Ok(AnthropicRequest {
            model: model.into(),
            max_tokens,
            system: (!system.is_empty()).then(|| system.join("\n\n")),
            messages,
        })
    }

    /// A new `active` dialog (see [`Dialog::new`]) from an Anthropic request:
    /// the `system` text becomes a first `system` message, each text block a
    /// message of its turn's role. `timestamp(i)` gives the time of message `i`
    /// of the new dialog. What [`Dialog::to_anthropic_request`] dropped does
    /// not come back, and its [`ANTHROPIC_LEADING_USER`] turn, if any, comes
    /// back as a user message.
    pub fn from_anthropic_request(
        context_id: ContextId,
        request: &AnthropicRequest,
        mut timestamp: impl FnMut(usize) -> Timestamp,
    ) -> Dialog {
        let mut dialog = Dialog::new(context_id);
        let mut push = |role: DialogRole, text: &str| {
            let i = dialog.messages.len();
            dialog
                .messages
                .push(Message::new(role, text.to_owned(), timestamp(i)));
        };
        if let Some(system) = &request.system {
            push(DialogRole::System, system);
        }
        for m in &request.messages {
            let role = match m.role {
                AnthropicRole::User => DialogRole::User,
                AnthropicRole::Assistant => DialogRole::Assistant,
            };
            for text in m.content.texts() {
                push(role, text);
            }
        }
        dialog
    }
}
