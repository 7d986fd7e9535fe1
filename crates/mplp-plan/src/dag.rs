//! Scheduling helpers over a plan's dependency graph: a stable topological
//! order, execution layers, the longest path and the steps affected by a
//! failure. All are iterative and linear in the size of the plan (the stable
//! order adds a `log V` factor).

use mplp_core::{Error, StepId, Violation};

use crate::graph::{Graph, cycle_violation};
use crate::rules::{
    SA_PLAN_DEPENDENCY_EXISTS, SA_PLAN_NO_SELF_DEPENDENCY, SA_PLAN_STEP_UNIQUE_IDS,
};
use crate::{Plan, PlanStep};

/// A checked view of a plan's dependency graph: unique step ids, every
/// dependency resolved, no self-dependency, no cycle. Made by [`Plan::dag`].
///
/// ```
/// use mplp_plan::Plan;
/// let mut b = Plan::builder(mplp_core::ContextId::new(), "Ship", "Ship the release");
/// let analyze = b.step("Analyze requirements");
/// let design = b.step_after("Design architecture", &[analyze]);
/// let testing = b.step_after("Set up testing", &[analyze]);
/// let core = b.step_after("Implement core", &[design]);
/// let integ = b.step_after("Integration test", &[testing, core]);
/// let plan = b.build()?;
/// let dag = plan.dag()?;
/// assert_eq!(dag.topological_order(), [analyze, design, testing, core, integ]);
/// assert_eq!(dag.execution_layers(), [vec![analyze], vec![design, testing], vec![core], vec![integ]]);
/// assert_eq!(dag.longest_path(), [analyze, design, core, integ]);
/// assert_eq!(dag.descendants(design), [core, integ]);
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub struct Dag<'p> {
    steps: &'p [PlanStep],
    graph: Graph,
    order: Vec<u32>,
}

impl std::fmt::Debug for Dag<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dag")
            .field("steps", &self.steps.len())
            .field("order", &self.order)
            .finish()
    }
}

/// The structural problems of a plan's graph, as violations.
fn structural(steps: &[PlanStep]) -> (Graph, Vec<Violation>, Option<Vec<u32>>) {
    let (graph, problems) = Graph::build(steps);
    let mut errors = Vec::new();
    for &(i, first) in &problems.duplicate_ids {
        errors.push(Violation::error(
            format!("/steps/{i}/step_id"),
            SA_PLAN_STEP_UNIQUE_IDS,
            format!(
                "step_id {} is already used by /steps/{first}",
                steps[i].step_id
            ),
        ));
    }
    for &(i, j) in &problems.unknown {
        errors.push(Violation::error(
            format!("/steps/{i}/dependencies/{j}"),
            SA_PLAN_DEPENDENCY_EXISTS,
            format!(
                "dependency {} is not the step_id of any step of this plan",
                steps[i].dependency_ids()[j]
            ),
        ));
    }
    for &(i, j) in &problems.self_deps {
        errors.push(Violation::error(
            format!("/steps/{i}/dependencies/{j}"),
            SA_PLAN_NO_SELF_DEPENDENCY,
            format!("step {} depends on itself", steps[i].step_id),
        ));
    }
    let order = match graph.kahn() {
        Ok(order) => Some(order),
        Err(cycle) => {
            errors.push(cycle_violation(steps, &cycle));
            None
        }
    };
    (graph, errors, order)
}

impl Plan {
    /// The checked dependency graph, or [`Error::Invalid`] with every
    /// structural problem (repeated ids, unknown or self dependencies, a cycle).
    pub fn dag(&self) -> Result<Dag<'_>, Error> {
        let (graph, errors, order) = structural(&self.steps);
        match order {
            Some(order) if errors.is_empty() => Ok(Dag {
                steps: &self.steps,
                graph,
                order,
            }),
            _ => Err(Error::Invalid(errors)),
        }
    }

    /// One cycle of the dependencies, if there is one: step ids where each
    /// depends on the one before it, and the first on the last. A
    /// self-dependency is the cycle of one step.
    ///
    /// A plan obtained through the public API never has a cycle; this is
    /// for plans read with the escape hatch [`Wire::deserialize_unchecked`](mplp_core::Wire::deserialize_unchecked)
    /// (by tools that show what is wrong with a document).
    ///
    /// ```
    /// use mplp_core::{Document, Wire};
    /// let mut b = mplp_plan::Plan::builder(mplp_core::ContextId::new(), "t", "o");
    /// let a = b.step("a");
    /// let c = b.step_after("c", &[a]);
    /// let plan = b.build()?;
    /// assert_eq!(plan.find_cycle(), None);
    /// let mut json = plan.to_value();
    /// json["steps"][0]["dependencies"] = serde_json::json!([c]); // a after c: a cycle
    /// let plan = mplp_plan::Plan::deserialize_unchecked(&json).unwrap();
    /// let cycle = plan.find_cycle().unwrap();
    /// assert!(cycle == [a, c] || cycle == [c, a]); // a after c after a
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn find_cycle(&self) -> Option<Vec<StepId>> {
        let (graph, problems) = Graph::build(&self.steps);
        if let Some(&(i, _)) = problems.self_deps.first() {
            return Some(vec![self.steps[i].step_id]);
        }
        graph.kahn().err().map(|cycle| {
            cycle
                .iter()
                .map(|&i| self.steps[i as usize].step_id)
                .collect()
        })
    }

    /// [`Dag::topological_order`] of a structurally valid plan.
    pub fn topological_order(&self) -> Result<Vec<StepId>, Error> {
        Ok(self.dag()?.topological_order())
    }

    /// [`Dag::execution_layers`] of a structurally valid plan.
    pub fn execution_layers(&self) -> Result<Vec<Vec<StepId>>, Error> {
        Ok(self.dag()?.execution_layers())
    }

    /// [`Dag::longest_path`] of a structurally valid plan.
    pub fn longest_path(&self) -> Result<Vec<StepId>, Error> {
        Ok(self.dag()?.longest_path())
    }

    /// [`Dag::descendants`] of a structurally valid plan: the steps that
    /// cannot run if `step` fails.
    pub fn affected_by_failure(&self, step: StepId) -> Result<Vec<StepId>, Error> {
        Ok(self.dag()?.descendants(step))
    }
}

impl Dag<'_> {
    fn rank(&self, i: usize) -> u64 {
        self.steps[i].order_index.unwrap_or(u64::MAX)
    }

    fn ids(&self, idx: impl IntoIterator<Item = u32>) -> Vec<StepId> {
        idx.into_iter()
            .map(|i| self.steps[i as usize].step_id)
            .collect()
    }

    /// The index of a step in the plan.
    pub fn index_of(&self, step: StepId) -> Option<usize> {
        self.graph.index_of(&step)
    }

    /// The ids of the steps that depend directly on `step`, in plan order.
    pub fn dependents(&self, step: StepId) -> Vec<StepId> {
        match self.graph.index_of(&step) {
            Some(i) => self.ids(self.graph.dependents(i).iter().copied()),
            None => Vec::new(),
        }
    }

    /// Every step once, each after all its dependencies. Among the steps
    /// that are ready at the same time, the smallest `order_index` comes
    /// first (steps without one come after those with one), then the
    /// earliest in the plan. O((V + E) log V).
    pub fn topological_order(&self) -> Vec<StepId> {
        let order = self
            .graph
            .stable_order(|i| self.rank(i))
            .unwrap_or_else(|| self.order.clone());
        self.ids(order)
    }

    /// The waves of steps that can run in parallel: layer 0 has the steps
    /// without dependencies, layer `k` the steps whose deepest dependency is
    /// in layer `k - 1`. Within a layer, by `order_index`, then plan order.
    pub fn execution_layers(&self) -> Vec<Vec<StepId>> {
        let n = self.steps.len();
        let mut layer = vec![0u32; n];
        let mut depth = 0;
        for &v in &self.order {
            let v = v as usize;
            let l = self
                .graph
                .deps(v)
                .iter()
                .map(|&d| layer[d as usize] + 1)
                .max()
                .unwrap_or(0);
            layer[v] = l;
            depth = depth.max(l as usize + 1);
        }
        let mut layers: Vec<Vec<u32>> = vec![Vec::new(); depth];
        for (i, &l) in layer.iter().enumerate() {
            layers[l as usize].push(i as u32);
        }
        layers
            .into_iter()
            .map(|mut l| {
                l.sort_by_key(|&i| (self.rank(i as usize), i));
                self.ids(l)
            })
            .collect()
    }

    /// The longest chain of dependent steps (counted in steps), from a step
    /// without dependencies to the last step of the chain. Ties go to the
    /// chain met first in the topological order.
    pub fn longest_path(&self) -> Vec<StepId> {
        self.longest_path_by(|_| 1)
    }

    /// The heaviest chain of dependent steps, each step weighing
    /// `weight(step)` (for example an estimated duration): the critical path.
    pub fn longest_path_by(&self, weight: impl Fn(&PlanStep) -> u64) -> Vec<StepId> {
        let n = self.steps.len();
        let mut best = vec![0u64; n];
        let mut pred = vec![u32::MAX; n];
        let mut end: Option<usize> = None;
        for &v in &self.order {
            let v = v as usize;
            let mut b = 0u64;
            for &d in self.graph.deps(v) {
                if pred[v] == u32::MAX || best[d as usize] > b {
                    b = best[d as usize];
                    pred[v] = d;
                }
            }
            best[v] = b.saturating_add(weight(&self.steps[v]));
            if end.is_none_or(|e| best[v] > best[e]) {
                end = Some(v);
            }
        }
        let mut path = Vec::new();
        let mut at = end.map_or(u32::MAX, |e| e as u32);
        while at != u32::MAX {
            path.push(at);
            at = pred[at as usize];
        }
        path.reverse();
        self.ids(path)
    }

    /// Every step that depends, directly or not, on `step`: the steps that
    /// cannot run if it fails. In plan order; empty for an unknown id.
    pub fn descendants(&self, step: StepId) -> Vec<StepId> {
        let Some(i) = self.graph.index_of(&step) else {
            return Vec::new();
        };
        let mask = self.graph.descendants_mask(i);
        self.ids(
            mask.iter()
                .enumerate()
                .filter(|(_, m)| **m)
                .map(|(k, _)| k as u32),
        )
    }
}
