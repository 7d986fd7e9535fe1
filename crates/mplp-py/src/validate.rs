//! `validate`, `validate_log` and their result.

use std::fs::File;
use std::io::{BufReader, Cursor};
use std::path::PathBuf;

use mplp_check::{AUTO, DocKind, KINDS, Options, Source};
use mplp_core::Report;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};

use crate::errors::{PyViolation, ValidationError, raise, violation_list};
use crate::input::{Input, read};
use crate::lines::LineReader;

/// The outcome of `validate` or `validate_log`: `valid`, and every `error`
/// and `warning` found (warnings do not make a document invalid).
#[pyclass(module = "mplp_rs", frozen)]
pub(crate) struct ValidationResult {
    /// The kind validated (`plan`, `map-log`, ...), or None when it could
    /// not be recognised.
    #[pyo3(get)]
    kind: Option<&'static str>,
    report: Report,
}

impl ValidationResult {
    pub(crate) fn new(kind: Option<&'static DocKind>, report: Report) -> Self {
        ValidationResult {
            kind: kind.map(|k| k.name),
            report,
        }
    }
}

#[pymethods]
impl ValidationResult {
    /// True when there is no error.
    #[getter]
    fn valid(&self) -> bool {
        self.report.is_valid()
    }

    /// The errors, in document (or line) order.
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        violation_list(py, self.report.errors())
    }

    /// The warnings, in document (or line) order.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        violation_list(py, self.report.warnings())
    }

    /// Every violation, errors and warnings, in the order found.
    #[getter]
    fn violations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        violation_list(py, self.report.violations())
    }

    /// The result as `mplp validate --format json` writes it for one file
    /// (without `file`): `kind` (`"auto"` when not recognised), `valid`,
    /// `errors`, `warnings`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("kind", self.kind.unwrap_or(AUTO))?;
        d.set_item("valid", self.report.is_valid())?;
        let dicts =
            |it: &mut dyn Iterator<Item = &mplp_core::Violation>| -> PyResult<Bound<'py, PyList>> {
                let list = PyList::empty(py);
                for v in it {
                    list.append(PyViolation::from(v).to_dict(py)?)?;
                }
                Ok(list)
            };
        d.set_item("errors", dicts(&mut self.report.errors())?)?;
        d.set_item("warnings", dicts(&mut self.report.warnings())?)?;
        // The counts of the CLI's record (nothing is cut here).
        d.set_item("error_count", self.report.errors().count())?;
        d.set_item("warning_count", self.report.warnings().count())?;
        d.set_item("suppressed_errors", 0)?;
        d.set_item("suppressed_warnings", 0)?;
        Ok(d)
    }

    /// Raises `ValidationError` (with every violation) unless the result is valid.
    fn raise_for_errors(&self, py: Python<'_>) -> PyResult<()> {
        if self.report.is_valid() {
            return Ok(());
        }
        let errors: Vec<&mplp_core::Violation> = self.report.errors().collect();
        let message = match errors.as_slice() {
            [one] => format!("invalid document: {one}"),
            [first, rest @ ..] => format!(
                "invalid document: {first} (and {} more error{})",
                rest.len(),
                if rest.len() == 1 { "" } else { "s" }
            ),
            [] => "invalid document".to_owned(),
        };
        Err(raise::<ValidationError>(
            py,
            message,
            self.report.violations(),
        ))
    }

    fn __bool__(&self) -> bool {
        self.report.is_valid()
    }

    fn __repr__(&self) -> String {
        format!(
            "ValidationResult(kind={}, valid={}, errors={}, warnings={})",
            self.kind.map_or("None".to_owned(), |k| format!("{k:?}")),
            if self.report.is_valid() {
                "True"
            } else {
                "False"
            },
            self.report.errors().count(),
            self.report.warnings().count()
        )
    }
}

/// The dispatch's options for `profile`: this version has only the default
/// profile (`None`: strict, as `mplp validate`'s default).
fn options(profile: Option<&str>) -> PyResult<Options> {
    match profile {
        None => Ok(Options::default()),
        Some(p) => Err(PyValueError::new_err(format!(
            "unknown profile `{p}`: this version has only the default profile (profile=None)"
        ))),
    }
}

fn parse_kind(kind: &str) -> PyResult<Option<&'static DocKind>> {
    mplp_check::parse_or_auto(kind).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Validates one MPLP document and returns a `ValidationResult`.
///
/// `data` is `bytes`/`bytearray` or `str` (JSON text), a `dict`/`list`
/// (serialized with `json.dumps`), or an `os.PathLike` (a file; `.ndjson`
/// and `.jsonl` files are validated as logs, streamed). `kind` is `"auto"`
/// (recognise it as `mplp validate` does) or one of `kinds()`. `profile`:
/// only the default (`None`) exists in this version.
///
/// Raises `TypeError` for other types, `ValidationError` (a `ValueError`)
/// for a `dict` with no JSON form, `OSError` when a file cannot be opened.
#[pyfunction]
#[pyo3(signature = (data, kind = "auto", profile = None))]
pub(crate) fn validate(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    kind: &str,
    profile: Option<&str>,
) -> PyResult<ValidationResult> {
    let options = options(profile)?;
    let kind = parse_kind(kind)?;
    let mut report = Report::new();
    let checked = match read(data)? {
        Input::Json(bytes) => {
            let bytes: &[u8] = &bytes;
            py.detach(|| {
                mplp_check::validate_source(kind, Source::text(bytes), &options, &mut report)
            })
        }
        Input::Path(path) => {
            py.detach(|| mplp_check::validate_path(kind, &path, &options, &mut report))?
        }
    };
    Ok(ValidationResult::new(checked.kind, report))
}

/// Validates an NDJSON event log, streaming: memory stays constant apart
/// from the per-session state the log rules need.
///
/// `source` is a file (`str` or `os.PathLike`), the log's content
/// (`bytes`), or any iterable of lines (`str` or `bytes`, e.g. an open file
/// or a generator). `kind` is `"map"` (or `"map-log"`), `"sa"` (or
/// `"sa-log"`), `"event-log"` (lines of any event kind, each validated as
/// its own kind), or `"auto"` (the first lines tell MAP, SA or event log).
/// `profile` as for `validate`.
#[pyfunction]
#[pyo3(signature = (source, kind = "map", profile = None))]
pub(crate) fn validate_log(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    kind: &str,
    profile: Option<&str>,
) -> PyResult<ValidationResult> {
    let options = options(profile)?;
    let kind = match kind {
        "map" | "map-log" => Some(&mplp_check::MAP_LOG),
        "sa" | "sa-log" => Some(&mplp_check::SA_LOG),
        "event-log" => Some(&mplp_check::EVENT_LOG),
        AUTO => None,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown log kind `{other}`, expected one of: map, sa, event-log, auto (or map-log, sa-log)"
            )));
        }
    };
    let mut report = Report::new();
    let mut check = |name: &str, reader: &mut dyn std::io::BufRead| {
        mplp_check::validate_source(kind, Source::log(name, reader), &options, &mut report)
    };
    let checked = if source.is_instance_of::<PyString>() || is_path_like(source)? {
        let path: PathBuf = if source.is_instance_of::<PyString>() {
            source.extract()?
        } else {
            py.import("os")?
                .call_method1("fspath", (source,))?
                .extract()?
        };
        py.detach(|| -> std::io::Result<_> {
            let mut reader = BufReader::new(File::open(&path)?);
            Ok(check(&path.to_string_lossy(), &mut reader))
        })?
    } else if let Ok(b) = source.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        py.detach(|| check("", &mut Cursor::new(bytes)))
    } else if let Ok(b) = source.cast::<PyByteArray>() {
        let bytes = b.to_vec();
        py.detach(|| check("", &mut Cursor::new(&bytes[..])))
    } else {
        let mut reader = LineReader::new(source)?;
        let checked = check("", &mut reader);
        if let Some(e) = reader.error.take() {
            return Err(e);
        }
        checked
    };
    Ok(ValidationResult::new(checked.kind, report))
}

fn is_path_like(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    let path_like = value.py().import("os")?.getattr("PathLike")?;
    value.is_instance(&path_like)
}

/// The names `validate(kind=...)` accepts: `"auto"` and every document kind.
#[pyfunction]
pub(crate) fn kinds() -> Vec<&'static str> {
    std::iter::once(AUTO)
        .chain(KINDS.iter().map(|k| k.name))
        .collect()
}
