//! Typed event payloads: the machinery shared by the MAP and SA payload types.
//!
//! The canonical schemas only say that `payload` is an object. The typed
//! payloads of this crate are SDK-level rules (see the crate's spec notes):
//! a payload field that the seed requires must be present, and a field the
//! SDK types must have the right type. Every other member is kept in
//! `extra` and written back unchanged.

use std::fmt;

use mplp_core::check::CheckValue;
use mplp_core::{JsonObject, Pointer, Report, Rule, Violation};
use serde::de::DeserializeOwned;
use serde::{Deserializer, Serialize};
use serde_json::Value;

/// The rule ids a payload check reports, per profile.
pub(crate) struct PayloadRules {
    pub(crate) required: Rule,
    pub(crate) type_: Rule,
    pub(crate) enum_: Rule,
    pub(crate) format: Rule,
    /// What ends the message for an absent payload that has required members.
    pub(crate) missing_why: &'static str,
}

impl PayloadRules {
    /// Turns a schema-style violation inside a payload into its SDK rule.
    /// (The payload is checked as a parsed `Value`, so the parser's rules,
    /// `duplicate-key` and `json-syntax`, are reported before and never
    /// reach this.)
    pub(crate) fn remap(&self, mut v: Violation) -> Violation {
        v.rule = match v.rule {
            Rule::REQUIRED => self.required,
            Rule::ENUM => self.enum_,
            Rule::FORMAT | Rule::PATTERN => self.format,
            _ => self.type_,
        };
        v
    }

    /// Reports a payload that is absent although the event type `t` needs
    /// the fields `required` (nothing when it needs none).
    pub(crate) fn missing_payload(
        &self,
        t: impl fmt::Display,
        required: &[&str],
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
            format!("{t} needs a payload with {fields}{}", self.missing_why),
        );
    }

    /// Moves the violations of a payload check into `report`, each with its
    /// SDK rule.
    pub(crate) fn push_remapped(&self, sub: Report, report: &mut Report) {
        for v in sub {
            report.push(self.remap(v));
        }
    }

    /// The all-errors check of the `payload` member of the event at `at`
    /// whose type is `t`: when absent, [`PayloadRules::missing_payload`];
    /// when an object, `check` (the type's payload check) with its
    /// violations remapped. (A payload that is not an object is the
    /// envelope's `type` error.)
    pub(crate) fn check_payload(
        &self,
        t: impl fmt::Display,
        required: &[&str],
        payload: Option<&Value>,
        check: fn(&Value, &Pointer, &mut Report),
        at: &Pointer,
        report: &mut Report,
    ) {
        let at = at.key("payload");
        let Some(payload) = payload else {
            self.missing_payload(t, required, &at, report);
            return;
        };
        if !payload.is_object() {
            return;
        }
        let mut sub = Report::new();
        check(payload, &at, &mut sub);
        self.push_remapped(sub, report);
    }
}

/// The body of an event payload: a [`payload_struct!`] (its members come
/// from its `#[derive(Wire)]`), or a free [`JsonObject`] (no members).
pub(crate) trait PayloadBody:
    Serialize + DeserializeOwned + CheckValue + mplp_json::fast::Direct
{
    /// The members the payload must have: `<Self as Wire>::REQUIRED`.
    const REQUIRED: &'static [&'static str];

    /// The members kept untyped.
    fn extra(&self) -> &JsonObject;
}

impl PayloadBody for JsonObject {
    const REQUIRED: &'static [&'static str] = &[];

    fn extra(&self) -> &JsonObject {
        self
    }
}

/// What a variant of a payload enum holds: a [`PayloadBody`] (the `payload`
/// member must be there), or an `Option` of one (it may be left out when
/// the body requires nothing). The code [`event_types!`] writes goes
/// through this trait, so one generic line serves every row.
pub(crate) trait PayloadSlot: Serialize + Sized {
    /// The members the body requires.
    const REQUIRED: &'static [&'static str];

    /// The members kept untyped, when there is a payload.
    fn extra(&self) -> Option<&JsonObject>;

    /// Reads a `payload` member that is there.
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;

    /// [`PayloadSlot::read`] by the fast reader, without serde's calls.
    fn read_fast(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp>;

    /// The slot of an absent `payload` member, when the type allows that.
    fn absent() -> Option<Self>;

    /// The all-errors check of the body (an object).
    fn check(payload: &Value, at: &Pointer, report: &mut Report);
}

impl<P: PayloadBody> PayloadSlot for P {
    const REQUIRED: &'static [&'static str] = P::REQUIRED;

    #[inline]
    fn extra(&self) -> Option<&JsonObject> {
        Some(PayloadBody::extra(self))
    }

    #[inline]
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        P::deserialize(d)
    }

    #[inline]
    fn read_fast(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        <P as mplp_json::fast::Direct>::read(r)
    }

    #[inline]
    fn absent() -> Option<Self> {
        None
    }

    fn check(payload: &Value, at: &Pointer, report: &mut Report) {
        P::check_value(payload, at, report);
    }
}

impl<P: PayloadBody> PayloadSlot for Option<P> {
    const REQUIRED: &'static [&'static str] = P::REQUIRED;

    #[inline]
    fn extra(&self) -> Option<&JsonObject> {
        self.as_ref().map(PayloadBody::extra)
    }

    #[inline]
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        P::deserialize(d).map(Some)
    }

    #[inline]
    fn read_fast(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        <P as mplp_json::fast::Direct>::read(r).map(Some)
    }

    #[inline]
    fn absent() -> Option<Self> {
        P::REQUIRED.is_empty().then_some(None)
    }

    fn check(payload: &Value, at: &Pointer, report: &mut Report) {
        P::check_value(payload, at, report);
    }
}

/// Declares a typed payload: public typed fields (required and optional),
/// an `extra` map for every other member, and `new(required..)`. serde,
/// the schema check and the member list come from `#[derive(Wire)]`.
macro_rules! payload_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            required { $( $(#[$rmeta:meta])* $req:ident : $rty:ty ),* $(,)? }
            optional { $( $(#[$ometa:meta])* $opt:ident : $oty:ty ),* $(,)? }
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, mplp_core::Wire)]
        #[non_exhaustive]
        pub struct $name {
            $( $(#[$rmeta])* pub $req: $rty, )*
            $( $(#[$ometa])* pub $opt: Option<$oty>, )*
            /// Every other member of the payload, kept and written back
            /// unchanged (after the typed fields). Members named like a typed
            /// field are not written.
            #[wire(extra)]
            pub extra: mplp_core::JsonObject,
        }

        impl $crate::payload::PayloadBody for $name {
            const REQUIRED: &'static [&'static str] = <$name as mplp_core::Wire>::REQUIRED;

            #[inline]
            fn extra(&self) -> &mplp_core::JsonObject {
                &self.extra
            }
        }

        impl $name {
            /// A payload with the required fields and nothing else.
            #[allow(clippy::new_without_default)]
            pub fn new($($req: $rty),*) -> Self {
                $name {
                    $($req,)*
                    $($opt: None,)*
                    extra: mplp_core::JsonObject::new(),
                }
            }
        }
    };
}

/// Declares the event types of a profile (MAP, SA) and their payloads in
/// one table: one row per event type gives its variant, its `event_type`
/// string, its payload (a [`PayloadBody`], or an `Option` of one when the
/// `payload` member may be left out) and its columns (the profile's
/// per-type facts, such as the MAP family). The required payload members
/// are the body's own (`<P as Wire>::REQUIRED`), never listed here.
///
/// The macro writes:
/// - the event type enum (a [`mplp_core::wire_enum!`]), with the columns
///   as `const fn`s and `required_payload_fields`;
/// - the payload enum, one variant per row, with `event_type`, `extra`,
///   `is_present`, `Serialize` and [`mplp_core::wire::Tagged`] (the read
///   of a payload by its tag, the absent payload and the all-errors check,
///   with the profile's payload rules and `check_tag` for the tag member).
macro_rules! event_types {
    (
        $(#[$tmeta:meta])*
        pub enum $Type:ident;
        $(#[$pmeta:meta])*
        pub enum $Payload:ident;
        columns {
            $( $(#[$cmeta:meta])* $col:ident : $cty:ty ),+ $(,)?
        }
        rules = $rules:expr, check_tag = $check_tag:path;
        $(
            $(#[$vmeta:meta])*
            $V:ident = $wire:literal => $P:ty { $( $vcol:ident : $val:expr ),+ $(,)? }
        ),+ $(,)?
    ) => {
        mplp_core::wire_enum! {
            $(#[$tmeta])*
            pub enum $Type {
                $(
                    $(#[$vmeta])*
                    #[doc = ""]
                    $( #[doc = concat!("- `", stringify!($vcol), "`: `", stringify!($val), "`")] )+
                    $V = $wire,
                )+
            }
        }

        /// One row's columns.
        #[derive(Clone, Copy)]
        struct Columns {
            $( $col: $cty, )+
        }

        impl $Type {
            /// This type's row of the table.
            const fn columns(self) -> Columns {
                match self {
                    $( $Type::$V => Columns { $( $vcol: $val ),+ }, )+
                }
            }

            $(
                $(#[$cmeta])*
                pub const fn $col(self) -> $cty {
                    self.columns().$col
                }
            )+

            /// The payload members the SDK requires for this type (empty
            /// when the payload may be left out): the required members of
            /// its payload struct.
            pub const fn required_payload_fields(self) -> &'static [&'static str] {
                match self {
                    $( $Type::$V => <$P as $crate::payload::PayloadSlot>::REQUIRED, )+
                }
            }

            /// The all-errors check of this type's payload body.
            fn payload_check(self) -> fn(&::serde_json::Value, &mplp_core::Pointer, &mut mplp_core::Report) {
                match self {
                    $( $Type::$V => <$P as $crate::payload::PayloadSlot>::check, )+
                }
            }
        }

        $(#[$pmeta])*
        #[derive(Clone, Debug, PartialEq)]
        pub enum $Payload {
            $(
                #[doc = concat!("`", $wire, "`.")]
                $V($P),
            )+
        }

        impl $Payload {
            /// The event type this payload belongs to.
            pub const fn event_type(&self) -> $Type {
                match self {
                    $( $Payload::$V(_) => $Type::$V, )+
                }
            }

            /// The payload members kept untyped (`extra`; the whole payload
            /// of a type without a typed payload), if there is a payload.
            pub fn extra(&self) -> Option<&mplp_core::JsonObject> {
                match self {
                    $( $Payload::$V(p) => $crate::payload::PayloadSlot::extra(p), )+
                }
            }

            /// True when the event has a `payload` member.
            pub fn is_present(&self) -> bool {
                self.extra().is_some()
            }
        }

        impl ::serde::Serialize for $Payload {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $( $Payload::$V(p) => ::serde::Serialize::serialize(p, s), )+
                }
            }
        }

        impl mplp_core::wire::Tagged for $Payload {
            type Tag = $Type;

            fn tag(&self) -> $Type {
                self.event_type()
            }

            fn is_present(&self) -> bool {
                $Payload::is_present(self)
            }

            fn deserialize_tagged<'de, D: ::serde::Deserializer<'de>>(
                tag: $Type,
                d: D,
            ) -> Result<Self, D::Error> {
                Ok(match tag {
                    $( $Type::$V => $Payload::$V(<$P as $crate::payload::PayloadSlot>::read(d)?), )+
                })
            }

            #[inline(always)]
            fn read_fast(
                tag: $Type,
                r: &mut mplp_json::fast::Reader<'_>,
            ) -> Result<Self, mplp_json::fast::GaveUp> {
                Ok(match tag {
                    $( $Type::$V => $Payload::$V(<$P as $crate::payload::PayloadSlot>::read_fast(r)?), )+
                })
            }

            fn absent<E: ::serde::de::Error>(tag: $Type) -> Result<Self, E> {
                let slot = match tag {
                    $( $Type::$V => <$P as $crate::payload::PayloadSlot>::absent().map($Payload::$V), )+
                };
                slot.ok_or_else(|| mplp_json::de::missing_member("payload"))
            }

            fn check_tag(value: &::serde_json::Value, at: &mplp_core::Pointer, report: &mut mplp_core::Report) {
                $check_tag(value, at, report);
            }

            fn check_member(value: &::serde_json::Value, at: &mplp_core::Pointer, report: &mut mplp_core::Report) {
                <mplp_core::JsonObject as mplp_core::check::CheckValue>::check_value(value, at, report);
            }

            fn check_payload(
                tag: &::serde_json::Value,
                payload: Option<&::serde_json::Value>,
                at: &mplp_core::Pointer,
                report: &mut mplp_core::Report,
            ) {
                if let Some(t) = tag.as_str().and_then($Type::from_wire) {
                    $rules.check_payload(
                        t,
                        t.required_payload_fields(),
                        payload,
                        t.payload_check(),
                        at,
                        report,
                    );
                }
            }
        }
    };
}

pub(crate) use {event_types, payload_struct};
