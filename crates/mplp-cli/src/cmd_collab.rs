//! `mplp collab ...` subcommands (placeholder until the collab module lands).

use std::process::ExitCode;

/// Subcommands of `mplp collab`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum CollabCommand {}

/// Runs a `mplp collab` subcommand.
pub(crate) fn run(cmd: CollabCommand) -> ExitCode {
    match cmd {}
}
