//! Context-window management: token counting, the seed's
//! `recent_messages(max_tokens)`, and context managers that prune a copy of
//! a dialog to fit a model's window.

use mplp_core::DialogId;

use crate::dialog::{Dialog, Message};

/// Counts the tokens a text or a message costs in a model's context window.
pub trait TokenCounter {
    /// Tokens of a text.
    fn count(&self, text: &str) -> usize;

    /// Tokens a message costs: its content plus a fixed per-message
    /// overhead for the role and the chat framing (4 by default, as OpenAI's
    /// own counting guide uses for chat models).
    fn count_message(&self, message: &Message) -> usize {
        self.count(&message.content) + self.message_overhead()
    }

    /// Tokens added per message for its role and framing.
    fn message_overhead(&self) -> usize {
        4
    }
}

impl<T: TokenCounter + ?Sized> TokenCounter for &T {
    fn count(&self, text: &str) -> usize {
        (**self).count(text)
    }
    fn count_message(&self, message: &Message) -> usize {
        (**self).count_message(message)
    }
    fn message_overhead(&self) -> usize {
        (**self).message_overhead()
    }
}

/// The default estimator: one token per four characters, rounded up (the
/// usual rule of thumb for English text with OpenAI and Anthropic
/// tokenizers). Fast and dependency-free; use the `tiktoken` feature's
/// `TiktokenCounter` for exact OpenAI counts.
///
/// ```
/// use mplp_dialog::{EstimateCounter, TokenCounter};
/// assert_eq!(EstimateCounter.count(""), 0);
/// assert_eq!(EstimateCounter.count("abcd"), 1);
/// assert_eq!(EstimateCounter.count("abcde"), 2);
/// assert_eq!(EstimateCounter.count("größe"), 2); // characters, not bytes
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EstimateCounter;

impl TokenCounter for EstimateCounter {
    fn count(&self, text: &str) -> usize {
        text.chars().count().div_ceil(4)
    }
}

/// Exact OpenAI token counts with the `tiktoken-rs` crate, whose BPE
/// encodings are compiled in (no download at run time).
///
/// ```
/// # #[cfg(feature = "tiktoken")] {
/// use mplp_dialog::{TiktokenCounter, TokenCounter};
/// let counter = TiktokenCounter::o200k();
/// assert_eq!(counter.count("hello world"), 2);
/// # }
/// ```
#[cfg(feature = "tiktoken")]
#[cfg_attr(docsrs, doc(cfg(feature = "tiktoken")))]
#[derive(Clone, Copy)]
pub struct TiktokenCounter {
    bpe: &'static tiktoken_rs::CoreBPE,
}

#[cfg(feature = "tiktoken")]
impl TiktokenCounter {
    /// `o200k_base`: GPT-4o, GPT-4.1, o1, o3 and later models.
    pub fn o200k() -> Self {
        TiktokenCounter {
            bpe: tiktoken_rs::o200k_base_singleton(),
        }
    }

    /// `cl100k_base`: GPT-4, GPT-3.5-turbo and the text-embedding-3 models.
    pub fn cl100k() -> Self {
        TiktokenCounter {
            bpe: tiktoken_rs::cl100k_base_singleton(),
        }
    }
}

#[cfg(feature = "tiktoken")]
impl std::fmt::Debug for TiktokenCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TiktokenCounter")
    }
}

#[cfg(feature = "tiktoken")]
impl TokenCounter for TiktokenCounter {
    fn count(&self, text: &str) -> usize {
        // Ordinary encoding: special-token text in a message is counted as
        // plain text, as the OpenAI API treats user content.
        self.bpe.encode_ordinary(text).len()
    }

    /// OpenAI's guide for chat models: 3 framing tokens plus about 1 for the role.
    fn message_overhead(&self) -> usize {
        4
    }
}

impl Dialog {
    /// The most recent messages that fit in `max_tokens` by the default
    /// [`EstimateCounter`], as the seed's `getRecentMessages`: walking back
    /// from the newest message and stopping at the first one that does not
    /// fit. Returns a suffix of [`Dialog::messages`] (no copy).
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::{Dialog, DialogRole};
    /// let mut d = Dialog::new(ContextId::new());
    /// for text in ["a long opening message of many words", "ok", "fine"] {
    ///     d.add_message(DialogRole::User, text)?;
    /// }
    /// // 4 overhead + 1 content token each for the last two messages.
    /// assert_eq!(d.recent_messages(10).len(), 2);
    /// assert_eq!(d.recent_messages(0).len(), 0);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn recent_messages(&self, max_tokens: usize) -> &[Message] {
        self.recent_messages_with(&EstimateCounter, max_tokens)
    }

    /// [`Dialog::recent_messages`] with a chosen [`TokenCounter`].
    pub fn recent_messages_with(
        &self,
        counter: &impl TokenCounter,
        max_tokens: usize,
    ) -> &[Message] {
        let mut used = 0usize;
        let mut start = self.messages.len();
        for (i, m) in self.messages.iter().enumerate().rev() {
            let cost = counter.count_message(m);
            if used.saturating_add(cost) > max_tokens {
                break;
            }
            used += cost;
            start = i;
        }
        &self.messages[start..]
    }
}

/// Why a dialog cannot be made to fit a context window.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ContextError {
    /// Not even the first (system) message, cut down to one character plus
    /// the truncation marker, fits the budget left after the safety margin.
    #[error(
        "a context window of {} with a safety margin of {} leaves {}, \
         too few for the first message (at least {} even when truncated)",
        mplp_core::text::count(*.max_tokens, "token"),
        mplp_core::text::count(*.safety_margin, "token"),
        mplp_core::text::count(*.budget, "token"),
        mplp_core::text::count(*.needed, "token")
    )]
    BudgetTooSmall {
        /// The window size.
        max_tokens: usize,
        /// The reserved margin.
        safety_margin: usize,
        /// `max_tokens - safety_margin`.
        budget: usize,
        /// The least the first message could cost.
        needed: usize,
    },
    /// The model's context window is not in the model table.
    #[error(
        "the context window of model `{model}` is unknown: give `max_tokens` in the configuration, or add the model to the table"
    )]
    UnknownModel {
        /// The model name.
        model: String,
    },
    /// No context manager is registered under this type name.
    #[error("no context manager of type `{name}` is registered (known: {known})")]
    UnknownManager {
        /// The configured type.
        name: String,
        /// The registered types, comma-separated.
        known: String,
    },
    /// A context manager was registered without a name.
    #[error("a context manager needs a non-empty name to be registered")]
    EmptyName,
    /// A custom manager's configuration is not what it expects.
    #[error("context manager `{name}`: {reason}")]
    BadConfig {
        /// The manager's type.
        name: String,
        /// What is wrong.
        reason: String,
    },
}

/// A hook applied to the working dialog before each LLM call: it may
/// truncate, compress or rewrite a *copy* of the dialog so it is safe to send.
/// The canonical dialog is never changed (it is only borrowed).
pub trait ContextManager {
    /// A name for configuration and registries (the seed's `name`).
    fn name(&self) -> &str;

    /// A dialog that is safe to send to the model.
    fn prune(&self, dialog: &Dialog) -> Result<Dialog, ContextError>;
}

/// Marker put before the kept end of a message whose beginning was cut.
pub const TRUNCATED_PREFIX: &str = "[...earlier content truncated...] ";
/// Marker put after the kept beginning of a first (system) message whose end was cut.
pub const TRUNCATED_SUFFIX: &str = " [...later content truncated...]";

/// The seed's default truncator.
///
/// - The first message (the system prompt) is always kept; only if it alone
///   exceeds the budget is its end cut, with [`TRUNCATED_SUFFIX`].
/// - The other messages are kept from the most recent backwards.
/// - The oldest message that only partly fits is cut to its end, behind
///   [`TRUNCATED_PREFIX`]; older ones are dropped.
/// - A safety margin (5,000 tokens by default, as the seed) is subtracted
///   from `max_tokens` so calls never land right at the model's edge.
///
/// The result is a new dialog (new `dialog_id`, everything else copied) whose
/// messages, counted with the manager's [`TokenCounter`], total at most
/// `max_tokens - safety_margin`. Linear in the number of messages: each
/// message is counted at most once, plus a binary search over the
/// characters of the one message that is cut.
///
/// ```
/// use mplp_core::ContextId;
/// use mplp_dialog::{ContextManager, DefaultContextManager, Dialog, DialogRole, TokenCounter, EstimateCounter};
/// let mut d = Dialog::with_system_prompt(ContextId::new(), "You are terse.");
/// for i in 0..100 {
///     d.add_message(DialogRole::User, format!("{i:03} {}", "x".repeat(112)))?; // 33 tokens each
/// }
/// let cm = DefaultContextManager::new(320).with_safety_margin(20);
/// let pruned = cm.prune(&d)?;
/// let used: usize = pruned.messages().iter().map(|m| EstimateCounter.count_message(m)).sum();
/// assert!(used <= 300);
/// assert_eq!(pruned.messages().len(), 1 + 1 + 8);                  // system, cut border, 8 whole
/// assert_eq!(pruned.messages()[0], d.messages()[0]);                 // system prompt kept
/// assert_eq!(pruned.messages().last(), d.messages().last());         // newest kept
/// assert!(pruned.messages()[1].content.starts_with("[...earlier")); // border message cut
/// assert_eq!(d.messages().len(), 101);                             // canonical unchanged
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct DefaultContextManager<C = EstimateCounter> {
    max_tokens: usize,
    safety_margin: usize,
    counter: C,
}

/// The seed's `SAFETY_BUFFER`.
pub const DEFAULT_SAFETY_MARGIN: usize = 5_000;

impl DefaultContextManager<EstimateCounter> {
    /// A manager for a window of `max_tokens`, with the default estimator
    /// and the default safety margin.
    pub fn new(max_tokens: usize) -> Self {
        DefaultContextManager {
            max_tokens,
            safety_margin: DEFAULT_SAFETY_MARGIN,
            counter: EstimateCounter,
        }
    }
}

impl<C: TokenCounter> DefaultContextManager<C> {
    /// A manager with a chosen token counter.
    pub fn with_counter(max_tokens: usize, counter: C) -> Self {
        DefaultContextManager {
            max_tokens,
            safety_margin: DEFAULT_SAFETY_MARGIN,
            counter,
        }
    }

    /// The same manager with another safety margin.
    #[must_use]
    pub fn with_safety_margin(mut self, safety_margin: usize) -> Self {
        self.safety_margin = safety_margin;
        self
    }

    /// Tokens available to messages: `max_tokens - safety_margin` (0 if negative).
    pub fn budget(&self) -> usize {
        self.max_tokens.saturating_sub(self.safety_margin)
    }

    /// The counter in use.
    pub fn counter(&self) -> &C {
        &self.counter
    }

    pub(crate) fn too_small(&self, needed: usize) -> ContextError {
        ContextError::BudgetTooSmall {
            max_tokens: self.max_tokens,
            safety_margin: self.safety_margin,
            budget: self.budget(),
            needed,
        }
    }

    /// The messages that fit, as described on the type.
    pub fn prune_messages(&self, messages: &[Message]) -> Result<Vec<Message>, ContextError> {
        let budget = self.budget();
        let Some((first, rest)) = messages.split_first() else {
            return Ok(Vec::new());
        };
        let first_cost = self.counter.count_message(first);
        let first = if first_cost <= budget {
            first.clone()
        } else {
            let overhead = self.counter.message_overhead();
            let room = budget.saturating_sub(overhead);
            let cut = cut_to_fit(
                &self.counter,
                &first.content,
                room,
                |kept| format!("{kept}{TRUNCATED_SUFFIX}"),
                true,
            );
            match cut {
                Some(content) => Message {
                    content,
                    ..first.clone()
                },
                None => {
                    return Err(self.too_small(self.counter.count(TRUNCATED_SUFFIX) + overhead + 1));
                }
            }
        };
        let mut left = budget.saturating_sub(self.counter.count_message(&first));
        // Walk back from the newest message; `start` is the oldest one kept whole.
        let mut start = rest.len();
        let mut border = None;
        for (i, m) in rest.iter().enumerate().rev() {
            let cost = self.counter.count_message(m);
            if cost <= left {
                left -= cost;
                start = i;
                continue;
            }
            let room = left.saturating_sub(self.counter.message_overhead());
            border = cut_to_fit(
                &self.counter,
                &m.content,
                room,
                |kept| format!("{TRUNCATED_PREFIX}{kept}"),
                false,
            )
            .map(|content| Message {
                content,
                ..m.clone()
            });
            break;
        }
        let mut out = Vec::with_capacity(rest.len() - start + 2);
        out.push(first);
        out.extend(border);
        out.extend_from_slice(&rest[start..]);
        Ok(out)
    }
}

/// The longest piece of `content` (its start when `keep_start`, else its
/// end), at least one character, whose marked form costs at most `room`
/// tokens; `None` if not even one character fits. Binary search over the
/// number of characters kept: O(log n) counts of the candidate text, each
/// O(n); memory is the content plus two candidates (no table of character
/// boundaries, which took 8 bytes per character).
pub(crate) fn cut_to_fit(
    counter: &impl TokenCounter,
    content: &str,
    room: usize,
    mark: impl Fn(&str) -> String,
    keep_start: bool,
) -> Option<String> {
    let n = content.chars().count();
    let piece = |k: usize| -> &str {
        // `k` characters kept, 1 <= k <= n.
        if keep_start {
            match content.char_indices().nth(k) {
                Some((end, _)) => content.get(..end).unwrap_or(content),
                None => content,
            }
        } else {
            match content.char_indices().nth(n - k) {
                Some((start, _)) => content.get(start..).unwrap_or(content),
                None => content,
            }
        }
    };
    let fits = |k: usize| {
        let text = mark(piece(k));
        (counter.count(&text) <= room).then_some(text)
    };
    // Invariant: `best` is the marked text for `lo` characters, and fits.
    let (mut lo, mut hi) = (0usize, n.saturating_sub(1));
    let mut best = None;
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        match fits(mid) {
            Some(text) => {
                lo = mid;
                best = Some(text);
            }
            None => hi = mid - 1,
        }
    }
    if lo == 0 {
        return None;
    }
    best
}

impl<C: TokenCounter> ContextManager for DefaultContextManager<C> {
    fn name(&self) -> &str {
        "default"
    }

    fn prune(&self, dialog: &Dialog) -> Result<Dialog, ContextError> {
        let messages = self.prune_messages(&dialog.messages)?;
        Ok(Dialog {
            dialog_id: DialogId::new(),
            messages,
            ..copy_without_messages(dialog)
        })
    }
}

/// Every field of `dialog` except its messages (cloned without cloning them).
pub(crate) fn copy_without_messages(dialog: &Dialog) -> Dialog {
    Dialog {
        meta: dialog.meta.clone(),
        governance: dialog.governance.clone(),
        dialog_id: dialog.dialog_id,
        context_id: dialog.context_id,
        thread_id: dialog.thread_id,
        status: dialog.status,
        messages: Vec::new(),
        started_at: dialog.started_at.clone(),
        ended_at: dialog.ended_at.clone(),
        trace: dialog.trace.clone(),
        events: dialog.events.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DialogRole;
    use mplp_core::{ContextId, Timestamp};

    fn msg(role: DialogRole, s: &str) -> Message {
        Message::new(role, s, Timestamp::parse("2025-12-07T00:00:00Z").unwrap())
    }

    #[test]
    fn cut_keeps_the_end_of_the_border_message() {
        let cm = DefaultContextManager::new(100).with_safety_margin(0);
        let long = "x".repeat(1000) + "THE END";
        let out = cm
            .prune_messages(&[msg(DialogRole::System, "sys"), msg(DialogRole::User, &long)])
            .unwrap();
        assert_eq!(out.len(), 2);
        assert!(out[1].content.starts_with(TRUNCATED_PREFIX));
        assert!(out[1].content.ends_with("THE END"));
        let used: usize = out.iter().map(|m| EstimateCounter.count_message(m)).sum();
        assert!(used <= 100, "{used}");
        // The cut is as long as it can be: one more character would not fit.
        assert!(used >= 99, "{used}");
    }

    #[test]
    fn oversized_system_prompt_keeps_its_start() {
        let cm = DefaultContextManager::new(50).with_safety_margin(0);
        let sys = "RULES ".to_string() + &"y".repeat(1000);
        let out = cm
            .prune_messages(&[msg(DialogRole::System, &sys), msg(DialogRole::User, "hi")])
            .unwrap();
        assert_eq!(out.len(), 1);
        assert!(out[0].content.starts_with("RULES "));
        assert!(out[0].content.ends_with(TRUNCATED_SUFFIX));
        assert!(EstimateCounter.count_message(&out[0]) <= 50);
    }

    #[test]
    fn tiny_budget_is_an_error_not_an_overflow() {
        let cm = DefaultContextManager::new(3).with_safety_margin(0);
        let err = cm
            .prune_messages(&[msg(DialogRole::System, "a long system prompt")])
            .unwrap_err();
        assert!(
            matches!(err, ContextError::BudgetTooSmall { budget: 3, .. }),
            "{err}"
        );
        // The default margin exceeds a small window: the budget is 0, not a wrap-around.
        assert_eq!(DefaultContextManager::new(100).budget(), 0);
    }

    #[cfg(feature = "tiktoken")]
    #[test]
    fn tiktoken_counts_real_tokens_and_prunes_to_them() {
        let o200k = TiktokenCounter::o200k();
        let cl100k = TiktokenCounter::cl100k();
        // Known counts (OpenAI's tokenizer): "hello world" is 2 tokens in both.
        assert_eq!(o200k.count("hello world"), 2);
        assert_eq!(cl100k.count("hello world"), 2);
        // Special-token text is plain text, not a special token.
        assert!(o200k.count("<|endoftext|>") > 1);
        let mut messages = vec![msg(DialogRole::System, "You are terse.")];
        for i in 0..200 {
            messages.push(msg(
                DialogRole::User,
                &format!("message number {i}: lorem ipsum dolor sit amet"),
            ));
        }
        let cm = DefaultContextManager::with_counter(500, o200k).with_safety_margin(50);
        let out = cm.prune_messages(&messages).unwrap();
        let used: usize = out.iter().map(|m| o200k.count_message(m)).sum();
        assert!(used <= 450 && used > 400, "{used}");
        assert_eq!(out[0], messages[0]);
        assert_eq!(out.last(), messages.last());
    }

    #[test]
    fn empty_dialog_prunes_to_empty() {
        let d = Dialog::new(ContextId::new());
        let p = DefaultContextManager::new(10_000).prune(&d).unwrap();
        assert!(p.messages.is_empty());
        assert_ne!(p.dialog_id, d.dialog_id);
        assert_eq!(p.context_id, d.context_id);
    }
}
