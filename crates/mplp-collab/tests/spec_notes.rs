//! Pins the spec notes of the crate docs.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use mplp_collab::{Collab, CollabStatus, Participant, ParticipantKind};
use mplp_core::{CollabMode, ContextId, Document, NonEmptyVec};

fn people(ids: &[(&str, Option<&str>)]) -> NonEmptyVec<Participant> {
    let v: Vec<Participant> = ids
        .iter()
        .map(|(id, role)| {
            let p = Participant::new(*id, ParticipantKind::Agent).unwrap();
            match role {
                Some(r) => p.with_role(*r),
                None => p,
            }
        })
        .collect();
    NonEmptyVec::try_from(v).unwrap()
}

/// A pair session of `a` (driver) and `b` (navigator), in `draft`.
fn pair() -> Collab {
    Collab::new(
        ContextId::new(),
        "t",
        "p",
        CollabMode::Pair,
        people(&[("a", Some("driver")), ("b", Some("navigator"))]),
    )
    .unwrap()
}

// Orchestrator designation (Q15): tests/orchestrator.rs.

#[test]
fn missing_role_id_is_a_warning() {
    let c = Collab::new(
        ContextId::new(),
        "t",
        "p",
        CollabMode::Swarm,
        people(&[("a", None), ("b", Some(""))]),
    )
    .unwrap();
    let v = Collab::validate_json(c.to_json());
    assert!(v.is_valid());
    let w: Vec<_> = v
        .report
        .warnings()
        .map(|w| (w.pointer.as_str(), w.rule.as_str()))
        .collect();
    // The rule is in the crate's catalogue (`mplp rules`).
    assert!(
        mplp_collab::rules::rules().any(|r| r.rule.as_str() == "map_participants_have_role_ids")
    );
    assert_eq!(
        w,
        [
            ("/participants/0", "map_participants_have_role_ids"),
            ("/participants/1/role_id", "map_participants_have_role_ids")
        ]
    );
    // Without a role, or with an empty one, a participant appears in MAP
    // events under its participant id; with a role, under the role.
    assert_eq!(c.participants()[0].event_role(), "a");
    assert_eq!(c.participants()[1].event_role(), "b");
    let reviewer = c.participants()[1].clone().with_role("reviewer");
    assert_eq!(reviewer.event_role(), "reviewer");
    // Participants are found by id.
    assert_eq!(c.participant("b"), Some(&c.participants()[1]));
    assert_eq!(c.participant("c"), None);
}

#[test]
fn lifecycle_table() {
    use CollabStatus::*;
    let table: Vec<(CollabStatus, Vec<CollabStatus>)> = CollabStatus::ALL
        .iter()
        .map(|s| (*s, s.next_statuses().collect()))
        .collect();
    assert_eq!(
        table,
        [
            (Draft, vec![Active, Cancelled]),
            (Active, vec![Suspended, Completed, Cancelled]),
            (Suspended, vec![Active, Cancelled]),
            (Completed, vec![]),
            (Cancelled, vec![]),
        ]
    );
}

/// The named transitions from every status: `start` only from `draft`,
/// `resume` only from `suspended` (both lead to `active`), the others as
/// the table says; a refusal changes nothing and says why. Only `active`
/// lets participants act; `completed` and `cancelled` are final.
#[test]
fn named_transitions_from_every_status() {
    use CollabStatus::*;
    type Named = fn(&mut Collab) -> Result<(), mplp_core::Error>;
    let named: [(&str, Named, CollabStatus, &[CollabStatus]); 5] = [
        ("start", Collab::start, Active, &[Draft]),
        ("suspend", Collab::suspend, Suspended, &[Active]),
        ("resume", Collab::resume, Active, &[Suspended]),
        ("complete", Collab::complete, Completed, &[Active]),
        (
            "cancel",
            Collab::cancel,
            Cancelled,
            &[Draft, Active, Suspended],
        ),
    ];
    let draft = pair();
    let reach = |path: &[Named]| {
        let mut c = draft.clone();
        for step in path {
            step(&mut c).unwrap();
        }
        c
    };
    let starts = [
        reach(&[]),
        reach(&[Collab::start]),
        reach(&[Collab::start, Collab::suspend]),
        reach(&[Collab::start, Collab::complete]),
        reach(&[Collab::cancel]),
    ];
    let statuses: Vec<_> = starts.iter().map(Collab::status).collect();
    assert_eq!(statuses, CollabStatus::ALL);
    for start in &starts {
        let from = start.status();
        assert_eq!(from.participants_can_act(), from == Active, "{from}");
        assert_eq!(start.participants_can_act(), from == Active, "{from}");
        assert_eq!(
            from.is_final(),
            matches!(from, Completed | Cancelled),
            "{from}"
        );
        for (name, method, to, sources) in named {
            let mut c = start.clone();
            let r = method(&mut c);
            assert_eq!(r.is_ok(), sources.contains(&from), "{name} from {from}");
            match r {
                Ok(()) => {
                    assert_eq!(c.status(), to);
                    assert!(c.updated_at.is_some());
                }
                Err(e) => {
                    assert_eq!(e.rule(), Some(mplp_core::Rule::LIFECYCLE_TRANSITION));
                    assert_eq!(&c, start, "{name} from {from}: a refusal changes nothing");
                }
            }
        }
    }
    // Why a change is refused.
    let why = |from: CollabStatus, to: CollabStatus| from.check_transition(to).unwrap_err().reason;
    assert_eq!(why(Active, Active), "the session is already `active`");
    assert_eq!(why(Completed, Active), "`completed` is a final status");
    assert_eq!(
        why(Cancelled, Cancelled),
        "the session is already `cancelled`"
    );
    assert_eq!(
        why(Draft, Suspended),
        "from `draft` a session can go only to `active`, `cancelled`"
    );
    assert!(Draft.check_transition(Active).is_ok());
}

#[test]
fn turn_accounting_counts_every_turn_and_failed_turns_complete() {
    use mplp_collab::runtime::{MapSession, SessionError, TurnContext, TurnOutcome};
    let c = pair();
    let mut s = MapSession::new(c, mplp_collab::sink::MemorySink::new()).unwrap();
    s.start().unwrap();
    let mut agent = |t: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
        if t.turn_number() == 2 {
            return Err(SessionError::Agent {
                participant: "b".into(),
                message: "model timeout".into(),
            });
        }
        Ok(TurnOutcome::completed())
    };
    for _ in 0..3 {
        s.turn(&mut agent).unwrap();
    }
    s.suspend().unwrap();
    assert!(s.turn(&mut agent).is_err()); // only while active
    s.resume().unwrap();
    let summary = s.complete().unwrap();
    assert_eq!(summary.turns_total, 3);
    let statuses: Vec<String> = s
        .sink()
        .events
        .iter()
        .filter_map(|e| match &e.payload {
            mplp_events::MapPayload::TurnCompleted(p) => {
                Some(format!("{}:{}", p.turn_number, p.status))
            }
            _ => None,
        })
        .collect();
    assert_eq!(statuses, ["1:completed", "2:failed", "3:completed"]);
}

/// `PerParticipant` gives each participant its own agent, for its turns and
/// its broadcast answers; a turn sees the session's resources; both print
/// what they hold.
#[test]
fn per_participant_agents_take_their_own_turns_and_answer_broadcasts() {
    use mplp_collab::runtime::{
        Agent, MapSession, PerParticipant, SessionError, TurnContext, TurnOutcome,
    };
    use mplp_core::JsonObject;
    use serde_json::{Value, json};
    struct Worker(usize);
    impl Agent for Worker {
        fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
            assert_eq!(turn.holder(), self.0);
            let debug = format!("{turn:?}");
            assert!(
                debug.starts_with(&format!(
                    "TurnContext {{ holder: {}, turn_number: {}",
                    self.0,
                    turn.turn_number()
                )),
                "{debug}"
            );
            // The resources a turn sees are the session's: what the turns
            // before it wrote.
            let seen: Vec<(String, Value)> = turn
                .resources()
                .iter()
                .map(|(k, v, _)| (k.to_owned(), v.clone()))
                .collect();
            let expected: Vec<(String, Value)> = (0..turn.turn_number() - 1)
                .map(|k| (format!("by{k}"), json!(k)))
                .collect();
            assert_eq!(seen, expected);
            turn.write(&format!("by{}", self.0), json!(self.0))?;
            Ok(TurnOutcome::completed())
        }
        fn answer(&mut self, index: usize, _: &Participant, _: &JsonObject) -> JsonObject {
            let mut o = JsonObject::new();
            o.insert("from", json!(format!("{}:{index}", self.0)));
            o
        }
    }
    let c = Collab::new(
        ContextId::new(),
        "t",
        "p",
        CollabMode::RoundRobin,
        people(&[("a", Some("x")), ("b", Some("y")), ("c", Some("z"))]),
    )
    .unwrap();
    let mut agents = PerParticipant(vec![Box::new(Worker(0)), Box::new(Worker(1))]);
    assert_eq!(format!("{agents:?}"), "PerParticipant(2 agents)");
    let mut s = MapSession::new(c, mplp_collab::sink::MemorySink::new()).unwrap();
    s.start().unwrap();
    for _ in 0..2 {
        s.turn(&mut agents).unwrap();
    }
    assert_eq!(s.resources().iter().count(), 2);
    // Participant 2 has no agent: its turn completes, its answer is empty.
    s.turn(&mut agents).unwrap();
    let round = s.broadcast(0, JsonObject::new(), &mut agents).unwrap();
    let answers: Vec<(usize, Value)> = round.answers().map(|(t, a)| (t, a.clone())).collect();
    assert_eq!(answers, [(1, json!({"from": "1:1"})), (2, json!({}))]);
}

/// Overlapping turns (a claim round of two or more) happen only in `swarm`
/// sessions; a round of one claim is an ordinary turn (where the mode lets
/// a participant be named) and a round of none does nothing, in every mode.
#[test]
fn only_swarm_sessions_take_overlapping_claims() {
    use mplp_collab::runtime::{MapSession, SessionError, TurnContext, TurnOutcome};
    use mplp_collab::sink::MemorySink;
    let mut agent = |_: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
        Ok(TurnOutcome::completed())
    };
    for &mode in CollabMode::ALL {
        let ids: &[(&str, Option<&str>)] = match mode {
            CollabMode::Pair => &[("a", Some("x")), ("b", Some("y"))],
            CollabMode::Orchestrated => {
                &[("orchestrator", None), ("b", Some("y")), ("c", Some("z"))]
            }
            _ => &[("a", Some("x")), ("b", Some("y")), ("c", Some("z"))],
        };
        let c = Collab::new(ContextId::new(), "t", "p", mode, people(ids)).unwrap();
        let mut s = MapSession::new(c, MemorySink::new()).unwrap();
        s.start().unwrap();
        assert_eq!(s.swarm_round(&[], &[], &mut agent).unwrap(), [], "{mode}");
        assert!(s.sink().events.len() == 2, "{mode}: nothing is emitted");
        let two = s.swarm_round(&[(0, "t1"), (1, "t2")], &[1, 0], &mut agent);
        if mode == CollabMode::Swarm {
            assert_eq!(two.unwrap().len(), 2);
        } else {
            let Err(SessionError::Mplp(e)) = two else {
                panic!("{mode}: {two:?}")
            };
            assert_eq!(
                e.rule().map(|r| r.as_str()),
                Some("map_turn_order"),
                "{mode}"
            );
            assert!(
                e.to_string().contains(&format!("this one is `{mode}`")),
                "{e}"
            );
        }
        let dispatched = s.turns().dispatched();
        let one = s.swarm_round(&[(0, "t3")], &[0], &mut agent);
        match mode {
            CollabMode::Broadcast | CollabMode::Swarm | CollabMode::Orchestrated => {
                assert_eq!(one.unwrap().len(), 1, "{mode}");
                assert_eq!(s.turns().dispatched(), dispatched + 1, "{mode}");
            }
            // Round-robin and pair turns follow a fixed order: the claim is
            // refused for that, not as an overlap.
            _ => {
                let e = one.unwrap_err().to_string();
                assert!(!e.contains("overlapping"), "{mode}: {e}");
            }
        }
    }
}

/// A simulation's participants take the plan's roles, each role once, in
/// the order the steps name them (the orchestrator aside).
#[test]
fn simulated_participants_take_each_plan_role_once() {
    use mplp_collab::simulate::{SimConfig, simulate};
    use mplp_collab::sink::MemorySink;
    use mplp_events::MapPayload;
    use mplp_plan::{Plan, StepSpec};
    let mut b = Plan::builder(ContextId::new(), "T", "o");
    for role in ["coder", "coder", "", "reviewer", "coder", "tester"] {
        let spec = StepSpec::new(format!("do {role}"));
        b.add(if role.is_empty() {
            spec
        } else {
            spec.role(role)
        });
    }
    let plan = b.build().unwrap();
    for (mode, n, expected) in [
        (
            CollabMode::RoundRobin,
            4,
            vec!["coder", "reviewer", "tester", "coder"],
        ),
        (
            CollabMode::Orchestrated,
            3,
            vec!["orchestrator", "coder", "reviewer"],
        ),
    ] {
        let mut sink = MemorySink::new();
        simulate(
            &SimConfig::new(mode, n, 3).with_plan(plan.clone()),
            &mut sink,
        )
        .unwrap();
        let roles: Vec<String> = sink
            .events
            .iter()
            .find_map(|e| match &e.payload {
                MapPayload::RolesAssigned(r) => Some(
                    r.assignments
                        .iter()
                        .map(|a| a.role_id.to_string())
                        .collect(),
                ),
                _ => None,
            })
            .unwrap();
        assert_eq!(roles, expected, "{mode}");
    }
}

/// `run_plan` runs at most `max_turns` steps, counts its turns, and takes
/// only a plan that is approved (started by it), in progress or already
/// completed (nothing to do).
#[test]
fn a_plan_run_keeps_to_its_turn_budget_and_plan_status() {
    use mplp_collab::runtime::{MapSession, SessionError, TurnContext, TurnOutcome};
    use mplp_collab::sink::MemorySink;
    use mplp_plan::{ConfirmDecision, Plan, PlanStatus};
    let mut agent = |_: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
        Ok(TurnOutcome::completed())
    };
    let plan = |steps: usize| {
        let mut b = Plan::builder(ContextId::new(), "T", "o");
        for i in 0..steps {
            b.step(format!("step {i}"));
        }
        b.build().unwrap()
    };
    let session = |mode: CollabMode| {
        let ids: &[(&str, Option<&str>)] = &[("a", Some("x")), ("b", Some("y")), ("c", Some("z"))];
        let c = Collab::new(ContextId::new(), "t", "p", mode, people(ids)).unwrap();
        let mut s = MapSession::new(c, MemorySink::new()).unwrap();
        s.start().unwrap();
        s
    };
    for mode in [
        CollabMode::RoundRobin,
        CollabMode::Swarm,
        CollabMode::Broadcast,
    ] {
        for budget in 0..=4u64 {
            let mut p = plan(3);
            p.propose().unwrap();
            p.approve(&ConfirmDecision::approved("lead")).unwrap();
            let mut s = session(mode);
            let run = s.run_plan(&mut p, budget, &mut agent).unwrap();
            let ran = budget.min(3);
            assert_eq!(run.turns, ran, "{mode} budget {budget}");
            assert_eq!(run.completed.len() as u64, ran, "{mode} budget {budget}");
            assert!(run.failed.is_empty());
            let expected = if ran == 3 {
                PlanStatus::Completed
            } else {
                PlanStatus::InProgress
            };
            assert_eq!(p.status(), expected, "{mode} budget {budget}");
            // A completed plan has nothing more to run.
            if ran == 3 {
                let again = s.run_plan(&mut p, 5, &mut agent).unwrap();
                assert_eq!((again.turns, again.completed.len()), (0, 0));
            }
        }
    }
    // In swarm mode a later round claims no more steps than the budget has
    // left: after `first`, three steps are ready but one turn remains.
    let mut b = Plan::builder(ContextId::new(), "T", "o");
    let first = b.step("first");
    for i in 0..3 {
        b.step_after(format!("then {i}"), &[first]);
    }
    let mut p = b.build().unwrap();
    p.propose().unwrap();
    p.approve(&ConfirmDecision::approved("lead")).unwrap();
    let mut s = session(CollabMode::Swarm);
    let run = s.run_plan(&mut p, 2, &mut agent).unwrap();
    assert_eq!((run.turns, run.completed.len()), (2, 2));
    assert_eq!(run.completed[0], first);
    assert_eq!(p.ready_steps().len(), 2);

    // A draft, proposed or cancelled plan is refused, and left as it was.
    let mut s = session(CollabMode::RoundRobin);
    let mut draft = plan(1);
    let mut proposed = plan(1);
    proposed.propose().unwrap();
    let mut cancelled = plan(1);
    cancelled.cancel().unwrap();
    for p in [&mut draft, &mut proposed, &mut cancelled] {
        let status = p.status();
        let Err(SessionError::Mplp(e)) = s.run_plan(p, 5, &mut agent) else {
            panic!("{status} was run")
        };
        assert_eq!(
            e.rule().map(|r| r.as_str()),
            Some("map_plan_in_progress"),
            "{status}"
        );
        assert_eq!(p.status(), status);
    }
    assert_eq!(s.turns().dispatched(), 0);
}
