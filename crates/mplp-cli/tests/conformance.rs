//! End-to-end tests of `mplp conformance`: exit status, text and JSON output.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{mplp, stdout};

const FLOWS: &str = "crates/mplp-conformance/tests/fixtures/flows";

#[test]
fn exit_status_follows_failures_not_skips() {
    let o = mplp(&["conformance", "--flow", "good-plan", FLOWS]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("1 flow: 1 passed, 0 failed, 0 skipped"));

    let o = mplp(&["conformance", "--flow", "unknown-module", FLOWS]);
    assert_eq!(o.status.code(), Some(0), "skipped is not a failure");
    assert!(stdout(&o).contains("SKIP validate input/workflow.json"));
    assert!(stdout(&o).contains("NOTE: 1 flow was only partly checked"));
    let o = mplp(&[
        "conformance",
        "--deny-skipped",
        "--flow",
        "unknown-module",
        FLOWS,
    ]);
    assert_eq!(o.status.code(), Some(1), "--deny-skipped");
    // Nothing skipped: nothing to deny.
    let o = mplp(&[
        "conformance",
        "--deny-skipped",
        "--flow",
        "good-plan",
        FLOWS,
    ]);
    assert_eq!(o.status.code(), Some(0), "--deny-skipped, no skips");

    let o = mplp(&["conformance", FLOWS]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("6 flows: 2 passed, 3 failed, 1 skipped"));

    let o = mplp(&["conformance", "--flow", "nope", FLOWS]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no flow named `nope`"));
    let o = mplp(&["conformance", "no/such/dir"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn json_output_has_flows_checks_and_a_summary() {
    let o = mplp(&["conformance", "--format", "json", FLOWS]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["summary"],
        serde_json::json!({"flows": 6, "passed": 2, "failed": 3, "skipped": 1})
    );
    let bad = v["flows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "bad-plan")
        .unwrap();
    assert_eq!(bad["status"], "fail");
    assert_eq!(bad["checks"][0]["findings"][0]["pointer"], "/plan_id");
    assert_eq!(bad["checks"][0]["findings"][0]["rule"], "pattern");
}
