//! The MAP session runtime: drives a [`Collab`] through its lifecycle in any
//! mode, hands turns to the caller's agents, keeps the books (turn numbers,
//! tokens, broadcasts, conflicts) and emits the MAP events of `mplp-events`
//! to an [`EventSink`]. Session driving is here; plan driving
//! ([`MapSession::run_plan`], [`PlanRun`]) is in its own file (`runtime/plan.rs`);
//! with the `tokio` feature, `async_session` drives sessions with async agents
//! and an async sink.
//!
//! ```
//! use mplp_collab::runtime::{MapSession, TurnOutcome};
//! use mplp_collab::sink::MemorySink;
//! use mplp_collab::{Collab, Participant, ParticipantKind};
//! use mplp_core::{CollabMode, ContextId, NonEmptyVec};
//!
//! let mut people = NonEmptyVec::new(Participant::new("ana", ParticipantKind::Human)?.with_role("maintainer"));
//! people.push(Participant::new("bot", ParticipantKind::Agent)?.with_role("critic"));
//! let collab = Collab::new(ContextId::new(), "Naming", "Name the builder", CollabMode::RoundRobin, people)?;
//!
//! let mut session = MapSession::new(collab, MemorySink::new())?;
//! session.start()?;
//! let mut agent = |turn: &mut mplp_collab::runtime::TurnContext<'_>| {
//!     let note = format!("turn {} by {}", turn.turn_number(), turn.participant().participant_id);
//!     turn.write("notes", serde_json::json!(note))?;
//!     Ok(TurnOutcome::completed())
//! };
//! for _ in 0..4 {
//!     session.turn(&mut agent)?;
//! }
//! let summary = session.complete()?;
//! assert_eq!(summary.turns_total, 4);
//! let types: Vec<_> = session.sink().events.iter().map(|e| e.event_type().as_str()).collect();
//! assert_eq!(types[..3], ["MAPSessionStarted", "MAPRolesAssigned", "MAPTurnDispatched"]);
//! assert_eq!(types.last(), Some(&"MAPSessionCompleted"));
//! # Ok::<(), mplp_collab::runtime::SessionError>(())
//! ```

use serde_json::Value;

use mplp_core::rules::Source;
use mplp_core::{CollabMode, Error, JsonObject, Rule, ShortString, Timestamp, Violation};
use mplp_events::map::{
    BroadcastReceived, BroadcastSent, ConflictDetected, ConflictResolved, MapPayload,
    RoleAssignment, RolesAssigned, SessionCompleted, SessionStarted, TurnCompleted, TurnDispatched,
};
use mplp_events::{MapEvent, SchemaUuid, SessionId};

use crate::broadcast::BroadcastRound;
use crate::conflict::{ConflictPolicy, Resolution, ResourceStore};
use crate::lifecycle::ensure_can_act;
use crate::sink::{Clock, EventSink, SystemClock};
use crate::turns::{Shared, TurnManager, TurnToken};
use crate::{Collab, CollabStatus, Participant};

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod async_session;
pub(crate) mod plan;

pub use plan::{MAP_PLAN_IN_PROGRESS, PlanRun};

/// What can go wrong while driving a session.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// A protocol rule refused the operation (lifecycle, turn order, ...).
    #[error(transparent)]
    Mplp(#[from] Error),
    /// The event sink failed; the session should be abandoned.
    #[error("the event sink failed: {0}")]
    Sink(#[from] std::io::Error),
    /// An agent gave up with an error of its own.
    #[error("participant `{participant}` failed: {message}")]
    Agent {
        /// The participant.
        participant: String,
        /// What it said.
        message: String,
    },
}

/// How a turn ended (the `status` of `MAPTurnCompleted`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnStatus {
    /// The participant did its work.
    Completed,
    /// The participant tried and failed.
    Failed,
}

impl TurnStatus {
    /// The wire text (`completed`, `failed`).
    pub const fn as_str(self) -> &'static str {
        match self {
            TurnStatus::Completed => "completed",
            TurnStatus::Failed => "failed",
        }
    }
}

/// What a participant reports at the end of its turn.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TurnOutcome {
    /// Completed or failed.
    pub status: TurnStatus,
    /// A one-line summary (`output_summary`).
    pub summary: Option<String>,
    /// Structured result (`result`).
    pub result: Option<JsonObject>,
}

impl TurnOutcome {
    /// A completed turn, nothing reported.
    pub fn completed() -> Self {
        TurnOutcome {
            status: TurnStatus::Completed,
            summary: None,
            result: None,
        }
    }

    /// A failed turn with a reason.
    pub fn failed(reason: impl Into<String>) -> Self {
        TurnOutcome {
            status: TurnStatus::Failed,
            summary: Some(reason.into()),
            result: None,
        }
    }

    /// The same outcome with a summary.
    #[must_use]
    pub fn with_summary(mut self, summary: impl Into<String>) -> Self {
        self.summary = Some(summary.into());
        self
    }

    /// The same outcome with a structured result.
    #[must_use]
    pub fn with_result(mut self, result: JsonObject) -> Self {
        self.result = Some(result);
        self
    }
}

/// What the caller's participants do: take turns and answer broadcasts.
///
/// Closures `FnMut(&mut TurnContext) -> Result<TurnOutcome, SessionError>`
/// are agents (answering broadcasts with `null`). One agent value serves
/// every participant; it can tell them apart by [`TurnContext::participant`]
/// (or use [`PerParticipant`]).
pub trait Agent {
    /// Takes one turn. Writes to the session's shared state go through
    /// `turn`, which holds the turn token.
    fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError>;

    /// Answers a broadcast addressed to `me` (participant number `index`).
    /// The default answers with an empty object.
    fn answer(&mut self, index: usize, me: &Participant, message: &JsonObject) -> JsonObject {
        let _ = (index, me, message);
        JsonObject::new()
    }
}

impl<F> Agent for F
where
    F: FnMut(&mut TurnContext<'_>) -> Result<TurnOutcome, SessionError>,
{
    fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
        self(turn)
    }
}

/// One agent per participant, by participant index.
pub struct PerParticipant<'a>(pub Vec<Box<dyn Agent + 'a>>);

impl std::fmt::Debug for PerParticipant<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PerParticipant({} agents)", self.0.len())
    }
}

impl Agent for PerParticipant<'_> {
    fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
        match self.0.get_mut(turn.holder) {
            Some(agent) => agent.take_turn(turn),
            None => Ok(TurnOutcome::completed()),
        }
    }

    fn answer(&mut self, index: usize, me: &Participant, message: &JsonObject) -> JsonObject {
        match self.0.get_mut(index) {
            Some(agent) => agent.answer(index, me, message),
            None => JsonObject::new(),
        }
    }
}

/// The books and the outputs of a session, borrowed by a turn.
struct Core<K, C> {
    session_id: SessionId,
    sink: K,
    clock: C,
    roles: Vec<ShortString>,
    participant_ids: Vec<String>,
    orchestrator_role: Option<ShortString>,
    store: Shared<ResourceStore<Value>>,
    policy: ConflictPolicy<'static, Value>,
    turns_completed: u64,
    broadcasts: u64,
    conflicts: u64,
    /// Every resolution, kept only with history on (`MapSession::with_history`).
    resolutions: Vec<Resolution>,
    history: bool,
    started_at: Option<Timestamp>,
}

impl<K: EventSink<MapEvent>, C: Clock> Core<K, C> {
    /// An event with the next id and time of the session's clock.
    fn event(&mut self, payload: MapPayload) -> MapEvent {
        let at = self.clock.now();
        self.event_at(payload, at)
    }

    /// An event with the next id of the session's clock, at `at`.
    fn event_at(&mut self, payload: MapPayload, at: Timestamp) -> MapEvent {
        let id = SchemaUuid::from_uuid(self.clock.uuid());
        MapEvent::new_at(self.session_id.clone(), payload, id, at)
    }

    /// The event role of participant `index` (empty when out of range).
    fn role(&self, index: usize) -> ShortString {
        self.roles.get(index).cloned().unwrap_or_default()
    }

    fn emit(&mut self, event: MapEvent) -> Result<(), SessionError> {
        self.sink.emit(event).map_err(SessionError::Sink)
    }
}

/// The turn being taken: who holds it, what it is about, and write access
/// to the session's shared resources (a [`ResourceStore`] of JSON values,
/// written under the turn token with compare-and-set).
pub struct TurnContext<'s> {
    holder: usize,
    turn_number: u64,
    task: Option<&'s str>,
    participant: &'s Participant,
    token: &'s TurnToken,
    core: &'s mut dyn TurnCore,
}

impl std::fmt::Debug for TurnContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnContext")
            .field("holder", &self.holder)
            .field("turn_number", &self.turn_number)
            .field("task", &self.task)
            .finish_non_exhaustive()
    }
}

/// What a turn can do with the session's books (object-safe, so that
/// [`TurnContext`] does not carry the sink and clock types).
trait TurnCore {
    fn read(&self, resource: &str) -> Option<(&Value, u64)>;
    fn resources(&self) -> &ResourceStore<Value>;
    fn write(
        &mut self,
        token: &TurnToken,
        resource: &str,
        expected: u64,
        value: Value,
    ) -> Result<WriteOutcome, SessionError>;
}

/// The result of a write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteOutcome {
    /// Written; the resource's new version.
    Written(u64),
    /// The resource had changed since the version the write was based on:
    /// a conflict was detected, resolved by the session's policy and
    /// recorded (`MAPConflictDetected`, `MAPConflictResolved`).
    Resolved(Resolution),
}

impl<K: EventSink<MapEvent>, C: Clock> TurnCore for Core<K, C> {
    fn read(&self, resource: &str) -> Option<(&Value, u64)> {
        self.store.get().get(resource)
    }

    fn resources(&self) -> &ResourceStore<Value> {
        self.store.get()
    }

    fn write(
        &mut self,
        token: &TurnToken,
        resource: &str,
        expected: u64,
        value: Value,
    ) -> Result<WriteOutcome, SessionError> {
        let writer = self
            .participant_ids
            .get(token.holder())
            .cloned()
            .unwrap_or_default();
        let store = self.store.write(token)?;
        let conflict = match store.compare_and_set(resource, expected, value, &writer) {
            Ok(v) => return Ok(WriteOutcome::Written(v)),
            Err(c) => c,
        };
        self.conflicts += 1;
        let role_of = |core: &Self, pid: &str| {
            core.participant_ids
                .iter()
                .position(|p| p == pid)
                .and_then(|i| core.roles.get(i).cloned())
                .unwrap_or_else(|| ShortString::from(pid))
        };
        let mut detected = ConflictDetected::new();
        detected.conflict_id = Some(conflict.id().to_string().into());
        detected.resource = Some(conflict.resource().to_owned());
        detected.participants = Some(vec![
            role_of(self, conflict.incumbent()),
            role_of(self, conflict.challenger()),
        ]);
        detected.conflict_type = Some("concurrent_modification".into());
        let e = self.event(MapPayload::ConflictDetected(Some(detected)));
        self.emit(e)?;
        let resolution = self
            .store
            .write(token)?
            .resolve(conflict, &mut self.policy)?;
        let mut resolved = ConflictResolved::new();
        resolved.conflict_id = Some(resolution.conflict_id.to_string().into());
        resolved.strategy = Some(resolution.strategy.as_str().into());
        resolved.winner = Some(role_of(self, &resolution.winner));
        resolved.reason = Some(resolution.reason.clone());
        let mut e = self.event(MapPayload::ConflictResolved(Some(resolved)));
        if resolution.strategy == crate::conflict::ConflictStrategy::OrchestratorDecides {
            e.initiator_role.clone_from(&self.orchestrator_role);
        }
        self.emit(e)?;
        if self.history {
            self.resolutions.push(resolution.clone());
        }
        Ok(WriteOutcome::Resolved(resolution))
    }
}

impl<'s> TurnContext<'s> {
    /// The participant holding the turn.
    pub fn participant(&self) -> &Participant {
        self.participant
    }

    /// Its index in the Collab's participant list.
    pub fn holder(&self) -> usize {
        self.holder
    }

    /// The turn's number (1, 2, 3, ...).
    pub fn turn_number(&self) -> u64 {
        self.turn_number
    }

    /// What the turn is about (a plan step's description, a swarm task).
    pub fn task(&self) -> Option<&str> {
        self.task
    }

    /// Reads a shared resource: its value and version.
    pub fn read(&self, resource: &str) -> Option<(&Value, u64)> {
        self.core.read(resource)
    }

    /// Every shared resource (what a remote participant is sent with its turn).
    pub fn resources(&self) -> &ResourceStore<Value> {
        self.core.resources()
    }

    /// Writes a resource based on the version last read (compare-and-set).
    /// A stale version is a conflict, which the session resolves and records.
    pub fn write_at(
        &mut self,
        resource: &str,
        expected_version: u64,
        value: Value,
    ) -> Result<WriteOutcome, SessionError> {
        self.core
            .write(self.token, resource, expected_version, value)
    }

    /// Reads the current version, then writes (never conflicts while the
    /// turn is exclusive).
    pub fn write(&mut self, resource: &str, value: Value) -> Result<WriteOutcome, SessionError> {
        let expected = self.read(resource).map_or(0, |(_, v)| v);
        self.write_at(resource, expected, value)
    }
}

/// The counts of a finished session (also in `MAPSessionCompleted`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionSummary {
    /// `completed` or `cancelled`.
    pub status: CollabStatus,
    /// Turns completed (= turns dispatched: the runtime completes every turn).
    pub turns_total: u64,
    /// Broadcasts sent.
    pub broadcasts_count: u64,
    /// Conflicts detected (each was resolved).
    pub conflicts_count: u64,
    /// Participants.
    pub participants_count: u64,
}

/// A session being run. See the [module docs](self).
pub struct MapSession<K: EventSink<MapEvent>, C: Clock = SystemClock> {
    collab: Collab,
    turns: TurnManager,
    core: Core<K, C>,
    completed: bool,
}

impl<K: EventSink<MapEvent>, C: Clock> std::fmt::Debug for MapSession<K, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapSession")
            .field("collab_id", &self.collab.collab_id)
            .field("status", &self.collab.status)
            .field("turns", &self.turns.dispatched())
            .finish_non_exhaustive()
    }
}

mplp_core::declare_rules! {
    /// The rules of the session runtime.
    pub(crate) const RULES;

    /// The session was already completed or cancelled.
    pub const MAP_SESSION_FINISHED = "map_session_finished" {
        strict: Error,
        scope: Api,
        source: Source::Prose { doc: "Collab Module", section: "4. Lifecycle State Machine" },
        summary: "an operation on a session already completed or cancelled",
    }
}

impl<K: EventSink<MapEvent>> MapSession<K, SystemClock> {
    /// A session for `collab` (checked with [`Collab::check_structure`])
    /// emitting to `sink`, with the system clock.
    pub fn new(collab: Collab, sink: K) -> Result<Self, SessionError> {
        MapSession::with_clock(collab, sink, SystemClock)
    }
}

impl<K: EventSink<MapEvent>, C: Clock> MapSession<K, C> {
    /// A session with its own clock (a [`SimClock`](crate::sink::SimClock)
    /// makes the whole log reproducible).
    pub fn with_clock(collab: Collab, sink: K, mut clock: C) -> Result<Self, SessionError> {
        let mut report = mplp_core::Report::new();
        collab.check_structure(&mut report);
        report.into_result(())?;
        let ids: Vec<String> = collab
            .participants
            .iter()
            .map(|p| p.participant_id.to_string())
            .collect();
        let roles: Vec<ShortString> = collab
            .participants
            .iter()
            .map(|p| ShortString::from(p.event_role()))
            .collect();
        let orchestrator = collab
            .participants
            .iter()
            .position(Participant::is_orchestrator);
        let seed = clock.uuid().as_u64_pair().0;
        let turns = TurnManager::new(collab.mode, ids.clone(), orchestrator)?.with_seed(seed);
        // No history by default: the session's memory stays bounded by its
        // participants, resources and open turns, conflicts and broadcasts.
        let mut store = turns.shared(ResourceStore::with_seed(seed ^ 0x5eed));
        store.record_writes(false);
        store.value_mut().record_conflicts(false);
        let policy = match collab.mode {
            CollabMode::Orchestrated => orchestrator_prefers_first(),
            _ => ConflictPolicy::FirstWriterWins,
        };
        let core = Core {
            session_id: SessionId::from(collab.collab_id),
            sink,
            clock,
            orchestrator_role: orchestrator.and_then(|i| roles.get(i).cloned()),
            roles,
            participant_ids: ids,
            store,
            policy,
            turns_completed: 0,
            broadcasts: 0,
            conflicts: 0,
            resolutions: Vec::new(),
            history: false,
            started_at: None,
        };
        Ok(MapSession {
            collab,
            turns,
            core,
            completed: false,
        })
    }

    /// Chooses how conflicts are resolved (default: first writer wins; in
    /// `orchestrated` sessions, the orchestrator decides, keeping the
    /// first write).
    pub fn set_conflict_policy(&mut self, policy: ConflictPolicy<'static, Value>) {
        self.core.policy = policy;
    }

    /// The Collab document, with its current status.
    pub fn collab(&self) -> &Collab {
        &self.collab
    }

    /// The sink.
    pub fn sink(&self) -> &K {
        &self.core.sink
    }

    /// The sink, mutably.
    pub fn sink_mut(&mut self) -> &mut K {
        &mut self.core.sink
    }

    /// The turn manager (turn state, turns held per participant).
    pub fn turns(&self) -> &TurnManager {
        &self.turns
    }

    /// The shared resources (read-only; writes need a turn).
    pub fn resources(&self) -> &ResourceStore<Value> {
        self.core.store.get()
    }

    /// The same session keeping its history: every write to the shared
    /// resources ([`MapSession::writes`]), every conflict resolution
    /// ([`MapSession::resolutions`]) and the store's conflict record
    /// ([`ResourceStore::record`]), from now on.
    ///
    /// Off by default: a session then runs in memory bounded by its
    /// participants, its resources and what is open (turns, conflicts,
    /// broadcast rounds), whatever the number of turns; the history grows
    /// with every turn. The counts are always kept ([`SessionSummary`],
    /// [`MapSession::write_count`]), and the MAP log is the same either way.
    ///
    /// ```
    /// use mplp_collab::runtime::{MapSession, TurnOutcome};
    /// use mplp_collab::sink::NullSink;
    /// use mplp_collab::{Collab, Participant, ParticipantKind};
    /// use mplp_core::{CollabMode, ContextId, NonEmptyVec};
    ///
    /// let people = NonEmptyVec::new(Participant::new("ana", ParticipantKind::Human)?);
    /// let collab = Collab::new(ContextId::new(), "Notes", "Take notes", CollabMode::RoundRobin, people)?;
    /// let mut agent = |turn: &mut mplp_collab::runtime::TurnContext<'_>| {
    ///     turn.write("notes", serde_json::json!(turn.turn_number()))?;
    ///     Ok(TurnOutcome::completed())
    /// };
    /// let mut plain = MapSession::new(collab.clone(), NullSink::default())?;
    /// let mut kept = MapSession::new(collab, NullSink::default())?.with_history();
    /// for session in [&mut plain, &mut kept] {
    ///     session.start()?;
    ///     for _ in 0..3 {
    ///         session.turn(&mut agent)?;
    ///     }
    /// }
    /// assert_eq!((plain.write_count(), plain.writes().len()), (3, 0));
    /// assert_eq!((kept.write_count(), kept.writes().len()), (3, 3));
    /// # Ok::<(), mplp_collab::runtime::SessionError>(())
    /// ```
    #[must_use]
    pub fn with_history(mut self) -> Self {
        self.core.history = true;
        self.core.store.record_writes(true);
        self.core.store.value_mut().record_conflicts(true);
        self
    }

    /// True when the session keeps its history ([`MapSession::with_history`]).
    pub fn keeps_history(&self) -> bool {
        self.core.history
    }

    /// Every write to the shared resources, with the turn it was made under,
    /// since [`MapSession::with_history`] (empty without history).
    pub fn writes(&self) -> &[crate::turns::WriteRecord] {
        self.core.store.writes()
    }

    /// How many writes were made to the shared resources (with or without
    /// history; a conflict's resolution counts as a second write).
    pub fn write_count(&self) -> u64 {
        self.core.store.write_count()
    }

    /// Every conflict resolution since [`MapSession::with_history`] (empty
    /// without history; the count is in [`SessionSummary::conflicts_count`]).
    pub fn resolutions(&self) -> &[Resolution] {
        &self.core.resolutions
    }

    /// Gives the sink back.
    pub fn into_sink(self) -> K {
        self.core.sink
    }

    /// `draft → active`: emits `MAPSessionStarted` and `MAPRolesAssigned`.
    pub fn start(&mut self) -> Result<(), SessionError> {
        let at = self.core.clock.now();
        self.collab
            .transition_at(CollabStatus::Active, at.clone())?;
        self.core.started_at = Some(at);
        let mut started =
            SessionStarted::new(self.collab.mode, self.collab.participants.len() as u64);
        started.context_id = Some(self.collab.context_id.to_string());
        started.purpose = Some(self.collab.purpose.to_string());
        let e = self.core.event(MapPayload::SessionStarted(started));
        self.core.emit(e)?;
        let assignments = self
            .collab
            .participants
            .iter()
            .map(|p| {
                RoleAssignment::new(p.participant_id.as_str().into(), p.event_role().into())
                    .with_kind(p.kind.as_str())
            })
            .collect();
        let e = self
            .core
            .event(MapPayload::RolesAssigned(RolesAssigned::new(assignments)));
        self.core.emit(e)
    }

    /// `active → suspended` (no MAP event: the profile has none).
    pub fn suspend(&mut self) -> Result<(), SessionError> {
        let at = self.core.clock.now();
        Ok(self.collab.transition_at(CollabStatus::Suspended, at)?)
    }

    /// `suspended → active`.
    pub fn resume(&mut self) -> Result<(), SessionError> {
        if self.collab.status != CollabStatus::Suspended {
            return Err(Error::from(mplp_core::TransitionError::new(
                "collab",
                "/status",
                self.collab.status.as_str(),
                "active",
                "only a suspended session resumes",
            ))
            .into());
        }
        let at = self.core.clock.now();
        Ok(self.collab.transition_at(CollabStatus::Active, at)?)
    }

    /// The next turn in the mode's order (`round_robin`, `pair`,
    /// `orchestrated` — the orchestrator cycles over the others —, `broadcast`).
    pub fn turn(&mut self, agent: &mut dyn Agent) -> Result<TurnOutcome, SessionError> {
        self.run_turn(None, None, agent)
    }

    /// A turn for the participant at `holder`, about `task`: the
    /// orchestrator's dispatch (`orchestrated`, `broadcast`), or a claim (`swarm`).
    pub fn turn_for(
        &mut self,
        holder: usize,
        task: Option<&str>,
        agent: &mut dyn Agent,
    ) -> Result<TurnOutcome, SessionError> {
        self.run_turn(Some(holder), task, agent)
    }

    fn run_turn(
        &mut self,
        holder: Option<usize>,
        task: Option<&str>,
        agent: &mut dyn Agent,
    ) -> Result<TurnOutcome, SessionError> {
        let token = self.dispatch(holder, task)?;
        self.finish(token, task, agent)
    }

    /// Dispatches a turn (emitting `MAPTurnDispatched`) and gives its token.
    pub(crate) fn dispatch(
        &mut self,
        holder: Option<usize>,
        task: Option<&str>,
    ) -> Result<TurnToken, SessionError> {
        ensure_can_act(self.collab.status)?;
        let at = self.core.clock.now();
        let token = match holder {
            None => self.turns.dispatch_next(at.clone())?,
            Some(h) => self.turns.dispatch_to(h, at.clone())?,
        };
        let role = self.core.role(token.holder());
        let mut p = TurnDispatched::new(role.clone(), token.turn_number());
        let mut buf = uuid::Uuid::encode_buffer();
        p.token_id = Some(ShortString::from(
            &*token.token_id().hyphenated().encode_lower(&mut buf),
        ));
        p.task = task.map(str::to_owned);
        let mut e = self
            .core
            .event_at(MapPayload::TurnDispatched(p), at)
            .with_target_roles(vec![role]);
        if self.collab.mode == CollabMode::Orchestrated {
            e.initiator_role.clone_from(&self.core.orchestrator_role);
        }
        // The token is outstanding in the manager; a sink error leaves the
        // session unusable, as documented on SessionError::Sink.
        self.core.emit(e)?;
        Ok(token)
    }

    /// Lets the agent act under `token`, then completes the turn (emitting
    /// `MAPTurnCompleted`), consuming the token.
    fn finish(
        &mut self,
        token: TurnToken,
        task: Option<&str>,
        agent: &mut dyn Agent,
    ) -> Result<TurnOutcome, SessionError> {
        let outcome = {
            let mut ctx = self.context(&token, task)?;
            agent.take_turn(&mut ctx)
        };
        self.settle(token, outcome)
    }

    /// The context of the turn held by `token` (what an agent acts through).
    pub(crate) fn context<'s>(
        &'s mut self,
        token: &'s TurnToken,
        task: Option<&'s str>,
    ) -> Result<TurnContext<'s>, SessionError> {
        let holder = token.holder();
        let participant = self.collab.participants.get(holder).ok_or_else(|| {
            Error::single("/participants", Rule::MIN_ITEMS, "no such participant")
        })?;
        Ok(TurnContext {
            holder,
            turn_number: token.turn_number(),
            task,
            participant,
            token,
            core: &mut self.core,
        })
    }

    /// Completes the turn of `token` with what the agent gave.
    pub(crate) fn settle(
        &mut self,
        token: TurnToken,
        outcome: Result<TurnOutcome, SessionError>,
    ) -> Result<TurnOutcome, SessionError> {
        // A turn is always completed, even when the agent erred: the log
        // must pair every dispatch with a completion.
        let outcome = match outcome {
            Ok(o) => o,
            Err(SessionError::Agent { message, .. }) => TurnOutcome::failed(message),
            Err(other) => {
                self.complete_turn(token, &TurnOutcome::failed(other.to_string()))?;
                return Err(other);
            }
        };
        self.complete_turn(token, &outcome)?;
        Ok(outcome)
    }

    fn complete_turn(
        &mut self,
        token: TurnToken,
        outcome: &TurnOutcome,
    ) -> Result<(), SessionError> {
        let at = self.core.clock.now();
        let mut p = TurnCompleted::new(
            self.core.role(token.holder()),
            token.turn_number(),
            outcome.status.as_str().into(),
        );
        p.output_summary.clone_from(&outcome.summary);
        p.result.clone_from(&outcome.result);
        self.turns.complete(token, at.clone())?;
        self.core.turns_completed += 1;
        let e = self.core.event_at(MapPayload::TurnCompleted(p), at);
        self.core.emit(e)
    }

    /// Swarm: every participant in `claimers` claims one of `tasks` at the
    /// same time (overlapping turns, one per participant, no task twice);
    /// the turns then complete in the order given by `completion_order`
    /// (indexes into the claims; missing ones complete afterwards, in claim
    /// order). Returns the outcomes in claim order.
    pub fn swarm_round(
        &mut self,
        claims: &[(usize, &str)],
        completion_order: &[usize],
        agent: &mut dyn Agent,
    ) -> Result<Vec<TurnOutcome>, SessionError> {
        let (mut tokens, order) = self.swarm_dispatch(claims, completion_order)?;
        let mut outcomes: Vec<Option<TurnOutcome>> = vec![None; claims.len()];
        for i in order {
            if let Some(token) = tokens.get_mut(i).and_then(Option::take) {
                let task = claims.get(i).map(|(_, t)| *t);
                let o = self.finish(token, task, agent)?;
                if let Some(slot) = outcomes.get_mut(i) {
                    *slot = Some(o);
                }
            }
        }
        Ok(outcomes.into_iter().flatten().collect())
    }

    /// Dispatches every claim of a swarm round; gives the tokens (in claim
    /// order) and the order in which they complete.
    pub(crate) fn swarm_dispatch(
        &mut self,
        claims: &[(usize, &str)],
        completion_order: &[usize],
    ) -> Result<(Vec<Option<TurnToken>>, Vec<usize>), SessionError> {
        if claims.len() > 1 && self.collab.mode != CollabMode::Swarm {
            return Err(Error::State(Violation::error(
                "/mode",
                crate::turns::MAP_TURN_ORDER,
                format!(
                    "overlapping turns happen only in `swarm` sessions; this one is `{}`",
                    self.collab.mode
                ),
            ))
            .into());
        }
        let mut tokens: Vec<Option<TurnToken>> = Vec::with_capacity(claims.len());
        for (holder, task) in claims {
            match self.dispatch(Some(*holder), Some(task)) {
                Ok(t) => tokens.push(Some(t)),
                Err(e) => {
                    // Refused claim (a participant claiming twice, ...): the
                    // turns already dispatched are completed as failed, so
                    // the log still pairs every dispatch with a completion.
                    for t in tokens.into_iter().flatten() {
                        self.complete_turn(t, &TurnOutcome::failed("claim round refused"))?;
                    }
                    return Err(e);
                }
            }
        }
        let order = completion_order
            .iter()
            .copied()
            .chain(0..claims.len())
            .collect::<Vec<_>>();
        Ok((tokens, order))
    }

    /// Broadcast from participant `sender` to every other: emits
    /// `MAPBroadcastSent`, asks each target's agent for its answer
    /// ([`Agent::answer`]) and emits one `MAPBroadcastReceived` per answer.
    pub fn broadcast(
        &mut self,
        sender: usize,
        message: JsonObject,
        agent: &mut dyn Agent,
    ) -> Result<BroadcastRound, SessionError> {
        let (mut round, id) = self.broadcast_send(sender, &message)?;
        let target_ids: Vec<usize> = round.targets().to_vec();
        for t in target_ids {
            let Some(me) = self.collab.participants.get(t) else {
                continue;
            };
            let response = agent.answer(t, me, &message);
            self.broadcast_receive(&mut round, id, t, response)?;
        }
        Ok(round)
    }

    /// Opens a broadcast round (emitting `MAPBroadcastSent`); gives the
    /// round and its id.
    pub(crate) fn broadcast_send(
        &mut self,
        sender: usize,
        message: &JsonObject,
    ) -> Result<(BroadcastRound, uuid::Uuid), SessionError> {
        ensure_can_act(self.collab.status)?;
        let n = self.collab.participants.len();
        if sender >= n {
            return Err(Error::single(
                "/participants",
                crate::turns::MAP_TURN_ORDER,
                format!("there is no participant {sender}"),
            )
            .into());
        }
        let id = self.core.clock.uuid();
        let round = BroadcastRound::new(id, sender, n, Value::Object(message.clone().into_map()));
        let sender_role = self.core.role(sender);
        let targets: Vec<ShortString> = round
            .targets()
            .iter()
            .filter_map(|t| self.core.roles.get(*t).cloned())
            .collect();
        let mut p = BroadcastSent::new();
        p.broadcaster_role_id = Some(sender_role.clone());
        p.target_count = Some(targets.len() as u64);
        p.broadcast_id = Some(id.to_string().into());
        p.message = Some(message.clone());
        let e = self
            .core
            .event(MapPayload::BroadcastSent(Some(p)))
            .with_initiator_role(sender_role)
            .with_target_roles(targets);
        self.core.emit(e)?;
        self.core.broadcasts += 1;
        Ok((round, id))
    }

    /// Records target `t`'s answer to the round (emitting `MAPBroadcastReceived`).
    pub(crate) fn broadcast_receive(
        &mut self,
        round: &mut BroadcastRound,
        id: uuid::Uuid,
        t: usize,
        response: JsonObject,
    ) -> Result<(), SessionError> {
        round.receive(t, Value::Object(response.clone().into_map()))?;
        let mut p = BroadcastReceived::new();
        p.receiver_role_id = self.core.roles.get(t).cloned();
        // `broadcast_ref`: the spelling the MAP events seed's check reads
        // (section 7.2, `validateBroadcastReceivers`).
        p.broadcast_ref = Some(id.to_string().into());
        p.response = Some(response);
        let e = self.core.event(MapPayload::BroadcastReceived(Some(p)));
        self.core.emit(e)
    }

    /// `active → completed`: emits `MAPSessionCompleted` with the counts.
    pub fn complete(&mut self) -> Result<SessionSummary, SessionError> {
        self.finish_session(CollabStatus::Completed)
    }

    /// `→ cancelled`: emits `MAPSessionCompleted` with status `cancelled`
    /// (when the session had started).
    pub fn cancel(&mut self) -> Result<SessionSummary, SessionError> {
        self.finish_session(CollabStatus::Cancelled)
    }

    fn finish_session(&mut self, to: CollabStatus) -> Result<SessionSummary, SessionError> {
        if self.completed {
            return Err(Error::State(Violation::error(
                "/status",
                MAP_SESSION_FINISHED,
                "the session has already ended",
            ))
            .into());
        }
        let at = self.core.clock.now();
        self.collab.transition_at(to, at)?;
        self.completed = true;
        let summary = SessionSummary {
            status: to,
            turns_total: self.core.turns_completed,
            broadcasts_count: self.core.broadcasts,
            conflicts_count: self.core.conflicts,
            participants_count: self.collab.participants.len() as u64,
        };
        if self.core.started_at.is_some() {
            let mut p = SessionCompleted::new(to.as_str().into(), summary.turns_total);
            p.participants_count = Some(summary.participants_count);
            p.broadcasts_count = Some(summary.broadcasts_count);
            p.conflicts_count = Some(summary.conflicts_count);
            if let (Some(start), Some(end)) = (
                self.core.started_at.as_ref(),
                self.collab.updated_at.as_ref(),
            ) {
                let ms = (end.instant() - start.instant()).whole_milliseconds();
                p.duration_ms = u64::try_from(ms).ok();
            }
            let e = self.core.event(MapPayload::SessionCompleted(p));
            self.core.emit(e)?;
        }
        Ok(summary)
    }
}

/// The default policy of orchestrated sessions: the orchestrator decides,
/// and keeps the write already made.
fn orchestrator_prefers_first() -> ConflictPolicy<'static, Value> {
    ConflictPolicy::OrchestratorDecides(Box::new(|_, _| crate::conflict::Winner::Incumbent))
}
