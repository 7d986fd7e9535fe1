//! Bundles read from files: each file validated as `mplp validate` does,
//! then the binding rules over the valid documents.

use std::path::{Path, PathBuf};

use mplp_collab::Collab;
use mplp_confirm::Confirm;
use mplp_context::Context;
use mplp_core::{Document, Report};
use mplp_dialog::Dialog;
use mplp_kinds::DocKind;
use mplp_plan::Plan;
use mplp_trace::Trace;

use crate::{Bundle, BundleReport, Doc, DocumentReport};

/// A file of a bundle that cannot be listed or read.
#[derive(Debug)]
#[non_exhaustive]
pub struct LoadError {
    /// The file or directory.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read `{}`", self.path.display())
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

fn load_error(path: &Path) -> impl FnOnce(std::io::Error) -> LoadError + '_ {
    move |source| LoadError {
        path: path.to_path_buf(),
        source,
    }
}

/// The files of the bundle in directory `dir`: every `.json` and `.ndjson`
/// file below it (subdirectories included), in name order, leaving out
/// `.expect.json` sidecars.
///
/// # Errors
/// When a directory cannot be listed.
pub fn files_in(dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let mut found = Vec::new();
    walk(dir, &mut found)?;
    found.sort();
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), LoadError> {
    for entry in std::fs::read_dir(dir).map_err(load_error(dir))? {
        let path = entry.map_err(load_error(dir))?.path();
        if path.is_dir() {
            walk(&path, found)?;
        } else {
            let name = path.to_string_lossy();
            if (name.ends_with(".json") || name.ends_with(".ndjson"))
                && !name.ends_with(".expect.json")
            {
                found.push(path);
            }
        }
    }
    Ok(())
}

/// Validates the bundle in directory `dir` ([`files_in`], [`check_files`]).
///
/// ```
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
///     .join("../../schemas/examples/bundles/valid/plan-approved-and-running");
/// let report = mplp_bundle::check_dir(&dir)?;
/// assert!(report.is_valid(), "{report:?}");
/// assert_eq!(report.documents.len(), 4);
/// # Ok::<(), mplp_bundle::LoadError>(())
/// ```
///
/// # Errors
/// When a directory cannot be listed or a file cannot be read.
pub fn check_dir(dir: &Path) -> Result<BundleReport, LoadError> {
    check_files(&files_in(dir)?)
}

/// Validates the files of a bundle: each one as `mplp validate` does (its
/// kind recognised from its members, `.ndjson` files as logs), then the
/// binding rules over the documents that have no error of their own (a
/// document with errors binds nothing; its errors are reported). Each
/// file's report holds its own findings first, then its bindings'.
///
/// # Errors
/// When a file cannot be read.
pub fn check_files<P: AsRef<Path>>(files: &[P]) -> Result<BundleReport, LoadError> {
    let mut documents = Vec::with_capacity(files.len());
    let mut bundle = Bundle::new();
    let mut in_bundle = Vec::new();
    for path in files {
        let path = path.as_ref();
        let name = path.display().to_string();
        let (kind, report, doc) = if mplp_kinds::is_log_file_name(&name) {
            let (kind, report) = mplp_kinds::validate_file(None, path).map_err(load_error(path))?;
            (kind, report, None)
        } else {
            let bytes = std::fs::read(path).map_err(load_error(path))?;
            // A byte-order mark is skipped with a warning, as `validate_file` does.
            let (json, bom) = mplp_core::document::strip_bom(&bytes);
            let (kind, found, doc) = read_document(json);
            let mut report = Report::new();
            if bom {
                report.push(mplp_core::document::bom_warning());
            }
            report.extend(found);
            (kind, report, doc)
        };
        if let Some(doc) = doc {
            in_bundle.push(documents.len());
            bundle.add(name.clone(), doc);
        }
        documents.push(DocumentReport {
            name,
            kind: kind.map(|k| k.name),
            report,
        });
    }
    let bound = bundle.check();
    for (at, found) in in_bundle.into_iter().zip(bound.documents) {
        documents[at].report.extend(found.report);
    }
    Ok(BundleReport { documents })
}

/// Validates one document; the typed value too when it is of a bundle kind
/// and has no error.
fn read_document(bytes: &[u8]) -> (Option<&'static DocKind>, Report, Option<Doc>) {
    fn typed<T: Document + Into<Doc>>(bytes: &[u8]) -> (Report, Option<Doc>) {
        let v = T::validate_json(bytes);
        (v.report, v.value.map(Into::into))
    }
    let kind = match mplp_kinds::detect(bytes) {
        Ok(k) => k,
        Err(v) => {
            let mut report = Report::new();
            report.push(v);
            return (None, report, None);
        }
    };
    let (report, doc) = if *kind == mplp_kinds::CONTEXT {
        typed::<Context>(bytes)
    } else if *kind == mplp_kinds::PLAN {
        typed::<Plan>(bytes)
    } else if *kind == mplp_kinds::CONFIRM {
        typed::<Confirm>(bytes)
    } else if *kind == mplp_kinds::TRACE {
        typed::<Trace>(bytes)
    } else if *kind == mplp_kinds::COLLAB {
        typed::<Collab>(bytes)
    } else if *kind == mplp_kinds::DIALOG {
        typed::<Dialog>(bytes)
    } else {
        (kind.validate(bytes), None)
    };
    (Some(kind), report, doc)
}
