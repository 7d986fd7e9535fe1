//! `validate_bundle`: the documents of one piece of work validated
//! together, as `mplp validate --bundle` does (`mplp_check::bundle`).

use std::path::PathBuf;

use mplp_check::bundle::DocumentReport;
use pyo3::exceptions::{PyKeyError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::errors::PyViolation;
use crate::validate::{ValidationResult, full_options, is_path_like};

/// What `validate_bundle` found: for each file, in order, its own findings
/// and its bindings' (a `ValidationResult` per file).
#[pyclass(module = "mplp_rs", frozen)]
pub(crate) struct BundleResult {
    documents: Vec<DocumentReport>,
}

impl BundleResult {
    fn result(d: &DocumentReport) -> ValidationResult {
        ValidationResult::named(d.kind, d.report.clone())
    }
}

#[pymethods]
impl BundleResult {
    /// True when no file has an error (warnings allowed).
    #[getter]
    fn valid(&self) -> bool {
        self.documents.iter().all(|d| d.report.is_valid())
    }

    /// The files, in the order they were checked.
    #[getter]
    fn files(&self) -> Vec<String> {
        self.documents.iter().map(|d| d.name.clone()).collect()
    }

    /// `(file, ValidationResult)` for each file, in order.
    fn results(&self) -> Vec<(String, ValidationResult)> {
        self.documents
            .iter()
            .map(|d| (d.name.clone(), Self::result(d)))
            .collect()
    }

    /// Every error, as `(file, Violation)`, file by file.
    #[getter]
    fn errors(&self) -> Vec<(String, PyViolation)> {
        self.documents
            .iter()
            .flat_map(|d| {
                d.report
                    .errors()
                    .map(|v| (d.name.clone(), PyViolation::from(v)))
            })
            .collect()
    }

    /// One dict per file, as `mplp validate --bundle --format json` writes
    /// its lines: `file` and the keys of `ValidationResult.to_dict()`.
    fn to_dicts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for d in &self.documents {
            let record = PyDict::new(py);
            record.set_item("file", &d.name)?;
            for (k, v) in Self::result(d).to_dict(py)?.iter() {
                record.set_item(k, v)?;
            }
            list.append(record)?;
        }
        Ok(list)
    }

    /// The result of the file named `file` (as in `files`); `KeyError` when
    /// there is none.
    fn __getitem__(&self, file: &str) -> PyResult<ValidationResult> {
        self.documents
            .iter()
            .find(|d| d.name == file)
            .map(Self::result)
            .ok_or_else(|| PyKeyError::new_err(file.to_owned()))
    }

    fn __len__(&self) -> usize {
        self.documents.len()
    }

    fn __bool__(&self) -> bool {
        self.valid()
    }

    fn __repr__(&self) -> String {
        let errors: usize = self
            .documents
            .iter()
            .map(|d| d.report.errors().count())
            .sum();
        format!(
            "BundleResult(files={}, valid={}, errors={errors})",
            self.documents.len(),
            if self.valid() { "True" } else { "False" },
        )
    }
}

/// One path from Python (`str` or `os.PathLike`).
fn path_of(item: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    if item.is_instance_of::<PyString>() {
        return item.extract();
    }
    if is_path_like(item)? {
        return item
            .py()
            .import("os")?
            .call_method1("fspath", (item,))?
            .extract();
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "a bundle is a directory or files, as str or os.PathLike; got {}",
        item.get_type().name()?
    )))
}

/// Validates files together as one bundle, as `mplp validate --bundle`
/// does: each file as alone (its kind recognised, `.ndjson` files as
/// logs), then the rules that bind them (a plan's Context and Confirm, a
/// trace's plan, unique ids, ...) over the documents without errors.
///
/// `files` is a directory (every `.json` and `.ndjson` file below it, in
/// name order, leaving out `.expect.json`), a file, or an iterable of
/// them (`str` or `os.PathLike`). `profile`, `partial`,
/// `max_document_bytes` and `event_id_window` as for `validate`. Raises `OSError` when a file or directory cannot be read,
/// `ValueError` when there is no file at all.
#[pyfunction]
#[pyo3(signature = (files, profile = None, partial = false, *, max_document_bytes = None, event_id_window = None))]
pub(crate) fn validate_bundle(
    py: Python<'_>,
    files: &Bound<'_, PyAny>,
    profile: Option<&str>,
    partial: bool,
    max_document_bytes: Option<u64>,
    event_id_window: Option<usize>,
) -> PyResult<BundleResult> {
    let options = full_options(profile, partial, max_document_bytes, event_id_window)?;
    let given: Vec<PathBuf> = if files.is_instance_of::<PyString>() || is_path_like(files)? {
        vec![path_of(files)?]
    } else {
        files
            .try_iter()?
            .map(|item| path_of(&item?))
            .collect::<PyResult<_>>()?
    };
    let mut paths = Vec::new();
    for path in given {
        if path.is_dir() {
            let found = mplp_check::bundle::files_in(&path)
                .map_err(|e| PyOSError::new_err(format!("{e}: {}", e.source)))?;
            paths.extend(found);
        } else {
            paths.push(path);
        }
    }
    if paths.is_empty() {
        return Err(PyValueError::new_err(
            "nothing to check: no `.json` or `.ndjson` file in the bundle",
        ));
    }
    let report = py
        .detach(|| mplp_check::bundle::check_files_with(&paths, &options))
        .map_err(|e| PyOSError::new_err(format!("{e}: {}", e.source)))?;
    Ok(BundleResult {
        documents: report.documents,
    })
}
