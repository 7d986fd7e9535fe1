//! A fast path for reading step ids: one pass over the 36 bytes, no
//! allocation. It accepts exactly what `mplp_core::id::parse_canonical_v4`
//! accepts (lowercase hex, hyphens at 8/13/18/23, version 4, RFC 4122
//! variant); anything else is an error here, and the thorough pass of
//! `Document::validate_json` then explains it with core's messages.

use std::fmt;

use mplp_core::StepId;
use serde::de::{self, Deserializer, SeqAccess, Visitor};

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

/// Parses a canonical lowercase UUID v4 into a [`StepId`].
pub(crate) fn parse(s: &str) -> Option<StepId> {
    let b: &[u8; 36] = s.as_bytes().try_into().ok()?;
    if b[8] != b'-' || b[13] != b'-' || b[18] != b'-' || b[23] != b'-' {
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
    if bad & 0xf0 != 0 {
        return None;
    }
    StepId::try_from(uuid::Uuid::from_bytes(out)).ok()
}

struct IdVisitor;

impl Visitor<'_> for IdVisitor {
    type Value = StepId;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a lowercase UUID v4 step id")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<StepId, E> {
        parse(s).ok_or_else(|| E::invalid_value(de::Unexpected::Str(s), &self))
    }
}

/// `deserialize_with` for a [`StepId`] field.
pub(crate) fn step_id<'de, D: Deserializer<'de>>(d: D) -> Result<StepId, D::Error> {
    d.deserialize_str(IdVisitor)
}

struct Id(StepId);

impl<'de> de::Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(IdVisitor).map(Id)
    }
}

struct IdsVisitor;

impl<'de> Visitor<'de> for IdsVisitor {
    type Value = Vec<StepId>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of step ids")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<StepId>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(2).min(64));
        while let Some(Id(id)) = seq.next_element()? {
            out.push(id);
        }
        Ok(out)
    }
}

/// `deserialize_with` for an optional (never `null`) list of step ids.
pub(crate) fn step_ids<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<StepId>>, D::Error> {
    d.deserialize_seq(IdsVisitor).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_exactly_what_core_accepts() {
        let good = StepId::new().to_string();
        let mut cases = vec![
            good.clone(),
            good.to_uppercase(),
            format!("{good}x"),
            good[1..].to_string(),
        ];
        for i in 0..36 {
            for c in ['0', '4', '8', 'a', 'b', 'c', 'f', 'g', 'A', '-', ' '] {
                let mut s: Vec<char> = good.chars().collect();
                s[i] = c;
                cases.push(s.into_iter().collect());
            }
        }
        for case in cases {
            assert_eq!(parse(&case), StepId::parse(&case).ok(), "{case}");
        }
    }
}
