//! The CLI synopsis in README.md and crates/mplp-cli/README.md is generated
//! from clap: this test walks `mplp -h` and every subcommand's `-h`, builds
//! one synopsis line per leaf command (every option, its possible values,
//! required or `[optional]`, then the arguments), and compares it with the
//! `text` block that follows the marker in each README. On a mismatch it
//! prints the block to paste. The command tables of both READMEs (one row
//! per leaf command, after [`COMMANDS_MARKER`]) are held to the same list.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{mplp, repo, stdout};

/// The line before the generated block in each README.
const MARKER: &str = "<!-- synopsis: generated from `mplp -h`, checked by crates/mplp-cli/tests/readme_synopsis.rs -->";

/// The line before the command table in each README.
const COMMANDS_MARKER: &str = "<!-- commands: one row per command of `mplp -h`, checked by crates/mplp-cli/tests/readme_synopsis.rs -->";

/// The lines of section `name` (`Commands:`, `Options:`) of a help text.
fn section<'a>(help: &'a str, name: &str) -> Vec<&'a str> {
    help.lines()
        .skip_while(|l| *l != name)
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect()
}

/// `-h` output of `mplp path...`.
fn help(path: &[&str]) -> String {
    let mut args = path.to_vec();
    args.push("-h");
    let out = mplp(&args);
    assert!(out.status.success(), "mplp {args:?} failed");
    stdout(&out)
}

/// One option of a help text's `Options:` section.
struct Opt {
    long: String,
    value: Option<String>,
    possible: Option<String>,
}

fn parse_option(line: &str) -> Option<Opt> {
    let line = line.trim_start();
    let line = match line.strip_prefix('-') {
        Some(rest) if !rest.starts_with('-') => rest.split_once(", ")?.1,
        _ => line,
    };
    let rest = line.strip_prefix("--")?;
    let (head, desc) = rest.split_once("  ").unwrap_or((rest, ""));
    let (long, value) = match head.trim().split_once(' ') {
        Some((l, v)) => (l, Some(v.trim_matches(['<', '>']).to_owned())),
        None => (head.trim(), None),
    };
    let possible = desc
        .split_once("[possible values: ")
        .and_then(|(_, p)| p.split_once(']'))
        .map(|(p, _)| p.replace(", ", "|"));
    Some(Opt {
        long: long.to_owned(),
        value,
        possible,
    })
}

/// The synopsis line of a leaf command.
fn leaf_line(path: &[&str], help: &str) -> String {
    let usage = help
        .lines()
        .find_map(|l| l.strip_prefix("Usage: "))
        .unwrap_or_else(|| panic!("no usage line in `mplp {} -h`", path.join(" ")));
    let mut line = format!("mplp {}", path.join(" "));
    let mut rest = format!(" {} ", usage.strip_prefix(&line).unwrap().trim());
    rest = rest.replace(" [OPTIONS] ", " ");
    for raw in section(help, "Options:") {
        let opt = parse_option(raw).unwrap_or_else(|| panic!("unparsed option line {raw:?}"));
        if opt.long == "help" || opt.long == "version" {
            continue;
        }
        let value = opt.possible.or(opt.value.clone());
        let text = match &value {
            Some(v) => format!("--{} {v}", opt.long),
            None => format!("--{}", opt.long),
        };
        let in_usage = match &opt.value {
            Some(v) => format!(" --{} <{v}> ", opt.long),
            None => format!(" --{} ", opt.long),
        };
        if rest.contains(&in_usage) {
            rest = rest.replacen(&in_usage, " ", 1);
            line.push_str(&format!(" {text}"));
        } else {
            line.push_str(&format!(" [{text}]"));
        }
    }
    for arg in rest.split_whitespace() {
        line.push(' ');
        line.push_str(&arg.replace(['<', '>'], ""));
    }
    line
}

/// Every leaf command's synopsis line, depth first in help order.
fn synopsis(path: &[&str], out: &mut Vec<String>) {
    let text = help(path);
    let commands: Vec<String> = section(&text, "Commands:")
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect();
    if commands.is_empty() {
        out.push(leaf_line(path, &text));
    }
    for c in &commands {
        let mut sub = path.to_vec();
        sub.push(c);
        synopsis(&sub, out);
    }
}

fn generated() -> String {
    let mut lines = Vec::new();
    synopsis(&[], &mut lines);
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// The `text` block after the marker in a README.
fn readme_block(readme: &str) -> String {
    let path = repo().join(readme);
    let text = std::fs::read_to_string(&path).unwrap();
    let after = text
        .split_once(MARKER)
        .unwrap_or_else(|| panic!("{readme}: no line {MARKER}"))
        .1;
    let body = after
        .trim_start()
        .strip_prefix("```text\n")
        .unwrap_or_else(|| panic!("{readme}: the marker must be followed by a ```text block"));
    body.split_once("```").unwrap().0.to_owned()
}

#[test]
fn readme_synopses_match_clap() {
    let expected = generated();
    for leaf in ["validate", "plan render", "dialog prune", "collab simulate"] {
        assert!(
            expected.contains(&format!("mplp {leaf} ")),
            "{leaf} missing from {expected}"
        );
    }
    for readme in ["README.md", "crates/mplp-cli/README.md"] {
        let found = readme_block(readme);
        assert!(
            found == expected,
            "{readme}: the synopsis differs from clap's; replace the block after the marker with\n\
             ```text\n{expected}```\n(found:\n{found})"
        );
    }
}

#[test]
fn option_lines_parse() {
    let o = parse_option(
        "      --kind <KIND>      The kind [default: auto] [possible values: auto, plan]",
    )
    .unwrap();
    assert_eq!(
        (o.long.as_str(), o.value.as_deref(), o.possible.as_deref()),
        ("kind", Some("KIND"), Some("auto|plan"))
    );
    let o = parse_option("  -n, --node   Print the node").unwrap();
    assert_eq!((o.long.as_str(), o.value, o.possible), ("node", None, None));
    assert!(parse_option("  <FILE>...  Files").is_none());
}

/// The leaf commands of a synopsis (`mplp validate`, `mplp plan render`,
/// ...): each line's leading lowercase words.
fn commands(synopsis: &str) -> Vec<String> {
    synopsis
        .lines()
        .map(|line| {
            line.split(' ')
                .take_while(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The commands of the table after [`COMMANDS_MARKER`] in a README: the
/// first cell of each row, in order.
fn readme_commands(readme: &str) -> Vec<String> {
    let text = std::fs::read_to_string(repo().join(readme)).unwrap();
    let after = text
        .split_once(COMMANDS_MARKER)
        .unwrap_or_else(|| panic!("{readme}: no line {COMMANDS_MARKER}"))
        .1;
    after
        .trim_start()
        .lines()
        .take_while(|l| l.starts_with('|'))
        .skip(2) // the header and its rule
        .map(|row| {
            let cell = row
                .trim_start_matches('|')
                .split('|')
                .next()
                .unwrap()
                .trim();
            cell.trim_matches('`').to_owned()
        })
        .collect()
}

#[test]
fn readme_command_tables_list_every_command_of_clap() {
    let expected = commands(&generated());
    assert!(
        expected.len() > 10 && expected.contains(&"mplp collab simulate".to_owned()),
        "{expected:?}"
    );
    for readme in ["README.md", "crates/mplp-cli/README.md"] {
        let found = readme_commands(readme);
        assert_eq!(
            found, expected,
            "{readme}: the command table (one row per command, in `mplp -h` order)"
        );
    }
}

#[test]
fn command_words_stop_at_the_first_option_or_argument() {
    assert_eq!(
        commands(
            "mplp completions SHELL\nmplp sa simulate [--seed SEED] [PLAN]\nmplp man [--out-dir DIR]\n"
        ),
        ["mplp completions", "mplp sa simulate", "mplp man"]
    );
}
