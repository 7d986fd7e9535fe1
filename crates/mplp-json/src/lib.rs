//! The JSON engine of mplp-rs: how MPLP documents and logs are read from
//! bytes, below the protocol's types (mplp-core) and the `Wire` derive
//! (mplp-derive), whose generated code calls it.
//!
//! - [`fast`]: the fast reader, a serde `Deserializer` for the typed parse
//!   of input that is most likely valid, tried before serde_json's; it gives
//!   up (and serde_json reads the input again) at the first thing it does
//!   not handle, so it never has to produce an error of its own.
//! - [`exact`]: numbers kept exactly in free-form members
//!   ([`JsonObject`]: `18446744073709551617`, `1e400`), which a
//!   `serde_json::Value` cannot hold.
//! - [`nesting`]: input nested up to [`nesting::MAX_NESTING`] (1,024)
//!   levels instead of serde_json's 128, without recursion risk; deeper
//!   input is refused with [`Rule::JSON_DEPTH`].
//! - [`de`]: the deserialization helpers the derive's code calls (integer
//!   members, lists, missing, duplicate and unknown members), and
//!   [`de::raise`], which carries a [`Rule`] id through serde's errors.
//! - [`Rule`], [`Pointer`]: the stable id of a broken rule and the RFC 6901
//!   pointer of where, which every violation carries (mplp-core re-exports
//!   both); [`Wire`]: what the derive tells the engine about an object.
//! - [`JsonObject`], [`StrictValue`]: free-form values that refuse
//!   duplicate keys at any depth.
//! - [`utf8`]: the one UTF-8 check of a document or log line before its
//!   typed parse, by the `simdutf8` crate (vectorised) rather than std's.
//!
//! # Thread-local state
//! serde's `Deserializer` and `Visitor` interfaces carry no context, so the
//! engine keeps some beside them, each on the reading thread, set and taken
//! within one parse:
//! - the member names of the object the derive's code is about to read
//!   ([`fast::member_names`], through the guard [`fast::Announced`]): the
//!   fast reader compares names where they stand and hands over indexes;
//! - the rule id of the last error raised ([`de::raise`],
//!   [`de::take_raised`]): serde errors carry only a message;
//! - whether a free-form member nested past serde_json's limit or held a
//!   number read as `f64`, and whether stand-ins are being written
//!   ([`exact::take_deep_member`], [`exact::write_stand_ins`]).
//!
//! # Why not simd-json or sonic-rs
//! Both read JSON into their own value types faster than serde_json does;
//! mplp-rs reads into typed documents through serde, and there this engine
//! is faster than either, measured in one run on the documents and logs of
//! `crates/mplp/examples/perf_report.rs` (ratios against
//! `serde_json::from_slice::<Value>` on the same bytes, higher is faster;
//! medians of 5 interleaved rounds, on a loaded two-core machine):
//!
//! | document | mplp `from_json` | simd-json serde | sonic-rs serde | simd-json `Value` | sonic-rs `Value` |
//! |---|---|---|---|---|---|
//! | plan, 10 steps | 3.24 | 2.11 | 2.13 | 1.17 | 6.27 |
//! | plan, 1000 steps | 3.67 | 2.41 | 2.75 | 1.30 | 6.94 |
//! | dialog, 100 messages | 4.12 | 2.71 | 3.09 | 1.49 | 10.26 |
//! | collab, 8 participants | 4.78 | 2.56 | 2.35 | 1.26 | 7.53 |
//! | MAP log (per line) | 2.56 | 1.19 | 2.07 | 0.87 | 4.12 |
//! | SA log (per line) | 2.17 | 0.97 | 1.68 | 0.78 | 2.99 |
//!
//! "serde" is each parser's serde `Deserializer` driving our types (the
//! same visitors, so the same verdicts and the module's rules); `from_json`
//! does that work too. sonic-rs's `Value` is lazy and untyped: it does not
//! build a document, so it is no contender for a validator. Beyond speed,
//! each would bring what this engine is here to avoid:
//! - `unsafe` code (both are built on it; this workspace forbids `unsafe`),
//!   and simd-json needs a mutable copy of the input;
//! - a second set of verdicts: the fast reader accepts exactly what
//!   serde_json accepts, with the same visits, since serde_json's errors are
//!   the ones reported (an input one parser accepts and the other refuses is
//!   a validator bug); duplicate keys, exact numbers and the nesting limit
//!   would have to be re-done on top of either;
//! - the derive's member-name handshake (names compared in place and handed
//!   over as indexes), which neither offers.
//!
//! The command (its own workspace, so that neither parser is a dependency
//! of this one): `cargo run --release --manifest-path
//! benches/json-engines/Cargo.toml -- 5 100` (simd-json 0.19, sonic-rs 0.5,
//! rustc 1.95).
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod de;
pub mod exact;
pub mod fast;
pub mod integer;
pub mod nesting;
mod pointer;
mod rule;
mod value;
mod wire;

/// `input` as text when it is UTF-8 (`None` when it is not): what
/// `std::str::from_utf8(input).ok()` gives, checked by simdutf8's
/// vectorised validator (AVX2 or SSE 4.2 where the processor has them,
/// std's own below 64 bytes).
///
/// Every document and every log line is checked once before the typed
/// parse (see mplp-core's `document`); std's check reads one or two words
/// at a time and costs about one instruction a byte on compact JSON, a
/// twentieth of the validation of an SA log line. simdutf8 is the
/// well-kept crate for this job (serde_json's dependents simd-json and
/// arrow use it), already in the dependency tree, and its `basic` check
/// answers only valid or not, which is all this needs.
///
/// ```
/// assert_eq!(mplp_json::utf8(b"{\"a\":\"\xc3\xa9\"}"), Some("{\"a\":\"é\"}"));
/// assert_eq!(mplp_json::utf8(b"\xff"), None);
/// ```
#[inline]
pub fn utf8(input: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(input).ok()
}

pub use pointer::Pointer;
pub use rule::Rule;
pub use value::{JsonObject, StrictValue};
pub use wire::Wire;

#[cfg(test)]
mod tests {
    #[test]
    fn utf8_is_the_text_of_valid_input_only() {
        // Below and above simdutf8's 64-byte chunk, ASCII and not.
        for text in ["", "{}", "é", &"é".repeat(70), &"a".repeat(200)] {
            assert_eq!(super::utf8(text.as_bytes()), Some(text));
        }
        let mut long = "a".repeat(100).into_bytes();
        long[80] = 0xff;
        for bad in [&b"\xff"[..], b"a\xc3", &long] {
            assert_eq!(super::utf8(bad), None);
        }
    }
}
