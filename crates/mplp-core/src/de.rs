//! Field deserializers for optional members.

use serde::{Deserialize, Deserializer};

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
