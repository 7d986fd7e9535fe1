//! The example checks shared by the module crates' `tests/examples.rs`
//! (included with `#[path]`): valid examples parse without findings and
//! round-trip; invalid ones report exactly the pointer and rule of their
//! `.expect.json` sidecar, serde refuses them too, and the JSON Schema
//! rendering agrees on the schema-level ones.

use std::path::PathBuf;

use mplp_core::Document;
use mplp_core::schema::{self, SchemaKind};

/// The `.json` examples of `schemas/examples/{kind}` whose name starts with
/// `prefix` (not the `.expect.json` sidecars), sorted.
pub(crate) fn examples(kind: &str, prefix: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples")
        .join(kind);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with(prefix) && name.ends_with(".json") && !name.ends_with(".expect.json")
        })
        .collect();
    v.sort();
    v
}

/// Checks the `count` valid examples named `prefix*`.
pub(crate) fn valid_examples_parse_without_warnings_and_round_trip<T>(
    prefix: &str,
    schema_kind: SchemaKind,
    count: usize,
) where
    T: Document + PartialEq + std::fmt::Debug,
{
    let files = examples("valid", prefix);
    assert_eq!(files.len(), count);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let v = T::validate_json(&text);
        assert!(v.report.is_empty(), "{}: {:?}", f.display(), v.report);
        let doc = v.value.unwrap();
        let original: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc.to_value(), original, "{}", f.display());
        assert!(schema::is_valid(schema_kind, &original));
        let again = T::from_json(doc.to_json()).unwrap();
        assert_eq!(again, doc);
    }
}

/// Checks the `count` invalid examples named `prefix*`.
pub(crate) fn invalid_examples_report_their_pointer_and_rule<T>(
    prefix: &str,
    schema_kind: SchemaKind,
    count: usize,
) where
    T: Document + std::fmt::Debug,
{
    let files = examples("invalid", prefix);
    assert_eq!(files.len(), count);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let expect: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(f.with_extension("expect.json")).unwrap(),
        )
        .unwrap();
        let v = T::validate_json(&text);
        assert!(!v.is_valid(), "{} is valid", f.display());
        // Deserialize means valid: serde refuses it too.
        assert!(serde_json::from_str::<T>(&text).is_err(), "{}", f.display());
        let found: Vec<(String, &str)> = v
            .report
            .errors()
            .map(|e| (e.pointer.clone(), e.rule.as_str()))
            .collect();
        let want = (
            expect["pointer"].as_str().unwrap().to_owned(),
            expect["rule"].as_str().unwrap(),
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        // Schema rules (kebab-case ids) are the schema's too, and so are the
        // frozen invariants the schema states (the sidecar names the keyword
        // behind them); the other invariants (snake_case ids) are beyond
        // it, so the schema accepts those files.
        let keyword = expect.get("keyword").and_then(serde_json::Value::as_str);
        let schema_rule = keyword.is_some() || !want.1.contains('_');
        assert_eq!(found, vec![want], "{}", f.display());
        let behind: Vec<Option<&str>> = v.report.errors().map(|e| e.schema_keyword()).collect();
        assert_eq!(behind, vec![keyword], "{}", f.display());
        assert_eq!(
            !schema::is_valid(schema_kind, &value),
            schema_rule,
            "{}",
            f.display()
        );
    }
}
