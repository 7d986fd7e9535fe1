//! A chain of 1,000,000 steps: validated, ordered and cycle-checked on a
//! thread with a normal 2 MiB stack (nothing recurses).

use std::fmt::Write;

use mplp_core::{Document, StepId};
use mplp_plan::Plan;

/// The chain's length: a million steps, or 50,000 in a mutation run
/// (`cargo xtask mutants` sets `MPLP_MUTATION_RUN`), where the unoptimised
/// build takes a minute a test for a million and these tests run once per
/// mutant. 50,000 frames of a recursive walk would still overflow the
/// 2 MiB stack, so "nothing recurses" stays checked.
fn steps() -> usize {
    if std::env::var_os("MPLP_MUTATION_RUN").is_some() {
        50_000
    } else {
        1_000_000
    }
}

/// A plan whose step `i` depends on step `i - 1`; with `close`, step 0
/// depends on the last one (a cycle through every step).
pub(crate) fn chain_json(n: usize, close: bool) -> (String, Vec<StepId>) {
    let ids: Vec<StepId> = (0..n).map(|_| StepId::new()).collect();
    let mut s = String::with_capacity(n * 140 + 400);
    s.push_str(r#"{"meta":{"protocol_version":"1.0.0","schema_version":"1.0.0"},"plan_id":"27650952-d4ac-41e7-948b-97528f277c51","context_id":"2530dc8f-0e8c-4a00-994e-7a9146b010c2","title":"chain","objective":"a long chain","status":"approved","steps":["#);
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let dep = if i > 0 {
            Some(ids[i - 1])
        } else if close {
            ids.last().copied()
        } else {
            None
        };
        let _ = write!(
            s,
            r#"{{"step_id":"{id}","description":"step {i}","status":"pending","dependencies":["#
        );
        if let Some(d) = dep {
            let _ = write!(s, r#""{d}""#);
        }
        let _ = write!(s, r#"],"order_index":{i}}}"#);
    }
    s.push_str("]}");
    (s, ids)
}

#[path = "../../../../tests/support/small_stack.rs"]
mod small_stack;
use small_stack::on_small_stack;

#[test]
fn a_million_step_chain_validates_without_stack_overflow() {
    on_small_stack(|| {
        let n = steps();
        let (json, ids) = chain_json(n, false);
        let started = std::time::Instant::now();
        let v = Plan::validate_json(json.as_bytes());
        assert!(v.report.is_empty(), "{:?}", v.report.violations().first());
        let plan = v.value.unwrap();
        eprintln!("{n}-step chain validated in {:?}", started.elapsed());
        assert_eq!(plan.find_cycle(), None);
        let dag = plan.dag().unwrap();
        assert_eq!(dag.topological_order(), ids);
        assert_eq!(dag.longest_path().len(), n);
        assert_eq!(dag.execution_layers().len(), n);
        assert_eq!(dag.descendants(ids[0]).len(), n - 1);
    });
}

#[test]
fn a_million_step_cycle_is_found_without_stack_overflow() {
    on_small_stack(|| {
        let n = steps();
        let (json, ids) = chain_json(n, true);
        let v = Plan::validate_json(json.as_bytes());
        let errors: Vec<_> = v.report.errors().collect();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].rule.as_str(), "sa_plan_dag_acyclic");
        assert!(errors[0].message.contains(&format!("cycle of {n} steps")));
        assert!(errors[0].message.len() < 4000);
        // Deserialize means valid: serde alone refuses the cycle, naming the rule.
        let err = serde_json::from_str::<Plan>(&json).unwrap_err().to_string();
        assert!(
            err.starts_with("rule `sa_plan_dag_acyclic` is violated at /steps"),
            "{}",
            &err[..200]
        );
        // The escape hatch reads it without the rules, for tools that show it.
        let mut de = serde_json::Deserializer::from_str(&json);
        let plan = <Plan as mplp_core::Wire>::deserialize_unchecked(&mut de).unwrap();
        let cycle = plan.find_cycle().unwrap();
        assert_eq!(cycle.len(), n);
        let start = cycle.iter().position(|&c| c == ids[0]).unwrap();
        for k in 0..n {
            assert_eq!(cycle[(start + k) % n], ids[k]);
        }
    });
}
