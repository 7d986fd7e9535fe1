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
