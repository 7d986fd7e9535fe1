//! Every file of `schemas/examples/`, validated twice: with the `jsonschema`
//! crate against our schemas, and by the Rust types.

use std::path::{Path, PathBuf};

use mplp_core::Report;
use mplp_core::schema::{self, SchemaKind};
use serde_json::Value;

use crate::kinds::{self, Kind};

/// What the example check found.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// Files checked.
    pub(crate) files: usize,
    /// Files that no Rust type covers yet (checked with jsonschema only).
    pub(crate) schema_only: Vec<String>,
    /// Every disagreement with the folder a file sits in.
    pub(crate) problems: Vec<String>,
}

/// The sidecar of an invalid example.
#[derive(Debug, serde::Deserialize)]
struct Expect {
    pointer: String,
    rule: String,
    /// The schema keyword behind `rule` when the rule is a frozen invariant
    /// that the schema states (`Document::STATED_BY_SCHEMA`): what
    /// jsonschema reports, and what the SDK keeps at the end of its message.
    #[serde(default)]
    keyword: Option<String>,
}

impl Expect {
    /// The rule JSON Schema reports for this file.
    fn schema_rule(&self) -> &str {
        self.keyword.as_deref().unwrap_or(&self.rule)
    }
}

/// Checks every example below `dir` (`schemas/examples`).
pub(crate) fn check(dir: &Path) -> Result<Outcome, String> {
    let mut out = Outcome::default();
    for (folder, valid) in [("valid", true), ("invalid", false), ("invalid/seed", false)] {
        for path in files(&dir.join(folder))? {
            out.files += 1;
            let name = file_name(&path);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let shown = format!("{folder}/{name}");
            if name.ends_with(".ndjson") {
                check_log(&shown, &name, &text, valid, &mut out);
            } else if valid {
                check_valid(&shown, &name, &text, &mut out);
            } else {
                let sidecar = path.with_extension("expect.json");
                let expect: Expect = std::fs::read_to_string(&sidecar)
                    .map_err(|e| format!("{shown}: no sidecar {}: {e}", sidecar.display()))
                    .and_then(|t| {
                        serde_json::from_str(&t)
                            .map_err(|e| format!("{}: bad sidecar: {e}", sidecar.display()))
                    })?;
                check_invalid(&shown, &name, &text, &expect, &mut out);
            }
        }
    }
    Ok(out)
}

/// The `.json` and `.ndjson` example files of a folder (no sidecars), sorted.
fn files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
            .path();
        let name = file_name(&path);
        if path.is_file()
            && !name.ends_with(".expect.json")
            && (name.ends_with(".json") || name.ends_with(".ndjson"))
        {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The schema kind of an example, by file name (see schemas/examples/README.md).
fn schema_for(name: &str, value: &Value) -> Option<SchemaKind> {
    let prefixes = [
        ("plan-", SchemaKind::Plan),
        ("plan--", SchemaKind::Plan),
        ("dialog-", SchemaKind::Dialog),
        ("collab-", SchemaKind::Collab),
        ("map-event-", SchemaKind::MapEvent),
        ("sa-event-", SchemaKind::SaEvent),
        ("map-log-", SchemaKind::MapEvent),
        ("sa-log-", SchemaKind::SaEvent),
    ];
    let best = prefixes
        .iter()
        .filter(|(p, _)| name.starts_with(p))
        .max_by_key(|(p, _)| p.len());
    match best {
        Some((_, kind)) => Some(*kind),
        None if name.starts_with("event-") => Some(SchemaKind::event_for(value)),
        // Any other document kind: its prefix in the kinds table.
        None => kinds::for_example(name).map(|k| k.schema_for(value)),
    }
}

fn summary(report: &Report) -> String {
    let all: Vec<String> = report.errors().map(ToString::to_string).collect();
    if all.is_empty() {
        "no error".to_owned()
    } else {
        all.join("; ")
    }
}

fn check_valid(shown: &str, name: &str, text: &str, out: &mut Outcome) {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            out.problems.push(format!("{shown}: not JSON: {e}"));
            return;
        }
    };
    match schema_for(name, &value) {
        Some(kind) => {
            let report = schema::validate(kind, &value);
            if !report.is_valid() {
                out.problems.push(format!(
                    "{shown}: valid example refused by jsonschema ({}): {}",
                    kind.name(),
                    summary(&report)
                ));
            }
        }
        None => out
            .problems
            .push(format!("{shown}: no schema for this file name")),
    }
    match rust_kind(name) {
        Some(kind) => {
            if let Some(report) = kind.validate_document(text.as_bytes()) {
                if !report.is_valid() {
                    out.problems.push(format!(
                        "{shown}: valid example refused by {}: {}",
                        kind.rust,
                        summary(&report)
                    ));
                }
            }
        }
        None => out.schema_only.push(shown.to_owned()),
    }
}

fn rust_kind(name: &str) -> Option<&'static Kind> {
    kinds::for_example(name).filter(|k| k.doc_kind.is_some())
}

fn check_invalid(shown: &str, name: &str, text: &str, expect: &Expect, out: &mut Outcome) {
    // Duplicate keys and the SDK's invariants are invisible to JSON Schema:
    // those files pass their schema.
    let schema_sees_it =
        kinds::is_schema_rule(expect.schema_rule()) && expect.rule != "duplicate-key";
    let value: Option<Value> = serde_json::from_str(text).ok();
    match value
        .as_ref()
        .and_then(|v| schema_for(name, v).map(|k| (k, v)))
    {
        Some((kind, value)) => {
            let report = schema::validate(kind, value);
            if schema_sees_it {
                if report.is_valid() {
                    out.problems.push(format!(
                        "{shown}: invalid example accepted by jsonschema ({})",
                        kind.name()
                    ));
                } else if !has_schema_rule(&report, expect) {
                    out.problems.push(format!(
                        "{shown}: jsonschema does not report {} at {:?}: {}",
                        expect.schema_rule(),
                        expect.pointer,
                        summary(&report)
                    ));
                }
            } else if !report.is_valid() {
                out.problems.push(format!(
                    "{shown}: breaks only `{}`, which JSON Schema cannot see, yet jsonschema refuses it: {}",
                    expect.rule,
                    summary(&report)
                ));
            }
        }
        None => out.problems.push(format!(
            "{shown}: not JSON, or no schema for this file name"
        )),
    }
    match rust_kind(name) {
        Some(kind) => {
            if let Some(report) = kind.validate_document(text.as_bytes()) {
                if report.is_valid() {
                    out.problems.push(format!(
                        "{shown}: invalid example accepted by {}",
                        kind.rust
                    ));
                } else if !has(&report, expect) {
                    out.problems.push(format!(
                        "{shown}: {} does not report {} at {:?}: {}",
                        kind.rust,
                        expect.rule,
                        expect.pointer,
                        summary(&report)
                    ));
                }
            }
        }
        None => out.schema_only.push(shown.to_owned()),
    }
}

/// True when the SDK's `report` has the sidecar's rule at its pointer (and,
/// for an invariant the schema states, the sidecar's keyword behind it).
fn has(report: &Report, expect: &Expect) -> bool {
    report.errors().any(|v| {
        v.rule.as_str() == expect.rule
            && v.schema_keyword() == expect.keyword.as_deref()
            && (v.pointer == expect.pointer || repeat_below(&v.pointer, expect))
    })
}

/// True when jsonschema's `report` has the sidecar's schema rule at its
/// pointer.
fn has_schema_rule(report: &Report, expect: &Expect) -> bool {
    report.errors().any(|v| {
        v.rule.as_str() == expect.schema_rule()
            && (v.pointer == expect.pointer || repeat_below(&v.pointer, expect))
    })
}

/// Accepted pointer difference: for `unique-items` jsonschema locates the
/// error at the array (`/meta/tags`), mplp-core and the sidecars at the
/// repeated item (`/meta/tags/2`). The array and an item directly below it
/// are accepted for each other, for this rule only.
fn repeat_below(found: &str, expect: &Expect) -> bool {
    let item_of = |item: &str, array: &str| {
        item.strip_prefix(array)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|index| !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
    };
    expect.rule == "unique-items"
        && (item_of(found, &expect.pointer) || item_of(&expect.pointer, found))
}

fn check_log(shown: &str, name: &str, text: &str, valid: bool, out: &mut Outcome) {
    // The log kind from the kinds table (by the example's name), and the
    // schema of its lines from schema-check's table (by the line kind).
    // An event log's lines are each of their own kind (as the table detects it).
    let Some(log) = mplp_check::for_example(name).filter(|k| k.is_log()) else {
        out.problems.push(format!("{shown}: unknown log kind"));
        return;
    };
    let row = |name: &str| crate::kinds::KINDS.iter().find(|k| k.name == name);
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value = serde_json::from_str::<Value>(line).ok();
        let line_kind = match log.line_kind {
            Some(k) => row(k.name),
            None => mplp_check::detect(line.as_bytes())
                .ok()
                .and_then(|k| row(k.name)),
        };
        let schema_kind = line_kind.zip(value.as_ref()).map(|(k, v)| k.schema_for(v));
        let ok = schema_kind
            .zip(value.as_ref())
            .is_some_and(|(k, v)| schema::is_valid(k, v));
        if !ok && valid {
            out.problems.push(format!(
                "{shown}: line {} refused by jsonschema ({})",
                i + 1,
                schema_kind.map_or("no schema", |k| k.name())
            ));
        }
    }
    // Invalid logs may break only log-level rules (turn order, receipts),
    // which JSON Schema cannot see: only the Rust validator is asked.
    let report = log.validate(text.as_bytes());
    if report.is_valid() != valid {
        out.problems.push(format!(
            "{shown}: the Rust log validator says {}: {}",
            if report.is_valid() {
                "valid"
            } else {
                "invalid"
            },
            summary(&report)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn examples() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/examples")
    }

    #[test]
    fn every_example_agrees_with_its_folder() {
        let out = check(&examples()).unwrap();
        assert!(out.files > 70, "{}", out.files);
        assert!(out.problems.is_empty(), "{:#?}", out.problems);
    }

    #[test]
    fn a_misplaced_example_is_caught() {
        // A valid plan, checked as if it were an invalid one.
        let text = std::fs::read_to_string(examples().join("valid/plan-minimal.json")).unwrap();
        let mut out = Outcome::default();
        let expect = Expect {
            pointer: "/status".to_owned(),
            rule: "required".to_owned(),
            keyword: None,
        };
        check_invalid("x", "plan--required--x.json", &text, &expect, &mut out);
        assert_eq!(out.problems.len(), 2, "{:#?}", out.problems);
        // And an invalid one as if it were valid.
        let text =
            std::fs::read_to_string(examples().join("invalid/plan--required--missing-status.json"))
                .unwrap();
        let mut out = Outcome::default();
        check_valid("x", "plan-x.json", &text, &mut out);
        assert_eq!(out.problems.len(), 2, "{:#?}", out.problems);
    }

    #[test]
    fn the_reported_pointer_must_match_the_sidecar() {
        let text =
            std::fs::read_to_string(examples().join("invalid/plan--required--missing-status.json"))
                .unwrap();
        let mut out = Outcome::default();
        let expect = Expect {
            pointer: "/title".to_owned(),
            rule: "required".to_owned(),
            keyword: None,
        };
        check_invalid("x", "plan--required--x.json", &text, &expect, &mut out);
        assert_eq!(out.problems.len(), 2, "{:#?}", out.problems);
    }
}
