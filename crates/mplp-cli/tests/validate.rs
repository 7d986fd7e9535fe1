//! End-to-end tests of `mplp validate`: exit codes, output formats, inputs.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{mplp, mplp_stdin, repo, stdout};

#[test]
fn valid_examples_exit_zero() {
    let o = mplp(&["validate", "schemas/examples/valid"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains(" 0 invalid"), "{out}");
    assert!(!out.contains("INVALID"), "{out}");
}

#[test]
fn invalid_examples_exit_one_with_expected_pointer_and_rule_in_json() {
    let o = mplp(&["validate", "--format", "json", "schemas/examples/invalid"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let mut checked = 0;
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["valid"], false, "{line}");
        let file = v["file"].as_str().unwrap();
        assert!(v["kind"].is_string());
        assert!(v["warnings"].is_array());
        let expect_path = repo().join(file.replace(".json", ".expect.json"));
        if let Ok(text) = std::fs::read_to_string(&expect_path) {
            let expect: serde_json::Value = serde_json::from_str(&text).unwrap();
            let errors = v["errors"].as_array().unwrap();
            assert!(
                errors
                    .iter()
                    .any(|e| e["pointer"] == expect["pointer"] && e["rule"] == expect["rule"]),
                "{file}: expected {expect}, got {errors:?}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} files checked");
}

#[test]
fn text_format_has_one_error_a_line_and_a_summary() {
    let o = mplp(&[
        "validate",
        "schemas/examples/invalid/plan--required--missing-status.json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("INVALID (plan)"), "{out}");
    assert!(out.contains("error: /status: [required]"), "{out}");
    assert!(
        out.trim_end()
            .ends_with("1 file checked: 0 valid, 1 invalid; 1 error, 0 warnings"),
        "{out}"
    );
}

#[test]
fn missing_file_is_an_io_error_with_exit_two() {
    let o = mplp(&["validate", "no/such/file.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read `no/such/file.json`"));
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(mplp(&["validate"]).status.code(), Some(2));
    assert_eq!(
        mplp(&["validate", "--kind", "nonsense", "x.json"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(mplp(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn stdin_is_read_with_dash() {
    let plan = std::fs::read(repo().join("schemas/examples/valid/plan-minimal.json")).unwrap();
    let o = mplp_stdin(&["validate", "--format", "json", "-"], &plan);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["file"], "-");
    assert_eq!(v["kind"], "plan");
    assert_eq!(v["valid"], true);
}

#[test]
fn explicit_kind_overrides_detection() {
    let o = mplp(&[
        "validate",
        "--kind",
        "dialog",
        "--format",
        "json",
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["kind"], "dialog");
}

#[test]
fn logs_report_line_numbers() {
    let log =
        std::fs::read_to_string(repo().join("schemas/examples/valid/map-log-round-robin.ndjson"))
            .unwrap();
    let mut lines: Vec<&str> = log.lines().collect();
    lines.insert(2, "{not json");
    let broken = lines.join("\n");
    let o = mplp_stdin(
        &["validate", "--kind", "map-log", "--format", "json", "-"],
        broken.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let errors = v["errors"].as_array().unwrap();
    assert!(
        errors
            .iter()
            .any(|e| e["line"] == 3 && e["rule"] == "json-syntax"),
        "{errors:?}"
    );
}

#[test]
fn pathological_inputs_never_panic() {
    let nested = [vec![b'['; 100_000], vec![b']'; 100_000]].concat();
    let inputs: Vec<&[u8]> = vec![
        b"",
        b"not json",
        b"[1,2]",
        b"\xff\xfe\xfd",
        b"{\"plan_id\": 1, \"plan_id\": 2}",
        &nested,
    ];
    for input in inputs {
        for kind in [
            "auto",
            "plan",
            "dialog",
            "collab",
            "context",
            "confirm",
            "trace",
            "role",
            "map-event",
            "sa-event",
            "event",
            "map-log",
            "sa-log",
        ] {
            let o = mplp_stdin(
                &["validate", "--kind", kind, "--format", "json", "-"],
                input,
            );
            let code = o.status.code();
            assert!(
                matches!(code, Some(0 | 1)),
                "kind {kind}: exit {code:?}, stderr {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let empty_log = input.is_empty() && kind.ends_with("-log");
            if !empty_log {
                assert_eq!(
                    code,
                    Some(1),
                    "kind {kind} accepted {:?}",
                    String::from_utf8_lossy(&input[..input.len().min(20)])
                );
            }
        }
    }
}

#[test]
fn duplicate_keys_are_reported_with_their_pointer() {
    let o = mplp(&[
        "validate",
        "--format",
        "json",
        "schemas/examples/invalid/dialog--duplicate-key--status-twice.json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["errors"][0]["rule"], "duplicate-key");
    assert_eq!(v["errors"][0]["pointer"], "/status");
}

/// `--bundle`: every example bundle gives, per file, exactly the findings of
/// its `bundle.expect.json` (and the valid ones none), with the exit status
/// the errors call for; without `--bundle` the same files are all valid.
#[test]
fn bundle_examples_report_their_broken_binding() {
    let root = repo().join("schemas/examples/bundles");
    for (kind, dir) in ["valid", "invalid"].iter().flat_map(|k| {
        std::fs::read_dir(root.join(k))
            .unwrap()
            .map(move |e| (*k, e.unwrap().path()))
    }) {
        let rel = dir
            .strip_prefix(repo())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let alone = mplp(&["validate", &rel]);
        assert_eq!(
            alone.status.code(),
            Some(0),
            "{rel}: each file is valid alone"
        );
        let o = mplp(&["validate", "--bundle", "--format", "json", &rel]);
        let mut found = Vec::new();
        for line in stdout(&o).lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let file = v["file"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_owned();
            for (severity, key) in [("error", "errors"), ("warning", "warnings")] {
                for e in v[key].as_array().unwrap() {
                    found.push(serde_json::json!({
                        "file": file, "pointer": e["pointer"], "rule": e["rule"], "severity": severity
                    }));
                }
            }
        }
        let expected: Vec<serde_json::Value> = if kind == "valid" {
            Vec::new()
        } else {
            serde_json::from_str(&std::fs::read_to_string(dir.join("bundle.expect.json")).unwrap())
                .unwrap()
        };
        assert_eq!(found, expected, "{rel}");
        let errors = expected.iter().any(|e| e["severity"] == "error");
        assert_eq!(o.status.code(), Some(i32::from(errors)), "{rel}");
    }
}

#[test]
fn bundle_profile_canonical_relaxes_sdk_binding_rules_only() {
    let dir = "schemas/examples/bundles/invalid/bundle_dialog_context_binding--another-context";
    assert_eq!(mplp(&["validate", "--bundle", dir]).status.code(), Some(1));
    let o = mplp(&["validate", "--bundle", "--profile", "canonical", dir]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("warning: /context_id: [bundle_dialog_context_binding]"));
    // A Plan Module rule stays an error.
    let dir = "schemas/examples/bundles/invalid/bundle_plan_context_active--context-suspended";
    let o = mplp(&["validate", "--bundle", "--profile", "canonical", dir]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
}

#[test]
fn bundle_with_a_missing_file_is_an_io_error() {
    let o = mplp(&["validate", "--bundle", "no-such-plan.json"]);
    assert_eq!(o.status.code(), Some(2));
}
