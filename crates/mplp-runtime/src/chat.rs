//! An [`Executor`] that asks a language model: each step of the plan is a
//! turn of an agent dialog sent through mplp-dialog's chat client
//! (feature `chat`).
//!
//! [`ChatExecutor`] keeps one [`AgentDialog`] for the whole run (its system
//! prompt is the agent's instructions, bound to the run's Context). For
//! each attempt of a step it:
//!
//! 1. puts the step as a user turn (by default `Step 2 of 5: <description>`,
//!    see [`ChatExecutor::with_prompt`]);
//! 2. sends the dialog to the OpenAI-compatible or Anthropic endpoint of
//!    its [`ChatConfig`] ([`ChatClient`]: timeouts, retries on 408, 429
//!    and 5xx honouring `Retry-After`, a body the provider would refuse is
//!    never sent);
//! 3. answers the model's tool calls with the caller's tool handler
//!    ([`ChatExecutor::with_tools`]), appends the results and sends again,
//!    up to [`ChatExecutor::with_max_tool_rounds`] rounds;
//! 4. returns the assistant's final reply as the step's output
//!    (`SAStepCompleted.result`): `reply` (the text), `model`,
//!    `stop_reason`, `input_tokens`, `output_tokens`, `cost_usd` (when the
//!    configuration prices the model), `tool_calls` (how many were
//!    answered), `http_attempts`, `dialog_id` and `message` (the reply's
//!    index in the dialog).
//!
//! **Failures are step failures**, so the session's
//! [`FailurePolicy`](crate::FailurePolicy) decides what follows (retry
//! with backoff, skip the dependents, fail the plan): an HTTP error after
//! the client's own retries (the status and the server's message), a
//! timeout, an unreachable server, an answer that is not a reply of the
//! API, a dialog the provider would refuse, a refusal by the model
//! (OpenAI's `refusal` or `finish_reason: content_filter`, Anthropic's
//! `stop_reason: refusal`), a tool call without a tool handler, and more
//! tool rounds than allowed. A failed attempt leaves the dialog as it was
//! before it, so a retry asks again from the same point (and the dialog
//! never holds a user turn without its answer).
//!
//! **Tool calls** are answered by the handler, a function from the typed
//! [`FunctionCall`] to `Ok(output)` or `Err(error text)` (sent back as a
//! tool result marked as an error, for the model to recover from). This
//! executor never asks the session's approver: an agent whose step needs
//! a person's approval first wraps it, returning
//! [`StepResult::NeedsApproval`] before calling it, and calling it once
//! [`StepRequest::approval`] is set.
//!
//! **Resume**: the dialog lives in the executor, not in the store; a
//! resumed session starts a new dialog unless one is given with
//! [`ChatExecutor::with_dialog`] (e.g. read back from where the caller
//! saved [`ChatExecutor::dialog`]).
//!
//! The same executor is an [`Executor`] (blocking: it runs the async
//! client on its own current-thread tokio runtime, so do not call it from
//! inside an async task) and an
//! [`AsyncExecutor`](crate::async_session::AsyncExecutor) for
//! [`AsyncSaSession`](crate::async_session::AsyncSaSession).
//!
//! ```no_run
//! use mplp_context::{Context, ContextRoot};
//! use mplp_dialog::agent::client::ChatConfig;
//! use mplp_plan::Plan;
//! use mplp_runtime::chat::ChatExecutor;
//! use mplp_runtime::store::MemoryStore;
//! use mplp_runtime::{AutoApprove, SaSession};
//!
//! let mut context = Context::new("Docs", ContextRoot::new("docs", "dev"))?;
//! context.activate()?;
//! let mut b = Plan::builder(context.context_id, "Release notes", "Write the release notes");
//! let outline = b.step("Outline the notes");
//! b.step_after("Write the notes", &[outline]);
//! // Ollama's OpenAI-compatible endpoint on this machine.
//! let config = ChatConfig::openai("http://localhost:11434/v1", "llama3.2");
//! let mut agent = ChatExecutor::new(config, "You are a careful technical writer.")?;
//! let mut session = SaSession::new(context, b.build()?, Vec::new(), MemoryStore::new())?;
//! let report = session.run(&mut agent, &mut AutoApprove::default())?;
//! println!("{}: {}", report.outcome, agent.dialog().map(|d| d.messages().len()).unwrap_or(0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use mplp_core::JsonObject;
use mplp_dialog::agent::client::{ChatClient, ChatConfig, ChatError};
use mplp_dialog::agent::{AgentDialog, AgentMessage, FunctionCall, Put};
use serde_json::Value;

use crate::session::{Executor, StepRequest, StepResult};

/// The caller's tools: the output of a call, or an error text for the model.
pub type ToolHandler = Box<dyn FnMut(&FunctionCall) -> Result<String, String> + Send>;

/// How a step is put to the model.
pub type PromptFn = Box<dyn FnMut(&StepRequest<'_>) -> String + Send>;

/// The default number of tool rounds in one attempt.
pub const DEFAULT_MAX_TOOL_ROUNDS: u32 = 8;

/// An [`Executor`] that runs each step as a turn of an agent dialog sent to
/// a language model (see the [module docs](self)).
pub struct ChatExecutor {
    client: ChatClient,
    owner: String,
    system: String,
    dialog: Option<AgentDialog>,
    prompt: PromptFn,
    tools: Option<ToolHandler>,
    max_tool_rounds: u32,
    runtime: Option<tokio::runtime::Runtime>,
}

impl fmt::Debug for ChatExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChatExecutor")
            .field("client", &self.client)
            .field("owner", &self.owner)
            .field("dialog", &self.dialog.as_ref().map(AgentDialog::dialog_id))
            .field("tools", &self.tools.is_some())
            .field("max_tool_rounds", &self.max_tool_rounds)
            .finish_non_exhaustive()
    }
}

/// The default prompt: `Step 2 of 5: <description>`.
pub fn default_prompt(request: &StepRequest<'_>) -> String {
    format!(
        "Step {} of {}: {}",
        request.position + 1,
        request.plan.steps().len(),
        request.step.description
    )
}

impl ChatExecutor {
    /// An executor sending to the endpoint of `config`, the dialog seeded
    /// with `system` (the agent's instructions) and owned by `agent`.
    ///
    /// # Errors
    /// [`ChatError::Client`] if the HTTP client cannot be built.
    pub fn new(config: ChatConfig, system: impl Into<String>) -> Result<Self, ChatError> {
        Ok(ChatExecutor {
            client: ChatClient::new(config)?,
            owner: "agent".to_owned(),
            system: system.into(),
            dialog: None,
            prompt: Box::new(default_prompt),
            tools: None,
            max_tool_rounds: DEFAULT_MAX_TOOL_ROUNDS,
            runtime: None,
        })
    }

    /// The same executor, its dialog owned by `owner` (default `agent`).
    #[must_use]
    pub fn with_owner(mut self, owner: impl Into<String>) -> Self {
        self.owner = owner.into();
        self
    }

    /// The same executor, putting each step to the model as `prompt` says.
    #[must_use]
    pub fn with_prompt(
        mut self,
        prompt: impl FnMut(&StepRequest<'_>) -> String + Send + 'static,
    ) -> Self {
        self.prompt = Box::new(prompt);
        self
    }

    /// The same executor, answering tool calls with `tools` (the tools
    /// themselves are declared in the [`ChatConfig`]).
    #[must_use]
    pub fn with_tools(
        mut self,
        tools: impl FnMut(&FunctionCall) -> Result<String, String> + Send + 'static,
    ) -> Self {
        self.tools = Some(Box::new(tools));
        self
    }

    /// The same executor, allowing `rounds` tool rounds per attempt.
    #[must_use]
    pub fn with_max_tool_rounds(mut self, rounds: u32) -> Self {
        self.max_tool_rounds = rounds;
        self
    }

    /// The same executor, going on with `dialog` (an earlier run's).
    #[must_use]
    pub fn with_dialog(mut self, dialog: AgentDialog) -> Self {
        self.dialog = Some(dialog);
        self
    }

    /// The dialog so far (none before the first step).
    pub fn dialog(&self) -> Option<&AgentDialog> {
        self.dialog.as_ref()
    }

    /// The dialog, taken out of the executor.
    pub fn into_dialog(self) -> Option<AgentDialog> {
        self.dialog
    }

    /// The chat client.
    pub fn client(&self) -> &ChatClient {
        &self.client
    }

    /// Runs one attempt of a step (what both executor traits do).
    pub async fn attempt(&mut self, request: &StepRequest<'_>) -> StepResult {
        let prompt = (self.prompt)(request);
        let dialog = self.dialog.get_or_insert_with(|| {
            AgentDialog::new(
                request.context.context_id,
                self.owner.as_str(),
                self.system.as_str(),
            )
        });
        let before = dialog.clone();
        let result = turn(
            &self.client,
            dialog,
            prompt,
            self.tools.as_mut(),
            self.max_tool_rounds,
        )
        .await;
        match result {
            Ok(out) => StepResult::Output(out),
            Err(why) => {
                *dialog = before;
                StepResult::Failure(why)
            }
        }
    }
}

/// Why a reply is a refusal, if it is one.
fn refusal(message: &AgentMessage) -> Option<String> {
    let meta = |k: &str| message.metadata.get(k).and_then(Value::as_str);
    if let Some(r) = meta("refusal") {
        return Some(r.to_owned());
    }
    match (meta("finish_reason"), meta("stop_reason")) {
        (Some("content_filter"), _) => Some("the content filter stopped the reply".to_owned()),
        (_, Some("refusal")) => {
            let text = message.text_content();
            Some(if text.trim().is_empty() {
                "stop_reason: refusal".to_owned()
            } else {
                text
            })
        }
        _ => None,
    }
}

/// One step as a dialog turn: the prompt, the replies and tool rounds; the
/// step's output, or why the attempt failed.
async fn turn(
    client: &ChatClient,
    dialog: &mut AgentDialog,
    prompt: String,
    mut tools: Option<&mut ToolHandler>,
    max_rounds: u32,
) -> Result<JsonObject, String> {
    dialog
        .put_text(prompt, Put::new())
        .map_err(|e| format!("the dialog does not take the step's turn: {e}"))?;
    let (mut input, mut output, mut cost, mut calls, mut http) = (0u64, 0u64, None, 0u64, 0u32);
    let mut rounds = 0u32;
    loop {
        let reply = client.send(dialog).await.map_err(|e| describe(&e))?;
        http += reply.attempts;
        if let Some(u) = reply.usage {
            input += u.input_tokens;
            output += u.output_tokens;
        }
        if let Some(c) = reply.cost_usd {
            cost = Some(cost.unwrap_or(0.0) + c);
        }
        let message = &dialog.messages()[reply.index];
        if let Some(why) = refusal(message) {
            return Err(format!("the model refused: {why}"));
        }
        if reply.tool_calls.is_empty() {
            let mut out = JsonObject::new();
            out.insert("reply", message.text_content());
            if let Some(m) = &message.model {
                out.insert("model", m.as_str());
            }
            if let Some(r) = &reply.stop_reason {
                out.insert("stop_reason", r.as_str());
            }
            out.insert("input_tokens", input);
            out.insert("output_tokens", output);
            if let Some(c) = cost {
                out.insert("cost_usd", c);
            }
            out.insert("tool_calls", calls);
            out.insert("http_attempts", u64::from(http));
            out.insert("dialog_id", dialog.dialog_id().to_string());
            out.insert("message", reply.index as u64);
            return Ok(out);
        }
        let Some(handler) = tools.as_mut() else {
            let names: Vec<&str> = reply.tool_calls.iter().map(|c| c.name.as_str()).collect();
            return Err(format!(
                "the model called {}, and this executor has no tool handler (ChatExecutor::with_tools)",
                names.join(", ")
            ));
        };
        rounds += 1;
        if rounds > max_rounds {
            return Err(format!(
                "the model still calls tools after {max_rounds} rounds"
            ));
        }
        for call in &reply.tool_calls {
            let (content, is_error) = match handler(call) {
                Ok(out) => (out, false),
                Err(e) => (e, true),
            };
            calls += 1;
            dialog
                .append(AgentMessage::tool_result(call, content, is_error))
                .map_err(|e| {
                    format!("the dialog does not take the result of `{}`: {e}", call.id)
                })?;
        }
    }
}

/// A chat error as a step's failure reason.
fn describe(e: &ChatError) -> String {
    match e {
        ChatError::Status { status, .. } => format!("HTTP {status}: {e}"),
        other => format!("chat: {other}"),
    }
}

impl Executor for ChatExecutor {
    /// Runs the attempt on the executor's own current-thread tokio runtime
    /// (built at the first call); a runtime that cannot be built is the
    /// attempt's failure.
    fn execute(&mut self, request: &StepRequest<'_>) -> StepResult {
        let runtime = match self.runtime.take() {
            Some(rt) => rt,
            None => match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => return StepResult::failure(format!("no tokio runtime: {e}")),
            },
        };
        let result = runtime.block_on(self.attempt(request));
        self.runtime = Some(runtime);
        result
    }
}

impl crate::async_session::AsyncExecutor for ChatExecutor {
    fn execute(&mut self, request: &StepRequest<'_>) -> impl Future<Output = StepResult> {
        self.attempt(request)
    }
}
