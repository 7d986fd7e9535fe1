//! Rich messages: roles for tool calls and tool results, text and image
//! parts, function calls, parsed output, usage, model and metadata.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mplp_core::{BaseEvent, EventId, NonEmptyString, Timestamp};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cost::Usage;

mplp_core::wire_enum! {
    /// Who produced an agent message (the seed's `Roles`, plus MPLP's `agent`).
    ///
    /// ```
    /// use mplp_dialog::agent::AgentRole;
    /// assert_eq!(AgentRole::ToolCall.to_string(), "tool_call");
    /// assert_eq!("tool".parse::<AgentRole>()?, AgentRole::Tool);
    /// # Ok::<(), mplp_core::UnknownVariant>(())
    /// ```
    pub enum AgentRole {
        /// A system instruction (persona, rules).
        System = "system",
        /// A human user, or input handed to the model on a user's behalf.
        User = "user",
        /// A model's answer in text.
        Assistant = "assistant",
        /// A model's answer that requests tool calls (it has
        /// [`AgentMessage::function_calls`]; it may also carry text).
        ToolCall = "tool_call",
        /// The result of one tool call (it names the call in
        /// [`AgentMessage::tool_call_id`]).
        Tool = "tool",
        /// Another MPLP agent (MPLP's `agent` role; providers see `assistant`).
        Agent = "agent",
    }
}

/// Where an image comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ImageSource {
    /// An `http(s)` or `data:` URL.
    Url {
        /// The URL.
        url: String,
    },
    /// Inline image bytes, base64-encoded (without a `data:` prefix).
    Base64 {
        /// The media type, such as `image/png`.
        media_type: String,
        /// The base64 text.
        data: String,
    },
}

impl ImageSource {
    /// An image at a URL.
    pub fn url(url: impl Into<String>) -> Self {
        ImageSource::Url { url: url.into() }
    }

    /// Inline base64 image data of a media type such as `image/png`.
    pub fn base64(media_type: impl Into<String>, data: impl Into<String>) -> Self {
        ImageSource::Base64 {
            media_type: media_type.into(),
            data: data.into(),
        }
    }

    /// The image as one URL (a `data:` URL for inline data), the form
    /// OpenAI takes.
    pub fn to_url(&self) -> String {
        match self {
            ImageSource::Url { url } => url.clone(),
            ImageSource::Base64 { media_type, data } => format!("data:{media_type};base64,{data}"),
        }
    }

    /// Reads a URL back: a `data:<type>;base64,<data>` URL becomes
    /// [`ImageSource::Base64`], anything else [`ImageSource::Url`].
    pub fn from_url(url: &str) -> Self {
        if let Some(rest) = url.strip_prefix("data:") {
            if let Some((media_type, data)) = rest.split_once(";base64,") {
                return ImageSource::base64(media_type, data);
            }
        }
        ImageSource::url(url)
    }
}

/// One part of a multipart message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Part {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// An image.
    Image {
        /// Where the image comes from.
        source: ImageSource,
    },
}

/// The content of a message: one text, or a list of parts (the seed's
/// `str | List[Dict]`). The two are kept apart, so `Text("a")` and
/// `Parts([Text("a")])` stay different through every round trip.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Content {
    /// Plain text.
    Text(String),
    /// Text and image parts, in order.
    Parts(Vec<Part>),
}

impl Default for Content {
    fn default() -> Self {
        Content::Text(String::new())
    }
}

impl Content {
    /// The text of the content: the text itself, or the text parts joined by
    /// a newline (images left out).
    pub fn text(&self) -> String {
        match self {
            Content::Text(t) => t.clone(),
            Content::Parts(parts) => {
                let texts: Vec<&str> = parts
                    .iter()
                    .filter_map(|p| match p {
                        Part::Text { text } => Some(text.as_str()),
                        Part::Image { .. } => None,
                    })
                    .collect();
                texts.join("\n")
            }
        }
    }

    /// The images, in order.
    pub fn images(&self) -> impl Iterator<Item = &ImageSource> {
        let parts: &[Part] = match self {
            Content::Text(_) => &[],
            Content::Parts(p) => p,
        };
        parts.iter().filter_map(|p| match p {
            Part::Image { source } => Some(source),
            Part::Text { .. } => None,
        })
    }

    /// True when there is no image and the text is empty or only whitespace.
    pub fn is_blank(&self) -> bool {
        self.images().next().is_none() && self.text().trim().is_empty()
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Content::Text(text.to_owned())
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Content::Text(text)
    }
}

/// Identifies one tool invocation: the `invocation_id` of the MPLP
/// integration tool event ([`ToolEvent`](super::ToolEvent)) that records it.
/// The integration module's id, re-exported: one declaration.
pub use mplp_events::integration::InvocationId;

/// A tool call requested by a model.
///
/// ```
/// use mplp_dialog::agent::FunctionCall;
/// let call = FunctionCall::new("call_1", "search", serde_json::json!({"q": "rust"}))?;
/// assert_eq!(call.name.as_str(), "search");
/// # Ok::<(), mplp_core::EmptyStringError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct FunctionCall {
    /// The provider's id of the call (`call_…`, `toolu_…`); the tool result
    /// names it in [`AgentMessage::tool_call_id`].
    pub id: String,
    /// The tool's name.
    pub name: NonEmptyString,
    /// The arguments, as JSON (OpenAI sends them as a JSON text, Anthropic as
    /// an object; both are kept here as the value).
    pub arguments: Value,
    /// The MPLP id of this invocation (the tool event's `invocation_id`).
    pub invocation_id: InvocationId,
}

impl FunctionCall {
    /// The arguments as a typed value.
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Search { q: String }
    /// let call = mplp_dialog::agent::FunctionCall::new("call_1", "search", serde_json::json!({"q": "rust"}))?;
    /// assert_eq!(call.arguments_as::<Search>()?.q, "rust");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn arguments_as<T: serde::de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        T::deserialize(&self.arguments)
    }

    /// A call with a fresh [`InvocationId`]; fails on an empty name.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: Value,
    ) -> Result<Self, mplp_core::EmptyStringError> {
        Ok(FunctionCall {
            id: id.into(),
            name: NonEmptyString::new(name)?,
            arguments,
            invocation_id: InvocationId::new(),
        })
    }
}

/// One message of an [`AgentDialog`](super::AgentDialog): what was said in
/// one turn, with everything an agent runtime needs to send it back to a
/// model (seed 003's `Message`).
///
/// Every field is kept by the JSON form ([`AgentMessage`] is `Serialize` and
/// `Deserialize`; unknown members are refused) and by the MPLP projection
/// (see [`project`](super::project)).
///
/// ```
/// use mplp_dialog::agent::{AgentMessage, AgentRole};
/// let m = AgentMessage::text(AgentRole::User, "hi").with_name("alice");
/// let json = serde_json::to_string(&m)?;
/// assert_eq!(serde_json::from_str::<AgentMessage>(&json)?, m);
/// assert_eq!(m.sanitized_name().as_deref(), Some("alice"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct AgentMessage {
    /// The message's id; in the MPLP projection, the `event_id` of the
    /// `agent.message` event that carries the message's agent fields.
    pub id: EventId,
    /// Who produced the message.
    pub role: AgentRole,
    /// Text or parts.
    pub content: Content,
    /// When the message was produced.
    pub timestamp: Timestamp,
    /// The sender: `user`, an agent's name, a tool's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Tool calls requested by the model ([`AgentRole::ToolCall`] messages).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub function_calls: Vec<FunctionCall>,
    /// The call a [`AgentRole::Tool`] message answers ([`FunctionCall::id`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// True when a tool result reports a failure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Structured output from the prompt's parser.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parsed: Option<Value>,
    /// Token usage reported by the provider for the call that produced it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// The model that produced the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Anything else (log probabilities, API type, provider ids...).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, Value>,
    /// An MPLP base event that another producer attached to the message
    /// (kept when an MPLP dialog is read; see [`project`](super::project)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<Box<BaseEvent>>,
}

impl AgentMessage {
    /// Refuses a message with an image part where `provider` takes none
    /// (message `index` of the request).
    pub(crate) fn no_images(
        &self,
        index: usize,
        provider: &'static str,
    ) -> Result<(), crate::ConvertError> {
        if self.content.images().next().is_some() {
            return Err(crate::ConvertError::ImageNotSupported {
                index,
                role: self.role.as_str(),
                provider,
            });
        }
        Ok(())
    }

    /// A message of `role` with the given content, stamped now, with a fresh id.
    pub fn new(role: AgentRole, content: impl Into<Content>) -> Self {
        AgentMessage::at(role, content, Timestamp::now())
    }

    /// A message of `role` with the given content and timestamp, with a fresh id.
    pub fn at(role: AgentRole, content: impl Into<Content>, timestamp: Timestamp) -> Self {
        AgentMessage {
            id: EventId::new(),
            role,
            content: content.into(),
            timestamp,
            name: None,
            function_calls: Vec::new(),
            tool_call_id: None,
            is_error: false,
            parsed: None,
            usage: None,
            model: None,
            metadata: BTreeMap::new(),
            event: None,
        }
    }

    /// A text message stamped now.
    pub fn text(role: AgentRole, text: impl Into<String>) -> Self {
        AgentMessage::new(role, Content::Text(text.into()))
    }

    /// A model's tool-call request: role [`AgentRole::ToolCall`], optional
    /// accompanying text.
    pub fn tool_calls(text: impl Into<String>, calls: Vec<FunctionCall>) -> Self {
        let mut m = AgentMessage::text(AgentRole::ToolCall, text);
        m.function_calls = calls;
        m
    }

    /// The result of the tool call `call`: role [`AgentRole::Tool`], named
    /// after the tool, answering the call's id.
    pub fn tool_result(call: &FunctionCall, output: impl Into<Content>, is_error: bool) -> Self {
        let mut m = AgentMessage::new(AgentRole::Tool, output);
        m.name = Some(call.name.to_string());
        m.tool_call_id = Some(call.id.clone());
        m.is_error = is_error;
        m
    }

    /// The same message with a sender name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The same message, produced by `model` with `usage`.
    #[must_use]
    pub fn with_usage(mut self, model: impl Into<String>, usage: Usage) -> Self {
        self.model = Some(model.into());
        self.usage = Some(usage);
        self
    }

    /// True if the model requested tool calls (the seed's `is_function_call`).
    pub fn is_function_call(&self) -> bool {
        !self.function_calls.is_empty()
    }

    /// The text of the content (see [`Content::text`]).
    pub fn text_content(&self) -> String {
        self.content.text()
    }

    /// The name made safe for provider APIs (the seed's `sanitized_name`):
    /// every character other than ASCII letters, digits, `_` and `-` becomes
    /// `_`, cut to 64 characters; `None` when there is no name or nothing is
    /// left.
    ///
    /// ```
    /// use mplp_dialog::agent::{AgentMessage, AgentRole};
    /// let m = AgentMessage::text(AgentRole::User, "hi").with_name("Dr. Ada Lovelace");
    /// assert_eq!(m.sanitized_name().as_deref(), Some("Dr__Ada_Lovelace"));
    /// ```
    pub fn sanitized_name(&self) -> Option<String> {
        let name = self.name.as_deref()?;
        let s: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(64)
            .collect();
        (!s.is_empty()).then_some(s)
    }

    /// One line (or a few) describing the message, for overviews.
    pub(crate) fn summary(&self) -> String {
        let mut out = String::new();
        let _ = write!(out, "{}", self.role);
        if let Some(n) = &self.name {
            let _ = write!(out, " ({n})");
        }
        if let Some(m) = &self.model {
            let _ = write!(out, " [{m}]");
        }
        out.push(':');
        let text = self.content.text();
        if !text.is_empty() {
            let _ = write!(out, " {}", one_line(&text, 120));
        }
        for image in self.content.images() {
            match image {
                ImageSource::Url { url } => {
                    let _ = write!(out, " [image {}]", one_line(url, 60));
                }
                ImageSource::Base64 { media_type, data } => {
                    let _ = write!(out, " [image {media_type}, {} base64 chars]", data.len());
                }
            }
        }
        for call in &self.function_calls {
            let _ = write!(
                out,
                " -> {}({}) #{}",
                call.name,
                one_line(&call.arguments.to_string(), 80),
                call.id
            );
        }
        if let Some(id) = &self.tool_call_id {
            let _ = write!(out, " <- #{id}");
            if self.is_error {
                out.push_str(" (error)");
            }
        }
        if let Some(u) = &self.usage {
            let _ = write!(
                out,
                " {{{} in, {} out tokens}}",
                u.input_tokens, u.output_tokens
            );
        }
        out
    }
}

/// The text on one line, cut to `max` characters with an ellipsis.
fn one_line(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    if flat.chars().count() <= max {
        flat
    } else {
        let mut s: String = flat.chars().take(max).collect();
        s.push('…');
        s
    }
}
