//! Small value types that carry a schema rule in their type: non-empty
//! strings, semantic versions, non-empty and unique lists, and JSON objects
//! that refuse duplicate keys.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::check::{CheckValue, check_array_of, check_unique_items, expect_str};
use crate::{JsonObject, Pointer, Report, Rule};

// ---------------------------------------------------------------------------
// ShortString

/// A string that keeps up to [`ShortString::INLINE_CAPACITY`] bytes inline
/// and goes to the heap only when longer: for the free-form names of a
/// document that are short by nature (participant ids, role ids, agent
/// roles, authors, display names), so that reading a document with many of
/// them allocates a block per long name only.
///
/// It is a [`compact_str::CompactString`] underneath (a well-kept crate,
/// the same 24 bytes as a `String`; an inline string needs `unsafe`, which
/// this workspace forbids), behind a type of our own, so that the
/// dependency can change without changing this API. Long prose (titles,
/// descriptions, message contents) stays in `String`: past the inline
/// capacity, the compact form only adds work.
///
/// It reads and writes as a JSON string and compares, hashes and orders
/// as its `str`.
///
/// ```
/// use mplp_core::ShortString;
/// let role: ShortString = "reviewer".into();
/// assert_eq!(role, "reviewer");
/// assert!(role.is_inline());
/// assert!(!ShortString::from("a text of more than twenty-four bytes").is_inline());
/// assert_eq!(serde_json::to_string(&role).unwrap(), r#""reviewer""#);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShortString(compact_str::CompactString);

impl ShortString {
    /// Texts of up to this many bytes are stored inline.
    pub const INLINE_CAPACITY: usize = std::mem::size_of::<String>();

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// Whether the text is stored inline (no heap block): true for every
    /// text of at most [`ShortString::INLINE_CAPACITY`] bytes.
    pub fn is_inline(&self) -> bool {
        !self.0.is_heap_allocated()
    }

    /// The text as a `String` (one allocation when it was inline).
    pub fn into_string(self) -> String {
        self.0.into_string()
    }
}

impl Deref for ShortString {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for ShortString {
    #[inline]
    fn as_ref(&self) -> &str {
        self.0.as_str()
    }
}

impl std::borrow::Borrow<str> for ShortString {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Debug for ShortString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0.as_str(), f)
    }
}

impl fmt::Display for ShortString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_str())
    }
}

impl FromStr for ShortString {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(ShortString::from(s))
    }
}

impl From<&str> for ShortString {
    // Inlined where it is called (the fast reader's read of every role of a
    // MAP log line): a call cost some 31 instructions a string (issue 41).
    #[inline]
    fn from(s: &str) -> Self {
        ShortString(compact_str::CompactString::from(s))
    }
}

impl From<&String> for ShortString {
    fn from(s: &String) -> Self {
        ShortString::from(s.as_str())
    }
}

/// Keeps the `String`'s heap block when the text is too long to go inline.
impl From<String> for ShortString {
    fn from(s: String) -> Self {
        ShortString(compact_str::CompactString::from(s))
    }
}

impl From<ShortString> for String {
    fn from(s: ShortString) -> String {
        s.into_string()
    }
}

impl From<ShortString> for Value {
    fn from(s: ShortString) -> Value {
        Value::String(s.into_string())
    }
}

impl PartialEq<str> for ShortString {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ShortString {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for ShortString {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<ShortString> for str {
    fn eq(&self, other: &ShortString) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<ShortString> for &str {
    fn eq(&self, other: &ShortString) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<ShortString> for String {
    fn eq(&self, other: &ShortString) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Serialize for ShortString {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ShortString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ShortVisitor;
        impl Visitor<'_> for ShortVisitor {
            type Value = ShortString;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                // `String`'s reader's words, so that errors are unchanged.
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ShortString, E> {
                Ok(ShortString::from(v))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<ShortString, E> {
                Ok(ShortString::from(v))
            }
        }
        d.deserialize_string(ShortVisitor)
    }
}

/// The fast reader's read: the same value as `Deserialize` (any string
/// token, decoded), without serde's `deserialize_string` and visitor calls
/// (measured with callgrind on a MAP log, whose roles are `ShortString`s).
impl mplp_json::fast::Direct for ShortString {
    #[inline]
    fn read(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        r.read_str(|s| Some(ShortString::from(s)))
    }
}

impl CheckValue for ShortString {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        expect_str(value, at, report);
    }
}

crate::__schemars_string!(ShortString, { "type": "string" });

// ---------------------------------------------------------------------------
// NonEmpty

/// A string of at least one character (`minLength: 1`), held as an `S`:
/// [`NonEmptyString`] for prose (titles, descriptions),
/// [`NonEmptyShortString`] for short names (a participant id),
/// `NonEmpty<Box<str>>` for prose kept as read, in 16 bytes rather than
/// 24 (a plan step's description: see `PlanStep`).
///
/// ```
/// use mplp_core::{NonEmptyShortString, NonEmptyString};
/// let title = NonEmptyString::new("Review the pull request").unwrap();
/// assert_eq!(title.as_str(), "Review the pull request");
/// assert!(NonEmptyString::new("").is_err());
/// let id = NonEmptyShortString::new("agent-1").unwrap();
/// assert_eq!(id, "agent-1");
/// assert!(NonEmptyShortString::new("").is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NonEmpty<S>(S);

/// A non-empty `String` (`minLength: 1`): titles, objectives, descriptions.
pub type NonEmptyString = NonEmpty<String>;

/// A non-empty [`ShortString`] (`minLength: 1`): short names such as a
/// collab participant's id.
pub type NonEmptyShortString = NonEmpty<ShortString>;

/// The error of [`NonEmpty::new`]: the string was empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a non-empty string")]
pub struct EmptyStringError;

impl<S: AsRef<str>> NonEmpty<S> {
    /// Wraps a string, refusing the empty one.
    pub fn new(s: impl Into<S>) -> Result<Self, EmptyStringError> {
        let s = s.into();
        if s.as_ref().is_empty() {
            Err(EmptyStringError)
        } else {
            Ok(NonEmpty(s))
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        self.0.as_ref()
    }

    /// The text as a `String`.
    pub fn into_string(self) -> String
    where
        S: Into<String>,
    {
        self.0.into()
    }

    /// The inner string.
    pub fn into_inner(self) -> S {
        self.0
    }
}

impl<S: AsRef<str>> Deref for NonEmpty<S> {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_ref()
    }
}

impl<S: AsRef<str>> AsRef<str> for NonEmpty<S> {
    fn as_ref(&self) -> &str {
        self.0.as_ref()
    }
}

impl<S: AsRef<str>> fmt::Debug for NonEmpty<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<S: AsRef<str>> fmt::Display for NonEmpty<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<S: AsRef<str> + for<'a> From<&'a str>> FromStr for NonEmpty<S> {
    type Err = EmptyStringError;
    fn from_str(s: &str) -> Result<Self, EmptyStringError> {
        NonEmpty::new(s)
    }
}

impl<S: AsRef<str> + From<String>> TryFrom<String> for NonEmpty<S> {
    type Error = EmptyStringError;
    fn try_from(s: String) -> Result<Self, EmptyStringError> {
        NonEmpty::new(s)
    }
}

impl<S: AsRef<str> + for<'a> From<&'a str>> TryFrom<&str> for NonEmpty<S> {
    type Error = EmptyStringError;
    fn try_from(s: &str) -> Result<Self, EmptyStringError> {
        NonEmpty::new(s)
    }
}

/// The same text in a box of its length (a [`NonEmptyString`]'s spare
/// capacity, if any, is given back): the description of a plan step.
///
/// ```
/// use mplp_core::{NonEmpty, NonEmptyString};
/// let text = NonEmptyString::new("Read error logs").unwrap();
/// let boxed: NonEmpty<Box<str>> = text.into();
/// assert_eq!(boxed, "Read error logs");
/// ```
impl From<NonEmpty<String>> for NonEmpty<Box<str>> {
    fn from(s: NonEmpty<String>) -> Self {
        NonEmpty(s.0.into_boxed_str())
    }
}

/// The same text as a [`NonEmptyString`], which can grow.
impl From<NonEmpty<Box<str>>> for NonEmpty<String> {
    fn from(s: NonEmpty<Box<str>>) -> Self {
        NonEmpty(s.0.into_string())
    }
}

impl<S: Into<String>> From<NonEmpty<S>> for String {
    fn from(s: NonEmpty<S>) -> String {
        s.0.into()
    }
}

impl<S: AsRef<str>> PartialEq<str> for NonEmpty<S> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<S: AsRef<str>> PartialEq<&str> for NonEmpty<S> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl<S: AsRef<str>> Serialize for NonEmpty<S> {
    fn serialize<Ser: Serializer>(&self, s: Ser) -> Result<Ser::Ok, Ser::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de, S: AsRef<str> + Deserialize<'de>> Deserialize<'de> for NonEmpty<S> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = S::deserialize(d)?;
        NonEmpty::new(s).map_err(|_| {
            mplp_json::de::raise(
                Rule::MIN_LENGTH,
                "expected a string of at least 1 character (minLength 1), found an empty string",
            )
        })
    }
}

/// The fast reader's read: `S`'s own direct read (the value its
/// `Deserialize` gives), an empty string given up on as `Deserialize`
/// refuses it. Without serde's `deserialize_string`, the `String` visitor
/// and their calls (issue 41, stop 52: a plan step's description).
impl<S: AsRef<str> + mplp_json::fast::Direct> mplp_json::fast::Direct for NonEmpty<S> {
    #[inline]
    fn read(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        let s = S::read(r)?;
        if s.as_ref().is_empty() {
            return Err(mplp_json::fast::GaveUp);
        }
        Ok(NonEmpty(s))
    }
}

impl<S> CheckValue for NonEmpty<S> {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        if let Some(s) = expect_str(value, at, report) {
            if s.is_empty() {
                report.error(
                    at,
                    Rule::MIN_LENGTH,
                    "expected a string of at least 1 character, found an empty string",
                );
            }
        }
    }
}

crate::__schemars_string!([S] NonEmpty<S>, "NonEmptyString", { "type": "string", "minLength": 1 });

// ---------------------------------------------------------------------------
// Version

/// A `MAJOR.MINOR.PATCH` version as MPLP writes it (`^[0-9]+\.[0-9]+\.[0-9]+$`:
/// digits only, no pre-release or build suffix). The text is kept as written.
///
/// ```
/// use mplp_core::Version;
/// let v: Version = "1.0.0".parse().unwrap();
/// assert_eq!(v, Version::V1_0_0);
/// assert!("1.0.0-beta".parse::<Version>().is_err());
/// assert!("v1.0".parse::<Version>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Version(std::borrow::Cow<'static, str>);

/// The error of parsing a [`Version`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a MAJOR.MINOR.PATCH version (expected digits only, such as 1.0.0; pre-release and build suffixes are not allowed)"
)]
pub struct VersionError(String);

impl Version {
    /// `1.0.0`, the protocol version this SDK implements.
    pub const V1_0_0: Version = Version(std::borrow::Cow::Borrowed("1.0.0"));

    /// Parses a version.
    ///
    /// ```
    /// use mplp_core::Version;
    /// assert_eq!(Version::parse("1.0.0")?, Version::V1_0_0);
    /// assert_eq!(Version::parse("2.10.0")?.as_str(), "2.10.0");
    /// assert!(Version::parse("1.0").is_err());
    /// assert!(Version::parse("1.0.0.0").is_err());
    /// assert!(Version::parse("1.0.0-rc1").is_err());
    /// # Ok::<(), mplp_core::VersionError>(())
    /// ```
    #[inline]
    pub fn parse(s: &str) -> Result<Self, VersionError> {
        // The version of nearly every document: one comparison, no
        // allocation, read where the version is wanted.
        if s == Self::V1_0_0.as_str() {
            return Ok(Self::V1_0_0);
        }
        Self::parse_other(s)
    }

    /// [`Version::parse`] of any text but `1.0.0`.
    #[inline(never)]
    fn parse_other(s: &str) -> Result<Self, VersionError> {
        let mut parts = 0;
        let ok = s.split('.').all(|p| {
            parts += 1;
            !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())
        }) && parts == 3;
        if !ok {
            return Err(VersionError(s.to_owned()));
        }
        Ok(Version(std::borrow::Cow::Owned(s.to_owned())))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Version({})", self.0)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Version {
    type Err = VersionError;
    fn from_str(s: &str) -> Result<Self, VersionError> {
        Version::parse(s)
    }
}

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Version {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Version;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a MAJOR.MINOR.PATCH version string")
            }
            #[inline]
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Version, E> {
                Version::parse(s).map_err(|e| mplp_json::de::raise(crate::Rule::PATTERN, e))
            }
        }
        d.deserialize_str(V)
    }
}

/// The fast reader's read: the same value as `Deserialize`. `"1.0.0"`,
/// the version of nearly every document, is compared where it stands
/// (`fixed_str`: five bytes and the closing quote, no scan for the
/// string's end, no serde call); any other text is parsed as
/// `Deserialize` parses it (issue 41, stop 52: the two versions of every
/// document's `meta`).
impl mplp_json::fast::Direct for Version {
    #[inline]
    fn read(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        if r.fixed_str::<5>() == Some(b"1.0.0") {
            r.skip_fixed_str::<5>();
            return Ok(Self::V1_0_0);
        }
        r.read_str(|s| Version::parse(s).ok())
    }
}

impl CheckValue for Version {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        if let Some(s) = expect_str(value, at, report) {
            if let Err(e) = Version::parse(s) {
                report.error(at, Rule::PATTERN, e.to_string());
            }
        }
    }
}

/// The schema pattern of a [`Version`].
pub const VERSION_PATTERN: &str = r"^[0-9]+\.[0-9]+\.[0-9]+$";

crate::__schemars_string!(Version, { "type": "string", "pattern": crate::values::VERSION_PATTERN });

// ---------------------------------------------------------------------------
// NonEmptyVec

/// A list with at least one item (`minItems: 1`). Items can be changed and
/// added, and removed only while one remains.
///
/// ```
/// use mplp_core::NonEmptyVec;
/// let mut v = NonEmptyVec::new(1);
/// v.push(2);
/// assert_eq!(v.len(), 2);
/// assert_eq!(v.pop(), Some(2));
/// assert_eq!(v.pop(), None); // the last item stays
/// assert!(NonEmptyVec::<u8>::try_from(vec![]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NonEmptyVec<T>(Vec<T>);

/// The error of making a [`NonEmptyVec`] from an empty list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected at least one item")]
pub struct EmptyVecError;

impl<T> NonEmptyVec<T> {
    /// A list of one item.
    pub fn new(first: T) -> Self {
        NonEmptyVec(vec![first])
    }

    /// The first item.
    pub fn first(&self) -> &T {
        // The invariant guarantees an item; fall back to indexing a slice
        // method that cannot fail.
        let (first, _) = self.split_first();
        first
    }

    /// The first item and the rest.
    pub fn split_first(&self) -> (&T, &[T]) {
        match self.0.split_first() {
            Some(pair) => pair,
            None => unreachable_empty(),
        }
    }

    /// Appends an item.
    pub fn push(&mut self, item: T) {
        self.0.push(item);
    }

    /// Removes the last item unless it is the only one.
    pub fn pop(&mut self) -> Option<T> {
        if self.0.len() > 1 { self.0.pop() } else { None }
    }

    /// The items, mutably (their number cannot change through a slice).
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.0
    }

    /// The inner `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        self.0
    }
}

#[allow(clippy::panic)] // reason: unreachable by construction; a NonEmptyVec is never empty
fn unreachable_empty() -> ! {
    unreachable!("NonEmptyVec is never empty")
}

impl<T> Deref for NonEmptyVec<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> TryFrom<Vec<T>> for NonEmptyVec<T> {
    type Error = EmptyVecError;
    fn try_from(v: Vec<T>) -> Result<Self, EmptyVecError> {
        if v.is_empty() {
            Err(EmptyVecError)
        } else {
            Ok(NonEmptyVec(v))
        }
    }
}

impl<T> From<NonEmptyVec<T>> for Vec<T> {
    fn from(v: NonEmptyVec<T>) -> Vec<T> {
        v.0
    }
}

impl<'a, T> IntoIterator for &'a NonEmptyVec<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T> IntoIterator for NonEmptyVec<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<T: Serialize> Serialize for NonEmptyVec<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for NonEmptyVec<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<T>::deserialize(d)?;
        NonEmptyVec::try_from(v).map_err(|_| {
            mplp_json::de::raise(
                Rule::MIN_ITEMS,
                "expected at least 1 item (minItems 1), found 0",
            )
        })
    }
}

/// The fast reader's read (the same value as `Deserialize`, without
/// serde's calls for a `T` that has its own).
impl<T: mplp_json::fast::Direct> mplp_json::fast::Direct for NonEmptyVec<T> {
    #[inline]
    fn read(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        NonEmptyVec::try_from(<Vec<T> as mplp_json::fast::Direct>::read(r)?)
            .map_err(|_| mplp_json::fast::GaveUp)
    }
}

impl<T: CheckValue> CheckValue for NonEmptyVec<T> {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        check_array_of::<T>(value, at, report, 1);
    }
}

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for NonEmptyVec<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("NonEmptyArray_of_{}", T::schema_name()).into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "items": generator.subschema_for::<T>(),
            "minItems": 1
        })
    }
}

// ---------------------------------------------------------------------------
// ShortList

/// A list that holds one item without allocating: on the wire, an array
/// like `Vec<T>`'s (any length, the same schema, the same errors), and in
/// Rust a slice ([`Deref`]). A list of one item, the common case of a MAP
/// event's `target_roles`, is kept inline; an empty list or a longer one is
/// a `Vec`. Reading a log, that spares most lines an allocation and its
/// release (issue 41: some 390 instructions of a MAP turn's line, and 6%
/// of the CPU time of `mplp validate` on a log of turns; see
/// `docs/spec-notes.md`, "Stop 58").
///
/// Two lists are equal when their items are, however they are kept.
///
/// ```
/// use mplp_core::{ShortList, ShortString};
/// let mut roles = ShortList::one(ShortString::from("coder"));
/// assert_eq!(roles.len(), 1);
/// roles.push(ShortString::from("tester"));
/// assert_eq!(roles, ShortList::from(vec![ShortString::from("coder"), ShortString::from("tester")]));
/// assert_eq!(serde_json::to_string(&roles).unwrap(), r#"["coder","tester"]"#);
/// let read: ShortList<u32> = serde_json::from_str("[7]").unwrap();
/// assert_eq!(&*read, &[7]);
/// ```
#[derive(Clone)]
pub struct ShortList<T>(ShortRepr<T>);

/// How a [`ShortList`] keeps its items.
#[derive(Clone)]
enum ShortRepr<T> {
    /// Exactly one item.
    One(T),
    /// Any number (none, or two and more, or one pushed onto none).
    Many(Vec<T>),
}

impl<T> ShortList<T> {
    /// An empty list (no allocation).
    pub const fn new() -> Self {
        ShortList(ShortRepr::Many(Vec::new()))
    }

    /// A list of one item (no allocation).
    pub const fn one(item: T) -> Self {
        ShortList(ShortRepr::One(item))
    }

    /// The items.
    pub fn as_slice(&self) -> &[T] {
        match &self.0 {
            ShortRepr::One(item) => std::slice::from_ref(item),
            ShortRepr::Many(items) => items,
        }
    }

    /// The items, mutably (their number cannot change through a slice).
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match &mut self.0 {
            ShortRepr::One(item) => std::slice::from_mut(item),
            ShortRepr::Many(items) => items,
        }
    }

    /// Appends an item (onto an empty list, without allocating).
    pub fn push(&mut self, item: T) {
        // `Vec::new()` holds the place without allocating.
        self.0 = match std::mem::replace(&mut self.0, ShortRepr::Many(Vec::new())) {
            ShortRepr::Many(items) if items.is_empty() => ShortRepr::One(item),
            ShortRepr::Many(mut items) => {
                items.push(item);
                ShortRepr::Many(items)
            }
            ShortRepr::One(first) => ShortRepr::Many(vec![first, item]),
        };
    }

    /// The items as a `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        match self.0 {
            ShortRepr::One(item) => vec![item],
            ShortRepr::Many(items) => items,
        }
    }
}

impl<T> Default for ShortList<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Deref for ShortList<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: fmt::Debug> fmt::Debug for ShortList<T> {
    /// As a list (`["coder"]`), however the items are kept.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: PartialEq> PartialEq for ShortList<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq> Eq for ShortList<T> {}

impl<T: std::hash::Hash> std::hash::Hash for ShortList<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T> From<Vec<T>> for ShortList<T> {
    /// The items of `items` (a list of one kept inline).
    fn from(mut items: Vec<T>) -> Self {
        if items.len() == 1
            && let Some(item) = items.pop()
        {
            return ShortList::one(item);
        }
        ShortList(ShortRepr::Many(items))
    }
}

impl<T> From<ShortList<T>> for Vec<T> {
    fn from(list: ShortList<T>) -> Vec<T> {
        list.into_vec()
    }
}

impl<T> FromIterator<T> for ShortList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = ShortList::new();
        for item in iter {
            list.push(item);
        }
        list
    }
}

impl<'a, T> IntoIterator for &'a ShortList<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T> IntoIterator for ShortList<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<T: Serialize> Serialize for ShortList<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ShortList<T> {
    /// As `Vec<T>` reads it (the same errors), a list of one kept inline.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Items<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Items<T> {
            type Value = ShortList<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<ShortList<T>, A::Error> {
                let mut list = ShortList::new();
                while let Some(item) = seq.next_element()? {
                    list.push(item);
                }
                Ok(list)
            }
        }
        d.deserialize_seq(Items(std::marker::PhantomData))
    }
}

/// The fast reader's read (the same value as `Deserialize`; an array of one
/// item read without an allocation).
impl<T: mplp_json::fast::Direct> mplp_json::fast::Direct for ShortList<T> {
    #[inline]
    fn read(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        Ok(match r.one_or_list::<T>()? {
            (Some(item), _) => ShortList::one(item),
            (None, items) => ShortList(ShortRepr::Many(items)),
        })
    }
}

impl<T: CheckValue> CheckValue for ShortList<T> {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        check_array_of::<T>(value, at, report, 0);
    }
}

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for ShortList<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Vec<T> as schemars::JsonSchema>::schema_name()
    }
    /// Inline, as `Vec<T>`'s (a test holds the two equal).
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<T> as schemars::JsonSchema>::json_schema(generator)
    }
}

// ---------------------------------------------------------------------------
// UniqueVec

/// A list whose items are all different (`uniqueItems: true`), in the order given.
///
/// ```
/// use mplp_core::UniqueVec;
/// let mut tags = UniqueVec::new();
/// assert!(tags.insert("production".to_string()));
/// assert!(!tags.insert("production".to_string())); // already there
/// assert_eq!(tags.len(), 1);
/// assert!(UniqueVec::try_from(vec!["a", "a"]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UniqueVec<T>(Vec<T>);

/// The error of making a [`UniqueVec`] from a list with repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("items must be unique: item {index} repeats an earlier item")]
pub struct DuplicateItemError {
    /// The index of the first repeat.
    pub index: usize,
}

impl<T: PartialEq> UniqueVec<T> {
    /// An empty list.
    pub fn new() -> Self {
        UniqueVec(Vec::new())
    }

    /// Adds `item` at the end unless it is already there; returns whether it was added.
    pub fn insert(&mut self, item: T) -> bool {
        if self.0.contains(&item) {
            false
        } else {
            self.0.push(item);
            true
        }
    }

    /// Removes `item`; returns whether it was there.
    pub fn remove(&mut self, item: &T) -> bool {
        let before = self.0.len();
        self.0.retain(|x| x != item);
        before != self.0.len()
    }

    /// The inner `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        self.0
    }
}

impl<T: PartialEq> Default for UniqueVec<T> {
    fn default() -> Self {
        UniqueVec::new()
    }
}

impl<T> Deref for UniqueVec<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T: Eq + std::hash::Hash> TryFrom<Vec<T>> for UniqueVec<T> {
    type Error = DuplicateItemError;
    /// Linear in the list's length (items are hashed beyond a few).
    fn try_from(v: Vec<T>) -> Result<Self, DuplicateItemError> {
        let mut first_repeat = None;
        crate::check::for_each_repeated_key(v.iter().map(Some), |i, _, _| {
            first_repeat.get_or_insert(i);
        });
        match first_repeat {
            Some(index) => Err(DuplicateItemError { index }),
            None => Ok(UniqueVec(v)),
        }
    }
}

impl<T: Eq + std::hash::Hash> FromIterator<T> for UniqueVec<T> {
    /// Collects, dropping repeats (the first occurrence is kept); linear in
    /// the number of items.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v: Vec<T> = iter.into_iter().collect();
        let mut repeats = Vec::new();
        crate::check::for_each_repeated_key(v.iter().map(Some), |i, _, _| repeats.push(i));
        let mut at = 0;
        let mut next = repeats.iter().peekable();
        v.retain(|_| {
            let repeat = next.next_if_eq(&&at).is_some();
            at += 1;
            !repeat
        });
        UniqueVec(v)
    }
}

impl<'a, T> IntoIterator for &'a UniqueVec<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: Serialize> Serialize for UniqueVec<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de> + Eq + std::hash::Hash> Deserialize<'de> for UniqueVec<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<T>::deserialize(d)?;
        UniqueVec::try_from(v).map_err(|e| mplp_json::de::raise(Rule::UNIQUE_ITEMS, e))
    }
}

/// The fast reader's read (the same value as `Deserialize`, without
/// serde's calls for a `T` that has its own).
impl<T: mplp_json::fast::Direct + Eq + std::hash::Hash> mplp_json::fast::Direct for UniqueVec<T> {
    #[inline]
    fn read(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        UniqueVec::try_from(<Vec<T> as mplp_json::fast::Direct>::read(r)?)
            .map_err(|_| mplp_json::fast::GaveUp)
    }
}

impl<T: CheckValue> CheckValue for UniqueVec<T> {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        if let Some(items) = check_array_of::<T>(value, at, report, 0) {
            check_unique_items(items, at, report);
        }
    }
}

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for UniqueVec<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("UniqueArray_of_{}", T::schema_name()).into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "items": generator.subschema_for::<T>(),
            "uniqueItems": true
        })
    }
}

// ---------------------------------------------------------------------------
// JsonObject (defined by mplp-json)

impl CheckValue for JsonObject {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        if !value.is_object() {
            crate::check::type_error(value, at, report, "an object");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A non-empty list's `Value` check: at least one item, each checked.
    #[test]
    fn a_non_empty_vec_is_checked_as_a_non_empty_array() {
        let rules = |v: Value| {
            let mut r = Report::new();
            NonEmptyVec::<String>::check_value(&v, &Pointer::root().key("xs"), &mut r);
            r.errors()
                .map(|v| (v.pointer.clone(), v.rule))
                .collect::<Vec<_>>()
        };
        assert_eq!(rules(serde_json::json!(["a"])), []);
        assert_eq!(
            rules(serde_json::json!([])),
            [("/xs".to_owned(), crate::Rule::MIN_ITEMS)]
        );
        assert_eq!(
            rules(serde_json::json!(["a", 1])),
            [("/xs/1".to_owned(), crate::Rule::TYPE)]
        );
    }

    /// The schemas of the list and object types, inlined where they are used.
    #[cfg(feature = "schemars")]
    #[test]
    fn list_and_object_schemas_are_inlined() {
        let mut g = schemars::SchemaGenerator::default();
        let string = g.subschema_for::<String>().to_value();
        assert_eq!(
            g.subschema_for::<NonEmptyVec<String>>().to_value(),
            serde_json::json!({"type": "array", "items": string, "minItems": 1})
        );
        assert_eq!(
            g.subschema_for::<UniqueVec<String>>().to_value(),
            serde_json::json!({"type": "array", "items": string, "uniqueItems": true})
        );
        assert_eq!(
            g.subschema_for::<JsonObject>().to_value(),
            serde_json::json!({"type": "object"})
        );
        // The string types too: no definitions are made for them.
        let non_empty = serde_json::json!({"type": "string", "minLength": 1});
        assert_eq!(g.subschema_for::<NonEmptyString>().to_value(), non_empty);
        assert_eq!(
            g.subschema_for::<NonEmptyShortString>().to_value(),
            non_empty
        );
        assert_eq!(
            g.subschema_for::<ShortString>().to_value(),
            serde_json::json!({"type": "string"})
        );
        assert!(g.definitions().is_empty(), "{:?}", g.definitions());
    }

    proptest! {
        /// `UniqueVec` against a `Vec` model: `insert` adds an item not yet
        /// there, `remove` takes one that is, each saying whether it did;
        /// collecting keeps the first of repeated items.
        #[test]
        fn unique_vec_follows_a_model(ops in proptest::collection::vec((any::<bool>(), 0u8..6), 0..20)) {
            let mut u = UniqueVec::new();
            let mut model: Vec<u8> = Vec::new();
            for (insert, x) in &ops {
                if *insert {
                    let fresh = !model.contains(x);
                    if fresh {
                        model.push(*x);
                    }
                    prop_assert_eq!(u.insert(*x), fresh);
                } else {
                    let present = model.contains(x);
                    model.retain(|y| y != x);
                    prop_assert_eq!(u.remove(x), present);
                }
                prop_assert_eq!(&u[..], &model[..]);
                prop_assert_eq!((&u).into_iter().copied().collect::<Vec<_>>(), model.clone());
            }
            prop_assert_eq!(u.into_vec(), model);
            let items: Vec<u8> = ops.iter().map(|(_, x)| *x).collect();
            let mut first = Vec::new();
            for x in &items {
                if !first.contains(x) {
                    first.push(*x);
                }
            }
            prop_assert_eq!(items.into_iter().collect::<UniqueVec<u8>>().into_vec(), first);
        }
    }

    /// Whether `list` keeps its items inline (one, no `Vec`).
    fn inline<T>(list: &ShortList<T>) -> bool {
        matches!(list.0, ShortRepr::One(_))
    }

    proptest! {
        /// `ShortList` against a `Vec` model: pushes, mutation through the
        /// slice, conversions both ways, equality and hashing by items,
        /// `Debug`, and the wire (serde's write and read, the fast
        /// reader's read) as `Vec`'s; a list of one item, and only such a
        /// list, inline when made from a `Vec` or read.
        #[test]
        fn short_list_follows_a_vec(items in proptest::collection::vec(any::<u8>(), 0..6), spaced in any::<bool>()) {
            let mut list = ShortList::new();
            let mut model = Vec::new();
            prop_assert!(list.is_empty());
            for x in &items {
                list.push(*x);
                model.push(*x);
                prop_assert_eq!(list.as_slice(), &model[..]);
                prop_assert_eq!(inline(&list), model.len() == 1);
            }
            for x in list.as_mut_slice() {
                *x = x.wrapping_add(1);
            }
            for x in &mut model {
                *x = x.wrapping_add(1);
            }
            prop_assert_eq!(&*list, &model[..]);
            prop_assert_eq!((&list).into_iter().copied().collect::<Vec<_>>(), model.clone());
            prop_assert_eq!(format!("{list:?}"), format!("{model:?}"));
            let from_vec = ShortList::from(model.clone());
            prop_assert_eq!(inline(&from_vec), model.len() == 1);
            prop_assert_eq!(&from_vec, &list);
            use std::hash::{BuildHasher, BuildHasherDefault};
            let hash = |l: &ShortList<u8>| {
                BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(l)
            };
            prop_assert_eq!(hash(&from_vec), hash(&list));
            let slice_hash = BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
                .hash_one(model.as_slice());
            prop_assert_eq!(hash(&list), slice_hash);
            // Another item, or one more, makes another list.
            let mut longer = list.clone();
            longer.push(0);
            prop_assert_ne!(&longer, &list);
            if let Some(x) = model.first() {
                let mut other = model.clone();
                other[0] = x.wrapping_add(1);
                prop_assert_ne!(&ShortList::from(other), &list);
            }
            prop_assert_eq!(model.iter().copied().collect::<ShortList<u8>>(), list.clone());
            let text = serde_json::to_string(&list).unwrap_or_default();
            prop_assert_eq!(&text, &serde_json::to_string(&model).unwrap_or_default());
            let text = if spaced { text.replace(',', " , ").replace('[', "[ ") } else { text };
            let read: Option<ShortList<u8>> = serde_json::from_str(&text).ok();
            prop_assert_eq!(read.as_ref(), Some(&list));
            prop_assert_eq!(read.as_ref().map(inline), Some(model.len() == 1));
            let fast = mplp_json::fast::from_str_seed(&text, std::marker::PhantomData::<ShortList<u8>>).ok();
            prop_assert_eq!(fast.as_ref(), Some(&list));
            prop_assert_eq!(Vec::from(list.clone()), model.clone());
            prop_assert_eq!(list.into_iter().collect::<Vec<_>>(), model);
        }
    }

    #[test]
    fn a_short_list_reads_and_checks_as_a_vec_does() {
        for input in [
            "[", "[1,", "[1 2]", "{}", "1", "null", "[\"a\"]", "[1,]", "[256]",
        ] {
            let serde = serde_json::from_str::<Vec<u8>>(input).map_err(|e| e.to_string());
            let short = serde_json::from_str::<ShortList<u8>>(input)
                .map(ShortList::into_vec)
                .map_err(|e| e.to_string());
            assert_eq!(short, serde, "{input}");
        }
        for value in [
            serde_json::json!([]),
            serde_json::json!(["a", 1]),
            serde_json::json!("a"),
        ] {
            let check = |f: fn(&Value, &Pointer, &mut Report)| {
                let mut r = Report::new();
                f(&value, &Pointer::root().key("xs"), &mut r);
                r.errors()
                    .map(|v| (v.pointer.clone(), v.rule, v.message.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                check(ShortList::<String>::check_value),
                check(Vec::<String>::check_value),
                "{value}"
            );
        }
        assert_eq!(ShortList::<u8>::default(), ShortList::new());
        assert_eq!(ShortList::one(7).as_slice(), &[7]);
    }

    #[cfg(feature = "schemars")]
    #[test]
    fn a_short_list_has_the_schema_of_a_vec() {
        let mut g = schemars::SchemaGenerator::default();
        let short = <ShortList<String> as schemars::JsonSchema>::json_schema(&mut g);
        let vec = <Vec<String> as schemars::JsonSchema>::json_schema(&mut g);
        assert_eq!(short, vec);
        assert_eq!(
            <ShortList<String> as schemars::JsonSchema>::schema_name(),
            <Vec<String> as schemars::JsonSchema>::schema_name()
        );
        assert_eq!(
            <ShortList<String> as schemars::JsonSchema>::inline_schema(),
            <Vec<String> as schemars::JsonSchema>::inline_schema()
        );
    }

    #[test]
    fn a_version_is_a_string_on_the_wire() {
        let err = serde_json::from_str::<Version>("1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid type: integer `1`, expected a MAJOR.MINOR.PATCH version string at line 1 column 1"
        );
    }

    #[test]
    fn non_empty_string_rejects_empty_on_the_wire() {
        assert!(serde_json::from_str::<NonEmptyString>("\"\"").is_err());
        assert_eq!(
            serde_json::from_str::<NonEmptyString>("\"x\"").unwrap(),
            "x"
        );
    }

    /// Every view of a `NonEmpty<S>` is its text: `as_str`, `Deref`,
    /// `AsRef`, `Display`, `Debug` (quoted as a `String`'s), equality with
    /// `str`, and the `String` it turns back into; the empty text is refused
    /// by every constructor and on the wire.
    fn non_empty_is_its_text<S>(text: &str) -> Result<(), TestCaseError>
    where
        S: AsRef<str>
            + Into<String>
            + From<String>
            + for<'a> From<&'a str>
            + Clone
            + PartialEq
            + fmt::Debug
            + serde::de::DeserializeOwned,
    {
        let made = NonEmpty::<S>::new(text);
        prop_assert_eq!(made.is_ok(), !text.is_empty());
        prop_assert_eq!(NonEmpty::<S>::try_from(text), made.clone());
        prop_assert_eq!(NonEmpty::<S>::try_from(text.to_owned()), made.clone());
        prop_assert_eq!(text.parse::<NonEmpty<S>>(), made.clone());
        let json = serde_json::to_string(text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(
            serde_json::from_str::<NonEmpty<S>>(&json).ok(),
            made.clone().ok()
        );
        let Ok(s) = made else { return Ok(()) };
        prop_assert_eq!(s.as_str(), text);
        prop_assert_eq!(&*s, text);
        prop_assert_eq!(AsRef::<str>::as_ref(&s), text);
        prop_assert_eq!(s.to_string(), text);
        prop_assert_eq!(format!("{s:?}"), format!("{text:?}"));
        prop_assert_eq!(serde_json::to_string(&s).ok(), Some(json));
        prop_assert!(s == *text && s == text);
        let other = format!("{text}.");
        prop_assert!(s != *other.as_str() && s != other.as_str());
        prop_assert_eq!(String::from(s.clone()), text);
        let inner = s.clone().into_inner();
        prop_assert_eq!(inner.as_ref(), text);
        prop_assert_eq!(s.into_string(), text);
        Ok(())
    }

    #[test]
    fn a_short_string_reads_as_a_string_does() {
        for text in ["1", "null", "[]", "{}", "true", "\"unterminated", "\"\\x\""] {
            let ours = serde_json::from_str::<ShortString>(text).map_err(|e| e.to_string());
            let serde = serde_json::from_str::<String>(text).map_err(|e| e.to_string());
            assert_eq!(ours, serde.map(ShortString::from), "{text}");
        }
        let mut report = Report::new();
        ShortString::check_value(
            &serde_json::json!(1),
            &Pointer::root().key("by"),
            &mut report,
        );
        assert_eq!(
            report
                .errors()
                .map(|v| v.pointer.as_str())
                .collect::<Vec<_>>(),
            ["/by"]
        );
        ShortString::check_value(&serde_json::json!("x"), &Pointer::root(), &mut report);
        assert_eq!(report.errors().count(), 1);
    }

    proptest! {
        #[test]
        fn non_empty_string_is_its_text(text in "\\PC{0,12}") {
            non_empty_is_its_text::<String>(&text)?;
        }

        #[test]
        fn non_empty_short_string_is_its_text(text in "\\PC{0,30}") {
            non_empty_is_its_text::<ShortString>(&text)?;
        }

        /// A `ShortString` is its text as a `String` is: every view, the
        /// conversions both ways, JSON both ways (borrowed, escaped and
        /// owned input), and equality, order and hash against other texts
        /// as `String`s compare. It is inline exactly when its text has at
        /// most `INLINE_CAPACITY` bytes.
        #[test]
        fn a_short_string_is_its_text(text in "\\PC{0,40}", other in "\\PC{0,40}") {
            use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
            let s = ShortString::from(text.as_str());
            prop_assert_eq!(&ShortString::from(text.clone()), &s);
            prop_assert_eq!(&ShortString::from(&text), &s);
            prop_assert_eq!(&text.parse::<ShortString>().unwrap_or_default(), &s);
            prop_assert_eq!(s.as_str(), text.as_str());
            prop_assert_eq!(&*s, text.as_str());
            prop_assert_eq!(AsRef::<str>::as_ref(&s), text.as_str());
            prop_assert_eq!(std::borrow::Borrow::<str>::borrow(&s), text.as_str());
            prop_assert_eq!(s.to_string(), text.clone());
            prop_assert_eq!(format!("{s:?}"), format!("{text:?}"));
            prop_assert_eq!(s.is_inline(), text.len() <= ShortString::INLINE_CAPACITY);
            prop_assert!(s == *text.as_str() && s == text.as_str() && s == text);
            prop_assert!(*text.as_str() == s && text.as_str() == s && text == s);
            let json = serde_json::to_string(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(serde_json::to_string(&s).ok(), Some(json.clone()));
            prop_assert_eq!(serde_json::from_str::<ShortString>(&json).ok(), Some(s.clone()));
            let escaped = format!("\"\\u0041{}\"", &json[1..json.len() - 1]);
            prop_assert_eq!(
                serde_json::from_str::<ShortString>(&escaped).ok(),
                Some(ShortString::from(format!("A{text}")))
            );
            prop_assert_eq!(
                serde_json::from_value::<ShortString>(Value::String(text.clone())).ok(),
                Some(s.clone())
            );
            let o = ShortString::from(other.as_str());
            // Every comparison with another text, both ways round.
            let same = text == other;
            prop_assert_eq!(s == *other.as_str(), same);
            prop_assert_eq!(s == other.as_str(), same);
            prop_assert_eq!(s == other, same);
            prop_assert_eq!(*other.as_str() == s, same);
            prop_assert_eq!(other.as_str() == s, same);
            prop_assert_eq!(other == s, same);
            prop_assert_eq!(s == o, text == other);
            prop_assert_eq!(s.cmp(&o), text.cmp(&other));
            prop_assert_eq!(s.partial_cmp(&o), text.partial_cmp(&other));
            let h = BuildHasherDefault::<DefaultHasher>::default();
            prop_assert_eq!(h.hash_one(&s), h.hash_one(text.as_str()));
            prop_assert_eq!(String::from(s.clone()), text.clone());
            prop_assert_eq!(Value::from(s.clone()), Value::String(text.clone()));
            prop_assert_eq!(s.into_string(), text);
        }

        /// `NonEmptyVec` against a `Vec`: `push` appends, `pop` removes the
        /// last item but never the only one, `first`/`split_first` and the
        /// views follow, and the empty list is refused.
        #[test]
        fn non_empty_vec_follows_a_vec(
            items in proptest::collection::vec(any::<u8>(), 0..5),
            ops in proptest::collection::vec(proptest::option::of(any::<u8>()), 0..12),
        ) {
            let made = NonEmptyVec::try_from(items.clone());
            prop_assert_eq!(made.is_ok(), !items.is_empty());
            let mut v = made.unwrap_or_else(|_| NonEmptyVec::new(7));
            let mut model = if items.is_empty() { vec![7] } else { items };
            for op in ops {
                match op {
                    Some(x) => {
                        v.push(x);
                        model.push(x);
                    }
                    None => {
                        let expected = if model.len() > 1 { model.pop() } else { None };
                        prop_assert_eq!(v.pop(), expected);
                    }
                }
                prop_assert_eq!(&v[..], &model[..]);
                prop_assert_eq!(v.first(), &model[0]);
                prop_assert_eq!(v.split_first(), (&model[0], &model[1..]));
                prop_assert_eq!((&v).into_iter().collect::<Vec<_>>(), model.iter().collect::<Vec<_>>());
            }
            if let Some(x) = v.as_mut_slice().last_mut() {
                *x = x.wrapping_add(1);
            }
            if let Some(x) = model.last_mut() {
                *x = x.wrapping_add(1);
            }
            prop_assert_eq!(v.clone().into_iter().collect::<Vec<_>>(), model.clone());
            prop_assert_eq!(Vec::from(v.clone()), model.clone());
            prop_assert_eq!(v.into_vec(), model);
        }

        /// Short lists (compared pairwise) and long ones (hashed): the
        /// first repeat is the pairwise walk's, the check points at every
        /// repeat, serde agrees, and collecting keeps each first occurrence
        /// in order.
        #[test]
        fn unique_vec_agrees_with_the_check(
            items in prop_oneof![
                proptest::collection::vec(0u8..6, 0..8),
                proptest::collection::vec(0u8..90, 0..80),
            ],
        ) {
            let repeats: Vec<usize> =
                (0..items.len()).filter(|&i| items[..i].contains(&items[i])).collect();
            let made = UniqueVec::try_from(items.clone());
            prop_assert_eq!(made.as_ref().err().map(|e| e.index), repeats.first().copied());
            let value = serde_json::to_value(&items).unwrap();
            let mut report = Report::new();
            check_unique_items(value.as_array().unwrap(), &Pointer::root(), &mut report);
            let pointed: Vec<String> = report.errors().map(|v| v.pointer.clone()).collect();
            let expected: Vec<String> = repeats.iter().map(|i| format!("/{i}")).collect();
            prop_assert_eq!(pointed, expected);
            let deser = serde_json::from_value::<UniqueVec<u8>>(value).is_ok();
            prop_assert_eq!(made.is_ok(), deser);
            let mut model = Vec::new();
            for x in &items {
                if !model.contains(x) {
                    model.push(*x);
                }
            }
            prop_assert_eq!(items.into_iter().collect::<UniqueVec<u8>>().into_vec(), model);
        }

        /// Valid shapes (`x.y.z` of digit runs) and near-valid ones (a part
        /// missing or empty, a fourth part, a suffix, a letter, a sign, a
        /// space): accepted exactly when the pattern matches, keeping the
        /// text, and the same through serde and the check.
        #[test]
        fn version_agrees_with_pattern(
            parts in proptest::collection::vec("[0-9]{1,4}", 3),
            edit in prop_oneof![
                3 => Just(None),
                1 => (0usize..8, "[0-9a-z.+ -]{0,2}").prop_map(Some),
            ],
        ) {
            let mut s = parts.join(".");
            match edit {
                None => {}
                Some((0, t)) => s.push_str(&t),
                Some((1, t)) => s.insert_str(0, &t),
                Some((2, _)) => s.push_str(".0"),
                Some((3, _)) => s = parts[..2].join("."),
                Some((4, _)) => s = s.replacen('.', "..", 1),
                Some((5, t)) => s = s.replacen('.', &t, 1),
                Some((6, _)) => s.push_str("-beta"),
                Some((_, t)) => {
                    let at = s.len() / 2;
                    s.replace_range(at..=at, &t);
                }
            }
            let split: Vec<&str> = s.split('.').collect();
            let expected = split.len() == 3 && split.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
            let parsed = Version::parse(&s);
            prop_assert_eq!(parsed.as_ref().map(Version::as_str).ok(), expected.then_some(s.as_str()));
            prop_assert_eq!(parsed.clone().err(), (!expected).then(|| VersionError(s.clone())));
            let json = serde_json::Value::String(s.clone());
            prop_assert_eq!(serde_json::from_value::<Version>(json.clone()).ok(), parsed.clone().ok());
            let mut report = Report::new();
            Version::check_value(&json, &Pointer::root(), &mut report);
            prop_assert_eq!(report.is_valid(), expected);
            if let Ok(v) = parsed {
                prop_assert_eq!(v.to_string(), s.clone());
                prop_assert_eq!(format!("{v:?}"), format!("Version({s})"));
                prop_assert_eq!(serde_json::to_value(&v).unwrap(), json);
            }
        }
    }
}
