//! Broadcast: one message fans out to every other participant, and their
//! answers fan back in.

use mplp_core::rules::Source;
use mplp_core::{Error, Violation};
use serde_json::Value;

mplp_core::declare_rules! {
    /// The rules of broadcast rounds.
    pub(crate) const RULES;

    /// A broadcast answer that no open broadcast expects (not a target, or a
    /// second answer from the same target).
    pub const MAP_BROADCAST_UNEXPECTED_ANSWER = "map_broadcast_unexpected_answer" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-collab: broadcasts" },
        summary: "a broadcast answer no open broadcast expects",
    }
}

/// One fan-out / fan-in round.
///
/// ```
/// use mplp_collab::broadcast::BroadcastRound;
/// use serde_json::json;
/// let mut round = BroadcastRound::new(uuid::Uuid::nil(), 0, 3, json!({"question": "go?"}));
/// assert_eq!(round.targets(), &[1, 2]);          // everyone but the sender
/// round.receive(2, json!({"vote": "go"}))?;
/// assert!(round.receive(2, json!({"vote": "no"})).is_err()); // one answer each
/// assert!(round.receive(0, json!({})).is_err());             // the sender is no target
/// assert!(!round.is_complete());
/// round.receive(1, json!({"vote": "no-go"}))?;
/// assert!(round.is_complete());
/// assert_eq!(round.answers().count(), 2);
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BroadcastRound {
    id: uuid::Uuid,
    sender: usize,
    targets: Vec<usize>,
    message: Value,
    answers: Vec<Option<Value>>,
}

impl BroadcastRound {
    /// A broadcast from participant `sender` to every other of the
    /// `participant_count` participants (to the sender itself when it is alone).
    pub fn new(id: uuid::Uuid, sender: usize, participant_count: usize, message: Value) -> Self {
        let mut targets: Vec<usize> = (0..participant_count).filter(|i| *i != sender).collect();
        if targets.is_empty() {
            targets.push(sender);
        }
        let answers = vec![None; targets.len()];
        BroadcastRound {
            id,
            sender,
            targets,
            message,
            answers,
        }
    }

    /// The broadcast's id (`broadcast_id` on the wire).
    pub fn id(&self) -> uuid::Uuid {
        self.id
    }

    /// The sender's participant index.
    pub fn sender(&self) -> usize {
        self.sender
    }

    /// The targets' participant indexes.
    pub fn targets(&self) -> &[usize] {
        &self.targets
    }

    /// The message sent.
    pub fn message(&self) -> &Value {
        &self.message
    }

    /// Records the answer of `target`; refused for a non-target or a second answer.
    pub fn receive(&mut self, target: usize, response: Value) -> Result<(), Error> {
        let slot = self
            .targets
            .iter()
            .position(|t| *t == target)
            .and_then(|i| self.answers.get_mut(i))
            .ok_or_else(|| {
                unexpected(format!(
                    "participant {target} is not a target of this broadcast"
                ))
            })?;
        if slot.is_some() {
            return Err(unexpected(format!(
                "participant {target} has already answered this broadcast"
            )));
        }
        *slot = Some(response);
        Ok(())
    }

    /// Targets that have not answered yet.
    pub fn pending(&self) -> impl Iterator<Item = usize> + '_ {
        self.targets
            .iter()
            .zip(&self.answers)
            .filter(|(_, a)| a.is_none())
            .map(|(t, _)| *t)
    }

    /// The answers so far: (target, response).
    pub fn answers(&self) -> impl Iterator<Item = (usize, &Value)> + '_ {
        self.targets
            .iter()
            .zip(&self.answers)
            .filter_map(|(t, a)| a.as_ref().map(|a| (*t, a)))
    }

    /// True when every target has answered.
    pub fn is_complete(&self) -> bool {
        self.answers.iter().all(Option::is_some)
    }
}

fn unexpected(message: String) -> Error {
    Error::State(Violation::error(
        "",
        MAP_BROADCAST_UNEXPECTED_ANSWER,
        message,
    ))
}
