//! `mplp validate`: checks documents and event logs.

use std::fs::File;
use std::io::{BufReader, Cursor, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser};
use mplp_core::{Report, Violation};
use mplp_kinds::DocKind;
use serde_json::json;

/// The `--kind` values: `auto`, then the names of the kinds table
/// ([`mplp_kinds::KINDS`]), each with its description as help.
fn kind_values() -> PossibleValuesParser {
    PossibleValuesParser::new(
        std::iter::once(PossibleValue::new(AUTO).help(
            "Recognise the kind from the document (`plan_id`, `dialog_id`, `collab_id`, MAP/SA `event_type`, `event_family`) or a `.ndjson` name",
        ))
        .chain(
            mplp_kinds::KINDS
                .iter()
                .map(|k| PossibleValue::new(k.name).help(k.description)),
        ),
    )
}

/// The `--kind` value that asks for recognition.
const AUTO: &str = "auto";

/// How results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// For people: one error a line, and a summary.
    Text,
    /// One JSON object per file, one per line (see the README).
    Json,
}

/// Arguments of `mplp validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct ValidateArgs {
    /// The kind of the documents.
    #[arg(long, default_value = AUTO, value_parser = kind_values())]
    kind: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Files to check (`-` reads standard input; a directory is searched
    /// for `.json` and `.ndjson` files, in name order).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
}

/// The outcome for one file.
struct Outcome {
    file: String,
    /// `None` when the kind could not be recognised.
    kind: Option<&'static DocKind>,
    report: Report,
}

/// Runs `mplp validate`.
pub(crate) fn run(args: &ValidateArgs) -> ExitCode {
    // `None`: recognise each file's kind (clap only lets table names through).
    let kind = mplp_kinds::by_name(&args.kind);
    let mut files = Vec::new();
    for f in &args.files {
        if let Err(e) = expand(f, &mut files) {
            eprintln!("mplp validate: {e}");
            return ExitCode::from(2);
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (mut valid, mut invalid, mut io_errors) = (0usize, 0usize, 0usize);
    let (mut n_errors, mut n_warnings) = (0usize, 0usize);
    for file in &files {
        match check_file(file, kind) {
            Ok(outcome) => {
                if outcome.report.is_valid() {
                    valid += 1;
                } else {
                    invalid += 1;
                }
                n_errors += outcome.report.errors().count();
                n_warnings += outcome.report.warnings().count();
                let printed = match args.format {
                    Format::Text => print_text(&mut out, &outcome),
                    Format::Json => print_json(&mut out, &outcome),
                };
                if printed.is_err() {
                    return ExitCode::from(2);
                }
            }
            Err(e) => {
                io_errors += 1;
                eprintln!("mplp validate: {e}");
            }
        }
    }
    if args.format == Format::Text {
        let _ = writeln!(
            out,
            "{} file{} checked: {valid} valid, {invalid} invalid{}; {n_errors} error{}, {n_warnings} warning{}",
            files.len(),
            plural(files.len()),
            if io_errors > 0 {
                format!(", {io_errors} unreadable")
            } else {
                String::new()
            },
            plural(n_errors),
            plural(n_warnings),
        );
    }
    if io_errors > 0 {
        ExitCode::from(2)
    } else if invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Adds `arg` to `files`, or the `.json`/`.ndjson` files below it if it is a directory.
fn expand(arg: &str, files: &mut Vec<String>) -> Result<(), String> {
    let path = Path::new(arg);
    if arg != "-" && path.is_dir() {
        let mut found: Vec<PathBuf> = Vec::new();
        walk(path, &mut found).map_err(|e| format!("cannot list `{arg}`: {e}"))?;
        found.sort();
        files.extend(found.into_iter().map(|p| p.display().to_string()));
    } else {
        files.push(arg.to_owned());
    }
    Ok(())
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, found)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("json" | "ndjson")
        ) && !path.to_string_lossy().ends_with(".expect.json")
        {
            found.push(path);
        }
    }
    Ok(())
}

fn check_file(file: &str, kind: Option<&'static DocKind>) -> Result<Outcome, String> {
    let is_log_name = mplp_kinds::is_log_file_name(file);
    let cannot_read = |e: std::io::Error| format!("cannot read `{file}`: {e}");
    // Logs are streamed from the file; everything else is read whole.
    if file != "-" && kind.map_or(is_log_name, DocKind::is_log) {
        let f = File::open(file).map_err(cannot_read)?;
        let mut reader = BufReader::new(f);
        let kind = match kind {
            Some(k) => k,
            None => mplp_kinds::detect_log(&mut reader).map_err(cannot_read)?,
        };
        let report = kind.validate_reader(&mut reader);
        return Ok(Outcome {
            file: file.to_owned(),
            kind: Some(kind),
            report,
        });
    }
    let bytes = crate::io::read_input(file)?;
    let kind = match kind {
        Some(k) => k,
        None if is_log_name => {
            mplp_kinds::detect_log(&mut Cursor::new(&bytes[..])).map_err(cannot_read)?
        }
        None => match mplp_kinds::detect(&bytes) {
            Ok(k) => k,
            Err(v) => {
                let mut report = Report::new();
                report.push(v);
                return Ok(Outcome {
                    file: file.to_owned(),
                    kind: None,
                    report,
                });
            }
        },
    };
    Ok(Outcome {
        file: file.to_owned(),
        kind: Some(kind),
        report: kind.validate(&bytes),
    })
}

fn kind_name(o: &Outcome) -> &'static str {
    o.kind.map_or(AUTO, |k| k.name)
}

fn print_text(out: &mut impl Write, o: &Outcome) -> std::io::Result<()> {
    let status = if o.report.is_valid() {
        "valid"
    } else {
        "INVALID"
    };
    writeln!(out, "{}: {} ({})", o.file, status, kind_name(o))?;
    for v in o.report.violations() {
        let line = v.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        let pointer = if v.pointer.is_empty() {
            "(document)"
        } else {
            &v.pointer
        };
        writeln!(
            out,
            "  {}: {line}{pointer}: [{}] {}",
            v.severity, v.rule, v.message
        )?;
    }
    Ok(())
}

fn print_json(out: &mut impl Write, o: &Outcome) -> std::io::Result<()> {
    let errors: Vec<&Violation> = o.report.errors().collect();
    let warnings: Vec<&Violation> = o.report.warnings().collect();
    let line = json!({
        "file": o.file,
        "kind": kind_name(o),
        "valid": o.report.is_valid(),
        "errors": errors,
        "warnings": warnings,
    });
    writeln!(out, "{line}")
}
