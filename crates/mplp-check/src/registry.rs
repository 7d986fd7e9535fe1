//! The complete rule registry: every rule of the SDK, from every crate's
//! `declare_rules!` registry, this crate's own and its bundle rules
//! included. `cargo xtask rules` writes `docs/rules.md` from it, and the
//! dispatch reads it to apply a profile.

use std::collections::HashMap;
use std::sync::OnceLock;

use mplp_core::Violation;
use mplp_core::rules::{Profile, RuleInfo, Source};

mplp_core::declare_rules! {
    /// The rules of the dispatch and its front ends.
    pub const RULES;

    /// A document whose kind cannot be recognised (pass the kind explicitly).
    pub const UNKNOWN_KIND = "unknown-kind" {
        strict: Error,
        scope: Document,
        source: Source::Sdk { note: "mplp-check: kind detection" },
        summary: "the kind of the document cannot be recognised from its members",
    }

    /// A Python value with no JSON form was given to the Python bindings
    /// (a `set`, `NaN`, a circular reference, nesting past the limit).
    pub const PYTHON_VALUE = "python-value" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-py: input" },
        summary: "a Python value has no JSON form",
    }
}

/// The rules this crate declares: [`RULES`] and the bundle's
/// ([`crate::bundle::RULES`]).
pub fn rules() -> impl Iterator<Item = &'static RuleInfo> {
    RULES.iter().chain(crate::bundle::RULES.iter())
}

/// The rule registries of the SDK, by crate: mplp-core's schema rules,
/// then each module crate's, then this crate's (`cargo xtask rules` writes
/// `docs/rules.md` from them).
pub fn rules_by_crate() -> Vec<(&'static str, Vec<&'static RuleInfo>)> {
    vec![
        ("mplp-core", mplp_core::rules::rules().collect()),
        ("mplp-plan", mplp_plan::rules::rules().collect()),
        ("mplp-dialog", mplp_dialog::rules::rules().collect()),
        ("mplp-collab", mplp_collab::rules::rules().collect()),
        ("mplp-events", mplp_events::rules::rules().collect()),
        ("mplp-context", mplp_context::rules().collect()),
        ("mplp-confirm", mplp_confirm::rules().collect()),
        ("mplp-trace", mplp_trace::rules().collect()),
        ("mplp-role", mplp_role::rules().collect()),
        ("mplp-extension", mplp_extension::rules().collect()),
        ("mplp-network", mplp_network::rules().collect()),
        ("mplp-manifest", mplp_manifest::rules().collect()),
        ("mplp-check", rules().collect()),
    ]
}

/// Every rule of the SDK, from every crate's registry ([`rules_by_crate`]).
///
/// ```
/// let all: Vec<_> = mplp_check::all_rules().collect();
/// assert!(all.iter().any(|r| r.rule.as_str() == "sa_plan_dag_acyclic"));
/// assert!(all.iter().any(|r| r.rule.as_str() == "map_session_counts_match"));
/// assert!(all.iter().any(|r| r.rule.as_str() == "bundle_unique_ids"));
/// assert!(all.iter().any(|r| r.rule.as_str() == "python-value"));
/// ```
pub fn all_rules() -> impl Iterator<Item = &'static RuleInfo> {
    rules_by_crate().into_iter().flat_map(|(_, rules)| rules)
}

/// The registered rule `id`, if any (a table built once).
pub fn rule_info(id: &str) -> Option<&'static RuleInfo> {
    static BY_ID: OnceLock<HashMap<&'static str, &'static RuleInfo>> = OnceLock::new();
    BY_ID
        .get_or_init(|| all_rules().map(|r| (r.rule.as_str(), r)).collect())
        .get(id)
        .copied()
}

/// The severity of a rule id under the strict profile, if it is registered.
pub fn strict_severity(rule: &str) -> Option<mplp_core::Severity> {
    rule_info(rule).map(|r| r.strict)
}

/// One violation at the severity `profile` gives its rule.
pub(crate) fn relax(v: Violation, profile: Profile) -> Violation {
    if profile == Profile::Strict {
        // Strict is what the SDK reports: nothing to look up.
        return v;
    }
    let info = rule_info(v.rule.as_str());
    mplp_core::rules::apply_one(v, profile, info)
}
