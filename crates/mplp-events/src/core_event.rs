//! Observability events of the event taxonomy (`events/mplp-event-core.schema.json`
//! and the family schemas).

mplp_core::wire_enum! {
    /// The twelve event families of the MPLP v1.0.0 event taxonomy
    /// (`event_family` of the core event schema).
    pub enum CoreFamily {
        /// Project import, repository scanning.
        ImportProcess = "import_process",
        /// User intentions, actor actions.
        Intent = "intent",
        /// Intent deltas, change requests.
        DeltaIntent = "delta_intent",
        /// Impact assessment results.
        ImpactAnalysis = "impact_analysis",
        /// Compensation planning.
        CompensationPlan = "compensation_plan",
        /// Methodology selection and execution.
        Methodology = "methodology",
        /// Reasoning graph construction.
        ReasoningGraph = "reasoning_graph",
        /// Pipeline stage transitions (own schema, required).
        PipelineStage = "pipeline_stage",
        /// PSG structural updates (own schema, required).
        GraphUpdate = "graph_update",
        /// Runtime execution lifecycle (own schema, recommended).
        RuntimeExecution = "runtime_execution",
        /// Cost and token usage.
        CostBudget = "cost_budget",
        /// External system integration.
        ExternalIntegration = "external_integration",
    }
}
