//! The graph algorithms behind the scheduling helpers, each pinned to the
//! exact answer: order_index priority among steps with dependencies, ties of
//! the longest path, layers, descendants, cycles of every length.

use mplp_core::{ContextId, Document, StepId};
use mplp_plan::{Plan, PlanBuilder, StepSpec};
use serde_json::json;

use crate::{in_progress, pr, unchecked, warnings};

fn builder() -> PlanBuilder {
    Plan::builder(ContextId::new(), "t", "o")
}

/// A plan whose steps have these order_index values (None: absent).
fn with_order(b: PlanBuilder, order: &[Option<u64>]) -> Plan {
    let mut plan = b.build().unwrap();
    plan.edit_steps(|s| {
        for (step, o) in s.iter_mut().zip(order) {
            step.order_index = *o;
        }
    })
    .unwrap();
    plan
}

#[test]
fn order_index_decides_among_ready_steps_with_dependencies() {
    let mut b = builder();
    let a = b.step("a");
    let x = b.step_after("x", &[a]);
    let y = b.step_after("y", &[a]);
    let z = b.step("z");
    let w = b.step_after("w", &[x, y]);
    // y before x (smaller order_index), z (none) after every ready step that has one.
    let plan = with_order(b, &[Some(0), Some(9), Some(1), None, Some(2)]);
    assert_eq!(plan.topological_order().unwrap(), [a, y, x, w, z]);
    assert_eq!(
        plan.execution_layers().unwrap(),
        [vec![a, z], vec![y, x], vec![w]]
    );
    // Equal order_index: plan order.
    let mut b = builder();
    let a = b.step("a");
    let x = b.step_after("x", &[a]);
    let y = b.step_after("y", &[a]);
    let plan = with_order(b, &[Some(3), Some(3), Some(3)]);
    assert_eq!(plan.topological_order().unwrap(), [a, x, y]);
    // Without order_index: the ready steps in plan order (`late` became
    // ready after `c`, but comes first in the plan).
    let mut b = builder();
    let a = b.step("a");
    let late = b.step_after("late", &[a]);
    let c = b.step("c");
    let plan = with_order(b, &[None, None, None]);
    assert_eq!(plan.topological_order().unwrap(), [a, late, c]);
}

#[test]
fn equal_order_index_on_a_step_and_its_dependency_is_fine() {
    let mut doc = in_progress();
    // s1 depends on s0 (order_index 0).
    doc["steps"][1]["order_index"] = json!(0);
    assert!(warnings(&doc).is_empty(), "{:?}", warnings(&doc));
    doc["steps"][0]["order_index"] = json!(1);
    assert_eq!(
        warnings(&doc),
        [pr("/steps/1/order_index", "sa_plan_order_index_dependency")]
    );
    let w = Plan::validate_json(serde_json::to_vec(&doc).unwrap()).report;
    let m = &w.warnings().next().unwrap().message;
    assert!(
        m.starts_with(
            "order_index 0 is smaller than 1, the order_index of its dependency /steps/0"
        ),
        "{m}"
    );
}

#[test]
fn layers_follow_the_deepest_dependency() {
    let mut b = builder();
    let a = b.step("a");
    let b1 = b.step_after("b1", &[a]);
    let c = b.step("c");
    let d = b.step_after("d", &[b1, c]); // deepest dependency b1 (layer 1)
    let e = b.step_after("e", &[c]);
    let f = b.step_after("f", &[d, e, a]);
    let plan = with_order(b, &[Some(5), Some(0), Some(1), Some(0), Some(0), None]);
    assert_eq!(
        plan.execution_layers().unwrap(),
        [vec![c, a], vec![b1, e], vec![d], vec![f]]
    );
    let dag = plan.dag().unwrap();
    assert_eq!(dag.descendants(c), [d, e, f]);
    assert_eq!(dag.descendants(b1), [d, f]);
    assert!(dag.descendants(f).is_empty());
    assert_eq!(dag.dependents(a), [b1, f]);
    assert_eq!(dag.dependents(c), [d, e]);
    assert!(dag.dependents(f).is_empty());
    assert!(dag.dependents(StepId::new()).is_empty());
    assert_eq!(dag.index_of(d), Some(3));
    assert_eq!(dag.index_of(StepId::new()), None);
    assert_eq!(plan.affected_by_failure(b1).unwrap(), [d, f]);
    assert!(format!("{dag:?}").starts_with("Dag { steps: 6, order: ["));
}

#[test]
fn longest_path_ties_go_to_the_chain_met_first() {
    // Two chains of two: a -> b and c -> d. The topological order meets a
    // first, so the path ends at b.
    let mut b = builder();
    let a = b.step("a");
    let c = b.step("c");
    let bb = b.step_after("b", &[a]);
    let d = b.step_after("d", &[c]);
    let plan = b.build().unwrap();
    assert_eq!(plan.longest_path().unwrap(), [a, bb]);
    assert_eq!(plan.affected_by_failure(c).unwrap(), [d]);
    // Joined by e, which lists d first: between dependencies of equal
    // length, the first listed.
    let mut b = builder();
    let a = b.step("a");
    let c = b.step("c");
    let bb = b.step_after("b", &[a]);
    let d = b.step_after("d", &[c]);
    let e = b.add(StepSpec::new("e").after(d).after(bb));
    let plan = b.build().unwrap();
    assert_eq!(plan.longest_path().unwrap(), [c, d, e]);
    let dag = plan.dag().unwrap();
    // A heavier step decides; weights add up along the chain.
    let heavy = |s: &mplp_plan::PlanStep| if s.step_id == a { 5 } else { 1 };
    assert_eq!(dag.longest_path_by(heavy), [a, bb, e]);
    let heavier = |s: &mplp_plan::PlanStep| {
        if s.step_id == c || s.step_id == d {
            3
        } else {
            2
        }
    };
    assert_eq!(dag.longest_path_by(heavier), [c, d, e]);
    // Weightless steps: the first step alone.
    assert_eq!(dag.longest_path_by(|_| 0), [a]);
    // Weights saturate instead of overflowing.
    assert_eq!(dag.longest_path_by(|_| u64::MAX), [a]);
    // A longer chain later in the plan wins over a shorter one met first.
    let mut b = builder();
    let s = b.step("s");
    let t = b.step("t");
    let u = b.step_after("u", &[t]);
    let v = b.step_after("v", &[u]);
    let plan = b.build().unwrap();
    assert_eq!(plan.longest_path().unwrap(), [t, u, v]);
    let _ = s;
}

#[test]
fn cycles_of_every_length_are_found_and_named() {
    for n in [2usize, 3, 33, 40] {
        let mut b = builder();
        let ids: Vec<StepId> = (0..n).map(|i| b.step(format!("s{i}"))).collect();
        let plan = b.build().unwrap();
        let mut doc = plan.to_value();
        // s{i} depends on s{i-1}, and s0 on the last one: one cycle of n.
        for i in 0..n {
            doc["steps"][i]["dependencies"] = json!([ids[(i + n - 1) % n]]);
        }
        let bad = unchecked(&doc);
        let cycle = bad.find_cycle().unwrap();
        assert_eq!(cycle.len(), n);
        for (k, id) in cycle.iter().enumerate() {
            let next = cycle[(k + 1) % n];
            assert_eq!(bad.step(next).unwrap().dependency_ids(), &[*id]);
        }
        let err = bad.dag().unwrap_err();
        let v = err.violations();
        assert_eq!(v.len(), 1);
        assert_eq!(
            (v[0].pointer.as_str(), v[0].rule.as_str()),
            ("/steps", "sa_plan_dag_acyclic")
        );
        let m = &v[0].message;
        assert!(
            m.starts_with(&format!("the dependencies form a cycle of {n} steps: ")),
            "{m}"
        );
        assert!(m.ends_with("so none of them can ever start"), "{m}");
        // Every step shown with its place, the first repeated at the end.
        let shown = n.min(32);
        assert_eq!(m.matches(" (/steps/").count(), shown, "{m}");
        assert!(m.contains(&format!(" -> {}; each step", cycle[0])), "{m}");
        if n > 32 {
            assert!(m.contains(&format!(" -> ... ({} more)", n - 32)), "{m}");
        } else {
            assert!(!m.contains("more)"), "{m}");
        }
        assert!(bad.topological_order().is_err());
        assert!(bad.execution_layers().is_err());
        assert!(bad.longest_path().is_err());
        assert!(bad.affected_by_failure(ids[0]).is_err());
    }
    // A cycle next to steps outside it, and a dependency on a step of the
    // cycle: only the cycle is named.
    let mut b = builder();
    let ids: Vec<StepId> = (0..5).map(|i| b.step(format!("s{i}"))).collect();
    let mut doc = b.build().unwrap().to_value();
    doc["steps"][1]["dependencies"] = json!([ids[0], ids[3]]);
    doc["steps"][2]["dependencies"] = json!([ids[1]]);
    doc["steps"][3]["dependencies"] = json!([ids[2]]);
    doc["steps"][4]["dependencies"] = json!([ids[3]]);
    let bad = unchecked(&doc);
    let cycle = bad.find_cycle().unwrap();
    let mut sorted = cycle.clone();
    sorted.sort();
    let mut want = vec![ids[1], ids[2], ids[3]];
    want.sort();
    assert_eq!(sorted, want);
    let m = &bad.dag().unwrap_err().violations()[0].message;
    assert!(
        m.starts_with("the dependencies form a cycle of 3 steps: "),
        "{m}"
    );
    // A self-dependency is a cycle of one.
    let mut doc = builder_with(2);
    doc["steps"][1]["dependencies"] = json!([doc["steps"][1]["step_id"]]);
    let bad = unchecked(&doc);
    let me: StepId = serde_json::from_value(doc["steps"][1]["step_id"].clone()).unwrap();
    assert_eq!(bad.find_cycle(), Some(vec![me]));
    let v = bad.dag().unwrap_err().violations();
    assert_eq!(
        v.iter()
            .map(|v| (v.pointer.as_str(), v.rule.as_str()))
            .collect::<Vec<_>>(),
        [("/steps/1/dependencies/0", "sa_plan_no_self_dependency")]
    );
    assert_eq!(v[0].message, format!("step {me} depends on itself"));
}

fn builder_with(n: usize) -> serde_json::Value {
    let mut b = builder();
    for i in 0..n {
        b.step(format!("s{i}"));
    }
    b.build().unwrap().to_value()
}

#[test]
fn dag_reports_every_structural_problem() {
    let mut doc = builder_with(4);
    let s0 = doc["steps"][0]["step_id"].clone();
    let unknown = StepId::new();
    doc["steps"][2]["step_id"] = s0.clone(); // repeats /steps/0
    doc["steps"][3]["dependencies"] = json!([unknown, s0, s0]);
    doc["steps"][1]["dependencies"] = json!([doc["steps"][1]["step_id"]]);
    let bad = unchecked(&doc);
    let v = bad.dag().unwrap_err().violations();
    let got: Vec<_> = v
        .iter()
        .map(|v| (v.pointer.as_str(), v.rule.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("/steps/2/step_id", "sa_plan_step_unique_ids"),
            ("/steps/3/dependencies/0", "sa_plan_dependency_exists"),
            ("/steps/1/dependencies/0", "sa_plan_no_self_dependency"),
        ]
    );
    assert_eq!(
        v[0].message,
        format!(
            "step_id {} is already used by /steps/0",
            bad.steps()[2].step_id
        )
    );
    assert_eq!(
        v[1].message,
        format!("dependency {unknown} is not the step_id of any step of this plan")
    );
    // The same through the document rules, with the repeated dependency.
    let r = Plan::validate_json(serde_json::to_vec(&doc).unwrap()).report;
    let w: Vec<_> = r
        .warnings()
        .map(|v| (v.pointer.as_str(), v.rule.as_str()))
        .collect();
    assert!(
        w.contains(&("/steps/3/dependencies/2", "sa_plan_duplicate_dependency")),
        "{w:?}"
    );
    // The self-dependency is the cycle `find_cycle` names.
    assert_eq!(bad.find_cycle(), Some(vec![bad.steps()[1].step_id]));
}

#[test]
fn steps_listed_before_their_dependencies_are_still_ordered() {
    // The dependency comes later in the plan: no cycle, and every helper
    // puts it first.
    let mut doc = builder_with(3);
    doc["steps"][0]["dependencies"] = json!([doc["steps"][2]["step_id"]]);
    doc["steps"][1]["dependencies"] = json!([doc["steps"][0]["step_id"]]);
    let plan = Plan::from_value(&doc).unwrap();
    let ids: Vec<StepId> = plan.steps().iter().map(|s| s.step_id).collect();
    assert_eq!(plan.find_cycle(), None);
    assert_eq!(plan.topological_order().unwrap(), [ids[2], ids[0], ids[1]]);
    assert_eq!(
        plan.execution_layers().unwrap(),
        [vec![ids[2]], vec![ids[0]], vec![ids[1]]]
    );
    assert_eq!(plan.longest_path().unwrap(), [ids[2], ids[0], ids[1]]);
    assert_eq!(plan.affected_by_failure(ids[2]).unwrap(), [ids[0], ids[1]]);
    // A cycle among later-listed steps is found by the document rules too.
    doc["steps"][2]["dependencies"] = json!([doc["steps"][1]["step_id"]]);
    let r = Plan::validate_json(serde_json::to_vec(&doc).unwrap()).report;
    assert_eq!(
        r.errors().map(|v| v.rule.as_str()).collect::<Vec<_>>(),
        ["sa_plan_dag_acyclic"]
    );
}
