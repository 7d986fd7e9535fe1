//! Identifiers of the event schemas: strings of JSON Schema `format: uuid`.
//!
//! The MAP, SA and observability event schemas do not use the strict MPLP
//! identifier pattern (lowercase UUID v4) of the module documents; they say
//! `format: uuid`. mplp-rs accepts on input exactly what the `jsonschema`
//! crate's `uuid` format accepts: 36 characters, hyphens at positions 9, 14,
//! 19 and 24, hex digits in either case, any version and variant. The text is
//! kept, so a round trip is exact. Everything the SDK creates is a lowercase
//! UUID v4.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use mplp_core::check::{CheckValue, expect_str};
use mplp_core::{CollabId, ContextId, EventId, PlanId, Pointer, Report, Rule, StepId, TraceId};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use uuid::Uuid;

/// Why a text is not of JSON Schema `format: uuid`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a UUID (format: uuid): expected 36 characters in the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx with hex digits; {reason}"
)]
pub struct UuidFormatError {
    text: String,
    reason: &'static str,
}

/// Why a text is not of the hyphenated form accepted by the `uuid` format:
/// the error of a text [`mplp_core::id::parse_format_uuid`] refused.
#[cold]
#[inline(never)]
fn refuse_format_uuid(s: &str) -> UuidFormatError {
    let err = |reason| UuidFormatError {
        text: s.to_owned(),
        reason,
    };
    let b = s.as_bytes();
    if b.len() != 36 {
        return err("wrong length");
    }
    if b.get(8) != Some(&b'-')
        || b.get(13) != Some(&b'-')
        || b.get(18) != Some(&b'-')
        || b.get(23) != Some(&b'-')
    {
        return err("hyphens must be at positions 9, 14, 19 and 24");
    }
    err("only hex digits and hyphens are allowed")
}

/// A string of JSON Schema `format: uuid`, as the event schemas use for
/// `event_id`, `context_id`, `plan_id`, `trace_id`, `project_id`, ...
///
/// Reading accepts what the `jsonschema` crate's `uuid` format accepts (any
/// version, upper or lower case) and keeps the text; [`SchemaUuid::new`]
/// writes a lowercase UUID v4.
///
/// ```
/// use mplp_events::SchemaUuid;
/// let u: SchemaUuid = "F308A72C-FA84-11EB-9A03-0242AC130003".parse().unwrap();
/// assert_eq!(u.to_string(), "F308A72C-FA84-11EB-9A03-0242AC130003"); // text kept
/// assert_eq!(u.as_uuid().get_version_num(), 1);
/// assert!("sess-1".parse::<SchemaUuid>().is_err());
/// assert!(SchemaUuid::new().to_string().chars().nth(14) == Some('4'));
/// ```
#[derive(Clone)]
pub struct SchemaUuid {
    uuid: Uuid,
    /// The text when it is not the lowercase hyphenated form of `uuid`.
    text: Option<Box<str>>,
}

impl SchemaUuid {
    /// A fresh random UUID v4, lowercase.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        SchemaUuid::from_uuid(Uuid::new_v4())
    }

    /// The given UUID, written lowercase.
    pub fn from_uuid(uuid: Uuid) -> Self {
        SchemaUuid { uuid, text: None }
    }

    /// Parses text of `format: uuid`, keeping it as written.
    #[inline]
    pub fn parse(s: &str) -> Result<Self, UuidFormatError> {
        match Self::parse_fast(s) {
            Some(u) => Ok(u),
            None => Err(refuse_format_uuid(s)),
        }
    }

    /// [`SchemaUuid::parse`] without the error: the hyphenated text read
    /// with core's vectorised reader ([`mplp_core::id::parse_format_uuid`]),
    /// inlined where the UUID is read (see `mplp_core::id::IdVisitor` for
    /// why). Kept by hand rather than `Uuid::try_parse_ascii` (a table
    /// lookup per digit): measured with callgrind on an SA log (`mplp
    /// validate`, 20,000 lines), reading a `SchemaUuid` through its serde
    /// visitor went from 181 instructions (core's canonical check with the
    /// 8-byte word reader, then a `Result` through two functions) to 78.
    #[inline]
    fn parse_fast(s: &str) -> Option<Self> {
        match mplp_core::id::parse_format_uuid(s.as_bytes()) {
            Some((uuid, true)) => Some(SchemaUuid { uuid, text: None }),
            Some((uuid, false)) => Some(Self::upper_case(uuid, s)),
            None => None,
        }
    }

    /// [`SchemaUuid::parse_fast`] of a string token of exactly 36 bytes
    /// (the fast reader's `fixed_str`, which skips the scan for the
    /// string's end): only hex digits and hyphens are taken, so the bytes
    /// are the whole token, unescaped, and the value is `parse_fast`'s.
    #[inline(always)]
    fn parse_fixed(b: &[u8; 36]) -> Option<Self> {
        match mplp_core::id::parse_format_uuid(b) {
            Some((uuid, true)) => Some(SchemaUuid { uuid, text: None }),
            Some((uuid, false)) => std::str::from_utf8(b)
                .ok()
                .map(|s| Self::upper_case(uuid, s)),
            None => None,
        }
    }

    /// A UUID written with upper-case digits: the text is kept.
    #[cold]
    #[inline(never)]
    fn upper_case(uuid: Uuid, s: &str) -> Self {
        SchemaUuid {
            uuid,
            text: Some(s.into()),
        }
    }

    /// The UUID value.
    pub fn as_uuid(&self) -> &Uuid {
        &self.uuid
    }

    /// True when the text is a canonical MPLP identifier (lowercase UUID v4
    /// of the RFC 4122 variant), so it converts to the mplp-core id types.
    pub fn is_canonical_v4(&self) -> bool {
        self.text.is_none()
            && self.uuid.get_version_num() == 4
            && self.uuid.get_variant() == uuid::Variant::RFC4122
    }

    /// Writes the text into `f`-like sinks without allocating.
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        match &self.text {
            Some(t) => f(t),
            None => {
                let mut buf = Uuid::encode_buffer();
                f(self.uuid.hyphenated().encode_lower(&mut buf))
            }
        }
    }
}

impl PartialEq for SchemaUuid {
    fn eq(&self, other: &Self) -> bool {
        self.uuid == other.uuid && self.text == other.text
    }
}

impl Eq for SchemaUuid {}

impl Hash for SchemaUuid {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.uuid.hash(state);
        self.text.hash(state);
    }
}

impl fmt::Debug for SchemaUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.with_text(|t| write!(f, "SchemaUuid({t})"))
    }
}

impl fmt::Display for SchemaUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.with_text(|t| f.write_str(t))
    }
}

impl FromStr for SchemaUuid {
    type Err = UuidFormatError;
    fn from_str(s: &str) -> Result<Self, UuidFormatError> {
        SchemaUuid::parse(s)
    }
}

impl From<Uuid> for SchemaUuid {
    fn from(u: Uuid) -> Self {
        SchemaUuid::from_uuid(u)
    }
}

macro_rules! from_core_id {
    ($($id:ty),*) => {$(
        impl From<$id> for SchemaUuid {
            fn from(id: $id) -> Self {
                SchemaUuid::from_uuid(*id.as_uuid())
            }
        }
        impl TryFrom<&SchemaUuid> for $id {
            type Error = mplp_core::IdError;
            /// Succeeds when the text is a canonical lowercase UUID v4.
            fn try_from(u: &SchemaUuid) -> Result<Self, mplp_core::IdError> {
                u.with_text(<$id>::parse)
            }
        }
    )*};
}
from_core_id!(EventId, CollabId, ContextId, PlanId, TraceId, StepId);

impl Serialize for SchemaUuid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.with_text(|t| s.serialize_str(t))
    }
}

struct SchemaUuidVisitor;

impl Visitor<'_> for SchemaUuidVisitor {
    type Value = SchemaUuid;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a UUID string (format: uuid)")
    }
    #[inline]
    fn visit_str<E: de::Error>(self, s: &str) -> Result<SchemaUuid, E> {
        match SchemaUuid::parse_fast(s) {
            Some(u) => Ok(u),
            None => Err(refuse_visited(s)),
        }
    }
}

/// The error of a text [`SchemaUuidVisitor`] refused (its cold side).
#[cold]
#[inline(never)]
fn refuse_visited<E: de::Error>(s: &str) -> E {
    E::custom(refuse_format_uuid(s))
}

impl<'de> Deserialize<'de> for SchemaUuid {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(SchemaUuidVisitor)
    }
}

/// The fast reader's read: the same value as `Deserialize`.
impl mplp_json::fast::Direct for SchemaUuid {
    #[inline(always)]
    fn read(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        if let Some(value) = r.fixed_str::<36>().and_then(SchemaUuid::parse_fixed) {
            r.skip_fixed_str::<36>();
            return Ok(value);
        }
        r.read_str(|s| SchemaUuid::parse(s).ok())
    }
}

impl CheckValue for SchemaUuid {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        if let Some(s) = expect_str(value, at, report) {
            if let Err(e) = SchemaUuid::parse(s) {
                report.error(at, Rule::FORMAT, e.to_string());
            }
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for SchemaUuid {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SchemaUuid".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "format": "uuid" })
    }
}

macro_rules! uuid_newtype {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub SchemaUuid);

        impl mplp_json::fast::Direct for $name {
            #[inline]
            fn read(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
                <SchemaUuid as mplp_json::fast::Direct>::read(r).map($name)
            }
        }

        impl $name {
            /// A fresh random id (lowercase UUID v4).
            #[allow(clippy::new_without_default)]
            pub fn new() -> Self {
                $name(SchemaUuid::new())
            }

            /// Parses text of `format: uuid`, keeping it as written.
            pub fn parse(s: &str) -> Result<Self, UuidFormatError> {
                SchemaUuid::parse(s).map($name)
            }

            /// The id as a [`SchemaUuid`].
            pub fn as_schema_uuid(&self) -> &SchemaUuid {
                &self.0
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.with_text(|t| write!(f, "{}({t})", stringify!($name)))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl FromStr for $name {
            type Err = UuidFormatError;
            fn from_str(s: &str) -> Result<Self, UuidFormatError> {
                $name::parse(s)
            }
        }

        impl From<SchemaUuid> for $name {
            fn from(u: SchemaUuid) -> Self {
                $name(u)
            }
        }

        impl From<Uuid> for $name {
            fn from(u: Uuid) -> Self {
                $name(SchemaUuid::from_uuid(u))
            }
        }

        impl CheckValue for $name {
            fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
                SchemaUuid::check_value(value, at, report)
            }
        }

        #[cfg(feature = "schemars")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "string", "format": "uuid" })
            }
        }
    };
}

uuid_newtype! {
    /// The `session_id` of a MAP event: the `collab_id` of the Collab session
    /// (`format: uuid` on the wire, so any UUID is read; see [`SchemaUuid`]).
    ///
    /// ```
    /// use mplp_core::CollabId;
    /// use mplp_events::SessionId;
    /// let collab = CollabId::new();
    /// let session = SessionId::from(collab);
    /// assert_eq!(session.to_string(), collab.to_string());
    /// assert_eq!(session.to_collab_id(), Ok(collab));
    /// // A v1 UUID is a valid session id on the wire, but not a CollabId.
    /// let v1: SessionId = "f308a72c-fa84-11eb-9a03-0242ac130003".parse().unwrap();
    /// assert!(v1.to_collab_id().is_err());
    /// ```
    SessionId
}

uuid_newtype! {
    /// The `sa_id` of an SA event: the single-agent instance that emitted it.
    SaId
}

impl From<CollabId> for SessionId {
    fn from(id: CollabId) -> Self {
        SessionId(SchemaUuid::from(id))
    }
}

impl SessionId {
    /// The Collab id of this session, when the text is a canonical MPLP
    /// identifier (lowercase UUID v4).
    pub fn to_collab_id(&self) -> Result<CollabId, mplp_core::IdError> {
        CollabId::try_from(&self.0)
    }
}

impl TryFrom<&SessionId> for CollabId {
    type Error = mplp_core::IdError;
    fn try_from(s: &SessionId) -> Result<Self, mplp_core::IdError> {
        s.to_collab_id()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn accepts_what_the_uuid_format_accepts() {
        for ok in [
            "f308a72c-fa84-11eb-9a03-0242ac130003",
            "F308A72C-FA84-11EB-9A03-0242AC130003",
            "00000000-0000-0000-0000-000000000000",
            "550e8400-e29b-41d4-c716-446655440000",
        ] {
            let u = SchemaUuid::parse(ok).unwrap();
            assert_eq!(u.to_string(), ok);
            assert_eq!(serde_json::to_string(&u).unwrap(), format!("\"{ok}\""));
        }
        for bad in [
            "",
            "sess-1",
            "{f308a72c-fa84-11eb-9a03-0242ac130003}",
            "urn:uuid:f308a72c-fa84-11eb-9a03-0242ac130003",
            "f308a72cfa8411eb9a030242ac130003",
            "f308a72c-fa84-11eb-9a03-0242ac13000g",
            "f308a72c-fa84-11eb-9a03-0242ac1300034",
        ] {
            assert!(SchemaUuid::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_missing_hyphen_is_named() {
        let good = "f308a72c-fa84-11eb-9a03-0242ac130003";
        for at in [8, 13, 18, 23] {
            let mut text = good.to_owned();
            text.replace_range(at..=at, "0");
            let err = SchemaUuid::parse(&text).unwrap_err();
            assert!(
                err.to_string()
                    .ends_with("hyphens must be at positions 9, 14, 19 and 24"),
                "{text}: {err}"
            );
        }
        let err = SchemaUuid::parse("f308a72c-fa84-11eb-9a03-0242ac13000g").unwrap_err();
        assert!(
            err.to_string()
                .ends_with("only hex digits and hyphens are allowed"),
            "{err}"
        );
        let err = SchemaUuid::parse("f308a72c").unwrap_err();
        assert!(err.to_string().ends_with("wrong length"), "{err}");
    }

    #[test]
    fn canonical_v4_is_lowercase_v4_of_the_rfc_variant() {
        for (text, canonical) in [
            ("ca7350a9-f7ff-4c29-b07d-de720544a6a0", true),
            ("CA7350A9-F7FF-4C29-B07D-DE720544A6A0", false), // uppercase
            ("f308a72c-fa84-11eb-9a03-0242ac130003", false), // version 1
            ("550e8400-e29b-41d4-c716-446655440000", false), // Microsoft variant
        ] {
            let u = SchemaUuid::parse(text).unwrap();
            assert_eq!(u.is_canonical_v4(), canonical, "{text}");
            assert_eq!(EventId::try_from(&u).is_ok(), canonical, "{text}");
        }
        assert!(SchemaUuid::new().is_canonical_v4());
    }

    #[test]
    fn debug_hash_and_the_expected_text() {
        use std::hash::BuildHasher;
        let upper = SchemaUuid::parse("CA7350A9-F7FF-4C29-B07D-DE720544A6A0").unwrap();
        let lower = SchemaUuid::parse("ca7350a9-f7ff-4c29-b07d-de720544a6a0").unwrap();
        assert_eq!(
            format!("{upper:?}"),
            "SchemaUuid(CA7350A9-F7FF-4C29-B07D-DE720544A6A0)"
        );
        assert_eq!(
            format!("{lower:?}"),
            "SchemaUuid(ca7350a9-f7ff-4c29-b07d-de720544a6a0)"
        );
        // Equal values hash equal; the text is part of the value.
        let state = std::collections::hash_map::RandomState::new();
        let same = SchemaUuid::from_uuid(*lower.as_uuid());
        assert_eq!(state.hash_one(&lower), state.hash_one(&same));
        assert_ne!(upper, lower);
        assert_ne!(state.hash_one(&upper), state.hash_one(&lower));
        assert_ne!(state.hash_one(&lower), state.hash_one(SchemaUuid::new()));
        let err = serde_json::from_str::<SchemaUuid>("5").unwrap_err();
        assert!(
            err.to_string()
                .contains("expected a UUID string (format: uuid)"),
            "{err}"
        );
    }

    proptest! {
        #[test]
        fn agrees_with_uuid_crate_on_hyphenated_text(s in "[0-9a-fA-F-]{36}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}") {
            let b = s.as_bytes();
            let shape = b.iter().enumerate().all(|(i, c)| if matches!(i, 8 | 13 | 18 | 23) { *c == b'-' } else { c.is_ascii_hexdigit() });
            let ours = SchemaUuid::parse(&s);
            prop_assert_eq!(ours.is_ok(), shape);
            if let Ok(u) = ours {
                prop_assert_eq!(Some(*u.as_uuid()), Uuid::try_parse(&s).ok());
                prop_assert_eq!(u.to_string(), s);
            }
        }
    }
}
