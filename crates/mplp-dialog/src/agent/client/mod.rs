//! A chat client (feature `http`): sends an [`AgentDialog`] to an
//! OpenAI-compatible Chat Completions server (OpenAI, vLLM, the llama.cpp
//! server, Ollama...) or to the Anthropic Messages API, and appends the reply.
//!
//! - **Bodies**: [`AgentDialog::to_openai_chat`] /
//!   [`AgentDialog::to_anthropic_messages`], so a body the provider would
//!   refuse is refused before anything is sent ([`ChatError::Refused`]).
//! - **Endpoints**: `{base_url}/chat/completions` for OpenAI (the base URL
//!   includes the version: `https://api.openai.com/v1`,
//!   `http://localhost:11434/v1`), `{base_url}/v1/messages` for Anthropic
//!   (`https://api.anthropic.com`), as the providers' own SDKs do.
//! - **Timeouts**: a connect timeout; for a whole reply, a total timeout; for
//!   a stream, the same duration as the longest silence between two chunks.
//! - **Retries**: on 408, 429 and 5xx answers and on connection failures and
//!   timeouts, up to [`ChatConfig::max_retries`] times, waiting as the
//!   server's `Retry-After` (seconds or an HTTP date) or `retry-after-ms`
//!   says, else an exponential backoff with jitter ([`Backoff`]); a
//!   `Retry-After` longer than [`ChatConfig::max_retry_after`] is not waited
//!   for (the error is returned).
//! - **Streaming** ([`ChatClient::send_streaming`]): server-sent events; the
//!   reply is a message in the dialog from the first delta on, its text
//!   growing as deltas arrive; the callback sees each [`Delta`] and the
//!   message so far. Tool calls are added when complete.
//! - **Tool calls** come back typed ([`Reply::tool_calls`],
//!   [`FunctionCall::arguments_as`]).
//! - **Usage and cost** are recorded on the reply message (`usage`,
//!   `model`, and `metadata.cost_usd` when [`ChatConfig::prices`] prices the
//!   model), so [`AgentDialog::usage`] and [`AgentDialog::cost`] include them.
//! - **Cancellation**: [`ChatClient::send_cancellable`] with a
//!   [`CancellationToken`], or drop the future; either way the dialog is left
//!   as it was before the call (a partial streamed message is removed).
//! - **API keys** come from the caller ([`ApiKey::new`]) or the environment
//!   ([`ApiKey::from_env`]; `OPENAI_API_KEY`, `ANTHROPIC_API_KEY` by
//!   default); they are sent only in the `Authorization` / `x-api-key`
//!   header, never written into a dialog, and print as `ApiKey(***)`.
//! - **Blocking**: [`BlockingChatClient`] runs the same client on its own
//!   current-thread tokio runtime.
//!
//! TLS is rustls with the `ring` provider (installed as the process default
//! when no provider is installed yet), and the system's root certificates.
//!
//! ```no_run
//! use mplp_core::ContextId;
//! use mplp_dialog::agent::{AgentDialog, Put};
//! use mplp_dialog::agent::client::{BlockingChatClient, ChatConfig};
//! let mut dialog = AgentDialog::new(ContextId::new(), "coder", "Be brief.");
//! dialog.put_text("What is MPLP?", Put::new())?;
//! let client = BlockingChatClient::new(ChatConfig::openai("https://api.openai.com/v1", "gpt-4o"))?;
//! let reply = client.send(&mut dialog)?;
//! println!("{}", dialog.messages()[reply.index].text_content());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`AgentDialog::to_openai_chat`]: super::AgentDialog::to_openai_chat
//! [`AgentDialog::to_anthropic_messages`]: super::AgentDialog::to_anthropic_messages
//! [`AgentDialog::usage`]: super::AgentDialog::usage
//! [`AgentDialog::cost`]: super::AgentDialog::cost

mod sse;
mod stream;

use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use serde_json::Value;
pub use sse::{SseEvent, SseParser};
pub use tokio_util::sync::CancellationToken;

use super::cost::{PricingTable, Usage};
use super::dialog::AgentDialog;
use super::message::{AgentMessage, AgentRole, Content, FunctionCall};
use super::prompt::ToolSpec;
use crate::convert::ConvertError;
use crate::status::DialogStatus;
use stream::{Accumulator, error_message, preview};

mplp_core::wire_enum! {
    /// The API a [`ChatClient`] speaks.
    ///
    /// ```
    /// use mplp_dialog::agent::client::Provider;
    /// assert_eq!("anthropic".parse::<Provider>()?, Provider::Anthropic);
    /// assert_eq!(Provider::Openai.to_string(), "openai");
    /// # Ok::<(), mplp_core::UnknownVariant>(())
    /// ```
    pub enum Provider {
        /// OpenAI-compatible Chat Completions.
        Openai = "openai",
        /// Anthropic Messages.
        Anthropic = "anthropic",
    }
}

/// An API key. It is sent only in a request header; `Debug` does not show
/// it, and it has no `Serialize`, so it cannot end up in a dialog or a log.
///
/// ```
/// use mplp_dialog::agent::client::ApiKey;
/// let key = ApiKey::new("sk-secret");
/// assert_eq!(format!("{key:?}"), "ApiKey(***)");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// A key given by the caller.
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    /// The key in the environment variable `var`, if it is set and not empty.
    pub fn from_env(var: &str) -> Option<Self> {
        std::env::var(var)
            .ok()
            .filter(|k| !k.trim().is_empty())
            .map(ApiKey)
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

/// Exponential backoff with jitter: before retry `n` (from 0), a wait drawn
/// evenly between half and all of `min(max, base × 2ⁿ)` ("equal jitter":
/// clients that failed together spread out, and each wait still grows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Backoff {
    /// The first wait's upper bound.
    pub base: Duration,
    /// The largest wait.
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            base: Duration::from_millis(500),
            max: Duration::from_secs(20),
        }
    }
}

impl Backoff {
    /// A backoff from `base`, capped at `max`.
    pub fn new(base: Duration, max: Duration) -> Self {
        Backoff { base, max }
    }

    /// The wait before retry `n` (from 0).
    ///
    /// ```
    /// use std::time::Duration;
    /// use mplp_dialog::agent::client::Backoff;
    /// let b = Backoff::new(Duration::from_millis(100), Duration::from_secs(1));
    /// let w = b.delay(2);
    /// assert!(w >= Duration::from_millis(200) && w <= Duration::from_millis(400));
    /// assert!(b.delay(30) <= Duration::from_secs(1));
    /// ```
    pub fn delay(&self, n: u32) -> Duration {
        let factor = 2u32.saturating_pow(n.min(30));
        let cap = self.base.saturating_mul(factor).min(self.max);
        let half = cap / 2;
        let nanos = u64::try_from(half.as_nanos()).unwrap_or(u64::MAX);
        let jitter = if nanos == 0 {
            0
        } else {
            random_u64() % (nanos + 1)
        };
        half + Duration::from_nanos(jitter)
    }
}

/// A random number from the standard library's randomly keyed hasher (no
/// dependency for the jitter).
fn random_u64() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

/// What a [`ChatClient`] sends where, and how it waits and retries.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ChatConfig {
    /// The API.
    pub provider: Provider,
    /// The server: `https://api.openai.com/v1` (OpenAI-compatible servers:
    /// up to and including the version), `https://api.anthropic.com`.
    pub base_url: String,
    /// The model to ask.
    pub model: String,
    /// The key, if the server needs one.
    pub api_key: Option<ApiKey>,
    /// The longest reply (Anthropic requires it; sent to OpenAI as
    /// `max_tokens` only when set with [`ChatConfig::with_max_tokens`]).
    pub max_tokens: u32,
    /// Whether `max_tokens` is sent to an OpenAI-compatible server.
    pub openai_max_tokens: bool,
    /// The tools the model may call.
    pub tools: Vec<ToolSpec>,
    /// The longest wait for a whole reply, and for each chunk of a stream.
    pub timeout: Duration,
    /// The longest wait for a connection.
    pub connect_timeout: Duration,
    /// How many times a failed attempt is retried.
    pub max_retries: u32,
    /// The waits between attempts when the server does not say.
    pub backoff: Backoff,
    /// The longest `Retry-After` that is waited for.
    pub max_retry_after: Duration,
    /// Prices to record each reply's cost with (`metadata.cost_usd`).
    pub prices: PricingTable,
    /// The `anthropic-version` header.
    pub anthropic_version: String,
}

impl ChatConfig {
    /// An OpenAI-compatible server; the key from `OPENAI_API_KEY` if set.
    pub fn openai(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        ChatConfig::new(Provider::Openai, base_url, model)
            .with_api_key_opt(ApiKey::from_env("OPENAI_API_KEY"))
    }

    /// The Anthropic Messages API; the key from `ANTHROPIC_API_KEY` if set.
    pub fn anthropic(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        ChatConfig::new(Provider::Anthropic, base_url, model)
            .with_api_key_opt(ApiKey::from_env("ANTHROPIC_API_KEY"))
    }

    /// A configuration without a key, with the defaults: 1024 reply
    /// tokens, 60 s timeout, 10 s connect timeout, 2 retries, the default
    /// [`Backoff`], `Retry-After` waited up to 60 s.
    pub fn new(provider: Provider, base_url: impl Into<String>, model: impl Into<String>) -> Self {
        ChatConfig {
            provider,
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            max_tokens: 1024,
            openai_max_tokens: false,
            tools: Vec::new(),
            timeout: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(10),
            max_retries: 2,
            backoff: Backoff::default(),
            max_retry_after: Duration::from_secs(60),
            prices: PricingTable::new(),
            anthropic_version: "2023-06-01".to_owned(),
        }
    }

    fn with_api_key_opt(mut self, key: Option<ApiKey>) -> Self {
        self.api_key = key;
        self
    }

    /// The same configuration with this key.
    #[must_use]
    pub fn with_api_key(mut self, key: ApiKey) -> Self {
        self.api_key = Some(key);
        self
    }

    /// The same configuration with these tools.
    #[must_use]
    pub fn with_tools(mut self, tools: Vec<ToolSpec>) -> Self {
        self.tools = tools;
        self
    }

    /// The same configuration with this reply limit (also sent to OpenAI).
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self.openai_max_tokens = true;
        self
    }

    /// The same configuration with this timeout.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The same configuration with this many retries and this backoff.
    #[must_use]
    pub fn with_retries(mut self, max_retries: u32, backoff: Backoff) -> Self {
        self.max_retries = max_retries;
        self.backoff = backoff;
        self
    }

    /// The same configuration with these prices.
    #[must_use]
    pub fn with_prices(mut self, prices: PricingTable) -> Self {
        self.prices = prices;
        self
    }

    fn endpoint(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        match self.provider {
            Provider::Openai => format!("{base}/chat/completions"),
            Provider::Anthropic => format!("{base}/v1/messages"),
        }
    }
}

/// A piece of a streamed reply.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Delta {
    /// More text.
    Text(String),
    /// A piece of a tool call: its id and name when it starts, then pieces
    /// of its JSON arguments.
    ToolCall {
        /// The call's position in the reply.
        index: usize,
        /// The call's id (when it starts).
        id: Option<String>,
        /// The tool's name (when it starts).
        name: Option<String>,
        /// The next piece of the arguments' JSON text.
        arguments: String,
    },
}

/// What a send did: where the reply is, its tool calls, usage and cost.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Reply {
    /// The reply's index in the dialog's messages.
    pub index: usize,
    /// The tool calls the model requested, typed.
    pub tool_calls: Vec<FunctionCall>,
    /// The usage the server reported.
    pub usage: Option<Usage>,
    /// The reply's cost in dollars, when [`ChatConfig::prices`] prices the model.
    pub cost_usd: Option<f64>,
    /// Why the model stopped (`stop`, `tool_calls`, `end_turn`, `tool_use`...).
    pub stop_reason: Option<String>,
    /// How many HTTP attempts it took (1 without a retry).
    pub attempts: u32,
}

/// Why a send failed. No variant holds the API key.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChatError {
    /// The dialog cannot be sent as it is: the provider would refuse the
    /// body. Nothing was sent.
    #[error("not sent: {0}")]
    Refused(#[from] ConvertError),
    /// Only an `active` dialog takes the reply. Nothing was sent.
    #[error("not sent: the dialog is {0}, and only an active dialog takes a reply")]
    NotActive(DialogStatus),
    /// The server answered with an error status (after the retries, for a
    /// retried status).
    #[error("the server answered {status}: {message}")]
    Status {
        /// The HTTP status.
        status: u16,
        /// The server's message (`error.message` of its JSON, or the start of its body).
        message: String,
        /// How many attempts were made.
        attempts: u32,
    },
    /// No answer within the timeout (after the retries).
    #[error("no answer within {0:?} (after {1} attempts)")]
    Timeout(Duration, u32),
    /// The connection failed (after the retries).
    #[error("cannot reach the server: {0}")]
    Connect(String),
    /// The answer is not a reply of the API: not JSON, or not of its shape,
    /// or an error event in the stream.
    #[error("the server's answer cannot be read: {0}")]
    BadResponse(String),
    /// The call was cancelled; the dialog is as it was.
    #[error("cancelled")]
    Cancelled,
    /// The client cannot be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

impl ChatError {
    /// True for a 4xx answer other than 408 and 429: the request itself is
    /// wrong, and sending it again will not help.
    pub fn is_client_error(&self) -> bool {
        matches!(self, ChatError::Status { status, .. } if (400..500).contains(status) && *status != 408 && *status != 429)
    }
}

/// The chat client (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct ChatClient {
    http: reqwest::Client,
    config: ChatConfig,
}

/// Removes a partial reply from the dialog unless the send completed: the
/// dialog is left as it was on an error, a cancellation or a dropped future.
struct Rollback<'d> {
    dialog: &'d mut AgentDialog,
    len: usize,
    done: bool,
}

impl Drop for Rollback<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.dialog.messages.truncate(self.len);
        }
    }
}

impl ChatClient {
    /// A client for this configuration.
    pub fn new(config: ChatConfig) -> Result<Self, ChatError> {
        // reqwest is built without a rustls provider; ring is the one this
        // workspace already builds (async-nats). An error means a provider
        // is installed already, which is all reqwest needs.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .build()
            .map_err(|e| ChatError::Client(e.to_string()))?;
        Ok(ChatClient { http, config })
    }

    /// The configuration.
    pub fn config(&self) -> &ChatConfig {
        &self.config
    }

    /// The JSON body that would be sent for `dialog`, checked against the
    /// provider's rules; [`ChatError::Refused`] if the provider would refuse
    /// it (nothing is sent).
    pub fn request_body(&self, dialog: &AgentDialog, stream: bool) -> Result<Value, ChatError> {
        let c = &self.config;
        let body = match c.provider {
            Provider::Openai => {
                let mut r = dialog.to_openai_chat(c.model.clone(), &c.tools)?;
                if stream {
                    r.stream = Some(true);
                    r.stream_options = Some(serde_json::json!({"include_usage": true}));
                }
                let mut v =
                    serde_json::to_value(r).map_err(|e| ChatError::Client(e.to_string()))?;
                if c.openai_max_tokens {
                    v["max_tokens"] = c.max_tokens.into();
                }
                v
            }
            Provider::Anthropic => {
                let mut r =
                    dialog.to_anthropic_messages(c.model.clone(), c.max_tokens, &c.tools)?;
                if stream {
                    r.stream = Some(true);
                }
                serde_json::to_value(r).map_err(|e| ChatError::Client(e.to_string()))?
            }
        };
        Ok(body)
    }

    /// Sends the dialog, waits for the whole reply and appends it.
    pub async fn send(&self, dialog: &mut AgentDialog) -> Result<Reply, ChatError> {
        self.run(dialog, false, &mut |_, _| {}).await
    }

    /// Sends the dialog for a streamed reply: the reply is appended at the
    /// first delta and grows as deltas arrive; `on_delta` sees each delta
    /// and the message so far.
    pub async fn send_streaming(
        &self,
        dialog: &mut AgentDialog,
        mut on_delta: impl FnMut(&Delta, &AgentMessage) + Send,
    ) -> Result<Reply, ChatError> {
        self.run(dialog, true, &mut on_delta).await
    }

    /// [`ChatClient::send`] or [`ChatClient::send_streaming`] (without a
    /// callback) until `cancel` is cancelled: then [`ChatError::Cancelled`],
    /// and the dialog is as it was.
    pub async fn send_cancellable(
        &self,
        dialog: &mut AgentDialog,
        stream: bool,
        cancel: &CancellationToken,
    ) -> Result<Reply, ChatError> {
        let mut quiet = |_: &Delta, _: &AgentMessage| {};
        tokio::select! {
            r = self.run(dialog, stream, &mut quiet) => r,
            () = cancel.cancelled() => Err(ChatError::Cancelled),
        }
    }

    async fn run(
        &self,
        dialog: &mut AgentDialog,
        stream: bool,
        on_delta: &mut (dyn FnMut(&Delta, &AgentMessage) + Send),
    ) -> Result<Reply, ChatError> {
        if dialog.status() != DialogStatus::Active {
            return Err(ChatError::NotActive(dialog.status()));
        }
        let body = self.request_body(dialog, stream)?;
        let bytes = serde_json::to_vec(&body).map_err(|e| ChatError::Client(e.to_string()))?;
        let (response, attempts) = self.post(bytes, stream).await?;
        let len = dialog.messages.len();
        let mut guard = Rollback {
            dialog,
            len,
            done: false,
        };
        let reply_body = if stream {
            self.read_stream(response, &mut guard, on_delta).await?
        } else {
            let text = tokio::time::timeout(self.config.timeout, response.bytes())
                .await
                .map_err(|_| ChatError::Timeout(self.config.timeout, attempts))?
                .map_err(|e| transport(e, self.config.timeout, attempts))?;
            serde_json::from_slice(&text).map_err(|e| {
                ChatError::BadResponse(format!(
                    "the reply is not JSON ({e}): {}",
                    preview(&String::from_utf8_lossy(&text))
                ))
            })?
        };
        let mut message = self.message_of(reply_body)?;
        let cost = message
            .usage
            .as_ref()
            .and_then(|u| self.config.prices.cost(message.model.as_deref(), u));
        if let Some(c) = cost {
            message.metadata.insert("cost_usd".to_owned(), c.into());
        }
        let stop_reason = message
            .metadata
            .get("finish_reason")
            .or_else(|| message.metadata.get("stop_reason"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let reply = Reply {
            index: guard.len,
            tool_calls: message.function_calls.clone(),
            usage: message.usage,
            cost_usd: cost,
            stop_reason,
            attempts,
        };
        guard.dialog.messages.truncate(guard.len);
        guard.dialog.messages.push(message);
        guard.done = true;
        Ok(reply)
    }

    /// The agent message of a reply body (streamed replies are accumulated
    /// into the same body first).
    fn message_of(&self, body: Value) -> Result<AgentMessage, ChatError> {
        let bad = |e: serde_json::Error| {
            ChatError::BadResponse(format!(
                "not a reply of the {} API: {e}",
                self.config.provider
            ))
        };
        let m = match self.config.provider {
            Provider::Openai => {
                let r: super::openai::Response = serde_json::from_value(body).map_err(bad)?;
                AgentMessage::from_openai_response(&r)
                    .map_err(|e| ChatError::BadResponse(e.to_string()))?
            }
            Provider::Anthropic => {
                let r: super::anthropic::Response = serde_json::from_value(body).map_err(bad)?;
                AgentMessage::from_anthropic_response(&r)
                    .map_err(|e| ChatError::BadResponse(e.to_string()))?
            }
        };
        Ok(m)
    }

    /// Posts the body, retrying as configured; the successful response and
    /// the number of attempts.
    async fn post(
        &self,
        body: Vec<u8>,
        stream: bool,
    ) -> Result<(reqwest::Response, u32), ChatError> {
        let c = &self.config;
        let url = c.endpoint();
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let mut req = self
                .http
                .post(&url)
                .header("content-type", "application/json")
                .body(body.clone());
            if !stream {
                req = req.timeout(c.timeout);
            }
            req = match (c.provider, &c.api_key) {
                (Provider::Openai, Some(k)) => {
                    req.header("authorization", format!("Bearer {}", k.0))
                }
                (Provider::Anthropic, Some(k)) => req.header("x-api-key", k.0.as_str()),
                (_, None) => req,
            };
            if c.provider == Provider::Anthropic {
                req = req.header("anthropic-version", c.anthropic_version.as_str());
            }
            if stream {
                req = req.header("accept", "text/event-stream");
            }
            let retries_left = attempt <= c.max_retries;
            let sent = if stream {
                // The headers must come within the timeout; the chunks are
                // timed one by one afterwards.
                match tokio::time::timeout(c.timeout, req.send()).await {
                    Ok(r) => r,
                    Err(_) if retries_left => {
                        tokio::time::sleep(c.backoff.delay(attempt - 1)).await;
                        continue;
                    }
                    Err(_) => return Err(ChatError::Timeout(c.timeout, attempt)),
                }
            } else {
                req.send().await
            };
            match sent {
                Ok(r) if r.status().is_success() => return Ok((r, attempt)),
                Ok(r) => {
                    let status = r.status().as_u16();
                    let retryable = status == 408 || status == 429 || status >= 500;
                    let wait = retry_after(r.headers());
                    if retryable && retries_left && wait.is_none_or(|w| w <= c.max_retry_after) {
                        let wait = wait.unwrap_or_else(|| c.backoff.delay(attempt - 1));
                        tokio::time::sleep(wait).await;
                        continue;
                    }
                    let text = tokio::time::timeout(c.timeout, r.bytes())
                        .await
                        .ok()
                        .and_then(Result::ok)
                        .unwrap_or_default();
                    let message = serde_json::from_slice::<Value>(&text)
                        .ok()
                        .and_then(|v| v.get("error").map(error_message))
                        .unwrap_or_else(|| preview(String::from_utf8_lossy(&text).trim()));
                    return Err(ChatError::Status {
                        status,
                        message,
                        attempts: attempt,
                    });
                }
                Err(e) if (e.is_timeout() || e.is_connect()) && retries_left => {
                    tokio::time::sleep(c.backoff.delay(attempt - 1)).await;
                }
                Err(e) => return Err(transport(e, c.timeout, attempt)),
            }
        }
    }

    async fn read_stream(
        &self,
        mut response: reqwest::Response,
        guard: &mut Rollback<'_>,
        on_delta: &mut (dyn FnMut(&Delta, &AgentMessage) + Send),
    ) -> Result<Value, ChatError> {
        let timeout = self.config.timeout;
        let mut parser = SseParser::new();
        let mut acc = Accumulator::new(self.config.provider);
        let mut started = false;
        loop {
            let chunk = tokio::time::timeout(timeout, response.chunk())
                .await
                .map_err(|_| ChatError::Timeout(timeout, 1))?
                .map_err(|e| transport(e, timeout, 1))?;
            let Some(chunk) = chunk else { break };
            for event in parser.feed(&chunk) {
                let deltas = acc
                    .event(event.event.as_deref(), &event.data)
                    .map_err(ChatError::BadResponse)?;
                for d in deltas {
                    if !started {
                        started = true;
                        let mut m =
                            AgentMessage::new(AgentRole::Assistant, Content::Text(String::new()));
                        m.model = Some(self.config.model.clone());
                        guard.dialog.messages.push(m);
                    }
                    if let Some(m) = guard.dialog.messages.last_mut() {
                        if let (Delta::Text(t), Content::Text(text)) = (&d, &mut m.content) {
                            text.push_str(t);
                        }
                        on_delta(&d, m);
                    }
                }
            }
            if acc.done {
                break;
            }
        }
        if !acc.done {
            return Err(ChatError::BadResponse(
                "the stream ended before its last event".to_owned(),
            ));
        }
        acc.into_body(&self.config.model)
            .map_err(ChatError::BadResponse)
    }
}

/// `Retry-After` (seconds, or an HTTP date) or `retry-after-ms`.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    if let Some(ms) = headers
        .get("retry-after-ms")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v >= 0.0)
    {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    let v = headers.get("retry-after")?.to_str().ok()?.trim();
    if let Ok(s) = v.parse::<f64>() {
        return (s.is_finite() && s >= 0.0).then(|| Duration::from_secs_f64(s));
    }
    let at = http_date(v)?;
    let now = time::OffsetDateTime::now_utc();
    // A date in the past means now.
    Some(Duration::try_from(at - now).unwrap_or(Duration::ZERO))
}

/// An HTTP-date (RFC 9110, section 5.6.7): the IMF-fixdate
/// (`Fri, 31 Dec 1999 23:59:59 GMT`, read with `time`'s RFC 2822 parser,
/// which takes `GMT`), and the two obsolete forms a recipient must also
/// accept: RFC 850 (`Friday, 31-Dec-99 23:59:59 GMT`, a two-digit year
/// more than 50 years ahead being the last such year in the past) and
/// asctime (`Fri Dec 31 23:59:59 1999`).
fn http_date(v: &str) -> Option<time::OffsetDateTime> {
    use time::format_description::well_known::Rfc2822;
    if let Ok(at) = time::OffsetDateTime::parse(v, &Rfc2822) {
        return Some(at);
    }
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = |m: &str| {
        let i = MONTHS.iter().position(|x| *x == m)?;
        time::Month::try_from(u8::try_from(i + 1).ok()?).ok()
    };
    let clock = |t: &str| {
        let mut parts = t.split(':');
        let mut two = || {
            parts
                .next()
                .filter(|p| p.len() == 2)
                .and_then(|p| p.parse::<u8>().ok())
        };
        let (h, m, s) = (two()?, two()?, two()?);
        if parts.next().is_some() {
            return None;
        }
        time::Time::from_hms(h, m, s).ok()
    };
    let words: Vec<&str> = v.split_ascii_whitespace().collect();
    let (date, clock) = match words.as_slice() {
        [weekday, dmy, t, "GMT"] if weekday.ends_with(',') => {
            let mut p = dmy.split('-');
            let (d, m, y) = (p.next()?, p.next()?, p.next()?);
            if p.next().is_some() || y.len() != 2 || d.len() != 2 {
                return None;
            }
            let yy: i32 = y.parse().ok()?;
            let this_year = time::OffsetDateTime::now_utc().year();
            let mut year = this_year - this_year.rem_euclid(100) + yy;
            if year > this_year + 50 {
                year -= 100;
            }
            let date = time::Date::from_calendar_date(year, month(m)?, d.parse().ok()?).ok()?;
            (date, clock(t)?)
        }
        [_weekday, m, d, t, y] if y.len() == 4 => {
            let date =
                time::Date::from_calendar_date(y.parse().ok()?, month(m)?, d.parse().ok()?).ok()?;
            (date, clock(t)?)
        }
        _ => return None,
    };
    Some(time::PrimitiveDateTime::new(date, clock).assume_utc())
}

fn transport(e: reqwest::Error, timeout: Duration, attempts: u32) -> ChatError {
    if e.is_timeout() {
        ChatError::Timeout(timeout, attempts)
    } else if e.is_connect() {
        ChatError::Connect(e.to_string())
    } else {
        ChatError::BadResponse(e.to_string())
    }
}

/// The same client, blocking: it runs [`ChatClient`] on its own
/// current-thread tokio runtime (do not call it from inside an async task).
#[derive(Debug)]
pub struct BlockingChatClient {
    inner: ChatClient,
    runtime: tokio::runtime::Runtime,
}

impl BlockingChatClient {
    /// A blocking client for this configuration.
    pub fn new(config: ChatConfig) -> Result<Self, ChatError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| ChatError::Client(e.to_string()))?;
        let inner = {
            let _enter = runtime.enter();
            ChatClient::new(config)?
        };
        Ok(BlockingChatClient { inner, runtime })
    }

    /// The async client underneath.
    pub fn client(&self) -> &ChatClient {
        &self.inner
    }

    /// See [`ChatClient::send`].
    pub fn send(&self, dialog: &mut AgentDialog) -> Result<Reply, ChatError> {
        self.runtime.block_on(self.inner.send(dialog))
    }

    /// See [`ChatClient::send_streaming`].
    pub fn send_streaming(
        &self,
        dialog: &mut AgentDialog,
        on_delta: impl FnMut(&Delta, &AgentMessage) + Send,
    ) -> Result<Reply, ChatError> {
        self.runtime
            .block_on(self.inner.send_streaming(dialog, on_delta))
    }

    /// See [`ChatClient::send_cancellable`]; cancel from another thread.
    pub fn send_cancellable(
        &self,
        dialog: &mut AgentDialog,
        stream: bool,
        cancel: &CancellationToken,
    ) -> Result<Reply, ChatError> {
        self.runtime
            .block_on(self.inner.send_cancellable(dialog, stream, cancel))
    }
}

#[cfg(test)]
mod tests {
    use super::http_date;
    use time::macros::datetime;

    #[test]
    fn the_three_forms_of_an_http_date() {
        let at = Some(datetime!(1999-12-31 23:59:59 UTC));
        assert_eq!(http_date("Fri, 31 Dec 1999 23:59:59 GMT"), at);
        assert_eq!(http_date("Friday, 31-Dec-99 23:59:59 GMT"), at);
        assert_eq!(http_date("Fri Dec 31 23:59:59 1999"), at);
        // RFC 2822's forms are taken too (seconds left out, a numeric zone).
        assert_eq!(
            http_date("Fri, 31 Dec 1999 23:59 GMT"),
            Some(datetime!(1999-12-31 23:59:00 UTC))
        );
        assert_eq!(http_date("Sat, 01 Jan 2000 00:59:59 +0100"), at);
        // asctime pads a one-digit day with a space.
        assert_eq!(
            http_date("Sun Nov  6 08:49:37 1994"),
            Some(datetime!(1994-11-06 08:49:37 UTC))
        );
        // RFC 850: a two-digit year is this century's unless that is more
        // than 50 years ahead.
        let this_year = time::OffsetDateTime::now_utc().year();
        let ahead = (this_year + 10) % 100;
        let d = http_date(&format!("Monday, 01-Jan-{ahead:02} 00:00:00 GMT")).unwrap();
        assert_eq!(d.year(), this_year + 10);
        // Exactly 50 years ahead is not "more than 50": still this century's.
        let edge = (this_year + 50) % 100;
        let d = http_date(&format!("Monday, 01-Jan-{edge:02} 00:00:00 GMT")).unwrap();
        assert_eq!(d.year(), this_year + 50);
        let far = (this_year + 60) % 100;
        let d = http_date(&format!("Monday, 01-Jan-{far:02} 00:00:00 GMT")).unwrap();
        assert_eq!(d.year(), this_year + 60 - 100);
        for bad in [
            "",
            "tomorrow",
            "Fri, 31 Dec 1999 23:59:60:00 GMT",
            "Friday, 31-Dec-1999 23:59:59 GMT",
            "Friday, 31-Dec-99 23:59:59 PST",
            "Friday 31-Dec-99 23:59:59 GMT",
            "Fri Dec 31 23:59:59 99",
            "Fri Foo 31 23:59:59 1999",
            "Fri Dec 32 23:59:59 1999",
            "Fri Dec 31 24:00:00 1999",
            "Fri Dec 31 23:59:59:00 1999",
            "Fri Dec 31 3:59:59 1999",
        ] {
            assert_eq!(http_date(bad), None, "{bad:?}");
        }
    }
}
