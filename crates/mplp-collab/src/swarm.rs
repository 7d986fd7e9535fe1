//! Swarm: participants claim independent tasks in parallel; no task is
//! claimed twice.

use std::sync::atomic::{AtomicU64, Ordering};

use mplp_core::rules::Source;
use mplp_core::{Error, Violation};

mplp_core::declare_rules! {
    /// The rules of task claims.
    pub(crate) const RULES;

    /// A task was claimed a second time, or a claim was presented to the wrong board.
    pub const MAP_TASK_CLAIMED_ONCE = "map_task_claimed_once" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-collab: swarm" },
        summary: "a task claimed a second time, or a claim presented to the wrong board",
    }
}

static BOARD_IDS: AtomicU64 = AtomicU64::new(1);

/// Where one task stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskState {
    /// Nobody has claimed it.
    Open,
    /// Claimed by the participant at this index, not finished.
    Claimed(usize),
    /// Finished by the participant at this index.
    Done(usize),
}

/// The claim of one task: not `Clone`, made only by [`TaskBoard::claim`],
/// consumed by [`TaskBoard::finish`] or [`TaskBoard::release`].
#[derive(Debug, PartialEq, Eq)]
pub struct TaskClaim {
    board: u64,
    task: usize,
    participant: usize,
}

impl TaskClaim {
    /// The claimed task's index.
    pub fn task(&self) -> usize {
        self.task
    }

    /// The claiming participant's index.
    pub fn participant(&self) -> usize {
        self.participant
    }
}

/// A list of independent tasks that participants claim.
///
/// For claims from several threads, share it as `Mutex<TaskBoard>`: a claim
/// is a short critical section, and the board never hands one task out twice.
///
/// ```
/// use mplp_collab::swarm::{TaskBoard, TaskState};
/// let mut board = TaskBoard::new(["lint core", "lint plan"]);
/// let a = board.claim_next(0).unwrap();
/// let b = board.claim_next(1).unwrap();
/// assert!(board.claim_next(2).is_none());          // nothing left
/// assert!(board.claim(a.task(), 2).is_err());       // already claimed
/// board.finish(a)?;
/// board.release(b)?;                                // back to open
/// assert_eq!(board.state(1), Some(&TaskState::Open));
/// # Ok::<(), mplp_core::Error>(())
/// ```
#[derive(Debug)]
pub struct TaskBoard {
    id: u64,
    tasks: Vec<(String, TaskState)>,
    claims: u64,
}

impl TaskBoard {
    /// A board of open tasks.
    pub fn new<I, S>(tasks: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        TaskBoard {
            id: BOARD_IDS.fetch_add(1, Ordering::Relaxed),
            tasks: tasks
                .into_iter()
                .map(|t| (t.into(), TaskState::Open))
                .collect(),
            claims: 0,
        }
    }

    /// Number of tasks.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// True when there are no tasks.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The name of a task.
    pub fn name(&self, task: usize) -> Option<&str> {
        self.tasks.get(task).map(|(n, _)| n.as_str())
    }

    /// Where a task stands.
    pub fn state(&self, task: usize) -> Option<&TaskState> {
        self.tasks.get(task).map(|(_, s)| s)
    }

    /// Successful claims so far (a released task claimed again counts twice).
    pub fn claims(&self) -> u64 {
        self.claims
    }

    /// True when every task is done.
    pub fn all_done(&self) -> bool {
        self.tasks
            .iter()
            .all(|(_, s)| matches!(s, TaskState::Done(_)))
    }

    /// Claims task `task` for `participant`; refused unless it is open.
    pub fn claim(&mut self, task: usize, participant: usize) -> Result<TaskClaim, Error> {
        let entry = self
            .tasks
            .get_mut(task)
            .ok_or_else(|| claim_error(format!("there is no task {task}")))?;
        match entry.1 {
            TaskState::Open => {
                entry.1 = TaskState::Claimed(participant);
                self.claims += 1;
                Ok(TaskClaim {
                    board: self.id,
                    task,
                    participant,
                })
            }
            TaskState::Claimed(by) | TaskState::Done(by) => Err(claim_error(format!(
                "task {task} (`{}`) is already claimed by participant {by}",
                entry.0
            ))),
        }
    }

    /// Claims the first open task for `participant`, if any.
    pub fn claim_next(&mut self, participant: usize) -> Option<TaskClaim> {
        let task = self.tasks.iter().position(|(_, s)| *s == TaskState::Open)?;
        self.claim(task, participant).ok()
    }

    /// Marks the claimed task done.
    pub fn finish(&mut self, claim: TaskClaim) -> Result<(), Error> {
        self.settle(claim, true)
    }

    /// Gives the claimed task back (open again).
    pub fn release(&mut self, claim: TaskClaim) -> Result<(), Error> {
        self.settle(claim, false)
    }

    fn settle(&mut self, claim: TaskClaim, done: bool) -> Result<(), Error> {
        if claim.board != self.id {
            return Err(claim_error(
                "this claim belongs to another task board".into(),
            ));
        }
        let entry = self
            .tasks
            .get_mut(claim.task)
            .ok_or_else(|| claim_error(format!("there is no task {}", claim.task)))?;
        entry.1 = if done {
            TaskState::Done(claim.participant)
        } else {
            TaskState::Open
        };
        Ok(())
    }
}

fn claim_error(message: String) -> Error {
    Error::State(Violation::error("", MAP_TASK_CLAIMED_ONCE, message))
}
