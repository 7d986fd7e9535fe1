//! Documents nested up to and past the limit of the JSON engine
//! (`mplp_json::nesting::MAX_NESTING`): read, checked, written and dropped
//! on a small stack, and refused with `json-depth`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../../tests/support/small_stack.rs"]
mod small_stack;

use mplp_core::Document;
use mplp_json::nesting::{MAX_NESTING, depth};
use small_stack::on_small_stack;

/// A document with a free-form member.
#[derive(Debug, PartialEq, mplp_core::Wire)]
#[wire(document)]
struct Doc {
    source: String,
    data: mplp_core::JsonObject,
}

impl Document for Doc {
    const KIND: &'static str = "doc";
}

/// `levels` nested arrays holding `1`.
fn arrays(levels: usize) -> String {
    format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
}

/// A document whose `data` member holds arrays so that it nests `total`
/// levels (the document is level 1, `data` level 2).
fn event(total: usize) -> String {
    format!(
        r#"{{"source":"plan","data":{{"deep":{}}}}}"#,
        arrays(total - 2)
    )
}

#[test]
fn a_document_at_the_limit_reads_checks_writes_and_drops_on_a_small_stack() {
    on_small_stack(|| {
        let text = event(MAX_NESTING);
        assert_eq!(depth(text.as_bytes()), MAX_NESTING);
        let validation = Doc::validate_json(&text);
        assert!(validation.report.is_valid(), "{:?}", validation.report);
        let doc = validation.value.unwrap();
        assert_eq!(doc.to_json(), text);
        // The thorough pass too (a wrong member beside the deep one).
        let wrong = text.replace(r#""source":"plan""#, r#""source":5"#);
        let report = Doc::validate_json(&wrong).report;
        let found: Vec<_> = report
            .errors()
            .map(|v| (v.pointer.as_str(), v.rule.as_str()))
            .collect();
        assert_eq!(found, [("/source", "type")]);
    });
}

#[test]
fn a_document_past_the_limit_names_the_limit_and_the_pointer() {
    on_small_stack(|| {
        let text = event(MAX_NESTING + 1);
        let report = Doc::validate_json(&text).report;
        let errors: Vec<_> = report.errors().collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        let v = errors[0];
        assert_eq!(v.rule, mplp_core::rules::JSON_DEPTH);
        assert!(v.message.contains("1024 levels"), "{}", v.message);
        let expected = format!("/data/deep{}", "/0".repeat(MAX_NESTING - 2));
        assert_eq!(v.pointer, expected);
        // Far deeper: the same violation, and no stack overflow.
        let text = event(MAX_NESTING * 20);
        let report = Doc::validate_json(&text).report;
        assert_eq!(
            report.errors().next().unwrap().rule,
            mplp_core::rules::JSON_DEPTH
        );
    });
}

#[test]
fn a_syntax_error_before_the_deep_part_stays_a_syntax_error() {
    let text = format!("{{\"a\": tru, \"b\": {}}}", arrays(MAX_NESTING + 5));
    let report = Doc::validate_json(&text).report;
    let v = report.errors().next().unwrap();
    assert_eq!(v.rule, mplp_core::Rule::JSON_SYNTAX, "{v:?}");
    // Deep but within the limit, with a syntax error past level 128.
    let text = format!("{{\"a\": {}}}", arrays(300).replacen('1', "tru", 1));
    let report = Doc::validate_json(&text).report;
    let v = report.errors().next().unwrap();
    assert_eq!(v.rule, mplp_core::Rule::JSON_SYNTAX, "{v:?}");
    assert!(v.message.contains("column"), "{}", v.message);
}
