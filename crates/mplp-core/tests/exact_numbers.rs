//! Free-form members keep their numbers exactly: what the map
//! cannot hold is written back with its text, on every path a document
//! takes; documents without such numbers are written as before.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;

use mplp_core::{Document, JsonObject, Wire};
use proptest::prelude::*;
use serde_json::Value;

/// A document with a free-form member and an open (extra) map.
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document)]
struct Doc {
    source: String,
    data: JsonObject,
    #[wire(extra)]
    extra: JsonObject,
}

impl Document for Doc {
    const KIND: &'static str = "doc";
}

/// The issue's numbers, and more the map cannot hold.
const INEXACT: &[&str] = &[
    "18446744073709551617",
    "18446744073709551616",
    "-18446744073709551617",
    "-9223372036854775809",
    "-123456789012345678901234567890",
    "3.141592653589793238462643383279",
    "1e-400",
    "-1e-400",
    "1e400",
    "-1E+400",
    "2.5e-324",
    "0.1000000000000000000000000001",
];

/// A number's value as (sign, digits without leading/trailing zeros,
/// exponent of `0.DIGITS`): the test's own oracle.
fn decimal(token: &str) -> (bool, String, i64) {
    let (neg, rest) = token
        .strip_prefix('-')
        .map_or((false, token), |r| (true, r));
    let (mantissa, exp) = rest
        .split_once(['e', 'E'])
        .map_or((rest, 0), |(m, e)| (m, e.parse::<i64>().unwrap()));
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{int}{frac}");
    let trimmed = all.trim_start_matches('0');
    let leading = (all.len() - trimmed.len()) as i64;
    let digits = trimmed.trim_end_matches('0').to_owned();
    let exponent = if digits.is_empty() {
        0
    } else {
        exp + int.len() as i64 - leading
    };
    (neg, digits, exponent)
}

/// The number tokens of JSON text, in order (strings skipped).
fn numbers(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < b.len() && matches!(b[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    i += 1;
                }
                out.push(text[start..i].to_owned());
            }
            _ => i += 1,
        }
    }
    out
}

fn same_values(input: &str, output: &str) {
    let a: Vec<_> = numbers(input).iter().map(|t| decimal(t)).collect();
    let b: Vec<_> = numbers(output).iter().map(|t| decimal(t)).collect();
    assert_eq!(a, b, "\n input: {input}\noutput: {output}");
}

#[test]
fn the_issue_numbers_come_back_with_their_value() {
    for n in INEXACT {
        let text = format!(
            r#"{{"source":"plan","data":{{"a":[1,{{"deep":[{n}]}}],"n":{n}}},"x":{{"y":{n}}}}}"#
        );
        // serde alone.
        let doc: Doc = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&doc).unwrap(), text);
        // The validating reader, compact and pretty.
        let doc = Doc::from_json(&text).unwrap();
        assert_eq!(doc.to_json(), text);
        same_values(&text, &doc.to_json_pretty());
        let again = Doc::from_json(doc.to_json_pretty()).unwrap();
        assert_eq!(again, doc);
        // The exact texts are listed.
        let found: Vec<_> = doc
            .data
            .exact_numbers()
            .map(|(p, t)| (p.as_str().to_owned(), t.to_owned()))
            .collect();
        assert_eq!(
            found,
            [
                ("/a/1/deep/0".to_owned(), n.to_string()),
                ("/n".to_owned(), n.to_string())
            ]
        );
    }
}

#[test]
fn the_map_holds_stand_ins() {
    let o: JsonObject =
        serde_json::from_str(r#"{"big":18446744073709551617,"huge":-1e400,"tiny":1e-400}"#)
            .unwrap();
    assert_eq!(o["big"].as_f64(), Some(18446744073709551617.0));
    assert_eq!(o["huge"].as_f64(), Some(-f64::MAX));
    assert_eq!(o["tiny"].as_f64(), Some(0.0));
}

#[test]
fn negative_zero_and_plain_numbers_are_written_as_before() {
    let text = r#"{"a":-0.0,"b":-0,"c":1e5,"d":1.50,"e":0.1,"f":-9223372036854775808,"g":18446744073709551615}"#;
    let o: JsonObject = serde_json::from_str(text).unwrap();
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!(o.exact_numbers().count(), 0);
    assert_eq!(
        serde_json::to_string(&o).unwrap(),
        serde_json::to_string(&v).unwrap()
    );
    same_values(text, &serde_json::to_string(&o).unwrap());
}

#[test]
fn equality_and_hash_see_the_exact_number() {
    use std::hash::{BuildHasher, RandomState};
    let a: JsonObject = serde_json::from_str(r#"{"n":18446744073709551617}"#).unwrap();
    let b: JsonObject = serde_json::from_str(r#"{"n":18446744073709551616}"#).unwrap();
    let c: JsonObject = serde_json::from_str(r#"{"n": 1844674407370955161.7e1}"#).unwrap();
    assert_eq!(*a, *b, "the same stand-in");
    assert_ne!(a, b);
    assert_eq!(a, c, "the same value, written differently");
    let h = RandomState::new();
    assert_eq!(h.hash_one(&a), h.hash_one(&c));
    assert_ne!(h.hash_one(&a), h.hash_one(&b));
}

#[test]
fn mutation_drops_what_it_could_change() {
    let text = r#"{"a":1e400,"b":[18446744073709551617]}"#;
    let mut o: JsonObject = serde_json::from_str(text).unwrap();
    o.insert("a", 2);
    assert_eq!(
        serde_json::to_string(&o).unwrap(),
        r#"{"a":2,"b":[18446744073709551617]}"#
    );
    assert_eq!(
        o.remove("b"),
        Some(serde_json::json!([18446744073709551617.0]))
    );
    assert_eq!(o.exact_numbers().count(), 0);
    let mut o: JsonObject = serde_json::from_str(text).unwrap();
    o.as_map_mut();
    assert_eq!(o.exact_numbers().count(), 0);
    assert_eq!(
        serde_json::to_string(&o).unwrap(),
        r#"{"a":1.7976931348623157e+308,"b":[1.8446744073709552e+19]}"#
    );
}

#[test]
fn a_value_has_already_lost_the_text() {
    let text = r#"{"source":"plan","data":{"n":18446744073709551617}}"#;
    let doc = Doc::from_json(text).unwrap();
    // to_value writes stand-ins (a Value cannot hold the exact number) ...
    let value = doc.to_value();
    assert_eq!(value["data"]["n"].as_f64(), Some(18446744073709551617.0));
    // ... and a document read from a Value has only them.
    let from_value = Doc::from_value(&value).unwrap();
    assert_eq!(from_value.data.exact_numbers().count(), 0);
    assert_eq!(
        from_value.to_json(),
        r#"{"source":"plan","data":{"n":1.8446744073709552e+19}}"#
    );
    // Beyond f64's range too: the stand-in, not an error.
    let doc = Doc::from_json(r#"{"data":{"n":1e400},"source":"plan"}"#).unwrap();
    assert_eq!(doc.to_value()["data"]["n"].as_f64(), Some(f64::MAX));
    // serde_json's own to_value reads the exact text back: lossy, and
    // refused beyond f64's range.
    let v = serde_json::to_value(Doc::from_json(text).unwrap()).unwrap();
    assert_eq!(v["data"]["n"].as_f64(), Some(18446744073709551617.0));
    assert!(serde_json::to_value(&doc).is_err());
}

#[test]
fn an_invalid_document_with_a_huge_number_reports_its_real_errors() {
    let text = r#"{"data":{"n":1e400},"source":5}"#;
    let report = Doc::validate_json(text).report;
    let found: Vec<_> = report
        .errors()
        .map(|v| (v.pointer.as_str(), v.rule.as_str()))
        .collect();
    assert_eq!(found, [("/source", "type")]);
    // A duplicate key inside the member: found with its pointer.
    let text = r#"{"data":{"n":{"k":1e400,"k":2}},"source":"plan"}"#;
    let report = Doc::validate_json(text).report;
    let found: Vec<_> = report
        .errors()
        .map(|v| (v.pointer.as_str(), v.rule.as_str()))
        .collect();
    assert_eq!(found, [("/data/n/k", "duplicate-key")]);
    // serde's own message names no position inside the member.
    let e = serde_json::from_str::<Doc>(text).unwrap_err().to_string();
    assert_eq!(e.matches(" at line ").count(), 1, "{e}");
    assert!(e.starts_with("duplicate key `k`"), "{e}");
}

#[test]
fn extra_members_keep_them() {
    // Covered for real envelopes in mplp-events; here the extra map.
    let text = r#"{"source":"plan","data":{},"z":{"n":[1e-400]}}"#;
    let doc = Doc::from_json(text).unwrap();
    assert_eq!(doc.to_json(), text);
}

/// A JSON number written as text, most of them beyond what the map holds.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        // Big integers.
        ("-?", "[1-9][0-9]{19,40}").prop_map(|(s, d)| format!("{s}{d}")),
        // Long fractions.
        ("-?", "[0-9]", "[0-9]{16,40}").prop_map(|(s, i, f)| format!("{s}{i}.{f}")),
        // Tiny and huge exponents.
        ("-?", "[1-9]", "[0-9]{0,20}", "[eE]", "[-+]?", 300u32..5000).prop_map(
            |(s, i, f, e, es, x)| if f.is_empty() {
                format!("{s}{i}{e}{es}{x}")
            } else {
                format!("{s}{i}.{f}{e}{es}{x}")
            }
        ),
        // Negative zero.
        prop_oneof![Just("-0"), Just("-0.0"), Just("-0e7"), Just("-0.000E-3")]
            .prop_map(str::to_owned),
        // Ordinary numbers.
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| serde_json::Number::from_f64(f).unwrap().to_string()),
    ]
}

/// A free-form value with numbers at random depths (keys sorted, as the
/// map writes them, so that numbers keep their order).
#[derive(Clone, Debug)]
enum Gen {
    Num(String),
    Text(String),
    Arr(Vec<Gen>),
    Obj(BTreeMap<String, Gen>),
}

impl Gen {
    fn render(&self, pretty: bool, out: &mut String) {
        let sep = if pretty { ", " } else { "," };
        match self {
            Gen::Num(n) => out.push_str(n),
            Gen::Text(t) => out.push_str(&serde_json::to_string(t).unwrap()),
            Gen::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(sep);
                    }
                    item.render(pretty, out);
                }
                out.push(']');
            }
            Gen::Obj(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push_str(sep);
                    }
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push_str(if pretty { ": " } else { ":" });
                    v.render(pretty, out);
                }
                out.push('}');
            }
        }
    }
}

fn gen_value(leaf: BoxedStrategy<Gen>) -> impl Strategy<Value = Gen> {
    leaf.prop_recursive(5, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Gen::Arr),
            prop::collection::btree_map("[a-z\"\\\\0-9]{0,3}", inner, 0..5).prop_map(Gen::Obj),
        ]
    })
}

fn exact_leaf() -> BoxedStrategy<Gen> {
    prop_oneof![
        4 => number().prop_map(Gen::Num),
        1 => "[a-z0-9 \"\\\\.e-]{0,6}".prop_map(Gen::Text),
    ]
    .boxed()
}

fn plain_leaf() -> BoxedStrategy<Gen> {
    prop_oneof![
        any::<i64>().prop_map(|n| Gen::Num(n.to_string())),
        any::<u64>().prop_map(|n| Gen::Num(n.to_string())),
        (-1e300f64..1e300).prop_map(|f| Gen::Num(format!("{f:e}"))),
        (-1e6f64..1e6).prop_map(|f| Gen::Num(format!("{f}"))),
        "[a-z0-9 \"\\\\.e-]{0,6}".prop_map(Gen::Text),
    ]
    .boxed()
}

fn in_data(g: Gen) -> Gen {
    let mut members = BTreeMap::new();
    members.insert("v".to_owned(), g);
    Gen::Obj(members)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Numbers at random depths of a free-form member come back with
    /// their values, through serde and the validating reader, compact and
    /// indented, and a second round trip changes nothing.
    #[test]
    fn numbers_in_free_form_members_round_trip_exactly(g in gen_value(exact_leaf()), pretty in any::<bool>()) {
        let mut data = String::new();
        in_data(g).render(pretty, &mut data);
        let text = format!(r#"{{"source":"plan","data":{data}}}"#);
        let doc = Doc::from_json(&text).unwrap();
        let out = doc.to_json();
        same_values(&text, &out);
        same_values(&text, &doc.to_json_pretty());
        let serde_doc: Doc = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&serde_doc, &doc);
        let again = Doc::from_json(&out).unwrap();
        prop_assert_eq!(&again, &doc);
        prop_assert_eq!(again.to_json(), out);
    }

    /// Without such numbers, a free-form member is written byte for byte as
    /// serde_json writes its `Value` (what mplp-rs wrote before), and holds
    /// that `Value`.
    #[test]
    fn members_without_such_numbers_are_written_as_before(g in gen_value(plain_leaf()), pretty in any::<bool>()) {
        let mut data = String::new();
        in_data(g).render(pretty, &mut data);
        let o: JsonObject = serde_json::from_str(&data).unwrap();
        let v: Value = serde_json::from_str(&data).unwrap();
        if o.exact_numbers().count() == 0 {
            prop_assert_eq!(serde_json::to_string(&o).unwrap(), serde_json::to_string(&v).unwrap());
        }
        prop_assert_eq!(Value::from(o), v);
    }
}

/// Entries of a member set with `insert_exact` take their sorted place
/// among the others: the object equals (and writes as) one read whole.
#[test]
fn a_member_inserted_with_its_exact_numbers_equals_one_read_whole() {
    let whole = r#"{"a":{"x":1e400,"y":1e-400},"b":{"p":18446744073709551617,"q":[1e400,3.141592653589793238462643383279],"r":{"s":-1e400}},"c":[1e400]}"#;
    let full: JsonObject = serde_json::from_str(whole).unwrap();
    let mut built: JsonObject =
        serde_json::from_str(r#"{"a":{"x":1e400,"y":1e-400},"c":[1e400]}"#).unwrap();
    let b: mplp_json::exact::ExactValue = serde_json::from_str(
        r#"{"p":18446744073709551617,"q":[1e400,3.141592653589793238462643383279],"r":{"s":-1e400}}"#,
    )
    .unwrap();
    built.insert_exact("b".to_owned(), b);
    assert_eq!(serde_json::to_string(&built).unwrap(), whole);
    assert_eq!(built, full);
    let pointers: Vec<String> = built
        .exact_numbers()
        .map(|(p, _)| p.as_str().to_owned())
        .collect();
    assert_eq!(
        pointers,
        ["/a/x", "/a/y", "/b/p", "/b/q/0", "/b/q/1", "/b/r/s", "/c/0"]
    );
}
