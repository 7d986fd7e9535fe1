//! Typed identifiers: one validated newtype per entity.
//!
//! MPLP identifiers (`common/identifiers.schema.json`) are UUID v4 strings in
//! canonical form: lowercase, hyphenated, version nibble `4`, variant nibble
//! `8`, `9`, `a` or `b`. [`uuid::Uuid::parse_str`] accepts much more (upper
//! case, braces, `urn:uuid:`, no hyphens, other versions), so the check is ours.
//! A value of an id type is always canonical; writing it gives back the text it
//! was read from.

use std::fmt;

use uuid::Uuid;

/// Why a text is not a canonical MPLP identifier.
///
/// ```
/// use mplp_core::{IdError, PlanId};
/// assert!(matches!("ctx-123".parse::<PlanId>(), Err(IdError::NotUuid { .. })));
/// assert!(matches!("550E8400-E29B-41D4-A716-446655440000".parse::<PlanId>(), Err(IdError::NotLowercase)));
/// assert!(matches!("123e4567-e89b-12d3-a456-426614174000".parse::<PlanId>(), Err(IdError::NotVersion4 { found: 1 })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum IdError {
    /// Not a hyphenated UUID (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`) at all.
    #[error(
        "not a UUID: expected 36 characters in the form xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx ({reason})"
    )]
    NotUuid {
        /// What is wrong with the text.
        reason: &'static str,
    },
    /// A UUID with upper-case hex digits.
    #[error("not lowercase: MPLP identifiers are written in lowercase hex")]
    NotLowercase,
    /// A UUID of another version.
    #[error("not a version 4 UUID: found version {found} (the 13th hex digit must be 4)")]
    NotVersion4 {
        /// The version nibble found.
        found: u8,
    },
    /// A UUID of another variant.
    #[error("not an RFC 4122 variant UUID: the 17th hex digit must be 8, 9, a or b")]
    WrongVariant,
}

/// Parses the canonical lowercase hyphenated UUID v4 form, and nothing else.
///
/// ```
/// let u = mplp_core::id::parse_canonical_v4("550e8400-e29b-41d4-a716-446655440000").unwrap();
/// assert_eq!(u.get_version_num(), 4);
/// ```
#[inline]
pub fn parse_canonical_v4(s: &str) -> Result<Uuid, IdError> {
    match parse_fast(s.as_bytes()) {
        Some(u) => Ok(u),
        None => diagnose(s),
    }
}

/// `0x01` in every byte of a `u64`: `ONES * c` repeats the byte `c` in all
/// eight lanes.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The top bit of every byte of a `u64`.
const TOP: u64 = ONES * 0x80;

/// The 32 hex digits of a hyphenated UUID text, hyphens left out, read as
/// four big-endian words of eight ASCII bytes each (the first digit in the
/// most significant lane, so that the nibbles come out in reading order).
///
/// Each word is put together from loads of the text itself (8 bytes, or two
/// groups of 4 around a hyphen): no digits are copied to a buffer first,
/// whose 8-byte reads the processor could not forward from the 4-byte
/// writes that filled it.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn hex_words(b: &[u8; 36]) -> [u64; 4] {
    let u64_at = |at: usize| {
        b.get(at..at + 8)
            .and_then(|w| w.first_chunk::<8>())
            .map_or(0, |w| u64::from_be_bytes(*w))
    };
    let u32_at = |at: usize| {
        b.get(at..at + 4)
            .and_then(|w| w.first_chunk::<4>())
            .map_or(0, |w| u64::from(u32::from_be_bytes(*w)))
    };
    // Two 32-bit halves: the sum is the two side by side.
    [
        u64_at(0),
        (u32_at(9) << 32) + u32_at(14),
        (u32_at(19) << 32) + u32_at(24),
        u64_at(28),
    ]
}

/// Eight lowercase hex digits to their 32-bit value, all lanes at once (SWAR:
/// SIMD within a register). The second value is `true` when every byte was
/// in `0-9` or `a-f`; when it is `false` the first is meaningless.
///
/// No step can carry from one byte lane into the next (the bounds are in the
/// comments), so each lane behaves as its own little 8-bit computation, and
/// none can overflow the `u64` either.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn hex8(x: u64) -> (u32, bool) {
    // Validation. With the top bit of each lane cleared (`v <= 0x7f`),
    // `v + (0x80 - lo)` stays <= 0xff and has its top bit set exactly when
    // `v >= lo`; likewise `v + (0x7f - hi)` has it set exactly when `v > hi`.
    let low7 = x & !TOP;
    let ge_0 = low7 + ONES * (0x80 - b'0' as u64);
    let gt_9 = low7 + ONES * (0x7f - b'9' as u64);
    let ge_a = low7 + ONES * (0x80 - b'a' as u64);
    let gt_f = low7 + ONES * (0x7f - b'f' as u64);
    // Top bit of a lane: in '0'..='9' or in 'a'..='f', and not a byte >= 0x80
    // (whose top bit the comparisons did not see).
    let ok = ((ge_0 & !gt_9) | (ge_a & !gt_f)) & !x & TOP;

    // Values. A digit '0'..='9' is 0x30..=0x39: its low nibble is its value.
    // A letter 'a'..='f' is 0x61..=0x66: its low nibble is 1..=6, 9 short of
    // its value, and only letters have bit 6 (0x40) set. So a lane's value is
    // `(c & 0x0f) + 9 * bit6(c)`: at most 15 + 9, no carry out of the lane.
    let letter = (x >> 6) & ONES;
    let nib = (x & (ONES * 0x0f)) + letter * 9;

    // Packing. Lanes are in reading order from the top, so digit pair
    // `(hi, lo)` sits in lanes `(2k, 2k + 1)`, `hi` in the more significant
    // one. `nib >> 4` moves `hi` into the upper nibble of `lo`'s lane (whose
    // upper nibble is zero when valid); or-ing gives `hi << 4 | lo` in every
    // odd lane. Keep those four lanes, then close the gaps between them:
    // first pairs of bytes, then pairs of 16-bit halves.
    let pairs = ((nib >> 4) | nib) & 0x00ff_00ff_00ff_00ff;
    let pairs = (pairs | (pairs >> 8)) & 0x0000_ffff_0000_ffff;
    let word = (pairs | (pairs >> 16)) & 0xffff_ffff;
    (word as u32, ok == TOP)
}

/// The happy path: `Some` exactly for a canonical text (lowercase hex,
/// hyphens at 8, 13, 18 and 23, version digit `4`, variant digit `8`, `9`,
/// `a` or `b`), with its value; `None` for anything else, and [`diagnose`]
/// then says why.
///
/// On x86-64 the 36 bytes are read as five overlapping 16-byte vectors and
/// checked and converted with SSE2 ([`sse2::scan`]); elsewhere as four
/// 8-byte words ([`parse_swar`]). Both are property-tested against a
/// table-driven reference and each other.
#[inline]
fn parse_fast(b: &[u8]) -> Option<Uuid> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        let b: &[u8; 36] = b.try_into().ok()?;
        let scan = sse2::scan(b);
        // Once every digit is a lowercase hex digit, the version digit is
        // '4' exactly when the high nibble of byte 6 is 4, and the variant
        // digit is '8', '9', 'a' or 'b' exactly when the top two bits of
        // byte 8 are `10`.
        let bytes = scan.value.as_bytes();
        let version = bytes[6] >> 4 == 4;
        let variant = bytes[8] >> 6 == 0b10;
        (scan.hyphens & scan.lower & version & variant).then_some(scan.value)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        parse_swar(b)
    }
}

/// [`parse_canonical_v4`] of exactly 36 bytes, without the error: the
/// fast reader's read of an id whose string token is 36 bytes long
/// (`Reader::fixed_str`: a canonical id holds only hex digits and
/// hyphens, so the 36 bytes are the whole token, unescaped). An
/// implementation detail of the id types' `Direct` reads.
#[doc(hidden)]
#[inline(always)]
pub fn parse_canonical_v4_fixed(b: &[u8; 36]) -> Option<Uuid> {
    parse_fast(b)
}

/// A hyphenated UUID text of JSON Schema `format: uuid`: 36 bytes, hyphens
/// at 8, 13, 18 and 23, hex digits of either case elsewhere (any version
/// and variant). Its value, and `true` when no digit is an upper-case
/// letter; `None` for any other text. An implementation detail of
/// `mplp_events::SchemaUuid` (which keeps the text of an upper-case UUID),
/// here so that both share the vectorised reader.
///
/// ```
/// use mplp_core::id::parse_format_uuid;
/// let lower = "f308a72c-fa84-11eb-9a03-0242ac130003";
/// assert_eq!(parse_format_uuid(lower.as_bytes()), Some((lower.parse().unwrap(), true)));
/// let upper = "F308A72C-FA84-11EB-9A03-0242AC130003";
/// assert_eq!(parse_format_uuid(upper.as_bytes()), Some((lower.parse().unwrap(), false)));
/// assert_eq!(parse_format_uuid(b"f308a72cfa8411eb9a030242ac130003"), None);
/// ```
#[doc(hidden)]
#[inline(always)]
pub fn parse_format_uuid(b: &[u8]) -> Option<(Uuid, bool)> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        let b: &[u8; 36] = b.try_into().ok()?;
        let scan = sse2::scan(b);
        if scan.hyphens & scan.lower {
            Some((scan.value, true))
        } else if scan.hyphens && sse2::any_case(b) {
            // The value of an upper-case letter is that of its lower case.
            Some((scan.value, false))
        } else {
            None
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        match parse_swar_any_version(b) {
            Some(u) => Some((u, true)),
            None => format_uuid_slow(b),
        }
    }
}

/// [`parse_format_uuid`] of any text, one byte at a time: the reference of
/// the fast paths' tests, and the portable path's answer for what its word
/// reader does not take (upper case and errors).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[cold]
#[inline(never)]
fn format_uuid_slow(b: &[u8]) -> Option<(Uuid, bool)> {
    if b.len() != 36 {
        return None;
    }
    // Of 36 bytes, the uuid crate's parser accepts exactly the hyphenated
    // form: hyphens at 8, 13, 18 and 23, hex digits of either case elsewhere.
    let u = Uuid::try_parse_ascii(b).ok()?;
    Some((u, !b.iter().any(u8::is_ascii_uppercase)))
}

/// The portable word-at-a-time reader: the 36 bytes as four 8-byte words of
/// hex digits, checked and converted a word at a time (see [`hex8`]), no
/// table and no allocation. `Some` for lowercase hyphenated hex of any
/// version and variant.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn parse_swar_any_version(b: &[u8]) -> Option<Uuid> {
    let b: &[u8; 36] = b.try_into().ok()?;
    let hyphens = (b[8] == b'-') & (b[13] == b'-') & (b[18] == b'-') & (b[23] == b'-');
    let [w0, w1, w2, w3] = hex_words(b);
    let (h0, ok0) = hex8(w0);
    let (h1, ok1) = hex8(w1);
    let (h2, ok2) = hex8(w2);
    let (h3, ok3) = hex8(w3);
    let v =
        (u128::from(h0) << 96) | (u128::from(h1) << 64) | (u128::from(h2) << 32) | u128::from(h3);
    // `&` rather than `&&`: every check is cheap, none needs skipping.
    (hyphens & ok0 & ok1 & ok2 & ok3).then(|| Uuid::from_u128(v))
}

/// [`parse_fast`] without SIMD: [`parse_swar_any_version`], then the
/// version and variant. Once every digit is a lowercase hex digit, the digit
/// is '4' exactly when its nibble is 4, and in '8', '9', 'a', 'b' exactly
/// when its nibble is 0b10xx.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn parse_swar(b: &[u8]) -> Option<Uuid> {
    let u = parse_swar_any_version(b)?;
    let v = u.as_u128();
    // The 13th digit is the high nibble of byte 6, the 17th the high nibble
    // of byte 8 (bits 79..76 and 63..60 of `v`).
    let version = (v >> 76) & 0xf == 4;
    let variant = (v >> 62) & 0b11 == 0b10;
    (version & variant).then_some(u)
}

/// The SSE2 reader of hyphenated UUID texts (x86-64, where SSE2 is always
/// there; safe wrappers of the `safe_arch` crate, no `unsafe`).
///
/// Kept by hand (the `uuid` crate's parser looks every digit up in a table,
/// and checks no MPLP rule): measured with callgrind on an SA log (`mplp
/// validate --kind sa-log`, 20,000 lines, 36,000 UUIDs), the word-at-a-time
/// reader ([`parse_swar`]) took 152 instructions a UUID, this one about 60
/// (78 for a whole `SchemaUuid` read through its serde visitor, 181 before).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use safe_arch::{
        add_i8_m128i, cmp_eq_mask_i8_m128i, cmp_gt_mask_i8_m128i, cmp_lt_mask_i8_m128i,
        load_unaligned_m128i, m128i, move_mask_i8_m128i, pack_i16_to_u8_m128i, set_splat_i8_m128i,
        shl_imm_u16_m128i, shr_imm_u16_m128i,
    };
    use uuid::Uuid;

    /// What [`scan`] read.
    pub(super) struct Scan {
        /// The value of the 32 digits (meaningless unless they are hex
        /// digits; an upper-case letter counts as its lower case).
        pub(super) value: Uuid,
        /// Hyphens at 8, 13, 18 and 23.
        pub(super) hyphens: bool,
        /// Every other byte is `0-9` or `a-f`.
        pub(super) lower: bool,
    }

    /// The 16 bytes from `AT` (`AT + 16 <= 36`; zeros otherwise, which no
    /// caller asks for).
    #[inline(always)]
    fn load<const AT: usize>(b: &[u8; 36]) -> m128i {
        b.get(AT..AT + 16)
            .and_then(|w| w.first_chunk::<16>())
            .map_or(m128i::default(), load_unaligned_m128i)
    }

    /// `0xff` in lanes `LO..HI`, `0` elsewhere: a constant (built with
    /// `array::from_fn` at run time, the mask was left a loop of calls
    /// once the read was inlined into a large reader, 157 instructions a
    /// mask, callgrind).
    #[inline(always)]
    fn lanes<const LO: usize, const HI: usize>() -> m128i {
        const fn mask(lo: usize, hi: usize) -> [u8; 16] {
            let mut m = [0u8; 16];
            let mut i = lo;
            while i < hi && i < 16 {
                m[i] = 0xff;
                i += 1;
            }
            m
        }
        m128i::from(const { mask(LO, HI) })
    }

    /// `c` in every lane.
    #[inline(always)]
    fn splat(c: u8) -> m128i {
        set_splat_i8_m128i(c as i8)
    }

    /// The 32 digits of the text, hyphens left out, in order: digits 0-15
    /// (bytes 0-7, 9-12, 14-17) and 16-31 (bytes 19-22, 24-35), each lane
    /// taken from a load that has the byte in that lane.
    #[inline(always)]
    fn digits(b: &[u8; 36]) -> [m128i; 2] {
        let x = (load::<0>(b) & lanes::<0, 8>())
            | (load::<1>(b) & lanes::<8, 12>())
            | (load::<2>(b) & lanes::<12, 16>());
        let y = (load::<19>(b) & lanes::<0, 4>()) | (load::<20>(b) & lanes::<4, 16>());
        [x, y]
    }

    /// `0xff` in the lanes of `v` that hold `lo..lo + n`: with the bias
    /// `0x80 - lo` the range moves to the bottom of the signed bytes, where
    /// one signed compare finds it.
    #[inline(always)]
    fn in_range(v: m128i, lo: u8, n: u8) -> m128i {
        let bias = 0x80u8.wrapping_sub(lo);
        cmp_lt_mask_i8_m128i(add_i8_m128i(v, splat(bias)), splat(0x80 + n))
    }

    /// Reads a 36-byte text as a hyphenated UUID: the value of its digits,
    /// whether the hyphens are in place, and whether every digit is `0-9`
    /// or `a-f`. About 60 instructions, no branch.
    #[inline(always)]
    pub(super) fn scan(b: &[u8; 36]) -> Scan {
        // Bytes 8-23 hold the four hyphens, in lanes 0, 5, 10 and 15.
        let dashes = move_mask_i8_m128i(cmp_eq_mask_i8_m128i(load::<8>(b), splat(b'-')));
        let hyphens = dashes & 0x8421 == 0x8421;
        let [x, y] = digits(b);
        let hex = |v| in_range(v, b'0', 10) | in_range(v, b'a', 6);
        let lower = move_mask_i8_m128i(hex(x) & hex(y)) == 0xffff;
        // A digit's value: its low nibble, plus 9 for a letter (the only
        // bytes above 0x40 that pass the check).
        let nibbles = |v| {
            let letter = cmp_gt_mask_i8_m128i(v, splat(0x40));
            add_i8_m128i(v & splat(0x0f), letter & splat(9))
        };
        // Each 16-bit lane holds a digit pair (first digit in the low byte):
        // `first << 4 | second` in its low byte, then the low bytes packed.
        let pairs = |v| {
            let n = nibbles(v);
            (shl_imm_u16_m128i::<4>(n) | shr_imm_u16_m128i::<8>(n)) & m128i::from([0x00ffu16; 8])
        };
        let bytes: [u8; 16] = pack_i16_to_u8_m128i(pairs(x), pairs(y)).into();
        Scan {
            value: Uuid::from_bytes(bytes),
            hyphens,
            lower,
        }
    }

    /// Whether every digit of the text (hyphens not looked at) is a hex
    /// digit of either case: the rare case [`scan`] leaves open.
    #[cold]
    #[inline(never)]
    pub(super) fn any_case(b: &[u8; 36]) -> bool {
        let [x, y] = digits(b);
        let hex = |v| in_range(v, b'0', 10) | in_range(v, b'a', 6) | in_range(v, b'A', 6);
        move_mask_i8_m128i(hex(x) & hex(y)) == 0xffff
    }
}

/// The slow path: finds out what is wrong with a non-canonical text.
#[cold]
#[inline(never)]
fn diagnose(s: &str) -> Result<Uuid, IdError> {
    let b = s.as_bytes();
    if b.len() != 36 {
        return Err(IdError::NotUuid {
            reason: "wrong length",
        });
    }
    let mut upper = false;
    for (i, &c) in b.iter().enumerate() {
        if matches!(i, 8 | 13 | 18 | 23) {
            if c != b'-' {
                return Err(IdError::NotUuid {
                    reason: "hyphens must be at positions 9, 14, 19 and 24",
                });
            }
        } else if c.is_ascii_uppercase() && c.is_ascii_hexdigit() {
            upper = true;
        } else if !(c.is_ascii_digit() || (b'a'..=b'f').contains(&c)) {
            return Err(IdError::NotUuid {
                reason: "only hex digits and hyphens are allowed",
            });
        }
    }
    if upper {
        return Err(IdError::NotLowercase);
    }
    if b[14] != b'4' {
        let found = (b[14] as char).to_digit(16).unwrap_or(0) as u8;
        return Err(IdError::NotVersion4 { found });
    }
    if !matches!(b[19], b'8' | b'9' | b'a' | b'b') {
        return Err(IdError::WrongVariant);
    }
    Uuid::try_parse(s).map_err(|_| IdError::NotUuid {
        reason: "not parseable",
    })
}

/// Defines a typed MPLP identifier: a `Copy` newtype over [`uuid::Uuid`] that
/// only holds canonical lowercase v4 UUIDs.
///
/// The generated type has `new()` (a fresh random v4), `FromStr`, `Display`,
/// serde as a string, `TryFrom<Uuid>`, `as_uuid()`, and the schema rule check.
/// Module crates use it for ids that live in their own crate.
///
/// ```
/// mplp_core::mplp_id! {
///     /// Identifies a widget.
///     pub struct WidgetId;
/// }
/// let id = WidgetId::new();
/// let back: WidgetId = id.to_string().parse().unwrap();
/// assert_eq!(id, back);
/// ```
#[macro_export]
macro_rules! mplp_id {
    ($(#[$meta:meta])* $vis:vis struct $name:ident;) => {
        $(#[$meta])*
        ///
        /// Always a lowercase, hyphenated UUID v4 (`common/identifiers.schema.json`).
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis struct $name($crate::__private::uuid::Uuid);

        impl $name {
            /// A fresh random (v4) identifier.
            #[allow(clippy::new_without_default)]
            pub fn new() -> Self {
                $name($crate::__private::uuid::Uuid::new_v4())
            }

            /// The identifier as a [`uuid::Uuid`].
            pub const fn as_uuid(&self) -> &$crate::__private::uuid::Uuid {
                &self.0
            }

            /// Parses the canonical form (see [`parse_canonical_v4`]($crate::id::parse_canonical_v4)).
            pub fn parse(s: &str) -> ::core::result::Result<Self, $crate::IdError> {
                $crate::id::parse_canonical_v4(s).map($name)
            }

            /// The same identifier as an [`MplpId`]($crate::MplpId), the id
            /// of any module (what a `Ref` or a Confirm's target holds).
            pub fn to_mplp_id(self) -> $crate::MplpId {
                $crate::__private::mplp_id_of(self.0)
            }
        }

        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({})", stringify!($name), self.0.hyphenated())
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Display::fmt(&self.0.hyphenated(), f)
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::IdError;
            fn from_str(s: &str) -> ::core::result::Result<Self, $crate::IdError> {
                Self::parse(s)
            }
        }

        impl ::core::convert::TryFrom<$crate::__private::uuid::Uuid> for $name {
            type Error = $crate::IdError;
            fn try_from(u: $crate::__private::uuid::Uuid) -> ::core::result::Result<Self, $crate::IdError> {
                if u.get_version_num() != 4 {
                    return Err($crate::IdError::NotVersion4 { found: u.get_version_num() as u8 });
                }
                if u.get_variant() != $crate::__private::uuid::Variant::RFC4122 {
                    return Err($crate::IdError::WrongVariant);
                }
                Ok($name(u))
            }
        }

        impl ::core::convert::From<$name> for $crate::__private::uuid::Uuid {
            fn from(id: $name) -> Self {
                id.0
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                let mut buf = $crate::__private::uuid::Uuid::encode_buffer();
                s.serialize_str(self.0.hyphenated().encode_lower(&mut buf))
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            #[inline]
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                d.deserialize_str($crate::id::IdVisitor::new(stringify!($name))).map($name)
            }
        }

        /// The fast reader's read: the same value as `Deserialize`.
        impl $crate::__private::mplp_json::fast::Direct for $name {
            #[inline]
            fn read(r: &mut $crate::__private::mplp_json::fast::Reader<'_>) -> ::core::result::Result<Self, $crate::__private::mplp_json::fast::GaveUp> {
                if let ::core::option::Option::Some(u) = r.fixed_str::<36>().and_then($crate::id::parse_canonical_v4_fixed) {
                    r.skip_fixed_str::<36>();
                    return ::core::result::Result::Ok($name(u));
                }
                r.read_str(|s| $name::parse(s).ok())
            }
        }

        impl $crate::check::CheckValue for $name {
            fn check_value(value: &$crate::__private::serde_json::Value, at: &$crate::Pointer, report: &mut $crate::Report) {
                $crate::id::check_id_value(value, at, report)
            }
        }

        $crate::__schemars_string!($name, {
            "type": "string",
            "pattern": $crate::id::ID_PATTERN
        });
    };
}

/// The schema pattern of a canonical identifier.
pub const ID_PATTERN: &str =
    "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$";

/// Serde visitor shared by every id type (an implementation detail of
/// [`mplp_id!`](crate::mplp_id)): the [`Uuid`], which the id type wraps.
///
/// One visitor for every id type, and the happy path inlined where the id
/// is read: a [`Uuid`] returned through memory from a function of its own
/// was written as two 8-byte halves and read back at once as one 16-byte
/// value, which the processor cannot forward from its store buffer (a stall
/// of some 15 cycles per id, a third of reading one).
#[doc(hidden)]
pub struct IdVisitor {
    name: &'static str,
}

impl IdVisitor {
    #[doc(hidden)]
    #[inline]
    pub fn new(name: &'static str) -> Self {
        IdVisitor { name }
    }
}

impl serde::de::Visitor<'_> for IdVisitor {
    type Value = Uuid;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {} (lowercase UUID v4 string)", self.name)
    }
    #[inline]
    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Uuid, E> {
        match parse_canonical_v4(s) {
            Ok(u) => Ok(u),
            Err(e) => Err(refuse_id(self.name, s, e)),
        }
    }
}

/// The error of an id text that is not canonical (the cold side of
/// [`IdVisitor`]).
#[cold]
#[inline(never)]
fn refuse_id<E: serde::de::Error>(name: &str, s: &str, e: IdError) -> E {
    mplp_json::de::raise(
        crate::Rule::PATTERN,
        format_args!("invalid {name} `{s}`: {e}"),
    )
}

/// The `pattern` check of an identifier value (an implementation detail of [`mplp_id!`](crate::mplp_id)).
#[doc(hidden)]
pub fn check_id_value(value: &serde_json::Value, at: &crate::Pointer, report: &mut crate::Report) {
    if let Some(s) = crate::check::expect_str(value, at, report) {
        if let Err(e) = parse_canonical_v4(s) {
            report.error(
                at,
                crate::Rule::PATTERN,
                format!("`{s}` is not an MPLP identifier: {e}"),
            );
        }
    }
}

mplp_id! {
    /// Identifies a Context (the root every other document belongs to).
    pub struct ContextId;
}
mplp_id! {
    /// Identifies a Dialog.
    pub struct DialogId;
}
mplp_id! {
    /// Identifies a dialog thread (a group of related dialogs).
    pub struct ThreadId;
}
mplp_id! {
    /// Identifies a Plan.
    pub struct PlanId;
}
mplp_id! {
    /// Identifies a step of a Plan.
    pub struct StepId;
}
mplp_id! {
    /// Identifies a Collab session (also the `session_id` of MAP events).
    pub struct CollabId;
}
mplp_id! {
    /// Identifies an event.
    pub struct EventId;
}
mplp_id! {
    /// Identifies a trace (a whole execution chain).
    pub struct TraceId;
}
mplp_id! {
    /// Identifies a span (one operation within a trace).
    pub struct SpanId;
}
mplp_id! {
    /// Identifies a Confirm (an approval request and its decisions).
    pub struct ConfirmId;
}
mplp_id! {
    /// An identifier of any MPLP object, used where the schema does not say
    /// which kind (for example the `id` of a [`Ref`](crate::Ref)).
    pub struct MplpId;
}

/// Every typed id of this crate converts to an untyped [`MplpId`] without a
/// check (each holds a canonical v4 UUID): for the `id` of a [`Ref`](crate::Ref)
/// or the target of a Confirm.
///
/// ```
/// use mplp_core::{MplpId, PlanId};
/// let plan = PlanId::new();
/// assert_eq!(MplpId::from(plan).to_string(), plan.to_string());
/// ```
/// The [`MplpId`] of the UUID of another id type (an implementation detail
/// of [`mplp_id!`]: every id type holds a v4 UUID already).
#[doc(hidden)]
pub fn mplp_id_of(uuid: uuid::Uuid) -> MplpId {
    MplpId(uuid)
}

macro_rules! into_mplp_id {
    ($($t:ident),*) => {
        $(
            impl From<$t> for MplpId {
                fn from(id: $t) -> MplpId {
                    MplpId(id.0)
                }
            }
        )*
    };
}
into_mplp_id!(
    ContextId, DialogId, ThreadId, PlanId, StepId, CollabId, EventId, TraceId, SpanId, ConfirmId
);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rejects_non_canonical_forms() {
        for s in [
            "",
            "ctx-123",
            "{550e8400-e29b-41d4-a716-446655440000}",
            "urn:uuid:550e8400-e29b-41d4-a716-446655440000",
            "550e8400e29b41d4a716446655440000",
            "550e8400-e29b-41d4-a716-44665544000g",
            "550e8400-e29b-41d4-c716-446655440000",
            "550e8400-e29b-11d4-a716-446655440000",
            "550E8400-e29b-41d4-a716-446655440000",
        ] {
            assert!(PlanId::parse(s).is_err(), "{s} should be rejected");
        }
        assert_eq!(
            PlanId::parse("550e8400-e29b-41d4-c716-446655440000"),
            Err(IdError::WrongVariant)
        );
    }

    #[test]
    fn serde_round_trip_and_typed_error() {
        let id: StepId = serde_json::from_str("\"550e8400-e29b-41d4-a716-446655440000\"").unwrap();
        assert_eq!(
            serde_json::to_string(&id).unwrap(),
            "\"550e8400-e29b-41d4-a716-446655440000\""
        );
        let err = serde_json::from_str::<StepId>("\"s1\"").unwrap_err();
        assert!(err.to_string().contains("invalid StepId `s1`"), "{err}");
    }

    /// The value of a lowercase hex digit, or `0xff`.
    const HEX: [u8; 256] = {
        let mut t = [0xffu8; 256];
        let mut c = 0;
        while c < 10 {
            t[b'0' as usize + c] = c as u8;
            c += 1;
        }
        let mut c = 0;
        while c < 6 {
            t[b'a' as usize + c] = 10 + c as u8;
            c += 1;
        }
        t
    };

    /// Where the 16 bytes of a hyphenated UUID start.
    const POS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

    /// The reference for [`parse_fast`]: its earlier, table-driven version
    /// (one lookup per hex digit), straightforward enough to trust.
    fn parse_table(b: &[u8]) -> Option<Uuid> {
        let b: &[u8; 36] = b.try_into().ok()?;
        if b[8] != b'-' || b[13] != b'-' || b[18] != b'-' || b[23] != b'-' {
            return None;
        }
        if b[14] != b'4' || !matches!(b[19], b'8' | b'9' | b'a' | b'b') {
            return None;
        }
        let mut out = [0u8; 16];
        let mut bad = 0u8;
        for (o, &p) in out.iter_mut().zip(POS.iter()) {
            let hi = HEX[b[p] as usize];
            let lo = HEX[b[p + 1] as usize];
            bad |= hi | lo;
            *o = (hi << 4) | (lo & 0x0f);
        }
        (bad & 0xf0 == 0).then(|| Uuid::from_bytes(out))
    }

    /// The `format: uuid` reference: hyphens in place, and either case of
    /// hex digits elsewhere (tested byte by byte), with the `uuid` crate's
    /// value and whether no digit is upper case.
    fn format_reference(b: &[u8]) -> Option<(Uuid, bool)> {
        let b: &[u8; 36] = b.try_into().ok()?;
        let shape = b.iter().enumerate().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                *c == b'-'
            } else {
                c.is_ascii_hexdigit()
            }
        });
        let u = Uuid::try_parse_ascii(b).ok().filter(|_| shape)?;
        Some((u, !b.iter().any(u8::is_ascii_uppercase)))
    }

    /// Every reader of this module on one text: the fast paths (SIMD where
    /// compiled, and the portable word reader, which x86-64 does not use but
    /// must stay right for WebAssembly and others) against the references.
    fn check_readers(b: &[u8]) -> Result<(), TestCaseError> {
        let table = parse_table(b);
        prop_assert_eq!(parse_fast(b), table, "parse_fast {:?}", b);
        prop_assert_eq!(parse_swar(b), table, "parse_swar {:?}", b);
        let format = format_reference(b);
        prop_assert_eq!(parse_format_uuid(b), format, "parse_format_uuid {:?}", b);
        prop_assert_eq!(format_uuid_slow(b), format, "format_uuid_slow {:?}", b);
        prop_assert_eq!(
            parse_swar_any_version(b),
            format.filter(|f| f.1).map(|f| f.0),
            "parse_swar_any_version {:?}",
            b
        );
        Ok(())
    }

    #[test]
    fn every_reader_agrees_on_every_byte_at_every_position() {
        for ok in [
            *b"550e8400-e29b-41d4-a716-446655440000",
            *b"F308A72C-FA84-11EB-9A03-0242AC130003",
            *b"ffffffff-ffff-ffff-ffff-ffffffffffff",
            *b"00000000-0000-0000-0000-000000000000",
        ] {
            check_readers(&ok).unwrap();
            for i in 0..36 {
                for c in 0..=255u8 {
                    let mut b = ok;
                    b[i] = c;
                    check_readers(&b).unwrap();
                }
            }
            for n in 0..=40 {
                let mut b = ok.to_vec();
                b.resize(n, b'0');
                check_readers(&b).unwrap();
            }
        }
        // A value in every nibble place from every digit spelling.
        for (i, c) in "0123456789abcdefABCDEF".bytes().enumerate() {
            let mut b = *b"00000000-0000-0000-0000-000000000000";
            for p in (0..36).filter(|p| !matches!(p, 8 | 13 | 18 | 23)) {
                b[p] = c;
                let (u, lower) = parse_format_uuid(&b).unwrap();
                assert_eq!(lower, i < 16);
                assert_eq!(Some((u, lower)), format_reference(&b), "{c} at {p}");
            }
        }
    }

    #[test]
    fn fast_path_edge_bytes_match_the_table() {
        let ok = *b"550e8400-e29b-41d4-a716-446655440000";
        assert_eq!(parse_fast(&ok), parse_table(&ok));
        assert!(parse_fast(&ok).is_some());
        // Every byte value at every position (so in every lane of every
        // 8-byte word, and in the hyphen, version and variant places).
        for i in 0..36 {
            for c in 0..=255u8 {
                let mut b = ok;
                b[i] = c;
                assert_eq!(parse_fast(&b), parse_table(&b), "{c:#x} at {i}");
            }
        }
        // The neighbours of the digit ranges' bounds are refused, the bounds
        // themselves read with their values, in the first and last digit of
        // each word (19, the variant digit, is the first of the third word;
        // its neighbour 20 stands in for it).
        for i in [0, 7, 9, 17, 20, 27, 28, 35] {
            for c in *b"/:`g@GAF" {
                let mut b = ok;
                b[i] = c;
                assert_eq!(parse_fast(&b), None, "{} at {i}", c as char);
            }
            for c in *b"09af" {
                let mut b = ok;
                b[i] = c;
                let want = Uuid::parse_str(std::str::from_utf8(&b).unwrap()).unwrap();
                assert_eq!(parse_fast(&b), Some(want), "{} at {i}", c as char);
            }
        }
    }

    /// The `uuid` crate's reading of a text, kept only when the text is in
    /// the canonical form the schema pattern describes.
    fn oracle(s: &str) -> Option<Uuid> {
        let b = s.as_bytes();
        let canonical = b.len() == 36
            && b.iter().enumerate().all(|(i, c)| {
                if matches!(i, 8 | 13 | 18 | 23) {
                    *c == b'-'
                } else {
                    c.is_ascii_digit() || (b'a'..=b'f').contains(c)
                }
            })
            && b[14] == b'4'
            && matches!(b[19], b'8' | b'9' | b'a' | b'b');
        canonical.then(|| Uuid::parse_str(s).unwrap())
    }

    /// A canonical v4 text from any 128 bits (version and variant forced).
    fn canonical(bits: u128) -> String {
        let u = uuid::Builder::from_random_bytes(bits.to_be_bytes()).into_uuid();
        u.hyphenated().to_string()
    }

    #[test]
    fn says_what_is_wrong() {
        let ok = "550e8400-e29b-41d4-a716-446655440000";
        let parsed = parse_canonical_v4(ok).unwrap();
        assert_eq!(parsed, Uuid::parse_str(ok).unwrap());
        assert_eq!(parsed.as_u128(), 0x550e8400_e29b_41d4_a716_446655440000);
        let not_uuid = |reason| Err(IdError::NotUuid { reason });
        assert_eq!(parse_canonical_v4(""), not_uuid("wrong length"));
        assert_eq!(parse_canonical_v4(&ok[1..]), not_uuid("wrong length"));
        assert_eq!(
            parse_canonical_v4(&format!("{ok}0")),
            not_uuid("wrong length")
        );
        let hyphens = "hyphens must be at positions 9, 14, 19 and 24";
        let hex = "only hex digits and hyphens are allowed";
        for (i, c, want) in [
            (8, b'0', hyphens),
            (13, b'a', hyphens),
            (18, b'0', hyphens),
            (23, b'f', hyphens),
            (0, b'-', hex),
            (35, b'g', hex),
            (35, b'G', hex),
            (0, b':', hex),
            (0, b'/', hex),
            (0, b'`', hex),
            (0, b'@', hex),
            (1, b' ', hex),
        ] {
            let mut b = ok.as_bytes().to_vec();
            b[i] = c;
            let s = String::from_utf8(b).unwrap();
            assert_eq!(parse_canonical_v4(&s), not_uuid(want), "{s}");
        }
        for s in [
            "550E8400-e29b-41d4-a716-446655440000",
            "550e8400-e29b-41d4-a716-44665544000F",
            "550e8400-e29b-41d4-A716-446655440000",
            // Upper case is reported before a wrong version.
            "550e8400-e29b-11d4-a716-44665544000A",
        ] {
            assert_eq!(parse_canonical_v4(s), Err(IdError::NotLowercase), "{s}");
        }
        for (s, found) in [
            ("550e8400-e29b-11d4-a716-446655440000", 1),
            ("550e8400-e29b-01d4-a716-446655440000", 0),
            ("550e8400-e29b-71d4-a716-446655440000", 7),
            ("550e8400-e29b-f1d4-a716-446655440000", 15),
        ] {
            assert_eq!(
                parse_canonical_v4(s),
                Err(IdError::NotVersion4 { found }),
                "{s}"
            );
        }
        for v in ["0", "7", "c", "f"] {
            let s = format!("550e8400-e29b-41d4-{v}716-446655440000");
            assert_eq!(parse_canonical_v4(&s), Err(IdError::WrongVariant), "{s}");
        }
        for v in ["8", "9", "a", "b"] {
            let s = format!("550e8400-e29b-41d4-{v}716-446655440000");
            assert_eq!(
                parse_canonical_v4(&s),
                Ok(Uuid::parse_str(&s).unwrap()),
                "{s}"
            );
        }
        assert_eq!(
            IdError::NotVersion4 { found: 1 }.to_string(),
            "not a version 4 UUID: found version 1 (the 13th hex digit must be 4)"
        );
    }

    #[test]
    fn every_hex_digit_has_its_value() {
        for (i, c) in "0123456789abcdef".bytes().enumerate() {
            let s = format!(
                "{}-0000-4000-8000-000000000000",
                (c as char).to_string().repeat(8)
            );
            let want = (0x1111_1111u128 * i as u128) << 96 | 0x4000_8000_0000_0000_0000;
            assert_eq!(parse_canonical_v4(&s).map(|u| u.as_u128()), Ok(want), "{s}");
            assert_eq!(
                parse_fast(s.as_bytes()).map(|u| u.as_u128()),
                Some(want),
                "{s}"
            );
        }
        for c in (0u8..=255).filter(|c| !(c.is_ascii_digit() || (b'a'..=b'f').contains(c))) {
            let mut b = b"00000000-0000-4000-8000-000000000000".to_vec();
            b[0] = c;
            // Not UTF-8 for bytes >= 0x80: those cannot reach the parser as text.
            assert_eq!(parse_fast(&b), None, "{c:#x}");
            // Both digits of a byte wrong, nothing else.
            b[1] = c;
            assert_eq!(parse_fast(&b), None, "{c:#x} twice");
            if let Ok(s) = String::from_utf8(b) {
                assert!(parse_canonical_v4(&s).is_err(), "{c:#x}");
            }
        }
    }

    #[test]
    fn typed_ids_parse_convert_and_report() {
        use crate::{Pointer, Report, Rule, check::CheckValue};
        let u = Uuid::parse_str("550e8400-e29b-41d4-a716-446655440000").unwrap();
        let id = PlanId::try_from(u).unwrap();
        assert_eq!(*id.as_uuid(), u);
        assert_eq!(Uuid::from(id), u);
        assert_eq!(
            format!("{id:?}"),
            "PlanId(550e8400-e29b-41d4-a716-446655440000)"
        );
        assert_eq!(MplpId::from(id).as_uuid(), &u);
        assert_eq!(
            PlanId::try_from(Uuid::parse_str("550e8400-e29b-11d4-a716-446655440000").unwrap()),
            Err(IdError::NotVersion4 { found: 1 })
        );
        assert_eq!(
            PlanId::try_from(Uuid::parse_str("550e8400-e29b-41d4-c716-446655440000").unwrap()),
            Err(IdError::WrongVariant)
        );
        let err = serde_json::from_str::<StepId>("5").unwrap_err();
        assert!(
            err.to_string()
                .contains("a StepId (lowercase UUID v4 string)"),
            "{err}"
        );
        let _ = serde_json::from_str::<StepId>("\"x\"").unwrap_err();
        assert_eq!(mplp_json::de::take_raised(), Some(Rule::PATTERN));
        let at = Pointer::root().key("id");
        let mut report = Report::new();
        PlanId::check_value(&serde_json::json!(u.to_string()), &at, &mut report);
        assert!(report.is_empty());
        PlanId::check_value(&serde_json::json!("ctx-1"), &at, &mut report);
        PlanId::check_value(&serde_json::json!(7), &at, &mut report);
        let v = report.violations();
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].pointer.as_str(), v[0].rule), ("/id", Rule::PATTERN));
        assert!(
            v[0].message
                .starts_with("`ctx-1` is not an MPLP identifier: not a UUID"),
            "{}",
            v[0].message
        );
        assert_eq!(v[1].rule, Rule::TYPE);
    }

    proptest! {
        /// Canonical texts parse to the UUID the `uuid` crate reads.
        #[test]
        fn parses_to_the_uuid_crates_value(bits in any::<u128>()) {
            let s = canonical(bits);
            let ours = parse_canonical_v4(&s);
            prop_assert_eq!(ours, Ok(Uuid::parse_str(&s).unwrap()));
            // The fast path alone takes every canonical text.
            prop_assert_eq!(parse_fast(s.as_bytes()), ours.ok());
            let id = ContextId::parse(&s).unwrap();
            prop_assert_eq!(id.to_string(), s.clone());
            prop_assert_eq!(serde_json::to_string(&id).unwrap(), format!("\"{s}\""));
        }

        /// Near-canonical texts (one byte replaced, upper-cased, shortened,
        /// lengthened): accepted exactly when the schema pattern matches, and
        /// then with the `uuid` crate's value.
        #[test]
        fn near_canonical_texts_agree_with_the_oracle(
            bits in any::<u128>(),
            at in any::<proptest::sample::Index>(),
            c in prop_oneof![
                Just(b'-'), Just(b':'), Just(b'/'), Just(b'`'), Just(b'g'), Just(b'@'),
                Just(b'G'), Just(b'{'), b'0'..=b'9', b'a'..=b'f', b'A'..=b'F',
            ],
            edit in 0u8..4,
        ) {
            let s = canonical(bits);
            let s = match edit {
                0 => {
                    let mut b = s.into_bytes();
                    let i = at.index(b.len());
                    b[i] = c;
                    String::from_utf8(b).unwrap()
                }
                1 => s.to_ascii_uppercase(),
                2 => s[..at.index(36)].to_owned(),
                _ => format!("{s}{}", c as char),
            };
            let ours = parse_canonical_v4(&s).ok();
            prop_assert_eq!(ours, oracle(&s), "{}", s);
            prop_assert_eq!(parse_fast(s.as_bytes()), ours, "fast path: {}", s);
        }

        /// Random texts over the id alphabet: accepted exactly when the
        /// schema pattern matches, with the `uuid` crate's value.
        #[test]
        fn agrees_with_the_schema_pattern(s in "[0-9a-fA-F-]{36}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}") {
            prop_assert_eq!(parse_canonical_v4(&s).ok(), oracle(&s), "{}", s);
            prop_assert_eq!(parse_fast(s.as_bytes()), oracle(&s), "fast path: {}", s);
        }

        /// The word-at-a-time fast path gives exactly the table-driven
        /// reference's answer, value included: on canonical v4 texts, on
        /// those with one byte replaced by any byte anywhere (upper-case hex,
        /// 'g', '-', bytes >= 0x80), on random 36-byte strings, and on
        /// hyphenated strings of mostly lowercase hex digits.
        #[test]
        fn fast_path_matches_the_table(
            bits in any::<u128>(),
            edit in proptest::option::of((0usize..36, any::<u8>())),
            noise in proptest::collection::vec(any::<u8>(), 36),
            digits in proptest::collection::vec(
                prop_oneof![
                    40 => b'0'..=b'9',
                    30 => b'a'..=b'f',
                    1 => b'A'..=b'F',
                    1 => prop_oneof![Just(b'/'), Just(b':'), Just(b'`'), Just(b'g'), Just(b'-')],
                    1 => any::<u8>(),
                ],
                36,
            ),
            v4 in proptest::option::of(prop_oneof![Just(b'8'), Just(b'9'), Just(b'a'), Just(b'b')]),
        ) {
            let mut b = canonical(bits).into_bytes();
            prop_assert_eq!(parse_fast(&b), parse_table(&b));
            prop_assert!(parse_fast(&b).is_some());
            if let Some((i, c)) = edit {
                b[i] = c;
            }
            prop_assert_eq!(parse_fast(&b), parse_table(&b), "{:?}", b);
            prop_assert_eq!(parse_fast(&noise), parse_table(&noise), "{:?}", noise);
            // Hyphens in place, and (often) the version and variant digits
            // too: these strings get accepted or fail on the digits alone.
            let mut h = digits;
            for i in [8, 13, 18, 23] {
                h[i] = b'-';
            }
            if let Some(variant) = v4 {
                h[14] = b'4';
                h[19] = variant;
            }
            prop_assert_eq!(parse_fast(&h), parse_table(&h), "{:?}", h);
        }

        /// Every reader against the references on canonical texts of any
        /// version, upper-cased (wholly or in one place), with bytes
        /// replaced or the length changed, and on noise.
        #[test]
        fn readers_agree_on_near_uuids(
            bits in any::<u128>(),
            edits in proptest::collection::vec((0usize..36, any::<u8>()), 0..3),
            upper in proptest::option::of(0usize..37),
            len in proptest::option::of(0usize..40),
            noise in proptest::collection::vec(any::<u8>(), 36),
        ) {
            let mut b = Uuid::from_u128(bits).hyphenated().to_string().into_bytes();
            check_readers(&b)?;
            match upper {
                Some(36) => b.make_ascii_uppercase(),
                Some(i) => b[i].make_ascii_uppercase(),
                None => {}
            }
            check_readers(&b)?;
            for (i, c) in edits {
                b[i] = c;
            }
            check_readers(&b)?;
            if let Some(n) = len {
                b.resize(n, b'a');
                check_readers(&b)?;
            }
            check_readers(&noise)?;
        }

        #[test]
        fn fresh_ids_are_canonical(_ in 0..100u8) {
            let id = ContextId::new();
            prop_assert_eq!(ContextId::parse(&id.to_string()), Ok(id));
        }
    }
}
