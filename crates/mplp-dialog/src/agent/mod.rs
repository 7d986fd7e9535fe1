//! Dialogs that agent runtimes can live in (seed 003's `Dialog` and
//! `Message`): tool calls and tool results, text and image parts, parsed
//! output, usage and cost, an owner, the prompt that governs the next turn,
//! forks in a dialog tree, and an exact projection to MPLP Dialog documents.
//!
//! - [`AgentDialog`], [`AgentMessage`], [`AgentRole`], [`Content`], [`Part`],
//!   [`ImageSource`], [`FunctionCall`]: the model, with lossless JSON
//!   (`serde`) round trips.
//! - [`AgentDialog::put_prompt`], [`AgentDialog::put_text`],
//!   [`AgentDialog::put_image`], [`AgentDialog::append`]; the [`Prompt`]
//!   trait, [`TemplatePrompt`], [`PromptRegistry`].
//! - [`AgentDialog::usage`] and [`AgentDialog::cost`] with a caller-filled
//!   [`PricingTable`].
//! - [`AgentDialog::fork`] (`last_n`, `first_k`; a tool call and its
//!   results move as one unit), [`AgentDialog::fork_all`] (the seed's full
//!   copy) and a [`DialogTreeNode`] that records the owner.
//! - [`check`]: what the OpenAI and Anthropic APIs refuse, as checkers of
//!   request bodies; [`AgentDialog::check_tool_pairing`].
//! - `client` (feature `http`): a chat client that sends a dialog and
//!   appends the reply.
//! - [`AgentDialog::to_mplp`] / [`AgentDialog::from_mplp`]: the projection
//!   (mapping table in [`project`]).
//! - [`AgentDialog::to_openai_chat`] and [`AgentDialog::to_anthropic_messages`],
//!   [`AgentMessage::from_openai_response`] and
//!   [`AgentMessage::from_anthropic_response`] (mapping tables in [`openai`]
//!   and [`anthropic`]).
//! - A replay log: [`ReplayLog`] writes [`ReplayEntry`]s to any
//!   `mplp-events` sink (NDJSON with [`LogWriter`]); [`ReplayLog::rebuild`]
//!   rebuilds the session.
//! - Context management: [`AgentContextManager`] (the default truncator is
//!   [`DefaultContextManager`](crate::DefaultContextManager), `null` is
//!   [`NullContextManager`]), [`ModelWindows`] (context windows by model
//!   name), [`ContextManagerConfig`] and [`ContextManagerRegistry`] (types by
//!   name, built from configuration).
//!
//! [`DialogTreeNode`]: crate::DialogTreeNode

pub mod anthropic;
pub mod check;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod client;
mod context;
mod cost;
mod dialog;
mod message;
pub mod openai;
pub mod project;
mod prompt;
mod replay;
pub(crate) mod units;

pub use context::{
    AgentContextManager, ContextManagerConfig, ContextManagerFactory, ContextManagerRegistry,
    IMAGE_TOKENS, ModelWindows, NullContextManager, count_agent_message,
};
pub use cost::{Cost, Price, PricingTable, Usage};
pub use dialog::{AgentDialog, AgentError, Put};
pub use message::{
    AgentMessage, AgentRole, Content, FunctionCall, ImageSource, InvocationId, Part,
};
/// The MPLP integration tool event a projected tool call or result is
/// recorded as (`event.data.tool_events`): the integration module's types,
/// re-exported (one declaration of the wire object).
pub use mplp_events::integration::{RunStatus, ToolEvent, ToolKind};
/// The sink trait and NDJSON writer of `mplp-events`, which a [`ReplayLog`] writes to.
#[doc(no_inline)]
pub use mplp_events::log::{EventSink, LogWriter};
pub use project::{
    AGENT_DIALOG_DATA_INVALID, AGENT_DIALOG_EVENT, AGENT_DIALOG_STATE_MISSING, AGENT_EVENT_SOURCE,
    AGENT_MESSAGE_DATA_INVALID, AGENT_MESSAGE_EVENT, AGENT_PLAIN_MESSAGE, AGENT_ROLE_MISMATCH,
    FromMplp, TOOL_SUMMARY_CHARS, mplp_role,
};
pub use prompt::{Prompt, PromptError, PromptRegistry, TemplatePrompt, ToolSpec};
pub use replay::{ReplayEntry, ReplayError, ReplayLog};
