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
    /// An SVG picture, laid out without any system tool.
    Svg,
}

/// Subcommands of `mplp plan`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum PlanCommand {
    /// Draw a plan's steps and dependencies: status as text, shape and
    /// colour, a legend, and the agent role. An invalid plan is drawn too,
    /// with each cycle's edges and each missing dependency marked; its
    /// errors go to standard error and the exit status is 1.
    Render {
        /// The diagram language.
        #[arg(long, value_enum)]
        format: RenderFormat,
        /// The plan document (`-` reads standard input).
        plan: String,
    },
}

/// Runs a `mplp plan` subcommand: exit 0 on success, 1 when the plan is
/// invalid (every error is printed to standard error; a plan whose members
/// can be read is still drawn), 2 on I/O errors.
pub(crate) fn run(cmd: PlanCommand) -> ExitCode {
    match cmd {
        PlanCommand::Render { format, plan } => render(format, &plan),
    }
}

fn render(format: RenderFormat, path: &str) -> ExitCode {
    let bytes = match crate::io::read_input(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("mplp: {e}");
            return ExitCode::from(2);
        }
    };
    let validation = Plan::validate_json(&bytes);
    for v in validation.report.violations() {
        let level = if v.is_error() { "error" } else { "warning" };
        eprintln!("{path}: {level}: {v}");
    }
    let (plan, code) = match validation.into_result() {
        Ok(plan) => (plan, ExitCode::SUCCESS),
        // Invalid: draw it anyway, with what is wrong marked, when its
        // members can be read (a cycle, a missing dependency).
        Err(_) => {
            let unchecked = mplp_json::nesting::from_slice::<serde_json::Value>(&bytes)
                .ok()
                .and_then(|v| <Plan as mplp_core::Wire>::deserialize_unchecked(&v).ok());
            match unchecked {
                Some(plan) => (plan, ExitCode::from(1)),
                None => return ExitCode::from(1),
            }
        }
    };
    let text = match format {
        RenderFormat::Mermaid => mplp_plan::render::mermaid(&plan),
        RenderFormat::Dot => mplp_plan::render::dot(&plan),
        RenderFormat::Svg => mplp_plan::render::svg(&plan),
    };
    match crate::io::emit(&text) {
        c if c == ExitCode::SUCCESS => code,
        c => c,
    }
}
