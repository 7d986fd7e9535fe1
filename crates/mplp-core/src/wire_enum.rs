//! String enums as the schemas write them.

/// Defines a string enum of the wire format: serde as the given strings,
/// `Display`/`FromStr` with the same spelling, `ALL`, `as_str()` and the
/// schema's `enum` check. Used for every status, role and mode enum.
///
/// ```
/// mplp_core::wire_enum! {
///     /// A traffic light.
///     pub enum Light {
///         /// Stop.
///         Red = "red",
///         /// Go.
///         Green = "green_light",
///     }
/// }
/// assert_eq!(Light::Green.as_str(), "green_light");
/// assert_eq!("red".parse::<Light>().unwrap(), Light::Red);
/// assert_eq!(Light::ALL.len(), 2);
/// assert_eq!(serde_json::to_string(&Light::Green).unwrap(), "\"green_light\"");
/// let err = serde_json::from_str::<Light>("\"blue\"").unwrap_err().to_string();
/// assert!(err.contains("unknown variant `blue`, expected `red` or `green_light`"), "{err}");
/// ```
#[macro_export]
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every value, in schema order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every wire spelling, in schema order.
            pub const NAMES: &'static [&'static str] = &[$($wire),+];

            /// The wire spelling.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire),+
                }
            }

            /// The value with this wire spelling.
            #[inline]
            pub fn from_wire(s: &str) -> ::core::option::Option<Self> {
                match s {
                    $($wire => ::core::option::Option::Some($name::$variant),)+
                    _ => ::core::option::Option::None,
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::UnknownVariant;
            fn from_str(s: &str) -> ::core::result::Result<Self, $crate::UnknownVariant> {
                Self::from_wire(s).ok_or_else(|| $crate::UnknownVariant::new(stringify!($name), s, Self::NAMES))
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            #[inline]
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                d.deserialize_str($crate::wire_enum::EnumVisitor::new($name::from_wire, $name::NAMES))
            }
        }

        impl $crate::__private::mplp_json::fast::Direct for $name {
            #[inline]
            fn read(r: &mut $crate::__private::mplp_json::fast::Reader<'_>) -> ::core::result::Result<Self, $crate::__private::mplp_json::fast::GaveUp> {
                const SPELLINGS: &[$crate::__private::mplp_json::fast::Spelling] =
                    &[$($crate::__private::mplp_json::fast::Spelling::new($wire)),+];
                r.read_spelled(SPELLINGS, $name::ALL, $name::from_wire)
            }
        }

        impl $crate::check::CheckValue for $name {
            fn check_value(value: &$crate::__private::serde_json::Value, at: &$crate::Pointer, report: &mut $crate::Report) {
                $crate::wire_enum::check_enum_value(value, at, report, $name::NAMES)
            }
        }

        $crate::__schemars_string!($name, {
            "type": "string",
            "enum": [$($wire),+]
        });
    };
}

/// A text that is not one of an enum's values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {type_name} `{found}`, expected one of: {}", .expected.join(", "))]
pub struct UnknownVariant {
    /// The enum's name.
    pub type_name: &'static str,
    /// The text given.
    pub found: String,
    /// The allowed spellings.
    pub expected: &'static [&'static str],
}

impl UnknownVariant {
    /// Makes the error.
    pub fn new(type_name: &'static str, found: &str, expected: &'static [&'static str]) -> Self {
        UnknownVariant {
            type_name,
            found: found.to_owned(),
            expected,
        }
    }
}

/// Serde visitor for [`wire_enum!`](crate::wire_enum) types.
#[doc(hidden)]
pub struct EnumVisitor<T> {
    from: fn(&str) -> Option<T>,
    names: &'static [&'static str],
}

impl<T> EnumVisitor<T> {
    #[doc(hidden)]
    #[inline]
    pub fn new(from: fn(&str) -> Option<T>, names: &'static [&'static str]) -> Self {
        EnumVisitor { from, names }
    }
}

impl<T> serde::de::Visitor<'_> for EnumVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "one of {}", self.names.join(", "))
    }
    // Inlined where the value is read, so that `from` is a known function
    // there (not a call through a pointer).
    #[inline]
    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<T, E> {
        (self.from)(s).ok_or_else(|| {
            mplp_json::de::note(crate::Rule::ENUM);
            E::unknown_variant(s, self.names)
        })
    }
}

/// The `enum` check of a [`wire_enum!`](crate::wire_enum) value.
#[doc(hidden)]
pub fn check_enum_value(
    value: &serde_json::Value,
    at: &crate::Pointer,
    report: &mut crate::Report,
    names: &'static [&'static str],
) {
    if let Some(s) = crate::check::expect_str(value, at, report) {
        if !names.contains(&s) {
            let hint = mplp_json::de::near_miss(s, names)
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            report.error(
                at,
                crate::Rule::ENUM,
                format!(
                    "`{s}` is not allowed here{hint}; expected one of: {}",
                    names.join(", ")
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::CheckValue;
    use crate::{CollabMode, Pointer, Report};
    use serde_json::json;

    #[test]
    fn a_wire_enum_names_its_spellings_when_refusing() {
        let e = serde_json::from_str::<CollabMode>("5")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("expected one of broadcast, round_robin, orchestrated, swarm, pair"),
            "{e}"
        );
        let found = |v: serde_json::Value| -> Vec<(String, String, String)> {
            let mut report = Report::new();
            CollabMode::check_value(&v, &Pointer::root().key("mode"), &mut report);
            report
                .into_violations()
                .into_iter()
                .map(|v| (v.pointer, v.rule.as_str().to_owned(), v.message))
                .collect()
        };
        assert_eq!(found(json!("swarm")), []);
        assert_eq!(
            found(json!("swarn")),
            [(
                "/mode".to_owned(),
                "enum".to_owned(),
                "`swarn` is not allowed here (did you mean `swarm`?); expected one of: \
                 broadcast, round_robin, orchestrated, swarm, pair"
                    .to_owned()
            )]
        );
        let wrong_type = found(json!(5));
        assert_eq!(wrong_type.len(), 1);
        assert_eq!(wrong_type[0].1, "type");
    }
}
