//! OpenAI Chat Completions requests with tool calls, tool results and image
//! parts, built from an [`AgentDialog`]; responses read back into
//! [`AgentMessage`]s.
//!
//! | agent message | OpenAI message |
//! |---|---|
//! | `system` | `{"role": "system", "content": text}` |
//! | `user` | `{"role": "user", "content": text or [text / image_url parts]}` |
//! | `assistant`, `agent` | `{"role": "assistant", "content": text}` |
//! | `tool_call` | `{"role": "assistant", "content": text or absent, "tool_calls": [...]}` |
//! | `tool` | `{"role": "tool", "tool_call_id": ..., "content": text}`; its images go to one `user` message after the run of tool messages (the API takes images only from users) |
//!
//! `name` is sent as the message's [`AgentMessage::sanitized_name`] (not on
//! tool messages). Images in system and assistant messages are refused
//! ([`ConvertError::ImageNotSupported`]); timestamps, ids, usage, parsed
//! output and metadata are not sent.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cost::Usage;
use super::dialog::AgentDialog;
use super::message::{AgentMessage, AgentRole, Content, FunctionCall, ImageSource, Part};
use super::prompt::ToolSpec;
use crate::convert::ConvertError;

const PROVIDER: &str = "openai";

/// The body of `POST /v1/chat/completions` for an agent turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Request {
    /// The model, such as `gpt-4o`.
    pub model: String,
    /// The conversation, oldest first; never empty.
    pub messages: Vec<ChatMessage>,
    /// The tools the model may call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tool>,
    /// `true` for a streamed reply (server-sent events); set by the chat client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<bool>,
    /// `{"include_usage": true}` with a stream, so that the last chunk
    /// carries the usage; set by the chat client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_options: Option<Value>,
}

/// One message of a chat-completions request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase", deny_unknown_fields)]
pub enum ChatMessage {
    /// A system message.
    System {
        /// The text.
        content: String,
        /// The sender.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// A user message.
    User {
        /// Text or parts.
        content: UserContent,
        /// The sender.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// An assistant message, possibly with tool calls.
    Assistant {
        /// The text; absent for a message with only tool calls.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<String>,
        /// The sender.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Requested tool calls.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call.
    Tool {
        /// The result text.
        content: String,
        /// The call it answers.
        tool_call_id: String,
    },
}

/// The content of a user message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum UserContent {
    /// Plain text.
    Text(String),
    /// Text and image parts.
    Parts(Vec<ContentPart>),
}

/// A part of a user message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ContentPart {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// An image by URL (a `data:` URL for inline data).
    ImageUrl {
        /// The image.
        image_url: ImageUrl,
    },
}

/// `{"url": ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageUrl {
    /// An `http(s)` or `data:` URL.
    pub url: String,
}

/// The only tool type: `function`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FunctionType {
    /// `function`.
    #[default]
    Function,
}

/// A tool call of an assistant message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCall {
    /// The call's id.
    pub id: String,
    /// Always `function`.
    #[serde(rename = "type")]
    pub kind: FunctionType,
    /// The function and its arguments.
    pub function: FunctionCallBody,
}

/// `{"name": ..., "arguments": "<JSON text>"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionCallBody {
    /// The function's name.
    pub name: String,
    /// The arguments as a JSON text.
    pub arguments: String,
}

/// A tool the model may call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    /// Always `function`.
    #[serde(rename = "type")]
    pub kind: FunctionType,
    /// The function.
    pub function: FunctionDef,
}

/// A function's name, description and parameter schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionDef {
    /// The name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// JSON Schema of the arguments.
    pub parameters: Value,
}

impl From<&ToolSpec> for Tool {
    fn from(t: &ToolSpec) -> Self {
        Tool {
            kind: FunctionType::Function,
            function: FunctionDef {
                name: t.name.clone(),
                description: t.description.clone(),
                parameters: t.parameters.clone(),
            },
        }
    }
}

fn text_or_none(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

fn parts(content: &Content) -> UserContent {
    match content {
        Content::Text(t) => UserContent::Text(t.clone()),
        // The API refuses an empty part list; no part is no text.
        Content::Parts(parts) if parts.is_empty() => UserContent::Text(String::new()),
        Content::Parts(parts) => UserContent::Parts(
            parts
                .iter()
                .map(|p| match p {
                    Part::Text { text } => ContentPart::Text { text: text.clone() },
                    Part::Image { source } => ContentPart::ImageUrl {
                        image_url: ImageUrl {
                            url: source.to_url(),
                        },
                    },
                })
                .collect(),
        ),
    }
}

impl AgentDialog {
    /// A chat-completions request for `model` offering `tools` (see the
    /// [module docs](self) for the mapping).
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::agent::{AgentDialog, AgentMessage, FunctionCall, Put};
    /// use serde_json::json;
    /// let mut d = AgentDialog::new(ContextId::new(), "coder", "Be brief.");
    /// d.put_text("Weather in Paris?", Put::new())?;
    /// let call = FunctionCall::new("call_1", "weather", json!({"city": "Paris"}))?;
    /// d.append(AgentMessage::tool_calls("", vec![call.clone()]))?;
    /// d.append(AgentMessage::tool_result(&call, "18°C", false))?;
    /// let body = serde_json::to_value(d.to_openai_chat("gpt-4o", &[])?)?;
    /// assert_eq!(body["messages"][2], json!({"role": "assistant", "tool_calls": [
    ///     {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]}));
    /// assert_eq!(body["messages"][3], json!({"role": "tool", "tool_call_id": "call_1", "content": "18°C"}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_openai_chat(
        &self,
        model: impl Into<String>,
        tools: &[ToolSpec],
    ) -> Result<Request, ConvertError> {
        super::units::check_tool_pairing(&self.messages)?;
        let mut messages = Vec::with_capacity(self.messages.len());
        // Images of the current run of tool messages, sent after the run.
        let mut pending_images: Vec<ImageSource> = Vec::new();
        for (index, m) in self.messages.iter().enumerate() {
            if m.role != AgentRole::Tool && !pending_images.is_empty() {
                messages.push(tool_images(std::mem::take(&mut pending_images)));
            }
            let name = m.sanitized_name();
            let msg = match m.role {
                AgentRole::System => {
                    m.no_images(index, PROVIDER)?;
                    ChatMessage::System {
                        content: m.content.text(),
                        name,
                    }
                }
                AgentRole::User => ChatMessage::User {
                    content: parts(&m.content),
                    name,
                },
                AgentRole::Assistant | AgentRole::Agent | AgentRole::ToolCall => {
                    m.no_images(index, PROVIDER)?;
                    let tool_calls = m
                        .function_calls
                        .iter()
                        .map(|c| ToolCall {
                            id: c.id.clone(),
                            kind: FunctionType::Function,
                            function: FunctionCallBody {
                                name: c.name.to_string(),
                                arguments: c.arguments.to_string(),
                            },
                        })
                        .collect::<Vec<_>>();
                    let text = m.content.text();
                    ChatMessage::Assistant {
                        content: if tool_calls.is_empty() {
                            Some(text)
                        } else {
                            text_or_none(text)
                        },
                        name,
                        tool_calls,
                    }
                }
                AgentRole::Tool => {
                    let tool_call_id = m
                        .tool_call_id
                        .clone()
                        .ok_or(ConvertError::MissingToolCallId { index })?;
                    pending_images.extend(m.content.images().cloned());
                    ChatMessage::Tool {
                        content: m.content.text(),
                        tool_call_id,
                    }
                }
            };
            messages.push(msg);
        }
        if !pending_images.is_empty() {
            messages.push(tool_images(pending_images));
        }
        if messages.is_empty() {
            return Err(ConvertError::NoMessages { provider: PROVIDER });
        }
        let request = Request {
            model: model.into(),
            messages,
            tools: tools.iter().map(Tool::from).collect(),
            stream: None,
            stream_options: None,
        };
        super::check::guard(PROVIDER, &request, super::check::check_openai)?;
        Ok(request)
    }
}

/// The user message that carries the images of a run of tool results.
fn tool_images(images: Vec<ImageSource>) -> ChatMessage {
    let mut parts = vec![ContentPart::Text {
        text: "(images returned by the tool calls above)".to_owned(),
    }];
    parts.extend(images.into_iter().map(|s| ContentPart::ImageUrl {
        image_url: ImageUrl { url: s.to_url() },
    }));
    ChatMessage::User {
        content: UserContent::Parts(parts),
        name: None,
    }
}

/// A chat-completions response (only what an agent loop reads; other
/// members are ignored).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct Response {
    /// The response's id.
    #[serde(default)]
    pub id: Option<String>,
    /// The model that answered.
    pub model: String,
    /// The answers (the first one is read).
    pub choices: Vec<Choice>,
    /// Token usage.
    #[serde(default)]
    pub usage: Option<ResponseUsage>,
}

/// One answer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct Choice {
    /// The assistant message.
    pub message: ResponseMessage,
    /// Why generation stopped (`stop`, `tool_calls`, `length`...).
    #[serde(default)]
    pub finish_reason: Option<String>,
}

/// The assistant message of a response.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct ResponseMessage {
    /// The text, if any.
    #[serde(default)]
    pub content: Option<String>,
    /// Requested tool calls.
    #[serde(default)]
    pub tool_calls: Option<Vec<ToolCall>>,
    /// The model's refusal, when it refused (recorded as `metadata.refusal`).
    #[serde(default)]
    pub refusal: Option<String>,
}

/// Token usage of a response.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct ResponseUsage {
    /// Input tokens, cached ones included.
    pub prompt_tokens: u64,
    /// Output tokens.
    pub completion_tokens: u64,
    /// Details of the input tokens.
    #[serde(default)]
    pub prompt_tokens_details: Option<PromptTokensDetails>,
}

/// `prompt_tokens_details`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct PromptTokensDetails {
    /// Input tokens read from the cache.
    #[serde(default)]
    pub cached_tokens: Option<u64>,
}

impl AgentMessage {
    /// The first choice of a chat-completions response as an agent message:
    /// `tool_call` if it requests tools (arguments parsed from their JSON
    /// text), else `assistant`; `model` and `usage` filled; the response id
    /// and finish reason in `metadata` (`response_id`, `finish_reason`, and
    /// `refusal` when the model refused).
    ///
    /// ```
    /// use mplp_dialog::agent::{openai::Response, AgentMessage, AgentRole};
    /// let r: Response = serde_json::from_value(serde_json::json!({
    ///   "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
    ///   "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
    ///     "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\"x\":1}"}}]}}],
    ///   "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}}))?;
    /// let m = AgentMessage::from_openai_response(&r)?;
    /// assert_eq!(m.role, AgentRole::ToolCall);
    /// assert_eq!(m.function_calls[0].arguments, serde_json::json!({"x": 1}));
    /// assert_eq!(m.usage.unwrap().input_tokens, 10);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_openai_response(response: &Response) -> Result<AgentMessage, ConvertError> {
        let bad = |reason: String| ConvertError::BadResponse {
            provider: PROVIDER,
            reason,
        };
        let choice = response
            .choices
            .first()
            .ok_or_else(|| bad("it has no choice".to_owned()))?;
        let mut calls = Vec::new();
        for c in choice.message.tool_calls.iter().flatten() {
            let arguments: Value = serde_json::from_str(&c.function.arguments).map_err(|e| {
                bad(format!(
                    "the arguments of tool call `{}` are not JSON: {e}",
                    c.id
                ))
            })?;
            calls.push(
                FunctionCall::new(c.id.clone(), c.function.name.clone(), arguments)
                    .map_err(|_| bad(format!("tool call `{}` has an empty name", c.id)))?,
            );
        }
        let text = choice.message.content.clone().unwrap_or_default();
        let mut m = if calls.is_empty() {
            AgentMessage::text(AgentRole::Assistant, text)
        } else {
            AgentMessage::tool_calls(text, calls)
        };
        m.model = Some(response.model.clone());
        m.usage = response.usage.as_ref().map(|u| {
            let cached = u
                .prompt_tokens_details
                .as_ref()
                .and_then(|d| d.cached_tokens)
                .unwrap_or(0);
            Usage::new(u.prompt_tokens, u.completion_tokens).with_cache(cached, 0)
        });
        if let Some(id) = &response.id {
            m.metadata
                .insert("response_id".to_owned(), Value::String(id.clone()));
        }
        if let Some(r) = &choice.finish_reason {
            m.metadata
                .insert("finish_reason".to_owned(), Value::String(r.clone()));
        }
        if let Some(r) = choice.message.refusal.as_ref().filter(|r| !r.is_empty()) {
            m.metadata
                .insert("refusal".to_owned(), Value::String(r.clone()));
        }
        Ok(m)
    }
}
