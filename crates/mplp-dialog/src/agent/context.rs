//! Context management for agent dialogs, as seed 003 describes it: the
//! default manager (first message kept, tail kept, border message cut with a
//! visible marker, safety buffer), `type: null`, custom managers registered
//! by name and built from configuration, and context windows looked up from
//! the model name.

use std::collections::BTreeMap;
use std::sync::Arc;

use mplp_core::DialogId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::dialog::AgentDialog;
use super::message::{AgentMessage, AgentRole, Content};
use crate::context::{
    ContextError, DefaultContextManager, EstimateCounter, TRUNCATED_PREFIX, TRUNCATED_SUFFIX,
    TokenCounter, cut_to_fit,
};
use crate::tree::DialogTreeNode;

/// Tokens counted for one image (OpenAI's cost of a 1024×1024 image at high
/// detail; Anthropic's is of the same order). An estimate: the SDK does not
/// decode images.
pub const IMAGE_TOKENS: usize = 765;

/// Tokens an agent message costs: its text, its images
/// ([`IMAGE_TOKENS`] each), each function call's name and JSON arguments,
/// plus the counter's per-message overhead.
///
/// ```
/// use mplp_dialog::EstimateCounter;
/// use mplp_dialog::agent::{count_agent_message, AgentMessage, AgentRole};
/// let m = AgentMessage::text(AgentRole::User, "abcdefgh");
/// assert_eq!(count_agent_message(&EstimateCounter, &m), 2 + 4);
/// ```
pub fn count_agent_message(counter: &impl TokenCounter, m: &AgentMessage) -> usize {
    let text = counter.count(&m.content.text());
    let images = m.content.images().count().saturating_mul(IMAGE_TOKENS);
    let calls: usize = m
        .function_calls
        .iter()
        .map(|c| counter.count(&c.name) + counter.count(&c.arguments.to_string()))
        .sum();
    text.saturating_add(images)
        .saturating_add(calls)
        .saturating_add(counter.message_overhead())
}

/// A hook applied to an agent dialog before each model call (seed 003's
/// `ContextManager`): it returns a dialog that is safe to send. The
/// canonical dialog is only borrowed, never changed.
pub trait AgentContextManager: Send + Sync {
    /// The registry key (`default`, `null`, or a custom type).
    fn name(&self) -> &str;

    /// A dialog that is safe to send to the model.
    fn prune(&self, dialog: &AgentDialog) -> Result<AgentDialog, ContextError>;
}

/// `type: null`: no pruning; the dialog is returned as it is (a copy).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NullContextManager;

impl AgentContextManager for NullContextManager {
    fn name(&self) -> &str {
        "null"
    }

    fn prune(&self, dialog: &AgentDialog) -> Result<AgentDialog, ContextError> {
        Ok(dialog.clone())
    }
}

/// A message that may be cut: plain text, no tool call, not a tool result
/// (cutting those would break the pairing of calls and results).
fn cuttable(m: &AgentMessage) -> bool {
    matches!(m.content, Content::Text(_))
        && m.function_calls.is_empty()
        && m.role != AgentRole::Tool
}

fn with_text(m: &AgentMessage, text: String) -> AgentMessage {
    AgentMessage {
        content: Content::Text(text),
        ..m.clone()
    }
}

/// The default truncator on agent dialogs (the same rules as on MPLP
/// dialogs, see [`DefaultContextManager`]), with what tool calls need:
///
/// - the first message is kept; if it alone exceeds the budget, its end is
///   cut behind [`TRUNCATED_SUFFIX`] (only a plain-text message can be cut;
///   otherwise, or if not even one character fits, it is
///   [`ContextError::BudgetTooSmall`]);
/// - the newest messages are kept, backwards, while they fit;
/// - the border message (the newest one that does not fit whole) is cut to
///   its end behind [`TRUNCATED_PREFIX`] if it is plain text, and dropped
///   otherwise;
/// - a tool call and its results are kept whole or not at all (providers
///   refuse a result without its call, and a call without its results); so
///   a first message that requests tool calls is dropped when its results
///   are not all kept.
///
/// The result has a new `dialog_id` (a root tree node with the same owner);
/// counted with [`count_agent_message`], it costs at most the budget.
impl<C: TokenCounter + Send + Sync> AgentContextManager for DefaultContextManager<C> {
    fn name(&self) -> &str {
        "default"
    }

    fn prune(&self, dialog: &AgentDialog) -> Result<AgentDialog, ContextError> {
        let messages = self.prune_agent_messages(dialog.messages())?;
        let mut header = dialog.header.clone();
        header.dialog_id = DialogId::new();
        let mut node = DialogTreeNode::root(header.dialog_id);
        node.owner.clone_from(&dialog.node.owner);
        Ok(AgentDialog {
            header,
            node,
            top_prompt: dialog.top_prompt.clone(),
            messages,
        })
    }
}

impl<C: TokenCounter> DefaultContextManager<C> {
    /// The agent messages that fit, as [`AgentContextManager::prune`] says.
    pub fn prune_agent_messages(
        &self,
        messages: &[AgentMessage],
    ) -> Result<Vec<AgentMessage>, ContextError> {
        let counter = self.counter();
        let cost = |m: &AgentMessage| count_agent_message(counter, m);
        let budget = self.budget();
        let overhead = counter.message_overhead();
        let Some((first, rest)) = messages.split_first() else {
            return Ok(Vec::new());
        };
        let first = if cost(first) <= budget {
            first.clone()
        } else {
            let least = counter.count(TRUNCATED_SUFFIX) + overhead + 1;
            if !cuttable(first) {
                return Err(self.too_small(cost(first)));
            }
            let text = first.content.text();
            match cut_to_fit(
                counter,
                &text,
                budget.saturating_sub(overhead),
                |kept| format!("{kept}{TRUNCATED_SUFFIX}"),
                true,
            ) {
                Some(t) => with_text(first, t),
                None => return Err(self.too_small(least)),
            }
        };
        let mut left = budget.saturating_sub(cost(&first));
        let mut start = rest.len();
        let mut border = None;
        for (i, m) in rest.iter().enumerate().rev() {
            let c = cost(m);
            if c <= left {
                left -= c;
                start = i;
                continue;
            }
            if cuttable(m) {
                border = cut_to_fit(
                    counter,
                    &m.content.text(),
                    left.saturating_sub(overhead),
                    |kept| format!("{TRUNCATED_PREFIX}{kept}"),
                    false,
                )
                .map(|t| with_text(m, t));
            }
            break;
        }
        // Tool calls and their results are kept whole or not at all (the
        // border is plain text: a unit of its own).
        let mut keep = vec![false; messages.len()];
        keep[0] = true;
        let border_at = start; // index in `messages` of rest[start - 1]
        if border.is_some() {
            keep[border_at] = true;
        }
        for k in keep.iter_mut().skip(start + 1) {
            *k = true;
        }
        super::units::keep_whole_units(&super::units::agent_unit_starts(messages), &mut keep);
        let mut out = Vec::with_capacity(rest.len() - start + 2);
        if keep[0] {
            out.push(first);
        }
        if border_at > 0 && keep[border_at] {
            out.extend(border);
        }
        out.extend(
            rest[start..]
                .iter()
                .zip(&keep[start + 1..])
                .filter(|(_, k)| **k)
                .map(|(m, _)| m.clone()),
        );
        Ok(out)
    }
}

/// Context windows by model name: a small built-in table of well-known
/// models that the caller extends. A name matches its entry exactly or by
/// the longest entry that is a prefix of it (so `gpt-4o-2024-08-06` finds
/// `gpt-4o`).
///
/// ```
/// use mplp_dialog::agent::ModelWindows;
/// let mut models = ModelWindows::builtin();
/// assert_eq!(models.lookup("gpt-4o-2024-08-06")?, 128_000);
/// assert!(models.lookup("my-local-model").is_err());
/// models.insert("my-local-model", 32_768);
/// assert_eq!(models.lookup("my-local-model")?, 32_768);
/// # Ok::<(), mplp_dialog::ContextError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ModelWindows {
    windows: BTreeMap<String, usize>,
}

/// The built-in context windows (tokens), from the providers' model pages.
const BUILTIN_WINDOWS: &[(&str, usize)] = &[
    ("gpt-3.5-turbo", 16_385),
    ("gpt-4", 8_192),
    ("gpt-4-turbo", 128_000),
    ("gpt-4o", 128_000),
    ("gpt-4o-mini", 128_000),
    ("gpt-4.1", 1_047_576),
    ("o1", 200_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    ("claude-3-5-haiku", 200_000),
    ("claude-3-5-sonnet", 200_000),
    ("claude-3-7-sonnet", 200_000),
    ("claude-sonnet-4", 200_000),
    ("claude-opus-4", 200_000),
    ("claude-haiku-4-5", 200_000),
];

impl ModelWindows {
    /// An empty table.
    pub fn new() -> Self {
        ModelWindows::default()
    }

    /// The built-in table.
    pub fn builtin() -> Self {
        ModelWindows {
            windows: BUILTIN_WINDOWS
                .iter()
                .map(|(m, w)| ((*m).to_owned(), *w))
                .collect(),
        }
    }

    /// Sets a model's window.
    pub fn insert(&mut self, model: impl Into<String>, window: usize) -> &mut Self {
        self.windows.insert(model.into(), window);
        self
    }

    /// The window of `model`, or [`ContextError::UnknownModel`].
    pub fn lookup(&self, model: &str) -> Result<usize, ContextError> {
        if let Some(w) = self.windows.get(model) {
            return Ok(*w);
        }
        self.windows
            .iter()
            .filter(|(k, _)| model.starts_with(k.as_str()))
            .max_by_key(|(k, _)| k.len())
            .map(|(_, w)| *w)
            .ok_or_else(|| ContextError::UnknownModel {
                model: model.to_owned(),
            })
    }
}

/// The configuration of a context manager, as the seed's YAML writes it:
/// `type` (`default`, `null`, or a registered custom type), an optional
/// `max_tokens` (else the model's window), an optional `safety_margin`, and
/// any other member for custom managers.
///
/// ```
/// use mplp_dialog::agent::ContextManagerConfig;
/// let c: ContextManagerConfig = serde_json::from_str(r#"{"type": "default", "max_tokens": 16000}"#)?;
/// assert_eq!(c.kind.as_deref(), Some("default"));
/// let off: ContextManagerConfig = serde_json::from_str(r#"{"type": null}"#)?;
/// assert_eq!(off.kind, None);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ContextManagerConfig {
    /// The manager type; `None` (`type: null`) disables pruning.
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    /// The window to fit, overriding the model table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<usize>,
    /// Tokens kept free ([`DEFAULT_SAFETY_MARGIN`](crate::DEFAULT_SAFETY_MARGIN) if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safety_margin: Option<usize>,
    /// Members for custom managers.
    #[serde(flatten)]
    pub options: BTreeMap<String, Value>,
}

impl ContextManagerConfig {
    /// `type: <kind>` with nothing else.
    pub fn of_type(kind: impl Into<String>) -> Self {
        ContextManagerConfig {
            kind: Some(kind.into()),
            ..ContextManagerConfig::default()
        }
    }

    /// The window this configuration gives for `model`: `max_tokens`, else
    /// the model table's entry, else [`ContextError::UnknownModel`].
    pub fn window(&self, model: &str, models: &ModelWindows) -> Result<usize, ContextError> {
        match self.max_tokens {
            Some(m) => Ok(m),
            None => models.lookup(model),
        }
    }
}

/// Builds a context manager from its configuration and the model name.
pub type ContextManagerFactory = Arc<
    dyn Fn(
            &ContextManagerConfig,
            &str,
            &ModelWindows,
        ) -> Result<Box<dyn AgentContextManager>, ContextError>
        + Send
        + Sync,
>;

/// Context managers by type name (the seed's `register_context_manager`):
/// `default` is built in, `null` (or no configuration) disables pruning,
/// custom types are registered with a factory.
///
/// ```
/// use std::sync::Arc;
/// use mplp_dialog::agent::{AgentContextManager, ContextManagerConfig, ContextManagerRegistry, NullContextManager};
/// let mut registry = ContextManagerRegistry::new();
/// let cm = registry.build(Some(&ContextManagerConfig::of_type("default")), "gpt-4o-mini")?;
/// assert_eq!(cm.name(), "default");
/// assert!(registry.build(Some(&ContextManagerConfig::of_type("default")), "my-model").is_err());
/// registry.register("summary", Arc::new(|_, _, _| Ok(Box::new(NullContextManager) as Box<dyn AgentContextManager>)))?;
/// assert!(registry.build(Some(&ContextManagerConfig::of_type("summary")), "any").is_ok());
/// assert_eq!(registry.build(None, "any")?.name(), "null");
/// # Ok::<(), mplp_dialog::ContextError>(())
/// ```
#[derive(Clone)]
pub struct ContextManagerRegistry {
    factories: BTreeMap<String, ContextManagerFactory>,
    models: ModelWindows,
}

impl std::fmt::Debug for ContextManagerRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextManagerRegistry")
            .field("types", &self.factories.keys().collect::<Vec<_>>())
            .field("models", &self.models)
            .finish()
    }
}

impl Default for ContextManagerRegistry {
    fn default() -> Self {
        ContextManagerRegistry::new()
    }
}

impl ContextManagerRegistry {
    /// A registry with `default` and the built-in model table.
    pub fn new() -> Self {
        let default: ContextManagerFactory = Arc::new(|config, model, models| {
            let window = config.window(model, models)?;
            let mut cm = DefaultContextManager::with_counter(window, EstimateCounter);
            if let Some(m) = config.safety_margin {
                cm = cm.with_safety_margin(m);
            }
            Ok(Box::new(cm) as Box<dyn AgentContextManager>)
        });
        ContextManagerRegistry {
            factories: BTreeMap::from([("default".to_owned(), default)]),
            models: ModelWindows::builtin(),
        }
    }

    /// The model table, to extend it.
    pub fn models_mut(&mut self) -> &mut ModelWindows {
        &mut self.models
    }

    /// Registers a custom type (replacing one of the same name);
    /// [`ContextError::EmptyName`] for an empty name.
    pub fn register(
        &mut self,
        name: impl Into<String>,
        factory: ContextManagerFactory,
    ) -> Result<&mut Self, ContextError> {
        let name = name.into();
        if name.is_empty() {
            return Err(ContextError::EmptyName);
        }
        self.factories.insert(name, factory);
        Ok(self)
    }

    /// The manager a configuration asks for, for `model`: none or `type:
    /// null` → [`NullContextManager`]; a registered type → its factory;
    /// otherwise [`ContextError::UnknownManager`].
    pub fn build(
        &self,
        config: Option<&ContextManagerConfig>,
        model: &str,
    ) -> Result<Box<dyn AgentContextManager>, ContextError> {
        let Some(config) = config else {
            return Ok(Box::new(NullContextManager));
        };
        let Some(kind) = config.kind.as_deref() else {
            return Ok(Box::new(NullContextManager));
        };
        match self.factories.get(kind) {
            Some(f) => f(config, model, &self.models),
            None => Err(ContextError::UnknownManager {
                name: kind.to_owned(),
                known: self
                    .factories
                    .keys()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }
}
