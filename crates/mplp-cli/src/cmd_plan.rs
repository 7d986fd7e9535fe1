//! `mplp plan ...` subcommands.

use std::process::ExitCode;

use mplp_plan::Plan;

/// The diagram languages of `mplp plan render`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum RenderFormat {
    /// A Mermaid flowchart.
    Mermaid,
    /// A Graphviz digraph.
    Dot,
}

/// Subcommands of `mplp plan`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum PlanCommand {
    /// Draw a plan's steps and dependencies, coloured by status.
    Render {
        /// The diagram language.
        #[arg(long, value_enum)]
        format: RenderFormat,
        /// The plan document (`-` reads standard input).
        plan: String,
    },
}

/// Runs a `mplp plan` subcommand: exit 0 on success, 1 when the plan is
/// invalid (every error is printed to standard error), 2 on I/O errors.
pub(crate) fn run(cmd: PlanCommand) -> ExitCode {
    match cmd {
        PlanCommand::Render { format, plan } => render(format, &plan),
    }
}

fn render(format: RenderFormat, path: &str) -> ExitCode {
    let plan: Plan = match crate::io::load(path) {
        Ok(plan) => plan,
        Err(code) => return code,
    };
    let text = match format {
        RenderFormat::Mermaid => mplp_plan::render::mermaid(&plan),
        RenderFormat::Dot => mplp_plan::render::dot(&plan),
    };
    crate::io::emit(&text)
}
