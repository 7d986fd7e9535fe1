//! `mplp report`: one self-contained HTML page for a set of files.
//!
//! For each file: its verdict (as a word and a colour), a table of its
//! errors and warnings (severity, line, pointer, rule, message) in which
//! each pointer opens, on a click, the JSON fragment it points at (an HTML
//! `<details>` element: no script), and its picture inline as SVG: a plan's
//! DAG, a MAP log's session. The page loads nothing: no script, no external
//! style sheet, font or image. Every text is XML-escaped.
//!
//! The checks are `mplp validate`'s (strict profile): documents are read
//! whole up to 256 MiB, logs are streamed; only the rows shown (at most
//! `--max-errors` errors and as many warnings per file) and the fragments
//! they point at are kept.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mplp_core::text::{plural_s, xml_escape};
use mplp_core::{Report, Severity, Violation};

use crate::inputs::{Input, expand};

/// `--max-errors N`: a count, with a message that names the range (a
/// negative number is refused as such, never suggested as a file name).
fn parse_max_errors(s: &str) -> Result<usize, String> {
    let max = u64::try_from(usize::MAX).unwrap_or(u64::MAX);
    crate::args::count(s, max, "errors per file").map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// Arguments of `mplp report`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReportArgs {
    /// Write the page to this file (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Show at most N errors and N warnings per file; the rest are counted.
    #[arg(long, value_name = "N", default_value_t = 100, allow_negative_numbers = true, value_parser = parse_max_errors)]
    max_errors: usize,
    /// Files to report on (a directory is searched for `.json` and
    /// `.ndjson` files, in name order).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
}

/// The most MAP events drawn as a session picture.
const MAX_DRAWN_EVENTS: usize = 2_000;
/// The most characters of one JSON fragment shown.
const MAX_FRAGMENT: usize = 4_000;

/// What one file's section shows.
struct Section {
    name: String,
    kind: &'static str,
    verdict: &'static str,
    rows: Vec<(Violation, Option<String>)>,
    errors: usize,
    warnings: usize,
    picture: Option<(&'static str, String)>,
    /// Why there is no picture, when it is not the kind's (a log with too
    /// many events, or none readable; a plan whose steps cannot be read).
    no_picture: Option<String>,
    /// A log: its rows have lines (the `line` column is shown).
    is_log: bool,
}

/// Runs `mplp report`: exit 0 when every file is valid, 1 when any is
/// invalid, 2 when any cannot be read or the page cannot be written.
pub(crate) fn run(args: &ReportArgs) -> ExitCode {
    let mut inputs = Vec::new();
    for f in &args.files {
        if f == "-" {
            eprintln!("mplp report: reads files, not standard input");
            return ExitCode::from(2);
        }
        expand(f, &mut inputs);
    }
    if inputs.is_empty() {
        eprintln!("mplp report: nothing to check (every directory named is empty)");
        return ExitCode::from(2);
    }
    let sections: Vec<Section> = inputs
        .iter()
        .map(|input| section(input, args.max_errors))
        .collect();
    let written = match &args.output {
        Some(path) => std::fs::File::create(path)
            .and_then(|file| {
                let mut out = std::io::BufWriter::new(file);
                write_page(&sections, &mut out)?;
                std::io::Write::flush(&mut out)
            })
            .map_err(|e| {
                eprintln!("mplp report: cannot write `{}`: {e}", path.display());
                ExitCode::from(2)
            }),
        None => match crate::io::emit_with(|out| write_page(&sections, out)) {
            c if c == ExitCode::SUCCESS => Ok(()),
            c => Err(c),
        },
    };
    if let Err(code) = written {
        return code;
    }
    let code = if sections.iter().any(|s| s.verdict == "unreadable") {
        2
    } else if sections.iter().any(|s| s.verdict == "invalid") {
        1
    } else {
        0
    };
    // On the terminal: what failed and where the page is (always with
    // `-o`; on standard output's page, only when something failed).
    if args.output.is_some() || code != 0 {
        eprint!("{}", terminal_summary(&sections, args.output.as_deref()));
    }
    ExitCode::from(code)
}

/// The most failing files the terminal summary names.
const MAX_NAMED: usize = 10;

/// What `mplp report` says on standard error: the counts, where the page
/// is, and each file that failed with its first error.
fn terminal_summary(sections: &[Section], output: Option<&Path>) -> String {
    let count = |v: &str| sections.iter().filter(|s| s.verdict == v).count();
    let mut out = format!(
        "mplp report: {} file{} checked: {} valid, {} invalid, {} unreadable; the page is {}\n",
        sections.len(),
        plural_s(sections.len()),
        count("valid"),
        count("invalid"),
        count("unreadable"),
        output.map_or("on standard output".to_owned(), |p| format!(
            "`{}`",
            p.display()
        ))
    );
    let failed: Vec<&Section> = sections.iter().filter(|s| s.verdict != "valid").collect();
    for s in failed.iter().take(MAX_NAMED) {
        let _ = write!(
            out,
            "  {}: {} ({}), {}",
            s.name,
            s.verdict.to_uppercase(),
            s.kind,
            mplp_core::text::count(s.errors, "error")
        );
        if let Some((v, _)) = s.rows.iter().find(|(v, _)| v.is_error()) {
            let at = match (v.line, v.pointer.as_str()) {
                (Some(l), "") => format!("line {l}"),
                (Some(l), p) => format!("line {l} {p}"),
                (None, "") => "(document)".to_owned(),
                (None, p) => p.to_owned(),
            };
            let _ = write!(out, "; first: {at} [{}] {}", v.rule, v.message);
        }
        out.push('\n');
    }
    if failed.len() > MAX_NAMED {
        let _ = writeln!(
            out,
            "  ... and {} more (see the page)",
            failed.len() - MAX_NAMED
        );
    }
    out
}

/// What the dispatch found in one file: its kind, the violations shown
/// (the first `max` errors and the first `max` warnings, in the order
/// found: memory stays bounded by `--max-errors`, not by the file), how
/// many there are of each, whether it could be read, and the document when
/// it is valid.
struct Found {
    kind: Option<&'static mplp_check::DocKind>,
    report: Report,
    errors: usize,
    warnings: usize,
    max: usize,
    unreadable: bool,
    document: Option<mplp_check::AnyDocument>,
}

impl Found {
    fn new(max: usize) -> Self {
        Found {
            kind: None,
            report: Report::new(),
            errors: 0,
            warnings: 0,
            max,
            unreadable: false,
            document: None,
        }
    }
}

impl mplp_check::Sink for Found {
    fn kind(&mut self, kind: Option<&'static mplp_check::DocKind>) {
        self.kind = kind;
    }
    fn violation(&mut self, v: Violation) -> std::ops::ControlFlow<()> {
        let n = match v.severity {
            Severity::Error => &mut self.errors,
            Severity::Warning => &mut self.warnings,
        };
        *n += 1;
        if *n <= self.max {
            self.report.push(v);
        }
        std::ops::ControlFlow::Continue(())
    }
    fn unreadable(&mut self, v: Violation) -> std::ops::ControlFlow<()> {
        self.unreadable = true;
        self.violation(v)
    }
    fn document(&mut self, document: mplp_check::AnyDocument) {
        self.document = Some(document);
    }
}

/// Checks the file at `path` through the one dispatch (as `mplp validate`
/// does, strict profile); the section of a file that cannot be read.
fn check(name: String, path: &Path, max: usize) -> Result<(String, Found), Box<Section>> {
    let mut found = Found::new(max);
    let options = mplp_check::Options::default();
    if let Err(e) = mplp_check::validate_path(None, path, &options, &mut found) {
        let v = crate::inputs::io_violation(&format!("cannot read `{name}`"), &e);
        return Err(Box::new(finish(
            name,
            mplp_check::AUTO,
            one(v),
            true,
            max,
            |_| None,
            None,
        )));
    }
    if found.unreadable {
        let kind_name = found.kind.map_or(mplp_check::AUTO, |k| k.name);
        let counts = (found.errors, found.warnings);
        return Err(Box::new(finish_counted(
            name,
            kind_name,
            found.report,
            counts,
            true,
            max,
            |_| None,
            None,
        )));
    }
    Ok((name, found))
}

/// Checks one input as `mplp validate` does (the one dispatch, strict
/// profile) and keeps what its section shows.
fn section(input: &Input, max: usize) -> Section {
    let name = input.name();
    let path = match input {
        Input::File(p) => p.clone(),
        Input::Stdin => PathBuf::from("-"),
        Input::Problem { violation, .. } => {
            let unreadable = violation.severity == Severity::Error;
            return finish(
                name,
                mplp_check::AUTO,
                one(violation.clone()),
                unreadable,
                max,
                |_| None,
                None,
            );
        }
    };
    if mplp_check::is_log_file_name(&name) {
        return log_section(name, &path, max);
    }
    let (name, found) = match check(name, &path, max) {
        Ok(checked) => checked,
        Err(section) => return *section,
    };
    let kind_name = found.kind.map_or(mplp_check::AUTO, |k| k.name);
    // The document as a value, only for the fragments the rows point at and
    // the picture of a plan that is not valid (a valid plan is the one the
    // dispatch read: parsed once).
    let counts = (found.errors, found.warnings);
    let value: Option<serde_json::Value> = if counts == (0, 0) {
        None
    } else {
        std::fs::read(&path).ok().and_then(|bytes| {
            let (json, _) = mplp_core::document::strip_bom(&bytes);
            mplp_json::nesting::from_slice(json).ok()
        })
    };
    let picture = match (found.document, found.kind, &value) {
        (Some(mplp_check::AnyDocument::Plan(plan)), _, _) => {
            Some(("Plan", mplp_plan::render::svg(&plan)))
        }
        (None, Some(k), Some(v)) if *k == mplp_check::PLAN => {
            <mplp_plan::Plan as mplp_core::Wire>::deserialize_unchecked(v)
                .ok()
                .map(|plan| ("Plan", mplp_plan::render::svg(&plan)))
        }
        _ => None,
    };
    let no_picture = (found.kind == Some(&mplp_check::PLAN) && picture.is_none()).then(|| {
        "No picture: the plan's steps cannot be read as steps, so there is nothing to draw."
            .to_owned()
    });
    let mut section = finish_counted(
        name,
        kind_name,
        found.report,
        counts,
        false,
        max,
        |v| value.as_ref().and_then(|doc| fragment(doc, &v.pointer)),
        picture,
    );
    section.no_picture = no_picture;
    section
}

/// A log, validated as a stream by the dispatch: read again for the lines
/// the rows point at and, for a MAP log, the events to draw.
fn log_section(name: String, path: &Path, max: usize) -> Section {
    let (
        name,
        Found {
            kind,
            report,
            errors,
            warnings,
            ..
        },
    ) = match check(name, path, max) {
        Ok(checked) => checked,
        Err(section) => return *section,
    };
    let kind_name = kind.map_or(mplp_check::AUTO, |k| k.name);
    let mut wanted: BTreeMap<u64, Option<String>> = BTreeMap::new();
    for (shown, v) in shown_rows(&report, max) {
        if let (true, Some(line)) = (shown, v.line) {
            wanted.insert(line, None);
        }
    }
    // The events to draw, with their lines: a MAP log's, until there are
    // too many to draw.
    let is_map = kind == Some(&mplp_check::MAP_LOG);
    let mut events = is_map.then(Vec::new);
    let mut too_many = false;
    let open = || -> std::io::Result<Box<dyn BufRead>> {
        let mut reader: Box<dyn BufRead> = Box::new(BufReader::new(std::fs::File::open(path)?));
        mplp_core::document::skip_bom(&mut reader)?;
        Ok(reader)
    };
    if let Ok(reader) = open() {
        // The lines as the dispatch cut them (an overlong line is skipped,
        // not kept; a line need not be UTF-8); what this second reading
        // finds wrong, the first one reported.
        mplp_events::log::for_each_line(reader, &mut Report::new(), |n, line| {
            if let Some(slot) = wanted.get_mut(&n) {
                *slot = Some(cut(&String::from_utf8_lossy(line)));
            }
            if let Some(list) = events.as_mut() {
                if let Ok(e) = mplp_json::nesting::from_slice::<mplp_events::MapEvent>(line) {
                    list.push((n, e));
                }
                if list.len() > MAX_DRAWN_EVENTS {
                    events = None;
                    too_many = true;
                }
            }
        });
    }
    // The findings shown are marked at their events.
    let findings: Vec<Violation> = shown_rows(&report, max)
        .filter(|(shown, _)| *shown)
        .map(|(_, v)| v.clone())
        .collect();
    let picture = events.as_ref().filter(|l| !l.is_empty()).map(|l| {
        (
            "Session",
            mplp_collab::render::svg_sequence_checked(l, &findings),
        )
    });
    let no_picture = match (is_map, too_many, &picture) {
        (true, true, _) => Some(format!(
            "No picture: the log holds more than {MAX_DRAWN_EVENTS} events, too many to draw (`mplp collab render` draws it)."
        )),
        (true, false, None) => {
            Some("No picture: no MAP event of the log could be read.".to_owned())
        }
        _ => None,
    };
    let mut section = finish_counted(
        name,
        kind_name,
        report,
        (errors, warnings),
        false,
        max,
        |v| v.line.and_then(|l| wanted.get(&l).cloned().flatten()),
        picture,
    );
    section.is_log = true;
    section.no_picture = no_picture;
    section
}

fn one(v: Violation) -> Report {
    let mut r = Report::new();
    r.push(v);
    r
}

/// Each violation with whether it is shown (the first `max` of its
/// severity).
fn shown_rows(report: &Report, max: usize) -> impl Iterator<Item = (bool, &Violation)> {
    let (mut errors, mut warnings) = (0usize, 0usize);
    report.violations().iter().map(move |v| {
        let n = match v.severity {
            Severity::Error => &mut errors,
            Severity::Warning => &mut warnings,
        };
        *n += 1;
        (*n <= max, v)
    })
}

/// The section of a file whose violations are all in `report`.
fn finish(
    name: String,
    kind: &'static str,
    report: Report,
    unreadable: bool,
    max: usize,
    fragment_of: impl Fn(&Violation) -> Option<String>,
    picture: Option<(&'static str, String)>,
) -> Section {
    let errors = report.errors().count();
    let warnings = report.violations().len() - errors;
    finish_counted(
        name,
        kind,
        report,
        (errors, warnings),
        unreadable,
        max,
        fragment_of,
        picture,
    )
}

/// The section of a file with `counts` (errors, warnings) violations, of
/// which `report` holds at least those shown.
#[allow(clippy::too_many_arguments)] // one call per kind of section
fn finish_counted(
    name: String,
    kind: &'static str,
    report: Report,
    (errors, warnings): (usize, usize),
    unreadable: bool,
    max: usize,
    fragment_of: impl Fn(&Violation) -> Option<String>,
    picture: Option<(&'static str, String)>,
) -> Section {
    let rows = shown_rows(&report, max)
        .filter(|(shown, _)| *shown)
        .map(|(_, v)| (v.clone(), fragment_of(v)))
        .collect();
    let verdict = if unreadable {
        "unreadable"
    } else if errors == 0 {
        "valid"
    } else {
        "invalid"
    };
    Section {
        name,
        kind,
        verdict,
        rows,
        errors,
        warnings,
        picture,
        no_picture: None,
        is_log: false,
    }
}

/// The JSON at `pointer` in `doc`, pretty-printed; for a member that is
/// missing, its parent's.
fn fragment(doc: &serde_json::Value, pointer: &str) -> Option<String> {
    let mut at = pointer;
    loop {
        if let Some(v) = doc.pointer(at) {
            let text = serde_json::to_string_pretty(v).ok()?;
            let note = if at == pointer {
                String::new()
            } else {
                format!(
                    "(at `{}`, which holds the missing member)\n",
                    if at.is_empty() { "/" } else { at }
                )
            };
            return Some(cut(&format!("{note}{text}")));
        }
        let (parent, _) = at.rsplit_once('/')?;
        at = parent;
    }
}

/// `text`, cut at [`MAX_FRAGMENT`] characters.
fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_FRAGMENT) {
        Some((i, _)) => format!("{} … (cut)", &text[..i]),
        None => text.to_owned(),
    }
}

const STYLE: &str = "body{font-family:Helvetica,Arial,sans-serif;margin:2em;color:#212121}\
h1{font-size:1.6em}section{border:1px solid #bdbdbd;border-radius:6px;padding:0 1em 1em;margin:1.5em 0}\
h2{font-size:1.15em}.verdict{display:inline-block;padding:2px 8px;border-radius:4px;font-weight:bold;margin-right:.5em}\
.valid .verdict{background:#c8e6c9;color:#1b5e20}.invalid .verdict{background:#ffcdd2;color:#b71c1c}\
.unreadable .verdict{background:#ffe0b2;color:#e65100}.kind{color:#616161;font-weight:normal}\
table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{border:1px solid #e0e0e0;padding:4px 6px;text-align:left;vertical-align:top}\
th{background:#f5f5f5}tr.error td:first-child{color:#b71c1c;font-weight:bold}tr.warning td:first-child{color:#e65100}\
pre{background:#fafafa;border:1px solid #e0e0e0;padding:6px;max-height:20em;overflow:auto;white-space:pre-wrap}\
summary{cursor:pointer}figure{margin:1em 0}figure svg{max-width:100%;height:auto}figcaption{color:#616161}.more,.no-picture{color:#616161}\
td{overflow-wrap:anywhere}nav.index table{width:auto}nav.index td{padding:2px 10px}a.to-step{font-size:.85em;margin-left:.5em}";

/// Where a file's section comes on the page and in the index: failures
/// first (unreadable, then invalid), then valid files with warnings, then
/// the rest; in the order named within each.
fn rank(s: &Section) -> u8 {
    match (s.verdict, s.warnings) {
        ("unreadable", _) => 0,
        ("invalid", _) => 1,
        (_, 0) => 3,
        _ => 2,
    }
}

/// A message as HTML: escaped, and each back-quoted span (`` `like this` ``)
/// a `<code>` element; a back quote without its pair stays as it is.
fn message_html(message: &str) -> String {
    let parts: Vec<&str> = message.split('`').collect();
    // An even number of parts means an odd number of back quotes: the last
    // one has no pair.
    let paired = if parts.len() % 2 == 0 {
        parts.len() - 1
    } else {
        parts.len()
    };
    let mut out = String::with_capacity(message.len() + 16);
    for (k, part) in parts.iter().enumerate() {
        if k >= paired {
            out.push('`');
            out.push_str(&xml_escape(part));
        } else if k % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", xml_escape(part));
        } else {
            out.push_str(&xml_escape(part));
        }
    }
    out
}

/// The index of the step a pointer is in (`/steps/7/...` gives 7), for the
/// link from a plan's error row to the step in its picture.
fn step_of(pointer: &str) -> Option<usize> {
    let rest = pointer.strip_prefix("/steps/")?;
    rest.split('/').next()?.parse().ok()
}

/// Writes the whole page: a summary, an index of the files (failures
/// first, each linked to its section), then the sections in the index's
/// order. It goes straight to `out`, a section and a row at a time, so the
/// page is never held whole in memory (with `--max-errors` in the hundreds
/// of thousands it is hundreds of megabytes).
fn write_page(
    sections: &[Section],
    out: &mut (impl std::io::Write + ?Sized),
) -> std::io::Result<()> {
    let count = |v: &str| sections.iter().filter(|s| s.verdict == v).count();
    out.write_all(b"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")?;
    writeln!(
        out,
        "<title>MPLP validation report</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>MPLP validation report</h1>"
    )?;
    writeln!(
        out,
        "<p class=\"summary\">{} file{} checked: {} valid, {} invalid, {} unreadable.</p>",
        sections.len(),
        plural_s(sections.len()),
        count("valid"),
        count("invalid"),
        count("unreadable")
    )?;
    let mut order: Vec<usize> = (0..sections.len()).collect();
    order.sort_by_key(|&n| rank(&sections[n]));
    out.write_all("<nav class=\"index\">\n<h2>Files</h2>\n<table class=\"index\">\n<thead><tr><th>verdict</th><th>file</th><th>kind</th><th>errors</th><th>warnings</th></tr></thead>\n<tbody>\n".as_bytes())?;
    for &n in &order {
        let s = &sections[n];
        writeln!(
            out,
            "<tr class=\"{}\"><td><span class=\"verdict\">{}</span></td><td><a href=\"#file-{n}\"><code>{}</code></a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            s.verdict,
            s.verdict,
            xml_escape(&s.name),
            s.kind,
            s.errors,
            s.warnings
        )?;
    }
    out.write_all("</tbody>\n</table>\n</nav>\n".as_bytes())?;
    for &n in &order {
        section_html(out, n, &sections[n])?;
    }
    out.write_all(b"</body>\n</html>\n")
}

/// One file's section: its verdict, its violations, then its picture (or
/// why it has none).
fn section_html(
    out: &mut (impl std::io::Write + ?Sized),
    n: usize,
    s: &Section,
) -> std::io::Result<()> {
    writeln!(
        out,
        "<section class=\"file {}\" id=\"file-{n}\">\n<h2><span class=\"verdict\">{}</span><code class=\"name\">{}</code> <span class=\"kind\">({})</span></h2>",
        s.verdict,
        s.verdict,
        xml_escape(&s.name),
        s.kind
    )?;
    writeln!(
        out,
        "<p class=\"counts\">{}, {}</p>",
        mplp_core::text::count(s.errors, "error"),
        mplp_core::text::count(s.warnings, "warning")
    )?;
    let drawn_plan = s.picture.as_ref().is_some_and(|(what, _)| *what == "Plan");
    if !s.rows.is_empty() {
        let line_head = if s.is_log { "<th>line</th>" } else { "" };
        writeln!(
            out,
            "<table class=\"violations\">\n<thead><tr><th>severity</th>{line_head}<th>pointer (click for the JSON)</th><th>rule</th><th>message</th></tr></thead>\n<tbody>"
        )?;
        for (v, fragment) in &s.rows {
            let pointer = if v.pointer.is_empty() {
                "(document)"
            } else {
                &v.pointer
            };
            let mut at = match fragment {
                Some(f) => format!(
                    "<details><summary><code>{}</code></summary><pre>{}</pre></details>",
                    xml_escape(pointer),
                    xml_escape(f)
                ),
                None => format!("<code>{}</code>", xml_escape(pointer)),
            };
            if let (true, Some(step)) = (drawn_plan, step_of(&v.pointer)) {
                let _ = write!(
                    at,
                    " <a class=\"to-step\" href=\"#file-{n}-step-{step}\">step {step} in the picture</a>"
                );
            }
            let line = if s.is_log {
                format!(
                    "<td>{}</td>",
                    v.line.map(|l| l.to_string()).unwrap_or_default()
                )
            } else {
                String::new()
            };
            writeln!(
                out,
                "<tr class=\"{}\"><td>{}</td>{line}<td>{at}</td><td><code>{}</code></td><td>{}</td></tr>",
                v.severity,
                v.severity,
                xml_escape(v.rule.as_str()),
                message_html(&v.message)
            )?;
        }
        out.write_all("</tbody>\n</table>\n".as_bytes())?;
        let hidden = s.errors + s.warnings - s.rows.len();
        if hidden > 0 {
            writeln!(
                out,
                "<p class=\"more\">{} not shown (<code>--max-errors</code> shows more).</p>",
                mplp_core::text::count(hidden, "violation")
            )?;
        }
    }
    match (&s.picture, &s.no_picture) {
        (Some((what, svg)), _) => {
            // Ids of one picture must not clash with another's on the page.
            let svg = svg
                .replace("id=\"", &format!("id=\"file-{n}-"))
                .replace("url(#", &format!("url(#file-{n}-"));
            let caption = match *what {
                "Session" => {
                    "Session: the rows the findings above point at are tinted, with their rule ids on the right."
                }
                _ => "Plan: each step is labelled with its pointer (/steps/N) and short id.",
            };
            writeln!(
                out,
                "<figure class=\"picture\">\n{svg}<figcaption>{caption}</figcaption>\n</figure>"
            )?;
        }
        (None, Some(why)) => {
            writeln!(out, "<p class=\"no-picture\">{}</p>", message_html(why))?;
        }
        (None, None) => {
            writeln!(
                out,
                "<p class=\"no-picture\">No picture: only plans and MAP logs are drawn, and this file is {}.</p>",
                if s.verdict == "unreadable" {
                    "unreadable".to_owned()
                } else {
                    format!("a <code>{}</code>", s.kind)
                }
            )?;
        }
    }
    out.write_all(b"</section>\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use mplp_core::Rule;

    /// A fresh directory under the system's temporary directory, removed
    /// when the test ends (passed or failed).
    struct Scratch(PathBuf);

    impl std::ops::Deref for Scratch {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("mplp-cmd-report-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn example(name: &str) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples/valid")
            .join(name);
        std::fs::read_to_string(path).unwrap()
    }

    /// The page as text.
    fn page(sections: &[Section]) -> String {
        let mut out = Vec::new();
        write_page(sections, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn report_of(errors: usize, warnings: usize) -> Report {
        let mut r = Report::new();
        for i in 0..errors {
            r.error(format!("/e/{i}").as_str(), Rule::TYPE, "e");
        }
        for i in 0..warnings {
            r.warn(format!("/w/{i}").as_str(), Rule::new("w"), "w");
        }
        r
    }

    #[test]
    fn a_section_counts_and_shows_at_most_max_of_each_severity() {
        let s = finish(
            "f".into(),
            "plan",
            report_of(3, 2),
            false,
            2,
            |_| None,
            None,
        );
        assert_eq!((s.errors, s.warnings, s.verdict), (3, 2, "invalid"));
        let shown: Vec<&str> = s.rows.iter().map(|(v, _)| v.pointer.as_str()).collect();
        assert_eq!(shown, ["/e/0", "/e/1", "/w/0", "/w/1"]);
        let page = page(&[s]);
        assert!(
            page.contains("<p class=\"counts\">3 errors, 2 warnings</p>"),
            "{page}"
        );
        assert!(page.contains("1 violation not shown"), "{page}");

        let s = finish(
            "g".into(),
            "plan",
            report_of(0, 1),
            false,
            5,
            |_| None,
            None,
        );
        assert_eq!(
            (s.errors, s.warnings, s.verdict, s.rows.len()),
            (0, 1, "valid", 1)
        );
        assert!(!page_of(s).contains("not shown"));
        let s = finish("h".into(), "auto", report_of(1, 0), true, 5, |_| None, None);
        assert_eq!(s.verdict, "unreadable");
    }

    fn page_of(s: Section) -> String {
        page(&[s])
    }

    #[test]
    fn the_page_counts_sections_by_verdict() {
        let sections = vec![
            finish(
                "a".into(),
                "plan",
                report_of(0, 0),
                false,
                5,
                |_| None,
                None,
            ),
            finish(
                "b".into(),
                "plan",
                report_of(1, 0),
                false,
                5,
                |_| None,
                None,
            ),
            finish(
                "c".into(),
                "plan",
                report_of(0, 0),
                false,
                5,
                |_| None,
                None,
            ),
            finish("d".into(), "auto", report_of(1, 0), true, 5, |_| None, None),
        ];
        let page = page(&sections);
        assert!(
            page.contains("4 files checked: 2 valid, 1 invalid, 1 unreadable."),
            "{page}"
        );
    }

    #[test]
    fn problems_and_unreadable_files_are_sections_with_their_violation() {
        let missing = Input::Problem {
            name: "gone.json".into(),
            violation: Violation::error("", mplp_core::rules::INPUT_IO, "cannot read"),
        };
        let s = section(&missing, 5);
        assert_eq!((s.verdict, s.errors, s.rows.len()), ("unreadable", 1, 1));
        assert_eq!(s.rows[0].0.rule, mplp_core::rules::INPUT_IO);
        let skipped = Input::Problem {
            name: "notes.txt".into(),
            violation: Violation::warning("", Rule::new("input-skipped"), "not JSON"),
        };
        let s = section(&skipped, 5);
        assert_eq!((s.verdict, s.warnings), ("valid", 1));
        let dir = scratch("unreadable");
        let s = section(&Input::File(dir.join("absent.json")), 5);
        assert_eq!((s.verdict, s.rows.len()), ("unreadable", 1));
    }

    #[test]
    fn a_plan_has_a_picture_and_other_documents_do_not() {
        let dir = scratch("pictures");
        let plan = dir.join("plan.json");
        std::fs::write(&plan, example("plan-minimal.json")).unwrap();
        let s = section(&Input::File(plan), 5);
        assert_eq!((s.kind, s.verdict), ("plan", "valid"));
        assert_eq!(s.picture.map(|(what, _)| what), Some("Plan"));
        let collab = dir.join("collab.json");
        std::fs::write(&collab, example("collab-swarm.json")).unwrap();
        assert!(section(&Input::File(collab), 5).picture.is_none());
    }

    #[test]
    fn a_map_log_is_drawn_unless_it_has_too_many_events() {
        let dir = scratch("logs");
        let log = example("map-log-round-robin.ndjson");
        let first = log.lines().next().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let s = log_section("map.ndjson".into(), &write("map.ndjson", &log), 5);
        assert_eq!(
            (s.kind, s.picture.map(|(what, _)| what)),
            ("map-log", Some("Session"))
        );
        // At the limit, drawn; past it, not.
        for (count, drawn) in [(MAX_DRAWN_EVENTS, true), (MAX_DRAWN_EVENTS + 1, false)] {
            let text = format!("{first}\n").repeat(count);
            let s = log_section("many.ndjson".into(), &write("many.ndjson", &text), 1);
            assert_eq!(s.picture.is_some(), drawn, "{count} events");
        }
        // An SA log, and a MAP log without one readable event: no picture.
        let sa = write("sa.ndjson", &example("sa-log-code-review.ndjson"));
        let s = log_section("sa.ndjson".into(), &sa, 5);
        assert_eq!((s.kind, s.picture.is_none()), ("sa-log", true));
        let broken = format!("{}\n", first.replace("\"event_id\"", "\"event_idx\""));
        let s = log_section(
            "map-log.ndjson".into(),
            &write("map-log.ndjson", &broken),
            5,
        );
        assert_eq!((s.kind, s.picture.is_none()), ("map-log", true));
    }

    #[test]
    fn only_the_rows_shown_are_kept_and_every_violation_is_counted() {
        use mplp_check::Sink as _;
        let mut found = Found::new(2);
        for v in report_of(5, 3) {
            assert!(found.violation(v).is_continue());
        }
        assert_eq!((found.errors, found.warnings), (5, 3));
        let kept: Vec<&str> = found
            .report
            .violations()
            .iter()
            .map(|v| v.pointer.as_str())
            .collect();
        assert_eq!(kept, ["/e/0", "/e/1", "/w/0", "/w/1"]);
        // A log of many bad lines: all counted, `max` of them kept and shown.
        let dir = scratch("bounded");
        let path = dir.join("bad.ndjson");
        std::fs::write(&path, "not json\n".repeat(1_000)).unwrap();
        let s = log_section("bad.ndjson".into(), &path, 3);
        assert_eq!((s.errors, s.rows.len(), s.verdict), (1_000, 3, "invalid"));
        let lines: Vec<Option<u64>> = s.rows.iter().map(|(v, _)| v.line).collect();
        assert_eq!(lines, [Some(1), Some(2), Some(3)]);
        assert_eq!(s.rows[0].1.as_deref(), Some("not json"));
    }

    #[test]
    fn a_fragment_is_the_value_or_the_parent_of_a_missing_member() {
        let doc = serde_json::json!({"a": {"b": [1, 2]}});
        assert_eq!(fragment(&doc, "/a/b/1").as_deref(), Some("2"));
        let parent = fragment(&doc, "/a/c").unwrap();
        assert!(
            parent.starts_with("(at `/a`, which holds the missing member)"),
            "{parent}"
        );
        assert!(fragment(&doc, "").unwrap().contains("\"b\""));
        let long = "x".repeat(MAX_FRAGMENT + 10);
        assert!(cut(&long).ends_with("… (cut)"));
        assert_eq!(cut("short"), "short");
    }

    #[test]
    fn back_quoted_text_becomes_code_and_everything_is_escaped() {
        assert_eq!(
            message_html("use `--max-errors all` <now> & `a<b>`"),
            "use <code>--max-errors all</code> &lt;now&gt; &amp; <code>a&lt;b&gt;</code>"
        );
        // A back quote without its pair stays as written.
        assert_eq!(message_html("a `b` c ` d"), "a <code>b</code> c ` d");
        assert_eq!(message_html("no quotes"), "no quotes");
        assert_eq!(message_html("``"), "<code></code>");
    }

    #[test]
    fn the_index_lists_failures_first_and_links_each_section() {
        let sections = vec![
            finish(
                "a.json".into(),
                "plan",
                report_of(0, 0),
                false,
                5,
                |_| None,
                None,
            ),
            finish(
                "b.json".into(),
                "plan",
                report_of(1, 0),
                false,
                5,
                |_| None,
                None,
            ),
            finish(
                "c.json".into(),
                "plan",
                report_of(0, 1),
                false,
                5,
                |_| None,
                None,
            ),
            finish(
                "d.json".into(),
                "auto",
                report_of(1, 0),
                true,
                5,
                |_| None,
                None,
            ),
        ];
        let page = page(&sections);
        let index = page.split("</nav>").next().unwrap();
        let links: Vec<&str> = index
            .split("<a href=\"#")
            .skip(1)
            .map(|l| l.split('"').next().unwrap())
            .collect();
        // Unreadable, invalid, valid with a warning, valid.
        assert_eq!(links, ["file-3", "file-1", "file-2", "file-0"]);
        // The sections come in the same order, and each link has its target.
        let ids: Vec<&str> = page
            .split("<section class=\"file ")
            .skip(1)
            .map(|s| s.split("id=\"").nth(1).unwrap().split('"').next().unwrap())
            .collect();
        assert_eq!(ids, links);
        // A document's table has no line column; a valid collab a note.
        assert!(!page.contains("<th>line</th>"), "{page}");
        assert!(page.contains("<p class=\"no-picture\">"), "{page}");
    }

    #[test]
    fn a_log_has_a_line_column_and_its_findings_are_marked_in_its_picture() {
        let dir = scratch("marked");
        let log = example("map-log-round-robin.ndjson");
        let mut lines: Vec<String> = log.lines().map(str::to_owned).collect();
        // Line 3's event gets an unknown member: an error at that line.
        lines[2] = lines[2].replacen("\"event_id\"", "\"surprise\":1,\"event_id\"", 1);
        let path = dir.join("marked.ndjson");
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let s = log_section("marked.ndjson".into(), &path, 5);
        assert_eq!(s.verdict, "invalid");
        let line = s.rows[0].0.line.unwrap();
        let (_, svg) = s.picture.as_ref().unwrap();
        assert!(
            svg.contains(&format!(
                "<g class=\"finding\" data-line=\"{line}\" data-rules=\"{}\"",
                s.rows[0].0.rule
            )),
            "{svg}"
        );
        let page = page(&[s]);
        assert!(page.contains("<th>line</th>"));
        assert!(page.contains(&format!("<td>{line}</td>")));
    }

    /// A line that is not UTF-8 does not end the second reading: the rows
    /// after it still get their fragments, and their events are drawn.
    #[test]
    fn a_line_that_is_not_utf8_does_not_stop_the_fragments_or_the_picture() {
        let dir = scratch("not-utf8");
        let log = example("map-log-round-robin.ndjson");
        let lines: Vec<&str> = log.lines().collect();
        let mut bytes = Vec::new();
        bytes.extend_from_slice(lines[0].as_bytes());
        bytes.extend_from_slice(b"\n{\"a\":\"\xff\"}\n");
        for line in &lines[1..] {
            bytes.extend_from_slice(
                line.replacen("\"event_id\"", "\"surprise\":1,\"event_id\"", 1)
                    .as_bytes(),
            );
            bytes.push(b'\n');
        }
        let path = dir.join("bytes.ndjson");
        std::fs::write(&path, &bytes).unwrap();
        let s = log_section("bytes.ndjson".into(), &path, 1000);
        let last = lines.len() as u64 + 1;
        let fragment_of = |line: u64| {
            s.rows
                .iter()
                .find(|(v, _)| v.line == Some(line))
                .and_then(|(_, f)| f.clone())
        };
        assert_eq!(fragment_of(2).as_deref(), Some("{\"a\":\"\u{fffd}\"}"));
        assert!(
            fragment_of(last).is_some_and(|f| f.contains("\"surprise\":1")),
            "{:?}",
            s.rows
        );
        let (_, svg) = s.picture.as_ref().unwrap();
        assert!(svg.contains(&format!("data-line=\"{last}\"")), "{svg}");
    }

    #[test]
    fn the_terminal_summary_says_what_failed_and_where_the_page_is() {
        let mut bad = report_of(0, 0);
        bad.error("/steps/2", Rule::TYPE, "expected `string`");
        let sections = vec![
            finish(
                "ok.json".into(),
                "plan",
                report_of(0, 0),
                false,
                5,
                |_| None,
                None,
            ),
            finish("bad.json".into(), "plan", bad, false, 5, |_| None, None),
        ];
        let text = terminal_summary(&sections, Some(Path::new("out.html")));
        assert_eq!(
            text,
            "mplp report: 2 files checked: 1 valid, 1 invalid, 0 unreadable; the page is `out.html`\n  bad.json: INVALID (plan), 1 error; first: /steps/2 [type] expected `string`\n"
        );
        let many: Vec<Section> = (0..MAX_NAMED + 2)
            .map(|i| {
                finish(
                    format!("f{i}"),
                    "auto",
                    report_of(1, 0),
                    true,
                    5,
                    |_| None,
                    None,
                )
            })
            .collect();
        let text = terminal_summary(&many, None);
        assert!(text.contains("the page is on standard output"), "{text}");
        assert!(
            text.ends_with("  ... and 2 more (see the page)\n"),
            "{text}"
        );
        assert_eq!(text.lines().count(), MAX_NAMED + 2);
    }
}
