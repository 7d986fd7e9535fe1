//! The SA runtime's benchmark and test input: an active Context and a plan
//! of `n` steps in a chain (step i depends on step i − 1), the plan in which
//! every step waits for the one before it. Shared by `sa_bench`
//! (mplp-runtime), `sa_store_bench` and the store tests (mplp-nats) and
//! `perf_report`'s runtime rows (mplp). Included with
//! `#[path = "../../../tests/support/chain_plan.rs"] mod chain_plan;`.

use mplp_context::{Context, ContextRoot};
use mplp_plan::Plan;

/// An active Context and a chain plan of `n` steps (at least one).
pub(crate) fn chain(n: usize) -> (Context, Plan) {
    let mut c = Context::new("Bench", ContextRoot::new("bench", "local")).unwrap();
    c.activate().unwrap();
    let mut b = Plan::builder(c.context_id, "Chain", "Many steps");
    let mut prev = b.step("Step 0");
    for i in 1..n {
        prev = b.step_after(format!("Step {i}"), &[prev]);
    }
    (c, b.build().unwrap())
}
