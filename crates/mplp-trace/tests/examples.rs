//! The shared schema examples: valid ones parse and round-trip, invalid ones
//! report the pointer and rule of their `.expect.json` sidecar, and the
//! typed verdict agrees with the JSON Schema rendering.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use std::path::PathBuf;

use mplp_core::Document;
use mplp_core::schema::{self, SchemaKind};
use mplp_trace::Trace;

fn examples(kind: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples")
        .join(kind);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with("trace-") && name.ends_with(".json") && !name.ends_with(".expect.json")
        })
        .collect();
    v.sort();
    v
}

#[test]
fn valid_examples_parse_without_warnings_and_round_trip() {
    let files = examples("valid");
    assert_eq!(files.len(), 3);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let v = Trace::validate_json(&text);
        assert!(v.report.is_empty(), "{}: {:?}", f.display(), v.report);
        let doc = v.value.unwrap();
        let original: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc.to_value(), original, "{}", f.display());
        assert!(schema::is_valid(SchemaKind::Trace, &original));
        let again = Trace::from_json(doc.to_json()).unwrap();
        assert_eq!(again, doc);
    }
}

#[test]
fn invalid_examples_report_their_pointer_and_rule() {
    let files = examples("invalid");
    assert_eq!(files.len(), 8);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let expect: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(f.with_extension("expect.json")).unwrap(),
        )
        .unwrap();
        let v = Trace::validate_json(&text);
        assert!(!v.is_valid(), "{} is valid", f.display());
        // Deserialize means valid: serde refuses it too.
        assert!(
            serde_json::from_str::<Trace>(&text).is_err(),
            "{}",
            f.display()
        );
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
        // Schema rules (kebab-case ids) are the schema's too; invariants
        // (snake_case ids) are beyond it, so the schema accepts those files.
        let schema_rule = !want.1.contains('_');
        assert_eq!(found, vec![want], "{}", f.display());
        assert_eq!(
            !schema::is_valid(SchemaKind::Trace, &value),
            schema_rule,
            "{}",
            f.display()
        );
    }
}
