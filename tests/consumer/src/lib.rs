//! A downstream user of mplp-rs: the only dependency is `mplp` with its
//! default features; the tests in `tests/` do the README's quick-start tasks.

/// The repository's `schemas/examples` folder, where the tests find real documents.
pub fn examples_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples")
}
