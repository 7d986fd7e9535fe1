//! The fast reader: a JSON deserializer for the typed parse of input that is
//! most likely valid, tried before serde_json's.
//!
//! [`from_str`] reads `T` from text with the same visitors serde_json would
//! drive (the ones `#[derive(Wire)]` writes; for a derived struct, the
//! same read written without serde's calls, see [`Direct`]), and gives up
//! at the first
//! thing it does not handle or does not expect: a syntax error, a type the
//! visitor did not ask for, a number that is not a plain integer, nesting
//! deeper than [`MAX_DEPTH`], or any error a visitor raises. Giving up
//! costs nothing but time: mplp-core's `document::from_slice_unchecked` then
//! reads the input with serde_json as before, which gives the values and
//! the errors it always gave. So the fast reader never has to produce an
//! error message, a position or a rule, and it must only ever accept what
//! serde_json accepts, with the same visits; for every JSON token it
//! follows serde_json's `Deserializer` (its `StrRead`):
//!
//! | token | visit |
//! |---|---|
//! | string without escapes | `visit_borrowed_str` (a slice of the input) |
//! | string with escapes | `visit_str` (decoded; lone surrogates give up) |
//! | `0` or `[1-9][0-9]*` up to `u64::MAX` | `visit_u64` |
//! | `-[1-9][0-9]*` down to `i64::MIN` | `visit_i64` |
//! | any other number | serde_json's own number parser on the number's text |
//! | `true`, `false`, `null` | `visit_bool`, `visit_unit` / `visit_none` |
//! | object, array | `visit_map`, `visit_seq`, then the closing bracket must follow |
//! | member name of a derived struct, written as in its `FIELDS` | `visit_u64` with its index there (see [`member_names`]) |
//! | a free-form member ([`JsonObject`](crate::JsonObject)) | read in the same pass; any number but a plain integer gives up |
//!
//! Why it is faster than serde_json's typed path although it reads the same
//! tokens:
//! - it keeps no line or column bookkeeping and builds no error values;
//! - the end of a string is its first `"`, `\\` or byte below 0x20 (which
//!   gives up), found eight bytes at a time with one expression for the
//!   three, and for long strings by `memchr`'s vectorised `memchr2` and one
//!   vectorised pass for control characters over what it skipped; no pass
//!   over the whole input before the parse (see `string_end`);
//! - a free-form member is read once: serde_json hands it over as raw text,
//!   which the member then parses again;
//! - a member name of a struct `#[derive(Wire)]` wrote is compared with the
//!   struct's names where it stands, the expected next one first, and
//!   handed over as an index: no string scan, no string match; as compact
//!   JSON writes it (`"name":`), one masked comparison of a 16-byte lane
//!   reads a name, its quote and the colon (see [`MemberName`]);
//! - a struct `#[derive(Wire)]` declares is read without serde's visitor,
//!   `MapAccess` and seed calls ([`Direct`], issue 41): the derive writes,
//!   beside its serde visitor, a read that takes the members' indexes from
//!   [`Members::next_member`] and reads each value with its type's own
//!   direct read (nested structs, `Option`s, lists, strings, the MAP and SA
//!   payloads by their tag) or, for a type without one, with its serde
//!   `Deserialize` on this same reader ([`Probe`]). It is the visitor's read
//!   written without the calls: the same members, the same checks
//!   (duplicates, unknown and missing members, the tag before or after its
//!   payload), the same value; where the visitor would fail it gives up.
//!   Measured (callgrind, `mplp validate`, whole processes, against main's
//!   binary): an SA log line 4,141 → 3,927 instructions (-5%), a MAP line
//!   5,386 → 5,127 (-5%); a plan of 1,000 steps 4.33M → 4.13M (-5%,
//!   start-up subtracted), a dialog of 1,000 messages 1.91M → 1.86M
//!   (-3%). Less than serde's calls seemed to cost in the profile: most of
//!   them were inlined already, and what remains of a line is the string
//!   scans, the id and timestamp parses and the validator. Giving the leaf
//!   types (ids, timestamps, enums, strings) direct reads too was neutral
//!   (±0.7%: the string scan inlined at every member instead of one shared
//!   `deserialize_str`); they keep them, so that a faster parse of the
//!   text reaches the reader as it is.
//! - a value is lent where the visitors wrote it ([`read`]), and the
//!   visitors' `Result` is returned as it is, so a large value is not
//!   copied on its way out.
//!
//! `cargo run --release -p mplp --example perf_report` measures it against
//! serde_json (the figures are in the CHANGELOG). The tests compare it with serde_json on every
//! example of every kind, respelled and edited at random
//! (`crates/mplp-core/tests/fast_reader.rs`, `tests/tests/fast_reader.rs`).

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Visitor};

use crate::Wire;

/// How deep arrays and objects may nest before the fast reader gives up
/// (serde_json's own limit is 128; a raw value's nesting counts too).
pub const MAX_DEPTH: usize = 100;

/// serde_json's name for its raw values (see `crate::exact`).
const RAW_TOKEN: &str = "$serde_json::private::RawValue";

thread_local! {
    /// The member names of the object that the code of `#[derive(Wire)]`
    /// is about to read with `deserialize_map` (see [`member_names`]).
    static NEXT_NAMES: Cell<&'static [MemberName]> = const { Cell::new(&[]) };
}

/// Tells the fast reader the member names (`FIELDS`) of the struct whose
/// `deserialize_map` comes next; the code `#[derive(Wire)]` writes calls it
/// (through [`Announced`], which clears them again after that call), and
/// nothing else should.
///
/// The names are plain (no byte that JSON escapes: the derive refuses
/// such a name) and the struct's member visitor takes a name's index in
/// `FIELDS` (`visit_u64`). So the fast reader compares each member name
/// where it stands with `FIELDS`, the expected next one first, and hands a
/// match over as its index: no string scan and no string comparison in the
/// visitor. The struct still asks for a map, so every other deserializer
/// (which never looks here) reads it exactly as before: serde_json, a
/// `Value`, a `#[serde(flatten)]` of the struct in a user's type.
#[doc(hidden)]
#[inline]
pub fn member_names(fields: &'static [MemberName]) {
    NEXT_NAMES.set(fields);
}

/// A member name of a derived struct, as the fast reader compares it where
/// it stands: the name, its closing quote and the colon after it (`name":`,
/// how compact JSON writes every member), as the bytes of two 16-byte
/// little-endian lanes with a mask of the bytes that count. One masked
/// comparison of a lane tells a name of up to 14 bytes (two lanes: 30
/// bytes) from every other, and reads the colon with it.
///
/// Anything else (a space before the colon, an escape, a name too long for
/// the lanes, the last 32 bytes of the input) is compared by its text, as
/// before. The code `#[derive(Wire)]` writes builds these in a constant
/// (see [`member_names`]); nothing else should.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct MemberName {
    text: &'static str,
    /// `name":`, zero past its end.
    pattern: [u128; 2],
    /// `0xff` in each byte of `pattern` that is the pattern's.
    mask: [u128; 2],
    /// How many lanes the pattern takes: 1 or 2, or 0 when it is longer
    /// than two lanes (never compared by its lanes).
    lanes: u8,
}

impl MemberName {
    /// The lanes of `text` (a name the derive has checked needs no escape).
    #[doc(hidden)]
    pub const fn new(text: &'static str) -> Self {
        Self::with_end(text, b"\":")
    }

    /// The lanes of `text` followed by `end` (at most two bytes): `"` and
    /// `:` after a member name, `"` after a string value ([`Spelling`]).
    /// A text with a byte that JSON escapes (`"`, `\\`, below 0x20) gets
    /// no lanes: written as it is, it is not that text's string token.
    const fn with_end(text: &'static str, end: &[u8]) -> Self {
        let name = text.as_bytes();
        let len = name.len() + end.len();
        let mut plain = end.len() <= 2;
        let mut i = 0;
        while i < name.len() {
            if name[i] == b'"' || name[i] == b'\\' || name[i] < 0x20 {
                plain = false;
            }
            i += 1;
        }
        let mut bytes = [0u8; 32];
        let mut mask = [0u8; 32];
        let lanes = if !plain {
            0
        } else if len <= 16 {
            1
        } else if len <= 32 {
            2
        } else {
            0
        };
        if lanes > 0 {
            let mut i = 0;
            while i < len {
                bytes[i] = if i < name.len() {
                    name[i]
                } else {
                    end[i - name.len()]
                };
                mask[i] = 0xff;
                i += 1;
            }
        }
        let (pattern, mask) = if lanes > 0 {
            (
                [lane(&bytes, 0), lane(&bytes, 16)],
                [lane(&mask, 0), lane(&mask, 16)],
            )
        } else {
            // No lane matches: nothing masked is never 1.
            ([1, 0], [0, 0])
        };
        MemberName {
            text,
            pattern,
            mask,
            lanes,
        }
    }

    /// Whether `rest` (the input after a member name's opening quote)
    /// starts with this name, its closing quote and a colon.
    ///
    /// The first lane decides for most names (and for every name longer
    /// than two lanes, whose first lane matches nothing); the second is
    /// read only for a name that needs it (a `match` on the number of
    /// lanes first cost 11 instructions a member, callgrind).
    #[inline(always)]
    fn is_at(&self, rest: &[u8]) -> bool {
        let fits = |lane: Option<&[u8; 16]>, i: usize| {
            lane.is_some_and(|w| u128::from_le_bytes(*w) & self.mask[i] == self.pattern[i])
        };
        fits(rest.first_chunk::<16>(), 0)
            && (self.lanes == 1 || fits(rest.get(16..).and_then(|r| r.first_chunk::<16>()), 1))
    }
}

/// The index in `spellings` of the text (and closing quote) that `rest`,
/// shorter than two lanes, starts with: [`MemberName::is_at`] of `rest`
/// followed by zeros. No byte of a spelling's lanes is zero, so a text or
/// quote cut by the end of the input never matches. The last member of a
/// log line (an SA step's `status`, `"completed"}}`) is then read in place
/// too, rather than by the string scan, which needs the line checked for
/// UTF-8 (see [`read_bytes`]). Out of line, and only where the lanes
/// did not fit: reading lanes padded this way in the search of every name
/// cost a MAP line 75 instructions (callgrind).
#[inline(never)]
fn spelled_near_end(spellings: &[Spelling], rest: &[u8]) -> Option<usize> {
    let mut padded = [0u8; 32];
    for (p, b) in padded.iter_mut().zip(rest) {
        *p = *b;
    }
    spellings.iter().position(|s| s.0.is_at(&padded))
}

/// Bytes `at..at + 16` of `bytes` as a little-endian lane.
const fn lane(bytes: &[u8; 32], at: usize) -> u128 {
    let mut v = 0u128;
    let mut i = 16;
    while i > 0 {
        i -= 1;
        v = (v << 8) | bytes[at + i] as u128;
    }
    v
}

/// A value of a string enum as the fast reader compares it where it
/// stands: the text and its closing quote, as the lanes of a
/// [`MemberName`] (one masked comparison of a 16-byte lane tells a text of
/// up to 15 bytes from every other). What `mplp_core::wire_enum!` builds
/// for each value of an enum, for [`Reader::read_spelled`]; nothing else
/// should.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Spelling(MemberName);

impl Spelling {
    /// The lanes of `text` and its closing quote (none, so never matched in
    /// place, for a text JSON would escape or longer than 31 bytes).
    #[doc(hidden)]
    pub const fn new(text: &'static str) -> Self {
        Spelling(MemberName::with_end(text, b"\""))
    }
}

/// [`member_names`] for as long as it lives: dropped, it clears them again.
/// Another deserializer leaves the names untaken, and the fast reader may be
/// reading around it (a tagged payload seen before its tag is read from a
/// kept value): its next map must not take them. A guard rather than a call
/// after the read lets the read's value go straight where the caller wants
/// it (a call between the read and the return made the compiler copy the
/// value: a MAP event, 408 bytes, once more per line).
#[doc(hidden)]
#[must_use = "the names are cleared when the guard is dropped"]
pub struct Announced(());

impl Announced {
    /// Announces `fields` (see [`member_names`]).
    #[doc(hidden)]
    #[inline]
    pub fn new(fields: &'static [MemberName]) -> Self {
        member_names(fields);
        Announced(())
    }
}

impl Drop for Announced {
    #[inline]
    fn drop(&mut self) {
        member_names(&[]);
    }
}

/// Why the fast reader stopped: nothing more is kept, since serde_json then
/// reads the input again and says what is wrong.
#[derive(Debug)]
pub struct GaveUp;

impl fmt::Display for GaveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the fast reader gave up")
    }
}

impl std::error::Error for GaveUp {}

impl de::Error for GaveUp {
    fn custom<T: fmt::Display>(_: T) -> Self {
        GaveUp
    }
}

type Result<T> = std::result::Result<T, GaveUp>;

/// Reads `T` with its schema rules only ([`Wire::deserialize_unchecked`])
/// from `text`, refusing trailing input; `None` when the fast reader gives
/// up (see the module docs).
#[inline]
pub fn from_str<T: Wire>(text: &str) -> Option<T> {
    let mut slot = None;
    read_into(text, &mut slot);
    slot
}

/// [`from_str`] into `slot`, where the caller keeps the value: true when it
/// was read, false (and `slot` as it was) when the fast reader gave up. A
/// value returned through `Result`s and `Option`s is copied at each; one
/// read into its place is not (see
/// mplp-core's `document::from_slice_unchecked`).
#[inline]
pub fn read_into<T: Wire>(text: &str, slot: &mut Option<T>) -> bool {
    let mut de = Reader::from_text(text);
    match T::read_fast(&mut de) {
        Ok(value) if de.at_end() => {
            *slot = Some(value);
            true
        }
        _ => false,
    }
}

/// [`from_str`], lending the value to `f` where the visitors left it:
/// `Ok(f(&value))`, or `Err(f)` back when the fast reader gives up (for the
/// caller's other reader). A caller that only looks at the value spares a
/// large one (a MAP event is some 400 bytes) the copies through `Result`s
/// and `Option`s on its way out (see
/// mplp-core's `document::with_slice_unchecked`).
#[inline]
pub fn read<T: Wire, R, F: FnOnce(&T) -> R>(text: &str, f: F) -> std::result::Result<R, F> {
    let mut de = Reader::from_text(text);
    // As in `read_bytes`.
    let value = T::read_fast(&mut de);
    match &value {
        Ok(value) if de.at_end() => Ok(f(value)),
        _ => Err(f),
    }
}

/// [`read`] of input that is not known to be UTF-8 (issue 41): the same
/// value, or `Err(f)` where [`read`] of the input as text gives up, and
/// also wherever the input is not UTF-8. The input is checked for UTF-8
/// (as a whole, by [`crate::utf8`]) only when the reader first hands out a
/// string as text; a string with escapes is checked once decoded. Every
/// other byte the reader accepts is one of JSON's ASCII bytes (structure,
/// whitespace, literals, numbers) or part of a text it compares with an
/// ASCII one (member names, enum spellings, the ids and timestamps of
/// [`Reader::fixed_str`]), so input that is not UTF-8 makes it give up
/// either way, and the caller's other reader says what is wrong, as
/// before. An SA log line (ids, timestamps, event types, outcomes) is
/// then read without the check at all: simdutf8's pass was 3-5% of the
/// CPU of `mplp validate` on a log. (A check of each string instead, with
/// `std::str::from_utf8`, cost a MAP line 280 instructions against
/// simdutf8's 113 for the whole line, callgrind: short strings, a call
/// each.)
#[inline]
pub fn read_bytes<T: Wire, R, F: FnOnce(&T) -> R>(input: &[u8], f: F) -> std::result::Result<R, F> {
    let mut de = Reader::new(input);
    // Lent where the reads wrote it: not even returned from a function.
    let value = T::read_fast(&mut de);
    match &value {
        Ok(value) if de.at_end() => Ok(f(value)),
        _ => Err(f),
    }
}

/// Reads one value with `seed` from the start of `text`, leaving what
/// follows it unread: for a caller that reads the first members of a
/// document and then stops (by failing), such as the kind guess of
/// `mplp_kinds`. As everywhere in this reader, an error says only that it
/// gave up: a caller must not take it for a verdict on the input.
pub fn from_str_seed<'de, S: DeserializeSeed<'de>>(
    text: &'de str,
    seed: S,
) -> std::result::Result<S::Value, GaveUp> {
    let mut de = Reader::from_text(text);
    seed.deserialize(&mut de)
}

/// The fast reader's state over one input: a serde `Deserializer` (as
/// `&mut Reader`), and the reader of [`Direct`] values. The code
/// `#[derive(Wire)]` writes names it; nothing else should.
#[doc(hidden)]
pub struct Reader<'de> {
    /// The input, not known to be UTF-8 (see [`read_bytes`]).
    input: &'de [u8],
    /// The same bytes as text once they are known to be UTF-8 (see
    /// [`Reader::text`]): slices of it at ASCII boundaries are `str`s
    /// without a check of their own.
    text: Option<&'de str>,
    at: usize,
    depth: usize,
    scratch: Vec<u8>,
    /// How many free-form members the reader is in.
    free_form: usize,
}

/// Whether `input` has a byte below 0x20: one pass the compiler vectorises
/// (for the rest of a long string, see [`string_end`]).
fn has_controls(input: &[u8]) -> bool {
    input
        .chunks(256)
        .any(|c| c.iter().fold(false, |seen, &b| seen | (b < 0x20)))
}

const ONES: u64 = u64::MAX / 255;
const HIGHS: u64 = ONES << 7;

/// Marks (in its high bit) every byte of `word` that is `"`, `\\` or below
/// 0x20, and maybe bytes above a marked one: the lowest mark is exact
/// (SWAR, as serde_json does). `x - n..` marks the bytes of `x` below `n`
/// (`n` at most 0x80), with its borrow's false marks only above a true one.
/// A quote and the control characters are one such test: `x ^ 0x02` is
/// below 0x21 exactly when `x` is `"` (0x22 becomes 0x20) or below 0x20
/// (which the flip of bit 1 keeps below 0x20); the backslash is the other
/// (`x ^ \\` below 1). `"` and `\\` are ASCII, so both share `!word`'s
/// high bits. Seven operations a word, two fewer than the quote and the
/// backslash apart.
#[inline(always)]
fn marks(word: u64) -> u64 {
    let quote_or_control = (word ^ (ONES * 0x02)).wrapping_sub(ONES * 0x21);
    let backslash = (word ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    (quote_or_control | backslash) & !word & HIGHS
}

/// Where the string starting at `rest` (after its opening quote) has its
/// closing quote, its first backslash or a byte below 0x20 (which no string
/// may hold), whichever comes first: eight bytes at a time. The caller
/// gives up unless the byte found is `"` or `\`, so a scan that stopped
/// early would show.
///
/// Control characters are looked for here, in the words the scan reads
/// anyway (with the quote, see [`marks`]), rather than in a pass over the
/// whole input before the parse, which cost 145 instructions an SA log
/// line (callgrind).
#[inline(always)]
fn string_end(rest: &[u8]) -> Option<usize> {
    let mut chunks = rest.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let found = marks(u64::from_le_bytes(word));
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
        // Ids (36 characters, the most common strings of a document) end
        // in the fifth word, which is read too: `memchr` for an id's last
        // four bytes cost more than the word.
        if at == 32 && rest.get(36) != Some(&b'"') {
            return medium_string_end(rest, at);
        }
    }
    let i = chunks
        .remainder()
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
    Some(at + i)
}

/// How far [`medium_string_end`] scans 16 bytes at a time before it hands
/// a string over to [`long_string_end`].
const MEDIUM: usize = 160;

/// Marks (in its high bit) every byte of `lane` that is `"`, `\\` or
/// below 0x20, and maybe bytes above a marked one: [`marks`] on 16 bytes
/// (the borrows of the subtractions run across the two halves, and are
/// still only above a true mark).
#[inline(always)]
fn marks16(lane: u128) -> u128 {
    const ONES16: u128 = u128::MAX / 255;
    const HIGHS16: u128 = ONES16 << 7;
    let quote_or_control = (lane ^ (ONES16 * 0x02)).wrapping_sub(ONES16 * 0x21);
    let backslash = (lane ^ (ONES16 * u128::from(b'\\'))).wrapping_sub(ONES16);
    (quote_or_control | backslash) & !lane & HIGHS16
}

/// [`string_end`] of a string longer than an id, from `at` on (issue 41,
/// stop 52): 16 bytes at a time up to [`MEDIUM`] bytes (prose: a plan
/// step's description, a dialog message), then [`long_string_end`]. The
/// marks find a control character in the same pass as the quote, so
/// there is no second pass over the bytes skipped; a plan of 10 steps
/// spent some 200 instructions a description in `memchr`'s call and the
/// control pass after it (callgrind).
#[inline(never)]
fn medium_string_end(rest: &[u8], mut at: usize) -> Option<usize> {
    while at < MEDIUM {
        let Some(lane) = rest.get(at..).and_then(|t| t.first_chunk::<16>()) else {
            // Fewer than 16 bytes left.
            let tail = rest.get(at..)?;
            let i = tail
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
            return Some(at + i);
        };
        let found = marks16(u128::from_le_bytes(*lane));
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 16;
    }
    long_string_end(rest, at)
}

/// [`string_end`] of a long string from `at` on: the vectorised search of
/// `memchr` pays for its call, then one vectorised pass over the bytes
/// before what it found tells whether a control character came first.
#[cold]
#[inline(never)]
fn long_string_end(rest: &[u8], at: usize) -> Option<usize> {
    let tail = rest.get(at..)?;
    let end = memchr::memchr2(b'"', b'\\', tail).unwrap_or(tail.len());
    let before = tail.get(..end)?;
    if has_controls(before) {
        return before.iter().position(|&b| b < 0x20).map(|i| at + i);
    }
    (end < tail.len()).then_some(at + end)
}

/// A string token: borrowed from the input, or decoded into the scratch
/// buffer.
enum Str<'de, 's> {
    Borrowed(&'de str),
    Decoded(&'s str),
}

impl<'de> Reader<'de> {
    #[inline]
    fn new(input: &'de [u8]) -> Self {
        Self::with_text(input, None)
    }

    #[inline]
    fn from_text(text: &'de str) -> Self {
        Self::with_text(text.as_bytes(), Some(text))
    }

    #[inline]
    fn with_text(input: &'de [u8], text: Option<&'de str>) -> Self {
        // Names announced for a reader that never came (a derived struct
        // read by serde_json, say) belong to no object of this one.
        NEXT_NAMES.set(&[]);
        Reader {
            input,
            text,
            at: 0,
            depth: 0,
            scratch: Vec::new(),
            free_form: 0,
        }
    }

    /// Whether only whitespace is left (trailing input makes the fast
    /// reader give up, as it makes serde_json refuse the input).
    #[inline]
    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.at == self.input.len()
    }

    #[inline]
    fn skip_ws(&mut self) {
        // Every byte that may follow whitespace in JSON is above the space:
        // one comparison ends the common case (compact JSON, nothing to
        // skip) before the four whitespace bytes are told apart.
        while let Some(&b) = self.input.get(self.at) {
            if b > b' ' || !matches!(b, b' ' | b'\n' | b'\t' | b'\r') {
                break;
            }
            self.at += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.input.get(self.at).copied()
    }

    /// Whether the next byte after whitespace is `byte` (not consumed; the
    /// whitespace is). The byte where the reader stands is compared with
    /// `byte` first, and whitespace skipped only when it is not `byte`:
    /// in compact JSON, where the token follows at once, that is one
    /// comparison where [`Reader::peek`] and a comparison of what it gives
    /// make two (callgrind).
    #[inline(always)]
    fn next_is(&mut self, byte: u8) -> bool {
        self.input.get(self.at) == Some(&byte) || self.peek() == Some(byte)
    }

    /// [`Reader::peek`] for a caller that tells several bytes apart (the
    /// separators of objects and arrays): the byte where the reader stands,
    /// and only when that is whitespace the first one after it (see
    /// [`Reader::next_is`]).
    #[inline(always)]
    fn next_byte(&mut self) -> Option<u8> {
        match self.input.get(self.at) {
            Some(b' ' | b'\n' | b'\t' | b'\r') => self.peek(),
            next => next.copied(),
        }
    }

    #[inline]
    fn eat(&mut self, byte: u8) -> Result<()> {
        if self.next_is(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(GaveUp)
        }
    }

    fn literal(&mut self, word: &[u8]) -> Result<()> {
        if self.input[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(GaveUp)
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(GaveUp);
        }
        Ok(())
    }

    /// Reads a string whose opening quote is at `self.at`.
    ///
    /// Inlined where a string is read, with the scan of [`string_end`]:
    /// a call for each string cost its register saves and restores and
    /// the return of a `Str` (some 30 instructions a string, callgrind);
    /// a string with escapes goes to [`Reader::decoded`].
    #[inline(always)]
    fn string<'s>(&'s mut self) -> Result<Str<'de, 's>> {
        let start = self.at + 1;
        let rest = self.input.get(start..).ok_or(GaveUp)?;
        let end = string_end(rest).ok_or(GaveUp)?;
        match rest.get(end) {
            Some(b'"') => {
                self.at = start + end + 1;
                let s = self.text()?.get(start..start + end).ok_or(GaveUp)?;
                Ok(Str::Borrowed(s))
            }
            Some(b'\\') => self.decoded(start, end),
            _ => Err(GaveUp),
        }
    }

    /// The input as text: checked for UTF-8 the first time it is asked for
    /// (see [`read_bytes`]); `GaveUp` when it is not UTF-8.
    #[inline(always)]
    fn text(&mut self) -> Result<&'de str> {
        match self.text {
            Some(text) => Ok(text),
            None => self.check_text(),
        }
    }

    #[cold]
    #[inline(never)]
    fn check_text(&mut self) -> Result<&'de str> {
        let text = crate::utf8(self.input).ok_or(GaveUp)?;
        self.text = Some(text);
        Ok(text)
    }

    /// The string starting at `start` whose first backslash is `end` bytes
    /// further, decoded into `scratch`.
    #[cold]
    #[inline(never)]
    fn decoded<'s>(&'s mut self, start: usize, end: usize) -> Result<Str<'de, 's>> {
        self.scratch.clear();
        self.scratch
            .extend_from_slice(self.input.get(start..start + end).ok_or(GaveUp)?);
        self.at = start + end;
        self.escaped()?;
        let s = std::str::from_utf8(&self.scratch).map_err(|_| GaveUp)?;
        Ok(Str::Decoded(s))
    }

    /// Decodes the rest of a string from the backslash at `self.at` into
    /// `scratch`, up to and including its closing quote.
    fn escaped(&mut self) -> Result<()> {
        loop {
            let b = *self.input.get(self.at).ok_or(GaveUp)?;
            self.at += 1;
            match b {
                b'"' => return Ok(()),
                b'\\' => {
                    let e = *self.input.get(self.at).ok_or(GaveUp)?;
                    self.at += 1;
                    let c = match e {
                        b'"' => b'"',
                        b'\\' => b'\\',
                        b'/' => b'/',
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'u' => {
                            let ch = self.unicode_escape()?;
                            let mut buf = [0u8; 4];
                            self.scratch
                                .extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                            continue;
                        }
                        _ => return Err(GaveUp),
                    };
                    self.scratch.push(c);
                }
                0x00..=0x1f => return Err(GaveUp),
                _ => self.scratch.push(b),
            }
        }
    }

    /// The character of a `\u` escape whose four hex digits start at
    /// `self.at` (a surrogate pair takes the next escape too).
    fn unicode_escape(&mut self) -> Result<char> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                self.literal(b"\\u")?;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(GaveUp);
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            // A lone low surrogate is no char: `from_u32` refuses it.
            _ => first,
        };
        char::from_u32(code).ok_or(GaveUp)
    }

    fn hex4(&mut self) -> Result<u32> {
        let digits = self.input.get(self.at..self.at + 4).ok_or(GaveUp)?;
        let mut n = 0;
        for &d in digits {
            n = n * 16 + char::from(d).to_digit(16).ok_or(GaveUp)?;
        }
        self.at += 4;
        Ok(n)
    }

    /// The bytes of the number token at `self.at` (consumed): ASCII only.
    fn number_text(&mut self) -> &'de [u8] {
        let start = self.at;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.input.get(self.at) {
            self.at += 1;
        }
        self.input.get(start..self.at).unwrap_or_default()
    }

    /// A number token: `visit_u64` of a plain integer of up to 19 digits
    /// read where it stands ([`Reader::plain_u64`]), else
    /// [`Reader::any_number`].
    #[inline]
    fn number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.plain_u64() {
            Some(n) => visitor.visit_u64(n),
            None => self.any_number(visitor),
        }
    }

    /// The number at `self.at` (consumed) when its token is `0` or
    /// `[1-9][0-9]*` of at most 19 digits (always below `u64::MAX`), which
    /// [`Reader::any_number`] hands to `visit_u64` with the same value:
    /// the token ends at the first byte that cannot be in a number, and a
    /// digit, `.`, `e`, `E`, `+` or `-` after the digits read (a 20th
    /// digit, `01`, a fraction, an exponent) leaves it to `any_number`.
    /// The integers of a MAP event (turn numbers, counts) cost some 90
    /// instructions each there, out of line (callgrind).
    #[inline(always)]
    fn plain_u64(&mut self) -> Option<u64> {
        let rest = self.input.get(self.at..)?;
        let mut n = u64::from(rest.first()?.wrapping_sub(b'0'));
        if n > 9 {
            return None;
        }
        let mut len = 1;
        if n != 0 {
            while let Some(&d @ b'0'..=b'9') = rest.get(len) {
                if len == 19 {
                    return None;
                }
                n = n * 10 + u64::from(d - b'0');
                len += 1;
            }
        }
        if let Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') = rest.get(len) {
            return None;
        }
        self.at += len;
        Some(n)
    }

    /// Any number token (see the module docs).
    #[inline(never)]
    fn any_number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let text = self.number_text();
        let (negative, digits) = match text {
            [b'-', rest @ ..] => (true, rest),
            all => (false, all),
        };
        // An integer without leading zeros: serde_json reads it as `u64`,
        // or as `i64` when negative, when it fits.
        let integer = match digits {
            [b'0'] => !negative,
            [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
            _ => false,
        };
        if integer {
            let mut n = 0u64;
            let fits = digits.iter().all(|&d| {
                match n
                    .checked_mul(10)
                    .and_then(|n| n.checked_add(u64::from(d - b'0')))
                {
                    Some(next) => {
                        n = next;
                        true
                    }
                    None => false,
                }
            });
            if fits && !negative {
                return visitor.visit_u64(n);
            }
            if fits && n <= i64::MIN.unsigned_abs() {
                return visitor.visit_i64(0i64.wrapping_sub_unsigned(n));
            }
        }
        // Fractions, exponents, `-0`, big integers and malformed numbers:
        // serde_json's own parser decides, on the number's text alone;
        // in a free-form member, serde_json reads the member.
        if self.free_form > 0 {
            return Err(GaveUp);
        }
        // ASCII bytes only: always text.
        let text = std::str::from_utf8(text).map_err(|_| GaveUp)?;
        let mut de = serde_json::Deserializer::from_str(text);
        let value = de::Deserializer::deserialize_any(&mut de, visitor).map_err(|_| GaveUp)?;
        de.end().map_err(|_| GaveUp)?;
        Ok(value)
    }

    /// An object: a map, or a struct whose member names are `fields` (empty
    /// when they are not known to be plain, see [`member_names`]).
    fn object<V: Visitor<'de>>(
        &mut self,
        fields: &'static [MemberName],
        visitor: V,
    ) -> Result<V::Value> {
        self.eat(b'{')?;
        self.enter()?;
        // The members read the closing brace themselves (see `Members`), so
        // the visitor's value is returned as it is: any check here, after
        // the visitor, made the compiler copy the value (a struct, often
        // hundreds of bytes) from a local to the caller.
        visitor.visit_map(Members {
            de: &mut *self,
            first: true,
            ended: false,
            fields,
            next: 0,
        })
    }
}

impl<'de> Reader<'de> {
    /// Reads up to the next element of an array (the comma before it, or
    /// nothing before the first), leaving the closing bracket unread: false
    /// when that comes instead.
    #[inline(always)]
    fn next_element(&mut self, first: &mut bool) -> Result<bool> {
        match self.next_byte() {
            Some(b']') => return Ok(false),
            Some(b',') if !*first => {
                self.at += 1;
                if self.next_is(b']') {
                    return Err(GaveUp);
                }
            }
            Some(_) if *first => {}
            _ => return Err(GaveUp),
        }
        *first = false;
        Ok(true)
    }

    /// Reads the opening brace of a struct whose member names are `fields`
    /// (its `FIELDS`, see [`MemberName`]): its members follow, read with
    /// [`Members::next_member`] and [`Members::reader`]. What the code
    /// `#[derive(Wire)]` writes for [`Direct`] starts with.
    #[doc(hidden)]
    #[inline(always)]
    pub fn members(&mut self, fields: &'static [MemberName]) -> Result<Members<'_, 'de>> {
        self.eat(b'{')?;
        self.enter()?;
        Ok(Members {
            de: self,
            first: true,
            ended: false,
            fields,
            next: 0,
        })
    }

    /// A string token, handed to `parse` (borrowed from the input, or
    /// decoded): the direct read of a type serde reads with
    /// `deserialize_str` and a visitor that parses the text (ids,
    /// timestamps, enums), inlined where it is read. `None` gives up.
    #[doc(hidden)]
    #[inline(always)]
    pub fn read_str<T>(&mut self, parse: impl FnOnce(&str) -> Option<T>) -> Result<T> {
        if !self.next_is(b'"') {
            return Err(GaveUp);
        }
        match self.string()? {
            Str::Borrowed(s) | Str::Decoded(s) => parse(s).ok_or(GaveUp),
        }
    }

    /// An integer member of type `T`, as [`crate::de::Integer`] reads it on
    /// this reader (what the code `#[derive(Wire)]` writes reads integer
    /// members with): a plain integer ([`Reader::plain_u64`]) goes to the
    /// same `visit_u64` that `Integer`'s read through `deserialize_u64` (or
    /// `_i64`) and [`Reader::number`] gives it, without the calls; any other
    /// token is read by that path. The read of `Integer` was a call of its
    /// own, and the number one more, some 140 instructions an integer of a
    /// MAP payload (callgrind).
    #[doc(hidden)]
    #[inline(always)]
    pub fn integer<T: crate::integer::WireInteger>(&mut self) -> Result<T> {
        if self.input.get(self.at).is_some_and(u8::is_ascii_digit)
            || matches!(self.peek(), Some(b'0'..=b'9'))
        {
            if let Some(n) = self.plain_u64() {
                return de::Visitor::visit_u64(crate::de::Integer::<T>::new(), n);
            }
        }
        de::DeserializeSeed::deserialize(crate::de::Integer::<T>::new(), self)
    }

    /// [`Reader::read_str`] of a string enum: the value at the index in
    /// `spellings` of the text that stands after the opening quote with its
    /// closing quote (compared in place, a lane at a time, see
    /// [`Spelling`]; near the end of the input, with the bytes there, see
    /// `spelled_near_end`), else (an escape, an unknown text) `parse` of the string token, as `read_str` reads it.
    /// `values` and `spellings` are in the same order, and `parse` takes
    /// each spelling's text to its value: the read is then `read_str`'s.
    ///
    /// Measured with callgrind on an SA log: the string scan and the
    /// `match` on the text of an `event_type` cost more than the few masked
    /// lane comparisons.
    #[doc(hidden)]
    #[inline(always)]
    pub fn read_spelled<T: Copy>(
        &mut self,
        spellings: &'static [Spelling],
        values: &'static [T],
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T> {
        if !self.next_is(b'"') {
            return Err(GaveUp);
        }
        let rest = self.input.get(self.at + 1..).unwrap_or_default();
        let found = match spellings.iter().position(|s| s.0.is_at(rest)) {
            None if rest.len() < 32 => spelled_near_end(spellings, rest),
            found => found,
        };
        if let Some(i) = found {
            if let (Some(value), Some(s)) = (values.get(i), spellings.get(i)) {
                // The quotes too.
                self.at += s.0.text.len() + 2;
                return Ok(*value);
            }
        }
        match self.string()? {
            Str::Borrowed(s) | Str::Decoded(s) => parse(s).ok_or(GaveUp),
        }
    }

    /// The `N` bytes of a string token that stands next (after whitespace)
    /// when byte `N` after its opening quote is a quote, not consumed: for
    /// the direct read of a type whose usual text is exactly `N` bytes of
    /// a few ASCII characters (a UUID: 36 bytes of hex digits and hyphens;
    /// a timestamp with milliseconds: 24), parsed where it stands without
    /// the scan for the string's end. The caller parses the bytes and, when
    /// it takes them, consumes the token with [`Reader::skip_fixed_str`];
    /// otherwise it reads the string as usual ([`Reader::read_str`]).
    ///
    /// The caller may take only bytes that hold no `"`, `\`, byte below
    /// 0x20 or non-ASCII byte: then the `N` bytes are the whole string
    /// token, unescaped, and the value must be the one its `read_str`
    /// gives for that text (an id's own check, hex digits and hyphens
    /// only, is that already). Measured with callgrind on an SA log: the
    /// scan of a UUID's string cost some 76 instructions of the 263 of a
    /// `SchemaUuid` read. (A closure handed to the reader was left a call
    /// of its own by the compiler.)
    #[doc(hidden)]
    #[inline(always)]
    pub fn fixed_str<const N: usize>(&mut self) -> Option<&'de [u8; N]> {
        if !self.next_is(b'"') {
            return None;
        }
        match self
            .input
            .get(self.at + 1..)
            .and_then(|rest| rest.split_first_chunk::<N>())
        {
            Some((body, [b'"', ..])) => Some(body),
            _ => None,
        }
    }

    /// Consumes the string token whose `N` bytes [`Reader::fixed_str`]
    /// gave (its quotes too).
    #[doc(hidden)]
    #[inline(always)]
    pub fn skip_fixed_str<const N: usize>(&mut self) {
        self.at += N + 2;
    }

    /// An array of [`Direct`] values, as [`crate::de::List`] reads it
    /// (the same elements, the same first allocation; past it, room made
    /// from the rest of the input, see [`Reader::more_room`]), without
    /// serde's calls.
    #[doc(hidden)]
    #[inline]
    pub fn list<T: Direct>(&mut self) -> Result<Vec<T>> {
        let mut values = Vec::new();
        self.array(|r, start| {
            // Room is made before the element is read, so that it is read
            // into its place (a check between the read and the push cost a
            // copy of each element).
            if values.len() == values.capacity() {
                r.make_room(&mut values, start);
            }
            let value = T::read(r)?;
            values.push(value);
            Ok(())
        })?;
        Ok(values)
    }

    /// An array of [`Direct`] values into a block of its length, as
    /// serde's `Box<[T]>` reads it (its `Vec` read, then
    /// `into_boxed_slice`): the first [`FEW`] elements are held here, and
    /// one block of their number is allocated at the end; a longer array
    /// goes on in a `Vec` as [`Reader::list`] reads it, shortened to its
    /// length at the end. Where the `Vec` read and `into_boxed_slice`
    /// took a block of [`crate::de::List::FIRST_CAPACITY`] elements and
    /// shortened it for every short array (a plan step's dependencies,
    /// issue 41: glibc's `realloc` split the block and freed the rest,
    /// some 200 instructions a step).
    #[doc(hidden)]
    #[inline]
    pub fn boxed_list<T: Direct>(&mut self) -> Result<Box<[T]>> {
        let mut few: [Option<T>; FEW] = [const { None }; FEW];
        let mut n = 0;
        let mut more = Vec::new();
        self.array(|r, start| {
            let value = T::read(r)?;
            if let Some(slot) = few.get_mut(n) {
                *slot = Some(value);
                n += 1;
            } else {
                if more.len() == more.capacity() {
                    r.make_room(&mut more, start);
                }
                more.push(value);
            }
            Ok(())
        })?;
        let mut values = Vec::with_capacity(n + more.len());
        values.extend(few.into_iter().flatten());
        values.append(&mut more);
        Ok(values.into_boxed_slice())
    }

    /// An array of [`Direct`] values with its only element held apart:
    /// `(Some(x), [])` for an array of one element, read without an
    /// allocation; else `(None, all)`, as [`Reader::list`] reads them (no
    /// allocation either for an empty array). What mplp-core's `ShortList`
    /// reads: a MAP event's `target_roles` names one role on most lines,
    /// and its `Vec`'s allocation and release were some 390 instructions
    /// of such a line (issue 41, callgrind).
    #[doc(hidden)]
    #[inline]
    pub fn one_or_list<T: Direct>(&mut self) -> Result<(Option<T>, Vec<T>)> {
        let mut one = None;
        let mut more = Vec::new();
        self.array(|r, start| {
            if more.is_empty() {
                match one.take() {
                    None => {
                        one = Some(T::read(r)?);
                        return Ok(());
                    }
                    // A second element: the first goes into the list.
                    Some(first) => {
                        r.make_room(&mut more, start);
                        more.push(first);
                    }
                }
            }
            if more.len() == more.capacity() {
                r.make_room(&mut more, start);
            }
            more.push(T::read(r)?);
            Ok(())
        })?;
        Ok((one, more))
    }

    /// Reads an array: its brackets and commas, and each element with
    /// `element` (given the reader and where the array's elements began,
    /// for [`Reader::make_room`]). The one reader of the brackets and
    /// commas of [`Reader::list`] and [`Reader::boxed_list`].
    #[inline(always)]
    fn array(&mut self, mut element: impl FnMut(&mut Self, usize) -> Result<()>) -> Result<()> {
        self.eat(b'[')?;
        self.enter()?;
        let start = self.at;
        let mut first = true;
        while self.next_element(&mut first)? {
            element(self, start)?;
        }
        // `next_element` stopped at the closing bracket.
        self.at += 1;
        self.depth -= 1;
        Ok(())
    }
}

/// How many elements of an array [`Reader::boxed_list`] holds before it
/// allocates: a plan step's dependencies are mostly one to four.
const FEW: usize = 4;

impl Reader<'_> {
    /// Makes room in `values`, full, for the next element of the array
    /// that began at `start`: [`crate::de::List::FIRST_CAPACITY`] elements
    /// for the first one, [`Reader::more_room`] past them. Out of the loop
    /// of [`Reader::list`], which stays as small as it was.
    #[cold]
    #[inline(never)]
    fn make_room<T>(&self, values: &mut Vec<T>, start: usize) {
        let more = match values.len() {
            0 => crate::de::List::<T>::FIRST_CAPACITY,
            len => self.more_room(start, len, std::mem::size_of::<T>()),
        };
        values.reserve_exact(more);
    }

    /// How many more elements to make room for in an array that began at
    /// `start` and has outgrown its first allocation: `len` elements of
    /// `size` bytes are in it, and the next one starts here (issue 41). As
    /// many as the rest of the input holds at the length of those read so
    /// far (and an eighth more), but never more bytes than the rest of the
    /// input has; at least `len` (the doubling `Vec` would do).
    /// A long array of like elements (a plan's steps, a dialog's messages)
    /// then takes two allocations instead of one per doubling: each
    /// reallocation copied the elements, and glibc merged its free lists
    /// before each block of 1 KiB or more (callgrind: 8-12% of a plan of
    /// 1,000 steps or a dialog of 1,000 messages).
    fn more_room(&self, start: usize, len: usize, size: usize) -> usize {
        let rest = self.input.len().saturating_sub(self.at);
        let text = self.at.saturating_sub(start).max(1);
        let by_text = rest as u128 * len as u128 / text as u128;
        let by_text = usize::try_from(by_text).unwrap_or(usize::MAX);
        // An eighth more: the first elements of a list are often shorter
        // (a plan's first steps have fewer dependencies), and falling short
        // by one element costs a doubling.
        let by_text = by_text.saturating_add(by_text / 8);
        by_text.min(rest / size.max(1)).max(len)
    }
}

/// A value the fast reader reads straight from its input, without serde's
/// visitor, `MapAccess` and seed calls: every struct `#[derive(Wire)]`
/// declares (whose code reads its members by index and each member's value
/// with its own `Direct` read, or with serde through the same reader when
/// the member's type has none, see [`Probe`]), `Option`s and lists of them.
///
/// A read gives the value the type's serde `Deserialize` gives on this
/// reader, or gives up where it would fail: it is the same read, written
/// without the calls.
#[doc(hidden)]
pub trait Direct: Sized {
    /// Reads a value whose first byte (after whitespace) is next.
    fn read(r: &mut Reader<'_>) -> Result<Self>;
}

/// `null` is `None` (as serde's `Option` reads it on this reader), any
/// other value `T`'s.
impl<T: Direct> Direct for Option<T> {
    #[inline]
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        if r.next_is(b'n') {
            r.literal(b"null")?;
            return Ok(None);
        }
        T::read(r).map(Some)
    }
}

/// An array, as serde's `Vec` reads it on this reader (sized by
/// [`Reader::list`]).
impl<T: Direct> Direct for Vec<T> {
    #[inline]
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        r.list()
    }
}

/// A string, as serde's `String` reads it on this reader.
impl Direct for String {
    #[inline]
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        r.read_str(|s| Some(s.to_owned()))
    }
}

/// An array, as serde's `Box<[T]>` reads it on this reader (its `Vec`
/// read, then `into_boxed_slice`).
impl<T: Direct> Direct for Box<[T]> {
    #[inline]
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        r.boxed_list()
    }
}

/// A string, as serde's `Box<str>` reads it on this reader: one block of
/// the text's length.
impl Direct for Box<str> {
    #[inline]
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        r.read_str(|s| Some(Box::from(s)))
    }
}

/// Read with serde on the fast reader: a free-form object is read in
/// one pass already (see the module docs).
impl Direct for crate::JsonObject {
    #[inline]
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        serde::Deserialize::deserialize(r)
    }
}

/// The read of a member of type `T` in the code `#[derive(Wire)]` writes:
/// `(&&Probe::<T>::new()).read_value(r)` is `T`'s [`Direct`] read when it
/// has one ([`ReadDirect`], found first by method resolution), else its
/// serde `Deserialize` on the same reader ([`ReadSerde`]). (Autoref
/// specialization: it works on stable Rust for the concrete types of a
/// struct's members.)
#[doc(hidden)]
pub struct Probe<T>(std::marker::PhantomData<T>);

impl<T> Probe<T> {
    /// The probe.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn new() -> Self {
        Probe(std::marker::PhantomData)
    }
}

/// [`Probe`] for a list member (`Vec<T>`): [`Reader::list`] when `T` has a
/// [`Direct`] read, else serde's read with [`crate::de::List`], as the
/// derive's visitor reads it.
#[doc(hidden)]
pub struct ListProbe<T>(std::marker::PhantomData<T>);

impl<T> ListProbe<T> {
    /// The probe.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn new() -> Self {
        ListProbe(std::marker::PhantomData)
    }
}

/// The [`Direct`] read of a [`Probe`] (see there).
#[doc(hidden)]
pub trait ReadDirect<T> {
    /// Reads the value.
    fn read_value(&self, r: &mut Reader<'_>) -> Result<T>;
}

/// The serde read of a [`Probe`] (see there).
#[doc(hidden)]
pub trait ReadSerde<T> {
    /// Reads the value.
    fn read_value(&self, r: &mut Reader<'_>) -> Result<T>;
}

impl<T: Direct> ReadDirect<T> for &Probe<T> {
    #[inline(always)]
    fn read_value(&self, r: &mut Reader<'_>) -> Result<T> {
        T::read(r)
    }
}

impl<T: serde::de::DeserializeOwned> ReadSerde<T> for Probe<T> {
    #[inline(always)]
    fn read_value(&self, r: &mut Reader<'_>) -> Result<T> {
        T::deserialize(r)
    }
}

impl<T: Direct> ReadDirect<Vec<T>> for &ListProbe<T> {
    #[inline(always)]
    fn read_value(&self, r: &mut Reader<'_>) -> Result<Vec<T>> {
        r.list()
    }
}

impl<T: serde::de::DeserializeOwned> ReadSerde<Vec<T>> for ListProbe<T> {
    #[inline(always)]
    fn read_value(&self, r: &mut Reader<'_>) -> Result<Vec<T>> {
        crate::de::List::<T>::new().deserialize(r)
    }
}

macro_rules! give_up {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
            Err(GaveUp)
        }
    )*};
}

macro_rules! number {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.peek() {
                Some(b'-' | b'0'..=b'9') => self.number(visitor),
                _ => Err(GaveUp),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = GaveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek().ok_or(GaveUp)? {
            b'"' => self.deserialize_str(visitor),
            b'{' => self.deserialize_map(visitor),
            b'[' => self.deserialize_seq(visitor),
            b't' | b'f' => self.deserialize_bool(visitor),
            b'n' => self.deserialize_unit(visitor),
            b'-' | b'0'..=b'9' => self.number(visitor),
            _ => Err(GaveUp),
        }
    }

    number! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    give_up! { deserialize_bytes deserialize_byte_buf }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            _ => Err(GaveUp),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if !self.next_is(b'"') {
            return Err(GaveUp);
        }
        match self.string()? {
            Str::Borrowed(s) => visitor.visit_borrowed_str(s),
            Str::Decoded(s) => visitor.visit_str(s),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.next_is(b'n') {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if !self.next_is(b'n') {
            return Err(GaveUp);
        }
        self.literal(b"null")?;
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name != RAW_TOKEN {
            return visitor.visit_newtype_struct(self);
        }
        // A free-form member (`crate::exact::ExactValue`): asked for its
        // raw text, serde_json hands it over and the member parses it again.
        // The fast reader reads it in one pass instead, as the member reads
        // any other deserializer's values, which is the same value as long
        // as every number is one the map holds exactly: so it gives up at
        // any number that is not a plain integer.
        self.free_form += 1;
        let value = visitor.visit_newtype_struct(&mut *self);
        self.free_form -= 1;
        value
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.eat(b'[')?;
        self.enter()?;
        let mut value = visitor.visit_seq(Elements {
            de: &mut *self,
            first: true,
        });
        // The closing bracket is checked here, after the visitor (unlike an
        // object's brace, see `Members`): that costs a copy of the value, but
        // a sequence is read into a `Vec` (24 bytes), and serde's tuple
        // visitors stop after their last element without asking for more.
        if value.is_ok() {
            self.depth -= 1;
            if self.eat(b']').is_err() {
                value = Err(GaveUp);
            }
        }
        value
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // The names a derived struct announced for this very call (taken,
        // so that no map inside it sees them).
        self.object(NEXT_NAMES.replace(&[]), visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(&mut *self, de::IgnoredAny)?;
        visitor.visit_unit()
    }
}

/// The elements of an array.
struct Elements<'a, 'de> {
    de: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = GaveUp;

    // Inlined into the one loop that calls it (serde's `Vec` visitor, per
    // element type): a call per element cost its register saves, and the
    // element was copied once more on its way out through `Option`
    // (measured: dialog of 100 messages 9% faster, collab 8%).
    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.de.next_element(&mut self.first)? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }
}

/// The members of an object.
///
/// `next_key_seed` reads the closing brace when it finds no more members: a
/// visitor that has seen the end has had the object read whole. One that
/// returns before the end (no visitor of a wire type does) leaves the rest of
/// the object to be read as if it were its parent's: one closing brace more
/// is left than the reader reads, so the reader cannot end where the input
/// ends, and the read gives up (every caller requires the end).
#[doc(hidden)]
pub struct Members<'a, 'de> {
    de: &'a mut Reader<'de>,
    first: bool,
    /// The closing brace has been read.
    ended: bool,
    /// The struct's member names, when they may be matched byte for byte
    /// (see [`member_names`]); empty otherwise.
    fields: &'static [MemberName],
    /// The index in `fields` of the member expected next (the one after
    /// the last one matched).
    next: usize,
}

/// A member name read by [`Members::next_member`]: its index in the
/// struct's `FIELDS`, or (not one of them) its text.
#[doc(hidden)]
#[derive(Debug, PartialEq)]
pub enum Member {
    /// The name at this index of the struct's `FIELDS`.
    Field(usize),
    /// Any other name, decoded.
    Other(String),
}

impl<'de> Members<'_, 'de> {
    /// Reads up to the name of the next member (the comma before it, or
    /// nothing before the first), or the closing brace: false when that
    /// was read (and the object with it).
    #[inline(always)]
    fn advance(&mut self) -> Result<bool> {
        if self.ended {
            return Ok(false);
        }
        match self.de.next_byte() {
            Some(b'}') => {
                self.de.at += 1;
                self.de.depth -= 1;
                self.ended = true;
                return Ok(false);
            }
            Some(b',') if !self.first => {
                self.de.at += 1;
                if !self.de.next_is(b'"') {
                    return Err(GaveUp);
                }
            }
            Some(b'"') if self.first => {}
            _ => return Err(GaveUp),
        }
        self.first = false;
        Ok(true)
    }

    /// The index in `fields` of the member name whose opening quote is at
    /// `de.at`, read with the colon after it, when it is written as it is
    /// in `fields`; `None` (and nothing read) otherwise.
    #[inline(always)]
    fn field(&mut self) -> Result<Option<usize>> {
        if let Some((i, len)) = self.compact_name() {
            // The quotes and the colon too.
            self.de.at += len + 3;
            self.next = i + 1;
            return Ok(Some(i));
        }
        // No need to look for a name among none (a map's members).
        if self.fields.is_empty() {
            return Ok(None);
        }
        let Some(i) = known_name(self.fields, self.next, self.de.input, self.de.at) else {
            return Ok(None);
        };
        self.de.at += self.fields.get(i).map_or(0, |name| name.text.len()) + 2;
        self.next = i + 1;
        self.de.eat(b':')?;
        Ok(Some(i))
    }

    /// The next member's name, read with the colon after it, or `None`
    /// when the closing brace came instead (and was read): what the code
    /// `#[derive(Wire)]` writes for [`Direct`] reads an object with. A name
    /// written otherwise than in `FIELDS` (escaped, spaced) is decoded and
    /// then looked up there, as the derive's serde visitor looks up the
    /// text it is handed.
    #[doc(hidden)]
    #[inline(always)]
    pub fn next_member(&mut self) -> Result<Option<Member>> {
        if !self.advance()? {
            return Ok(None);
        }
        if let Some(i) = self.field()? {
            return Ok(Some(Member::Field(i)));
        }
        other_member(self.de, self.fields).map(Some)
    }

    /// The reader, for the value of the member just named.
    #[doc(hidden)]
    #[inline(always)]
    pub fn reader(&mut self) -> &mut Reader<'de> {
        self.de
    }
}

impl Members<'_, '_> {
    /// [`known_name`] of the member name at `de.at`.
    #[cfg(test)]
    fn known_name(&self) -> Option<usize> {
        known_name(self.fields, self.next, self.de.input, self.de.at)
    }

    /// The index in `fields` and the length of the member name whose
    /// opening quote is at `de.at`, when it is written as compact JSON
    /// writes it (`"name":`, see [`MemberName`]); the expected one is tried
    /// first.
    #[inline(always)]
    fn compact_name(&self) -> Option<(usize, usize)> {
        let rest = self.de.input.get(self.de.at + 1..).unwrap_or_default();
        let i = self.find(|name| name.is_at(rest))?;
        Some((i, self.fields.get(i)?.text.len()))
    }

    /// The index in `fields` of the name `is` takes (at most one does: a
    /// name is compared with the quote after it), the expected one tried
    /// first, then those after it, then those before: members usually come
    /// in their declared order with some left out (an SA event's `payload`
    /// after its `sa_id`, with no `context_id`, `plan_id` or `trace_id`),
    /// and a search from the first name cost an SA line some 80
    /// instructions (callgrind).
    ///
    /// Two plain loops calling `is` directly: `position(&is)` left the
    /// closure a call of its own (`<&F as FnMut>::call_mut`) in some
    /// callers, some 60 instructions a MAP line (callgrind).
    #[inline(always)]
    fn find(&self, is: impl Fn(&MemberName) -> bool) -> Option<usize> {
        find(self.fields, self.next, is)
    }
}

/// [`Members::find`] in `fields`, `next` the index expected.
#[inline(always)]
fn find(fields: &[MemberName], next: usize, is: impl Fn(&MemberName) -> bool) -> Option<usize> {
    let next = next.min(fields.len());
    for (i, name) in fields.iter().enumerate().skip(next) {
        if is(name) {
            return Some(i);
        }
    }
    for (i, name) in fields.iter().enumerate().take(next) {
        if is(name) {
            return Some(i);
        }
    }
    None
}

// The two reads of a member name off the usual path take what they need
// from `Members`, not `Members` itself: a call given the address of
// `Members` kept it in memory in the direct read of every struct (its
// fields, `next` and flags loaded and stored again around each member),
// where otherwise the compiler keeps it in registers and knows its
// constant `fields` (issue 41, stop 53: callgrind).

/// The index in `fields` of the member name whose opening quote is at
/// `at` in `input`, when it is written as it is in `fields` (so without
/// escapes); the expected one (`next`) is tried first.
#[cold]
#[inline(never)]
fn known_name(fields: &[MemberName], next: usize, input: &[u8], at: usize) -> Option<usize> {
    let rest = input.get(at + 1..)?;
    find(fields, next, |name| is_name(rest, name.text.as_bytes()))
}

/// A member name not matched in place, at `de.at`: decoded, then looked
/// up by its text in `fields`; read with the colon after it.
#[cold]
#[inline(never)]
fn other_member(de: &mut Reader<'_>, fields: &[MemberName]) -> Result<Member> {
    let member = match de.string()? {
        Str::Borrowed(s) | Str::Decoded(s) => match fields.iter().position(|f| f.text == s) {
            Some(i) => Member::Field(i),
            None => Member::Other(s.to_owned()),
        },
    };
    de.eat(b':')?;
    Ok(member)
}

/// Whether `rest` starts with `name` and a closing quote. Names are short:
/// they are compared a word at a time (the first and last words overlap),
/// which costs less than a call of `memcmp` for each member of a document.
#[inline]
fn is_name(rest: &[u8], name: &[u8]) -> bool {
    let n = name.len();
    let Some(([head @ .., quote], _)) = rest.split_at_checked(n + 1) else {
        return false;
    };
    if *quote != b'"' {
        return false;
    }
    fn word<const W: usize>(s: &[u8], at: usize) -> Option<[u8; W]> {
        s.get(at..at + W)?.try_into().ok()
    }
    match n {
        0..4 => head.iter().zip(name).all(|(a, b)| a == b),
        4..8 => {
            word::<4>(head, 0) == word::<4>(name, 0)
                && word::<4>(head, n - 4) == word::<4>(name, n - 4)
        }
        _ => {
            (0..n - 8)
                .step_by(8)
                .all(|at| word::<8>(head, at) == word::<8>(name, at))
                && word::<8>(head, n - 8) == word::<8>(name, n - 8)
        }
    }
}

/// A member name found in `FIELDS`, handed over as its index there (what
/// the derive's member visitor takes in `visit_u64`).
struct Index(u64);

impl<'de> de::Deserializer<'de> for Index {
    type Error = GaveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u64(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de> de::MapAccess<'de> for Members<'_, 'de> {
    type Error = GaveUp;

    // Inlined into the loop of the struct's visitor (one per struct): a
    // call per member cost a sixth of the member (register saves and
    // restores), 5% of a dialog of 10 messages.
    #[inline(always)]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.advance()? {
            return Ok(None);
        }
        if let Some(i) = self.field()? {
            return seed.deserialize(Index(i as u64)).map(Some);
        }
        let key = seed.deserialize(Key { de: &mut *self.de })?;
        self.de.eat(b':')?;
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }
}

/// A member name: serde_json hands it to the visitor as a string, whatever
/// type is asked for; the fast reader does so only for strings.
struct Key<'a, 'de> {
    de: &'a mut Reader<'de>,
}

impl<'de> de::Deserializer<'de> for Key<'_, 'de> {
    type Error = GaveUp;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.de.string()? {
            Str::Borrowed(s) => visitor.visit_borrowed_str(s),
            Str::Decoded(s) => visitor.visit_str(s),
        }
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.string()?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        char unit unit_struct
    }

    give_up! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_seq deserialize_map
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: V,
    ) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        _: V,
    ) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value> {
        Err(GaveUp)
    }
}

#[cfg(test)]
mod list_tests;

#[cfg(test)]
mod member_tests;

#[cfg(test)]
mod tests {
    use super::*;

    /// What a member name arrived as: its index among the announced names,
    /// or its text.
    #[derive(Debug, PartialEq)]
    pub(super) enum Name {
        Index(u64),
        Text(String),
    }

    impl<'de> de::Deserialize<'de> for Name {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            struct V;
            impl Visitor<'_> for V {
                type Value = Name;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a member name")
                }
                fn visit_u64<E: de::Error>(self, i: u64) -> std::result::Result<Name, E> {
                    Ok(Name::Index(i))
                }
                fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<Name, E> {
                    Ok(Name::Text(s.to_owned()))
                }
            }
            d.deserialize_identifier(V)
        }
    }

    /// The member names of an object, as they arrived.
    pub(super) struct Names(pub(super) Vec<Name>);

    impl<'de> de::Deserialize<'de> for Names {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Names;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> std::result::Result<Names, A::Error> {
                    let mut names = Vec::new();
                    while let Some(name) = map.next_key::<Name>()? {
                        map.next_value::<de::IgnoredAny>()?;
                        names.push(name);
                    }
                    Ok(Names(names))
                }
            }
            d.deserialize_map(V)
        }
    }

    #[test]
    fn announced_names_arrive_as_their_index_once() {
        use Name::{Index, Text};
        let text = r#"{"b":1,"a":{"a":2},"c":3,"\u0061":4}"#;
        const A: &[MemberName] = &[MemberName::new("a")];
        const AB: &[MemberName] = &[MemberName::new("a"), MemberName::new("b")];
        let read = |announced: &'static [MemberName]| {
            let mut de = Reader::from_text(text);
            member_names(announced);
            let names = <Names as de::Deserialize>::deserialize(&mut de).map(|n| n.0);
            (names.ok(), NEXT_NAMES.get().len())
        };
        let text_of = |s: &str| Text(s.to_owned());
        // Announced: matched names as indexes (in any order), the others
        // (unknown, escaped) as text; taken, so that no map inside sees them.
        assert_eq!(
            read(AB),
            (
                Some(vec![Index(1), Index(0), text_of("c"), text_of("a")]),
                0
            )
        );
        // Not announced: every name as text.
        assert_eq!(
            read(&[]),
            (
                Some(vec![text_of("b"), text_of("a"), text_of("c"), text_of("a")]),
                0
            )
        );
        // A new reader forgets names announced before it.
        member_names(A);
        let mut de = Reader::from_text(r#"{"a":1}"#);
        let names = <Names as de::Deserialize>::deserialize(&mut de).map(|n| n.0);
        assert_eq!(names.ok(), Some(vec![text_of("a")]));
        // So does a reader of a whole document, and a seed's.
        member_names(A);
        assert_eq!(
            from_str_seed(r#"{"a":1}"#, std::marker::PhantomData::<Names>)
                .map(|n| n.0)
                .ok(),
            Some(vec![text_of("a")])
        );
    }

    #[test]
    fn a_string_ends_at_its_first_quote_backslash_or_control_character() {
        // Every byte value at every place of strings short and long (the
        // word scan, its remainder, an id's fifth word, and `memchr` with
        // the control pass after 32 bytes), on a filler that ends nowhere.
        let naive = |rest: &[u8]| {
            rest.iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        };
        for len in [
            0, 1, 7, 8, 9, 31, 32, 33, 36, 37, 40, 47, 48, 49, 64, 100, 159, 160, 161, 200,
        ] {
            for at in 0..len {
                for byte in 0..=255u8 {
                    let mut rest = vec![b'a'; len];
                    rest[at] = byte;
                    assert_eq!(string_end(&rest), naive(&rest), "{len} {at} {byte:#x}");
                    // A closing quote further on, and a control character
                    // after it, which does not count.
                    rest.extend_from_slice(b"x\"\x01");
                    assert_eq!(string_end(&rest), naive(&rest), "{len} {at} {byte:#x}");
                }
            }
        }
    }

    proptest::proptest! {
        /// A number read by the fast reader (its one-pass integers
        /// included) is the number serde_json reads from the same text, as
        /// `u64`, `i64` and `f64`, whatever follows it.
        #[test]
        fn numbers_read_as_serde_json_reads_them(
            number in "-?[0-9]{0,22}(\\.[0-9]{0,3})?([eE][+-]?[0-9]{1,3})?",
            after in proptest::sample::select(vec!["]", " ]", "0]", ".5]", "e1]", "-]", "x]", ",1]"]),
        ) {
            let text = format!("[{number}{after}");
            fn same<T>(text: &str) -> std::result::Result<(), proptest::test_runner::TestCaseError>
            where
                T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
            {
                let mut de = Reader::new(text.as_bytes());
                let ours = <Vec<T> as de::Deserialize>::deserialize(&mut de)
                    .ok()
                    .filter(|_| de.at_end());
                let theirs = serde_json::from_str::<Vec<T>>(text).ok();
                if let Some(ours) = ours {
                    proptest::prop_assert_eq!(Some(ours), theirs, "{}", text);
                }
                Ok(())
            }
            same::<u64>(&text)?;
            same::<i64>(&text)?;
            same::<f64>(&text)?;
        }

        /// `Reader::integer` reads what `de::Integer` reads on the same
        /// reader (value, or giving up, and where it stops), and a value it
        /// reads is the one serde_json's `Integer` read gives.
        #[test]
        fn integers_read_directly_as_by_the_integer_seed(
            number in "[ ]?-?[0-9]{0,22}(\\.[0-9]{0,3})?([eE][+-]?[0-9]{1,3})?",
            after in proptest::sample::select(vec!["", " ", "0", ".5", "e1", "-", "x", ",1", "}"]),
        ) {
            let text = format!("{number}{after}");
            fn same<T>(text: &str) -> std::result::Result<(), proptest::test_runner::TestCaseError>
            where
                T: crate::integer::WireInteger + PartialEq + std::fmt::Debug,
            {
                use serde::de::DeserializeSeed;
                let mut direct = Reader::new(text.as_bytes());
                let ours = direct.integer::<T>().ok();
                let mut seed = Reader::new(text.as_bytes());
                let theirs = crate::de::Integer::<T>::new().deserialize(&mut seed).ok();
                proptest::prop_assert_eq!(ours, theirs, "{}", text);
                proptest::prop_assert_eq!(direct.at, seed.at, "{}", text);
                if let Some(value) = ours {
                    let mut de = serde_json::Deserializer::from_str(text.get(..direct.at).unwrap_or_default());
                    let json = crate::de::Integer::<T>::new().deserialize(&mut de);
                    proptest::prop_assert_eq!(json.ok(), Some(value), "{}", text);
                }
                Ok(())
            }
            same::<u8>(&text)?;
            same::<u32>(&text)?;
            same::<u64>(&text)?;
            same::<i32>(&text)?;
            same::<i64>(&text)?;
        }

        /// A plain integer is never left to serde_json: the fast reader
        /// reads it (as `u64` when it fits, as `i64` when negative).
        #[test]
        fn plain_integers_are_read(n in proptest::prelude::any::<u64>(), m in proptest::prelude::any::<i64>()) {
            let text = format!("[{n},{m}]");
            let mut de = Reader::new(text.as_bytes());
            let got = <(u64, i64) as de::Deserialize>::deserialize(&mut de).ok();
            proptest::prop_assert_eq!(got, Some((n, m)));
        }
    }

    #[test]
    fn a_long_string_gives_the_first_control_character_not_a_space() {
        // Past an id's length, with a space before the control character.
        let mut rest = vec![b'a'; 50];
        rest[40] = b' ';
        rest[45] = 0x1f;
        rest.push(b'"');
        assert_eq!(string_end(&rest), Some(45));
    }

    #[test]
    fn whitespace_is_skipped_where_json_allows_it_and_nothing_else() {
        let names = |text: &str| {
            let mut de = Reader::from_text(text);
            let names = <Names as de::Deserialize>::deserialize(&mut de).map(|n| n.0);
            names.ok().filter(|_| de.at_end())
        };
        let text_of = |s: &str| Name::Text(s.to_owned());
        assert_eq!(
            names(" \t{ \"a\" :\r\n1 ,\n\t\"b\":[ 2 , 3 ] }\n "),
            Some(vec![text_of("a"), text_of("b")])
        );
        // A vertical tab, a form feed and a unit separator are no JSON
        // whitespace.
        for other in ['\u{0b}', '\u{0c}', '\u{1f}'] {
            assert_eq!(names(&format!("{{{other}\"a\":1}}")), None, "{other:?}");
        }
    }

    #[test]
    fn a_fixed_string_is_the_n_bytes_between_its_quotes_after_any_whitespace() {
        // What `fixed_str::<4>` gives and where the reader stands after
        // `skip_fixed_str` (or after the `None`).
        let fixed = |text: &str| {
            let mut de = Reader::from_text(text);
            let got = de.fixed_str::<4>().copied();
            if got.is_some() {
                de.skip_fixed_str::<4>();
            }
            (got, de.at)
        };
        assert_eq!(fixed(r#""abcd","#), (Some(*b"abcd"), 6));
        assert_eq!(fixed(" \t\r\n\"wxyz\"}"), (Some(*b"wxyz"), 10));
        // Not a string, a string of another length, a string cut short.
        assert_eq!(fixed("abcd"), (None, 0));
        assert_eq!(fixed(r#""abc""#), (None, 0));
        assert_eq!(fixed(r#""abcde""#), (None, 0));
        assert_eq!(fixed(r#""abcd"#), (None, 0));
        assert_eq!(fixed(" 1"), (None, 1));
    }

    #[test]
    fn the_next_token_is_compared_where_the_reader_stands_or_after_whitespace() {
        for (text, byte, is, at) in [
            (r#""a""#, b'"', true, 0),
            (" \n\t\r\"a\"", b'"', true, 4),
            ("1", b'"', false, 0),
            ("  1", b'"', false, 2),
            ("", b'"', false, 0),
            ("   ", b'"', false, 3),
            ("\u{0b}\"", b'"', false, 0),
        ] {
            let mut de = Reader::from_text(text);
            assert_eq!(de.next_is(byte), is, "{text:?}");
            assert_eq!(de.at, at, "{text:?}");
        }
    }

    #[test]
    fn a_string_with_escapes_is_decoded_after_its_plain_start() {
        let read = |text: &str| from_str_seed(text, std::marker::PhantomData::<String>).ok();
        assert_eq!(read(r#""ab\u0063d\n""#).as_deref(), Some("abcd\n"));
        assert_eq!(read(r#""\"x""#).as_deref(), Some("\"x"));
    }

    #[test]
    fn a_name_matches_whole_and_closed_by_its_quote() {
        // Every length the comparison treats apart: below 4, 4 to 7, 8,
        // and longer (whole words, then an overlapping last word).
        for name in [
            "",
            "a",
            "id",
            "abc",
            "mode",
            "status",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "protocol_version",
            "a_name_of_seventeen",
            "a_name_of_twenty_five_b",
            "a_name_of_thirty_three_bytes_long",
        ] {
            let n = name.as_bytes();
            let quoted = format!("{name}\":1");
            assert!(is_name(quoted.as_bytes(), n), "{name}");
            assert!(is_name(format!("{name}\"").as_bytes(), n), "{name}");
            // No closing quote, a longer name, input that ends early.
            assert!(!is_name(n, n), "{name}");
            assert!(!is_name(format!("{name}x\"").as_bytes(), n), "{name}");
            assert!(!is_name(&quoted.as_bytes()[..n.len()], n), "{name}");
            // One byte off anywhere in the name.
            for i in 0..n.len() {
                let mut off = quoted.clone().into_bytes();
                off[i] ^= 0x20;
                assert!(!is_name(&off, n), "{name} at {i}");
            }
        }
    }

    #[test]
    fn a_name_in_lanes_matches_whole_with_its_quote_and_colon() {
        // Every length from none to past two lanes (30 bytes and its quote
        // and colon fill them).
        let names: Vec<String> = (0..40)
            .map(|n| "abcdefghij".repeat(4)[..n].to_owned())
            .collect();
        // Enough input after the name for both lanes.
        let tail = ",\"x\":2,\"y\":3,\"z\":4}                             ";
        for name in &names {
            let text: &'static str = Box::leak(name.clone().into_boxed_str());
            let member = MemberName::new(text);
            let in_lanes = name.len() + 2 <= 32;
            let compact = format!("{name}\":1{tail}");
            assert_eq!(member.is_at(compact.as_bytes()), in_lanes, "{name:?}");
            // The slow comparison of the text takes what the lanes do not.
            assert!(is_name(compact.as_bytes(), name.as_bytes()), "{name:?}");
            // A space before the colon, a longer name, no quote.
            for other in [
                format!("{name}\" :1{tail}"),
                format!("{name}x\":1{tail}"),
                format!("{name}:1{tail}"),
            ] {
                assert!(!member.is_at(other.as_bytes()), "{name:?} in {other:?}");
            }
            // Input that ends within the lanes is left to the text
            // comparison.
            let lanes = if name.len() + 2 <= 16 { 16 } else { 32 };
            let short = format!("{name}\":1");
            assert_eq!(
                member.is_at(short.as_bytes()),
                in_lanes && short.len() >= lanes,
                "{name:?} at the end"
            );
            if let Some(shorter) = name
                .get(..name.len().saturating_sub(1))
                .filter(|_| !name.is_empty())
            {
                let text = format!("{shorter}\":1{tail}");
                assert!(!member.is_at(text.as_bytes()), "{name:?} in {text:?}");
            }
            // One byte off anywhere in the name, its quote or its colon.
            for i in 0..name.len() + 2 {
                let mut off = compact.clone().into_bytes();
                off[i] ^= 0x20;
                assert!(!member.is_at(&off), "{name:?} at {i}");
            }
        }
    }

    /// The number a reader visits, as serde_json's `Value` holds it.
    struct Num;

    impl Visitor<'_> for Num {
        type Value = serde_json::Value;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a number")
        }
        fn visit_u64<E>(self, v: u64) -> std::result::Result<serde_json::Value, E> {
            Ok(v.into())
        }
        fn visit_i64<E>(self, v: i64) -> std::result::Result<serde_json::Value, E> {
            Ok(v.into())
        }
        fn visit_f64<E>(self, v: f64) -> std::result::Result<serde_json::Value, E> {
            Ok(v.into())
        }
    }

    /// Plain integers read where they stand give what the whole number
    /// path gives (serde_json's own reading), and every other number token
    /// is left to it.
    #[test]
    fn plain_integers_read_in_place_as_any_number() {
        let mut texts: Vec<String> = [
            "0",
            "7",
            "10",
            "01",
            "00",
            "-0",
            "-1",
            "1.5",
            "0.0",
            "1e3",
            "1E3",
            "1+",
            "1-",
            "9999999999999999999",
            "10000000000000000000",
            "1234567890123456789",
            "12345678901234567890",
            "18446744073709551615",
            "18446744073709551616",
            "0e",
        ]
        .iter()
        .map(|t| (*t).to_owned())
        .collect();
        for digits in 1..=21 {
            texts.push("9".repeat(digits));
            texts.push(format!("1{}", "0".repeat(digits - 1)));
        }
        for text in &texts {
            for (input, rest) in [
                (text.clone(), ""),
                (format!("{text},"), ","),
                (format!("{text}]"), "]"),
            ] {
                let mut r = Reader::new(input.as_bytes());
                let plain = r.plain_u64();
                let mut whole = Reader::new(input.as_bytes());
                let any = whole.any_number(Num).ok();
                if let Some(n) = plain {
                    assert_eq!(any, Some(serde_json::Value::from(n)), "{input}");
                    assert_eq!(&input[r.at..], rest, "{input}");
                    assert_eq!(r.at, whole.at, "{input}");
                } else {
                    assert_eq!(r.at, 0, "{input}");
                    // Left out only where the whole path is not `visit_u64`
                    // of the digits.
                    let is_u64 = any.as_ref().is_some_and(|v| v.is_u64());
                    let long = text.len() >= 20;
                    assert!(!is_u64 || long, "{input}");
                }
            }
        }
        assert_eq!(Reader::new(b"123,").plain_u64(), Some(123));
        assert_eq!(
            Reader::new(b"1234567890123456789").plain_u64(),
            Some(1_234_567_890_123_456_789)
        );
    }

    #[test]
    fn an_enum_text_at_the_end_of_the_input_is_compared_in_place() {
        let spellings = [
            Spelling::new("completed"),
            Spelling::new("a-text-of-twenty-four-b"),
        ];
        for (rest, at) in [
            (&b"completed\"}}"[..], Some(0)),
            (b"completed\"", Some(0)),
            (b"completed\"}}                  ", Some(0)),
            (b"a-text-of-twenty-four-b\"}", Some(1)),
            (b"a-text-of-twenty-four-b\"", Some(1)),
            (b"a-text-of-twenty-four-b", None),
            (b"a-text-of-twenty-four-\"", None),
            (b"completed", None),
            (b"complete\"", None),
            (b"completeds\"", None),
            (b"completed\0", None),
            (b"", None),
        ] {
            assert_eq!(spelled_near_end(&spellings, rest), at, "{rest:?}");
        }
        // Read where it stands, as the string scan reads it.
        const VALUES: &[u8] = &[7];
        const SPELLINGS: &[Spelling] = &[Spelling::new("completed")];
        for text in ["\"completed\"", " \"completed\"", "\"complet\\u0065d\""] {
            let mut r = Reader::new(text.as_bytes());
            let read = r.read_spelled(SPELLINGS, VALUES, |s| (s == "completed").then_some(7));
            assert_eq!(read.ok(), Some(7), "{text}");
            assert!(r.at_end(), "{text}");
        }
    }

    #[test]
    fn a_known_name_is_found_at_its_index_expected_or_not() {
        const FIELDS: &[MemberName] = &[
            MemberName::new("id"),
            MemberName::new("i"),
            MemberName::new("name"),
            MemberName::new("items"),
            MemberName::new("a_long_member_name"),
            MemberName::new("a_member_name_longer_than_two_lanes"),
        ];
        // Compact JSON with enough input after the name for its lanes, and
        // the same names closer to the end or with a space before the
        // colon: these the text comparison finds.
        let pad = " ".repeat(40);
        for (text, expected, compact) in [
            (format!(r#"{{"id":1{pad}}}"#), Some(0), true),
            (format!(r#"{{"i":1{pad}}}"#), Some(1), true),
            (format!(r#"{{"name":1{pad}}}"#), Some(2), true),
            (format!(r#"{{"items":[]{pad}}}"#), Some(3), true),
            (format!(r#"{{"a_long_member_name":0{pad}}}"#), Some(4), true),
            (
                format!(r#"{{"a_member_name_longer_than_two_lanes":0{pad}}}"#),
                Some(5),
                false,
            ),
            (r#"{"id":1}"#.to_owned(), Some(0), false),
            (format!(r#"{{"name" :1{pad}}}"#), Some(2), false),
            (r#"{"a_long_member_name":0}"#.to_owned(), Some(4), false),
            (format!(r#"{{"item":1{pad}}}"#), None, false),
            (format!(r#"{{"n\u0061me":1{pad}}}"#), None, false),
            (r#"{"name"#.to_owned(), None, false),
        ] {
            let text = text.as_str();
            let mut de = Reader::from_text(text);
            de.at = 1;
            for next in 0..=FIELDS.len() {
                let members = Members {
                    de: &mut de,
                    first: true,
                    ended: false,
                    fields: FIELDS,
                    next,
                };
                assert_eq!(members.known_name(), expected, "{text} (next {next})");
                let lanes = expected
                    .filter(|_| compact)
                    .and_then(|i| Some((i, FIELDS.get(i)?.text.len())));
                assert_eq!(members.compact_name(), lanes, "{text} (next {next})");
            }
            // Names not announced are never matched.
            let members = Members {
                de: &mut de,
                first: true,
                ended: false,
                fields: &[],
                next: 0,
            };
            assert_eq!(members.known_name(), None, "{text}");
            assert_eq!(members.compact_name(), None, "{text}");
        }
    }

    /// The room made for a long array: the rest of the input at the length
    /// of the elements read so far, at most the rest's bytes, at least the
    /// elements read before the last one.
    #[test]
    fn room_is_made_from_the_rest_of_the_input() {
        let text = format!("[{}]", "0123456789,".repeat(100));
        let mut r = Reader::from_text(&text);
        // 5 elements of 10 bytes and their commas read, the sixth next:
        // 1,046 bytes left.
        r.at = 1 + 55;
        assert_eq!(r.input.len() - r.at, 1046);
        // By the text 1,046 * 5 / 55 = 95 more and an eighth, 106 (by the
        // memory 1,046 / 8 = 130).
        assert_eq!(r.more_room(1, 5, 8), 106);
        // Elements of 16 bytes: at most 1,046 / 16 = 65 more.
        assert_eq!(r.more_room(1, 5, 16), 65);
        // Elements of 1 KiB: the rest holds one, and doubling gives 5.
        assert_eq!(r.more_room(1, 5, 1024), 5);
        // Zero-sized elements: the text decides.
        assert_eq!(r.more_room(1, 5, 0), 106);
        // Longer elements so far: fewer of them in the rest.
        assert_eq!(r.more_room(1, 2, 8), 38 + 38 / 8);
        // At the end of the input: only the doubling.
        r.at = text.len();
        assert_eq!(r.more_room(1, 5, 8), 5);
    }
}
