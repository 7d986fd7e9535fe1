//! Forking dialogs, and the dialog tree that records where each fork came from.

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;

use mplp_core::{DialogId, Meta, Timestamp, Wire};

use crate::context::copy_without_messages;
use crate::dialog::{Dialog, Message};
use crate::status::DialogStatus;

impl Dialog {
    /// A child dialog branching from this one (the second seed's
    /// `fork(last_n, first_k)`): a new `dialog_id`, the same `context_id` and
    /// `thread_id`, and the first `first_k` plus the last `last_n` messages
    /// of this dialog, in order; all of them when the two ranges overlap
    /// (`first_k + last_n >= messages.len()`).
    ///
    /// The child is a new working dialog: `active`, `started_at` now, no
    /// `ended_at` and no `events`; `meta` keeps the versions and gets a new
    /// `created_at`; `governance` is copied; `trace`, if any, becomes a child
    /// span of the parent's. This dialog is not changed. Use
    /// [`DialogTree::fork`] to record the link.
    ///
    /// Unlike the seed (where `last_n = 0` means "everything", through
    /// Python's `messages[-0:]`), `last_n = 0` keeps no trailing message; use
    /// [`Dialog::fork_all`] for a full copy.
    ///
    /// Messages projected from an agent dialog (with an `agent.message`
    /// event, see [`crate::agent::project`]) keep their tool calls and
    /// results together: a call and the results after it that a range would
    /// cut are left out whole, as [`crate::agent::AgentDialog::fork`] does.
    ///
    /// ```
    /// use mplp_core::ContextId;
    /// use mplp_dialog::{Dialog, DialogRole};
    /// let mut d = Dialog::with_system_prompt(ContextId::new(), "system");
    /// for i in 1..=5 { d.add_message(DialogRole::User, format!("m{i}"))?; }
    /// let child = d.fork(2, 1);
    /// let texts: Vec<_> = child.messages().iter().map(|m| m.content.as_str()).collect();
    /// assert_eq!(texts, ["system", "m4", "m5"]);
    /// assert_ne!(child.dialog_id, d.dialog_id);
    /// assert_eq!(d.fork(3, 3).messages(), d.messages()); // overlapping: everything
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn fork(&self, last_n: usize, first_k: usize) -> Dialog {
        self.fork_kept(last_n, first_k).0
    }

    /// [`Dialog::fork`], with how many leading and trailing messages the
    /// child holds (smaller than asked when a tool-call unit is left out).
    fn fork_kept(&self, last_n: usize, first_k: usize) -> (Dialog, usize, usize) {
        let n = self.messages.len();
        let (messages, kept_first, kept_last): (Vec<Message>, usize, usize) =
            if first_k.saturating_add(last_n) >= n {
                (self.messages.clone(), first_k, last_n)
            } else {
                let mut keep: Vec<bool> = (0..n).map(|i| i < first_k || i >= n - last_n).collect();
                // Projected agent messages: a tool call and its results move as one unit.
                let starts = crate::agent::units::unit_starts(
                    n,
                    |i| {
                        agent_data(&self.messages[i])
                            .and_then(|d| d.get("function_calls"))
                            .and_then(serde_json::Value::as_array)
                            .map(|calls| {
                                calls
                                    .iter()
                                    .filter_map(|c| c.get("id").and_then(serde_json::Value::as_str))
                                    .collect()
                            })
                            .unwrap_or_default()
                    },
                    |i| {
                        let data = agent_data(&self.messages[i])?;
                        (data.get("role").and_then(serde_json::Value::as_str) == Some("tool"))
                            .then(|| data.get("tool_call_id").and_then(serde_json::Value::as_str))
                    },
                );
                crate::agent::units::keep_whole_units(&starts, &mut keep);
                let kept_first = keep.iter().take_while(|k| **k).count();
                let kept_last = keep.iter().rev().take_while(|k| **k).count();
                let messages = self
                    .messages
                    .iter()
                    .zip(&keep)
                    .filter(|(_, k)| **k)
                    .map(|(m, _)| m.clone())
                    .collect();
                (messages, kept_first, kept_last)
            };
        let now = Timestamp::now();
        let mut meta = Meta::new(
            self.meta.protocol_version.clone(),
            self.meta.schema_version.clone(),
        );
        meta.created_at = Some(now.clone());
        let child = Dialog {
            meta,
            dialog_id: DialogId::new(),
            status: DialogStatus::Active,
            messages,
            started_at: Some(now),
            ended_at: None,
            trace: self.trace.as_ref().map(|t| t.child()),
            events: None,
            ..copy_without_messages(self)
        };
        (child, kept_first, kept_last)
    }

    /// A child dialog with every message of this one (`fork` with ranges that
    /// always overlap): seed 003's `fork()` with its default arguments.
    pub fn fork_all(&self) -> Dialog {
        self.fork(usize::MAX, 0)
    }
}

/// The data of a message's `agent.message` event (a projected agent message).
fn agent_data(m: &Message) -> Option<&serde_json::Map<String, serde_json::Value>> {
    let event = m.event.as_deref()?;
    if event.event_type != crate::agent::AGENT_MESSAGE_EVENT {
        return None;
    }
    event.data.as_ref()?.as_ref().map(|d| &**d)
}

/// One dialog's place in a dialog tree: ids and structure only, no messages,
/// so a tree can be logged node by node and rebuilt from a flat list.
///
/// ```
/// use mplp_dialog::DialogTreeNode;
/// let json = r#"{"dialog_id":"36398c50-7383-4f61-b96f-4525123599da","parent_id":"72a41e16-8e66-4018-99fa-8a682d14632d","split_point":6,"first_k":1,"last_n":2,"children_ids":[]}"#;
/// let node: DialogTreeNode = serde_json::from_str(json)?;
/// assert_eq!(node.split_point, Some(6));
/// assert_eq!(serde_json::to_string(&node)?, json);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[non_exhaustive]
pub struct DialogTreeNode {
    /// The dialog this node stands for.
    pub dialog_id: DialogId,
    /// The dialog it was forked from; absent for a root.
    pub parent_id: Option<DialogId>,
    /// How many messages the parent had when the fork was made: the child
    /// branches off after the parent's message `split_point - 1`.
    pub split_point: Option<usize>,
    /// How many leading parent messages the fork kept.
    pub first_k: Option<usize>,
    /// How many trailing parent messages the fork kept.
    pub last_n: Option<usize>,
    /// The dialogs forked from this one, oldest fork first.
    #[wire(default)]
    pub children_ids: Vec<DialogId>,
    /// The agent that owns the dialog (seed 003: every dialog is owned by the
    /// agent that created it); absent when not recorded.
    pub owner: Option<String>,
}

impl DialogTreeNode {
    /// A root node.
    pub fn root(dialog_id: DialogId) -> Self {
        DialogTreeNode {
            dialog_id,
            parent_id: None,
            split_point: None,
            first_k: None,
            last_n: None,
            children_ids: Vec::new(),
            owner: None,
        }
    }

    /// The same node with an owner.
    #[must_use]
    pub fn with_owner(mut self, owner: impl Into<String>) -> Self {
        self.owner = Some(owner.into());
        self
    }

    /// True if the node has no parent.
    pub fn is_root(&self) -> bool {
        self.parent_id.is_none()
    }

    /// How many parent messages the fork copied
    /// (`min(first_k + last_n, split_point)`); `None` for a root.
    pub fn kept(&self) -> Option<usize> {
        let split = self.split_point?;
        let wanted = self
            .first_k
            .unwrap_or(0)
            .saturating_add(self.last_n.unwrap_or(0));
        Some(wanted.min(split))
    }
}

/// Why a dialog tree cannot be built or changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TreeError {
    /// The same dialog id appears in two nodes, or a fork child is already in the tree.
    #[error("dialog {0} appears more than once in the tree")]
    Duplicate(DialogId),
    /// A node names a parent that is not in the tree.
    #[error("dialog {child} names parent {parent}, which is not in the tree")]
    UnknownParent {
        /// The node.
        child: DialogId,
        /// Its missing parent.
        parent: DialogId,
    },
    /// A node's `children_ids` disagrees with its children's `parent_id`.
    #[error("dialog {0}: children_ids does not match the nodes whose parent_id names it")]
    InconsistentChildren(DialogId),
    /// Following `parent_id` from this node never reaches a root.
    #[error("dialog {0} is on a parent cycle")]
    Cycle(DialogId),
}

/// A forest of dialogs linked by forks (the second seed's dialog tree).
///
/// ```
/// use mplp_core::ContextId;
/// use mplp_dialog::{Dialog, DialogRole, DialogTree};
/// let mut root = Dialog::with_system_prompt(ContextId::new(), "system");
/// root.add_message(DialogRole::User, "hello")?;
/// let mut tree = DialogTree::new();
/// let child = tree.fork(&root, 1, 1)?;
/// let grandchild = tree.fork(&child, 0, 1)?;
/// assert_eq!(tree.parent(&grandchild.dialog_id), Some(child.dialog_id));
/// assert_eq!(tree.depth(&grandchild.dialog_id), Some(2));
///
/// // Nodes serialise on their own; the tree comes back from a flat list.
/// let lines: Vec<String> = tree.nodes().map(|n| serde_json::to_string(n).unwrap()).collect();
/// let nodes = lines.iter().map(|l| serde_json::from_str(l).unwrap());
/// assert_eq!(DialogTree::from_nodes(nodes)?, tree);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DialogTree {
    /// Invariant: every parent is in the tree, every node is reachable from
    /// a root and no node is its own ancestor (`from_nodes` checks this,
    /// `record_fork` keeps it: a child must be new). The walks up and down
    /// the tree rely on it to end.
    nodes: BTreeMap<DialogId, DialogTreeNode>,
    /// Insertion order, so `nodes()` and rendering are stable.
    order: Vec<DialogId>,
}

impl DialogTree {
    /// An empty tree.
    pub fn new() -> Self {
        DialogTree::default()
    }

    /// Adds a root; does nothing if the dialog is already in the tree.
    pub fn add_root(&mut self, dialog_id: DialogId) {
        if let std::collections::btree_map::Entry::Vacant(e) = self.nodes.entry(dialog_id) {
            e.insert(DialogTreeNode::root(dialog_id));
            self.order.push(dialog_id);
        }
    }

    /// Forks `parent` (see [`Dialog::fork`]) and records the link; the parent
    /// becomes a root if it was not in the tree. The node's `first_k` and
    /// `last_n` are the ranges asked for, or, when a tool-call unit of a
    /// projected agent dialog was left out, how many leading and trailing
    /// messages the child holds.
    pub fn fork(
        &mut self,
        parent: &Dialog,
        last_n: usize,
        first_k: usize,
    ) -> Result<Dialog, TreeError> {
        let (child, first_k, last_n) = parent.fork_kept(last_n, first_k);
        self.record_fork(
            parent.dialog_id,
            child.dialog_id,
            parent.messages.len(),
            first_k,
            last_n,
        )?;
        Ok(child)
    }

    /// Records that `child` was forked from `parent` when the parent had
    /// `split_point` messages (the parent becomes a root if unknown).
    pub fn record_fork(
        &mut self,
        parent: DialogId,
        child: DialogId,
        split_point: usize,
        first_k: usize,
        last_n: usize,
    ) -> Result<(), TreeError> {
        if self.nodes.contains_key(&child) || parent == child {
            return Err(TreeError::Duplicate(child));
        }
        self.add_root(parent);
        if let Some(p) = self.nodes.get_mut(&parent) {
            p.children_ids.push(child);
        }
        self.nodes.insert(
            child,
            DialogTreeNode {
                dialog_id: child,
                parent_id: Some(parent),
                split_point: Some(split_point),
                first_k: Some(first_k),
                last_n: Some(last_n),
                children_ids: Vec::new(),
                owner: None,
            },
        );
        self.order.push(child);
        Ok(())
    }

    /// Records the agent that owns a dialog of the tree; false (and nothing
    /// changed) when the dialog is not in the tree.
    pub fn set_owner(&mut self, dialog_id: &DialogId, owner: impl Into<String>) -> bool {
        match self.nodes.get_mut(dialog_id) {
            Some(node) => {
                node.owner = Some(owner.into());
                true
            }
            None => false,
        }
    }

    /// Rebuilds a tree from its nodes in any order, checking that every
    /// parent exists, that `children_ids` matches the `parent_id` links
    /// (same set, any order is accepted and kept) and that there is no cycle.
    pub fn from_nodes(nodes: impl IntoIterator<Item = DialogTreeNode>) -> Result<Self, TreeError> {
        let mut tree = DialogTree::new();
        for node in nodes {
            let id = node.dialog_id;
            if tree.nodes.insert(id, node).is_some() {
                return Err(TreeError::Duplicate(id));
            }
            tree.order.push(id);
        }
        let mut children: BTreeMap<DialogId, Vec<DialogId>> = BTreeMap::new();
        for node in tree.nodes.values() {
            if let Some(parent) = node.parent_id {
                if !tree.nodes.contains_key(&parent) {
                    return Err(TreeError::UnknownParent {
                        child: node.dialog_id,
                        parent,
                    });
                }
                children.entry(parent).or_default().push(node.dialog_id);
            }
        }
        for node in tree.nodes.values() {
            let mut listed = node.children_ids.clone();
            listed.sort_unstable();
            let mut linked = children.remove(&node.dialog_id).unwrap_or_default();
            linked.sort_unstable();
            if listed != linked {
                return Err(TreeError::InconsistentChildren(node.dialog_id));
            }
        }
        // Every node must be reachable from a root; the rest sit on cycles.
        let reached = tree.roots().flat_map(|r| tree.subtree_ids(&r)).count();
        if reached != tree.nodes.len() {
            let seen: std::collections::BTreeSet<DialogId> =
                tree.roots().flat_map(|r| tree.subtree_ids(&r)).collect();
            if let Some(id) = tree.order.iter().find(|id| !seen.contains(id)) {
                return Err(TreeError::Cycle(*id));
            }
        }
        Ok(tree)
    }

    /// Every node, in the order they were added.
    pub fn nodes(&self) -> impl Iterator<Item = &DialogTreeNode> {
        self.order.iter().filter_map(|id| self.nodes.get(id))
    }

    /// The node of a dialog.
    pub fn node(&self, dialog_id: &DialogId) -> Option<&DialogTreeNode> {
        self.nodes.get(dialog_id)
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the tree has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The roots, in the order they were added.
    pub fn roots(&self) -> impl Iterator<Item = DialogId> + '_ {
        self.nodes().filter(|n| n.is_root()).map(|n| n.dialog_id)
    }

    /// The parent of a dialog.
    pub fn parent(&self, dialog_id: &DialogId) -> Option<DialogId> {
        self.nodes.get(dialog_id)?.parent_id
    }

    /// The direct children of a dialog (empty if unknown).
    pub fn children(&self, dialog_id: &DialogId) -> &[DialogId] {
        self.nodes
            .get(dialog_id)
            .map_or(&[], |n| n.children_ids.as_slice())
    }

    /// The number of forks between a dialog and its root (0 for a root).
    pub fn depth(&self, dialog_id: &DialogId) -> Option<usize> {
        let mut node = self.nodes.get(dialog_id)?;
        let mut depth = 0;
        // No cycle (see the type's invariant): the walk ends at a root.
        while let Some(parent) = node.parent_id {
            node = self.nodes.get(&parent)?;
            depth += 1;
        }
        Some(depth)
    }

    /// Breadth-first: the dialog and every dialog forked from it, directly or not.
    pub fn subtree_ids(&self, dialog_id: &DialogId) -> Vec<DialogId> {
        let mut out = Vec::new();
        if !self.nodes.contains_key(dialog_id) {
            return out;
        }
        let mut queue = VecDeque::from([*dialog_id]);
        // No cycle and one parent per node: each node is queued once.
        while let Some(id) = queue.pop_front() {
            out.push(id);
            queue.extend(self.children(&id).iter().copied());
        }
        out
    }

    /// The tree as indented text, one line per dialog:
    ///
    /// ```text
    /// 15f77d14-fcf2-4b5f-89f7-a46b0c50c26e
    /// └─ 36398c50-7383-4f61-b96f-4525123599da split@3 kept=3 (first_k=1, last_n=5)
    ///    └─ 72a41e16-8e66-4018-99fa-8a682d14632d split@4 kept=3 (first_k=1, last_n=2)
    /// ```
    pub fn render(&self) -> String {
        let mut out = String::new();
        for root in self.roots() {
            self.render_node(&root, "", None, &mut out);
        }
        out
    }

    fn render_node(&self, id: &DialogId, prefix: &str, last: Option<bool>, out: &mut String) {
        let Some(node) = self.nodes.get(id) else {
            return;
        };
        let (branch, child_prefix) = match last {
            None => ("", String::new()),
            Some(true) => ("└─ ", format!("{prefix}   ")),
            Some(false) => ("├─ ", format!("{prefix}│  ")),
        };
        let _ = write!(out, "{prefix}{branch}{}", node.dialog_id);
        if let Some(owner) = &node.owner {
            let _ = write!(out, " owner={owner}");
        }
        if let (Some(split), Some(kept)) = (node.split_point, node.kept()) {
            let _ = write!(
                out,
                " split@{split} kept={kept} (first_k={}, last_n={})",
                node.first_k.unwrap_or(0),
                node.last_n.unwrap_or(0)
            );
        }
        out.push('\n');
        let children = &node.children_ids;
        // No cycle: the recursion is as deep as the tree.
        for (i, child) in children.iter().enumerate() {
            self.render_node(child, &child_prefix, Some(i + 1 == children.len()), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> DialogId {
        s.parse().unwrap()
    }

    #[test]
    fn render_draws_branches() {
        let (a, b, c, d) = (
            id("15f77d14-fcf2-4b5f-89f7-a46b0c50c26e"),
            id("36398c50-7383-4f61-b96f-4525123599da"),
            id("72a41e16-8e66-4018-99fa-8a682d14632d"),
            id("6f145f09-f3b3-47fc-995d-d3cb428046ca"),
        );
        let mut t = DialogTree::new();
        t.record_fork(a, b, 3, 1, 5).unwrap();
        t.record_fork(b, c, 4, 1, 2).unwrap();
        t.record_fork(a, d, 3, 0, 0).unwrap();
        assert_eq!(
            t.render(),
            "15f77d14-fcf2-4b5f-89f7-a46b0c50c26e\n\
             ├─ 36398c50-7383-4f61-b96f-4525123599da split@3 kept=3 (first_k=1, last_n=5)\n\
             │  └─ 72a41e16-8e66-4018-99fa-8a682d14632d split@4 kept=3 (first_k=1, last_n=2)\n\
             └─ 6f145f09-f3b3-47fc-995d-d3cb428046ca split@3 kept=0 (first_k=0, last_n=0)\n"
        );
        assert_eq!(t.subtree_ids(&a), [a, b, d, c]);
    }

    #[test]
    fn from_nodes_refuses_broken_lists() {
        let (a, b) = (
            id("15f77d14-fcf2-4b5f-89f7-a46b0c50c26e"),
            id("36398c50-7383-4f61-b96f-4525123599da"),
        );
        let mut orphan = DialogTreeNode::root(b);
        orphan.parent_id = Some(a);
        assert_eq!(
            DialogTree::from_nodes([orphan.clone()]),
            Err(TreeError::UnknownParent {
                child: b,
                parent: a
            })
        );
        // Parent exists but does not list the child.
        assert_eq!(
            DialogTree::from_nodes([DialogTreeNode::root(a), orphan.clone()]),
            Err(TreeError::InconsistentChildren(a))
        );
        // A two-node cycle.
        let mut na = DialogTreeNode::root(a);
        na.parent_id = Some(b);
        na.children_ids = vec![b];
        let mut nb = orphan;
        nb.children_ids = vec![a];
        assert_eq!(DialogTree::from_nodes([na, nb]), Err(TreeError::Cycle(a)));
        assert_eq!(
            DialogTree::from_nodes([DialogTreeNode::root(a), DialogTreeNode::root(a)]),
            Err(TreeError::Duplicate(a))
        );
    }
}
