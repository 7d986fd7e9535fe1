//! docs/architecture.md is the map of the workspace: its diagram (the
//! `mermaid` block under "## Crates") names every crate and every
//! dependency edge between them, and each crate has one entry (its name in
//! bold) below it. This test holds the map to `cargo metadata`, as rust-analyzer's
//! tidy tests hold its docs to its code; it holds the README's crates table
//! (every package, one row each), its crate links and its list of the
//! `mplp` crate's features to the same metadata.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn workspace() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// `cargo metadata --no-deps` of the workspace.
fn cargo_metadata() -> serde_json::Value {
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
    meta
}

/// `(crate, workspace crate it depends on)` for normal and build
/// dependencies (not dev-dependencies), and every workspace crate.
fn metadata() -> (BTreeSet<String>, BTreeSet<(String, String)>) {
    let meta = cargo_metadata();
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

/// Every package of the workspace and its manifest's directory, relative to
/// the workspace (`crates/mplp-plan`), and the features of the `mplp` crate.
fn packages() -> (Vec<(String, String)>, Vec<String>) {
    let meta = cargo_metadata();
    let root = meta["workspace_root"].as_str().unwrap().to_owned();
    let mut packages = Vec::new();
    let mut features = Vec::new();
    for p in meta["packages"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap().to_owned();
        let dir = Path::new(p["manifest_path"].as_str().unwrap())
            .parent()
            .unwrap()
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if name == "mplp" {
            features = p["features"].as_object().unwrap().keys().cloned().collect();
        }
        packages.push((name, dir));
    }
    (packages, features)
}

/// The back-quoted names in the first cell of each row of the README's
/// `## Crates` table (entries that end in `/`, such as `fuzz/`, are folders
/// outside the workspace).
fn readme_crates_table(readme: &str) -> Vec<String> {
    let section = readme
        .split_once("\n## Crates\n")
        .expect("a ## Crates section")
        .1;
    let table = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2);
    let mut names = Vec::new();
    for row in table {
        let cell = row.trim_start_matches('|').split('|').next().unwrap();
        for name in cell.split('`').skip(1).step_by(2) {
            if !name.ends_with('/') {
                names.push(name.to_owned());
            }
        }
    }
    names
}

#[test]
fn the_readme_crates_table_lists_every_package_once() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let (packages, _) = packages();
    let mut listed = readme_crates_table(&readme);
    let count = listed.len();
    listed.sort();
    listed.dedup();
    assert_eq!(
        listed.len(),
        count,
        "a crate has two rows in README.md's crates table"
    );
    let mut expected: Vec<String> = packages.iter().map(|(n, _)| n.clone()).collect();
    expected.sort();
    assert_eq!(
        listed, expected,
        "README.md's crates table and the workspace's packages"
    );
}

#[test]
fn every_crate_link_of_the_readme_names_a_package_at_its_path() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let (packages, _) = packages();
    let mut links = 0;
    // [`name`](crates/dir)
    for (at, _) in readme.match_indices("[`") {
        let rest = &readme[at + 2..];
        let Some((name, after)) = rest.split_once("`](") else {
            continue;
        };
        let Some((target, _)) = after.split_once(')') else {
            continue;
        };
        // A crate's name links its folder; file links (`crates/x/README.md`) are not crates.
        if !target.starts_with("crates/") || name.contains('/') {
            continue;
        }
        links += 1;
        assert!(
            packages.iter().any(|(n, dir)| n == name && dir == target),
            "README.md links [`{name}`]({target}), which is not a package at that path"
        );
    }
    assert!(links > 20, "{links} crate links");
}

#[test]
fn the_readme_names_every_feature_of_mplp() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let (_, features) = packages();
    assert!(features.iter().any(|f| f == "runtime"), "{features:?}");
    for f in features.iter().filter(|f| *f != "default") {
        assert!(
            readme.contains(&format!("`{f}`")),
            "the feature `{f}` of `mplp` is not named in README.md"
        );
    }
}

#[test]
fn the_crates_table_reader_skips_folders() {
    let text = "x\n## Crates\n\nintro\n\n| crate | what |\n|---|---|\n| [`a`](crates/a) | x `b` |\n| `c`, `d` | y |\n| `fuzz/` | z |\n\nafter\n";
    assert_eq!(readme_crates_table(text), ["a", "c", "d"]);
}
