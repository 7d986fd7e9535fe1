//! The messages of turn-taking across processes (JSON; SDK messages, not
//! MPLP wire objects: the MPLP record of a turn is its MAP events).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use mplp_core::JsonObject;

/// One shared resource as the session holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResourceView {
    /// The resource's name.
    pub name: String,
    /// Its value.
    pub value: Value,
    /// Its version (writes are based on it).
    pub version: u64,
}

/// A turn offered to a participant: sent by the session's driver to
/// `<prefix>.<session>.turn.<index>`, answered with a [`TurnReply`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TurnRequest {
    /// The session (the Collab id).
    pub session_id: String,
    /// The participant's index.
    pub holder: usize,
    /// Its `participant_id`.
    pub participant_id: String,
    /// The turn's number.
    pub turn_number: u64,
    /// What the turn is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The shared resources when the turn was dispatched.
    pub resources: Vec<ResourceView>,
}

/// A write a participant asks for: compare-and-set on `expected_version`
/// (a stale version is a conflict, resolved by the session's policy).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WriteRequest {
    /// The resource.
    pub resource: String,
    /// The version the write is based on.
    pub expected_version: u64,
    /// The new value.
    pub value: Value,
}

/// How a remote turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplyStatus {
    /// The participant did its work.
    Completed,
    /// It tried and failed.
    Failed,
}

/// A participant's answer to a [`TurnRequest`]: its writes (applied by the
/// driver under the turn token, in order) and its outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TurnReply {
    /// Completed or failed.
    pub status: ReplyStatus,
    /// The writes, in order.
    #[serde(default)]
    pub writes: Vec<WriteRequest>,
    /// A one-line summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// A structured result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<JsonObject>,
}

impl TurnReply {
    /// A completed turn with these writes.
    pub fn completed(writes: Vec<WriteRequest>) -> Self {
        TurnReply {
            status: ReplyStatus::Completed,
            writes,
            summary: None,
            result: None,
        }
    }

    /// A failed turn.
    pub fn failed(reason: impl Into<String>) -> Self {
        TurnReply {
            status: ReplyStatus::Failed,
            writes: Vec::new(),
            summary: Some(reason.into()),
            result: None,
        }
    }

    /// The same reply with a structured result.
    #[must_use]
    pub fn with_result(mut self, result: JsonObject) -> Self {
        self.result = Some(result);
        self
    }
}

/// A broadcast put to a participant: sent to
/// `<prefix>.<session>.answer.<index>`, answered with a JSON object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AnswerRequest {
    /// The session.
    pub session_id: String,
    /// The participant's index.
    pub index: usize,
    /// Its `participant_id`.
    pub participant_id: String,
    /// The broadcast message.
    pub message: JsonObject,
}
