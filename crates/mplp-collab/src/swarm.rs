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
    /// No task before this index is open: [`TaskBoard::claim_next`] starts
    /// here, so draining a board of `n` tasks costs O(n), not O(n²).
    open_from: usize,
    /// How many tasks are done ([`TaskBoard::all_done`] in O(1)).
    done: usize,
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
            open_from: 0,
            done: 0,
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
        self.done == self.tasks.len()
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
    ///
    /// Amortised O(1): the search starts after the tasks already known not
    /// to be open, and only [`TaskBoard::release`] moves that start back.
    pub fn claim_next(&mut self, participant: usize) -> Option<TaskClaim> {
        let skip = self.open_from;
        let Some(found) = self
            .tasks
            .get(skip..)
            .unwrap_or_default()
            .iter()
            .position(|(_, s)| *s == TaskState::Open)
        else {
            self.open_from = self.tasks.len();
            return None;
        };
        let task = skip + found;
        self.open_from = task + 1;
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
        // A claim is made only for an open task and is consumed here, so
        // the task is `Claimed` until now: it becomes done, or open again.
        if done {
            entry.1 = TaskState::Done(claim.participant);
            self.done += 1;
        } else {
            entry.1 = TaskState::Open;
            self.open_from = self.open_from.min(claim.task);
        }
        Ok(())
    }
}

fn claim_error(message: String) -> Error {
    Error::State(Violation::error("", MAP_TASK_CLAIMED_ONCE, message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One step of a board's use.
    #[derive(Clone, Debug)]
    enum Op {
        Claim(usize, usize),
        ClaimNext(usize),
        Finish(usize),
        Release(usize),
    }

    fn op(tasks: usize) -> impl Strategy<Value = Op> {
        prop_oneof![
            1 => (0..tasks + 1, 0..4usize).prop_map(|(t, p)| Op::Claim(t, p)),
            3 => (0..4usize).prop_map(Op::ClaimNext),
            2 => any::<prop::sample::Index>().prop_map(|i| Op::Finish(i.index(usize::MAX))),
            1 => any::<prop::sample::Index>().prop_map(|i| Op::Release(i.index(usize::MAX))),
        ]
    }

    proptest! {
        /// The board's cursor and done count give the answers a plain scan
        /// of a model gives, after any mix of claims, finishes and releases.
        #[test]
        fn claims_follow_a_model_that_scans(
            (tasks, ops) in (0..12usize).prop_flat_map(|n| (Just(n), prop::collection::vec(op(n), 0..80)))
        ) {
            let mut board = TaskBoard::new((0..tasks).map(|i| format!("t{i}")));
            let mut model: Vec<TaskState> = vec![TaskState::Open; tasks];
            let mut held: Vec<TaskClaim> = Vec::new();
            let mut claims = 0u64;
            prop_assert_eq!((board.len(), board.is_empty()), (tasks, tasks == 0));
            for t in 0..tasks {
                prop_assert_eq!(board.name(t).map(str::to_owned), Some(format!("t{t}")));
            }
            prop_assert_eq!((board.name(tasks), board.state(tasks)), (None, None));
            for op in ops {
                match op {
                    Op::Claim(t, p) => {
                        let expect = model.get(t) == Some(&TaskState::Open);
                        let got = board.claim(t, p);
                        prop_assert_eq!(got.is_ok(), expect);
                        if let Ok(c) = got {
                            prop_assert_eq!((c.task(), c.participant()), (t, p));
                            claims += 1;
                            model[t] = TaskState::Claimed(p);
                            held.push(c);
                        }
                    }
                    Op::ClaimNext(p) => {
                        let expect = model.iter().position(|s| *s == TaskState::Open);
                        let got = board.claim_next(p);
                        prop_assert_eq!(got.as_ref().map(TaskClaim::task), expect);
                        if let Some(c) = got {
                            claims += 1;
                            model[c.task()] = TaskState::Claimed(p);
                            held.push(c);
                        }
                    }
                    Op::Finish(i) | Op::Release(i) if !held.is_empty() => {
                        let c = held.swap_remove(i % held.len());
                        let (t, p) = (c.task(), c.participant());
                        if matches!(op, Op::Finish(_)) {
                            board.finish(c).map_err(|e| TestCaseError::fail(e.to_string()))?;
                            model[t] = TaskState::Done(p);
                        } else {
                            board.release(c).map_err(|e| TestCaseError::fail(e.to_string()))?;
                            model[t] = TaskState::Open;
                        }
                    }
                    Op::Finish(_) | Op::Release(_) => {}
                }
                for (t, s) in model.iter().enumerate() {
                    prop_assert_eq!(board.state(t), Some(s));
                }
                prop_assert_eq!(board.claims(), claims);
                prop_assert_eq!(
                    board.all_done(),
                    model.iter().all(|s| matches!(s, TaskState::Done(_)))
                );
            }
        }
    }

    #[test]
    fn a_released_task_before_the_cursor_is_claimed_next() {
        let mut board = TaskBoard::new(["a", "b", "c"]);
        let a = board.claim_next(0).unwrap();
        let b = board.claim_next(0).unwrap();
        board.release(a).unwrap();
        assert_eq!(board.claim_next(1).map(|c| c.task()), Some(0));
        board.finish(b).unwrap();
        assert_eq!(board.claim_next(1).map(|c| c.task()), Some(2));
        assert!(board.claim_next(1).is_none());
        assert!(!board.all_done());
    }

    #[test]
    fn an_empty_board_is_done_and_has_nothing_to_claim() {
        let mut board = TaskBoard::new(Vec::<String>::new());
        assert!(board.all_done());
        assert!(board.claim_next(0).is_none());
    }
}
