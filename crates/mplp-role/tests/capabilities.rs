//! Capabilities: grant/revoke against a set model, and the
//! `role_unique_capabilities` warning.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use std::collections::BTreeSet;

use mplp_core::{Document, Severity};
use mplp_role::Role;
use proptest::prelude::*;
use serde_json::json;

fn cap() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "plan.create",
        "plan.read",
        "confirm.approve",
        "trace.write",
        "",
    ])
    .prop_map(str::to_owned)
}

proptest! {
    /// Random grants and revokes behave like a set, never list a capability
    /// twice, and the document stays warning-free and round-trips.
    #[test]
    fn grant_and_revoke_behave_like_a_set(ops in prop::collection::vec((any::<bool>(), cap()), 0..30)) {
        let mut role = Role::new("r");
        let mut model = BTreeSet::new();
        for (grant, c) in ops {
            if grant {
                prop_assert_eq!(role.grant(c.clone()), model.insert(c.clone()));
            } else {
                prop_assert_eq!(role.revoke(&c), model.remove(&c));
            }
            for m in ["plan.create", "plan.read", "confirm.approve", "trace.write", ""] {
                prop_assert_eq!(role.can(m), model.contains(m));
            }
            let v = Role::validate_json(role.to_json());
            prop_assert!(v.report.is_empty(), "{:?}", v.report);
            prop_assert_eq!(v.value.unwrap(), role.clone());
        }
    }

    /// Any capability list from JSON: one warning per repeated listing, at
    /// that listing, and never an error.
    #[test]
    fn each_repeat_is_one_warning(caps in prop::collection::vec(cap(), 0..8)) {
        let doc = json!({"meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
            "role_id": "6e8a0c2d-4f6b-4c8e-a0c2-4e6a8c0e2b3c", "name": "r", "capabilities": caps});
        let report = Role::validate_value(&doc).report;
        prop_assert!(report.is_valid());
        let expected: Vec<String> = caps.iter().enumerate()
            .filter(|(i, c)| caps[..*i].contains(c))
            .map(|(i, _)| format!("/capabilities/{i}"))
            .collect();
        let found: Vec<String> = report.violations().iter()
            .inspect(|v| assert_eq!(v.severity, Severity::Warning))
            .inspect(|v| assert_eq!(v.rule.as_str(), "role_unique_capabilities"))
            // The rule is in the crate's catalogue (`mplp rules`).
            .inspect(|v| assert!(mplp_role::rules().any(|r| r.rule == v.rule)))
            .map(|v| v.pointer.clone())
            .collect();
        prop_assert_eq!(found, expected);
    }
}
