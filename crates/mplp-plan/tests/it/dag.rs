//! Scheduling helpers.

use mplp_core::{ContextId, Document, StepId};
use mplp_plan::{Plan, StepSpec};

#[test]
fn stable_order_breaks_ties_by_order_index_then_position() {
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let ids: Vec<StepId> = (0..4).map(|i| b.step(format!("s{i}"))).collect();
    let mut plan = b.build().unwrap();
    plan.edit_steps(|s| {
        s[0].order_index = Some(5);
        s[1].order_index = None;
        s[2].order_index = Some(1);
        s[3].order_index = Some(5);
    })
    .unwrap();
    assert_eq!(
        plan.topological_order().unwrap(),
        [ids[2], ids[0], ids[3], ids[1]]
    );
    assert_eq!(
        plan.execution_layers().unwrap(),
        [vec![ids[2], ids[0], ids[3], ids[1]]]
    );
}

#[test]
fn weighted_longest_path() {
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let a = b.step("a");
    let short = b.add(StepSpec::new("long one").after(a).role("slow"));
    let x = b.step_after("x", &[a]);
    let y = b.step_after("y", &[x]);
    let end = b.step_after("end", &[short, y]);
    let plan = b.build().unwrap();
    let dag = plan.dag().unwrap();
    assert_eq!(dag.longest_path(), [a, x, y, end]);
    let weighted = dag.longest_path_by(|s| {
        if s.agent_role.as_deref() == Some("slow") {
            10
        } else {
            1
        }
    });
    assert_eq!(weighted, [a, short, end]);
    assert_eq!(dag.dependents(a), [short, x]);
    assert_eq!(dag.index_of(end), Some(4));
    assert!(dag.descendants(StepId::new()).is_empty());
}

#[test]
fn helpers_refuse_broken_graphs() {
    let mut b = Plan::builder(ContextId::new(), "t", "o");
    let a = b.step("a");
    let plan = b.build().unwrap();
    // A plan that breaks its rules exists only through the documented
    // escape hatch (`Wire::deserialize_unchecked`).
    let mut json = plan.to_value();
    json["steps"][0]["dependencies"] = serde_json::json!([a]);
    let plan = <Plan as mplp_core::Wire>::deserialize_unchecked(&json).unwrap();
    assert!(Plan::from_value(&json).is_err());
    assert_eq!(plan.find_cycle(), Some(vec![a]));
    let err = plan.execution_layers().unwrap_err();
    assert_eq!(err.rule().unwrap().as_str(), "sa_plan_no_self_dependency");
}
