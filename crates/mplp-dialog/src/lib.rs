//! Typed MPLP v1.0 **Dialog** documents (`schemas/mplp-dialog.schema.json`):
//! conversations between people, assistants and agents.
//!
//! - [`Dialog`], [`Message`], [`DialogRole`], [`DialogStatus`]: the wire
//!   format, exactly as the canonical schema says, with
//!   [`mplp_core::Document`] for reading, validating and writing.
//! - The lifecycle: [`Dialog::add_message`] only while `active`;
//!   [`Dialog::transition`] along one table ([`DialogStatus::can_transition_to`]).
//! - [`Dialog::head`], [`Dialog::tail`], [`Dialog::overview`], and [`Threads`]
//!   to group dialogs by `thread_id`.
//! - Context windows: [`TokenCounter`] ([`EstimateCounter`] by default, exact
//!   OpenAI counts with the `tiktoken` feature), [`Dialog::recent_messages`],
//!   and [`ContextManager`] / [`DefaultContextManager`], which prune a copy.
//! - Forking: [`Dialog::fork`] and the [`DialogTree`] of forks.
//! - Provider formats: [`Dialog::to_openai_request`] and
//!   [`Dialog::to_anthropic_request`], and back (see [`convert`]).
//! - Agent runtimes: [`agent::AgentDialog`], with tool calls and results,
//!   images, usage and cost, an owner, prompts, forks, provider requests with
//!   tools and images, and an exact projection to MPLP Dialog documents (see
//!   [`agent`]).
//!
//! ```
//! use mplp_core::{ContextId, Document};
//! use mplp_dialog::{ContextManager, DefaultContextManager, Dialog, DialogRole};
//!
//! let mut dialog = Dialog::with_system_prompt(ContextId::new(), "You are a senior engineer.");
//! dialog.add_message(DialogRole::User, "Help me debug this authentication error")?;
//!
//! let window = DefaultContextManager::new(128_000).prune(&dialog)?;
//! let body = window.to_anthropic_request("claude-sonnet-4-5", 1024)?;
//! assert_eq!(body.system.as_deref(), Some("You are a senior engineer."));
//!
//! let json = dialog.to_json();
//! assert!(Dialog::validate_json(&json).report.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Feature flags
//! - `tiktoken`: [`TiktokenCounter`], exact OpenAI token counts with the
//!   `tiktoken-rs` crate (its BPE tables are compiled in; nothing is
//!   downloaded at run time).
//! - `schemars`: `schemars::JsonSchema` for the document types.
//! - `http`: [`agent::client`], a chat client for OpenAI-compatible Chat
//!   Completions servers and the Anthropic Messages API (async on tokio,
//!   plus a blocking wrapper).
//!
//! # Dependencies, and why
//! - `mplp-core`, `serde`, `serde_json`: the wire format and validation.
//! - `thiserror`: [`ContextError`], [`ConvertError`], [`TreeError`].
//! - `mplp-events`: the sink trait and NDJSON writer of the agent replay log
//!   ([`agent::ReplayLog`]).
//! - `tiktoken-rs` (optional): exact OpenAI token counts.
//! - `reqwest`, `rustls` (ring provider), `tokio`, `tokio-util`, `time`
//!   (optional, feature `http`): HTTP/1.1 with TLS, the runtime, the
//!   cancellation token, `Retry-After` dates. Server-sent events are parsed
//!   by hand (see `agent::client::SseParser` for why).
//! - Tests only: `async-openai` (types-only feature) and `anthropic-ai-sdk`,
//!   whose request types our request bodies must fit; `jsonschema` and
//!   `criterion` for the benchmark.
//!
//! # Spec notes
//! Decisions where the sources are silent or disagree (also in
//! `docs/spec-notes.md ("mplp-dialog")`); each is pinned by a test.
//!
//! 1. **Wire format is the canonical schema's.** A message is exactly
//!    `role`, `content`, `timestamp` and an optional base `event`; the second
//!    seed's `name`, `function_calls`, `usage`, `metadata`... are not wire
//!    fields, and are refused (`additional-properties`); [`agent`] holds them
//!    and carries them in MPLP base events (note 8 of the spec notes).
//!    `messages` may be empty; `content` may be the empty string.
//! 2. **Transitions** (the seed gives statuses, not a table): `active ⇄
//!    paused`; `active`/`paused` → `completed`/`cancelled`; `completed` and
//!    `cancelled` are final; staying in the same status is refused.
//!    Ending sets `ended_at`. `started_at` is set by [`Dialog::new`] and never
//!    changed by a transition (a resumed dialog keeps its start).
//! 3. **`add_message` outside `active`** is [`mplp_core::Error::State`] with
//!    rule `dialog_not_active` at `/status`, naming the status.
//! 4. **Timing rules** (SPEC-QUESTIONS 19), in [`Document::check_rules`]:
//!    errors for contradictions no honest producer writes (`ended_at` before
//!    `started_at`; an `active`/`paused` dialog with `ended_at`); warnings for
//!    what other SDKs or clock skew produce (a `completed`/`cancelled` dialog
//!    without `ended_at` — the seed's own SDK examples never set it; a message
//!    after `ended_at`; messages out of order). Times compare as instants.
//! 5. **Forks** keep exactly `first_k` + `last_n` messages (all when they
//!    overlap); `last_n = 0` keeps no trailing message (the seed's "0 means
//!    all" comes from Python's `[-0:]`; [`Dialog::fork_all`] says it
//!    explicitly). A fork is a new `active` dialog. Its tree node's
//!    `split_point` is the parent's message count at the fork. The seed's
//!    `owner` is an optional member of the node ([`DialogTreeNode::owner`]),
//!    set by agent dialogs (MPLP has no such field).
//! 6. **Context pruning** returns a new dialog with a new `dialog_id`; the
//!    canonical one is only borrowed. If the first message alone exceeds the
//!    budget its end is cut; if not even that fits, it is an error rather than
//!    an oversized result.
//! 7. **Anthropic requests**: see [`convert`] for what is lost and why.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agent;
pub mod context;
pub mod convert;
mod dialog;
pub mod rules;
mod status;
pub mod tree;

#[cfg(feature = "tiktoken")]
pub use context::TiktokenCounter;
pub use context::{
    ContextError, ContextManager, DEFAULT_SAFETY_MARGIN, DefaultContextManager, EstimateCounter,
    TRUNCATED_PREFIX, TRUNCATED_SUFFIX, TokenCounter,
};
pub use convert::{
    ANTHROPIC_LEADING_USER, AnthropicBlock, AnthropicContent, AnthropicMessage, AnthropicRequest,
    AnthropicRole, ConvertError, OpenAiMessage, OpenAiRequest, OpenAiRole,
};
pub use dialog::{
    DIALOG_ENDED_BEFORE_STARTED, DIALOG_ENDED_WITHOUT_ENDED_AT, DIALOG_MESSAGE_AFTER_END,
    DIALOG_MESSAGES_OUT_OF_ORDER, DIALOG_NOT_ACTIVE, DIALOG_OPEN_WITH_ENDED_AT, Dialog, DialogRole,
    Message, Threads, dialogs_in_thread,
};
pub use status::DialogStatus;
pub use tree::{DialogTree, DialogTreeNode, TreeError};

// --- Re-exports and README doc tests; keep this block last. ---

/// What users of this crate need from `mplp-core`, so that depending on
/// `mplp-dialog` alone is enough to read, check and write its documents.
#[doc(no_inline)]
pub use mplp_core::{
    BaseEvent, ContextId, DialogId, Document, Error, Meta, Report, ThreadId, Timestamp, Violation,
};

// The crate README: each of its Rust snippets is a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
