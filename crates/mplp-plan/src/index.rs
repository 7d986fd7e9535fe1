//! The lifecycle index of a plan: state derived from its steps, never on the
//! wire, that lets every lifecycle trigger cost O(1 + d) (d: the step's
//! dependents; the ready set adds a `log V`) instead of rebuilding the
//! dependency graph, so that driving a whole plan costs O(V + E) in total.
//!
//! # Why on [`Plan`](crate::Plan), and lazily
//!
//! The index lives in a `#[wire(skip)]` field of the plan, not in a separate
//! driver type: `plan.step_mut(id)?.complete()` stays the one way to drive a
//! plan, and it is fast for everyone (a driver type beside the plan would
//! leave the plan's own triggers quadratic, and two ways to do one thing).
//! The plan stays one declaration: the field is not a member (not written,
//! not read, not in the schema), it compares equal, hashes and prints the
//! same whatever it holds, so `PartialEq`, `Debug` and the wire format are
//! those of the members alone. It is *derived* state: nothing outside this
//! crate can reach it, and the only ways to change what it derives from (the
//! steps and their statuses) are the guarded lifecycle methods and
//! [`Plan::edit_steps`](crate::Plan::edit_steps), which update it
//! (triggers) or drop it (edits). "Parse, don't validate" is untouched: a
//! plan is valid without it, and reading a plan does not build it (so
//! validation costs nothing more); the first lifecycle call or query builds
//! it once, in O(V + E).
//!
//! The property tests compare, after every operation of random sequences,
//! what the index answers ([`Plan::ready_steps`](crate::Plan::ready_steps),
//! the derived plan status) with a recomputation from the steps, and the
//! unit tests below compare the whole index with one built afresh.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use mplp_core::StepId;

use crate::graph::Graph;
use crate::rules::is_done;
use crate::{PlanStep, StepStatus};

const STATUSES: usize = StepStatus::ALL.len();

/// The index proper (see the module docs).
#[derive(Clone)]
pub(crate) struct Index {
    /// Step ids to positions, and the dependency edges both ways.
    graph: Graph,
    /// No step id is used twice: the steps that name a step in their
    /// dependencies are exactly its dependents in `graph`.
    unique_ids: bool,
    /// Per step: its dependencies that are not done (completed or skipped),
    /// each unresolvable entry (an unknown id, the step itself) counting as
    /// one that never will be. Zero: the step may start.
    waiting: Vec<u32>,
    /// Per step: its dependencies that are `failed`.
    failed: Vec<u32>,
    /// How many steps have each status (by `StepStatus as usize`).
    counts: [u32; STATUSES],
    /// The pending steps with nothing to wait for, in plan order.
    ready: BTreeSet<u32>,
}

impl Index {
    /// Builds the index of `steps` from scratch. O(V + E).
    pub(crate) fn build(steps: &[PlanStep]) -> Index {
        let (graph, problems) = Graph::build(steps);
        let n = steps.len();
        let mut waiting = vec![0u32; n];
        let mut failed = vec![0u32; n];
        for &(i, _) in problems.unknown.iter().chain(&problems.self_deps) {
            waiting[i] += 1;
        }
        let mut counts = [0u32; STATUSES];
        for (i, step) in steps.iter().enumerate() {
            counts[step.status as usize] += 1;
            for &d in graph.deps(i) {
                let status = steps[d as usize].status;
                waiting[i] += u32::from(!is_done(status));
                failed[i] += u32::from(status == StepStatus::Failed);
            }
        }
        let ready = (0..n)
            .filter(|&i| steps[i].status == StepStatus::Pending && waiting[i] == 0)
            .map(|i| i as u32)
            .collect();
        Index {
            graph,
            unique_ids: problems.duplicate_ids.is_empty(),
            waiting,
            failed,
            counts,
            ready,
        }
    }

    /// The position of a step id (its first occurrence).
    pub(crate) fn position(&self, id: &StepId) -> Option<usize> {
        self.graph.index_of(id)
    }

    /// Whether every dependency of step `i` exists and is done.
    pub(crate) fn deps_done(&self, i: usize) -> bool {
        self.waiting[i] == 0
    }

    /// The pending steps whose dependencies are all done, in plan order.
    pub(crate) fn ready(&self) -> impl Iterator<Item = usize> + '_ {
        self.ready.iter().map(|&i| i as usize)
    }

    /// Whether every step is completed or skipped.
    pub(crate) fn all_done(&self) -> bool {
        let done =
            self.counts[StepStatus::Completed as usize] + self.counts[StepStatus::Skipped as usize];
        done as usize == self.waiting.len()
    }

    /// The steps that depend on step `i`.
    pub(crate) fn dependents(&self, i: usize) -> &[u32] {
        self.graph.dependents(i)
    }

    /// Whether some dependency of step `i` is `failed`.
    pub(crate) fn has_failed_dep(&self, i: usize) -> bool {
        self.failed[i] != 0
    }

    /// Whether no step id is used twice (see [`Index::rename`]).
    pub(crate) fn unique_ids(&self) -> bool {
        self.unique_ids
    }

    /// Step `i` (whose id is unique) is now named `new` instead of `old`;
    /// the caller renames the dependencies of its dependents.
    pub(crate) fn rename(&mut self, old: &StepId, new: &StepId, i: usize) {
        self.graph.rename(old, new, i);
    }

    /// Step `i` went from `from` to the status it has in `steps` (every
    /// other status unchanged, and `from → to` a transition of the step
    /// table, so a done step stays done). O(1 + dependents of `i`), plus
    /// `log V` for the ready set.
    pub(crate) fn on_status(&mut self, steps: &[PlanStep], i: usize, from: StepStatus) {
        let to = steps[i].status;
        self.counts[from as usize] -= 1;
        self.counts[to as usize] += 1;
        let me = i as u32;
        if from == StepStatus::Pending {
            self.ready.remove(&me);
        }
        if to == StepStatus::Pending && self.waiting[i] == 0 {
            self.ready.insert(me);
        }
        let now_done = is_done(to) && !is_done(from);
        let failed_now = to == StepStatus::Failed;
        let failed_before = from == StepStatus::Failed;
        if !(now_done || failed_now || failed_before) {
            return;
        }
        for &d in self.graph.dependents(i) {
            let du = d as usize;
            if now_done {
                self.waiting[du] -= 1;
                if self.waiting[du] == 0 && steps[du].status == StepStatus::Pending {
                    self.ready.insert(d);
                }
            }
            if failed_now {
                self.failed[du] += 1;
            }
            if failed_before {
                self.failed[du] -= 1;
            }
        }
    }

    /// The index as it must be for `steps`: compared field by field with
    /// one built afresh (tests).
    #[cfg(test)]
    fn same_as(&self, other: &Index) -> bool {
        self.unique_ids == other.unique_ids
            && self.waiting == other.waiting
            && self.failed == other.failed
            && self.counts == other.counts
            && self.ready == other.ready
            && (0..self.waiting.len()).all(|i| {
                self.graph.deps(i) == other.graph.deps(i)
                    && self.graph.dependents(i) == other.graph.dependents(i)
            })
    }

    /// Every step id maps to its first position, as in `steps`.
    #[cfg(test)]
    fn positions_match(&self, steps: &[PlanStep]) -> bool {
        steps
            .iter()
            .all(|s| self.position(&s.step_id) == steps.iter().position(|x| x.step_id == s.step_id))
    }
}

/// The lifecycle index of a plan, in its `#[wire(skip)]` field: built on
/// first use (`Default` is "not built yet", which is what reading a plan
/// gives), then kept up to date by the triggers. Neutral for the plan's
/// `PartialEq`, `Hash` and `Debug`: two plans with the same members are
/// equal whether or not their index is built.
#[derive(Clone, Default)]
pub(crate) struct LifecycleIndex(OnceLock<Index>);

impl LifecycleIndex {
    /// The index of `steps` (which must be the plan's), built if needed.
    pub(crate) fn get(&self, steps: &[PlanStep]) -> &Index {
        self.0.get_or_init(|| Index::build(steps))
    }

    /// The index if it is built: a change it does not see is then no
    /// problem, since it will be built from the steps as they are.
    pub(crate) fn get_mut(&mut self) -> Option<&mut Index> {
        self.0.get_mut()
    }

    /// Forgets the index (the steps changed in a way it cannot follow).
    pub(crate) fn clear(&mut self) {
        self.0 = OnceLock::new();
    }
}

impl PartialEq for LifecycleIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LifecycleIndex {}

impl std::hash::Hash for LifecycleIndex {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl std::fmt::Debug for LifecycleIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("..")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use mplp_core::ContextId;
    use proptest::prelude::*;
    use proptest::sample::Index as Pick;

    use super::Index;
    use crate::{ConfirmDecision, CriticalSteps, Plan, PlanStep};

    fn plan(deps: &[Vec<Pick>]) -> Plan {
        let mut b = Plan::builder(ContextId::new(), "t", "o");
        let mut ids = Vec::new();
        for (k, d) in deps.iter().enumerate() {
            let after: Vec<_> = if k == 0 {
                Vec::new()
            } else {
                d.iter().map(|p| ids[p.index(k)]).collect()
            };
            ids.push(b.step_after(format!("step {k}"), &after));
        }
        b.build().unwrap()
    }

    /// The index the triggers kept up to date is the index built afresh.
    fn assert_fresh(plan: &mut Plan) {
        let steps = plan.steps.to_vec();
        if let Some(index) = plan.index.get_mut() {
            assert!(index.same_as(&Index::build(&steps)));
            assert!(index.positions_match(&steps));
        }
    }

    proptest! {
        #[test]
        fn index_stays_fresh(
            deps in prop::collection::vec(prop::collection::vec(any::<Pick>(), 0..3), 1..8),
            ops in prop::collection::vec((0u8..6, any::<Pick>()), 0..60),
        ) {
            let mut plan = plan(&deps);
            plan.propose().unwrap();
            plan.approve(&ConfirmDecision::approved("lead")).unwrap();
            plan.start().unwrap();
            assert_fresh(&mut plan);
            for (op, pick) in ops {
                let id = plan.steps()[pick.index(plan.steps().len())].step_id;
                let _ = match op {
                    0 => plan.step_mut(id).and_then(|s| s.start()),
                    1 => plan.step_mut(id).and_then(|s| s.complete()),
                    2 => plan.step_mut(id).and_then(|s| s.fail_with(&CriticalSteps::None)),
                    3 => plan.step_mut(id).and_then(|s| s.skip()),
                    4 => plan.step_mut(id).and_then(|s| s.retry()).map(|_| ()),
                    _ => plan.edit_steps(|steps| {
                        let mut step = PlanStep::new("added".parse().unwrap());
                        step.set_dependencies([id]);
                        steps.push(step);
                    }),
                };
                assert_fresh(&mut plan);
            }
        }
    }
}
