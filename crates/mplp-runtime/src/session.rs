//! The SA session runtime ([`SaSession`]).

use std::collections::HashMap;
use std::time::Duration;

use mplp_confirm::{Confirm, ConfirmStatus};
use mplp_context::Context;
use mplp_core::{BaseEvent, Document, Error, EventType, JsonObject, PlanId, StepId, Timestamp};
use mplp_events::log::EventSink;
use mplp_events::sa::{
    SaEvent, SaEventType, SaPayload, StepCompleted, StepFailed, StepOutcome, StepStarted,
};
use mplp_events::{SaId, SchemaUuid};
use mplp_plan::{ConfirmDecision, CriticalSteps, Plan, PlanStatus, PlanStep, StepStatus};
use mplp_trace::{SegmentId, SegmentTrigger, Trace, TraceStatus, TraceTrigger};
use serde_json::{Value, json};

use crate::policy::{FailurePolicy, OnExhausted};
use crate::store::{Expect, Store, StoreError};

/// The checkpoint naming the session's documents.
pub const SESSION_CHECKPOINT: &str = "sa-session";
/// The format of [`SESSION_CHECKPOINT`] this version writes and reads.
pub const SESSION_FORMAT: &str = "mplp-rs/sa-session/1";

/// The role the session requests approvals as.
const AGENT_ROLE: &str = "agent";

/// What can go wrong while running a session.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaError {
    /// A protocol rule refused the input or an operation
    /// (`sa_context_must_be_active`, `sa_plan_context_binding`, a cyclic
    /// plan, a lifecycle transition, ...).
    #[error(transparent)]
    Mplp(#[from] Error),
    /// The store failed or holds something this version cannot resume.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The event sink failed; the session should be abandoned.
    #[error("the event sink failed: {0}")]
    Sink(#[from] std::io::Error),
}

/// What a step's attempt produced (the [`Executor`]'s answer).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StepResult {
    /// The step is done; the object becomes `result` of `SAStepCompleted`.
    Output(JsonObject),
    /// The attempt failed, for this reason; the failure policy decides what follows.
    Failure(String),
    /// The step needs a person's (or a policy's) approval before it acts:
    /// the [`Approver`] decides, and on approval the executor is called
    /// again for the same attempt with [`StepRequest::approval`] set.
    NeedsApproval(String),
}

impl StepResult {
    /// Done, with nothing to report.
    pub fn done() -> Self {
        StepResult::Output(JsonObject::new())
    }

    /// A failure.
    pub fn failure(reason: impl Into<String>) -> Self {
        StepResult::Failure(reason.into())
    }
}

/// One attempt of a step, as the [`Executor`] sees it.
#[derive(Debug)]
#[non_exhaustive]
pub struct StepRequest<'a> {
    /// The step (its id changes at each retry: a retry is a new attempt).
    pub step: &'a PlanStep,
    /// The step's position in the plan (stable across retries).
    pub position: usize,
    /// 1 for the first attempt, 2 for the first retry, ...
    pub attempt: u32,
    /// The approval granted to this attempt, if it asked for one.
    pub approval: Option<&'a ConfirmDecision>,
    /// The Context of the run.
    pub context: &'a Context,
    /// The Plan being run.
    pub plan_id: PlanId,
    /// The Plan itself (its title, objective and steps), e.g. for a prompt.
    pub plan: &'a Plan,
}

/// The agent's action: runs one attempt of a step.
///
/// Closures `FnMut(&StepRequest) -> StepResult` are executors.
pub trait Executor {
    /// Runs one attempt.
    fn execute(&mut self, request: &StepRequest<'_>) -> StepResult;
}

impl<F: FnMut(&StepRequest<'_>) -> StepResult> Executor for F {
    fn execute(&mut self, request: &StepRequest<'_>) -> StepResult {
        self(request)
    }
}

/// Who approves: a person in the loop, a policy.
pub trait Approver {
    /// Decides on a plan waiting for approval (`proposed`); `confirm` is
    /// the pending Confirm that will record the decision.
    fn approve_plan(&mut self, plan: &Plan, confirm: &Confirm) -> ConfirmDecision;

    /// Decides on a step whose executor asked for approval.
    fn approve_step(&mut self, step: &PlanStep, reason: &str) -> ConfirmDecision;
}

/// An [`Approver`] that approves everything, as the role it names.
#[derive(Clone, Debug)]
pub struct AutoApprove(pub String);

impl Default for AutoApprove {
    fn default() -> Self {
        AutoApprove("policy".to_owned())
    }
}

impl Approver for AutoApprove {
    fn approve_plan(&mut self, _plan: &Plan, _confirm: &Confirm) -> ConfirmDecision {
        ConfirmDecision::approved(self.0.as_str()).with_reason("approved by policy")
    }
    fn approve_step(&mut self, _step: &PlanStep, _reason: &str) -> ConfirmDecision {
        ConfirmDecision::approved(self.0.as_str()).with_reason("approved by policy")
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SaOutcome {
    /// Every step completed or was skipped: the plan is `completed`.
    Completed,
    /// A step failed past its retries with [`OnExhausted::FailPlan`]: the plan is `failed`.
    Failed,
    /// The approver refused the plan (back to `draft`) or a step (the plan
    /// is `cancelled`); the Confirm or the log says why.
    Rejected,
    /// The run stopped early on purpose ([`SaSession::stop_after_events`]);
    /// [`SaSession::resume`] goes on.
    Stopped,
}

impl SaOutcome {
    /// `completed`, `failed`, `rejected`, `stopped`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SaOutcome::Completed => "completed",
            SaOutcome::Failed => "failed",
            SaOutcome::Rejected => "rejected",
            SaOutcome::Stopped => "stopped",
        }
    }
}

impl std::fmt::Display for SaOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SaReport {
    /// How it ended ([`SaOutcome::Stopped`] while it has not).
    pub outcome: SaOutcome,
    /// Attempts started (over the whole session, resumed parts included).
    pub attempts: u64,
    /// Steps completed.
    pub completed: u64,
    /// Attempts that failed (interrupted ones included).
    pub failures: u64,
    /// Retries made.
    pub retries: u64,
    /// Steps skipped.
    pub skipped: u64,
    /// Events in the store's log.
    pub events: u64,
}

/// How a failed attempt is followed up (the `disposition` of `SAStepFailed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Disposition {
    Retry,
    FailPlan,
    SkipDependents,
    Cancel,
}

impl Disposition {
    const fn as_str(self) -> &'static str {
        match self {
            Disposition::Retry => "retry",
            Disposition::FailPlan => "fail_plan",
            Disposition::SkipDependents => "skip_dependents",
            Disposition::Cancel => "cancel",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "retry" => Disposition::Retry,
            "fail_plan" => Disposition::FailPlan,
            "skip_dependents" => Disposition::SkipDependents,
            "cancel" => Disposition::Cancel,
            _ => return None,
        })
    }
}

/// The attempt running now.
#[derive(Clone, Copy, Debug)]
struct Running {
    position: usize,
    step: StepId,
    segment: SegmentId,
    attempt: u32,
}

fn bit(t: SaEventType) -> u16 {
    let i = SaEventType::ALL.iter().position(|x| *x == t).unwrap_or(0);
    1 << i
}

fn event_type(s: &'static str) -> EventType {
    EventType::from_static(s)
}

/// A single-agent session: runs a Plan in a Context under the SA profile
/// (`profiles/sa-profile.yaml`), keeping its state in a [`Store`] and
/// sending every event to an [`EventSink`].
///
/// 1. `SAInitialized`, `SAContextLoaded` (the Context is `active`:
///    `sa_context_must_be_active`), `SAPlanEvaluated` (the plan is bound to
///    the Context, its dependency graph is a DAG; steps run in plan order
///    as they become ready).
/// 2. A plan in `draft` is proposed, and a `proposed` plan gets a Confirm
///    from the [`Approver`]; a refusal ends the run (plan back to `draft`,
///    the Confirm rejected, both saying why). An `approved` plan starts.
/// 3. Each ready step: `SAStepStarted`, the [`Executor`], then
///    `SAStepCompleted` or `SAStepFailed` (with `attempt`, `reason` and the
///    `disposition` its [`FailurePolicy`] chose). Plan and steps move
///    only through mplp-plan's guarded lifecycle. The Trace gets one
///    segment per attempt.
/// 4. `SATraceEmitted` (the trace is completed, failed or cancelled, with
///    a summary event), `SACompleted`; the store is sealed.
///
/// Each event is appended to the store before it goes to the sink; the
/// documents are written to the store when they change in a way the log
/// cannot replay (creation, approval, retries, the end). A session stopped
/// at any point goes on with [`SaSession::resume`].
///
/// ```
/// use mplp_context::{Context, ContextRoot};
/// use mplp_plan::{Plan, PlanStatus};
/// use mplp_runtime::{AutoApprove, SaOutcome, SaSession, StepRequest, StepResult};
/// use mplp_runtime::store::MemoryStore;
///
/// let mut context = Context::new("Release", ContextRoot::new("shop", "prod"))?;
/// context.activate()?;
/// let mut b = Plan::builder(context.context_id, "Ship 1.2", "Release the new checkout");
/// let build = b.step("Build");
/// b.step_after("Deploy", &[build]);
/// let plan = b.build()?;
///
/// let mut session = SaSession::new(context, plan, Vec::new(), MemoryStore::new())?;
/// let report = session.run(&mut |_: &StepRequest<'_>| StepResult::done(), &mut AutoApprove::default())?;
/// assert_eq!(report.outcome, SaOutcome::Completed);
/// assert_eq!(session.plan().status(), PlanStatus::Completed);
/// let types: Vec<_> = session.sink().iter().map(|e| e.event_type().as_str()).collect();
/// assert_eq!(types.first(), Some(&"SAInitialized"));
/// assert_eq!(types.last(), Some(&"SACompleted"));
/// # Ok::<(), mplp_runtime::SaError>(())
/// ```
pub struct SaSession<K, S> {
    sa_id: SaId,
    context: Context,
    plan: Plan,
    confirm: Option<Confirm>,
    trace: Trace,
    sink: K,
    store: S,
    bindings: [SchemaUuid; 3],
    default_policy: FailurePolicy,
    policies: HashMap<usize, FailurePolicy>,
    attempts: Vec<u32>,
    failures: Vec<u32>,
    running: Option<Running>,
    seen: u16,
    stop_after: Option<u64>,
    sleep: Box<dyn FnMut(Duration)>,
    last_at: Option<Timestamp>,
    revisions: HashMap<&'static str, u64>,
    stats: SaReport,
    rejected: bool,
    /// Failed steps whose dependents were skipped, failed in the plan at the end.
    deferred: Vec<StepId>,
    pending: Pending,
    finished: bool,
    stopped: bool,
}

/// What [`SaSession::advance`] waits for.
#[derive(Debug)]
enum Pending {
    Nothing,
    Plan(Box<Confirm>),
    Step {
        run: Running,
        approval: Option<ConfirmDecision>,
        asking: Option<String>,
    },
}

/// What the session needs next ([`SaSession::advance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Next {
    /// A decision on the plan: [`SaSession::pending_confirm`], then
    /// [`SaSession::decide_plan`].
    ApprovePlan,
    /// An attempt to execute: [`SaSession::request`], then [`SaSession::submit`].
    Execute,
    /// A decision on a step: [`SaSession::approval_request`], then
    /// [`SaSession::decide_step`].
    ApproveStep,
    /// The run is over.
    Finished(SaOutcome),
}

impl<K, S> std::fmt::Debug for SaSession<K, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaSession")
            .field("sa_id", &self.sa_id)
            .field("plan_id", &self.plan.plan_id)
            .field("plan_status", &self.plan.status())
            .finish_non_exhaustive()
    }
}

impl<K: EventSink<SaEvent>, S: Store> SaSession<K, S> {
    /// A session running `plan` in `context`, with events to `sink` and
    /// state in `store` (which must hold no session yet). The context,
    /// the plan and a pending trace are written to the store.
    ///
    /// # Errors
    /// `sa_context_must_be_active`; `sa_plan_context_binding`; the plan's
    /// DAG errors (a cycle, an unknown dependency);
    /// a `lifecycle-transition` error when the plan is already `in_progress`
    /// or final (resume its session instead);
    /// the store's errors.
    pub fn new(context: Context, plan: Plan, sink: K, store: S) -> Result<Self, SaError> {
        context.ensure_active()?;
        plan.check_context(context.context_id)?;
        plan.dag()?;
        if !matches!(
            plan.status(),
            PlanStatus::Draft | PlanStatus::Proposed | PlanStatus::Approved
        ) {
            return Err(SaError::Mplp(
                mplp_core::TransitionError::new(
                    "plan",
                    "/status",
                    plan.status().as_str(),
                    PlanStatus::InProgress.as_str(),
                    "an SA session starts from a draft, proposed or approved plan (resume the session that ran this one instead)".to_owned(),
                )
                .into(),
            ));
        }
        if store.checkpoint(SESSION_CHECKPOINT)?.is_some() || store.event_count() > 0 {
            return Err(StoreError::Unsupported(
                "the store already holds a session: resume it (SaSession::resume) or use an empty store".to_owned(),
            )
            .into());
        }
        let trace = Trace::for_plan(context.context_id, plan.plan_id);
        let sa_id = SaId::new();
        let checkpoint = json!({
            "format": SESSION_FORMAT,
            "sa_id": sa_id.to_string(),
            "context_id": context.context_id.to_string(),
            "plan_id": plan.plan_id.to_string(),
            "trace_id": trace.trace_id().to_string(),
            "confirm_id": null,
        });
        // The documents first, the checkpoint that names them last: a
        // crash before it leaves no session, and `new` can start again
        // (over the documents written, whatever their revision).
        let mut session = Self::assemble(sa_id, context, plan, None, trace, sink, store);
        for kind in ["context", "plan", "trace"] {
            let (id, text) = session.document(kind);
            let rev = session.store.put(kind, &id, text.as_bytes(), Expect::Any)?;
            session.revisions.insert(kind, rev);
        }
        session
            .store
            .put_checkpoint(SESSION_CHECKPOINT, checkpoint.to_string().as_bytes())?;
        Ok(session)
    }

    fn assemble(
        sa_id: SaId,
        context: Context,
        plan: Plan,
        confirm: Option<Confirm>,
        trace: Trace,
        sink: K,
        store: S,
    ) -> Self {
        let n = plan.steps().len();
        let bindings = [
            SchemaUuid::from(context.context_id),
            SchemaUuid::from(plan.plan_id),
            SchemaUuid::from(trace.trace_id()),
        ];
        SaSession {
            sa_id,
            context,
            plan,
            confirm,
            trace,
            sink,
            store,
            bindings,
            default_policy: FailurePolicy::default(),
            policies: HashMap::new(),
            attempts: vec![0; n],
            failures: vec![0; n],
            running: None,
            seen: 0,
            stop_after: None,
            sleep: Box::new(std::thread::sleep),
            last_at: None,
            revisions: HashMap::new(),
            stats: SaReport {
                outcome: SaOutcome::Stopped,
                attempts: 0,
                completed: 0,
                failures: 0,
                retries: 0,
                skipped: 0,
                events: 0,
            },
            rejected: false,
            deferred: Vec::new(),
            pending: Pending::Nothing,
            finished: false,
            stopped: false,
        }
    }

    /// Continues the session kept in `store`: reads its documents and its
    /// log, replays the log (every event exactly once: none is written
    /// again), records an attempt that started but never finished as
    /// failed (`SAStepFailed`, reason `interrupted`, disposition `retry`)
    /// and goes on with [`SaSession::run`]. Steps whose completion is in
    /// the log do not run again. The failure policies are not stored: set
    /// them again.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] naming the file or key when the store does
    /// not hold a session this version wrote, or its documents and log do
    /// not agree; the documents' own errors.
    pub fn resume(sink: K, store: S) -> Result<Self, SaError> {
        let Some(bytes) = store.checkpoint(SESSION_CHECKPOINT)? else {
            return Err(StoreError::corrupt(
                SESSION_CHECKPOINT,
                "no SA session in this store (no `sa-session` checkpoint): start one with SaSession::new",
            )
            .into());
        };
        let cp: Value = serde_json::from_slice(&bytes)
            .map_err(|e| StoreError::corrupt(SESSION_CHECKPOINT, format!("not JSON: {e}")))?;
        let field = |k: &str| -> Result<String, SaError> {
            cp.get(k)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| {
                    StoreError::corrupt(SESSION_CHECKPOINT, format!("expected a `{k}` string"))
                        .into()
                })
        };
        let format = field("format")?;
        if format != SESSION_FORMAT {
            return Err(StoreError::corrupt(
                SESSION_CHECKPOINT,
                format!("written as `{format}`; this version reads `{SESSION_FORMAT}`"),
            )
            .into());
        }
        let sa_id = SaId::parse(&field("sa_id")?)
            .map_err(|e| StoreError::corrupt(SESSION_CHECKPOINT, format!("`sa_id`: {e}")))?;
        let context: Context = load_doc(&store, "context", &field("context_id")?)?;
        let plan: Plan = load_doc(&store, "plan", &field("plan_id")?)?;
        let trace: Trace = load_doc(&store, "trace", &field("trace_id")?)?;
        let confirm = match cp.get("confirm_id").and_then(Value::as_str) {
            Some(id) => {
                if store.get("confirm", id)?.is_some() {
                    Some(load_doc::<Confirm, S>(&store, "confirm", id)?)
                } else {
                    None
                }
            }
            None => None,
        };
        plan.check_context(context.context_id)?;
        let mut session = Self::assemble(sa_id, context, plan, confirm, trace, sink, store);
        for kind in ["context", "plan", "trace", "confirm"] {
            let id = match kind {
                "context" => session.context.context_id.to_string(),
                "plan" => session.plan.plan_id.to_string(),
                "trace" => session.trace.trace_id().to_string(),
                _ => match &session.confirm {
                    Some(c) => c.confirm_id.to_string(),
                    None => continue,
                },
            };
            if let Some(v) = session.store.get(kind, &id)? {
                session.revisions.insert(kind, v.revision);
            }
        }
        let events = session.store.events()?;
        let done = events
            .iter()
            .any(|e| SaEvent::from_json(e).is_ok_and(|e| e.event_type() == SaEventType::Completed));
        if done && session.trace.status().is_final() {
            // Finished, and its documents written: nothing to redo. Seal
            // the store if the process stopped just before.
            session.count(&events)?;
            session.finished = true;
            session.store.seal()?;
            return Ok(session);
        }
        session.trace = reset_trace(session.trace.clone())?;
        session.replay(&events)?;
        if !session.seen(SaEventType::Completed) {
            // A retry made while replaying has a new random step id: store
            // it before any event names it.
            session.save_plan()?;
        }
        Ok(session)
    }

    /// The counters and the events seen, from the log of a finished session.
    fn count(&mut self, events: &[Vec<u8>]) -> Result<(), SaError> {
        for bytes in events {
            let e = SaEvent::from_json(bytes).map_err(|e| {
                StoreError::corrupt("event log", format!("not a valid SA event: {e}"))
            })?;
            self.seen |= bit(e.event_type());
            match &e.payload {
                SaPayload::StepStarted(_) => self.stats.attempts += 1,
                SaPayload::StepCompleted(_) => self.stats.completed += 1,
                SaPayload::StepFailed(p) => {
                    self.stats.failures += 1;
                    if p.extra.get("disposition").and_then(Value::as_str) == Some("retry") {
                        self.stats.retries += 1;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The default failure policy of every step.
    #[must_use]
    pub fn with_policy(mut self, policy: FailurePolicy) -> Self {
        self.default_policy = policy;
        self
    }

    /// The failure policy of one step (by its id in the plan as given;
    /// it follows the step across retries). Unknown ids are ignored.
    #[must_use]
    pub fn with_step_policy(mut self, step: StepId, policy: FailurePolicy) -> Self {
        if let Some(pos) = self.plan.position(step) {
            self.policies.insert(pos, policy);
        }
        self
    }

    /// Replaces how the session waits between attempts (default:
    /// `std::thread::sleep`); tests pass a function that records the waits.
    #[must_use]
    pub fn with_sleep(mut self, sleep: impl FnMut(Duration) + 'static) -> Self {
        self.sleep = Box::new(sleep);
        self
    }

    /// Stops the run (outcome [`SaOutcome::Stopped`]) once the store's log
    /// holds `events` events, as a crash would; [`SaSession::resume`]
    /// goes on.
    #[must_use]
    pub fn stop_after_events(mut self, events: u64) -> Self {
        self.stop_after = Some(events);
        self
    }

    /// The SA instance id.
    pub fn sa_id(&self) -> &SaId {
        &self.sa_id
    }

    /// The Context.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The Plan, as far as it ran.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The Confirm, once approval was asked.
    pub fn confirm(&self) -> Option<&Confirm> {
        self.confirm.as_ref()
    }

    /// The Trace, as far as it ran.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// The event sink.
    pub fn sink(&self) -> &K {
        &self.sink
    }

    /// The event sink, to drain it (a `Vec` used as a queue).
    pub fn sink_mut(&mut self) -> &mut K {
        &mut self.sink
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The session's parts: sink and store.
    pub fn into_parts(self) -> (K, S) {
        (self.sink, self.store)
    }

    fn policy(&self, position: usize) -> FailurePolicy {
        self.policies
            .get(&position)
            .copied()
            .unwrap_or(self.default_policy)
    }

    fn seen(&self, t: SaEventType) -> bool {
        self.seen & bit(t) != 0
    }

    fn now(&mut self) -> Timestamp {
        let now = Timestamp::now();
        let at = match &self.last_at {
            Some(last) if now.instant() < last.instant() => last.clone(),
            _ => now,
        };
        self.last_at = Some(at.clone());
        at
    }

    /// Appends an event to the store, then sends it to the sink; returns its time.
    fn emit(&mut self, payload: SaPayload) -> Result<Timestamp, SaError> {
        if self
            .stop_after
            .is_some_and(|limit| self.store.event_count() >= limit)
        {
            return Err(Stop.into_error());
        }
        let [c, p, t] = &self.bindings;
        let mut event = SaEvent::new(self.sa_id.clone(), payload).with_bindings(
            Some(c.clone()),
            Some(p.clone()),
            Some(t.clone()),
        );
        event.timestamp = self.now();
        let at = event.timestamp.clone();
        self.seen |= bit(event.event_type());
        self.store.append(event.to_json().as_bytes())?;
        self.sink.emit(event)?;
        Ok(at)
    }

    fn save(&mut self, kind: &'static str, id: String, bytes: String) -> Result<(), SaError> {
        let expect = match self.revisions.get(kind) {
            Some(r) => Expect::Revision(*r),
            None => Expect::Absent,
        };
        let rev = self.store.put(kind, &id, bytes.as_bytes(), expect)?;
        self.revisions.insert(kind, rev);
        Ok(())
    }

    /// The id and JSON text of the context, plan or trace.
    fn document(&self, kind: &str) -> (String, String) {
        match kind {
            "context" => (
                self.context.context_id.to_string(),
                self.context.to_json_pretty(),
            ),
            "plan" => (self.plan.plan_id.to_string(), self.plan.to_json_pretty()),
            _ => (
                self.trace.trace_id().to_string(),
                self.trace.to_json_pretty(),
            ),
        }
    }

    fn save_plan(&mut self) -> Result<(), SaError> {
        let (id, text) = self.document("plan");
        self.save("plan", id, text)
    }

    fn save_trace(&mut self) -> Result<(), SaError> {
        let (id, text) = self.document("trace");
        self.save("trace", id, text)
    }

    fn save_confirm(&mut self) -> Result<(), SaError> {
        if let Some(c) = &self.confirm {
            let (id, text) = (c.confirm_id.to_string(), c.to_json_pretty());
            self.save("confirm", id, text)?;
        }
        Ok(())
    }

    /// Runs the session to its end (or to [`SaSession::stop_after_events`]):
    /// [`SaSession::advance`] in a loop, calling `executor` and `approver` as
    /// it asks.
    ///
    /// # Errors
    /// The store's and the sink's errors (the session should then be
    /// abandoned and resumed from its store); a lifecycle refusal.
    pub fn run(
        &mut self,
        executor: &mut dyn Executor,
        approver: &mut dyn Approver,
    ) -> Result<SaReport, SaError> {
        loop {
            let step = match self.advance() {
                Ok(Next::Finished(_)) => break,
                Ok(Next::ApprovePlan) => {
                    let decision = match &self.pending {
                        Pending::Plan(confirm) => approver.approve_plan(&self.plan, confirm),
                        _ => continue,
                    };
                    self.decide_plan(decision)
                }
                Ok(Next::Execute) => {
                    let result = match self.request() {
                        Some(req) => executor.execute(&req),
                        None => continue,
                    };
                    self.submit(result)
                }
                Ok(Next::ApproveStep) => {
                    let decision = match self.approval_request() {
                        Some((step, reason)) => approver.approve_step(step, reason),
                        None => continue,
                    };
                    self.decide_step(decision)
                }
                Err(e) => Err(e),
            };
            match step {
                Ok(()) => {}
                Err(e) if Stop::is(&e) => {
                    self.stopped = true;
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(self.report())
    }

    /// What the run has done so far.
    pub fn report(&self) -> SaReport {
        let mut r = self.stats.clone();
        r.outcome = if self.stopped || !self.finished {
            SaOutcome::Stopped
        } else {
            self.outcome()
        };
        r.events = self.store.event_count();
        r.skipped = self
            .plan
            .steps()
            .iter()
            .filter(|s| s.status() == StepStatus::Skipped)
            .count() as u64;
        r
    }

    /// Moves the session on until it needs the caller (an approval, an
    /// attempt to execute) or ends. For drivers other than
    /// [`SaSession::run`] (async executors, other languages): answer
    /// [`Next::ApprovePlan`] with [`SaSession::decide_plan`],
    /// [`Next::Execute`] with [`SaSession::submit`] (the attempt is
    /// [`SaSession::request`]) and [`Next::ApproveStep`] with
    /// [`SaSession::decide_step`]; asking again before answering returns
    /// the same question.
    ///
    /// # Errors
    /// As [`SaSession::run`]; a stop asked by
    /// [`SaSession::stop_after_events`] is the store error
    /// `StoreError::Unsupported` (see [`SaSession::is_stop`]).
    pub fn advance(&mut self) -> Result<Next, SaError> {
        match &self.pending {
            Pending::Plan(_) => return Ok(Next::ApprovePlan),
            Pending::Step {
                asking: Some(_), ..
            } => return Ok(Next::ApproveStep),
            Pending::Step { .. } => return Ok(Next::Execute),
            Pending::Nothing => {}
        }
        if self.finished {
            return Ok(Next::Finished(self.outcome()));
        }
        if self.seen(SaEventType::Completed) {
            self.finish_store()?;
            self.finished = true;
            return Ok(Next::Finished(self.outcome()));
        }
        if !self.seen(SaEventType::Initialized) {
            self.emit(SaPayload::Initialized(None))?;
        }
        if !self.seen(SaEventType::ContextLoaded) {
            let mut p = JsonObject::new();
            p.insert("context_id", self.context.context_id.to_string());
            p.insert("context_status", self.context.status().as_str());
            self.emit(SaPayload::ContextLoaded(Some(p)))?;
        }
        if !self.seen(SaEventType::PlanEvaluated) {
            let mut p = JsonObject::new();
            p.insert("plan_id", self.plan.plan_id.to_string());
            p.insert("steps", self.plan.steps().len() as u64);
            p.insert(
                "order",
                "plan order, each step once its dependencies are done",
            );
            let at = self.emit(SaPayload::PlanEvaluated(Some(p)))?;
            self.start_trace(at)?;
        }
        if !self.seen(SaEventType::TraceEmitted) {
            if self.prepare_approval()? {
                return Ok(Next::ApprovePlan);
            }
            if self.plan.status() == PlanStatus::Approved {
                self.context.ensure_active()?;
                self.plan.start()?;
                self.save_plan()?;
            }
            if let Some(run) = self.running {
                self.interrupted(run)?;
            }
            if let Some(step) = self.plan.first_ready() {
                self.begin_step(step)?;
                return Ok(Next::Execute);
            }
            if self.settle_deferred()? {
                self.save_plan()?;
            }
            let mut p = JsonObject::new();
            p.insert("trace_id", self.trace.trace_id().to_string());
            p.insert("segments", self.trace.segments().len() as u64);
            let at = self.emit(SaPayload::TraceEmitted(Some(p)))?;
            self.finalize_trace(at)?;
        }
        let outcome = self.outcome();
        let mut p = JsonObject::new();
        p.insert("outcome", outcome.as_str());
        p.insert("plan_status", self.plan.status().as_str());
        self.emit(SaPayload::Completed(Some(p)))?;
        self.finish_store()?;
        self.finished = true;
        Ok(Next::Finished(outcome))
    }

    /// Records that the run stopped on [`SaSession::stop_after_events`]
    /// (for drivers other than [`SaSession::run`]).
    pub fn mark_stopped(&mut self) {
        self.stopped = true;
    }

    /// Whether an error of [`SaSession::advance`] is the stop asked by
    /// [`SaSession::stop_after_events`].
    pub fn is_stop(error: &SaError) -> bool {
        Stop::is(error)
    }

    /// The Confirm waiting for [`SaSession::decide_plan`].
    pub fn pending_confirm(&self) -> Option<&Confirm> {
        match &self.pending {
            Pending::Plan(c) => Some(c),
            _ => None,
        }
    }

    /// The attempt waiting for [`SaSession::submit`].
    pub fn request(&self) -> Option<StepRequest<'_>> {
        let Pending::Step {
            run,
            approval,
            asking: None,
        } = &self.pending
        else {
            return None;
        };
        Some(StepRequest {
            step: self.plan.step(run.step)?,
            position: run.position,
            attempt: run.attempt,
            approval: approval.as_ref(),
            context: &self.context,
            plan_id: self.plan.plan_id,
            plan: &self.plan,
        })
    }

    /// The step and the reason of the approval waiting for [`SaSession::decide_step`].
    pub fn approval_request(&self) -> Option<(&PlanStep, &str)> {
        match &self.pending {
            Pending::Step {
                run,
                asking: Some(reason),
                ..
            } => Some((self.plan.step(run.step)?, reason.as_str())),
            _ => None,
        }
    }

    /// Applies the approver's decision on the plan ([`Next::ApprovePlan`]).
    ///
    /// # Errors
    /// A lifecycle refusal; the store's errors. Nothing is pending: the
    /// decision is ignored.
    pub fn decide_plan(&mut self, decision: ConfirmDecision) -> Result<(), SaError> {
        let Pending::Plan(mut confirm) = std::mem::replace(&mut self.pending, Pending::Nothing)
        else {
            return Ok(());
        };
        self.plan.decide(&mut confirm, decision)?;
        self.rejected = self.plan.status() != PlanStatus::Approved;
        self.confirm = Some(*confirm);
        self.save_confirm()?;
        self.save_plan()?;
        Ok(())
    }

    /// Takes the executor's answer for the pending attempt ([`Next::Execute`]).
    ///
    /// # Errors
    /// As [`SaSession::advance`].
    pub fn submit(&mut self, result: StepResult) -> Result<(), SaError> {
        let Pending::Step {
            run,
            approval,
            asking: None,
        } = std::mem::replace(&mut self.pending, Pending::Nothing)
        else {
            return Ok(());
        };
        match result {
            StepResult::Output(result) => self.succeed(run, result),
            StepResult::Failure(reason) => {
                let disposition = self.dispose(run.position);
                self.fail(run, &reason, disposition, true)
            }
            StepResult::NeedsApproval(reason) => {
                if approval.is_some() {
                    let disposition = self.dispose(run.position);
                    return self.fail(
                        run,
                        &format!("asked for approval again after it was granted: {reason}"),
                        disposition,
                        true,
                    );
                }
                self.pending = Pending::Step {
                    run,
                    approval: None,
                    asking: Some(reason),
                };
                Ok(())
            }
        }
    }

    /// Takes the approver's decision on the pending step ([`Next::ApproveStep`]):
    /// on approval the attempt goes back to the executor; a refusal fails
    /// it and cancels the plan.
    ///
    /// # Errors
    /// As [`SaSession::advance`].
    pub fn decide_step(&mut self, decision: ConfirmDecision) -> Result<(), SaError> {
        let Pending::Step {
            run,
            asking: Some(reason),
            ..
        } = std::mem::replace(&mut self.pending, Pending::Nothing)
        else {
            return Ok(());
        };
        let mut data = JsonObject::new();
        data.insert("step_id", run.step.to_string());
        data.insert("attempt", u64::from(run.attempt));
        data.insert("request", reason.as_str());
        data.insert("status", decision.status.as_str());
        data.insert("decided_by_role", decision.decided_by_role.as_str());
        if let Some(r) = &decision.reason {
            data.insert("reason", r.as_str());
        }
        let at = self.now();
        self.trace_event("sa.step.approval", data, at);
        if decision.is_approval() {
            self.pending = Pending::Step {
                run,
                approval: Some(decision),
                asking: None,
            };
            Ok(())
        } else {
            let why = format!(
                "approval refused by {}: {}",
                decision.decided_by_role,
                decision.reason.as_deref().unwrap_or("no reason given")
            );
            self.fail(run, &why, Disposition::Cancel, true)
        }
    }

    fn outcome(&self) -> SaOutcome {
        match self.plan.status() {
            PlanStatus::Completed => SaOutcome::Completed,
            PlanStatus::Failed => SaOutcome::Failed,
            _ if self.rejected => SaOutcome::Rejected,
            PlanStatus::Draft | PlanStatus::Proposed | PlanStatus::Cancelled => SaOutcome::Rejected,
            _ => SaOutcome::Failed,
        }
    }

    fn finish_store(&mut self) -> Result<(), SaError> {
        self.save_plan()?;
        self.save_confirm()?;
        self.save_trace()?;
        self.store.seal()?;
        Ok(())
    }

    fn start_trace(&mut self, at: Timestamp) -> Result<(), SaError> {
        if self.trace.status() == TraceStatus::Pending {
            self.trace.fire(TraceTrigger::Start, at)?;
        }
        Ok(())
    }

    /// Ends the trace as the plan ended, with a summary event.
    fn finalize_trace(&mut self, at: Timestamp) -> Result<(), SaError> {
        if self.trace.status().is_final() {
            return Ok(());
        }
        let trigger = match self.plan.status() {
            PlanStatus::Completed => TraceTrigger::Complete,
            PlanStatus::Failed => TraceTrigger::Fail,
            _ => TraceTrigger::Cancel,
        };
        if trigger != TraceTrigger::Cancel && self.trace.status() == TraceStatus::Pending {
            self.trace.fire(TraceTrigger::Start, at.clone())?;
        }
        let mut data = JsonObject::new();
        data.insert("plan_status", self.plan.status().as_str());
        data.insert("segments", self.trace.segments().len() as u64);
        data.insert("attempts", self.stats.attempts);
        data.insert("failures", self.stats.failures);
        self.trace_event("sa.run.finished", data, at.clone());
        self.trace.fire(trigger, at)?;
        Ok(())
    }

    fn trace_event(&mut self, kind: &'static str, data: JsonObject, at: Timestamp) {
        let mut e = BaseEvent::new(event_type(kind), "sa").with_data(data);
        e.timestamp = at;
        e.trace_id = Some(self.trace.trace_id());
        self.trace.events.get_or_insert_with(Vec::new).push(e);
    }

    /// Draft → proposed; a proposed plan without a decision gets a pending
    /// Confirm (true: ask the approver).
    fn prepare_approval(&mut self) -> Result<bool, SaError> {
        if self.plan.status() == PlanStatus::Draft && !self.rejected {
            self.plan.propose()?;
        }
        if self.plan.status() != PlanStatus::Proposed {
            return Ok(false);
        }
        // A decision stored before a crash is applied, not asked again.
        if let Some(c) = &self.confirm {
            if c.status() != ConfirmStatus::Pending && c.last_decision().is_some() {
                let c = c.clone();
                self.plan.apply_confirm(&c)?;
                self.rejected = self.plan.status() != PlanStatus::Approved;
                self.save_plan()?;
                return Ok(false);
            }
        }
        let confirm = match self.confirm.take() {
            Some(c) => c,
            None => Confirm::for_plan(self.plan.plan_id, AGENT_ROLE)
                .with_reason("the SA runtime runs this plan once it is approved"),
        };
        self.write_session_checkpoint(Some(confirm.confirm_id.to_string()))?;
        self.pending = Pending::Plan(Box::new(confirm));
        Ok(true)
    }

    fn write_session_checkpoint(&mut self, confirm_id: Option<String>) -> Result<(), SaError> {
        let checkpoint = json!({
            "format": SESSION_FORMAT,
            "sa_id": self.sa_id.to_string(),
            "context_id": self.context.context_id.to_string(),
            "plan_id": self.plan.plan_id.to_string(),
            "trace_id": self.trace.trace_id().to_string(),
            "confirm_id": confirm_id,
        });
        self.store
            .put_checkpoint(SESSION_CHECKPOINT, checkpoint.to_string().as_bytes())?;
        Ok(())
    }

    /// Counts a new attempt of the step at `position` (whose current id is
    /// `step`) and opens its trace segment, started at `at`: the one path
    /// for a live start ([`Self::begin_step`]) and a replayed one ([`Self::replay`]).
    fn begin_attempt(
        &mut self,
        position: usize,
        step: StepId,
        at: Timestamp,
    ) -> Result<Running, SaError> {
        self.attempts[position] += 1;
        self.stats.attempts += 1;
        let attempt = self.attempts[position];
        let segment = self
            .trace
            .add_segment(format!("step {step} attempt {attempt}"), None)?;
        self.trace
            .fire_segment(segment, SegmentTrigger::Start, at)?;
        let run = Running {
            position,
            step,
            segment,
            attempt,
        };
        self.running = Some(run);
        Ok(run)
    }

    fn position(&self, step: StepId) -> Result<usize, SaError> {
        self.plan.position(step).ok_or_else(|| {
            StoreError::corrupt(
                "plan",
                format!("the log names step {step}, which the stored plan does not have"),
            )
            .into()
        })
    }

    /// Starts an attempt of `step`: the plan's step, `SAStepStarted`, a segment.
    fn begin_step(&mut self, step: StepId) -> Result<(), SaError> {
        self.plan.step_mut(step)?.start()?;
        let (description, role) = match self.plan.step(step) {
            Some(s) => (s.description.to_string(), s.agent_role.clone()),
            None => (String::new(), None),
        };
        let position = self.position(step)?;
        let mut started = StepStarted::new(SchemaUuid::from(step));
        started.description = Some(description);
        started.agent_role = role.map(|r| r.to_string());
        started
            .extra
            .insert("attempt", u64::from(self.attempts[position] + 1));
        let at = self.emit(SaPayload::StepStarted(started))?;
        let run = self.begin_attempt(position, step, at)?;
        self.pending = Pending::Step {
            run,
            approval: None,
            asking: None,
        };
        Ok(())
    }

    fn dispose(&self, position: usize) -> Disposition {
        let policy = self.policy(position);
        if self.failures[position] < policy.retries {
            Disposition::Retry
        } else {
            match policy.on_exhausted {
                OnExhausted::FailPlan => Disposition::FailPlan,
                OnExhausted::SkipDependents => Disposition::SkipDependents,
            }
        }
    }

    fn succeed(&mut self, run: Running, result: JsonObject) -> Result<(), SaError> {
        self.plan.step_mut(run.step)?.complete()?;
        let mut payload = StepCompleted::new(SchemaUuid::from(run.step), StepOutcome::Completed);
        if !result.is_empty() {
            payload.result = Some(result);
        }
        let at = self.emit(SaPayload::StepCompleted(payload))?;
        self.end_attempt_completed(run, at)
    }

    fn end_attempt_completed(&mut self, run: Running, at: Timestamp) -> Result<(), SaError> {
        self.trace
            .fire_segment(run.segment, SegmentTrigger::Complete, at)?;
        self.stats.completed += 1;
        self.running = None;
        Ok(())
    }

    /// `SAStepFailed`, then the disposition on the plan.
    fn fail(
        &mut self,
        run: Running,
        reason: &str,
        disposition: Disposition,
        counts: bool,
    ) -> Result<(), SaError> {
        let mut payload = StepFailed::new(SchemaUuid::from(run.step));
        payload.extra.insert("attempt", u64::from(run.attempt));
        payload.extra.insert("reason", reason);
        payload.extra.insert("disposition", disposition.as_str());
        if !counts {
            payload.extra.insert("interrupted", true);
        }
        let at = self.emit(SaPayload::StepFailed(payload))?;
        self.end_attempt_failed(run, reason, disposition, counts, at.clone())?;
        let retry_delay = (disposition == Disposition::Retry && counts).then(|| {
            self.policy(run.position)
                .backoff
                .delay(self.failures[run.position])
        });
        let changed = self.apply(run.step, disposition)?;
        if changed {
            self.save_plan()?;
        }
        if let Some(d) = retry_delay {
            (self.sleep)(d);
        }
        Ok(())
    }

    fn end_attempt_failed(
        &mut self,
        run: Running,
        reason: &str,
        disposition: Disposition,
        counts: bool,
        at: Timestamp,
    ) -> Result<(), SaError> {
        self.trace
            .fire_segment(run.segment, SegmentTrigger::Fail, at.clone())?;
        if counts {
            self.failures[run.position] += 1;
        }
        self.stats.failures += 1;
        if disposition == Disposition::Retry {
            self.stats.retries += 1;
        }
        let mut data = JsonObject::new();
        data.insert("step_id", run.step.to_string());
        data.insert("attempt", u64::from(run.attempt));
        data.insert("reason", reason);
        data.insert("disposition", disposition.as_str());
        self.trace_event("sa.step.failed", data, at);
        if disposition == Disposition::Cancel {
            self.rejected = true;
        }
        self.running = None;
        Ok(())
    }

    /// Applies a disposition to a failed step still `in_progress` in the
    /// plan (returns false when the plan already shows it: a replay over
    /// a newer plan).
    fn apply(&mut self, step: StepId, disposition: Disposition) -> Result<bool, SaError> {
        let Some(s) = self.plan.step(step) else {
            return Ok(false);
        };
        if s.status() != StepStatus::InProgress {
            return Ok(false);
        }
        match disposition {
            Disposition::Retry => {
                self.plan.step_mut(step)?.fail_with(&CriticalSteps::None)?;
                self.plan.step_mut(step)?.retry()?;
            }
            Disposition::FailPlan => {
                self.fail_deferred()?;
                self.plan.step_mut(step)?.fail_with(&CriticalSteps::All)?;
            }
            Disposition::SkipDependents => {
                let dependents = self.plan.dag()?.descendants(step);
                for d in dependents {
                    if self
                        .plan
                        .step(d)
                        .is_some_and(|s| s.status() == StepStatus::Pending)
                    {
                        self.plan.step_mut(d)?.skip()?;
                    }
                }
                // The step stays `in_progress` in the plan while the
                // independent steps run; it fails (and the plan with it)
                // when nothing else can run (`settle_deferred`).
                if !self.deferred.contains(&step) {
                    self.deferred.push(step);
                }
            }
            Disposition::Cancel => {
                self.fail_deferred()?;
                self.plan.step_mut(step)?.fail_with(&CriticalSteps::None)?;
                self.plan.cancel()?;
            }
        }
        Ok(true)
    }

    /// Fails, in the plan, the steps whose dependents were skipped: the
    /// last one as critical, so that the plan ends `failed` (a plan with a
    /// failed step can never be `completed`). True when the plan changed.
    fn settle_deferred(&mut self) -> Result<bool, SaError> {
        let steps = std::mem::take(&mut self.deferred);
        let open: Vec<StepId> = steps
            .into_iter()
            .filter(|s| {
                self.plan.status() == PlanStatus::InProgress
                    && self
                        .plan
                        .step(*s)
                        .is_some_and(|st| st.status() == StepStatus::InProgress)
            })
            .collect();
        let last = open.len().saturating_sub(1);
        for (i, step) in open.iter().enumerate() {
            let critical = if i == last {
                CriticalSteps::All
            } else {
                CriticalSteps::None
            };
            self.plan.step_mut(*step)?.fail_with(&critical)?;
        }
        Ok(!open.is_empty())
    }

    /// Fails the deferred steps as not critical (before the plan ends otherwise).
    fn fail_deferred(&mut self) -> Result<(), SaError> {
        for step in std::mem::take(&mut self.deferred) {
            if self
                .plan
                .step(step)
                .is_some_and(|s| s.status() == StepStatus::InProgress)
            {
                self.plan.step_mut(step)?.fail_with(&CriticalSteps::None)?;
            }
        }
        Ok(())
    }

    /// The attempt that started before the process stopped: failed, and tried again.
    fn interrupted(&mut self, run: Running) -> Result<(), SaError> {
        self.fail(
            run,
            "interrupted: the run stopped before this attempt finished",
            Disposition::Retry,
            false,
        )
    }

    /// Replays the store's log onto the documents read from the store.
    fn replay(&mut self, events: &[Vec<u8>]) -> Result<(), SaError> {
        let aliases = retried_aliases(&self.plan);
        let resolve = |mut id: StepId| {
            let mut hops = 0;
            while let Some(next) = aliases.get(&id) {
                id = *next;
                hops += 1;
                if hops > aliases.len() {
                    break;
                }
            }
            id
        };
        for (n, bytes) in events.iter().enumerate() {
            let line = n + 1;
            let where_ = format!("event log, event {line}");
            let event = SaEvent::from_json(bytes)
                .map_err(|e| StoreError::corrupt(&where_, format!("not a valid SA event: {e}")))?;
            if event.sa_id != self.sa_id {
                return Err(StoreError::corrupt(
                    &where_,
                    format!(
                        "belongs to SA session {}, the store's session is {}: one store holds one session",
                        event.sa_id, self.sa_id
                    ),
                )
                .into());
            }
            self.seen |= bit(event.event_type());
            let at = event.timestamp.clone();
            self.last_at = Some(at.clone());
            let step_of = |p: &SchemaUuid| -> Result<StepId, SaError> {
                StepId::try_from(p)
                    .map_err(|e| StoreError::corrupt(&where_, format!("step_id: {e}")).into())
            };
            match &event.payload {
                SaPayload::PlanEvaluated(_) => self.start_trace(at)?,
                SaPayload::StepStarted(p) => {
                    let id = step_of(&p.step_id)?;
                    let current = resolve(id);
                    if current == id
                        && self
                            .plan
                            .step(id)
                            .is_some_and(|s| s.status() == StepStatus::Pending)
                    {
                        if self.plan.status() == PlanStatus::Approved {
                            self.plan.start()?;
                        }
                        self.plan.step_mut(id)?.start()?;
                    }
                    let position = self.position(current)?;
                    self.begin_attempt(position, id, at)?;
                }
                SaPayload::StepCompleted(p) => {
                    let id = step_of(&p.step_id)?;
                    let run = self.running_for(id, &where_)?;
                    if self
                        .plan
                        .step(id)
                        .is_some_and(|s| s.status() == StepStatus::InProgress)
                    {
                        self.plan.step_mut(id)?.complete()?;
                    }
                    self.end_attempt_completed(run, at)?;
                }
                SaPayload::StepFailed(p) => {
                    let id = step_of(&p.step_id)?;
                    let run = self.running_for(id, &where_)?;
                    let disposition = p
                        .extra
                        .get("disposition")
                        .and_then(Value::as_str)
                        .and_then(Disposition::parse)
                        .ok_or_else(|| {
                            StoreError::corrupt(
                                &where_,
                                "SAStepFailed without a `disposition` this version knows (retry, fail_plan, skip_dependents, cancel)",
                            )
                        })?;
                    let reason = p
                        .extra
                        .get("reason")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                    let counts = p.extra.get("interrupted").and_then(Value::as_bool) != Some(true);
                    self.end_attempt_failed(run, &reason, disposition, counts, at)?;
                    self.apply(id, disposition)?;
                }
                SaPayload::TraceEmitted(_) => {
                    self.settle_deferred()?;
                    self.finalize_trace(at)?;
                }
                _ => {}
            }
        }
        if !self.seen(SaEventType::Initialized) && !events.is_empty() {
            return Err(
                StoreError::corrupt("event log", "the first event is not SAInitialized").into(),
            );
        }
        if self.plan.status() == PlanStatus::Draft
            && self.confirm.as_ref().is_some_and(|c| {
                matches!(
                    c.status(),
                    ConfirmStatus::Rejected | ConfirmStatus::Cancelled
                )
            })
        {
            self.rejected = true;
        }
        Ok(())
    }

    fn running_for(&self, id: StepId, where_: &str) -> Result<Running, SaError> {
        match self.running {
            Some(run) if run.step == id => Ok(run),
            _ => Err(StoreError::corrupt(
                where_,
                format!("step {id} finishes, but the log did not start it last"),
            )
            .into()),
        }
    }
}

/// old step id → the id of its retry, from the plan's `plan.step.retried` events.
fn retried_aliases(plan: &Plan) -> HashMap<StepId, StepId> {
    let mut out = HashMap::new();
    for e in plan.events.as_deref().unwrap_or(&[]) {
        if e.event_type.as_str() != "plan.step.retried" {
            continue;
        }
        let Some(Some(data)) = &e.data else { continue };
        let get = |k: &str| {
            data.get(k)
                .and_then(Value::as_str)
                .and_then(|s| StepId::parse(s).ok())
        };
        if let (Some(old), Some(new)) = (get("step_id"), get("new_step_id")) {
            out.insert(old, new);
        }
    }
    out
}

fn load_doc<D: Document, S: Store>(store: &S, kind: &str, id: &str) -> Result<D, SaError> {
    let Some(v) = store.get(kind, id)? else {
        return Err(StoreError::corrupt(
            format!("{kind} {id}"),
            format!("the session names this {kind}, but the store does not hold it"),
        )
        .into());
    };
    D::from_json(&v.bytes).map_err(|e| {
        StoreError::corrupt(format!("{kind} {id}"), format!("not a valid {kind}: {e}")).into()
    })
}

/// The trace back to `pending` with no segment and no event: the log
/// rebuilds the rest.
fn reset_trace(trace: Trace) -> Result<Trace, SaError> {
    if trace.status() == TraceStatus::Pending && trace.segments().is_empty() {
        return Ok(trace);
    }
    let mut v = trace.to_value();
    if let Some(o) = v.as_object_mut() {
        o.insert("status".to_owned(), Value::from("pending"));
        for k in ["started_at", "finished_at", "segments", "events"] {
            o.remove(k);
        }
    }
    Ok(Trace::from_value(&v)?)
}

/// The stop of [`SaSession::stop_after_events`], carried as an error.
struct Stop;

const STOP_MESSAGE: &str = "mplp-runtime: stopped after the requested number of events";

impl Stop {
    fn into_error(self) -> SaError {
        SaError::Store(StoreError::Unsupported(STOP_MESSAGE.to_owned()))
    }

    fn is(e: &SaError) -> bool {
        matches!(e, SaError::Store(StoreError::Unsupported(m)) if m == STOP_MESSAGE)
    }
}
