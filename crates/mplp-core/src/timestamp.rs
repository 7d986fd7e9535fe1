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
    #[inline]
    fn new(s: &str) -> Self {
        let b = s.as_bytes();
        if b.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            // One copy of a variable length costs a `memset` and a `memcpy`
            // call, a third of the parse of a timestamp: two overlapping
            // copies of a fixed width (the head and the tail) are plain moves.
            if !put::<32>(&mut buf, b) && !put::<16>(&mut buf, b) {
                buf[..b.len()].copy_from_slice(b);
            }
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

/// Copies `b` (at most [`INLINE`] bytes, at least `W`) to the start of
/// `buf` as its first `W` bytes and its last `W` bytes; false (nothing
/// copied) when `b` is shorter than `W`.
fn put<const W: usize>(buf: &mut [u8; INLINE], b: &[u8]) -> bool {
    let (Some(head), Some(tail)) = (b.first_chunk::<W>(), b.last_chunk::<W>()) else {
        return false;
    };
    let n = b.len().min(INLINE);
    if let Some(to) = buf.first_chunk_mut::<W>() {
        *to = *head;
    }
    if let Some(to) = buf.get_mut(n - W..n).and_then(|t| t.first_chunk_mut::<W>()) {
        *to = *tail;
    }
    true
}

/// Why a text is not an RFC 3339 `date-time`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not an RFC 3339 date-time (expected e.g. 2025-12-07T00:00:05.000Z or 2025-12-07T08:00:05+08:00): {reason}"
)]
pub struct TimestampError {
    text: String,
    reason: &'static str,
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
    // The usual spellings are read where the timestamp is wanted (as ids
    // are, see `crate::id::IdVisitor`): a timestamp returned from a function
    // of its own was copied once more, from stores the processor could not
    // forward.
    #[inline]
    pub fn parse(text: &str) -> Result<Self, TimestampError> {
        // The fast path answers for the usual spellings; anything it does
        // not take (errors included) goes through the general parser, which
        // alone decides what is refused and why.
        match parse_usual(text.as_bytes()) {
            Some(at) => Ok(Timestamp {
                text: Text::new(text),
                at,
            }),
            None => Self::parse_other(text),
        }
    }

    /// [`Timestamp::parse`] of a text the fast path did not take.
    #[cold]
    #[inline(never)]
    fn parse_other(text: &str) -> Result<Self, TimestampError> {
        Self::with_text(text, parse_rfc3339(text.as_bytes()))
    }

    /// The timestamp of `text` from what a parser made of it.
    fn with_text(
        text: &str,
        parsed: Result<OffsetDateTime, &'static str>,
    ) -> Result<Self, TimestampError> {
        match parsed {
            Ok(at) => Ok(Timestamp {
                text: Text::new(text),
                at,
            }),
            Err(reason) => Err(TimestampError {
                text: text.to_owned(),
                reason,
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

/// How one 8-byte word of the fixed head `YYYY-MM-DDTHH:MM:SS` must look,
/// as masks over its little-endian lanes (lane `i` is byte `i` of the word).
struct Layout {
    /// `0x20` in a lane whose letter may be either case (`T`/`t`): ORed into
    /// the word first, which folds `T` (0x54) onto `t` (0x74) and no other
    /// byte.
    fold: u64,
    /// The expected byte of each separator lane and `0` of each digit lane:
    /// XORed with the word, it leaves `0` in a matching separator lane and
    /// the digit's value (0 to 9 if it is one) in a digit lane.
    want: u64,
    /// `0xff` in separator lanes and `0xf0` in digit lanes: after the XOR,
    /// any bit under it is a wrong separator or a byte too far from `0`.
    high: u64,
    /// `0x06` in digit lanes: once every digit lane is below 16, adding it
    /// carries into bit 4 (`0x10`) exactly in the lanes above 9.
    six: u64,
}

impl Layout {
    /// The layout of `pattern`: `d` for a digit, any other byte a separator
    /// that must be there as written (a lowercase letter matching either
    /// case).
    const fn new(pattern: &[u8; 8]) -> Self {
        let (mut fold, mut want, mut high, mut six) = (0u64, 0u64, 0u64, 0u64);
        let mut i = 0;
        while i < 8 {
            let shift = 8 * i;
            let c = pattern[i];
            if c == b'd' {
                want |= (b'0' as u64) << shift;
                high |= 0xf0 << shift;
                six |= 0x06 << shift;
            } else {
                if c.is_ascii_lowercase() {
                    fold |= 0x20 << shift;
                }
                want |= (c as u64) << shift;
                high |= 0xff << shift;
            }
            i += 1;
        }
        Layout {
            fold,
            want,
            high,
            six,
        }
    }

    /// The word with every digit lane turned into its value (separator lanes
    /// `0`) and a nonzero mark when any lane does not fit the layout.
    fn read(&self, word: u64) -> (u64, u64) {
        let x = (word | self.fold) ^ self.want;
        // When `x & high` is zero every lane is below 16, so the addition
        // carries out of no lane; when it is not, the mark is nonzero anyway.
        let bad = (x & self.high) | (x.wrapping_add(self.six) & (self.six << 3));
        (x, bad)
    }
}

/// Bytes 0-7, 8-15 and 11-18 of `YYYY-MM-DDTHH:MM:SS` (the last two words
/// overlap: three words cover the 19 bytes without reading byte 19).
const HEAD: [Layout; 3] = [
    Layout::new(b"dddd-dd-"),
    Layout::new(b"ddtdd:dd"),
    Layout::new(b"dd:dd:dd"),
];

/// Each lane `i` of a word of digit values (as [`Layout::read`] gives)
/// becomes the two-digit number of lanes `i` and `i + 1`. No lane carries:
/// 9 * 10 + 9 < 256.
fn pairs(x: u64) -> u64 {
    x.wrapping_mul(10).wrapping_add(x >> 8)
}

/// Lane `i` (byte `i`, little-endian) of `w`.
fn lane(w: u64, i: u32) -> u32 {
    u32::from((w >> (8 * i)) as u8)
}

/// Days in each month of a common year (February of a leap year has 29).
const MONTH_DAYS: [u8; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/// Days of a common year before each month.
const DAYS_BEFORE: [u16; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/// `10^(9 - n)`: what the value of an `n`-digit fraction (n <= 9) is
/// multiplied by to give nanoseconds.
const FRACTION_SCALE: [u32; 10] = [
    1_000_000_000,
    100_000_000,
    10_000_000,
    1_000_000,
    100_000,
    10_000,
    1_000,
    100,
    10,
    1,
];

/// `0x01` in every lane of a word.
const LANES: u64 = 0x0101_0101_0101_0101;

/// The fraction of `b` (a text of at least 20 bytes with a `.` at byte 19)
/// in nanoseconds, and its number of digits (at least 1); `None` when the
/// `.` has no digit after it.
///
/// The first eight bytes after the `.` are read as one little-endian word
/// (the last eight bytes of the text, shifted down, when it is shorter);
/// the first non-digit lane ends the fraction, and the digits before it are
/// turned into a number with three multiplications (the two-, four- and
/// eight-digit halves), not one step per digit.
fn fraction(b: &[u8]) -> Option<(u32, usize)> {
    let w = match b.get(20..).and_then(|t| t.first_chunk::<8>()) {
        Some(w) => u64::from_le_bytes(*w),
        None => {
            // Fewer than eight bytes after the `.`: bytes 20.. are the top
            // lanes of the last eight bytes (which start at byte 12 or later).
            let last = b.last_chunk::<8>()?;
            let missing = 28 - b.len(); // 1 to 8
            // The lanes above the text become 0, which is not a digit. (A
            // shift by 64, for a text of exactly 20 bytes, is no word at all.)
            u64::from_le_bytes(*last)
                .checked_shr(8 * missing as u32)
                .unwrap_or(0)
        }
    };
    let x = w ^ (u64::from(b'0') * LANES);
    // A lane is a digit when it is below 10: no bit of 0xf0, and no carry
    // into 0x10 from adding 6. A carry out of a lane that is not a digit can
    // only spoil the lanes above it, so the lowest marked lane is the first
    // non-digit.
    let not_digit = (x & (0xf0 * LANES)) | (x.wrapping_add(0x06 * LANES) & (0x10 * LANES));
    let n = (not_digit.trailing_zeros() / 8) as usize; // 0 to 8
    if n == 0 {
        return None;
    }
    // Keep the `n` digits, moved to the top lanes (the lanes below become
    // leading zeros), and combine them: lane 0 is the most significant.
    let x = x << (8 * (8 - n));
    let x = (x.wrapping_mul(10).wrapping_add(x >> 8)) & 0x00ff_00ff_00ff_00ff;
    let x = (x.wrapping_mul(100).wrapping_add(x >> 16)) & 0x0000_ffff_0000_ffff;
    let value = (x.wrapping_mul(10_000).wrapping_add(x >> 32) & 0xffff_ffff) as u32;
    if n < 8 {
        return Some((value * FRACTION_SCALE[n], n));
    }
    // Eight digits and maybe more: the ninth is the last below a second;
    // any after it are read and ignored.
    let more = b.get(28..).unwrap_or_default();
    let extra = more
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(more.len());
    let ninth = match more.first() {
        Some(&c) if extra > 0 => u32::from(c - b'0'),
        _ => 0,
    };
    Some((value * 10 + ninth, 8 + extra))
}

/// The fast path of [`Timestamp::parse`]: the instant of a valid timestamp
/// of the usual shape `YYYY-MM-DDTHH:MM:SS[.F+](Z|±HH:MM)` (any case of `T`
/// and `Z`, a fraction of any length), or `None` for anything else (every
/// invalid text, and the rare valid leap second `:60`), which
/// [`parse_rfc3339`] then reads or refuses with its reason. Where it gives a
/// value it is the one [`parse_rfc3339`] would give.
///
/// One pass, few branches: the first 19 bytes are checked as three 8-byte
/// words against fixed masks (every digit and separator at once), the fields
/// are read from the words two digits at a time, the fraction eight digits
/// at a time ([`fraction`]), and the calendar and clock ranges are one test
/// (days of the month from a table and the leap-year rule).
#[inline]
fn parse_usual(b: &[u8]) -> Option<OffsetDateTime> {
    let head = b.first_chunk::<20>()?;
    // Bytes `at..at + 8` (always there: `at + 8 <= 20`; the 0 of the
    // impossible case would fail the check anyway).
    let word = |at: usize| {
        head.get(at..)
            .and_then(|t| t.first_chunk::<8>())
            .map_or(0, |w| u64::from_le_bytes(*w))
    };
    let (x0, bad0) = HEAD[0].read(word(0));
    let (x1, bad1) = HEAD[1].read(word(8));
    let (x2, bad2) = HEAD[2].read(word(11));
    if bad0 | bad1 | bad2 != 0 {
        return None;
    }
    let (p0, p1, p2) = (pairs(x0), pairs(x1), pairs(x2));
    // Lanes: `YYYY-MM-` | `DDTHH:MM` | `HH:MM:SS`.
    let year = lane(p0, 0) * 100 + lane(p0, 2);
    let (month, day) = (lane(p0, 5), lane(p1, 0));
    let (hour, minute, second) = (lane(p1, 3), lane(p1, 6), lane(p2, 6));

    let (nanos, rest) = match b.get(19..) {
        Some([b'.', frac @ ..]) => {
            let (nanos, n) = fraction(b)?;
            (nanos, frac.get(n..)?)
        }
        Some(rest) => (0, rest),
        None => return None,
    };
    let offset = match rest {
        [b'Z' | b'z'] => UtcOffset::UTC,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let d = |c: &u8| u32::from(c.wrapping_sub(b'0'));
            let (h1, h2, m1, m2) = (d(h1), d(h2), d(m1), d(m2));
            if h1.max(h2).max(m1).max(m2) > 9 {
                return None;
            }
            let (h, m) = (h1 * 10 + h2, m1 * 10 + m2);
            if h > 23 || m > 59 {
                return None;
            }
            let (h, m) = (h as i8, m as i8);
            let (h, m) = if *sign == b'-' { (-h, -m) } else { (h, m) };
            UtcOffset::from_hms(h, m, 0).ok()?
        }
        _ => return None,
    };

    // February has 29 days in a leap year: every 4th year, but not the
    // 100th unless the 400th.
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_index = month.wrapping_sub(1) as usize; // 0-11 when valid
    let last_day = MONTH_DAYS
        .get(month_index)
        .map_or(0, |&d| u32::from(d) + u32::from(leap && month == 2));
    // Second 60 (a leap second) is left to the general parser.
    if (day == 0) | (day > last_day) | (hour > 23) | (minute > 59) | (second > 59) {
        return None;
    }
    let before = DAYS_BEFORE.get(month_index).copied().unwrap_or(0);
    let ordinal = before + u16::from(leap && month > 2) + day as u16;
    let date = Date::from_ordinal_date(year as i32, ordinal).ok()?;
    let time = Time::from_hms_nano(hour as u8, minute as u8, second as u8, nanos).ok()?;
    Some(PrimitiveDateTime::new(date, time).assume_offset(offset))
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
    // A leap second: RFC 3339 allows `:60`, and the schema's `date-time`
    // check (jsonschema) accepts it when the time is 23:59:60 in UTC. The
    // `time` crate has no second 60, so the instant is the last nanosecond
    // before the next minute; the text keeps the `:60`.
    let (second, nanos) = if second == 60 && hour < 24 && minute < 60 {
        let utc = (hour * 60 + minute) as i32 - i32::from(offset.whole_minutes());
        if utc.rem_euclid(24 * 60) != 23 * 60 + 59 {
            return Err("a leap second (:60) is only at 23:59:60 UTC");
        }
        (59, 999_999_999)
    } else {
        (second, nanos)
    };
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
    #[inline]
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Timestamp;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 3339 date-time string")
            }
            #[inline]
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
    fn text_keeps_every_length() {
        // Around the widths of the fixed copies (16, 32) and the inline
        // limit (38), and beyond it (on the heap).
        let source: String = ('a'..='z').chain('0'..='9').cycle().take(60).collect();
        for n in 0..=source.len() {
            let s = &source[..n];
            assert_eq!(Text::new(s).as_str(), s, "length {n}");
            assert_eq!(matches!(Text::new(s), Text::Inline { .. }), n <= INLINE);
        }
        let long = "2025-12-07T00:00:05.123456789012345678901234567890Z";
        assert_eq!(Timestamp::parse(long).unwrap().as_str(), long);
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

    /// The instant `parse` must give for valid components, built with the
    /// `time` crate's own constructors (not its parser).
    fn expected(
        (y, mo, d): (i32, u8, u8),
        (h, mi, s): (u8, u8, u8),
        frac: &str,
        offset: Option<(bool, u8, u8)>,
    ) -> OffsetDateTime {
        let digits: String = frac.chars().take(9).collect();
        let nanos = if digits.is_empty() {
            0
        } else {
            format!("{digits:0<9}").parse::<u32>().unwrap()
        };
        let date = Date::from_calendar_date(y, Month::try_from(mo).unwrap(), d).unwrap();
        let time = Time::from_hms_nano(h, mi, s, nanos).unwrap();
        let offset = match offset {
            None => UtcOffset::UTC,
            Some((neg, oh, om)) => {
                let (oh, om) = (oh as i8, om as i8);
                if neg {
                    UtcOffset::from_hms(-oh, -om, 0).unwrap()
                } else {
                    UtcOffset::from_hms(oh, om, 0).unwrap()
                }
            }
        };
        PrimitiveDateTime::new(date, time).assume_offset(offset)
    }

    /// Valid components of a timestamp, and its text.
    #[allow(clippy::type_complexity)]
    fn valid_parts() -> impl Strategy<
        Value = (
            (i32, u8, u8),
            (u8, u8, u8),
            String,
            Option<(bool, u8, u8)>,
            String,
        ),
    > {
        (
            (0i32..=9999, 1u8..=12, 1u8..=31),
            (0u8..24, 0u8..60, 0u8..60),
            prop_oneof![Just(String::new()), "[0-9]{1,12}"],
            proptest::option::of((any::<bool>(), 0u8..24, 0u8..60)),
            (any::<bool>(), any::<bool>()),
        )
            .prop_map(|((y, mo, d), hms, frac, offset, (lower_t, lower_z))| {
                // Clamp the day into the month, so that every draw is valid.
                let last = Month::try_from(mo).unwrap().length(y);
                let d = d.min(last);
                let (h, mi, s) = hms;
                let off = match offset {
                    None if lower_z => "z".to_owned(),
                    None => "Z".to_owned(),
                    Some((neg, oh, om)) => {
                        format!("{}{oh:02}:{om:02}", if neg { '-' } else { '+' })
                    }
                };
                let t = if lower_t { 't' } else { 'T' };
                let dot = if frac.is_empty() { "" } else { "." };
                let text = format!("{y:04}-{mo:02}-{d:02}{t}{h:02}:{mi:02}:{s:02}{dot}{frac}{off}");
                ((y, mo, d), hms, frac, offset, text)
            })
    }

    #[test]
    fn reads_the_instant_and_the_offset() {
        let t = Timestamp::parse("2025-12-07T08:30:05.25-05:30").unwrap();
        let at = t.instant();
        assert_eq!(at.offset(), UtcOffset::from_hms(-5, -30, 0).unwrap());
        assert_eq!((at.year(), u8::from(at.month()), at.day()), (2025, 12, 7));
        assert_eq!((at.hour(), at.minute(), at.second()), (8, 30, 5));
        assert_eq!(at.nanosecond(), 250_000_000);
        assert_eq!(at.unix_timestamp(), 1_765_116_005);
        let plus = Timestamp::parse("2025-12-07T08:30:05+05:30").unwrap();
        assert_eq!(
            plus.instant().offset(),
            UtcOffset::from_hms(5, 30, 0).unwrap()
        );
        assert_eq!(plus.instant().unix_timestamp(), 1_765_076_405);
        // A negative offset under one hour keeps its sign.
        let small = Timestamp::parse("2025-12-07T00:00:05-00:30").unwrap();
        assert_eq!(
            small.instant().offset(),
            UtcOffset::from_hms(0, -30, 0).unwrap()
        );
        assert_eq!(small.instant().unix_timestamp(), 1_765_065_605 + 1_800);
        // Digits after the ninth are read and ignored (nanosecond precision).
        let long = Timestamp::parse("2025-12-07T00:00:05.123456789987Z").unwrap();
        assert_eq!(long.instant().nanosecond(), 123_456_789);
        assert_eq!(long.as_str(), "2025-12-07T00:00:05.123456789987Z");
    }

    #[test]
    fn rejects_each_broken_field_with_its_reason() {
        let reason = |s: &str| Timestamp::parse(s).unwrap_err().reason;
        let shape =
            "expected YYYY-MM-DDTHH:MM:SS with an optional fraction and a Z or ±HH:MM offset";
        let good = "2025-12-07T00:00:05Z";
        assert!(Timestamp::parse(good).is_ok());
        // A wrong character at each separator position, and short texts.
        for (i, why) in [
            (4, shape),
            (7, shape),
            (10, "the date and time must be separated by `T`"),
            (13, shape),
            (16, shape),
        ] {
            let mut b = good.as_bytes().to_vec();
            b[i] = b'x';
            assert_eq!(
                reason(std::str::from_utf8(&b).unwrap()),
                why,
                "position {i}"
            );
        }
        assert_eq!(reason("2025-12-07T00:00:5Z"), shape);
        // A non-digit in each field.
        for i in [0, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18] {
            let mut b = good.as_bytes().to_vec();
            b[i] = b'a';
            assert_eq!(
                reason(std::str::from_utf8(&b).unwrap()),
                shape,
                "position {i}"
            );
        }
        assert_eq!(
            reason("2025-12-07T00:00:05.Z"),
            "a `.` must be followed by at least one digit"
        );
        let offset = "an offset (`Z` or ±HH:MM, with a colon) is required after the time";
        // Shorter than the shortest timestamp.
        assert_eq!(reason("2025-12-07T00:00:05"), shape);
        for s in [
            "2025-12-07T00:00:05.5",
            "2025-12-07T00:00:05ZZ",
            "2025-12-07T00:00:05*08:00",
            "2025-12-07T00:00:05+08:000",
            "2025-12-07T00:00:05+08-00",
        ] {
            assert_eq!(reason(s), offset, "{s}");
        }
        for s in ["2025-12-07T00:00:05+0a:00", "2025-12-07T00:00:05+08:0a"] {
            assert_eq!(reason(s), "the offset must be ±HH:MM", "{s}");
        }
        for s in [
            "2025-12-07T00:00:05+24:00",
            "2025-12-07T00:00:05-24:00",
            "2025-12-07T00:00:05+23:60",
            "2025-12-07T00:00:05-00:60",
        ] {
            assert_eq!(reason(s), "the offset is out of range", "{s}");
        }
        assert!(Timestamp::parse("2025-12-07T00:00:05+23:59").is_ok());
        assert!(Timestamp::parse("2025-12-07T00:00:05-23:59").is_ok());
        assert_eq!(reason("2025-00-07T00:00:05Z"), "the month must be 01 to 12");
        assert_eq!(reason("2025-13-07T00:00:05Z"), "the month must be 01 to 12");
        assert_eq!(reason("2025-02-29T00:00:05Z"), "no such day in that month");
        assert_eq!(reason("2025-12-00T00:00:05Z"), "no such day in that month");
        assert!(Timestamp::parse("2024-02-29T00:00:05Z").is_ok());
        // Leap seconds: at 23:59:60 UTC (as the schema's format check
        // says), the instant being the last nanosecond of the minute.
        for (s, utc) in [
            ("2016-12-31T23:59:60Z", "2016-12-31T23:59:59.999999999Z"),
            ("2016-12-31T23:59:60.5Z", "2016-12-31T23:59:59.999999999Z"),
            (
                "2025-06-30T23:59:60+00:00",
                "2025-06-30T23:59:59.999999999Z",
            ),
            (
                "2017-01-01T01:29:60+01:30",
                "2016-12-31T23:59:59.999999999Z",
            ),
            (
                "2016-12-31T18:59:60-05:00",
                "2016-12-31T23:59:59.999999999Z",
            ),
        ] {
            let t = Timestamp::parse(s).unwrap();
            assert_eq!(t.as_str(), s);
            assert_eq!(t.instant(), Timestamp::parse(utc).unwrap().instant(), "{s}");
        }
        for s in [
            "2025-12-31T23:58:60Z",
            "2025-12-31T12:30:60Z",
            "2025-12-31T23:59:60+01:00",
            "2025-12-31T23:59:60+00:30",
        ] {
            assert_eq!(
                reason(s),
                "a leap second (:60) is only at 23:59:60 UTC",
                "{s}"
            );
        }
        for s in [
            "2025-12-07T24:00:05Z",
            "2025-12-07T00:60:05Z",
            "2025-12-07T00:00:61Z",
            // A second 60 in an hour or minute that does not exist is a time
            // out of range, not a misplaced leap second.
            "2025-12-07T24:00:60Z",
            "2025-12-07T23:60:60Z",
        ] {
            assert_eq!(reason(s), "the time of day is out of range", "{s}");
        }
        let e = Timestamp::parse("2025-12-07").unwrap_err();
        assert_eq!(e.text, "2025-12-07");
        assert!(
            e.to_string()
                .starts_with("`2025-12-07` is not an RFC 3339 date-time")
        );
    }

    #[test]
    fn equality_follows_the_text_and_order_the_instant() {
        let a = Timestamp::parse("2025-12-07T08:00:05+08:00").unwrap();
        let b = Timestamp::parse("2025-12-07T00:00:05Z").unwrap();
        let c = Timestamp::parse("2025-12-07T00:00:06Z").unwrap();
        let d = Timestamp::parse("2025-12-07T02:00:05+08:00").unwrap(); // earlier than all
        assert_eq!(a.instant(), b.instant());
        assert_ne!(a, b);
        assert_eq!(a, a.clone());
        assert_eq!(a, Timestamp::parse(a.as_str()).unwrap());
        // Same instant: ties broken by the text.
        assert_eq!(a.cmp(&b), a.as_str().cmp(b.as_str()));
        assert_eq!(a.partial_cmp(&b), Some(a.as_str().cmp(b.as_str())));
        assert_eq!(b.cmp(&c), Ordering::Less);
        assert_eq!(c.partial_cmp(&b), Some(Ordering::Greater));
        // The instant decides before the text does ("2025-12-07T02" > "2025-12-07T00").
        assert_eq!(d.cmp(&b), Ordering::Less);
        assert!(d < b && b < c);
        assert_eq!(b.cmp(&b.clone()), Ordering::Equal);
        let state = std::collections::hash_map::RandomState::new();
        use std::hash::BuildHasher;
        assert_eq!(state.hash_one(&a), state.hash_one(a.clone()));
        assert_ne!(state.hash_one(&a), state.hash_one(&b));
        let set: std::collections::HashSet<Timestamp> = [a.clone(), b.clone(), a.clone()].into();
        assert_eq!(set.len(), 2);
        assert_eq!(format!("{a:?}"), "Timestamp(2025-12-07T08:00:05+08:00)");
        assert_eq!(format!("{a}"), "2025-12-07T08:00:05+08:00");
        assert_eq!("2025-12-07T00:00:05Z".parse::<Timestamp>().unwrap(), b);
    }

    #[test]
    fn from_datetime_writes_utc_milliseconds() {
        use time::macros::datetime;
        let t: Timestamp = datetime!(2025-01-02 03:04:05.006789 -01:00).into();
        assert_eq!(t.as_str(), "2025-01-02T04:04:05.006Z");
        assert_eq!(t.instant(), datetime!(2025-01-02 04:04:05.006 UTC));
        assert_eq!(t.instant().offset(), UtcOffset::UTC);
        let t = Timestamp::from_datetime(datetime!(0001-01-01 00:00:00 UTC));
        assert_eq!(t.as_str(), "0001-01-01T00:00:00.000Z");
        // Years RFC 3339 cannot write: a readable text, refused by `parse`.
        let t = Timestamp::from_datetime(datetime!(-0001-12-31 23:59:59.5 UTC));
        assert_eq!(t.as_str(), "-1-12-31T23:59:59.500Z");
        assert!(Timestamp::parse(t.as_str()).is_err());
        assert_eq!(t.instant(), datetime!(-0001-12-31 23:59:59.5 UTC));
    }

    #[test]
    fn long_texts_are_kept_whole() {
        let s = "2025-12-07T00:00:05.1234567890123456789012345+05:30";
        assert!(s.len() > INLINE);
        let t = Timestamp::parse(s).unwrap();
        assert_eq!(t.as_str(), s);
        assert_eq!(t.clone().to_string(), s);
        let s = "2025-12-07T00:00:05.123456789012+05:30"; // 38 bytes, inline
        assert_eq!(s.len(), INLINE);
        assert_eq!(Timestamp::parse(s).unwrap().as_str(), s);
    }

    #[test]
    fn serde_and_check_value_report_the_format_rule() {
        use crate::{Pointer, Report, Rule, check::CheckValue};
        let err = serde_json::from_str::<Timestamp>("\"2025-12-07\"").unwrap_err();
        assert!(
            err.to_string().contains("is not an RFC 3339 date-time"),
            "{err}"
        );
        assert_eq!(crate::de::take_raised(), Some(Rule::FORMAT));
        let err = serde_json::from_str::<Timestamp>("5").unwrap_err();
        assert!(
            err.to_string()
                .contains("expected an RFC 3339 date-time string"),
            "{err}"
        );
        let at = Pointer::root().key("at");
        let mut report = Report::new();
        Timestamp::check_value(&serde_json::json!("2025-12-07T00:00:05Z"), &at, &mut report);
        assert!(report.is_empty());
        Timestamp::check_value(&serde_json::json!("2025-12-07"), &at, &mut report);
        assert_eq!(report.violations().len(), 1);
        let v = &report.violations()[0];
        assert_eq!((v.pointer.as_str(), v.rule), ("/at", Rule::FORMAT));
        assert!(
            v.message.contains("`2025-12-07` is not an RFC 3339"),
            "{}",
            v.message
        );
        Timestamp::check_value(&serde_json::json!(5), &at, &mut report);
        assert_eq!(report.violations()[1].rule, Rule::TYPE);
    }

    proptest! {
        /// Valid components, in every spelling: `parse` keeps the text and
        /// gives the instant and offset the components say.
        #[test]
        fn parses_valid_components((date, hms, frac, offset, text) in valid_parts()) {
            let t = Timestamp::parse(&text).unwrap();
            let want = expected(date, hms, &frac, offset);
            prop_assert_eq!(t.as_str(), text.as_str());
            prop_assert_eq!(t.instant(), want);
            prop_assert_eq!(t.instant().offset(), want.offset());
            prop_assert_eq!(t.instant().to_offset(UtcOffset::UTC).time(), want.to_offset(UtcOffset::UTC).time());
            let back: Timestamp = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
            prop_assert_eq!(&back, &t);
            prop_assert_eq!(back.instant(), want);
        }

        /// Near-valid texts: one byte of a valid text replaced by a byte that
        /// does not belong there is refused.
        #[test]
        fn refuses_one_wrong_byte((_, _, _, _, text) in valid_parts(), at in any::<proptest::sample::Index>(), c in prop_oneof![Just(b'x'), Just(b' '), Just(b'/'), Just(b'_')]) {
            let mut b = text.into_bytes();
            let i = at.index(b.len());
            b[i] = c;
            let s = String::from_utf8(b).unwrap();
            prop_assert!(Timestamp::parse(&s).is_err(), "{}", s);
        }

        /// Sorting follows the instant.
        #[test]
        fn orders_by_instant((d1, t1, f1, o1, a) in valid_parts(), (d2, t2, f2, o2, b) in valid_parts()) {
            let (x, y) = (Timestamp::parse(&a).unwrap(), Timestamp::parse(&b).unwrap());
            let (ix, iy) = (expected(d1, t1, &f1, o1), expected(d2, t2, &f2, o2));
            prop_assert_eq!(x.cmp(&y), ix.cmp(&iy).then_with(|| a.cmp(&b)));
            prop_assert_eq!(x == y, a == b);
        }
    }

    /// `Timestamp::parse` as it was before the fast path: the general
    /// parser alone. (That parser is still the library's fallback,
    /// unchanged; this is the reference the fast path is held to.)
    fn reference_parse(text: &str) -> Result<Timestamp, TimestampError> {
        Timestamp::with_text(text, parse_rfc3339(text.as_bytes()))
    }

    /// Everything a parse gives: the instant's fields (equality of
    /// `OffsetDateTime` ignores the offset), or the reason.
    fn fields(
        r: Result<OffsetDateTime, &'static str>,
    ) -> Result<(Date, Time, UtcOffset), &'static str> {
        r.map(|at| (at.date(), at.time(), at.offset()))
    }

    /// The whole result of `parse`: text and fields, or the whole error.
    #[allow(clippy::type_complexity)]
    fn whole(
        r: Result<Timestamp, TimestampError>,
    ) -> Result<(String, Date, Time, UtcOffset), TimestampError> {
        r.map(|t| {
            let at = t.instant();
            (t.as_str().to_owned(), at.date(), at.time(), at.offset())
        })
    }

    /// The fast path agrees with the general parser on `b`: where it gives
    /// an instant the general parser gives the same (fields and offset), and
    /// `Timestamp::parse` gives what the old `parse` gave.
    fn check_same(b: &[u8]) -> Result<(), TestCaseError> {
        if let Some(at) = parse_usual(b) {
            prop_assert_eq!(fields(Ok(at)), fields(parse_rfc3339(b)), "{:?}", b);
        }
        if let Ok(s) = std::str::from_utf8(b) {
            prop_assert_eq!(
                whole(Timestamp::parse(s)),
                whole(reference_parse(s)),
                "{}",
                s
            );
        }
        Ok(())
    }

    #[test]
    fn the_usual_spellings_take_the_fast_path() {
        for s in [
            "2025-12-07T00:00:00.000Z",
            "2025-12-07T13:45:10Z",
            "2025-12-07T13:45:10.123456+02:00",
            "2025-12-07t13:45:10.123456789-05:30",
            "2025-12-07T13:45:10.1z",
            // Offset digits whose bits OR to more than 9 (2 | 8).
            "0000-01-01T00:00:00+00:28",
            "2025-12-07T13:45:10.12345678Z",
            "2025-12-07T13:45:10.123456789987654321+23:59",
            "2024-02-29T23:59:59.999999999-23:59",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.9Z",
        ] {
            let fast = parse_usual(s.as_bytes());
            assert!(fast.is_some(), "{s}");
            assert_eq!(
                fields(fast.ok_or("")),
                fields(parse_rfc3339(s.as_bytes())),
                "{s}"
            );
        }
        // Left to the general parser: leap seconds, and every error.
        for s in [
            "2016-12-31T23:59:60Z",
            "2025-02-29T00:00:00Z",
            "2100-02-29T00:00:00Z",
            "2025-04-31T00:00:00Z",
            "2025-12-07T00:00:05.Z",
            "2025-12-07T00:00:05.",
            "2025-12-07T00:00:05+24:00",
        ] {
            assert!(parse_usual(s.as_bytes()).is_none(), "{s}");
        }
        assert!(parse_usual(b"2000-02-29T00:00:00Z").is_some());
    }

    #[test]
    fn fast_path_agrees_on_every_byte_at_every_position() {
        for s in [
            "2025-12-07T00:00:00.000Z",
            "2024-02-29T13:45:10Z",
            "2025-12-07T13:45:10.123456+02:00",
            "2025-12-07T13:45:10.123456789-05:30",
            "2016-12-31T23:59:60.5Z",
        ] {
            for i in 0..s.len() {
                for c in 0..=255u8 {
                    let mut b = s.as_bytes().to_vec();
                    b[i] = c;
                    check_same(&b).unwrap();
                }
            }
            // And every shorter or longer text.
            for n in 0..s.len() {
                check_same(&s.as_bytes()[..n]).unwrap();
                check_same(format!("{s}{}", &s[n..]).as_bytes()).unwrap();
            }
        }
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
                .filter(|_| s.as_bytes()[10] != b' ');
            let ours = Timestamp::parse(&s).ok().map(|t| t.instant());
            if s.get(17..19) == Some("60") {
                // `time` takes a leap second only where the leap second
                // table might have one; the schema's check (and we) take
                // 23:59:60 UTC on any day. Where `time` takes it, we agree.
                if theirs.is_some() {
                    prop_assert_eq!(ours, theirs, "{}", s);
                }
            } else {
                prop_assert_eq!(ours, theirs, "{}", s);
            }
        }

        /// The fast path and the old parser agree on valid texts of every
        /// spelling (all field ranges, fractions of 0 to 12 digits, `Z`,
        /// `z` and offsets), whole results compared.
        #[test]
        fn fast_path_agrees_on_valid_texts((_, _, _, _, text) in valid_parts()) {
            prop_assert!(parse_usual(text.as_bytes()).is_some(), "{}", text);
            check_same(text.as_bytes())?;
        }

        /// ... on valid texts with one byte replaced by any byte (invalid
        /// UTF-8 included: the parsers read bytes), or cut short.
        #[test]
        fn fast_path_agrees_on_one_byte_changed(
            (_, _, _, _, text) in valid_parts(),
            at in any::<proptest::sample::Index>(),
            c in any::<u8>(),
            cut in any::<proptest::sample::Index>(),
        ) {
            let mut b = text.into_bytes();
            let i = at.index(b.len());
            b[i] = c;
            check_same(&b)?;
            check_same(&b[..cut.index(b.len() + 1)])?;
        }

        /// ... on texts near the shape (fields out of range, leap seconds,
        /// odd fractions and offsets) and on any text at all.
        #[test]
        fn fast_path_agrees_on_random_texts(
            near in "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,11})?(Z|z|[+-][0-9]{2}:?[0-9]{2})?",
            any_text in "[0-9:.+\\-TtZz ]{0,40}",
            bytes in proptest::collection::vec(any::<u8>(), 0..48),
        ) {
            check_same(near.as_bytes())?;
            check_same(any_text.as_bytes())?;
            check_same(&bytes)?;
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
