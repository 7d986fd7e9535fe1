//! The kinds table itself: names, equality, and that each kind's reader
//! entry point gives what its byte entry point gives.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use mplp_check::KINDS;

#[test]
fn kinds_are_equal_by_name_and_shown_by_it() {
    for a in KINDS {
        assert_eq!(a.to_string(), a.name);
        assert_eq!(mplp_check::by_name(a.name), Some(*a));
        for b in KINDS {
            assert_eq!(*a == *b, a.name == b.name, "{} and {}", a.name, b.name);
        }
    }
}

/// `(kind name, file name, bytes)` of every example file directly under
/// `schemas/examples/{dir}`, the `.expect.json` files left out.
fn examples(dir: &str) -> Vec<(String, String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples")
        .join(dir);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if !path.is_file() || file.ends_with(".expect.json") {
            continue;
        }
        let kind = file.split("--").next().unwrap().to_owned();
        out.push((kind, file, std::fs::read(&path).unwrap()));
    }
    out.sort();
    out
}

#[test]
fn a_kind_reads_a_reader_as_it_reads_bytes() {
    let mut invalid = 0;
    for (kind, file, bytes) in examples("invalid") {
        let Some(kind) = mplp_check::by_name(&kind) else {
            continue;
        };
        let from_bytes = kind.validate(&bytes);
        assert!(!from_bytes.is_valid(), "{file}");
        assert_eq!(
            kind.validate_reader(&mut bytes.as_slice()),
            from_bytes,
            "{file}"
        );
        invalid += 1;
    }
    assert!(invalid > 100, "{invalid} invalid examples");
}

/// A read error is the input's `io` error, as `mplp validate` reports it
/// (it was `log_read_error` here, `io` in the CLI, before the two took one
/// path).
#[test]
fn a_document_that_cannot_be_read_is_a_read_error() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::ConnectionReset.into())
        }
    }
    let mut reader = std::io::BufReader::new(Failing);
    let report = mplp_check::PLAN.validate_reader(&mut reader);
    let found: Vec<_> = report
        .violations()
        .iter()
        .map(|v| (v.pointer.as_str(), v.rule.as_str()))
        .collect();
    assert_eq!(found, [("", "io")]);
    assert!(
        report.violations()[0]
            .message
            .starts_with("cannot read the input: "),
        "{}",
        report.violations()[0].message
    );
}

#[test]
fn this_crates_rules_are_in_the_registries() {
    let own: Vec<&str> = mplp_check::rules().map(|r| r.rule.as_str()).collect();
    assert!(own.contains(&"python-value"), "{own:?}");
    let by_crate = mplp_check::rules_by_crate();
    let (name, rules) = by_crate.last().unwrap();
    assert_eq!(*name, "mplp-check");
    let listed: Vec<&str> = rules.iter().map(|r| r.rule.as_str()).collect();
    assert_eq!(listed, own);
    assert_eq!(
        mplp_check::strict_severity("python-value"),
        Some(mplp_core::Severity::Error)
    );
}

/// The Python stubs spell the kinds as a `Literal`: the same names, in the
/// table's order, after `auto` (what `mplp_rs.kinds()` returns).
#[test]
fn the_python_kind_literal_is_the_table() {
    let stub = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mplp-py/python/mplp_rs/_native.pyi");
    let text = std::fs::read_to_string(stub).unwrap();
    let start = text.find("Kind = Literal[").unwrap() + "Kind = Literal[".len();
    let body = &text[start..start + text[start..].find(']').unwrap()];
    let stubbed: Vec<&str> = body
        .split(',')
        .map(|s| s.trim().trim_matches('"'))
        .filter(|s| !s.is_empty())
        .collect();
    let table: Vec<&str> = std::iter::once(mplp_check::AUTO)
        .chain(KINDS.iter().map(|k| k.name))
        .collect();
    assert_eq!(stubbed, table);
}
