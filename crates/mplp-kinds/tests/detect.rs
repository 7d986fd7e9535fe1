//! Property tests of kind detection and dispatch.

use mplp_kinds::{
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
