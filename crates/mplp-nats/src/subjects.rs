//! NATS subjects of a session, derived from a prefix, the session id and
//! the event type (or the participant's index).

use mplp_events::SessionId;

/// The subjects of MPLP sessions under one prefix (default `mplp`):
///
/// | what | subject |
/// |---|---|
/// | a MAP event | `<prefix>.<session>.events.<event_type>` (e.g. `mplp.35e6…a3.events.MAPTurnDispatched`) |
/// | every event of a session | `<prefix>.<session>.events.>` |
/// | every event of every session (the stream's subjects) | `<prefix>.*.events.>` |
/// | a turn offered to participant `i` (request/reply) | `<prefix>.<session>.turn.<i>` |
/// | a broadcast put to participant `i` (request/reply) | `<prefix>.<session>.answer.<i>` |
///
/// Participants are addressed by their index in the Collab, since
/// participant ids may contain characters a subject token cannot (`.`,
/// `*`, `>`, spaces); session ids are UUIDs and event types are
/// identifiers, both valid tokens.
///
/// ```
/// use mplp_nats::Subjects;
/// let s = Subjects::new("acme.mplp").unwrap();
/// let id = "35e68fcd-928b-41d2-b8ee-b6a4232ea2a3".parse().unwrap();
/// assert_eq!(s.event(&id, "MAPTurnDispatched"), "acme.mplp.35e68fcd-928b-41d2-b8ee-b6a4232ea2a3.events.MAPTurnDispatched");
/// assert_eq!(s.stream_subject(), "acme.mplp.*.events.>");
/// assert!(Subjects::new("bad prefix").is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subjects {
    prefix: String,
}

impl Default for Subjects {
    fn default() -> Self {
        Subjects {
            prefix: "mplp".to_owned(),
        }
    }
}

impl Subjects {
    /// Subjects under `prefix`: one or more dot-separated tokens of ASCII
    /// letters, digits, `-` and `_`. `None` for anything else.
    pub fn new(prefix: &str) -> Option<Self> {
        let ok = !prefix.is_empty()
            && prefix.split('.').all(|t| {
                !t.is_empty()
                    && t.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            });
        ok.then(|| Subjects {
            prefix: prefix.to_owned(),
        })
    }

    /// The prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The subject of one event of `session`.
    pub fn event(&self, session: &SessionId, event_type: &str) -> String {
        format!("{}.{}.events.{event_type}", self.prefix, session)
    }

    /// Every event of `session` (a filter).
    pub fn session_events(&self, session: &SessionId) -> String {
        format!("{}.{}.events.>", self.prefix, session)
    }

    /// Every event of every session: the subjects of the JetStream stream.
    pub fn stream_subject(&self) -> String {
        format!("{}.*.events.>", self.prefix)
    }

    /// Where participant `index` of `session` is offered its turns.
    pub fn turn(&self, session: &SessionId, index: usize) -> String {
        format!("{}.{}.turn.{index}", self.prefix, session)
    }

    /// Where participant `index` of `session` is asked to answer broadcasts.
    pub fn answer(&self, session: &SessionId, index: usize) -> String {
        format!("{}.{}.answer.{index}", self.prefix, session)
    }
}
