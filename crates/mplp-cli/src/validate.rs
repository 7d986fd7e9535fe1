//! `mplp validate`: checks documents and event logs.

use std::fs::File;
use std::io::{BufRead, BufReader, Cursor, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mplp_core::{Document, Report, Rule, Violation};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::json;

/// What kind of document a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Kind {
    /// Recognise the kind from the document (`plan_id`, `dialog_id`,
    /// `collab_id`, MAP/SA `event_type`, `event_family`) or a `.ndjson` name.
    Auto,
    /// A Dialog document.
    Dialog,
    /// A Plan document.
    Plan,
    /// A Collab document.
    Collab,
    /// One MAP event.
    MapEvent,
    /// One SA event.
    SaEvent,
    /// One core (observability) event.
    Event,
    /// An NDJSON log of MAP events.
    MapLog,
    /// An NDJSON log of SA events.
    SaLog,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Auto => "auto",
            Kind::Dialog => "dialog",
            Kind::Plan => "plan",
            Kind::Collab => "collab",
            Kind::MapEvent => "map-event",
            Kind::SaEvent => "sa-event",
            Kind::Event => "event",
            Kind::MapLog => "map-log",
            Kind::SaLog => "sa-log",
        }
    }
}

/// How results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// For people: one error a line, and a summary.
    Text,
    /// One JSON object per file, one per line (see the README).
    Json,
}

/// Which rules are errors (see `mplp_core::policy` and the compat policy in
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
    fn profile(self) -> mplp_core::policy::Profile {
        match self {
            ProfileArg::Strict => mplp_core::policy::Profile::Strict,
            ProfileArg::Canonical => mplp_core::policy::Profile::Canonical,
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
    #[arg(long, value_enum, default_value = "auto")]
    kind: Kind,
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
    kind: Kind,
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
    for file in &files {
        match check_file(file, args.kind) {
            Ok(mut outcome) => {
                outcome.report = mplp_core::policy::apply(outcome.report, args.profile.profile());
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

fn check_file(file: &str, kind: Kind) -> Result<Outcome, String> {
    let is_log_name = file.ends_with(".ndjson") || file.ends_with(".jsonl");
    // Logs are streamed from the file; everything else is read whole.
    if file != "-"
        && (matches!(kind, Kind::MapLog | Kind::SaLog) || (kind == Kind::Auto && is_log_name))
    {
        let f = File::open(file).map_err(|e| format!("cannot read `{file}`: {e}"))?;
        let mut reader = BufReader::new(f);
        let kind = if kind == Kind::Auto {
            detect_log_kind(&mut reader).map_err(|e| format!("cannot read `{file}`: {e}"))?
        } else {
            kind
        };
        let report = check_log(kind, reader);
        return Ok(Outcome {
            file: file.to_owned(),
            kind,
            report,
        });
    }
    let bytes = crate::io::read_input(file)?;
    let kind = match kind {
        Kind::Auto if is_log_name => {
            let mut cursor = Cursor::new(&bytes[..]);
            detect_log_kind(&mut cursor).map_err(|e| format!("cannot read `{file}`: {e}"))?
        }
        Kind::Auto => match detect_kind(&bytes) {
            Ok(k) => k,
            Err(v) => {
                let mut report = Report::new();
                report.push(v);
                return Ok(Outcome {
                    file: file.to_owned(),
                    kind: Kind::Auto,
                    report,
                });
            }
        },
        k => k,
    };
    let report = match kind {
        Kind::MapLog | Kind::SaLog => check_log(kind, Cursor::new(&bytes[..])),
        _ => check_document(kind, &bytes),
    };
    Ok(Outcome {
        file: file.to_owned(),
        kind,
        report,
    })
}

fn check_document(kind: Kind, bytes: &[u8]) -> Report {
    match kind {
        Kind::Plan => mplp_plan::Plan::validate_json(bytes).report,
        Kind::Dialog => mplp_dialog::Dialog::validate_json(bytes).report,
        Kind::Collab => mplp_collab::Collab::validate_json(bytes).report,
        Kind::MapEvent => mplp_events::MapEvent::validate_json(bytes).report,
        Kind::SaEvent => mplp_events::SaEvent::validate_json(bytes).report,
        Kind::Event => mplp_events::CoreEvent::validate_json(bytes).report,
        Kind::Auto | Kind::MapLog | Kind::SaLog => {
            let mut r = Report::new();
            r.error("", Rule::TYPE, "internal: not a single-document kind");
            r
        }
    }
}

fn check_log(kind: Kind, reader: impl BufRead) -> Report {
    match kind {
        Kind::SaLog => mplp_events::log::validate_sa_log(reader),
        _ => mplp_events::log::validate_map_log(reader),
    }
}

/// The members that tell the kinds apart. Unknown members are ignored, so
/// this reads the document once without building it.
#[derive(Deserialize)]
struct Probe {
    plan_id: Option<IgnoredAny>,
    dialog_id: Option<IgnoredAny>,
    collab_id: Option<IgnoredAny>,
    session_id: Option<IgnoredAny>,
    sa_id: Option<IgnoredAny>,
    event_family: Option<IgnoredAny>,
    event_type: Option<IgnoredAny>,
}

/// Probes only the top-level `event_type` string.
#[derive(Deserialize)]
struct EventTypeProbe {
    event_type: Option<String>,
}

/// Recognises the kind of a single document.
fn detect_kind(bytes: &[u8]) -> Result<Kind, Violation> {
    let probe: Probe = serde_json::from_slice(bytes).map_err(|e| {
        if e.is_data() {
            Violation::error(
                "",
                Rule::TYPE,
                format!("expected a JSON object (an MPLP document): {e}"),
            )
        } else {
            mplp_core::document::syntax_violation(&e)
        }
    })?;
    let event_type = if probe.event_type.is_some() {
        serde_json::from_slice::<EventTypeProbe>(bytes)
            .ok()
            .and_then(|p| p.event_type)
    } else {
        None
    };
    let et = event_type.as_deref().unwrap_or("");
    // Events first: SA events carry `plan_id` and `context_id` too.
    let kind = if et.starts_with("MAP") || probe.session_id.is_some() {
        Kind::MapEvent
    } else if et.starts_with("SA") || probe.sa_id.is_some() {
        Kind::SaEvent
    } else if probe.event_family.is_some() {
        Kind::Event
    } else if probe.plan_id.is_some() {
        Kind::Plan
    } else if probe.dialog_id.is_some() {
        Kind::Dialog
    } else if probe.collab_id.is_some() {
        Kind::Collab
    } else {
        return Err(Violation::error(
            "",
            Rule::new("unknown-kind"),
            "cannot tell what kind of MPLP document this is: expected `plan_id`, `dialog_id`, `collab_id`, a MAP or SA `event_type`, or `event_family` (or pass --kind)",
        ));
    };
    Ok(kind)
}

/// Recognises a log's kind from its first non-empty line (MAP unless it is an SA event).
fn detect_log_kind<R: BufRead>(reader: &mut R) -> std::io::Result<Kind> {
    let buf = reader.fill_buf()?;
    let first = buf
        .split(|b| *b == b'\n')
        .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
        .unwrap_or(&[]);
    let probe: Option<EventTypeProbe> = serde_json::from_slice(first).ok();
    let et = probe.and_then(|p| p.event_type).unwrap_or_default();
    Ok(if et.starts_with("SA") {
        Kind::SaLog
    } else {
        Kind::MapLog
    })
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
