//! The thorough pass: checks a `serde_json::Value` against the schema rules of
//! a type and reports *every* violation.
//!
//! The fast path of [`Document::from_json`](crate::Document::from_json)
//! deserializes bytes straight into typed documents, and serde stops at the
//! first problem. Only when that fails does the SDK parse the input again, into
//! a `Value`, and walk it with [`CheckValue`], which knows the schema rules of
//! each type and collects all violations with their pointers.
//!
//! Module crates implement [`CheckValue`] for their documents with
//! [`ObjectCheck`]:
//!
//! ```
//! use mplp_core::check::{CheckValue, ObjectCheck};
//! use mplp_core::{NonEmptyString, Pointer, Report, PlanId};
//! use serde_json::{json, Value};
//!
//! struct Thing;
//! impl CheckValue for Thing {
//!     fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
//!         if let Some(mut obj) = ObjectCheck::new(value, at, report) {
//!             obj.required::<PlanId>("plan_id");
//!             obj.optional::<NonEmptyString>("title");
//!             obj.deny_unknown();
//!         }
//!     }
//! }
//!
//! let mut report = Report::new();
//! Thing::check_value(&json!({"planId": "x", "title": ""}), &Pointer::root(), &mut report);
//! let rules: Vec<_> = report.errors().map(|v| (v.pointer.as_str(), v.rule.as_str())).collect();
//! assert_eq!(rules, [("/plan_id", "required"), ("/title", "min-length"), ("/planId", "additional-properties")]);
//! assert!(report.errors().last().unwrap().message.contains("did you mean `plan_id`"));
//! ```

use serde_json::{Map, Value};

use mplp_json::de::near_miss;
use mplp_json::integer::{WireInteger, read_integer_as};

use crate::{Pointer, Report, Rule};

/// Checks a JSON value against the schema rules of a type, reporting every violation.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be checked as an MPLP member: it does not implement `CheckValue`",
    label = "`#[derive(Wire)]` checks this member's value with `CheckValue`",
    note = "derive `Wire` for the type, implement `mplp_core::check::CheckValue` for it, \
            or give the field `#[wire(check = \"path::to::fn\")]`"
)]
pub trait CheckValue {
    /// Adds to `report` every violation of `value` (located at `at`).
    fn check_value(value: &Value, at: &Pointer, report: &mut Report);
}

/// The JSON type name of a value, as JSON Schema spells it.
pub fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Reports a `type` violation.
pub fn type_error(value: &Value, at: &Pointer, report: &mut Report, expected: &str) {
    report.error(
        at,
        Rule::TYPE,
        format!("expected {expected}, found {}", json_type_name(value)),
    );
}

/// Returns the string, or reports a `type` violation.
pub fn expect_str<'v>(value: &'v Value, at: &Pointer, report: &mut Report) -> Option<&'v str> {
    match value {
        Value::String(s) => Some(s),
        other => {
            type_error(other, at, report, "a string");
            None
        }
    }
}

/// Returns the array, or reports a `type` violation.
pub fn expect_array<'v>(
    value: &'v Value,
    at: &Pointer,
    report: &mut Report,
) -> Option<&'v Vec<Value>> {
    match value {
        Value::Array(a) => Some(a),
        other => {
            type_error(other, at, report, "an array");
            None
        }
    }
}

/// Checks every item of an array value with `T`, reporting `min-items` when
/// there are fewer than `min_items`. Returns the array when it is one.
pub fn check_array_of<'v, T: CheckValue>(
    value: &'v Value,
    at: &Pointer,
    report: &mut Report,
    min_items: usize,
) -> Option<&'v Vec<Value>> {
    let items = expect_array(value, at, report)?;
    if items.len() < min_items {
        report.error(
            at,
            Rule::MIN_ITEMS,
            format!(
                "expected at least {min_items} item{}, found {}",
                if min_items == 1 { "" } else { "s" },
                items.len()
            ),
        );
    }
    for (i, item) in items.iter().enumerate() {
        T::check_value(item, &at.index(i), report);
    }
    Some(items)
}

/// Reports `unique-items` for every item equal to an earlier one (pointing
/// at the repeat); linear in the number of items
/// ([`for_each_repeated_key`]: a list of 60,000 tags took 5.6 s compared
/// pairwise).
pub fn check_unique_items(items: &[Value], at: &Pointer, report: &mut Report) {
    for_each_repeated_key(items.iter().map(Some), |i, first, item| {
        report.error(
            at.index(i),
            Rule::UNIQUE_ITEMS,
            format!("items must be unique: this repeats item {first} ({item})"),
        );
    });
}

/// Calls `repeat(i, first)` for every item of `items` whose `text` equals
/// an earlier one's (`first` is the index of its first occurrence), in
/// order: the uniqueness rules over text members such as `participant_id`.
///
/// A short list (the usual case: a session's participants) is compared
/// pairwise on a word taken from each text, without allocating and without
/// a `memcmp` call unless two words agree; a long one goes through a hash
/// map, so the cost stays linear.
///
/// ```
/// use mplp_core::check::for_each_repeat;
/// let ids = ["a", "b", "a", "c", "b", "a"];
/// let mut repeats = Vec::new();
/// for_each_repeat(&ids, |s| s, |i, first| repeats.push((i, first)));
/// assert_eq!(repeats, [(2, 0), (4, 1), (5, 0)]);
/// ```
pub fn for_each_repeat<'a, T>(
    items: &'a [T],
    text: impl Fn(&'a T) -> &'a str,
    mut repeat: impl FnMut(usize, usize),
) {
    if items.len() <= SHORT_LIST {
        let mut words = [0u64; SHORT_LIST];
        for (word, item) in words.iter_mut().zip(items) {
            *word = fingerprint(text(item).as_bytes());
        }
        for (i, item) in items.iter().enumerate().skip(1) {
            // The texts are compared only where the words agree.
            let first = (0..i).find(|&j| words[j] == words[i] && text(&items[j]) == text(item));
            if let Some(first) = first {
                repeat(i, first);
            }
        }
        return;
    }
    let mut seen: std::collections::HashMap<&str, usize> =
        std::collections::HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match seen.entry(text(item)) {
            std::collections::hash_map::Entry::Occupied(e) => repeat(i, *e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(i);
            }
        }
    }
}

/// Calls `repeat(i, first, key)` for every key of `keys` equal to an
/// earlier one (`first` is the index of its first occurrence), in order;
/// `None` (a key that cannot be read) is skipped. The uniqueness rules over
/// typed keys, such as Confirm's decision ids: as [`for_each_repeat`], a
/// short list is compared pairwise without allocating (`keys` is walked
/// again for each item: it should be a cheap iterator over a document) and
/// a long one goes through a hash map, so the cost stays linear.
///
/// ```
/// use mplp_core::check::for_each_repeated_key;
/// let keys = [Some(1), None, Some(2), Some(1), None, Some(2)];
/// let mut repeats = Vec::new();
/// for_each_repeated_key(keys.iter().copied(), |i, first, k| repeats.push((i, first, *k)));
/// assert_eq!(repeats, [(3, 0, 1), (5, 2, 2)]);
/// ```
pub fn for_each_repeated_key<K, I>(keys: I, mut repeat: impl FnMut(usize, usize, &K))
where
    K: Eq + std::hash::Hash,
    I: Iterator<Item = Option<K>> + Clone,
{
    let count = keys.clone().count();
    if count <= SHORT_LIST {
        for (i, key) in keys.clone().enumerate() {
            let Some(key) = key else { continue };
            let mut earlier = keys.clone().take(i);
            if let Some(first) = earlier.position(|e| e.as_ref() == Some(&key)) {
                repeat(i, first, &key);
            }
        }
        return;
    }
    let mut seen = std::collections::HashMap::with_capacity(count);
    for (i, key) in keys.enumerate() {
        let Some(key) = key else { continue };
        match seen.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => repeat(i, *e.get(), e.key()),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(i);
            }
        }
    }
}

/// Lists up to this long are searched for repeats pairwise
/// ([`for_each_repeat`], [`for_each_repeated_key`]); longer ones through a
/// hash map.
const SHORT_LIST: usize = 32;

/// A word that equal texts share: the text itself below 8 bytes (its
/// bytes from the lowest, its length in the top byte, which a text of
/// at most 7 bytes leaves free), else its first and last 8 bytes and its
/// length.
fn fingerprint(b: &[u8]) -> u64 {
    match (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (Some(head), Some(tail)) => {
            u64::from_le_bytes(*head) ^ u64::from_le_bytes(*tail).rotate_left(32) ^ b.len() as u64
        }
        _ => {
            let mut word = [0u8; 8];
            let n = b.len().min(7);
            word[..n].copy_from_slice(&b[..n]);
            u64::from_le_bytes(word) | (b.len() as u64) << 56
        }
    }
}

/// `type: integer` in the range of the type (`minimum: 0` for unsigned
/// types), for each [`WireInteger`].
macro_rules! check_integers {
    ($($t:ty),*) => {$(
        impl CheckValue for $t {
            fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
                check_integer::<$t>(value, at, report);
            }
        }
    )*};
}

mplp_json::__wire_integers!(check_integers);

/// Checks an integer member of type `T` (`type: integer`, and `minimum: 0`
/// for unsigned types), with [`read_integer_as`]'s verdicts and messages.
///
/// A number with a fraction, even `1.0`, is reported as `type`: see
/// `docs/spec-notes.md` ("Integers").
pub fn check_integer<T: WireInteger>(value: &Value, at: &Pointer, report: &mut Report) {
    match value {
        Value::Number(n) => {
            let written = mplp_json::exact::written_at(at);
            if let Err((rule, message)) = read_integer_as::<T>(n, written.as_deref()) {
                report.error(at, rule, message);
            }
        }
        other => type_error(other, at, report, "an integer"),
    }
}

/// Checked as [`str`].
impl CheckValue for String {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        str::check_value(value, at, report);
    }
}

impl CheckValue for str {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        expect_str(value, at, report);
    }
}

/// A boxed value (a `Box<str>`, a `Box<[T]>`) is checked as the value.
impl<T: CheckValue + ?Sized> CheckValue for Box<T> {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        T::check_value(value, at, report);
    }
}

impl CheckValue for bool {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        if !value.is_boolean() {
            type_error(value, at, report, "a boolean");
        }
    }
}

impl CheckValue for Value {
    fn check_value(_: &Value, _: &Pointer, _: &mut Report) {}
}

/// Checked as a slice (`[T]`).
impl<T: CheckValue> CheckValue for Vec<T> {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        <[T]>::check_value(value, at, report);
    }
}

impl<T: CheckValue> CheckValue for [T] {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        check_array_of::<T>(value, at, report, 0);
    }
}

impl<T: CheckValue> CheckValue for Option<T> {
    /// `null` is accepted, anything else is checked as `T`.
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        if !value.is_null() {
            T::check_value(value, at, report);
        }
    }
}

/// Walks the members of one JSON object: checks each known member with its
/// type and, at the end, reports unknown members (with a near-miss suggestion).
#[must_use = "call deny_unknown() or allow_unknown() to finish the check"]
pub struct ObjectCheck<'v, 'r> {
    map: &'v Map<String, Value>,
    at: Pointer,
    report: &'r mut Report,
    known: Vec<&'static str>,
}

impl<'v, 'r> ObjectCheck<'v, 'r> {
    /// Starts checking `value` as an object; reports `type` and returns `None` if it is not one.
    pub fn new(value: &'v Value, at: &Pointer, report: &'r mut Report) -> Option<Self> {
        match value {
            Value::Object(map) => Some(ObjectCheck {
                map,
                at: at.clone(),
                report,
                known: Vec::new(),
            }),
            other => {
                type_error(other, at, report, "an object");
                None
            }
        }
    }

    /// The pointer of the object.
    pub fn pointer(&self) -> &Pointer {
        &self.at
    }

    /// The report being written.
    pub fn report(&mut self) -> &mut Report {
        self.report
    }

    /// Marks `key` as known without checking it; returns its value if present.
    pub fn member(&mut self, key: &'static str) -> Option<&'v Value> {
        self.known.push(key);
        self.map.get(key)
    }

    /// Checks member `key` with `T`; reports `required` when it is missing
    /// (pointing at the missing member, e.g. `/meta/protocol_version`).
    pub fn required<T: CheckValue>(&mut self, key: &'static str) -> Option<&'v Value> {
        self.required_with(key, T::check_value)
    }

    /// Checks member `key`, if present, with `T`.
    pub fn optional<T: CheckValue>(&mut self, key: &'static str) -> Option<&'v Value> {
        self.optional_with(key, T::check_value)
    }

    /// Checks member `key` with a function; reports `required` when it is missing.
    pub fn required_with(
        &mut self,
        key: &'static str,
        check: impl FnOnce(&Value, &Pointer, &mut Report),
    ) -> Option<&'v Value> {
        let found = self.optional_with(key, check);
        if found.is_none() {
            self.report.error(
                self.at.key(key),
                Rule::REQUIRED,
                format!("missing required property `{key}`"),
            );
        }
        found
    }

    /// Checks member `key`, if present, with a function.
    pub fn optional_with(
        &mut self,
        key: &'static str,
        check: impl FnOnce(&Value, &Pointer, &mut Report),
    ) -> Option<&'v Value> {
        self.known.push(key);
        let value = self.map.get(key)?;
        check(value, &self.at.key(key), self.report);
        Some(value)
    }

    /// Finishes the check, reporting every member that was not named
    /// (`additionalProperties: false`).
    pub fn deny_unknown(self) {
        self.deny_unknown_with(|_| None);
    }

    /// Finishes the check like [`ObjectCheck::deny_unknown`], with `hint`'s
    /// message for the unknown members it knows something about.
    pub fn deny_unknown_with(self, hint: fn(&str) -> Option<&'static str>) {
        for key in self.map.keys() {
            if self.known.iter().any(|k| k == key) {
                continue;
            }
            if let Some(message) = hint(key) {
                self.report
                    .error(self.at.key(key), Rule::ADDITIONAL_PROPERTIES, message);
                continue;
            }
            let mut message = format!(
                "unknown property `{key}`; allowed here: {}",
                self.known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if let Some(near) = near_miss(key, &self.known) {
                message = format!("unknown property `{key}`: did you mean `{near}`?");
            }
            self.report
                .error(self.at.key(key), Rule::ADDITIONAL_PROPERTIES, message);
        }
    }

    /// Finishes the check, allowing members that were not named.
    pub fn allow_unknown(self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The pairwise walk `for_each_repeat` replaced.
    fn repeats_reference(texts: &[String]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, t) in texts.iter().enumerate() {
            if let Some(first) = texts[..i].iter().position(|u| u == t) {
                out.push((i, first));
            }
        }
        out
    }

    proptest::proptest! {
        /// Short lists (fingerprints) and long ones (the hash map) find
        /// the same repeats as the pairwise walk, on texts of every length
        /// class that differ in one byte at the start, the middle or the
        /// end (words that nearly agree).
        #[test]
        fn repeats_are_those_of_the_pairwise_walk(
            picks in proptest::collection::vec((0usize..6, 0usize..4, 0u8..3), 0..70),
        ) {
            let lens = [0usize, 1, 7, 8, 12, 36];
            let texts: Vec<String> = picks
                .iter()
                .map(|&(len, at, byte)| {
                    let mut b = vec![b'a'; lens[len]];
                    if let Some(n) = b.len().checked_sub(1) {
                        let i = [0, n / 2, n, n.saturating_sub(8)][at];
                        b[i] = b'a' + byte;
                    }
                    String::from_utf8(b).unwrap()
                })
                .collect();
            let mut got = Vec::new();
            for_each_repeat(&texts, |t| t.as_str(), |i, first| got.push((i, first)));
            proptest::prop_assert_eq!(got, repeats_reference(&texts));
        }

        /// Typed keys: short lists (pairwise) and long ones (the hash map)
        /// find the same repeats as the pairwise walk over the readable
        /// keys, each naming its key; unreadable keys are never a repeat
        /// nor the first of one.
        #[test]
        fn repeated_keys_are_those_of_the_pairwise_walk(
            keys in proptest::collection::vec(proptest::option::of(0u8..12), 0..70),
        ) {
            let mut got = Vec::new();
            for_each_repeated_key(keys.iter().copied(), |i, first, k| got.push((i, first, *k)));
            let mut expected = Vec::new();
            for (i, k) in keys.iter().enumerate() {
                let Some(k) = k else { continue };
                if let Some(first) = keys[..i].iter().position(|e| *e == Some(*k)) {
                    expected.push((i, first, *k));
                }
            }
            proptest::prop_assert_eq!(got, expected);
        }
    }

    /// What makes the fingerprint worth taking (the answers do not depend
    /// on it): no two texts below 8 bytes share one, and a long text's
    /// changes in its first or last 8 bytes or in its length change it.
    #[test]
    fn fingerprints_tell_short_texts_and_the_ends_of_long_ones_apart() {
        let mut short = vec![Vec::new()];
        for len in 1..=4 {
            let prev: Vec<Vec<u8>> = short
                .iter()
                .filter(|t| t.len() == len - 1)
                .cloned()
                .collect();
            for t in prev {
                for b in [0u8, b'a', b'b', 0xff] {
                    let mut u = t.clone();
                    u.push(b);
                    short.push(u);
                }
            }
        }
        short.push(b"agent-0".to_vec());
        short.push(b"agent-1".to_vec());
        let prints: std::collections::HashSet<u64> = short.iter().map(|t| fingerprint(t)).collect();
        assert_eq!(prints.len(), short.len());

        let base = vec![b'a'; 24];
        let at = fingerprint(&base);
        for i in (0..8).chain(16..24) {
            for b in [0x60, 0x63] {
                let mut t = base.clone();
                t[i] = b;
                assert_ne!(fingerprint(&t), at, "byte {i} set to {b:#x}");
            }
        }
        assert_ne!(fingerprint(&base[..23]), at);
        assert_ne!(fingerprint(&[&base[..], b"a"].concat()), at);
        // The same first and last words, lengths 24 and 25, and words whose
        // mix has its low bits set (`a` against `~`: 0x1f), so that only
        // the length tells them apart.
        let (head, tail) = (b"accccccc", b"cccc~ccc");
        let of = |middle: usize| fingerprint(&[&head[..], &vec![b'c'; middle], &tail[..]].concat());
        assert_ne!(of(8), of(9));
    }

    #[test]
    fn texts_that_share_a_fingerprint_are_still_compared() {
        // The first two: the same length and the same first and last 8
        // bytes, so the same fingerprint, yet different texts.
        let texts = [
            "abcdefghXXXXabcdefgh",
            "abcdefghYYYYabcdefgh",
            "abcdefghXXXXabcdefgh",
        ];
        let mut got = Vec::new();
        for_each_repeat(&texts, |t| t, |i, first| got.push((i, first)));
        assert_eq!(got, [(2, 0)]);
        assert_eq!(
            fingerprint(texts[0].as_bytes()),
            fingerprint(texts[1].as_bytes())
        );
    }

    #[test]
    fn arrays_have_at_least_their_minimum_items_and_every_item_is_checked() {
        let check = |v: Value, min: usize| {
            let mut r = Report::new();
            check_array_of::<String>(&v, &Pointer::root(), &mut r, min);
            r.errors()
                .map(|v| format!("{} {} {}", v.pointer, v.rule, v.message))
                .collect::<Vec<_>>()
        };
        assert!(check(json!([]), 0).is_empty());
        assert!(check(json!(["a"]), 1).is_empty());
        assert!(check(json!(["a", "b"]), 1).is_empty());
        assert_eq!(
            check(json!([]), 1),
            [" min-items expected at least 1 item, found 0"]
        );
        assert_eq!(
            check(json!(["a"]), 2),
            [" min-items expected at least 2 items, found 1"]
        );
        assert_eq!(
            check(json!(["a", 1]), 1),
            ["/1 type expected a string, found integer"]
        );
    }

    /// A whole float at the very bound of a type is in range: it is
    /// refused for its fraction, not for its size; one past the bound is
    /// out of range.
    #[test]
    fn a_whole_float_at_the_bound_is_in_range() {
        let (rule, message) = verdict::<u32>("4294967295.0").unwrap_err();
        assert_eq!(rule, Rule::TYPE);
        assert!(
            message.contains("without a fraction or exponent"),
            "{message}"
        );
        let (rule, message) = verdict::<u32>("4294967296.0").unwrap_err();
        assert_eq!(rule, Rule::TYPE);
        assert!(message.contains("from 0 to 4294967295"), "{message}");
        assert_eq!(verdict::<u32>("4294967295"), Ok(u32::MAX));
    }

    /// A boxed value is checked as the value itself.
    #[test]
    fn a_box_is_checked_as_its_value() {
        let rules = |v: Value| {
            let mut r = Report::new();
            <Box<u8>>::check_value(&v, &Pointer::root(), &mut r);
            r.errors().map(|v| v.rule).collect::<Vec<_>>()
        };
        assert_eq!(rules(json!(255)), []);
        assert_eq!(rules(json!(256)), [Rule::TYPE]);
        assert_eq!(rules(json!(-1)), [Rule::MINIMUM]);
        assert_eq!(rules(json!("1")), [Rule::TYPE]);
    }

    /// A boxed text and a boxed slice report what a `String` and a `Vec`
    /// report, with the same pointers and messages.
    #[test]
    fn boxed_text_and_slices_are_checked_as_string_and_vec() {
        fn found<T: CheckValue + ?Sized>(v: &Value) -> Vec<String> {
            let mut r = Report::new();
            T::check_value(v, &Pointer::root().key("m"), &mut r);
            r.errors()
                .map(|v| format!("{} {} {}", v.pointer, v.rule, v.message))
                .collect()
        }
        let values = [
            json!("a"),
            json!(""),
            json!(1),
            json!(null),
            json!(["a", "b"]),
            json!([]),
            json!(["a", 2, null]),
            json!({"a": 1}),
        ];
        for v in &values {
            assert_eq!(found::<Box<str>>(v), found::<String>(v), "{v}");
            assert_eq!(found::<str>(v), found::<String>(v), "{v}");
            assert_eq!(found::<Box<[String]>>(v), found::<Vec<String>>(v), "{v}");
            assert_eq!(found::<[String]>(v), found::<Vec<String>>(v), "{v}");
        }
        assert_eq!(
            found::<Box<str>>(&json!(1)),
            ["/m type expected a string, found integer"]
        );
        assert_eq!(
            found::<Box<[String]>>(&json!(["a", 2])),
            ["/m/1 type expected a string, found integer"]
        );
    }

    #[test]
    fn booleans_are_checked() {
        let mut r = Report::new();
        bool::check_value(&json!(false), &Pointer::root(), &mut r);
        assert!(r.is_empty());
        bool::check_value(&json!(0), &Pointer::root(), &mut r);
        let found: Vec<_> = r.errors().map(|v| (v.rule, v.message.as_str())).collect();
        assert_eq!(found, [(Rule::TYPE, "expected a boolean, found integer")]);
    }

    /// `member` marks a member known without checking it, `pointer` is the
    /// object's, and `report` writes to the check's report.
    #[test]
    fn an_object_check_s_member_pointer_and_report() {
        let value = json!({"a": 1, "b": "x", "c": true});
        let at = Pointer::root().key("o");
        let mut r = Report::new();
        let mut check = ObjectCheck::new(&value, &at, &mut r).unwrap();
        assert_eq!(check.pointer(), &at);
        assert_eq!(check.member("a"), Some(&json!(1)));
        assert_eq!(check.member("z"), None);
        check.report().warn("/o/b", Rule::TYPE, "noted");
        check.deny_unknown();
        let found: Vec<_> = r
            .violations()
            .iter()
            .map(|v| (v.pointer.as_str(), v.rule))
            .collect();
        assert_eq!(
            found,
            [
                ("/o/b", Rule::TYPE),
                ("/o/b", Rule::ADDITIONAL_PROPERTIES),
                ("/o/c", Rule::ADDITIONAL_PROPERTIES)
            ]
        );
    }

    /// A near miss is at most two edits away and less than half the name.
    #[test]
    fn a_near_miss_is_close_in_both_measures() {
        assert_eq!(near_miss("ab", &["xy"]), None); // two edits, the whole name
        assert_eq!(near_miss("abcdefghij", &["abcdefgxyz"]), None); // three edits
        assert_eq!(near_miss("abcdefghij", &["abcdefghxy"]), Some("abcdefghxy"));
        assert_eq!(near_miss("tga", &["tag"]), Some("tag"));
        assert_eq!(near_miss("ab", &["ax"]), Some("ax")); // one edit of two letters
        // The same name in another case convention, however far in edits.
        assert_eq!(
            near_miss("PROTOCOL-VERSION", &["tags", "protocol_version"]),
            Some("protocol_version")
        );
    }

    #[test]
    fn type_names_are_json_schema_s_and_name_what_was_found() {
        let names: Vec<_> = [
            json!(null),
            json!(true),
            json!(-3),
            json!(u64::MAX),
            json!(1.5),
            json!("s"),
            json!([]),
            json!({}),
        ]
        .iter()
        .map(json_type_name)
        .collect();
        assert_eq!(
            names,
            [
                "null", "boolean", "integer", "integer", "number", "string", "array", "object"
            ]
        );
        let mut r = Report::new();
        type_error(&json!(1.5), &Pointer::root().key("n"), &mut r, "an integer");
        let found: Vec<_> = r
            .errors()
            .map(|v| (v.pointer.as_str(), v.rule, v.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [("/n", Rule::TYPE, "expected an integer, found number")]
        );
    }

    #[test]
    fn integer_rules() {
        let mut r = Report::new();
        check_integer::<u64>(&json!(3), &Pointer::root(), &mut r);
        check_integer::<u64>(&json!(u64::MAX), &Pointer::root(), &mut r);
        check_integer::<i64>(&json!(i64::MIN), &Pointer::root(), &mut r);
        assert!(r.is_empty());
        check_integer::<u64>(&json!(-1), &Pointer::root(), &mut r);
        check_integer::<u64>(&json!(1.0), &Pointer::root(), &mut r);
        check_integer::<u64>(&json!("1"), &Pointer::root(), &mut r);
        let rules: Vec<_> = r.errors().map(|v| v.rule).collect();
        assert_eq!(rules, [Rule::MINIMUM, Rule::TYPE, Rule::TYPE]);
    }

    fn verdict<T: WireInteger + std::fmt::Debug>(text: &str) -> Result<T, (Rule, String)> {
        let n: serde_json::Number = serde_json::from_str(text).unwrap();
        mplp_json::integer::read_integer::<T>(&n)
    }

    #[test]
    fn minus_zero_is_the_integer_zero() {
        assert_eq!(verdict::<u64>("-0"), Ok(0));
        assert_eq!(verdict::<i64>("-0"), Ok(0));
        // serde_json reads these as the same float as `-0`.
        assert_eq!(verdict::<u64>("-0.0"), Ok(0));
        assert_eq!(verdict::<u64>("-0e0"), Ok(0));
        assert_eq!(verdict::<u64>("0"), Ok(0));
        // `0.0`, `1.0` and `1e2` keep the documented exception.
        for text in ["0.0", "1.0", "1e2", "2.5"] {
            let (rule, message) = verdict::<u64>(text).unwrap_err();
            assert_eq!(rule, Rule::TYPE, "{text}");
            assert!(
                message.contains("without a fraction or exponent"),
                "{text}: {message}"
            );
        }
    }

    #[test]
    fn integers_beyond_the_range_name_it() {
        for text in [
            "18446744073709551616",
            "18446744073709551617",
            "1e300",
            "100000000000000000000",
        ] {
            let (rule, message) = verdict::<u64>(text).unwrap_err();
            assert_eq!(rule, Rule::TYPE, "{text}");
            assert!(
                message.starts_with("expected an integer from 0 to 18446744073709551615 (the range of a 64-bit unsigned integer), found "),
                "{text}: {message}"
            );
        }
        let (rule, message) = verdict::<i64>("9223372036854775808").unwrap_err();
        assert_eq!(rule, Rule::TYPE);
        assert_eq!(
            message,
            "expected an integer from -9223372036854775808 to 9223372036854775807 \
             (the range of a 64-bit signed integer), found 9223372036854775808"
        );
        assert!(
            verdict::<i64>("-9223372036854775809")
                .unwrap_err()
                .1
                .contains("from -9223372036854775808")
        );
        // Below 0 for an unsigned member is the schema's `minimum`.
        assert_eq!(verdict::<u64>("-1").unwrap_err().0, Rule::MINIMUM);
        assert_eq!(verdict::<u64>("-1e300").unwrap_err().0, Rule::MINIMUM);
        // The edges themselves are in range.
        assert_eq!(verdict::<u64>("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(verdict::<i64>("-9223372036854775808"), Ok(i64::MIN));
        // A whole number in range written with an exponent keeps the exception.
        assert!(
            verdict::<u64>("1e19")
                .unwrap_err()
                .1
                .contains("fraction or exponent")
        );
    }

    #[test]
    fn unique_items_points_at_the_repeat() {
        let mut r = Report::new();
        check_unique_items(
            &[json!("a"), json!("b"), json!("a")],
            &Pointer::root().key("tags"),
            &mut r,
        );
        assert_eq!(r.violations().len(), 1);
        assert_eq!(r.violations()[0].pointer, "/tags/2");
    }

    #[test]
    fn near_miss_needs_to_be_near() {
        assert_eq!(near_miss("zzz", &["plan_id"]), None);
        assert_eq!(near_miss("planid", &["plan_id"]), Some("plan_id"));
        assert_eq!(near_miss("stauts", &["status", "steps"]), Some("status"));
    }
}
