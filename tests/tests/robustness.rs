//! Bad input never panics, and is reported as an error, for every kind.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mplp_core::Rule;
use mplp_integration_tests::{KINDS, document_kinds};
use proptest::prelude::*;

fn pathological_inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs: Vec<(String, Vec<u8>)> = vec![
        ("empty".into(), b"".to_vec()),
        ("whitespace".into(), b"  \n\t ".to_vec()),
        ("not json".into(), b"hello world".to_vec()),
        ("array".into(), b"[1, 2, 3]".to_vec()),
        ("null".into(), b"null".to_vec()),
        ("number".into(), b"42".to_vec()),
        ("string".into(), b"\"plan\"".to_vec()),
        ("empty object".into(), b"{}".to_vec()),
        ("invalid utf-8".into(), b"{\"a\": \"\xff\xfe\"}".to_vec()),
        (
            "truncated".into(),
            b"{\"meta\": {\"protocol_version\": \"1.0".to_vec(),
        ),
        ("trailing garbage".into(), b"{} {}".to_vec()),
        ("duplicate keys".into(), b"{\"a\": 1, \"a\": 2}".to_vec()),
        ("bom".into(), b"\xef\xbb\xbf{}".to_vec()),
        (
            "huge number".into(),
            b"{\"order_index\": 1e999999}".to_vec(),
        ),
    ];
    inputs.push((
        "100,000 nested arrays".into(),
        [vec![b'['; 100_000], vec![b']'; 100_000]].concat(),
    ));
    inputs.push((
        "100,000 nested objects".into(),
        [
            b"{\"a\":".repeat(100_000),
            b"1".to_vec(),
            vec![b'}'; 100_000],
        ]
        .concat(),
    ));
    inputs.push((
        "deep inside a known field".into(),
        [
            b"{\"meta\": ".to_vec(),
            vec![b'['; 50_000],
            vec![b']'; 50_000],
            b"}".to_vec(),
        ]
        .concat(),
    ));
    inputs
}

#[test]
fn pathological_inputs_are_errors_not_panics() {
    for &kind in KINDS {
        for (name, bytes) in pathological_inputs() {
            // Run each on a thread with a small stack: deep nesting must not overflow it.
            let report = std::thread::Builder::new()
                .stack_size(1 << 20)
                .spawn(move || kind.validate(&bytes))
                .unwrap()
                .join()
                .unwrap_or_else(|_| panic!("{} panicked on {name}", kind.name));
            let is_log = kind.is_log();
            // An empty or whitespace-only log is an empty log; everything else is invalid.
            if !(is_log && (name == "empty" || name == "whitespace")) {
                assert!(!report.is_valid(), "{} accepted {name}", kind.name);
            }
            for v in report.violations() {
                assert!(!v.message.is_empty(), "{} {name}: empty message", kind.name);
            }
        }
    }
}

#[test]
fn not_json_is_a_syntax_error_at_the_root() {
    for kind in document_kinds() {
        let report = kind.validate(b"{\"meta\": ");
        let errors: Vec<_> = report.errors().collect();
        assert_eq!(errors.len(), 1, "{}: {errors:#?}", kind.name);
        assert_eq!(errors[0].rule, Rule::JSON_SYNTAX);
        assert_eq!(errors[0].pointer, "");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512), k in 0usize..KINDS.len()) {
        let _ = KINDS[k].validate(&bytes);
    }

    #[test]
    fn random_json_never_panics_and_is_rejected_or_explained(v in arb_json(), k in 0usize..10) {
        let bytes = serde_json::to_vec(&v).unwrap();
        let kind = document_kinds().nth(k).unwrap();
        let report = kind.validate(&bytes);
        if !report.is_valid() {
            prop_assert!(report.errors().all(|e| !e.message.is_empty()));
        }
    }
}

fn arb_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        "[a-z_]{0,8}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            proptest::collection::btree_map(
                prop_oneof![
                    Just("meta".to_string()),
                    Just("steps".to_string()),
                    Just("status".to_string()),
                    Just("event_type".to_string()),
                    "[a-z_]{1,8}"
                ],
                inner,
                0..5
            )
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}
