//! `log_unique_event_ids`: a repeated `event_id` anywhere in a MAP or SA log.

use mplp_core::{CollabId, CollabMode, Report, StepId};
use mplp_events::log::{LogWriter, validate_map_log, validate_sa_log};
use mplp_events::map::RoleAssignment;
use mplp_events::sa::StepOutcome;
use mplp_events::unique_ids::UniqueIds;
use mplp_events::{MapEvent, SaEvent, SaId, SaPayload};

const RULE: &str = "log_unique_event_ids";

fn lines<T: serde::Serialize>(events: &[T]) -> Vec<String> {
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

fn event_id(line: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    v["event_id"].as_str().unwrap().to_owned()
}

/// Line `to` (0-based) gets the event id of line `from`.
fn copy_id(log: &mut [String], from: usize, to: usize) {
    let (old, new) = (event_id(&log[to]), event_id(&log[from]));
    log[to] = log[to].replace(&old, &new);
}

fn repeats(r: &Report) -> Vec<(u64, String)> {
    r.violations()
        .iter()
        .filter(|v| v.rule.as_str() == RULE)
        .map(|v| {
            assert!(v.is_error());
            assert_eq!(v.pointer, "/event_id");
            (v.line.unwrap(), v.message.clone())
        })
        .collect()
}

fn map_session(s: CollabId, turns: u64) -> Vec<MapEvent> {
    let mut v = vec![
        MapEvent::session_started(s, CollabMode::RoundRobin, 1),
        MapEvent::roles_assigned(s, vec![RoleAssignment::new("p1".into(), "coder".into())]),
    ];
    for n in 1..=turns {
        v.push(MapEvent::turn_dispatched(s, "coder", n));
        v.push(MapEvent::turn_completed(s, "coder", n, "completed"));
    }
    v.push(MapEvent::session_completed(s, "completed", turns));
    v
}

fn map_check(log: &[String]) -> Report {
    validate_map_log(log.join("\n").as_bytes())
}

#[test]
fn map_repeat_in_the_same_session_names_both_lines() {
    let mut log = lines(&map_session(CollabId::new(), 3));
    assert!(map_check(&log).is_empty());
    copy_id(&mut log, 2, 5); // line 6 repeats line 3
    let r = map_check(&log);
    let got = repeats(&r);
    assert_eq!(got.len(), 1, "{r:?}");
    assert_eq!(got[0].0, 6);
    assert!(got[0].1.contains("already used on line 3"), "{}", got[0].1);
    assert!(got[0].1.contains(&event_id(&log[2])), "{}", got[0].1);
    // Only the repeat is reported: the event is otherwise valid.
    assert_eq!(r.errors().count(), 1, "{r:?}");
}

#[test]
fn map_repeat_in_another_session_and_far_apart() {
    let mut log = Vec::new();
    for _ in 0..2000 {
        log.extend(lines(&map_session(CollabId::new(), 2)));
    }
    assert!(map_check(&log).is_empty());
    // Line 2 (session 1) reused 13,000 lines later, in session ~1858; a
    // third use names the first line too.
    let last = log.len() - 3;
    copy_id(&mut log, 1, 13_000);
    copy_id(&mut log, 1, last);
    let got: Vec<(u64, String)> = repeats(&map_check(&log));
    let lines_: Vec<u64> = got.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines_, [13_001, last as u64 + 1]);
    assert!(
        got.iter()
            .all(|(_, m)| m.contains("already used on line 2"))
    );
}

#[test]
fn ids_are_compared_as_uuid_values() {
    let mut log = lines(&map_session(CollabId::new(), 1));
    let first = event_id(&log[0]);
    let old = event_id(&log[3]);
    log[3] = log[3].replace(&old, &first.to_uppercase());
    assert_eq!(repeats(&map_check(&log)).len(), 1);
}

fn sa_run(sa: &SaId, steps: usize) -> Vec<SaEvent> {
    let mut v = vec![
        SaEvent::initialized(sa.clone()),
        SaEvent::new(sa.clone(), SaPayload::ContextLoaded(None)),
        SaEvent::new(sa.clone(), SaPayload::PlanEvaluated(None)),
    ];
    for _ in 0..steps {
        let s = StepId::new();
        v.push(SaEvent::step_started(sa.clone(), s));
        v.push(SaEvent::step_completed(
            sa.clone(),
            s,
            StepOutcome::Completed,
        ));
    }
    v.push(SaEvent::new(sa.clone(), SaPayload::TraceEmitted(None)));
    v.push(SaEvent::completed(sa.clone()));
    v
}

#[test]
fn sa_repeats_same_run_other_run_far_apart() {
    let mut log = Vec::new();
    for _ in 0..1000 {
        log.extend(lines(&sa_run(&SaId::new(), 3)));
    }
    let check = |log: &[String]| validate_sa_log(log.join("\n").as_bytes());
    assert!(check(&log).is_empty());
    copy_id(&mut log, 3, 4); // same run, adjacent
    copy_id(&mut log, 0, 11); // next run
    copy_id(&mut log, 20, 9_500); // far apart
    let got = repeats(&check(&log));
    let pairs: Vec<(u64, bool)> = got
        .iter()
        .map(|(l, m)| (*l, m.contains("already used on line")))
        .collect();
    assert_eq!(pairs, [(5, true), (12, true), (9_501, true)]);
    assert!(got[0].1.contains("line 4"));
    assert!(got[1].1.contains("line 1"));
    assert!(got[2].1.contains("line 21"));
}

#[test]
fn the_tracker_window_is_exact_within_and_bounded() {
    let ids: Vec<uuid::Uuid> = (0..1000).map(|_| uuid::Uuid::new_v4()).collect();
    let mut t = UniqueIds::with_window(100);
    for (n, id) in ids.iter().enumerate() {
        assert_eq!(t.see(*id, n as u64 + 1), None);
        assert!(t.len() <= 200);
    }
    // Every id of the last 100 is still known, with its line.
    for (n, id) in ids.iter().enumerate().skip(900) {
        assert_eq!(t.see(*id, 5000), Some(n as u64 + 1));
    }
    assert!(t.table_bytes() > 0);
}

#[test]
fn the_window_is_configurable_per_validator() {
    use mplp_events::log::{MapLogValidator, SaLogValidator};
    let mut log = Vec::new();
    for _ in 0..20 {
        log.extend(lines(&map_session(CollabId::new(), 1)));
    }
    copy_id(&mut log, 0, 1); // adjacent
    copy_id(&mut log, 10, 90); // 80 events apart
    let run = |v: MapLogValidator| {
        let mut v = v;
        for (n, l) in log.iter().enumerate() {
            v.push_line(n as u64 + 1, l.as_bytes());
        }
        repeats(&v.finish())
            .into_iter()
            .map(|(l, _)| l)
            .collect::<Vec<u64>>()
    };
    assert_eq!(run(MapLogValidator::new()), [2, 91]);
    assert_eq!(run(MapLogValidator::new().with_event_id_window(10)), [2]);
    assert_eq!(
        run(MapLogValidator::new().with_event_id_window(0)),
        Vec::<u64>::new()
    );
    // The same through `LogOptions`, as `mplp validate` passes it.
    use mplp_events::log::{LogOptions, validate_map_log_with};
    let text = log.join("\n");
    let through = |o: LogOptions| -> Vec<u64> {
        repeats(&validate_map_log_with(text.as_bytes(), &o))
            .into_iter()
            .map(|(l, _)| l)
            .collect()
    };
    assert_eq!(through(LogOptions::default()), [2, 91]);
    assert_eq!(through(LogOptions::default().event_id_window(10)), [2]);
    assert_eq!(
        through(LogOptions::default().event_id_window(0)),
        Vec::<u64>::new()
    );
    assert_eq!(LogOptions::default().event_id_window(7).id_window(), 7);

    let mut sa = lines(&sa_run(&SaId::new(), 1));
    copy_id(&mut sa, 0, 2);
    let mut v = SaLogValidator::new().with_event_id_window(0);
    for (n, l) in sa.iter().enumerate() {
        v.push_line(n as u64 + 1, l.as_bytes());
    }
    assert!(v.finish().is_empty());
    let text = sa.join("\n");
    let o = LogOptions::default().event_id_window(0);
    assert!(mplp_events::log::validate_sa_log_with(text.as_bytes(), &o).is_empty());
    assert_eq!(
        repeats(&mplp_events::log::validate_sa_log_with(
            text.as_bytes(),
            &LogOptions::default()
        ))
        .len(),
        1
    );
}
