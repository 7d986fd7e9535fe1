//! The exact projection of an [`AgentDialog`] to an MPLP Dialog document, and
//! back.
//!
//! An MPLP message is only `role`, `content` (a string), `timestamp` and an
//! optional base `event`, whose `data` may be any JSON object. The projection
//! writes what the message schema can hold into its fields and everything
//! else into one base event per message, so the document always passes the
//! canonical schema and nothing is lost:
//!
//! | agent dialog | MPLP Dialog |
//! |---|---|
//! | header (meta, governance, ids, thread, status, times, trace, events) | the same members |
//! | message `role` | `messages[i].role`: `system`, `user`, `assistant`, `agent` as is; `tool_call` → `assistant`; `tool` → `agent` (and exactly in `event.data.role`) |
//! | message text (`Content::Text`) | `messages[i].content` |
//! | message parts (`Content::Parts`) | `content`: the text parts joined by `\n`; the parts in `event.data.content` |
//! | message `timestamp` | `messages[i].timestamp` and `event.timestamp` |
//! | message `id` | `messages[i].event.event_id` |
//! | `name`, `function_calls`, `tool_call_id`, `is_error`, `parsed`, `usage`, `model`, `metadata` | the same members of `event.data` |
//! | a message's foreign base event ([`AgentMessage::event`]) | `event.data.event` |
//! | tool calls and results | also `event.data.tool_events`: MPLP integration tool events ([`ToolEvent`]), derived, not read back |
//! | owner, tree node, top prompt | one `agent.dialog` base event, last in `events` (`event_id` = the dialog id) |
//!
//! Every message event has `event_type` [`AGENT_MESSAGE_EVENT`] and `source`
//! [`AGENT_EVENT_SOURCE`]. Reading back ([`AgentDialog::from_mplp`]) uses
//! the event data wherever it exists, so `from_mplp(to_mplp(d)) == d` for
//! every agent dialog. A plain MPLP dialog (messages without these events)
//! is read too: each message becomes a text message of its role with a new
//! id (and its event, if any, is kept), reported as warnings.

use mplp_core::rules::Source;
use std::collections::BTreeMap;

use mplp_core::{
    BaseEvent, EventId, EventType, JsonObject, NonEmptyString, Pointer, Report, Timestamp,
    Violation,
};
use serde_json::{Map, Value};

use mplp_events::integration::{RunStatus, ToolEvent, ToolKind};

use super::dialog::AgentDialog;
use super::message::{AgentMessage, AgentRole, Content, InvocationId};
use crate::dialog::{Dialog, DialogRole, Message};
use crate::tree::DialogTreeNode;

/// `event_type` of the base event that carries a message's agent fields.
pub const AGENT_MESSAGE_EVENT: EventType = EventType::from_static("agent.message");
/// `event_type` of the base event (in the dialog's `events`) that carries
/// the owner, the tree node and the top prompt.
pub const AGENT_DIALOG_EVENT: EventType = EventType::from_static("agent.dialog");
/// `source` of both events.
pub const AGENT_EVENT_SOURCE: &str = "dialog.agent";

const AGENT: Source = Source::Sdk {
    note: "mplp-dialog: 8. Agent dialogs (issue 13)",
};

mplp_core::declare_rules! {
    /// The rules of reading an MPLP dialog as an agent dialog (listed by [`crate::rules::rules`]).
    pub(crate) const RULES;

    /// Rule id (error): an `agent.message` event's data is not an agent message.
    pub const AGENT_MESSAGE_DATA_INVALID = "agent_message_data_invalid" {
        strict: Error,
        scope: Api,
        source: AGENT,
        summary: "reading an MPLP dialog as an agent dialog: an `agent.message` event's data is not an agent message",
    }

    /// Rule id (error): the `agent.dialog` event's data is not a tree node and top prompt.
    pub const AGENT_DIALOG_DATA_INVALID = "agent_dialog_data_invalid" {
        strict: Error,
        scope: Api,
        source: AGENT,
        summary: "reading an MPLP dialog as an agent dialog: the `agent.dialog` event's data is not a tree node and top prompt",
    }

    /// Rule id (warning): a message without an `agent.message` event was read as
    /// a plain text message with a new id.
    pub const AGENT_PLAIN_MESSAGE = "agent_plain_message" {
        strict: Warning,
        scope: Api,
        source: AGENT,
        summary: "reading an MPLP dialog as an agent dialog: a message without an `agent.message` event becomes a text message with a new id",
    }

    /// Rule id (warning): a message's `role` is not the projection of its
    /// event's `data.role` (the event's role is used).
    pub const AGENT_ROLE_MISMATCH = "agent_role_mismatch" {
        strict: Warning,
        scope: Api,
        source: AGENT,
        summary: "reading an MPLP dialog as an agent dialog: a message's role is not the projection of its event's role",
    }

    /// Rule id (warning): the dialog has no `agent.dialog` event: the owner is
    /// taken from `meta.created_by` and the dialog is a tree root.
    pub const AGENT_DIALOG_STATE_MISSING = "agent_dialog_state_missing" {
        strict: Warning,
        scope: Api,
        source: AGENT,
        summary: "reading an MPLP dialog as an agent dialog: no `agent.dialog` event (owner from `meta.created_by`, a tree root)",
    }
}

/// How long a tool event's `output_summary` may be, in characters.
pub const TOOL_SUMMARY_CHARS: usize = 200;

/// The MPLP role a message of `role` is written with.
pub fn mplp_role(role: AgentRole) -> DialogRole {
    match role {
        AgentRole::System => DialogRole::System,
        AgentRole::User => DialogRole::User,
        AgentRole::Assistant | AgentRole::ToolCall => DialogRole::Assistant,
        AgentRole::Tool | AgentRole::Agent => DialogRole::Agent,
    }
}

/// The agent role of a plain MPLP message (no `agent.message` event).
fn agent_role(role: DialogRole) -> AgentRole {
    match role {
        DialogRole::System => AgentRole::System,
        DialogRole::User => AgentRole::User,
        DialogRole::Assistant => AgentRole::Assistant,
        DialogRole::Agent => AgentRole::Agent,
    }
}

/// An MPLP dialog read as an agent dialog, with what the reading noticed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct FromMplp {
    /// The agent dialog.
    pub dialog: AgentDialog,
    /// Warnings: plain messages, a missing `agent.dialog` event, role
    /// disagreements (empty for a dialog written by [`AgentDialog::to_mplp`]).
    pub report: Report,
}

/// A requested call, as the tool result that answers it needs it.
struct Requested<'a> {
    name: &'a NonEmptyString,
    invocation_id: InvocationId,
    at: &'a Timestamp,
}

impl AgentDialog {
    /// The MPLP Dialog document of this agent dialog (see the [module
    /// docs](self) for the mapping). It always passes the canonical schema
    /// and the Dialog rules that are errors.
    pub fn to_mplp(&self) -> Dialog {
        let mut calls: BTreeMap<&str, Requested<'_>> = BTreeMap::new();
        let mut messages = Vec::with_capacity(self.messages.len());
        for m in &self.messages {
            for c in &m.function_calls {
                calls.insert(
                    &c.id,
                    Requested {
                        name: &c.name,
                        invocation_id: c.invocation_id,
                        at: &m.timestamp,
                    },
                );
            }
            messages.push(project_message(m, &calls));
        }
        let mut header = self.header.clone();
        let mut state = JsonObject::new();
        state.insert("tree_node", to_value(&self.node));
        if let Some(p) = &self.top_prompt {
            state.insert("top_prompt", p.clone());
        }
        if header.events.is_none() {
            state.insert("no_events", true);
        }
        let at = header
            .started_at
            .clone()
            .or_else(|| header.meta.created_at.clone())
            .or_else(|| self.messages.first().map(|m| m.timestamp.clone()))
            .unwrap_or_else(Timestamp::now);
        let mut event = BaseEvent::new(AGENT_DIALOG_EVENT, AGENT_EVENT_SOURCE).with_data(state);
        event.event_id = same_uuid(header.dialog_id);
        event.timestamp = at;
        header.events.get_or_insert_with(Vec::new).push(event);
        header.messages = messages;
        header
    }

    /// Reads an MPLP Dialog: exactly the agent dialog [`AgentDialog::to_mplp`]
    /// wrote, or a plain dialog's messages as text messages (see the [module
    /// docs](self)). Fails, with every problem, when an agent event's data
    /// is not what the projection writes.
    pub fn from_mplp(dialog: &Dialog) -> Result<FromMplp, mplp_core::Error> {
        let mut report = Report::new();
        let mut header = dialog.clone();
        let mut messages = Vec::with_capacity(dialog.messages.len());
        for (i, m) in dialog.messages.iter().enumerate() {
            let at = Pointer::root().key("messages").index(i);
            if let Some(msg) = read_message(m, &at, &mut report) {
                messages.push(msg);
            }
        }
        header.messages = Vec::new();
        let mut node = None;
        let mut top_prompt = None;
        if let Some(events) = &mut header.events {
            let found = events.iter().rposition(|e| {
                e.event_type == AGENT_DIALOG_EVENT && e.source == AGENT_EVENT_SOURCE
            });
            if let Some(k) = found {
                let event = events.remove(k);
                let at = Pointer::root().key("events").index(k).key("data");
                match read_state(&event, dialog) {
                    Ok((n, p, no_events)) => {
                        node = Some(n);
                        top_prompt = p;
                        if no_events && events.is_empty() {
                            header.events = None;
                        }
                    }
                    Err(why) => report.error(at, AGENT_DIALOG_DATA_INVALID, why),
                }
            }
        }
        let node = match node {
            Some(n) => n,
            None => {
                if report.is_valid() {
                    report.warn(
                        "/events",
                        AGENT_DIALOG_STATE_MISSING,
                        "no agent.dialog event: the owner is taken from meta.created_by and the dialog is a tree root",
                    );
                }
                let mut n = DialogTreeNode::root(dialog.dialog_id);
                n.owner = dialog.meta.created_by.as_deref().map(str::to_owned);
                n
            }
        };
        let errors: Vec<Violation> = report.errors().cloned().collect();
        if !errors.is_empty() {
            return Err(mplp_core::Error::Invalid(errors));
        }
        Ok(FromMplp {
            dialog: AgentDialog {
                header,
                node,
                top_prompt,
                messages,
            },
            report,
        })
    }
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The [`EventId`] with the same UUID as a dialog id.
fn same_uuid(id: mplp_core::DialogId) -> EventId {
    EventId::parse(&id.to_string()).unwrap_or_else(|_| EventId::new())
}

fn project_message(m: &AgentMessage, calls: &BTreeMap<&str, Requested<'_>>) -> Message {
    let mut data = match to_value(m) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    data.remove("id");
    data.remove("timestamp");
    if matches!(m.content, Content::Text(_)) {
        data.remove("content");
    }
    let tool_events = tool_events(m, calls);
    if !tool_events.is_empty() {
        data.insert(
            "tool_events".to_owned(),
            Value::Array(tool_events.iter().map(to_value).collect()),
        );
    }
    let mut event =
        BaseEvent::new(AGENT_MESSAGE_EVENT, AGENT_EVENT_SOURCE).with_data(JsonObject::from(data));
    event.event_id = m.id;
    event.timestamp = m.timestamp.clone();
    Message::new(mplp_role(m.role), m.content.text(), m.timestamp.clone()).with_event(event)
}

fn tool_events(m: &AgentMessage, calls: &BTreeMap<&str, Requested<'_>>) -> Vec<ToolEvent> {
    let mut out: Vec<ToolEvent> = m
        .function_calls
        .iter()
        .map(|c| {
            let mut e = ToolEvent::new(c.name.clone(), ToolKind::Other, RunStatus::Pending);
            e.invocation_id = c.invocation_id;
            e
        })
        .collect();
    if m.role == AgentRole::Tool {
        if let Some(call) = m.tool_call_id.as_deref().and_then(|id| calls.get(id)) {
            let status = if m.is_error {
                RunStatus::Failed
            } else {
                RunStatus::Succeeded
            };
            let mut e = ToolEvent::new(call.name.clone(), ToolKind::Other, status);
            e.invocation_id = call.invocation_id;
            e.started_at = Some(call.at.clone());
            e.completed_at = Some(m.timestamp.clone());
            e.output_summary = Some(m.content.text().chars().take(TOOL_SUMMARY_CHARS).collect());
            out.push(e);
        }
    }
    out
}

fn read_message(m: &Message, at: &Pointer, report: &mut Report) -> Option<AgentMessage> {
    let ours = m
        .event
        .as_deref()
        .filter(|e| e.event_type == AGENT_MESSAGE_EVENT && e.source == AGENT_EVENT_SOURCE);
    let Some(event) = ours else {
        report.warn(
            at.key("event").to_string(),
            AGENT_PLAIN_MESSAGE,
            "no agent.message event: read as a text message with a new id",
        );
        let mut msg = AgentMessage::at(
            agent_role(m.role),
            Content::Text(m.content.clone()),
            m.timestamp.clone(),
        );
        msg.event.clone_from(&m.event);
        return Some(msg);
    };
    let mut data = match &event.data {
        Some(Some(obj)) => obj.clone().into_map(),
        _ => Map::new(),
    };
    data.remove("tool_events");
    data.insert("id".to_owned(), to_value(&event.event_id));
    data.insert("timestamp".to_owned(), to_value(&m.timestamp));
    data.entry("content")
        .or_insert_with(|| Value::String(m.content.clone()));
    match serde_json::from_value::<AgentMessage>(Value::Object(data)) {
        Ok(msg) => {
            if mplp_role(msg.role) != m.role {
                report.warn(
                    at.key("role").to_string(),
                    AGENT_ROLE_MISMATCH,
                    format!(
                        "role {} is not the projection of the event's role {} ({}); the event's role is used",
                        m.role,
                        msg.role,
                        mplp_role(msg.role)
                    ),
                );
            }
            Some(msg)
        }
        Err(e) => {
            report.error(
                at.key("event").key("data").to_string(),
                AGENT_MESSAGE_DATA_INVALID,
                format!("the agent.message event's data is not an agent message: {e}"),
            );
            None
        }
    }
}

fn read_state(
    event: &BaseEvent,
    dialog: &Dialog,
) -> Result<(DialogTreeNode, Option<String>, bool), String> {
    let Some(Some(data)) = &event.data else {
        return Err("the agent.dialog event has no data".to_owned());
    };
    let node: DialogTreeNode = match data.get("tree_node") {
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| format!("tree_node: {e}"))?,
        None => return Err("the agent.dialog event's data has no tree_node".to_owned()),
    };
    if node.dialog_id != dialog.dialog_id {
        return Err(format!(
            "tree_node.dialog_id ({}) is not the dialog's id ({})",
            node.dialog_id, dialog.dialog_id
        ));
    }
    let top_prompt = match data.get("top_prompt") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err("top_prompt is not a string".to_owned()),
    };
    let no_events = match data.get("no_events") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("no_events is not a boolean".to_owned()),
    };
    for key in data.keys() {
        if !matches!(key.as_str(), "tree_node" | "top_prompt" | "no_events") {
            return Err(format!("unknown member `{key}` in the agent.dialog data"));
        }
    }
    Ok((node, top_prompt, no_events))
}
