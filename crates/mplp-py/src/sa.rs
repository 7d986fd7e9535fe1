//! `SaSession`: the SA session runtime (mplp-runtime) with a Python
//! callable as the executor.

use mplp_context::{Context, ContextRoot};
use mplp_core::{Document, JsonObject, Timestamp};
use mplp_events::SaEvent;
use mplp_plan::{ConfirmDecision, Plan, PlanStep};
use mplp_runtime::store::{DirStore, MemoryStore, Store};
use mplp_runtime::{
    Approver, Backoff, FailurePolicy, OnExhausted, SaError, SaSession, StepRequest, StepResult,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::class::{load, loads};
use crate::errors::to_py;

fn sa_err(py: Python<'_>, e: SaError) -> PyErr {
    match e {
        SaError::Mplp(e) => to_py(py, &e),
        SaError::Store(e) => PyOSError::new_err(e.to_string()),
        SaError::Sink(e) => PyOSError::new_err(e.to_string()),
        other => PyOSError::new_err(other.to_string()),
    }
}

fn dumps(value: &Bound<'_, PyAny>) -> PyResult<String> {
    value
        .py()
        .import("json")?
        .call_method1("dumps", (value,))?
        .extract()
}

/// Runs a Plan in a Context under the SA profile; each step calls
/// `executor(step)` with a dict (`step_id`, `description`, `agent_role`,
/// `position`, `attempt`, `approved`). The executor returns a dict (the
/// step's result) or `None`; raising fails the attempt (the failure policy
/// decides what follows); returning `("needs_approval", reason)` asks
/// `approver(request)` (default: approve), which returns a bool.
#[pyclass(name = "SaSession", module = "mplp_rs", unsendable)]
pub(crate) struct PySaSession {
    session: Option<SaSession<Vec<SaEvent>, Box<dyn Store>>>,
    executor: Py<PyAny>,
    approver: Option<Py<PyAny>>,
}

/// Calls the Python executor for one attempt.
fn call_executor(py: Python<'_>, f: &Py<PyAny>, req: &StepRequest<'_>) -> StepResult {
    let run = || -> PyResult<StepResult> {
        let d = PyDict::new(py);
        d.set_item("step_id", req.step.step_id.to_string())?;
        d.set_item("description", req.step.description.as_str())?;
        d.set_item("agent_role", req.step.agent_role.as_deref())?;
        d.set_item("position", req.position)?;
        d.set_item("attempt", req.attempt)?;
        d.set_item("approved", req.approval.is_some())?;
        let out = f.bind(py).call1((d,))?;
        if out.is_none() {
            return Ok(StepResult::done());
        }
        if let Ok((tag, reason)) = out.extract::<(String, String)>() {
            if tag == "needs_approval" {
                return Ok(StepResult::NeedsApproval(reason));
            }
        }
        let text = dumps(&out)?;
        match serde_json::from_str::<JsonObject>(&text) {
            Ok(obj) => Ok(StepResult::Output(obj)),
            Err(e) => Ok(StepResult::failure(format!(
                "the executor returned something that is not a JSON object: {e}"
            ))),
        }
    };
    match run() {
        Ok(r) => r,
        Err(e) => StepResult::failure(e.to_string()),
    }
}

struct PyApprover<'a, 'py> {
    py: Python<'py>,
    f: Option<&'a Py<PyAny>>,
}

impl PyApprover<'_, '_> {
    fn ask(&self, what: &str, id: String, reason: &str) -> ConfirmDecision {
        let Some(f) = self.f else {
            return ConfirmDecision::approved("python").with_reason("approved by default");
        };
        let asked = || -> PyResult<bool> {
            let d = PyDict::new(self.py);
            d.set_item("target", what)?;
            d.set_item("id", id)?;
            d.set_item("reason", reason)?;
            f.bind(self.py).call1((d,))?.is_truthy()
        };
        match asked() {
            Ok(true) => ConfirmDecision::approved("python"),
            Ok(false) => {
                ConfirmDecision::rejected("python").with_reason(format!("refused: {reason}"))
            }
            Err(e) => {
                ConfirmDecision::rejected("python").with_reason(format!("the approver raised: {e}"))
            }
        }
    }
}

impl Approver for PyApprover<'_, '_> {
    fn approve_plan(&mut self, plan: &Plan, _confirm: &mplp_confirm::Confirm) -> ConfirmDecision {
        self.ask("plan", plan.plan_id.to_string(), plan.objective.as_str())
    }
    fn approve_step(&mut self, step: &PlanStep, reason: &str) -> ConfirmDecision {
        self.ask("step", step.step_id.to_string(), reason)
    }
}

#[pymethods]
impl PySaSession {
    /// `SaSession(plan, executor, *, context=None, out=None, retries=0,
    /// on_exhausted="fail_plan", approver=None)`: `plan` and `context` are
    /// JSON (text, bytes, dict or a path); without a context, an active one
    /// with the plan's `context_id` is made. `out`: a directory for an
    /// evidence pack (default: in memory).
    #[new]
    #[pyo3(signature = (plan, executor, *, context = None, out = None, retries = 0, on_exhausted = "fail_plan", approver = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        plan: &Bound<'_, PyAny>,
        executor: Py<PyAny>,
        context: Option<&Bound<'_, PyAny>>,
        out: Option<std::path::PathBuf>,
        retries: u32,
        on_exhausted: &str,
        approver: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        let plan: Plan = load(plan)?;
        let context = match context {
            Some(c) => load::<Context>(c)?,
            None => {
                let mut c = Context::new_at(
                    plan.context_id,
                    "Python run",
                    ContextRoot::new("mplp_rs", "python"),
                    Timestamp::now(),
                )
                .map_err(|e| to_py(py, &e))?;
                c.activate().map_err(|e| to_py(py, &e))?;
                c
            }
        };
        let on_exhausted: OnExhausted = on_exhausted.parse().map_err(PyValueError::new_err)?;
        let store: Box<dyn Store> = match out {
            Some(dir) => {
                Box::new(DirStore::open(dir).map_err(|e| PyOSError::new_err(e.to_string()))?)
            }
            None => Box::new(MemoryStore::new()),
        };
        let session = SaSession::new(context, plan, Vec::new(), store)
            .map_err(|e| sa_err(py, e))?
            .with_policy(
                FailurePolicy::retry(retries)
                    .with_backoff(Backoff::NONE)
                    .then(on_exhausted),
            );
        Ok(PySaSession {
            session: Some(session),
            executor,
            approver,
        })
    }

    /// Runs to the end; returns the report as a dict (`outcome`,
    /// `attempts`, `completed`, `failures`, `retries`, `skipped`, `events`).
    fn run<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let Some(session) = self.session.as_mut() else {
            return Err(PyValueError::new_err("the session was closed"));
        };
        let f = self.executor.clone_ref(py);
        let mut exec = |req: &StepRequest<'_>| call_executor(py, &f, req);
        let mut approver = PyApprover {
            py,
            f: self.approver.as_ref(),
        };
        let r = session
            .run(&mut exec, &mut approver)
            .map_err(|e| sa_err(py, e))?;
        let d = PyDict::new(py);
        d.set_item("outcome", r.outcome.as_str())?;
        d.set_item("attempts", r.attempts)?;
        d.set_item("completed", r.completed)?;
        d.set_item("failures", r.failures)?;
        d.set_item("retries", r.retries)?;
        d.set_item("skipped", r.skipped)?;
        d.set_item("events", r.events)?;
        Ok(d)
    }

    /// The SA events emitted by this object, as dicts.
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        if let Some(s) = &self.session {
            for e in s.sink() {
                list.append(loads(py, &e.to_json())?)?;
            }
        }
        Ok(list)
    }

    /// The plan as a dict.
    fn plan<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.doc(py, |s| s.plan().to_json())
    }

    /// The trace as a dict.
    fn trace<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.doc(py, |s| s.trace().to_json())
    }

    /// Releases the store (the directory's lock).
    fn close(&mut self) {
        self.session = None;
    }
}

impl PySaSession {
    fn doc<'py>(
        &self,
        py: Python<'py>,
        f: impl Fn(&SaSession<Vec<SaEvent>, Box<dyn Store>>) -> String,
    ) -> PyResult<Bound<'py, PyAny>> {
        match &self.session {
            Some(s) => loads(py, &f(s)),
            None => Err(PyValueError::new_err("the session was closed")),
        }
    }
}
