//! Async sessions (feature `tokio`): [`AsyncMapSession`] drives a session in
//! any mode with [`AsyncAgent`]s (agents that `.await` a model over HTTP, a
//! tool, a person) and emits to an [`AsyncEventSink`].
//!
//! It is the blocking [`MapSession`] underneath: the same books, the same
//! rules, the same clock readings in the same order, so for the same clock
//! and the same agent behaviour both write the same log, event for event
//! (a property test compares them). Events are handed to the async sink
//! after each step; the conflict events of a turn are handed over when the
//! turn ends, before its `MAPTurnCompleted`, in the order they happened.
//!
//! Every blocking [`Agent`] is an [`AsyncAgent`] too, so a session can mix
//! the two.
//!
//! ```
//! use mplp_collab::runtime::async_session::{AsyncAgent, AsyncMapSession};
//! use mplp_collab::runtime::{SessionError, TurnContext, TurnOutcome};
//! use mplp_collab::{Collab, Participant, ParticipantKind};
//! use mplp_core::{CollabMode, ContextId, NonEmptyVec};
//!
//! /// An agent that waits for something (a model, a tool) in its turn.
//! struct Writer;
//!
//! impl AsyncAgent for Writer {
//!     async fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
//!         tokio::task::yield_now().await; // stands for an HTTP call
//!         turn.write("draft", serde_json::json!(turn.turn_number()))?;
//!         Ok(TurnOutcome::completed())
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut people = NonEmptyVec::new(Participant::new("ana", ParticipantKind::Agent)?.with_role("writer"));
//! people.push(Participant::new("bob", ParticipantKind::Agent)?.with_role("editor"));
//! let collab = Collab::new(ContextId::new(), "Draft", "Write it", CollabMode::RoundRobin, people)?;
//! let mut session = AsyncMapSession::new(collab, Vec::new())?; // Vec<MapEvent> is a sink
//! session.start().await?;
//! for _ in 0..3 {
//!     session.turn(&mut Writer).await?;
//! }
//! let summary = session.complete().await?;
//! assert_eq!(summary.turns_total, 3);
//! assert_eq!(session.resources().get("draft").map(|(v, _)| v.clone()), Some(serde_json::json!(3)));
//! let log = session.into_sink();
//! assert!(mplp_events::log::validate_map_log(&mplp_collab::sink::MemorySink { events: log }.to_ndjson().as_bytes()[..]).is_empty());
//! # Ok::<(), SessionError>(()) }).unwrap();
//! ```
//!
//! # Turn tokens across `.await`
//!
//! The turn token keeps its guarantees in async code: it is neither `Clone`
//! nor `Copy`, so once it is moved into one task no other task can hold it.
//! This compiles (one task holds the token and gives it back):
//!
//! ```
//! use mplp_collab::turns::TurnManager;
//! use mplp_core::{CollabMode, Timestamp};
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut turns = TurnManager::new(CollabMode::RoundRobin, vec!["a", "b"], None)?;
//! let token = turns.dispatch_next(Timestamp::now())?;
//! let held = tokio::spawn(async move { token }).await.unwrap();
//! turns.complete(held, Timestamp::now())?;
//! # Ok::<(), mplp_core::Error>(()) }).unwrap();
//! ```
//!
//! and this does not (error E0382: the token was moved into the first task):
//!
//! ```compile_fail,E0382
//! use mplp_collab::turns::TurnManager;
//! use mplp_core::{CollabMode, Timestamp};
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut turns = TurnManager::new(CollabMode::RoundRobin, vec!["a", "b"], None)?;
//! let token = turns.dispatch_next(Timestamp::now())?;
//! let first = tokio::spawn(async move { token });
//! let second = tokio::spawn(async move { token });
//! # Ok::<(), mplp_core::Error>(()) }).unwrap();
//! ```
//!
//! nor does copying it for a second task (error E0599: no `clone`):
//!
//! ```compile_fail,E0599
//! use mplp_collab::turns::TurnManager;
//! use mplp_core::{CollabMode, Timestamp};
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut turns = TurnManager::new(CollabMode::RoundRobin, vec!["a", "b"], None)?;
//! let token = turns.dispatch_next(Timestamp::now())?;
//! let copy = token.clone();
//! let first = tokio::spawn(async move { token });
//! let second = tokio::spawn(async move { copy });
//! # Ok::<(), mplp_core::Error>(()) }).unwrap();
//! ```
//!
//! An agent's [`TurnContext`] (which holds the token for the turn) borrows
//! the session, so it cannot outlive the turn or be sent to another task
//! either: the futures of an async session are not `Send`. Drive a session
//! from one task (`#[tokio::main]`'s, a `LocalSet`, or `join_all` of many
//! sessions); an agent may still spawn `Send` work and await it.

use std::future::Future;

use serde_json::Value;

use mplp_core::JsonObject;
use mplp_events::MapEvent;
use mplp_events::log::async_io::AsyncEventSink;

use crate::broadcast::BroadcastRound;
use crate::conflict::{ConflictPolicy, Resolution, ResourceStore};
use crate::runtime::{Agent, MapSession, SessionError, SessionSummary, TurnContext, TurnOutcome};
use crate::sink::{Clock, SystemClock};
use crate::turns::{TurnManager, TurnToken};
use crate::{Collab, Participant};

/// An agent whose turns and answers may wait (`.await`): the async twin of
/// [`Agent`]. Every [`Agent`] is an `AsyncAgent` whose futures are ready at
/// once.
pub trait AsyncAgent {
    /// Takes one turn. Writes to the session's shared state go through
    /// `turn`, which holds the turn token for as long as the future runs.
    fn take_turn(
        &mut self,
        turn: &mut TurnContext<'_>,
    ) -> impl Future<Output = Result<TurnOutcome, SessionError>>;

    /// Answers a broadcast addressed to `me` (participant number `index`).
    /// The default answers with an empty object.
    fn answer(
        &mut self,
        index: usize,
        me: &Participant,
        message: &JsonObject,
    ) -> impl Future<Output = JsonObject> {
        let _ = (index, me, message);
        std::future::ready(JsonObject::new())
    }
}

impl<A: Agent + ?Sized> AsyncAgent for A {
    fn take_turn(
        &mut self,
        turn: &mut TurnContext<'_>,
    ) -> impl Future<Output = Result<TurnOutcome, SessionError>> {
        std::future::ready(Agent::take_turn(self, turn))
    }

    fn answer(
        &mut self,
        index: usize,
        me: &Participant,
        message: &JsonObject,
    ) -> impl Future<Output = JsonObject> {
        std::future::ready(Agent::answer(self, index, me, message))
    }
}

/// A session driven by async agents, emitting to an async sink. See the
/// [module docs](self).
pub struct AsyncMapSession<S, C: Clock = SystemClock> {
    inner: MapSession<Vec<MapEvent>, C>,
    sink: S,
}

impl<S, C: Clock> std::fmt::Debug for AsyncMapSession<S, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsyncMapSession")
            .field("session", &self.inner)
            .finish_non_exhaustive()
    }
}

impl<S: AsyncEventSink<MapEvent>> AsyncMapSession<S, SystemClock> {
    /// A session for `collab` (checked with [`Collab::check_structure`])
    /// emitting to `sink`, with the system clock.
    pub fn new(collab: Collab, sink: S) -> Result<Self, SessionError> {
        Self::with_clock(collab, sink, SystemClock)
    }
}

impl<S: AsyncEventSink<MapEvent>, C: Clock> AsyncMapSession<S, C> {
    /// A session with its own clock (a [`SimClock`](crate::sink::SimClock)
    /// makes the log reproducible, and equal to the blocking session's).
    pub fn with_clock(collab: Collab, sink: S, clock: C) -> Result<Self, SessionError> {
        Ok(AsyncMapSession {
            inner: MapSession::with_clock(collab, Vec::new(), clock)?,
            sink,
        })
    }

    /// Chooses how conflicts are resolved (as [`MapSession::set_conflict_policy`]).
    pub fn set_conflict_policy(&mut self, policy: ConflictPolicy<'static, Value>) {
        self.inner.set_conflict_policy(policy);
    }

    /// The Collab document, with its current status.
    pub fn collab(&self) -> &Collab {
        self.inner.collab()
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The sink, mutably.
    pub fn sink_mut(&mut self) -> &mut S {
        &mut self.sink
    }

    /// The turn manager (turn state, turns held per participant).
    pub fn turns(&self) -> &TurnManager {
        self.inner.turns()
    }

    /// The shared resources (read-only; writes need a turn).
    pub fn resources(&self) -> &ResourceStore<Value> {
        self.inner.resources()
    }

    /// The same session keeping its history (as [`MapSession::with_history`];
    /// off by default, when memory does not grow with the turns).
    #[must_use]
    pub fn with_history(mut self) -> Self {
        self.inner = self.inner.with_history();
        self
    }

    /// True when the session keeps its history.
    pub fn keeps_history(&self) -> bool {
        self.inner.keeps_history()
    }

    /// Every write to the shared resources since
    /// [`AsyncMapSession::with_history`] (empty without history).
    pub fn writes(&self) -> &[crate::turns::WriteRecord] {
        self.inner.writes()
    }

    /// How many writes were made to the shared resources.
    pub fn write_count(&self) -> u64 {
        self.inner.write_count()
    }

    /// Every conflict resolution since [`AsyncMapSession::with_history`]
    /// (empty without history).
    pub fn resolutions(&self) -> &[Resolution] {
        self.inner.resolutions()
    }

    /// Gives the sink back.
    pub fn into_sink(self) -> S {
        self.sink
    }

    /// Hands the events of the last step to the sink, in order.
    async fn flush(&mut self) -> Result<(), SessionError> {
        for e in self.inner.sink_mut().drain(..) {
            self.sink.emit(e).await.map_err(SessionError::Sink)?;
        }
        Ok(())
    }

    /// Runs a blocking step, then hands its events over (also when it failed).
    async fn step<T>(
        &mut self,
        f: impl FnOnce(&mut MapSession<Vec<MapEvent>, C>) -> Result<T, SessionError>,
    ) -> Result<T, SessionError> {
        let r = f(&mut self.inner);
        self.flush().await?;
        r
    }

    /// `draft → active`: emits `MAPSessionStarted` and `MAPRolesAssigned`.
    pub async fn start(&mut self) -> Result<(), SessionError> {
        self.step(MapSession::start).await
    }

    /// `active → suspended` (no MAP event).
    pub async fn suspend(&mut self) -> Result<(), SessionError> {
        self.step(MapSession::suspend).await
    }

    /// `suspended → active`.
    pub async fn resume(&mut self) -> Result<(), SessionError> {
        self.step(MapSession::resume).await
    }

    /// `active → completed`: emits `MAPSessionCompleted` with the counts.
    pub async fn complete(&mut self) -> Result<SessionSummary, SessionError> {
        self.step(MapSession::complete).await
    }

    /// `→ cancelled`: emits `MAPSessionCompleted` with status `cancelled`.
    pub async fn cancel(&mut self) -> Result<SessionSummary, SessionError> {
        self.step(MapSession::cancel).await
    }

    /// The next turn in the mode's order (as [`MapSession::turn`]).
    pub async fn turn<A: AsyncAgent + ?Sized>(
        &mut self,
        agent: &mut A,
    ) -> Result<TurnOutcome, SessionError> {
        let token = self.step(|s| s.dispatch(None, None)).await?;
        self.finish(token, None, agent).await
    }

    /// A turn for the participant at `holder`, about `task` (as
    /// [`MapSession::turn_for`]).
    pub async fn turn_for<A: AsyncAgent + ?Sized>(
        &mut self,
        holder: usize,
        task: Option<&str>,
        agent: &mut A,
    ) -> Result<TurnOutcome, SessionError> {
        let token = self.step(|s| s.dispatch(Some(holder), task)).await?;
        self.finish(token, task, agent).await
    }

    /// Lets the agent act under `token` (awaiting it), then completes the turn.
    async fn finish<A: AsyncAgent + ?Sized>(
        &mut self,
        token: TurnToken,
        task: Option<&str>,
        agent: &mut A,
    ) -> Result<TurnOutcome, SessionError> {
        let outcome = {
            let mut ctx = self.inner.context(&token, task)?;
            agent.take_turn(&mut ctx).await
        };
        self.step(|s| s.settle(token, outcome)).await
    }

    /// Swarm: overlapping claims completing in `completion_order` (as
    /// [`MapSession::swarm_round`]).
    pub async fn swarm_round<A: AsyncAgent + ?Sized>(
        &mut self,
        claims: &[(usize, &str)],
        completion_order: &[usize],
        agent: &mut A,
    ) -> Result<Vec<TurnOutcome>, SessionError> {
        let (mut tokens, order) = self
            .step(|s| s.swarm_dispatch(claims, completion_order))
            .await?;
        let mut outcomes: Vec<Option<TurnOutcome>> = vec![None; claims.len()];
        for i in order {
            if let Some(token) = tokens.get_mut(i).and_then(Option::take) {
                let task = claims.get(i).map(|(_, t)| *t);
                let o = self.finish(token, task, agent).await?;
                if let Some(slot) = outcomes.get_mut(i) {
                    *slot = Some(o);
                }
            }
        }
        Ok(outcomes.into_iter().flatten().collect())
    }

    /// Broadcast from participant `sender` to every other, awaiting each
    /// answer in turn (as [`MapSession::broadcast`]).
    pub async fn broadcast<A: AsyncAgent + ?Sized>(
        &mut self,
        sender: usize,
        message: JsonObject,
        agent: &mut A,
    ) -> Result<BroadcastRound, SessionError> {
        let (mut round, id) = self.step(|s| s.broadcast_send(sender, &message)).await?;
        let target_ids: Vec<usize> = round.targets().to_vec();
        for t in target_ids {
            let Some(me) = self.inner.collab().participants.get(t) else {
                continue;
            };
            let response = agent.answer(t, me, &message).await;
            self.step(|s| s.broadcast_receive(&mut round, id, t, response))
                .await?;
        }
        Ok(round)
    }
}
