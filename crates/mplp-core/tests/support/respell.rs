//! Shared by the fast reader's tests (`crates/mplp-core/tests/fast_reader.rs`
//! and the workspace's `tests/tests/fast_reader.rs`, which include it with
//! `#[path]`): the comparison of the fast reader with serde_json, and the
//! generators of respelled and edited JSON.

#![allow(dead_code)]

use std::fmt::Debug;
use std::fmt::Write as _;

use mplp_core::Wire;
use serde_json::Value;

/// Reads `T` with serde_json (the typed parse, trailing input refused).
pub(crate) fn serde_json_read<T: Wire>(text: &str) -> Option<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = T::deserialize_unchecked(&mut de).ok()?;
    de.end().ok()?;
    Some(v)
}

/// What the fast reader did with one text.
#[derive(Debug, PartialEq)]
pub(crate) enum Outcome {
    /// Read it, to the value serde_json reads.
    Read,
    /// Gave up.
    GaveUp,
    /// Refused by both.
    Refused,
}

/// Reads `text` both ways; fails when the fast reader reads a value that
/// serde_json does not (or reads differently).
pub(crate) fn compare<T: Wire + PartialEq + Debug>(text: &str) -> Outcome {
    let fast = mplp_json::fast::from_str::<T>(text);
    // The read of the same text as bytes (not known to be UTF-8, see
    // `mplp_json::fast::read_bytes`) reads the same value or gives up alike.
    match mplp_json::fast::read_bytes(text.as_bytes(), |v: &T| fast.as_ref() == Some(v)) {
        Ok(same) => assert!(same, "read_bytes reads otherwise than from_str: {text}"),
        Err(_) => assert!(
            fast.is_none(),
            "read_bytes gives up where from_str reads: {text}"
        ),
    }
    let slow = serde_json_read::<T>(text);
    match (fast, slow) {
        (Some(f), Some(s)) => {
            assert_eq!(f, s, "the two readers disagree on {text}");
            Outcome::Read
        }
        (Some(f), None) => panic!("the fast reader accepts what serde_json refuses: {text}\n{f:?}"),
        (None, Some(_)) => Outcome::GaveUp,
        (None, None) => Outcome::Refused,
    }
}

/// A small deterministic generator (the proptest case supplies its seed).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `value` written as JSON with random whitespace between tokens and
/// random escapes in strings and member names: the same value, spelled
/// differently.
pub(crate) fn respell(value: &Value, rng: &mut Rng, out: &mut String) {
    fn ws(rng: &mut Rng, out: &mut String) {
        for _ in 0..rng.below(3) {
            out.push([' ', '\n', '\t', '\r'][rng.below(4) as usize]);
        }
    }
    fn string(s: &str, rng: &mut Rng, out: &mut String) {
        out.push('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
                c if rng.below(8) == 0 => {
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        if rng.below(2) == 0 {
                            write!(out, "\\u{u:04x}").unwrap();
                        } else {
                            write!(out, "\\u{u:04X}").unwrap();
                        }
                    }
                }
                '/' if rng.below(2) == 0 => out.push_str("\\/"),
                c => out.push(c),
            }
        }
        out.push('"');
    }
    ws(rng, out);
    match value {
        Value::String(s) => string(s, rng, out),
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                respell(v, rng, out);
            }
            ws(rng, out);
            out.push(']');
        }
        Value::Object(o) => {
            out.push('{');
            for (i, (k, v)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ws(rng, out);
                string(k, rng, out);
                ws(rng, out);
                out.push(':');
                respell(v, rng, out);
            }
            ws(rng, out);
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
    ws(rng, out);
}

/// Small edits that make text invalid in many ways, or valid with other
/// values (numbers in every spelling, escapes, surrogates, nesting).
pub(crate) const SNIPPETS: &[&str] = &[
    "\"",
    "\\",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    " ",
    "\n",
    "\u{1}",
    "\u{7f}",
    "é",
    "0",
    "-",
    ".",
    "e",
    "1",
    "-0",
    "01",
    "1.0",
    "1e2",
    "-1",
    "1.5",
    "1e400",
    "-1e-400",
    "18446744073709551616",
    "18446744073709551615",
    "-9223372036854775808",
    "-9223372036854775809",
    "null",
    "true",
    "false",
    "nul",
    "\\u0041",
    "\\ud83d\\ude00",
    "\\ud83d",
    "\\ude00",
    "\\u00e9",
    "\\x",
    "\\u12",
    "[[[[[[[[",
    "]]]]]]]]",
    "\"x\":1,",
    "\"x\":1.5,",
    "\"metadata\":{},",
    "{\"a\":[1,{\"b\":2.5}]}",
    "\\n",
    "\\t",
    "\\b",
    "\\f",
    "\\r",
    "\\/",
    "\\\"",
    "\\\\",
    "\\u0000",
    "\\u001f",
    "\\uDBFF\\uDFFF",
    "\\uD800\\u0041",
    "\t",
    "\r",
    "1E2",
    "1e+2",
    "1e-2",
    "-1.5e-7",
    "2.",
    ".5",
    "+1",
    "0x1",
];

/// `text` with one random edit at a char boundary.
pub(crate) fn edit(text: &str, rng: &mut Rng) -> String {
    let bounds: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let at = bounds[rng.below(bounds.len() as u64) as usize];
    let end = bounds
        .iter()
        .copied()
        .find(|&b| b > at)
        .unwrap_or(text.len());
    let snippet = SNIPPETS[rng.below(SNIPPETS.len() as u64) as usize];
    match rng.below(3) {
        0 => format!("{}{snippet}{}", &text[..at], &text[at..]),
        1 => format!("{}{snippet}{}", &text[..at], &text[end..]),
        _ => format!("{}{}", &text[..at], &text[end..]),
    }
}

/// Whether `value` holds a number that is not an integer (one a free-form
/// member leaves to serde_json, on purpose).
pub(crate) fn has_fraction(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_f64(),
        Value::Array(a) => a.iter().any(has_fraction),
        Value::Object(o) => o.values().any(has_fraction),
        _ => false,
    }
}

/// What [`restructure`] did to the objects of a value.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    /// Members reordered, or a name escaped: the same value.
    pub(crate) respelled: usize,
    /// A member named twice, left out, added, or given a value of another
    /// type: an input the typed readers may refuse.
    pub(crate) broken: usize,
}

/// Values of every JSON type, put where a member's value was.
const OTHER_VALUES: &[&str] = &[
    "\"x\"",
    "\"\"",
    "0",
    "-1",
    "1.5",
    "true",
    "null",
    "[]",
    "[1]",
    "{}",
    "{\"a\":1}",
    "\"2025-12-07T00:00:00Z\"",
    "\"550e8400-e29b-41d4-a716-446655440000\"",
];

/// `value` written compactly (no whitespace, names as compact JSON writes
/// them, so that the fast reader's in-place name matching is the path
/// taken) with each object changed at random: its members reordered, a
/// name escaped, a member named twice (with the same value or another), a
/// member left out, a member the object does not declare, or a member's
/// value replaced by one of another type. The typed readers must agree on
/// every such input (the derive's duplicate, missing, unknown and type
/// checks, on the fast reader's direct path and serde_json's).
pub(crate) fn restructure(value: &Value, rng: &mut Rng, out: &mut String, changes: &mut Changes) {
    fn name(key: &str, escape: bool, out: &mut String) {
        if !escape {
            out.push_str(&serde_json::to_string(key).unwrap());
            return;
        }
        out.push('"');
        for c in key.chars() {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                write!(out, "\\u{u:04x}").unwrap();
            }
        }
        out.push('"');
    }
    match value {
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                restructure(v, rng, out, changes);
            }
            out.push(']');
        }
        Value::Object(o) => {
            // The members as text: (name, escaped, value).
            let mut members: Vec<(String, bool, String)> = o
                .iter()
                .map(|(k, v)| {
                    let mut text = String::new();
                    restructure(v, rng, &mut text, changes);
                    (k.clone(), false, text)
                })
                .collect();
            let pick = |rng: &mut Rng, n: usize| rng.below(n as u64) as usize;
            match rng.below(12) {
                0..=4 if members.len() > 1 => {
                    for i in (1..members.len()).rev() {
                        let j = pick(rng, i + 1);
                        members.swap(i, j);
                    }
                    changes.respelled += 1;
                }
                5 if !members.is_empty() => {
                    let i = pick(rng, members.len());
                    members[i].1 = true;
                    changes.respelled += 1;
                }
                6 if !members.is_empty() => {
                    let i = pick(rng, members.len());
                    let mut twice = members[i].clone();
                    if rng.below(2) == 0 {
                        twice.2 = OTHER_VALUES[pick(rng, OTHER_VALUES.len())].to_owned();
                    }
                    // Escaped or not: the same name.
                    twice.1 = rng.below(3) == 0;
                    let at = pick(rng, members.len() + 1);
                    members.insert(at, twice);
                    changes.broken += 1;
                }
                7 if !members.is_empty() => {
                    let i = pick(rng, members.len());
                    members.remove(i);
                    changes.broken += 1;
                }
                8 => {
                    let unknown = ["zz", "x", "ID", "event_typ", ""][pick(rng, 5)];
                    let v = OTHER_VALUES[pick(rng, OTHER_VALUES.len())].to_owned();
                    let at = pick(rng, members.len() + 1);
                    members.insert(at, (unknown.to_owned(), rng.below(3) == 0, v));
                    changes.broken += 1;
                }
                9 if !members.is_empty() => {
                    let i = pick(rng, members.len());
                    members[i].2 = OTHER_VALUES[pick(rng, OTHER_VALUES.len())].to_owned();
                    changes.broken += 1;
                }
                _ => {}
            }
            out.push('{');
            for (i, (k, escaped, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                name(k, *escaped, out);
                out.push(':');
                out.push_str(v);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}
