//! The SA session with an async executor, approver and event sink
//! ([`AsyncSaSession`], feature `tokio`).

use std::future::Future;

use mplp_confirm::Confirm;
use mplp_events::SaEvent;
use mplp_events::log::async_io::AsyncEventSink;
use mplp_plan::{ConfirmDecision, Plan, PlanStep};

use crate::session::{Next, SaError, SaReport, SaSession, StepRequest, StepResult};
use crate::store::Store;

/// The agent's action, async: runs one attempt of a step.
pub trait AsyncExecutor {
    /// Runs one attempt.
    fn execute(&mut self, request: &StepRequest<'_>) -> impl Future<Output = StepResult>;
}

/// Who approves, async (a person answering later, a remote policy).
pub trait AsyncApprover {
    /// Decides on a plan waiting for approval.
    fn approve_plan(
        &mut self,
        plan: &Plan,
        confirm: &Confirm,
    ) -> impl Future<Output = ConfirmDecision>;
    /// Decides on a step whose executor asked for approval.
    fn approve_step(
        &mut self,
        step: &PlanStep,
        reason: &str,
    ) -> impl Future<Output = ConfirmDecision>;
}

/// Any synchronous [`Approver`](crate::Approver) is an async one.
impl<A: crate::Approver> AsyncApprover for A {
    fn approve_plan(
        &mut self,
        plan: &Plan,
        confirm: &Confirm,
    ) -> impl Future<Output = ConfirmDecision> {
        std::future::ready(crate::Approver::approve_plan(self, plan, confirm))
    }
    fn approve_step(
        &mut self,
        step: &PlanStep,
        reason: &str,
    ) -> impl Future<Output = ConfirmDecision> {
        std::future::ready(crate::Approver::approve_step(self, step, reason))
    }
}

/// An [`SaSession`] driven with async parts: the same state machine
/// ([`SaSession::advance`]), so the same events, documents and store; each
/// event is appended to the store, then handed to the async sink (after
/// the operation that produced it, in order).
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mplp_context::{Context, ContextRoot};
/// use mplp_plan::Plan;
/// use mplp_runtime::async_session::{AsyncExecutor, AsyncSaSession};
/// use mplp_runtime::store::MemoryStore;
/// use mplp_runtime::{AutoApprove, SaOutcome, SaSession, StepRequest, StepResult};
///
/// struct Agent;
/// impl AsyncExecutor for Agent {
///     async fn execute(&mut self, _req: &StepRequest<'_>) -> StepResult {
///         StepResult::done()
///     }
/// }
/// let mut context = Context::new("Async", ContextRoot::new("svc", "prod"))?;
/// context.activate()?;
/// let mut b = Plan::builder(context.context_id, "Two steps", "Async agent");
/// let a = b.step("Fetch");
/// b.step_after("Store", &[a]);
/// let core = SaSession::new(context, b.build()?, Vec::new(), MemoryStore::new())?;
/// let mut session = AsyncSaSession::new(core, Vec::new());
/// let report = session.run(&mut Agent, &mut AutoApprove::default()).await?;
/// assert_eq!(report.outcome, SaOutcome::Completed);
/// assert_eq!(session.sink().len(), 9);
/// # Ok::<(), mplp_runtime::SaError>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct AsyncSaSession<K, S> {
    core: SaSession<Vec<SaEvent>, S>,
    sink: K,
}

impl<K: AsyncEventSink<SaEvent>, S: Store> AsyncSaSession<K, S> {
    /// Drives `core` (built with [`SaSession::new`] or
    /// [`SaSession::resume`] over a `Vec` sink, with its policies) with
    /// events to `sink`.
    pub fn new(core: SaSession<Vec<SaEvent>, S>, sink: K) -> Self {
        AsyncSaSession { core, sink }
    }

    /// The session.
    pub fn session(&self) -> &SaSession<Vec<SaEvent>, S> {
        &self.core
    }

    /// The async sink.
    pub fn sink(&self) -> &K {
        &self.sink
    }

    /// Both parts back.
    pub fn into_parts(self) -> (SaSession<Vec<SaEvent>, S>, K) {
        (self.core, self.sink)
    }

    async fn drain(&mut self) -> Result<(), SaError> {
        let events: Vec<SaEvent> = self.core.sink_mut().drain(..).collect();
        for e in events {
            self.sink.emit(e).await?;
        }
        Ok(())
    }

    /// Runs to the end, as [`SaSession::run`].
    ///
    /// # Errors
    /// As [`SaSession::run`], and the async sink's errors.
    pub async fn run(
        &mut self,
        executor: &mut impl AsyncExecutor,
        approver: &mut impl AsyncApprover,
    ) -> Result<SaReport, SaError> {
        loop {
            let next = self.core.advance();
            self.drain().await?;
            let step = match next {
                Ok(Next::Finished(_)) => break,
                Ok(Next::ApprovePlan) => {
                    let decision = match self.core.pending_confirm() {
                        Some(confirm) => approver.approve_plan(self.core.plan(), confirm).await,
                        None => continue,
                    };
                    self.core.decide_plan(decision)
                }
                Ok(Next::Execute) => {
                    let result = match self.core.request() {
                        Some(req) => executor.execute(&req).await,
                        None => continue,
                    };
                    self.core.submit(result)
                }
                Ok(Next::ApproveStep) => {
                    let decision = match self.core.approval_request() {
                        Some((step, reason)) => approver.approve_step(step, reason).await,
                        None => continue,
                    };
                    self.core.decide_step(decision)
                }
                Err(e) => Err(e),
            };
            self.drain().await?;
            match step {
                Ok(()) => {}
                Err(e) if SaSession::<Vec<SaEvent>, S>::is_stop(&e) => {
                    self.core.mark_stopped();
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(self.core.report())
    }
}
