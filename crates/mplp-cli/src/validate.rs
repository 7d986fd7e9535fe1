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

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use mplp_core::rules::RuleInfo;
use mplp_core::{Report, Severity, Violation};
use mplp_events::log::LogOptions;
use mplp_kinds::{AUTO, DocKind, KINDS};

use crate::inputs::{Input, expand};
use crate::report::{FileReport, Limit};

/// `--kind`: a kind of the library's table, or `None` for `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindArg(Option<&'static DocKind>);

impl KindArg {
    pub(crate) fn as_str(self) -> &'static str {
        self.0.map_or(AUTO, |k| k.name)
    }
}

/// The values of `--kind`, with their help, from the library's kinds table.
fn kind_parser() -> impl TypedValueParser<Value = KindArg> {
    let auto = PossibleValue::new(AUTO).help(mplp_kinds::auto_description());
    let kinds = KINDS
        .iter()
        .map(|k| PossibleValue::new(k.name).help(k.description));
    // The parser admits only the names above, each of which parses.
    PossibleValuesParser::new(std::iter::once(auto).chain(kinds))
        .map(|name| KindArg(mplp_kinds::parse_or_auto(&name).ok().flatten()))
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

/// The default of `--max-document-bytes`: 256 MiB.
pub(crate) const DEFAULT_MAX_DOCUMENT_BYTES: u64 = 256 << 20;

/// The default of `--max-errors` in text mode (JSON: all).
pub(crate) const DEFAULT_TEXT_MAX_ERRORS: u64 = 100;

/// The default of `--event-id-window` (see `mplp_events::unique_ids`):
/// 229,376 ids, two tables of at most 2^18 buckets (~13 MiB), so that
/// `mplp validate` stays under 64 MiB on logs of any length.
pub(crate) const DEFAULT_EVENT_ID_WINDOW: usize = (1 << 18) / 8 * 7;

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
    #[arg(long, value_name = "N|all", value_parser = parse_limit)]
    max_errors: Option<Limit>,
    /// Refuse documents (not logs) larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_DOCUMENT_BYTES)]
    max_document_bytes: u64,
    /// Find repeated event ids in logs within this many events (0: not at
    /// all); memory is about 56 bytes per id.
    #[arg(long, value_name = "EVENTS", default_value_t = DEFAULT_EVENT_ID_WINDOW)]
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

fn parse_limit(s: &str) -> Result<Limit, String> {
    if s == "all" {
        return Ok(Limit::All);
    }
    s.parse::<u64>()
        .map(Limit::At)
        .map_err(|e| format!("expected a number or `all`: {e}"))
}

/// What the whole run found, for the summary line and the exit status.
#[derive(Default)]
struct Totals {
    files: usize,
    valid: usize,
    invalid: usize,
    unreadable: usize,
    errors: u64,
    warnings: u64,
}

/// Runs `mplp validate`.
pub(crate) fn run(args: &ValidateArgs) -> ExitCode {
    let mut inputs = Vec::new();
    for f in &args.files {
        let before = inputs.len();
        expand(f, &mut inputs);
        if inputs.len() == before {
            eprintln!(
                "mplp validate: warning: directory `{f}` holds no `.json` or `.ndjson` file; nothing in it was checked"
            );
        }
    }
    if inputs.is_empty() {
        eprintln!("mplp validate: nothing to check (every directory named is empty)");
        return ExitCode::from(2);
    }
    let rules: HashMap<&'static str, &'static RuleInfo> = mplp_kinds::all_rules()
        .chain(mplp_bundle::rules())
        .map(|r| (r.rule.as_str(), r))
        .collect();
    // A bundle: every file read and bound first (the binding rules need all
    // the documents), then one record per file, as without `--bundle`.
    let bundle = if args.bundle {
        match check_bundle(&inputs) {
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
        let mut report = FileReport::new(
            &mut out,
            args.format == Format::Json,
            input.name(),
            limit,
            |v| relax(v, args.profile, &rules),
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
            "{} file{} checked: {} valid, {} invalid{}; {} error{}, {} warning{}",
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
        );
    }
    if out.flush().is_err() {
        return output_error();
    }
    if totals.unreadable > 0 {
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

/// The violations at the severity `profile` gives their rules.
fn relax(
    found: Report,
    profile: ProfileArg,
    rules: &HashMap<&'static str, &'static RuleInfo>,
) -> Report {
    mplp_core::rules::apply(found, profile.profile(), |id| rules.get(id).copied())
}

/// Checks one input, handing every violation to `report` as it is found.
fn check<W: Write, F: FnMut(Report) -> Report>(
    input: &Input,
    args: &ValidateArgs,
    report: &mut FileReport<'_, W, F>,
) -> ControlFlow<()> {
    let reader: Box<dyn BufRead> = match input {
        Input::Problem { violation, .. } if violation.severity == Severity::Error => {
            return unreadable(report, violation.clone());
        }
        Input::Problem { violation, .. } => return report.violation(violation.clone()),
        Input::Stdin => Box::new(BufReader::with_capacity(1 << 16, std::io::stdin().lock())),
        Input::File(path) => match File::open(path) {
            Ok(f) => {
                let reader = BufReader::with_capacity(1 << 16, f);
                let text = args.format == Format::Text;
                match crate::progress::for_file(path, &input.name(), text) {
                    Some(bar) => Box::new(bar.wrap_read(reader)),
                    None => Box::new(reader),
                }
            }
            Err(e) => {
                return unreadable(
                    report,
                    crate::inputs::io_violation(&format!("cannot read `{}`", input.name()), &e),
                );
            }
        },
    };
    let mut reader = reader;
    let bom = match skip_bom(&mut reader) {
        Ok(bom) => bom,
        Err(e) => {
            return unreadable(
                report,
                crate::inputs::io_violation(&format!("cannot read `{}`", input.name()), &e),
            );
        }
    };
    // A log is known by its file name; standard input by its first lines
    // (`--kind auto -` streams a log instead of reading it whole).
    let (log_name, mut reader) = match (input, args.kind.0) {
        (Input::Stdin, None) => match mplp_kinds::sniff_log(reader) {
            Ok(sniffed) => (sniffed.is_log, Box::new(sniffed.reader) as Box<dyn BufRead>),
            Err(e) => {
                return unreadable(
                    report,
                    crate::inputs::io_violation(&format!("cannot read `{}`", input.name()), &e),
                );
            }
        },
        _ => (
            matches!(input, Input::File(p) if mplp_kinds::is_log_file_name(&p.to_string_lossy())),
            reader,
        ),
    };
    match args.kind.0 {
        Some(kind) if kind.is_log() => stream_log(kind, reader, bom, args, report),
        None if log_name => {
            let kind = match mplp_kinds::detect_log(&mut reader) {
                Ok(kind) => kind,
                Err(e) => {
                    return unreadable(
                        report,
                        crate::inputs::io_violation(&format!("cannot read `{}`", input.name()), &e),
                    );
                }
            };
            stream_log(kind, reader, bom, args, report)
        }
        kind => {
            let bytes = match read_document(reader, input, args.max_document_bytes) {
                Ok(bytes) => bytes,
                Err(v) => return unreadable(report, v),
            };
            let (kind, found) = mplp_kinds::validate_bytes(kind, &bytes);
            drop(bytes);
            report.set_kind(KindArg(kind).as_str());
            if bom {
                report.violation(bom_warning())?;
            }
            for v in found {
                report.violation(v)?;
            }
            ControlFlow::Continue(())
        }
    }
}

/// Reports an input that cannot be checked: its record, and its message on
/// standard error too (as before records existed).
fn unreadable<W: Write, F: FnMut(Report) -> Report>(
    report: &mut FileReport<'_, W, F>,
    v: Violation,
) -> ControlFlow<()> {
    eprintln!("mplp validate: {}", v.message);
    report.set_unreadable(true);
    report.violation(v)
}

/// Streams a log through its validator into `report`.
fn stream_log<W: Write, F: FnMut(Report) -> Report>(
    kind: &'static DocKind,
    reader: Box<dyn BufRead>,
    bom: bool,
    args: &ValidateArgs,
    report: &mut FileReport<'_, W, F>,
) -> ControlFlow<()> {
    report.set_kind(kind.name);
    if bom {
        report.violation(bom_warning())?;
    }
    let options = LogOptions::default()
        .partial(args.partial)
        .event_id_window(args.event_id_window);
    let on = |v| report.violation(v);
    if *kind == mplp_kinds::SA_LOG {
        mplp_events::log::stream_sa_log(reader, &options, on)
    } else {
        mplp_events::log::stream_map_log(reader, &options, on)
    }
}

pub(crate) use mplp_core::document::{bom_warning, skip_bom};

/// Reads a whole document, refusing one larger than `max` bytes without
/// keeping more than `max + 1` of them.
fn read_document(reader: Box<dyn BufRead>, input: &Input, max: u64) -> Result<Vec<u8>, Violation> {
    let name = input.name();
    if let Input::File(path) = input {
        if let Ok(meta) = std::fs::metadata(path) {
            if meta.is_file() && meta.len() > max {
                return Err(crate::inputs::too_large(&name, meta.len(), max));
            }
        }
    }
    crate::inputs::read_capped(reader, max)
        .map_err(|e| crate::inputs::io_violation(&format!("cannot read `{name}`"), &e))?
        .ok_or_else(|| crate::inputs::too_large(&name, max.saturating_add(1), max))
}

/// Checks the inputs as one bundle (`--bundle`): each file's own findings
/// and its bindings', by file name.
///
/// # Errors
/// When an input is standard input or cannot be read (the message).
fn check_bundle(inputs: &[Input]) -> Result<Vec<mplp_bundle::DocumentReport>, String> {
    let mut files = Vec::with_capacity(inputs.len());
    for input in inputs {
        match input {
            Input::File(path) => files.push(path.clone()),
            Input::Stdin => return Err("--bundle reads files, not standard input".to_owned()),
            Input::Problem { violation, .. } => return Err(violation.message.clone()),
        }
    }
    let report = mplp_bundle::check_files(&files).map_err(|e| format!("{e}: {}", e.source))?;
    Ok(report.documents)
}
