//! Runs MPLP v1.0.0 single-agent work, not only checks it.
//!
//! - [`SaSession`]: the SA profile's runtime (`profiles/sa-profile.yaml`):
//!   Context and Plan in, `SAInitialized` … `SACompleted` out, each step
//!   through the caller's [`Executor`], approvals from an [`Approver`], a
//!   Trace built as it runs, a [`FailurePolicy`] per step, every event to
//!   the SDK's one [`EventSink`](mplp_events::log::EventSink) trait (so the
//!   NDJSON, NATS, tracing and OpenTelemetry sinks work unchanged).
//! - [`store`]: what a runtime keeps ([`Store`](store::Store)) in memory
//!   ([`MemoryStore`](store::MemoryStore)) or in a directory laid out as
//!   an evidence pack ([`DirStore`](store::DirStore)), which
//!   `mplp validate --bundle DIR/artifacts`, `mplp validate
//!   DIR/timeline/events.ndjson` and `sha256sum -c` read as they read a
//!   published pack. [`SaSession::resume`] goes on from a store after a
//!   crash.
//! - With the `tokio` feature, [`async_session::AsyncSaSession`]: the same
//!   session with an async executor, approver and event sink.
//! - With the `chat` feature, `chat::ChatExecutor`: an executor that runs
//!   each step as a turn of an agent dialog sent to an OpenAI-compatible
//!   or Anthropic endpoint (mplp-dialog's chat client, feature `http`).
//!
//! Hand-written rather than taken from a crate: the atomic file writes
//! (`write`, `fsync`, `rename`, `fsync` of the directory) are a dozen
//! lines of std; the lock is `flock(2)` through `rustix` (safe, already in
//! the dependency tree), because a lock file would outlive a `SIGKILL`.
//!
//! ```
//! use mplp_context::{Context, ContextRoot};
//! use mplp_plan::Plan;
//! use mplp_runtime::{AutoApprove, FailurePolicy, SaOutcome, SaSession, StepResult};
//! use mplp_runtime::store::MemoryStore;
//!
//! let mut context = Context::new("Triage", ContextRoot::new("support", "prod"))?;
//! context.activate()?;
//! let mut b = Plan::builder(context.context_id, "Answer ticket", "Reply within the hour");
//! let read = b.step("Read the ticket");
//! b.step_after("Draft the answer", &[read]);
//! let plan = b.build()?;
//!
//! let mut tries = 0;
//! let mut agent = |req: &mplp_runtime::StepRequest<'_>| {
//!     tries += 1;
//!     if req.position == 0 && req.attempt == 1 {
//!         StepResult::failure("mailbox timed out")
//!     } else {
//!         StepResult::done()
//!     }
//! };
//! let mut session = SaSession::new(context, plan, Vec::new(), MemoryStore::new())?
//!     .with_policy(FailurePolicy::retry(2))
//!     .with_sleep(|_| {});
//! let report = session.run(&mut agent, &mut AutoApprove::default())?;
//! assert_eq!(report.outcome, SaOutcome::Completed);
//! assert_eq!((report.attempts, report.retries), (3, 1));
//! assert_eq!(session.trace().segments().len(), 3); // one per attempt
//! # Ok::<(), mplp_runtime::SaError>(())
//! ```

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod async_session;
#[cfg(feature = "chat")]
#[cfg_attr(docsrs, doc(cfg(feature = "chat")))]
pub mod chat;
pub mod policy;
pub mod session;
pub mod store;

pub use policy::{Backoff, FailurePolicy, OnExhausted};
pub use session::{
    Approver, AutoApprove, Executor, Next, SaError, SaOutcome, SaReport, SaSession, StepRequest,
    StepResult,
};
