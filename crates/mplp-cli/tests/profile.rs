//! `mplp validate --profile strict|canonical`: SDK rules are errors only in
//! the strict profile (the default); canonical rules are errors in both.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{mplp, mplp_stdin, stdout};

const S: &str = "35e68fcd-928b-41d2-b8ee-b6a4232ea2a3";

fn event(n: u8, event_type: &str, payload: &str) -> String {
    format!(
        r#"{{"event_id":"ca7350a9-f7ff-4c29-b07d-de720544a6a{n}","event_type":"{event_type}","timestamp":"2025-12-07T00:00:00Z","session_id":"{S}","payload":{payload}}}"#
    )
}

/// A session whose only turn is numbered 2 (SDK rule `map_turn_number_sequence`).
fn gap_log(complete: bool) -> String {
    let mut v = vec![
        event(
            0,
            "MAPSessionStarted",
            r#"{"mode":"round_robin","participant_count":1}"#,
        ),
        event(
            1,
            "MAPRolesAssigned",
            r#"{"assignments":[{"participant_id":"p1","role_id":"coder"}]}"#,
        ),
        event(
            2,
            "MAPTurnDispatched",
            r#"{"role_id":"coder","turn_number":2}"#,
        ),
        event(
            3,
            "MAPTurnCompleted",
            r#"{"role_id":"coder","turn_number":2,"status":"completed"}"#,
        ),
    ];
    if complete {
        v.push(event(
            4,
            "MAPSessionCompleted",
            r#"{"status":"completed","turns_total":1}"#,
        ));
    }
    v.join("\n")
}

fn run(profile: Option<&str>, log: &str) -> (Option<i32>, String) {
    let mut args = vec!["validate", "--kind", "map-log"];
    if let Some(p) = profile {
        args.extend(["--profile", p]);
    }
    args.push("-");
    let o = mplp_stdin(&args, log.as_bytes());
    (o.status.code(), stdout(&o))
}

#[test]
fn sdk_rules_are_warnings_under_canonical_only() {
    let (code, out) = run(None, &gap_log(true));
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("error: line 3: /payload/turn_number: [map_turn_number_sequence]"),
        "{out}"
    );
    assert_eq!(run(Some("strict"), &gap_log(true)).0, Some(1));
    let (code, out) = run(Some("canonical"), &gap_log(true));
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("warning: line 3: /payload/turn_number: [map_turn_number_sequence]"),
        "{out}"
    );
}

#[test]
fn canonical_rules_stay_errors() {
    // No MAPSessionCompleted: the MAP events seed's MUST, an error in both profiles.
    for p in ["strict", "canonical"] {
        let (code, out) = run(Some(p), &gap_log(false));
        assert_eq!(code, Some(1), "{p}: {out}");
        assert!(out.contains("[map_session_completed_last]"), "{p}: {out}");
    }
}

#[test]
fn help_names_the_profiles_and_a_bad_one_is_a_usage_error() {
    let o = mplp(&["validate", "--help"]);
    let help = stdout(&o);
    assert!(
        help.contains("--profile") && help.contains("canonical"),
        "{help}"
    );
    assert_eq!(
        mplp(&["validate", "--profile", "lax", "-"]).status.code(),
        Some(2)
    );
}
