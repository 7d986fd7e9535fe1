//! The dependency graph of a plan, on indices: built once in O(V + E), then
//! every algorithm (acyclicity, one real cycle, topological order, layers,
//! longest path, descendants) is iterative and linear (the stable order adds
//! a `log V` factor for its priority queue). Nothing here recurses, so a
//! chain of a million steps needs no more stack than a chain of three.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};

use mplp_core::{StepId, Violation};

use crate::PlanStep;

/// The hasher of the step-id map: foldhash (a folded multiply), fast on
/// 128-bit keys, with a random per-process and per-map seed so that crafted
/// ids cannot force collisions an attacker could predict. The same hasher
/// as the event-log validators' (see `docs/spec-notes.md`, "One fast hasher").
type IdHashBuilder = foldhash::fast::RandomState;

/// Up to this many steps, [`Graph::build_for_rules`] finds ids without a
/// hash map.
const FEW: usize = 16;

/// Up to this many dependencies, [`Graph::edges`] finds a repeated
/// dependency of a step of a small plan (up to [`FEW`] steps) by comparing
/// it with the step's edges before it.
const FEW_DEPS: usize = 8;

/// What the graph reads of a step: its id and its dependencies. A typed
/// [`PlanStep`] has all of them; a step read from a plan that failed its
/// schema ([`ReadStep`]) may miss some, which are then left out of the
/// graph (never guessed).
pub(crate) trait Node {
    /// The step's id, `None` when it cannot be read.
    fn id(&self) -> Option<&StepId>;
    /// The step's dependencies, `None` where one cannot be read.
    fn dep_count(&self) -> usize;
    /// Dependency `j`, `None` when it cannot be read.
    fn dep(&self, j: usize) -> Option<&StepId>;
}

impl Node for PlanStep {
    #[inline]
    fn id(&self) -> Option<&StepId> {
        Some(&self.step_id)
    }
    #[inline]
    fn dep_count(&self) -> usize {
        self.dependency_ids().len()
    }
    #[inline]
    fn dep(&self, j: usize) -> Option<&StepId> {
        self.dependency_ids().get(j)
    }
}

/// What can be read of a step of a plan that failed its schema: its id and
/// dependencies (for the graph) and what the status rules read.
pub(crate) struct ReadStep {
    pub(crate) id: Option<StepId>,
    pub(crate) deps: Vec<Option<StepId>>,
    /// Every dependency could be read: the member is absent (none) or an
    /// array whose items all parse as step ids.
    pub(crate) deps_read: bool,
    /// The status, `None` when it cannot be read.
    pub(crate) status: Option<crate::StepStatus>,
    /// The `order_index` (`Some(None)` when absent), `None` when it cannot
    /// be read.
    pub(crate) order_index: Option<Option<u64>>,
    /// `agent_role` is present and the empty string.
    pub(crate) empty_role: bool,
}

impl Node for ReadStep {
    fn id(&self) -> Option<&StepId> {
        self.id.as_ref()
    }
    fn dep_count(&self) -> usize {
        self.deps.len()
    }
    fn dep(&self, j: usize) -> Option<&StepId> {
        self.deps.get(j).and_then(Option::as_ref)
    }
}

/// The key of a step whose id cannot be read: no UUID v4 (which every
/// [`StepId`] is) has it, so no dependency resolves to it.
const UNREAD: u128 = u128::MAX;

#[inline]
fn node_key<S: Node>(step: &S) -> u128 {
    step.id().map_or(UNREAD, key)
}

/// Step ids to the index of their first occurrence; a repeated id is
/// recorded in `problems`.
fn id_map<S: Node>(steps: &[S], problems: &mut Problems) -> HashMap<u128, u32, IdHashBuilder> {
    let mut map: HashMap<u128, u32, IdHashBuilder> =
        HashMap::with_capacity_and_hasher(steps.len(), IdHashBuilder::default());
    for (i, step) in steps.iter().enumerate() {
        let k = node_key(step);
        if k == UNREAD {
            continue;
        }
        match map.entry(k) {
            Entry::Occupied(first) => problems.duplicate_ids.push((i, *first.get() as usize)),
            Entry::Vacant(slot) => {
                slot.insert(i as u32);
            }
        }
    }
    map
}

/// Step ids to the index of their first occurrence, for
/// [`Graph::build_for_rules`] past [`FEW`] steps: what [`id_map`] finds,
/// in an open-addressing table of step indices (linear probing, at most
/// half full) whose keys are the steps' own ids, hashed by the same seeded
/// foldhash as the map's. The map's buckets cost 80 instructions an id and
/// 60 a dependency (callgrind, a plan of 100 steps); this table a third of
/// that, and one allocation.
struct IdIndex {
    /// `0` for an empty slot, else the step's index + 1.
    slots: Vec<u32>,
    mask: usize,
    hasher: IdHashBuilder,
}

impl IdIndex {
    /// The index of `steps`; a repeated id is recorded in `problems`, in
    /// step order, with the index of its first occurrence.
    fn new<S: Node>(steps: &[S], problems: &mut Problems) -> Self {
        let size = (steps.len() * 2).next_power_of_two();
        let mut index = IdIndex {
            slots: vec![0; size],
            mask: size - 1,
            hasher: IdHashBuilder::default(),
        };
        for (i, step) in steps.iter().enumerate() {
            let k = node_key(step);
            if k == UNREAD {
                continue;
            }
            let mut at = index.home(k);
            loop {
                match index.slots[at] {
                    0 => {
                        index.slots[at] = i as u32 + 1;
                        break;
                    }
                    s if node_key(&steps[s as usize - 1]) == k => {
                        problems.duplicate_ids.push((i, s as usize - 1));
                        break;
                    }
                    _ => at = (at + 1) & index.mask,
                }
            }
        }
        index
    }

    /// The slot where the probe for `k` starts.
    #[inline]
    fn home(&self, k: u128) -> usize {
        std::hash::BuildHasher::hash_one(&self.hasher, k) as usize & self.mask
    }

    /// The index of the first step of `steps` (those the index was built
    /// from) whose id is `k`.
    #[inline]
    fn get<S: Node>(&self, steps: &[S], k: u128) -> Option<u32> {
        let mut at = self.home(k);
        loop {
            match self.slots[at] {
                0 => return None,
                s if node_key(&steps[s as usize - 1]) == k => return Some(s - 1),
                _ => at = (at + 1) & self.mask,
            }
        }
    }
}

/// Records `(i, f)` in `out` for every key `keys[i]` (not [`UNREAD`]) that
/// an earlier key `keys[f]` repeats, `f` the first such: the repeated ids
/// of a small plan, in step order. A key is compared with those before it
/// only when its low byte is one an earlier key had (a 256-bit filter): a
/// step id is a UUID v4, whose last byte is random, so the ids of a plan of
/// up to [`FEW`] steps mostly differ there, and the search of each id among
/// the ids before it (some 700 instructions a plan of 10 steps, callgrind)
/// is then skipped; crafted ids only bring back the search.
fn repeated_keys(keys: &[u128], out: &mut Vec<(usize, usize)>) {
    let mut low_bytes = [0u64; 4];
    for (i, &k) in keys.iter().enumerate() {
        if k == UNREAD {
            continue;
        }
        let low = k as u8;
        let (word, bit) = (usize::from(low >> 6), 1u64 << (low & 63));
        if low_bytes[word] & bit != 0 {
            if let Some(f) = keys[..i].iter().position(|&x| x == k) {
                out.push((i, f));
            }
        }
        low_bytes[word] |= bit;
    }
}

#[inline]
fn key(id: &StepId) -> u128 {
    id.as_uuid().as_u128()
}

/// The structural problems found while building the graph (each as step
/// index and dependency index within the step).
#[derive(Default)]
pub(crate) struct Problems {
    /// `(step, first occurrence)` for every repeated step id.
    pub(crate) duplicate_ids: Vec<(usize, usize)>,
    /// `(step, j)`: dependency `j` of `step` names no step of the plan.
    pub(crate) unknown: Vec<(usize, usize)>,
    /// `(step, j)`: dependency `j` of `step` is the step itself.
    pub(crate) self_deps: Vec<(usize, usize)>,
    /// `(step, j, first j)`: dependency `j` repeats an earlier one.
    pub(crate) repeated: Vec<(usize, usize, usize)>,
}

/// The dependency graph on step indices, in compressed sparse row form.
#[derive(Clone)]
pub(crate) struct Graph {
    map: HashMap<u128, u32, IdHashBuilder>,
    /// The edges in one allocation (a plan of 10 steps took 130
    /// instructions less than with two, callgrind): `edges[..=n]` are
    /// offsets into `edges` itself, `edges[n + 1..]` the dependencies,
    /// and `edges[edges[i]..edges[i + 1]]` the (resolved, distinct,
    /// non-self) dependencies of step `i` (so `edges[0]` is `n + 1`).
    edges: Vec<u32>,
    /// The same edges reversed: who depends on step `i` (empty until
    /// [`Graph::ensure_reverse`]).
    rdep_start: Vec<u32>,
    rdeps: Vec<u32>,
    /// Every dependency comes before its dependent.
    ordered: bool,
}

impl Graph {
    /// Builds the graph, recording every structural problem. Dependencies on
    /// a repeated id resolve to its first occurrence.
    pub(crate) fn build<S: Node>(steps: &[S]) -> (Graph, Problems) {
        let mut problems = Problems::default();
        let map = id_map(steps, &mut problems);
        let (mut graph, problems) = Graph::edges(steps, |k, _| map.get(&k).copied(), problems);
        graph.map = map;
        graph.ensure_reverse();
        (graph, problems)
    }

    /// The graph the plan rules need: like [`Graph::build`], without the
    /// reverse edges (see [`Graph::ensure_reverse`]; cheaper when
    /// [`Graph::is_ordered`] makes Kahn's algorithm unnecessary) and
    /// without the id index ([`Graph::index_of`] finds nothing). Up to
    /// [`FEW`] steps, ids are found by comparing them in turn rather than
    /// through a hash map, which is cheaper for so few.
    pub(crate) fn build_for_rules<S: Node>(steps: &[S]) -> (Graph, Problems) {
        let mut problems = Problems::default();
        if steps.len() > FEW {
            let index = IdIndex::new(steps, &mut problems);
            return Graph::edges(steps, |k, _| index.get(steps, k), problems);
        }
        let mut keys = [0u128; FEW];
        for (k, step) in keys.iter_mut().zip(steps) {
            *k = node_key(step);
        }
        let keys = &keys[..steps.len()];
        // The first occurrence, as the map keeps it.
        let first = |k: u128| keys.iter().position(|&x| x == k).map(|i| i as u32);
        repeated_keys(keys, &mut problems.duplicate_ids);
        if !problems.duplicate_ids.is_empty() {
            return Graph::edges(steps, |k, _| first(k), problems);
        }
        // Every id occurs once, so its occurrence is the first: a
        // dependency of step `i` is looked for from step `i - 1` back, then
        // from `i` on (a step mostly depends on the steps just before it).
        let near = |k: u128, i: usize| {
            let (before, rest) = keys.split_at(i.min(keys.len()));
            match before.iter().rposition(|&x| x == k) {
                Some(f) => Some(f as u32),
                None => rest.iter().position(|&x| x == k).map(|f| (i + f) as u32),
            }
        };
        Graph::edges(steps, near, problems)
    }

    /// The forward edges, resolving each dependency of step `i` with
    /// `index(key, i)`.
    ///
    /// In a plan of up to [`FEW`] steps, a repeated dependency of a step of
    /// up to [`FEW_DEPS`] is found among the step's edges so far (no
    /// allocation: a plan's steps have a few dependencies each); otherwise
    /// with a table of the steps the step already listed (allocated on
    /// first need), so that a step with many dependencies stays linear,
    /// and a large plan pays no scans (callgrind, a plan of 1,000 steps:
    /// the scans cost 30 instructions a step more than the table).
    #[allow(clippy::manual_contains)] // reason: `contains` is slower on a step's few edges (see below)
    fn edges<S: Node>(
        steps: &[S],
        index: impl Fn(u128, usize) -> Option<u32>,
        mut problems: Problems,
    ) -> (Graph, Problems) {
        let n = steps.len();
        let edge_hint: usize = steps.iter().map(Node::dep_count).sum();
        let mut edges: Vec<u32> = Vec::with_capacity(n + 1 + edge_hint);
        edges.resize(n + 1, 0);
        edges[0] = (n + 1) as u32;
        // `seen[k] == (i + 1, j)` when step `i` (of a large plan, or with
        // many dependencies) already listed `k` as its dependency `j`.
        let mut seen: Vec<(u32, u32)> = Vec::new();
        let mut ordered = true;
        for (i, step) in steps.iter().enumerate() {
            let stamp = i as u32 + 1;
            let count = step.dep_count();
            let many = n > FEW || count > FEW_DEPS;
            if many && seen.is_empty() {
                seen = vec![(0u32, 0u32); n];
            }
            let start = edges.len();
            for j in 0..count {
                let Some(dep) = step.dep(j) else { continue };
                match index(key(dep), i) {
                    None => problems.unknown.push((i, j)),
                    Some(k) if k as usize == i => problems.self_deps.push((i, j)),
                    Some(k) => {
                        let ku = k as usize;
                        let first = if many {
                            match seen[ku] {
                                (s, at) if s == stamp => Some(at as usize),
                                _ => {
                                    seen[ku] = (stamp, j as u32);
                                    None
                                }
                            }
                        } else if edges[start..].iter().any(|&e| e == k) {
                            // (Not `contains`: its chunked, vectorised
                            // scan costs more than this loop over a
                            // step's few edges.)
                            // The first dependency of the step that resolves to `k`.
                            (0..j).find(|&f| step.dep(f).and_then(|d| index(key(d), i)) == Some(k))
                        } else {
                            None
                        };
                        match first {
                            Some(at) => problems.repeated.push((i, j, at)),
                            None => {
                                ordered &= ku < i;
                                edges.push(k);
                            }
                        }
                    }
                }
            }
            edges[i + 1] = edges.len() as u32;
        }
        (
            Graph {
                map: HashMap::default(),
                edges,
                rdep_start: Vec::new(),
                rdeps: Vec::new(),
                ordered,
            },
            problems,
        )
    }

    /// True when every dependency comes before its dependent in `steps`:
    /// the positions are then a topological order and there is no cycle.
    pub(crate) fn is_ordered(&self) -> bool {
        self.ordered
    }

    /// Builds the reverse edges (who depends on each step), if not yet built.
    pub(crate) fn ensure_reverse(&mut self) {
        let n = self.len();
        if self.rdep_start.len() == n + 1 {
            return;
        }
        // Reverse edges by counting sort.
        let mut rdep_start = vec![0u32; n + 1];
        let all = &self.edges[n + 1..];
        for &k in all {
            rdep_start[k as usize + 1] += 1;
        }
        for i in 0..n {
            rdep_start[i + 1] += rdep_start[i];
        }
        let mut fill = rdep_start.clone();
        let mut rdeps = vec![0u32; all.len()];
        for i in 0..n {
            for &k in self.deps(i) {
                let slot = &mut fill[k as usize];
                rdeps[*slot as usize] = i as u32;
                *slot += 1;
            }
        }
        self.rdep_start = rdep_start;
        self.rdeps = rdeps;
    }

    /// Number of steps.
    pub(crate) fn len(&self) -> usize {
        self.edges[0] as usize - 1
    }

    /// The index of a step id (its first occurrence).
    pub(crate) fn index_of(&self, id: &StepId) -> Option<usize> {
        self.map.get(&key(id)).map(|&i| i as usize)
    }

    /// Step `i` is now named `new` instead of `old` (an id no other step
    /// has): the edges, on indices, stay the same.
    pub(crate) fn rename(&mut self, old: &StepId, new: &StepId, i: usize) {
        self.map.remove(&key(old));
        self.map.insert(key(new), i as u32);
    }

    /// The dependencies of step `i`.
    pub(crate) fn deps(&self, i: usize) -> &[u32] {
        &self.edges[self.edges[i] as usize..self.edges[i + 1] as usize]
    }

    /// How many dependencies each step has (its in-degree in Kahn's
    /// algorithm, where an edge runs from a dependency to its dependent).
    fn dep_counts(&self) -> Vec<u32> {
        (0..self.len()).map(|i| self.deps(i).len() as u32).collect()
    }

    /// The steps that depend on step `i`.
    pub(crate) fn dependents(&self, i: usize) -> &[u32] {
        match (self.rdep_start.get(i), self.rdep_start.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.rdeps[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Kahn's algorithm: `Ok(order)` for a DAG, else `Err(cycle)` with one
    /// real cycle, as indices where each one depends on the one before it
    /// (and the first depends on the last).
    pub(crate) fn kahn(&self) -> Result<Vec<u32>, Vec<u32>> {
        let n = self.len();
        let mut indeg = self.dep_counts();
        let mut order: Vec<u32> = Vec::with_capacity(n);
        order.extend((0..n as u32).filter(|&i| indeg[i as usize] == 0));
        let mut head = 0;
        while head < order.len() {
            let v = order[head] as usize;
            head += 1;
            for &d in self.dependents(v) {
                let slot = &mut indeg[d as usize];
                *slot -= 1;
                if *slot == 0 {
                    order.push(d);
                }
            }
        }
        if order.len() == n {
            return Ok(order);
        }
        Err(self.cycle_among_remaining(&indeg))
    }

    /// Every step left by Kahn's algorithm (`indeg > 0`) has a dependency
    /// that was left too. Walking such dependencies from any left step must
    /// repeat a step; the walk from its first visit is a cycle. O(V + E).
    fn cycle_among_remaining(&self, indeg: &[u32]) -> Vec<u32> {
        let Some(start) = indeg.iter().position(|&d| d > 0) else {
            return Vec::new();
        };
        // position in the walk + 1, or 0 when not visited
        let mut pos = vec![0u32; self.len()];
        let mut walk: Vec<u32> = Vec::new();
        let mut v = start;
        loop {
            if pos[v] != 0 {
                let from = pos[v] as usize - 1;
                // walk[k + 1] is a dependency of walk[k]; reverse so that each
                // step depends on the one before it.
                let mut cycle: Vec<u32> = walk[from..].to_vec();
                cycle.reverse();
                return cycle;
            }
            walk.push(v as u32);
            pos[v] = walk.len() as u32;
            match self.deps(v).iter().find(|&&d| indeg[d as usize] > 0) {
                Some(&d) => v = d as usize,
                None => return Vec::new(), // unreachable for a Kahn remainder
            }
        }
    }

    /// A topological order where ready steps are taken by smallest `rank`
    /// (then index). `None` if the graph has a cycle.
    pub(crate) fn stable_order(&self, rank: impl Fn(usize) -> u64) -> Option<Vec<u32>> {
        let n = self.len();
        let mut indeg = self.dep_counts();
        let mut heap: BinaryHeap<Reverse<(u64, u32)>> = (0..n)
            .filter(|&i| indeg[i] == 0)
            .map(|i| Reverse((rank(i), i as u32)))
            .collect();
        let mut order = Vec::with_capacity(n);
        while let Some(Reverse((_, v))) = heap.pop() {
            order.push(v);
            for &d in self.dependents(v as usize) {
                let slot = &mut indeg[d as usize];
                *slot -= 1;
                if *slot == 0 {
                    heap.push(Reverse((rank(d as usize), d)));
                }
            }
        }
        (order.len() == n).then_some(order)
    }

    /// The indices reachable from `i` through "is depended on by" edges
    /// (not including `i`), as a mask.
    pub(crate) fn descendants_mask(&self, i: usize) -> Vec<bool> {
        let mut seen = vec![false; self.len()];
        let mut stack = vec![i as u32];
        while let Some(v) = stack.pop() {
            for &d in self.dependents(v as usize) {
                if !seen[d as usize] {
                    seen[d as usize] = true;
                    stack.push(d);
                }
            }
        }
        seen
    }
}

/// Turns a cycle of indices into the violation of `sa_plan_dag_acyclic`.
/// A step id as messages show it (a step of a cycle, a repeated id or a
/// dependency always has one; `?` is never expected).
pub(crate) fn shown(id: Option<&StepId>) -> String {
    id.map_or_else(|| "?".to_owned(), StepId::to_string)
}

pub(crate) fn cycle_violation<S: Node>(steps: &[S], cycle: &[u32]) -> Violation {
    const SHOWN: usize = 32;
    let mut text = String::new();
    for &i in cycle.iter().take(SHOWN) {
        if !text.is_empty() {
            text.push_str(" -> ");
        }
        let s = &steps[i as usize];
        text.push_str(&format!("{} (/steps/{i})", shown(s.id())));
    }
    if cycle.len() > SHOWN {
        text.push_str(&format!(" -> ... ({} more)", cycle.len() - SHOWN));
    }
    if let Some(&first) = cycle.first() {
        text.push_str(&format!(" -> {}", shown(steps[first as usize].id())));
    }
    Violation::error(
        "/steps",
        crate::rules::SA_PLAN_DAG_ACYCLIC,
        format!(
            "the dependencies form a cycle of {} step{}: {text}; each step depends on the one before it, so none of them can ever start",
            cycle.len(),
            if cycle.len() == 1 { "" } else { "s" }
        ),
    )
}

#[cfg(test)]
mod tests {
    use mplp_core::StepId;
    use proptest::prelude::*;

    use super::{FEW, FEW_DEPS, Graph, UNREAD, repeated_keys};
    use crate::PlanStep;

    /// The steps a generated shape describes: step `k` takes the id
    /// `shape[k].0` of a pool of 26 ids and the dependencies `shape[k].1`.
    /// Steps take the first 24 ids, so dependencies 24 and 25 name no step.
    fn steps_of(shape: &[(usize, Vec<usize>)]) -> Vec<PlanStep> {
        // Half of the ids end with the same byte (the filter of
        // `repeated_keys` then compares them), half are random.
        let pool: Vec<StepId> = (0..26)
            .map(|k| {
                let id = StepId::new();
                if k % 2 == 0 {
                    return id;
                }
                let text = id.to_string();
                StepId::parse(&format!("{}00", &text[..34])).unwrap()
            })
            .collect();
        shape
            .iter()
            .map(|(id, deps)| {
                let mut step = PlanStep::new("s".parse().unwrap());
                step.step_id = pool[*id];
                step.dependencies = Some(deps.iter().map(|d| pool[*d]).collect());
                step
            })
            .collect()
    }

    proptest! {
        /// The repeated keys the filter finds are those of their
        /// definition (each key that an earlier one repeats, with the
        /// first of them), on keys whose low bytes mostly collide (a few
        /// values) or not, with unread keys among them.
        #[test]
        fn repeated_keys_are_their_definition(
            keys in prop::collection::vec(
                prop_oneof![
                    Just(UNREAD),
                    (0u128..6).prop_map(|k| k << 8 | 7),
                    (0u128..6, 0u128..4).prop_map(|(k, low)| k << 8 | low),
                    any::<u128>(),
                ],
                0..=FEW,
            ),
        ) {
            let mut got = Vec::new();
            repeated_keys(&keys, &mut got);
            let want: Vec<(usize, usize)> = keys
                .iter()
                .enumerate()
                .filter(|(_, k)| **k != UNREAD)
                .filter_map(|(i, k)| keys[..i].iter().position(|x| x == k).map(|f| (i, f)))
                .collect();
            prop_assert_eq!(got, want);
        }

        /// The graph of the rules (ids compared in turn up to `FEW` steps,
        /// a hash map beyond) has the edges and problems of the graph that
        /// keeps the id index, on plans of either size with repeated step
        /// ids, unknown, repeated and self dependencies.
        #[test]
        fn the_rules_graph_is_the_indexed_graph(
            shape in prop::collection::vec(
                (0usize..24, prop::collection::vec(0usize..26, 0..4)),
                1..(2 * FEW),
            ),
        ) {
            let steps = steps_of(&shape);
            let (indexed, want) = Graph::build(&steps);
            let (rules, got) = Graph::build_for_rules(&steps);
            prop_assert_eq!(&rules.edges, &indexed.edges);
            prop_assert_eq!(rules.ordered, indexed.ordered);
            prop_assert_eq!(got.duplicate_ids, want.duplicate_ids);
            prop_assert_eq!(got.unknown, want.unknown);
            prop_assert_eq!(got.self_deps, want.self_deps);
            prop_assert_eq!(got.repeated, want.repeated);
            for (i, step) in steps.iter().enumerate() {
                let first = steps.iter().position(|s| s.step_id == step.step_id);
                prop_assert_eq!(indexed.index_of(&step.step_id), first);
                prop_assert!(first <= Some(i));
            }
        }

        /// The edges and problems of either graph are those of their
        /// definition, computed the obvious way: each dependency resolves
        /// to the first step with its id; one that names no step is
        /// unknown, one that names its own step a self-dependency, one that
        /// resolves as an earlier dependency of the step did a repeat of
        /// the first such; the others are the edges, in order. Steps of a
        /// few and of many (past `FEW_DEPS`) dependencies, plans of either
        /// size.
        #[test]
        fn the_edges_are_their_definition(
            shape in prop::collection::vec(
                (0usize..24, prop::collection::vec(0usize..26, 0..(2 * FEW_DEPS))),
                1..(2 * FEW),
            ),
        ) {
            let steps = steps_of(&shape);
            let resolve = |id: &StepId| steps.iter().position(|s| s.step_id == *id);
            let (mut unknown, mut self_deps, mut repeated) = (Vec::new(), Vec::new(), Vec::new());
            let mut edges: Vec<Vec<u32>> = Vec::new();
            for (i, step) in steps.iter().enumerate() {
                let deps = step.dependency_ids();
                let mut mine = Vec::new();
                for (j, dep) in deps.iter().enumerate() {
                    match resolve(dep) {
                        None => unknown.push((i, j)),
                        Some(k) if k == i => self_deps.push((i, j)),
                        Some(k) => match (0..j).find(|&f| resolve(&deps[f]) == Some(k)) {
                            Some(f) => repeated.push((i, j, f)),
                            None => mine.push(k as u32),
                        },
                    }
                }
                edges.push(mine);
            }
            let ordered = edges
                .iter()
                .enumerate()
                .all(|(i, e)| e.iter().all(|&k| (k as usize) < i));
            for (graph, problems) in [Graph::build(&steps), Graph::build_for_rules(&steps)] {
                for (i, want) in edges.iter().enumerate() {
                    prop_assert_eq!(graph.deps(i), want.as_slice());
                }
                prop_assert_eq!(graph.len(), steps.len());
                prop_assert_eq!(graph.ordered, ordered);
                prop_assert_eq!(&problems.unknown, &unknown);
                prop_assert_eq!(&problems.self_deps, &self_deps);
                prop_assert_eq!(&problems.repeated, &repeated);
            }
        }
    }
}
