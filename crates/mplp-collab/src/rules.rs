//! The registry of this crate's rules ([`rules()`]).
//!
//! The rules of the runtime are declared where they are checked
//! (`broadcast`, `conflict`, `runtime`, `swarm`, `turns`). The structure
//! rules of a Collab document are declared in `collab.rs` as [`Rule`]
//! constants; their registry entries are below (to be folded into one
//! `declare_rules!` in `collab.rs` when the declarations there are merged).
//!
//! [`Rule`]: mplp_core::Rule

use mplp_core::Severity;
use mplp_core::rules::{RuleInfo, Scope, Source};

use crate::*;

const COLLAB: &str = "Collab Module";
const MAP_INV: &str = "map-invariants.yaml";

/// The structure rules of a Collab document (see [`Collab`]) and the
/// rules of participation.
const DOCUMENT_RULES: &[RuleInfo] = &[
    RuleInfo::new(
        MAP_SESSION_REQUIRES_PARTICIPANTS,
        Severity::Error,
        Scope::Document,
        Source::Invariant {
            file: MAP_INV,
            id: "map_session_requires_participants",
        },
        "a session has no participant (reported as `min-items` at `/participants`)",
    ),
    RuleInfo::new(
        MAP_MIN_PARTICIPANTS,
        Severity::Error,
        Scope::Document,
        Source::Prose {
            doc: COLLAB,
            section: "5.1 Core Invariants",
        },
        "the seed's name for `map_session_requires_participants`",
    ),
    RuleInfo::new(
        MAP_UNIQUE_PARTICIPANT_IDS,
        Severity::Error,
        Scope::Document,
        Source::Prose {
            doc: COLLAB,
            section: "5.1 Core Invariants",
        },
        "two participants share a `participant_id`",
    ),
    RuleInfo::new(
        MAP_PARTICIPANT_KIND_VALID,
        Severity::Error,
        Scope::Document,
        Source::Invariant {
            file: MAP_INV,
            id: "map_participant_kind_valid",
        },
        "a participant `kind` outside agent, human, system, external (reported as `enum`)",
    ),
    RuleInfo::new(
        MAP_PARTICIPANTS_HAVE_ROLE_IDS,
        Severity::Warning,
        Scope::Document,
        Source::Invariant {
            file: MAP_INV,
            id: "map_participants_have_role_ids",
        },
        "a participant names no (or an empty) `role_id`",
    ),
    RuleInfo::new(
        MAP_ORCHESTRATOR_REQUIRED,
        Severity::Error,
        Scope::Document,
        Source::Prose {
            doc: COLLAB,
            section: "5.1 Core Invariants",
        },
        "an `orchestrated` session without exactly one orchestrator",
    ),
    RuleInfo::new(
        MAP_PAIR_TWO_PARTICIPANTS,
        Severity::Error,
        Scope::Document,
        Source::Prose {
            doc: COLLAB,
            section: "3.1 Mode Descriptions",
        },
        "a `pair` session without exactly two participants",
    ),
    RuleInfo::new(
        MAP_EXCLUSIVE_WRITE,
        Severity::Error,
        Scope::Api,
        Source::Prose {
            doc: COLLAB,
            section: "5.1 Core Invariants",
        },
        "a write with the token of another turn or session",
    ),
    RuleInfo::new(
        MAP_PARTICIPANTS_CAN_ACT,
        Severity::Error,
        Scope::Api,
        Source::Prose {
            doc: COLLAB,
            section: "4.2 Status Semantics",
        },
        "a participant acts while the session is not `active`",
    ),
];

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
