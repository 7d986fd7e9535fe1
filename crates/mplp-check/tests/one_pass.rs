//! All errors in one pass: a document that fails its schema also gets every
//! semantic rule whose inputs can still be read (issue 39, "Errors come in
//! rounds").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use serde_json::Value;

fn example(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/examples/valid")
        .join(name);
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// (pointer, rule) of every error, in order.
fn errors(kind: &str, v: &Value) -> Vec<(String, String)> {
    let kind = mplp_check::by_name(kind).unwrap();
    let (_, report) = mplp_check::validate_bytes(Some(kind), v.to_string().as_bytes());
    report
        .errors()
        .map(|e| (e.pointer.clone(), e.rule.to_string()))
        .collect()
}

fn pair(p: &str, r: &str) -> (String, String) {
    (p.to_owned(), r.to_owned())
}

#[test]
fn a_collab_with_a_bad_kind_also_gets_its_repeated_participant() {
    let mut collab = example("collab-pair.json");
    collab["participants"][0]["kind"] = "robot".into();
    collab["participants"][1]["participant_id"] = "agent-driver".into();
    let found = errors("collab", &collab);
    assert!(
        found.contains(&pair("/participants/0/kind", "map_participant_kind_valid")),
        "{found:?}"
    );
    assert!(
        found.contains(&pair(
            "/participants/1/participant_id",
            "map_unique_participant_ids"
        )),
        "{found:?}"
    );
    // A third participant in a pair, an unreadable id: what can be read is judged.
    collab["participants"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"participant_id": 5, "kind": "agent"}));
    let found = errors("collab", &collab);
    assert!(
        found.contains(&pair("/participants", "map_pair_two_participants")),
        "{found:?}"
    );
    assert!(
        found.contains(&pair(
            "/participants/2/participant_id",
            "map_participant_ids_are_non_empty"
        )),
        "{found:?}"
    );
}

#[test]
fn a_blank_participant_id_is_refused_under_its_invariant() {
    let mut collab = example("collab-pair.json");
    collab["participants"][1]["participant_id"] = "   ".into();
    assert_eq!(
        errors("collab", &collab),
        [pair(
            "/participants/1/participant_id",
            "map_participant_ids_are_non_empty"
        )]
    );
}

#[test]
fn a_confirm_with_a_schema_error_also_gets_its_decision_rules() {
    let mut confirm = example("confirm-two-rounds.json");
    confirm["requested_at"] = "yesterday".into();
    confirm["status"] = "rejected".into();
    let found = errors("confirm", &confirm);
    assert!(
        found.contains(&pair("/requested_at", "format")),
        "{found:?}"
    );
    assert!(
        found.contains(&pair("/status", "confirm_status_matches_decisions")),
        "{found:?}"
    );
    // A repeated decision id, with the schema error still there.
    let first = confirm["decisions"][0]["decision_id"].clone();
    confirm["decisions"][1]["decision_id"] = first;
    let found = errors("confirm", &confirm);
    assert!(
        found.contains(&pair(
            "/decisions/1/decision_id",
            "confirm_unique_decision_ids"
        )),
        "{found:?}"
    );
}

#[test]
fn a_learning_sample_with_a_schema_error_also_gets_its_invariants() {
    let mut sample = example("learning-sample-intent-resolution.json");
    sample["created_at"] = "soon".into();
    sample["meta"]["source_flow_id"] = " ".into();
    sample["input"]["intent_id"] = "".into();
    let found = errors("learning-sample", &sample);
    assert!(
        found.contains(&pair("/created_at", "learning_sample_created_at_iso")),
        "{found:?}"
    );
    assert!(
        found.contains(&pair(
            "/meta/source_flow_id",
            "learning_sample_source_flow_non_empty"
        )),
        "{found:?}"
    );
    assert!(
        found.contains(&pair("/input/intent_id", "learning_intent_has_intent_id")),
        "{found:?}"
    );
}

/// A Network with a bad node `kind` also gets its repeated node id; a node
/// whose id cannot be read takes no part.
#[test]
fn a_network_with_a_schema_error_also_gets_its_repeated_node() {
    let mut network = example("network-hub-spoke-active.json");
    network["name"] = "".into();
    let first = network["nodes"][0]["node_id"].clone();
    network["nodes"][1]["node_id"] = first;
    network["nodes"][2]["node_id"] = 7.into();
    let found = errors("network", &network);
    assert!(found.contains(&pair("/name", "min-length")), "{found:?}");
    assert!(
        found.contains(&pair("/nodes/1/node_id", "network_unique_node_ids")),
        "{found:?}"
    );
    assert_eq!(
        found
            .iter()
            .filter(|(_, r)| r == "network_unique_node_ids")
            .count(),
        1,
        "{found:?}"
    );
}

/// A Core with a schema error also gets its repeated module and its
/// required module that is disabled; a module whose `status` cannot be
/// read takes no part in the second rule.
#[test]
fn a_core_with_a_schema_error_also_gets_its_module_rules() {
    let mut core = example("core-active-all-modules.json");
    core["status"] = "bogus".into();
    core["modules"][1]["module_id"] = core["modules"][0]["module_id"].clone();
    core["modules"][0]["status"] = "disabled".into();
    let found = errors("core", &core);
    // The schema error is there: the module rules ran in the same pass.
    assert!(found.contains(&pair("/status", "enum")), "{found:?}");
    assert!(
        found.contains(&pair("/modules/1/module_id", "core_unique_modules")),
        "{found:?}"
    );
    assert!(
        found.contains(&pair("/modules/0/status", "core_required_module_enabled")),
        "{found:?}"
    );
    core["modules"][0]["status"] = "off".into();
    let found = errors("core", &core);
    assert!(
        !found
            .iter()
            .any(|(_, r)| r == "core_required_module_enabled"),
        "{found:?}"
    );
}
