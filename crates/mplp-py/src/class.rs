//! What every document class shares: reading a document of its own type
//! through the one dispatch (`mplp_check::validate_source`, with the
//! kind's row of the table), and the [`document_class!`] macro that
//! declares a class with its common methods (`KIND`, the constructor, the
//! id, `check`, `to_json`, `to_dict`, `__repr__`), leaving only the
//! lifecycle operations to each class.

use std::ops::ControlFlow;

use mplp_check::{AnyDocument, DocKind, Options, Sink, Source};
use mplp_core::{Document, Report, Violation};
use pyo3::prelude::*;

use crate::errors::to_py;
use crate::input::{Input, read};
use crate::validate::ValidationResult;

/// A document type of the kind table, as a Python class holds it.
pub(crate) trait Typed: Document + Send + Sized {
    /// Its row of the kind table.
    fn row() -> &'static DocKind;
    /// The document, when the dispatch read one of this type.
    fn take(document: AnyDocument) -> Option<Self>;
}

/// Keeps what the dispatch found, and the document when it is valid.
struct Keep<T> {
    violations: Vec<Violation>,
    doc: Option<T>,
}

impl<T: Typed> Sink for Keep<T> {
    fn violation(&mut self, violation: Violation) -> ControlFlow<()> {
        self.violations.push(violation);
        ControlFlow::Continue(())
    }

    fn document(&mut self, document: AnyDocument) {
        self.doc = T::take(document);
    }
}

/// Reads a document of type `T` from `data` (as `validate` accepts it)
/// through the dispatch, as `mplp validate --kind KIND` would (strict
/// profile): the document when it is valid, else `ValidationError` with
/// every violation. A file is read by the dispatch (its size limit, a
/// byte-order mark skipped with a warning); text is checked in memory.
pub(crate) fn load<T: Typed>(data: &Bound<'_, PyAny>) -> PyResult<T> {
    let py = data.py();
    let options = Options::default();
    let mut keep = Keep::<T> {
        violations: Vec::new(),
        doc: None,
    };
    match read(data)? {
        Input::Json(bytes) => {
            let bytes: &[u8] = &bytes;
            py.detach(|| {
                mplp_check::validate_source(
                    Some(T::row()),
                    Source::text(bytes),
                    &options,
                    &mut keep,
                )
            });
        }
        Input::Path(path) => {
            py.detach(|| mplp_check::validate_path(Some(T::row()), &path, &options, &mut keep))?;
        }
    }
    match keep.doc {
        Some(doc) => Ok(doc),
        None => Err(to_py(py, &mplp_core::Error::Invalid(keep.violations))),
    }
}

/// The dispatch's verdict on `doc` as it is now, under `options`.
pub(crate) fn check<T: Typed>(doc: &T, options: &Options) -> ValidationResult {
    let text = doc.to_json();
    let mut report = Report::new();
    let checked = mplp_check::validate_source(
        Some(T::row()),
        Source::text(text.as_bytes()),
        options,
        &mut report,
    );
    ValidationResult::new(checked.kind, report)
}

/// `json.loads(text)`.
pub(crate) fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// Maps an SDK result into Python, raising `ValidationError`/`TransitionError`.
pub(crate) fn sdk<T>(py: Python<'_>, r: Result<T, mplp_core::Error>) -> PyResult<T> {
    r.map_err(|e| to_py(py, &e))
}

/// Parses a value of a wire enum or an id (`FromStr`), naming the
/// parameter in the `ValueError`.
pub(crate) fn parse<T>(what: &str, text: &str) -> PyResult<T>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    text.parse::<T>()
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("{what} `{text}`: {e}")))
}

/// Any serializable value as a Python value (`json.loads` of its JSON).
pub(crate) fn to_python<'py>(
    py: Python<'py>,
    value: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    loads(py, &text)
}

/// The status of a document class for its `__repr__`, when it has one.
pub(crate) trait StatusText {
    /// The status's wire name; `None` for a document without a lifecycle.
    fn status_text(&self) -> Option<&'static str> {
        None
    }
}

/// Declares a document class: `#[pyclass]` over `doc: $ty`, the
/// [`Typed`] impl from the kind table's row and `AnyDocument` variant, and
/// a `#[pymethods]` block with the common methods, then:
///
/// - with `status:`, the `status` getter;
/// - with `fire: Trigger`, `fire(trigger)`: any trigger of the type's table
///   by its wire name, now (the type's `fire(trigger, at)`);
/// - `ops { name, ... }`: one method per operation of the Rust type that
///   takes nothing (`activate`, `suspend`, ...), each with its doc comment;
/// - the class's own methods (`$body`).
macro_rules! document_class {
    (
        $(#[$meta:meta])*
        $py:ident = $name:literal ($ty:ty, $row:path, $variant:ident),
        id $id:ident: |$d:ident| $id_expr:expr,
        $(status: |$s:ident| $status_expr:expr,)?
        $(fire: $trigger:ty,)?
        ops { $( $(#[$op_meta:meta])* $op:ident ),* $(,)? }
        { $($body:tt)* }
    ) => {
        $(#[$meta])*
        #[pyclass(name = $name, module = "mplp_rs")]
        pub(crate) struct $py {
            pub(crate) doc: $ty,
        }

        impl $crate::class::Typed for $ty {
            fn row() -> &'static mplp_check::DocKind {
                &$row
            }
            fn take(document: mplp_check::AnyDocument) -> Option<Self> {
                match document {
                    mplp_check::AnyDocument::$variant(d) => Some(*d),
                    _ => None,
                }
            }
        }

        impl $crate::class::StatusText for $py {
            $(
                fn status_text(&self) -> Option<&'static str> {
                    let $s = &self.doc;
                    Some($status_expr)
                }
            )?
        }

        #[pymethods]
        impl $py {
            /// The kind's name in the kind table (`validate(kind=...)`).
            #[classattr]
            const KIND: &'static str = <$ty as mplp_core::Document>::KIND;

            #[new]
            fn new(data: &Bound<'_, PyAny>) -> PyResult<Self> {
                Ok($py {
                    doc: $crate::class::load(data)?,
                })
            }

            /// The document's id.
            #[getter]
            fn $id(&self) -> String {
                let $d = &self.doc;
                ($id_expr).to_string()
            }

            $(
                /// The status (its wire name); it changes only through the
                /// lifecycle operations.
                #[getter]
                fn status(&self) -> &'static str {
                    let $s = &self.doc;
                    $status_expr
                }
            )?

            $(
                /// Fires a trigger of the document's transition table by its
                /// wire name, now; `TransitionError` (and nothing changes)
                /// when the table refuses it from the current status.
                fn fire(&mut self, py: Python<'_>, trigger: &str) -> PyResult<()> {
                    let trigger: $trigger = $crate::class::parse("trigger", trigger)?;
                    $crate::class::sdk(py, self.doc.fire(trigger, mplp_core::Timestamp::now()))
                }
            )?

            $(
                $(#[$op_meta])*
                fn $op(&mut self, py: Python<'_>) -> PyResult<()> {
                    $crate::class::sdk(py, self.doc.$op())
                }
            )*

            /// The dispatch's verdict on the document as it is now
            /// (`profile` as for `validate`).
            #[pyo3(signature = (profile = None))]
            fn check(&self, profile: Option<&str>) -> PyResult<$crate::validate::ValidationResult> {
                let options = $crate::validate::options(profile, false)?;
                Ok($crate::class::check(&self.doc, &options))
            }

            /// The document as JSON text, compact or indented.
            #[pyo3(signature = (pretty = false))]
            fn to_json(&self, pretty: bool) -> String {
                if pretty {
                    mplp_core::Document::to_json_pretty(&self.doc)
                } else {
                    mplp_core::Document::to_json(&self.doc)
                }
            }

            /// The document as a dict (`json.loads(doc.to_json())`).
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                $crate::class::loads(py, &mplp_core::Document::to_json(&self.doc))
            }

            fn __repr__(&self) -> String {
                match $crate::class::StatusText::status_text(self) {
                    Some(status) => format!(
                        "{}({}={:?}, status={:?})",
                        $name,
                        stringify!($id),
                        self.$id(),
                        status
                    ),
                    None => format!("{}({}={:?})", $name, stringify!($id), self.$id()),
                }
            }

            $($body)*
        }
    };
}

pub(crate) use document_class;
