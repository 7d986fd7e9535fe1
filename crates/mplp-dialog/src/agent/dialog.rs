//! [`AgentDialog`]: the working dialog of an agent runtime.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mplp_core::{ContextId, DialogId, Error, EventId, Timestamp, Violation};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::cost::{Cost, PricingTable, Usage};
use super::message::{AgentMessage, AgentRole, Content, ImageSource, Part};
use super::prompt::{Prompt, PromptError};
use crate::dialog::{DIALOG_NOT_ACTIVE, Dialog};
use crate::status::DialogStatus;
use crate::tree::DialogTreeNode;

/// Why an [`AgentDialog`] operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AgentError {
    /// The prompt could not be rendered.
    #[error(transparent)]
    Prompt(#[from] PromptError),
    /// The dialog's state or the document refuses the operation.
    #[error(transparent)]
    Dialog(#[from] Error),
}

/// How [`AgentDialog::put_text`], [`AgentDialog::put_prompt`] and
/// [`AgentDialog::put_image`] stamp the message: role (`user` by default),
/// sender name and metadata.
///
/// ```
/// use mplp_dialog::agent::{AgentRole, Put};
/// let put = Put::new().role(AgentRole::System).name("coder").meta("step", 3);
/// # let _ = put;
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[must_use]
pub struct Put {
    role: Option<AgentRole>,
    name: Option<String>,
    metadata: BTreeMap<String, Value>,
}

impl Put {
    /// A `user` message without name or metadata.
    pub fn new() -> Self {
        Put::default()
    }

    /// The message's role.
    pub fn role(mut self, role: AgentRole) -> Self {
        self.role = Some(role);
        self
    }

    /// The sender's name.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// One metadata entry.
    pub fn meta(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }

    fn message(self, content: Content) -> AgentMessage {
        let mut m = AgentMessage::new(self.role.unwrap_or(AgentRole::User), content);
        m.name = self.name;
        m.metadata = self.metadata;
        m
    }
}

/// A dialog that an agent runtime can live in (seed 003's `Dialog`): rich
/// [`AgentMessage`]s, an owner, the name of the prompt that governs the next
/// turn, a node in the dialog tree, and the MPLP Dialog header (ids, status,
/// times, governance, trace, events) it projects to.
///
/// ```
/// use mplp_core::ContextId;
/// use mplp_dialog::agent::{AgentDialog, AgentMessage, FunctionCall, Put, TemplatePrompt};
///
/// let mut d = AgentDialog::new(ContextId::new(), "coder", "You are a careful coder.");
/// let ask = TemplatePrompt::new("task", "Fix {bug}.");
/// d.put_prompt(&ask, serde_json::json!({"bug": "the login"}).as_object().unwrap(), Put::new())?;
/// let call = FunctionCall::new("call_1", "read_file", serde_json::json!({"path": "login.rs"}))?;
/// d.append(AgentMessage::tool_calls("", vec![call.clone()]))?;
/// d.append(AgentMessage::tool_result(&call, "fn login() {}", false))?;
///
/// assert_eq!(d.owner(), Some("coder"));
/// assert_eq!(d.top_prompt(), Some("task"));
/// assert_eq!(d.head().unwrap().text_content(), "You are a careful coder.");
/// assert_eq!(d.tail().unwrap().tool_call_id.as_deref(), Some("call_1"));
///
/// // Lossless JSON, and an exact MPLP projection.
/// let json = serde_json::to_string(&d)?;
/// assert_eq!(serde_json::from_str::<AgentDialog>(&json)?, d);
/// let mplp = d.to_mplp();
/// assert_eq!(AgentDialog::from_mplp(&mplp)?.dialog, d);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "AgentDialogRepr", into = "AgentDialogRepr")]
pub struct AgentDialog {
    /// The MPLP Dialog without messages (invariant: `messages` is empty).
    pub(crate) header: Dialog,
    /// This dialog's node (invariant: `dialog_id` is the header's).
    pub(crate) node: DialogTreeNode,
    pub(crate) top_prompt: Option<String>,
    pub(crate) messages: Vec<AgentMessage>,
}

/// The JSON form of an [`AgentDialog`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentDialogRepr {
    /// The MPLP header: a Dialog document whose `messages` is empty.
    dialog: Dialog,
    tree_node: DialogTreeNode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    top_prompt: Option<String>,
    messages: Vec<AgentMessage>,
}

impl TryFrom<AgentDialogRepr> for AgentDialog {
    type Error = String;
    fn try_from(r: AgentDialogRepr) -> Result<Self, String> {
        if !r.dialog.messages.is_empty() {
            return Err("`dialog.messages` must be empty: an agent dialog's messages are in its own `messages`".to_owned());
        }
        if r.tree_node.dialog_id != r.dialog.dialog_id {
            return Err(format!(
                "`tree_node.dialog_id` ({}) is not `dialog.dialog_id` ({})",
                r.tree_node.dialog_id, r.dialog.dialog_id
            ));
        }
        Ok(AgentDialog {
            header: r.dialog,
            node: r.tree_node,
            top_prompt: r.top_prompt,
            messages: r.messages,
        })
    }
}

impl From<AgentDialog> for AgentDialogRepr {
    fn from(d: AgentDialog) -> Self {
        AgentDialogRepr {
            dialog: d.header,
            tree_node: d.node,
            top_prompt: d.top_prompt,
            messages: d.messages,
        }
    }
}

impl AgentDialog {
    /// A new, `active` dialog owned by `owner`, seeded with its system prompt
    /// (the seed's `Agent.open`): `meta.created_by` is the owner, the tree
    /// node is a root.
    pub fn new(context_id: ContextId, owner: impl Into<String>, system: impl Into<String>) -> Self {
        let mut d = AgentDialog::empty(context_id, owner);
        let at = d.header.started_at.clone().unwrap_or_else(Timestamp::now);
        let mut m = AgentMessage::at(AgentRole::System, Content::Text(system.into()), at);
        m.name = d.node.owner.clone();
        d.messages.push(m);
        d
    }

    /// A new, `active` dialog owned by `owner`, without messages.
    pub fn empty(context_id: ContextId, owner: impl Into<String>) -> Self {
        let owner = owner.into();
        let mut header = Dialog::new(context_id);
        header.meta.created_by = Some(owner.as_str().into());
        let node = DialogTreeNode::root(header.dialog_id).with_owner(owner);
        AgentDialog {
            header,
            node,
            top_prompt: None,
            messages: Vec::new(),
        }
    }

    /// The dialog's id.
    pub fn dialog_id(&self) -> DialogId {
        self.header.dialog_id
    }

    /// The context the dialog belongs to.
    pub fn context_id(&self) -> ContextId {
        self.header.context_id
    }

    /// The agent that owns the dialog.
    pub fn owner(&self) -> Option<&str> {
        self.node.owner.as_deref()
    }

    /// The MPLP Dialog header: ids, status, times, governance, trace and
    /// events (its `messages` is always empty; see [`AgentDialog::to_mplp`]).
    pub fn header(&self) -> &Dialog {
        &self.header
    }

    /// The lifecycle status.
    pub fn status(&self) -> DialogStatus {
        self.header.status
    }

    /// Changes the status (see [`Dialog::transition_at`]).
    pub fn transition_at(&mut self, to: DialogStatus, at: Timestamp) -> Result<(), Error> {
        self.header.transition_at(to, at)
    }

    /// This dialog's node in the dialog tree (ids, owner, fork ranges, children).
    pub fn tree_node(&self) -> &DialogTreeNode {
        &self.node
    }

    /// The name of the prompt that governs the next turn (the seed's
    /// `top_prompt`, kept by name so that it serialises; look it up in a
    /// [`PromptRegistry`](super::PromptRegistry)).
    pub fn top_prompt(&self) -> Option<&str> {
        self.top_prompt.as_deref()
    }

    /// The messages, oldest first.
    pub fn messages(&self) -> &[AgentMessage] {
        &self.messages
    }

    /// The first message (the system prompt), if any.
    pub fn head(&self) -> Option<&AgentMessage> {
        self.messages.first()
    }

    /// The last message, if any.
    pub fn tail(&self) -> Option<&AgentMessage> {
        self.messages.last()
    }

    /// Appends a message as given. Only an `active` dialog takes messages
    /// (rule `dialog_not_active`, as [`Dialog::push_message`]).
    pub fn append(&mut self, message: AgentMessage) -> Result<&AgentMessage, Error> {
        self.ensure_active()?;
        let i = self.messages.len();
        self.messages.push(message);
        Ok(&self.messages[i])
    }

    /// Renders `prompt` with `args`, appends the message and makes `prompt`
    /// the top prompt (the seed's stateful `put_prompt`).
    pub fn put_prompt(
        &mut self,
        prompt: &dyn Prompt,
        args: &Map<String, Value>,
        put: Put,
    ) -> Result<&AgentMessage, AgentError> {
        let text = prompt.render(args)?;
        self.ensure_active()?;
        self.top_prompt = Some(prompt.name().to_owned());
        Ok(self.append(put.message(Content::Text(text)))?)
    }

    /// Appends raw text and clears the top prompt (the seed's stateless
    /// `put_text`: the next turn has no parser and no tools).
    pub fn put_text(&mut self, text: impl Into<String>, put: Put) -> Result<&AgentMessage, Error> {
        self.ensure_active()?;
        self.top_prompt = None;
        self.append(put.message(Content::Text(text.into())))
    }

    /// Appends an image, with a caption if given, and clears the top prompt
    /// (the seed's `put_image`). The message's parts are the image, then the
    /// caption.
    pub fn put_image(
        &mut self,
        image: ImageSource,
        caption: Option<&str>,
        put: Put,
    ) -> Result<&AgentMessage, Error> {
        self.ensure_active()?;
        self.top_prompt = None;
        let mut parts = vec![Part::Image { source: image }];
        if let Some(c) = caption {
            parts.push(Part::Text { text: c.to_owned() });
        }
        self.append(put.message(Content::Parts(parts)))
    }

    fn ensure_active(&self) -> Result<(), Error> {
        if self.header.status == DialogStatus::Active {
            Ok(())
        } else {
            Err(Error::State(Violation::error(
                "/status",
                DIALOG_NOT_ACTIVE,
                format!(
                    "cannot add a message to a {} dialog: only an active dialog accepts new messages",
                    self.header.status
                ),
            )))
        }
    }

    /// Every message's usage added up.
    pub fn usage(&self) -> Usage {
        self.messages.iter().filter_map(|m| m.usage).sum()
    }

    /// The cost of the dialog at these prices (the seed's `dialog.cost`):
    /// usage by model, and the dollars of the priced part.
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::agent::{AgentDialog, AgentMessage, AgentRole, Price, PricingTable, Usage};
    /// let mut d = AgentDialog::new(ContextId::new(), "a", "sys");
    /// d.append(AgentMessage::text(AgentRole::Assistant, "x").with_usage("m1", Usage::new(1_000_000, 0)))?;
    /// d.append(AgentMessage::text(AgentRole::Assistant, "y").with_usage("m2", Usage::new(10, 10)))?;
    /// let mut prices = PricingTable::new();
    /// prices.insert("m1", Price::new(3.0, 15.0));
    /// let cost = d.cost(&prices);
    /// assert!((cost.dollars - 3.0).abs() < 1e-9);
    /// assert_eq!(cost.usage.total_tokens(), 1_000_020);
    /// assert!(cost.unpriced.contains("m2"));
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn cost(&self, prices: &PricingTable) -> Cost {
        let mut cost = Cost::default();
        for m in &self.messages {
            if let Some(u) = &m.usage {
                cost.add(m.model.as_deref(), u, prices);
            }
        }
        cost
    }

    /// A child dialog (the seed's `fork(last_n, first_k)`): the first
    /// `first_k` and the last `last_n` messages (all of them when the ranges
    /// overlap; `last_n = 0` keeps no trailing message, as
    /// [`Dialog::fork`]; [`AgentDialog::fork_all`] is the seed's full copy),
    /// copied with new ids. A tool call and its results move as one unit: a
    /// unit that a range would cut is left out whole, so the fork never holds
    /// more than asked and providers take it whenever they take this dialog;
    /// the node's `first_k` and `last_n` say how many leading and trailing
    /// messages the fork holds; a new `active` header (see
    /// [`Dialog::fork`]) with the same owner and top prompt; a tree node whose
    /// parent is this dialog. This dialog records the child in its node's
    /// `children_ids`.
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::agent::{AgentDialog, Put};
    /// let mut d = AgentDialog::new(ContextId::new(), "coder", "sys");
    /// for i in 1..=5 { d.put_text(format!("m{i}"), Put::new())?; }
    /// let child = d.fork(2, 1);
    /// let texts: Vec<_> = child.messages().iter().map(|m| m.text_content()).collect();
    /// assert_eq!(texts, ["sys", "m4", "m5"]);
    /// assert_eq!(child.tree_node().parent_id, Some(d.dialog_id()));
    /// assert_eq!(child.tree_node().split_point, Some(6));
    /// assert_eq!(child.owner(), Some("coder"));
    /// assert_eq!(d.tree_node().children_ids, [child.dialog_id()]);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn fork(&mut self, last_n: usize, first_k: usize) -> AgentDialog {
        let n = self.messages.len();
        let mut keep: Vec<bool> = if first_k.saturating_add(last_n) >= n {
            vec![true; n]
        } else {
            (0..n).map(|i| i < first_k || i >= n - last_n).collect()
        };
        super::units::keep_whole_units(&super::units::agent_unit_starts(&self.messages), &mut keep);
        // What the fork holds: its leading and trailing runs of parent messages.
        let first_kept = keep.iter().take_while(|k| **k).count();
        let last_kept = if first_kept == n {
            0
        } else {
            keep.iter().rev().take_while(|k| **k).count()
        };
        let messages = self
            .messages
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(m, _)| AgentMessage {
                id: EventId::new(),
                ..m.clone()
            })
            .collect();
        let mut header = self.header.fork(0, 0);
        header
            .meta
            .created_by
            .clone_from(&self.header.meta.created_by);
        let mut node = DialogTreeNode::root(header.dialog_id);
        node.parent_id = Some(self.header.dialog_id);
        node.split_point = Some(n);
        node.first_k = Some(first_kept);
        node.last_n = Some(last_kept);
        node.owner.clone_from(&self.node.owner);
        self.node.children_ids.push(header.dialog_id);
        AgentDialog {
            header,
            node,
            top_prompt: self.top_prompt.clone(),
            messages,
        }
    }

    /// A child dialog with every message (seed 003's `fork()` with its
    /// default arguments: a full copy). The same as [`AgentDialog::fork`]
    /// with ranges that always overlap; the node records `first_k` = the
    /// message count and `last_n` = 0.
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::agent::{AgentDialog, Put};
    /// let mut d = AgentDialog::new(ContextId::new(), "coder", "sys");
    /// d.put_text("hello", Put::new())?;
    /// let copy = d.fork_all();
    /// assert_eq!(copy.messages().len(), 2);
    /// assert_eq!(copy.tree_node().parent_id, Some(d.dialog_id()));
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn fork_all(&mut self) -> AgentDialog {
        self.fork(usize::MAX, 0)
    }

    /// Why the providers would refuse this dialog's tool calls and results,
    /// naming the first message that breaks a rule (both converters check
    /// this first): call ids non-empty and unique; function calls only on
    /// assistant, agent and tool-call messages; each call answered by the
    /// tool results right after its message; each result answering a call
    /// of the message that opens its run, once.
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::ConvertError;
    /// use mplp_dialog::agent::{AgentDialog, AgentMessage, FunctionCall, Put};
    /// let mut d = AgentDialog::new(ContextId::new(), "coder", "sys");
    /// let call = FunctionCall::new("call_1", "f", serde_json::json!({}))?;
    /// d.append(AgentMessage::tool_calls("", vec![call.clone()]))?;
    /// d.put_text("are you there?", Put::new())?;
    /// assert!(matches!(d.check_tool_pairing(), Err(ConvertError::UnansweredToolCall { index: 1, before: Some(2), .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_tool_pairing(&self) -> Result<(), crate::ConvertError> {
        super::units::check_tool_pairing(&self.messages)
    }

    /// A human-readable summary (the seed's `overview()`): a header line,
    /// one line per message (role, name, model, text cut to one line, images,
    /// tool calls and results, usage), and the total usage.
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::agent::{AgentDialog, Put};
    /// let mut d = AgentDialog::new(ContextId::new(), "coder", "Be brief.");
    /// d.put_text("Hi", Put::new().name("ada"))?;
    /// let text = d.overview();
    /// assert!(text.contains("owner=coder"));
    /// assert!(text.contains("#1 user (ada): Hi"));
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn overview(&self) -> String {
        let mut out = String::new();
        let n = self.messages.len();
        let _ = write!(
            out,
            "dialog {} owner={} [{}], {n} message{}",
            self.header.dialog_id,
            self.owner().unwrap_or("?"),
            self.header.status,
            if n == 1 { "" } else { "s" }
        );
        if let Some(p) = &self.top_prompt {
            let _ = write!(out, ", top prompt {p}");
        }
        out.push('\n');
        for (i, m) in self.messages.iter().enumerate() {
            let _ = writeln!(out, "#{i} {}", m.summary());
        }
        let u = self.usage();
        if u != Usage::default() {
            let _ = writeln!(
                out,
                "usage: {} in, {} out tokens",
                u.input_tokens, u.output_tokens
            );
        }
        out
    }
}
