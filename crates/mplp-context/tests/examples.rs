//! The shared schema examples: valid ones parse and round-trip, invalid ones
//! report the pointer and rule of their `.expect.json` sidecar, and the
//! typed verdict agrees with the JSON Schema rendering.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use std::path::PathBuf;

use mplp_context::Context;
use mplp_core::Document;
use mplp_core::schema::{self, SchemaKind};

fn examples(kind: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples")
        .join(kind);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with("context-")
                && name.ends_with(".json")
                && !name.ends_with(".expect.json")
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
        let v = Context::validate_json(&text);
        assert!(v.report.is_empty(), "{}: {:?}", f.display(), v.report);
        let ctx = v.value.unwrap();
        let original: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(ctx.to_value(), original, "{}", f.display());
        assert!(schema::is_valid(SchemaKind::Context, &original));
        let again = Context::from_json(ctx.to_json()).unwrap();
        assert_eq!(again, ctx);
    }
}

#[test]
fn invalid_examples_report_their_pointer_and_rule() {
    let files = examples("invalid");
    assert_eq!(files.len(), 6);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let expect: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(f.with_extension("expect.json")).unwrap(),
        )
        .unwrap();
        let v = Context::validate_json(&text);
        assert!(!v.is_valid(), "{} is valid", f.display());
        // Deserialize means valid: serde refuses it too.
        assert!(
            serde_json::from_str::<Context>(&text).is_err(),
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
            !schema::is_valid(SchemaKind::Context, &value),
            schema_rule,
            "{}",
            f.display()
        );
    }
}
