//! The report of one file, written as its violations are found.
//!
//! **Text**: the first violation shown prints a `FILE (KIND):` header, each
//! violation is one indented line (severity, line, pointer, rule, message),
//! and a verdict line ends the file: `FILE: valid (KIND)` or
//! `FILE: INVALID (KIND)`, followed by how many errors and warnings were not
//! shown when `--max-errors` cut them.
//!
//! **JSON**: the record of [`mplp_check::record`] (one object per file on
//! one line, written as it goes; held warnings spill to an unnamed
//! temporary file past 1 MiB), the same record the WebAssembly package
//! returns.

use std::io::Write;
use std::ops::ControlFlow;

use mplp_check::record::{Held, Record, Tally};
use mplp_core::Violation;

pub(crate) use mplp_check::record::{Limit, Outcome};

/// The report of one file, written to `out` as it goes.
pub(crate) struct FileReport<'a, W: Write> {
    /// The command, for messages on standard error (`validate`, `watch`).
    command: &'static str,
    form: Form<'a, W>,
}

/// JSON (the record) or text.
enum Form<'a, W: Write> {
    Json(Record<&'a mut W>),
    Text(Text<'a, W>),
}

/// The text report of one file.
struct Text<'a, W: Write> {
    out: &'a mut W,
    file: String,
    kind: &'static str,
    limit: Limit,
    tally: Tally,
    unreadable: bool,
    /// The header is written.
    started: bool,
    failed: Option<std::io::Error>,
}

impl<'a, W: Write> FileReport<'a, W> {
    /// The report of `file` for `mplp COMMAND`.
    pub(crate) fn new(
        out: &'a mut W,
        json: bool,
        command: &'static str,
        file: String,
        limit: Limit,
    ) -> Self {
        let form = if json {
            Form::Json(Record::new(out, file, limit, Held::spilling()))
        } else {
            Form::Text(Text {
                out,
                file,
                kind: mplp_check::AUTO,
                limit,
                tally: Tally::default(),
                unreadable: false,
                started: false,
                failed: None,
            })
        };
        FileReport { command, form }
    }

    /// The kind checked (before the first violation).
    pub(crate) fn set_kind(&mut self, kind: &'static str) {
        match &mut self.form {
            Form::Json(r) => r.set_kind(kind),
            Form::Text(t) => t.kind = kind,
        }
    }

    /// Reports one violation found (at its profile's severity already);
    /// `Break` when the output failed.
    pub(crate) fn violation(&mut self, v: Violation) -> ControlFlow<()> {
        match &mut self.form {
            Form::Json(r) => mplp_check::Sink::violation(r, v),
            Form::Text(t) => match t.write(&v) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    t.failed = Some(e);
                    ControlFlow::Break(())
                }
            },
        }
    }

    /// Ends the file's report (the JSON object's tail, or the verdict line).
    pub(crate) fn finish(self) -> std::io::Result<Outcome> {
        match self.form {
            Form::Json(r) => r.finish().map(|(_, outcome)| outcome),
            Form::Text(t) => t.finish(),
        }
    }
}

impl<W: Write> Text<'_, W> {
    fn write(&mut self, v: &Violation) -> std::io::Result<()> {
        if self.tally.count(v.severity, self.limit).is_none() {
            return Ok(());
        }
        if !self.started {
            self.started = true;
            writeln!(self.out, "{} ({}):", self.file, self.kind)?;
        }
        let line = v.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        let pointer = if v.pointer.is_empty() {
            "(document)"
        } else {
            &v.pointer
        };
        writeln!(
            self.out,
            "  {}: {line}{pointer}: [{}] {}",
            v.severity, v.rule, v.message
        )
    }

    fn finish(mut self) -> std::io::Result<Outcome> {
        let write_failed = self.failed.is_some();
        if !write_failed {
            self.end()?;
        }
        Ok(Outcome {
            errors: self.tally.errors,
            warnings: self.tally.warnings,
            unreadable: self.unreadable,
            write_failed,
        })
    }

    fn end(&mut self) -> std::io::Result<()> {
        let valid = self.tally.errors == 0 && !self.unreadable;
        let (cut_errors, cut_warnings) = (
            self.tally.suppressed_errors(),
            self.tally.suppressed_warnings(),
        );
        let verdict = if self.unreadable {
            "UNREADABLE"
        } else if valid {
            "valid"
        } else {
            "INVALID"
        };
        write!(self.out, "{}: {verdict} ({})", self.file, self.kind)?;
        if cut_errors + cut_warnings > 0 {
            write!(
                self.out,
                ": {} error{} and {} warning{} not shown (of {} and {}; `--max-errors all` shows them)",
                cut_errors,
                if cut_errors == 1 { "" } else { "s" },
                cut_warnings,
                if cut_warnings == 1 { "" } else { "s" },
                self.tally.errors,
                self.tally.warnings,
            )?;
        }
        writeln!(self.out)
    }
}

/// The dispatch's findings, written as they come.
impl<W: Write> mplp_check::Sink for FileReport<'_, W> {
    fn kind(&mut self, kind: Option<&'static mplp_check::DocKind>) {
        self.set_kind(kind.map_or(mplp_check::AUTO, |k| k.name));
    }

    fn violation(&mut self, v: Violation) -> ControlFlow<()> {
        FileReport::violation(self, v)
    }

    /// An input that cannot be checked: its record, and its message on
    /// standard error too.
    fn unreadable(&mut self, v: Violation) -> ControlFlow<()> {
        eprintln!("mplp {}: {}", self.command, v.message);
        match &mut self.form {
            Form::Json(r) => mplp_check::Sink::unreadable(r, v),
            Form::Text(t) => {
                t.unreadable = true;
                FileReport::violation(self, v)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{FileReport, Limit};
    use mplp_core::{Rule, Violation};

    /// The report of `errors` errors and `warnings` warnings (each on a line
    /// of its own), shown up to `limit` of each.
    fn report_of(json: bool, limit: Limit, errors: usize, warnings: usize) -> String {
        let mut out = Vec::new();
        let mut report = FileReport::new(&mut out, json, "validate", "f".to_owned(), limit);
        report.set_kind("map-log");
        for i in 0..errors.max(warnings) {
            if i < errors {
                let _ = report
                    .violation(Violation::error("/e", Rule::new("e"), "m").at_line(i as u64 + 1));
            }
            if i < warnings {
                let _ = report
                    .violation(Violation::warning("/w", Rule::new("w"), "m").at_line(i as u64 + 1));
            }
        }
        let outcome = report.finish().unwrap();
        assert_eq!(
            (outcome.errors, outcome.warnings),
            (errors as u64, warnings as u64)
        );
        String::from_utf8(out).unwrap()
    }

    /// What `--max-errors` cuts is counted per severity, also when only
    /// warnings are cut.
    #[test]
    fn the_cut_errors_and_warnings_are_counted_apart() {
        let text = report_of(false, Limit::At(1), 0, 3);
        assert!(
            text.ends_with("f: valid (map-log): 0 errors and 2 warnings not shown (of 0 and 3; `--max-errors all` shows them)\n"),
            "{text}"
        );
        let text = report_of(false, Limit::At(2), 4, 3);
        assert!(
            text.ends_with("f: INVALID (map-log): 2 errors and 1 warning not shown (of 4 and 3; `--max-errors all` shows them)\n"),
            "{text}"
        );
        let text = report_of(false, Limit::At(3), 3, 3);
        assert!(text.ends_with("f: INVALID (map-log)\n"), "{text}");
        let json = report_of(true, Limit::At(2), 5, 3);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["errors"].as_array().map(Vec::len), Some(2));
        assert_eq!(v["warnings"].as_array().map(Vec::len), Some(2));
        assert_eq!(
            (&v["error_count"], &v["warning_count"]),
            (&serde_json::json!(5), &serde_json::json!(3))
        );
        assert_eq!(
            (&v["suppressed_errors"], &v["suppressed_warnings"]),
            (&serde_json::json!(3), &serde_json::json!(1))
        );
    }
}
