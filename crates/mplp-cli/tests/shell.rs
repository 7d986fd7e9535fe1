//! `mplp completions SHELL` and `mplp man`: the bash script is
//! loaded into a real bash and asked for completions; the manual page is
//! rendered by a real `man`/`groff` when the machine has one.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{mplp, stdout as out};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("shell-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether `tool` runs here; when not: a loud skip, or a failure under CI.
fn have(tool: &str, args: &[&str]) -> bool {
    let found = Command::new(tool)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "`{tool}` is missing, and CI is set: .ci/run installs it"
        );
        eprintln!("SKIPPED: `{tool}` is not installed; this part of the test did not run");
    }
    found
}

#[test]
fn every_shell_gets_a_script_that_names_every_command() {
    for shell in ["bash", "elvish", "fish", "powershell", "zsh"] {
        let o = mplp(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = out(&o);
        for word in [
            "validate",
            "render",
            "simulate",
            "conformance",
            "completions",
            "man",
        ] {
            assert!(script.contains(word), "{shell}: no `{word}`");
        }
    }
    let o = mplp(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

/// What bash completes for the words of `line` (the last one being typed).
fn bash_complete(script: &Path, line: &[&str]) -> Vec<String> {
    let words: Vec<String> = line.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; _mplp mplp '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words.join(" "),
        line.len() - 1,
        line.join(" "),
        line[line.len() - 1],
        line[line.len() - 2],
    );
    let o = Command::new("bash")
        .args(["--norc", "-c", &program])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_completes_commands_options_and_values() {
    if !have("bash", &["--version"]) {
        return;
    }
    let dir = scratch("bash");
    let script = dir.join("mplp.bash");
    std::fs::write(&script, mplp(&["completions", "bash"]).stdout).unwrap();
    let commands = bash_complete(&script, &["mplp", ""]);
    for c in [
        "validate",
        "plan",
        "dialog",
        "collab",
        "conformance",
        "completions",
        "man",
    ] {
        assert!(commands.iter().any(|w| w == c), "{c} not in {commands:?}");
    }
    assert_eq!(bash_complete(&script, &["mplp", "val"]), ["validate"]);
    let kinds = bash_complete(&script, &["mplp", "validate", "--kind", ""]);
    for k in ["auto", "plan", "map-log", "sa-log"] {
        assert!(kinds.iter().any(|w| w == k), "{k} not in {kinds:?}");
    }
    let formats = bash_complete(&script, &["mplp", "plan", "render", "--format", ""]);
    assert_eq!(formats, ["mermaid", "dot", "svg"]);
    let options = bash_complete(&script, &["mplp", "validate", "--max"]);
    assert!(options.iter().any(|w| w == "--max-errors"), "{options:?}");
}

#[test]
fn the_man_page_is_roff_that_man_renders() {
    let o = mplp(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let page = out(&o);
    assert!(page.contains(".TH mplp 1"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    assert!(page.contains("mplp\\-validate"), "{page}");
    let dir = scratch("man");
    let o = mplp(&["man", "--out-dir", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    pages.sort();
    for p in [
        "mplp.1",
        "mplp-validate.1",
        "mplp-plan-render.1",
        "mplp-collab-simulate.1",
        "mplp-man.1",
    ] {
        assert!(pages.iter().any(|n| n == p), "{p} not in {pages:?}");
    }
    // A directory that cannot be made is an I/O error.
    let file = dir.join("mplp.1");
    let o = mplp(&["man", "--out-dir", file.join("sub").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    if !have("man", &["--version"]) {
        return;
    }
    let o = Command::new("man")
        .arg("-l")
        .arg(dir.join("mplp-validate.1"))
        .env("MANWIDTH", "100")
        .env("LC_ALL", "C")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("--max-errors"), "{text}");
    assert!(text.contains("NAME"), "{text}");
}
