//! Deserialization helpers: optional members, and errors that carry their rule id.
//!
//! Every error that mplp-rs raises while deserializing goes through
//! [`raise`], which records the rule id at the place the error is raised.
//! serde's error types carry only a message, so the rule id travels beside
//! it, in a thread-local slot that the thorough pass of
//! mplp-core's `Document::validate_json` reads when
//! it has to locate an error itself. The only errors raised elsewhere are
//! the parser's own (syntax, and "invalid type: expected X"), whose rule is
//! `json-syntax` or `type`. No rule id is ever guessed from message text.

use std::cell::Cell;
use std::fmt::Display;

use crate::Rule;

thread_local! {
    static RAISED: Cell<Option<Rule>> = const { Cell::new(None) };
}

/// Makes a deserialization error with `message` for the rule `rule`, and
/// records the rule so that the caller can report it.
///
/// ```
/// use mplp_json::{Rule, de::raise};
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
    match near_miss(name, known) {
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

/// Reads an integer member of type `T` with the verdicts and messages of
/// [`crate::integer::read_integer`] (what the thorough pass reports too):
/// `-0` is 0, a fraction or exponent is refused, and a number beyond `T`'s
/// range gets a message that names the range. `#[derive(Wire)]` reads every
/// integer member through it.
///
/// ```
/// use serde::de::DeserializeSeed;
/// use mplp_json::de::Integer;
/// let mut de = serde_json::Deserializer::from_str("-0");
/// assert_eq!(Integer::<u64>::new().deserialize(&mut de).unwrap(), 0);
/// let mut de = serde_json::Deserializer::from_str("18446744073709551616");
/// let e = Integer::<u64>::new().deserialize(&mut de).unwrap_err();
/// assert!(e.to_string().contains("from 0 to 18446744073709551615"), "{e}");
/// ```
pub struct Integer<T>(std::marker::PhantomData<T>);

impl<T> Integer<T> {
    /// The reader.
    pub const fn new() -> Self {
        Integer(std::marker::PhantomData)
    }
}

impl<T> Default for Integer<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: crate::integer::WireInteger> Integer<T> {
    fn read<E: serde::de::Error>(n: serde_json::Number) -> Result<T, E> {
        crate::integer::read_integer::<T>(&n).map_err(|(rule, message)| raise(rule, message))
    }
}

impl<'de, T: crate::integer::WireInteger> serde::de::DeserializeSeed<'de> for Integer<T> {
    type Value = T;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        if T::MIN < 0 {
            d.deserialize_i64(self)
        } else {
            d.deserialize_u64(self)
        }
    }
}

impl<'de, T: crate::integer::WireInteger> serde::de::Visitor<'de> for Integer<T> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an integer from {} to {}", T::MIN, T::MAX)
    }
    // An integer in `T`'s range is `T`: what `read_integer` gives it,
    // without its `Number` and message machinery (an `order_index` cost
    // 164 instructions that way, callgrind); anything else goes there.
    #[inline]
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<T, E> {
        match T::try_from(i128::from(v)) {
            Ok(t) => Ok(t),
            Err(_) => Self::read(v.into()),
        }
    }
    #[inline]
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<T, E> {
        match T::try_from(i128::from(v)) {
            Ok(t) => Ok(t),
            Err(_) => Self::read(v.into()),
        }
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<T, E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => Self::read(n),
            None => Err(E::invalid_type(serde::de::Unexpected::Float(v), &self)),
        }
    }
}

/// Reads a JSON array into a `Vec<T>`, as serde's own `Vec` reader does
/// (same values, same errors), but sized once for small arrays:
/// `#[derive(Wire)]` reads every `Vec` member through it.
///
/// serde's reader starts empty and grows to 4, 8, 16, ... elements, one
/// reallocation and copy at each step. This one reads the first element,
/// then allocates room for [`List::FIRST_CAPACITY`] elements (4 of up to
/// 16 bytes, else at most 16 and at most 1 KiB of them), so that most arrays of a document (a dialog's
/// messages, a collab's participants, a step's dependencies) take one
/// allocation. An empty array allocates nothing.
///
/// ```
/// use serde::de::DeserializeSeed;
/// use mplp_json::de::List;
/// let mut de = serde_json::Deserializer::from_str("[1, 2, 3]");
/// let v: Vec<u8> = List::new().deserialize(&mut de).unwrap();
/// assert_eq!((v.as_slice(), v.capacity()), (&[1, 2, 3][..], 4));
/// let mut de = serde_json::Deserializer::from_str("[]");
/// assert_eq!(List::<u8>::new().deserialize(&mut de).unwrap().capacity(), 0);
/// ```
pub struct List<T>(std::marker::PhantomData<T>);

impl<T> List<T> {
    /// Room for this many elements is allocated with the first one: 4 of
    /// up to 16 bytes (ids, numbers, enums: lists of one or two, such as a
    /// step's dependencies, in a small block), else 16,
    /// or as many as fit in 1 KiB when fewer do (glibc's per-thread cache
    /// serves blocks up to 1 KiB; 16 larger elements cost a collab of 8
    /// participants 6% more time than they saved, measured), at least one.
    pub const FIRST_CAPACITY: usize = first_capacity(std::mem::size_of::<T>());

    /// The reader.
    pub const fn new() -> Self {
        List(std::marker::PhantomData)
    }
}

/// [`List::FIRST_CAPACITY`] for elements of `size` bytes.
const fn first_capacity(size: usize) -> usize {
    match size {
        // Ids, numbers, enums: a step's one or two dependencies in a block
        // of 64 bytes, which glibc frees to a fast bin, rather than one of
        // 256 bytes (freed with its neighbours merged, and taken again
        // from the sorted bins).
        0..=16 => 4,
        17..=64 => 16,
        65..=1024 => 1024 / size,
        _ => 1,
    }
}

impl<T> Default for List<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::de::DeserializeSeed<'de> for List<T> {
    type Value = Vec<T>;
    #[inline]
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for List<T> {
    type Value = Vec<T>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // serde's own `Vec` reader's words, so that errors are unchanged.
        f.write_str("a sequence")
    }
    #[inline]
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut values = Vec::new();
        // One call site of the element reader, so that it is inlined here
        // (as in serde's reader): a second one for the first element cost
        // plans more than the saved reallocations.
        while let Some(value) = seq.next_element_seed(std::marker::PhantomData)? {
            if values.capacity() == 0 {
                values.reserve_exact(Self::FIRST_CAPACITY);
            }
            values.push(value);
        }
        Ok(values)
    }
}

/// The known name that `key` most probably meant, if any: the same name in
/// another case convention (`protocolVersion` → `protocol_version`), or one a
/// small edit away.
///
/// ```
/// use mplp_json::de::near_miss;
/// let known = ["protocol_version", "schema_version", "tags"];
/// assert_eq!(near_miss("protocolVersion", &known), Some("protocol_version"));
/// assert_eq!(near_miss("tag", &known), Some("tags"));
/// assert_eq!(near_miss("source", &known), None);
/// ```
pub fn near_miss<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let folded = fold(key);
    if let Some(k) = known.iter().find(|k| fold(k) == folded) {
        return Some(k);
    }
    known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(key, k), *k))
        .filter(|(d, k)| *d <= 2 && *d < k.len().max(key.len()) / 2 + 1)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Integer, List};
    use proptest::prelude::*;
    use serde::de::DeserializeSeed;

    /// `List` reads what serde's `Vec` reader reads, fails where it fails
    /// with the same message, and allocates once for up to
    /// `FIRST_CAPACITY` elements (nothing for none).
    fn same_as_serde<T>(text: &str) -> Result<(), TestCaseError>
    where
        T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let mut de = serde_json::Deserializer::from_str(text);
        let ours = List::<T>::new().deserialize(&mut de);
        let theirs = serde_json::from_str::<Vec<T>>(text);
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(a, b);
                let want = match a.len() {
                    0 => 0,
                    n if n <= List::<T>::FIRST_CAPACITY => List::<T>::FIRST_CAPACITY,
                    _ => a.capacity().max(a.len()),
                };
                prop_assert_eq!(a.capacity(), want, "{}", text);
            }
            (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            _ => prop_assert!(false, "{text}: {ours:?} against {theirs:?}"),
        }
        Ok(())
    }

    #[test]
    fn first_capacity_fills_at_most_a_kibibyte() {
        // Ids, numbers, enums: a small block.
        assert_eq!(List::<u8>::FIRST_CAPACITY, 4);
        assert_eq!(List::<()>::FIRST_CAPACITY, 4);
        assert_eq!(List::<[u8; 16]>::FIRST_CAPACITY, 4);
        assert_eq!(List::<[u8; 17]>::FIRST_CAPACITY, 16);
        assert_eq!(List::<[u8; 64]>::FIRST_CAPACITY, 16);
        assert_eq!(List::<[u8; 65]>::FIRST_CAPACITY, 15);
        assert_eq!(List::<[u8; 128]>::FIRST_CAPACITY, 8);
        assert_eq!(List::<[u8; 1024]>::FIRST_CAPACITY, 1);
        assert_eq!(List::<[u8; 4096]>::FIRST_CAPACITY, 1);
    }

    proptest! {
        /// Arrays of 0 to 40 elements, and the same arrays broken (a
        /// member of the wrong type, a missing bracket, a trailing comma).
        #[test]
        fn list_reads_as_serde_does(v in proptest::collection::vec(any::<u16>(), 0..40), cut in 0usize..8) {
            let text = serde_json::to_string(&v).unwrap();
            same_as_serde::<u16>(&text)?;
            same_as_serde::<String>(&text)?;
            let words: Vec<String> = v.iter().map(|n| format!("w{n}")).collect();
            same_as_serde::<String>(&serde_json::to_string(&words).unwrap())?;
            let broken = match cut {
                0 => text.replacen(']', ",]", 1),
                1 => text[..text.len() - 1].to_owned(),
                2 => text.replacen('[', "[\"x\",", 1),
                3 => text.replacen('[', "{", 1),
                _ => text.clone(),
            };
            same_as_serde::<u16>(&broken)?;
        }
    }

    /// What an integer member expects is named in the error of any other
    /// JSON type, with the range of its type.
    #[test]
    fn an_integer_names_its_range_when_the_type_is_wrong() {
        for text in [r#""7""#, "true", "null", "[]", "{}"] {
            let mut de = serde_json::Deserializer::from_str(text);
            let e = Integer::<u64>::new().deserialize(&mut de).unwrap_err();
            assert!(
                e.to_string()
                    .contains("expected an integer from 0 to 18446744073709551615"),
                "{text}: {e}"
            );
            let mut de = serde_json::Deserializer::from_str(text);
            let e = Integer::<i8>::new().deserialize(&mut de).unwrap_err();
            assert!(
                e.to_string()
                    .contains("expected an integer from -128 to 127"),
                "{text}: {e}"
            );
        }
        let mut de = serde_json::Deserializer::from_str("-5");
        assert_eq!(Integer::<i8>::new().deserialize(&mut de).unwrap(), -5);
    }
}
