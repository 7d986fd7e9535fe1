//! A directory of files written for one test (shared by the unit tests of
//! `src/pack.rs` and by `tests/flows.rs`).

use std::path::PathBuf;

/// `files` (relative path, text) written into a fresh directory
/// `mplp-{what}-{pid}-{name}` under the system's temporary directory.
pub(crate) fn write_tree(what: &str, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mplp-{what}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (rel, text) in files {
        let path = dir.join(rel);
        #[allow(clippy::unwrap_used)]
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        #[allow(clippy::unwrap_used)]
        std::fs::write(path, text).unwrap();
    }
    dir
}
