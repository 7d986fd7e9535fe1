//! The network and node lifecycles: one table of triggers each
//! ([`NetworkTrigger::rule`], [`NodeTrigger::rule`]).

use mplp_core::{Error, Timestamp};

use crate::{Network, NetworkStatus, NodeId, NodeStatus};

mplp_core::wire_enum! {
    /// What changes a Network's status.
    pub enum NetworkTrigger {
        /// `draft → provisioning`.
        Provision = "provision",
        /// `draft | provisioning → active`.
        Activate = "activate",
        /// `active → degraded`.
        Degrade = "degrade",
        /// `active | degraded → maintenance`.
        Maintain = "maintain",
        /// `degraded | maintenance → active`.
        Restore = "restore",
        /// Every status but `retired` `→ retired`; retires the nodes too.
        Retire = "retire",
    }
}

mplp_core::wire_enum! {
    /// What changes a node's status.
    pub enum NodeTrigger {
        /// `inactive → active`.
        Activate = "activate",
        /// `active | degraded | unreachable → inactive`.
        Deactivate = "deactivate",
        /// `active → degraded`.
        Degrade = "degrade",
        /// `active | degraded → unreachable` (the taxonomy's `connection_lost`).
        Disconnect = "disconnect",
        /// `degraded | unreachable → active` (`connection_established`).
        Recover = "recover",
        /// Every status but `retired` `→ retired`.
        Retire = "retire",
    }
}

impl NetworkTrigger {
    /// The network lifecycle table, and the only place it lives: the
    /// statuses this trigger fires from, and the status it leads to.
    ///
    /// | trigger | from | to |
    /// |---|---|---|
    /// | `provision` | draft | provisioning |
    /// | `activate` | draft, provisioning | active |
    /// | `degrade` | active | degraded |
    /// | `maintain` | active, degraded | maintenance |
    /// | `restore` | degraded, maintenance | active |
    /// | `retire` | draft, provisioning, active, degraded, maintenance | retired |
    ///
    /// `retired` is final.
    ///
    /// ```
    /// use mplp_network::{NetworkStatus::*, NetworkTrigger};
    /// assert_eq!(NetworkTrigger::Restore.rule(), (&[Degraded, Maintenance][..], Active));
    /// ```
    pub const fn rule(self) -> (&'static [NetworkStatus], NetworkStatus) {
        use NetworkStatus::*;
        match self {
            NetworkTrigger::Provision => (&[Draft], Provisioning),
            NetworkTrigger::Activate => (&[Draft, Provisioning], Active),
            NetworkTrigger::Degrade => (&[Active], Degraded),
            NetworkTrigger::Maintain => (&[Active, Degraded], Maintenance),
            NetworkTrigger::Restore => (&[Degraded, Maintenance], Active),
            NetworkTrigger::Retire => (
                &[Draft, Provisioning, Active, Degraded, Maintenance],
                Retired,
            ),
        }
    }
}

impl NodeTrigger {
    /// The node lifecycle table, and the only place it lives.
    ///
    /// | trigger | from | to |
    /// |---|---|---|
    /// | `activate` | inactive | active |
    /// | `deactivate` | active, degraded, unreachable | inactive |
    /// | `degrade` | active | degraded |
    /// | `disconnect` | active, degraded | unreachable |
    /// | `recover` | degraded, unreachable | active |
    /// | `retire` | active, inactive, degraded, unreachable | retired |
    ///
    /// `retired` is final.
    ///
    /// ```
    /// use mplp_network::{NodeStatus::*, NodeTrigger};
    /// assert_eq!(NodeTrigger::Recover.rule(), (&[Degraded, Unreachable][..], Active));
    /// ```
    pub const fn rule(self) -> (&'static [NodeStatus], NodeStatus) {
        use NodeStatus::*;
        match self {
            NodeTrigger::Activate => (&[Inactive], Active),
            NodeTrigger::Deactivate => (&[Active, Degraded, Unreachable], Inactive),
            NodeTrigger::Degrade => (&[Active], Degraded),
            NodeTrigger::Disconnect => (&[Active, Degraded], Unreachable),
            NodeTrigger::Recover => (&[Degraded, Unreachable], Active),
            NodeTrigger::Retire => (&[Active, Inactive, Degraded, Unreachable], Retired),
        }
    }
}

mplp_core::trigger_table!(NetworkStatus, NetworkTrigger, "network");
mplp_core::trigger_table!(NodeStatus, NodeTrigger, "node");

impl Network {
    /// Fires `trigger` if the table allows it, stamping `meta.updated_at`
    /// with `at`; `retire` also retires every node that is not retired yet.
    /// On refusal nothing changes.
    ///
    /// ```
    /// use mplp_network::{Network, NetworkStatus, NetworkTrigger, TopologyType};
    /// use mplp_core::{ContextId, Timestamp};
    /// let mut n = Network::new(ContextId::new(), "n", TopologyType::Mesh)?;
    /// let err = n.fire(NetworkTrigger::Degrade, Timestamp::now()).unwrap_err();
    /// assert_eq!(err.to_string(), "network cannot go from `draft` to `degraded`: `degrade` fires only from `active`, the network is `draft`");
    /// n.fire(NetworkTrigger::Activate, Timestamp::now())?;
    /// assert_eq!(n.status(), NetworkStatus::Active);
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// A [`TransitionError`](mplp_core::TransitionError) (rule `lifecycle-transition`, at `/status`).
    pub fn fire(&mut self, trigger: NetworkTrigger, at: Timestamp) -> Result<(), Error> {
        let next = self.status.fire_at(trigger, "/status")?;
        if next == NetworkStatus::Retired {
            for n in self.nodes.iter_mut().flatten() {
                n.status = NodeStatus::Retired;
            }
        }
        self.status = next;
        self.meta.updated_at = Some(at);
        Ok(())
    }

    /// `draft → provisioning`, now.
    ///
    /// # Errors
    /// As [`Network::fire`].
    pub fn provision(&mut self) -> Result<(), Error> {
        self.fire(NetworkTrigger::Provision, Timestamp::now())
    }

    /// `draft | provisioning → active`, now.
    ///
    /// # Errors
    /// As [`Network::fire`].
    pub fn activate(&mut self) -> Result<(), Error> {
        self.fire(NetworkTrigger::Activate, Timestamp::now())
    }

    /// `active → degraded`, now.
    ///
    /// # Errors
    /// As [`Network::fire`].
    pub fn degrade(&mut self) -> Result<(), Error> {
        self.fire(NetworkTrigger::Degrade, Timestamp::now())
    }

    /// `active | degraded → maintenance`, now.
    ///
    /// # Errors
    /// As [`Network::fire`].
    pub fn maintain(&mut self) -> Result<(), Error> {
        self.fire(NetworkTrigger::Maintain, Timestamp::now())
    }

    /// `degraded | maintenance → active`, now.
    ///
    /// # Errors
    /// As [`Network::fire`].
    pub fn restore(&mut self) -> Result<(), Error> {
        self.fire(NetworkTrigger::Restore, Timestamp::now())
    }

    /// `→ retired` (with every node), now.
    ///
    /// # Errors
    /// As [`Network::fire`].
    pub fn retire(&mut self) -> Result<(), Error> {
        self.fire(NetworkTrigger::Retire, Timestamp::now())
    }

    /// Fires `trigger` on the node `id`, stamping `meta.updated_at` with
    /// `at`. Nodes change only while the network is not `retired`; on
    /// refusal nothing changes.
    ///
    /// # Errors
    /// [`crate::UNKNOWN_NODE`]; [`crate::NETWORK_NODES_NEED_LIVE_NETWORK`];
    /// a [`TransitionError`](mplp_core::TransitionError) at `/nodes/i/status`.
    pub fn fire_node(
        &mut self,
        id: NodeId,
        trigger: NodeTrigger,
        at: Timestamp,
    ) -> Result<(), Error> {
        self.ensure_live()?;
        let network_id = self.network_id;
        let Some((i, node)) = self
            .nodes
            .iter_mut()
            .flatten()
            .enumerate()
            .find(|(_, n)| n.node_id == id)
        else {
            return Err(crate::unknown_node(id, network_id));
        };
        node.status = node
            .status
            .fire_at(trigger, &format!("/nodes/{i}/status"))?;
        self.meta.updated_at = Some(at);
        Ok(())
    }

    /// `inactive → active` for the node `id`, now.
    ///
    /// # Errors
    /// As [`Network::fire_node`].
    pub fn activate_node(&mut self, id: NodeId) -> Result<(), Error> {
        self.fire_node(id, NodeTrigger::Activate, Timestamp::now())
    }

    /// `active | degraded → unreachable` for the node `id`, now.
    ///
    /// # Errors
    /// As [`Network::fire_node`].
    pub fn disconnect_node(&mut self, id: NodeId) -> Result<(), Error> {
        self.fire_node(id, NodeTrigger::Disconnect, Timestamp::now())
    }
}
