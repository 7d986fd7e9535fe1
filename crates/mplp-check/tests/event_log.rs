//! The module event and the event log: runtime evidence as NDJSON whose
//! lines are events of any kind, each validated as its own kind.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use mplp_check::{Options, Source, validate_source};
use mplp_core::Report;
use serde_json::{Value, json};

fn example(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples/valid")
        .join(name);
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn module_event(id: &str, event_type: &str) -> Value {
    json!({
        "event_id": id,
        "event_type": event_type,
        "source": "runtime.ael",
        "timestamp": "2026-03-02T09:15:00Z",
        "trace_id": "8a4e1c2d-7b3f-4d9e-a5c6-1f0e2d3c4b5a",
        "data": null
    })
}

fn ndjson(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// (kind, [(line, pointer, rule)] of the errors) of a `.ndjson` file.
fn check_file(text: &str) -> (String, Vec<(u64, String, String)>) {
    let mut report = Report::new();
    let checked = validate_source(
        None,
        Source::file("evidence.ndjson", None, text.as_bytes()),
        &Options::default(),
        &mut report,
    );
    let errors = report
        .errors()
        .map(|v| (v.line.unwrap_or(0), v.pointer.clone(), v.rule.to_string()))
        .collect();
    (checked.kind.unwrap().name.to_owned(), errors)
}

#[test]
fn a_module_event_is_its_own_kind_not_a_trace() {
    let event = module_event(
        "3f6c2a1e-9b4d-4e7a-8c5f-2d1e0b9a7c64",
        "trace.snapshot.created",
    );
    let (kind, report) = mplp_check::validate_bytes(None, event.to_string().as_bytes());
    assert_eq!(kind.unwrap().name, "module-event");
    assert!(report.is_empty(), "{report:?}");
    // Its schema's rules: the event type pattern, and no other member.
    let mut bad = event.clone();
    bad["event_type"] = "Trace Snapshot".into();
    bad["extra"] = 1.into();
    let (kind, report) = mplp_check::validate_bytes(None, bad.to_string().as_bytes());
    assert_eq!(kind.unwrap().name, "module-event");
    let errors: Vec<(String, String)> = report
        .errors()
        .map(|v| (v.pointer.clone(), v.rule.to_string()))
        .collect();
    assert_eq!(
        errors,
        [
            ("/event_type".to_owned(), "pattern".to_owned()),
            ("/extra".to_owned(), "additional-properties".to_owned())
        ]
    );
}

#[test]
fn runtime_evidence_of_every_family_is_an_event_log() {
    let lines = [
        module_event("3f6c2a1e-9b4d-4e7a-8c5f-2d1e0b9a7c64", "execution.started"),
        example("tool-event-eslint.json"),
        example("file-update-event-rename.json"),
        example("event-runtime-execution.json"),
        example("git-event-merge.json"),
        example("ci-event-github-actions.json"),
        example("learning-sample-intent-resolution.json"),
        example("map-event-turn-dispatched.json"),
        module_event(
            "5b7d9f1a-3c5e-4a7b-9d1f-6e8a0c2b4d6f",
            "execution.completed",
        ),
    ];
    let (kind, errors) = check_file(&ndjson(&lines));
    assert_eq!(kind, "event-log");
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn three_tool_events_are_three_valid_lines() {
    // Issue 39: three valid tool events gave 42 errors when read as a MAP log.
    let tool = example("tool-event-minimal.json");
    let (kind, errors) = check_file(&ndjson(&[tool.clone(), tool.clone(), tool]));
    assert_eq!(kind, "event-log");
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn each_line_is_judged_as_its_kind_at_its_line() {
    let mut tool = example("tool-event-minimal.json");
    tool["status"] = "exploded".into();
    let plan = example("plan-minimal.json");
    let id = "3f6c2a1e-9b4d-4e7a-8c5f-2d1e0b9a7c64";
    let lines = [
        module_event(id, "execution.started"),
        tool,
        plan,
        module_event(id, "execution.completed"),
    ];
    let text = format!("{}\n{{not json\n", ndjson(&lines).trim_end());
    let (kind, errors) = check_file(&text);
    assert_eq!(kind, "event-log");
    let rules: Vec<(u64, &str, &str)> = errors
        .iter()
        .map(|(l, p, r)| (*l, p.as_str(), r.as_str()))
        .collect();
    assert_eq!(
        rules,
        [
            (2, "/status", "integration_tool_status_valid"),
            (3, "", "unknown-kind"),
            (4, "/event_id", "log_unique_event_ids"),
            (5, "", "json-syntax"),
        ],
        "{errors:?}"
    );
}

#[test]
fn the_first_lines_choose_the_log_kind() {
    let cases = [
        (ndjson(&[example("tool-event-minimal.json")]), "event-log"),
        (
            ndjson(&[
                example("map-event-session-started.json"),
                example("tool-event-minimal.json"),
            ]),
            "map-log",
        ),
        (ndjson(&[example("sa-event-initialized.json")]), "sa-log"),
        // Nothing readable: a MAP log, as before.
        ("garbage\n{\n".to_owned(), "map-log"),
        // An unreadable first line does not decide.
        (
            format!("oops\n{}", ndjson(&[example("sa-event-initialized.json")])),
            "sa-log",
        ),
    ];
    for (text, want) in cases {
        let mut reader = std::io::Cursor::new(text.as_bytes());
        assert_eq!(
            mplp_check::detect_log(&mut reader).unwrap().name,
            want,
            "{text}"
        );
    }
    // A nameless stream: sniffed as a log, then its kind.
    let tools = ndjson(&[
        example("tool-event-minimal.json"),
        example("tool-event-eslint.json"),
    ]);
    let mut report = Report::new();
    let checked = validate_source(
        None,
        Source::stream("-", tools.as_bytes()),
        &Options::default(),
        &mut report,
    );
    assert_eq!(checked.kind.unwrap().name, "event-log");
    assert!(report.is_empty(), "{report:?}");
}
