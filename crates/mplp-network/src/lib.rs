//! MPLP v1.0.0 **Network** module: the topology of a multi-agent
//! collaboration network and its nodes (agents, services, queues, ...),
//! each with a status.
//!
//! - [`Network`], [`NetworkNode`], [`TopologyType`], [`NetworkStatus`],
//!   [`NodeKind`], [`NodeStatus`]: the wire types, exactly as
//!   `mplp-network.schema.json` says; reading and all-errors validation
//!   through [`mplp_core::Document`] (kind `network`) with the network
//!   rules (see [`Network`]'s `Document` impl).
//! - Two lifecycles, each one table of triggers: [`NetworkTrigger::rule`]
//!   for the network, [`NodeTrigger::rule`] for a node, refusing with a
//!   typed [`mplp_core::TransitionError`] (rule `lifecycle-transition`).
//! - Nodes are added, removed and changed through the network
//!   ([`Network::add_node`], [`Network::remove_node`],
//!   [`Network::fire_node`]), which keeps their ids unique.
//!
//! ```
//! use mplp_network::{Network, NetworkNode, NetworkStatus, NodeKind, NodeStatus, TopologyType};
//! use mplp_core::{ContextId, Document};
//!
//! let mut net = Network::new(ContextId::new(), "review swarm", TopologyType::HubSpoke)?;
//! let hub = net.add_node(NetworkNode::new(NodeKind::Agent).with_name("orchestrator"))?;
//! let db = net.add_node(NetworkNode::new(NodeKind::Database))?;
//! net.provision()?;
//! net.activate()?;
//! net.activate_node(hub)?;
//! net.activate_node(db)?;
//! net.disconnect_node(db)?; // the taxonomy's `connection_lost`
//! assert_eq!(net.node(db).map(|n| n.status()), Some(NodeStatus::Unreachable));
//! net.retire()?; // every node is retired with the network
//! assert!(net.nodes().iter().all(|n| n.status() == NodeStatus::Retired));
//!
//! let back = Network::from_json(net.to_json())?;
//! assert_eq!(back, net);
//! # Ok::<(), mplp_core::Error>(())
//! ```
//!
//! # Spec notes
//! (Also in `docs/spec-notes.md`, section "mplp-network"; each is pinned by
//! a test in `tests/`.)
//! - **Lifecycle tables** are ours (the schema gives the statuses only).
//!   `retired` is final for a network and for a node; retiring a network
//!   retires its nodes.
//! - **Nodes** have unique `node_id`s ([`NETWORK_UNIQUE_NODE_IDS`]). A new
//!   node is `inactive` until activated.
//! - **Warnings**: a `single_node` network lists at most one node
//!   ([`NETWORK_SINGLE_NODE_TOPOLOGY`]); a `retired` network has no live
//!   node ([`NETWORK_RETIRED_NODES`]).
//! - **`role_id`** of a node is a free string, as the schema says; it is not
//!   tied to a Role document here.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod lifecycle;

pub use lifecycle::{NetworkTrigger, NodeTrigger};

use mplp_core::rules::Source;
use mplp_core::{
    BaseEvent, Governance, Meta, NonEmptyString, Pointer, Report, Rule, TraceBase, Violation, Wire,
};
/// Re-exported so that depending on this crate alone is enough.
pub use mplp_core::{ContextId, Document, Error};

mplp_core::declare_rules! {
    /// Every rule of this crate, with its severity per profile and its source.
    pub const RULES;
    /// `network_unique_node_ids`: no two nodes share a `node_id`.
    pub const NETWORK_UNIQUE_NODE_IDS = "network_unique_node_ids" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-network" },
        summary: "`network_unique_node_ids`: no two nodes of a network share a `node_id`.",
    }

    /// `network_single_node_topology`: a `single_node` network lists at most
    /// one node (a warning).
    pub const NETWORK_SINGLE_NODE_TOPOLOGY = "network_single_node_topology" {
        strict: Warning,
        scope: Document,
        source: Source::Sdk { note: "mplp-network" },
        summary: "`network_single_node_topology`: a `single_node` network lists at most one node (a warning).",
    }

    /// `network_retired_nodes`: every node of a `retired` network is
    /// `retired` (a warning).
    pub const NETWORK_RETIRED_NODES = "network_retired_nodes" {
        strict: Warning,
        scope: Document,
        source: Source::Sdk { note: "mplp-network" },
        summary: "`network_retired_nodes`: every node of a `retired` network is `retired` (a warning).",
    }

    /// `network_nodes_need_live_network`: nodes are added, removed or fired
    /// only while the network is not `retired`.
    pub const NETWORK_NODES_NEED_LIVE_NETWORK = "network_nodes_need_live_network" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-network" },
        summary: "`network_nodes_need_live_network`: nodes are added, removed or fired only while the network is not `retired`.",
    }

    /// `unknown-node`: an operation names a node the network does not have.
    pub const UNKNOWN_NODE = "unknown-node" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-network" },
        summary: "`unknown-node`: an operation names a node the network does not have.",
    }
}

/// `network_unique_node_ids` over `(index in nodes, node id)`: the rule the
/// clean pass runs on the typed nodes and the one pass runs on the ids it
/// can still read ([`Document::check_rules_of_value`]).
fn unique_node_ids(ids: impl Iterator<Item = (usize, NodeId)>, report: &mut Report) {
    let at = Pointer::root().key("nodes");
    let mut first: std::collections::HashMap<NodeId, usize> = std::collections::HashMap::new();
    for (i, id) in ids {
        match first.entry(id) {
            std::collections::hash_map::Entry::Occupied(seen) => report.error(
                at.index(i).key("node_id"),
                NETWORK_UNIQUE_NODE_IDS,
                format!("node id {id} is already used by node {}", seen.get()),
            ),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
    }
}

/// Every rule of this crate ([`RULES`]).
pub fn rules() -> impl Iterator<Item = &'static mplp_core::rules::RuleInfo> {
    RULES.iter()
}

mplp_core::mplp_id! {
    /// Identifies a Network.
    pub struct NetworkId;
}

mplp_core::mplp_id! {
    /// Identifies a node of a Network.
    pub struct NodeId;
}

mplp_core::wire_enum! {
    /// The shape of a network (`topology_type`).
    pub enum TopologyType {
        /// One node.
        SingleNode = "single_node",
        /// A hub and its spokes.
        HubSpoke = "hub_spoke",
        /// Every node may talk to every other.
        Mesh = "mesh",
        /// A tree of supervisors.
        Hierarchical = "hierarchical",
        /// A mix of the above.
        Hybrid = "hybrid",
        /// Anything else.
        Other = "other",
    }
}

mplp_core::wire_enum! {
    /// Lifecycle status of a Network. See [`NetworkTrigger::rule`].
    pub enum NetworkStatus {
        /// Being designed.
        Draft = "draft",
        /// Its nodes are being set up.
        Provisioning = "provisioning",
        /// Serving.
        Active = "active",
        /// Serving with reduced capacity.
        Degraded = "degraded",
        /// Taken out of service for maintenance.
        Maintenance = "maintenance",
        /// Out of service for good (final).
        Retired = "retired",
    }
}

mplp_core::wire_enum! {
    /// What a node is (`kind`).
    pub enum NodeKind {
        /// An agent.
        Agent = "agent",
        /// A service.
        Service = "service",
        /// A database.
        Database = "database",
        /// A message queue.
        Queue = "queue",
        /// A system outside the network.
        External = "external",
        /// Anything else.
        Other = "other",
    }
}

mplp_core::wire_enum! {
    /// Status of a node. See [`NodeTrigger::rule`].
    pub enum NodeStatus {
        /// Serving.
        Active = "active",
        /// Not serving (a new node starts here).
        Inactive = "inactive",
        /// Serving with reduced capacity.
        Degraded = "degraded",
        /// Cannot be reached.
        Unreachable = "unreachable",
        /// Out of service for good (final).
        Retired = "retired",
    }
}

/// One node of a network (`network_node_core`).
///
/// ```
/// use mplp_network::{NetworkNode, NodeKind, NodeStatus};
/// let n = NetworkNode::new(NodeKind::Service).with_name("search").with_role("retriever");
/// assert_eq!(n.status(), NodeStatus::Inactive);
/// let json = serde_json::to_value(&n).unwrap();
/// assert_eq!((json["kind"].as_str(), json["role_id"].as_str()), (Some("service"), Some("retriever")));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[non_exhaustive]
pub struct NetworkNode {
    /// The node's id. Required. Guarded (unique in the network).
    pub(crate) node_id: NodeId,
    /// The node's name.
    pub name: Option<String>,
    /// What the node is. Required.
    pub kind: NodeKind,
    /// The role the node plays (a Role's `role_id`, by convention).
    pub role_id: Option<mplp_core::ShortString>,
    /// Status. Required. Guarded: see [`NodeTrigger::rule`].
    pub(crate) status: NodeStatus,
}

impl NetworkNode {
    /// An `inactive` node with a fresh id (add it with [`Network::add_node`]).
    pub fn new(kind: NodeKind) -> Self {
        NetworkNode {
            node_id: NodeId::new(),
            name: None,
            kind,
            role_id: None,
            status: NodeStatus::Inactive,
        }
    }

    /// The same node with a name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The same node with a role.
    #[must_use]
    pub fn with_role(mut self, role_id: impl Into<mplp_core::ShortString>) -> Self {
        self.role_id = Some(role_id.into());
        self
    }

    /// The node's id.
    pub fn node_id(&self) -> NodeId {
        self.node_id
    }

    /// The node's status.
    pub fn status(&self) -> NodeStatus {
        self.status
    }
}

/// A Network document (`mplp-network.schema.json`, core profile).
///
/// ```
/// use mplp_network::{Network, NetworkStatus, TopologyType};
/// use mplp_core::Document;
/// let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"),
///     "/../../schemas/examples/valid/network-hub-spoke-active.json")).unwrap();
/// let net = Network::from_json(&json)?;
/// assert_eq!(net.status(), NetworkStatus::Active);
/// assert_eq!(net.topology_type, TopologyType::HubSpoke);
/// assert_eq!(net.nodes().len(), 3);
/// # Ok::<(), mplp_core::Error>(())
/// ```
///
/// The status and the nodes are guarded, so this does not compile:
///
/// ```compile_fail,E0616
/// # use mplp_network::{Network, NetworkStatus};
/// fn force(n: &mut Network) { n.status = NetworkStatus::Active; }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct Network {
    /// Protocol metadata. Required.
    pub meta: Meta,
    /// Governance state (lifecycle phase, truth domain, lock, last Confirm).
    pub governance: Option<Governance>,
    /// The network's id. Required.
    pub network_id: NetworkId,
    /// The Context the network belongs to. Required.
    pub context_id: ContextId,
    /// Name for people. Required, non-empty.
    pub name: NonEmptyString,
    /// A short description.
    pub description: Option<String>,
    /// The network's shape. Required.
    pub topology_type: TopologyType,
    /// Lifecycle status. Required. Guarded: read it with
    /// [`Network::status`], change it with [`Network::fire`].
    pub(crate) status: NetworkStatus,
    /// The nodes. Guarded: read them with [`Network::nodes`], change them
    /// with [`Network::add_node`], [`Network::remove_node`],
    /// [`Network::fire_node`] and [`Network::node_mut`].
    pub(crate) nodes: Option<Vec<NetworkNode>>,
    /// The trace span the network is recorded under.
    pub trace: Option<TraceBase>,
    /// Notable events about the network.
    pub events: Option<Vec<BaseEvent>>,
}

/// A refusal of an API call: one violation as a state error.
pub(crate) fn state_error(pointer: &str, rule: Rule, message: String) -> Error {
    Error::State(Violation::error(pointer, rule, message))
}

impl Network {
    /// A `draft` network with a fresh id and no nodes, in `context_id`,
    /// with metadata created now.
    ///
    /// # Errors
    /// `min-length` at `/name` when `name` is empty.
    pub fn new(
        context_id: ContextId,
        name: impl Into<String>,
        topology_type: TopologyType,
    ) -> Result<Self, Error> {
        let name = NonEmptyString::new(name)
            .map_err(|_| Error::single("/name", Rule::MIN_LENGTH, "`name` must not be empty"))?;
        Ok(Network {
            meta: Meta::created_now(None),
            governance: None,
            network_id: NetworkId::new(),
            context_id,
            name,
            description: None,
            topology_type,
            status: NetworkStatus::Draft,
            nodes: None,
            trace: None,
            events: None,
        })
    }

    /// Where the network is in its lifecycle.
    pub fn status(&self) -> NetworkStatus {
        self.status
    }

    /// The nodes, in document order.
    pub fn nodes(&self) -> &[NetworkNode] {
        self.nodes.as_deref().unwrap_or_default()
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> Option<&NetworkNode> {
        self.nodes().iter().find(|n| n.node_id == id)
    }

    /// The node `id`, to change its name, kind or role (its id and status
    /// stay guarded).
    pub fn node_mut(&mut self, id: NodeId) -> Option<&mut NetworkNode> {
        self.nodes.as_mut()?.iter_mut().find(|n| n.node_id == id)
    }

    fn ensure_live(&self) -> Result<(), Error> {
        if self.status == NetworkStatus::Retired {
            return Err(state_error(
                "/status",
                NETWORK_NODES_NEED_LIVE_NETWORK,
                format!(
                    "network {} is `retired`: its nodes no longer change",
                    self.network_id
                ),
            ));
        }
        Ok(())
    }

    /// Adds `node` at the end and returns its id.
    ///
    /// ```
    /// use mplp_network::{Network, NetworkNode, NodeKind, TopologyType};
    /// use mplp_core::ContextId;
    /// let mut net = Network::new(ContextId::new(), "n", TopologyType::Mesh)?;
    /// let node = NetworkNode::new(NodeKind::Queue);
    /// net.add_node(node.clone())?;
    /// let err = net.add_node(node).unwrap_err(); // the same id again
    /// assert_eq!(err.rule().map(|r| r.as_str()), Some("network_unique_node_ids"));
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`NETWORK_UNIQUE_NODE_IDS`] when the network has a node with that id;
    /// [`NETWORK_NODES_NEED_LIVE_NETWORK`] when it is `retired`.
    pub fn add_node(&mut self, node: NetworkNode) -> Result<NodeId, Error> {
        self.ensure_live()?;
        let id = node.node_id;
        if let Some(i) = self.nodes().iter().position(|n| n.node_id == id) {
            return Err(state_error(
                &format!("/nodes/{i}/node_id"),
                NETWORK_UNIQUE_NODE_IDS,
                format!("the network already has a node {id}"),
            ));
        }
        self.nodes.get_or_insert_with(Vec::new).push(node);
        self.meta.updated_at = Some(mplp_core::Timestamp::now());
        Ok(id)
    }

    /// Removes the node `id` (the taxonomy's `node_removed`) and returns it.
    ///
    /// # Errors
    /// [`UNKNOWN_NODE`]; [`NETWORK_NODES_NEED_LIVE_NETWORK`] when the
    /// network is `retired`.
    pub fn remove_node(&mut self, id: NodeId) -> Result<NetworkNode, Error> {
        self.ensure_live()?;
        let i = self.node_index(id)?;
        let nodes = self.nodes.get_or_insert_with(Vec::new);
        let node = nodes.remove(i);
        self.meta.updated_at = Some(mplp_core::Timestamp::now());
        Ok(node)
    }

    pub(crate) fn node_index(&self, id: NodeId) -> Result<usize, Error> {
        self.nodes()
            .iter()
            .position(|n| n.node_id == id)
            .ok_or_else(|| unknown_node(id, self.network_id))
    }
}

/// The refusal of an operation on a node the network does not have.
pub(crate) fn unknown_node(id: NodeId, network: NetworkId) -> Error {
    state_error(
        "/nodes",
        UNKNOWN_NODE,
        format!("there is no node {id} in network {network}"),
    )
}

impl Document for Network {
    const KIND: &'static str = "network";

    /// The rules over what can still be read of a Network that failed its
    /// schema, with the same functions as the clean pass:
    /// [`NETWORK_UNIQUE_NODE_IDS`] over the node ids that parse (a node
    /// whose id does not is left out), [`NETWORK_SINGLE_NODE_TOPOLOGY`] when
    /// `topology_type` parses and `nodes` is an array, and
    /// [`NETWORK_RETIRED_NODES`] at each node whose id and status parse,
    /// when the network's status parses.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        use serde_json::Value;
        fn read<T: std::str::FromStr>(v: &Value, key: &str) -> Option<T> {
            v.get(key)?.as_str()?.parse().ok()
        }
        let nodes: &[Value] = match value.get("nodes") {
            Some(Value::Array(nodes)) => nodes,
            Some(_) => return,
            None => &[],
        };
        let ids = nodes.iter().enumerate().filter_map(|(i, n)| {
            let id = read::<NodeId>(n, "node_id")?;
            Some((i, id))
        });
        unique_node_ids(ids, report);
        network_warnings(
            read(value, "topology_type"),
            read(value, "status"),
            nodes
                .iter()
                .map(|n| (read(n, "node_id"), read(n, "status"))),
            report,
        );
    }

    /// [`NETWORK_UNIQUE_NODE_IDS`] at each repeated id, and the warnings
    /// [`NETWORK_SINGLE_NODE_TOPOLOGY`] (at `/nodes`) and
    /// [`NETWORK_RETIRED_NODES`] (at each live node of a retired network).
    fn check_rules(&self, report: &mut Report) {
        let nodes = self.nodes();
        unique_node_ids(nodes.iter().map(|n| n.node_id).enumerate(), report);
        network_warnings(
            Some(self.topology_type),
            Some(self.status),
            nodes.iter().map(|n| (Some(n.node_id), Some(n.status))),
            report,
        );
    }
}

/// [`NETWORK_SINGLE_NODE_TOPOLOGY`] and [`NETWORK_RETIRED_NODES`] over a
/// network's topology, status and nodes (id and status of each), typed or
/// read from a network that failed its schema (`None`: cannot be read, and
/// the rules that need it are not checked).
fn network_warnings(
    topology: Option<TopologyType>,
    status: Option<NetworkStatus>,
    nodes: impl ExactSizeIterator<Item = (Option<NodeId>, Option<NodeStatus>)>,
    report: &mut Report,
) {
    let at = Pointer::root().key("nodes");
    let count = nodes.len();
    if topology == Some(TopologyType::SingleNode) && count > 1 {
        report.warn(
            &at,
            NETWORK_SINGLE_NODE_TOPOLOGY,
            format!("a `single_node` network lists at most one node; this one lists {count}"),
        );
    }
    if status == Some(NetworkStatus::Retired) {
        for (i, node) in nodes.enumerate() {
            if let (Some(id), Some(node_status)) = node {
                if node_status != NodeStatus::Retired {
                    report.warn(
                        at.index(i).key("status"),
                        NETWORK_RETIRED_NODES,
                        format!("the network is `retired` but node {id} is `{node_status}`"),
                    );
                }
            }
        }
    }
}
