//! Every rule id the SDK can raise is in the compat-policy table
//! (`mplp_core::policy::RULES`, shown in docs/spec-notes.md "Compat policy")
//! with a source; and the table names no rule the SDK no longer has.
//!
//! The ids are walked in the source: every `Rule::new("...")` / `Rule("...")`
//! of the crates' library code (doc comments and `#[cfg(test)]` modules
//! excluded: their ids are examples), and the `pack-*`/finding ids of
//! mplp-conformance.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use mplp_core::policy::{RULES, Source};

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The string literals that follow `prefix` on code lines of `text`, up to
/// the first `#[cfg(test)]`.
fn literals_after(text: &str, prefix: &str, out: &mut BTreeSet<String>) {
    for line in text
        .lines()
        .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
    {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find(prefix) {
            let after = &rest[i + prefix.len()..];
            let end = after.find('"').unwrap();
            out.insert(after[..end].to_owned());
            rest = &after[end..];
        }
    }
}

fn sdk_rule_ids() -> BTreeSet<String> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates");
    let mut files = Vec::new();
    for c in std::fs::read_dir(&crates).unwrap() {
        let src = c.unwrap().path().join("src");
        if src.is_dir() {
            rs_files(&src, &mut files);
        }
    }
    assert!(files.len() > 30, "found only {} source files", files.len());
    let mut ids = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        literals_after(&text, "Rule::new(\"", &mut ids);
        literals_after(&text, "Rule(\"", &mut ids);
        if f.to_string_lossy().contains("mplp-conformance") {
            let mut packs = BTreeSet::new();
            literals_after(&text, "\"pack-", &mut packs);
            ids.extend(
                packs
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .map(|p| format!("pack-{p}")),
            );
        }
    }
    ids
}

#[test]
fn every_rule_id_of_the_sdk_is_in_the_policy_table_with_a_source() {
    let ids = sdk_rule_ids();
    // The walk finds the rules of every crate (a broken walk finds nothing).
    for probe in [
        "required",
        "sa_plan_dag_acyclic",
        "map_orchestrator_required",
        "log_unique_event_ids",
        "dialog_messages_out_of_order",
        "pack-integrity",
    ] {
        assert!(ids.contains(probe), "the walk missed {probe}: {ids:?}");
    }
    let missing: Vec<&String> = ids
        .iter()
        .filter(|id| mplp_core::policy::rule(id).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "rule ids raised by the SDK but not in mplp_core::policy::RULES: {missing:?}"
    );
    for r in RULES {
        assert!(!r.reference.trim().is_empty(), "{} has no reference", r.id);
    }
}

#[test]
fn the_policy_table_names_no_rule_the_sdk_lacks() {
    let ids = sdk_rule_ids();
    // Rules the conformance runner raises as plain strings outside `pack-*`.
    let runner = ["invariants-syntax", "io"];
    for r in RULES {
        if r.source == Source::Conformance && runner.contains(&r.id) {
            continue;
        }
        assert!(
            ids.contains(r.id),
            "{} is in the policy table but the SDK never raises it",
            r.id
        );
    }
}
