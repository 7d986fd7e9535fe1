//! Listing a directory: the files `mplp validate DIR`, `mplp report DIR`,
//! `mplp validate --bundle DIR`, [`bundle::files_in`](crate::bundle::files_in)
//! and the Python bindings check, found one way.
//!
//! A directory is searched depth-first for `.json` files (not
//! `.expect.json`, the expected findings beside an example) and for the
//! files the dispatch reads as logs (`.ndjson`, `.jsonl`:
//! [`is_log_file_name`](crate::is_log_file_name)), entries in name order;
//! the regular files passed by are counted ([`Passed`]) so that a front end
//! can say what it did not check. Symbolic links are followed, but a
//! directory is entered once: a link back to a directory being listed (a
//! loop) is an `io` error, a second way into a directory already listed is
//! skipped with an `input-skipped` warning, so no file is checked twice and
//! listing always ends. Entries that are not regular files (FIFOs, sockets,
//! devices) are never opened: each is an `input-skipped` warning. Names
//! that are not UTF-8 are kept as they are for opening and shown lossily.
//!
//! ```
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
//!     .join("../../schemas/examples/bundles/valid/plan-approved-and-running");
//! let listing = mplp_check::listing::list_dir(&dir);
//! assert_eq!(listing.files().count(), 4);
//! assert!(listing.problems().next().is_none());
//! ```

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use mplp_core::Violation;
use mplp_core::rules::{INPUT_IO, INPUT_SKIPPED};

/// The `io` violation of an operating-system error: `what: error`.
pub fn io_violation(what: &str, e: &std::io::Error) -> Violation {
    Violation::error("", INPUT_IO, format!("{what}: {e}"))
}

/// One entry of a [`Listing`], in listing order.
#[derive(Debug)]
pub enum Listed {
    /// A regular file to check.
    File(PathBuf),
    /// Something that cannot be checked, and why: an `io` error (a
    /// directory that cannot be listed, a loop, a dangling link to a file
    /// that would be read) or an `input-skipped` warning (not a regular
    /// file, a directory reached a second time).
    Problem {
        /// The path.
        path: PathBuf,
        /// Why.
        violation: Violation,
    },
}

/// What [`list_dir`] found.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Listing {
    /// The files to check and the problems, in listing order.
    pub entries: Vec<Listed>,
    /// The regular files passed by.
    pub passed: Passed,
}

impl Listing {
    /// The files to check, in listing order.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.entries.iter().filter_map(|e| match e {
            Listed::File(p) => Some(p.as_path()),
            Listed::Problem { .. } => None,
        })
    }

    /// The problems, in listing order.
    pub fn problems(&self) -> impl Iterator<Item = (&Path, &Violation)> {
        self.entries.iter().filter_map(|e| match e {
            Listed::Problem { path, violation } => Some((path.as_path(), violation)),
            Listed::File(_) => None,
        })
    }
}

/// Lists directory `dir` (see the [module](self) documentation). A `dir`
/// that cannot be listed gives one `io` problem.
pub fn list_dir(dir: &Path) -> Listing {
    let mut listing = Listing::default();
    let mut walk = Walk {
        listing: Vec::new(),
        listed: HashSet::new(),
        out: &mut listing,
    };
    walk.dir(dir);
    listing
}

/// The regular files of a directory that were not checked, by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Passed {
    /// `*.expect.json` files: the expected findings beside an example.
    pub expect_json: Vec<String>,
    /// Files of other names (`README.md`, `notes.txt`, ...).
    pub other: Vec<String>,
}

impl Passed {
    /// Whether nothing was passed by.
    pub fn is_empty(&self) -> bool {
        self.expect_json.is_empty() && self.other.is_empty()
    }

    /// `3 files not checked: 1 `*.expect.json` (...), 2 of other names
    /// (`a.txt`, `b.md`)`: what a directory's listing passed by, for a note.
    pub fn describe(&self) -> String {
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

/// Whether a directory's listing checks the file `name`, and if not, why:
/// `Err(true)` for an `*.expect.json`, `Err(false)` for another name.
fn wanted(name: &str) -> Result<(), bool> {
    if name.ends_with(".expect.json") {
        Err(true)
    } else if name.ends_with(".json") || crate::is_log_file_name(name) {
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
    out: &'a mut Listing,
}

impl Walk<'_> {
    fn problem(&mut self, path: &Path, violation: Violation) {
        self.out.entries.push(Listed::Problem {
            path: path.to_owned(),
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
                Ok(()) => self.out.entries.push(Listed::File(path.to_owned())),
                Err(true) => self.out.passed.expect_json.push(path.display().to_string()),
                Err(false) => self.out.passed.other.push(path.display().to_string()),
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
    use super::{Listed, Passed, describe, is_link_loop, list_dir, wanted};

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
        let dir = std::env::temp_dir().join(format!("mplp-listing-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let link = |to: &str, name: &str| std::os::unix::fs::symlink(to, dir.join(name)).unwrap();
        link("nowhere", "gone.json"); // would be read: reported
        link("nowhere", "gone.txt"); // would not be read: passed by
        link("loop", "loop"); // a loop, whatever its name: reported
        let listing = list_dir(&dir);
        let names: Vec<String> = listing
            .entries
            .iter()
            .map(|i| match i {
                Listed::Problem { path, .. } => path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                Listed::File(p) => panic!("not a problem: {}", p.display()),
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
        let dir = std::env::temp_dir().join(format!("mplp-listing-passed-{}", std::process::id()));
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
        let listing = list_dir(&dir);
        let passed = &listing.passed;
        let read: Vec<String> = listing
            .files()
            .map(|p| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
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

    #[test]
    fn passed_is_empty_only_when_both_lists_are_and_names_up_to_three() {
        let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let only_expect = Passed {
            expect_json: names(&["a.expect.json"]),
            other: Vec::new(),
        };
        let only_other = Passed {
            expect_json: Vec::new(),
            other: names(&["a.txt"]),
        };
        assert!(!only_expect.is_empty() && !only_other.is_empty());
        // Exactly three names: all shown, no "and 0 more".
        let three = Passed {
            expect_json: Vec::new(),
            other: names(&["a", "b", "c"]),
        };
        assert_eq!(
            three.describe(),
            "3 files not checked: 3 of other names (`a`, `b`, `c`); \
             a directory is searched for `.json`, `.ndjson` and `.jsonl` files"
        );
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
