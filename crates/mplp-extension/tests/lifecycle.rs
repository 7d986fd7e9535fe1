//! The Extension lifecycle table, pinned literally; property tests over
//! random trigger and upgrade sequences.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use mplp_core::{ContextId, Document, Rule, Timestamp};
use mplp_extension::ExtensionStatus::{self, *};
use mplp_extension::{Extension, ExtensionTrigger, ExtensionType, SemVer};
use proptest::prelude::*;

#[path = "../../../tests/support/named_transitions.rs"]
#[allow(dead_code)] // only `reachable` is used here
mod named_transitions;
use named_transitions::reachable;

/// (from, to) pairs the table allows, written out so any change shows in review.
const EDGES: [(ExtensionStatus, ExtensionStatus); 6] = [
    (Registered, Active),
    (Registered, Deprecated),
    (Active, Inactive),
    (Active, Deprecated),
    (Inactive, Active),
    (Inactive, Deprecated),
];

fn ext() -> Extension {
    Extension::new(ContextId::new(), "x", ExtensionType::Capability, "1.0.0").unwrap()
}

#[test]
fn table_over_all_pairs() {
    for from in ExtensionStatus::ALL {
        for to in ExtensionStatus::ALL {
            let expected = EDGES.contains(&(*from, *to));
            assert_eq!(from.can_transition_to(*to), expected, "{from} -> {to}");
        }
    }
    let finals: Vec<_> = ExtensionStatus::ALL
        .iter()
        .filter(|s| s.is_final())
        .collect();
    assert_eq!(finals, [&Deprecated]);
    for t in ExtensionTrigger::ALL {
        assert_eq!(t.target(), t.rule().1);
    }
}

#[test]
fn every_edge_is_reachable_from_a_new_extension() {
    let (edges, statuses) = reachable(Registered, ExtensionTrigger::ALL, |s, t| s.fire(t).ok());
    assert_eq!(edges, EDGES.into_iter().collect());
    assert_eq!(statuses.len(), ExtensionStatus::ALL.len());
}

#[test]
fn refusals_are_typed_and_located() {
    let mut e = ext();
    let before = e.clone();
    let err = e.deactivate().unwrap_err();
    assert_eq!(err.rule(), Some(Rule::LIFECYCLE_TRANSITION));
    assert_eq!(err.pointer(), Some("/status"));
    assert_eq!(
        err.to_string(),
        "extension cannot go from `registered` to `inactive`: `deactivate` fires only from `active`, the extension is `registered`"
    );
    assert_eq!(e, before, "a refusal changes nothing");
    e.activate().unwrap();
    assert_eq!(e.status(), Active);
    assert!(
        e.meta.updated_at.is_some(),
        "a transition stamps meta.updated_at"
    );
    e.deactivate().unwrap();
    e.activate().unwrap();
    e.deprecate().unwrap();
    let err = e.activate().unwrap_err();
    assert!(
        err.to_string().ends_with("`deprecated` is a final status"),
        "{err}"
    );
}

#[test]
fn constructor_refuses_what_the_schema_refuses() {
    let err = Extension::new(ContextId::new(), "", ExtensionType::Other, "1.0.0").unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule()),
        (Some("/name"), Some(Rule::MIN_LENGTH))
    );
    let err = Extension::new(ContextId::new(), "n", ExtensionType::Other, "1.0").unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule()),
        (Some("/version"), Some(Rule::PATTERN))
    );
    let e = Extension::new(
        ContextId::new(),
        "n",
        ExtensionType::Other,
        "1.0.0-alpha+001",
    )
    .unwrap();
    assert_eq!(e.version().as_str(), "1.0.0-alpha+001");
    assert!(Extension::validate_json(e.to_json()).report.is_empty());
}

#[test]
fn a_deprecated_extension_is_not_upgraded() {
    let mut e = ext();
    e.deprecate().unwrap();
    let err = e.upgrade("2.0.0".parse().unwrap()).unwrap_err();
    assert_eq!(
        err.rule().map(|r| r.as_str()),
        Some("extension_version_increases")
    );
    assert_eq!(err.pointer(), Some("/status"));
    assert_eq!(e.version().as_str(), "1.0.0");
    // The rule is in the crate's catalogue (`mplp rules`).
    assert!(mplp_extension::rules().any(|r| Some(r.rule) == err.rule()));
}

#[test]
fn config_mut_creates_the_config_and_edits_it_in_place() {
    let mut e = ext();
    assert!(e.config.is_none());
    assert!(e.config_mut().is_empty());
    e.config_mut().insert("retries", 3);
    e.config_mut().insert("mode", "fast");
    assert_eq!(
        e.to_value()["config"],
        serde_json::json!({"retries": 3, "mode": "fast"})
    );
    assert!(Extension::validate_json(e.to_json()).report.is_empty());
}

#[test]
fn config_keeps_every_member_and_refuses_duplicates() {
    let json = r#"{"meta":{"protocol_version":"1.0.0","schema_version":"1.0.0"},"extension_id":"3f8a2c1e-7b4d-4e9f-a1c3-5d7e9f1a3b5c","context_id":"0b6e4d2c-1a3f-4c5e-8d7b-9f0a1b2c3d4e","name":"n","extension_type":"other","version":"1.0.0","status":"active","config":{"z":1,"a":{"nested":[true,null]},"m":"x"}}"#;
    let e = Extension::from_json(json).unwrap();
    let original: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(e.to_value(), original);
    assert_eq!(e.config.as_ref().map(|c| c.len()), Some(3));
    let dup = json.replace(r#""m":"x""#, r#""z":2"#);
    let v = Extension::validate_json(&dup);
    assert!(!v.is_valid());
    assert!(
        v.report
            .errors()
            .any(|e| e.rule.as_str() == "duplicate-key")
    );
}

fn trigger() -> impl Strategy<Value = ExtensionTrigger> {
    prop::sample::select(ExtensionTrigger::ALL.to_vec())
}

fn version() -> impl Strategy<Value = SemVer> {
    (
        0u8..3,
        0u8..3,
        0u8..3,
        prop::option::of(prop::sample::select(vec!["alpha", "rc.1", "rc.2", "0"])),
    )
        .prop_map(|(a, b, c, pre)| {
            let mut s = format!("{a}.{b}.{c}");
            if let Some(p) = pre {
                s.push('-');
                s.push_str(p);
            }
            s.parse().unwrap()
        })
}

#[derive(Clone, Debug)]
enum Op {
    Fire(ExtensionTrigger),
    Upgrade(SemVer),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        trigger().prop_map(Op::Fire),
        version().prop_map(Op::Upgrade)
    ]
}

proptest! {
    /// Random triggers and upgrades never leave the table: an accepted
    /// trigger moves along a table edge, an upgrade only raises the
    /// version, a refusal changes nothing, and the document stays valid and
    /// round-trips.
    #[test]
    fn random_operations_follow_the_rules(ops in prop::collection::vec(op(), 0..40)) {
        let mut e = ext();
        for op in ops {
            let before = e.clone();
            match op {
                Op::Fire(t) => match e.fire(t, Timestamp::now()) {
                    Ok(()) => {
                        prop_assert!(t.rule().0.contains(&before.status()));
                        prop_assert_eq!(e.status(), t.target());
                    }
                    Err(err) => {
                        prop_assert!(!t.rule().0.contains(&before.status()));
                        prop_assert_eq!(err.rule(), Some(Rule::LIFECYCLE_TRANSITION));
                        prop_assert_eq!(&e, &before);
                    }
                },
                Op::Upgrade(v) => {
                    let allowed = before.status() != Deprecated && v.precedence(before.version()).is_gt();
                    match e.upgrade(v.clone()) {
                        Ok(()) => {
                            prop_assert!(allowed);
                            prop_assert_eq!(e.version(), &v);
                        }
                        Err(err) => {
                            prop_assert!(!allowed);
                            prop_assert_eq!(err.rule().map(|r| r.as_str()), Some("extension_version_increases"));
                            prop_assert_eq!(&e, &before);
                        }
                    }
                }
            }
            let v = Extension::validate_json(e.to_json());
            prop_assert!(v.report.is_empty(), "{:?}", v.report);
            prop_assert_eq!(v.value.unwrap(), e.clone());
        }
    }

    /// Parsing any status from JSON and firing gives the same result as the
    /// status method: the document path and the enum path share the table.
    #[test]
    fn parsed_documents_follow_the_same_table(s in prop::sample::select(ExtensionStatus::ALL.to_vec()), t in trigger()) {
        let json = format!(
            r#"{{"meta":{{"protocol_version":"1.0.0","schema_version":"1.0.0"}},"extension_id":"3f8a2c1e-7b4d-4e9f-a1c3-5d7e9f1a3b5c","context_id":"0b6e4d2c-1a3f-4c5e-8d7b-9f0a1b2c3d4e","name":"n","extension_type":"policy","version":"1.0.0","status":"{s}"}}"#
        );
        let mut e = Extension::from_json(&json).unwrap();
        prop_assert_eq!(e.status(), s);
        let r = e.fire(t, Timestamp::now());
        prop_assert_eq!(r.is_ok(), s.fire(t).is_ok());
        prop_assert_eq!(e.status(), s.fire(t).unwrap_or(s));
    }
}
