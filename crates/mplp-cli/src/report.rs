//! The report of one file, written as its violations are found.
//!
//! **Text**: the first violation shown prints a `FILE (KIND):` header, each
//! violation is one indented line (severity, line, pointer, rule, message),
//! and a verdict line ends the file: `FILE: valid (KIND)` or
//! `FILE: INVALID (KIND)`, followed by how many errors and warnings were not
//! shown when `--max-errors` cut them.
//!
//! **JSON**: one object per file on one line, written as it goes:
//! `{"file", "kind", "errors": [...], "warnings": [...], "valid",
//! "error_count", "warning_count", "suppressed_errors",
//! "suppressed_warnings"}`. Errors are written straight into the output;
//! warnings, which come interleaved with them, are held in a buffer that
//! moves to an unnamed temporary file past 1 MiB, so memory stays bounded
//! however many there are. `kind` is known before the first violation (a
//! log's kind from its first line, a document's from its members).

use std::io::{Seek, Write};
use std::ops::ControlFlow;

use mplp_core::{Severity, Violation};

/// How many errors (and, separately, warnings) a file shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Limit {
    /// No limit.
    All,
    /// At most this many.
    At(u64),
}

impl Limit {
    fn allows(self, shown: u64) -> bool {
        match self {
            Limit::All => true,
            Limit::At(n) => shown < n,
        }
    }
}

/// What a file's report ended with.
pub(crate) struct Outcome {
    /// Errors found (shown or not), after the profile.
    pub(crate) errors: u64,
    /// Warnings found (shown or not), after the profile.
    pub(crate) warnings: u64,
    /// The input could not be checked (an `io` or `input-too-large` error).
    pub(crate) unreadable: bool,
    /// Writing the output failed.
    pub(crate) write_failed: bool,
}

/// Warnings waiting for the `"warnings"` array: in memory up to
/// [`SPILL_AT`] bytes, then in an unnamed temporary file.
struct Held {
    mem: Vec<u8>,
    file: Option<std::fs::File>,
}

/// Bytes of held warnings kept in memory.
const SPILL_AT: usize = 1 << 20;

impl Held {
    fn push(&mut self, v: &Violation) -> std::io::Result<()> {
        if !self.mem.is_empty() || self.file.is_some() {
            self.mem.push(b',');
        }
        serde_json::to_writer(&mut self.mem, v)?;
        if self.mem.len() >= SPILL_AT {
            if self.file.is_none() {
                self.file = Some(temp_file()?);
            }
            if let Some(f) = &mut self.file {
                f.write_all(&self.mem)?;
            }
            self.mem.clear();
        }
        Ok(())
    }

    fn copy_to(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if let Some(f) = &mut self.file {
            f.rewind()?;
            std::io::copy(f, out)?;
        }
        out.write_all(&self.mem)
    }
}

/// A temporary file that nobody else can open: created new, then unlinked
/// (on Unix the open handle keeps it until it is closed).
fn temp_file() -> std::io::Result<std::fs::File> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path =
        std::env::temp_dir().join(format!("mplp-validate-{}-{n}.warnings", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    let _ = std::fs::remove_file(&path);
    Ok(file)
}

/// The report of one file, written to `out` as it goes.
pub(crate) struct FileReport<'a, W: Write> {
    out: &'a mut W,
    json: bool,
    /// The command, for messages on standard error (`validate`, `watch`).
    command: &'static str,
    file: String,
    kind: &'static str,
    limit: Limit,
    errors: u64,
    warnings: u64,
    shown_errors: u64,
    shown_warnings: u64,
    unreadable: bool,
    /// The JSON head or the text header is written.
    started: bool,
    held: Held,
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
        FileReport {
            out,
            json,
            command,
            file,
            kind: mplp_check::AUTO,
            limit,
            errors: 0,
            warnings: 0,
            shown_errors: 0,
            shown_warnings: 0,
            unreadable: false,
            started: false,
            held: Held {
                mem: Vec::new(),
                file: None,
            },
            failed: None,
        }
    }

    /// The kind checked (before the first violation).
    pub(crate) fn set_kind(&mut self, kind: &'static str) {
        self.kind = kind;
    }

    /// Marks the input as one that could not be checked.
    pub(crate) fn set_unreadable(&mut self, unreadable: bool) {
        self.unreadable = unreadable;
    }

    /// Reports one violation found (at its profile's severity already);
    /// `Break` when the output failed.
    pub(crate) fn violation(&mut self, v: Violation) -> ControlFlow<()> {
        if let Err(e) = self.write(&v) {
            self.failed = Some(e);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn start(&mut self) -> std::io::Result<()> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        if self.json {
            write!(self.out, "{{\"file\":")?;
            serde_json::to_writer(&mut *self.out, &self.file)?;
            write!(self.out, ",\"kind\":\"{}\",\"errors\":[", self.kind)
        } else {
            writeln!(self.out, "{} ({}):", self.file, self.kind)
        }
    }

    fn write(&mut self, v: &Violation) -> std::io::Result<()> {
        let (count, shown) = match v.severity {
            Severity::Error => (&mut self.errors, &mut self.shown_errors),
            Severity::Warning => (&mut self.warnings, &mut self.shown_warnings),
        };
        *count += 1;
        if !self.limit.allows(*shown) {
            return Ok(());
        }
        *shown += 1;
        let first_error = v.severity == Severity::Error && *shown == 1;
        self.start()?;
        if self.json {
            if v.severity == Severity::Warning {
                return self.held.push(v);
            }
            if !first_error {
                self.out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *self.out, v)?;
            Ok(())
        } else {
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
    }

    /// Ends the file's report (the JSON object's tail, or the verdict line).
    pub(crate) fn finish(mut self) -> std::io::Result<Outcome> {
        let write_failed = self.failed.is_some();
        if !write_failed {
            self.end()?;
        }
        Ok(Outcome {
            errors: self.errors,
            warnings: self.warnings,
            unreadable: self.unreadable,
            write_failed,
        })
    }

    fn end(&mut self) -> std::io::Result<()> {
        let valid = self.errors == 0 && !self.unreadable;
        let (cut_errors, cut_warnings) = (
            self.errors - self.shown_errors,
            self.warnings - self.shown_warnings,
        );
        if self.json {
            self.start()?;
            self.out.write_all(b"],\"warnings\":[")?;
            self.held.copy_to(&mut *self.out)?;
            writeln!(
                self.out,
                "],\"valid\":{valid},\"error_count\":{},\"warning_count\":{},\"suppressed_errors\":{cut_errors},\"suppressed_warnings\":{cut_warnings}}}",
                self.errors, self.warnings
            )
        } else {
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
                    self.errors,
                    self.warnings,
                )?;
            }
            writeln!(self.out)
        }
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
        self.set_unreadable(true);
        FileReport::violation(self, v)
    }
}

#[cfg(test)]
mod tests {
    use super::{FileReport, Held, Limit, SPILL_AT};
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

    /// Held warnings stay in memory up to 1 MiB, then go to a file, and
    /// come back whole and in order.
    #[test]
    fn held_warnings_spill_to_a_file_past_a_mebibyte_and_come_back_in_order() {
        assert_eq!(SPILL_AT, 1024 * 1024);
        let mut held = Held {
            mem: Vec::new(),
            file: None,
        };
        let warning =
            |i: usize| Violation::warning(format!("/w/{i}"), Rule::new("w"), "m".repeat(1000));
        // The longest of them (the pointers grow with the index), and its comma.
        let size = serde_json::to_vec(&warning(99_999)).unwrap().len() + 1;
        let fit = SPILL_AT / size - 1;
        for i in 0..fit {
            held.push(&warning(i)).unwrap();
        }
        assert!(held.file.is_none(), "{} bytes held", held.mem.len());
        let n = fit + 10;
        for i in fit..n {
            held.push(&warning(i)).unwrap();
        }
        assert!(held.file.is_some());
        assert!(held.mem.len() < SPILL_AT);
        let mut out = b"[".to_vec();
        held.copy_to(&mut out).unwrap();
        out.push(b']');
        let back: Vec<serde_json::Value> = serde_json::from_slice(&out).unwrap();
        assert_eq!(back.len(), n);
        for (i, v) in back.iter().enumerate() {
            assert_eq!(v["pointer"], format!("/w/{i}"));
        }
    }
}
