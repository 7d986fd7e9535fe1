//! The JSON record of one input: what `mplp validate --format json` prints
//! for a file, and what the WebAssembly package's `validate` returns. It is
//! declared here once, as a [`Sink`] of the dispatch, so that every front
//! end writes the same bytes.
//!
//! One object on one line, written as the violations are found:
//!
//! ```text
//! {"file","kind","errors":[...],"warnings":[...],"valid","error_count",
//!  "warning_count","suppressed_errors","suppressed_warnings"}
//! ```
//!
//! Errors go straight into the output; warnings, which come interleaved
//! with them, wait in a [`Held`] buffer (which can move to an unnamed
//! temporary file past 1 MiB, so memory stays bounded however many there
//! are). `kind` is known before the first violation (a log's kind from its
//! first line, a document's from its members). At most [`Limit`] errors and
//! [`Limit`] warnings are shown; the rest are counted.
//!
//! ```
//! use mplp_check::record::{Held, Limit, Record};
//! use mplp_check::{Options, Source, validate_source};
//!
//! let mut record = Record::new(Vec::new(), "plan.json", Limit::All, Held::in_memory());
//! validate_source(None, Source::text(br#"{"plan_id": 1}"#), &Options::default(), &mut record);
//! let (bytes, outcome) = record.finish()?;
//! let json: serde_json::Value = serde_json::from_slice(&bytes)?;
//! assert_eq!(json["kind"], "plan");
//! assert_eq!(json["valid"], false);
//! assert_eq!(json["error_count"].as_u64(), Some(outcome.errors));
//! assert!(bytes.ends_with(b"}\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{Seek, Write};
use std::ops::ControlFlow;

use mplp_core::{Severity, Violation};

use crate::{AUTO, DocKind, Sink};

/// How many errors (and, separately, warnings) a record shows; the rest are
/// counted (`suppressed_errors`, `suppressed_warnings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// No limit.
    All,
    /// At most this many of each severity.
    At(u64),
}

impl Limit {
    /// Whether one more can be shown when `shown` already are.
    pub fn allows(self, shown: u64) -> bool {
        match self {
            Limit::All => true,
            Limit::At(n) => shown < n,
        }
    }
}

/// The counts of a record: found and shown, per severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tally {
    /// Errors found (shown or not).
    pub errors: u64,
    /// Warnings found (shown or not).
    pub warnings: u64,
    /// Errors shown.
    pub shown_errors: u64,
    /// Warnings shown.
    pub shown_warnings: u64,
}

impl Tally {
    /// Counts one violation of `severity`: `None` when `limit` hides it,
    /// else `Some(first)`, `first` being true for the first one of its
    /// severity shown.
    pub fn count(&mut self, severity: Severity, limit: Limit) -> Option<bool> {
        let (count, shown) = match severity {
            Severity::Error => (&mut self.errors, &mut self.shown_errors),
            Severity::Warning => (&mut self.warnings, &mut self.shown_warnings),
        };
        *count += 1;
        if !limit.allows(*shown) {
            return None;
        }
        *shown += 1;
        Some(*shown == 1)
    }

    /// Errors found but not shown.
    pub fn suppressed_errors(&self) -> u64 {
        self.errors - self.shown_errors
    }

    /// Warnings found but not shown.
    pub fn suppressed_warnings(&self) -> u64 {
        self.warnings - self.shown_warnings
    }
}

/// Bytes of held warnings kept in memory before [`Held::spilling`] moves
/// them to a file: 1 MiB.
pub const SPILL_AT: usize = 1 << 20;

/// Warnings waiting for the record's `"warnings"` array.
#[derive(Debug)]
pub struct Held {
    mem: Vec<u8>,
    file: Option<std::fs::File>,
    spill: bool,
}

impl Held {
    /// Held in memory (where there is no file system, as in a browser; the
    /// [`Limit`] then bounds them).
    pub fn in_memory() -> Self {
        Held {
            mem: Vec::new(),
            file: None,
            spill: false,
        }
    }

    /// In memory up to [`SPILL_AT`] bytes, then in an unnamed temporary
    /// file (the CLI's).
    pub fn spilling() -> Self {
        Held {
            spill: true,
            ..Held::in_memory()
        }
    }

    fn push(&mut self, v: &Violation) -> std::io::Result<()> {
        if !self.mem.is_empty() || self.file.is_some() {
            self.mem.push(b',');
        }
        serde_json::to_writer(&mut self.mem, v)?;
        if self.spill && self.mem.len() >= SPILL_AT {
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

/// What a record ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Errors found (shown or not), after the profile.
    pub errors: u64,
    /// Warnings found (shown or not), after the profile.
    pub warnings: u64,
    /// The input could not be checked (an `io` or `input-too-large` error).
    pub unreadable: bool,
    /// Writing the output failed.
    pub write_failed: bool,
}

/// The JSON record of one input, written to `out` as the dispatch finds
/// its violations (see the [module](self)).
#[derive(Debug)]
pub struct Record<W: Write> {
    out: W,
    file: String,
    kind: &'static str,
    limit: Limit,
    tally: Tally,
    unreadable: bool,
    /// The head (`{"file":..,"kind":..,"errors":[`) is written.
    started: bool,
    held: Held,
    failed: Option<std::io::Error>,
}

impl<W: Write> Record<W> {
    /// The record of the input called `file` (`-`: standard input, or an
    /// input without a name), showing at most `limit` of each severity.
    pub fn new(out: W, file: impl Into<String>, limit: Limit, held: Held) -> Self {
        Record {
            out,
            file: file.into(),
            kind: AUTO,
            limit,
            tally: Tally::default(),
            unreadable: false,
            started: false,
            held,
            failed: None,
        }
    }

    /// The kind checked (before the first violation); [`AUTO`] until then.
    pub fn set_kind(&mut self, kind: &'static str) {
        self.kind = kind;
    }

    /// Marks the input as one that could not be checked.
    pub fn set_unreadable(&mut self, unreadable: bool) {
        self.unreadable = unreadable;
    }

    /// The counts so far.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    fn start(&mut self) -> std::io::Result<()> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        write!(self.out, "{{\"file\":")?;
        serde_json::to_writer(&mut self.out, &self.file)?;
        write!(self.out, ",\"kind\":\"{}\",\"errors\":[", self.kind)
    }

    fn write(&mut self, v: &Violation) -> std::io::Result<()> {
        let Some(first) = self.tally.count(v.severity, self.limit) else {
            return Ok(());
        };
        self.start()?;
        if v.severity == Severity::Warning {
            return self.held.push(v);
        }
        if !first {
            self.out.write_all(b",")?;
        }
        serde_json::to_writer(&mut self.out, v)?;
        Ok(())
    }

    /// Ends the record (its tail and a newline): the output back, and the
    /// outcome.
    ///
    /// # Errors
    /// When writing the tail fails (an earlier failed write is in the
    /// outcome's `write_failed`, and then the tail is not written).
    pub fn finish(mut self) -> std::io::Result<(W, Outcome)> {
        let write_failed = self.failed.is_some();
        if !write_failed {
            self.end()?;
        }
        let outcome = Outcome {
            errors: self.tally.errors,
            warnings: self.tally.warnings,
            unreadable: self.unreadable,
            write_failed,
        };
        Ok((self.out, outcome))
    }

    fn end(&mut self) -> std::io::Result<()> {
        let valid = self.tally.errors == 0 && !self.unreadable;
        self.start()?;
        self.out.write_all(b"],\"warnings\":[")?;
        self.held.copy_to(&mut self.out)?;
        writeln!(
            self.out,
            "],\"valid\":{valid},\"error_count\":{},\"warning_count\":{},\"suppressed_errors\":{},\"suppressed_warnings\":{}}}",
            self.tally.errors,
            self.tally.warnings,
            self.tally.suppressed_errors(),
            self.tally.suppressed_warnings(),
        )
    }
}

/// The dispatch's findings, written as they come.
impl<W: Write> Sink for Record<W> {
    fn kind(&mut self, kind: Option<&'static DocKind>) {
        self.set_kind(kind.map_or(AUTO, |k| k.name));
    }

    /// `Break` when the output failed.
    fn violation(&mut self, v: Violation) -> ControlFlow<()> {
        if let Err(e) = self.write(&v) {
            self.failed = Some(e);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// An input that cannot be checked: not valid, whatever else it holds.
    fn unreadable(&mut self, v: Violation) -> ControlFlow<()> {
        self.set_unreadable(true);
        self.violation(v)
    }
}

#[cfg(test)]
mod tests {
    use super::{Held, Limit, Record, SPILL_AT, Tally};
    use crate::Sink;
    use mplp_core::{Rule, Severity, Violation};

    /// The record of `errors` errors and `warnings` warnings (interleaved),
    /// shown up to `limit` of each.
    fn record_of(limit: Limit, errors: usize, warnings: usize) -> serde_json::Value {
        let mut record = Record::new(Vec::new(), "f", limit, Held::in_memory());
        record.set_kind("map-log");
        for i in 0..errors.max(warnings) {
            if i < errors {
                let _ = record
                    .violation(Violation::error("/e", Rule::new("e"), "m").at_line(i as u64 + 1));
            }
            if i < warnings {
                let _ = record
                    .violation(Violation::warning("/w", Rule::new("w"), "m").at_line(i as u64 + 1));
            }
        }
        let (out, outcome) = record.finish().unwrap();
        assert_eq!(
            (outcome.errors, outcome.warnings),
            (errors as u64, warnings as u64)
        );
        assert_eq!(out.iter().filter(|b| **b == b'\n').count(), 1);
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn the_cut_errors_and_warnings_are_counted_apart() {
        let v = record_of(Limit::At(2), 5, 3);
        assert_eq!(v["errors"].as_array().map(Vec::len), Some(2));
        assert_eq!(v["warnings"].as_array().map(Vec::len), Some(2));
        assert_eq!(
            (v["error_count"].as_u64(), v["warning_count"].as_u64()),
            (Some(5), Some(3))
        );
        assert_eq!(
            (
                v["suppressed_errors"].as_u64(),
                v["suppressed_warnings"].as_u64()
            ),
            (Some(3), Some(1))
        );
        assert_eq!(v["valid"], false);
        assert_eq!(v["kind"], "map-log");
        let v = record_of(Limit::All, 0, 4);
        assert_eq!(v["valid"], true);
        assert_eq!(v["warnings"].as_array().map(Vec::len), Some(4));
        let v = record_of(Limit::At(0), 3, 0);
        assert_eq!(v["errors"].as_array().map(Vec::len), Some(0));
        assert_eq!(v["suppressed_errors"].as_u64(), Some(3));
    }

    #[test]
    fn an_empty_record_and_an_unreadable_one() {
        let record = Record::new(Vec::new(), "a \"b\"", Limit::All, Held::in_memory());
        let (out, _) = record.finish().unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"file\":\"a \\\"b\\\"\",\"kind\":\"auto\",\"errors\":[],\"warnings\":[],\"valid\":true,\"error_count\":0,\"warning_count\":0,\"suppressed_errors\":0,\"suppressed_warnings\":0}\n"
        );
        let mut record = Record::new(Vec::new(), "x", Limit::At(0), Held::in_memory());
        let _ = record.unreadable(Violation::warning("", Rule::new("io"), "m"));
        let (out, outcome) = record.finish().unwrap();
        assert!(outcome.unreadable);
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["valid"], false);
    }

    #[test]
    fn tally_marks_the_first_shown_of_each_severity() {
        let mut t = Tally::default();
        assert_eq!(t.count(Severity::Warning, Limit::At(1)), Some(true));
        assert_eq!(t.count(Severity::Error, Limit::At(1)), Some(true));
        assert_eq!(t.count(Severity::Error, Limit::At(1)), None);
        assert_eq!(t.count(Severity::Error, Limit::All), Some(false));
        assert_eq!((t.errors, t.shown_errors, t.suppressed_errors()), (3, 2, 1));
        assert_eq!((t.warnings, t.suppressed_warnings()), (1, 0));
    }

    /// A failed write stops the check and leaves the tail unwritten.
    #[test]
    fn a_failed_write_breaks() {
        struct Full;
        impl std::io::Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut record = Record::new(Full, "x", Limit::All, Held::in_memory());
        assert!(
            record
                .violation(Violation::error("", Rule::new("e"), "m"))
                .is_break()
        );
        let (_, outcome) = record.finish().unwrap();
        assert!(outcome.write_failed);
    }

    /// Held warnings stay in memory up to 1 MiB, then go to a file, and
    /// come back whole and in order; in memory only, they never spill.
    #[test]
    fn held_warnings_spill_to_a_file_past_a_mebibyte_and_come_back_in_order() {
        assert_eq!(SPILL_AT, 1024 * 1024);
        let mut held = Held::spilling();
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
        let mut memory = Held::in_memory();
        for i in 0..n {
            memory.push(&warning(i)).unwrap();
        }
        assert!(memory.file.is_none());
    }
}
