//! The Context lifecycle table, pinned literally, and property tests over
//! random trigger sequences.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use mplp_context::ContextStatus::{self, *};
use mplp_context::{Context, ContextRoot, ContextTrigger};
use mplp_core::{Document, Rule, Timestamp};
use proptest::prelude::*;

#[path = "../../../tests/support/named_transitions.rs"]
mod named_transitions;
use named_transitions::{Named, check_named_transitions, reachable};

/// (from, to) pairs the table allows, written out so any change shows in review.
const EDGES: [(ContextStatus, ContextStatus); 10] = [
    (Draft, Active),
    (Draft, Closed),
    (Active, Suspended),
    (Active, Archived),
    (Active, Closed),
    (Suspended, Active),
    (Suspended, Archived),
    (Suspended, Closed),
    (Archived, Active),
    (Archived, Closed),
];

fn ctx() -> Context {
    Context::new("t", ContextRoot::new("d", "e")).unwrap()
}

#[test]
fn table_over_all_pairs() {
    for from in ContextStatus::ALL {
        for to in ContextStatus::ALL {
            let expected = EDGES.contains(&(*from, *to));
            assert_eq!(from.can_transition_to(*to), expected, "{from} -> {to}");
        }
    }
    let finals: Vec<_> = ContextStatus::ALL.iter().filter(|s| s.is_final()).collect();
    assert_eq!(finals, [&Closed]);
}

#[test]
fn every_edge_is_reachable_from_a_new_context() {
    // Breadth-first over triggers from `draft`, the status of a new Context.
    let (edges, statuses) = reachable(Draft, ContextTrigger::ALL, |s, t| s.fire(t).ok());
    assert_eq!(edges, EDGES.into_iter().collect());
    assert_eq!(statuses.len(), ContextStatus::ALL.len());
}

#[test]
fn refusals_are_typed_and_located() {
    let mut c = ctx();
    let err = c.suspend().unwrap_err();
    assert_eq!(err.rule(), Some(Rule::LIFECYCLE_TRANSITION));
    assert_eq!(err.pointer(), Some("/status"));
    assert_eq!(
        err.to_string(),
        "context cannot go from `draft` to `suspended`: `suspend` fires only from `active`, the context is `draft`"
    );
    assert_eq!(c.status(), Draft);
    assert!(c.updated_at.is_none(), "a refusal changes nothing");
    c.close().unwrap();
    let err = c.activate().unwrap_err();
    assert!(
        err.to_string().ends_with("`closed` is a final status"),
        "{err}"
    );
}

/// Spec note "sa_context_must_be_active": only `active` lets agents execute,
/// and any status is a valid document.
#[test]
fn only_active_contexts_execute_and_every_status_is_a_valid_document() {
    let mut c = ctx();
    for t in [
        None,
        Some(ContextTrigger::Activate),
        Some(ContextTrigger::Suspend),
        Some(ContextTrigger::Archive),
        Some(ContextTrigger::Close),
    ] {
        if let Some(t) = t {
            c.fire(t, Timestamp::now()).unwrap();
        }
        let ok = c.ensure_active();
        assert_eq!(ok.is_ok(), c.status() == Active, "{}", c.status());
        if let Err(e) = ok {
            assert_eq!(
                e.rule().map(|r| r.as_str()),
                Some("sa_context_must_be_active")
            );
            // The rule is in the crate's catalogue (`mplp rules`).
            assert!(mplp_context::rules().any(|r| Some(r.rule) == e.rule()));
            assert_eq!(e.pointer(), Some("/status"));
        }
        assert!(Context::validate_json(c.to_json()).is_valid());
    }
}

fn at_status(s: ContextStatus) -> Context {
    let json = format!(
        r#"{{"meta":{{"protocol_version":"1.0.0","schema_version":"1.0.0"}},"context_id":"0b6e4d2c-1a3f-4c5e-8d7b-9f0a1b2c3d4e","root":{{"domain":"d","environment":"e"}},"title":"t","status":"{s}"}}"#
    );
    Context::from_json(&json).unwrap()
}

/// Each named transition (`activate`, `suspend`, ...) fires its trigger:
/// from every status, the same verdict and the same status as
/// [`Context::fire`].
#[test]
fn the_named_transitions_fire_their_trigger() {
    let named: [(Named<Context>, ContextTrigger); 6] = [
        (Context::activate, ContextTrigger::Activate),
        (Context::suspend, ContextTrigger::Suspend),
        (Context::resume, ContextTrigger::Resume),
        (Context::archive, ContextTrigger::Archive),
        (Context::restore, ContextTrigger::Restore),
        (Context::close, ContextTrigger::Close),
    ];
    check_named_transitions(
        ContextStatus::ALL,
        at_status,
        Context::status,
        &named,
        |s, t| s.fire(t).ok(),
    );
}

#[test]
fn an_empty_title_is_refused_by_the_constructor() {
    let err = Context::new("", ContextRoot::new("d", "e")).unwrap_err();
    assert_eq!(err.rule(), Some(Rule::MIN_LENGTH));
    assert_eq!(err.pointer(), Some("/title"));
}

fn trigger() -> impl Strategy<Value = ContextTrigger> {
    prop::sample::select(ContextTrigger::ALL.to_vec())
}

proptest! {
    /// Random trigger sequences never leave the table: an accepted trigger
    /// moves along a table edge to its target, a refused one changes
    /// nothing, and the document stays valid and round-trips.
    #[test]
    fn random_triggers_follow_the_table(triggers in prop::collection::vec(trigger(), 0..40)) {
        let mut c = ctx();
        for t in triggers {
            let before = c.clone();
            let (from, to) = t.rule();
            match c.fire(t, Timestamp::now()) {
                Ok(()) => {
                    prop_assert!(from.contains(&before.status()));
                    prop_assert_eq!(c.status(), to);
                    prop_assert!(before.status().can_transition_to(to));
                    prop_assert!(c.updated_at.is_some());
                }
                Err(e) => {
                    prop_assert!(!from.contains(&before.status()));
                    prop_assert_eq!(e.rule(), Some(Rule::LIFECYCLE_TRANSITION));
                    prop_assert_eq!(&c, &before);
                }
            }
            let back = Context::from_json(c.to_json()).unwrap();
            prop_assert_eq!(&back, &c);
        }
    }

    /// Parsing any status from JSON and firing gives the same result as the
    /// status method: the document path and the enum path share the table.
    #[test]
    fn parsed_documents_follow_the_same_table(s in prop::sample::select(ContextStatus::ALL.to_vec()), t in trigger()) {
        let mut c = at_status(s);
        prop_assert_eq!(c.status(), s);
        let r = c.fire(t, Timestamp::now());
        prop_assert_eq!(r.is_ok(), s.fire(t).is_ok());
        prop_assert_eq!(c.status(), s.fire(t).unwrap_or(s));
    }
}
