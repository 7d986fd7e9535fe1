//! The network and node lifecycle tables, pinned literally; the network
//! rules; property tests over random operation sequences.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use std::collections::BTreeSet;

use mplp_core::{ContextId, Document, Rule, Severity, Timestamp};
use mplp_network::{
    Network, NetworkNode, NetworkStatus, NetworkTrigger, NodeId, NodeKind, NodeStatus, NodeTrigger,
    TopologyType,
};
use proptest::prelude::*;

#[path = "../../../tests/support/named_transitions.rs"]
mod named_transitions;
use named_transitions::{Named, check_named_transitions, reachable};
use serde_json::json;

/// (from, to) pairs of the network table, written out so any change shows in review.
const NETWORK_EDGES: [(NetworkStatus, NetworkStatus); 13] = {
    use NetworkStatus::*;
    [
        (Draft, Provisioning),
        (Draft, Active),
        (Provisioning, Active),
        (Active, Degraded),
        (Active, Maintenance),
        (Degraded, Maintenance),
        (Degraded, Active),
        (Maintenance, Active),
        (Draft, Retired),
        (Provisioning, Retired),
        (Active, Retired),
        (Degraded, Retired),
        (Maintenance, Retired),
    ]
};

/// (from, to) pairs of the node table.
const NODE_EDGES: [(NodeStatus, NodeStatus); 13] = {
    use NodeStatus::*;
    [
        (Inactive, Active),
        (Active, Inactive),
        (Degraded, Inactive),
        (Unreachable, Inactive),
        (Active, Degraded),
        (Active, Unreachable),
        (Degraded, Unreachable),
        (Degraded, Active),
        (Unreachable, Active),
        (Active, Retired),
        (Inactive, Retired),
        (Degraded, Retired),
        (Unreachable, Retired),
    ]
};

fn net() -> Network {
    Network::new(ContextId::new(), "n", TopologyType::Mesh).unwrap()
}

#[test]
fn network_table_over_all_pairs() {
    for from in NetworkStatus::ALL {
        for to in NetworkStatus::ALL {
            let expected = NETWORK_EDGES.contains(&(*from, *to));
            assert_eq!(from.can_transition_to(*to), expected, "{from} -> {to}");
        }
    }
    let finals: Vec<_> = NetworkStatus::ALL.iter().filter(|s| s.is_final()).collect();
    assert_eq!(finals, [&NetworkStatus::Retired]);
}

#[test]
fn node_table_over_all_pairs() {
    for from in NodeStatus::ALL {
        for to in NodeStatus::ALL {
            let expected = NODE_EDGES.contains(&(*from, *to));
            assert_eq!(from.can_transition_to(*to), expected, "{from} -> {to}");
        }
    }
    let finals: Vec<_> = NodeStatus::ALL.iter().filter(|s| s.is_final()).collect();
    assert_eq!(finals, [&NodeStatus::Retired]);
}

#[test]
fn every_edge_is_reachable_from_the_initial_statuses() {
    let (edges, _) = reachable(NetworkStatus::Draft, NetworkTrigger::ALL, |s, t| {
        s.fire_at(t, "/status").ok()
    });
    assert_eq!(edges, NETWORK_EDGES.into_iter().collect());
    let (edges, _) = reachable(NodeStatus::Inactive, NodeTrigger::ALL, |s, t| {
        s.fire_at(t, "/x").ok()
    });
    assert_eq!(edges, NODE_EDGES.into_iter().collect());
}

#[test]
fn refusals_are_typed_and_located() {
    let mut n = net();
    let a = n.add_node(NetworkNode::new(NodeKind::Agent)).unwrap();
    let b = n.add_node(NetworkNode::new(NodeKind::Service)).unwrap();
    let before = n.clone();
    let err = n
        .fire_node(b, NodeTrigger::Degrade, Timestamp::now())
        .unwrap_err();
    assert_eq!(err.rule(), Some(Rule::LIFECYCLE_TRANSITION));
    assert_eq!(err.pointer(), Some("/nodes/1/status"));
    assert_eq!(
        err.to_string(),
        "node cannot go from `inactive` to `degraded`: `degrade` fires only from `active`, the node is `inactive`"
    );
    assert_eq!(n, before, "a refusal changes nothing");
    let err = n
        .fire_node(NodeId::new(), NodeTrigger::Activate, Timestamp::now())
        .unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule().map(|r| r.as_str())),
        (Some("/nodes"), Some("unknown-node"))
    );
    let err = n.remove_node(NodeId::new()).unwrap_err();
    assert_eq!(err.rule().map(|r| r.as_str()), Some("unknown-node"));
    assert_eq!(n.remove_node(a).unwrap().kind, NodeKind::Agent);
    assert_eq!(n.nodes().len(), 1);
    n.retire().unwrap();
    assert_eq!(n.node(b).map(|x| x.status()), Some(NodeStatus::Retired));
    for err in [
        n.add_node(NetworkNode::new(NodeKind::Queue)).unwrap_err(),
        n.remove_node(b).unwrap_err(),
        n.fire_node(b, NodeTrigger::Activate, Timestamp::now())
            .unwrap_err(),
    ] {
        assert_eq!(
            err.rule().map(|r| r.as_str()),
            Some("network_nodes_need_live_network")
        );
        assert_eq!(err.pointer(), Some("/status"));
        // The rule is in the crate's catalogue (`mplp rules`).
        assert!(mplp_network::rules().any(|r| Some(r.rule) == err.rule()));
    }
    let err = n.activate().unwrap_err();
    assert!(
        err.to_string().ends_with("`retired` is a final status"),
        "{err}"
    );
}

#[test]
fn node_mut_changes_only_open_members() {
    let mut n = net();
    let a = n.add_node(NetworkNode::new(NodeKind::Agent)).unwrap();
    n.node_mut(a).unwrap().role_id = Some("coder".into());
    n.node_mut(a).unwrap().name = Some("worker".into());
    assert!(n.node_mut(NodeId::new()).is_none());
    let v = n.to_value();
    assert_eq!(v["nodes"][0]["role_id"], "coder");
    assert_eq!(v["nodes"][0]["node_id"], a.to_string());
}

fn doc(topology: &str, status: &str, nodes: serde_json::Value) -> serde_json::Value {
    json!({"meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "network_id": "2d4f6a8c-0e9b-4c1d-a3e5-7f9b1d3f5a7c",
        "context_id": "0b6e4d2c-1a3f-4c5e-8d7b-9f0a1b2c3d4e",
        "name": "n", "topology_type": topology, "status": status, "nodes": nodes})
}

const N1: &str = "7c9e1b3d-5f4a-4b6c-8d0e-2f4a6c8e0b2d";
const N2: &str = "9e1b3d5f-7a6c-4d8e-a0f2-4b6d8f0a2c4e";

/// Spec notes "mplp-network": the two warnings, where they point, and that
/// they leave the document valid.
#[test]
fn single_node_and_retired_warnings() {
    let two = json!([{"node_id": N1, "kind": "agent", "status": "active"},
                     {"node_id": N2, "kind": "agent", "status": "retired"}]);
    let r = Network::validate_value(&doc("single_node", "active", two.clone())).report;
    assert!(r.is_valid());
    let found: Vec<_> = r
        .violations()
        .iter()
        .map(|v| (v.pointer.as_str(), v.rule.as_str(), v.severity))
        .collect();
    assert_eq!(
        found,
        [("/nodes", "network_single_node_topology", Severity::Warning)]
    );
    let r = Network::validate_value(&doc("mesh", "retired", two)).report;
    assert!(r.is_valid());
    let found: Vec<_> = r
        .violations()
        .iter()
        .map(|v| (v.pointer.as_str(), v.rule.as_str(), v.severity))
        .collect();
    assert_eq!(
        found,
        [(
            "/nodes/0/status",
            "network_retired_nodes",
            Severity::Warning
        )]
    );
    let one = json!([{"node_id": N1, "kind": "agent", "status": "active"}]);
    assert!(
        Network::validate_value(&doc("single_node", "active", one))
            .report
            .is_empty()
    );
}

/// Each named transition (`provision`, `activate`, ...) fires its trigger:
/// from every status, the same verdict and the same status as
/// [`Network::fire`].
#[test]
fn the_named_transitions_fire_their_trigger() {
    let named: [(Named<Network>, NetworkTrigger); 6] = [
        (Network::provision, NetworkTrigger::Provision),
        (Network::activate, NetworkTrigger::Activate),
        (Network::degrade, NetworkTrigger::Degrade),
        (Network::maintain, NetworkTrigger::Maintain),
        (Network::restore, NetworkTrigger::Restore),
        (Network::retire, NetworkTrigger::Retire),
    ];
    let node = json!([{"node_id": N1, "kind": "agent", "status": "active"}]);
    check_named_transitions(
        NetworkStatus::ALL,
        |s| Network::from_value(&doc("mesh", s.as_str(), node.clone())).unwrap(),
        Network::status,
        &named,
        |s, t| s.fire_at(t, "/status").ok(),
    );
}

/// The named node transitions (`activate_node`, `disconnect_node`) fire
/// their trigger on that node from every node status, with the same verdict
/// and status as [`Network::fire_node`].
#[test]
fn the_named_node_transitions_fire_their_trigger() {
    // On the network's one node.
    let named: [(Named<Network>, NodeTrigger); 2] = [
        (
            |n| n.activate_node(n.nodes()[0].node_id()),
            NodeTrigger::Activate,
        ),
        (
            |n| n.disconnect_node(n.nodes()[0].node_id()),
            NodeTrigger::Disconnect,
        ),
    ];
    check_named_transitions(
        NodeStatus::ALL,
        |s| {
            let nodes = json!([{"node_id": N1, "kind": "agent", "status": s.as_str()}]);
            Network::from_value(&doc("mesh", "active", nodes)).unwrap()
        },
        |n| n.nodes()[0].status(),
        &named,
        |s, t| s.fire_at(t, "/nodes/0/status").ok(),
    );
}

#[test]
fn constructor_refuses_an_empty_name() {
    let err = Network::new(ContextId::new(), "", TopologyType::Mesh).unwrap_err();
    assert_eq!(
        (err.pointer(), err.rule()),
        (Some("/name"), Some(Rule::MIN_LENGTH))
    );
}

#[derive(Clone, Debug)]
enum Op {
    Fire(NetworkTrigger),
    Add(NodeKind),
    /// Fire on the node at this index (modulo the count), if any.
    FireNode(usize, NodeTrigger),
    Remove(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        prop::sample::select(NetworkTrigger::ALL.to_vec()).prop_map(Op::Fire),
        prop::sample::select(NodeKind::ALL.to_vec()).prop_map(Op::Add),
        (0usize..8, prop::sample::select(NodeTrigger::ALL.to_vec()))
            .prop_map(|(i, t)| Op::FireNode(i, t)),
        (0usize..8).prop_map(Op::Remove),
    ]
}

proptest! {
    /// Random operations follow the tables and the guards, refusals change
    /// nothing, node ids stay unique, a retired network has only retired
    /// nodes, and the document stays valid (no error, and no warning for a
    /// mesh) and round-trips.
    #[test]
    fn random_operations_follow_the_tables(ops in prop::collection::vec(op(), 0..40)) {
        let mut n = net();
        for op in ops {
            let before = n.clone();
            let live = before.status() != NetworkStatus::Retired;
            let pick = |i: usize| (!before.nodes().is_empty()).then(|| before.nodes()[i % before.nodes().len()].node_id());
            let result = match op {
                Op::Fire(t) => {
                    let r = n.fire(t, Timestamp::now());
                    prop_assert_eq!(r.is_ok(), t.rule().0.contains(&before.status()));
                    if r.is_ok() {
                        prop_assert_eq!(n.status(), t.rule().1);
                    }
                    r
                }
                Op::Add(k) => {
                    let r = n.add_node(NetworkNode::new(k)).map(|_| ());
                    prop_assert_eq!(r.is_ok(), live);
                    r
                }
                Op::FireNode(i, t) => match pick(i) {
                    None => n.fire_node(NodeId::new(), t, Timestamp::now()),
                    Some(id) => {
                        let s = before.node(id).unwrap().status();
                        let r = n.fire_node(id, t, Timestamp::now());
                        prop_assert_eq!(r.is_ok(), live && t.rule().0.contains(&s));
                        if r.is_ok() {
                            prop_assert_eq!(n.node(id).unwrap().status(), t.rule().1);
                        }
                        r
                    }
                },
                Op::Remove(i) => match pick(i) {
                    None => n.remove_node(NodeId::new()).map(|_| ()),
                    Some(id) => {
                        let r = n.remove_node(id).map(|_| ());
                        prop_assert_eq!(r.is_ok(), live);
                        if r.is_ok() {
                            prop_assert!(n.node(id).is_none());
                            prop_assert_eq!(n.nodes().len(), before.nodes().len() - 1);
                        }
                        r
                    }
                },
            };
            if result.is_err() {
                prop_assert_eq!(&n, &before);
            }
            let ids: BTreeSet<_> = n.nodes().iter().map(NetworkNode::node_id).collect();
            prop_assert_eq!(ids.len(), n.nodes().len());
            if n.status() == NetworkStatus::Retired {
                prop_assert!(n.nodes().iter().all(|x| x.status() == NodeStatus::Retired));
            }
            let v = Network::validate_json(n.to_json());
            prop_assert!(v.report.is_empty(), "{:?}", v.report);
            prop_assert_eq!(v.value.unwrap(), n.clone());
        }
    }

    /// Repeated node ids from JSON: one error per repeat, at that node's id.
    #[test]
    fn each_repeated_node_id_is_one_error(picks in prop::collection::vec(0usize..3, 0..6)) {
        let ids = [N1, N2, "0f2a4c6e-8b7d-4e9f-b1a3-5c7e9a1b3d5f"];
        let nodes: Vec<_> = picks.iter().map(|i| json!({"node_id": ids[*i], "kind": "agent", "status": "active"})).collect();
        let report = Network::validate_value(&doc("mesh", "active", json!(nodes))).report;
        let expected: Vec<String> = picks.iter().enumerate()
            .filter(|(i, p)| picks[..*i].contains(p))
            .map(|(i, _)| format!("/nodes/{i}/node_id"))
            .collect();
        let found: Vec<String> = report.errors()
            .inspect(|v| assert_eq!(v.rule.as_str(), "network_unique_node_ids"))
            .map(|v| v.pointer.clone())
            .collect();
        prop_assert_eq!(found, expected);
    }
}

/// The network rules' findings (errors and warnings) of a report.
fn rule_findings(report: &mplp_core::Report) -> Vec<mplp_core::Violation> {
    report.of_rules(mplp_network::RULES).cloned().collect()
}

/// Issue 39, one pass: the warnings of spec notes "mplp-network" on a
/// network that fails its schema elsewhere (an empty `name`, a node `kind`
/// outside the enum), with the pointer and message of the clean pass; a
/// node whose status cannot be read is not warned about.
#[test]
fn network_warnings_run_on_networks_that_fail_their_schema() {
    let nodes = json!([{"node_id": N1, "kind": "agent", "status": "active"},
                       {"node_id": N2, "kind": "agent", "status": "degraded"},
                       {"node_id": N1, "kind": "agent", "status": "retired"}]);
    for (topology, status) in [
        ("single_node", "retired"),
        ("mesh", "retired"),
        ("single_node", "active"),
    ] {
        let mut d = doc(topology, status, nodes.clone());
        let clean = Network::validate_value(&d).report;
        let want = rule_findings(&clean);
        assert!(!want.is_empty());
        d["name"] = json!("");
        d["nodes"][2]["kind"] = json!("robot");
        for report in [
            Network::validate_json(d.to_string()).report,
            Network::validate_value(&d).report,
        ] {
            assert!(report.errors().any(|v| v.pointer == "/name"), "{report:?}");
            assert!(
                report.errors().any(|v| v.pointer == "/nodes/2/kind"),
                "{report:?}"
            );
            assert_eq!(rule_findings(&report), want);
        }
    }
    let mut d = doc("single_node", "retired", nodes);
    d["nodes"][1]["status"] = json!("sleeping");
    let found: Vec<(String, String)> = Network::validate_json(d.to_string())
        .report
        .violations()
        .iter()
        .map(|v| (v.pointer.clone(), v.rule.to_string()))
        .collect();
    let want: Vec<(String, String)> = [
        ("/nodes/1/status", "enum"),
        ("/nodes/2/node_id", "network_unique_node_ids"),
        ("/nodes", "network_single_node_topology"),
        ("/nodes/0/status", "network_retired_nodes"),
    ]
    .iter()
    .map(|(p, r)| ((*p).to_owned(), (*r).to_owned()))
    .collect();
    assert_eq!(found, want);
}
