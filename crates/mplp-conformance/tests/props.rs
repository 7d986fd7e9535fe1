//! Property tests of the invariant interpreter: on generated documents, each
//! rule kind's verdict equals the verdict computed directly in the test.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mplp_conformance::invariants::{evaluate, parse_invariants};
use mplp_conformance::{Finding, Scopes};
use proptest::prelude::*;
use serde_json::{Value, json};

fn run(scope_doc: Value, path: Option<&str>, rule: &str) -> Vec<Finding> {
    let mut scopes = Scopes::new();
    scopes.insert("doc".into(), scope_doc);
    scopes.insert("other".into(), json!({"key": "k-1"}));
    let path_line = path
        .map(|p| format!("    path: '{p}'\n"))
        .unwrap_or_default();
    let yaml = format!("invariants:\n  - id: inv\n    scope: doc\n{path_line}    rule: '{rule}'\n");
    let list = parse_invariants(&yaml, "invariants.yaml").unwrap();
    evaluate(&list[0], &scopes, &|s| format!("{s}.json"))
}

/// A word from a small alphabet, so that generated values often collide with the enum.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["a", "b", "c", "k-1"]).prop_map(str::to_owned),
        1 => "[a-z ]{0,4}",
    ]
}

fn uuid_text() -> impl Strategy<Value = (String, bool)> {
    (any::<u128>(), 0..4u8).prop_map(|(bits, damage)| {
        let mut u = uuid::Builder::from_random_bytes(bits.to_le_bytes())
            .into_uuid()
            .to_string();
        match damage {
            0 | 1 => (u, true),
            2 => {
                u.replace_range(14..15, "5"); // version 5
                (u, false)
            }
            _ => {
                u.pop(); // too short
                (u, false)
            }
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn enum_fails_exactly_at_the_items_outside_the_set(items in prop::collection::vec(word(), 0..8)) {
        let found = run(json!({"items": items}), Some("items[*]"), "enum(a, \"b\", c)");
        let expected: Vec<String> = items
            .iter()
            .enumerate()
            .filter(|(_, w)| !["a", "b", "c"].contains(&w.as_str()))
            .map(|(i, _)| format!("/items/{i}"))
            .collect();
        let got: Vec<String> = found.iter().map(|f| f.pointer.clone()).collect();
        prop_assert_eq!(got, expected);
        prop_assert!(found.iter().all(|f| f.rule == "inv" && f.file == "doc.json"));
    }

    #[test]
    fn min_length_compares_the_length(items in prop::collection::vec(word(), 0..8), n in 0usize..8) {
        let found = run(json!({"items": items}), Some("items"), &format!("min-length({n})"));
        prop_assert_eq!(found.is_empty(), items.len() >= n);
    }

    #[test]
    fn non_empty_string_and_eq(items in prop::collection::vec(word(), 1..6)) {
        let found = run(json!({"items": items}), Some("items[*]"), "non-empty-string");
        let blank = items.iter().filter(|w| w.trim().is_empty()).count();
        prop_assert_eq!(found.len(), blank);
        let found = run(json!({"items": items}), Some("items[*]"), "eq(other.key)");
        prop_assert_eq!(found.len(), items.iter().filter(|w| *w != "k-1").count());
    }

    #[test]
    fn uuid_v4_accepts_exactly_the_v4_texts(ids in prop::collection::vec(uuid_text(), 0..6)) {
        let texts: Vec<&str> = ids.iter().map(|(t, _)| t.as_str()).collect();
        let found = run(json!({"ids": texts}), Some("ids[*]"), "uuid-v4");
        let expected: Vec<String> = ids
            .iter()
            .enumerate()
            .filter(|(_, (_, ok))| !ok)
            .map(|(i, _)| format!("/ids/{i}"))
            .collect();
        let got: Vec<String> = found.iter().map(|f| f.pointer.clone()).collect();
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn filters_and_comparisons(events in prop::collection::vec((word(), prop::option::of(0i64..3)), 0..8)) {
        let doc = json!({"events": events.iter().map(|(t, d)| match d {
            Some(d) => json!({"t": t, "d": d}),
            None => json!({"t": t}),
        }).collect::<Vec<_>>()});
        let has_a = events.iter().any(|(t, _)| t == "a");
        prop_assert_eq!(run(doc.clone(), None, "exists(events[?t==\"a\"])").is_empty(), has_a);
        // Every `a` event has data: an absent member compares as null.
        let a_without = events.iter().filter(|(t, d)| t == "a" && d.is_none()).count();
        prop_assert_eq!(run(doc.clone(), None, "events[?t==\"a\"].d != null").len(), a_without);
        let not_one = events.iter().filter(|(t, d)| t == "a" && *d != Some(1)).count();
        prop_assert_eq!(run(doc, None, "events[?t==\"a\"].d == 1").len(), not_one);
    }
}
