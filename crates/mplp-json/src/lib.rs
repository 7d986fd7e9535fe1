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
//! Both are faster than serde_json at reading JSON into their own value
//! types, but mplp-rs reads into typed documents through serde, where
//! neither keeps its lead over this reader, and each would bring what the
//! engine is here to avoid:
//! - `unsafe` code (both are built on it; this workspace forbids `unsafe`
//!   and would have to trust theirs), and `simd-json` needs a mutable copy
//!   of the input;
//! - a second set of verdicts: the fast reader must accept exactly what
//!   serde_json accepts, with the same visits, since serde_json's errors are
//!   the ones reported (an input one parser accepts and the other refuses is
//!   a validator bug); duplicate keys, exact numbers and the nesting limit
//!   would have to be re-done on top of each;
//! - the derive's member-name handshake (names compared in place and
//!   handed over as indexes), which they cannot offer.
//!
//! The measurement (documents of `crates/mplp/examples/perf_report.rs`, read
//! in one run by each parser; figures of this machine):
//! see `benches/json-engines/` in the repository and the CHANGELOG.
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

pub use pointer::Pointer;
pub use rule::Rule;
pub use value::{JsonObject, StrictValue};
pub use wire::Wire;
