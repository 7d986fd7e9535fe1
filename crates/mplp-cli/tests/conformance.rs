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

/// `mplp --version` names the SDK and what it implements of MPLP.
#[test]
fn version_names_the_protocol_and_the_bundles() {
    let o = mplp(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("mplp {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(lines[1], "protocol: MPLP 1.0.0 (frozen 2025-12-03)");
    assert!(
        lines[2].starts_with("schema bundle: 1.0.0 (sha256:78ea3511"),
        "{text}"
    );
    assert_eq!(lines[3], "invariant bundle: 1.0.0 (61 frozen invariants)");
}

/// The global invariants beside the flows are applied, listed in the JSON
/// output, and can be turned off or named.
#[test]
fn global_invariants_are_applied_and_listed() {
    let dir = std::env::temp_dir().join(format!("mplp-cli-globals-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let flows = dir.join("flows");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mplp-conformance/tests/fixtures/flows/good-plan");
    std::fs::create_dir_all(flows.join("good-plan/expected")).unwrap();
    for f in std::fs::read_dir(src.join("expected")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(
            &f,
            flows
                .join("good-plan/expected")
                .join(f.file_name().unwrap()),
        )
        .unwrap();
    }
    std::fs::create_dir_all(dir.join("invariants")).unwrap();
    std::fs::write(
        dir.join("invariants/plan.yaml"),
        "- id: plan_title_is_long\n  path: title\n  rule: min-length(500)\n\
         - id: confirm_is_known\n  path: status\n  rule: one-of([\"approved\"])\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("invariants/confirm.yaml"),
        "- id: confirm_status\n  path: status\n  rule: one-of([\"approved\"])\n",
    )
    .unwrap();
    let flows_arg = flows.to_str().unwrap();
    let o = mplp(&["conformance", "--format", "json", flows_arg]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let checks = v["flows"][0]["checks"].as_array().unwrap();
    let global = checks
        .iter()
        .find(|c| c["name"] == "global invariant plan_title_is_long")
        .unwrap();
    assert_eq!(global["status"], "fail");
    assert_eq!(global["reason"], "from invariants/plan.yaml");
    assert_eq!(
        v["flows"][0]["not_applicable"][0]["invariant"],
        "confirm_status"
    );
    assert_eq!(
        v["global_invariants"]["invariants"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let o = mplp(&["conformance", "--no-global-invariants", flows_arg]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = mplp(&[
        "conformance",
        "--global-invariants",
        dir.join("none").to_str().unwrap(),
        flows_arg,
    ]);
    assert_eq!(o.status.code(), Some(1), "a missing directory is a finding");
    let _ = std::fs::remove_dir_all(&dir);
}
