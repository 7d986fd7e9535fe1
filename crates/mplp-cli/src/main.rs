//! `mplp`: validate, render, convert and simulate MPLP v1.0.0 documents.
//!
//! ```text
//! mplp validate [--profile strict|canonical] [--kind KIND] [--format text|json] [--partial]
//!               [--max-errors N|all] [--bundle] FILE...        (`-` reads standard input)
//! mplp plan render --format mermaid|dot|svg PLAN
//! mplp dialog convert|prune|fork|send|overview ... DIALOG
//! mplp collab render --format mermaid|svg LOG
//! mplp collab simulate --mode MODE --participants N --turns T [--seed S] [--plan PLAN]
//! mplp sa simulate [--out DIR | --resume DIR] [--seed S] [--fail-step STEP_ID] [PLAN]
//! mplp conformance [--flow NAME] [--format text|json] [--deny-skipped] DIR
//! mplp report [--output FILE] [--max-errors N] FILE...
//! mplp completions SHELL
//! mplp man [--out-dir DIR]
//! mplp watch [--kind auto|map-log|sa-log] [--follow] [--idle-timeout SECONDS] [--partial] LOG [SUBJECT]
//! ```
//!
//! Every option of every command: the README's synopsis (checked against
//! this parser by `tests/readme_synopsis.rs`) or `mplp COMMAND --help`.
//!
//! Exit status: 0 when every file is valid (or the command succeeded), 1 when
//! any file is invalid, 2 for usage and I/O errors.
//!
//! The command line is parsed with `clap` (derive): it gives `--help`,
//! usage errors with exit status 2 and shell-friendly conventions for free,
//! which a hand-written parser would only imitate.

mod args;
mod cmd_collab;
mod cmd_conformance;
mod cmd_dialog;
mod cmd_plan;
mod cmd_report;
mod cmd_sa;
mod cmd_shell;
mod inputs;
mod progress;
mod report;
mod validate;
mod watch;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Validate, render, convert and simulate MPLP v1.0.0 documents.
#[derive(Debug, Parser)]
#[command(name = "mplp", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check documents and event logs against the MPLP v1.0.0 schemas and rules.
    Validate(validate::ValidateArgs),
    /// Work with Plan documents.
    #[command(subcommand)]
    Plan(cmd_plan::PlanCommand),
    /// Work with Dialog documents.
    #[command(subcommand)]
    Dialog(cmd_dialog::DialogCommand),
    /// Work with Collab sessions.
    #[command(subcommand)]
    Collab(cmd_collab::CollabCommand),
    /// Run plans under the SA profile into evidence packs.
    #[command(subcommand)]
    Sa(cmd_sa::SaCommand),
    /// Run golden flows: module validation, invariants.yaml, evidence packs.
    Conformance(cmd_conformance::ConformanceArgs),
    /// Write one self-contained HTML page: each file's verdict, its errors
    /// and warnings (click a pointer for its JSON), and its picture (a plan's
    /// DAG, a MAP log's session) inline as SVG.
    Report(cmd_report::ReportArgs),
    /// Print the shell completion script for bash, zsh, fish, elvish or PowerShell.
    Completions(cmd_shell::CompletionsArgs),
    /// Print the manual page (roff), or write one page per command with `--out-dir`.
    Man(cmd_shell::ManArgs),
    /// Validate a MAP or SA log while it is written (standard input, or a file with --follow).
    Watch(watch::WatchArgs),
}

/// What `mplp --version` prints after `mplp `: the SDK's version, then
/// what it implements of MPLP.
fn version_text() -> String {
    use mplp_core::protocol as p;
    let frozen = {
        let mut ids: Vec<&str> = mplp_check::all_rules()
            .filter_map(|r| match r.source {
                mplp_core::rules::Source::Invariant { id, .. } => Some(id),
                _ => None,
            })
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    };
    format!(
        "{}\nprotocol: MPLP {} (frozen {})\nschema bundle: {} ({})\ninvariant bundle: {} ({frozen} frozen invariants)",
        env!("CARGO_PKG_VERSION"),
        p::PROTOCOL_VERSION,
        p::FREEZE_DATE,
        p::SCHEMA_BUNDLE_VERSION,
        p::SCHEMA_BUNDLE_HASH,
        p::INVARIANT_BUNDLE_VERSION,
    )
}

fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().version(version_text()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match cli.command {
        Command::Validate(args) => validate::run(&args),
        Command::Plan(cmd) => cmd_plan::run(cmd),
        Command::Dialog(cmd) => cmd_dialog::run(cmd),
        Command::Collab(cmd) => cmd_collab::run(cmd),
        Command::Sa(cmd) => cmd_sa::run(cmd),
        Command::Conformance(args) => cmd_conformance::run(&args),
        Command::Report(args) => cmd_report::run(&args),
        Command::Completions(args) => cmd_shell::completions(&args),
        Command::Man(args) => cmd_shell::man(&args),
        Command::Watch(args) => watch::run(&args),
    }
}

/// Shared helpers for subcommands: reading input documents and writing output.
pub(crate) mod io {
    use std::io::Write;
    use std::process::ExitCode;

    use mplp_core::Document;

    /// Reads a whole document from a file, or standard input for `-`,
    /// refusing one larger than [`mplp_check::DEFAULT_MAX_DOCUMENT_BYTES`]
    /// (256 MiB) without reading more than that. A UTF-8 byte-order mark at
    /// the start is dropped with an `input-bom` warning on standard error.
    pub(crate) fn read_input(path: &str) -> Result<Vec<u8>, String> {
        let max = mplp_check::DEFAULT_MAX_DOCUMENT_BYTES;
        let read = if path == "-" {
            mplp_check::read_capped(std::io::stdin().lock(), max)
        } else {
            std::fs::File::open(path).and_then(|f| mplp_check::read_capped(f, max))
        };
        let name = if path == "-" {
            "standard input".to_owned()
        } else {
            format!("`{path}`")
        };
        let mut buf = read
            .map_err(|e| format!("cannot read {name}: {e}"))?
            .ok_or_else(|| {
                format!("{name} is larger than {max} bytes, the limit for one document")
            })?;
        let (_, bom) = mplp_core::document::strip_bom(&buf);
        if bom {
            let w = mplp_core::document::bom_warning();
            eprintln!("{path}: warning: {w}");
            buf.drain(..mplp_core::document::UTF8_BOM.len());
        }
        Ok(buf)
    }

    /// Reads and validates the document of type `T` at `path` (`-` for
    /// standard input), printing its warnings to standard error. On failure
    /// the errors are printed and the exit status is returned: 2 when the
    /// input cannot be read, 1 when it is not a valid document.
    pub(crate) fn load<T: Document>(path: &str) -> Result<T, ExitCode> {
        let bytes = read_input(path).map_err(|e| {
            eprintln!("mplp: {e}");
            ExitCode::from(2)
        })?;
        let validation = T::validate_json(&bytes);
        for warning in validation.report.warnings() {
            eprintln!("{path}: warning: {warning}");
        }
        validation.into_result().map_err(|e| {
            for v in e.violations() {
                eprintln!("{path}: error: {v}");
            }
            ExitCode::from(1)
        })
    }

    /// Writes `text` to standard output: exit 0, or 2 with a message when
    /// standard output is closed or full (a closed pipe is not a panic).
    pub(crate) fn emit(text: &str) -> ExitCode {
        emit_with(|out| out.write_all(text.as_bytes()))
    }

    /// [`emit`] for output written piece by piece (never held whole):
    /// `write` writes to buffered standard output, which is then flushed.
    pub(crate) fn emit_with(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> ExitCode {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        match write(&mut out).and_then(|()| out.flush()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("mplp: cannot write the output: {e}");
                ExitCode::from(2)
            }
        }
    }
}
