//! `cargo xtask mutants [--file PATH]... [--in-diff BASE] [-j N | --in-place] [-- ARGS...]`:
//! runs [cargo-mutants](https://mutants.rs) with the project's settings and
//! prints, per source file, how many mutants were caught, missed, unviable
//! or timed out.
//!
//! - `--file PATH` (repeatable) mutates only that file; `--in-diff BASE`
//!   mutates only the lines changed since the git revision `BASE`
//!   (`git diff BASE`). Without either, every file of the workspace is
//!   mutated (hours on two cores).
//! - The project's settings: `--no-shuffle`, `-j 1` unless `-j` says
//!   otherwise, the output under `target/mutants/`, the unit and
//!   integration tests only (`cargo test --tests`: doctests are compiled one
//!   by one, which costs minutes per mutant on two cores, and they are
//!   examples, not the tests that must catch bugs; `--with-doctests` runs
//!   them too), the `mutation` cargo profile (the workspace's crates at
//!   opt-level 0, their dependencies at 1: a mutant's rebuild takes a
//!   third to a fifth of the time it takes at the test profile), the
//!   environment variable `MPLP_MUTATION_RUN` (tests that take minutes
//!   unoptimised on huge input shrink it: mplp-plan's million-step chains
//!   become 50,000 steps, still too deep for any recursion), every feature
//!   of the mutated package (`--all-features`, as CI tests: code behind a
//!   feature, such as mplp-dialog's `TiktokenCounter`, is mutated and
//!   tested too), and the checked-in
//!   `.cargo/mutants.toml`, which excludes the equivalent mutants (each with
//!   its reason) and nothing else. cargo-mutants runs the tests of the
//!   package that holds the mutated file; that package's own tests must
//!   catch its mutants.
//! - `--in-place` mutates the working tree itself and builds in its own
//!   (warm) `target/`, one mutant at a time, instead of copying the tree
//!   and rebuilding every dependency in the copy: on two cores, the way to
//!   run a few files. Commit first: cargo-mutants restores each file after
//!   its mutant, but an interrupted run can leave one mutated (`git diff`
//!   shows it). Not with `-j`, which cargo-mutants refuses with it.
//! - Arguments after `--` go to cargo-mutants unchanged (for example
//!   `-- --test-workspace true` or `-- --timeout 120`).
//! - cargo-mutants is located with `cargo mutants --version`; when it is
//!   missing, `cargo install --locked cargo-mutants` is tried once, and the
//!   command fails with a message saying what to do if that fails too.
//!
//! Exit status: 0 when no mutant was missed, 1 when some were, 2 when
//! cargo-mutants could not run. A timeout counts as caught (the mutant made
//! a test hang, and cargo-mutants stopped it), but is listed.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const USAGE: &str = "usage: cargo xtask mutants [--file PATH]... [--in-diff BASE] [-j N | --in-place] [--with-doctests] [-- CARGO-MUTANTS-ARGS...]";

/// Where cargo-mutants writes `mutants.out/`, from the repository root.
pub(crate) const OUTPUT_DIR: &str = "target/mutants";

/// The cargo profile mutants are built with (declared in the workspace's
/// `Cargo.toml`: the workspace's crates unoptimised, so that each mutant
/// rebuilds quickly; the dependencies at opt-level 1).
pub(crate) const PROFILE: &str = "mutation";

/// Set for the tests of a mutation run: tests that take minutes unoptimised
/// on huge input (mplp-plan's million-step chains) use a smaller input that
/// still checks what they are for.
pub(crate) const MUTATION_RUN_ENV: &str = "MPLP_MUTATION_RUN";

/// The options of `cargo xtask mutants`.
#[derive(Debug, PartialEq)]
pub(crate) struct Options {
    /// Files to mutate (relative to the repository root).
    pub(crate) files: Vec<PathBuf>,
    /// Mutate only the lines changed since this git revision.
    pub(crate) in_diff: Option<String>,
    /// Parallel build-and-test jobs.
    pub(crate) jobs: u32,
    /// Run the doctests too.
    pub(crate) doctests: bool,
    /// Mutate the working tree itself (no copy, no `-j`).
    pub(crate) in_place: bool,
    /// Passed to cargo-mutants unchanged.
    pub(crate) extra: Vec<String>,
}

/// Parses the arguments after `mutants`.
pub(crate) fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        files: Vec::new(),
        in_diff: None,
        jobs: 1,
        doctests: false,
        in_place: false,
        extra: Vec::new(),
    };
    let mut jobs_given = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--file" | "-f" => options.files.push(PathBuf::from(value()?)),
            "--in-diff" => {
                if options.in_diff.is_some() {
                    return Err(format!("--in-diff given twice\n{USAGE}"));
                }
                options.in_diff = Some(value()?);
            }
            "-j" | "--jobs" => {
                let v = value()?;
                options.jobs = match v.parse() {
                    Ok(0) | Err(_) => return Err(format!("-j: `{v}` is not a positive number")),
                    Ok(n) => n,
                };
                jobs_given = true;
            }
            "--with-doctests" => options.doctests = true,
            "--in-place" => options.in_place = true,
            "--" => {
                options.extra = it.by_ref().cloned().collect();
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    if options.in_place && jobs_given {
        return Err(format!(
            "--in-place mutates one tree, one mutant at a time: it cannot take -j\n{USAGE}"
        ));
    }
    Ok(options)
}

/// The outcome of one mutant, as cargo-mutants files it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Outcome {
    /// A test failed: the mutant was caught.
    Caught,
    /// Every test passed: a gap in the tests (or an equivalent mutant that
    /// belongs in `.cargo/mutants.toml`).
    Missed,
    /// The mutant did not build.
    Unviable,
    /// The tests did not finish in time (usually an endless loop: caught).
    Timeout,
}

impl Outcome {
    /// Every outcome, with the file cargo-mutants lists it in.
    pub(crate) const ALL: [(Outcome, &'static str); 4] = [
        (Outcome::Caught, "caught.txt"),
        (Outcome::Missed, "missed.txt"),
        (Outcome::Unviable, "unviable.txt"),
        (Outcome::Timeout, "timeout.txt"),
    ];
}

/// Counts per outcome for one source file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub(crate) caught: usize,
    pub(crate) missed: usize,
    pub(crate) unviable: usize,
    pub(crate) timeout: usize,
}

impl Counts {
    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Caught => self.caught += 1,
            Outcome::Missed => self.missed += 1,
            Outcome::Unviable => self.unviable += 1,
            Outcome::Timeout => self.timeout += 1,
        }
    }

    fn tried(&self) -> usize {
        self.caught + self.missed + self.unviable + self.timeout
    }
}

/// The source file a line of `caught.txt` (and the others) names:
/// `crates/x/src/y.rs:12:5: replace f -> bool with true` gives
/// `crates/x/src/y.rs`.
pub(crate) fn file_of(line: &str) -> Option<&str> {
    let (file, rest) = line.split_once(':')?;
    let line_number = rest.split(':').next()?;
    (!file.is_empty() && !line_number.is_empty() && line_number.bytes().all(|b| b.is_ascii_digit()))
        .then_some(file)
}

/// Counts the outcomes per file from the four lists of a `mutants.out`
/// directory (`lists` pairs each outcome with the text of its file).
pub(crate) fn tally<'a>(
    lists: impl IntoIterator<Item = (Outcome, &'a str)>,
) -> (BTreeMap<String, Counts>, Vec<(Outcome, String)>) {
    let mut by_file: BTreeMap<String, Counts> = BTreeMap::new();
    let mut survivors = Vec::new();
    for (outcome, text) in lists {
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let file = file_of(line).unwrap_or("(unknown file)");
            by_file.entry(file.to_owned()).or_default().add(outcome);
            if matches!(outcome, Outcome::Missed | Outcome::Timeout) {
                survivors.push((outcome, line.to_owned()));
            }
        }
    }
    survivors.sort();
    (by_file, survivors)
}

/// The per-file table, as Markdown (it goes into closing notes as is).
pub(crate) fn render(by_file: &BTreeMap<String, Counts>) -> String {
    let mut out = String::from(
        "| file | tried | caught | missed | unviable | timeout |\n|---|---|---|---|---|---|\n",
    );
    let mut total = Counts::default();
    for (file, c) in by_file {
        let _ = writeln!(
            out,
            "| {file} | {} | {} | {} | {} | {} |",
            c.tried(),
            c.caught,
            c.missed,
            c.unviable,
            c.timeout
        );
        total.caught += c.caught;
        total.missed += c.missed;
        total.unviable += c.unviable;
        total.timeout += c.timeout;
    }
    if by_file.len() > 1 {
        let _ = writeln!(
            out,
            "| total | {} | {} | {} | {} | {} |",
            total.tried(),
            total.caught,
            total.missed,
            total.unviable,
            total.timeout
        );
    }
    out
}

/// Finds cargo-mutants (installing it once if it is missing); returns its version.
fn locate() -> Result<String, String> {
    let version = || {
        Command::new(cargo())
            .args(["mutants", "--version"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    if let Some(v) = version() {
        return Ok(v);
    }
    eprintln!("mutants: cargo-mutants not found; running `cargo install --locked cargo-mutants`");
    let installed = Command::new(cargo())
        .args(["install", "--locked", "cargo-mutants"])
        .status()
        .is_ok_and(|s| s.success());
    match version() {
        Some(v) if installed => Ok(v),
        _ => Err(
            "cargo-mutants is not installed and `cargo install --locked cargo-mutants` \
                  did not install it (no network, or no write access to ~/.cargo/bin?). \
                  Install it yourself (https://mutants.rs/installation.html) and make sure \
                  `cargo mutants --version` works, then run this again."
                .to_owned(),
        ),
    }
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// The cargo-mutants command line for `options` (without the program).
pub(crate) fn command_line(options: &Options, diff_file: Option<&Path>) -> Vec<String> {
    let mut args: Vec<String> = vec!["mutants".into(), "--no-shuffle".into()];
    if options.in_place {
        args.push("--in-place".into());
    } else {
        args.extend(["-j".into(), options.jobs.to_string()]);
    }
    args.extend(["--output".into(), OUTPUT_DIR.into()]);
    args.extend(["--profile".into(), PROFILE.into(), "--all-features".into()]);
    if !options.doctests {
        args.push("--cargo-test-arg=--tests".into());
    }
    for f in &options.files {
        args.push("--file".into());
        args.push(f.display().to_string());
    }
    if let Some(d) = diff_file {
        args.push("--in-diff".into());
        args.push(d.display().to_string());
    }
    args.extend(options.extra.iter().cloned());
    args
}

/// Runs `cargo xtask mutants` with the arguments after `mutants`.
pub(crate) fn main(args: &[String], root: &Path) -> ExitCode {
    let options = match parse_args(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    for f in &options.files {
        if !root.join(f).is_file() {
            eprintln!(
                "mutants: no such file `{}` (paths are relative to the repository root)",
                f.display()
            );
            return ExitCode::from(2);
        }
    }
    let version = match locate() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("mutants: error: {e}");
            return ExitCode::from(2);
        }
    };
    let diff_file = match &options.in_diff {
        None => None,
        Some(base) => match write_diff(root, base) {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("mutants: error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let args = command_line(&options, diff_file.as_deref());
    // A previous run's results must not pass for this run's.
    let out = root.join(OUTPUT_DIR).join("mutants.out");
    if let Err(e) = std::fs::remove_dir_all(&out) {
        if e.kind() != std::io::ErrorKind::NotFound {
            eprintln!("mutants: error: cannot remove {}: {e}", out.display());
            return ExitCode::from(2);
        }
    }
    println!("mutants: {version}: cargo {}", args.join(" "));
    let started = Instant::now();
    let status = Command::new(cargo())
        .args(&args)
        .env(MUTATION_RUN_ENV, "1")
        // A mutant's failing property test must not write its seed into
        // the tree's `proptest-regressions` files (`--in-place` runs test
        // the working tree itself): those seeds belong to no real bug.
        .env("PROPTEST_DISABLE_FAILURE_PERSISTENCE", "1")
        .current_dir(root)
        .status();
    let elapsed = started.elapsed();
    // cargo-mutants exits 0 (all caught), 2 (missed), 3 (timeouts), 4 (baseline failed), ...
    let code = match status {
        Ok(s) => s.code(),
        Err(e) => {
            eprintln!("mutants: error: cannot run cargo-mutants: {e}");
            return ExitCode::from(2);
        }
    };
    let texts: Vec<(Outcome, String)> = Outcome::ALL
        .iter()
        .map(|(o, name)| {
            (
                *o,
                std::fs::read_to_string(out.join(name)).unwrap_or_default(),
            )
        })
        .collect();
    let (by_file, survivors) = tally(texts.iter().map(|(o, t)| (*o, t.as_str())));
    if !status_explained(code, &survivors) {
        eprintln!(
            "mutants: error: cargo-mutants failed (exit {code:?}) and its results do not say \
             why; see {}/debug.log and the messages above (a failing baseline means the \
             unmutated tests fail; exit 2 with no missed mutant usually means it refused \
             its arguments)",
            out.display()
        );
        return ExitCode::from(2);
    }
    println!();
    print!("{}", render(&by_file));
    println!(
        "\nmutants: {} mutant(s) in {:.0?} ({})",
        by_file.values().map(Counts::tried).sum::<usize>(),
        elapsed,
        if options.in_place {
            "in place".to_owned()
        } else {
            format!("-j {}", options.jobs)
        }
    );
    for (outcome, line) in &survivors {
        println!("{outcome:?}: {line}");
    }
    if survivors.iter().all(|(o, _)| *o == Outcome::Timeout) {
        println!("mutants: ok (no mutant missed)");
        ExitCode::SUCCESS
    } else {
        println!(
            "mutants: FAILED: add a test that catches each missed mutant, or, if it is \
             equivalent, exclude it in .cargo/mutants.toml with the reason"
        );
        ExitCode::FAILURE
    }
}

/// Whether cargo-mutants' exit status is what its results show: 0 when
/// nothing was missed, 2 when a mutant was missed and none timed out, 3
/// when one timed out (whether or not others were missed: cargo-mutants 27
/// reports the timeout). Anything else (a usage error also exits 2, with
/// no results) means it did not run as asked.
pub(crate) fn status_explained(code: Option<i32>, survivors: &[(Outcome, String)]) -> bool {
    let missed = survivors.iter().any(|(o, _)| *o == Outcome::Missed);
    let timeout = survivors.iter().any(|(o, _)| *o == Outcome::Timeout);
    match code {
        Some(0) => !missed && !timeout,
        Some(2) => missed,
        Some(3) => timeout,
        _ => false,
    }
}

/// Writes `git diff BASE` under the output directory; returns its path.
fn write_diff(root: &Path, base: &str) -> Result<PathBuf, String> {
    let out = Command::new("git")
        .args(["diff", "--no-ext-diff", base, "--"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`git diff {base}` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let dir = root.join(OUTPUT_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join("in-diff.patch");
    std::fs::write(&path, &out.stdout)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn parses_the_command_line() {
        let o = parse_args(&args(
            "--file a.rs -f b.rs --in-diff main -j 2 -- --all-features",
        ))
        .unwrap();
        assert_eq!(
            o,
            Options {
                files: vec![PathBuf::from("a.rs"), PathBuf::from("b.rs")],
                in_diff: Some("main".into()),
                jobs: 2,
                doctests: false,
                in_place: false,
                extra: vec!["--all-features".into()],
            }
        );
        assert_eq!(parse_args(&[]).unwrap().jobs, 1);
        assert!(parse_args(&args("--in-place")).unwrap().in_place);
        assert!(!parse_args(&[]).unwrap().in_place);
        assert!(parse_args(&args("--in-place -j 2")).is_err());
        assert!(parse_args(&args("-j 1 --in-place")).is_err());
        assert!(parse_args(&args("--with-doctests")).unwrap().doctests);
        for bad in [
            "--file",
            "-j 0",
            "-j x",
            "--in-diff a --in-diff b",
            "--frobnicate",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn builds_the_cargo_mutants_command() {
        let o = parse_args(&args("--file crates/x/src/a.rs -j 2 -- --timeout 60")).unwrap();
        assert_eq!(
            command_line(&o, Some(Path::new("d.patch"))).join(" "),
            "mutants --no-shuffle -j 2 --output target/mutants --profile mutation --all-features --cargo-test-arg=--tests \
             --file crates/x/src/a.rs --in-diff d.patch --timeout 60"
        );
        let o = parse_args(&args("--with-doctests")).unwrap();
        assert_eq!(
            command_line(&o, None).join(" "),
            "mutants --no-shuffle -j 1 --output target/mutants --profile mutation --all-features"
        );
        let o = parse_args(&args("--in-place -f a.rs")).unwrap();
        assert_eq!(
            command_line(&o, None).join(" "),
            "mutants --no-shuffle --in-place --output target/mutants --profile mutation --all-features --cargo-test-arg=--tests \
             --file a.rs"
        );
    }

    #[test]
    fn tallies_outcomes_per_file() {
        assert_eq!(
            file_of("crates/a/src/x.rs:12:5: replace f -> bool with true"),
            Some("crates/a/src/x.rs")
        );
        assert_eq!(file_of("no line number here: at all"), None);
        let (by_file, survivors) = tally([
            (
                Outcome::Caught,
                "a.rs:1:1: replace f with ()\na.rs:2:1: replace g with ()\nb.rs:3:1: x\n",
            ),
            (Outcome::Missed, "b.rs:9:1: replace < with <=\n"),
            (
                Outcome::Unviable,
                "a.rs:4:1: replace h -> T with Default::default()\n",
            ),
            (Outcome::Timeout, "\nb.rs:7:1: replace += with -=\n"),
        ]);
        assert_eq!(
            by_file["a.rs"],
            Counts {
                caught: 2,
                missed: 0,
                unviable: 1,
                timeout: 0
            }
        );
        assert_eq!(
            by_file["b.rs"],
            Counts {
                caught: 1,
                missed: 1,
                unviable: 0,
                timeout: 1
            }
        );
        assert_eq!(
            survivors,
            vec![
                (Outcome::Missed, "b.rs:9:1: replace < with <=".to_owned()),
                (Outcome::Timeout, "b.rs:7:1: replace += with -=".to_owned()),
            ]
        );
        let table = render(&by_file);
        assert!(table.contains("| a.rs | 3 | 2 | 0 | 1 | 0 |"), "{table}");
        assert!(table.contains("| b.rs | 3 | 1 | 1 | 0 | 1 |"), "{table}");
        assert!(table.contains("| total | 6 | 3 | 1 | 1 | 1 |"), "{table}");
    }

    #[test]
    fn an_exit_status_its_results_do_not_explain_is_an_error() {
        let missed = (Outcome::Missed, "a.rs:1:1: m".to_owned());
        let timeout = (Outcome::Timeout, "a.rs:2:1: t".to_owned());
        assert!(status_explained(Some(0), &[]));
        assert!(status_explained(Some(2), std::slice::from_ref(&missed)));
        assert!(status_explained(
            Some(2),
            &[missed.clone(), timeout.clone()]
        ));
        assert!(status_explained(Some(3), std::slice::from_ref(&timeout)));
        // A usage error (exit 2) leaves no results: not "ok".
        assert!(!status_explained(Some(2), &[]));
        assert!(!status_explained(Some(3), &[]));
        assert!(!status_explained(Some(0), std::slice::from_ref(&missed)));
        assert!(!status_explained(Some(0), std::slice::from_ref(&timeout)));
        // Seen with cargo-mutants 27.1: 3 missed and 1 timeout exit 3.
        assert!(status_explained(Some(3), &[missed, timeout]));
        assert!(!status_explained(Some(4), &[]));
        assert!(!status_explained(None, &[]));
    }
}
