//! Helpers shared by the cross-crate tests: finding the example documents and
//! their kinds.

use std::path::{Path, PathBuf};

/// The repository's `schemas/examples` folder.
pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/examples")
}

/// Every `.json`/`.ndjson` example (not the `.expect.json` sidecars) directly in `dir`, sorted.
pub fn example_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.to_string_lossy();
                    (name.ends_with(".json") || name.ends_with(".ndjson"))
                        && !name.ends_with(".expect.json")
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

pub use mplp_check::{DocKind, KINDS};

/// The kind of an example from its file name (the kinds table of
/// `mplp-check`, which the CLI and xtask read too).
pub fn kind_of(path: &Path) -> Option<&'static DocKind> {
    mplp_check::for_example(path.file_name()?.to_str()?)
}

/// The single-document kinds (not the logs).
pub fn document_kinds() -> impl Iterator<Item = &'static DocKind> {
    KINDS.iter().copied().filter(|k| !k.is_log())
}
