//! docs/architecture.md is the map of the workspace: its diagram (the
//! `mermaid` block under "## Crates") names every crate and every
//! dependency edge between them, and each crate has one entry (its name in
//! bold) below it. This test holds the map to `cargo metadata`, as rust-analyzer's
//! tidy tests hold its docs to its code.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn workspace() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// `(crate, workspace crate it depends on)` for normal and build
/// dependencies (not dev-dependencies), and every workspace crate.
fn metadata() -> (BTreeSet<String>, BTreeSet<(String, String)>) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(workspace())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let names: BTreeSet<String> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    let mut edges = BTreeSet::new();
    for p in packages {
        let from = p["name"].as_str().unwrap();
        for d in p["dependencies"].as_array().unwrap() {
            let to = d["name"].as_str().unwrap();
            if names.contains(to) && d["kind"].as_str() != Some("dev") {
                edges.insert((from.to_owned(), to.to_owned()));
            }
        }
    }
    (names, edges)
}

/// The crates and edges of the map's diagram: the lines `a --> b` and the
/// lone nodes `a` of the first `mermaid` block.
fn diagram(text: &str) -> (BTreeSet<String>, BTreeSet<(String, String)>) {
    let start = text.find("```mermaid").expect("a mermaid diagram") + "```mermaid".len();
    let block = &text[start..start + text[start..].find("```").unwrap()];
    let mut crates = BTreeSet::new();
    let mut edges = BTreeSet::new();
    for line in block.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("%%") || line.starts_with("flowchart") {
            continue;
        }
        match line.split_once("-->") {
            Some((from, to)) => {
                let (from, to) = (from.trim().to_owned(), to.trim().to_owned());
                crates.insert(from.clone());
                crates.insert(to.clone());
                edges.insert((from, to));
            }
            None => {
                crates.insert(line.to_owned());
            }
        }
    }
    (crates, edges)
}

#[test]
fn the_map_shows_every_crate_and_every_dependency_edge() {
    let text = std::fs::read_to_string(workspace().join("docs/architecture.md")).unwrap();
    let (crates, edges) = metadata();
    let (drawn, drawn_edges) = diagram(&text);
    assert_eq!(
        drawn, crates,
        "the crates of the diagram and of the workspace"
    );
    let missing: Vec<_> = edges.difference(&drawn_edges).collect();
    let extra: Vec<_> = drawn_edges.difference(&edges).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "edges missing from the diagram: {missing:?}; edges drawn that cargo does not know: {extra:?}"
    );
    // Each crate is described once: its name in bold (`**name**`) starts
    // its one entry (or names it in an entry shared with its siblings).
    for name in &crates {
        let entry = format!("**{name}**");
        assert_eq!(
            text.matches(&entry).count(),
            1,
            "{name} needs exactly one entry `{entry}` in docs/architecture.md"
        );
    }
}

#[test]
fn the_diagram_reader_reads_edges_and_lone_crates() {
    let (crates, edges) = diagram("x\n```mermaid\nflowchart TD\n  %% note\n  a --> b\n  c\n```\n");
    assert_eq!(crates.len(), 3);
    assert_eq!(
        edges.into_iter().collect::<Vec<_>>(),
        [("a".to_owned(), "b".to_owned())]
    );
}
