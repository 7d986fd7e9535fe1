//! Property tests of kind detection and dispatch.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

#[path = "../../../tests/support/members.rs"]
mod members;
use mplp_check::{
    COLLAB, CONFIRM, CONTEXT, CORE, DIALOG, DocKind, EVENT, EXTENSION, KINDS, MAP_EVENT, NETWORK,
    PLAN, ROLE, SA_EVENT, TRACE, UNKNOWN_KIND, detect, validate_bytes,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// The members that tell kinds apart, and some that do not.
const KEYS: &[&str] = &[
    "plan_id",
    "dialog_id",
    "collab_id",
    "session_id",
    "sa_id",
    "event_family",
    "event_type",
    "context_id",
    "confirm_id",
    "role_id",
    "root_span",
    "trace_id",
    "root",
    "extension_id",
    "network_id",
    "core_id",
    "meta",
    "status",
];

/// The kind a document with these members must get (the documented order).
fn model(obj: &Map<String, Value>) -> Option<&'static DocKind> {
    let et = obj.get("event_type").and_then(Value::as_str).unwrap_or("");
    let has = |k: &str| obj.contains_key(k);
    if et.starts_with("MAP") || has("session_id") {
        Some(&MAP_EVENT)
    } else if et.starts_with("SA") || has("sa_id") {
        Some(&SA_EVENT)
    } else if has("event_family") {
        Some(&EVENT)
    } else if has("root_span") || has("trace_id") {
        Some(&TRACE)
    } else if has("plan_id") {
        Some(&PLAN)
    } else if has("dialog_id") {
        Some(&DIALOG)
    } else if has("collab_id") {
        Some(&COLLAB)
    } else if has("confirm_id") {
        Some(&CONFIRM)
    } else if has("role_id") {
        Some(&ROLE)
    } else if has("extension_id") {
        Some(&EXTENSION)
    } else if has("network_id") {
        Some(&NETWORK)
    } else if has("core_id") {
        Some(&CORE)
    } else if has("root") || has("context_id") {
        Some(&CONTEXT)
    } else {
        None
    }
}

fn member_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("MAPTurnDispatched")),
        Just(json!("SAInitialized")),
        Just(json!("plan_created")),
        Just(json!(null)),
        any::<i64>().prop_map(Value::from),
        "[a-z]{0,8}".prop_map(Value::from),
        Just(json!({"nested": [1, 2]})),
    ]
}

fn object() -> impl Strategy<Value = Map<String, Value>> {
    proptest::collection::vec((proptest::sample::select(KEYS), member_value()), 0..7)
        .prop_map(|pairs| pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

proptest! {
    #[test]
    fn detect_follows_the_documented_order(obj in object()) {
        let bytes = serde_json::to_vec(&obj).unwrap();
        match (detect(&bytes), model(&obj)) {
            (Ok(kind), Some(expected)) => prop_assert_eq!(kind, expected),
            (Err(v), None) => prop_assert_eq!(v.rule, UNKNOWN_KIND),
            (got, expected) => prop_assert!(false, "{:?} vs {:?}", got, expected),
        }
    }

    #[test]
    fn auto_gives_the_report_of_the_detected_kind(obj in object()) {
        let bytes = serde_json::to_vec(&obj).unwrap();
        let (kind, auto) = validate_bytes(None, &bytes);
        prop_assert_eq!(kind, model(&obj));
        if let Some(kind) = kind {
            let (_, forced) = validate_bytes(Some(kind), &bytes);
            prop_assert_eq!(auto.violations(), forced.violations());
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_always_get_a_verdict(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let (kind, report) = validate_bytes(None, &bytes);
        if kind.is_none() {
            prop_assert!(!report.is_valid());
        }
        for k in KINDS {
            let _ = validate_bytes(Some(k), &bytes);
        }
    }
}

// ---------------------------------------------------------------------------
// Auto dispatch guesses a document's kind from its first marking member and
// keeps the guess when the typed parse proves it (one parse for a valid
// document): it must give what detecting by a parse, then validating, gives.

/// What `validate_bytes(None, ..)` gave before it guessed: the kind serde's
/// probe detects, and that kind's report.
fn by_parse(bytes: &[u8]) -> (Option<&'static DocKind>, mplp_core::Report) {
    match detect(bytes) {
        Ok(k) => (Some(k), k.validate(bytes)),
        Err(v) => {
            let mut r = mplp_core::Report::new();
            r.push(v);
            (None, r)
        }
    }
}

/// Every example document (valid and invalid), not logs.
fn examples() -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    for dir in ["valid", "invalid"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples")
            .join(dir);
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "json")
                    && !p.to_string_lossy().ends_with(".expect.json")
            })
            .collect();
        names.sort();
        all.extend(names.iter().map(|p| std::fs::read(p).unwrap()));
    }
    all
}

#[test]
fn every_example_gets_the_kind_and_report_detection_by_parse_gives() {
    let examples = examples();
    assert!(examples.len() > 100, "{} examples", examples.len());
    let mut valid = 0;
    for bytes in &examples {
        let (kind, report) = validate_bytes(None, bytes);
        let (want_kind, want) = by_parse(bytes);
        assert_eq!(kind, want_kind, "{}", String::from_utf8_lossy(bytes));
        assert_eq!(report, want, "{}", String::from_utf8_lossy(bytes));
        valid += usize::from(report.is_valid());
        // Pretty-printed and compact, the same.
        if let Ok(v) = serde_json::from_slice::<Value>(bytes) {
            for text in [
                serde_json::to_vec(&v).unwrap(),
                serde_json::to_vec_pretty(&v).unwrap(),
            ] {
                assert_eq!(validate_bytes(None, &text), by_parse(&text));
            }
        }
    }
    assert!(
        valid > 60,
        "only {valid} valid examples: the one-parse path went untested"
    );
}

/// A byte-level change: replace, insert or delete a byte (often one of the
/// bytes of JSON's syntax), or cut the document.
#[derive(Debug, Clone)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Cut(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop_oneof![
        proptest::sample::select(&b"{}[]\":,\\ \n\tu0aE-.\x0c\xff"[..]),
        any::<u8>(),
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Cut),
    ]
}

fn apply(bytes: &mut Vec<u8>, e: &Edit) {
    let n = bytes.len().max(1);
    match *e {
        Edit::Set(i, b) if !bytes.is_empty() => bytes[i % n] = b,
        Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
        Edit::Delete(i) if !bytes.is_empty() => {
            bytes.remove(i % n);
        }
        Edit::Cut(i) => bytes.truncate(i % n),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Examples with 0 to 3 byte edits (0 edits: the valid path, a quarter
    /// of the cases): the same kind and report as detection by a parse.
    #[test]
    fn edited_examples_get_what_detection_by_parse_gives(
        which in any::<proptest::sample::Index>(),
        edits in proptest::collection::vec(edit(), 0..4),
        keep in 0..4u8,
    ) {
        let examples = examples();
        let mut bytes = which.get(&examples).clone();
        if keep != 0 {
            for e in &edits {
                apply(&mut bytes, e);
            }
        }
        prop_assert_eq!(validate_bytes(None, &bytes), by_parse(&bytes));
    }

    /// Generated objects whose member names and values hold escapes and
    /// brackets inside strings: the same kind and report.
    #[test]
    fn tricky_strings_get_what_detection_by_parse_gives(
        obj in proptest::collection::vec((
            prop_oneof![proptest::sample::select(KEYS).prop_map(str::to_owned), "[a-z_\\\\\"{}\\[\\]]{0,6}"],
            prop_oneof![member_value(), "[a-zA-Z\"\\\\{}\\[\\],:]{0,8}".prop_map(Value::from),
                        "[\"{}\\[\\]]{0,4}".prop_map(|s| json!([s, {"k": s}]))],
        ), 0..7),
        pretty in any::<bool>(),
    ) {
        let obj: Map<String, Value> = obj.into_iter().collect();
        let bytes = if pretty { serde_json::to_vec_pretty(&obj) } else { serde_json::to_vec(&obj) }.unwrap();
        prop_assert_eq!(validate_bytes(None, &bytes), by_parse(&bytes));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Examples with their top-level members in another order, and with a
    /// member that marks some kind (or none) put anywhere, repeated or not:
    /// the guess meets other kinds' signs first, late, or twice, and must
    /// still give what detection by a parse gives.
    #[test]
    fn reordered_examples_with_foreign_signs_get_what_detection_by_parse_gives(
        which in any::<proptest::sample::Index>(),
        order in proptest::collection::vec(any::<proptest::sample::Index>(), 0..4),
        extra in proptest::option::of((proptest::sample::select(KEYS), member_value(), any::<proptest::sample::Index>())),
    ) {
        let examples = examples();
        let Some(mut members) = members::members_in_order(which.get::<Vec<u8>>(&examples)) else {
            return Ok(());
        };
        for swap in &order {
            if !members.is_empty() {
                let i = swap.index(members.len());
                let m = members.remove(i);
                members.insert(0, m);
            }
        }
        let mut parts: Vec<String> = members
            .iter()
            .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap(), v.get()))
            .collect();
        if let Some((key, value, at)) = &extra {
            let at = at.index(parts.len() + 1);
            parts.insert(at, format!("\"{key}\":{value}"));
        }
        let bytes = format!("{{{}}}", parts.join(",")).into_bytes();
        prop_assert_eq!(validate_bytes(None, &bytes), by_parse(&bytes));
    }
}
