//! `mplp conformance`: runs golden flows (see the `mplp-conformance` crate).

use std::path::Path;
use std::process::ExitCode;

use mplp_conformance::{GlobalInvariants, RunReport, Status};

/// How results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// For people: a line per flow, failures and skip reasons, and counts.
    Text,
    /// One JSON object: `{"flows": [...], "summary": {...}}`.
    Json,
}

/// Arguments of `mplp conformance`.
#[derive(Debug, clap::Args)]
pub(crate) struct ConformanceArgs {
    /// Run only the flow with this directory name.
    #[arg(long, value_name = "NAME")]
    flow: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Exit 1 also when a flow was skipped (only partly checked).
    #[arg(long)]
    deny_skipped: bool,
    /// The global invariants (`*.yaml`, each file's invariants reading the
    /// document its stem names). Default: the `invariants/` directory beside
    /// the flows directory, as in the published `golden/` layout.
    #[arg(long, value_name = "DIR", conflicts_with = "no_global_invariants")]
    global_invariants: Option<String>,
    /// Apply no global invariants.
    #[arg(long)]
    no_global_invariants: bool,
    /// A directory of flows laid out like the published `golden/flows/`, one
    /// flow, or one standalone evidence pack (`manifest.json`, `timeline/`,
    /// ... at its top, as `mplp sa simulate` writes it).
    #[arg(value_name = "DIR")]
    dir: String,
}

/// Runs `mplp conformance`. Exit status: 0 when no flow failed (skipped
/// flows are counted and named, and fail the run only with
/// `--deny-skipped`), 1 when a flow failed, 2 for usage and I/O errors.
pub(crate) fn run(args: &ConformanceArgs) -> ExitCode {
    let options = mplp_conformance::RunOptions {
        only: args.flow.clone(),
        global_invariants: match (&args.global_invariants, args.no_global_invariants) {
            (_, true) => GlobalInvariants::Off,
            (Some(d), false) => GlobalInvariants::Dir(d.into()),
            (None, false) => GlobalInvariants::Beside,
        },
    };
    let report = match mplp_conformance::run_dir_with(Path::new(&args.dir), &options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("mplp conformance: {e}");
            return ExitCode::from(2);
        }
    };
    if report.flows.is_empty() {
        eprintln!("mplp conformance: no flows in `{}`", args.dir);
        return ExitCode::from(2);
    }
    let text = match args.format {
        Format::Text => report.to_text(),
        Format::Json => json(&report),
    };
    let emitted = crate::io::emit(&text);
    if emitted != ExitCode::SUCCESS {
        return emitted;
    }
    let skipped = report.count(Status::Skipped);
    if !report.no_failures() || (args.deny_skipped && skipped > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn json(report: &RunReport) -> String {
    let value = serde_json::json!({
        "flows": report.flows,
        "summary": {
            "flows": report.flows.len(),
            "passed": report.count(Status::Pass),
            "failed": report.count(Status::Fail),
            "skipped": report.count(Status::Skipped),
        },
        "global_invariants": report.global_invariants,
    });
    format!("{value}\n")
}
