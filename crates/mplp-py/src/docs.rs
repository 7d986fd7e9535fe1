//! `Plan`, `Dialog`, `Collab` and `simulate_session`: thin wrappers over
//! the Rust documents. Each wrapper holds a valid document (its constructor
//! validates), exchanges JSON text or dicts with Python, and raises
//! `TransitionError` when an operation is refused.
//!
//! Only methods of the Rust types are used here (no struct fields), so the
//! wrappers do not depend on the documents' field layout.

use mplp_core::{CollabMode, Document, StepId};
use mplp_dialog::{ContextManager, DEFAULT_SAFETY_MARGIN, DefaultContextManager, DialogRole};
use mplp_plan::ConfirmDecision;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::errors::{MplpError, raise, refused, to_py};
use crate::input::read_bytes;
use crate::validate::ValidationResult;

/// Reads and validates a document of type `T`; `ValidationError` when invalid.
fn load<T: Document + Send>(data: &Bound<'_, PyAny>) -> PyResult<T> {
    let py = data.py();
    let bytes = read_bytes(data)?;
    let bytes: &[u8] = &bytes;
    py.detach(|| T::validate_json(bytes).into_result())
        .map_err(|e| to_py(py, &e))
}

/// `json.loads(text)`.
fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// The document as JSON text, compact or indented.
fn json_of<T: Document>(doc: &T, pretty: bool) -> String {
    if pretty {
        doc.to_json_pretty()
    } else {
        doc.to_json()
    }
}

/// A top-level string member of the document (`status`, `plan_id`, ...).
fn member<T: Document>(doc: &T, name: &str) -> Option<String> {
    doc.to_value()
        .get(name)
        .and_then(|v| v.as_str())
        .map(str::to_owned)
}

/// Maps an SDK result into Python, raising `ValidationError`/`TransitionError`.
fn sdk<T>(py: Python<'_>, r: Result<T, mplp_core::Error>) -> PyResult<T> {
    r.map_err(|e| to_py(py, &e))
}

fn step_id(text: &str) -> PyResult<StepId> {
    text.parse::<StepId>()
        .map_err(|e| PyValueError::new_err(format!("step_id `{text}`: {e}")))
}

fn ids(ids: Vec<StepId>) -> Vec<String> {
    ids.into_iter().map(|s| s.to_string()).collect()
}

fn decision(approved: bool, by: Option<String>, reason: Option<String>) -> ConfirmDecision {
    let mut d = if approved {
        ConfirmDecision::approved()
    } else {
        ConfirmDecision::rejected()
    };
    if let Some(by) = by {
        d = d.by(by);
    }
    if let Some(reason) = reason {
        d = d.reason(reason);
    }
    d
}

/// A valid MPLP Plan. `Plan(data)` validates `data` (as `validate` accepts
/// it) and raises `ValidationError` when it is not a valid plan.
#[pyclass(name = "Plan", module = "mplp_rs")]
pub(crate) struct PyPlan {
    plan: mplp_plan::Plan,
}

#[pymethods]
impl PyPlan {
    #[new]
    fn new(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyPlan { plan: load(data)? })
    }

    /// The plan's id.
    #[getter]
    fn plan_id(&self) -> Option<String> {
        member(&self.plan, "plan_id")
    }

    /// The plan's status (`draft`, `proposed`, `approved`, `in_progress`, ...).
    #[getter]
    fn status(&self) -> Option<String> {
        member(&self.plan, "status")
    }

    /// `draft -> proposed`.
    fn propose(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.plan.propose())
    }

    /// `proposed -> approved`, on an approving Confirm decision.
    #[pyo3(signature = (by = None, reason = None))]
    fn approve(
        &mut self,
        py: Python<'_>,
        by: Option<String>,
        reason: Option<String>,
    ) -> PyResult<()> {
        sdk(py, self.plan.approve(&decision(true, by, reason)))
    }

    /// `proposed -> draft`, on a rejecting Confirm decision.
    #[pyo3(signature = (by = None, reason = None))]
    fn reject(
        &mut self,
        py: Python<'_>,
        by: Option<String>,
        reason: Option<String>,
    ) -> PyResult<()> {
        sdk(py, self.plan.reject(&decision(false, by, reason)))
    }

    /// `approved -> in_progress` (completes at once when every step is skipped).
    fn start(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.plan.start())
    }

    /// `draft|in_progress -> cancelled`.
    fn cancel(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.plan.cancel())
    }

    /// Starts a ready step (`pending -> in_progress`).
    fn start_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<()> {
        let id = self::step_id(step_id)?;
        sdk(py, self.plan.step_mut(id).and_then(|s| s.start()))
    }

    /// `in_progress -> completed`; the plan completes when every step is done.
    fn complete_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<()> {
        let id = self::step_id(step_id)?;
        sdk(py, self.plan.step_mut(id).and_then(|s| s.complete()))
    }

    /// `in_progress -> failed`; the plan fails.
    fn fail_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<()> {
        let id = self::step_id(step_id)?;
        sdk(py, self.plan.step_mut(id).and_then(|s| s.fail()))
    }

    /// `pending -> skipped`.
    fn skip_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<()> {
        let id = self::step_id(step_id)?;
        sdk(py, self.plan.step_mut(id).and_then(|s| s.skip()))
    }

    /// Retries a failed step: returns the id of the new step.
    fn retry_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<String> {
        let id = self::step_id(step_id)?;
        sdk(py, self.plan.step_mut(id).and_then(|s| s.retry())).map(|s| s.to_string())
    }

    /// The pending steps that can start now, in plan order (empty unless `in_progress`).
    fn ready_steps(&self) -> Vec<String> {
        ids(self.plan.ready_steps())
    }

    /// Every step id, each after its dependencies.
    fn topological_order(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        sdk(py, self.plan.topological_order()).map(ids)
    }

    /// The steps in layers: each layer's steps depend only on earlier layers.
    fn execution_layers(&self, py: Python<'_>) -> PyResult<Vec<Vec<String>>> {
        sdk(py, self.plan.execution_layers()).map(|layers| layers.into_iter().map(ids).collect())
    }

    /// The longest dependency chain (the critical path, by step count).
    fn longest_path(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        sdk(py, self.plan.longest_path()).map(ids)
    }

    /// Validates the plan as it is now (schema and plan rules).
    fn check(&self) -> ValidationResult {
        ValidationResult::new(
            Some(mplp_validate::Kind::Plan),
            mplp_validate::validate_document(
                mplp_validate::Kind::Plan,
                self.plan.to_json().as_bytes(),
            ),
        )
    }

    /// The plan as JSON text.
    #[pyo3(signature = (pretty = false))]
    fn to_json(&self, pretty: bool) -> String {
        json_of(&self.plan, pretty)
    }

    /// The plan as a dict (`json.loads(plan.to_json())`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &self.plan.to_json())
    }

    fn __repr__(&self) -> String {
        format!(
            "Plan(plan_id={:?}, status={:?})",
            self.plan_id().unwrap_or_default(),
            self.status().unwrap_or_default()
        )
    }
}

/// A valid MPLP Dialog. `Dialog(data)` validates `data` and raises
/// `ValidationError` when it is not a valid dialog.
#[pyclass(name = "Dialog", module = "mplp_rs")]
pub(crate) struct PyDialog {
    dialog: mplp_dialog::Dialog,
}

#[pymethods]
impl PyDialog {
    #[new]
    fn new(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyDialog {
            dialog: load(data)?,
        })
    }

    /// The dialog's id.
    #[getter]
    fn dialog_id(&self) -> Option<String> {
        member(&self.dialog, "dialog_id")
    }

    /// The dialog's status (`active`, `paused`, `completed`, `cancelled`).
    #[getter]
    fn status(&self) -> Option<String> {
        member(&self.dialog, "status")
    }

    /// Appends a message stamped now; `role` is `user`, `assistant`, `system` or `agent`.
    fn add_message(&mut self, py: Python<'_>, role: &str, content: String) -> PyResult<()> {
        let role: DialogRole = role
            .parse()
            .map_err(|e: mplp_core::UnknownVariant| PyValueError::new_err(e.to_string()))?;
        sdk(py, self.dialog.add_message(role, content))
    }

    /// `active -> paused`.
    fn pause(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.dialog.pause())
    }

    /// `paused -> active`.
    fn resume(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.dialog.resume())
    }

    /// Ends the dialog as `completed`.
    fn complete(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.dialog.complete())
    }

    /// Ends the dialog as `cancelled`.
    fn cancel(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.dialog.cancel())
    }

    /// A child dialog (new id, `active`) with the first `first_k` and the last
    /// `last_n` messages.
    #[pyo3(signature = (last_n = 0, first_k = 1))]
    fn fork(&self, last_n: usize, first_k: usize) -> PyDialog {
        PyDialog {
            dialog: self.dialog.fork(last_n, first_k),
        }
    }

    /// A copy pruned to fit `max_tokens` (estimated at 4 characters a token)
    /// less `safety_margin`: the first message and the most recent ones kept,
    /// the oldest partial one cut. `TransitionError` when it cannot fit.
    #[pyo3(signature = (max_tokens, safety_margin = DEFAULT_SAFETY_MARGIN))]
    fn prune(&self, py: Python<'_>, max_tokens: usize, safety_margin: usize) -> PyResult<PyDialog> {
        let manager = DefaultContextManager::new(max_tokens).with_safety_margin(safety_margin);
        match manager.prune(&self.dialog) {
            Ok(dialog) => Ok(PyDialog { dialog }),
            Err(e) => Err(refused(py, "/messages", "context-window", e.to_string())),
        }
    }

    /// The OpenAI chat-completions request body, as a dict.
    #[pyo3(signature = (model = "gpt-4o"))]
    fn to_openai<'py>(&self, py: Python<'py>, model: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.dialog.to_openai_request(model) {
            Ok(req) => request_dict(py, &req),
            Err(e) => Err(refused(py, "/messages", "convert", e.to_string())),
        }
    }

    /// The Anthropic Messages request body, as a dict.
    #[pyo3(signature = (model = "claude-sonnet-4-5", max_tokens = 1024))]
    fn to_anthropic<'py>(
        &self,
        py: Python<'py>,
        model: &str,
        max_tokens: u32,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self.dialog.to_anthropic_request(model, max_tokens) {
            Ok(req) => request_dict(py, &req),
            Err(e) => Err(refused(py, "/messages", "convert", e.to_string())),
        }
    }

    /// A readable transcript.
    fn overview(&self) -> String {
        self.dialog.overview()
    }

    /// The dialog as JSON text.
    #[pyo3(signature = (pretty = false))]
    fn to_json(&self, pretty: bool) -> String {
        json_of(&self.dialog, pretty)
    }

    /// The dialog as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &self.dialog.to_json())
    }

    fn __repr__(&self) -> String {
        format!(
            "Dialog(dialog_id={:?}, status={:?})",
            self.dialog_id().unwrap_or_default(),
            self.status().unwrap_or_default()
        )
    }
}

fn request_dict<'py>(py: Python<'py>, req: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(req).map_err(|e| PyValueError::new_err(e.to_string()))?;
    loads(py, &text)
}

/// A valid MPLP Collab document. `Collab(data)` validates `data` and raises
/// `ValidationError` when it is not a valid collab.
#[pyclass(name = "Collab", module = "mplp_rs")]
pub(crate) struct PyCollab {
    collab: mplp_collab::Collab,
}

#[pymethods]
impl PyCollab {
    #[new]
    fn new(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyCollab {
            collab: load(data)?,
        })
    }

    /// The collab's id.
    #[getter]
    fn collab_id(&self) -> Option<String> {
        member(&self.collab, "collab_id")
    }

    /// The collab's status.
    #[getter]
    fn status(&self) -> Option<String> {
        member(&self.collab, "status")
    }

    /// The collaboration mode.
    #[getter]
    fn mode(&self) -> Option<String> {
        member(&self.collab, "mode")
    }

    /// `draft -> active`.
    fn start(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.collab.start())
    }

    /// `active -> suspended`.
    fn suspend(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.collab.suspend())
    }

    /// `suspended -> active`.
    fn resume(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.collab.resume())
    }

    /// `active -> completed`.
    fn complete(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.collab.complete())
    }

    /// Ends the session as `cancelled`.
    fn cancel(&mut self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.collab.cancel())
    }

    /// The collab as JSON text.
    #[pyo3(signature = (pretty = false))]
    fn to_json(&self, pretty: bool) -> String {
        json_of(&self.collab, pretty)
    }

    /// The collab as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &self.collab.to_json())
    }

    fn __repr__(&self) -> String {
        format!(
            "Collab(collab_id={:?}, mode={:?}, status={:?})",
            self.collab_id().unwrap_or_default(),
            self.mode().unwrap_or_default(),
            self.status().unwrap_or_default()
        )
    }
}

/// The most participants `simulate_session` accepts (as `mplp collab simulate`).
const MAX_PARTICIPANTS: usize = 10_000;

/// Simulates a collaboration session and returns its MAP event log as a
/// list of dicts (deterministic for a given seed; it always passes
/// `validate_log`). `mode`: `broadcast`, `round_robin`, `orchestrated`,
/// `swarm` or `pair`. `plan` (a `Plan` or plan data): its ready steps drive the turns.
#[pyfunction]
#[pyo3(signature = (mode, participants, turns, seed = 0, plan = None))]
pub(crate) fn simulate_session<'py>(
    py: Python<'py>,
    mode: &str,
    participants: usize,
    turns: u64,
    seed: u64,
    plan: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let mode: CollabMode = mode
        .replace('-', "_")
        .parse()
        .map_err(|e: mplp_core::UnknownVariant| PyValueError::new_err(e.to_string()))?;
    if participants > MAX_PARTICIPANTS {
        return Err(PyValueError::new_err(format!(
            "participants: at most {MAX_PARTICIPANTS}, got {participants}"
        )));
    }
    let mut config =
        mplp_collab::simulate::SimConfig::new(mode, participants, turns).with_seed(seed);
    if let Some(plan) = plan {
        let plan = match plan.cast::<PyPlan>() {
            Ok(p) => p.borrow().plan.clone(),
            Err(_) => load::<mplp_plan::Plan>(plan)?,
        };
        config = config.with_plan(plan);
    }
    let mut events: Vec<mplp_events::MapEvent> = Vec::new();
    let outcome = py.detach(|| mplp_collab::simulate::simulate(&config, &mut events).map(|_| ()));
    if let Err(e) = outcome {
        let violations = match &e {
            mplp_collab::runtime::SessionError::Mplp(inner) => inner.violations(),
            _ => Vec::new(),
        };
        return Err(raise::<MplpError>(
            py,
            format!("simulate_session: {e}"),
            &violations,
        ));
    }
    let text = serde_json::to_string(&events).map_err(|e| PyValueError::new_err(e.to_string()))?;
    loads(py, &text)?
        .cast_into::<PyList>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
