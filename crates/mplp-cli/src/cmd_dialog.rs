//! `mplp dialog ...` subcommands (placeholder until the dialog module lands).

use std::process::ExitCode;

/// Subcommands of `mplp dialog`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum DialogCommand {}

/// Runs a `mplp dialog` subcommand.
pub(crate) fn run(cmd: DialogCommand) -> ExitCode {
    match cmd {}
}
