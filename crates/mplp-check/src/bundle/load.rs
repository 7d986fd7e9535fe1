//! Bundles read from files: each file validated as `mplp validate` does,
//! then the binding rules over the valid documents.

use std::path::{Path, PathBuf};

use std::ops::ControlFlow;

use mplp_core::{Report, Violation};

use super::{Bundle, BundleReport, Doc, DocumentReport};

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

/// The files of the bundle in directory `dir`: the files `mplp validate`
/// lists there ([`listing::list_dir`](crate::listing::list_dir): every
/// `.json`, `.ndjson` and `.jsonl` file below it, subdirectories included,
/// leaving out `.expect.json` sidecars; links followed, each directory
/// entered once; FIFOs and other special files passed by), in name order.
///
/// # Errors
/// When a directory cannot be listed, a link leads back to a directory
/// being listed, or a link to a file that would be read dangles: the first
/// such problem.
pub fn files_in(dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let listing = crate::listing::list_dir(dir);
    let mut found = Vec::new();
    for entry in listing.entries {
        match entry {
            crate::listing::Listed::File(path) => found.push(path),
            crate::listing::Listed::Problem { path, violation } if violation.is_error() => {
                return Err(LoadError {
                    path,
                    source: std::io::Error::other(violation.message),
                });
            }
            crate::listing::Listed::Problem { .. } => {}
        }
    }
    found.sort();
    Ok(found)
}

/// Validates the bundle in directory `dir` ([`files_in`], [`check_files`]).
///
/// ```
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
///     .join("../../schemas/examples/bundles/valid/plan-approved-and-running");
/// let report = mplp_check::bundle::check_dir(&dir)?;
/// assert!(report.is_valid(), "{report:?}");
/// assert_eq!(report.documents.len(), 4);
/// # Ok::<(), mplp_check::bundle::LoadError>(())
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
/// When a file cannot be opened (a read error after that is the file's
/// `io` violation).
pub fn check_files<P: AsRef<Path>>(files: &[P]) -> Result<BundleReport, LoadError> {
    check_files_with(files, &crate::Options::default())
}

/// [`check_files`] with these options: each file checked with them, and
/// the binding rules' findings at the severity their profile gives them.
///
/// # Errors
/// When a file cannot be opened.
pub fn check_files_with<P: AsRef<Path>>(
    files: &[P],
    options: &crate::Options,
) -> Result<BundleReport, LoadError> {
    /// The findings of one file, and its document when it is valid.
    #[derive(Default)]
    struct Found {
        report: Report,
        doc: Option<Doc>,
    }
    impl crate::Sink for Found {
        fn violation(&mut self, v: Violation) -> ControlFlow<()> {
            self.report.push(v);
            ControlFlow::Continue(())
        }
        fn document(&mut self, document: crate::AnyDocument) {
            self.doc = Doc::from_any(document);
        }
    }
    let mut documents = Vec::with_capacity(files.len());
    let mut bundle = Bundle::new();
    let mut in_bundle = Vec::new();
    for path in files {
        let path = path.as_ref();
        let name = path.display().to_string();
        let mut found = Found::default();
        let checked =
            crate::validate_path(None, path, options, &mut found).map_err(load_error(path))?;
        if let Some(doc) = found.doc {
            in_bundle.push(documents.len());
            bundle.add(name.clone(), doc);
        } else if let Some(kind) = checked.kind {
            // An invalid document still binds the others through its id,
            // when that much can be read.
            if let Some(id) = readable_id(path, kind.name, options) {
                bundle.invalid.push(super::Invalid {
                    name: name.clone(),
                    kind: kind.name,
                    id,
                });
            }
        }
        documents.push(DocumentReport {
            name,
            kind: checked.kind.map(|k| k.name),
            report: found.report,
        });
    }
    let bound = bundle.check();
    // `bound` has a report per typed document only.
    for (at, found) in in_bundle.into_iter().zip(bound.documents) {
        for v in found.report {
            documents[at]
                .report
                .push(crate::registry::relax(v, options.profile));
        }
    }
    Ok(BundleReport { documents })
}

/// The id of an invalid document of a bundle kind, when its file is JSON
/// whose id member is a UUID.
fn readable_id(path: &Path, kind: &str, options: &crate::Options) -> Option<mplp_core::MplpId> {
    let pointer = super::id_pointer(kind)?;
    // The dispatch read this file already (and found it too large, or not
    // the kind's JSON): read again only as far as the limit, for its id.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::fs::File::open(path).ok()?, options.max_document_bytes),
        &mut bytes,
    )
    .ok()?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    value.pointer(pointer)?.as_str()?.parse().ok()
}
