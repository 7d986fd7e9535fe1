//! Anthropic Messages requests with `tool_use` / `tool_result` and image
//! blocks, built from an [`AgentDialog`]; responses read back into
//! [`AgentMessage`]s.
//!
//! | agent message | Anthropic |
//! |---|---|
//! | `system` | its text, joined with the others by a blank line, in the top-level `system` |
//! | `user` | a `user` turn: text and image blocks |
//! | `assistant`, `agent` | an `assistant` turn: a text block |
//! | `tool_call` | an `assistant` turn: a text block (if any), then one `tool_use` block per call |
//! | `tool` | a `user` turn: one `tool_result` block (text and image blocks inside, `is_error`) |
//!
//! Then the API's rules are made to hold: blank text blocks are left out,
//! consecutive turns of one role are merged (so roles alternate), turns left
//! empty are dropped, a conversation that would start with the assistant
//! gets a [`ANTHROPIC_LEADING_USER`] turn, and a final assistant
//! text block loses its trailing whitespace. Images in system and assistant
//! messages are refused ([`ConvertError::ImageNotSupported`]), and so are
//! tool-call arguments that are not a JSON object
//! ([`ConvertError::ArgumentsNotObject`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cost::Usage;
use super::dialog::AgentDialog;
use super::message::{AgentMessage, AgentRole, Content, FunctionCall, ImageSource, Part};
use super::prompt::ToolSpec;
use crate::convert::{ANTHROPIC_LEADING_USER, AnthropicRole, ConvertError};

const PROVIDER: &str = "anthropic";

/// The body of `POST /v1/messages` for an agent turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Request {
    /// The model, such as `claude-sonnet-4-5`.
    pub model: String,
    /// The most tokens the reply may have.
    pub max_tokens: u32,
    /// Every system message, in order, joined by a blank line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The conversation: starts with `user`, roles alternate, never empty.
    pub messages: Vec<Message>,
    /// The tools the model may call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tool>,
    /// `true` for a streamed reply (server-sent events); set by the chat client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<bool>,
}

/// One turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Message {
    /// Who speaks.
    pub role: AnthropicRole,
    /// The blocks; never empty.
    pub content: Vec<Block>,
}

/// A content block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Block {
    /// Text; never blank.
    Text {
        /// The text.
        text: String,
    },
    /// An image.
    Image {
        /// The image.
        source: ImageBlockSource,
    },
    /// A tool call by the assistant.
    ToolUse {
        /// The call's id.
        id: String,
        /// The tool.
        name: String,
        /// The arguments: a JSON object.
        input: Value,
    },
    /// The result of a tool call, in a user turn.
    ToolResult {
        /// The call it answers.
        tool_use_id: String,
        /// Text and image blocks; absent when the result is empty.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<Vec<Block>>,
        /// True when the tool failed.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
}

/// The source of an image block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ImageBlockSource {
    /// Inline data.
    Base64 {
        /// `image/png`, `image/jpeg`...
        media_type: String,
        /// The base64 text.
        data: String,
    },
    /// An image at a URL.
    Url {
        /// The URL.
        url: String,
    },
}

impl From<&ImageSource> for ImageBlockSource {
    fn from(s: &ImageSource) -> Self {
        match s {
            ImageSource::Url { url } => ImageBlockSource::Url { url: url.clone() },
            ImageSource::Base64 { media_type, data } => ImageBlockSource::Base64 {
                media_type: media_type.clone(),
                data: data.clone(),
            },
        }
    }
}

/// A tool the model may call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    /// The name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// JSON Schema of the input.
    pub input_schema: Value,
}

impl From<&ToolSpec> for Tool {
    fn from(t: &ToolSpec) -> Self {
        Tool {
            name: t.name.clone(),
            description: t.description.clone(),
            input_schema: t.parameters.clone(),
        }
    }
}

/// The text and image blocks of a content, blank texts left out.
fn blocks(content: &Content) -> Vec<Block> {
    let text = |t: &str| (!t.trim().is_empty()).then(|| Block::Text { text: t.to_owned() });
    match content {
        Content::Text(t) => text(t).into_iter().collect(),
        Content::Parts(parts) => parts
            .iter()
            .filter_map(|p| match p {
                Part::Text { text: t } => text(t),
                Part::Image { source } => Some(Block::Image {
                    source: source.into(),
                }),
            })
            .collect(),
    }
}

impl AgentDialog {
    /// A Messages request for `model` with `max_tokens`, offering `tools`
    /// (see the [module docs](self) for the mapping and the API's rules).
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::agent::{AgentDialog, AgentMessage, FunctionCall, Put};
    /// use serde_json::json;
    /// let mut d = AgentDialog::new(ContextId::new(), "coder", "Be brief.");
    /// d.put_text("Weather in Paris?", Put::new())?;
    /// let call = FunctionCall::new("toolu_1", "weather", json!({"city": "Paris"}))?;
    /// d.append(AgentMessage::tool_calls("Checking.", vec![call.clone()]))?;
    /// d.append(AgentMessage::tool_result(&call, "18°C", false))?;
    /// let body = serde_json::to_value(d.to_anthropic_messages("claude-sonnet-4-5", 1024, &[])?)?;
    /// assert_eq!(body["system"], "Be brief.");
    /// assert_eq!(body["messages"][1], json!({"role": "assistant", "content": [
    ///     {"type": "text", "text": "Checking."},
    ///     {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Paris"}}]}));
    /// assert_eq!(body["messages"][2], json!({"role": "user", "content": [
    ///     {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "18°C"}]}]}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_anthropic_messages(
        &self,
        model: impl Into<String>,
        max_tokens: u32,
        tools: &[ToolSpec],
    ) -> Result<Request, ConvertError> {
        super::units::check_tool_pairing(&self.messages)?;
        let mut system: Vec<String> = Vec::new();
        let mut turns: Vec<Message> = Vec::new();
        for (index, m) in self.messages.iter().enumerate() {
            let (role, content) = match m.role {
                AgentRole::System => {
                    m.no_images(index, PROVIDER)?;
                    let t = m.content.text();
                    if !t.trim().is_empty() {
                        system.push(t);
                    }
                    continue;
                }
                AgentRole::User => (AnthropicRole::User, blocks(&m.content)),
                AgentRole::Assistant | AgentRole::Agent | AgentRole::ToolCall => {
                    m.no_images(index, PROVIDER)?;
                    let mut b = blocks(&m.content);
                    for c in &m.function_calls {
                        if !c
                            .id
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
                        {
                            return Err(ConvertError::BadToolCallId {
                                index,
                                call: c.id.clone(),
                                provider: PROVIDER,
                            });
                        }
                        if !c.arguments.is_object() {
                            return Err(ConvertError::ArgumentsNotObject {
                                index,
                                call: c.id.clone(),
                            });
                        }
                        b.push(Block::ToolUse {
                            id: c.id.clone(),
                            name: c.name.to_string(),
                            input: c.arguments.clone(),
                        });
                    }
                    (AnthropicRole::Assistant, b)
                }
                AgentRole::Tool => {
                    let tool_use_id = m
                        .tool_call_id
                        .clone()
                        .ok_or(ConvertError::MissingToolCallId { index })?;
                    let inner = blocks(&m.content);
                    let result = Block::ToolResult {
                        tool_use_id,
                        content: (!inner.is_empty()).then_some(inner),
                        is_error: m.is_error,
                    };
                    (AnthropicRole::User, vec![result])
                }
            };
            if content.is_empty() {
                continue;
            }
            match turns.last_mut() {
                Some(t) if t.role == role => t.content.extend(content),
                _ => turns.push(Message { role, content }),
            }
        }
        // A final assistant turn is a prefill: the API refuses trailing
        // whitespace in its last text block.
        if let Some(last) = turns.last_mut() {
            if last.role == AnthropicRole::Assistant {
                if let Some(Block::Text { text }) = last.content.last_mut() {
                    let trimmed = text.trim_end().len();
                    text.truncate(trimmed);
                }
            }
        }
        if turns.is_empty() {
            return Err(ConvertError::NoMessages { provider: PROVIDER });
        }
        if turns
            .first()
            .is_some_and(|t| t.role == AnthropicRole::Assistant)
        {
            turns.insert(
                0,
                Message {
                    role: AnthropicRole::User,
                    content: vec![Block::Text {
                        text: ANTHROPIC_LEADING_USER.to_owned(),
                    }],
                },
            );
        }
        let request = Request {
            model: model.into(),
            max_tokens,
            system: (!system.is_empty()).then(|| system.join("\n\n")),
            messages: turns,
            tools: tools.iter().map(Tool::from).collect(),
            stream: None,
        };
        super::check::guard(PROVIDER, &request, super::check::check_anthropic)?;
        Ok(request)
    }
}

/// A Messages API response (only what an agent loop reads; other members
/// are ignored).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct Response {
    /// The response's id.
    #[serde(default)]
    pub id: Option<String>,
    /// The model that answered.
    pub model: String,
    /// The reply's blocks.
    pub content: Vec<ResponseBlock>,
    /// Why generation stopped (`end_turn`, `tool_use`, `max_tokens`...).
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// Token usage.
    #[serde(default)]
    pub usage: Option<ResponseUsage>,
}

/// A block of a response.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ResponseBlock {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// A tool call.
    ToolUse {
        /// The call's id.
        id: String,
        /// The tool.
        name: String,
        /// The arguments.
        input: Value,
    },
    /// Any other block (thinking, server tools...): not read.
    #[serde(other)]
    Other,
}

/// Token usage of a response (Anthropic counts cached input apart).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct ResponseUsage {
    /// Uncached input tokens.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Input tokens read from the cache.
    #[serde(default)]
    pub cache_read_input_tokens: Option<u64>,
    /// Input tokens written to the cache.
    #[serde(default)]
    pub cache_creation_input_tokens: Option<u64>,
}

impl AgentMessage {
    /// A Messages API response as an agent message: `tool_call` if it has
    /// `tool_use` blocks, else `assistant`; one text block becomes text,
    /// several become text parts; `model` and `usage` filled (cached input
    /// added into `input_tokens`); the response id and stop reason in
    /// `metadata` (`response_id`, `stop_reason`).
    ///
    /// ```
    /// use mplp_dialog::agent::{anthropic::Response, AgentMessage, AgentRole};
    /// let r: Response = serde_json::from_value(serde_json::json!({
    ///   "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
    ///   "content": [{"type": "text", "text": "Let me look."},
    ///               {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"x": 1}}],
    ///   "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 2, "cache_read_input_tokens": 5}}))?;
    /// let m = AgentMessage::from_anthropic_response(&r)?;
    /// assert_eq!(m.role, AgentRole::ToolCall);
    /// assert_eq!(m.text_content(), "Let me look.");
    /// assert_eq!(m.usage.unwrap().input_tokens, 15);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_anthropic_response(response: &Response) -> Result<AgentMessage, ConvertError> {
        let mut texts = Vec::new();
        let mut calls = Vec::new();
        for b in &response.content {
            match b {
                ResponseBlock::Text { text } => texts.push(text.clone()),
                ResponseBlock::ToolUse { id, name, input } => calls.push(
                    FunctionCall::new(id.clone(), name.clone(), input.clone()).map_err(|_| {
                        ConvertError::BadResponse {
                            provider: PROVIDER,
                            reason: format!("tool_use block `{id}` has an empty name"),
                        }
                    })?,
                ),
                ResponseBlock::Other => {}
            }
        }
        let content = if texts.len() <= 1 {
            Content::Text(texts.pop().unwrap_or_default())
        } else {
            Content::Parts(texts.into_iter().map(|text| Part::Text { text }).collect())
        };
        let mut m = AgentMessage::new(
            if calls.is_empty() {
                AgentRole::Assistant
            } else {
                AgentRole::ToolCall
            },
            content,
        );
        m.function_calls = calls;
        m.model = Some(response.model.clone());
        m.usage = response.usage.as_ref().map(|u| {
            let read = u.cache_read_input_tokens.unwrap_or(0);
            let write = u.cache_creation_input_tokens.unwrap_or(0);
            Usage::new(
                u.input_tokens.saturating_add(read).saturating_add(write),
                u.output_tokens,
            )
            .with_cache(read, write)
        });
        if let Some(id) = &response.id {
            m.metadata
                .insert("response_id".to_owned(), Value::String(id.clone()));
        }
        if let Some(r) = &response.stop_reason {
            m.metadata
                .insert("stop_reason".to_owned(), Value::String(r.clone()));
        }
        Ok(m)
    }
}
