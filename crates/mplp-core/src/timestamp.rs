//! RFC 3339 timestamps (JSON Schema `date-time`) that keep their text.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

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
    text: Text,
    at: OffsetDateTime,
}

/// The text of a timestamp: inline (no allocation) for the usual lengths.
#[derive(Clone)]
enum Text {
    Inline { len: u8, buf: [u8; INLINE] },
    Heap(Box<str>),
}

/// Long enough for `2025-12-07T00:00:05.123456789+05:30` (35 bytes).
const INLINE: usize = 38;

impl Text {
    fn new(s: &str) -> Self {
        let b = s.as_bytes();
        if b.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..b.len()].copy_from_slice(b);
            Text::Inline {
                len: b.len() as u8,
                buf,
            }
        } else {
            Text::Heap(s.into())
        }
    }

    fn as_str(&self) -> &str {
        match self {
            // Only ever built from a `&str`, so this is valid UTF-8.
            Text::Inline { len, buf } => std::str::from_utf8(&buf[..*len as usize]).unwrap_or(""),
            Text::Heap(s) => s,
        }
    }
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
        let year = at.year();
        let text = if (0..=9999).contains(&year) {
            // The usual case, written straight into the inline buffer.
            let mut buf = [0u8; INLINE];
            let mut put = |at: usize, v: u32, width: usize| {
                let mut v = v;
                for i in (0..width).rev() {
                    buf[at + i] = b'0' + (v % 10) as u8;
                    v /= 10;
                }
            };
            put(0, year as u32, 4);
            put(5, u32::from(u8::from(at.month())), 2);
            put(8, u32::from(at.day()), 2);
            put(11, u32::from(at.hour()), 2);
            put(14, u32::from(at.minute()), 2);
            put(17, u32::from(at.second()), 2);
            put(20, u32::from(at.millisecond()), 3);
            for (i, c) in [
                (4, b'-'),
                (7, b'-'),
                (10, b'T'),
                (13, b':'),
                (16, b':'),
                (19, b'.'),
                (23, b'Z'),
            ] {
                buf[i] = c;
            }
            Text::Inline { len: 24, buf }
        } else {
            // Years outside 0000-9999 cannot be written in RFC 3339; keep a
            // readable text (which `parse` will refuse, as it should).
            Text::new(&format!(
                "{year}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
                u8::from(at.month()),
                at.day(),
                at.hour(),
                at.minute(),
                at.second(),
                at.millisecond()
            ))
        };
        Timestamp { text, at }
    }

    /// Parses RFC 3339 text, keeping the text as it is.
    pub fn parse(text: &str) -> Result<Self, TimestampError> {
        match parse_rfc3339(text.as_bytes()) {
            Ok(at) => Ok(Timestamp {
                text: Text::new(text),
                at,
            }),
            Err(reason) => Err(TimestampError {
                text: text.to_owned(),
                reason: reason.to_owned(),
            }),
        }
    }

    /// The text, exactly as read or written.
    pub fn as_str(&self) -> &str {
        self.text.as_str()
    }

    /// The instant, with the offset the text gave.
    pub fn instant(&self) -> OffsetDateTime {
        self.at
    }
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.F+](Z|±HH:MM)` (RFC 3339 `date-time`; `t`
/// and `z` may be lowercase). Written by hand: it is on the hot path of every
/// document and log line, and a fixed-position parser is several times
/// faster than a general format-description parser.
fn parse_rfc3339(b: &[u8]) -> Result<OffsetDateTime, &'static str> {
    fn digits(b: &[u8], from: usize, n: usize) -> Option<u32> {
        let mut v = 0u32;
        for &c in b.get(from..from + n)? {
            if !c.is_ascii_digit() {
                return None;
            }
            v = v * 10 + u32::from(c - b'0');
        }
        Some(v)
    }
    let shape = "expected YYYY-MM-DDTHH:MM:SS with an optional fraction and a Z or ±HH:MM offset";
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return Err(shape);
    }
    if !matches!(b[10], b'T' | b't') {
        return Err("the date and time must be separated by `T`");
    }
    let (year, month, day) = (digits(b, 0, 4), digits(b, 5, 2), digits(b, 8, 2));
    let (hour, minute, second) = (digits(b, 11, 2), digits(b, 14, 2), digits(b, 17, 2));
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) =
        (year, month, day, hour, minute, second)
    else {
        return Err(shape);
    };
    let mut i = 19;
    let mut nanos = 0u32;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            if i - start < 9 {
                nanos = nanos * 10 + u32::from(b[i] - b'0');
            }
            i += 1;
        }
        let n = i - start;
        if n == 0 {
            return Err("a `.` must be followed by at least one digit");
        }
        if n < 9 {
            nanos *= 10u32.pow((9 - n) as u32);
        }
    }
    let offset = match b.get(i..) {
        Some([b'Z' | b'z']) => UtcOffset::UTC,
        Some([sign @ (b'+' | b'-'), h1, h2, b':', m1, m2]) => {
            let (Some(h), Some(m)) = (digits(&[*h1, *h2], 0, 2), digits(&[*m1, *m2], 0, 2)) else {
                return Err("the offset must be ±HH:MM");
            };
            if h > 23 || m > 59 {
                return Err("the offset is out of range");
            }
            let (h, m) = (h as i8, m as i8);
            let (h, m) = if *sign == b'-' { (-h, -m) } else { (h, m) };
            UtcOffset::from_hms(h, m, 0).map_err(|_| "the offset is out of range")?
        }
        _ => return Err("an offset (`Z` or ±HH:MM, with a colon) is required after the time"),
    };
    let month = u8::try_from(month)
        .ok()
        .and_then(|m| Month::try_from(m).ok())
        .ok_or("the month must be 01 to 12")?;
    let date = Date::from_calendar_date(year as i32, month, day as u8)
        .map_err(|_| "no such day in that month")?;
    if second == 60 {
        return Err("leap seconds (:60) are not supported");
    }
    let time = Time::from_hms_nano(hour as u8, minute as u8, second as u8, nanos)
        .map_err(|_| "the time of day is out of range")?;
    Ok(PrimitiveDateTime::new(date, time).assume_offset(offset))
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Timestamp({})", self.as_str())
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Timestamp {}

impl Hash for Timestamp {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
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
            .then_with(|| self.as_str().cmp(other.as_str()))
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
        s.serialize_str(self.as_str())
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
                Timestamp::parse(s).map_err(|e| crate::de::raise(crate::Rule::FORMAT, e))
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
        /// `from_datetime` writes what `parse` reads back, to the millisecond.
        #[test]
        fn from_datetime_round_trips(secs in 0i64..253_402_300_799, nanos in 0u32..1_000_000_000) {
            let at = OffsetDateTime::from_unix_timestamp(secs).unwrap().replace_nanosecond(nanos).unwrap();
            let t = Timestamp::from_datetime(at);
            prop_assert_eq!(t.as_str().len(), 24);
            let back = Timestamp::parse(t.as_str()).unwrap();
            prop_assert_eq!(back.instant(), t.instant());
            prop_assert_eq!(t.instant().unix_timestamp(), secs);
            prop_assert_eq!(t.instant().nanosecond(), nanos / 1_000_000 * 1_000_000);
        }

        /// The hand-written parser agrees with the `time` crate's RFC 3339
        /// parser (which does not know lowercase `t`/`z`, and accepts `:60`).
        #[test]
        fn agrees_with_the_time_crate(
            s in "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,11})?(Z|z|[+-][0-9]{2}:?[0-9]{2})?"
        ) {
            use time::format_description::well_known::Rfc3339;
            let theirs = OffsetDateTime::parse(&s.to_ascii_uppercase(), &Rfc3339).ok()
                .filter(|_| s.as_bytes()[10] != b' ')
                .filter(|t| t.second() != 59 || !s.contains(":60"));
            let ours = Timestamp::parse(&s).ok().map(|t| t.instant());
            if !s.contains(":60") {
                prop_assert_eq!(ours, theirs, "{}", s);
            }
        }

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
