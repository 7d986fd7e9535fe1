//! Exact numbers in free-form members.
//!
//! A free-form member ([`JsonObject`](crate::JsonObject): event `data`,
//! payloads, `metadata`, `attributes`, ...) holds a `serde_json::Map`, whose
//! numbers are `u64`, `i64` or `f64`. A number the map cannot hold with its
//! value (`18446744073709551617`, `3.141592653589793238462643383279`,
//! `1e-400`, `1e400`) is read with its text kept beside the map, in a side
//! table keyed by its path; writing the object writes that text, so the
//! number comes back with the same value. A number the map holds exactly
//! (`1.5`, `1e5`, `-0.0`) has no entry and is written as the map writes it
//! (`1e5` as `100000.0`: the same value, not the same text). Documents
//! without such numbers read and write exactly as before, at no cost but a
//! byte scan of their free-form members' floats.
//!
//! What the map holds in place of such a number (its *stand-in*): the `f64`
//! serde_json reads (the nearest `f64`; `0.0` or `-0.0` below its range),
//! and `±1.7976931348623157e308` (`f64::MAX`) for a number beyond `f64`'s
//! range, which serde_json refuses to read. See docs/spec-notes.md, "Exact
//! numbers in free-form members".
//!
//! ```
//! use mplp_json::JsonObject;
//! // (keys in the map's order: sorted)
//! let text = r#"{"big":18446744073709551617,"huge":1e400,"ok":1.5,"pi":3.141592653589793238462643383279,"tiny":1e-400}"#;
//! let o: JsonObject = serde_json::from_str(text).unwrap();
//! assert_eq!(serde_json::to_string(&o).unwrap(), text);
//! // The map holds stand-ins; the exact text is one call away.
//! assert_eq!(o["huge"].as_f64(), Some(f64::MAX));
//! let exact: Vec<_> = o.exact_numbers().map(|(p, t)| (p.as_str().to_owned(), t)).collect();
//! assert_eq!(exact.len(), 4);
//! assert!(exact.contains(&("/huge".to_owned(), "1e400")));
//! ```

use std::cell::{Cell, RefCell};
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::Pointer;
use crate::nesting::{MAX_NESTING, SERDE_JSON_NESTING};

/// Notes that a parse met a number read as `f64`.
pub(crate) fn float_seen() {
    FLOAT_SEEN.with(|f| f.set(true));
}

/// The text a number beyond `f64`'s range stands for in the map (`f64::MAX`).
pub const STAND_IN: &str = "1.7976931348623157e308";

/// serde_json's name for its raw values (`serde_json::value::RawValue`):
/// asking a serde_json deserializer for a newtype struct of this name
/// yields the value's text. Any other deserializer (serde's buffered
/// content, other formats) reads the value as usual, without exact text.
const RAW_TOKEN: &str = "$serde_json::private::RawValue";

thread_local! {
    /// Set when a free-form member nested deeper than serde_json's limit
    /// was read without it (see [`take_deep_member`]).
    static DEEP_MEMBER: Cell<bool> = const { Cell::new(false) };
    /// Set when a parse of a free-form member met a number serde_json
    /// reads as `f64` (integers it reads as `u64`/`i64` are exact).
    static FLOAT_SEEN: Cell<bool> = const { Cell::new(false) };
    /// Set while [`write_stand_ins`] runs.
    static STAND_INS: Cell<bool> = const { Cell::new(false) };
    /// The numbers of the input being checked that a `serde_json::Value`
    /// does not hold with their value, by pointer (see [`with_written_numbers`]).
    static WRITTEN: RefCell<Vec<(Pointer, String)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with the numbers of `input` that a `serde_json::Value` does not
/// hold with their value (`18446744073709551617`, `1e400`, long fractions)
/// known by their pointers, so that a check of the `Value` read from
/// `input` can echo such a number as written ([`written_at`]) rather than
/// as its `f64` (`1.8446744073709552e+19`) or stand-in. What mplp-core's
/// thorough pass does around its checks; input that is not UTF-8 has none.
///
/// ```
/// use mplp_json::{Pointer, exact};
/// let at = Pointer::root().key("n").index(1);
/// let text = exact::with_written_numbers(br#"{"n":[1,18446744073709551617]}"#, || exact::written_at(&at));
/// assert_eq!(text.as_deref(), Some("18446744073709551617"));
/// assert_eq!(exact::with_written_numbers(br#"{"n":[1,2]}"#, || exact::written_at(&at)), None);
/// assert_eq!(exact::written_at(&at), None); // only while `f` runs
/// ```
pub fn with_written_numbers<R>(input: &[u8], f: impl FnOnce() -> R) -> R {
    let found: Vec<(Pointer, String)> = std::str::from_utf8(input)
        .map(|raw| {
            inexact_numbers(raw)
                .into_iter()
                .map(|(path, text)| (pointer_of(&path), text.get().to_owned()))
                .collect()
        })
        .unwrap_or_default();
    let before = WRITTEN.with(|w| w.replace(found));
    let out = f();
    WRITTEN.with(|w| w.replace(before));
    out
}

/// The text of the number at `at` as written in the input of the enclosing
/// [`with_written_numbers`], when a `serde_json::Value` does not hold it
/// with its value; `None` otherwise (the `Value`'s number shows it).
pub fn written_at(at: &Pointer) -> Option<String> {
    WRITTEN.with(|w| {
        w.borrow()
            .iter()
            .find(|(p, _)| p == at)
            .map(|(_, text)| text.clone())
    })
}

/// The pointer of a path inside a value.
fn pointer_of(path: &[Seg]) -> Pointer {
    path.iter().fold(Pointer::root(), |p, seg| match seg {
        Seg::Index(i) => p.index(*i),
        Seg::Key(k) => p.key(k),
    })
}

/// Whether a free-form member nested deeper than serde_json's limit of 128
/// levels was read on this thread since the last call (and clears it): the
/// document holding it must then be measured against
/// [`MAX_NESTING`] as a whole.
pub fn take_deep_member() -> bool {
    DEEP_MEMBER.with(Cell::take)
}

/// Runs `f` with free-form members writing their stand-ins instead of
/// their exact numbers: what mplp-core's `Document::to_value`
/// does, since a `serde_json::Value` cannot hold them.
pub fn write_stand_ins<R>(f: impl FnOnce() -> R) -> R {
    let before = STAND_INS.with(|s| s.replace(true));
    let out = f();
    STAND_INS.with(|s| s.set(before));
    out
}

/// One step of a path inside a free-form value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Seg {
    Index(usize),
    Key(String),
}

/// The exact text of the numbers a value's stand-ins replace, sorted by path.
#[derive(Clone, Debug, Default)]
pub(crate) struct Exact(Vec<(Vec<Seg>, Box<RawValue>)>);

impl Exact {
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    /// Drops the entries under the member `key`.
    pub(crate) fn remove_key(&mut self, key: &str) {
        self.0
            .retain(|(path, _)| !matches!(path.first(), Some(Seg::Key(k)) if k == key));
    }

    /// Takes the entries under the member `key`, without that first step.
    pub(crate) fn take_key(&mut self, key: &str) -> Exact {
        let mut taken = Vec::new();
        self.0.retain_mut(|(path, raw)| {
            if matches!(path.first(), Some(Seg::Key(k)) if k == key) {
                let rest = path.split_off(1);
                taken.push((rest, std::mem::replace(raw, empty_raw())));
                false
            } else {
                true
            }
        });
        Exact(taken)
    }

    /// Adds `other`'s entries under the member `key` (whose old entries
    /// the caller dropped).
    pub(crate) fn put_key(&mut self, key: &str, other: Exact) {
        for (path, raw) in other.0 {
            let mut full = Vec::with_capacity(path.len() + 1);
            full.push(Seg::Key(key.to_owned()));
            full.extend(path);
            let at = self.0.partition_point(|(p, _)| *p < full);
            self.0.insert(at, (full, raw));
        }
    }

    /// The entries as (pointer, text).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Pointer, &str)> {
        self.0
            .iter()
            .map(|(path, raw)| (pointer_of(path), raw.get()))
    }

    /// Equal when the paths are and each pair of numbers has the same value.
    pub(crate) fn same(&self, other: &Exact) -> bool {
        self.0.len() == other.0.len()
            && self.0.iter().zip(&other.0).all(|((pa, ra), (pb, rb))| {
                pa == pb && Decimal::of(ra.get()) == Decimal::of(rb.get())
            })
    }

    pub(crate) fn hash_into<H: Hasher>(&self, state: &mut H) {
        self.0.len().hash(state);
        for (path, raw) in &self.0 {
            path.hash(state);
            Decimal::of(raw.get()).hash(state);
        }
    }

    /// `value` written with these exact numbers.
    pub(crate) fn writer<'a>(&'a self, value: &'a Value) -> Exactly<'a> {
        Exactly {
            value,
            entries: &self.0,
            depth: 0,
        }
    }

    /// Whether `value` is written as the map writes it.
    pub(crate) fn write_plain(&self) -> bool {
        self.is_empty() || STAND_INS.with(Cell::get)
    }
}

fn empty_raw() -> Box<RawValue> {
    RawValue::from_string("0".to_owned()).unwrap_or_else(|_| Box::<RawValue>::default())
}

/// A value (its subtree `entries`, paths relative to `depth`) written with
/// its exact numbers.
pub(crate) struct Exactly<'a> {
    value: &'a Value,
    entries: &'a [(Vec<Seg>, Box<RawValue>)],
    depth: usize,
}

type Entries = [(Vec<Seg>, Box<RawValue>)];

/// The entries whose step at `depth` satisfies `seg` (contiguous: sorted).
fn under(entries: &Entries, depth: usize, seg: impl Fn(&Seg) -> bool) -> &Entries {
    let step = |e: &(Vec<Seg>, Box<RawValue>)| e.0.get(depth).is_some_and(&seg);
    match entries.iter().position(step) {
        Some(start) => {
            let len = entries[start..].iter().take_while(|e| step(e)).count();
            &entries[start..start + len]
        }
        None => &[],
    }
}

/// Writes the object `m` (its subtree `entries`, paths relative to `depth`).
fn write_map<S: Serializer>(
    m: &serde_json::Map<String, Value>,
    entries: &Entries,
    depth: usize,
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(m.len()))?;
    for (k, v) in m {
        let sub = under(entries, depth, |seg| matches!(seg, Seg::Key(x) if x == k));
        if sub.is_empty() {
            map.serialize_entry(k, v)?;
        } else {
            map.serialize_entry(
                k,
                &Exactly {
                    value: v,
                    entries: sub,
                    depth: depth + 1,
                },
            )?;
        }
    }
    map.end()
}

/// One member of a [`JsonObject`](crate::JsonObject), written with its
/// exact numbers (what `#[derive(Wire)]` writes for an extra map). Not part
/// of the public API.
#[doc(hidden)]
pub struct Member<'a> {
    value: &'a Value,
    entries: &'a Entries,
}

impl Serialize for Member<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.entries.is_empty() || STAND_INS.with(Cell::get) {
            self.value.serialize(s)
        } else {
            Exactly {
                value: self.value,
                entries: self.entries,
                depth: 1,
            }
            .serialize(s)
        }
    }
}

impl Exact {
    /// The member `key` (holding `value`) with its exact numbers.
    pub(crate) fn member<'a>(&'a self, key: &str, value: &'a Value) -> Member<'a> {
        let entries = if self.is_empty() {
            &[]
        } else {
            under(&self.0, 0, |seg| matches!(seg, Seg::Key(x) if x == key))
        };
        Member { value, entries }
    }
}

/// Writes `map` with the exact numbers of `exact`.
pub(crate) fn serialize_map<S: Serializer>(
    map: &serde_json::Map<String, Value>,
    exact: &Exact,
    s: S,
) -> Result<S::Ok, S::Error> {
    write_map(map, &exact.0, 0, s)
}

impl Serialize for Exactly<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.value {
            Value::Number(_) => match self.entries.iter().find(|(p, _)| p.len() == self.depth) {
                Some((_, raw)) => raw.serialize(s),
                None => self.value.serialize(s),
            },
            Value::Object(m) => write_map(m, self.entries, self.depth, s),
            Value::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for (i, v) in a.iter().enumerate() {
                    let sub = under(self.entries, self.depth, |seg| *seg == Seg::Index(i));
                    if sub.is_empty() {
                        seq.serialize_element(v)?;
                    } else {
                        seq.serialize_element(&Exactly {
                            value: v,
                            entries: sub,
                            depth: self.depth + 1,
                        })?;
                    }
                }
                seq.end()
            }
            _ => self.value.serialize(s),
        }
    }
}

// ---------------------------------------------------------------------------
// Reading

/// A free-form JSON value (duplicate keys refused at any depth) with the
/// exact text of the numbers it cannot hold. Read by [`JsonObject`]
/// (crate::JsonObject) and by the members `#[derive(Wire)]` keeps in an
/// extra map. Not part of the public API.
#[doc(hidden)]
#[derive(Clone, Debug, Default)]
pub struct ExactValue {
    pub(crate) value: Value,
    pub(crate) exact: Exact,
}

impl ExactValue {
    /// Whether every number is held exactly by the value.
    pub fn is_plain(&self) -> bool {
        self.exact.is_empty()
    }

    /// The value (stand-ins in place of the exact numbers).
    pub fn into_value(self) -> Value {
        self.value
    }

    /// Reads `raw`, the text of one JSON value (well-formed).
    fn from_raw(raw: &str) -> Result<ExactValue, serde_json::Error> {
        FLOAT_SEEN.with(|f| f.set(false));
        let value = match parse_strict(raw) {
            Ok(v) => v,
            Err(e) => match stand_ins(raw) {
                Some(replaced) => parse_strict(&replaced)?,
                None => return Err(e),
            },
        };
        // Only a number read as f64 can be inexact: members without one
        // are not scanned.
        let exact =
            if FLOAT_SEEN.with(Cell::take) && numbers(raw.as_bytes()).any(|t| !plainly_exact(t)) {
                Exact(inexact_numbers(raw))
            } else {
                Exact::default()
            };
        Ok(ExactValue { value, exact })
    }
}

impl Serialize for ExactValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.exact.write_plain() {
            self.value.serialize(s)
        } else {
            self.exact.writer(&self.value).serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for ExactValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(RAW_TOKEN, ExactVisitor)
    }
}

/// Parses `raw` with duplicate keys refused; nesting deeper than
/// serde_json's limit is read up to [`MAX_NESTING`] levels.
fn parse_strict(raw: &str) -> Result<Value, serde_json::Error> {
    fn strict(
        de: &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
    ) -> Result<Value, serde_json::Error> {
        let v = de.deserialize_any(crate::value::StrictValueVisitor)?;
        de.end()?;
        Ok(v)
    }
    let mut de = serde_json::Deserializer::from_str(raw);
    match strict(&mut de) {
        Ok(v) => Ok(v),
        Err(e) if e.is_syntax() => {
            let depth = crate::nesting::depth(raw.as_bytes());
            if depth > MAX_NESTING {
                return Err(crate::de::raise(
                    crate::Rule::JSON_DEPTH,
                    crate::nesting::too_deep_message(None),
                ));
            }
            if depth < SERDE_JSON_NESTING {
                return Err(e);
            }
            DEEP_MEMBER.with(|d| d.set(true));
            let mut de = serde_json::Deserializer::from_str(raw);
            de.disable_recursion_limit();
            strict(&mut de)
        }
        Err(e) => Err(e),
    }
}

/// serde_json's message without its position (which is in the member's
/// text, not the input's).
pub fn message_of(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&at) {
        Some(m) => m.to_owned(),
        None => text,
    }
}

struct ExactVisitor;

/// A string borrowed from the input when the deserializer can.
enum Text<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text::Borrowed(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text::Owned(v.to_owned()))
            }
            fn visit_string<E>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text::Owned(v))
            }
        }
        d.deserialize_str(V)
    }
}

impl Text<'_> {
    fn as_str(&self) -> &str {
        match self {
            Text::Borrowed(s) => s,
            Text::Owned(s) => s,
        }
    }
}

fn plain(value: Value) -> ExactValue {
    ExactValue {
        value,
        exact: Exact::default(),
    }
}

impl<'de> Visitor<'de> for ExactVisitor {
    type Value = ExactValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    /// serde_json's raw value (its text), or a map from another deserializer.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ExactValue, A::Error> {
        let first = match map.next_key::<Text<'de>>()? {
            None => return Ok(plain(Value::Object(serde_json::Map::new()))),
            Some(k) => k,
        };
        if first.as_str() == RAW_TOKEN {
            let raw: Text<'de> = map.next_value()?;
            return ExactValue::from_raw(raw.as_str())
                .map_err(|e| de::Error::custom(message_of(&e)));
        }
        let first = match first {
            Text::Borrowed(s) => s.to_owned(),
            Text::Owned(s) => s,
        };
        crate::value::StrictValueVisitor::finish_map(first, map).map(plain)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<ExactValue, D::Error> {
        d.deserialize_any(crate::value::StrictValueVisitor)
            .map(plain)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ExactValue, A::Error> {
        crate::value::StrictValueVisitor.visit_seq(seq).map(plain)
    }
    fn visit_bool<E>(self, v: bool) -> Result<ExactValue, E> {
        Ok(plain(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<ExactValue, E> {
        Ok(plain(Value::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<ExactValue, E> {
        Ok(plain(Value::from(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<ExactValue, E> {
        Ok(plain(
            serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_str<E>(self, v: &str) -> Result<ExactValue, E> {
        Ok(plain(Value::String(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<ExactValue, E> {
        Ok(plain(Value::String(v)))
    }
    fn visit_unit<E>(self) -> Result<ExactValue, E> {
        Ok(plain(Value::Null))
    }
    fn visit_none<E>(self) -> Result<ExactValue, E> {
        Ok(plain(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<ExactValue, D::Error> {
        ExactValue::deserialize(d)
    }
}

// ---------------------------------------------------------------------------
// Number tokens

/// Where the number tokens of `input` are (JSON text, strings skipped).
fn number_spans(input: &[u8]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < input.len() {
            match input[i] {
                b'"' => i = string_end(input, i),
                b'-' | b'0'..=b'9' => {
                    let start = i;
                    i = number_end(input, i);
                    return Some(start..i);
                }
                _ => i += 1,
            }
        }
        None
    })
}

/// The number tokens of `input` (JSON text, strings skipped).
fn numbers(input: &[u8]) -> impl Iterator<Item = &[u8]> {
    number_spans(input).map(move |r| &input[r])
}

/// The offset just past the string that opens at `start`.
fn string_end(input: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < input.len() && input[i] != b'"' {
        i += if input[i] == b'\\' { 2 } else { 1 };
    }
    (i + 1).min(input.len())
}

fn number_end(input: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < input.len() && matches!(input[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
        i += 1;
    }
    i
}

/// True for a number that serde_json certainly holds with its value: an
/// integer of at most 18 digits, or at most 15 significant digits with a
/// decimal exponent well inside `f64`'s normal range (15 digits survive a
/// round trip through `f64`). Others are checked by [`holds_exactly`].
fn plainly_exact(token: &[u8]) -> bool {
    let digits = token.iter().filter(|b| b.is_ascii_digit()).count();
    let is_integer = !token.iter().any(|b| matches!(b, b'.' | b'e' | b'E'));
    if is_integer {
        return digits <= 18;
    }
    let (mantissa, exponent) = match token.iter().position(|b| matches!(b, b'e' | b'E')) {
        Some(at) => (&token[..at], &token[at + 1..]),
        None => (token, &b""[..]),
    };
    let significant = mantissa
        .iter()
        .filter(|b| b.is_ascii_digit())
        .skip_while(|b| **b == b'0')
        .count();
    if significant > 15 || exponent.len() > 4 {
        return false;
    }
    let e: i64 = std::str::from_utf8(exponent)
        .ok()
        .and_then(|e| e.parse().ok())
        .unwrap_or(0);
    // At most 15 significant digits and no leading zeros (JSON has none
    // but a lone `0`): the integer part has at most 15 digits too, so the
    // scaled value stays far inside `f64`'s range.
    (-280..=280).contains(&e)
}

/// Whether the number serde_json reads from `token` is written back with
/// the same value (compared as decimals).
pub(crate) fn holds_exactly(token: &str) -> bool {
    match serde_json::from_str::<serde_json::Number>(token) {
        Ok(n) => Decimal::of(token) == Decimal::of(&n.to_string()),
        Err(_) => false,
    }
}

/// `raw` with every number beyond `f64`'s range replaced by its stand-in
/// ([`STAND_IN`], with its sign); `None` when there is none.
pub fn stand_ins(raw: &str) -> Option<String> {
    let mut out = String::new();
    let mut copied = 0;
    for r in number_spans(raw.as_bytes()) {
        let token = &raw[r.clone()];
        if serde_json::from_str::<serde_json::Number>(token).is_err() {
            out.push_str(&raw[copied..r.start]);
            if token.starts_with('-') {
                out.push('-');
            }
            out.push_str(STAND_IN);
            copied = r.end;
        }
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&raw[copied..]);
    Some(out)
}

/// The numbers of `raw` (well-formed JSON) that serde_json does not hold
/// exactly, with their paths, sorted by path.
fn inexact_numbers(raw: &str) -> Vec<(Vec<Seg>, Box<RawValue>)> {
    let bytes = raw.as_bytes();
    let mut out = Vec::new();
    let mut path: Vec<Seg> = Vec::new();
    let mut expect_key = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                path.push(Seg::Key(String::new()));
                expect_key = true;
                i += 1;
            }
            b'[' => {
                path.push(Seg::Index(0));
                expect_key = false;
                i += 1;
            }
            b'}' | b']' => {
                path.pop();
                expect_key = false;
                i += 1;
            }
            b',' => {
                match path.last_mut() {
                    Some(Seg::Index(n)) => *n += 1,
                    Some(Seg::Key(_)) => expect_key = true,
                    None => {}
                }
                i += 1;
            }
            b'"' => {
                let end = string_end(bytes, i);
                if expect_key {
                    if let (Some(last), Ok(key)) = (
                        path.last_mut(),
                        serde_json::from_str::<String>(&raw[i..end]),
                    ) {
                        *last = Seg::Key(key);
                    }
                    expect_key = false;
                }
                i = end;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                i = number_end(bytes, i);
                let token = &raw[start..i];
                if !plainly_exact(token.as_bytes()) && !holds_exactly(token) {
                    if let Ok(text) = RawValue::from_string(token.to_owned()) {
                        out.push((path.clone(), text));
                    }
                }
            }
            _ => i += 1,
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// A JSON number's value as a decimal: `0.DIGITS × 10^exponent` with no
/// leading or trailing zero digit (zero: no digits, exponent 0), and the
/// sign (kept for zero: `-0.0` stays negative). Exponents beyond ±10^36
/// saturate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    exponent: i128,
}

impl Decimal {
    /// The value of the JSON number `token` (assumed well-formed).
    pub(crate) fn of(token: &str) -> Decimal {
        let (negative, rest) = match token.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, token),
        };
        let (mantissa, exp_text) = match rest.find(['e', 'E']) {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, ""),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let (exp_negative, exp_digits) = match exp_text.as_bytes().first() {
            Some(b'-') => (true, &exp_text[1..]),
            Some(b'+') => (false, &exp_text[1..]),
            _ => (false, exp_text),
        };
        let mut e: i128 = 0;
        for b in exp_digits.bytes() {
            e = e
                .saturating_mul(10)
                .saturating_add(i128::from(b.wrapping_sub(b'0')))
                .min(10i128.pow(36));
        }
        if exp_negative {
            e = -e;
        }
        let all: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
        let leading = all.iter().take_while(|b| **b == b'0').count();
        let mut digits = all[leading..].to_vec();
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
        let exponent = if digits.is_empty() {
            0
        } else {
            e + int.len() as i128 - leading as i128
        };
        Decimal {
            negative,
            digits,
            exponent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_compare_values_not_text() {
        assert_eq!(Decimal::of("1e5"), Decimal::of("100000.0"));
        assert_eq!(Decimal::of("0.00120"), Decimal::of("1.2e-3"));
        assert_eq!(Decimal::of("0"), Decimal::of("0.000e7"));
        assert_ne!(Decimal::of("-0"), Decimal::of("0"));
        assert_eq!(Decimal::of("-0"), Decimal::of("-0.0"));
        assert_ne!(Decimal::of("1e5"), Decimal::of("1e6"));
        assert_ne!(
            Decimal::of("18446744073709551617"),
            Decimal::of("18446744073709551616")
        );
        assert_ne!(Decimal::of("12"), Decimal::of("21"));
        assert_ne!(Decimal::of("1.5"), Decimal::of("-1.5"));
        assert_eq!(Decimal::of("10E+1"), Decimal::of("100"));
    }

    #[test]
    fn only_numbers_f64_cannot_write_back_are_inexact() {
        for t in [
            "0",
            "-0",
            "1.5",
            "1e5",
            "0.1",
            "123456789012345678",
            "18446744073709551615",
            "-9223372036854775808",
            "1.7976931348623157e308",
            "5e-324",
        ] {
            assert!(holds_exactly(t), "{t}");
        }
        for t in [
            "18446744073709551616",
            "18446744073709551617",
            "-9223372036854775809",
            "3.141592653589793238462643383279",
            "1e-400",
            "1e400",
            "2.5e-324",
            "0.10000000000000000001",
        ] {
            assert!(!holds_exactly(t), "{t}");
        }
    }

    #[test]
    fn plainly_exact_is_never_wrong() {
        for t in [
            "1",
            "-12",
            "123456789012345678",
            "1.5",
            "0.000123",
            "1e280",
            "-1.23456789012345e-280",
            "100000000000000000000.5",
        ] {
            if plainly_exact(t.as_bytes()) {
                assert!(holds_exactly(t), "{t}");
            }
        }
        assert!(!plainly_exact(b"1234567890123456789"));
        assert!(!plainly_exact(b"1.2345678901234567"));
        assert!(!plainly_exact(b"1e300"));
        assert!(!plainly_exact(b"1e-300"));
        assert!(!plainly_exact(b"1e00001"));
        assert!(plainly_exact(b"1e280"));
        assert!(plainly_exact(b"-1e-280"));
        assert!(plainly_exact(b"0.000000000000001"));
    }

    #[test]
    fn stand_ins_take_any_text_without_panicking() {
        // `stand_ins` is public: text that is not JSON (here an unterminated
        // string, and a lone backslash at the end) is walked to its end.
        assert_eq!(stand_ins(r#""1e400"#), None);
        assert_eq!(stand_ins("\"\\"), None);
        assert_eq!(
            stand_ins("1e400 \"").as_deref(),
            Some("1.7976931348623157e308 \"")
        );
        // A number that ends the text.
        assert_eq!(
            stand_ins("-1e400").as_deref(),
            Some("-1.7976931348623157e308")
        );
    }

    /// A duplicate key is reported as such even when the member is also
    /// nested past `MAX_NESTING` further on: only a syntax error (serde_json's
    /// recursion limit) makes the member measured for depth.
    #[test]
    fn a_duplicate_key_is_not_taken_for_deep_nesting() {
        let deep = format!(
            "{}{}",
            "[".repeat(MAX_NESTING + 1),
            "]".repeat(MAX_NESTING + 1)
        );
        let raw = format!(r#"{{"a":1,"a":2,"b":{deep}}}"#);
        let err = match parse_strict(&raw) {
            Ok(v) => panic!("read {v}"),
            Err(e) => e,
        };
        assert!(err.to_string().contains("duplicate"), "{err}");
        assert_eq!(crate::de::take_raised(), Some(crate::Rule::DUPLICATE_KEY));
    }

    /// `visit_some` reads the value inside (deserializers that wrap a
    /// newtype's content in an option, such as serde's buffered content of
    /// an untagged enum, call it).
    #[test]
    fn visit_some_reads_the_value_inside() {
        use serde::de::Visitor;
        let inside = serde_json::json!({"a": [1, "x"]});
        let read = ExactVisitor.visit_some(inside.clone()).unwrap();
        assert_eq!(read.value, inside);
    }

    #[test]
    fn stand_ins_replace_only_numbers_beyond_range() {
        assert_eq!(stand_ins(r#"[1, "1e400", 2e3]"#), None);
        assert_eq!(
            stand_ins(r#"{"a":1e400,"b":[-1E+999, 1e-400]}"#).as_deref(),
            Some(r#"{"a":1.7976931348623157e308,"b":[-1.7976931348623157e308, 1e-400]}"#)
        );
    }

    #[test]
    fn decimals_of_absurd_exponents_saturate_without_overflow() {
        let huge = format!("123.456e{}", "9".repeat(60));
        let d = Decimal::of(&huge);
        assert_eq!(d.exponent, 10i128.pow(36) + 3);
        assert_eq!(
            Decimal::of(&format!("-1e-{}", "9".repeat(60))).exponent,
            1 - 10i128.pow(36)
        );
        assert!(!holds_exactly(&huge));
    }

    /// Deserializers other than serde_json's never answer the raw-value
    /// request: every kind of value is read as before, without exact text.
    #[test]
    fn other_deserializers_read_values_as_before() {
        use serde::de::IntoDeserializer;
        use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
        fn read<'de>(d: impl Deserializer<'de, Error = Error>) -> Value {
            let v = ExactValue::deserialize(d).unwrap();
            assert!(v.is_plain());
            v.into_value()
        }
        assert_eq!(read(true.into_deserializer()), Value::Bool(true));
        assert_eq!(read((-5i64).into_deserializer()), Value::from(-5));
        assert_eq!(read(5u64.into_deserializer()), Value::from(5u64));
        assert_eq!(read(1.5f64.into_deserializer()), Value::from(1.5));
        assert_eq!(read(f64::NAN.into_deserializer()), Value::Null);
        assert_eq!(read("s".into_deserializer()), Value::from("s"));
        assert_eq!(
            read(String::from("t").into_deserializer()),
            Value::from("t")
        );
        assert_eq!(read(().into_deserializer()), Value::Null);
        let seq = SeqDeserializer::<_, Error>::new(vec![1u64, 2].into_iter());
        assert_eq!(read(seq), serde_json::json!([1, 2]));
        let map = MapDeserializer::<_, Error>::new(vec![("a", 1u64), ("b", 2)].into_iter());
        assert_eq!(read(map), serde_json::json!({"a": 1, "b": 2}));
        let empty = MapDeserializer::<_, Error>::new(Vec::<(&str, u64)>::new().into_iter());
        assert_eq!(read(empty), serde_json::json!({}));
        let dup = MapDeserializer::<_, Error>::new(vec![("a", 1u64), ("a", 2)].into_iter());
        assert!(ExactValue::deserialize(dup).is_err());
        // serde's buffered content (untagged enums, flatten).
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Either {
            Object(crate::JsonObject),
        }
        let Either::Object(o) =
            serde_json::from_str(r#"{"a": [1.5, null, 18446744073709551617]}"#).unwrap();
        assert_eq!(o.exact_numbers().count(), 0);
        assert_eq!(
            o["a"],
            serde_json::json!([1.5, null, 18446744073709551617.0])
        );
        // serde_json's own deserializers, from a reader and a Value.
        let o: crate::JsonObject = serde_json::from_reader(&br#"{"n": 1e400}"#[..]).unwrap();
        assert_eq!(o.exact_numbers().next().map(|(_, t)| t), Some("1e400"));
        let o: crate::JsonObject = serde_json::from_value(serde_json::json!({"n": null})).unwrap();
        assert_eq!(o["n"], Value::Null);
    }

    #[test]
    fn members_move_with_their_exact_numbers() {
        let mut o: crate::JsonObject =
            serde_json::from_str(r#"{"a": {"x": 1e400}, "b": [1e-400], "c": 1}"#).unwrap();
        let a = o.remove_exact("a").unwrap();
        assert!(o.remove_exact("zz").is_none());
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"x":1e400}"#);
        assert_eq!(
            serde_json::to_string(&o).unwrap(),
            r#"{"b":[1e-400],"c":1}"#
        );
        let mut p = crate::JsonObject::new();
        p.insert_exact("z".to_owned(), a.clone());
        p.insert_exact("y".to_owned(), a);
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"y":{"x":1e400},"z":{"x":1e400}}"#
        );
        // An extra member is written with its exact numbers, or its
        // stand-ins where a Value is being made.
        let members: Vec<String> = p
            .exact_members()
            .map(|(k, m)| format!("{k}={}", serde_json::to_string(&m).unwrap()))
            .collect();
        assert_eq!(members, ["y={\"x\":1e400}", "z={\"x\":1e400}"]);
        let v = write_stand_ins(|| serde_json::to_value(p.exact_members().next().unwrap().1));
        assert_eq!(v.unwrap(), serde_json::json!({"x": f64::MAX}));
        assert!(!STAND_INS.with(Cell::get), "restored");
        let whole = p.into_exact();
        assert!(!whole.is_plain());
        assert_eq!(
            write_stand_ins(|| serde_json::to_string(&whole)).unwrap(),
            r#"{"y":{"x":1.7976931348623157e+308},"z":{"x":1.7976931348623157e+308}}"#
        );
    }

    /// A member's own nesting is read up to the limit, past serde_json's
    /// (and only then is the document measured as a whole).
    #[test]
    fn a_member_nests_to_the_limit_and_no_further() {
        let member = |depth: usize| {
            format!(
                "{{\"a\":{}1{}}}",
                "[".repeat(depth - 1),
                "]".repeat(depth - 1)
            )
        };
        take_deep_member();
        let o: crate::JsonObject = serde_json::from_str(&member(SERDE_JSON_NESTING - 1)).unwrap();
        assert!(!take_deep_member());
        drop(o);
        let o: crate::JsonObject = serde_json::from_str(&member(SERDE_JSON_NESTING)).unwrap();
        assert!(take_deep_member());
        drop(o);
        let _: crate::JsonObject = serde_json::from_str(r#"{"a":[1e400]}"#).unwrap();
        assert!(!take_deep_member(), "a huge number is not a deep member");
        let o: crate::JsonObject = serde_json::from_str(&member(MAX_NESTING)).unwrap();
        assert!(take_deep_member());
        drop(o);
        let e = serde_json::from_str::<crate::JsonObject>(&member(MAX_NESTING + 1)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("arrays and objects nested more than 1024 levels deep"),
            "{e}"
        );
    }

    /// What other deserializers are told when a value is of no JSON kind.
    #[test]
    fn type_errors_name_what_was_expected() {
        use serde::de::value::{BytesDeserializer, Error, MapDeserializer};
        let e = ExactValue::deserialize(BytesDeserializer::<Error>::new(b"x")).unwrap_err();
        assert!(e.to_string().ends_with("expected any JSON value"), "{e}");
        let keys = MapDeserializer::<_, Error>::new(vec![(1u64, 2u64)].into_iter());
        let e = ExactValue::deserialize(keys).unwrap_err();
        assert!(e.to_string().ends_with("expected a string"), "{e}");
    }

    #[test]
    fn paths_follow_keys_and_indexes() {
        let raw =
            r#"{"a": [1, {"b\"": 1e400, "c": 2}, 3.141592653589793238462643383279], "d": -0.0}"#;
        let found: Vec<_> = Exact(inexact_numbers(raw))
            .iter()
            .map(|(p, t)| (p.as_str().to_owned(), t.to_owned()))
            .collect();
        assert_eq!(
            found,
            [
                ("/a/1/b\"".to_owned(), "1e400".to_owned()),
                (
                    "/a/2".to_owned(),
                    "3.141592653589793238462643383279".to_owned()
                ),
            ]
        );
    }
}
