//! The registry of this crate's rules ([`rules()`]).
//!
//! The rules are declared in `dialog.rs` as [`Rule`] constants; their
//! registry entries are below (to be folded into one `declare_rules!` in
//! `dialog.rs` when the declarations there are merged).
//!
//! [`Rule`]: mplp_core::Rule

use mplp_core::Severity;
use mplp_core::rules::{RuleInfo, Scope, Source};

use crate::agent::{
    AGENT_DIALOG_DATA_INVALID, AGENT_DIALOG_STATE_MISSING, AGENT_MESSAGE_DATA_INVALID,
    AGENT_PLAIN_MESSAGE, AGENT_ROLE_MISMATCH,
};
use crate::{
    DIALOG_ENDED_BEFORE_STARTED, DIALOG_ENDED_WITHOUT_ENDED_AT, DIALOG_MESSAGE_AFTER_END,
    DIALOG_MESSAGES_OUT_OF_ORDER, DIALOG_NOT_ACTIVE, DIALOG_OPEN_WITH_ENDED_AT,
};

const TIMING: Source = Source::Sdk {
    note: "mplp-dialog: 4. Timing rules (SPEC-QUESTIONS 19)",
};

const AGENT: Source = Source::Sdk {
    note: "mplp-dialog: 8. Agent dialogs (issue 13)",
};

/// The rules of a Dialog document and of its API.
pub const RULES: &[RuleInfo] = &[
    RuleInfo::new(
        DIALOG_NOT_ACTIVE,
        Severity::Error,
        Scope::Api,
        Source::Prose {
            doc: "Dialog Module",
            section: "4.2 Status Semantics",
        },
        "a message is added to a dialog that is not `active`",
    ),
    RuleInfo::new(
        DIALOG_ENDED_BEFORE_STARTED,
        Severity::Error,
        Scope::Document,
        TIMING,
        "`ended_at` is earlier than `started_at`",
    ),
    RuleInfo::new(
        DIALOG_OPEN_WITH_ENDED_AT,
        Severity::Error,
        Scope::Document,
        TIMING,
        "an `active` or `paused` dialog has `ended_at`",
    ),
    RuleInfo::new(
        DIALOG_ENDED_WITHOUT_ENDED_AT,
        Severity::Warning,
        Scope::Document,
        TIMING,
        "a `completed` or `cancelled` dialog has no `ended_at`",
    ),
    RuleInfo::new(
        DIALOG_MESSAGE_AFTER_END,
        Severity::Warning,
        Scope::Document,
        TIMING,
        "a message is timestamped after `ended_at`",
    ),
    RuleInfo::new(
        DIALOG_MESSAGES_OUT_OF_ORDER,
        Severity::Warning,
        Scope::Document,
        TIMING,
        "a message is timestamped before the one preceding it",
    ),
    RuleInfo::new(
        AGENT_MESSAGE_DATA_INVALID,
        Severity::Error,
        Scope::Api,
        AGENT,
        "reading an MPLP dialog as an agent dialog: an `agent.message` event's data is not an agent message",
    ),
    RuleInfo::new(
        AGENT_DIALOG_DATA_INVALID,
        Severity::Error,
        Scope::Api,
        AGENT,
        "reading an MPLP dialog as an agent dialog: the `agent.dialog` event's data is not a tree node and top prompt",
    ),
    RuleInfo::new(
        AGENT_PLAIN_MESSAGE,
        Severity::Warning,
        Scope::Api,
        AGENT,
        "reading an MPLP dialog as an agent dialog: a message without an `agent.message` event becomes a text message with a new id",
    ),
    RuleInfo::new(
        AGENT_ROLE_MISMATCH,
        Severity::Warning,
        Scope::Api,
        AGENT,
        "reading an MPLP dialog as an agent dialog: a message's role is not the projection of its event's role",
    ),
    RuleInfo::new(
        AGENT_DIALOG_STATE_MISSING,
        Severity::Warning,
        Scope::Api,
        AGENT,
        "reading an MPLP dialog as an agent dialog: no `agent.dialog` event (owner from `meta.created_by`, a tree root)",
    ),
];

/// Every rule of mplp-dialog ([`RULES`]).
///
/// ```
/// let ids: Vec<_> = mplp_dialog::rules::rules().map(|r| r.rule.as_str()).collect();
/// assert!(ids.contains(&"dialog_not_active"));
/// ```
pub fn rules() -> impl Iterator<Item = &'static RuleInfo> {
    RULES.iter()
}
