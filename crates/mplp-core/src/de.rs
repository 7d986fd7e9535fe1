//! Deserialization helpers: optional members, and errors that carry their rule id.
//!
//! Every error that mplp-rs raises while deserializing goes through
//! [`raise`], which records the rule id at the place the error is raised.
//! serde's error types carry only a message, so the rule id travels beside
//! it, in a thread-local slot that the thorough pass of
//! [`Document::validate_json`](crate::Document::validate_json) reads when
//! it has to locate an error itself. The only errors raised elsewhere are
//! the parser's own (syntax, and "invalid type: expected X"), whose rule is
//! `json-syntax` or `type`. No rule id is ever guessed from message text.

use std::cell::Cell;
use std::fmt::Display;

use crate::Rule;

thread_local! {
    static RAISED: Cell<Option<Rule>> = const { Cell::new(None) };
}

/// Makes a deserialization error with `message` for the rule `rule`, and
/// records the rule so that the caller can report it.
///
/// ```
/// use mplp_core::{Rule, de::raise};
/// let e: serde_json::Error = raise(Rule::MIN_LENGTH, "expected a non-empty string");
/// assert_eq!(e.to_string(), "expected a non-empty string");
/// ```
pub fn raise<E: serde::de::Error>(rule: Rule, message: impl Display) -> E {
    note(rule);
    E::custom(message)
}

/// Records `rule` as the rule of the error about to be returned, for an
/// error made with one of serde's own constructors (`unknown_variant`, ...).
pub fn note(rule: Rule) {
    RAISED.with(|r| r.set(Some(rule)));
}

/// Takes the rule of the last error raised with [`raise`] on this thread
/// (and clears it).
pub fn take_raised() -> Option<Rule> {
    RAISED.with(Cell::take)
}

/// The error for a member named twice in one object (`duplicate-key`).
pub fn duplicate_member<E: serde::de::Error>(name: &str) -> E {
    raise(
        Rule::DUPLICATE_KEY,
        format_args!("duplicate member `{name}`: an object must not name a member twice"),
    )
}

/// The error for a required member that is missing (`required`).
pub fn missing_member<E: serde::de::Error>(name: &str) -> E {
    raise(
        Rule::REQUIRED,
        format_args!("missing required member `{name}`"),
    )
}

/// The error for a member the object does not allow
/// (`additional-properties`), with a near-miss suggestion.
pub fn unknown_member<E: serde::de::Error>(name: &str, known: &[&str]) -> E {
    match crate::check::near_miss(name, known) {
        Some(near) => raise(
            Rule::ADDITIONAL_PROPERTIES,
            format_args!("unknown member `{name}`: did you mean `{near}`?"),
        ),
        None => raise(
            Rule::ADDITIONAL_PROPERTIES,
            format_args!(
                "unknown member `{name}`; allowed here: {}",
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    }
}
