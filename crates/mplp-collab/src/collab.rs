//! The Collab document (`mplp-collab.schema.json`), its participants and its
//! semantic rules (the MAP invariants about a session's structure).

use mplp_core::check::for_each_repeat;
use mplp_core::rules::Source;
use mplp_core::{
    BaseEvent, CollabId, CollabMode, ContextId, Document, Error, Governance, Meta,
    NonEmptyShortString, NonEmptyString, NonEmptyVec, Pointer, Report, Rule, ShortString,
    Timestamp, TraceBase, Wire,
};

/// The `role_id` [`Participant::orchestrator`] gives the orchestrator (other
/// spellings are recognised too: see [`crate::orchestrator`]).
///
/// ```
/// use mplp_collab::{Participant, ParticipantKind, ORCHESTRATOR_ROLE};
/// let p = Participant::orchestrator("agent-lead", ParticipantKind::Agent)?;
/// assert_eq!(p.role_id.as_deref(), Some(ORCHESTRATOR_ROLE));
/// assert!(p.is_orchestrator());
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub const ORCHESTRATOR_ROLE: &str = "orchestrator";

const COLLAB: &str = "Collab Module";
const MAP_INV: &str = "map-invariants.yaml";

mplp_core::declare_rules! {
    /// The structure rules of a Collab document (see [`Collab`]) and the
    /// rules of participation (listed by [`crate::rules::rules`]).
    pub(crate) const DOCUMENT_RULES;

    /// `map_session_requires_participants`: a session has at least one
    /// participant. Enforced by the schema's `minItems` (reported as `min-items`)
    /// and by the type of [`Collab::participants`].
    pub const MAP_SESSION_REQUIRES_PARTICIPANTS = "map_session_requires_participants" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: MAP_INV, id: "map_session_requires_participants" },
        summary: "a session has no participant (reported as `min-items` at `/participants`)",
    }

    /// `map_min_participants`: the seed's name for [`MAP_SESSION_REQUIRES_PARTICIPANTS`].
    pub const MAP_MIN_PARTICIPANTS = "map_min_participants" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: COLLAB, section: "5.1 Core Invariants" },
        summary: "the seed's name for `map_session_requires_participants`",
    }

    /// `map_unique_participant_ids`: no two participants share a `participant_id`.
    pub const MAP_UNIQUE_PARTICIPANT_IDS = "map_unique_participant_ids" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: COLLAB, section: "5.1 Core Invariants" },
        summary: "two participants share a `participant_id`",
    }

    /// `map_participant_kind_valid`: `kind` is one of agent, human, system,
    /// external. Enforced by the schema's `enum` (reported as `enum`) and by
    /// the type [`ParticipantKind`].
    pub const MAP_PARTICIPANT_KIND_VALID = "map_participant_kind_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: MAP_INV, id: "map_participant_kind_valid" },
        summary: "a participant `kind` outside agent, human, system, external (reported as `enum`)",
    }

    /// `map_collab_mode_valid`: `mode` is one of the five coordination
    /// modes. Enforced by the schema's `enum` (reported as `enum`) and by
    /// the type [`CollabMode`].
    pub const MAP_COLLAB_MODE_VALID = "map_collab_mode_valid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: MAP_INV, id: "map_collab_mode_valid" },
        summary: "`mode` outside broadcast, round_robin, orchestrated, swarm, pair (reported as `enum`)",
    }

    /// `map_session_id_is_uuid`: `collab_id` is a UUID v4. Enforced by the
    /// schema's identifier pattern (reported as `pattern`, `format` or
    /// `type`) and by the type [`CollabId`](mplp_core::CollabId).
    pub const MAP_SESSION_ID_IS_UUID = "map_session_id_is_uuid" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: MAP_INV, id: "map_session_id_is_uuid" },
        summary: "`collab_id` is not a UUID v4 (reported as `pattern`, `format` or `type`)",
    }

    /// `map_role_ids_non_empty`: a participant's `role_id`, when present,
    /// is a string (reported as the schema's `type`).
    pub const MAP_ROLE_IDS_NON_EMPTY = "map_role_ids_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: MAP_INV, id: "map_role_ids_non_empty" },
        summary: "a participant's `role_id` is not a string (reported as `type`)",
    }

    /// `map_participant_ids_are_non_empty`: every `participant_id` is a
    /// string with a character that is not white space. A missing, empty or
    /// non-string id is the schema's (reported as `required`, `min-length`,
    /// `type`); a blank one, which the schema lets through, with this id.
    pub const MAP_PARTICIPANT_IDS_ARE_NON_EMPTY = "map_participant_ids_are_non_empty" {
        strict: Error,
        scope: Document,
        source: Source::Invariant { file: MAP_INV, id: "map_participant_ids_are_non_empty" },
        summary: "a blank `participant_id` (missing, empty or not a string: reported as `required`, `min-length`, `type`)",
    }

    /// `map_participants_have_role_ids`: every participant names a non-empty
    /// `role_id`. A **warning**: the schema makes `role_id` optional.
    pub const MAP_PARTICIPANTS_HAVE_ROLE_IDS = "map_participants_have_role_ids" {
        strict: Warning,
        scope: Document,
        source: Source::Invariant { file: MAP_INV, id: "map_participants_have_role_ids" },
        summary: "a participant names no (or an empty) `role_id`",
    }

    /// `map_orchestrator_required`: an `orchestrated` session has an
    /// orchestrator (error when none; a warning for each extra one). See
    /// [`crate::orchestrator`] for how it is recognised or designated.
    pub const MAP_ORCHESTRATOR_REQUIRED = "map_orchestrator_required" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: COLLAB, section: "5.1 Core Invariants" },
        summary: "an `orchestrated` session without exactly one orchestrator",
    }

    /// `map_pair_two_participants`: a `pair` session has exactly two participants.
    pub const MAP_PAIR_TWO_PARTICIPANTS = "map_pair_two_participants" {
        strict: Error,
        scope: Document,
        source: Source::Prose { doc: COLLAB, section: "3.1 Mode Descriptions" },
        summary: "a `pair` session without exactly two participants",
    }

    /// `map_exclusive_write`: only the holder of the current turn writes to the
    /// shared state. Enforced by [`TurnToken`](crate::TurnToken) at compile time;
    /// reported when a token of another turn or session is presented.
    pub const MAP_EXCLUSIVE_WRITE = "map_exclusive_write" {
        strict: Error,
        scope: Api,
        source: Source::Prose { doc: COLLAB, section: "5.1 Core Invariants" },
        summary: "a write with the token of another turn or session",
    }

    /// `map_participants_can_act`: participants act only while the session is `active`.
    pub const MAP_PARTICIPANTS_CAN_ACT = "map_participants_can_act" {
        strict: Error,
        scope: Api,
        source: Source::Prose { doc: COLLAB, section: "4.2 Status Semantics" },
        summary: "a participant acts while the session is not `active`",
    }
}

mplp_core::wire_enum! {
    /// Lifecycle status of a collaboration session. See
    /// [`CollabStatus::can_transition_to`] for the transition table.
    pub enum CollabStatus {
        /// Setting up the session; participants cannot act yet.
        Draft = "draft",
        /// Collaboration in progress; the only status in which participants act.
        Active = "active",
        /// Temporarily paused; participants cannot act.
        Suspended = "suspended",
        /// Finished successfully (final).
        Completed = "completed",
        /// Aborted (final).
        Cancelled = "cancelled",
    }
}

mplp_core::wire_enum! {
    /// What sort of member a participant is.
    pub enum ParticipantKind {
        /// A software agent.
        Agent = "agent",
        /// A person.
        Human = "human",
        /// A system component (CI bot, scheduler, ...).
        System = "system",
        /// A party outside the system.
        External = "external",
    }
}

/// One member of a collaboration session (`collab_participant_core`).
///
/// ```
/// use mplp_collab::{Participant, ParticipantKind};
/// let p = Participant::new("agent-coder-1", ParticipantKind::Agent)?.with_role("coder");
/// assert_eq!(serde_json::to_string(&p).unwrap(),
///     r#"{"participant_id":"agent-coder-1","role_id":"coder","kind":"agent"}"#);
/// assert!(Participant::new("", ParticipantKind::Agent).is_err());
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[non_exhaustive]
pub struct Participant {
    /// Non-empty identifier of the member, unique in the session. Required.
    pub participant_id: NonEmptyShortString,
    /// The role the member plays (a Role module `role_id`). Optional in the
    /// schema; its absence is a `map_participants_have_role_ids` warning.
    pub role_id: Option<ShortString>,
    /// What sort of member this is. Required.
    pub kind: ParticipantKind,
    /// Name shown to people.
    pub display_name: Option<ShortString>,
}

impl Participant {
    /// A participant without role or display name; refuses an empty id.
    pub fn new(
        participant_id: impl Into<ShortString>,
        kind: ParticipantKind,
    ) -> Result<Self, Error> {
        let participant_id = NonEmptyShortString::new(participant_id).map_err(|_| {
            Error::single(
                "/participant_id",
                Rule::MIN_LENGTH,
                "a participant_id must not be empty",
            )
        })?;
        Ok(Participant {
            participant_id,
            role_id: None,
            kind,
            display_name: None,
        })
    }

    /// The orchestrator: a participant whose `role_id` is [`ORCHESTRATOR_ROLE`].
    pub fn orchestrator(
        participant_id: impl Into<ShortString>,
        kind: ParticipantKind,
    ) -> Result<Self, Error> {
        Ok(Participant::new(participant_id, kind)?.with_role(ORCHESTRATOR_ROLE))
    }

    /// `count` agents (at least one): `{id_prefix}0`, `{id_prefix}1`, …,
    /// with the roles `{role_prefix}0`, `{role_prefix}1`, … in the same order.
    ///
    /// ```
    /// use mplp_collab::Participant;
    /// let team = Participant::agents(3, "agent-", "role-")?;
    /// assert_eq!(team.len(), 3);
    /// assert_eq!(team[2].participant_id.as_str(), "agent-2");
    /// assert_eq!(team[2].role_id.as_deref(), Some("role-2"));
    /// assert_eq!(Participant::agents(0, "p", "r")?.len(), 1);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn agents(
        count: usize,
        id_prefix: &str,
        role_prefix: &str,
    ) -> Result<NonEmptyVec<Participant>, Error> {
        let agent = |i: usize| {
            Ok::<_, Error>(
                Participant::new(format!("{id_prefix}{i}"), ParticipantKind::Agent)?
                    .with_role(format!("{role_prefix}{i}")),
            )
        };
        let mut people = NonEmptyVec::new(agent(0)?);
        for i in 1..count {
            people.push(agent(i)?);
        }
        Ok(people)
    }

    /// The same participant with a role.
    #[must_use]
    pub fn with_role(mut self, role_id: impl Into<ShortString>) -> Self {
        self.role_id = Some(role_id.into());
        self
    }

    /// The same participant with a display name.
    #[must_use]
    pub fn with_display_name(mut self, name: impl Into<ShortString>) -> Self {
        self.display_name = Some(name.into());
        self
    }

    /// True when this participant is recognised as orchestrator by name:
    /// its `participant_id` or `role_id` is an orchestrator name (see
    /// [`crate::orchestrator`]).
    pub fn is_orchestrator(&self) -> bool {
        crate::orchestrator::named_orchestrator(self)
    }

    /// The role this participant appears under in MAP events: its
    /// `role_id` when present and non-empty, else its `participant_id`.
    pub fn event_role(&self) -> &str {
        match self.role_id.as_deref() {
            Some(r) if !r.is_empty() => r,
            _ => self.participant_id.as_str(),
        }
    }
}

/// A collaboration session (`mplp-collab.schema.json`, core profile).
///
/// ```
/// use mplp_collab::{Collab, CollabStatus};
/// use mplp_core::Document;
/// let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"),
///     "/../../schemas/examples/valid/collab-orchestrated.json")).unwrap();
/// let collab = Collab::from_json(&json)?;
/// assert_eq!(collab.status(), CollabStatus::Active);
/// assert_eq!(collab.orchestrator().map(|p| p.participant_id.as_str()), Some("agent-orch-1"));
/// # Ok::<(), mplp_core::Error>(())
/// ```
///
/// `Deserialize` runs the collab rules too. The mode, status and
/// participants are guarded, so this does not compile:
///
/// ```compile_fail,E0616
/// # use mplp_collab::{Collab, CollabStatus};
/// fn force(c: &mut Collab) { c.status = CollabStatus::Completed; }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct Collab {
    /// Protocol metadata. Required.
    pub meta: Meta,
    /// Governance state (lifecycle phase, truth domain, lock).
    pub governance: Option<Governance>,
    /// The session's id. Required.
    pub collab_id: CollabId,
    /// The Context the session belongs to. Required.
    pub context_id: ContextId,
    /// Short name of the session. Required, non-empty.
    pub title: NonEmptyString,
    /// Why the participants collaborate. Required, non-empty.
    pub purpose: NonEmptyString,
    /// How work is shared. Required. Guarded (the mode decides how many
    /// participants a session needs): read it with [`Collab::mode`].
    pub(crate) mode: CollabMode,
    /// Lifecycle status. Required. Guarded: read it with
    /// [`Collab::status`], change it with the lifecycle methods.
    pub(crate) status: CollabStatus,
    /// The members; at least one. Required. Guarded (unique ids, the
    /// orchestrator, the mode's participant count): read them with
    /// [`Collab::participants`].
    pub(crate) participants: NonEmptyVec<Participant>,
    /// When the session was created. Required.
    pub created_at: Timestamp,
    /// When the session last changed.
    pub updated_at: Option<Timestamp>,
    /// The trace span the session is recorded under.
    pub trace: Option<TraceBase>,
    /// Notable events about the session (dotted base events, not MAP events).
    pub events: Option<Vec<BaseEvent>>,
}

impl Collab {
    /// How work is shared.
    pub fn mode(&self) -> CollabMode {
        self.mode
    }

    /// Where the session is in its lifecycle.
    pub fn status(&self) -> CollabStatus {
        self.status
    }

    /// The members (at least one), in document order.
    pub fn participants(&self) -> &[Participant] {
        &self.participants
    }

    /// A new `draft` session with a fresh id, created now, after checking the
    /// structural rules ([`Collab::check_structure`]): unique participant ids,
    /// two participants for `pair`, one orchestrator for `orchestrated`.
    ///
    /// ```
    /// use mplp_collab::{Collab, CollabStatus, Participant, ParticipantKind};
    /// use mplp_core::{CollabMode, ContextId, NonEmptyVec};
    /// let mut people = NonEmptyVec::new(Participant::orchestrator("lead", ParticipantKind::Agent)?);
    /// people.push(Participant::new("coder", ParticipantKind::Agent)?.with_role("coder"));
    /// let collab = Collab::new(ContextId::new(), "Ship it", "Ship the feature", CollabMode::Orchestrated, people)?;
    /// assert_eq!(collab.status(), CollabStatus::Draft);
    ///
    /// let solo = NonEmptyVec::new(Participant::new("coder", ParticipantKind::Agent)?);
    /// let err = Collab::new(ContextId::new(), "Pair", "Pair up", CollabMode::Pair, solo).unwrap_err();
    /// assert_eq!(err.rule().map(|r| r.as_str()), Some("map_pair_two_participants"));
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn new(
        context_id: ContextId,
        title: impl Into<String>,
        purpose: impl Into<String>,
        mode: CollabMode,
        participants: NonEmptyVec<Participant>,
    ) -> Result<Self, Error> {
        Collab::new_at(
            CollabId::new(),
            context_id,
            title,
            purpose,
            mode,
            participants,
            Timestamp::now(),
        )
    }

    /// Like [`Collab::new`], with the id and creation time given (for
    /// reproducible documents).
    pub fn new_at(
        collab_id: CollabId,
        context_id: ContextId,
        title: impl Into<String>,
        purpose: impl Into<String>,
        mode: CollabMode,
        participants: NonEmptyVec<Participant>,
        created_at: Timestamp,
    ) -> Result<Self, Error> {
        let non_empty = |s: String, key: &str| {
            NonEmptyString::new(s).map_err(|_| {
                Error::single(
                    format!("/{key}"),
                    Rule::MIN_LENGTH,
                    format!("`{key}` must not be empty"),
                )
            })
        };
        let collab = Collab {
            meta: Meta::v1(),
            governance: None,
            collab_id,
            context_id,
            title: non_empty(title.into(), "title")?,
            purpose: non_empty(purpose.into(), "purpose")?,
            mode,
            status: CollabStatus::Draft,
            participants,
            created_at,
            updated_at: None,
            trace: None,
            events: None,
        };
        let mut report = Report::new();
        collab.check_structure(&mut report);
        report.into_result(collab)
    }

    /// A new `draft` session of `n` agents working in `mode`, created now:
    /// the shortest way to a session the mode's rules accept (for tests,
    /// benches and examples).
    ///
    /// The agents are `p0`, `p1`, … with the roles `r0`, `r1`, …
    /// ([`Participant::agents`]); in `orchestrated` mode the first one is
    /// the orchestrator `lead` instead. A `pair` session always has two
    /// agents and any other at least one, so only an empty `title` or
    /// `purpose` is refused.
    ///
    /// ```
    /// use mplp_collab::Collab;
    /// use mplp_core::{CollabMode, ContextId};
    /// let c = Collab::of_agents(ContextId::new(), "Review", "Review the change", CollabMode::Orchestrated, 3)?;
    /// let ids: Vec<&str> = c.participants().iter().map(|p| p.participant_id.as_str()).collect();
    /// assert_eq!(ids, ["lead", "p1", "p2"]);
    /// assert_eq!(c.orchestrator().map(|p| p.participant_id.as_str()), Some("lead"));
    /// assert_eq!(Collab::of_agents(ContextId::new(), "Pair", "Pair up", CollabMode::Pair, 5)?.participants().len(), 2);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn of_agents(
        context_id: ContextId,
        title: impl Into<String>,
        purpose: impl Into<String>,
        mode: CollabMode,
        n: usize,
    ) -> Result<Self, Error> {
        let n = if mode == CollabMode::Pair { 2 } else { n };
        let mut people = Participant::agents(n, "p", "r")?;
        if mode == CollabMode::Orchestrated {
            if let Some(first) = people.as_mut_slice().first_mut() {
                *first = Participant::orchestrator("lead", ParticipantKind::Agent)?;
            }
        }
        Collab::new(context_id, title, purpose, mode, people)
    }

    /// The orchestrator: the first participant recognised as orchestrator
    /// by name ([`Participant::is_orchestrator`]; in any mode, only
    /// `orchestrated` requires one). See [`Collab::orchestrator_by`] for an
    /// explicit designation.
    pub fn orchestrator(&self) -> Option<&Participant> {
        self.participants.iter().find(|p| p.is_orchestrator())
    }

    /// The participant with this id.
    pub fn participant(&self, participant_id: &str) -> Option<&Participant> {
        self.participants
            .iter()
            .find(|p| p.participant_id.as_str() == participant_id)
    }

    /// True when participants may act (the status is `active`).
    pub fn participants_can_act(&self) -> bool {
        self.status.participants_can_act()
    }

    /// The structural rules that make a session unusable (errors):
    /// `map_unique_participant_ids`, `map_pair_two_participants`,
    /// `map_orchestrator_required`; and the `map_participants_have_role_ids`
    /// warning.
    pub fn check_structure(&self, report: &mut Report) {
        // Written only for a violation: a valid session allocates nothing.
        let ps: &[Participant] = &self.participants;
        // Each id's text taken once (a `ShortString` tells inline from heap
        // text at every look): on the stack for a session of the usual size.
        let mut few = [""; FEW_PARTICIPANTS];
        let many: Vec<&str>;
        let ids: &[&str] = if ps.len() <= FEW_PARTICIPANTS {
            for (id, p) in few.iter_mut().zip(ps) {
                *id = p.participant_id.as_str();
            }
            &few[..ps.len()]
        } else {
            many = ps.iter().map(|p| p.participant_id.as_str()).collect();
            &many
        };
        for_each_repeat(
            ids,
            |id| *id,
            |i, first| repeated_participant(report, i, first, ids[i]),
        );
        for (i, id) in ids.iter().enumerate() {
            blank_participant_id(report, i, id);
        }
        pair_rule(Some(self.mode), ps.len(), report);
        // The orchestrator rule lives in crate::orchestrator.
        self.check_orchestrator(crate::orchestrator::Designation::ByName, report);
        for (i, (p, id)) in ps.iter().zip(ids).enumerate() {
            role_rule(report, i, id, p.role_id.as_deref());
        }
    }
}

/// Sessions of up to this many participants have their ids' texts
/// gathered on the stack by [`Collab::check_structure`].
const FEW_PARTICIPANTS: usize = 32;

/// `map_unique_participant_ids`: participant `i` repeats the id of `first`.
fn repeated_participant(report: &mut Report, i: usize, first: usize, id: &str) {
    report.error(
        Pointer::root()
            .key("participants")
            .index(i)
            .key("participant_id"),
        MAP_UNIQUE_PARTICIPANT_IDS,
        format!(
            "participant_id `{id}` is already used by participant {first}; participant ids must be unique"
        ),
    );
}

/// `map_participant_ids_are_non_empty`: a blank id (an empty one is the
/// schema's `minLength`, reported under the same id).
fn blank_participant_id(report: &mut Report, i: usize, id: &str) {
    // Blank: every character white space (what `trim` removes), which
    // the first character of an ordinary id already denies.
    if !id.is_empty() && id.chars().all(char::is_whitespace) {
        report.error(
            Pointer::root()
                .key("participants")
                .index(i)
                .key("participant_id"),
            MAP_PARTICIPANT_IDS_ARE_NON_EMPTY,
            format!(
                "expected a participant_id with a character that is not white space, found {id:?}"
            ),
        );
    }
}

/// `map_pair_two_participants`.
fn pair_rule(mode: Option<CollabMode>, participants: usize, report: &mut Report) {
    if mode == Some(CollabMode::Pair) && participants != 2 {
        report.error(
            "/participants",
            MAP_PAIR_TWO_PARTICIPANTS,
            format!("a `pair` session has exactly 2 participants, found {participants}"),
        );
    }
}

/// `map_participants_have_role_ids` for participant `i` (`role`: its
/// `role_id`, `None` when absent).
fn role_rule(report: &mut Report, i: usize, id: &str, role: Option<&str>) {
    let at = || Pointer::root().key("participants").index(i);
    match role {
        None => report.warn(
            at(),
            MAP_PARTICIPANTS_HAVE_ROLE_IDS,
            format!(
                "participant `{id}` has no role_id; MAP events will name it by its participant_id"
            ),
        ),
        Some("") => report.warn(
            at().key("role_id"),
            MAP_PARTICIPANTS_HAVE_ROLE_IDS,
            format!(
                "participant `{id}` has an empty role_id; MAP events will name it by its participant_id"
            ),
        ),
        Some(_) => {}
    }
}

/// The participation rules over what can still be read of a Collab that
/// failed its schema (see [`Document::check_rules_of_value`]): the same
/// functions as [`Collab::check_structure`], without the orchestrator rule
/// (which reads every participant whole).
pub(crate) fn participation_of_value(value: &serde_json::Value, report: &mut Report) {
    use serde_json::Value;
    let Some(ps) = value.get("participants").and_then(Value::as_array) else {
        return;
    };
    let ids: Vec<(usize, &str)> = ps
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, p.get("participant_id")?.as_str()?)))
        .collect();
    for_each_repeat(
        &ids,
        |e| e.1,
        |k, first| repeated_participant(report, ids[k].0, ids[first].0, ids[k].1),
    );
    for &(i, id) in &ids {
        blank_participant_id(report, i, id);
    }
    let mode = value
        .get("mode")
        .and_then(Value::as_str)
        .and_then(|m| m.parse().ok());
    pair_rule(mode, ps.len(), report);
    for &(i, id) in &ids {
        match ps[i].get("role_id") {
            None => role_rule(report, i, id, None),
            Some(Value::String(r)) => role_rule(report, i, id, Some(r.as_str())),
            Some(_) => {}
        }
    }
}

impl CollabStatus {
    /// True for the final statuses (`completed`, `cancelled`).
    pub const fn is_final(self) -> bool {
        matches!(self, CollabStatus::Completed | CollabStatus::Cancelled)
    }

    /// True only for `active`: the one status in which participants act.
    pub const fn participants_can_act(self) -> bool {
        matches!(self, CollabStatus::Active)
    }
}

impl Document for Collab {
    const KIND: &'static str = "collab";

    /// The MAP invariants the Collab schema states (`collab_id`, `mode`,
    /// `participants`, each participant's `participant_id`, `kind` and
    /// `role_id` type): their schema violations carry the invariant's id.
    const STATED_BY_SCHEMA: &'static [mplp_core::Stated] = &[
        mplp_core::Stated::at("/collab_id", MAP_SESSION_ID_IS_UUID),
        mplp_core::Stated::at("/mode", MAP_COLLAB_MODE_VALID),
        mplp_core::Stated::at("/participants", MAP_SESSION_REQUIRES_PARTICIPANTS),
        mplp_core::Stated::at(
            "/participants/*/participant_id",
            MAP_PARTICIPANT_IDS_ARE_NON_EMPTY,
        ),
        mplp_core::Stated::at("/participants/*/kind", MAP_PARTICIPANT_KIND_VALID),
        mplp_core::Stated::at("/participants/*/role_id", MAP_ROLE_IDS_NON_EMPTY),
    ];

    fn check_rules(&self, report: &mut Report) {
        self.check_structure(report);
    }

    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        participation_of_value(value, report);
    }
}
