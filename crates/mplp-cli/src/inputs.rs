//! What `mplp validate` and `mplp report` check: their arguments, with
//! directories listed by [`mplp_check::listing`] (a FIFO named on the
//! command line is read, as standard input is).

use std::path::{Path, PathBuf};

use mplp_check::listing::{Listed, Passed};
use mplp_core::Violation;

pub(crate) use mplp_check::listing::io_violation;

/// One thing to check.
pub(crate) enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file (or a FIFO named on the command line).
    File(PathBuf),
    /// Something that cannot be checked, with the violation that says why
    /// (an `io` error, or an `input-skipped` warning).
    Problem {
        /// The path, lossily shown.
        name: String,
        /// Why.
        violation: Violation,
    },
}

impl Input {
    /// The name shown in reports: `-`, or the path as given (lossily).
    pub(crate) fn name(&self) -> String {
        match self {
            Input::Stdin => "-".to_owned(),
            Input::File(p) => p.display().to_string(),
            Input::Problem { name, .. } => name.clone(),
        }
    }
}

/// Adds `arg` to `inputs`, or what a directory holds; returns the regular
/// files a directory's listing passed by.
pub(crate) fn expand(arg: &str, inputs: &mut Vec<Input>) -> Passed {
    if arg == "-" {
        inputs.push(Input::Stdin);
        return Passed::default();
    }
    let path = Path::new(arg);
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            let listing = mplp_check::listing::list_dir(path);
            inputs.extend(listing.entries.into_iter().map(|e| match e {
                Listed::File(p) => Input::File(p),
                Listed::Problem { path, violation } => Input::Problem {
                    name: path.display().to_string(),
                    violation,
                },
            }));
            listing.passed
        }
        // A file, a FIFO, or something that cannot be opened: opening it
        // tells (and reports the operating system's error).
        _ => {
            inputs.push(Input::File(path.to_owned()));
            Passed::default()
        }
    }
}
