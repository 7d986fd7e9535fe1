//! The registry of this crate's rules ([`rules()`]). Each rule is declared
//! once, with its severity and source, where it is checked: the structure
//! rules of a Collab document in `collab.rs`, the runtime's in `broadcast`,
//! `conflict`, `runtime`, `swarm` and `turns`.

use mplp_core::rules::RuleInfo;

use crate::collab::DOCUMENT_RULES;

/// Every rule of mplp-collab: the document rules, then the runtime's.
///
/// ```
/// let ids: Vec<_> = mplp_collab::rules::rules().map(|r| r.rule.as_str()).collect();
/// assert!(ids.contains(&"map_orchestrator_required"));
/// assert!(ids.contains(&"map_turn_order"));
/// ```
pub fn rules() -> impl Iterator<Item = &'static RuleInfo> {
    [
        DOCUMENT_RULES,
        crate::turns::RULES,
        crate::broadcast::RULES,
        crate::swarm::RULES,
        crate::conflict::RULES,
        crate::runtime::RULES,
        crate::runtime::plan::RULES,
    ]
    .into_iter()
    .flatten()
}
