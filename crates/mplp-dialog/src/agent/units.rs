//! Tool-call units: a message that requests tool calls and the run of tool
//! results right after it that answer those calls move as one unit through
//! every operation that drops messages (forks, pruning), so that no
//! operation turns a dialog that providers accept into one they refuse.

use std::collections::BTreeSet;

use super::message::{AgentMessage, AgentRole};
use crate::convert::ConvertError;

/// For each message, the index of the first message of its unit: a tool
/// result that answers a call of the call message opening the run it is in
/// belongs to that message's unit; every other message is a unit of its own.
///
/// `calls(i)` gives the call ids of message `i`, `answers(i)` the call a
/// result answers (`None` for a message that is not a tool result).
pub(crate) fn unit_starts<'a>(
    n: usize,
    calls: impl Fn(usize) -> Vec<&'a str>,
    answers: impl Fn(usize) -> Option<Option<&'a str>>,
) -> Vec<usize> {
    let mut starts = Vec::with_capacity(n);
    let mut open: Option<(usize, Vec<&'a str>)> = None;
    for i in 0..n {
        match answers(i) {
            Some(id) => match &open {
                Some((start, ids)) if id.is_some_and(|id| ids.contains(&id)) => starts.push(*start),
                _ => {
                    open = None;
                    starts.push(i);
                }
            },
            None => {
                let ids = calls(i);
                open = (!ids.is_empty()).then_some((i, ids));
                starts.push(i);
            }
        }
    }
    starts
}

/// The unit starts of agent messages.
pub(crate) fn agent_unit_starts(messages: &[AgentMessage]) -> Vec<usize> {
    unit_starts(
        messages.len(),
        |i| {
            messages[i]
                .function_calls
                .iter()
                .map(|c| c.id.as_str())
                .collect()
        },
        |i| (messages[i].role == AgentRole::Tool).then(|| messages[i].tool_call_id.as_deref()),
    )
}

/// Clears `keep` for every member of a unit that is not kept whole.
pub(crate) fn keep_whole_units(starts: &[usize], keep: &mut [bool]) {
    let mut whole = vec![true; keep.len()];
    for (i, &s) in starts.iter().enumerate() {
        if !keep[i] {
            whole[s] = false;
        }
    }
    for (i, &s) in starts.iter().enumerate() {
        if !whole[s] {
            keep[i] = false;
        }
    }
}

/// Checks what both providers require of tool calls and results, naming the
/// first message that breaks a rule: call ids are non-empty and unique in
/// the dialog; function calls only on assistant, agent and tool-call
/// messages; every call answered by the tool results right after its
/// message (before any other message, and before the end); every result
/// answers a call of the message that opens its run, once.
pub(crate) fn check_tool_pairing(messages: &[AgentMessage]) -> Result<(), ConvertError> {
    let mut ids: BTreeSet<&str> = BTreeSet::new();
    // (index of the call message, unanswered ids, answered ids)
    let mut open: Option<(usize, Vec<&str>, BTreeSet<&str>)> = None;
    for (index, m) in messages.iter().enumerate() {
        if m.role == AgentRole::Tool {
            let call = m
                .tool_call_id
                .as_deref()
                .ok_or(ConvertError::MissingToolCallId { index })?;
            match &mut open {
                Some((_, pending, answered)) if pending.contains(&call) => {
                    pending.retain(|p| *p != call);
                    answered.insert(call);
                }
                _ => {
                    return Err(ConvertError::OrphanToolResult {
                        index,
                        call: call.to_owned(),
                    });
                }
            }
            if !m.function_calls.is_empty() {
                return Err(ConvertError::CallsOnRole {
                    index,
                    role: m.role.as_str(),
                });
            }
            continue;
        }
        if let Some((at, pending, _)) = open.take() {
            if let Some(first) = pending.first() {
                return Err(ConvertError::UnansweredToolCall {
                    index: at,
                    call: (*first).to_owned(),
                    before: Some(index),
                });
            }
        }
        if m.function_calls.is_empty() {
            continue;
        }
        if matches!(m.role, AgentRole::System | AgentRole::User) {
            return Err(ConvertError::CallsOnRole {
                index,
                role: m.role.as_str(),
            });
        }
        let mut pending = Vec::with_capacity(m.function_calls.len());
        for c in &m.function_calls {
            if c.id.is_empty() {
                return Err(ConvertError::EmptyToolCallId { index });
            }
            if !ids.insert(c.id.as_str()) {
                return Err(ConvertError::DuplicateToolCallId {
                    index,
                    call: c.id.clone(),
                });
            }
            pending.push(c.id.as_str());
        }
        open = Some((index, pending, BTreeSet::new()));
    }
    if let Some((at, pending, _)) = open {
        if let Some(first) = pending.first() {
            return Err(ConvertError::UnansweredToolCall {
                index: at,
                call: (*first).to_owned(),
                before: None,
            });
        }
    }
    Ok(())
}
