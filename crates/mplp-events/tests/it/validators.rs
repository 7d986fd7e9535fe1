//! The MAP and SA log validators beyond one valid run: readers that fail or
//! are interrupted, lines cut by the reader's buffer, broadcasts and
//! conflicts without ids, events fed directly, the bounded memory of
//! completed sessions, and what stays open.

use std::io::{self, BufRead, BufReader, Read};

use mplp_core::{CollabId, CollabMode, Report, Severity, StepId};
use mplp_events::log::{
    EventSink, LogReader, LogWriter, MapLogValidator, SaLogValidator, validate_map_log,
    validate_sa_log,
};
use mplp_events::map::{BroadcastReceived, BroadcastSent, RoleAssignment};
use mplp_events::sa::StepOutcome;
use mplp_events::{MapEvent, MapPayload, SaEvent, SaId, SaPayload};

fn found(r: &Report) -> Vec<(u64, &'static str)> {
    r.violations()
        .iter()
        .map(|v| (v.line.unwrap_or(0), v.rule.as_str()))
        .collect()
}

fn ndjson<T: serde::Serialize>(events: &[T]) -> Vec<u8> {
    let mut w = LogWriter::new(Vec::new());
    for e in events {
        w.write(e).unwrap();
    }
    w.into_inner()
}

fn started(s: CollabId) -> Vec<MapEvent> {
    vec![
        MapEvent::session_started(s, CollabMode::Swarm, 2),
        MapEvent::roles_assigned(
            s,
            vec![
                RoleAssignment::new("p1".into(), "a".into()),
                RoleAssignment::new("p2".into(), "b".into()),
            ],
        ),
    ]
}

/// A complete, valid session of two turns.
fn good_session(s: CollabId) -> Vec<MapEvent> {
    let mut v = started(s);
    v.push(MapEvent::turn_dispatched(s, "a", 1));
    v.push(MapEvent::turn_completed(s, "a", 1, "completed"));
    v.push(MapEvent::turn_dispatched(s, "b", 2));
    v.push(MapEvent::turn_completed(s, "b", 2, "completed"));
    v.push(MapEvent::session_completed(s, "completed", 2));
    v
}

/// A reader that gives its bytes in chunks of `chunk`, answers
/// `Interrupted` before every chunk when `interrupt` is set, and fails for
/// good (every call) once the bytes are used up when `fail` is set.
struct Flaky {
    data: Vec<u8>,
    pos: usize,
    chunk: usize,
    interrupt: bool,
    interrupted: bool,
    fail: bool,
    calls_after_failure: usize,
}

impl Flaky {
    fn new(data: Vec<u8>, chunk: usize) -> Self {
        Flaky {
            data,
            pos: 0,
            chunk,
            interrupt: false,
            interrupted: false,
            fail: false,
            calls_after_failure: 0,
        }
    }
    fn interrupting(mut self) -> Self {
        self.interrupt = true;
        self
    }
    fn failing(mut self) -> Self {
        self.fail = true;
        self
    }
}

impl Read for Flaky {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Flaky {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.interrupt && !self.interrupted {
            self.interrupted = true;
            return Err(io::Error::new(io::ErrorKind::Interrupted, "signal"));
        }
        if self.pos == self.data.len() && self.fail {
            self.calls_after_failure += 1;
            // A reader stuck in an error: a validator that retried it
            // would never end; the test would hang (a caught mutant).
            assert!(
                self.calls_after_failure < 1000,
                "the failing reader is called again and again"
            );
            return Err(io::Error::other("disk on fire"));
        }
        let end = (self.pos + self.chunk).min(self.data.len());
        Ok(&self.data[self.pos..end])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
        self.interrupted = false;
    }
}

#[test]
fn lines_cut_by_the_buffer_and_interruptions_change_nothing() {
    let s = CollabId::new();
    let mut v = good_session(s);
    v.insert(6, MapEvent::turn_dispatched(s, "a", 7)); // line 7: skips turns
    let mut text = ndjson(&v);
    text.extend_from_slice(b"  \n\n{not json"); // blank lines, then a last line without newline
    let whole = validate_map_log(&text[..]);
    assert_eq!(
        found(&whole),
        [
            (7, "map_turn_number_sequence"),
            (7, "map_turn_completion_matches_dispatch"),
            (11, "json-syntax")
        ]
    );
    for chunk in [1, 2, 3, 7, 64, 1 << 16] {
        let r = validate_map_log(Flaky::new(text.clone(), chunk).interrupting());
        assert_eq!(r, whole, "chunks of {chunk}");
        let r = validate_map_log(BufReader::with_capacity(chunk, &text[..]));
        assert_eq!(r, whole, "BufReader of {chunk}");
    }
}

#[test]
fn a_failing_reader_is_reported_once_after_the_findings() {
    let s = CollabId::new();
    let v = &good_session(s)[..3]; // never completed, its turn never completes
    let text = ndjson(v);
    for chunk in [5, 1 << 16] {
        let r = validate_map_log(Flaky::new(text.clone(), chunk).interrupting().failing());
        assert_eq!(
            found(&r),
            [
                (1, "map_session_completed_last"),
                (3, "map_turn_completion_matches_dispatch"),
                (4, "log_read_error"),
            ],
            "chunks of {chunk}"
        );
        let last = r.violations().last().unwrap();
        assert_eq!(last.message, "cannot read the log: disk on fire");
        assert_eq!(last.pointer, "");
        assert!(last.is_error());
    }
    // Failing in the middle of a line: the part read is not a line.
    let mut cut = text.clone();
    cut.truncate(text.len() - 10);
    let r = validate_map_log(Flaky::new(cut, 8).failing());
    assert_eq!(found(&r).last(), Some(&(3, "log_read_error")));
    // Nothing could be read: no event (the `log_empty` warning, which has
    // no line), then the read error.
    let r = validate_sa_log(Flaky::new(Vec::new(), 8).failing());
    assert_eq!(found(&r), [(0, "log_empty"), (1, "log_read_error")]);
}

#[test]
fn the_log_reader_retries_interruptions_and_stops_at_an_error() {
    let s = CollabId::new();
    let events = started(s);
    let mut text = ndjson(&events);
    text.extend_from_slice(b"\n \n{\"x\":1}\n");
    let entries: Vec<_> =
        LogReader::<_, MapEvent>::new(Flaky::new(text.clone(), 3).interrupting().failing())
            .collect();
    assert_eq!(entries.len(), 4);
    assert_eq!(
        entries.iter().map(|e| e.line).collect::<Vec<_>>(),
        [1, 2, 5, 6]
    );
    assert_eq!(entries[0].event.as_ref().unwrap(), &events[0]);
    assert_eq!(entries[1].event.as_ref().unwrap(), &events[1]);
    let bad = entries[2].event.as_ref().unwrap_err();
    assert!(bad.iter().all(|v| v.line == Some(5)), "{bad:?}");
    let io = entries[3].event.as_ref().unwrap_err();
    assert_eq!(io.len(), 1);
    assert_eq!(io[0].rule.as_str(), "log_read_error");
    assert_eq!(io[0].line, Some(6));
    assert_eq!(io[0].message, "cannot read the log: disk on fire");
    // The stream ends after the error, and stays ended.
    let mut reader = LogReader::<_, MapEvent>::new(Flaky::new(Vec::new(), 3).failing());
    assert_eq!(reader.next().map(|e| e.line), Some(1));
    assert!(reader.next().is_none());
    assert!(reader.next().is_none());
    // Without an error: every line, then the end.
    let entries: Vec<_> = LogReader::<_, MapEvent>::new(Flaky::new(text, 2)).collect();
    assert_eq!(entries.len(), 3);
}

#[test]
fn broadcasts_without_broadcast_id() {
    let s = CollabId::new();
    let sent = || MapEvent::new(s, MapPayload::BroadcastSent(None));
    let sent_with = |p: BroadcastSent| MapEvent::new(s, MapPayload::BroadcastSent(Some(p)));
    let received = || MapEvent::new(s, MapPayload::BroadcastReceived(None));
    let mut by_ref = BroadcastReceived::new();
    by_ref.broadcast_ref = Some("b9".into());

    // Received before any broadcast: unmatched. Unlinked broadcasts are
    // answered by any unlinked receipt; one left unanswered is reported.
    let mut v = started(s);
    v.push(received()); // 3: nothing sent yet
    v.push(sent()); // 4: answered by 6
    v.push(sent_with(BroadcastSent::new())); // 5: also unlinked, answered by 6
    v.push(received()); // 6
    v.push(sent()); // 7: never answered
    v.push(MapEvent::broadcast_sent(s, "b9", "a", vec!["b".into()])); // 8: answered by ref
    v.push(MapEvent::new(
        s,
        MapPayload::BroadcastReceived(Some(by_ref)),
    ));
    v.push(MapEvent::broadcast_sent(s, "b1", "a", vec!["b".into()])); // 10: unanswered
    v.push(MapEvent::broadcast_sent(s, "b1", "a", vec!["b".into()])); // 11: same id
    let mut done = MapEvent::session_completed(s, "completed", 0);
    if let MapPayload::SessionCompleted(p) = &mut done.payload {
        p.broadcasts_count = Some(6);
    }
    v.push(done); // 12
    let r = validate_map_log(&ndjson(&v)[..]);
    assert_eq!(
        found(&r),
        [
            (3, "map_broadcast_receiver_unmatched"),
            (7, "map_broadcast_has_receivers"),
            (10, "map_broadcast_has_receivers"),
        ]
    );
    let msgs: Vec<_> = r.violations().iter().map(|v| v.message.as_str()).collect();
    assert_eq!(
        msgs[0],
        "a broadcast is received, but no broadcast was sent in this session"
    );
    assert!(
        msgs[1].starts_with("a broadcast without broadcast_id of session "),
        "{}",
        msgs[1]
    );
    assert!(
        msgs[2].starts_with("broadcast `b1` of session "),
        "{}",
        msgs[2]
    );
    assert_eq!(r.violations()[2].pointer, "/payload");

    // The count claims 6 broadcasts; a claim of 5 is reported.
    let mut v2 = v.clone();
    if let Some(MapPayload::SessionCompleted(p)) = v2.last_mut().map(|e| &mut e.payload) {
        p.broadcasts_count = Some(5);
    }
    let r = validate_map_log(&ndjson(&v2)[..]);
    assert!(
        found(&r).contains(&(12, "map_session_counts_match")),
        "{:?}",
        found(&r)
    );
    let counts = r
        .violations()
        .iter()
        .find(|v| v.rule.as_str() == "map_session_counts_match")
        .unwrap();
    assert_eq!(counts.pointer, "/payload/broadcasts_count");
    assert!(
        counts
            .message
            .starts_with("broadcasts_count is 5, but the log shows 6")
    );
}

#[test]
fn conflicts_with_and_without_conflict_id() {
    let s = CollabId::new();
    let detected = || MapEvent::new(s, MapPayload::ConflictDetected(None));
    let resolved = || MapEvent::new(s, MapPayload::ConflictResolved(None));
    let mut v = started(s);
    v.push(resolved()); // 3: nothing open
    v.push(detected()); // 4: resolved by 5
    v.push(resolved()); // 5
    v.push(detected()); // 6: never resolved
    v.push(MapEvent::conflict_detected(s, "c1", "r", vec![])); // 7: resolved by 8
    v.push(MapEvent::conflict_resolved(s, "c1", "vote")); // 8
    v.push(MapEvent::conflict_resolved(s, "c1", "vote")); // 9: already resolved
    v.push(MapEvent::conflict_detected(s, "c2", "r", vec![])); // 10: never resolved
    let mut done = MapEvent::session_completed(s, "completed", 0);
    if let MapPayload::SessionCompleted(p) = &mut done.payload {
        p.conflicts_count = Some(3);
        p.participants_count = Some(2);
    }
    v.push(done); // 11: 4 conflicts were detected, not 3
    let r = validate_map_log(&ndjson(&v)[..]);
    assert_eq!(
        found(&r),
        [
            (3, "map_conflict_resolution_unmatched"),
            (6, "map_conflict_resolved"),
            (9, "map_conflict_resolution_unmatched"),
            (10, "map_conflict_resolved"),
            (11, "map_session_counts_match"),
        ]
    );
    let m: Vec<_> = r.violations().iter().map(|v| v.message.as_str()).collect();
    assert_eq!(
        m[0],
        "a conflict is resolved, but no conflict without conflict_id is open in this session"
    );
    assert!(
        m[1].starts_with("a conflict without conflict_id of session"),
        "{}",
        m[1]
    );
    assert!(m[2].starts_with("conflict `c1` is not open"), "{}", m[2]);
    assert!(m[3].starts_with("conflict `c2` of session"), "{}", m[3]);
    assert!(
        m[4].starts_with("conflicts_count is 3, but the log shows 4"),
        "{}",
        m[4]
    );
}

#[test]
fn roles_turns_and_starts_are_each_reported_once() {
    let s = CollabId::new();
    let mut v = vec![MapEvent::session_started(s, CollabMode::Swarm, 2)];
    v.push(MapEvent::turn_dispatched(s, "a", 1)); // 2: before roles (reported once)
    v.push(MapEvent::turn_completed(s, "a", 1, "completed")); // 3
    v.extend(started(s)[1..].iter().cloned()); // 4: roles
    v.extend(started(s)[1..].iter().cloned()); // 5: roles again
    v.push(MapEvent::session_started(s, CollabMode::Swarm, 2)); // 6: started again
    v.push(MapEvent::turn_dispatched(s, "a", 1)); // 7: turn 1 again
    v.push(MapEvent::turn_completed(s, "a", 1, "completed")); // 8
    v.push(MapEvent::turn_dispatched(s, "a", 2)); // 9
    v.push(MapEvent::turn_completed(s, "a", 2, "completed")); // 10
    v.push(MapEvent::turn_completed(s, "a", 2, "completed")); // 11: no longer open
    let mut done = MapEvent::session_completed(s, "completed", 3);
    if let MapPayload::SessionCompleted(p) = &mut done.payload {
        p.participants_count = Some(2);
        p.broadcasts_count = Some(0);
        p.conflicts_count = Some(0);
    }
    v.push(done); // 12: counts are right
    let r = validate_map_log(&ndjson(&v)[..]);
    assert_eq!(
        found(&r),
        [
            (2, "map_roles_assigned_required"),
            (5, "map_roles_assigned_once"),
            (6, "map_session_started_first"),
            (7, "map_turn_number_sequence"),
            (11, "map_turn_completed_without_dispatch"),
        ]
    );
    let m: Vec<_> = r.violations().iter().map(|v| v.message.as_str()).collect();
    assert!(m[2].contains("was already started (line 1)"), "{}", m[2]);
    assert!(
        m[3].starts_with("turn 1 was dispatched again (or out of order)"),
        "{}",
        m[3]
    );
    assert!(m[3].ends_with("the next one is 2"), "{}", m[3]);
    assert!(
        m[4].starts_with("turn 2 of `a` completes, but no such turn is open"),
        "{}",
        m[4]
    );
    assert_eq!(r.violations()[4].pointer, "/payload/turn_number");
}

#[test]
fn events_fed_directly_are_numbered_as_lines() {
    let s = CollabId::new();
    let mut v = good_session(s);
    v.insert(6, MapEvent::turn_dispatched(s, "a", 5)); // the 7th event
    // Owned events, borrowed events, through `&mut`, and from a Vec sink.
    let mut collected: Vec<MapEvent> = Vec::new();
    for e in &v {
        collected.emit(e.clone()).unwrap();
    }
    assert_eq!(collected, v);
    let mut owned = MapLogValidator::new();
    let mut borrowed = MapLogValidator::default();
    let mut through = MapLogValidator::new();
    for e in &v {
        owned.emit(e.clone()).unwrap();
        borrowed.emit(e).unwrap();
        EventSink::<MapEvent>::emit(&mut &mut through, e.clone()).unwrap();
    }
    let want = [
        (7, "map_turn_number_sequence"),
        (7, "map_turn_completion_matches_dispatch"),
    ];
    let from_log = validate_map_log(&ndjson(&v)[..]);
    assert_eq!(found(&from_log), want);
    for r in [owned.finish(), borrowed.finish(), through.finish()] {
        assert_eq!(r, from_log);
    }
    // `push` takes the line it is given.
    let mut at = MapLogValidator::new();
    for (i, e) in v.iter().enumerate() {
        at.push(10 * (i as u64 + 1), e);
    }
    assert_eq!(
        found(&at.finish()),
        [
            (70, "map_turn_number_sequence"),
            (70, "map_turn_completion_matches_dispatch")
        ]
    );
}

#[test]
fn completed_sessions_are_remembered_up_to_the_limit() {
    let (a, b, c) = (CollabId::new(), CollabId::new(), CollabId::new());
    let late = |s| MapEvent::turn_dispatched(s, "a", 1);
    let mut v = good_session(a);
    v.extend(good_session(b));
    v.extend(good_session(c));
    v.push(late(a)); // 22: a was completed long ago
    v.push(late(c)); // 23: c was just completed
    let run = |val: MapLogValidator| {
        let mut val = val;
        for e in &v {
            val.emit(e.clone()).unwrap();
        }
        found(&val.finish())
    };
    let remembered = [
        (22, "map_session_completed_last"),
        (23, "map_session_completed_last"),
    ];
    assert_eq!(run(MapLogValidator::new()), remembered);
    assert_eq!(run(MapLogValidator::with_completed_memory(3)), remembered);
    // Remembering two: a is forgotten, so its late event starts a new session
    // (without MAPSessionStarted, without roles, never completed).
    let forgot_a = [
        (22, "map_session_started_first"),
        (22, "map_roles_assigned_required"),
        (22, "map_session_completed_last"),
        (22, "map_turn_completion_matches_dispatch"),
        (23, "map_session_completed_last"),
    ];
    assert_eq!(run(MapLogValidator::with_completed_memory(2)), forgot_a);
    let forgot_both = [
        (22, "map_session_started_first"),
        (22, "map_roles_assigned_required"),
        (22, "map_session_completed_last"),
        (22, "map_turn_completion_matches_dispatch"),
        (23, "map_session_started_first"),
        (23, "map_roles_assigned_required"),
        (23, "map_session_completed_last"),
        (23, "map_turn_completion_matches_dispatch"),
    ];
    assert_eq!(run(MapLogValidator::with_completed_memory(0)), forgot_both);
    // An event after a completion does not complete the session again: with
    // room for two, a is still remembered after b's second completion.
    let mut w = good_session(a);
    w.extend(good_session(b));
    w.push(MapEvent::session_completed(b, "completed", 2)); // 15: after completion
    w.push(late(a)); // 16: a is still remembered
    let mut val = MapLogValidator::with_completed_memory(2);
    for e in &w {
        val.emit(e).unwrap();
    }
    assert_eq!(
        found(&val.finish()),
        [
            (15, "map_session_completed_last"),
            (16, "map_session_completed_last")
        ]
    );
}

#[test]
fn open_items_count_everything_a_session_leaves_open() {
    let s = CollabId::new();
    let mut val = MapLogValidator::new();
    assert_eq!(val.open_items(), 0);
    let expect = |val: &mut MapLogValidator, e: MapEvent, n: usize| {
        val.emit(e).unwrap();
        assert_eq!(val.open_items(), n);
    };
    for e in started(s) {
        expect(&mut val, e, 1);
    }
    expect(&mut val, MapEvent::turn_dispatched(s, "a", 1), 2);
    expect(&mut val, MapEvent::broadcast_sent(s, "b1", "a", vec![]), 3);
    expect(
        &mut val,
        MapEvent::new(s, MapPayload::BroadcastSent(None)),
        4,
    );
    expect(
        &mut val,
        MapEvent::conflict_detected(s, "c1", "r", vec![]),
        5,
    );
    expect(
        &mut val,
        MapEvent::new(s, MapPayload::ConflictDetected(None)),
        6,
    );
    let t = CollabId::new();
    for e in started(t) {
        expect(&mut val, e, 7);
    }
    expect(
        &mut val,
        MapEvent::new(s, MapPayload::ConflictResolved(None)),
        6,
    );
    expect(&mut val, MapEvent::conflict_resolved(s, "c1", "x"), 5);
    expect(
        &mut val,
        MapEvent::new(s, MapPayload::BroadcastReceived(None)),
        4,
    );
    expect(
        &mut val,
        MapEvent::turn_completed(s, "a", 1, "completed"),
        3,
    );
    expect(&mut val, MapEvent::session_completed(s, "completed", 1), 1);
    expect(&mut val, MapEvent::session_completed(t, "completed", 0), 0);
    // broadcast b1 was never answered.
    assert_eq!(found(&val.finish()), [(4, "map_broadcast_has_receivers")]);
}

fn sa_run(sa: &SaId, steps: &[StepId]) -> Vec<SaEvent> {
    let mut v = vec![
        SaEvent::initialized(sa.clone()),
        SaEvent::new(sa.clone(), SaPayload::ContextLoaded(None)),
        SaEvent::new(sa.clone(), SaPayload::PlanEvaluated(None)),
    ];
    for s in steps {
        v.push(SaEvent::step_started(sa.clone(), *s));
        v.push(SaEvent::step_completed(
            sa.clone(),
            *s,
            StepOutcome::Completed,
        ));
    }
    v.push(SaEvent::new(sa.clone(), SaPayload::TraceEmitted(None)));
    v.push(SaEvent::completed(sa.clone()));
    v
}

#[test]
fn sa_runs_interleave_and_each_follows_the_profile() {
    let (x, y) = (SaId::new(), SaId::new());
    let (s1, s2) = (StepId::new(), StepId::new());
    let rx = sa_run(&x, &[s1, s2]);
    let ry = sa_run(&y, &[s1]);
    // Interleaved: x0 y0 x1 y1 ... (step ids may repeat across runs).
    let mut v = Vec::new();
    for i in 0..rx.len().max(ry.len()) {
        v.extend(rx.get(i).cloned());
        v.extend(ry.get(i).cloned());
    }
    let r = validate_sa_log(&ndjson(&v)[..]);
    assert!(r.is_empty(), "{:?}", found(&r));
    // A step failing also finishes it; a step started twice; an event after
    // completion; a second SAInitialized.
    let z = SaId::new();
    let w = vec![
        SaEvent::initialized(z.clone()),                                // 1
        SaEvent::step_started(z.clone(), s1),                           // 2
        SaEvent::step_failed(z.clone(), s1),                            // 3
        SaEvent::step_started(z.clone(), s2),                           // 4
        SaEvent::step_started(z.clone(), s2),                           // 5: still running
        SaEvent::initialized(z.clone()),                                // 6: again
        SaEvent::new(z.clone(), SaPayload::ContextLoaded(None)),        // 7: phase back
        SaEvent::step_completed(z.clone(), s2, StepOutcome::Completed), // 8
        SaEvent::step_completed(z.clone(), s2, StepOutcome::Failed),    // 9: not running
        SaEvent::completed(z.clone()),                                  // 10
        SaEvent::new(z.clone(), SaPayload::TraceEmitted(None)),         // 11: after completion
    ];
    let r = validate_sa_log(&ndjson(&w)[..]);
    assert_eq!(
        found(&r),
        [
            (5, "sa_step_started_is_finished"),
            (6, "sa_initialized_first"),
            (7, "sa_lifecycle_order"),
            (9, "sa_step_finished_without_start"),
            (10, "sa_mandatory_event_missing"),
            (10, "sa_mandatory_event_missing"),
            (11, "sa_completed_last"),
        ]
    );
    let v = r.violations();
    assert!(
        v[0].message
            .contains("its start on line 4 has not finished"),
        "{}",
        v[0].message
    );
    assert!(
        v[1].message.ends_with("was already initialized (line 1)"),
        "{}",
        v[1].message
    );
    assert_eq!(
        v[2].message,
        "SAContextLoaded (phase load_context) comes after phase execute_steps: the SA phases are \
         initialize, load_context, evaluate_plan, execute_steps, emit_trace, complete"
    );
    // SAContextLoaded came (late), so only the other two are missing.
    assert!(v[4..6].iter().all(|w| w.severity == Severity::Warning));
    let missing: Vec<_> = v[4..6].iter().map(|w| w.message.as_str()).collect();
    assert!(
        missing[0].contains("without SAPlanEvaluated (phase evaluate_plan)"),
        "{}",
        missing[0]
    );
    assert!(
        missing[1].contains("without SATraceEmitted (phase emit_trace)"),
        "{}",
        missing[1]
    );
    assert!(
        v[6].message
            .starts_with("SATraceEmitted comes after the SACompleted of run")
    );
}

#[test]
fn sa_open_items_memory_and_unfinished_steps() {
    let (x, y) = (SaId::new(), SaId::new());
    let (s1, s2) = (StepId::new(), StepId::new());
    let mut val = SaLogValidator::with_completed_memory(1);
    let step = |val: &mut SaLogValidator, e: SaEvent, n: usize| {
        val.emit(e).unwrap();
        assert_eq!(val.open_items(), n);
    };
    step(&mut val, SaEvent::initialized(x.clone()), 1);
    step(&mut val, SaEvent::step_started(x.clone(), s1), 2);
    step(&mut val, SaEvent::step_started(x.clone(), s2), 3);
    step(&mut val, SaEvent::initialized(y.clone()), 4);
    step(&mut val, SaEvent::step_failed(x.clone(), s1), 3);
    step(&mut val, SaEvent::completed(y.clone()), 2); // 6
    step(&mut val, SaEvent::completed(x.clone()), 0); // 7: s2 never finished
    step(&mut val, SaEvent::step_started(y.clone(), s1), 2); // 8: y forgotten: a new run
    let r = val.finish();
    assert_eq!(
        r.errors()
            .map(|v| (v.line.unwrap(), v.rule.as_str()))
            .collect::<Vec<_>>(),
        [
            (3, "sa_step_started_is_finished"),
            (8, "sa_initialized_first"),
            (8, "sa_completed_last"),
            (8, "sa_step_started_is_finished"),
        ]
    );
    let unfinished = r.errors().next().unwrap();
    assert_eq!(unfinished.pointer, "/payload/step_id");
    assert!(
        unfinished
            .message
            .starts_with(&format!("step {s2} of run {x} starts but never"))
    );
    let never = r.errors().nth(2).unwrap();
    assert_eq!(never.pointer, "/sa_id");
    assert_eq!(
        never.message,
        format!("run {y} is never completed: a run ends with SACompleted")
    );
    // Remembering one more run: y's late event is after its completion.
    let mut val = SaLogValidator::with_completed_memory(2).with_event_id_window(0);
    for e in [
        SaEvent::initialized(x.clone()),
        SaEvent::initialized(y.clone()),
        SaEvent::completed(y.clone()),
        SaEvent::completed(x.clone()),
        SaEvent::step_started(y.clone(), s1),
    ] {
        val.emit(e).unwrap();
    }
    assert_eq!(
        val.finish()
            .errors()
            .map(|v| (v.line.unwrap(), v.rule.as_str()))
            .collect::<Vec<_>>(),
        [(5, "sa_completed_last")]
    );
}

#[test]
fn repeated_event_ids_in_sa_logs() {
    let x = SaId::new();
    let mut v = sa_run(&x, &[]);
    let dup = v[0].event_id.clone();
    v[2].event_id = dup.clone();
    let r = validate_sa_log(&ndjson(&v)[..]);
    assert_eq!(found(&r), [(3, "log_unique_event_ids")]);
    assert_eq!(r.violations()[0].pointer, "/event_id");
    let mut val = SaLogValidator::new().with_event_id_window(0);
    for e in &v {
        val.push(0, e);
    }
    assert!(val.finish().is_empty());
    let s = CollabId::new();
    let mut m = good_session(s);
    m[3].event_id = m[1].event_id.clone();
    assert_eq!(
        found(&validate_map_log(&ndjson(&m)[..])),
        [(4, "log_unique_event_ids")]
    );
    let mut val = MapLogValidator::new().with_event_id_window(0);
    for e in &m {
        val.emit(e).unwrap();
    }
    assert!(val.finish().is_empty());
}

#[test]
fn sa_events_fed_directly_are_numbered_as_lines() {
    let z = SaId::new();
    let s1 = StepId::new();
    let mut v = sa_run(&z, &[s1]);
    v.insert(4, SaEvent::step_started(z.clone(), s1)); // line 5: started twice
    let from_log = validate_sa_log(&ndjson(&v)[..]);
    assert_eq!(found(&from_log), [(5, "sa_step_started_is_finished")]);
    let mut owned = SaLogValidator::new();
    let mut borrowed = SaLogValidator::default();
    for e in &v {
        owned.emit(e.clone()).unwrap();
        borrowed.emit(e).unwrap();
    }
    assert_eq!(owned.finish(), from_log);
    assert_eq!(borrowed.finish(), from_log);
}
