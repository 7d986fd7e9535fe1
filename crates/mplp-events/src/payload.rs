//! Typed event payloads: the machinery shared by the MAP and SA payload types.
//!
//! The canonical schemas only say that `payload` is an object. The typed
//! payloads of this crate are SDK-level rules (see the crate's spec notes):
//! a payload field that the seed requires must be present, and a field the
//! SDK types must have the right type. Every other member is kept in
//! `extra` and written back unchanged.

use std::borrow::Cow;
use std::fmt;

use mplp_core::check::{CheckValue, check_integer, expect_array, type_error};
use mplp_core::{CollabMode, JsonObject, Pointer, Report, Rule, Violation};
use serde::Deserializer;
use serde::de::{self, Visitor};
use serde_json::Value;

use crate::SchemaUuid;

/// An object key, borrowed from the input when possible.
pub(crate) struct Key<'de>(pub(crate) Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

/// Reads the value of an envelope member into `slot`, refusing a second
/// occurrence of the member (`name`).
pub(crate) fn take<'de, A: de::MapAccess<'de>, T: serde::Deserialize<'de>>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(mplp_core::de::duplicate_member(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// The `payload` member of an envelope being read: typed when the event
/// type came first, else kept as a value until the type is known.
pub(crate) enum PayloadSlot<P> {
    /// Not seen (yet).
    Empty,
    /// Read with the event type's seed.
    Typed(P),
    /// Seen before `event_type`.
    Early(Value),
}

impl<P> PayloadSlot<P> {
    /// Reads the `payload` member, with `seed` when the event type is
    /// already known; a second `payload` is a duplicate.
    pub(crate) fn read<'de, A, S>(&mut self, map: &mut A, seed: Option<S>) -> Result<(), A::Error>
    where
        A: de::MapAccess<'de>,
        S: de::DeserializeSeed<'de, Value = P>,
    {
        if !matches!(self, PayloadSlot::Empty) {
            return Err(mplp_core::de::duplicate_member("payload"));
        }
        *self = match seed {
            Some(seed) => PayloadSlot::Typed(map.next_value_seed(seed)?),
            None => {
                let mplp_core::StrictValue(v) = map.next_value()?;
                PayloadSlot::Early(v)
            }
        };
        Ok(())
    }

    /// The payload once the whole envelope is read: a payload seen early is
    /// read with `seed` now; an absent one is `absent()`.
    pub(crate) fn finish<E, S>(self, seed: S, absent: impl FnOnce() -> Result<P, E>) -> Result<P, E>
    where
        E: de::Error,
        S: de::DeserializeSeed<'static, Value = P>,
    {
        match self {
            PayloadSlot::Typed(p) => Ok(p),
            PayloadSlot::Early(v) => seed.deserialize(v).map_err(de::Error::custom),
            PayloadSlot::Empty => absent(),
        }
    }
}

/// The rule ids a payload check reports, per profile.
pub(crate) struct PayloadRules {
    pub(crate) required: Rule,
    pub(crate) type_: Rule,
    pub(crate) enum_: Rule,
    pub(crate) format: Rule,
}

impl PayloadRules {
    /// Turns a schema-style violation inside a payload into its SDK rule.
    pub(crate) fn remap(&self, mut v: Violation) -> Violation {
        v.rule = match v.rule {
            Rule::REQUIRED => self.required,
            Rule::ENUM => self.enum_,
            Rule::FORMAT | Rule::PATTERN => self.format,
            Rule::DUPLICATE_KEY | Rule::JSON_SYNTAX => v.rule,
            _ => self.type_,
        };
        v
    }

    /// Reports a payload that is absent although the event type `t` needs
    /// the fields `required` (nothing when it needs none); `why` ends the
    /// message.
    pub(crate) fn missing_payload(
        &self,
        t: impl fmt::Display,
        required: &[&str],
        why: &str,
        at: &Pointer,
        report: &mut Report,
    ) {
        if required.is_empty() {
            return;
        }
        let fields = required
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ");
        report.error(
            at,
            self.required,
            format!("{t} needs a payload with {fields}{why}"),
        );
    }

    /// Moves the violations of a payload check into `report`, each with its
    /// SDK rule.
    pub(crate) fn push_remapped(&self, sub: Report, report: &mut Report) {
        for v in sub {
            report.push(self.remap(v));
        }
    }
}

/// The schema check of one typed payload field.
pub(crate) trait FieldCheck {
    fn check(value: &Value, at: &Pointer, report: &mut Report);
}

macro_rules! field_check_via_check_value {
    ($($t:ty),*) => {$(
        impl FieldCheck for $t {
            fn check(value: &Value, at: &Pointer, report: &mut Report) {
                <$t as CheckValue>::check_value(value, at, report)
            }
        }
    )*};
}
field_check_via_check_value!(String, CollabMode, JsonObject, SchemaUuid, bool);

impl FieldCheck for Value {
    fn check(_: &Value, _: &Pointer, _: &mut Report) {}
}

impl FieldCheck for u64 {
    fn check(value: &Value, at: &Pointer, report: &mut Report) {
        check_integer(value, at, report, Some(0));
    }
}

impl FieldCheck for i64 {
    fn check(value: &Value, at: &Pointer, report: &mut Report) {
        check_integer(value, at, report, None);
        if let Some(n) = value.as_u64() {
            if n > i64::MAX as u64 {
                type_error(value, at, report, "an integer that fits in 64 bits");
            }
        }
    }
}

impl<T: FieldCheck> FieldCheck for Vec<T> {
    fn check(value: &Value, at: &Pointer, report: &mut Report) {
        if let Some(items) = expect_array(value, at, report) {
            for (i, item) in items.iter().enumerate() {
                T::check(item, &at.index(i), report);
            }
        }
    }
}

/// Defines a typed payload: public typed fields (required and optional), an
/// `extra` map for every other member, `new(required..)`, serde that keeps
/// unknown members, and the schema check of the fields.
macro_rules! payload_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident ($label:literal) {
            required { $( $(#[$rmeta:meta])* $req:ident : $rty:ty ),* $(,)? }
            optional { $( $(#[$ometa:meta])* $opt:ident : $oty:ty ),* $(,)? }
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub struct $name {
            $( $(#[$rmeta])* pub $req: $rty, )*
            $( $(#[$ometa])* pub $opt: Option<$oty>, )*
            /// Every other member of the payload, kept and written back
            /// unchanged (after the typed fields). Members named like a typed
            /// field are not written.
            pub extra: mplp_core::JsonObject,
        }

        impl $name {
            /// The member names this type reads into typed fields.
            pub const FIELDS: &'static [&'static str] = &[$(stringify!($req),)* $(stringify!($opt),)*];

            /// A payload with the required fields and nothing else.
            #[allow(clippy::new_without_default)]
            pub fn new($($req: $rty),*) -> Self {
                $name {
                    $($req,)*
                    $($opt: None,)*
                    extra: mplp_core::JsonObject::new(),
                }
            }

            /// The schema-style check of the payload fields (rules are
            /// remapped to the profile's payload rules by the caller).
            #[allow(unused_variables)]
            pub(crate) fn check_fields(
                value: &serde_json::Value,
                at: &mplp_core::Pointer,
                report: &mut mplp_core::Report,
            ) {
                let Some(obj) = value.as_object() else {
                    mplp_core::check::type_error(value, at, report, "an object");
                    return;
                };
                $(
                    match obj.get(stringify!($req)) {
                        Some(v) => <$rty as $crate::payload::FieldCheck>::check(v, &at.key(stringify!($req)), report),
                        None => report.error(
                            at.key(stringify!($req)),
                            mplp_core::Rule::REQUIRED,
                            format!(concat!("missing `{}`: the SDK requires it in a ", $label), stringify!($req)),
                        ),
                    }
                )*
                $(
                    if let Some(v) = obj.get(stringify!($opt)) {
                        <$oty as $crate::payload::FieldCheck>::check(v, &at.key(stringify!($opt)), report);
                    }
                )*
            }
        }

        impl $crate::payload::FieldCheck for $name {
            fn check(value: &serde_json::Value, at: &mplp_core::Pointer, report: &mut mplp_core::Report) {
                $name::check_fields(value, at, report)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut m = s.serialize_map(None)?;
                $( m.serialize_entry(stringify!($req), &self.$req)?; )*
                $( if let Some(v) = &self.$opt { m.serialize_entry(stringify!($opt), v)?; } )*
                for (k, v) in self.extra.iter() {
                    if !Self::FIELDS.contains(&k.as_str()) {
                        m.serialize_entry(k, v)?;
                    }
                }
                m.end()
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("a ", $label))
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<$name, A::Error> {
                        $( let mut $req: Option<$rty> = None; )*
                        $( let mut $opt: Option<$oty> = None; )*
                        let mut extra = serde_json::Map::new();
                        while let Some($crate::payload::Key(key)) = map.next_key()? {
                            match key.as_ref() {
                                $( stringify!($req) => {
                                    if $req.is_some() {
                                        return Err(mplp_core::de::duplicate_member(stringify!($req)));
                                    }
                                    $req = Some(map.next_value()?);
                                } )*
                                $( stringify!($opt) => {
                                    if $opt.is_some() {
                                        return Err(mplp_core::de::duplicate_member(stringify!($opt)));
                                    }
                                    $opt = Some(map.next_value()?);
                                } )*
                                _ => {
                                    let mplp_core::StrictValue(v) = map.next_value()?;
                                    let key = key.into_owned();
                                    if extra.contains_key(&key) {
                                        return Err(serde::de::Error::custom(format_args!(
                                            "duplicate key `{key}`: an object must not name a key twice"
                                        )));
                                    }
                                    extra.insert(key, v);
                                }
                            }
                        }
                        $( let Some($req) = $req else {
                            return Err(mplp_core::de::missing_member(stringify!($req)));
                        }; )*
                        Ok($name {
                            $($req,)*
                            $($opt,)*
                            extra: mplp_core::JsonObject::from(extra),
                        })
                    }
                }
                d.deserialize_map(V)
            }
        }
    };
}

pub(crate) use payload_struct;
