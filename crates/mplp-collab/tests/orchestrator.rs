//! Orchestrator designation (SPEC-QUESTIONS 15) and `map_orchestrator_required`:
//! by participant id, by role id, in the seeds' spellings and any case, by
//! explicit designation; the seed 004 complete example; several orchestrators.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use mplp_collab::orchestrator::Designation;
use mplp_collab::{Collab, Participant, ParticipantKind};
use mplp_core::{CollabMode, ContextId, Document, NonEmptyVec, Report, Severity};
use serde_json::json;

const RULE: &str = "map_orchestrator_required";

/// An `orchestrated` session document with these (participant_id, role_id) pairs.
fn doc(people: &[(&str, Option<&str>)]) -> Vec<u8> {
    let participants: Vec<serde_json::Value> = people
        .iter()
        .map(|(id, role)| match role {
            Some(r) => json!({"participant_id": id, "role_id": r, "kind": "agent"}),
            None => json!({"participant_id": id, "kind": "agent"}),
        })
        .collect();
    serde_json::to_vec(&json!({
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "collab_id": "35e68fcd-928b-41d2-b8ee-b6a4232ea2a3",
        "context_id": "2530dc8f-0e8c-4a00-994e-7a9146b010c2",
        "title": "t",
        "purpose": "p",
        "mode": "orchestrated",
        "status": "active",
        "participants": participants,
        "created_at": "2025-12-07T00:00:00Z"
    }))
    .unwrap()
}

fn orchestrator_findings(r: &Report) -> Vec<(Severity, String)> {
    r.violations()
        .iter()
        .filter(|v| v.rule.as_str() == RULE)
        .map(|v| (v.severity, v.pointer.clone()))
        .collect()
}

#[test]
fn recognised_by_role_id_in_each_spelling() {
    for role in [
        "orchestrator",
        "Orchestrator",
        "ORCHESTRATOR",
        "role-orchestrator",
        "Role_Orchestrator",
        "orchestrator-1",
    ] {
        let v = Collab::validate_json(doc(&[("lead", Some(role)), ("b", Some("coder"))]));
        assert!(v.report.is_empty(), "{role}: {:?}", v.report);
        let c = v.into_result().unwrap();
        assert_eq!(
            c.orchestrator().unwrap().participant_id.as_str(),
            "lead",
            "{role}"
        );
    }
}

#[test]
fn recognised_by_participant_id_in_each_spelling() {
    for id in [
        "orchestrator",
        "orchestrator-1",
        "Orchestrator-2",
        "role-orchestrator",
    ] {
        let v = Collab::validate_json(doc(&[
            (id, Some("role-architect-001")),
            ("b", Some("coder")),
        ]));
        assert!(v.report.is_empty(), "{id}: {:?}", v.report);
        assert_eq!(
            v.into_result()
                .unwrap()
                .orchestrator()
                .unwrap()
                .participant_id
                .as_str(),
            id
        );
    }
}

#[test]
fn no_orchestrator_is_an_error_at_participants() {
    for (id, role) in [
        ("lead", Some("architect")),
        ("orchestrator-assistant", None),
        ("sub-orchestrator", Some("orch")),
    ] {
        let v = Collab::validate_json(doc(&[(id, role), ("b", Some("coder"))]));
        assert_eq!(
            orchestrator_findings(&v.report),
            [(Severity::Error, "/participants".to_owned())],
            "{id}"
        );
        assert!(!v.report.is_valid());
    }
    // Other modes need none.
    let solo = NonEmptyVec::new(
        Participant::new("a", ParticipantKind::Agent)
            .unwrap()
            .with_role("x"),
    );
    assert!(Collab::new(ContextId::new(), "t", "p", CollabMode::Swarm, solo).is_ok());
}

#[test]
fn several_orchestrators_are_a_warning_and_the_first_one_leads() {
    // By role, by id, and both spellings at once: three participants recognised.
    let v = Collab::validate_json(doc(&[
        ("a", Some("coder")),
        ("lead", Some("orchestrator")),
        ("orchestrator-2", Some("backup")),
        ("c", Some("role-orchestrator")),
    ]));
    assert!(v.report.is_valid(), "{:?}", v.report);
    assert_eq!(
        orchestrator_findings(&v.report),
        [
            (Severity::Warning, "/participants/2".to_owned()),
            (Severity::Warning, "/participants/3".to_owned()),
        ]
    );
    let c = v.into_result().unwrap();
    assert_eq!(c.orchestrator().unwrap().participant_id.as_str(), "lead");
    assert_eq!(c.orchestrators(Designation::ByName), [1, 2, 3]);
    // One participant named both ways is one orchestrator.
    let v = Collab::validate_json(doc(&[
        ("orchestrator-1", Some("role-orchestrator")),
        ("b", None),
    ]));
    assert!(
        orchestrator_findings(&v.report).is_empty(),
        "{:?}",
        v.report
    );
}

#[test]
fn explicit_designation() {
    let c = Collab::from_json(
        String::from_utf8(doc(&[("orchestrator", None), ("lead", Some("architect"))])).unwrap(),
    )
    .unwrap();
    // Designating "lead" explicitly: only it, name recognition off.
    let mut r = Report::new();
    c.check_orchestrator(Designation::Participant("lead"), &mut r);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(
        c.orchestrator_by(Designation::Participant("lead"))
            .unwrap()
            .participant_id
            .as_str(),
        "lead"
    );
    assert_eq!(c.orchestrators(Designation::Participant("lead")), [1]);
    // A designated id that is not a participant is an error.
    let mut r = Report::new();
    c.check_orchestrator(Designation::Participant("nobody"), &mut r);
    assert_eq!(
        orchestrator_findings(&r),
        [(Severity::Error, "/participants".to_owned())]
    );
    assert!(r.violations()[0].message.contains("`nobody`"));
    // The default designation is by name.
    assert_eq!(Designation::default(), Designation::ByName);
    assert_eq!(
        c.orchestrator_by(Designation::default())
            .unwrap()
            .participant_id
            .as_str(),
        "orchestrator"
    );
}

/// Seed 004's "Complete JSON Example": orchestrator named by participant id
/// (`orchestrator-1`, role `role-architect-001`); its ids made into UUID v4s
/// and its `meta` into the schema's (the seed writes `protocolVersion`).
#[test]
fn seed_004_complete_example_validates() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../schemas/examples/valid/collab-seed-004-complete.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let v = Collab::validate_json(text.as_bytes());
    assert!(v.report.is_empty(), "{:?}", v.report);
    let c = v.into_result().unwrap();
    let o = c.orchestrator().unwrap();
    assert_eq!(
        (o.participant_id.as_str(), o.role_id.as_deref()),
        ("orchestrator-1", Some("role-architect-001"))
    );
    // Round trip.
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&c.to_json()).unwrap(),
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    );
}
