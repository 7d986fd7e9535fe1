//! How deeply JSON input may nest, and reading input that nests deeper than
//! serde_json's own limit.
//!
//! serde_json refuses input nested 128 levels deep ("recursion limit
//! exceeded") to protect the stack. The canonical schemas set no depth, and
//! free-form members (`metadata`, `payload`, `data`, `attributes`, ...) may
//! hold any JSON value, so mplp-rs reads input nested up to [`MAX_NESTING`]
//! levels. The fast path is unchanged: input within serde_json's limit is
//! parsed as before, and only when that parse fails is the nesting measured,
//! by an iterative scan of the bytes (no recursion, so no stack risk), and the
//! input parsed again without serde_json's limit when it is deep but within
//! [`MAX_NESTING`]. Deeper input is refused with the rule
//! [`Rule::JSON_DEPTH`](crate::Rule::JSON_DEPTH), a message that names the limit ([`too_deep_message`])
//! and the pointer of the first value past it ([`past_limit`]).
//!
//! ```
//! use mplp_json::nesting::{self, MAX_NESTING};
//! let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
//! assert!(serde_json::from_str::<serde_json::Value>(&deep).is_err());
//! let value: serde_json::Value = nesting::from_slice(deep.as_bytes()).unwrap();
//! assert!(value.is_array());
//!
//! let too_deep = format!("{{\"a\": {}{}}}", "[".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
//! let pointer = nesting::past_limit(too_deep.as_bytes()).unwrap();
//! assert!(pointer.as_str().starts_with("/a/0/0/"));
//! ```

use serde::de::DeserializeOwned;
use serde_json::de::SliceRead;

use crate::Pointer;

/// The deepest nesting of arrays and objects mplp-rs reads (the top-level
/// value is level 1). serde_json's own limit is 128 levels; this one is
/// chosen so that reading, checking, writing and dropping a value this deep
/// stays well within a 2 MiB thread stack in a debug build (see
/// docs/spec-notes.md, "Nesting").
pub const MAX_NESTING: usize = 1024;

/// The nesting at which serde_json's own recursion limit stops a parse.
pub const SERDE_JSON_NESTING: usize = 128;

/// Parses `input` with `parse`, like `serde_json::from_slice`, allowing
/// nesting up to [`MAX_NESTING`]: `parse` runs once with serde_json's limit;
/// when that fails with a syntax error and `input` nests deeper than the
/// limit but no deeper than [`MAX_NESTING`], it runs again without the
/// limit. Input nested deeper keeps the first error, which mplp-core's
/// `document::syntax_violation_in` reports as [`Rule::JSON_DEPTH`](crate::Rule::JSON_DEPTH).
///
/// # Errors
/// The error of `parse`.
pub fn parse_slice<T>(
    input: &[u8],
    parse: impl for<'a> Fn(&mut serde_json::Deserializer<SliceRead<'a>>) -> serde_json::Result<T>,
) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_slice(input);
    match parse(&mut de) {
        Ok(v) => Ok(v),
        Err(first) => retry_deep(input, first, parse),
    }
}

/// After `first`, the error of a parse of `input` with serde_json's limit:
/// parses `input` again with `parse` and no limit when the error may be the
/// limit's (a syntax error) and `input` nests deeper than
/// [`SERDE_JSON_NESTING`] but no deeper than [`MAX_NESTING`]; otherwise
/// returns `first`.
///
/// # Errors
/// `first`, or the error of the second parse.
pub fn retry_deep<T>(
    input: &[u8],
    first: serde_json::Error,
    parse: impl for<'a> Fn(&mut serde_json::Deserializer<SliceRead<'a>>) -> serde_json::Result<T>,
) -> serde_json::Result<T> {
    if !first.is_syntax() {
        return Err(first);
    }
    let depth = capped_depth(input);
    if !(SERDE_JSON_NESTING..=MAX_NESTING).contains(&depth) {
        return Err(first);
    }
    let mut de = serde_json::Deserializer::from_slice(input);
    de.disable_recursion_limit();
    parse(&mut de)
}

/// A serde_json deserializer over `input` whose recursion limit is lifted
/// when `input` nests deeper than serde_json's limit but no deeper than
/// [`MAX_NESTING`] (one scan of the bytes decides); for paths that are slow
/// anyway, such as error reporting.
pub fn slice_deserializer(input: &[u8]) -> serde_json::Deserializer<SliceRead<'_>> {
    let mut de = serde_json::Deserializer::from_slice(input);
    let depth = capped_depth(input);
    if (SERDE_JSON_NESTING..=MAX_NESTING).contains(&depth) {
        de.disable_recursion_limit();
    }
    de
}

/// `serde_json::from_slice` (the whole input, nothing after the value), with
/// nesting up to [`MAX_NESTING`].
///
/// # Errors
/// As `serde_json::from_slice`.
pub fn from_slice<T: DeserializeOwned>(input: &[u8]) -> serde_json::Result<T> {
    parse_slice(input, |de| {
        let v = T::deserialize(&mut *de)?;
        de.end()?;
        Ok(v)
    })
}

/// How deeply `input` nests (0 for a scalar, 1 for `[]` or `{}`), by an
/// iterative scan that skips strings; stops counting at
/// `MAX_NESTING + 1`. The input need not be well-formed.
pub fn depth(input: &[u8]) -> usize {
    capped_depth(input)
}

/// Where `input` nests deeper than [`MAX_NESTING`]: the pointer of the
/// first value past the limit (the place of a [`Rule::JSON_DEPTH`](crate::Rule::JSON_DEPTH)
/// violation), or `None` when it nests no deeper.
pub fn past_limit(input: &[u8]) -> Option<Pointer> {
    first_past(input, MAX_NESTING).map(|(_, pointer)| pointer)
}

/// The message of a [`Rule::JSON_DEPTH`](crate::Rule::JSON_DEPTH) violation: `level` is the level of
/// the value it points at (`None` when that is not known).
pub fn too_deep_message(level: Option<usize>) -> String {
    let at = level.map_or(String::new(), |l| format!(" (the value here is level {l})"));
    format!(
        "arrays and objects nested more than {MAX_NESTING} levels deep; mplp-rs reads \
         nesting up to {MAX_NESTING} levels{at}"
    )
}

/// The byte offset of the bracket that opens level `level` (1-based), if
/// `input` nests that deep.
pub fn offset_of_level(input: &[u8], level: usize) -> Option<usize> {
    first_past(input, level.saturating_sub(1)).map(|(offset, _)| offset)
}

enum Frame {
    Array(usize),
    /// The current key (once read) and whether its value is being read.
    Object(Option<String>, bool),
}

/// Walks the structure of `input` without recursion (strings skipped, the
/// input need not be well-formed), calling `open` at each `[` or `{` with
/// the containers open around it; stops when `open` returns `Some`.
fn walk<T>(
    input: &[u8],
    keys: bool,
    mut open: impl FnMut(usize, &[Frame]) -> Option<T>,
) -> Option<T> {
    let mut frames: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < input.len() {
        match input[i] {
            bracket @ (b'[' | b'{') => {
                if let Some(found) = open(i, &frames) {
                    return Some(found);
                }
                frames.push(if bracket == b'[' {
                    Frame::Array(0)
                } else {
                    Frame::Object(None, false)
                });
            }
            b']' | b'}' => {
                frames.pop();
            }
            b',' => match frames.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(key, in_value)) => {
                    *key = None;
                    *in_value = false;
                }
                None => {}
            },
            b':' => {
                if let Some(Frame::Object(_, in_value)) = frames.last_mut() {
                    *in_value = true;
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < input.len() && input[i] != b'"' {
                    i += if input[i] == b'\\' { 2 } else { 1 };
                }
                if keys {
                    if let Some(Frame::Object(key, false)) = frames.last_mut() {
                        let text = input.get(start..=i).unwrap_or(&input[start..]);
                        *key = Some(serde_json::from_slice::<String>(text).unwrap_or_else(|_| {
                            String::from_utf8_lossy(text).trim_matches('"').to_owned()
                        }));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// How deeply `input` nests, capped at `MAX_NESTING + 1`.
fn capped_depth(input: &[u8]) -> usize {
    let mut deepest = 0;
    walk(input, false, |_, frames| {
        deepest = deepest.max(frames.len() + 1);
        (deepest > MAX_NESTING).then_some(())
    });
    deepest
}

/// The offset and pointer of the first array or object at a level deeper
/// than `limit`.
fn first_past(input: &[u8], limit: usize) -> Option<(usize, Pointer)> {
    walk(input, true, |at, frames| {
        (frames.len() >= limit).then(|| (at, pointer_of(frames)))
    })
}

fn pointer_of(frames: &[Frame]) -> Pointer {
    let mut p = Pointer::root();
    for frame in frames {
        p = match frame {
            Frame::Array(n) => p.index(*n),
            Frame::Object(Some(key), _) => p.key(key),
            Frame::Object(None, _) => p,
        };
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `levels` nested arrays holding `1`.
    fn arrays(levels: usize) -> String {
        format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn depth_skips_strings_and_escapes() {
        assert_eq!(depth(b"1"), 0);
        assert_eq!(depth(b"[]"), 1);
        assert_eq!(depth(br#"{"a": [{"b": "[[[[\"[["}]}"#), 3);
        assert_eq!(depth(br#"["\\", [1]]"#), 2);
        assert_eq!(depth(arrays(MAX_NESTING + 50).as_bytes()), MAX_NESTING + 1);
        // A string cut off at the end of the input (or after a backslash).
        assert_eq!(depth(br#"[{"a"#), 2);
        assert_eq!(depth(br#"[{"a\"#), 2);
        assert_eq!(past_limit(br#"[{"a"#), None);
    }

    /// The pointer of a too-deep value names the member it is in, even when
    /// the text past serde_json's limit (which no parser has read) is
    /// broken: a string value does not take the place of the member's name.
    #[test]
    fn the_depth_pointer_keeps_the_member_name_over_string_values() {
        let text = format!(r#"{{"a": "x" {}"#, "[".repeat(MAX_NESTING + 5));
        let v = past_limit(text.as_bytes()).unwrap();
        assert!(v.as_str().starts_with("/a/0/0/"), "{v:?}");
        // Well-formed: the next member's name after a string value.
        let text = format!(
            r#"{{"a": "x", "b": {}{}}}"#,
            "[".repeat(MAX_NESTING),
            "]".repeat(MAX_NESTING)
        );
        let v = past_limit(text.as_bytes()).unwrap();
        assert!(v.as_str().starts_with("/b/0/0/"), "{v:?}");
    }

    #[test]
    fn serde_json_stops_where_the_retry_starts() {
        let within = arrays(SERDE_JSON_NESTING - 1);
        assert!(serde_json::from_str::<serde_json::Value>(&within).is_ok());
        let past = arrays(SERDE_JSON_NESTING);
        assert!(serde_json::from_str::<serde_json::Value>(&past).is_err());
        assert!(from_slice::<serde_json::Value>(past.as_bytes()).is_ok());
    }

    #[test]
    fn the_pointer_follows_keys_and_indexes() {
        let text = format!(
            r#"{{"a": [1, "x]", {{"b\"c": 2, "d~/": {}}}]}}"#,
            arrays(MAX_NESTING)
        );
        let v = past_limit(text.as_bytes()).unwrap();
        let expected = format!("/a/2/d~0~1{}", "/0".repeat(MAX_NESTING - 3));
        assert_eq!(v.as_str(), expected);
        assert!(past_limit(arrays(MAX_NESTING).as_bytes()).is_none());
    }

    proptest! {
        /// The scan agrees with the depth of the value serde_json builds.
        #[test]
        fn depth_is_the_depth_of_the_value(v in json_value()) {
            fn model(v: &serde_json::Value) -> usize {
                match v {
                    serde_json::Value::Array(a) => 1 + a.iter().map(model).max().unwrap_or(0),
                    serde_json::Value::Object(m) => 1 + m.values().map(model).max().unwrap_or(0),
                    _ => 0,
                }
            }
            let text = serde_json::to_string(&v).unwrap();
            prop_assert_eq!(depth(text.as_bytes()), model(&v));
        }
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<i64>().prop_map(serde_json::Value::from),
            "[\\[\\]{}\"\\\\:,a-z]{0,6}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(8, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::Array),
                prop::collection::btree_map("[\\[{\"a-z]{0,4}", inner, 0..5)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }
}
