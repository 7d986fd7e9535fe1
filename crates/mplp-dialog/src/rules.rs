//! The registry of this crate's rules ([`rules()`]). The rules are declared
//! once, with their severity and source, where they are checked: a Dialog
//! document's in `dialog.rs`, the agent dialog projection's in
//! `agent/project.rs`.

use mplp_core::rules::RuleInfo;

pub use crate::dialog::RULES;

/// Every rule of mplp-dialog: [`RULES`], then the agent dialog projection's.
///
/// ```
/// let ids: Vec<_> = mplp_dialog::rules::rules().map(|r| r.rule.as_str()).collect();
/// assert!(ids.contains(&"dialog_not_active"));
/// assert!(ids.contains(&"agent_plain_message"));
/// ```
pub fn rules() -> impl Iterator<Item = &'static RuleInfo> {
    RULES.iter().chain(crate::agent::project::RULES)
}
