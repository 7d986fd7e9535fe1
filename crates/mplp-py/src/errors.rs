//! The Python exceptions and the `Violation` class.

use mplp_core::{Error, Severity, Violation};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

create_exception!(
    mplp_rs,
    MplpError,
    PyValueError,
    "Base of every mplp_rs error; a ValueError. `violations` holds the list of `Violation`s."
);
create_exception!(
    mplp_rs,
    ValidationError,
    MplpError,
    "The input is not a valid MPLP document; `violations` lists every violation found."
);
create_exception!(
    mplp_rs,
    TransitionError,
    MplpError,
    "A lifecycle operation was refused (a transition not in the table, an unknown step, ...); \
     `violations` holds the reason, with pointer and rule id."
);

/// One problem found in a document: where (`pointer`, `line`), which rule,
/// what was expected (`message`), and whether it is an `error` or a `warning`.
#[pyclass(name = "Violation", module = "mplp_rs", frozen, eq, get_all)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PyViolation {
    /// RFC 6901 JSON pointer into the document (`""`: the whole document).
    pointer: String,
    /// The stable rule id (`required`, `pattern`, `plan_dag_acyclic`, ...).
    rule: String,
    /// What is wrong and what was expected.
    message: String,
    /// `"error"` or `"warning"`.
    severity: String,
    /// For NDJSON logs, the 1-based line number.
    line: Option<u64>,
}

impl From<&Violation> for PyViolation {
    fn from(v: &Violation) -> Self {
        PyViolation {
            pointer: v.pointer.clone(),
            rule: v.rule.as_str().to_owned(),
            message: v.message.clone(),
            severity: match v.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            }
            .to_owned(),
            line: v.line,
        }
    }
}

#[pymethods]
impl PyViolation {
    /// The violation as `mplp validate --format json` writes it:
    /// `pointer`, `rule`, `message`, and `line` when there is one.
    pub(crate) fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("pointer", &self.pointer)?;
        d.set_item("rule", &self.rule)?;
        d.set_item("message", &self.message)?;
        if let Some(line) = self.line {
            d.set_item("line", line)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let line = self.line.map(|l| format!(", line={l}")).unwrap_or_default();
        format!(
            "Violation(pointer={:?}, rule={:?}, message={:?}, severity={:?}{line})",
            self.pointer, self.rule, self.message, self.severity
        )
    }

    fn __str__(&self) -> String {
        let line = self.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        format!("{line}{}: [{}] {}", self.pointer, self.rule, self.message)
    }
}

/// A list of `Violation` objects.
pub(crate) fn violation_list<'a, 'py>(
    py: Python<'py>,
    violations: impl IntoIterator<Item = &'a Violation>,
) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<PyViolation> = violations.into_iter().map(PyViolation::from).collect();
    PyList::new(py, items)
}

/// An exception of type `E` with `message` and the `violations` attribute.
pub(crate) fn raise<'a, E: pyo3::PyTypeInfo>(
    py: Python<'_>,
    message: String,
    violations: impl IntoIterator<Item = &'a Violation>,
) -> PyErr {
    let err = PyErr::new::<E, _>(message);
    match violation_list(py, violations) {
        Ok(list) => match err.value(py).setattr("violations", list) {
            Ok(()) => err,
            Err(e) => e,
        },
        Err(e) => e,
    }
}

/// The Python exception for an SDK error: `ValidationError` for an invalid
/// document, `TransitionError` for a refused operation.
pub(crate) fn to_py(py: Python<'_>, e: &Error) -> PyErr {
    let violations = e.violations();
    match e {
        Error::Invalid(_) => raise::<ValidationError>(py, e.to_string(), &violations),
        _ => raise::<TransitionError>(py, e.to_string(), &violations),
    }
}

/// A `TransitionError` for an operation refused with a plain message.
pub(crate) fn refused(py: Python<'_>, pointer: &str, rule: &'static str, message: String) -> PyErr {
    let v = Violation::error(pointer, mplp_core::Rule::new(rule), message.clone());
    raise::<TransitionError>(py, message, [&v])
}
