//! `AsyncSaSession` (feature `tokio`): for the same plan and outcomes, the
//! async driver writes the log the blocking driver writes (same event
//! types, same steps, same payloads but ids and times), to its async sink
//! and to its store; a stop and a resume work the same.
#![cfg(feature = "tokio")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

mod support;

use mplp_core::Document;
use mplp_events::SaEvent;
use mplp_runtime::async_session::{AsyncExecutor, AsyncSaSession};
use mplp_runtime::store::{MemoryStore, Store};
use mplp_runtime::{
    AutoApprove, Backoff, FailurePolicy, SaOutcome, SaSession, StepRequest, StepResult,
};
use support::{Shape, check_log, context, plan};

fn outcome(req: &StepRequest<'_>) -> StepResult {
    if req.position % 4 == 2 && req.attempt == 1 {
        StepResult::failure("transient")
    } else {
        StepResult::done()
    }
}

struct Agent;

impl AsyncExecutor for Agent {
    async fn execute(&mut self, req: &StepRequest<'_>) -> StepResult {
        tokio::task::yield_now().await;
        outcome(req)
    }
}

/// An event without its ids and time: what must agree between drivers.
fn shape(e: &SaEvent) -> String {
    let mut v = e.to_value();
    let o = v.as_object_mut().unwrap();
    for k in [
        "event_id",
        "timestamp",
        "sa_id",
        "context_id",
        "plan_id",
        "trace_id",
    ] {
        o.remove(k);
    }
    if let Some(p) = o.get_mut("payload").and_then(|p| p.as_object_mut()) {
        for k in ["step_id", "plan_id", "context_id", "trace_id"] {
            p.remove(k);
        }
    }
    v.to_string()
}

#[test]
fn the_async_driver_writes_the_log_of_the_blocking_one() {
    let ctx = context();
    let p = plan(&ctx, Shape::Diamonds, 25, &[]);
    let policy = FailurePolicy::retry(1).with_backoff(Backoff::NONE);
    let mut sync = SaSession::new(ctx.clone(), p.clone(), Vec::new(), MemoryStore::new())
        .unwrap()
        .with_policy(policy);
    let r1 = sync.run(&mut outcome, &mut AutoApprove::default()).unwrap();

    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let core = SaSession::new(ctx, p, Vec::new(), MemoryStore::new())
        .unwrap()
        .with_policy(policy);
    let mut s = AsyncSaSession::new(core, Vec::new());
    let r2 = rt
        .block_on(s.run(&mut Agent, &mut AutoApprove::default()))
        .unwrap();
    assert_eq!(r1.outcome, SaOutcome::Completed);
    assert_eq!(
        (r2.outcome, r2.attempts, r2.retries),
        (r1.outcome, r1.attempts, r1.retries)
    );
    let a: Vec<String> = sync.sink().iter().map(shape).collect();
    let b: Vec<String> = s.sink().iter().map(shape).collect();
    assert_eq!(a, b);
    let (core, sink) = s.into_parts();
    assert!(core.sink().is_empty()); // every event went on to the async sink
    assert_eq!(core.store().event_count() as usize, sink.len());
    assert!(check_log(&core.store().ndjson()).is_valid());
}

#[test]
fn an_async_run_stops_and_resumes() {
    let ctx = context();
    let p = plan(&ctx, Shape::Chain, 10, &[]);
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let policy = FailurePolicy::retry(1).with_backoff(Backoff::NONE);
    let core = SaSession::new(ctx, p, Vec::new(), MemoryStore::new())
        .unwrap()
        .with_policy(policy)
        .stop_after_events(8);
    let mut s = AsyncSaSession::new(core, Vec::new());
    let r = rt
        .block_on(s.run(&mut Agent, &mut AutoApprove::default()))
        .unwrap();
    assert_eq!(r.outcome, SaOutcome::Stopped);
    let (core, first) = s.into_parts();
    assert_eq!(first.len(), 8);
    let (_, store) = core.into_parts();
    let core = SaSession::resume(Vec::new(), store)
        .unwrap()
        .with_policy(policy);
    let mut s = AsyncSaSession::new(core, Vec::new());
    let r = rt
        .block_on(s.run(&mut Agent, &mut AutoApprove::default()))
        .unwrap();
    assert_eq!(r.outcome, SaOutcome::Completed);
    let (core, _) = s.into_parts();
    let r = check_log(&core.store().ndjson());
    assert!(r.is_valid(), "{:?}", r.violations());
}
