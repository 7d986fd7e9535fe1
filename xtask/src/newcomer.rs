//! `cargo xtask newcomer`: what a newcomer does in the first minutes, as
//! written. It clones the repository's committed state (`git clone` of the
//! checkout, no network) into a scratch directory (`newcomer/mplp-rs` under
//! the target directory, removed first and after) and runs every `sh`
//! (or `bash`) block of that clone's README.md there, in order, each with
//! `bash -e -o pipefail`, and checks its exit status.
//!
//! A block is annotated by an HTML comment on the line before its fence
//! (invisible on the rendered page):
//! - `<!-- newcomer: skip (REASON) -->`: not run (the full test suite, which
//!   CI runs as its own step; slow installs). The reason is required.
//! - `<!-- newcomer: exit N -->`: must exit with status `N` (an invalid
//!   example shown on purpose).
//! - none: must exit 0.
//!
//! Any other `newcomer:` comment is an error, so a typo cannot silently
//! skip a block. Builds share the `target` directory of the checkout that
//! runs the check (`CARGO_TARGET_DIR`, else `target/` of the checkout):
//! the registry's crates are not built again, only the workspace's own
//! crates that the blocks use (their paths differ in the clone).
//!
//! ```text
//! cargo xtask newcomer [--keep] [--readme-only]
//! ```
//! `--keep` leaves the clone (its path is printed); `--readme-only` parses
//! the README and lists the blocks without cloning or running anything.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const USAGE: &str = "usage: cargo xtask newcomer [--keep] [--readme-only]";

/// What the check does with a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expect {
    /// Run it; it must exit with this status.
    Exit(i32),
    /// Do not run it, for this reason.
    Skip(String),
}

/// One shell block of the README.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// The 1-based line of its opening fence.
    pub(crate) line: usize,
    /// Its text, as written.
    pub(crate) text: String,
    pub(crate) expect: Expect,
}

/// The marker of an annotation comment.
const ANNOTATION: &str = "<!-- newcomer:";

/// The shell blocks of `readme` with what to do with each.
///
/// # Errors
/// An annotation the check does not understand, one that is not followed
/// by a shell block, or a block left open.
pub(crate) fn blocks(readme: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = Vec::new();
    let mut pending: Option<(usize, Expect)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_end();
        if let Some(rest) = line.trim_start().strip_prefix(ANNOTATION) {
            if let Some((at, _)) = pending {
                return Err(format!(
                    "README.md:{at}: a newcomer annotation not followed by a shell block"
                ));
            }
            pending = Some((i + 1, annotation(rest, i + 1)?));
            i += 1;
            continue;
        }
        if let Some(info) = line.strip_prefix("```") {
            let shell = matches!(info.trim(), "sh" | "bash");
            let start = i + 1;
            let mut body = String::new();
            i += 1;
            while i < lines.len() && !lines[i].trim_end().starts_with("```") {
                body.push_str(lines[i]);
                body.push('\n');
                i += 1;
            }
            if i == lines.len() {
                return Err(format!(
                    "README.md:{start}: a code block that is never closed"
                ));
            }
            match (shell, pending.take()) {
                (true, Some((_, expect))) => out.push(Block {
                    line: start,
                    text: body,
                    expect,
                }),
                (true, None) => out.push(Block {
                    line: start,
                    text: body,
                    expect: Expect::Exit(0),
                }),
                (false, Some((at, _))) => {
                    return Err(format!(
                        "README.md:{at}: a newcomer annotation before a block that is not `sh` or `bash` (`{}`)",
                        info.trim()
                    ));
                }
                (false, None) => {}
            }
            i += 1;
            continue;
        }
        if let Some((at, _)) = &pending {
            if !line.trim().is_empty() {
                return Err(format!(
                    "README.md:{at}: a newcomer annotation must stand on the line before the block's fence"
                ));
            }
        }
        i += 1;
    }
    if let Some((at, _)) = pending {
        return Err(format!(
            "README.md:{at}: a newcomer annotation not followed by a shell block"
        ));
    }
    Ok(out)
}

/// Reads what follows `<!-- newcomer:` on line `at`.
fn annotation(rest: &str, at: usize) -> Result<Expect, String> {
    let body = rest
        .trim()
        .strip_suffix("-->")
        .map(str::trim)
        .ok_or_else(|| {
            format!("README.md:{at}: a newcomer annotation must end on its line with `-->`")
        })?;
    let (word, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    if word == "skip" {
        let reason = rest.trim();
        let reason = reason
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .ok_or_else(|| format!("README.md:{at}: `newcomer: skip` needs a reason in parentheses: `<!-- newcomer: skip (WHY) -->`"))?;
        return Ok(Expect::Skip(reason.to_owned()));
    }
    if word == "exit" {
        let code = rest.trim().parse::<i32>().map_err(|_| {
            format!("README.md:{at}: `newcomer: exit` needs a status: `<!-- newcomer: exit 1 -->`")
        })?;
        return Ok(Expect::Exit(code));
    }
    Err(format!(
        "README.md:{at}: unknown newcomer annotation `{body}`: use `skip (WHY)` or `exit N`"
    ))
}

/// `cargo xtask newcomer`.
pub(crate) fn main(args: &[String], root: &Path) -> ExitCode {
    let mut keep = false;
    let mut readme_only = false;
    for a in args {
        match a.as_str() {
            "--keep" => keep = true,
            "--readme-only" => readme_only = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("newcomer: unknown argument `{other}`\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    if readme_only {
        let readme = match std::fs::read_to_string(root.join("README.md")) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("newcomer: cannot read README.md: {e}");
                return ExitCode::from(2);
            }
        };
        return match blocks(&readme) {
            Ok(found) => {
                for b in &found {
                    println!("README.md:{} {:?}\n{}", b.line, b.expect, b.text);
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("newcomer: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let started = Instant::now();
    // Always the same place, under the shared target directory: the
    // clone's crates get the same artifact names on every run, so runs
    // replace their artifacts instead of piling up new ones.
    let scratch = target_dir(root).join("newcomer");
    let _ = std::fs::remove_dir_all(&scratch);
    let clone = scratch.join("mplp-rs");
    let result = run(root, &clone);
    if keep {
        println!("newcomer: the clone is kept at {}", clone.display());
    } else {
        let _ = std::fs::remove_dir_all(&scratch);
    }
    match result {
        Ok(()) => {
            println!(
                "newcomer: ok in {:.0}s (a fresh clone ran the README as written)",
                started.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("newcomer: FAILED: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The target directory builds share: the caller's `CARGO_TARGET_DIR`, else
/// the checkout's `target/`.
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// Clones `root` into `clone` and runs its README's blocks there.
fn run(root: &Path, clone: &Path) -> Result<(), String> {
    let t = Instant::now();
    let root = &root.canonicalize().unwrap_or_else(|_| root.to_owned());
    let status = Command::new("git")
        .args(["clone", "--quiet"])
        .arg(root)
        .arg(clone)
        .status()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !status.success() {
        return Err(format!("git clone {} failed ({status})", root.display()));
    }
    let head = Command::new("git")
        .args(["log", "-1", "--format=%h %s"])
        .current_dir(clone)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    println!(
        "newcomer: cloned {} ({head}) into {} in {:.1}s",
        root.display(),
        clone.display(),
        t.elapsed().as_secs_f64()
    );
    let readme = std::fs::read_to_string(clone.join("README.md"))
        .map_err(|e| format!("cannot read the clone's README.md: {e}"))?;
    let found = blocks(&readme)?;
    let target = target_dir(root);
    let mut failures = Vec::new();
    for b in &found {
        match &b.expect {
            Expect::Skip(reason) => {
                println!(
                    "\n--- README.md:{}: skipped ({reason}):\n{}",
                    b.line, b.text
                );
            }
            Expect::Exit(expected) => {
                println!(
                    "\n--- README.md:{}: running (expect exit {expected}):\n{}",
                    b.line, b.text
                );
                let t = Instant::now();
                let status = Command::new("bash")
                    .args(["-e", "-o", "pipefail", "-c", &b.text])
                    .current_dir(clone)
                    .env("CARGO_TARGET_DIR", &target)
                    .status()
                    .map_err(|e| format!("cannot run bash: {e}"))?;
                let code = status.code().unwrap_or(-1);
                println!(
                    "--- README.md:{}: exit {code} in {:.1}s",
                    b.line,
                    t.elapsed().as_secs_f64()
                );
                if code != *expected {
                    failures.push(format!(
                        "README.md:{}: exited {code}, expected {expected}",
                        b.line
                    ));
                }
            }
        }
    }
    if found.iter().all(|b| matches!(b.expect, Expect::Skip(_))) {
        failures.push("README.md has no shell block to run".to_owned());
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::{Expect, blocks};

    #[test]
    fn blocks_are_run_skipped_or_expected_to_fail_as_annotated() {
        let readme = "# x\n\n```sh\necho one\n```\n\n<!-- newcomer: skip (slow) -->\n```sh\ncargo test\n```\n\n```rust\nfn main() {}\n```\n\n<!-- newcomer: exit 1 -->\n```bash\nfalse\n```\n\n```text\nnot run\n```\n";
        let found = blocks(readme).unwrap();
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(
            (found[0].line, found[0].text.as_str(), &found[0].expect),
            (3, "echo one\n", &Expect::Exit(0))
        );
        assert_eq!(found[1].expect, Expect::Skip("slow".to_owned()));
        assert_eq!(found[1].text, "cargo test\n");
        assert_eq!(
            (found[2].text.as_str(), &found[2].expect),
            ("false\n", &Expect::Exit(1))
        );
    }

    #[test]
    fn a_wrong_or_misplaced_annotation_is_an_error_not_a_skip() {
        for (readme, says) in [
            (
                "<!-- newcomer: skipp (x) -->\n```sh\nx\n```\n",
                "unknown newcomer annotation",
            ),
            ("<!-- newcomer: skip -->\n```sh\nx\n```\n", "needs a reason"),
            (
                "<!-- newcomer: skip () -->\n```sh\nx\n```\n",
                "needs a reason",
            ),
            (
                "<!-- newcomer: exit one -->\n```sh\nx\n```\n",
                "needs a status",
            ),
            (
                "<!-- newcomer: skip (x)\n```sh\nx\n```\n",
                "must end on its line",
            ),
            (
                "<!-- newcomer: skip (x) -->\ntext\n```sh\nx\n```\n",
                "on the line before",
            ),
            (
                "<!-- newcomer: skip (x) -->\n```toml\nx\n```\n",
                "not `sh` or `bash`",
            ),
            (
                "<!-- newcomer: skip (x) -->\n",
                "not followed by a shell block",
            ),
            ("```sh\nx\n", "never closed"),
        ] {
            let e = blocks(readme).unwrap_err();
            assert!(e.contains(says), "{readme:?}: {e}");
        }
    }

    /// The workspace README: the two set-up commands are there, the first
    /// run by the check, the second (the whole test suite, its own CI step)
    /// skipped with its reason.
    #[test]
    fn the_readme_runs_the_main_job_and_names_the_test_command() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let found = blocks(&readme).unwrap();
        let run = |cmd: &str| {
            found
                .iter()
                .find(|b| b.text.lines().any(|l| l.trim() == cmd))
                .unwrap_or_else(|| panic!("README.md has no sh block with `{cmd}`"))
        };
        assert_eq!(
            run("cargo run -p mplp-cli -- validate schemas/examples/valid").expect,
            Expect::Exit(0)
        );
        assert!(matches!(
            run("cargo test --workspace --all-features").expect,
            Expect::Skip(_)
        ));
    }
}
