//! The trace and segment lifecycle tables, pinned literally, the trace
//! rules, and property tests over random trigger sequences.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use std::collections::BTreeSet;

use mplp_core::{ContextId, Document, PlanId, Rule, Timestamp};
use mplp_trace::{SegmentStatus, SegmentTrigger, Trace, TraceStatus, TraceTrigger};
use proptest::prelude::*;

#[path = "../../../tests/support/named_transitions.rs"]
mod named_transitions;
use named_transitions::{Named, check_named_transitions};
use serde_json::{Value, json};

const TRACE_EDGES: [(TraceStatus, TraceStatus); 5] = [
    (TraceStatus::Pending, TraceStatus::Running),
    (TraceStatus::Pending, TraceStatus::Cancelled),
    (TraceStatus::Running, TraceStatus::Completed),
    (TraceStatus::Running, TraceStatus::Failed),
    (TraceStatus::Running, TraceStatus::Cancelled),
];

const SEGMENT_EDGES: [(SegmentStatus, SegmentStatus); 6] = [
    (SegmentStatus::Pending, SegmentStatus::Running),
    (SegmentStatus::Pending, SegmentStatus::Cancelled),
    (SegmentStatus::Pending, SegmentStatus::Skipped),
    (SegmentStatus::Running, SegmentStatus::Completed),
    (SegmentStatus::Running, SegmentStatus::Failed),
    (SegmentStatus::Running, SegmentStatus::Cancelled),
];

#[test]
fn tables_over_all_pairs_and_every_edge_reachable() {
    for from in TraceStatus::ALL {
        for to in TraceStatus::ALL {
            assert_eq!(
                from.can_transition_to(*to),
                TRACE_EDGES.contains(&(*from, *to)),
                "{from} -> {to}"
            );
        }
    }
    for from in SegmentStatus::ALL {
        for to in SegmentStatus::ALL {
            assert_eq!(
                from.can_transition_to(*to),
                SEGMENT_EDGES.contains(&(*from, *to)),
                "{from} -> {to}"
            );
        }
    }
    // Reachability from `pending` through the triggers.
    let mut edges = BTreeSet::new();
    let mut queue = vec![TraceStatus::Pending];
    let mut seen = BTreeSet::from([TraceStatus::Pending]);
    while let Some(s) = queue.pop() {
        for t in TraceTrigger::ALL {
            if let Ok(n) = s.fire_at(*t, "/status") {
                edges.insert((s, n));
                if seen.insert(n) {
                    queue.push(n);
                }
            }
        }
    }
    assert_eq!(edges, TRACE_EDGES.into_iter().collect());
    let mut edges = BTreeSet::new();
    let mut queue = vec![SegmentStatus::Pending];
    let mut seen = BTreeSet::from([SegmentStatus::Pending]);
    while let Some(s) = queue.pop() {
        for t in SegmentTrigger::ALL {
            if let Ok(n) = s.fire_at(*t, "/x") {
                edges.insert((s, n));
                if seen.insert(n) {
                    queue.push(n);
                }
            }
        }
    }
    assert_eq!(edges, SEGMENT_EDGES.into_iter().collect());
}

#[test]
fn segments_change_only_while_running_and_times_stay_in_order() {
    let mut t = Trace::new(ContextId::new());
    let s = t.add_segment("a", None).unwrap();
    let err = t
        .fire_segment(s, SegmentTrigger::Start, Timestamp::now())
        .unwrap_err();
    assert_eq!(
        err.rule().map(|r| r.as_str()),
        Some("trace_segments_need_running_trace")
    );
    t.start().unwrap();
    let start = Timestamp::parse("2030-01-01T00:00:00Z").unwrap();
    t.fire_segment(s, SegmentTrigger::Start, start.clone())
        .unwrap();
    let before = Timestamp::parse("2029-12-31T23:59:59Z").unwrap();
    let err = t
        .fire_segment(s, SegmentTrigger::Complete, before)
        .unwrap_err();
    assert_eq!(
        err.rule().map(|r| r.as_str()),
        Some("trace_finished_after_started")
    );
    assert_eq!(err.pointer(), Some("/segments/0/finished_at"));
    let err = t
        .fire_segment(s, SegmentTrigger::Skip, Timestamp::now())
        .unwrap_err();
    assert_eq!(err.rule(), Some(Rule::LIFECYCLE_TRANSITION));
    assert_eq!(err.pointer(), Some("/segments/0/status"));
    let unknown = Trace::new(ContextId::new()).add_segment("x", None).unwrap();
    let err = t
        .fire_segment(unknown, SegmentTrigger::Start, Timestamp::now())
        .unwrap_err();
    assert_eq!(err.rule().map(|r| r.as_str()), Some("unknown-segment"));
    assert!(t.add_segment("child", Some(unknown)).is_err());
    // A segment keeps its parent and the times of its changes.
    let seg = t.segment(s).unwrap();
    assert_eq!(
        (seg.parent_segment_id(), seg.started_at(), seg.finished_at()),
        (None, Some(&start), None)
    );
    let child = t.add_segment("child", Some(s)).unwrap();
    assert_eq!(t.segment(child).unwrap().parent_segment_id(), Some(s));
    let end = Timestamp::parse("2030-01-01T00:00:01Z").unwrap();
    t.fire_segment(s, SegmentTrigger::Complete, end.clone())
        .unwrap();
    let seg = t.segment(s).unwrap();
    assert_eq!(
        (seg.started_at(), seg.finished_at()),
        (Some(&start), Some(&end))
    );
    t.cancel().unwrap();
    let err = t.add_segment("late", None).unwrap_err();
    // The rules of these refusals are in the crate's catalogue (`mplp rules`).
    for rule in [
        "trace_segments_need_running_trace",
        "trace_finished_after_started",
        "unknown-segment",
    ] {
        assert!(
            mplp_trace::rules().any(|r| r.rule.as_str() == rule),
            "{rule}"
        );
    }
    assert!(mplp_trace::rules().any(|r| Some(r.rule) == err.rule()));
    assert!(Trace::validate_json(t.to_json()).report.is_empty());
}

/// Each named transition (`start`, `complete`, `fail`, `cancel`) fires its
/// trigger from every status, with the same verdict and status as
/// [`Trace::fire`]; `start` stamps `started_at`, the final ones
/// `finished_at`, and nothing else is stamped.
#[test]
fn the_named_transitions_fire_their_trigger_and_stamp_their_time() {
    let named: [(Named<Trace>, TraceTrigger); 4] = [
        (Trace::start, TraceTrigger::Start),
        (Trace::complete, TraceTrigger::Complete),
        (Trace::fail, TraceTrigger::Fail),
        (Trace::cancel, TraceTrigger::Cancel),
    ];
    let outcomes = check_named_transitions(
        TraceStatus::ALL,
        |s| {
            let mut v = doc(json!([]));
            v["status"] = json!(s.as_str());
            Trace::from_value(&v).unwrap()
        },
        Trace::status,
        &named,
        |s, t| s.fire_at(t, "/status").ok(),
    );
    for (s, t, trace, accepted) in outcomes {
        let stamped = (trace.started_at().is_some(), trace.finished_at().is_some());
        let expect_stamped = match (accepted, t) {
            (false, _) => (false, false),
            (true, TraceTrigger::Start) => (true, false),
            (true, _) => (false, true),
        };
        assert_eq!(stamped, expect_stamped, "{s}: {t}");
    }
    let at = |s: &str| Timestamp::parse(s).unwrap();
    let mut trace = Trace::new(ContextId::new());
    trace
        .fire(TraceTrigger::Start, at("2030-01-01T00:00:00Z"))
        .unwrap();
    trace
        .fire(TraceTrigger::Fail, at("2030-01-01T00:00:05Z"))
        .unwrap();
    assert_eq!(
        (trace.started_at(), trace.finished_at()),
        (
            Some(&at("2030-01-01T00:00:00Z")),
            Some(&at("2030-01-01T00:00:05Z"))
        )
    );
}

/// A pending segment read with a `started_at` (the schema allows it) is
/// started or skipped at any time: only finishing is compared with the
/// start, and skipping stamps nothing.
#[test]
fn starting_and_skipping_compare_no_times() {
    let mut v = doc(json!([seg(1, None), seg(2, None)]));
    v["segments"][0]["started_at"] = json!("2030-01-01T00:00:00Z");
    v["segments"][1]["started_at"] = json!("2030-01-01T00:00:00Z");
    let mut t = Trace::from_value(&v).unwrap();
    let earlier = Timestamp::parse("2029-01-01T00:00:00Z").unwrap();
    let (a, b) = (t.segments()[0].segment_id(), t.segments()[1].segment_id());
    t.fire_segment(a, SegmentTrigger::Skip, earlier.clone())
        .unwrap();
    assert_eq!(t.segment(a).unwrap().status(), SegmentStatus::Skipped);
    assert_eq!(t.segment(a).unwrap().finished_at(), None);
    t.fire_segment(b, SegmentTrigger::Start, earlier.clone())
        .unwrap();
    assert_eq!(t.segment(b).unwrap().started_at(), Some(&earlier));
    assert_eq!(t.segment(b).unwrap().finished_at(), None);
}

#[test]
fn binding_to_context_and_plan() {
    let (c, p) = (ContextId::new(), PlanId::new());
    let mut t = Trace::for_plan(c, p);
    assert_eq!((t.context_id(), t.plan_id()), (c, Some(p)));
    assert_eq!(Trace::new(c).plan_id(), None);
    assert!(t.check_binding(c, p).is_valid());
    let rules = |r: mplp_core::Report| -> Vec<String> {
        r.violations()
            .iter()
            .map(|v| format!("{} {}", v.pointer, v.rule))
            .collect()
    };
    assert_eq!(
        rules(t.check_binding(ContextId::new(), PlanId::new())),
        [
            "/context_id sa_trace_context_binding",
            "/plan_id sa_trace_plan_binding"
        ]
    );
    assert_eq!(
        rules(Trace::new(c).check_binding(c, p)),
        ["/plan_id sa_trace_plan_binding"]
    );
    t.start().unwrap();
    t.complete().unwrap();
    assert_eq!(rules(t.check_binding(c, p)), ["/events sa_trace_not_empty"]);
}

fn doc(segments: Value) -> Value {
    json!({"meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
           "trace_id": "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
           "context_id": "3f1c2a9e-7b4d-4e2a-9c1f-5a6b7c8d9e01",
           "root_span": {"trace_id": "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
                         "span_id": "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e"},
           "status": "running", "segments": segments})
}

fn seg(i: u8, parent: Option<u8>) -> Value {
    let id = |i: u8| format!("7b9d1f3a-5c7e-4a9b-8d1f-3a5c7e9b1d{i:02}");
    let mut v = json!({"segment_id": id(i), "label": "s", "status": "pending"});
    if let Some(p) = parent {
        v["parent_segment_id"] = json!(id(p));
    }
    v
}

fn errors(v: &Value) -> Vec<String> {
    Trace::validate_value(v)
        .report
        .errors()
        .map(|e| format!("{} {}", e.pointer, e.rule))
        .collect()
}

#[test]
fn segment_tree_rules() {
    assert!(
        errors(&doc(json!([
            seg(1, None),
            seg(2, Some(1)),
            seg(3, Some(2))
        ])))
        .is_empty()
    );
    assert_eq!(
        errors(&doc(json!([seg(1, Some(1))]))),
        ["/segments/0/parent_segment_id trace_segment_parent_exists"]
    );
    assert_eq!(
        errors(&doc(json!([seg(1, Some(2)), seg(2, Some(1))]))),
        [
            "/segments/0/parent_segment_id trace_segment_tree_acyclic",
            "/segments/1/parent_segment_id trace_segment_tree_acyclic"
        ]
    );
    // A segment below a cycle is not its own ancestor: only the cycle's
    // members are reported, and the walk up from it ends.
    assert_eq!(
        errors(&doc(json!([
            seg(1, Some(2)),
            seg(2, Some(1)),
            seg(3, Some(1))
        ]))),
        [
            "/segments/0/parent_segment_id trace_segment_tree_acyclic",
            "/segments/1/parent_segment_id trace_segment_tree_acyclic"
        ]
    );
    let mut bad_root = doc(json!([]));
    bad_root["root_span"]["parent_span_id"] = json!("b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6f");
    bad_root["root_span"]["context_id"] = json!("3f1c2a9e-7b4d-4e2a-9c1f-5a6b7c8d9e02");
    assert_eq!(
        errors(&bad_root),
        [
            "/root_span/parent_span_id trace_root_span_binding",
            "/root_span/context_id trace_root_span_binding"
        ]
    );
}

fn trace_trigger() -> impl Strategy<Value = TraceTrigger> {
    prop::sample::select(TraceTrigger::ALL.to_vec())
}

#[derive(Clone, Debug)]
enum Op {
    Trace(TraceTrigger),
    Add(Option<usize>),
    Segment(usize, SegmentTrigger),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => trace_trigger().prop_map(Op::Trace),
        2 => prop::option::of(0usize..8).prop_map(Op::Add),
        4 => (0usize..8, prop::sample::select(SegmentTrigger::ALL.to_vec())).prop_map(|(i, t)| Op::Segment(i, t)),
    ]
}

proptest! {
    /// Random operations never leave the tables: accepted triggers move
    /// along an edge, refused ones change nothing, and the document stays
    /// valid (no error, no warning) and round-trips.
    #[test]
    fn random_operations_follow_the_tables(ops in prop::collection::vec(op(), 0..40)) {
        let mut t = Trace::for_plan(ContextId::new(), PlanId::new());
        for op in ops {
            let before = t.clone();
            let ids: Vec<_> = t.segments().iter().map(|s| s.segment_id()).collect();
            match op {
                Op::Trace(trigger) => {
                    let (from, to) = trigger.rule();
                    let r = t.fire(trigger, Timestamp::now());
                    prop_assert_eq!(r.is_ok(), from.contains(&before.status()));
                    prop_assert_eq!(t.status(), if r.is_ok() { to } else { before.status() });
                }
                Op::Add(parent) => {
                    let parent = parent.and_then(|i| ids.get(i).copied());
                    let r = t.add_segment("s", parent);
                    prop_assert_eq!(r.is_ok(), !before.status().is_final());
                }
                Op::Segment(i, trigger) => {
                    let Some(id) = ids.get(i).copied() else { continue };
                    let old = before.segment(id).unwrap().status();
                    let r = t.fire_segment(id, trigger, Timestamp::now());
                    let (from, to) = trigger.rule();
                    let allowed = before.status() == TraceStatus::Running && from.contains(&old);
                    prop_assert_eq!(r.is_ok(), allowed);
                    prop_assert_eq!(t.segment(id).unwrap().status(), if allowed { to } else { old });
                }
            }
            if t.status() == before.status() && t.segments().len() == before.segments().len()
                && t.segments().iter().zip(before.segments()).all(|(a, b)| a.status() == b.status()) {
                prop_assert_eq!(&t, &before, "a refused operation changes nothing");
            }
            let v = Trace::validate_json(t.to_json());
            prop_assert!(v.report.is_empty(), "{:?}", v.report);
            prop_assert_eq!(v.value.unwrap(), t.clone());
        }
    }
}

/// The trace rules' findings of a report (pointer, rule, message and
/// severity each).
fn rule_findings(report: &mplp_core::Report) -> Vec<mplp_core::Violation> {
    report.of_rules(mplp_trace::RULES).cloned().collect()
}

/// Breaks a trace's schema without touching what the rules read: a status
/// outside the enum, a member the schema does not allow, a label that is
/// not a string.
fn break_schema(doc: &mut Value) {
    doc["status"] = json!("bogus");
    doc["unexpected"] = json!(1);
    if let Some(first) = doc["segments"].get_mut(0) {
        first["label"] = json!(5);
    }
}

/// Issue 39, one pass: a trace that fails its schema still gets every
/// trace rule (root span binding, unique ids, existing parents, no cycle,
/// times in order), at the same pointers with the same messages as the
/// same trace without the schema errors, in the byte and value paths.
#[test]
fn trace_rules_run_on_traces_that_fail_their_schema() {
    let mut d = doc(json!([
        seg(1, None),
        seg(1, None),
        seg(2, Some(2)),
        seg(3, Some(9)),
        seg(4, Some(5)),
        seg(5, Some(4)),
    ]));
    d["root_span"]["trace_id"] = json!("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5e");
    d["root_span"]["parent_span_id"] = json!("b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6f");
    d["root_span"]["context_id"] = json!("3f1c2a9e-7b4d-4e2a-9c1f-5a6b7c8d9e02");
    d["started_at"] = json!("2026-01-01T10:00:00Z");
    d["finished_at"] = json!("2026-01-01T09:00:00Z");
    d["segments"][1]["started_at"] = json!("2026-01-01T10:00:00Z");
    d["segments"][1]["finished_at"] = json!("2026-01-01T09:59:59Z");
    let clean = Trace::validate_value(&d).report;
    let want = rule_findings(&clean);
    assert_eq!(
        want.iter()
            .map(|f| format!("{} {}", f.pointer, f.rule))
            .collect::<Vec<_>>(),
        [
            "/root_span/trace_id trace_root_span_binding",
            "/root_span/parent_span_id trace_root_span_binding",
            "/root_span/context_id trace_root_span_binding",
            "/finished_at trace_finished_after_started",
            "/segments/1/segment_id trace_unique_segment_ids",
            "/segments/1/finished_at trace_finished_after_started",
            "/segments/2/parent_segment_id trace_segment_parent_exists",
            "/segments/3/parent_segment_id trace_segment_parent_exists",
            "/segments/4/parent_segment_id trace_segment_tree_acyclic",
            "/segments/5/parent_segment_id trace_segment_tree_acyclic",
        ]
    );
    assert_eq!(clean.violations().len(), want.len(), "{clean:?}");
    break_schema(&mut d);
    for report in [
        Trace::validate_json(d.to_string()).report,
        Trace::validate_value(&d).report,
    ] {
        let schema: Vec<String> = report
            .violations()
            .iter()
            .filter(|v| !mplp_trace::RULES.iter().any(|r| r.rule == v.rule))
            .map(|v| format!("{} {}", v.pointer, v.rule))
            .collect();
        assert_eq!(
            schema,
            [
                "/status enum",
                "/segments/0/label type",
                "/unexpected additional-properties"
            ],
            "{report:?}"
        );
        assert_eq!(rule_findings(&report), want);
    }
}

/// A segment id that cannot be read hides only what it could change: a
/// parent that names no readable segment may name it (not reported), a
/// segment naming itself, a cycle among readable segments and times out
/// of order still are; a parent that cannot be read ends the walk.
#[test]
fn an_unreadable_segment_id_hides_only_unknown_parents() {
    let mut d = doc(json!([
        seg(1, None),
        seg(2, Some(9)),
        seg(3, Some(3)),
        seg(4, Some(5)),
        seg(5, Some(4)),
        seg(6, None),
    ]));
    d["segments"][0]["segment_id"] = json!("not-a-uuid");
    d["segments"][5]["parent_segment_id"] = json!(17);
    d["segments"][5]["started_at"] = json!("2026-01-01T10:00:00Z");
    d["segments"][5]["finished_at"] = json!("2026-01-01T09:00:00Z");
    assert_eq!(
        errors(&d),
        [
            "/segments/0/segment_id pattern",
            "/segments/5/parent_segment_id type",
            "/segments/5/finished_at trace_finished_after_started",
            "/segments/2/parent_segment_id trace_segment_parent_exists",
            "/segments/3/parent_segment_id trace_segment_tree_acyclic",
            "/segments/4/parent_segment_id trace_segment_tree_acyclic",
        ]
    );
}

/// One segment of a generated trace: its id and parent (indices into a
/// pool of ids, where the last names no segment) and its times (seconds).
type GenSegment = (usize, Option<usize>, Option<u8>, Option<u8>);

fn gen_doc(segments: &[GenSegment], root_ok: bool) -> Value {
    let id = |i: usize| format!("7b9d1f3a-5c7e-4a9b-8d1f-3a5c7e9b1d{i:02}");
    let time = |s: u8| format!("2026-01-01T10:00:{s:02}Z");
    let segs: Vec<Value> = segments
        .iter()
        .map(|&(i, parent, started, finished)| {
            let mut v = json!({"segment_id": id(i), "label": "s", "status": "pending"});
            if let Some(p) = parent {
                v["parent_segment_id"] = json!(id(p));
            }
            if let Some(s) = started {
                v["started_at"] = json!(time(s));
            }
            if let Some(f) = finished {
                v["finished_at"] = json!(time(f));
            }
            v
        })
        .collect();
    let mut d = doc(Value::Array(segs));
    if !root_ok {
        d["root_span"]["context_id"] = json!("3f1c2a9e-7b4d-4e2a-9c1f-5a6b7c8d9e02");
    }
    d
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random segment forests (repeated ids, unknown and self parents,
    /// cycles, times in and out of order) broken elsewhere give the clean
    /// trace's rule findings, pointers and messages.
    #[test]
    fn trace_rules_agree_on_random_traces_that_fail_their_schema(
        segments in prop::collection::vec(
            (0usize..8, prop::option::of(0usize..9), prop::option::of(0u8..4), prop::option::of(0u8..4)),
            0..8,
        ),
        root_ok in any::<bool>(),
    ) {
        let mut d = gen_doc(&segments, root_ok);
        let clean = Trace::validate_json(d.to_string()).report;
        let want = rule_findings(&clean);
        prop_assert_eq!(clean.violations().len(), want.len(), "the clean trace fails its schema: {:?}", clean);
        break_schema(&mut d);
        let broken = Trace::validate_json(d.to_string()).report;
        prop_assert!(broken.errors().any(|v| v.pointer == "/status" && v.rule.as_str() == "enum"));
        prop_assert_eq!(rule_findings(&broken), want.clone());
        prop_assert_eq!(rule_findings(&Trace::validate_value(&d).report), want);
    }
}
