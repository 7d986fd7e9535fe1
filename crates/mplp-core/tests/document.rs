//! `mplp_core::document`: the outcome of a validation, the thorough pass,
//! syntax and depth errors, the error of a failed rule, duplicate keys.
//! (The module crates test their documents through the same code; these
//! tests pin it in mplp-core itself, where cargo-mutants looks.)

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mplp_core::document::{
    RulesError, UTF8_BOM, duplicate_keys, path_to_pointer, report_parsed, syntax_violation_in,
    thorough,
};
use mplp_core::{Document, Error, Report, Rule, Stated, Violation, Wire};

/// A document with one rule (an error) and one warning.
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document)]
struct Range {
    low: u64,
    high: u64,
}

impl Document for Range {
    const KIND: &'static str = "range";
    fn check_rules(&self, report: &mut Report) {
        if self.low > self.high {
            report.error("/low", Rule::new("low_not_above_high"), "low is above high");
        }
        if self.high > 100 {
            report.warn("/high", Rule::new("high_is_high"), "high is above 100");
        }
    }
}

/// `(pointer, rule)` of every violation.
fn found(report: &Report) -> Vec<(String, String)> {
    report
        .violations()
        .iter()
        .map(|v| (v.pointer.clone(), v.rule.as_str().to_owned()))
        .collect()
}

fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

#[test]
fn a_validation_is_valid_only_with_its_value_and_no_error() {
    // Valid, with a warning: the value, and the warning kept.
    let v = Range::validate_json(r#"{"low":1,"high":500}"#);
    assert!(v.is_valid());
    assert_eq!(found(&v.report), pairs(&[("/high", "high_is_high")]));
    assert_eq!(v.into_result().unwrap(), Range { low: 1, high: 500 });

    // A failed rule: no value, and the error is all `into_result` gives
    // (the warning is left out).
    let v = Range::validate_json(r#"{"low":600,"high":500}"#);
    assert!(!v.is_valid());
    assert_eq!(v.value, None);
    assert_eq!(v.report.violations().len(), 2);
    match v.into_result() {
        Err(Error::Invalid(errors)) => {
            let rules: Vec<_> = errors.iter().map(|e| e.rule.as_str()).collect();
            assert_eq!(rules, ["low_not_above_high"]);
        }
        other => panic!("expected the rule's error, got {other:?}"),
    }

    // A schema error: no value either.
    let v = Range::validate_json(r#"{"low":"1","high":5}"#);
    assert!(!v.is_valid());
    assert_eq!(found(&v.report), pairs(&[("/low", "type")]));

    // A value with an error added to its report (the fields are public) is
    // not returned.
    let mut v = Range::validate_json(r#"{"low":1,"high":5}"#);
    assert!(v.is_valid());
    v.report
        .error("/high", Rule::new("added"), "added by the caller");
    match v.into_result() {
        Err(Error::Invalid(errors)) => {
            assert_eq!(errors.len(), 1);
            assert_eq!(errors[0].rule.as_str(), "added");
        }
        other => panic!("expected the added error, got {other:?}"),
    }
}

#[test]
fn report_parsed_runs_the_rules_of_what_parses_and_gives_up_on_the_rest() {
    for (input, expected) in [
        (r#"{"low":1,"high":500}"#, &[("/high", "high_is_high")][..]),
        (r#"{"low":9,"high":5}"#, &[("/low", "low_not_above_high")]),
        (r#"{"low":1,"high":5}"#, &[]),
    ] {
        let report = report_parsed::<Range>(input).unwrap();
        assert_eq!(found(&report), pairs(expected));
        // The report validate_json gives.
        assert_eq!(
            found(&Range::validate_json(input.as_bytes()).report),
            pairs(expected)
        );
    }
    // What the typed parse refuses gets no thorough pass: no answer.
    for input in [r#"{"low":"1","high":5}"#, "{\"low\":1", "[]", ""] {
        assert_eq!(report_parsed::<Range>(input), None);
    }
}

#[test]
fn the_thorough_pass_lists_every_schema_error_or_the_one_syntax_error() {
    let input = br#"{"low":"1","high":-5,"wide":true}"#;
    let first = serde_json::from_slice::<Range>(input).unwrap_err();
    assert_eq!(
        found(&thorough::<Range>(input, &first)),
        pairs(&[
            ("/low", "type"),
            ("/high", "minimum"),
            ("/wide", "additional-properties")
        ])
    );
    assert_eq!(
        found(&Range::validate_json(input).report),
        found(&thorough::<Range>(input, &first))
    );

    // Duplicate keys come with the schema errors.
    let input = br#"{"low":1,"low":2,"high":"x"}"#;
    let first = serde_json::from_slice::<Range>(input).unwrap_err();
    assert_eq!(
        found(&thorough::<Range>(input, &first)),
        pairs(&[("/low", "duplicate-key"), ("/high", "type")])
    );

    // Not well-formed, or cut off: one `json-syntax` error, at the root.
    for (input, says) in [
        (&b"{\"low\":1,}"[..], "trailing comma (line 1, column 10)"),
        (b"{\"low\":1", "the input ends too early"),
        (b"", "the input ends too early"),
    ] {
        let first = serde_json::from_slice::<Range>(input).unwrap_err();
        let report = thorough::<Range>(input, &first);
        assert_eq!(found(&report), pairs(&[("", "json-syntax")]), "{input:?}");
        let message = &report.violations()[0].message;
        assert!(message.contains(says), "{message}");
        // The position is said once.
        assert_eq!(message.matches("line 1").count(), 1, "{message}");
    }
}

/// The error of parsing `text` as any JSON value.
fn parse_error(text: &[u8]) -> serde_json::Error {
    serde_json::from_slice::<serde_json::Value>(text).unwrap_err()
}

#[test]
fn a_byte_order_mark_is_named_only_when_the_parse_stops_at_it() {
    let marked = [UTF8_BOM, b"{}"].concat();
    let at_start = parse_error(&marked);
    assert_eq!((at_start.line(), at_start.column()), (1, 1));
    let v = syntax_violation_in(&marked, &at_start);
    assert_eq!(v.rule.as_str(), "json-syntax");
    assert!(v.message.contains("UTF-8 byte-order mark"), "{}", v.message);

    // An error at the start of input without a mark.
    let plain = parse_error(b"x");
    assert_eq!((plain.line(), plain.column()), (1, 1));
    let v = syntax_violation_in(b"x", &plain);
    assert!(!v.message.contains("byte-order mark"), "{}", v.message);
    assert!(v.message.contains("line 1, column 1"), "{}", v.message);

    // Input with a mark, and an error somewhere else than at its start: on
    // the first line past the first column, or on a later line.
    for elsewhere in [&b"[1,x"[..], b"\nx"] {
        let e = parse_error(elsewhere);
        assert!((e.line(), e.column()) > (1, 1));
        let v = syntax_violation_in(&marked, &e);
        assert_eq!(v.rule.as_str(), "json-syntax");
        assert!(!v.message.contains("byte-order mark"), "{}", v.message);
    }
}

/// `[`, a newline, `before` brackets on line 2, `x` when `broken`, then
/// brackets up past the depth limit: the bracket that opens level 128 is on
/// line 2, at column `before + 1` (or `+ 2` after the `x`).
fn deep(before: usize, broken: bool) -> Vec<u8> {
    let mut text = format!("[\n{}", "[".repeat(before));
    if broken {
        text.push('x');
    }
    text.push_str(&"[".repeat(1100));
    text.push_str(&"]".repeat(1101 + before));
    text.into_bytes()
}

#[test]
fn the_depth_limit_is_told_from_a_syntax_error_before_it_by_line_and_column() {
    // serde_json stops at the bracket that opens level 128 (line 2, column
    // 127): the input is too deep.
    let too_deep = deep(126, false);
    let e = parse_error(&too_deep);
    assert_eq!((e.line(), e.column()), (2, 127));
    let v = syntax_violation_in(&too_deep, &e);
    assert_eq!(v.rule.as_str(), "json-depth", "{}", v.message);

    // A syntax error in the column just before that bracket (line 2,
    // column 127, the bracket at 128) is a syntax error, however deep the
    // rest.
    let broken = deep(126, true);
    let e = parse_error(&broken);
    assert_eq!((e.line(), e.column()), (2, 127));
    let v = syntax_violation_in(&broken, &e);
    assert_eq!(v.rule.as_str(), "json-syntax", "{}", v.message);
    assert!(v.message.contains("line 2, column 127"), "{}", v.message);

    // And an error on an earlier line.
    let mut early = b"[x\n".to_vec();
    early.extend_from_slice(&deep(126, false)[2..]);
    let e = parse_error(&early);
    assert_eq!((e.line(), e.column()), (1, 2));
    assert_eq!(syntax_violation_in(&early, &e).rule.as_str(), "json-syntax");

    // Through the document: the same verdicts.
    for (input, rule) in [(&too_deep, "json-depth"), (&broken, "json-syntax")] {
        let report = Range::validate_json(input).report;
        assert_eq!(report.violations().len(), 1);
        assert_eq!(report.violations()[0].rule.as_str(), rule);
    }
}

#[test]
fn a_failed_rule_names_its_rule_where_and_how_many_more() {
    let error = |pointer: &str, more| RulesError {
        first: Violation::error(pointer, Rule::new("some_rule"), "what is wrong"),
        more,
    };
    assert_eq!(
        error("", 0).to_string(),
        "rule `some_rule` is violated at the document: what is wrong"
    );
    assert_eq!(
        error("/a/0", 1).to_string(),
        "rule `some_rule` is violated at /a/0: what is wrong (and 1 more error)"
    );
    assert_eq!(
        error("/a", 2).to_string(),
        "rule `some_rule` is violated at /a: what is wrong (and 2 more errors)"
    );
}

#[test]
fn paths_become_json_pointers() {
    type Nested = std::collections::BTreeMap<String, Vec<std::collections::BTreeMap<String, u64>>>;
    let text = r#"{"a/b": [{"x": 1}, {"y~": "no"}]}"#;
    let mut de = serde_json::Deserializer::from_str(text);
    let err = serde_path_to_error::deserialize::<_, Nested>(&mut de).unwrap_err();
    assert_eq!(path_to_pointer(err.path()), "/a~1b/1/y~0");

    let mut de = serde_json::Deserializer::from_str("1");
    let err = serde_path_to_error::deserialize::<_, Nested>(&mut de).unwrap_err();
    assert_eq!(path_to_pointer(err.path()), "");
}

#[test]
fn duplicate_keys_are_found_inside_arrays_at_their_index() {
    let found = duplicate_keys(br#"[{}, {"b": 1, "b": 2}, [0, {"c": [], "c": {"d": 1, "d": 2}}]]"#);
    let pointers: Vec<_> = found.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/1/b", "/2/1/c", "/2/1/c/d"]);
    assert!(found.iter().all(|v| v.rule.as_str() == "duplicate-key"));
    assert!(duplicate_keys(br#"[{"a": 1}, {"a": 2}]"#).is_empty());
}

/// A number beyond `f64`'s range in an integer member is valid JSON: the
/// member gets its own rule (`type`, the number echoed as written), not
/// `json-syntax`; a real syntax error still is one.
#[test]
fn a_number_beyond_f64_is_its_members_error_not_a_syntax_error() {
    let report = Range::validate_json(r#"{"low": 1e400, "high": 5}"#).report;
    assert_eq!(found(&report), pairs(&[("/low", "type")]), "{report:?}");
    assert!(
        report.violations()[0].message.contains("1e400"),
        "{report:?}"
    );
    let report = Range::validate_json(r#"{"low": 1, "high": 5,}"#).report;
    assert_eq!(found(&report), pairs(&[("", "json-syntax")]), "{report:?}");
}

/// `Stated::matches`: the pointer of a stated member, `*` standing for one
/// array index (digits, at least one), every other segment equal.
#[test]
fn a_stated_member_matches_its_pointer_with_any_index_for_a_star() {
    let stated = Stated::at("/steps/*/step_id", Rule::new("ids_valid"));
    for yes in ["/steps/0/step_id", "/steps/12/step_id"] {
        assert!(stated.matches(yes), "{yes}");
    }
    for no in [
        "/steps//step_id",
        "/steps/x/step_id",
        "/steps/1x/step_id",
        "/steps/0/agent_role",
        "/plans/0/step_id",
        "/steps/0",
        "/steps/0/step_id/0",
        "",
    ] {
        assert!(!stated.matches(no), "{no}");
    }
    let root = Stated::at("/steps", Rule::new("has_steps"));
    assert!(root.matches("/steps"));
    assert!(!root.matches("/step"));
    assert!(!root.matches("/steps/0"));
}

/// `Report::state_invariants` relabels only the schema keywords that judge
/// a member's value, at a stated member: not an extra member, a duplicate
/// key, a rule that is not a schema keyword (a module's own, or one already
/// relabelled), nor a keyword at another member.
#[test]
fn only_value_keywords_at_stated_members_take_the_invariants_id() {
    let stated = [
        Stated::at("/steps", Rule::new("has_steps")),
        Stated::at("/steps/*/step_id", Rule::new("ids_valid")),
    ];
    let mut report = Report::new();
    report.error("/steps", Rule::MIN_ITEMS, "expected at least 1 item");
    report.error("/steps/0/step_id", Rule::PATTERN, "expected a UUID");
    report.error("/steps/1/step_id", Rule::ADDITIONAL_PROPERTIES, "unknown");
    report.error("/steps/2/step_id", Rule::DUPLICATE_KEY, "twice");
    report.error("/steps/3/step_id", Rule::new("module_rule"), "own rule");
    report.error("/title", Rule::MIN_LENGTH, "empty");
    report.state_invariants(&stated);
    // A second call changes nothing: the relabelled rules are no keywords.
    report.state_invariants(&stated);
    let got: Vec<_> = report
        .violations()
        .iter()
        .map(|v| (v.pointer.as_str(), v.rule.as_str(), v.schema_keyword()))
        .collect();
    assert_eq!(
        got,
        [
            ("/steps", "has_steps", Some("min-items")),
            ("/steps/0/step_id", "ids_valid", Some("pattern")),
            ("/steps/1/step_id", "additional-properties", None),
            ("/steps/2/step_id", "duplicate-key", None),
            ("/steps/3/step_id", "module_rule", None),
            ("/title", "min-length", None),
        ]
    );
    assert_eq!(
        report.violations()[0].message,
        "expected at least 1 item (schema `min-items`)"
    );
}

/// `Violation::schema_keyword` reads back only a keyword: lowercase
/// letters and `-`, not empty, at the very end of the message.
#[test]
fn the_schema_keyword_is_read_back_only_when_it_is_one() {
    let keyword = |message: &str| {
        Violation::error("/a", Rule::new("some_invariant"), message)
            .schema_keyword()
            .map(str::to_owned)
    };
    assert_eq!(
        keyword("bad (schema `min-items`)"),
        Some("min-items".into())
    );
    assert_eq!(keyword("bad (schema `enum`)"), Some("enum".into()));
    for none in [
        "bad (schema ``)",
        "bad (schema `Min-items`)",
        "bad (schema `min items`)",
        "bad (schema `enum`) and more",
        "bad",
    ] {
        assert_eq!(keyword(none), None, "{none}");
    }
}
