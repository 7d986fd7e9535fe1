//! What `mplp validate` checks: its arguments, with directories listed.
//!
//! A directory is searched depth-first for `.json` files (not
//! `.expect.json`, the expected findings beside an example) and for the
//! files the dispatch reads as logs (`.ndjson`, `.jsonl`:
//! [`mplp_check::is_log_file_name`]), entries in name order; the regular
//! files passed by are counted ([`Passed`]) so that the command can say
//! what it did not check. Symbolic links are
//! followed, but a directory is entered once: a link back to a directory
//! being listed (a loop) is an `io` error record, a second way into a
//! directory already listed is skipped with an `input-skipped` warning, so
//! no file is checked twice and listing always ends. Entries that are not
//! regular files (FIFOs, sockets, devices) are never opened: each is an
//! `input-skipped` warning (a FIFO named on the command line is read, as
//! standard input is). Names that are not UTF-8 are kept as they are for
//! opening and shown lossily.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use mplp_core::Violation;
use mplp_core::rules::{INPUT_IO, INPUT_SKIPPED};

/// One thing to check.
pub(crate) enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file (or a FIFO named on the command line).
    File(PathBuf),
    /// Something that cannot be checked, with the violation that says why
    /// (an `io` error, or an `input-skipped` warning).
    Problem {
        /// The path, lossily shown.
        name: String,
        /// Why.
        violation: Violation,
    },
}

impl Input {
    /// The name shown in reports: `-`, or the path as given (lossily).
    pub(crate) fn name(&self) -> String {
        match self {
            Input::Stdin => "-".to_owned(),
            Input::File(p) => p.display().to_string(),
            Input::Problem { name, .. } => name.clone(),
        }
    }
}

/// The `io` violation of an operating-system error.
pub(crate) fn io_violation(what: &str, e: &std::io::Error) -> Violation {
    Violation::error("", INPUT_IO, format!("{what}: {e}"))
}

/// The regular files of a directory that were not checked, by reason.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Passed {
    /// `*.expect.json` files: the expected findings beside an example.
    pub(crate) expect_json: Vec<String>,
    /// Files of other names (`README.md`, `notes.txt`, ...).
    pub(crate) other: Vec<String>,
}

impl Passed {
    /// Whether nothing was passed by.
    pub(crate) fn is_empty(&self) -> bool {
        self.expect_json.is_empty() && self.other.is_empty()
    }

    /// `3 files not checked: 1 `*.expect.json` (...), 2 of other names
    /// (`a.txt`, `b.md`)`: what a directory's listing passed by, for a note.
    pub(crate) fn describe(&self) -> String {
        const SHOWN: usize = 3;
        let names = |list: &[String]| {
            let mut s = list
                .iter()
                .take(SHOWN)
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ");
            if list.len() > SHOWN {
                s.push_str(&format!(", and {} more", list.len() - SHOWN));
            }
            s
        };
        let total = self.expect_json.len() + self.other.len();
        let mut parts = Vec::new();
        if !self.expect_json.is_empty() {
            parts.push(format!(
                "{} `*.expect.json` (the expected findings beside an example: {}; name one to check it)",
                self.expect_json.len(),
                names(&self.expect_json)
            ));
        }
        if !self.other.is_empty() {
            parts.push(format!(
                "{} of other names ({})",
                self.other.len(),
                names(&self.other)
            ));
        }
        format!(
            "{total} file{} not checked: {}; a directory is searched for `.json`, `.ndjson` and `.jsonl` files",
            if total == 1 { "" } else { "s" },
            parts.join(", ")
        )
    }
}

/// Adds `arg` to `inputs`, or what a directory holds; returns the regular
/// files a directory's listing passed by.
pub(crate) fn expand(arg: &str, inputs: &mut Vec<Input>) -> Passed {
    let mut passed = Passed::default();
    if arg == "-" {
        inputs.push(Input::Stdin);
        return passed;
    }
    let path = Path::new(arg);
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            let mut walk = Walk {
                listing: Vec::new(),
                listed: HashSet::new(),
                inputs,
                passed: &mut passed,
            };
            walk.dir(path);
        }
        // A file, a FIFO, or something that cannot be opened: opening it
        // tells (and reports the operating system's error).
        _ => inputs.push(Input::File(path.to_owned())),
    }
    passed
}

/// Whether a directory's listing checks the file `name`, and if not, why:
/// `Err(true)` for an `*.expect.json`, `Err(false)` for another name.
fn wanted(name: &str) -> Result<(), bool> {
    if name.ends_with(".expect.json") {
        Err(true)
    } else if name.ends_with(".json") || mplp_check::is_log_file_name(name) {
        Ok(())
    } else {
        Err(false)
    }
}

struct Walk<'a> {
    /// The canonical paths of the directories being listed (the current
    /// branch): a link to one of them is a loop.
    listing: Vec<PathBuf>,
    /// Every directory entered so far, canonical.
    listed: HashSet<PathBuf>,
    inputs: &'a mut Vec<Input>,
    /// The regular files passed by.
    passed: &'a mut Passed,
}

impl Walk<'_> {
    fn problem(&mut self, path: &Path, violation: Violation) {
        self.inputs.push(Input::Problem {
            name: path.display().to_string(),
            violation,
        });
    }

    fn dir(&mut self, dir: &Path) {
        let canonical = match std::fs::canonicalize(dir) {
            Ok(c) => c,
            Err(e) => {
                let v = io_violation(&format!("cannot list `{}`", dir.display()), &e);
                return self.problem(dir, v);
            }
        };
        if let Some(ancestor) = self.listing.iter().find(|a| **a == canonical) {
            let v = Violation::error(
                "",
                INPUT_IO,
                format!(
                    "directory loop: `{}` leads back to `{}`, which is being listed; not followed",
                    dir.display(),
                    ancestor.display()
                ),
            );
            return self.problem(dir, v);
        }
        if !self.listed.insert(canonical.clone()) {
            let v = Violation::warning(
                "",
                INPUT_SKIPPED,
                format!(
                    "`{}` is `{}`, already listed through another path; skipped",
                    dir.display(),
                    canonical.display()
                ),
            );
            return self.problem(dir, v);
        }
        let mut entries = Vec::new();
        match std::fs::read_dir(dir) {
            Ok(list) => {
                for entry in list {
                    match entry {
                        Ok(e) => entries.push(e),
                        Err(e) => {
                            let v = io_violation(&format!("cannot list `{}`", dir.display()), &e);
                            self.problem(dir, v);
                        }
                    }
                }
            }
            Err(e) => {
                let v = io_violation(&format!("cannot list `{}`", dir.display()), &e);
                return self.problem(dir, v);
            }
        }
        entries.sort_by_key(std::fs::DirEntry::file_name);
        self.listing.push(canonical);
        for entry in entries {
            self.entry(&entry.path(), entry.file_type());
        }
        self.listing.pop();
    }

    fn entry(&mut self, path: &Path, file_type: std::io::Result<std::fs::FileType>) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let verdict = wanted(&name);
        let wanted = verdict.is_ok();
        let file_type = match file_type {
            Ok(t) if t.is_symlink() => std::fs::metadata(path).map(|m| m.file_type()),
            other => other,
        };
        match file_type {
            Ok(t) if t.is_dir() => self.dir(path),
            Ok(t) if t.is_file() => match verdict {
                Ok(()) => self.inputs.push(Input::File(path.to_owned())),
                Err(true) => self.passed.expect_json.push(path.display().to_string()),
                Err(false) => self.passed.other.push(path.display().to_string()),
            },
            Ok(t) => {
                if wanted {
                    let v = Violation::warning(
                        "",
                        INPUT_SKIPPED,
                        format!(
                            "`{}` is {}, not a regular file; skipped without opening it",
                            path.display(),
                            describe(t)
                        ),
                    );
                    self.problem(path, v);
                }
            }
            // A dangling link, a link loop, or an entry that vanished.
            Err(e) => {
                if wanted || is_link_loop(&e) {
                    let v = io_violation(&format!("cannot open `{}`", path.display()), &e);
                    self.problem(path, v);
                }
            }
        }
    }
}

/// Whether `e` is "too many levels of symbolic links" (ELOOP).
fn is_link_loop(e: &std::io::Error) -> bool {
    // ELOOP is 40 on Linux and 62 on the BSDs and macOS.
    cfg!(target_os = "linux") && e.raw_os_error() == Some(40)
        || cfg!(any(target_os = "macos", target_os = "freebsd")) && e.raw_os_error() == Some(62)
}

/// "a FIFO", "a socket", ... for a file type that is not a file or directory.
fn describe(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    let _ = t;
    "not a regular file"
}

#[cfg(test)]
mod tests {
    use super::{Input, Passed, describe, expand, is_link_loop, wanted};

    #[test]
    fn a_link_loop_is_told_from_other_errors() {
        let raw = std::io::Error::from_raw_os_error;
        assert_eq!(is_link_loop(&raw(40)), cfg!(target_os = "linux"));
        assert_eq!(
            is_link_loop(&raw(62)),
            cfg!(any(target_os = "macos", target_os = "freebsd"))
        );
        assert!(!is_link_loop(&raw(2)));
        assert!(!is_link_loop(&std::io::ErrorKind::NotFound.into()));
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_reports_broken_links_it_would_read_and_every_link_loop() {
        let dir = std::env::temp_dir().join(format!("mplp-inputs-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let link = |to: &str, name: &str| std::os::unix::fs::symlink(to, dir.join(name)).unwrap();
        link("nowhere", "gone.json"); // would be read: reported
        link("nowhere", "gone.txt"); // would not be read: passed by
        link("loop", "loop"); // a loop, whatever its name: reported
        let mut inputs = Vec::new();
        expand(&dir.to_string_lossy(), &mut inputs);
        let names: Vec<String> = inputs
            .iter()
            .map(|i| match i {
                Input::Problem { name, .. } => {
                    name.rsplit('/').next().unwrap_or_default().to_owned()
                }
                other => panic!("not a problem: {}", other.name()),
            })
            .collect();
        assert_eq!(names, ["gone.json", "loop"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_listing_reads_documents_and_logs_and_counts_what_it_passes_by() {
        assert_eq!(wanted("a.json"), Ok(()));
        assert_eq!(wanted("a.ndjson"), Ok(()));
        assert_eq!(wanted("a.jsonl"), Ok(()));
        assert_eq!(wanted("a.expect.json"), Err(true));
        assert_eq!(wanted("a.txt"), Err(false));
        assert_eq!(wanted("json"), Err(false));
        let dir = std::env::temp_dir().join(format!("mplp-inputs-passed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for name in [
            "a.json",
            "a.expect.json",
            "b.jsonl",
            "c.ndjson",
            "README.md",
            "x.txt",
            "y.txt",
            "z.txt",
        ] {
            std::fs::write(dir.join(name), "{}").unwrap();
        }
        let mut inputs = Vec::new();
        let passed = expand(&dir.to_string_lossy(), &mut inputs);
        let read: Vec<String> = inputs
            .iter()
            .map(|i| i.name().rsplit('/').next().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(read, ["a.json", "b.jsonl", "c.ndjson"]);
        assert_eq!(passed.expect_json.len(), 1);
        assert_eq!(passed.other.len(), 4);
        let d = passed.describe();
        assert!(
            d.starts_with(
                "5 files not checked: 1 `*.expect.json` (the expected findings beside an example: `"
            ),
            "{d}"
        );
        assert!(
            d.contains("a.expect.json`; name one to check it), 4 of other names (`"),
            "{d}"
        );
        assert!(
            d.contains(
                "`, and 1 more); a directory is searched for `.json`, `.ndjson` and `.jsonl` files"
            ),
            "{d}"
        );
        assert!(Passed::default().is_empty() && !passed.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_described() {
        let null = std::fs::metadata("/dev/null").unwrap().file_type();
        assert_eq!(describe(null), "a device");
        let dir = std::fs::metadata("/").unwrap().file_type();
        assert_eq!(describe(dir), "not a regular file");
    }
}
