//! `SemVer` against two oracles: the JSON Schema rendering (the `jsonschema`
//! crate running the schema's own pattern) for what is a version, and the
//! `semver` crate for precedence.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use mplp_core::schema::{self, SchemaKind};
use mplp_extension::SemVer;
use proptest::prelude::*;
use serde_json::json;

/// True when the Extension schema accepts `version` (everything else valid).
fn schema_accepts(version: &str) -> bool {
    let doc = json!({"meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "extension_id": "3f8a2c1e-7b4d-4e9f-a1c3-5d7e9f1a3b5c",
        "context_id": "0b6e4d2c-1a3f-4c5e-8d7b-9f0a1b2c3d4e",
        "name": "n", "extension_type": "other", "version": version, "status": "active"});
    schema::is_valid(SchemaKind::Extension, &doc)
}

/// Strings close to versions: digits, letters, dots, `-`, `+`, and a few
/// non-ASCII digits and letters.
fn near_version() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,2}\\.[0-9]{1,2}\\.[0-9]{1,2}(-[0-9a-zA-Z.-]{0,6})?(\\+[0-9a-zA-Z.-]{0,6})?",
        "[0-9a-z.+\\-]{0,12}",
        "[0-9]\\.[0-9]\\.[0-9][-+][0-9a-z٣é]{0,3}",
    ]
}

/// Valid versions, generated from the grammar.
fn version() -> impl Strategy<Value = String> {
    let num = prop_oneof!["0", "[1-9][0-9]{0,2}"];
    let pre_ident = prop_oneof![
        "0",
        "[1-9][0-9]{0,2}",
        "[0-9]{0,2}[a-zA-Z-][0-9a-zA-Z-]{0,3}"
    ];
    let build_ident = "[0-9a-zA-Z-]{1,4}";
    (
        num.clone(),
        num.clone(),
        num,
        prop::option::of(prop::collection::vec(pre_ident, 1..4)),
        prop::option::of(prop::collection::vec(build_ident, 1..3)),
    )
        .prop_map(|(a, b, c, pre, build)| {
            let mut s = format!("{a}.{b}.{c}");
            if let Some(p) = pre {
                s = format!("{s}-{}", p.join("."));
            }
            if let Some(b) = build {
                s = format!("{s}+{}", b.join("."));
            }
            s
        })
}

#[test]
fn known_cases() {
    for ok in [
        "0.0.0",
        "1.2.3",
        "10.20.30",
        "1.0.0-0",
        "1.0.0-0a",
        "1.0.0-a-b.0.c",
        "1.0.0+001",
        "1.0.0-x.7.z.92+exp.sha.5114f85",
        "1.0.0--",
    ] {
        assert!(SemVer::parse(ok).is_ok(), "{ok}");
        assert!(schema_accepts(ok), "{ok}");
    }
    for bad in [
        "",
        "1",
        "1.2",
        "1.2.3.4",
        "01.2.3",
        "1.02.3",
        "1.2.03",
        "1.0.0-",
        "1.0.0+",
        "1.0.0-01",
        "1.0.0-a..b",
        "1.0.0+a..b",
        "v1.0.0",
        "1.0.0 ",
        "1.0.0-é",
        "١.0.0",
    ] {
        assert!(SemVer::parse(bad).is_err(), "{bad}");
        assert!(!schema_accepts(bad), "{bad}");
    }
    let err = "1.0".parse::<SemVer>().unwrap_err();
    assert!(
        err.to_string()
            .starts_with("`1.0` is not a SemVer 2.0.0 version"),
        "{err}"
    );
}

#[test]
fn serde_and_check_agree_and_carry_the_rule() {
    let err = serde_json::from_str::<SemVer>(r#""1.0""#).unwrap_err();
    assert!(err.to_string().contains("not a SemVer"), "{err}");
    let v: SemVer = serde_json::from_str(r#""1.0.0-rc.1+b""#).unwrap();
    assert_eq!(serde_json::to_string(&v).unwrap(), r#""1.0.0-rc.1+b""#);
    assert_eq!(format!("{v:?}"), "SemVer(1.0.0-rc.1+b)");
    assert_eq!((v.pre_release(), v.build()), (Some("rc.1"), Some("b")));
    let plain: SemVer = "2.0.0".parse().unwrap();
    assert_eq!((plain.pre_release(), plain.build()), (None, None));
    let err = serde_json::from_str::<SemVer>("100").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: integer `100`, expected a SemVer 2.0.0 version string at line 1 column 3"
    );
    // The `Value` path reports what serde refuses, with the rule.
    use mplp_core::check::CheckValue;
    use mplp_core::{Pointer, Report};
    let check = |v: serde_json::Value| {
        let mut report = Report::new();
        SemVer::check_value(&v, &Pointer::root().key("version"), &mut report);
        report
            .errors()
            .map(|e| (e.pointer.clone(), e.rule.as_str().to_owned()))
            .collect::<Vec<_>>()
    };
    assert_eq!(check(json!("1.0.0-rc.1+b")), []);
    assert_eq!(
        check(json!("1.0")),
        [("/version".to_owned(), "pattern".to_owned())]
    );
    assert_eq!(
        check(json!(1)),
        [("/version".to_owned(), "type".to_owned())]
    );
}

/// The JSON Schema of a version is the schema's own pattern, inlined where
/// it is used.
#[cfg(feature = "schemars")]
#[test]
fn the_json_schema_is_the_pattern_inlined() {
    let schema = schemars::schema_for!(SemVer);
    assert_eq!(schema.get("type"), Some(&json!("string")));
    assert_eq!(
        schema.get("pattern"),
        Some(&json!(mplp_extension::SEMVER_PATTERN))
    );
    let extension = schemars::schema_for!(mplp_extension::Extension).to_value();
    assert_eq!(
        extension["properties"]["version"]["pattern"],
        json!(mplp_extension::SEMVER_PATTERN)
    );
}

proptest! {
    /// The parser and the schema's pattern agree on near-versions.
    #[test]
    fn parser_agrees_with_the_schema_pattern(s in near_version()) {
        prop_assert_eq!(SemVer::parse(&s).is_ok(), schema_accepts(&s), "{}", s);
    }

    /// Every version of the grammar is accepted by both.
    #[test]
    fn grammar_versions_are_accepted(s in version()) {
        prop_assert!(SemVer::parse(&s).is_ok(), "{}", s);
        prop_assert!(schema_accepts(&s), "{}", s);
        let v = SemVer::parse(&s).unwrap();
        prop_assert_eq!(v.as_str(), s.as_str());
        prop_assert_eq!(v.to_string(), s.clone());
    }

    /// Precedence agrees with the `semver` crate's `cmp_precedence`.
    #[test]
    fn precedence_agrees_with_the_semver_crate(a in version(), b in version()) {
        let ours = SemVer::parse(&a).unwrap().precedence(&SemVer::parse(&b).unwrap());
        let theirs = semver::Version::parse(&a).unwrap().cmp_precedence(&semver::Version::parse(&b).unwrap());
        prop_assert_eq!(ours, theirs, "{} vs {}", a, b);
    }
}
