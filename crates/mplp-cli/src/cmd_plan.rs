//! `mplp plan ...` subcommands (placeholder until the plan module lands).

use std::process::ExitCode;

/// Subcommands of `mplp plan`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum PlanCommand {}

/// Runs a `mplp plan` subcommand.
pub(crate) fn run(cmd: PlanCommand) -> ExitCode {
    match cmd {}
}
