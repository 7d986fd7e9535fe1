//! `Context`, `Confirm`, `Trace`, `Role`, `Extension`, `Network` and
//! `Core`: the other module documents, each with the lifecycle operations
//! its Rust type has. Statuses change only through these operations (the
//! Rust type's guarded transitions); a refusal is `TransitionError`, an
//! invalid new document `ValidationError`. `fire(trigger)` takes any
//! trigger of the type's table by its wire name; the named methods are
//! its common triggers.

use mplp_confirm::{ConfirmDecision, ConfirmTargetType, DecisionStatus};
use mplp_context::{ContextRoot, ContextTrigger};
use mplp_core::{ContextId, ModuleName, MplpId, PlanId, Timestamp};
use mplp_extension::{ExtensionTrigger, ExtensionType, SemVer};
use mplp_manifest::{CoreTrigger, ModuleDescriptor, ModuleTrigger};
use mplp_network::{NetworkNode, NetworkTrigger, NodeId, NodeKind, NodeTrigger, TopologyType};
use mplp_trace::{SegmentId, SegmentTrigger, TraceTrigger};
use pyo3::prelude::*;

use crate::class::{document_class, parse, sdk, to_python};

document_class! {
    /// A valid MPLP Context: the world a piece of work runs in (its domain,
    /// environment, constraints). `Context(data)` validates `data`;
    /// `Context.create(...)` makes a new `draft` one.
    PyContext = "Context"(mplp_context::Context, mplp_check::CONTEXT, Context),
    id context_id: |d| d.context_id,
    status: |d| d.status().as_str(),
    fire: ContextTrigger,
    ops {
        /// `draft -> active`.
        activate,
        /// `active -> suspended`.
        suspend,
        /// `suspended -> active`.
        resume,
        /// `active|suspended -> archived`.
        archive,
        /// `archived -> active`.
        restore,
        /// Closes the Context (final).
        close,
    }
    {
    /// A new `draft` Context with a fresh id, created now. `ValidationError`
    /// when `title` is empty.
    #[staticmethod]
    #[pyo3(signature = (title, domain, environment, entry_point = None))]
    fn create(
        py: Python<'_>,
        title: String,
        domain: String,
        environment: String,
        entry_point: Option<String>,
    ) -> PyResult<PyContext> {
        let mut root = ContextRoot::new(domain, environment);
        if let Some(entry) = entry_point {
            root = root.with_entry_point(entry);
        }
        sdk(py, mplp_context::Context::new(title, root)).map(|doc| PyContext { doc })
    }

    /// The Context's title.
    #[getter]
    fn title(&self) -> String {
        self.doc.title.to_string()
    }

    /// Nothing when agents may execute in this Context (it is `active`);
    /// else `TransitionError` (rule `sa_context_must_be_active`).
    fn ensure_active(&self, py: Python<'_>) -> PyResult<()> {
        sdk(py, self.doc.ensure_active())
    }
    }
}

document_class! {
    /// A valid MPLP Confirm: a request for approval of a Context, Plan,
    /// Trace, ... and its decisions. `Confirm(data)` validates `data`;
    /// `Confirm.request(...)` makes a new `pending` one.
    PyConfirm = "Confirm"(mplp_confirm::Confirm, mplp_check::CONFIRM, Confirm),
    id confirm_id: |d| d.confirm_id,
    status: |d| d.status().as_str(),
    ops {
    }
    {
    /// A `pending` request, asked now by `requested_by`, to approve the
    /// document `target_id` of kind `target_type` (`context`, `plan`,
    /// `trace`, ...).
    #[staticmethod]
    #[pyo3(signature = (target_type, target_id, requested_by, reason = None))]
    fn request(
        target_type: &str,
        target_id: &str,
        requested_by: String,
        reason: Option<String>,
    ) -> PyResult<PyConfirm> {
        let target_type: ConfirmTargetType = parse("target_type", target_type)?;
        let target_id: MplpId = parse("target_id", target_id)?;
        let mut doc = mplp_confirm::Confirm::request(target_type, target_id, requested_by);
        if let Some(reason) = reason {
            doc = doc.with_reason(reason);
        }
        Ok(PyConfirm { doc })
    }

    /// The kind of the target document.
    #[getter]
    fn target_type(&self) -> &'static str {
        self.doc.target_type.as_str()
    }

    /// The target document's id.
    #[getter]
    fn target_id(&self) -> String {
        self.doc.target_id.to_string()
    }

    /// Takes a decision (`approved`, `rejected` or `cancelled`) by the role
    /// `by`, now: recorded and the status moved together, or
    /// `TransitionError` and nothing changes.
    #[pyo3(signature = (decision, by, reason = None))]
    fn decide(
        &mut self,
        py: Python<'_>,
        decision: &str,
        by: String,
        reason: Option<String>,
    ) -> PyResult<()> {
        let status: DecisionStatus = parse("decision", decision)?;
        let mut d = ConfirmDecision::new(status, by);
        if let Some(reason) = reason {
            d = d.with_reason(reason);
        }
        sdk(py, self.doc.decide(d))
    }

    /// Approves, now, by `by`.
    fn approve(&mut self, py: Python<'_>, by: String) -> PyResult<()> {
        sdk(py, self.doc.approve(by))
    }

    /// Rejects, now, by `by`, for `reason`.
    fn reject(&mut self, py: Python<'_>, by: String, reason: String) -> PyResult<()> {
        sdk(py, self.doc.reject(by, reason))
    }

    /// Withdraws the request, now, by `by`.
    fn cancel(&mut self, py: Python<'_>, by: String) -> PyResult<()> {
        sdk(py, self.doc.cancel(by))
    }

    /// The decisions, oldest first, as dicts.
    fn decisions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.doc.decisions())
    }
    }
}

document_class! {
    /// A valid MPLP Trace: the record of an execution (its root span and
    /// segments). `Trace(data)` validates `data`; `Trace.create(...)` makes
    /// a new `pending` one.
    PyTrace = "Trace"(mplp_trace::Trace, mplp_check::TRACE, Trace),
    id trace_id: |d| d.trace_id(),
    status: |d| d.status().as_str(),
    fire: TraceTrigger,
    ops {
        /// `pending -> running`.
        start,
        /// `running -> completed`.
        complete,
        /// `running -> failed`.
        fail,
        /// `pending|running -> cancelled`.
        cancel,
    }
    {
    /// A `pending` trace of an execution in `context_id` (of the plan
    /// `plan_id`, when given), with fresh ids.
    #[staticmethod]
    #[pyo3(signature = (context_id, plan_id = None))]
    fn create(context_id: &str, plan_id: Option<&str>) -> PyResult<PyTrace> {
        let context: ContextId = parse("context_id", context_id)?;
        let doc = match plan_id {
            Some(p) => mplp_trace::Trace::for_plan(context, parse::<PlanId>("plan_id", p)?),
            None => mplp_trace::Trace::new(context),
        };
        Ok(PyTrace { doc })
    }

    /// The Context the execution runs in.
    #[getter]
    fn context_id(&self) -> String {
        self.doc.context_id().to_string()
    }

    /// The Plan executed, if any.
    #[getter]
    fn plan_id(&self) -> Option<String> {
        self.doc.plan_id().map(|p| p.to_string())
    }

    /// Adds a `pending` segment under `parent` (a segment id) or at the top;
    /// returns its id.
    #[pyo3(signature = (label, parent = None))]
    fn add_segment(&mut self, py: Python<'_>, label: String, parent: Option<&str>) -> PyResult<String> {
        let parent: Option<SegmentId> = parent.map(|p| parse("parent", p)).transpose()?;
        sdk(py, self.doc.add_segment(label, parent)).map(|id| id.to_string())
    }

    /// Fires a segment trigger by name (`start`, `complete`, `fail`,
    /// `cancel`, `skip`) on the segment `segment_id`, now; segments change
    /// only while the trace is `running`.
    fn fire_segment(&mut self, py: Python<'_>, segment_id: &str, trigger: &str) -> PyResult<()> {
        let id: SegmentId = parse("segment_id", segment_id)?;
        let trigger: SegmentTrigger = parse("trigger", trigger)?;
        sdk(py, self.doc.fire_segment(id, trigger, Timestamp::now()))
    }

    /// The segments, in document order, as dicts.
    fn segments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.doc.segments())
    }
    }
}

document_class! {
    /// A valid MPLP Role: a named set of capabilities. `Role(data)`
    /// validates `data`; `Role.create(...)` makes a new one. A Role has no
    /// lifecycle; its capabilities change with `grant` and `revoke`.
    PyRole = "Role"(mplp_role::Role, mplp_check::ROLE, Role),
    id role_id: |d| d.role_id,
    ops {
    }
    {
    /// A new Role with a fresh id, created now.
    #[staticmethod]
    #[pyo3(signature = (name, description = None, capabilities = None))]
    fn create(
        name: String,
        description: Option<String>,
        capabilities: Option<Vec<String>>,
    ) -> PyRole {
        let mut doc = mplp_role::Role::new(name);
        if let Some(description) = description {
            doc = doc.with_description(description);
        }
        if let Some(capabilities) = capabilities {
            doc = doc.with_capabilities(capabilities);
        }
        PyRole { doc }
    }

    /// The role's name.
    #[getter]
    fn name(&self) -> String {
        self.doc.name.clone()
    }

    /// The capabilities, in order (each once).
    #[getter]
    fn capabilities(&self) -> Vec<String> {
        self.doc.capabilities.clone().unwrap_or_default()
    }

    /// Whether the role has `capability`.
    fn can(&self, capability: &str) -> bool {
        self.doc.can(capability)
    }

    /// Grants `capability`; False when the role had it already.
    fn grant(&mut self, capability: String) -> bool {
        self.doc.grant(capability)
    }

    /// Revokes `capability`; False when the role did not have it.
    fn revoke(&mut self, capability: &str) -> bool {
        self.doc.revoke(capability)
    }
    }
}

document_class! {
    /// A valid MPLP Extension: a capability, policy, integration, ... plugged
    /// into a Context. `Extension(data)` validates `data`;
    /// `Extension.create(...)` makes a new `registered` one.
    PyExtension = "Extension"(mplp_extension::Extension, mplp_check::EXTENSION, Extension),
    id extension_id: |d| d.extension_id,
    status: |d| d.status().as_str(),
    fire: ExtensionTrigger,
    ops {
        /// `registered|inactive -> active`.
        activate,
        /// `active -> inactive`.
        deactivate,
        /// `registered|active|inactive -> deprecated` (final).
        deprecate,
    }
    {
    /// A `registered` Extension with a fresh id in `context_id`.
    /// `extension_type`: `capability`, `policy`, `integration`,
    /// `transformation`, `validation` or `other`; `version`: SemVer 2.0.0
    /// (`ValidationError` otherwise, or for an empty name).
    #[staticmethod]
    fn create(
        py: Python<'_>,
        context_id: &str,
        name: String,
        extension_type: &str,
        version: &str,
    ) -> PyResult<PyExtension> {
        let context: ContextId = parse("context_id", context_id)?;
        let extension_type: ExtensionType = parse("extension_type", extension_type)?;
        sdk(py, mplp_extension::Extension::new(context, name, extension_type, version))
            .map(|doc| PyExtension { doc })
    }

    /// The version (SemVer).
    #[getter]
    fn version(&self) -> String {
        self.doc.version().as_str().to_owned()
    }

    /// Moves to a newer `version` (higher SemVer precedence; not when
    /// `deprecated`): `TransitionError` (`extension_version_increases`)
    /// otherwise, and nothing changes.
    fn upgrade(&mut self, py: Python<'_>, version: &str) -> PyResult<()> {
        let version: SemVer = parse("version", version)?;
        sdk(py, self.doc.upgrade(version))
    }
    }
}

document_class! {
    /// A valid MPLP Network: the nodes (agents, services, queues, ...) of a
    /// deployment and their topology. `Network(data)` validates `data`;
    /// `Network.create(...)` makes a new `draft` one.
    PyNetwork = "Network"(mplp_network::Network, mplp_check::NETWORK, Network),
    id network_id: |d| d.network_id,
    status: |d| d.status().as_str(),
    fire: NetworkTrigger,
    ops {
        /// `draft -> provisioning`.
        provision,
        /// `draft|provisioning -> active`.
        activate,
        /// `active -> degraded`.
        degrade,
        /// `active|degraded -> maintenance`.
        maintain,
        /// `degraded|maintenance -> active`.
        restore,
        /// Every status but `retired` `-> retired`; retires the nodes too.
        retire,
    }
    {
    /// A `draft` network with no nodes in `context_id`; `topology_type`:
    /// `single_node`, `hub_spoke`, `mesh`, `hierarchical`, `hybrid`, `other`.
    #[staticmethod]
    fn create(
        py: Python<'_>,
        context_id: &str,
        name: String,
        topology_type: &str,
    ) -> PyResult<PyNetwork> {
        let context: ContextId = parse("context_id", context_id)?;
        let topology: TopologyType = parse("topology_type", topology_type)?;
        sdk(py, mplp_network::Network::new(context, name, topology)).map(|doc| PyNetwork { doc })
    }

    /// Adds an `inactive` node of `kind` (`agent`, `service`, `database`,
    /// `queue`, `external`, `other`) and returns its id.
    #[pyo3(signature = (kind, name = None, role_id = None))]
    fn add_node(
        &mut self,
        py: Python<'_>,
        kind: &str,
        name: Option<String>,
        role_id: Option<String>,
    ) -> PyResult<String> {
        let kind: NodeKind = parse("kind", kind)?;
        let mut node = NetworkNode::new(kind);
        if let Some(name) = name {
            node = node.with_name(name);
        }
        if let Some(role) = role_id {
            node = node.with_role(role);
        }
        sdk(py, self.doc.add_node(node)).map(|id| id.to_string())
    }

    /// Removes the node `node_id` and returns it as a dict.
    fn remove_node<'py>(&mut self, py: Python<'py>, node_id: &str) -> PyResult<Bound<'py, PyAny>> {
        let id: NodeId = parse("node_id", node_id)?;
        let node = sdk(py, self.doc.remove_node(id))?;
        to_python(py, &node)
    }

    /// Fires a node trigger by name (`activate`, `deactivate`, `degrade`,
    /// `disconnect`, `recover`, `retire`) on the node `node_id`, now.
    fn fire_node(&mut self, py: Python<'_>, node_id: &str, trigger: &str) -> PyResult<()> {
        let id: NodeId = parse("node_id", node_id)?;
        let trigger: NodeTrigger = parse("trigger", trigger)?;
        sdk(py, self.doc.fire_node(id, trigger, Timestamp::now()))
    }

    /// The nodes, in document order, as dicts.
    fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.doc.nodes())
    }
    }
}

document_class! {
    /// A valid MPLP Core document: the manifest of a protocol instance (its
    /// modules and their status). `Core(data)` validates `data`;
    /// `Core.create(modules)` makes a new `draft` one.
    PyCore = "Core"(mplp_manifest::CoreManifest, mplp_check::CORE, Core),
    id core_id: |d| d.core_id,
    status: |d| d.status().as_str(),
    fire: CoreTrigger,
    ops {
        /// `draft -> active`.
        activate,
        /// `active -> deprecated`.
        deprecate,
        /// `draft|active|deprecated -> archived` (final: modules no longer change).
        archive,
    }
    {
    /// A `draft` manifest enabling `modules` (module names: `context`,
    /// `plan`, ...), each at version 1.0.0; `ValidationError` when empty or
    /// a module is listed twice.
    #[staticmethod]
    fn create(py: Python<'_>, modules: Vec<String>) -> PyResult<PyCore> {
        let modules = modules
            .iter()
            .map(|m| parse::<ModuleName>("module", m))
            .collect::<PyResult<Vec<_>>>()?;
        sdk(py, mplp_manifest::CoreManifest::new(modules)).map(|doc| PyCore { doc })
    }

    /// Lists the module `module` (enabled) at `version`.
    #[pyo3(signature = (module, version = "1.0.0", description = None))]
    fn add_module(
        &mut self,
        py: Python<'_>,
        module: &str,
        version: &str,
        description: Option<String>,
    ) -> PyResult<()> {
        let m: ModuleName = parse("module", module)?;
        let mut d = sdk(py, ModuleDescriptor::new(m, version))?;
        if let Some(description) = description {
            d = d.with_description(description);
        }
        sdk(py, self.doc.add_module(d))
    }

    /// Removes the module `module` (not a required one, not the last) and
    /// returns its descriptor as a dict.
    fn remove_module<'py>(&mut self, py: Python<'py>, module: &str) -> PyResult<Bound<'py, PyAny>> {
        let m: ModuleName = parse("module", module)?;
        let d = sdk(py, self.doc.remove_module(m))?;
        to_python(py, &d)
    }

    /// Marks the module required (it must be enabled) or not.
    fn set_required(&mut self, py: Python<'_>, module: &str, required: bool) -> PyResult<()> {
        let m: ModuleName = parse("module", module)?;
        sdk(py, self.doc.set_required(m, required))
    }

    /// Fires a module trigger by name (`enable`, `disable`, `trial`,
    /// `deprecate`) on the module `module`, now.
    fn fire_module(&mut self, py: Python<'_>, module: &str, trigger: &str) -> PyResult<()> {
        let m: ModuleName = parse("module", module)?;
        let trigger: ModuleTrigger = parse("trigger", trigger)?;
        sdk(py, self.doc.fire_module(m, trigger, Timestamp::now()))
    }

    /// Whether the module is listed and `enabled`.
    fn is_enabled(&self, module: &str) -> PyResult<bool> {
        let m: ModuleName = parse("module", module)?;
        Ok(self.doc.is_enabled(m))
    }

    /// The module descriptors, in order, as dicts.
    fn modules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.doc.modules())
    }
    }
}
