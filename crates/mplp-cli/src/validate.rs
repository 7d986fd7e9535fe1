//! `mplp validate`: checks documents and event logs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use mplp_core::{Report, Violation};
use mplp_kinds::{AUTO, DocKind, KINDS};
use serde_json::json;

/// `--kind`: a kind of the library's table, or `None` for `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindArg(Option<&'static DocKind>);

impl KindArg {
    fn as_str(self) -> &'static str {
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
    fn profile(self) -> mplp_core::rules::Profile {
        match self {
            ProfileArg::Strict => mplp_core::rules::Profile::Strict,
            ProfileArg::Canonical => mplp_core::rules::Profile::Canonical,
        }
    }
}

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

/// The outcome for one file.
struct Outcome {
    file: String,
    kind: KindArg,
    report: Report,
}

/// Runs `mplp validate`.
pub(crate) fn run(args: &ValidateArgs) -> ExitCode {
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
    let checked: Box<dyn Iterator<Item = Result<Outcome, String>>> = if args.bundle {
        Box::new(check_bundle(&files).into_iter())
    } else {
        Box::new(files.iter().map(|file| check_file(file, args.kind)))
    };
    for result in checked {
        match result {
            Ok(mut outcome) => {
                outcome.report =
                    mplp_core::rules::apply(outcome.report, args.profile.profile(), |id| {
                        mplp_kinds::all_rules()
                            .chain(mplp_bundle::rules())
                            .find(|r| r.rule.as_str() == id)
                    });
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

/// Checks one file (`-`: standard input) with the library's dispatch, so
/// the Python bindings give the same verdicts.
fn check_file(file: &str, kind: KindArg) -> Result<Outcome, String> {
    let (kind, report) = if file == "-" {
        let bytes = crate::io::read_input(file)?;
        mplp_kinds::validate_bytes(kind.0, &bytes)
    } else {
        mplp_kinds::validate_file(kind.0, Path::new(file))
            .map_err(|e| format!("cannot read `{file}`: {e}"))?
    };
    Ok(Outcome {
        file: file.to_owned(),
        kind: KindArg(kind),
        report,
    })
}

/// Checks `files` as one bundle (`--bundle`): one outcome per file, its own
/// findings and its bindings'; a file that cannot be read fails the bundle.
fn check_bundle(files: &[String]) -> Vec<Result<Outcome, String>> {
    match mplp_bundle::check_files(files) {
        Err(e) => vec![Err(format!("{e}: {}", e.source))],
        Ok(report) => report
            .documents
            .into_iter()
            .map(|d| {
                Ok(Outcome {
                    file: d.name,
                    kind: KindArg(d.kind.and_then(mplp_kinds::by_name)),
                    report: d.report,
                })
            })
            .collect(),
    }
}

fn print_text(out: &mut impl Write, o: &Outcome) -> std::io::Result<()> {
    let status = if o.report.is_valid() {
        "valid"
    } else {
        "INVALID"
    };
    writeln!(out, "{}: {} ({})", o.file, status, o.kind.as_str())?;
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
        "kind": o.kind.as_str(),
        "valid": o.report.is_valid(),
        "errors": errors,
        "warnings": warnings,
    });
    writeln!(out, "{line}")
}
