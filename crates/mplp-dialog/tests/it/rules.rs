//! Lifecycle, timing rules (spec notes 2-4) and the small helpers.

use mplp_core::{ContextId, Document, Error, Severity, ThreadId, Timestamp};
use mplp_dialog::*;
use serde_json::{Value, json};

use crate::common::ts;

fn base() -> Value {
    json!({
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "dialog_id": "36398c50-7383-4f61-b96f-4525123599da",
        "context_id": "0ddb0a8e-a488-47b1-8fbc-0133d0a359a2",
        "status": "completed",
        "started_at": "2025-12-07T10:00:00+08:00",
        "ended_at": "2025-12-07T02:10:00Z",
        "messages": [
            {"role": "user", "content": "a", "timestamp": "2025-12-07T02:00:00Z"},
            {"role": "assistant", "content": "b", "timestamp": "2025-12-07T10:01:00+08:00"}
        ]
    })
}

/// `(pointer, rule, severity)` of every finding.
fn findings(doc: &Value) -> Vec<(String, &'static str, Severity)> {
    Dialog::validate_json(serde_json::to_vec(doc).unwrap())
        .report
        .into_iter()
        .map(|v| (v.pointer, v.rule.as_str(), v.severity))
        .collect()
}

#[test]
fn consistent_timing_has_no_findings_across_offsets() {
    assert_eq!(findings(&base()), []);
    // A message exactly at ended_at is not after it.
    let mut d = base();
    d["messages"][1]["timestamp"] = json!("2025-12-07T10:10:00+08:00");
    assert_eq!(findings(&d), []);
    // A message at the same instant as the one before it, written at
    // another offset, is not earlier (instants compared, not texts).
    d["messages"][1]["timestamp"] = json!("2025-12-07T10:00:00+08:00");
    assert_eq!(findings(&d), []);
}

#[test]
fn ended_before_started_is_an_error() {
    let mut d = base();
    d["ended_at"] = json!("2025-12-07T01:59:59Z");
    let f = findings(&d);
    assert!(
        f.contains(&(
            "/ended_at".into(),
            "dialog_ended_before_started",
            Severity::Error
        )),
        "{f:?}"
    );
    assert!(!Dialog::validate_json(serde_json::to_vec(&d).unwrap()).is_valid());
}

#[test]
fn open_dialog_with_ended_at_is_an_error() {
    for status in ["active", "paused"] {
        let mut d = base();
        d["status"] = json!(status);
        assert_eq!(
            findings(&d),
            [(
                "/ended_at".into(),
                "dialog_open_with_ended_at",
                Severity::Error
            )],
            "{status}"
        );
    }
}

#[test]
fn ended_dialog_without_ended_at_is_a_warning() {
    for status in ["completed", "cancelled"] {
        let mut d = base();
        d["status"] = json!(status);
        d.as_object_mut().unwrap().remove("ended_at");
        assert_eq!(
            findings(&d),
            [(
                "/ended_at".into(),
                "dialog_ended_without_ended_at",
                Severity::Warning
            )]
        );
        assert!(Dialog::validate_json(serde_json::to_vec(&d).unwrap()).is_valid());
    }
}

#[test]
fn message_after_end_is_a_warning() {
    let mut d = base();
    d["messages"][1]["timestamp"] = json!("2025-12-07T02:10:00.001Z");
    assert_eq!(
        findings(&d),
        [(
            "/messages/1/timestamp".into(),
            "dialog_message_after_end",
            Severity::Warning
        )]
    );
}

#[test]
fn messages_out_of_order_is_a_warning_per_step_back() {
    let mut d = base();
    // 09:59+08:00 is 01:59Z: earlier than message 0 (02:00Z).
    d["messages"][1]["timestamp"] = json!("2025-12-07T09:59:00+08:00");
    assert_eq!(
        findings(&d),
        [(
            "/messages/1/timestamp".into(),
            "dialog_messages_out_of_order",
            Severity::Warning
        )]
    );
}

#[test]
fn add_message_outside_active_is_a_state_error_naming_the_status() {
    let mut d = Dialog::with_system_prompt(ContextId::new(), "sys");
    d.add_message(DialogRole::User, "hi").unwrap();
    d.pause().unwrap();
    let err = d.add_message(DialogRole::User, "again").unwrap_err();
    let Error::State(v) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(v.rule, DIALOG_NOT_ACTIVE);
    assert_eq!(v.pointer, "/status");
    assert_eq!(
        err.to_string(),
        "/status: [dialog_not_active] cannot add a message to a paused dialog: only an active dialog accepts new messages"
    );
    assert_eq!(d.messages().len(), 2);
    d.resume().unwrap();
    d.add_message(DialogRole::User, "again").unwrap();
    d.cancel().unwrap();
    let err = d
        .push_message(Message::now(DialogRole::User, "late"))
        .unwrap_err();
    assert!(err.to_string().contains("cancelled dialog"), "{err}");
}

#[test]
fn ending_sets_ended_at_and_keeps_started_at() {
    let mut d = Dialog::new(ContextId::new());
    let started = d.started_at().cloned();
    assert!(started.is_some());
    d.transition_at(DialogStatus::Paused, ts(5)).unwrap();
    assert_eq!(d.ended_at(), None);
    d.transition_at(DialogStatus::Active, ts(6)).unwrap();
    d.transition_at(DialogStatus::Completed, ts(7)).unwrap();
    assert_eq!(d.ended_at(), Some(&ts(7)));
    assert_eq!(d.started_at(), started.as_ref());
    let err = d.transition_at(DialogStatus::Active, ts(8)).unwrap_err();
    assert!(matches!(err, Error::Transition(_)), "{err:?}");
    assert_eq!(
        (d.status(), d.ended_at().cloned()),
        (DialogStatus::Completed, Some(ts(7)))
    );
}

#[test]
fn new_dialog_is_valid_without_findings() {
    let mut d =
        Dialog::with_system_prompt(ContextId::new(), "You are helpful.").in_thread(ThreadId::new());
    d.add_message(DialogRole::User, "hi").unwrap();
    d.complete().unwrap();
    let v = Dialog::validate_json(d.to_json());
    assert!(v.report.is_empty(), "{:?}", v.report);
    assert_eq!(v.value.unwrap(), d);
    assert_eq!(d.head().unwrap().role, DialogRole::System);
    assert_eq!(d.tail().unwrap().content, "hi");
    assert_eq!(d.meta.created_at.as_ref(), d.started_at());
}

#[test]
fn overview_lists_every_message() {
    let mut d = Dialog::new_at(
        ContextId::new(),
        Timestamp::parse("2025-12-07T00:00:00Z").unwrap(),
    );
    d.push_message(Message::new(DialogRole::System, "sys", ts(0)))
        .unwrap();
    d.push_message(Message::new(DialogRole::Agent, "", ts(1)))
        .unwrap();
    let text = d.overview();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].ends_with("2 messages"), "{text}");
    assert_eq!(
        &lines[1..],
        [
            "started 2025-12-07T00:00:00Z",
            "#0 2025-12-07T00:00:00Z system:",
            "    sys",
            "#1 2025-12-07T00:00:01Z agent:",
            "    (empty)",
        ]
    );
}

#[test]
fn threads_group_in_input_order() {
    let ctx = ContextId::new();
    let (t1, t2) = (ThreadId::new(), ThreadId::new());
    let ds = [
        Dialog::new(ctx).in_thread(t1),
        Dialog::new(ctx).in_thread(t2),
        Dialog::new(ctx),
        Dialog::new(ctx).in_thread(t1),
    ];
    assert!(Threads::group(&ds[2..3]).is_empty());
    let threads = Threads::group(&ds);
    assert_eq!(threads.len(), 2);
    assert!(!threads.is_empty());
    let ids: Vec<_> = threads.thread(&t1).iter().map(|d| d.dialog_id).collect();
    assert_eq!(ids, [ds[0].dialog_id, ds[3].dialog_id]);
    assert_eq!(threads.unthreaded().len(), 1);
    assert_eq!(threads.thread(&ThreadId::new()).len(), 0);
    assert_eq!(dialogs_in_thread(&ds, t2).count(), 1);
    assert_eq!(threads.iter().map(|(_, d)| d.len()).sum::<usize>(), 3);
}

/// The timing rules' findings of a report (pointer, rule, message and
/// severity each).
fn rule_findings(report: &mplp_core::Report) -> Vec<mplp_core::Violation> {
    report
        .of_rules(mplp_dialog::rules::RULES)
        .cloned()
        .collect()
}

/// Breaks a dialog's schema without touching what the timing rules read:
/// a member the schema does not allow, a message role outside the enum.
fn break_schema(doc: &mut Value) {
    doc["unexpected"] = json!(1);
    if let Some(first) = doc["messages"].get_mut(0) {
        first["role"] = json!("bogus");
    }
}

/// Issue 39, one pass: a dialog that fails its schema still gets every
/// timing rule, with the pointer and message of the clean pass.
#[test]
fn timing_rules_run_on_dialogs_that_fail_their_schema() {
    let mut d = base();
    d["status"] = json!("active");
    d["ended_at"] = json!("2025-12-07T01:00:00Z");
    d["messages"][1]["timestamp"] = json!("2025-12-07T01:30:00Z");
    let clean = Dialog::validate_json(d.to_string()).report;
    let want = rule_findings(&clean);
    assert_eq!(
        want.iter()
            .map(|f| format!("{} {}", f.pointer, f.rule))
            .collect::<Vec<_>>(),
        [
            "/ended_at dialog_ended_before_started",
            "/ended_at dialog_open_with_ended_at",
            "/messages/0/timestamp dialog_message_after_end",
            "/messages/1/timestamp dialog_messages_out_of_order",
            "/messages/1/timestamp dialog_message_after_end",
        ]
    );
    break_schema(&mut d);
    for report in [
        Dialog::validate_json(d.to_string()).report,
        Dialog::validate_value(&d).report,
    ] {
        assert!(
            report
                .errors()
                .any(|v| v.pointer == "/unexpected" && v.rule.as_str() == "additional-properties"),
            "{report:?}"
        );
        assert!(report.errors().any(|v| v.pointer == "/messages/0/role"));
        assert_eq!(rule_findings(&report), want);
    }
}

/// What cannot be read hides only the findings it could change: an
/// `ended_at` that is not a date-time hides every rule that reads it (its
/// value is in their messages), a status outside the enum hides the rules
/// on the status, and a message time that cannot be read hides only the
/// comparisons it takes part in.
#[test]
fn unread_times_hide_only_the_findings_they_could_change() {
    let mut d = base();
    d["ended_at"] = json!("yesterday");
    d["messages"] = json!([
        {"role": "user", "content": "a", "timestamp": "2025-12-07T03:00:00Z"},
        {"role": "user", "content": "b", "timestamp": 7},
        {"role": "user", "content": "c", "timestamp": "2025-12-07T02:00:00Z"},
        {"role": "user", "content": "d", "timestamp": "2025-12-07T01:00:00Z"},
    ]);
    let rules: Vec<(String, &str, Severity)> = findings(&d)
        .into_iter()
        .filter(|f| f.1.starts_with("dialog_"))
        .collect();
    assert_eq!(
        rules,
        [(
            "/messages/3/timestamp".to_owned(),
            "dialog_messages_out_of_order",
            Severity::Warning
        )]
    );
    // A completed dialog without ended_at is warned whatever else fails;
    // one whose status cannot be read is not.
    let mut d = base();
    d.as_object_mut().unwrap().remove("ended_at");
    d["dialog_id"] = json!("nope");
    assert!(findings(&d).contains(&(
        "/ended_at".to_owned(),
        "dialog_ended_without_ended_at",
        Severity::Warning
    )));
    d["status"] = json!("over");
    assert!(!findings(&d).iter().any(|f| f.1.starts_with("dialog_")));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Random statuses, start and end times and message times, broken
    /// elsewhere, give the clean dialog's timing findings, pointers and
    /// messages, in the byte and value paths.
    #[test]
    fn timing_rules_agree_on_random_dialogs_that_fail_their_schema(
        status in proptest::sample::select(DialogStatus::ALL.to_vec()),
        started in proptest::option::of(0u8..6),
        ended in proptest::option::of(0u8..6),
        times in proptest::collection::vec(0u8..6, 0..6),
    ) {
        let time = |m: u8| format!("2025-12-07T02:0{m}:00Z");
        let mut d = base();
        d["status"] = json!(status.to_string());
        let obj = d.as_object_mut().unwrap();
        obj.remove("started_at");
        obj.remove("ended_at");
        if let Some(s) = started {
            d["started_at"] = json!(time(s));
        }
        if let Some(e) = ended {
            d["ended_at"] = json!(time(e));
        }
        d["messages"] = times
            .iter()
            .map(|&m| json!({"role": "user", "content": "x", "timestamp": time(m)}))
            .collect();
        let clean = Dialog::validate_json(d.to_string()).report;
        let want = rule_findings(&clean);
        proptest::prop_assert_eq!(clean.violations().len(), want.len(), "the clean dialog fails its schema: {:?}", clean);
        break_schema(&mut d);
        let broken = Dialog::validate_json(d.to_string()).report;
        proptest::prop_assert!(!broken.is_valid());
        proptest::prop_assert_eq!(rule_findings(&broken), want.clone());
        proptest::prop_assert_eq!(rule_findings(&Dialog::validate_value(&d).report), want);
    }
}
