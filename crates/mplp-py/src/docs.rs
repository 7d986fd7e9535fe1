//! `Plan`, `Dialog`, `Collab` and `simulate_session`: thin wrappers over
//! the Rust documents. Each wrapper holds a valid document (its constructor
//! validates), exchanges JSON text or dicts with Python, and raises
//! `TransitionError` when an operation is refused.
//!
//! The getters read the documents' typed fields and accessors (an id's
//! text, a status's wire name), never a serialized copy of the document.

use mplp_core::{CollabMode, ContextId, StepId};
use mplp_dialog::{ContextManager, DEFAULT_SAFETY_MARGIN, DefaultContextManager, DialogRole};
use mplp_plan::{ConfirmDecision, StepSpec};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::class::{document_class, load, loads, parse, sdk, to_python};
use crate::errors::{MplpError, raise, refused};

fn parse_step_id(text: &str) -> PyResult<StepId> {
    parse("step_id", text)
}

fn ids(ids: Vec<StepId>) -> Vec<String> {
    ids.into_iter().map(|s| s.to_string()).collect()
}

/// A Confirm decision; `by` is the deciding role (`decided_by_role`, which
/// the Confirm schema requires), `"user"` when not given.
fn decision(approved: bool, by: Option<String>, reason: Option<String>) -> ConfirmDecision {
    let by = by.unwrap_or_else(|| "user".to_owned());
    let d = if approved {
        ConfirmDecision::approved(by)
    } else {
        ConfirmDecision::rejected(by)
    };
    match reason {
        Some(reason) => d.with_reason(reason),
        None => d,
    }
}

/// A dependency of a step given to `Plan.build`.
enum Dep {
    Index(usize),
    Id(StepId),
}

/// One step given to `Plan.build`.
struct StepInput {
    description: String,
    step_id: Option<StepId>,
    role: Option<String>,
    after: Vec<Dep>,
}

impl StepInput {
    fn read(item: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(description) = item.extract::<String>() {
            return Ok(StepInput {
                description,
                step_id: None,
                role: None,
                after: Vec::new(),
            });
        }
        let d = item.cast::<PyDict>().map_err(|_| {
            PyTypeError::new_err("a step is a description (str) or a dict with `description`")
        })?;
        for key in d.keys() {
            let key: String = key.extract()?;
            if !matches!(key.as_str(), "description" | "step_id" | "role" | "after") {
                return Err(PyValueError::new_err(format!(
                    "unknown step key `{key}`; expected description, step_id, role, after"
                )));
            }
        }
        let description = match d.get_item("description")? {
            Some(v) => v.extract()?,
            None => return Err(PyValueError::new_err("a step needs a `description`")),
        };
        let step_id = match d.get_item("step_id")? {
            Some(v) => Some(parse_step_id(&v.extract::<String>()?)?),
            None => None,
        };
        let role = d.get_item("role")?.map(|v| v.extract()).transpose()?;
        let mut after = Vec::new();
        if let Some(deps) = d.get_item("after")? {
            for dep in deps.try_iter()? {
                let dep = dep?;
                after.push(match dep.extract::<usize>() {
                    Ok(i) => Dep::Index(i),
                    Err(_) => Dep::Id(parse_step_id(&dep.extract::<String>()?)?),
                });
            }
        }
        Ok(StepInput {
            description,
            step_id,
            role,
            after,
        })
    }
}

document_class! {
    /// A valid MPLP Plan. `Plan(data)` validates `data` (as `validate` accepts
    /// it) and raises `ValidationError` when it is not a valid plan.
    PyPlan = "Plan"(mplp_plan::Plan, mplp_check::PLAN, Plan),
    id plan_id: |d| d.plan_id,
    status: |d| d.status().as_str(),
    ops {
        /// `draft -> proposed`.
        propose,
        /// `approved -> in_progress` (completes at once when every step is skipped).
        start,
        /// `draft|in_progress -> cancelled`.
        cancel,
    }
    {

    /// A new draft plan. Each step is a description, or a dict with
    /// `description` and optionally `step_id`, `role` (its `agent_role`) and
    /// `after`: the steps it depends on, as indices into `steps` or step ids.
    /// `context_id` defaults to a new id. `ValidationError` lists every problem.
    #[staticmethod]
    #[pyo3(signature = (title, objective, steps, context_id = None))]
    fn build(
        py: Python<'_>,
        title: String,
        objective: String,
        steps: Vec<Bound<'_, PyAny>>,
        context_id: Option<&str>,
    ) -> PyResult<PyPlan> {
        let context_id = match context_id {
            Some(text) => parse::<ContextId>("context_id", text)?,
            None => ContextId::new(),
        };
        let specs = steps
            .iter()
            .map(StepInput::read)
            .collect::<PyResult<Vec<StepInput>>>()?;
        let ids: Vec<StepId> = specs
            .iter()
            .map(|s| s.step_id.unwrap_or_else(StepId::new))
            .collect();
        let mut builder = mplp_plan::Plan::builder(context_id, title, objective);
        for (spec, id) in specs.into_iter().zip(&ids) {
            let mut step = StepSpec::new(spec.description).id(*id);
            for dep in spec.after {
                step = step.after(match dep {
                    Dep::Index(i) => *ids.get(i).ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "after: step index {i} is out of range ({} steps)",
                            ids.len()
                        ))
                    })?,
                    Dep::Id(id) => id,
                });
            }
            if let Some(role) = spec.role {
                step = step.role(role);
            }
            builder.add(step);
        }
        sdk(py, builder.build()).map(|plan| PyPlan { doc: plan })
    }

    /// `proposed -> approved`, on an approving Confirm decision.
    #[pyo3(signature = (by = None, reason = None))]
    fn approve(
        &mut self,
        py: Python<'_>,
        by: Option<String>,
        reason: Option<String>,
    ) -> PyResult<()> {
        sdk(py, self.doc.approve(&decision(true, by, reason)))
    }

    /// `proposed -> draft`, on a rejecting Confirm decision.
    #[pyo3(signature = (by = None, reason = None))]
    fn reject(
        &mut self,
        py: Python<'_>,
        by: Option<String>,
        reason: Option<String>,
    ) -> PyResult<()> {
        sdk(py, self.doc.reject(&decision(false, by, reason)))
    }

    /// Decides `confirm` (a `Confirm` targeting this plan) and moves the
    /// plan with it, together: `proposed -> approved` when `approved`,
    /// else `proposed -> draft`; the decision is recorded in the Confirm.
    /// On refusal neither changes.
    #[pyo3(signature = (confirm, approved, by = None, reason = None))]
    fn decide(
        &mut self,
        py: Python<'_>,
        mut confirm: PyRefMut<'_, crate::modules::PyConfirm>,
        approved: bool,
        by: Option<String>,
        reason: Option<String>,
    ) -> PyResult<()> {
        let d = decision(approved, by, reason);
        sdk(py, self.doc.decide(&mut confirm.doc, d))
    }

    /// Applies the last decision of `confirm` (decided elsewhere) to the
    /// plan, as `decide` would have.
    fn apply_confirm(
        &mut self,
        py: Python<'_>,
        confirm: PyRef<'_, crate::modules::PyConfirm>,
    ) -> PyResult<()> {
        sdk(py, self.doc.apply_confirm(&confirm.doc))
    }

    /// Starts a ready step (`pending -> in_progress`).
    fn start_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<()> {
        let id = parse_step_id(step_id)?;
        sdk(py, self.doc.step_mut(id).and_then(|s| s.start()))
    }

    /// `in_progress -> completed`; the plan completes when every step is done.
    fn complete_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<()> {
        let id = parse_step_id(step_id)?;
        sdk(py, self.doc.step_mut(id).and_then(|s| s.complete()))
    }

    /// `in_progress -> failed`; the plan fails.
    fn fail_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<()> {
        let id = parse_step_id(step_id)?;
        sdk(py, self.doc.step_mut(id).and_then(|s| s.fail()))
    }

    /// `pending -> skipped`.
    fn skip_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<()> {
        let id = parse_step_id(step_id)?;
        sdk(py, self.doc.step_mut(id).and_then(|s| s.skip()))
    }

    /// Retries a failed step: returns the id of the new step.
    fn retry_step(&mut self, py: Python<'_>, step_id: &str) -> PyResult<String> {
        let id = parse_step_id(step_id)?;
        sdk(py, self.doc.step_mut(id).and_then(|s| s.retry())).map(|s| s.to_string())
    }

    /// The pending steps that can start now, in plan order (empty unless `in_progress`).
    fn ready_steps(&self) -> Vec<String> {
        ids(self.doc.ready_steps())
    }

    /// Every step id, each after its dependencies.
    fn topological_order(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        sdk(py, self.doc.topological_order()).map(ids)
    }

    /// The steps in layers: each layer's steps depend only on earlier layers.
    fn execution_layers(&self, py: Python<'_>) -> PyResult<Vec<Vec<String>>> {
        sdk(py, self.doc.execution_layers()).map(|layers| layers.into_iter().map(ids).collect())
    }

    /// The longest dependency chain (the critical path, by step count).
    fn longest_path(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        sdk(py, self.doc.longest_path()).map(ids)
    }

    }
}

document_class! {
    /// A valid MPLP Dialog. `Dialog(data)` validates `data` and raises
    /// `ValidationError` when it is not a valid dialog.
    PyDialog = "Dialog"(mplp_dialog::Dialog, mplp_check::DIALOG, Dialog),
    id dialog_id: |d| d.dialog_id,
    status: |d| d.status().as_str(),
    ops {
        /// `active -> paused`.
        pause,
        /// `paused -> active`.
        resume,
        /// Ends the dialog as `completed`.
        complete,
        /// Ends the dialog as `cancelled`.
        cancel,
    }
    {
    /// A new, empty, active dialog; with `system_prompt`, it starts with that
    /// system message. `context_id` defaults to a new id.
    #[staticmethod]
    #[pyo3(signature = (system_prompt = None, context_id = None))]
    fn create(system_prompt: Option<String>, context_id: Option<&str>) -> PyResult<PyDialog> {
        let context_id = match context_id {
            Some(text) => parse::<ContextId>("context_id", text)?,
            None => ContextId::new(),
        };
        let dialog = match system_prompt {
            Some(prompt) => mplp_dialog::Dialog::with_system_prompt(context_id, prompt),
            None => mplp_dialog::Dialog::new(context_id),
        };
        Ok(PyDialog { doc: dialog })
    }

    /// Appends a message stamped now; `role` is `user`, `assistant`, `system` or `agent`.
    fn add_message(&mut self, py: Python<'_>, role: &str, content: String) -> PyResult<()> {
        let role: DialogRole = role
            .parse()
            .map_err(|e: mplp_core::UnknownVariant| PyValueError::new_err(e.to_string()))?;
        sdk(py, self.doc.add_message(role, content))
    }

    /// A child dialog (new id, `active`) with the first `first_k` and the last
    /// `last_n` messages.
    #[pyo3(signature = (last_n = 0, first_k = 1))]
    fn fork(&self, last_n: usize, first_k: usize) -> PyDialog {
        PyDialog {
            doc: self.doc.fork(last_n, first_k),
        }
    }

    /// A copy pruned to fit `max_tokens` (estimated at 4 characters a token)
    /// less `safety_margin`: the first message and the most recent ones kept,
    /// the oldest partial one cut. `TransitionError` when it cannot fit.
    #[pyo3(signature = (max_tokens, safety_margin = DEFAULT_SAFETY_MARGIN))]
    fn prune(&self, py: Python<'_>, max_tokens: usize, safety_margin: usize) -> PyResult<PyDialog> {
        let manager = DefaultContextManager::new(max_tokens).with_safety_margin(safety_margin);
        match manager.prune(&self.doc) {
            Ok(dialog) => Ok(PyDialog { doc: dialog }),
            Err(e) => Err(refused(py, "/messages", "context-window", e.to_string())),
        }
    }

    /// The OpenAI chat-completions request body, as a dict.
    #[pyo3(signature = (model = "gpt-4o"))]
    fn to_openai<'py>(&self, py: Python<'py>, model: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.doc.to_openai_request(model) {
            Ok(req) => to_python(py, &req),
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
        match self.doc.to_anthropic_request(model, max_tokens) {
            Ok(req) => to_python(py, &req),
            Err(e) => Err(refused(py, "/messages", "convert", e.to_string())),
        }
    }

    /// A readable transcript.
    fn overview(&self) -> String {
        self.doc.overview()
    }

    }
}

document_class! {
    /// A valid MPLP Collab document. `Collab(data)` validates `data` and raises
    /// `ValidationError` when it is not a valid collab.
    PyCollab = "Collab"(mplp_collab::Collab, mplp_check::COLLAB, Collab),
    id collab_id: |d| d.collab_id,
    status: |d| d.status().as_str(),
    ops {
        /// `draft -> active`.
        start,
        /// `active -> suspended`.
        suspend,
        /// `suspended -> active`.
        resume,
        /// `active -> completed`.
        complete,
        /// Ends the session as `cancelled`.
        cancel,
    }
    {
    /// The collaboration mode.
    #[getter]
    fn mode(&self) -> &'static str {
        self.doc.mode().as_str()
    }

    /// Nothing when participants may act (the session is `active`); else
    /// `TransitionError` (rule `map_participants_can_act`).
    fn ensure_can_act(&self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.doc.ensure_can_act())
    }

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
            Ok(p) => p.borrow().doc.clone(),
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
