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

/// Reads an integer member of type `T` with the verdicts and messages of
/// [`crate::check::read_integer`] (what the thorough pass reports too):
/// `-0` is 0, a fraction or exponent is refused, and a number beyond `T`'s
/// range gets a message that names the range. `#[derive(Wire)]` reads every
/// integer member through it.
///
/// ```
/// use serde::de::DeserializeSeed;
/// use mplp_core::de::Integer;
/// let mut de = serde_json::Deserializer::from_str("-0");
/// assert_eq!(Integer::<u64>::new().deserialize(&mut de).unwrap(), 0);
/// let mut de = serde_json::Deserializer::from_str("18446744073709551616");
/// let e = Integer::<u64>::new().deserialize(&mut de).unwrap_err();
/// assert!(e.to_string().contains("from 0 to 18446744073709551615"), "{e}");
/// ```
pub struct Integer<T>(std::marker::PhantomData<T>);

impl<T> Integer<T> {
    /// The reader.
    pub const fn new() -> Self {
        Integer(std::marker::PhantomData)
    }
}

impl<T> Default for Integer<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: crate::check::WireInteger> Integer<T> {
    fn read<E: serde::de::Error>(n: serde_json::Number) -> Result<T, E> {
        crate::check::read_integer::<T>(&n).map_err(|(rule, message)| raise(rule, message))
    }
}

impl<'de, T: crate::check::WireInteger> serde::de::DeserializeSeed<'de> for Integer<T> {
    type Value = T;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        if T::MIN < 0 {
            d.deserialize_i64(self)
        } else {
            d.deserialize_u64(self)
        }
    }
}

impl<'de, T: crate::check::WireInteger> serde::de::Visitor<'de> for Integer<T> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an integer from {} to {}", T::MIN, T::MAX)
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<T, E> {
        Self::read(v.into())
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<T, E> {
        Self::read(v.into())
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<T, E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => Self::read(n),
            None => Err(E::invalid_type(serde::de::Unexpected::Float(v), &self)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Integer;
    use serde::de::DeserializeSeed;

    /// What an integer member expects is named in the error of any other
    /// JSON type, with the range of its type.
    #[test]
    fn an_integer_names_its_range_when_the_type_is_wrong() {
        for text in [r#""7""#, "true", "null", "[]", "{}"] {
            let mut de = serde_json::Deserializer::from_str(text);
            let e = Integer::<u64>::new().deserialize(&mut de).unwrap_err();
            assert!(
                e.to_string()
                    .contains("expected an integer from 0 to 18446744073709551615"),
                "{text}: {e}"
            );
            let mut de = serde_json::Deserializer::from_str(text);
            let e = Integer::<i8>::new().deserialize(&mut de).unwrap_err();
            assert!(
                e.to_string()
                    .contains("expected an integer from -128 to 127"),
                "{text}: {e}"
            );
        }
        let mut de = serde_json::Deserializer::from_str("-5");
        assert_eq!(Integer::<i8>::new().deserialize(&mut de).unwrap(), -5);
    }
}
