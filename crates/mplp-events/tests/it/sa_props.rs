//! Property tests of the SA log validator: random valid SA logs (several runs
//! interleaved, optional phase events, overlapping steps, failed steps) pass,
//! and each single mutation of a known kind is caught with its rule id, and
//! with nothing else.

use std::collections::VecDeque;

use mplp_core::{Report, StepId};
use mplp_events::log::{LogWriter, validate_sa_log};
use mplp_events::sa::StepOutcome;
use mplp_events::{SaEvent, SaEventType, SaId, SaPayload};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct RunSpec {
    context: bool,
    plan: bool,
    trace: bool,
    /// Per step: (fails, its end waits until after the next step starts).
    steps: Vec<(bool, bool)>,
}

fn run_spec() -> impl Strategy<Value = RunSpec> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec((any::<bool>(), any::<bool>()), 0..6),
    )
        .prop_map(|(context, plan, trace, steps)| RunSpec {
            context,
            plan,
            trace,
            steps,
        })
}

fn run_events(spec: &RunSpec) -> Vec<SaEvent> {
    let sa = SaId::new();
    let mut v = vec![SaEvent::initialized(sa.clone())];
    if spec.context {
        v.push(SaEvent::new(sa.clone(), SaPayload::ContextLoaded(None)));
    }
    if spec.plan {
        v.push(SaEvent::new(sa.clone(), SaPayload::PlanEvaluated(None)));
    }
    let mut deferred: Option<SaEvent> = None;
    for (fails, overlap) in &spec.steps {
        let step = StepId::new();
        v.push(SaEvent::step_started(sa.clone(), step));
        v.extend(deferred.take());
        let end = if *fails {
            SaEvent::step_failed(sa.clone(), step)
        } else {
            SaEvent::step_completed(sa.clone(), step, StepOutcome::Completed)
        };
        if *overlap {
            deferred = Some(end);
        } else {
            v.push(end);
        }
    }
    v.extend(deferred);
    if spec.trace {
        v.push(SaEvent::new(sa.clone(), SaPayload::TraceEmitted(None)));
    }
    v.push(SaEvent::completed(sa));
    v
}

/// 1 to 3 runs, interleaved at random (each run keeps its order).
fn log_spec() -> impl Strategy<Value = Vec<SaEvent>> {
    (
        prop::collection::vec(run_spec(), 1..4),
        prop::collection::vec(any::<u8>(), 64),
    )
        .prop_map(|(runs, picks)| {
            let mut queues: Vec<VecDeque<SaEvent>> =
                runs.iter().map(|r| run_events(r).into()).collect();
            let mut out = Vec::new();
            let mut k = 0;
            loop {
                queues.retain(|q| !q.is_empty());
                if queues.is_empty() {
                    return out;
                }
                let i = picks[k % picks.len()] as usize % queues.len();
                k += 1;
                out.extend(queues[i].pop_front());
            }
        })
}

fn lines(events: &[SaEvent]) -> Vec<String> {
    let mut w = LogWriter::new(Vec::new());
    for e in events {
        w.write(e).unwrap();
    }
    String::from_utf8(w.into_inner())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn check(lines: &[String]) -> Report {
    validate_sa_log(lines.join("\n").as_bytes())
}

fn error_rules(r: &Report) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = r.errors().map(|v| v.rule.as_str()).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The kinds of single mutations, each with the rule that must catch it.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    /// Remove a run's `SAInitialized`.
    DeleteInitialized,
    /// Remove a run's `SACompleted`.
    DeleteCompleted,
    /// A second `SAInitialized` right after the first.
    InitializeTwice,
    /// Remove the end of a step.
    DeleteStepEnd,
    /// Remove the start of a step.
    DeleteStepStart,
    /// A second start of a running step, right after the first.
    StartStepTwice,
    /// An event of a run after its `SACompleted`.
    EventAfterCompletion,
    /// `SAContextLoaded` after `SATraceEmitted` (phases out of order).
    PhaseOutOfOrder,
    /// An event reuses another event's `event_id`.
    RepeatEventId,
}

const MUTATIONS: [Mutation; 9] = [
    Mutation::DeleteInitialized,
    Mutation::DeleteCompleted,
    Mutation::InitializeTwice,
    Mutation::DeleteStepEnd,
    Mutation::DeleteStepStart,
    Mutation::StartStepTwice,
    Mutation::EventAfterCompletion,
    Mutation::PhaseOutOfOrder,
    Mutation::RepeatEventId,
];

impl Mutation {
    fn rule(self) -> &'static str {
        match self {
            Mutation::DeleteInitialized | Mutation::InitializeTwice => "sa_initialized_first",
            Mutation::DeleteCompleted | Mutation::EventAfterCompletion => "sa_completed_last",
            Mutation::DeleteStepEnd | Mutation::StartStepTwice => "sa_step_started_is_finished",
            Mutation::DeleteStepStart => "sa_step_finished_without_start",
            Mutation::PhaseOutOfOrder => "sa_lifecycle_order",
            Mutation::RepeatEventId => "log_unique_event_ids",
        }
    }

    /// The mutated log, or `None` when the log has nothing to mutate this way
    /// (no step at all for the step mutations). `pick` chooses among the candidates.
    fn apply(self, events: &[SaEvent], pick: usize) -> Option<Vec<String>> {
        let of_type = |t: SaEventType| -> Vec<usize> {
            (0..events.len())
                .filter(|i| events[*i].event_type() == t)
                .collect()
        };
        let choose = |v: Vec<usize>| -> Option<usize> {
            if v.is_empty() {
                None
            } else {
                Some(v[pick % v.len()])
            }
        };
        let mut v = events.to_vec();
        match self {
            Mutation::DeleteInitialized => {
                v.remove(choose(of_type(SaEventType::Initialized))?);
            }
            Mutation::DeleteCompleted => {
                v.remove(choose(of_type(SaEventType::Completed))?);
            }
            Mutation::InitializeTwice => {
                let i = choose(of_type(SaEventType::Initialized))?;
                v.insert(i + 1, SaEvent::initialized(events[i].sa_id.clone()));
            }
            Mutation::DeleteStepEnd => {
                let mut ends = of_type(SaEventType::StepCompleted);
                ends.extend(of_type(SaEventType::StepFailed));
                v.remove(choose(ends)?);
            }
            Mutation::DeleteStepStart => {
                v.remove(choose(of_type(SaEventType::StepStarted))?);
            }
            Mutation::StartStepTwice => {
                let i = choose(of_type(SaEventType::StepStarted))?;
                let step = events[i].payload.step_id()?.clone();
                v.insert(i + 1, SaEvent::step_started(events[i].sa_id.clone(), step));
            }
            Mutation::EventAfterCompletion => {
                let i = choose((0..events.len()).collect())?;
                let sa = events[i].sa_id.clone();
                v.push(SaEvent::new(sa, SaPayload::ContextLoaded(None)));
            }
            Mutation::PhaseOutOfOrder => {
                let i = choose(of_type(SaEventType::Completed))?;
                let sa = events[i].sa_id.clone();
                v.insert(i, SaEvent::new(sa.clone(), SaPayload::ContextLoaded(None)));
                v.insert(i, SaEvent::new(sa, SaPayload::TraceEmitted(None)));
            }
            Mutation::RepeatEventId => {
                let mut l = lines(events);
                if l.len() < 2 {
                    return None;
                }
                let from = pick % l.len();
                let to = (from + 1 + (pick / l.len()) % (l.len() - 1)) % l.len();
                let id = |s: &str| -> String {
                    let v: serde_json::Value = serde_json::from_str(s).unwrap();
                    v["event_id"].as_str().unwrap().to_owned()
                };
                let (old, new) = (id(&l[to]), id(&l[from]));
                l[to] = l[to].replace(&old, &new);
                return Some(l);
            }
        }
        Some(lines(&v))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_valid_sa_logs_pass(events in log_spec()) {
        let report = check(&lines(&events));
        prop_assert!(report.is_valid(), "{:?}", report);
        // Warnings only for the mandatory phase events a run leaves out.
        prop_assert!(report.warnings().all(|w| w.rule.as_str() == "sa_mandatory_event_missing"), "{:?}", report);
    }

    #[test]
    fn each_single_mutation_is_caught_with_its_rule(
        events in log_spec(),
        which in 0..MUTATIONS.len(),
        pick in any::<usize>(),
    ) {
        let m = MUTATIONS[which];
        let Some(broken) = m.apply(&events, pick) else {
            return Ok(()); // e.g. a step mutation on a log without steps
        };
        let report = check(&broken);
        prop_assert_eq!(error_rules(&report), vec![m.rule()], "{:?}: {:?}", m, report);
        prop_assert!(report.errors().all(|v| v.line.is_some()));
    }
}

/// Every mutation kind applies to some generated log (the generator is not
/// too narrow for the property above to mean anything).
#[test]
fn every_mutation_kind_applies() {
    let spec = RunSpec {
        context: true,
        plan: true,
        trace: true,
        steps: vec![(false, true), (true, false)],
    };
    let events = run_events(&spec);
    for m in MUTATIONS {
        let broken = m.apply(&events, 1).unwrap();
        assert_eq!(error_rules(&check(&broken)), vec![m.rule()], "{m:?}");
    }
}
