//! Property tests.

use std::collections::HashSet;

use mplp_core::Wire;
use mplp_core::check::CheckValue;
use mplp_core::{Document, Pointer, Report, StepId, Violation};
use mplp_plan::{ConfirmDecision, CriticalSteps, Plan, PlanStatus, PlanStep, StepStatus};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use serde_json::{Value, json};

/// A random DAG: `deps[k]` are logical nodes `< k`; node `k` sits at
/// position `perm[k]` of the steps; `idx` are the order_index values.
#[derive(Clone, Debug)]
struct Dag {
    deps: Vec<Vec<usize>>,
    idx: Vec<Option<u64>>,
    perm: Vec<usize>,
}

fn dag_strategy(max: usize) -> impl Strategy<Value = Dag> {
    (1usize..max)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(prop::collection::vec(any::<Index>(), 0..4), n),
                prop::collection::vec(prop::option::of(0u64..8), n),
                Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
            )
        })
        .prop_map(|(raw, idx, perm)| {
            let deps = raw
                .iter()
                .enumerate()
                .map(|(k, d)| {
                    let mut v: Vec<usize> = if k == 0 {
                        Vec::new()
                    } else {
                        d.iter().map(|x| x.index(k)).collect()
                    };
                    v.sort_unstable();
                    v.dedup();
                    v
                })
                .collect();
            Dag { deps, idx, perm }
        })
}

/// The plan document of a DAG (positions permuted), plus the id of each logical node.
fn dag_doc(dag: &Dag, extra: Option<(usize, usize)>) -> (Value, Vec<StepId>) {
    let n = dag.deps.len();
    let ids: Vec<StepId> = (0..n).map(|_| StepId::new()).collect();
    let mut steps = vec![Value::Null; n];
    for k in 0..n {
        let mut deps: Vec<String> = dag.deps[k].iter().map(|&d| ids[d].to_string()).collect();
        if let Some((x, y)) = extra {
            if x == k {
                deps.push(ids[y].to_string());
            }
        }
        let mut step = json!({
            "step_id": ids[k].to_string(),
            "description": format!("step {k}"),
            "status": "pending",
            "dependencies": deps,
        });
        if let Some(i) = dag.idx[k] {
            step["order_index"] = json!(i);
        }
        steps[dag.perm[k]] = step;
    }
    let doc = json!({
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "plan_id": "27650952-d4ac-41e7-948b-97528f277c51",
        "context_id": "2530dc8f-0e8c-4a00-994e-7a9146b010c2",
        "title": "random",
        "objective": "a random DAG",
        "status": "draft",
        "steps": steps,
    });
    (doc, ids)
}

fn error_rules(doc: &Value) -> Vec<String> {
    Plan::validate_value(doc)
        .report
        .errors()
        .map(|v| v.rule.to_string())
        .collect()
}

proptest! {
    #[test]
    fn acyclic_dags_validate_and_schedule(dag in dag_strategy(30)) {
        let (doc, ids) = dag_doc(&dag, None);
        prop_assert!(error_rules(&doc).is_empty());
        let plan = Plan::from_value(&doc).unwrap();
        prop_assert_eq!(plan.find_cycle(), None);
        let d = plan.dag().unwrap();
        let deps_of = |id: StepId| plan.step(id).unwrap().dependency_ids().to_vec();

        let order = d.topological_order();
        prop_assert_eq!(order.len(), ids.len());
        let pos: std::collections::HashMap<StepId, usize> =
            order.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        prop_assert_eq!(pos.len(), ids.len());
        for &s in &order {
            for dep in deps_of(s) {
                prop_assert!(pos[&dep] < pos[&s]);
            }
        }

        let layers = d.execution_layers();
        let mut layer_of = std::collections::HashMap::new();
        for (l, layer) in layers.iter().enumerate() {
            prop_assert!(!layer.is_empty());
            for &s in layer { prop_assert!(layer_of.insert(s, l).is_none()); }
        }
        prop_assert_eq!(layer_of.len(), ids.len());
        for (&s, &l) in &layer_of {
            for dep in deps_of(s) {
                prop_assert!(layer_of[&dep] < l);
            }
            if l > 0 {
                // Not earlier than it could be.
                prop_assert!(deps_of(s).iter().any(|dep| layer_of[dep] == l - 1));
            }
        }

        let path = d.longest_path();
        prop_assert_eq!(path.len(), layers.len());
        for w in path.windows(2) {
            prop_assert!(deps_of(w[1]).contains(&w[0]));
        }
    }

    #[test]
    fn one_back_edge_is_always_a_real_cycle(dag in dag_strategy(30), pick in any::<Index>(), pick2 in any::<Index>()) {
        // Candidates: nodes with at least one descendant.
        let (doc, ids) = dag_doc(&dag, None);
        let plan = Plan::from_value(&doc).unwrap();
        let with_desc: Vec<(usize, Vec<StepId>)> = (0..ids.len())
            .map(|k| (k, plan.affected_by_failure(ids[k]).unwrap()))
            .filter(|(_, d)| !d.is_empty())
            .collect();
        prop_assume!(!with_desc.is_empty());
        let (x, desc) = &with_desc[pick.index(with_desc.len())];
        let y_id = desc[pick2.index(desc.len())];
        let y = ids.iter().position(|&i| i == y_id).unwrap();
        // x now also depends on y, which depends (transitively) on x.
        let (doc, _) = {
            let mut d = doc.clone();
            let p = dag.perm[*x];
            d["steps"][p]["dependencies"].as_array_mut().unwrap().push(json!(ids[y].to_string()));
            (d, ())
        };
        prop_assert_eq!(error_rules(&doc), vec!["sa_plan_dag_acyclic".to_string()]);
        let plan = Plan::from_value(&doc);
        prop_assert!(plan.is_err());
        let plan = crate::unchecked(&doc);
        let cycle = plan.find_cycle().unwrap();
        prop_assert!(cycle.len() >= 2);
        let distinct: HashSet<_> = cycle.iter().collect();
        prop_assert_eq!(distinct.len(), cycle.len());
        for (k, id) in cycle.iter().enumerate() {
            let next = cycle[(k + 1) % cycle.len()];
            prop_assert!(plan.step(next).unwrap().dependency_ids().contains(id));
        }
    }

    #[test]
    fn built_plans_round_trip(dag in dag_strategy(20)) {
        let (doc, _) = dag_doc(&dag, None);
        let plan = Plan::from_value(&doc).unwrap();
        let json = plan.to_json();
        prop_assert_eq!(&Plan::from_json(&json).unwrap(), &plan);
        prop_assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), doc);
    }
}

// ---------------------------------------------------------------------------
// Lifecycle

#[derive(Clone, Debug)]
enum Op {
    Propose,
    Approve,
    Reject,
    Start,
    Cancel,
    StartStep(Index),
    Complete(Index),
    Fail(Index, bool),
    Skip(Index),
    Retry(Index),
    StartReady,
    CompleteRunning,
    FailRunning(bool),
    RetryFailed,
    /// `edit_steps`: a new step after step `.0` (a dependency of step `.1`
    /// too when `.2`), or the last step removed when nothing depends on it.
    Edit(Index, Index, bool, bool),
}

fn op_strategy() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => Just(Op::Propose),
        1 => Just(Op::Approve),
        1 => Just(Op::Reject),
        1 => Just(Op::Start),
        1 => Just(Op::Cancel),
        2 => any::<Index>().prop_map(Op::StartStep),
        4 => Just(Op::StartReady),
        4 => any::<Index>().prop_map(Op::Complete),
        2 => (any::<Index>(), any::<bool>()).prop_map(|(i, c)| Op::Fail(i, c)),
        1 => any::<Index>().prop_map(Op::Skip),
        2 => any::<Index>().prop_map(Op::Retry),
        4 => Just(Op::CompleteRunning),
        2 => any::<bool>().prop_map(Op::FailRunning),
        2 => Just(Op::RetryFailed),
        1 => (any::<Index>(), any::<Index>(), any::<bool>(), any::<bool>())
            .prop_map(|(a, b, c, d)| Op::Edit(a, b, c, d)),
    ]
}

/// Applies one operation; returns whether it was accepted.
fn apply(plan: &mut Plan, op: &Op) -> bool {
    let pick = |plan: &Plan, i: &Index| plan.steps()[i.index(plan.steps().len())].step_id;
    let r = match op {
        Op::Propose => plan.propose(),
        Op::Approve => plan.approve(&ConfirmDecision::approved("lead")),
        Op::Reject => plan.reject(&ConfirmDecision::rejected("lead")),
        Op::Start => plan.start(),
        Op::Cancel => plan.cancel(),
        Op::StartStep(i) => {
            let id = pick(plan, i);
            plan.step_mut(id).and_then(|s| s.start())
        }
        Op::StartReady => match plan.ready_steps().first() {
            Some(&id) => plan.step_mut(id).and_then(|s| s.start()),
            None => return false,
        },
        Op::CompleteRunning | Op::FailRunning(_) | Op::RetryFailed => {
            let wanted = if matches!(op, Op::RetryFailed) {
                StepStatus::Failed
            } else {
                StepStatus::InProgress
            };
            let Some(id) = plan
                .steps()
                .iter()
                .find(|s| s.status() == wanted)
                .map(|s| s.step_id)
            else {
                return false;
            };
            match op {
                Op::CompleteRunning => plan.step_mut(id).and_then(|s| s.complete()),
                Op::FailRunning(c) => {
                    let policy = if *c {
                        CriticalSteps::All
                    } else {
                        CriticalSteps::None
                    };
                    plan.step_mut(id).and_then(|s| s.fail_with(&policy))
                }
                _ => plan.step_mut(id).and_then(|s| s.retry()).map(|_| ()),
            }
        }
        Op::Complete(i) => {
            let id = pick(plan, i);
            plan.step_mut(id).and_then(|s| s.complete())
        }
        Op::Fail(i, critical) => {
            let id = pick(plan, i);
            let policy = if *critical {
                CriticalSteps::All
            } else {
                CriticalSteps::None
            };
            plan.step_mut(id).and_then(|s| s.fail_with(&policy))
        }
        Op::Skip(i) => {
            let id = pick(plan, i);
            plan.step_mut(id).and_then(|s| s.skip())
        }
        Op::Retry(i) => {
            let id = pick(plan, i);
            plan.step_mut(id).and_then(|s| s.retry()).map(|_| ())
        }
        Op::Edit(after, before, link, remove) => {
            let (after, before) = (pick(plan, after), pick(plan, before));
            plan.edit_steps(|steps| {
                if *remove {
                    let last = steps.len() - 1;
                    let id = steps[last].step_id;
                    // Never leave only done steps: an edit does not
                    // derive the plan's completion (a warning).
                    let undone_left = steps[..last].iter().any(|s| {
                        !matches!(s.status(), StepStatus::Completed | StepStatus::Skipped)
                    });
                    if undone_left && steps.iter().all(|s| !s.dependency_ids().contains(&id)) {
                        steps.pop();
                    }
                    return;
                }
                let mut step = PlanStep::new("added".parse().unwrap());
                step.set_dependencies([after]);
                let new = step.step_id;
                steps.push(step);
                if *link {
                    if let Some(b) = steps.iter_mut().find(|s| s.step_id == before) {
                        let deps = [b.dependency_ids(), &[new]].concat();
                        b.set_dependencies(deps);
                    }
                }
            })
        }
    };
    r.is_ok()
}

fn data_str<'a>(e: &'a mplp_core::BaseEvent, key: &str) -> Option<&'a str> {
    e.data.as_ref()?.as_ref()?.get(key)?.as_str()
}

/// Checks one accepted or refused operation; records the transitions seen.
fn check_step(
    before: &Plan,
    after: &Plan,
    accepted: bool,
    op: &Op,
    seen: &mut HashSet<(String, String, String)>,
) -> Result<(), TestCaseError> {
    if !accepted {
        prop_assert_eq!(
            before,
            after,
            "a refused operation changed the plan: {:?}",
            op
        );
        return Ok(());
    }
    if let Op::Edit(..) = op {
        prop_assert_eq!(before.status(), after.status());
        prop_assert!(after.check().is_valid());
        return Ok(());
    }
    let old_events = before.events.as_ref().map_or(0, Vec::len);
    let events = after.events.as_deref().unwrap_or(&[]);
    prop_assert!(events.len() > old_events);
    let mut plan_status = before.status();
    for e in &events[old_events..] {
        match e.event_type.as_str() {
            "plan.step.retried" => {}
            t => {
                let from = data_str(e, "from").unwrap();
                let to = data_str(e, "to").unwrap();
                if t == "plan.status.changed" {
                    let (f, to_s) = (
                        PlanStatus::from_wire(from).unwrap(),
                        PlanStatus::from_wire(to).unwrap(),
                    );
                    prop_assert_eq!(f, plan_status);
                    prop_assert!(f.can_transition_to(to_s), "{} -> {}", f, to_s);
                    plan_status = to_s;
                    seen.insert(("plan".into(), from.into(), to.into()));
                } else {
                    let (f, to_s) = (
                        StepStatus::from_wire(from).unwrap(),
                        StepStatus::from_wire(to).unwrap(),
                    );
                    prop_assert!(f.can_transition_to(to_s), "{} -> {}", f, to_s);
                    seen.insert(("step".into(), from.into(), to.into()));
                }
            }
        }
    }
    prop_assert_eq!(plan_status, after.status());
    // Steps: same status or one allowed transition; a retried step is
    // replaced by a pending one.
    for s in after.steps().iter() {
        match before.step(s.step_id) {
            Some(b) => {
                prop_assert!(b.status() == s.status() || b.status().can_transition_to(s.status()))
            }
            None => prop_assert_eq!(s.status(), StepStatus::Pending),
        }
    }
    for b in before.steps().iter() {
        if after.step(b.step_id).is_none() {
            prop_assert_eq!(b.status(), StepStatus::Failed);
        }
    }
    // The document stays valid, and the derived plan status rules hold.
    let report = after.check();
    prop_assert!(report.is_valid(), "{:?}", report);
    let all_done = after
        .steps()
        .iter()
        .all(|s| matches!(s.status(), StepStatus::Completed | StepStatus::Skipped));
    prop_assert!(after.status() != PlanStatus::InProgress || !all_done);
    prop_assert!(after.status() != PlanStatus::Completed || all_done);
    if let Op::Fail(_, true) | Op::FailRunning(true) = op {
        prop_assert_eq!(after.status(), PlanStatus::Failed);
    }
    if after.status() == PlanStatus::Failed {
        prop_assert!(
            after
                .steps()
                .iter()
                .any(|s| s.status() == StepStatus::Failed)
        );
    }
    Ok(())
}

/// The pending steps whose dependencies all exist (another step's id) and
/// are completed or skipped, in plan order, while the plan is in progress:
/// what `ready_steps` must answer, computed from the steps alone.
fn ready_from_scratch(plan: &Plan) -> Vec<StepId> {
    if plan.status() != PlanStatus::InProgress {
        return Vec::new();
    }
    let steps = plan.steps();
    let first = |id: &StepId| steps.iter().position(|s| s.step_id == *id);
    steps
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            s.status() == StepStatus::Pending
                && s.dependency_ids().iter().all(|d| {
                    first(d).is_some_and(|k| {
                        k != *i
                            && matches!(
                                steps[k].status(),
                                StepStatus::Completed | StepStatus::Skipped
                            )
                    })
                })
        })
        .map(|(_, s)| s.step_id)
        .collect()
}

/// What the lifecycle index answers (kept up to date operation after
/// operation) equals a recomputation from the steps, and the answers of a
/// copy read afresh (whose index is built from scratch).
fn check_derived(plan: &Plan) -> Result<(), TestCaseError> {
    let ready = plan.ready_steps();
    prop_assert_eq!(&ready, &ready_from_scratch(plan));
    prop_assert_eq!(&plan.ready_iter().collect::<Vec<_>>(), &ready);
    prop_assert_eq!(plan.first_ready(), ready.first().copied());
    let fresh = Plan::deserialize_unchecked(&plan.to_value()).unwrap();
    prop_assert_eq!(&fresh.ready_steps(), &ready);
    for (i, s) in plan.steps().iter().enumerate() {
        let first = plan.steps().iter().position(|x| x.step_id == s.step_id);
        prop_assert_eq!(plan.position(s.step_id), first);
        prop_assert_eq!(plan.step(s.step_id).map(|x| x.step_id), Some(s.step_id));
        if first == Some(i) {
            prop_assert_eq!(plan.step(s.step_id), Some(s));
        }
    }
    prop_assert_eq!(plan.position(StepId::new()), None);
    // Completion is derived: an in-progress plan never has every step done.
    let all_done = plan
        .steps()
        .iter()
        .all(|s| matches!(s.status(), StepStatus::Completed | StepStatus::Skipped));
    prop_assert!(!(plan.status() == PlanStatus::InProgress && all_done));
    Ok(())
}

/// Runs `ops` on the plan of `dag`; with `started`, the plan is first
/// proposed, approved and started (random ops rarely do that in order).
fn run_ops(
    dag: &Dag,
    started: bool,
    ops: &[Op],
    seen: &mut HashSet<(String, String, String)>,
) -> Result<(), TestCaseError> {
    let (doc, _) = dag_doc(dag, None);
    let mut plan = Plan::from_value(&doc).unwrap();
    let prefix = if started {
        &[Op::Propose, Op::Approve, Op::Start][..]
    } else {
        &[]
    };
    for op in prefix.iter().chain(ops) {
        let before = plan.clone();
        let accepted = apply(&mut plan, op);
        check_step(&before, &plan, accepted, op, seen)?;
        check_derived(&plan)?;
    }
    prop_assert_eq!(&Plan::from_json(plan.to_json()).unwrap(), &plan);
    Ok(())
}

proptest! {
    #[test]
    fn lifecycle_never_leaves_the_tables(dag in dag_strategy(6), started in any::<bool>(), ops in prop::collection::vec(op_strategy(), 0..40)) {
        let mut seen = HashSet::new();
        run_ops(&dag, started, &ops, &mut seen)?;
    }
}

/// Breaks the plan document of a DAG: `(0, a, b)` gives step `a` the id of
/// step `b`, `(1, a, _)` adds an unknown dependency to step `a`, `(2, a, _)`
/// makes step `a` depend on itself.
fn break_doc(doc: &mut Value, flaws: &[(u8, Index, Index)]) {
    let n = doc["steps"].as_array().map_or(0, Vec::len);
    for (kind, a, b) in flaws {
        let (a, b) = (a.index(n), b.index(n));
        let dep = match kind {
            0 => {
                doc["steps"][a]["step_id"] = doc["steps"][b]["step_id"].clone();
                continue;
            }
            1 => json!(StepId::new().to_string()),
            _ => doc["steps"][a]["step_id"].clone(),
        };
        if let Some(deps) = doc["steps"][a]["dependencies"].as_array_mut() {
            deps.push(dep);
        }
    }
}

proptest! {
    /// Plans read with the escape hatch (repeated ids, unknown and self
    /// dependencies) can be driven too, and the index follows them.
    #[test]
    fn lifecycle_index_follows_unchecked_plans(
        dag in dag_strategy(6),
        flaws in prop::collection::vec((0u8..3, any::<Index>(), any::<Index>()), 1..3),
        ops in prop::collection::vec(op_strategy(), 0..40),
    ) {
        let (mut doc, _) = dag_doc(&dag, None);
        break_doc(&mut doc, &flaws);
        let mut plan = Plan::deserialize_unchecked(&doc).unwrap();
        for op in [Op::Propose, Op::Approve, Op::Start].iter().chain(&ops) {
            let before = plan.clone();
            let accepted = apply(&mut plan, op);
            if !accepted {
                prop_assert_eq!(&before, &plan, "a refused operation changed the plan: {:?}", op);
            }
            check_derived(&plan)?;
        }
    }
}

#[test]
fn every_transition_of_the_tables_is_reachable() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = (
        dag_strategy(5),
        any::<bool>(),
        prop::collection::vec(op_strategy(), 0..40),
    );
    let mut seen = HashSet::new();
    for _ in 0..600 {
        let (dag, started, ops) = strategy.new_tree(&mut runner).unwrap().current();
        run_ops(&dag, started, &ops, &mut seen).unwrap();
    }
    let want: HashSet<(String, String, String)> = PlanStatus::ALL
        .iter()
        .flat_map(|&f| PlanStatus::ALL.iter().map(move |&t| (f, t)))
        .filter(|(f, t)| f.can_transition_to(*t))
        .map(|(f, t)| ("plan".to_string(), f.to_string(), t.to_string()))
        .chain(
            StepStatus::ALL
                .iter()
                .flat_map(|&f| StepStatus::ALL.iter().map(move |&t| (f, t)))
                .filter(|(f, t)| f.can_transition_to(*t))
                .map(|(f, t)| ("step".to_string(), f.to_string(), t.to_string())),
        )
        .collect();
    assert_eq!(want.len(), 14);
    let missing: Vec<_> = want.difference(&seen).collect();
    assert!(missing.is_empty(), "never reached: {missing:?}");
}

// ---------------------------------------------------------------------------
// Typed parse and CheckValue agree

fn replacements() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.0),
        json!(2.5),
        json!(""),
        json!("x"),
        json!("draft"),
        json!("pending"),
        json!("completed"),
        json!("in_progress"),
        json!("4242b91a-6189-4d80-8203-e0d674ea1f8f"),
        json!("4242B91A-6189-4D80-8203-E0D674EA1F8F"),
        json!("2025-12-07T00:00:00Z"),
        json!("2025-12-07 00:00:00"),
        json!("1.0.0"),
        json!("plan.created"),
        json!([]),
        json!(["4242b91a-6189-4d80-8203-e0d674ea1f8f"]),
        json!({}),
        json!([{}]),
    ]
}

fn paths(v: &Value, at: Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let mut p = at.clone();
                p.push(json!(k));
                paths(x, p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let mut p = at.clone();
                p.push(json!(i));
                paths(x, p, out);
            }
        }
        _ => {}
    }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, seg| match seg {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
        _ => unreachable!(),
    })
}

fn mutate(doc: &mut Value, which: &Index, kind: u8, repl: &Index) {
    let mut all = Vec::new();
    paths(doc, Vec::new(), &mut all);
    let path = &all[which.index(all.len())];
    let r = replacements();
    match kind % 4 {
        3 => {
            // An object written as the array of its values.
            let target = get_mut(doc, path);
            if let Value::Object(m) = target {
                *target = Value::Array(m.values().cloned().collect());
            }
        }
        0 => *get_mut(doc, path) = r[repl.index(r.len())].clone(),
        1 => {
            // Remove the member or item.
            if let Some((last, parent)) = path.split_last() {
                match (get_mut(doc, parent), last) {
                    (Value::Object(m), Value::String(k)) => {
                        m.remove(k);
                    }
                    (Value::Array(a), Value::Number(i)) => {
                        a.remove(i.as_u64().unwrap() as usize);
                    }
                    _ => {}
                }
            }
        }
        _ => {
            if let Value::Object(m) = get_mut(doc, path) {
                m.insert("unexpected".into(), json!(1));
            } else if let Value::Array(a) = get_mut(doc, path) {
                let copy = a.first().cloned().unwrap_or(json!(null));
                a.push(copy);
            }
        }
    }
}

/// Whether a number like `1.0` appears: JSON Schema counts it as an
/// integer, mplp-rs refuses it (the documented exception, SPEC-QUESTIONS 3).
fn has_integral_float(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            n.as_f64().is_some_and(|f| f.fract() == 0.0) && !n.is_i64() && !n.is_u64()
        }
        Value::Array(a) => a.iter().any(has_integral_float),
        Value::Object(m) => m.values().any(has_integral_float),
        _ => false,
    }
}

proptest! {
    /// The typed parse, the CheckValue slow path and the JSON Schema agree
    /// on mutants of the valid examples.
    #[test]
    fn typed_parse_and_check_value_agree(
        file in any::<Index>(),
        muts in prop::collection::vec((any::<Index>(), any::<u8>(), any::<Index>()), 1..4),
    ) {
        let files = crate::example_files("valid", "plan-");
        let mut doc: Value = serde_json::from_slice(&std::fs::read(&files[file.index(files.len())]).unwrap()).unwrap();
        for (which, kind, repl) in &muts {
            mutate(&mut doc, which, *kind, repl);
        }
        let bytes = serde_json::to_vec(&doc).unwrap();
        // The schema rules only: the checker and jsonschema know nothing of the DAG rules.
        let typed = <Plan as mplp_core::Wire>::deserialize_unchecked(&mut serde_json::Deserializer::from_slice(&bytes));
        let mut report = Report::new();
        Plan::check_value(&doc, &Pointer::root(), &mut report);
        let schema_ok = mplp_core::schema::is_valid(mplp_core::schema::SchemaKind::Plan, &doc);
        prop_assert_eq!(typed.is_ok(), report.is_valid(), "typed: {:?}\nchecker: {:?}\n{}", typed.err(), report, doc);
        if typed.is_ok() || !has_integral_float(&doc) {
            prop_assert_eq!(typed.is_ok(), schema_ok, "typed vs jsonschema: {:?}\n{}", typed.err(), doc);
        }
    }
}

/// The rules of the dependency graph, which a plan that fails its schema
/// still gets (issue 39, one pass).
const GRAPH_RULES: [&str; 5] = [
    "sa_plan_step_unique_ids",
    "sa_plan_dependency_exists",
    "sa_plan_no_self_dependency",
    "sa_plan_duplicate_dependency",
    "sa_plan_dag_acyclic",
];

/// The graph rules' findings of a report (pointer, rule, message and
/// severity each).
fn graph_findings(report: &Report) -> Vec<Violation> {
    rule_findings(report)
        .into_iter()
        .filter(|v| GRAPH_RULES.contains(&v.rule.as_str()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A plan that fails its schema elsewhere (an empty title, a step
    /// status outside the enum) gets the same graph findings, at the same
    /// pointers with the same messages, as the same plan without the schema
    /// errors; and the schema errors too, in the same pass.
    #[test]
    fn graph_rules_run_on_plans_that_fail_their_schema(
        dag in dag_strategy(24),
        back in prop::option::of((any::<Index>(), any::<Index>())),
        flaws in prop::collection::vec((0u8..3, any::<Index>(), any::<Index>()), 0..3),
        bad_status in prop::option::of(any::<Index>()),
    ) {
        let n = dag.deps.len();
        let extra = back.map(|(a, b)| {
            let (a, b) = (a.index(n), b.index(n));
            (a.min(b), a.max(b))
        });
        let (mut doc, _) = dag_doc(&dag, extra);
        break_doc(&mut doc, &flaws);
        let clean = Plan::validate_json(doc.to_string());
        let want = graph_findings(&clean.report);

        doc["title"] = json!("");
        if let Some(i) = bad_status {
            doc["steps"][i.index(n)]["status"] = json!("bogus");
        }
        let broken = Plan::validate_json(doc.to_string());
        prop_assert!(!broken.is_valid());
        prop_assert!(broken.report.errors().any(|v| v.pointer == "/title" && v.rule.as_str() == "min-length"));
        prop_assert_eq!(graph_findings(&broken.report), want.clone());
        // The value path (`validate_value`) gives the same.
        prop_assert_eq!(graph_findings(&Plan::validate_value(&doc).report), want);
    }
}

/// A step whose id cannot be read is left out of the graph: a dependency
/// on an id no readable step has may name it, so it is not reported as
/// unknown; a self-dependency and a cycle among readable steps still are.
#[test]
fn an_unreadable_step_id_hides_only_unknown_dependencies() {
    let [a, b, c] = [StepId::new(), StepId::new(), StepId::new()];
    let doc = json!({
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "plan_id": "27650952-d4ac-41e7-948b-97528f277c51",
        "context_id": "2530dc8f-0e8c-4a00-994e-7a9146b010c2",
        "title": "t", "objective": "o", "status": "draft",
        "steps": [
            {"step_id": "not-a-uuid", "description": "x", "status": "pending"},
            {"step_id": a.to_string(), "description": "a", "status": "pending",
             "dependencies": [b.to_string(), c.to_string(), a.to_string()]},
            {"step_id": b.to_string(), "description": "b", "status": "pending",
             "dependencies": [a.to_string()]},
        ],
    });
    let report = Plan::validate_json(doc.to_string()).report;
    let found: Vec<(String, String)> = report
        .errors()
        .map(|v| (v.pointer.clone(), v.rule.to_string()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "/steps/0/step_id".to_owned(),
                "sa_steps_have_valid_ids".to_owned()
            ),
            (
                "/steps/1/dependencies/2".to_owned(),
                "sa_plan_no_self_dependency".to_owned()
            ),
            ("/steps".to_owned(), "sa_plan_dag_acyclic".to_owned()),
        ]
    );
    let pattern = report.errors().next().unwrap();
    assert_eq!(
        pattern.schema_keyword(),
        Some("pattern"),
        "{}",
        pattern.message
    );
}

/// Every finding of a rule of `mplp_plan::rules::RULES` (graph, trace
/// binding and status rules).
fn rule_findings(report: &Report) -> Vec<Violation> {
    report.of_rules(mplp_plan::rules::RULES).cloned().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A plan with random plan and step statuses, roles and a trace
    /// context (issue 39, one pass), that fails its schema elsewhere (an
    /// empty title, a member the schema does not allow in a step), gets
    /// every finding of the plan rules (the status rules of seed Plan
    /// Module 3.3, 4.1 and 5.2, `sa_steps_agent_role_if_present` and
    /// `sa_trace_context_binding` of sa-invariants.yaml, the graph rules)
    /// at the same pointers with the same messages as the same plan
    /// without the schema errors, in the byte and value paths.
    #[test]
    fn status_rules_run_on_plans_that_fail_their_schema(
        dag in dag_strategy(16),
        plan_status in 0..PlanStatus::ALL.len(),
        statuses in prop::collection::vec(0..StepStatus::ALL.len(), 16),
        empty_role in prop::option::of(any::<Index>()),
        other_trace_ctx in any::<bool>(),
        extra_at in any::<Index>(),
    ) {
        let n = dag.deps.len();
        let (mut doc, _) = dag_doc(&dag, None);
        doc["status"] = json!(PlanStatus::ALL[plan_status].as_str());
        for (i, step) in doc["steps"].as_array_mut().unwrap().iter_mut().enumerate() {
            step["status"] = json!(StepStatus::ALL[statuses[i]].as_str());
        }
        if let Some(i) = empty_role {
            doc["steps"][i.index(n)]["agent_role"] = json!("");
        }
        let ctx = if other_trace_ctx { mplp_core::ContextId::new().to_string() } else { doc["context_id"].as_str().unwrap().to_owned() };
        doc["trace"] = json!({
            "trace_id": "0f9c1d5e-1b7a-4c3e-9d2f-6a8b7c5d4e3f",
            "span_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
            "context_id": ctx,
        });
        let clean = Plan::validate_json(doc.to_string());
        prop_assert!(
            clean.report.of_rules(mplp_plan::rules::RULES).count() == clean.report.violations().len(),
            "the clean plan fails its schema: {:?}", clean.report
        );
        let want = rule_findings(&clean.report);
        prop_assert_eq!(
            want.iter().any(|f| f.rule.as_str() == "sa_trace_context_binding"),
            other_trace_ctx
        );

        doc["title"] = json!("");
        doc["steps"][extra_at.index(n)]["unexpected"] = json!(1);
        let broken = Plan::validate_json(doc.to_string());
        prop_assert!(broken.report.errors().any(|v| v.pointer == "/title" && v.rule.as_str() == "min-length"));
        prop_assert!(broken.report.errors().any(|v| v.rule.as_str() == "additional-properties"));
        prop_assert_eq!(rule_findings(&broken.report), want.clone());
        prop_assert_eq!(rule_findings(&Plan::validate_value(&doc).report), want);
    }
}

/// A plan document with these steps (`(id, status, dependencies)` plus
/// any extra members) and plan status.
fn status_doc(status: &str, steps: Vec<Value>) -> Value {
    json!({
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "plan_id": "27650952-d4ac-41e7-948b-97528f277c51",
        "context_id": "2530dc8f-0e8c-4a00-994e-7a9146b010c2",
        "title": "t", "objective": "o", "status": status,
        "steps": steps,
    })
}

fn found(report: &Report) -> Vec<(String, String)> {
    report
        .violations()
        .iter()
        .map(|v| (v.pointer.clone(), v.rule.to_string()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(p, r)| ((*p).to_owned(), (*r).to_owned()))
        .collect()
}

/// Seed Plan Module 5.2: "Plan is completed when ALL steps are completed
/// or skipped". A completed plan with a pending step that also misses its
/// `objective` gets both errors in one pass, the rule's with the message
/// of the clean pass.
#[test]
fn a_completed_plan_with_a_pending_step_fails_beside_its_schema_errors() {
    let [a, b] = [StepId::new(), StepId::new()];
    let mut doc = status_doc(
        "completed",
        vec![
            json!({"step_id": a.to_string(), "description": "a", "status": "completed"}),
            json!({"step_id": b.to_string(), "description": "b", "status": "pending",
                   "dependencies": [a.to_string()]}),
        ],
    );
    let clean = Plan::validate_json(doc.to_string()).report;
    assert_eq!(
        found(&clean),
        pairs(&[("/steps/1/status", "sa_plan_completed_steps_done")])
    );
    doc.as_object_mut().unwrap().remove("objective");
    let broken = Plan::validate_json(doc.to_string()).report;
    assert_eq!(
        found(&broken),
        pairs(&[
            ("/objective", "required"),
            ("/steps/1/status", "sa_plan_completed_steps_done"),
        ])
    );
    assert_eq!(broken.violations()[1], clean.violations()[0]);
}

/// A status or `order_index` that cannot be read hides only the findings
/// it could change: a dependency whose status is unread before any
/// unfinished one hides `sa_plan_step_dependencies_done` (the clean pass
/// might name it), one after it does not; a blocked step waiting on an
/// unread status is not reported as blocked without cause.
#[test]
fn unread_statuses_hide_only_the_findings_they_could_change() {
    let ids: Vec<String> = (0..7).map(|_| StepId::new().to_string()).collect();
    let step = |i: usize, status: &str, deps: &[usize]| {
        json!({"step_id": ids[i], "description": format!("s{i}"), "status": status,
               "dependencies": deps.iter().map(|&d| ids[d].clone()).collect::<Vec<_>>()})
    };
    let mut last = step(6, "completed", &[1]);
    last["order_index"] = json!("2");
    let doc = status_doc(
        "in_progress",
        vec![
            step(0, "bogus", &[]),
            step(1, "in_progress", &[0]),
            step(2, "in_progress", &[3, 0]),
            step(3, "pending", &[]),
            step(4, "in_progress", &[0, 3]),
            step(5, "blocked", &[0]),
            last,
        ],
    );
    for report in [
        Plan::validate_json(doc.to_string()).report,
        Plan::validate_value(&doc).report,
    ] {
        assert_eq!(
            found(&report),
            pairs(&[
                ("/steps/0/status", "enum"),
                ("/steps/6/order_index", "type"),
                ("/steps/2/status", "sa_plan_step_dependencies_done"),
                ("/steps/6/status", "sa_plan_step_dependencies_done"),
            ]),
            "{report:?}"
        );
        assert!(
            report.violations()[2]
                .message
                .contains("/steps/3 is `pending`")
        );
        assert!(
            report.violations()[3]
                .message
                .contains("/steps/1 is `in_progress`")
        );
    }
}

/// A step's dependencies are known only when each of them and every step
/// id can be read: the status rules that read them are otherwise not
/// checked, since the unread member might name the very step that decides
/// the finding. Here the one step that could justify `blocked` is behind an
/// unread member: a dependency that is not a step id (so the step's
/// dependencies are unread), then a step whose own id is not one (so a
/// dependency naming no readable step may name it). Each plan, fixed, gets
/// its finding (or, with the unread step failed, rightly none).
#[test]
fn unread_dependencies_and_step_ids_hide_the_rules_that_read_dependencies() {
    let [a, u] = [StepId::new(), StepId::new()];
    let step = |id: &str, status: &str, deps: &[&str]| json!({"step_id": id, "description": "s", "status": status, "dependencies": deps});
    let (a, u) = (a.to_string(), u.to_string());

    // A dependency that is not a step id: the blocked step's dependencies
    // are unread, so it is not warned of having no cause.
    let unread_dep = status_doc(
        "in_progress",
        vec![
            step(&a, "completed", &[]),
            step(&StepId::new().to_string(), "blocked", &[&a, "not-a-step"]),
        ],
    );
    for report in [
        Plan::validate_json(unread_dep.to_string()).report,
        Plan::validate_value(&unread_dep).report,
    ] {
        assert_eq!(
            found(&report),
            pairs(&[("/steps/1/dependencies/1", "pattern")]),
            "{report:?}"
        );
    }
    // The same plan without the unread dependency, its schema broken
    // elsewhere: the warning is certain.
    let mut no_cause = unread_dep.clone();
    no_cause["steps"][1]["dependencies"] = json!([a]);
    no_cause["title"] = json!(7);
    assert_eq!(
        found(&Plan::validate_json(no_cause.to_string()).report),
        pairs(&[
            ("/title", "type"),
            ("/steps/1/status", "sa_plan_step_blocked_without_cause")
        ])
    );

    // A step id that cannot be read: the blocked step's dependency `u`
    // names no readable step and may name that one, so no step's
    // dependencies are known, even where each of them can be read.
    let unread_id = status_doc(
        "in_progress",
        vec![
            step("not-a-step", "failed", &[]),
            step(&StepId::new().to_string(), "blocked", &[&a, &u]),
            step(&a, "completed", &[]),
        ],
    );
    for report in [
        Plan::validate_json(unread_id.to_string()).report,
        Plan::validate_value(&unread_id).report,
    ] {
        assert_eq!(
            found(&report),
            pairs(&[("/steps/0/step_id", "sa_steps_have_valid_ids")]),
            "{report:?}"
        );
    }
    // It did: with its id read, the failed step blocks its dependent, and
    // the plan is valid.
    let mut read_id = unread_id.clone();
    read_id["steps"][0]["step_id"] = json!(u);
    assert_eq!(
        found(&Plan::validate_json(read_id.to_string()).report),
        pairs(&[])
    );
    // Had it been another step, `u` names none: the clean pass reports
    // that, and the blocked step's one cause is gone.
    read_id["steps"][0]["step_id"] = json!(StepId::new().to_string());
    assert_eq!(
        found(&Plan::validate_json(read_id.to_string()).report),
        pairs(&[
            ("/steps/1/dependencies/1", "sa_plan_dependency_exists"),
            ("/steps/1/status", "sa_plan_step_blocked_without_cause")
        ])
    );
}

/// The plan-wide warnings need every step's status: a failed plan with an
/// unread step status is not warned that none of its steps failed; one
/// whose read statuses include an unfinished step is certain and is
/// warned, as is a plan whose other steps are all done.
#[test]
fn plan_wide_status_rules_need_every_step_status() {
    let step = |status: &str| json!({"step_id": StepId::new().to_string(), "description": "s", "status": status});
    let failed = status_doc("failed", vec![step("bogus"), step("completed")]);
    assert_eq!(
        found(&Plan::validate_json(failed.to_string()).report),
        pairs(&[("/steps/0/status", "enum")])
    );
    let mut failed_broken_elsewhere = status_doc("failed", vec![step("completed")]);
    failed_broken_elsewhere["title"] = json!(7);
    assert_eq!(
        found(&Plan::validate_json(failed_broken_elsewhere.to_string()).report),
        pairs(&[
            ("/title", "type"),
            ("/status", "sa_plan_failed_has_failed_step")
        ])
    );
    let running = status_doc("in_progress", vec![step("bogus"), step("completed")]);
    assert_eq!(
        found(&Plan::validate_json(running.to_string()).report),
        pairs(&[("/steps/0/status", "enum")])
    );
    let mut running_done = status_doc("in_progress", vec![step("skipped"), step("completed")]);
    running_done["extra"] = json!(true);
    assert_eq!(
        found(&Plan::validate_json(running_done.to_string()).report),
        pairs(&[
            ("/extra", "additional-properties"),
            ("/status", "sa_plan_all_steps_done")
        ])
    );
    // An unread plan status checks none of the rules that read it.
    let unread_plan = status_doc("bogus", vec![step("in_progress")]);
    assert_eq!(
        found(&Plan::validate_json(unread_plan.to_string()).report),
        pairs(&[("/status", "enum")])
    );
}
