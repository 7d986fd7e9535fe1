//! The instance and module lifecycle tables, pinned literally; the manifest
//! rules; property tests over random operation sequences.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use mplp_core::{Document, ModuleName, Rule, Timestamp};
use mplp_manifest::{
    CoreManifest, CoreStatus, CoreTrigger, ModuleDescriptor, ModuleStatus, ModuleTrigger,
};
use proptest::prelude::*;

#[path = "../../../tests/support/named_transitions.rs"]
mod named_transitions;
use named_transitions::{Named, check_named_transitions, reachable};
use serde_json::json;

/// (from, to) pairs of the instance table, written out so any change shows in review.
const CORE_EDGES: [(CoreStatus, CoreStatus); 5] = {
    use CoreStatus::*;
    [
        (Draft, Active),
        (Active, Deprecated),
        (Draft, Archived),
        (Active, Archived),
        (Deprecated, Archived),
    ]
};

/// (from, to) pairs of the module table.
const MODULE_EDGES: [(ModuleStatus, ModuleStatus); 8] = {
    use ModuleStatus::*;
    [
        (Disabled, Enabled),
        (Experimental, Enabled),
        (Enabled, Disabled),
        (Experimental, Disabled),
        (Deprecated, Disabled),
        (Disabled, Experimental),
        (Enabled, Deprecated),
        (Experimental, Deprecated),
    ]
};

fn core() -> CoreManifest {
    CoreManifest::new([ModuleName::Context, ModuleName::Plan]).unwrap()
}

#[test]
fn core_table_over_all_pairs() {
    for from in CoreStatus::ALL {
        for to in CoreStatus::ALL {
            let expected = CORE_EDGES.contains(&(*from, *to));
            assert_eq!(from.can_transition_to(*to), expected, "{from} -> {to}");
        }
    }
    let finals: Vec<_> = CoreStatus::ALL.iter().filter(|s| s.is_final()).collect();
    assert_eq!(finals, [&CoreStatus::Archived]);
}

#[test]
fn module_table_over_all_pairs() {
    for from in ModuleStatus::ALL {
        for to in ModuleStatus::ALL {
            let expected = MODULE_EDGES.contains(&(*from, *to));
            assert_eq!(from.can_transition_to(*to), expected, "{from} -> {to}");
        }
    }
    assert!(ModuleStatus::ALL.iter().all(|s| !s.is_final()));
}

#[test]
fn every_edge_is_reachable_from_the_initial_statuses() {
    let (edges, _) = reachable(CoreStatus::Draft, CoreTrigger::ALL, |s, t| {
        s.fire_at(t, "/status").ok()
    });
    assert_eq!(edges, CORE_EDGES.into_iter().collect());
    let (edges, _) = reachable(ModuleStatus::Enabled, ModuleTrigger::ALL, |s, t| {
        s.fire_at(t, "/x").ok()
    });
    assert_eq!(edges, MODULE_EDGES.into_iter().collect());
}

#[test]
fn refusals_are_typed_and_located() {
    let mut c = core();
    let before = c.clone();
    let err = c
        .fire_module(ModuleName::Plan, ModuleTrigger::Enable, Timestamp::now())
        .unwrap_err();
    assert_eq!(err.rule(), Some(Rule::LIFECYCLE_TRANSITION));
    assert_eq!(err.pointer(), Some("/modules/1/status"));
    assert_eq!(
        err.to_string(),
        "module cannot go from `enabled` to `enabled`: `enable` fires only from `disabled`, `experimental`, the module is `enabled`"
    );
    assert_eq!(c, before, "a refusal changes nothing");

    let err = c.enable_module(ModuleName::Network).unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule().map(|r| r.as_str())),
        (Some("/modules"), Some("unknown-module"))
    );

    // A required module is neither disabled nor removed; a disabled one is not made required.
    c.set_required(ModuleName::Context, true).unwrap();
    let err = c.disable_module(ModuleName::Context).unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule().map(|r| r.as_str())),
        (
            Some("/modules/0/status"),
            Some("core_required_module_enabled")
        )
    );
    let err = c.remove_module(ModuleName::Context).unwrap_err();
    assert_eq!(
        err.rule().map(|r| r.as_str()),
        Some("core_required_module_enabled")
    );
    c.disable_module(ModuleName::Plan).unwrap();
    let err = c.set_required(ModuleName::Plan, true).unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule().map(|r| r.as_str())),
        (
            Some("/modules/1/required"),
            Some("core_required_module_enabled")
        )
    );

    // Modules are listed once, and at least one stays.
    let err = c
        .add_module(ModuleDescriptor::new(ModuleName::Plan, "1.0.0").unwrap())
        .unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule().map(|r| r.as_str())),
        (Some("/modules/1/module_id"), Some("core_unique_modules"))
    );
    // The rules of these refusals are in the crate's catalogue (`mplp rules`).
    for rule in [
        "unknown-module",
        "core_required_module_enabled",
        "core_unique_modules",
    ] {
        assert!(
            mplp_manifest::rules().any(|r| r.rule.as_str() == rule),
            "{rule}"
        );
    }
    c.set_required(ModuleName::Context, false).unwrap();
    c.remove_module(ModuleName::Plan).unwrap();
    let err = c.remove_module(ModuleName::Context).unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule()),
        (Some("/modules"), Some(Rule::MIN_ITEMS))
    );
    assert_eq!(c.modules().len(), 1);

    // An archived instance is frozen.
    c.archive().unwrap();
    let err = c
        .add_module(ModuleDescriptor::new(ModuleName::Trace, "1.0.0").unwrap())
        .unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule().map(|r| r.as_str())),
        (Some("/status"), Some("core_archived_is_frozen"))
    );
    let err = c.activate().unwrap_err();
    assert!(
        err.to_string().ends_with("`archived` is a final status"),
        "{err}"
    );
    assert!(CoreManifest::validate_json(c.to_json()).report.is_empty());
}

/// Each named transition (`activate`, `deprecate`, `archive`) fires its
/// trigger: from every status, the same verdict and the same status as
/// [`CoreManifest::fire`].
#[test]
fn the_named_transitions_fire_their_trigger() {
    let named: [(Named<CoreManifest>, CoreTrigger); 3] = [
        (CoreManifest::activate, CoreTrigger::Activate),
        (CoreManifest::deprecate, CoreTrigger::Deprecate),
        (CoreManifest::archive, CoreTrigger::Archive),
    ];
    let modules = json!([{"module_id": "plan", "version": "1.0.0", "status": "enabled"}]);
    check_named_transitions(
        CoreStatus::ALL,
        |s| {
            let mut v = doc(modules.clone());
            v["status"] = json!(s.as_str());
            CoreManifest::from_value(&v).unwrap()
        },
        CoreManifest::status,
        &named,
        |s, t| s.fire_at(t, "/status").ok(),
    );
}

/// A module is added required only when it is not disabled; any other
/// descriptor is listed at the end.
#[test]
fn a_required_module_is_added_only_when_not_disabled() {
    for status in ModuleStatus::ALL {
        for required in [None, Some(false), Some(true)] {
            let mut d =
                json!({"module_id": "trace", "version": "1.0.0", "status": status.as_str()});
            if let Some(r) = required {
                d["required"] = json!(r);
            }
            let d: ModuleDescriptor = serde_json::from_value(d).unwrap();
            let mut c = core();
            let r = c.add_module(d.clone());
            if required == Some(true) && *status == ModuleStatus::Disabled {
                let err = r.unwrap_err();
                assert_eq!(
                    (err.pointer(), err.rule().map(|r| r.as_str())),
                    (
                        Some("/modules/2/status"),
                        Some("core_required_module_enabled")
                    )
                );
                assert_eq!(c.modules().len(), 2);
            } else {
                r.unwrap();
                assert_eq!(c.modules().last(), Some(&d), "{status} {required:?}");
            }
        }
    }
}

#[test]
fn descriptor_and_accessors() {
    let err = ModuleDescriptor::new(ModuleName::Plan, "").unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule()),
        (Some("/version"), Some(Rule::MIN_LENGTH))
    );
    let mut c = core();
    assert!(c.is_enabled(ModuleName::Plan));
    assert!(!c.is_enabled(ModuleName::Dialog));
    c.module_mut(ModuleName::Plan).unwrap().version = "1.0.1".parse().unwrap();
    assert_eq!(c.module(ModuleName::Plan).unwrap().version, "1.0.1");
    assert_eq!(c.module(ModuleName::Plan).unwrap().required(), None);
    c.fire_module(ModuleName::Plan, ModuleTrigger::Deprecate, Timestamp::now())
        .unwrap();
    assert!(!c.is_enabled(ModuleName::Plan));
    assert!(c.meta.updated_at.is_some());
}

fn doc(modules: serde_json::Value) -> serde_json::Value {
    json!({"meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "core_id": "3e5a7c9f-1b0d-4f2a-8c4e-6a8c0e2b4d6f", "protocol_version": "1.0.0",
        "status": "active", "modules": modules})
}

#[derive(Clone, Debug)]
enum Op {
    Fire(CoreTrigger),
    FireModule(ModuleName, ModuleTrigger),
    Add(ModuleName),
    Remove(ModuleName),
    Require(ModuleName, bool),
}

fn module() -> impl Strategy<Value = ModuleName> {
    prop::sample::select(vec![
        ModuleName::Context,
        ModuleName::Plan,
        ModuleName::Trace,
        ModuleName::Network,
    ])
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        prop::sample::select(CoreTrigger::ALL.to_vec()).prop_map(Op::Fire),
        (module(), prop::sample::select(ModuleTrigger::ALL.to_vec()))
            .prop_map(|(m, t)| Op::FireModule(m, t)),
        module().prop_map(Op::Add),
        module().prop_map(Op::Remove),
        (module(), any::<bool>()).prop_map(|(m, r)| Op::Require(m, r)),
    ]
}

proptest! {
    /// Random operations keep the manifest valid (no finding at all): a
    /// module is listed once, at least one is listed, a required module is
    /// never disabled; refusals change nothing; the document round-trips.
    #[test]
    fn random_operations_keep_the_manifest_valid(ops in prop::collection::vec(op(), 0..40)) {
        let mut c = core();
        for op in ops {
            let before = c.clone();
            let frozen = before.status() == CoreStatus::Archived;
            let r = match op {
                Op::Fire(t) => {
                    let r = c.fire(t, Timestamp::now());
                    prop_assert_eq!(r.is_ok(), t.rule().0.contains(&before.status()));
                    r
                }
                Op::FireModule(m, t) => {
                    let r = c.fire_module(m, t, Timestamp::now());
                    if let Some(d) = before.module(m) {
                        let allowed = !frozen && t.rule().0.contains(&d.status())
                            && !(t.rule().1 == ModuleStatus::Disabled && d.required() == Some(true));
                        prop_assert_eq!(r.is_ok(), allowed);
                    } else {
                        prop_assert!(r.is_err());
                    }
                    r
                }
                Op::Add(m) => {
                    let r = c.add_module(ModuleDescriptor::new(m, "1.0.0").unwrap());
                    prop_assert_eq!(r.is_ok(), !frozen && before.module(m).is_none());
                    r
                }
                Op::Remove(m) => c.remove_module(m).map(|_| ()),
                Op::Require(m, req) => c.set_required(m, req),
            };
            if r.is_err() {
                prop_assert_eq!(&c, &before);
            }
            let v = CoreManifest::validate_json(c.to_json());
            prop_assert!(v.report.is_empty(), "{:?}", v.report);
            prop_assert_eq!(v.value.unwrap(), c.clone());
        }
    }

    /// Any module list from JSON: one `core_unique_modules` error per
    /// repeat and one `core_required_module_enabled` error per required,
    /// disabled module, each at its place.
    #[test]
    fn rules_over_any_module_list(list in prop::collection::vec((0usize..3, prop::sample::select(ModuleStatus::ALL.to_vec()), prop::option::of(any::<bool>())), 1..6)) {
        let names = ["context", "plan", "trace"];
        let modules: Vec<_> = list.iter().map(|(m, s, r)| {
            let mut d = json!({"module_id": names[*m], "version": "1.0.0", "status": s.as_str()});
            if let Some(r) = r { d["required"] = json!(r); }
            d
        }).collect();
        let report = CoreManifest::validate_value(&doc(json!(modules))).report;
        let mut expected = Vec::new();
        for (i, (m, s, r)) in list.iter().enumerate() {
            if list[..i].iter().any(|(n, _, _)| n == m) {
                expected.push((format!("/modules/{i}/module_id"), "core_unique_modules"));
            }
            if *r == Some(true) && *s == ModuleStatus::Disabled {
                expected.push((format!("/modules/{i}/status"), "core_required_module_enabled"));
            }
        }
        let found: Vec<_> = report.violations().iter().map(|v| (v.pointer.clone(), v.rule.as_str())).collect();
        prop_assert_eq!(found, expected);
    }
}
