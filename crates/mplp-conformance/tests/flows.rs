//! The runner on small flows written for these tests (`tests/fixtures/flows/`),
//! and on the published golden flows when `../shared` is present.
// Test helpers outside #[test] functions may unwrap too: a failure is a failing test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

#[path = "support/write_tree.rs"]
mod write_tree;

use mplp_conformance::{FlowReport, RunError, Status, run_dir, run_flow};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/flows")
}

fn flow(name: &str) -> FlowReport {
    run_flow(&fixtures().join(name))
}

/// (pointer, rule) of every finding of check `check`, which must exist and fail.
fn failures(report: &FlowReport, check: &str) -> Vec<(String, String)> {
    let c = report
        .checks
        .iter()
        .find(|c| c.name == check)
        .unwrap_or_else(|| panic!("no check {check} in {}", report.name));
    assert_eq!(c.status, Status::Fail, "{check}: {c:?}");
    c.findings
        .iter()
        .map(|f| (f.pointer.clone(), f.rule.clone()))
        .collect()
}

fn pointers(report: &FlowReport, check: &str) -> Vec<String> {
    let rule = check.strip_prefix("invariant ").unwrap_or(check);
    failures(report, check)
        .into_iter()
        .map(|(p, r)| {
            if check.starts_with("invariant ") {
                assert_eq!(r, rule, "the finding carries the invariant id");
            }
            p
        })
        .collect()
}

#[test]
fn every_rule_kind_holds_on_the_good_flow() {
    let r = flow("good-plan");
    for c in &r.checks {
        assert_eq!(c.status, Status::Pass, "{}: {:?}", c.name, c.findings);
    }
    assert_eq!(r.status, Status::Pass);
    // validate input/plan.json, expected/plan.json, expected/collab.json,
    // bundle input/ and expected/ + 16 invariants
    assert_eq!(r.checks.len(), 3 + 2 + 16);
    // No Context in the flow: the bindings are warnings, not failures.
    let bundle = r
        .checks
        .iter()
        .find(|c| c.name == "bundle expected/")
        .unwrap();
    let found: Vec<(&str, &str, &str)> = bundle
        .warnings
        .iter()
        .map(|w| (w.file.as_str(), w.pointer.as_str(), w.rule.as_str()))
        .collect();
    let outside = "bundle_partner_outside";
    assert_eq!(
        found,
        [
            ("expected/collab.json", "/context_id", outside),
            ("expected/plan.json", "/context_id", outside),
            ("expected/plan.json", "/status", outside),
        ]
    );
}

#[test]
fn each_rule_kind_fails_where_it_should() {
    let r = flow("bad-invariants");
    assert_eq!(r.status, Status::Fail);
    let steps = |leaf: &str, idx: &[usize]| -> Vec<String> {
        idx.iter().map(|i| format!("/steps/{i}/{leaf}")).collect()
    };
    assert_eq!(
        pointers(&r, "invariant bad_uuid"),
        steps("agent_role", &[0, 1, 2, 3, 4])
    );
    assert_eq!(
        pointers(&r, "invariant bad_non_empty"),
        ["/steps/0/dependencies"]
    );
    assert_eq!(
        pointers(&r, "invariant bad_exists"),
        ["/meta/no_such_member"]
    );
    assert_eq!(pointers(&r, "invariant bad_iso"), ["/title"]);
    assert_eq!(
        pointers(&r, "invariant bad_positive"),
        ["/steps/0/order_index"]
    );
    assert_eq!(pointers(&r, "invariant bad_min_length"), ["/steps"]);
    assert_eq!(pointers(&r, "invariant bad_enum"), ["/steps/2/status"]);
    assert_eq!(pointers(&r, "invariant bad_eq_ref"), ["/title"]);
    assert_eq!(pointers(&r, "invariant bad_eq_literal"), ["/status"]);
    assert_eq!(pointers(&r, "invariant bad_eq_target_missing"), [""]);
    assert_eq!(pointers(&r, "invariant bad_exists_filter"), [""]);
    assert_eq!(
        pointers(&r, "invariant bad_compare"),
        steps("agent_role", &[0, 1, 3])
    );
    assert_eq!(pointers(&r, "invariant bad_unknown_kind"), [""]);
    assert_eq!(pointers(&r, "invariant bad_scope"), [""]);
    assert_eq!(
        pointers(&r, "invariant bad_missing_member"),
        steps("no_such_member", &[0, 1, 2, 3, 4])
    );
    let unknown = r
        .checks
        .iter()
        .find(|c| c.name == "invariant bad_unknown_kind")
        .map(|c| c.findings[0].message.clone())
        .unwrap_or_default();
    assert!(unknown.contains("unknown rule kind `is-even`"), "{unknown}");
    // Each finding names the file of its scope; a scope without a document
    // is named in parentheses.
    for c in r.checks.iter().filter(|c| c.name.starts_with("invariant ")) {
        let want = match c.name.as_str() {
            "invariant bad_scope" => "(confirm)",
            "invariant bad_eq_ref" => "expected/collab.json",
            _ => "expected/plan.json",
        };
        assert!(
            c.findings.iter().all(|f| f.file == want),
            "{}: {:?}",
            c.name,
            c.findings
        );
    }
    // The documents themselves are valid (and their bundle): only the invariants fail.
    assert_eq!(r.count(Status::Pass), 3);
}

#[test]
fn a_stem_no_kind_is_named_after_is_skipped_with_its_reason_never_passed() {
    let r = flow("unknown-module");
    assert_eq!(r.status, Status::Skipped);
    let c = &r.checks[0];
    assert_eq!(c.status, Status::Skipped);
    assert!(
        c.reason.as_deref().unwrap_or("").contains("`workflow`"),
        "{c:?}"
    );
}

#[test]
fn an_invalid_document_fails_with_the_sdk_rule() {
    let r = flow("bad-plan");
    assert_eq!(r.status, Status::Fail);
    assert_eq!(
        failures(&r, "validate expected/plan.json"),
        [("/plan_id".to_owned(), "pattern".to_owned())]
    );
}

#[test]
fn a_broken_binding_between_documents_fails_the_flow() {
    // Outside `fixtures/flows` (whose flow counts other tests pin).
    let r = run_flow(&fixtures().join("../broken-binding"));
    assert_eq!(r.status, Status::Fail);
    // Each document is valid alone.
    for c in r.checks.iter().filter(|c| c.name.starts_with("validate ")) {
        assert_eq!(c.status, Status::Pass, "{c:?}");
    }
    assert_eq!(
        failures(&r, "bundle input/"),
        [(
            "/context_id".to_owned(),
            "sa_plan_context_binding".to_owned()
        )]
    );
}

#[test]
fn a_good_pack_passes() {
    let r = flow("good-pack");
    for c in &r.checks {
        assert_eq!(c.status, Status::Pass, "{}: {:?}", c.name, c.findings);
    }
    assert!(r.checks.iter().any(|c| c.name == "pack integrity"));
    assert!(
        r.checks
            .iter()
            .any(|c| c.name == "invariant tool_call_data")
    );
}

#[test]
fn a_bad_pack_fails_on_manifest_timeline_and_integrity() {
    let r = flow("bad-pack");
    assert_eq!(
        failures(&r, "pack manifest"),
        [("/flow_id".into(), "pack-manifest".into())]
    );
    let c = r.checks.iter().find(|c| c.name == "pack timeline").unwrap();
    let got: Vec<(Option<u64>, &str)> = c
        .findings
        .iter()
        .map(|f| (f.line, f.rule.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Some(2), "pack-timeline-event"),
            (Some(2), "pack-timeline-parent"),
            (Some(4), "pack-timeline-unique-event-ids"),
            (Some(5), "json-syntax"),
        ]
    );
    let c = r
        .checks
        .iter()
        .find(|c| c.name == "pack integrity")
        .unwrap();
    let msgs: Vec<&str> = c.findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(msgs.len(), 6, "{msgs:#?}");
    assert!(
        msgs[0].starts_with("`artifacts/trace.json`: sha256 is 8c878f8c"),
        "{}",
        msgs[0]
    );
    assert!(msgs[1].contains("not a relative path inside the pack"));
    assert!(msgs[2].contains("sha256sum format"));
    assert!(msgs[3].contains("listed twice"));
    assert!(msgs[4].contains("`artifacts/notes.txt` is in the pack but not in the integrity list"));
    assert!(msgs[5].contains("`timeline/events.ndjson`"));
    // The invariants still hold: the pack checks are separate.
    assert!(
        r.checks
            .iter()
            .filter(|c| c.name.starts_with("invariant"))
            .all(|c| c.status == Status::Pass)
    );
}

#[test]
fn a_run_counts_flows_and_filters_by_name() {
    let all = run_dir(&fixtures(), None).unwrap();
    let names: Vec<&str> = all.flows.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "bad-invariants",
            "bad-pack",
            "bad-plan",
            "good-pack",
            "good-plan",
            "unknown-module"
        ]
    );
    assert_eq!(
        (
            all.count(Status::Pass),
            all.count(Status::Fail),
            all.count(Status::Skipped)
        ),
        (2, 3, 1)
    );
    assert!(!all.no_failures());
    let text = all.to_text();
    assert!(
        text.contains("6 flows: 2 passed, 3 failed, 1 skipped"),
        "{text}"
    );
    assert!(
        text.contains("NOTE: 1 flow was only partly checked (SKIPPED above, with reasons)"),
        "{text}"
    );
    let one = run_dir(&fixtures(), Some("good-plan")).unwrap();
    assert!(one.all_passed());
    let text = one.to_text();
    assert!(
        text.contains("1 flow: 1 passed, 0 failed, 0 skipped"),
        "{text}"
    );
    assert!(!text.contains("NOTE"), "{text}");
    let skipped = run_dir(&fixtures(), Some("unknown-module")).unwrap();
    assert!(skipped.no_failures() && !skipped.all_passed());
    match run_dir(&fixtures(), Some("nope")) {
        Err(RunError::NoSuchFlow { available, .. }) => assert_eq!(available.len(), 6),
        other => panic!("{other:?}"),
    }
    let e = run_dir(&fixtures(), Some("nope")).unwrap_err().to_string();
    assert_eq!(
        e,
        "no flow named `nope`; the flows are: bad-invariants, bad-pack, bad-plan, \
         good-pack, good-plan, unknown-module"
    );
    let missing = fixtures().join("no-such-dir");
    let e = run_dir(&missing, None).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("cannot read `{}`: ", missing.display())),
        "{e}"
    );
    // A flow directory given directly is run alone.
    assert_eq!(
        run_dir(&fixtures().join("good-pack"), None)
            .unwrap()
            .flows
            .len(),
        1
    );
}

#[test]
fn invariants_file_errors_are_reported_not_ignored() {
    let bad = "invariants:\n  - id: x\n    scope: plan\n  - 7\n  - id: y\n    scope: plan\n    rule: [1]\n";
    let e = mplp_conformance::invariants::parse_invariants(bad, "invariants.yaml").unwrap_err();
    let at: Vec<&str> = e.iter().map(|f| f.pointer.as_str()).collect();
    assert_eq!(
        at,
        ["/invariants/0/rule", "/invariants/1", "/invariants/2/rule"]
    );
    assert!(mplp_conformance::invariants::parse_invariants("a: [", "f").is_err());
    assert!(
        mplp_conformance::invariants::parse_invariants("", "f")
            .unwrap()
            .is_empty()
    );
}

/// The published golden flows: none fails. (Which are skipped, and why, is
/// printed by `mplp conformance`; CI runs it.)
#[test]
fn published_golden_flows_do_not_fail() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/reference/mplp-v1.0.0/golden/flows");
    if !dir.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: the golden flows are missing at {}",
            dir.display()
        );
        eprintln!("SKIPPED: golden flows not found at {}", dir.display());
        return;
    }
    let report = run_dir(&dir, None).unwrap();
    assert_eq!(report.flows.len(), 10);
    for f in &report.flows {
        // Every flow checked in full (none skipped for a missing module), and passing.
        assert_eq!(f.status, Status::Pass, "{}", report.to_text());
        let bundles = f
            .checks
            .iter()
            .filter(|c| c.name.starts_with("bundle "))
            .count();
        let dirs = ["input", "expected"]
            .iter()
            .filter(|d| dir.join(&f.name).join(d).is_dir())
            .count();
        assert_eq!(bundles, dirs, "{}", f.name);
    }
    // FLOW-05: the approved Confirm has not been applied to the draft plan.
    let flow05 = report
        .flows
        .iter()
        .find(|f| f.name.starts_with("flow-05"))
        .unwrap();
    let applied: Vec<(&str, &str)> = flow05
        .checks
        .iter()
        .flat_map(|c| &c.warnings)
        .filter(|w| w.rule.starts_with("bundle_"))
        .map(|w| (w.file.as_str(), w.rule.as_str()))
        .collect();
    assert_eq!(applied, [("expected/plan.json", "bundle_confirm_applied")]);
    let tool = report
        .flows
        .iter()
        .find(|f| f.name == "tool-call-flow")
        .unwrap();
    assert_eq!(tool.status, Status::Pass, "{}", report.to_text());
}

/// Every document kind of the one kinds table is validated by its name,
/// without a table of the runner's own: an invalid `network.json` fails with
/// the SDK's finding, a valid one passes (extension, network and core were
/// once listed as "not yet" here after the SDK had gained them).
#[test]
fn every_kind_of_the_kinds_table_is_validated_by_its_file_stem() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples/valid");
    let root = std::env::temp_dir().join(format!("mplp-conf-kinds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (flow, file, bytes) in [
        (
            "good-network",
            "network.json",
            std::fs::read(examples.join("network-draft-minimal.json")).unwrap(),
        ),
        (
            "bad-network",
            "network.json",
            br#"{"context_id": "2530dc8f-0e8c-4a00-994e-7a9146b010c2", "status": "active"}"#
                .to_vec(),
        ),
        (
            "good-integration",
            "integration.json",
            std::fs::read(examples.join("tool-event-eslint.json")).unwrap(),
        ),
    ] {
        let input = root.join(flow).join("input");
        std::fs::create_dir_all(&input).unwrap();
        std::fs::write(input.join(file), bytes).unwrap();
    }
    let status = |name: &str| {
        let r = run_dir(&root, Some(name)).unwrap();
        let f = &r.flows[0];
        (f.status, f.checks[0].status, f.checks[0].findings.len())
    };
    assert_eq!(status("good-network"), (Status::Pass, Status::Pass, 0));
    let (flow, check, findings) = status("bad-network");
    assert_eq!((flow, check), (Status::Fail, Status::Fail));
    assert!(findings > 0);
    assert_eq!(status("good-integration"), (Status::Pass, Status::Pass, 0));
    let _ = std::fs::remove_dir_all(&root);
}

/// A flow written for one test in a fresh temporary directory.
fn temp_flow(name: &str, files: &[(&str, &str)]) -> PathBuf {
    write_tree::write_tree("conformance", name, files)
}

#[test]
fn a_file_no_kind_is_named_after_is_still_checked_for_json_syntax() {
    let dir = temp_flow(
        "unknown-stems",
        &[
            ("input/notes.json", "{\"a\": 1,}"),
            ("input/workflow.json", "{\"a\": 1}"),
            ("input/steps.ndjson", "not json either\n"),
        ],
    );
    let r = run_flow(&dir);
    assert_eq!(
        failures(&r, "validate input/notes.json"),
        [(String::new(), "json-syntax".to_owned())]
    );
    for skipped in [
        "validate input/workflow.json",
        "validate input/steps.ndjson",
    ] {
        let c = r.checks.iter().find(|c| c.name == skipped).unwrap();
        assert_eq!(c.status, Status::Skipped, "{c:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn findings_and_statuses_are_shown_as_written() {
    use mplp_conformance::Finding;
    let f = Finding::new(
        "expected/plan.json",
        "/steps/0",
        "bad_uuid",
        "expected a UUID",
    );
    assert_eq!(
        f.to_string(),
        "expected/plan.json /steps/0: [bad_uuid] expected a UUID"
    );
    let f = Finding::new("pack/timeline/events.ndjson", "", "json-syntax", "not JSON").at_line(4);
    assert_eq!(
        f.to_string(),
        "pack/timeline/events.ndjson:4 (document): [json-syntax] not JSON"
    );
    for (status, name) in [
        (Status::Pass, "pass"),
        (Status::Skipped, "skipped"),
        (Status::Fail, "fail"),
    ] {
        assert_eq!(status.as_str(), name);
        assert_eq!(serde_json::to_value(status).unwrap(), name);
    }
}
