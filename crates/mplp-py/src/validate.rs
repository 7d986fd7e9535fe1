//! `validate`, `validate_log` and their result.

use std::fs::File;
use std::io::{BufReader, Cursor};
use std::path::PathBuf;

use mplp_check::{AUTO, DocKind, EVENT_KINDS, KINDS, Options, Profile, Source};
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

    /// The result for a kind given by name (a bundle's report).
    pub(crate) fn named(kind: Option<&'static str>, report: Report) -> Self {
        ValidationResult { kind, report }
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
    pub(crate) fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
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

/// The names `profile=` accepts, as `mplp validate --profile` does
/// (`None` is `"strict"`, the CLI's default).
pub(crate) const PROFILES: [&str; 2] = ["strict", "canonical"];

/// The dispatch's options for `profile` and `partial`, as the CLI's
/// `--profile` and `--partial` give them.
pub(crate) fn options(profile: Option<&str>, partial: bool) -> PyResult<Options> {
    let profile = match profile {
        None | Some("strict") => Profile::Strict,
        Some("canonical") => Profile::Canonical,
        Some(p) => {
            return Err(PyValueError::new_err(format!(
                "unknown profile `{p}`, expected one of: {} (or None: strict)",
                PROFILES.join(", ")
            )));
        }
    };
    Ok(Options::default().profile(profile).partial(partial))
}

/// [`options`] with the CLI's `--max-document-bytes` and
/// `--event-id-window` when given (`None`: the CLI's defaults).
pub(crate) fn full_options(
    profile: Option<&str>,
    partial: bool,
    max_document_bytes: Option<u64>,
    event_id_window: Option<usize>,
) -> PyResult<Options> {
    let mut o = options(profile, partial)?;
    if let Some(bytes) = max_document_bytes {
        o = o.max_document_bytes(bytes);
    }
    if let Some(events) = event_id_window {
        o = o.event_id_window(events);
    }
    Ok(o)
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
/// `"strict"` (the default, also `None`) or `"canonical"`, as
/// `mplp validate --profile`; `partial`: logs still being written, as
/// `--partial` (what a log leaves open at its end is a warning);
/// `max_document_bytes` and `event_id_window` as `--max-document-bytes`
/// and `--event-id-window` (`None`: the CLI's defaults).
///
/// Raises `TypeError` for other types, `ValidationError` (a `ValueError`)
/// for a `dict` with no JSON form, `OSError` when a file cannot be opened.
#[pyfunction]
#[pyo3(signature = (data, kind = "auto", profile = None, partial = false, *, max_document_bytes = None, event_id_window = None))]
pub(crate) fn validate(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    kind: &str,
    profile: Option<&str>,
    partial: bool,
    max_document_bytes: Option<u64>,
    event_id_window: Option<usize>,
) -> PyResult<ValidationResult> {
    let options = full_options(profile, partial, max_document_bytes, event_id_window)?;
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
/// or a generator). `kind` is a log kind of the kind table (`map-log`,
/// `sa-log`, `event-log`: lines of any event kind, each validated as its
/// own kind), the same without `-log` (`map`, `sa`, `event`), or `"auto"`
/// (the first lines tell which). `profile`, `partial` and
/// `event_id_window` as for `validate`.
#[pyfunction]
#[pyo3(signature = (source, kind = "map", profile = None, partial = false, *, event_id_window = None))]
pub(crate) fn validate_log(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    kind: &str,
    profile: Option<&str>,
    partial: bool,
    event_id_window: Option<usize>,
) -> PyResult<ValidationResult> {
    let options = full_options(profile, partial, None, event_id_window)?;
    let kind = log_kind(kind)?;
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

/// A log kind of the table by its name or its name without `-log`;
/// `None` for `auto`.
fn log_kind(name: &str) -> PyResult<Option<&'static DocKind>> {
    if name == AUTO {
        return Ok(None);
    }
    let logs = || KINDS.iter().copied().filter(|k| k.is_log());
    logs()
        .find(|k| k.name == name || k.name.strip_suffix("-log") == Some(name))
        .map(Some)
        .ok_or_else(|| {
            let names: Vec<&str> = logs().map(|k| k.name).collect();
            PyValueError::new_err(format!(
                "unknown log kind `{name}`, expected one of: {AUTO}, {} (or the same without `-log`)",
                names.join(", ")
            ))
        })
}

pub(crate) fn is_path_like(value: &Bound<'_, PyAny>) -> PyResult<bool> {
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

/// The kind table, one dict per row in the CLI's order: `name`,
/// `description`, `shape` (`"document"` or `"log"`), `event` (a kind an
/// event log's line may be) and `line_kind` (for logs: the kind of each
/// line, None when each line is of its own kind).
#[pyfunction]
pub(crate) fn kind_table<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for kind in KINDS {
        let d = PyDict::new(py);
        d.set_item("name", kind.name)?;
        d.set_item("description", kind.description)?;
        d.set_item("shape", if kind.is_log() { "log" } else { "document" })?;
        d.set_item("event", EVENT_KINDS.contains(kind))?;
        d.set_item("line_kind", kind.line_kind.map(|k| k.name))?;
        list.append(d)?;
    }
    Ok(list)
}
