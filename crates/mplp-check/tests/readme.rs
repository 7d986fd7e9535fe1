//! The kinds table of the workspace README (after its `<!-- kinds: ... -->`
//! marker) is held to [`mplp_check::KINDS`]: one row per kind, in the
//! table's order, each row naming the members and the `event_type` prefix
//! that recognise its kind, and every schema file it names existing under
//! `schemas/`.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use mplp_check::KINDS;

const MARKER: &str = "<!-- kinds: one row per entry of `mplp_check::KINDS`, in its order, checked by crates/mplp-check/tests/readme.rs -->";

fn workspace() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The cells of each row of the table after the marker (header and rule left out).
fn rows(readme: &str) -> Vec<Vec<String>> {
    let after = readme
        .split_once(MARKER)
        .unwrap_or_else(|| panic!("README.md: no line {MARKER}"))
        .1;
    after
        .trim_start()
        .lines()
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| {
            row.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

/// The back-quoted spans of a cell.
fn quoted(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

#[test]
fn the_readme_kinds_table_is_the_kinds_table() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let rows = rows(&readme);
    let names: Vec<&str> = rows.iter().map(|r| r[0].trim_matches('`')).collect();
    let expected: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
    assert_eq!(
        names, expected,
        "README.md: the kinds table, one row per kind in KINDS order"
    );
    for (row, kind) in rows.iter().zip(KINDS) {
        assert_eq!(row.len(), 4, "{row:?}");
        let signs = quoted(&row[2]);
        for member in kind.recognise.members {
            assert!(
                signs.contains(member),
                "{}: `{member}` recognises it: {row:?}",
                kind.name
            );
        }
        if let Some(prefix) = kind.recognise.event_type_prefix {
            let spelled = format!("{prefix}…");
            assert!(
                signs.contains(&spelled.as_str()),
                "{}: `{spelled}` recognises it: {row:?}",
                kind.name
            );
        }
        if kind.is_log() {
            assert!(
                signs.contains(&".ndjson") && signs.contains(&".jsonl"),
                "{row:?}"
            );
        }
        for schema in quoted(&row[3])
            .into_iter()
            .filter(|s| s.ends_with(".schema.json"))
        {
            assert!(
                workspace().join("schemas").join(schema).is_file(),
                "{}: schemas/{schema} does not exist",
                kind.name
            );
        }
    }
}

#[test]
fn the_table_reader_reads_cells_and_quoted_spans() {
    let text =
        format!("x\n{MARKER}\n| kind | a |\n|---|---|\n| `plan` | `plan_id` or `x` |\n\nafter |\n");
    assert_eq!(rows(&text), [["`plan`", "`plan_id` or `x`"]]);
    assert_eq!(quoted("`a` (or `b` alone)"), ["a", "b"]);
}
