//! One path from bytes to a verdict: the front ends (the CLI, the Python
//! bindings, the golden-flow runner, xtask, bundles) reach the validators
//! only through this crate's dispatch (`validate_source` and its short
//! forms). This test reads their sources and fails on any other route: a
//! call to a log validator, to kind detection or log sniffing, to the
//! byte-order-mark helpers, or to a module's `validate_json`, outside the
//! few places listed below with the reason each is not a route.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

/// What a route to a validator looks like in source.
const ROUTES: &[&str] = &[
    "stream_map_log(",
    "stream_sa_log(",
    "validate_map_log(",
    "validate_sa_log(",
    "validate_map_log_with(",
    "validate_sa_log_with(",
    "MapLogValidator",
    "SaLogValidator",
    "detect(",
    "detect_log(",
    "sniff_log(",
    "skip_bom(",
    "strip_bom(",
    "report_parsed",
    "validate_parsed",
    "validate_json(",
    "read_capped(",
];

/// The front ends' sources, from the workspace root.
const FRONT_ENDS: &[&str] = &[
    "crates/mplp-cli/src",
    "crates/mplp-py/src",
    "crates/mplp-wasm/src",
    "crates/mplp-conformance/src",
    "crates/mplp-check/src/bundle",
    "xtask/src",
    "tests/src",
];

/// `(file, route, why it is not a route to a verdict)`.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "xtask/src/examples.rs",
        "detect(",
        "the jsonschema half of the example check picks each line of an event log its schema by the line's kind; the Rust half goes through the dispatch",
    ),
    (
        "crates/mplp-cli/src/main.rs",
        "strip_bom(",
        "`plan render`, `dialog` and `collab simulate --plan` read one document of a type they know, to act on it",
    ),
    (
        "crates/mplp-cli/src/main.rs",
        "validate_json(",
        "the same typed readers: the document's own type, not a verdict on an input of any kind",
    ),
    (
        "crates/mplp-cli/src/main.rs",
        "read_capped(",
        "the typed readers' size limit is the dispatch's own function",
    ),
    (
        "crates/mplp-cli/src/cmd_plan.rs",
        "validate_json(",
        "`plan render` draws a plan it has read as a plan",
    ),
    (
        "crates/mplp-cli/src/cmd_report.rs",
        "strip_bom(",
        "the page's fragments re-read a document the dispatch checked, for display",
    ),
    (
        "crates/mplp-cli/src/cmd_report.rs",
        "skip_bom(",
        "the page's rows re-read a log the dispatch checked, for display",
    ),
    (
        "crates/mplp-wasm/src/lib.rs",
        "strip_bom(",
        "`render` reads a plan or a log to draw it (as `mplp report` does), not for a verdict",
    ),
    (
        "crates/mplp-conformance/src/registry.rs",
        "detect(",
        "a unit test that names the kind a fixture reads as",
    ),
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A route called in code: the pattern, not in a comment, not as part of a
/// longer name (`detect(` is not `my_detect(`).
fn calls(line: &str, route: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    code.match_indices(route).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn front_ends_reach_the_validators_only_through_the_dispatch() {
    let root = workspace();
    let mut found = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for dir in FRONT_ENDS {
        let mut files = Vec::new();
        rust_files(&root.join(dir), &mut files);
        assert!(!files.is_empty(), "{dir} has no Rust file");
        for file in files {
            let rel = file
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                for route in ROUTES {
                    if !calls(line, route) {
                        continue;
                    }
                    match ALLOWED.iter().position(|(f, r, _)| *f == rel && r == route) {
                        Some(i) => used[i] = true,
                        None => found.push(format!("{rel}:{}: {}", n + 1, line.trim())),
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "routes to a validator outside mplp_check's dispatch (use mplp_check::validate_source):\n{}",
        found.join("\n")
    );
    // An exception nobody needs any more goes.
    for (i, (file, route, _)) in ALLOWED.iter().enumerate() {
        assert!(
            used[i],
            "{file} no longer calls {route}: remove it from ALLOWED"
        );
    }
}

#[test]
fn the_scan_finds_a_route() {
    assert!(calls("    let k = mplp_check::detect(bytes);", "detect("));
    assert!(calls(
        "mplp_events::log::stream_map_log(r, &o, on)",
        "stream_map_log("
    ));
    assert!(!calls("    // detect(bytes) is not called here", "detect("));
    assert!(!calls("fn my_detect(bytes: &[u8])", "detect("));
}
