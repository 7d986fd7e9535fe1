//! `mplp validate`: checks documents and event logs.
//!
//! Everything streams: logs are read line by line (from files, standard
//! input or pipes alike) and each violation is printed as soon as it is
//! found, so memory is bounded by what the log validator must remember (open
//! sessions, turns, broadcasts), never by the input's size or by the number
//! of violations. Documents (not logs) are read whole, up to
//! `--max-document-bytes`. Listing a directory follows symbolic links but
//! never twice into the same directory, and never opens what is not a
//! regular file (see [`crate::inputs`]).

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use mplp_check::{AUTO, DEFAULT_EVENT_ID_WINDOW, DEFAULT_MAX_DOCUMENT_BYTES, DocKind, KINDS};
use mplp_core::Severity;
use mplp_core::rules::INPUT_SKIPPED;

use crate::inputs::{Input, expand};
use crate::report::{FileReport, Limit};

/// `--kind`: a kind of the library's table, or `None` for `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindArg(Option<&'static DocKind>);

/// The values of `--kind`, with their help, from the library's kinds table.
fn kind_parser() -> impl TypedValueParser<Value = KindArg> {
    let auto = PossibleValue::new(AUTO).help(mplp_check::auto_description());
    let kinds = KINDS
        .iter()
        .map(|k| PossibleValue::new(k.name).help(k.description));
    // The parser admits only the names above, each of which parses.
    PossibleValuesParser::new(std::iter::once(auto).chain(kinds))
        .map(|name| KindArg(mplp_check::parse_or_auto(&name).ok().flatten()))
}

/// How results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// For people: one error a line, and a summary.
    Text,
    /// One JSON object per file, one per line (see the README).
    Json,
}

/// Which rules are errors (see `mplp_core::rules` and the compat policy in
/// docs/spec-notes.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ProfileArg {
    /// Every rule at the SDK's severity (the default).
    Strict,
    /// Only the canonical schema, frozen invariants, profile and seed MUST
    /// rules are errors; SDK rules are at most warnings.
    Canonical,
}

impl ProfileArg {
    pub(crate) fn profile(self) -> mplp_core::rules::Profile {
        match self {
            ProfileArg::Strict => mplp_core::rules::Profile::Strict,
            ProfileArg::Canonical => mplp_core::rules::Profile::Canonical,
        }
    }
}

/// The default of `--max-errors` in text mode (JSON: all).
pub(crate) const DEFAULT_TEXT_MAX_ERRORS: u64 = 100;

/// Arguments of `mplp validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct ValidateArgs {
    /// Which rules are errors: `strict` (the SDK's rules) or `canonical`
    /// (schema, frozen invariants, profile and seed MUST rules only).
    #[arg(long, value_enum, default_value = "strict")]
    profile: ProfileArg,
    /// The kind of the documents.
    #[arg(long, value_parser = kind_parser(), default_value = AUTO)]
    kind: KindArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Logs still being written: what is open at the end of a log (sessions
    /// or runs, turns, broadcasts, conflicts, steps) is a warning, not an
    /// error.
    #[arg(long, alias = "in-progress")]
    partial: bool,
    /// Print at most N errors and N warnings per file (`all`: no limit); the
    /// rest are counted. Default: 100 in text, all in JSON.
    #[arg(long, value_name = "N|all", allow_negative_numbers = true, value_parser = parse_limit)]
    max_errors: Option<Limit>,
    /// Refuse documents (not logs) larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_DOCUMENT_BYTES, allow_negative_numbers = true, value_parser = crate::args::counts::<u64>(0, "bytes"))]
    max_document_bytes: u64,
    /// Find repeated event ids in logs within this many events (0: not at
    /// all); memory is about 32 bytes per id of the window.
    #[arg(long, value_name = "EVENTS", default_value_t = DEFAULT_EVENT_ID_WINDOW, allow_negative_numbers = true, value_parser = crate::args::counts::<usize>(0, "events"))]
    event_id_window: usize,
    /// Validate the files together as one bundle (the documents of one
    /// piece of work): each file as alone, plus the rules that bind them
    /// (a plan's Context and Confirm, a trace's plan, ...).
    #[arg(long)]
    bundle: bool,
    /// Files to check (`-` reads standard input; a directory is searched
    /// for `.json` and `.ndjson` files, in name order).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
}

impl ValidateArgs {
    /// The dispatch's options from the flags.
    fn options(&self) -> mplp_check::Options {
        mplp_check::Options::default()
            .profile(self.profile.profile())
            .partial(self.partial)
            .event_id_window(self.event_id_window)
            .max_document_bytes(self.max_document_bytes)
    }
}

fn parse_limit(s: &str) -> Result<Limit, String> {
    if s == "all" {
        return Ok(Limit::All);
    }
    crate::args::count(s, u64::MAX, "findings per file")
        .map(Limit::At)
        .map_err(|e| format!("{e}, or `all` for no limit"))
}

/// What the whole run found, for the summary line and the exit status.
#[derive(Default)]
struct Totals {
    files: usize,
    valid: usize,
    invalid: usize,
    unreadable: usize,
    /// Inputs not opened (`input-skipped`): neither valid nor invalid.
    skipped: usize,
    errors: u64,
    warnings: u64,
}

/// Runs `mplp validate`.
pub(crate) fn run(args: &ValidateArgs) -> ExitCode {
    let mut inputs = Vec::new();
    for f in &args.files {
        let before = inputs.len();
        let passed = expand(f, &mut inputs);
        if inputs.len() == before {
            eprintln!(
                "mplp validate: warning: directory `{f}` holds no `.json`, `.ndjson` or `.jsonl` file; nothing in it was checked"
            );
        }
        if !passed.is_empty() {
            eprintln!("mplp validate: note: `{f}`: {}", passed.describe());
        }
    }
    if inputs.is_empty() {
        eprintln!("mplp validate: nothing to check (every directory named is empty)");
        return ExitCode::from(2);
    }
    // A bundle: every file read and bound first (the binding rules need all
    // the documents), then one record per file, as without `--bundle`.
    let bundle = if args.bundle {
        match check_bundle(&inputs, &args.options()) {
            Ok(found) => Some(found),
            Err(message) => {
                eprintln!("mplp validate: {message}");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    let limit = args.max_errors.unwrap_or(match args.format {
        Format::Text => Limit::At(DEFAULT_TEXT_MAX_ERRORS),
        Format::Json => Limit::All,
    });
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut totals = Totals::default();
    for input in &inputs {
        // Not opened (a FIFO, a socket, a device, a directory reached
        // twice): counted apart, never as valid. Text says so in the
        // verdict line; JSON keeps its record (the `input-skipped` warning).
        let skipped =
            matches!(input, Input::Problem { violation, .. } if violation.rule == INPUT_SKIPPED);
        if let Input::Problem { violation, .. } = input {
            if skipped && args.format == Format::Text {
                totals.skipped += 1;
                if writeln!(
                    out,
                    "{}: SKIPPED: {} [{}]",
                    input.name(),
                    violation.message,
                    violation.rule
                )
                .and_then(|()| out.flush())
                .is_err()
                {
                    return output_error();
                }
                continue;
            }
        }
        let mut report = FileReport::new(
            &mut out,
            args.format == Format::Json,
            "validate",
            input.name(),
            limit,
        );
        // `Break` stops a file's checks when its output fails; the outcome
        // says so (`write_failed`), which is what ends the run.
        let _ = match &bundle {
            Some(found) => found.iter().find(|d| d.name == input.name()).map_or(
                ControlFlow::Continue(()),
                |d| {
                    report.set_kind(d.kind.unwrap_or(AUTO));
                    d.report
                        .violations()
                        .iter()
                        .try_for_each(|v| report.violation(v.clone()))
                },
            ),
            None => check(input, args, &mut report),
        };
        let done = report.finish();
        let Ok(outcome) = done else {
            return output_error();
        };
        if outcome.write_failed {
            return output_error();
        }
        if skipped {
            totals.skipped += 1;
            if out.flush().is_err() {
                return output_error();
            }
            continue;
        }
        totals.files += 1;
        totals.errors += outcome.errors;
        totals.warnings += outcome.warnings;
        if outcome.unreadable {
            totals.unreadable += 1;
        } else if outcome.errors == 0 {
            totals.valid += 1;
        } else {
            totals.invalid += 1;
        }
        // Each file's record is out before the next file is opened (a
        // reader of the stream sees it at once, and a FIFO does not wait).
        if out.flush().is_err() {
            return output_error();
        }
    }
    if args.format == Format::Text {
        let t = &totals;
        let _ = writeln!(
            out,
            "{} file{} checked: {} valid, {} invalid{}; {} error{}, {} warning{}{}",
            t.files,
            plural(t.files as u64),
            t.valid,
            t.invalid,
            if t.unreadable > 0 {
                format!(", {} unreadable", t.unreadable)
            } else {
                String::new()
            },
            t.errors,
            plural(t.errors),
            t.warnings,
            plural(t.warnings),
            if t.skipped > 0 {
                format!("; {} skipped (not opened)", t.skipped)
            } else {
                String::new()
            },
        );
    }
    if out.flush().is_err() {
        return output_error();
    }
    if totals.files == 0 {
        // Everything named was skipped (not opened): nothing was checked.
        eprintln!(
            "mplp validate: nothing was checked ({} input{} skipped without being opened)",
            totals.skipped,
            plural(totals.skipped as u64)
        );
        ExitCode::from(2)
    } else if totals.unreadable > 0 {
        ExitCode::from(2)
    } else if totals.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn output_error() -> ExitCode {
    eprintln!("mplp validate: cannot write the output (standard output closed or full)");
    ExitCode::from(2)
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Checks one input through the one dispatch, handing every violation to
/// `report` as it is found.
fn check<W: Write>(
    input: &Input,
    args: &ValidateArgs,
    report: &mut FileReport<'_, W>,
) -> ControlFlow<()> {
    use mplp_check::Sink as _;
    let options = args.options();
    let name = input.name();
    let checked = match input {
        Input::Problem { violation, .. } if violation.severity == Severity::Error => {
            return report.unreadable(violation.clone());
        }
        // Not opened (`input-skipped`, a warning): not checked, so its JSON
        // record says `"valid": false`, as it counts as neither valid nor
        // invalid in the summary.
        Input::Problem { violation, .. } => return report.unreadable(violation.clone()),
        Input::Stdin => {
            let stdin = BufReader::with_capacity(1 << 16, std::io::stdin().lock());
            mplp_check::validate_source(
                args.kind.0,
                mplp_check::Source::stream(&name, stdin),
                &options,
                report,
            )
        }
        Input::File(path) => {
            let file = match File::open(path) {
                Ok(f) => f,
                Err(e) => {
                    return report.unreadable(crate::inputs::io_violation(
                        &format!("cannot read `{name}`"),
                        &e,
                    ));
                }
            };
            let len = file
                .metadata()
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len());
            let reader = BufReader::with_capacity(1 << 16, file);
            let text = args.format == Format::Text;
            let reader: Box<dyn BufRead> = match crate::progress::for_file(path, &name, text) {
                Some(bar) => Box::new(bar.wrap_read(reader)),
                None => Box::new(reader),
            };
            mplp_check::validate_source(
                args.kind.0,
                mplp_check::Source::file(&name, len, reader),
                &options,
                report,
            )
        }
    };
    if checked.stopped {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

/// Checks the inputs as one bundle (`--bundle`): each file's own findings
/// and its bindings', by file name.
///
/// # Errors
/// When an input is standard input or cannot be read (the message).
fn check_bundle(
    inputs: &[Input],
    options: &mplp_check::Options,
) -> Result<Vec<mplp_check::bundle::DocumentReport>, String> {
    let mut files = Vec::with_capacity(inputs.len());
    for input in inputs {
        match input {
            Input::File(path) => files.push(path.clone()),
            Input::Stdin => return Err("--bundle reads files, not standard input".to_owned()),
            Input::Problem { violation, .. } => return Err(violation.message.clone()),
        }
    }
    let report = mplp_check::bundle::check_files_with(&files, options)
        .map_err(|e| format!("{e}: {}", e.source))?;
    Ok(report.documents)
}
