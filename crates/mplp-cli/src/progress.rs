//! A progress bar on standard error while `mplp validate` reads a large
//! file (`indicatif`): only when standard error is a terminal and the output
//! is text, never in pipes, files or JSON mode, so nothing a program reads
//! changes. Files of at least [`DEFAULT_THRESHOLD`] bytes get one
//! (`MPLP_PROGRESS_BYTES` sets another threshold).

use std::io::IsTerminal;
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

/// Files this large or larger get a bar: 32 MiB, about a second of
/// validation for a log in a debug build, a fraction of one in release.
pub(crate) const DEFAULT_THRESHOLD: u64 = 32 << 20;

/// The bar for reading the file at `path` (`name` as shown), or `None`
/// when no bar is wanted.
pub(crate) fn for_file(path: &Path, name: &str, text_output: bool) -> Option<ProgressBar> {
    if !text_output || !std::io::stderr().is_terminal() {
        return None;
    }
    let threshold = std::env::var("MPLP_PROGRESS_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_THRESHOLD);
    let len = std::fs::metadata(path).ok().filter(|m| m.is_file())?.len();
    if !wants_bar(len, threshold) {
        return None;
    }
    let style = ProgressStyle::with_template(
        "checking {msg} [{bar:30}] {bytes}/{total_bytes} ({eta} left)",
    )
    .ok()?
    .progress_chars("=> ");
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
        .with_style(style)
        .with_message(name.to_owned())
        .with_finish(ProgressFinish::AndClear);
    Some(bar)
}

/// Whether a file of `len` bytes gets a bar: at least `threshold` bytes.
fn wants_bar(len: u64, threshold: u64) -> bool {
    len >= threshold
}

#[cfg(test)]
mod tests {
    use super::{DEFAULT_THRESHOLD, wants_bar};

    #[test]
    fn files_of_at_least_the_threshold_get_a_bar() {
        assert_eq!(DEFAULT_THRESHOLD, 32 * 1024 * 1024);
        assert!(!wants_bar(DEFAULT_THRESHOLD - 1, DEFAULT_THRESHOLD));
        assert!(wants_bar(DEFAULT_THRESHOLD, DEFAULT_THRESHOLD));
        assert!(wants_bar(DEFAULT_THRESHOLD + 1, DEFAULT_THRESHOLD));
        assert!(wants_bar(0, 0));
    }
}
