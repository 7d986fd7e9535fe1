//! RFC 3339 timestamps (JSON Schema `date-time`) that keep their text.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

/// An RFC 3339 timestamp, as JSON Schema's `date-time` format defines it.
///
/// A `Timestamp` keeps the exact text it was parsed from, so a document read
/// and written again is unchanged: `2025-12-07T00:00:05.000Z` keeps its
/// milliseconds and `+08:00` offsets survive. Equality and hashing follow the
/// text; ordering follows the instant (ties broken by the text), so two
/// spellings of one instant are different values that sort next to each
/// other. Use [`Timestamp::instant`] to compare instants.
///
/// ```
/// use mplp_core::Timestamp;
/// let t: Timestamp = "2025-12-07T08:00:05.5+08:00".parse().unwrap();
/// assert_eq!(t.to_string(), "2025-12-07T08:00:05.5+08:00");
/// let u: Timestamp = "2025-12-07T00:00:05.500Z".parse().unwrap();
/// assert_eq!(t.instant(), u.instant());
/// assert!("2025-12-07 00:00:05Z".parse::<Timestamp>().is_err()); // `T` separator required
/// assert!("2025-12-07T00:00:05".parse::<Timestamp>().is_err()); // offset required
/// ```
#[derive(Clone)]
pub struct Timestamp {
    text: Box<str>,
    at: OffsetDateTime,
}

/// Why a text is not an RFC 3339 `date-time`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not an RFC 3339 date-time (expected e.g. 2025-12-07T00:00:05.000Z or 2025-12-07T08:00:05+08:00): {reason}"
)]
pub struct TimestampError {
    text: String,
    reason: String,
}

impl Timestamp {
    /// The current time in UTC, written with milliseconds and `Z`
    /// (`2025-12-07T00:00:05.123Z`), as the other MPLP SDKs write it.
    pub fn now() -> Self {
        Self::from_datetime(OffsetDateTime::now_utc())
    }

    /// The given instant, in UTC, written with milliseconds and `Z`.
    ///
    /// ```
    /// use time::macros::datetime;
    /// let t = mplp_core::Timestamp::from_datetime(datetime!(2025-12-07 08:00:05.123456 +08:00));
    /// assert_eq!(t.as_str(), "2025-12-07T00:00:05.123Z");
    /// ```
    pub fn from_datetime(at: OffsetDateTime) -> Self {
        let at = at.to_offset(UtcOffset::UTC);
        let at = at
            .replace_nanosecond(at.millisecond() as u32 * 1_000_000)
            .unwrap_or(at);
        let text = format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            at.year(),
            u8::from(at.month()),
            at.day(),
            at.hour(),
            at.minute(),
            at.second(),
            at.millisecond()
        );
        Timestamp {
            text: text.into(),
            at,
        }
    }

    /// Parses RFC 3339 text, keeping the text as it is.
    pub fn parse(text: &str) -> Result<Self, TimestampError> {
        let err = |reason: String| TimestampError {
            text: text.to_owned(),
            reason,
        };
        // RFC 3339 allows lowercase `t` and `z`; the `time` crate wants them
        // in upper case, so parse a normalised copy but keep the original.
        let b = text.as_bytes();
        let at = if b.iter().any(|c| *c == b't' || *c == b'z') {
            let upper = text.to_ascii_uppercase();
            OffsetDateTime::parse(&upper, &Rfc3339)
        } else {
            OffsetDateTime::parse(text, &Rfc3339)
        }
        .map_err(|e| err(e.to_string()))?;
        if b.len() < 20 || !matches!(b[10], b'T' | b't') {
            return Err(err("the date and time must be separated by `T`".into()));
        }
        Ok(Timestamp {
            text: text.into(),
            at,
        })
    }

    /// The text, exactly as read or written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The instant, with the offset the text gave.
    pub fn instant(&self) -> OffsetDateTime {
        self.at
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Timestamp({})", self.text)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Timestamp {}

impl Hash for Timestamp {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Self) -> Ordering {
        self.at
            .cmp(&other.at)
            .then_with(|| self.text.cmp(&other.text))
    }
}

impl FromStr for Timestamp {
    type Err = TimestampError;
    fn from_str(s: &str) -> Result<Self, TimestampError> {
        Timestamp::parse(s)
    }
}

impl From<OffsetDateTime> for Timestamp {
    fn from(at: OffsetDateTime) -> Self {
        Timestamp::from_datetime(at)
    }
}

impl serde::Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> serde::Deserialize<'de> for Timestamp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Timestamp;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 3339 date-time string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Timestamp, E> {
                Timestamp::parse(s).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

impl crate::check::CheckValue for Timestamp {
    fn check_value(value: &serde_json::Value, at: &crate::Pointer, report: &mut crate::Report) {
        if let Some(s) = crate::check::expect_str(value, at, report) {
            if let Err(e) = Timestamp::parse(s) {
                report.error(at, crate::Rule::FORMAT, e.to_string());
            }
        }
    }
}

crate::__schemars_string!(Timestamp, { "type": "string", "format": "date-time" });

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn keeps_text() {
        for s in [
            "2025-12-07T00:00:05.000Z",
            "2025-12-07T00:00:05Z",
            "2025-12-07T08:00:05+08:00",
            "2025-12-07T00:00:05.123456789-05:30",
            "2025-12-07t00:00:05z",
        ] {
            let t = Timestamp::parse(s).unwrap();
            assert_eq!(t.as_str(), s);
            assert_eq!(serde_json::to_string(&t).unwrap(), format!("\"{s}\""));
        }
    }

    #[test]
    fn rejects_non_rfc3339() {
        for s in [
            "",
            "yesterday",
            "2025-12-07",
            "2025-12-07T00:00:05",
            "2025-12-07 00:00:05Z",
            "2025-13-07T00:00:05Z",
            "2025-12-07T25:00:05Z",
            "2025-12-07T00:00:05+0800",
        ] {
            assert!(Timestamp::parse(s).is_err(), "{s} should be rejected");
        }
    }

    #[test]
    fn now_is_utc_millis_z() {
        let s = Timestamp::now().to_string();
        assert_eq!(s.len(), 24, "{s}");
        assert!(s.ends_with('Z'));
        assert_eq!(&s[19..20], ".");
        assert!(Timestamp::parse(&s).is_ok());
    }

    proptest! {
        #[test]
        fn round_trips_any_valid_shape(
            y in 1000u32..9999, mo in 1u32..=12, d in 1u32..=28, h in 0u32..24, mi in 0u32..60, s in 0u32..60,
            frac in proptest::option::of("[0-9]{1,9}"),
            off in prop_oneof![Just("Z".to_string()), (0u32..24, 0u32..60, any::<bool>()).prop_map(|(h, m, neg)| format!("{}{h:02}:{m:02}", if neg {'-'} else {'+'}))],
        ) {
            let text = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{}{off}", frac.map(|f| format!(".{f}")).unwrap_or_default());
            let t = Timestamp::parse(&text).unwrap();
            prop_assert_eq!(t.as_str(), text.as_str());
            let json = serde_json::to_string(&t).unwrap();
            let back: Timestamp = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(back, t);
        }
    }
}
