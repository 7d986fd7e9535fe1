//! `mplp plan ...` subcommands.

use std::process::ExitCode;

use mplp_core::Document;
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
    let bytes = match crate::io::read_input(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("mplp: {e}");
            return ExitCode::from(2);
        }
    };
    let validation = Plan::validate_json(&bytes);
    for warning in validation.report.warnings() {
        eprintln!("{path}: warning: {warning}");
    }
    let plan = match validation.into_result() {
        Ok(plan) => plan,
        Err(e) => {
            for v in e.violations() {
                eprintln!("{path}: error: {v}");
            }
            return ExitCode::from(1);
        }
    };
    let text = match format {
        RenderFormat::Mermaid => mplp_plan::render::mermaid(&plan),
        RenderFormat::Dot => mplp_plan::render::dot(&plan),
    };
    print!("{text}");
    ExitCode::SUCCESS
}
