//! Turn management and exclusive write (`map_exclusive_write`).
//!
//! A [`TurnManager`] hands out turns. Each dispatched turn is a
//! [`TurnToken`]: it cannot be cloned or copied, writing to a [`Shared`]
//! state needs a reference to it, and completing the turn consumes it. A
//! participant without the token has nothing to write with:
//!
//! ```compile_fail
//! use mplp_collab::turns::TurnManager;
//! use mplp_core::{CollabMode, Timestamp};
//! let mut turns = TurnManager::new(CollabMode::RoundRobin, ["a", "b"], None).unwrap();
//! let mut board = turns.shared(Vec::<&str>::new());
//! let token = turns.dispatch_next(Timestamp::now()).unwrap();
//! let stolen = token.clone(); // error: TurnToken is not Clone
//! ```
//!
//! ```compile_fail
//! use mplp_collab::turns::TurnManager;
//! use mplp_core::{CollabMode, Timestamp};
//! let mut turns = TurnManager::new(CollabMode::RoundRobin, ["a", "b"], None).unwrap();
//! let mut board = turns.shared(Vec::<&str>::new());
//! let token = turns.dispatch_next(Timestamp::now()).unwrap();
//! turns.complete(token, Timestamp::now()).unwrap();
//! board.write(&token).unwrap().push("late"); // error: the token was consumed
//! ```
//!
//! The same program with the write before `complete` compiles and works:
//!
//! ```
//! use mplp_collab::turns::TurnManager;
//! use mplp_core::{CollabMode, Timestamp};
//! let mut turns = TurnManager::new(CollabMode::RoundRobin, ["a", "b"], None)?;
//! let mut board = turns.shared(Vec::<&str>::new());
//! let token = turns.dispatch_next(Timestamp::now())?;
//! board.write(&token)?.push("a was here");
//! turns.complete(token, Timestamp::now())?;
//! assert_eq!(board.get(), &["a was here"]);
//! assert_eq!(board.writes()[0].participant, "a");
//! # Ok::<(), mplp_core::Error>(())
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

use mplp_core::rules::Source;
use mplp_core::{CollabMode, Error, Pointer, Rule, Timestamp, Violation};

use crate::MAP_EXCLUSIVE_WRITE;

mplp_core::declare_rules! {
    /// The rules of turn management.
    pub(crate) const RULES;

    /// A turn was dispatched while the rules of the mode forbid it (another
    /// turn is outstanding, or the mode does not take that kind of dispatch).
    pub const MAP_TURN_ORDER = "map_turn_order" {
        strict: Error,
        scope: Api,
        source: Source::Prose { doc: "Collab Module", section: "5.2 Turn Management" },
        summary: "a turn dispatched while the rules of the mode forbid it",
    }
}

static MANAGER_IDS: AtomicU64 = AtomicU64::new(1);

/// The seed's `TurnState`: who holds the turn, in which order turns go, the
/// position in that order and when the turn started.
///
/// ```
/// use mplp_collab::turns::TurnState;
/// use mplp_core::Timestamp;
/// let t0: Timestamp = "2025-12-07T00:00:00Z".parse().unwrap();
/// let mut s = TurnState::new(vec!["a".into(), "b".into()], t0.clone()).unwrap();
/// assert_eq!(s.current_turn_holder(), "a");
/// assert_eq!(s.advance(t0.clone()), "b");
/// assert_eq!(s.advance(t0), "a");
/// assert_eq!(s.turn_index(), 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnState {
    current_turn_holder: String,
    turn_order: Vec<String>,
    turn_index: usize,
    turn_started_at: Timestamp,
}

impl TurnState {
    /// The state at the first turn of `order`; `None` when `order` is empty.
    pub fn new(order: Vec<String>, at: Timestamp) -> Option<Self> {
        let first = order.first()?.clone();
        Some(TurnState {
            current_turn_holder: first,
            turn_order: order,
            turn_index: 0,
            turn_started_at: at,
        })
    }

    /// The seed's `advanceTurn`: moves to the next participant in the order
    /// (wrapping around) and returns its id.
    pub fn advance(&mut self, at: Timestamp) -> &str {
        let n = self.turn_order.len().max(1);
        self.turn_index = (self.turn_index + 1) % n;
        if let Some(next) = self.turn_order.get(self.turn_index) {
            self.current_turn_holder.clone_from(next);
        }
        self.turn_started_at = at;
        &self.current_turn_holder
    }

    /// Moves the turn to the participant at `index` of the order (an
    /// orchestrator's choice); false when there is no such position.
    pub fn jump_to(&mut self, index: usize, at: Timestamp) -> bool {
        match self.turn_order.get(index) {
            Some(next) => {
                self.current_turn_holder.clone_from(next);
                self.turn_index = index;
                self.turn_started_at = at;
                true
            }
            None => false,
        }
    }

    /// The participant holding the turn.
    pub fn current_turn_holder(&self) -> &str {
        &self.current_turn_holder
    }

    /// Participant ids in turn order.
    pub fn turn_order(&self) -> &[String] {
        &self.turn_order
    }

    /// Position of the holder in the order.
    pub fn turn_index(&self) -> usize {
        self.turn_index
    }

    /// When the current turn started.
    pub fn turn_started_at(&self) -> &Timestamp {
        &self.turn_started_at
    }
}

/// The right to act (and to write to the shared state) during one turn.
///
/// Not `Clone`, not `Copy`, not constructible outside this crate: only
/// [`TurnManager`] makes tokens, and [`TurnManager::complete`] takes them
/// back.
#[derive(Debug, PartialEq, Eq)]
pub struct TurnToken {
    manager: u64,
    turn_number: u64,
    holder: usize,
    token_id: uuid::Uuid,
}

impl TurnToken {
    /// The turn's number (1, 2, 3, ... in dispatch order, without gaps).
    pub fn turn_number(&self) -> u64 {
        self.turn_number
    }

    /// Index of the holder in the manager's participant list.
    pub fn holder(&self) -> usize {
        self.holder
    }

    /// The token's id (written as `token_id` in `MAPTurnDispatched`).
    pub fn token_id(&self) -> uuid::Uuid {
        self.token_id
    }
}

/// A turn after completion, for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompletedTurn {
    /// The turn's number.
    pub turn_number: u64,
    /// Index of the participant who held it.
    pub holder: usize,
    /// When it was dispatched.
    pub started_at: Timestamp,
    /// When it completed.
    pub completed_at: Timestamp,
}

#[derive(Clone, Debug)]
struct Outstanding {
    turn_number: u64,
    holder: usize,
    started_at: Timestamp,
}

/// Hands out turns according to the session's mode.
///
/// - `round_robin`, `pair`: [`TurnManager::dispatch_next`] follows the
///   participant order; one turn at a time.
/// - `orchestrated`: the orchestrator chooses with
///   [`TurnManager::dispatch_to`]; `dispatch_next` cycles over the
///   participants other than the orchestrator; one turn at a time.
/// - `swarm`: any participant may hold a turn at the same time as others
///   ([`TurnManager::dispatch_to`]), but each at most one.
/// - `broadcast`: like `orchestrated` without an orchestrator.
///
/// ```
/// use mplp_collab::turns::TurnManager;
/// use mplp_core::{CollabMode, Timestamp};
/// let mut turns = TurnManager::new(CollabMode::RoundRobin, ["a", "b", "c"], None)?;
/// let mut holders = Vec::new();
/// for _ in 0..6 {
///     let token = turns.dispatch_next(Timestamp::now())?;
///     holders.push(turns.participant(token.holder()).unwrap().to_owned());
///     assert!(turns.dispatch_next(Timestamp::now()).is_err()); // one turn at a time
///     turns.complete(token, Timestamp::now())?;
/// }
/// assert_eq!(holders, ["a", "b", "c", "a", "b", "c"]);
/// assert_eq!(turns.turns_held(), &[2, 2, 2]);
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Debug)]
pub struct TurnManager {
    id: u64,
    mode: CollabMode,
    participants: Vec<String>,
    orchestrator: Option<usize>,
    cycle: Vec<usize>,
    cycle_pos: Option<usize>,
    state: Option<TurnState>,
    outstanding: Vec<Outstanding>,
    dispatched: u64,
    completed: u64,
    held: Vec<u64>,
    token_ids: TokenIds,
}

/// Where token ids come from: random v4, or a deterministic sequence.
#[derive(Debug)]
enum TokenIds {
    Random,
    Seeded(crate::rng::SplitMix64),
}

impl TurnManager {
    /// A manager for `participants` (ids, in turn order) in `mode`, with the
    /// orchestrator at index `orchestrator` (required for `orchestrated`).
    pub fn new<I, S>(
        mode: CollabMode,
        participants: I,
        orchestrator: Option<usize>,
    ) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let participants: Vec<String> = participants.into_iter().map(Into::into).collect();
        let bad = |rule: Rule, msg: String| Err(Error::single("/participants", rule, msg));
        if participants.is_empty() {
            return bad(
                Rule::MIN_ITEMS,
                "a session needs at least 1 participant".into(),
            );
        }
        if mode == CollabMode::Pair && participants.len() != 2 {
            return bad(
                crate::MAP_PAIR_TWO_PARTICIPANTS,
                format!(
                    "a `pair` session has exactly 2 participants, found {}",
                    participants.len()
                ),
            );
        }
        if let Some(o) = orchestrator {
            if o >= participants.len() {
                return bad(
                    crate::MAP_ORCHESTRATOR_REQUIRED,
                    format!("orchestrator index {o} is out of range"),
                );
            }
        } else if mode == CollabMode::Orchestrated {
            return bad(
                crate::MAP_ORCHESTRATOR_REQUIRED,
                "an `orchestrated` session needs an orchestrator".into(),
            );
        }
        let all: Vec<usize> = (0..participants.len()).collect();
        let cycle = match (mode, orchestrator) {
            (CollabMode::Orchestrated, Some(o)) if participants.len() > 1 => {
                all.into_iter().filter(|i| *i != o).collect()
            }
            _ => all,
        };
        let n = participants.len();
        Ok(TurnManager {
            id: MANAGER_IDS.fetch_add(1, Ordering::Relaxed),
            mode,
            participants,
            orchestrator,
            cycle,
            cycle_pos: None,
            state: None,
            outstanding: Vec::new(),
            dispatched: 0,
            completed: 0,
            held: vec![0; n],
            token_ids: TokenIds::Random,
        })
    }

    /// Makes token ids from a seeded generator instead of at random.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.token_ids = TokenIds::Seeded(crate::rng::SplitMix64::new(seed));
        self
    }

    /// The mode.
    pub fn mode(&self) -> CollabMode {
        self.mode
    }

    /// The id of the participant at `index`.
    pub fn participant(&self, index: usize) -> Option<&str> {
        self.participants.get(index).map(String::as_str)
    }

    /// The participant ids, in order.
    pub fn participants(&self) -> &[String] {
        &self.participants
    }

    /// Index of the orchestrator, if any.
    pub fn orchestrator(&self) -> Option<usize> {
        self.orchestrator
    }

    /// The seed's turn state (`None` before the first dispatch).
    pub fn state(&self) -> Option<&TurnState> {
        self.state.as_ref()
    }

    /// Turns dispatched so far.
    pub fn dispatched(&self) -> u64 {
        self.dispatched
    }

    /// Turns completed so far.
    pub fn completed(&self) -> u64 {
        self.completed
    }

    /// Turns currently outstanding (dispatched, not completed).
    pub fn outstanding(&self) -> usize {
        self.outstanding.len()
    }

    /// How many turns each participant has been dispatched, by index.
    pub fn turns_held(&self) -> &[u64] {
        &self.held
    }

    /// Makes a shared state writable only with this manager's tokens.
    pub fn shared<S>(&self, value: S) -> Shared<S> {
        Shared {
            manager: self.id,
            value,
            writes: Vec::new(),
            recording: true,
            write_count: 0,
            participants: self.participants.clone(),
        }
    }

    /// The participant [`TurnManager::dispatch_next`] would pick (`None` in `swarm`).
    pub fn peek_next(&self) -> Option<usize> {
        if self.mode == CollabMode::Swarm {
            return None;
        }
        let pos = match self.cycle_pos {
            None => 0,
            Some(p) => (p + 1) % self.cycle.len().max(1),
        };
        self.cycle.get(pos).copied()
    }

    /// Dispatches the next turn in the mode's order (`round_robin`, `pair`,
    /// `orchestrated`, `broadcast`); refused in `swarm` (participants
    /// claim work there) and while another turn is outstanding.
    pub fn dispatch_next(&mut self, at: Timestamp) -> Result<TurnToken, Error> {
        if self.mode == CollabMode::Swarm {
            return Err(order_error(
                "in a `swarm` session participants claim turns with dispatch_to",
            ));
        }
        let pos = match self.cycle_pos {
            None => 0,
            Some(p) => (p + 1) % self.cycle.len().max(1),
        };
        let holder = self.cycle.get(pos).copied().unwrap_or_default();
        let token = self.issue(holder, at)?;
        self.cycle_pos = Some(pos);
        Ok(token)
    }

    /// Dispatches a turn to the participant at `holder`: the orchestrator's
    /// choice (`orchestrated`, `broadcast`) or a claim (`swarm`). Refused in
    /// `round_robin` and `pair`, whose order is fixed.
    pub fn dispatch_to(&mut self, holder: usize, at: Timestamp) -> Result<TurnToken, Error> {
        if matches!(self.mode, CollabMode::RoundRobin | CollabMode::Pair) {
            return Err(order_error(
                "in `round_robin` and `pair` sessions the order is fixed: use dispatch_next",
            ));
        }
        if holder >= self.participants.len() {
            return Err(order_error(format!(
                "there is no participant {holder} (the session has {})",
                self.participants.len()
            )));
        }
        let token = self.issue(holder, at)?;
        if let Some(pos) = self.cycle.iter().position(|i| *i == holder) {
            self.cycle_pos = Some(pos);
        }
        Ok(token)
    }

    fn issue(&mut self, holder: usize, at: Timestamp) -> Result<TurnToken, Error> {
        if self.mode == CollabMode::Swarm {
            if self.outstanding.iter().any(|o| o.holder == holder) {
                return Err(order_error(format!(
                    "participant `{}` already holds a turn",
                    self.participants.get(holder).map_or("", String::as_str)
                )));
            }
        } else if let Some(o) = self.outstanding.first() {
            return Err(order_error(format!(
                "turn {} of `{}` is still outstanding; complete it first",
                o.turn_number,
                self.participants.get(o.holder).map_or("", String::as_str)
            )));
        }
        self.dispatched += 1;
        let turn_number = self.dispatched;
        if let Some(h) = self.held.get_mut(holder) {
            *h += 1;
        }
        match &mut self.state {
            None => {
                self.state = TurnState::new(self.participants.clone(), at.clone());
                if let Some(s) = &mut self.state {
                    s.jump_to(holder, at.clone());
                }
            }
            Some(s) => {
                // The seed's advanceTurn when the holder is the next in
                // order, else a jump (orchestrator's choice, swarm claim).
                let next = (s.turn_index() + 1) % self.participants.len().max(1);
                if next == holder {
                    s.advance(at.clone());
                } else {
                    s.jump_to(holder, at.clone());
                }
            }
        }
        self.outstanding.push(Outstanding {
            turn_number,
            holder,
            started_at: at,
        });
        let token_id = match &mut self.token_ids {
            TokenIds::Random => uuid::Uuid::new_v4(),
            TokenIds::Seeded(rng) => rng.uuid_v4(),
        };
        Ok(TurnToken {
            manager: self.id,
            turn_number,
            holder,
            token_id,
        })
    }

    /// Completes a turn, consuming its token.
    pub fn complete(&mut self, token: TurnToken, at: Timestamp) -> Result<CompletedTurn, Error> {
        if token.manager != self.id {
            return Err(foreign_token());
        }
        let pos = self
            .outstanding
            .iter()
            .position(|o| o.turn_number == token.turn_number)
            .ok_or_else(foreign_token)?;
        let o = self.outstanding.swap_remove(pos);
        self.completed += 1;
        Ok(CompletedTurn {
            turn_number: o.turn_number,
            holder: o.holder,
            started_at: o.started_at,
            completed_at: at,
        })
    }
}

fn order_error(message: impl Into<String>) -> Error {
    Error::State(Violation::error(
        Pointer::root().as_str(),
        MAP_TURN_ORDER,
        message,
    ))
}

fn foreign_token() -> Error {
    Error::State(Violation::error(
        "",
        MAP_EXCLUSIVE_WRITE,
        "this turn token belongs to another session",
    ))
}

/// One write to a [`Shared`] state, for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteRecord {
    /// The turn under which the write happened.
    pub turn_number: u64,
    /// The participant who held that turn.
    pub participant: String,
}

/// State shared by the participants of a session, writable only by the
/// holder of a turn token of the same session (`map_exclusive_write`).
///
/// Every write is recorded ([`Shared::writes`]) unless the record is turned
/// off ([`Shared::record_writes`]): the record grows with the writes, so a
/// long-running session turns it off and keeps only the count
/// ([`Shared::write_count`]). [`MapSession`](crate::runtime::MapSession)
/// keeps it only when asked to (`with_history`).
#[derive(Debug)]
pub struct Shared<S> {
    manager: u64,
    value: S,
    writes: Vec<WriteRecord>,
    recording: bool,
    write_count: u64,
    participants: Vec<String>,
}

impl<S> Shared<S> {
    /// Reads the state (anyone may read).
    pub fn get(&self) -> &S {
        &self.value
    }

    /// Writes the state: needs the current turn's token. A token of another
    /// session is refused with `map_exclusive_write`.
    pub fn write(&mut self, token: &TurnToken) -> Result<&mut S, Error> {
        if token.manager != self.manager {
            return Err(foreign_token());
        }
        self.write_count += 1;
        if self.recording {
            self.writes.push(WriteRecord {
                turn_number: token.turn_number,
                participant: self
                    .participants
                    .get(token.holder)
                    .cloned()
                    .unwrap_or_default(),
            });
        }
        Ok(&mut self.value)
    }

    /// Every write recorded so far, in order: every write while the record
    /// is on (the default), none while it is off.
    pub fn writes(&self) -> &[WriteRecord] {
        &self.writes
    }

    /// How many writes were made (recorded or not).
    ///
    /// ```
    /// use mplp_collab::turns::TurnManager;
    /// use mplp_core::{CollabMode, Timestamp};
    /// let mut turns = TurnManager::new(CollabMode::RoundRobin, ["a", "b"], None)?;
    /// let mut board = turns.shared(0u32);
    /// board.record_writes(false);
    /// let token = turns.dispatch_next(Timestamp::now())?;
    /// *board.write(&token)? += 1;
    /// turns.complete(token, Timestamp::now())?;
    /// assert_eq!((board.write_count(), board.writes().len(), *board.get()), (1, 0, 1));
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn write_count(&self) -> u64 {
        self.write_count
    }

    /// Turns the write record on (the default) or off. Turning it off drops
    /// what was recorded; turning it on records the writes from then on.
    pub fn record_writes(&mut self, on: bool) {
        self.recording = on;
        if !on {
            self.writes = Vec::new();
        }
    }

    /// True while writes are recorded.
    pub fn records_writes(&self) -> bool {
        self.recording
    }

    /// The state, writable without a token: for the session's own
    /// bookkeeping (not a participant's write), never recorded.
    pub(crate) fn value_mut(&mut self) -> &mut S {
        &mut self.value
    }

    /// The state, giving up the write record.
    pub fn into_inner(self) -> S {
        self.value
    }
}
