//! The example bundles of `schemas/examples/bundles`: every valid bundle
//! gives no finding at all; every invalid one gives exactly the findings of
//! its `bundle.expect.json` (one broken binding, named by the directory's
//! prefix), and every binding rule has an invalid example.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use mplp_core::Severity;
use serde_json::Value;

fn bundles(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples/bundles")
        .join(kind);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no {kind} bundles");
    v
}

fn file_name(p: &str) -> String {
    Path::new(p)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

type Finding = (String, String, String, Severity);

fn findings(dir: &Path) -> BTreeSet<Finding> {
    let report = mplp_check::bundle::check_dir(dir).unwrap();
    report
        .violations()
        .map(|(f, v)| {
            (
                file_name(f),
                v.pointer.clone(),
                v.rule.as_str().to_owned(),
                v.severity,
            )
        })
        .collect()
}

#[test]
fn valid_bundles_have_no_finding() {
    for dir in bundles("valid") {
        let report = mplp_check::bundle::check_dir(&dir).unwrap();
        assert!(report.documents.len() >= 4, "{}", dir.display());
        assert!(report.documents.iter().all(|d| d.kind.is_some()));
        let all: Vec<_> = report.violations().collect();
        assert!(all.is_empty(), "{}: {all:?}", dir.display());
    }
}

#[test]
fn each_invalid_bundle_breaks_the_one_binding_it_names() {
    let mut covered = BTreeSet::new();
    for dir in bundles("invalid") {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let rule = name.split("--").next().unwrap().to_owned();
        let expect: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("bundle.expect.json")).unwrap())
                .unwrap();
        let expected: BTreeSet<Finding> = expect
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let sev = match e["severity"].as_str().unwrap() {
                    "error" => Severity::Error,
                    _ => Severity::Warning,
                };
                (
                    e["file"].as_str().unwrap().to_owned(),
                    e["pointer"].as_str().unwrap().to_owned(),
                    e["rule"].as_str().unwrap().to_owned(),
                    sev,
                )
            })
            .collect();
        assert!(
            expected.iter().all(|f| f.2 == rule),
            "{name}: the sidecar names other rules"
        );
        assert_eq!(findings(&dir), expected, "{name}");
        // Each document is valid alone: only the binding is broken.
        for path in mplp_check::bundle::files_in(&dir).unwrap() {
            let alone = mplp_check::bundle::check_files(&[&path]).unwrap();
            assert!(
                alone
                    .violations()
                    .all(|(_, v)| v.rule.as_str() == "bundle_partner_outside"),
                "{name}: {} is not valid alone",
                path.display()
            );
        }
        covered.insert(rule);
    }
    let mut rules: BTreeSet<String> = mplp_check::bundle::rules()
        .map(|r| r.rule.as_str().to_owned())
        .collect();
    rules.extend(
        [
            "sa_plan_context_binding",
            "sa_trace_context_binding",
            "sa_trace_plan_binding",
        ]
        .map(String::from),
    );
    assert_eq!(
        covered, rules,
        "every binding rule has an invalid example bundle"
    );
}

/// A document with schema errors keeps them, and still answers the
/// references to its id (its other members are not trusted, so the rules
/// that read them are not checked): the confirm and the trace that name an
/// invalid plan are neither broken bindings nor bindings to a partner
/// outside the bundle.
#[test]
fn a_document_with_errors_keeps_them_and_still_answers_to_its_id() {
    let dir = tempdir("broken-plan");
    let valid = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples/bundles/valid/plan-approved-and-running");
    for f in ["context.json", "confirm.json", "trace.json"] {
        std::fs::copy(valid.join(f), dir.join(f)).unwrap();
    }
    let mut plan: Value =
        serde_json::from_str(&std::fs::read_to_string(valid.join("plan.json")).unwrap()).unwrap();
    plan["status"] = "done".into();
    std::fs::write(dir.join("plan.json"), plan.to_string()).unwrap();
    let got = findings(&dir);
    assert!(got.contains(&(
        "plan.json".into(),
        "/status".into(),
        "enum".into(),
        Severity::Error
    )));
    assert!(got.iter().all(|f| f.0 == "plan.json"), "{got:?}");
    // A plan whose id cannot be read answers nothing: for the trace, the
    // bundle then holds no plan at all.
    plan["plan_id"] = 7.into();
    std::fs::write(dir.join("plan.json"), plan.to_string()).unwrap();
    let got = findings(&dir);
    assert!(
        got.iter()
            .any(|f| f.0 == "trace.json" && f.2 == "bundle_partner_outside"),
        "{got:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Context that fails its schema still binds the others through its
/// readable `context_id`: a plan bound to it gets nothing, a plan bound to
/// another Context gets the broken binding (the bundle holds a Context),
/// and nobody is told the bundle holds no Context.
#[test]
fn an_invalid_context_still_binds_through_its_id() {
    let dir = tempdir("broken-context");
    let valid = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples/bundles/valid/context-with-collab-and-dialog");
    for entry in std::fs::read_dir(&valid).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let mut context: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("context.json")).unwrap()).unwrap();
    context["status"] = "sleeping".into();
    std::fs::write(dir.join("context.json"), context.to_string()).unwrap();
    let got = findings(&dir);
    assert!(got.iter().all(|f| f.0 == "context.json"), "{got:?}");
    assert!(got.iter().any(|f| f.1 == "/status"), "{got:?}");
    // The collab now names another Context.
    let mut collab: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("collab.json")).unwrap()).unwrap();
    collab["context_id"] = "6a0c9d3e-2f41-4b7a-9e15-0c8d7b6a5f02".into();
    std::fs::write(dir.join("collab.json"), collab.to_string()).unwrap();
    let got = findings(&dir);
    assert!(
        got.contains(&(
            "collab.json".into(),
            "/context_id".into(),
            "bundle_collab_context_binding".into(),
            Severity::Error
        )),
        "{got:?}"
    );
    let report = mplp_check::bundle::check_dir(&dir).unwrap();
    let msg = report
        .violations()
        .find(|(_, v)| v.rule.as_str() == "bundle_collab_context_binding")
        .map(|(_, v)| v.message.clone())
        .unwrap();
    assert!(msg.contains("context.json` (invalid)"), "{msg}");
    assert!(
        !got.iter().any(|f| f.2 == "bundle_partner_outside"),
        "{got:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unreadable_files_are_load_errors_naming_the_file() {
    let err = mplp_check::bundle::check_files(&["/no/such/plan.json"]).unwrap_err();
    assert!(err.to_string().contains("/no/such/plan.json"));
    assert!(mplp_check::bundle::check_dir(Path::new("/no/such/dir")).is_err());
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mplp-check-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A valid bundle whose files start with a UTF-8 byte-order mark: each file
/// gets the `input-bom` warning and nothing else, as `mplp validate` and
/// `mplp_check::validate_file` give (spec-notes "Byte-order marks").
#[test]
fn byte_order_marks_are_skipped_with_a_warning_per_file() {
    let source = &bundles("valid")[0];
    let dir = std::env::temp_dir().join(format!("mplp-check-bom-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        let mut bytes = mplp_core::document::UTF8_BOM.to_vec();
        bytes.extend(std::fs::read(&path).unwrap());
        std::fs::write(dir.join(path.file_name().unwrap()), bytes).unwrap();
    }
    let found = findings(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!found.is_empty());
    for (file, pointer, rule, severity) in &found {
        assert_eq!(
            (pointer.as_str(), rule.as_str(), *severity),
            ("", "input-bom", Severity::Warning),
            "{file}"
        );
    }
    let files: BTreeSet<_> = found.iter().map(|f| f.0.clone()).collect();
    assert_eq!(files.len(), found.len(), "one warning per file");
}

/// A broken binding's message names the documents it is about, by the
/// names the bundle gives them (in backquotes): every quoted `.json` name is
/// a file of the bundle, and every message but the two about a partner that
/// is not there at all quotes one.
#[test]
fn broken_bindings_name_the_bundle_files_involved() {
    for dir in bundles("invalid") {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let report = mplp_check::bundle::check_dir(&dir).unwrap();
        let files: BTreeSet<String> = report.violations().map(|(f, _)| f.to_owned()).collect();
        let all: BTreeSet<String> = mplp_check::bundle::files_in(&dir)
            .unwrap()
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        assert!(!files.is_empty(), "{name}");
        for (_, v) in report.violations() {
            let quoted: Vec<&str> = v
                .message
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|q| q.ends_with(".json"))
                .collect();
            for q in &quoted {
                assert!(
                    all.contains(*q),
                    "{name}: `{q}` is not a file of the bundle: {}",
                    v.message
                );
            }
            let quotes_none = matches!(
                v.rule.as_str(),
                "bundle_confirm_target" | "bundle_partner_outside"
            );
            assert_eq!(quoted.is_empty(), quotes_none, "{name}: {}", v.message);
        }
    }
}
