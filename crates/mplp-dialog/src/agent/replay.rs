//! A replay log: what happens to agent dialogs, written to an event sink
//! (`mplp_events::log::EventSink`, such as the NDJSON
//! [`LogWriter`](mplp_events::log::LogWriter)), so that a session can be
//! rebuilt from the log.

use std::collections::BTreeMap;
use std::io::{self, BufRead};

use mplp_core::{DialogId, Timestamp};
use mplp_events::log::EventSink;
use serde::{Deserialize, Serialize};

use super::dialog::AgentDialog;
use super::message::AgentMessage;
use crate::status::DialogStatus;

/// One entry of a replay log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum ReplayEntry {
    /// A dialog the log had not seen (opened, forked, read): its whole state.
    Open {
        /// The dialog.
        dialog: Box<AgentDialog>,
    },
    /// A message was appended.
    Append {
        /// The dialog.
        dialog_id: DialogId,
        /// The message.
        message: Box<AgentMessage>,
    },
    /// The top prompt changed.
    TopPrompt {
        /// The dialog.
        dialog_id: DialogId,
        /// The new top prompt (`None`: cleared).
        top_prompt: Option<String>,
    },
    /// The status changed.
    Status {
        /// The dialog.
        dialog_id: DialogId,
        /// The new status.
        status: DialogStatus,
        /// `ended_at` after the change.
        ended_at: Option<Timestamp>,
    },
    /// A child was forked from the dialog.
    Fork {
        /// The parent.
        dialog_id: DialogId,
        /// The child (opened by its own `open` entry).
        child_id: DialogId,
    },
}

/// What the log last wrote about one dialog.
#[derive(Clone, Debug)]
struct Cursor {
    messages: usize,
    top_prompt: Option<String>,
    status: DialogStatus,
    children: usize,
}

impl Cursor {
    fn of(d: &AgentDialog) -> Self {
        Cursor {
            messages: d.messages.len(),
            top_prompt: d.top_prompt.clone(),
            status: d.status(),
            children: d.node.children_ids.len(),
        }
    }
}

/// Writes what happens to agent dialogs to a sink. Call
/// [`ReplayLog::record`] after each step of the agent loop (after appends,
/// prompts, forks, transitions): it writes what changed since the last call,
/// in order. [`ReplayLog::rebuild`] turns the entries back into the dialogs.
///
/// ```
/// use mplp_core::ContextId;
/// use mplp_dialog::agent::{AgentDialog, Put, ReplayLog};
/// use mplp_events::log::LogWriter;
///
/// let mut log = ReplayLog::new(LogWriter::new(Vec::new()));
/// let mut d = AgentDialog::new(ContextId::new(), "coder", "sys");
/// log.record(&d)?;
/// d.put_text("hello", Put::new())?;
/// let child = d.fork(1, 1);
/// log.record(&d)?;
/// log.record(&child)?;
///
/// let ndjson = log.into_inner().into_inner();
/// let rebuilt = ReplayLog::rebuild(ReplayLog::read(&ndjson[..])?)?;
/// assert_eq!(rebuilt[&d.dialog_id()], d);
/// assert_eq!(rebuilt[&child.dialog_id()], child);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ReplayLog<S> {
    sink: S,
    seen: BTreeMap<DialogId, Cursor>,
}

impl<S: EventSink<ReplayEntry>> ReplayLog<S> {
    /// A log writing to `sink`.
    pub fn new(sink: S) -> Self {
        ReplayLog {
            sink,
            seen: BTreeMap::new(),
        }
    }

    /// Writes what changed in `dialog` since it was last recorded: an `open`
    /// entry the first time; then `append` per new message, `top_prompt`,
    /// `status` and `fork` entries.
    pub fn record(&mut self, dialog: &AgentDialog) -> io::Result<()> {
        let id = dialog.dialog_id();
        let Some(cursor) = self.seen.get(&id).cloned() else {
            self.sink.emit(ReplayEntry::Open {
                dialog: Box::new(dialog.clone()),
            })?;
            self.seen.insert(id, Cursor::of(dialog));
            return Ok(());
        };
        let status = ReplayEntry::Status {
            dialog_id: id,
            status: dialog.status(),
            ended_at: dialog.header.ended_at.clone(),
        };
        let status_changed = dialog.status() != cursor.status;
        // A resumed dialog takes the new messages: resume first.
        if status_changed && dialog.status() == DialogStatus::Active {
            self.sink.emit(status.clone())?;
        }
        for m in dialog.messages.iter().skip(cursor.messages) {
            self.sink.emit(ReplayEntry::Append {
                dialog_id: id,
                message: Box::new(m.clone()),
            })?;
        }
        if dialog.top_prompt != cursor.top_prompt {
            self.sink.emit(ReplayEntry::TopPrompt {
                dialog_id: id,
                top_prompt: dialog.top_prompt.clone(),
            })?;
        }
        if status_changed && dialog.status() != DialogStatus::Active {
            self.sink.emit(status)?;
        }
        for child in dialog.node.children_ids.iter().skip(cursor.children) {
            self.sink.emit(ReplayEntry::Fork {
                dialog_id: id,
                child_id: *child,
            })?;
        }
        self.seen.insert(id, Cursor::of(dialog));
        Ok(())
    }

    /// The sink.
    pub fn into_inner(self) -> S {
        self.sink
    }
}

/// Why a replay log cannot be read or rebuilt.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// A line is not a replay entry.
    #[error("replay log line {line}: {source}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// Reading failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// An entry names a dialog the log has not opened.
    #[error("replay entry {index} names dialog {dialog_id}, which the log has not opened")]
    UnknownDialog {
        /// 0-based entry index.
        index: usize,
        /// The dialog.
        dialog_id: DialogId,
    },
    /// An entry cannot be applied (the dialog refuses it).
    #[error("replay entry {index}: {source}")]
    Refused {
        /// 0-based entry index.
        index: usize,
        /// Why.
        #[source]
        source: mplp_core::Error,
    },
}

impl ReplayLog<()> {
    /// Reads an NDJSON replay log (blank lines skipped).
    pub fn read(input: impl BufRead) -> Result<Vec<ReplayEntry>, ReplayError> {
        let mut out = Vec::new();
        for (i, line) in input.lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            out.push(
                serde_json::from_str(&line).map_err(|source| ReplayError::Line {
                    line: i + 1,
                    source,
                })?,
            );
        }
        Ok(out)
    }

    /// Rebuilds every dialog of a log, by id.
    pub fn rebuild(
        entries: impl IntoIterator<Item = ReplayEntry>,
    ) -> Result<BTreeMap<DialogId, AgentDialog>, ReplayError> {
        let mut dialogs: BTreeMap<DialogId, AgentDialog> = BTreeMap::new();
        for (index, entry) in entries.into_iter().enumerate() {
            let id = match &entry {
                ReplayEntry::Open { dialog } => {
                    dialogs.insert(dialog.dialog_id(), (**dialog).clone());
                    continue;
                }
                ReplayEntry::Append { dialog_id, .. }
                | ReplayEntry::TopPrompt { dialog_id, .. }
                | ReplayEntry::Status { dialog_id, .. }
                | ReplayEntry::Fork { dialog_id, .. } => *dialog_id,
            };
            let d = dialogs.get_mut(&id).ok_or(ReplayError::UnknownDialog {
                index,
                dialog_id: id,
            })?;
            match entry {
                ReplayEntry::Open { .. } => {}
                ReplayEntry::Append { message, .. } => {
                    d.append(*message)
                        .map_err(|source| ReplayError::Refused { index, source })?;
                }
                ReplayEntry::TopPrompt { top_prompt, .. } => d.top_prompt = top_prompt,
                ReplayEntry::Status {
                    status, ended_at, ..
                } => {
                    let at = ended_at.clone().unwrap_or_else(Timestamp::now);
                    d.header
                        .transition_at(status, at)
                        .map_err(|source| ReplayError::Refused { index, source })?;
                    d.header.ended_at = ended_at;
                }
                ReplayEntry::Fork { child_id, .. } => d.node.children_ids.push(child_id),
            }
        }
        Ok(dialogs)
    }
}
