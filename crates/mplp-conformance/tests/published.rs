//! What MPLP v1.0.0 published beside its schemas, read from
//! `../shared/reference/mplp-v1.0.0` (skipped loudly when it is absent,
//! failed when `CI` is set): the global golden invariants, the normative
//! examples, the frozen invariants' ids, the kernel duties and the schema
//! bundle's manifest.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use mplp_conformance::invariants::{evaluate, parse_global_invariants, parse_invariants};
use mplp_conformance::{GlobalInvariants, RunOptions, Scopes, Status, run_dir_with};
use serde_json::{Value, json};
use yaml_rust2::{Yaml, YamlLoader};

fn reference() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference/mplp-v1.0.0");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but {} is missing",
        dir.display()
    );
    eprintln!("!!!!!!!! SKIPPED: {} is missing !!!!!!!!", dir.display());
    None
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

/// The published golden flows pass with the global invariants applied as
/// the reference harness applies them (its own report: every flow passes),
/// and the JSON report lists each global invariant evaluated.
#[test]
fn the_golden_flows_pass_with_the_global_invariants() {
    let Some(root) = reference() else { return };
    let report = run_dir_with(&root.join("golden/flows"), &RunOptions::default()).unwrap();
    assert_eq!(report.flows.len(), 10);
    for flow in &report.flows {
        assert_ne!(
            flow.status,
            Status::Fail,
            "{}: {:#?}",
            flow.name,
            flow.checks
        );
    }
    let globals = report.global_invariants.as_ref().unwrap();
    let published: usize = yaml_files(&root.join("golden/invariants"))
        .iter()
        .map(|f| {
            YamlLoader::load_from_str(&std::fs::read_to_string(f).unwrap()).unwrap()[0]
                .as_vec()
                .unwrap()
                .len()
        })
        .sum();
    assert_eq!(globals.invariants.len(), published);
    // Flow 5 has every scope: each global invariant is a check of it.
    let flow5 = report
        .flows
        .iter()
        .find(|f| f.name == "flow-05-single-agent-confirm-required")
        .unwrap();
    for id in &globals.invariants {
        let check = flow5
            .checks
            .iter()
            .find(|c| c.name == format!("global invariant {id}"))
            .unwrap_or_else(|| panic!("flow 5 did not evaluate {id}"));
        assert_eq!(check.status, Status::Pass, "{check:?}");
    }
    assert!(flow5.not_applicable.is_empty());
    // Flow 1 has no Confirm and no Trace: their invariants do not apply.
    let flow1 = &report.flows[0];
    let na: Vec<&str> = flow1
        .not_applicable
        .iter()
        .map(|n| n.invariant.as_str())
        .collect();
    assert!(na.contains(&"status_must_be_valid_enum"), "{na:?}");
    assert!(na.contains(&"root_span_trace_id_match"), "{na:?}");
    assert!(!na.contains(&"plan_id_must_be_uuid"), "{na:?}");
    // The JSON form carries them.
    let text = serde_json::to_value(&report.flows[0]).unwrap();
    assert!(
        text["not_applicable"][0]["source"]
            .as_str()
            .unwrap()
            .starts_with("invariants/")
    );
    // Off: no global invariant is applied.
    let off = run_dir_with(
        &root.join("golden/flows"),
        &RunOptions {
            global_invariants: GlobalInvariants::Off,
            ..RunOptions::default()
        },
    )
    .unwrap();
    assert!(off.global_invariants.is_none());
    assert!(off.flows.iter().all(|f| {
        f.checks
            .iter()
            .all(|c| !c.name.starts_with("global invariant"))
    }));
}

/// Every rule form of every published invariant file is implemented: a
/// rule the interpreter cannot read would be a finding "cannot evaluate".
#[test]
fn every_published_rule_form_is_implemented() {
    let Some(root) = reference() else { return };
    let mut all = Vec::new();
    for file in yaml_files(&root.join("golden/invariants")) {
        let scope = file.file_stem().unwrap().to_str().unwrap().to_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        all.extend(parse_global_invariants(&text, "g", &scope).unwrap());
    }
    for flow in std::fs::read_dir(root.join("golden/flows")).unwrap() {
        let file = flow.unwrap().path().join("invariants.yaml");
        if file.is_file() {
            let text = std::fs::read_to_string(&file).unwrap();
            all.extend(parse_invariants(&text, "f").unwrap());
        }
    }
    assert!(all.len() > 40, "{}", all.len());
    let mut scopes = Scopes::new();
    for inv in &all {
        scopes.insert(inv.scope.clone(), json!({}));
    }
    for inv in &all {
        for f in evaluate(inv, &scopes, &|s| s.to_owned()) {
            assert!(
                !f.message.contains("cannot evaluate"),
                "{}: {}",
                inv.id,
                f.message
            );
        }
    }
}

fn confirm_invariants(root: &Path) -> Vec<mplp_conformance::Invariant> {
    let text = std::fs::read_to_string(root.join("golden/invariants/confirm.yaml")).unwrap();
    parse_global_invariants(&text, "invariants/confirm.yaml", "confirm").unwrap()
}

fn findings(invariants: &[mplp_conformance::Invariant], id: &str, confirm: Value) -> Vec<String> {
    let inv = invariants.iter().find(|i| i.id == id).unwrap();
    let mut scopes = Scopes::new();
    scopes.insert("confirm".into(), confirm);
    scopes.insert("plan".into(), json!({"plan_id": "p"}));
    evaluate(inv, &scopes, &|s| s.to_owned())
        .into_iter()
        .map(|f| format!("{} {}", f.pointer, f.message))
        .collect()
}

/// `one-of([...])` and `if(status == "rejected", non-empty-string)`, the two
/// forms the harness itself never evaluates, judge as their text says.
#[test]
fn one_of_and_if_judge_as_written() {
    let Some(root) = reference() else { return };
    let inv = confirm_invariants(&root);
    assert!(
        findings(
            &inv,
            "status_must_be_valid_enum",
            json!({"status": "approved"})
        )
        .is_empty()
    );
    assert_eq!(
        findings(
            &inv,
            "status_must_be_valid_enum",
            json!({"status": "pending"})
        ),
        [r#"/status expected one of "approved", "rejected", found "pending""#]
    );
    let reason = "rejected_must_have_reason";
    assert!(findings(&inv, reason, json!({"status": "approved"})).is_empty());
    assert!(
        findings(
            &inv,
            reason,
            json!({"status": "rejected", "reason": "too risky"})
        )
        .is_empty()
    );
    let missing = findings(&inv, reason, json!({"status": "rejected"}));
    assert_eq!(missing.len(), 1, "{missing:?}");
    assert!(
        missing[0].starts_with("/reason expected a non-empty string"),
        "{missing:?}"
    );
    assert!(missing[0].ends_with(r#"(the rule applies because `status == "rejected"`)"#));
    assert_eq!(
        findings(&inv, reason, json!({"status": "rejected", "reason": "  "})).len(),
        1
    );
}

/// The normative examples get the canonical schema's verdict: the ten
/// `*.with-events.json` are valid; the ten `*.minimal.json` carry a
/// top-level `$comment`, which the canonical schemas (no such property,
/// `additionalProperties: false`) refuse, and nothing else is wrong with
/// them; `event.valid.json` is a module event.
#[test]
fn the_normative_examples_get_the_canonical_verdict() {
    let Some(root) = reference() else { return };
    let mut seen = 0;
    for entry in std::fs::read_dir(root.join("examples")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let bytes = std::fs::read(&path).unwrap();
        let (kind, report) = mplp_check::validate_bytes(None, &bytes);
        let module = name.split('.').next().unwrap();
        seen += 1;
        if name == "event.valid.json" {
            assert_eq!(kind.map(|k| k.name), Some("module-event"), "{name}");
            assert!(report.is_empty(), "{name}: {report:?}");
            continue;
        }
        assert_eq!(kind.map(|k| k.name), Some(module), "{name}");
        if name.ends_with(".with-events.json") {
            assert!(report.is_valid(), "{name}: {report:?}");
            continue;
        }
        assert!(name.ends_with(".minimal.json"), "{name}");
        // The canonical schema itself: no `$comment` property, and no other.
        let schema: Value = serde_json::from_slice(
            &std::fs::read(root.join(format!("mplp-{module}.schema.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(schema["additionalProperties"], json!(false), "{module}");
        assert!(schema["properties"].get("$comment").is_none(), "{module}");
        let errors: Vec<(&str, &str)> = report
            .errors()
            .map(|v| (v.pointer.as_str(), v.rule.as_str()))
            .collect();
        assert_eq!(errors, [("/$comment", "additional-properties")], "{name}");
        // Without the comment, the example is valid.
        let mut value: Value = serde_json::from_slice(&bytes).unwrap();
        value.as_object_mut().unwrap().remove("$comment");
        let (_, report) = mplp_check::validate_bytes(None, value.to_string().as_bytes());
        assert!(report.is_valid(), "{name} without $comment: {report:?}");
    }
    assert_eq!(seen, 21);
}

/// Every one of the 61 frozen invariants is declared under its id in the
/// registry (with its file), so a report and `docs/rules.md` can be searched
/// for the canonical id.
#[test]
fn every_frozen_invariant_is_declared() {
    let Some(root) = reference() else { return };
    let declared: Vec<(&str, &str)> = mplp_check::all_rules()
        .filter_map(|r| match r.source {
            mplp_core::rules::Source::Invariant { file, id } => Some((file, id)),
            _ => None,
        })
        .collect();
    let mut frozen = 0;
    for file in yaml_files(&root.join("invariants")) {
        let name = file.file_name().unwrap().to_str().unwrap().to_owned();
        let docs = YamlLoader::load_from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for inv in docs[0]["invariants"].as_vec().unwrap() {
            frozen += 1;
            let id = inv["id"].as_str().unwrap();
            assert!(
                declared.contains(&(name.as_str(), id)),
                "{id} of {name} is not declared"
            );
        }
    }
    assert_eq!(frozen, 61);
}

/// The kernel duties are the taxonomy's eleven (id, name, slug).
#[test]
fn the_kernel_duties_are_the_taxonomy() {
    let Some(root) = reference() else { return };
    let text = std::fs::read_to_string(root.join("taxonomy/kernel-duties.yaml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let published: Vec<(String, String, String)> = docs[0]["duties"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|d: &Yaml| {
            let s = |k: &str| d[k].as_str().unwrap().to_owned();
            (s("id"), s("name"), s("slug"))
        })
        .collect();
    let ours: Vec<(String, String, String)> = mplp_core::protocol::KERNEL_DUTIES
        .iter()
        .map(|d| (d.id.to_owned(), d.name.to_owned(), d.slug().to_owned()))
        .collect();
    assert_eq!(ours, published);
}

/// The schema bundle named by `mplp --version` is the published manifest's.
#[test]
fn the_schema_bundle_is_the_published_manifest() {
    let Some(root) = reference() else { return };
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(root.join("_manifests/bundle/truth-source-inventory.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        manifest["schema_bundle_hash"],
        json!(mplp_core::protocol::SCHEMA_BUNDLE_HASH)
    );
    assert_eq!(
        manifest["manifest_version"],
        json!(mplp_core::protocol::SCHEMA_BUNDLE_VERSION)
    );
}

/// The example (under `schemas/examples/valid`) whose member an invariant of
/// `scope` judges at `path`, for the scopes whose invariants name a member
/// of one document; `None` for the invariants that relate two documents or
/// events, or that hold only in an SA run (see spec-notes, "Frozen
/// invariant ids").
fn example_for(scope: &str, path: &str) -> Option<&'static str> {
    Some(match (scope, path) {
        ("collab", _) => "collab-round-robin.json",
        ("context", "context_id") => "context-active.json",
        ("plan", "steps" | "steps[*].step_id" | "steps[*].agent_role") => "plan-in-progress.json",
        ("learning_sample", p) if p.contains("intent_id") || p.contains("quality") => {
            "learning-sample-intent-resolution.json"
        }
        ("learning_sample", _) => "learning-sample-delta-impact.json",
        ("event", p) if p.starts_with("pipeline") || p.starts_with("stage") => {
            "event-pipeline-stage.json"
        }
        ("event", p) if p.starts_with("graph") || p.starts_with("update") => {
            "event-graph-update.json"
        }
        ("event", _) => "event-runtime-execution.json",
        ("tool_event", _) => "tool-event-eslint.json",
        ("file_update_event", _) => "file-update-event-rename.json",
        ("git_event", _) => "git-event-merge.json",
        ("ci_event", _) => "ci-event-github-actions.json",
        _ => return None,
    })
}

/// `steps[*].step_id` as the pointer of the first item, `/steps/0/step_id`.
fn pointer_of(path: &str) -> String {
    path.split('.')
        .flat_map(|part| match part.strip_suffix("[*]") {
            Some(array) => vec![array.to_owned(), "0".to_owned()],
            None => vec![part.to_owned()],
        })
        .fold(String::new(), |p, token| p + "/" + &token)
}

/// Every frozen invariant that judges one member of a document is reported
/// under its own id when that member breaks the schema (goal 6: a report
/// can be searched for the canonical id), with the schema keyword behind it
/// at the end of the message. The member is replaced by `true`, which no
/// member these invariants judge may be (a `type` violation; `minItems`,
/// `enum`, `format` and the others are the same relabelling).
#[test]
fn every_frozen_invariant_is_reported_under_its_id() {
    let Some(root) = reference() else { return };
    let valid = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples/valid");
    let mut checked = 0;
    let mut left_out: Vec<String> = Vec::new();
    for file in yaml_files(&root.join("invariants")) {
        let docs = YamlLoader::load_from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let invariants = docs[0]["invariants"].as_vec().unwrap();
        for inv in invariants {
            let id = inv["id"].as_str().unwrap();
            let scope = inv["scope"].as_str().unwrap_or("");
            let (Some(path), Some(rule)) = (inv["path"].as_str(), inv["rule"].as_str()) else {
                left_out.push(id.to_owned());
                continue;
            };
            let Some(example) = example_for(scope, path).filter(|_| !rule.starts_with("eq("))
            else {
                left_out.push(id.to_owned());
                continue;
            };
            let pointer = pointer_of(path);
            let mut doc: Value =
                serde_json::from_str(&std::fs::read_to_string(valid.join(example)).unwrap())
                    .unwrap();
            let (parent, member) = pointer.rsplit_once('/').unwrap();
            let holder = if parent.is_empty() {
                Some(&mut doc)
            } else {
                doc.pointer_mut(parent)
            };
            holder
                .and_then(Value::as_object_mut)
                .unwrap_or_else(|| panic!("{id}: {example} has no object at {parent:?}"))
                .insert(member.to_owned(), Value::Bool(true));
            let kind = mplp_check::for_example(example).unwrap();
            let report = kind.validate(doc.to_string().as_bytes());
            // Two invariants judge a participant's `role_id` (one a warning
            // about its presence): the schema's verdict carries either.
            let same_member: Vec<&str> = invariants
                .iter()
                .filter(|other| {
                    other["scope"].as_str() == Some(scope) && other["path"].as_str() == Some(path)
                })
                .map(|other| other["id"].as_str().unwrap())
                .collect();
            let found = report.errors().find(|v| v.pointer == pointer);
            let found = found.unwrap_or_else(|| {
                panic!(
                    "{id}: nothing at {pointer} in {example}: {:?}",
                    report.violations()
                )
            });
            assert!(
                same_member.contains(&found.rule.as_str()),
                "{id}: {pointer} of {example} is reported as {} ({})",
                found.rule,
                found.message
            );
            assert_eq!(
                found.schema_keyword(),
                Some("type"),
                "{id}: {}",
                found.message
            );
            checked += 1;
        }
    }
    // What is left out relates two events or documents, or holds only in
    // an SA run: the two MAP log rules, the three SA bindings, an SA run's
    // active Context and non-empty trace.
    left_out.sort_unstable();
    assert_eq!(
        left_out,
        [
            "map_broadcast_has_receivers",
            "map_turn_completion_matches_dispatch",
            "sa_context_must_be_active",
            "sa_plan_context_binding",
            "sa_trace_context_binding",
            "sa_trace_not_empty",
            "sa_trace_plan_binding",
        ]
    );
    assert_eq!(checked, 61 - left_out.len());
}
