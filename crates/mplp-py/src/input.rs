//! What `validate` and the `from_json` constructors accept, as JSON bytes.

use std::borrow::Cow;
use std::path::PathBuf;

use mplp_core::Violation;
use pyo3::exceptions::{PyRecursionError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::errors::{ValidationError, raise};

/// A document given from Python.
pub(crate) enum Input<'a> {
    /// JSON bytes (from `bytes`, `bytearray`, `str` or a serialized `dict`/`list`).
    Json(Cow<'a, [u8]>),
    /// A file to read (an `os.PathLike`, e.g. `pathlib.Path`).
    Path(PathBuf),
}

/// The rule id of a Python value that has no JSON form (a `set`, `NaN`,
/// nesting past Python's recursion limit, a circular reference); declared
/// in the mplp-check rule registry.
pub(crate) use mplp_check::PYTHON_VALUE;

/// Reads `data`: `bytes`/`bytearray` and `str` are JSON text; `dict`,
/// `list` and `tuple` are serialized with `json.dumps` (no NaN); an
/// `os.PathLike` names a file. Anything else is a `TypeError`.
pub(crate) fn read<'a>(data: &'a Bound<'_, PyAny>) -> PyResult<Input<'a>> {
    let py = data.py();
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(Input::Json(Cow::Borrowed(b.as_bytes())));
    }
    if let Ok(b) = data.cast::<PyByteArray>() {
        return Ok(Input::Json(Cow::Owned(b.to_vec())));
    }
    if let Ok(s) = data.cast::<PyString>() {
        // A str holding lone surrogates is not UTF-8: UnicodeEncodeError (a ValueError).
        let text = s.to_cow()?.into_owned();
        if looks_like_a_file_name(&text) {
            return Err(PyTypeError::new_err(format!(
                "a str is JSON text, and `{text}` names a file: pass pathlib.Path({text:?}) to validate the file"
            )));
        }
        return Ok(Input::Json(Cow::Owned(text.into_bytes())));
    }
    if data.is_instance_of::<PyDict>()
        || data.is_instance_of::<PyList>()
        || data.is_instance_of::<PyTuple>()
    {
        return dumps(py, data).map(|s| Input::Json(Cow::Owned(s.into_bytes())));
    }
    let os = py.import("os")?;
    if data.is_instance(&os.getattr("PathLike")?)? {
        let path: PathBuf = os.call_method1("fspath", (data,))?.extract()?;
        return Ok(Input::Path(path));
    }
    Err(PyTypeError::new_err(format!(
        "expected an MPLP document as bytes, str (JSON text), dict or list, or a file as os.PathLike (e.g. pathlib.Path); got {}",
        data.get_type().name()?
    )))
}

/// `json.dumps(value, ensure_ascii=False, allow_nan=False)`; a value with no
/// JSON form raises `ValidationError` (a `ValueError`) with one violation of
/// rule `python-value`, and a wrong type inside stays a `TypeError`.
fn dumps(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let json = py.import("json")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("ensure_ascii", false)?;
    kwargs.set_item("allow_nan", false)?;
    kwargs.set_item("separators", (",", ":"))?;
    match json.call_method("dumps", (value,), Some(&kwargs)) {
        Ok(s) => s.extract(),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => Err(e),
        Err(e) => {
            let why = if e.is_instance_of::<PyRecursionError>(py) {
                "the value is nested too deeply (or refers to itself) to be a JSON document"
                    .to_owned()
            } else {
                format!("the value has no JSON form: {}", e.value(py))
            };
            let v = Violation::error("", PYTHON_VALUE, why.clone());
            Err(raise::<ValidationError>(py, why, [&v]))
        }
    }
}

/// Whether `text` cannot be a JSON document but names an existing file (a
/// path passed as `str` by mistake).
fn looks_like_a_file_name(text: &str) -> bool {
    let first = text.trim_start().chars().next();
    !matches!(first, Some('{' | '[') | None)
        && text.len() < 4096
        && std::path::Path::new(text).is_file()
}
