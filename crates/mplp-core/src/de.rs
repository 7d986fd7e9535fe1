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

use serde::{Deserialize, Deserializer};

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

/// Deserializes an optional member that must not be `null` when present.
///
/// Serde reads `null` into `None` for an `Option<T>` field, but the MPLP
/// schemas do not allow `null` for optional members: a `"created_by": null`
/// is a type error, and accepting it would also lose it on the way back out.
/// Use it as `#[serde(default, skip_serializing_if = "Option::is_none",
/// deserialize_with = "mplp_core::not_null")]`.
///
/// ```
/// #[derive(serde::Deserialize, Debug)]
/// struct S {
///     #[serde(default, deserialize_with = "mplp_core::not_null")]
///     name: Option<String>,
/// }
/// assert!(serde_json::from_str::<S>("{}").unwrap().name.is_none());
/// assert_eq!(serde_json::from_str::<S>(r#"{"name":"x"}"#).unwrap().name.as_deref(), Some("x"));
/// assert!(serde_json::from_str::<S>(r#"{"name":null}"#).is_err());
/// ```
pub fn not_null<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// Deserializes a member that may be absent, `null` or a value into
/// `Option<Option<T>>` (absent comes from `#[serde(default)]`), so that all
/// three round-trip.
pub fn nullable<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// Makes a struct deserialize from JSON objects only.
///
/// Serde's derived `Deserialize` for a struct also accepts a JSON *array* of
/// the field values in order (`{"meta": ["1.0.0", "1.0.0"]}` would read as a
/// `Meta`), which no MPLP schema allows. Derive serde with
/// `#[serde(remote = "Self")]` (which turns the derived code into inherent
/// functions) and invoke this macro: the trait impls then accept a map only
/// and delegate to the derived code.
///
/// A side effect of `remote = "Self"`: serde's generated code becomes public
/// inherent `deserialize`/`serialize` functions on the type, which rustdoc
/// lists. They are an implementation detail: always go through the serde
/// traits (`serde_json::from_str`, `Document::from_json`, ...), which refuse
/// arrays; calling `Type::deserialize` by that path name reaches the inherent
/// function instead (`<Type as serde::Deserialize>::deserialize` reaches the
/// trait).
///
/// ```
/// #[derive(Debug, serde::Serialize, serde::Deserialize)]
/// #[serde(remote = "Self", deny_unknown_fields)]
/// struct Point { x: u8, y: u8 }
/// mplp_core::object_only!(Point);
///
/// assert!(serde_json::from_str::<Point>(r#"{"x": 1, "y": 2}"#).is_ok());
/// assert!(serde_json::from_str::<Point>("[1, 2]").is_err());
/// assert_eq!(serde_json::to_string(&Point { x: 1, y: 2 }).unwrap(), r#"{"x":1,"y":2}"#);
/// ```
#[macro_export]
macro_rules! object_only {
    ($ty:ident) => {
        impl<'de> $crate::__private::serde::Deserialize<'de> for $ty {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<Self, D::Error> {
                struct ObjectVisitor;
                impl<'de> $crate::__private::serde::de::Visitor<'de> for ObjectVisitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(concat!("a JSON object (", stringify!($ty), ")"))
                    }
                    fn visit_map<A: $crate::__private::serde::de::MapAccess<'de>>(
                        self,
                        map: A,
                    ) -> ::core::result::Result<$ty, A::Error> {
                        $ty::deserialize(
                            $crate::__private::serde::de::value::MapAccessDeserializer::new(map),
                        )
                    }
                }
                d.deserialize_map(ObjectVisitor)
            }
        }

        impl $crate::__private::serde::Serialize for $ty {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                s: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $ty::serialize(self, s)
            }
        }
    };
}
