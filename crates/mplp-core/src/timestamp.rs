//! RFC 3339 timestamps (JSON Schema `date-time`) that keep their text.

use std::cell::Cell;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::num::NonZeroU8;
use std::ops::Deref;
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
/// A `Timestamp` is 24 bytes and does not allocate for the usual spellings
/// (a fraction of up to nine digits): it holds the instant and how the text
/// spelled it (the number of fraction digits, the case of `T` and `Z`, `Z`
/// or a numeric offset), and [`Timestamp::text`] writes the text out again
/// from them. Any other text (a leap second, a fraction of more than nine
/// digits) is kept as it is, on the heap.
///
/// ```
/// use mplp_core::Timestamp;
/// let t: Timestamp = "2025-12-07T08:00:05.5+08:00".parse().unwrap();
/// assert_eq!(t.to_string(), "2025-12-07T08:00:05.5+08:00");
/// assert_eq!(t.text(), "2025-12-07T08:00:05.5+08:00");
/// let u: Timestamp = "2025-12-07T00:00:05.500Z".parse().unwrap();
/// assert_eq!(t.instant(), u.instant());
/// assert!("2025-12-07 00:00:05Z".parse::<Timestamp>().is_err()); // `T` separator required
/// assert!("2025-12-07T00:00:05".parse::<Timestamp>().is_err()); // offset required
/// ```
#[derive(Clone)]
pub struct Timestamp(Repr);

/// What a [`Timestamp`] holds.
// Two variants, so that the usual one needs no heap and no text: its text
// is a function of `at` and `shape`. `parse_usual` takes every text that
// `write` can give (and only `Timestamp::kept` makes an `Other`, for the
// texts it does not take), so equal texts are equal values
// (`tests::only_the_unusual_texts_are_kept`).
#[derive(Clone)]
enum Repr {
    /// The text is [`write`]`(at, shape)`. `at`'s year is 0 to 9999.
    Usual { at: OffsetDateTime, shape: Shape },
    /// Any other text, as it is.
    Other(Box<Other>),
}

/// A timestamp whose text [`write`] cannot give.
#[derive(Clone)]
struct Other {
    at: OffsetDateTime,
    text: Box<str>,
}

/// How the text of a [`Repr::Usual`] timestamp spells its instant: bit 0 is
/// always set (so the byte is never zero, which leaves a niche for
/// [`Repr`]'s tag), bits 1-4 hold the number of fraction digits (0 to 9),
/// bit 5 a lowercase `t`, and bits 6-7 the [`Zone`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Shape(NonZeroU8);

/// How a text writes its offset.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Zone {
    /// `Z`.
    Upper,
    /// `z`.
    Lower,
    /// `±HH:MM`, the sign being the offset's (`+00:00` for zero).
    Numeric,
    /// `-00:00`, RFC 3339's "offset unknown", an offset of zero.
    NegativeZero,
}

impl Shape {
    /// The shape of a text with `digits` fraction digits; `None` beyond
    /// nine (the instant keeps nanoseconds only).
    #[inline]
    fn new(digits: usize, lower_t: bool, zone: Zone) -> Option<Shape> {
        if digits > 9 {
            return None;
        }
        let bits = (digits as u8) << 1 | u8::from(lower_t) << 5 | (zone as u8) << 6;
        Some(Shape(NonZeroU8::MIN | bits))
    }

    fn digits(self) -> usize {
        usize::from(self.0.get() >> 1 & 0x0f)
    }

    fn lower_t(self) -> bool {
        self.0.get() & 0x20 != 0
    }

    fn zone(self) -> Zone {
        match self.0.get() >> 6 {
            0 => Zone::Upper,
            1 => Zone::Lower,
            2 => Zone::Numeric,
            _ => Zone::NegativeZero,
        }
    }
}

/// The longest text [`write`] gives: `YYYY-MM-DDTHH:MM:SS.fffffffff+HH:MM`.
const LONGEST: usize = 35;

/// The text of a usual timestamp: its local date and time, the fraction to
/// `shape`'s number of digits, and its offset as `shape` says. `at`'s year
/// must be 0 to 9999.
fn write(at: &OffsetDateTime, shape: Shape) -> ([u8; LONGEST], usize) {
    let mut buf = [0u8; LONGEST];
    fn two(buf: &mut [u8; LONGEST], at: usize, v: u8) {
        buf[at] = b'0' + v / 10 % 10;
        buf[at + 1] = b'0' + v % 10;
    }
    let year = at.year().unsigned_abs();
    two(&mut buf, 0, (year / 100) as u8);
    two(&mut buf, 2, (year % 100) as u8);
    two(&mut buf, 5, u8::from(at.month()));
    two(&mut buf, 8, at.day());
    two(&mut buf, 11, at.hour());
    two(&mut buf, 14, at.minute());
    two(&mut buf, 17, at.second());
    buf[4] = b'-';
    buf[7] = b'-';
    buf[10] = if shape.lower_t() { b't' } else { b'T' };
    buf[13] = b':';
    buf[16] = b':';
    let mut n = 19;
    if shape.digits() > 0 {
        buf[19] = b'.';
        let mut v = at.nanosecond();
        for i in (20..29).rev() {
            buf[i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
        // The digits after the kept ones are zero (a text of n digits reads
        // as a multiple of 10^(9-n) nanoseconds): the offset goes over them.
        n = 20 + shape.digits();
    }
    match shape.zone() {
        Zone::Upper => buf[n] = b'Z',
        Zone::Lower => buf[n] = b'z',
        zone => {
            let (h, m, _) = at.offset().as_hms();
            let minus = zone == Zone::NegativeZero || h < 0 || m < 0;
            buf[n] = if minus { b'-' } else { b'+' };
            two(&mut buf, n + 1, h.unsigned_abs());
            buf[n + 3] = b':';
            two(&mut buf, n + 4, m.unsigned_abs());
            n += 5;
        }
    }
    (buf, n + 1)
}

/// The text of a [`Timestamp`], as [`Timestamp::text`] gives it: a `str`
/// (through [`Deref`]) written out on the stack, or borrowed from the
/// timestamp when it keeps an unusual text as it is.
///
/// ```
/// let t: mplp_core::Timestamp = "2025-12-07t00:00:05.50z".parse().unwrap();
/// let text = t.text();
/// assert_eq!(text.len(), 23);
/// assert_eq!(&*text, "2025-12-07t00:00:05.50z");
/// assert_eq!(text.to_string(), "2025-12-07t00:00:05.50z");
/// ```
#[derive(Clone, Copy)]
pub struct TimestampText<'a>(TextRepr<'a>);

#[derive(Clone, Copy)]
enum TextRepr<'a> {
    Written { len: u8, buf: [u8; LONGEST] },
    Kept(&'a str),
}

impl Deref for TimestampText<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        match &self.0 {
            // Only digits and ASCII separators are written.
            TextRepr::Written { len, buf } => {
                std::str::from_utf8(buf.get(..usize::from(*len)).unwrap_or_default())
                    .unwrap_or_default()
            }
            TextRepr::Kept(s) => s,
        }
    }
}

impl AsRef<str> for TimestampText<'_> {
    fn as_ref(&self) -> &str {
        self
    }
}

impl fmt::Display for TimestampText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for TimestampText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for TimestampText<'_> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for TimestampText<'_> {}

impl PartialEq<str> for TimestampText<'_> {
    fn eq(&self, other: &str) -> bool {
        &**self == other
    }
}

impl PartialEq<&str> for TimestampText<'_> {
    fn eq(&self, other: &&str) -> bool {
        &**self == *other
    }
}

impl PartialEq<String> for TimestampText<'_> {
    fn eq(&self, other: &String) -> bool {
        **self == **other
    }
}

impl PartialOrd for TimestampText<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TimestampText<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        (**self).cmp(&**other)
    }
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
    /// assert_eq!(t.text(), "2025-12-07T00:00:05.123Z");
    /// ```
    pub fn from_datetime(at: OffsetDateTime) -> Self {
        let at = at.to_offset(UtcOffset::UTC);
        let at = at
            .replace_nanosecond(at.millisecond() as u32 * 1_000_000)
            .unwrap_or(at);
        match Shape::new(3, false, Zone::Upper) {
            Some(shape) if (0..=9999).contains(&at.year()) => Timestamp(Repr::Usual { at, shape }),
            // Years outside 0000-9999 cannot be written in RFC 3339; keep a
            // readable text (which `parse` will refuse, as it should).
            _ => Self::kept(
                at,
                &format!(
                    "{}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
                    at.year(),
                    u8::from(at.month()),
                    at.day(),
                    at.hour(),
                    at.minute(),
                    at.second(),
                    at.millisecond()
                ),
            ),
        }
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
            Some((at, Some(shape))) => Ok(Timestamp(Repr::Usual { at, shape })),
            Some((at, None)) => Ok(Self::kept(at, text)),
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
            Ok(at) => Ok(Self::kept(at, text)),
            Err(reason) => Err(TimestampError {
                text: text.to_owned(),
                reason,
            }),
        }
    }

    /// The timestamp of `text`, whose instant is `at`, kept as it is: a
    /// text which [`write`] cannot give (a leap second, more than nine
    /// fraction digits, a year outside 0000-9999).
    #[cold]
    fn kept(at: OffsetDateTime, text: &str) -> Self {
        Timestamp(Repr::Other(Box::new(Other {
            at,
            text: text.into(),
        })))
    }

    /// The text, exactly as read (or as [`Timestamp::from_datetime`] wrote
    /// it). It derefs to `str`; `to_string()` gives an owned copy.
    ///
    /// ```
    /// let t: mplp_core::Timestamp = "2025-12-07T08:00:05-00:00".parse().unwrap();
    /// assert_eq!(t.text(), "2025-12-07T08:00:05-00:00");
    /// assert!(t.text().ends_with("-00:00"));
    /// ```
    pub fn text(&self) -> TimestampText<'_> {
        match &self.0 {
            Repr::Usual { at, shape } => {
                let (buf, len) = write(at, *shape);
                TimestampText(TextRepr::Written {
                    len: len as u8,
                    buf,
                })
            }
            Repr::Other(other) => TimestampText(TextRepr::Kept(&other.text)),
        }
    }

    /// The instant, with the offset the text gave.
    pub fn instant(&self) -> OffsetDateTime {
        match &self.0 {
            Repr::Usual { at, .. } => *at,
            Repr::Other(other) => other.at,
        }
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

/// Bytes 16-23 of the commonest spelling, `YYYY-MM-DDTHH:MM:SS.fffZ` (what
/// [`Timestamp::now`] and the other MPLP SDKs write): the seconds, the
/// milliseconds and `Z` (either case).
const MILLIS_Z: Layout = Layout::new(b":dd.dddz");

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
/// and `Z`, a fraction of any length) and its [`Shape`] (`None` for a
/// fraction of more than nine digits), or `None` for anything else (every
/// invalid text, and the rare valid leap second `:60`), which
/// [`parse_rfc3339`] then reads or refuses with its reason. Where it gives a
/// value it is the one [`parse_rfc3339`] would give, and [`write`] gives the
/// text back from it and the shape.
///
/// One pass, few branches: the first 19 bytes are checked as three 8-byte
/// words against fixed masks (every digit and separator at once), the fields
/// are read from the words two digits at a time, the fraction eight digits
/// at a time ([`fraction`]), and the calendar and clock ranges are one test
/// (days of the month from a table and the leap-year rule). The commonest
/// spelling, with milliseconds and `Z`, has a path of its own
/// ([`parse_millis_z`]).
#[inline]
fn parse_usual(b: &[u8]) -> Option<(OffsetDateTime, Option<Shape>)> {
    match b.first_chunk::<24>().filter(|_| b.len() == 24) {
        Some(b24) => match parse_millis_z(b24) {
            Some(parsed) => Some(parsed),
            None => parse_usual_any(b),
        },
        None => parse_usual_any(b),
    }
}

/// [`parse_usual`] of the commonest spelling, `YYYY-MM-DDTHH:MM:SS.fffZ`:
/// three 8-byte words cover the 24 bytes, and each is checked against its
/// [`Layout`] at once (separators, digits, the `.` and the `Z`), with no
/// fraction scan and no offset to read. `None` for anything else (which
/// [`parse_usual_any`] then reads); where it gives a value it is the one
/// [`parse_usual_any`] gives.
///
/// Measured with callgrind on an SA log (`mplp validate`, 20,000 lines):
/// reading a timestamp through the `Deserialize` visitor took 266
/// instructions through [`parse_usual_any`] alone, 183 with this path (the
/// rest is mostly the `time` crate's checked constructors and the visitor's
/// frame).
#[inline(always)]
fn parse_millis_z(b: &[u8; 24]) -> Option<(OffsetDateTime, Option<Shape>)> {
    let word = |at: usize| {
        b.get(at..)
            .and_then(|t| t.first_chunk::<8>())
            .map_or(0, |w| u64::from_le_bytes(*w))
    };
    let (x0, bad0) = HEAD[0].read(word(0));
    let (x1, bad1) = HEAD[1].read(word(8));
    let (x2, bad2) = MILLIS_Z.read(word(16));
    if bad0 | bad1 | bad2 != 0 {
        return None;
    }
    let (p0, p1, p2) = (pairs(x0), pairs(x1), pairs(x2));
    // Lanes: `YYYY-MM-` | `DDTHH:MM` | `:SS.fffZ`.
    let year = lane(p0, 0) * 100 + lane(p0, 2);
    let (month, day) = (lane(p0, 5), lane(p1, 0));
    let (hour, minute, second) = (lane(p1, 3), lane(p1, 6), lane(p2, 1));
    let millis = lane(p2, 4) * 10 + lane(x2, 6);
    let at = calendar(year, month, day, hour, minute, second, millis * 1_000_000)?;
    let zone = if b[23] == b'Z' {
        Zone::Upper
    } else {
        Zone::Lower
    };
    let shape = Shape::new(3, b[10] == b't', zone);
    Some((at.assume_offset(UtcOffset::UTC), shape))
}

/// The date and time of checked two-digit fields (and a four-digit year),
/// or `None` when they name no such day or time. A leap second (`:60`) is
/// `None` here too: it is left to the general parser.
///
/// The date of the fields is the one [`make_date`] makes of them, taken from
/// [`LAST_DATE`] when they are those of the last date it made on this
/// thread: the timestamps of a dialog or a log mostly fall on one day, and
/// the date's checks and `time`'s constructor were some 40 of the 194
/// instructions of a timestamp's read (callgrind, dialog of 10 messages).
#[inline(always)]
fn calendar(
    year: u32,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    nanos: u32,
) -> Option<PrimitiveDateTime> {
    // The clock's fields are checked by `Time::from_hms_nano` below (each
    // is two digits, so the casts keep them whole).
    let date = match LAST_DATE.with(Cell::get) {
        Some((fields, date)) if fields == (year, month, day) => date,
        _ => make_date(year, month, day)?,
    };
    let time = Time::from_hms_nano(hour as u8, minute as u8, second as u8, nanos).ok()?;
    Some(PrimitiveDateTime::new(date, time))
}

thread_local! {
    /// The fields (year, month, day) and the date of the last date
    /// [`make_date`] made on this thread, `None` before the first: only a date
    /// that `make_date` made of those very fields is kept, so a date taken from
    /// here is the one `make_date` would make again.
    static LAST_DATE: Cell<Option<KeptDate>> = const { Cell::new(None) };
}

/// A date kept in [`LAST_DATE`]: the fields (year, month, day) it was made
/// of, and the date.
type KeptDate = ((u32, u32, u32), Date);

/// The date of checked fields (and a four-digit year), or `None` when they
/// name no such day; kept in [`LAST_DATE`] for the next [`calendar`].
#[inline(never)]
fn make_date(year: u32, month: u32, day: u32) -> Option<Date> {
    // February has 29 days in a leap year: every 4th year, but not the
    // 100th unless the 400th. (`time::util::is_leap_year` here instead, so
    // that the compiler could fold `time`'s own repeats of the test into
    // it, was measured and rejected: SA logs -0.47% instructions, but MAP
    // logs +0.27% and dialogs +1.1%; see docs/spec-notes.md, "The
    // timestamp read".)
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_index = month.wrapping_sub(1) as usize; // 0-11 when valid
    let last_day = MONTH_DAYS
        .get(month_index)
        .map_or(0, |&d| u32::from(d) + u32::from(leap && month == 2));
    if (day == 0) | (day > last_day) {
        return None;
    }
    let before = DAYS_BEFORE.get(month_index).copied().unwrap_or(0);
    let ordinal = before + u16::from(leap && month > 2) + day as u16;
    let date = Date::from_ordinal_date(year as i32, ordinal).ok()?;
    LAST_DATE.with(|last| last.set(Some(((year, month, day), date))));
    Some(date)
}

/// [`parse_usual`] of any length and shape.
#[inline]
fn parse_usual_any(b: &[u8]) -> Option<(OffsetDateTime, Option<Shape>)> {
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

    let (nanos, digits, rest) = match b.get(19..) {
        Some([b'.', frac @ ..]) => {
            let (nanos, n) = fraction(b)?;
            (nanos, n, frac.get(n..)?)
        }
        Some(rest) => (0, 0, rest),
        None => return None,
    };
    let mut zone = Zone::Numeric;
    let offset = match rest {
        [b'Z'] => {
            zone = Zone::Upper;
            UtcOffset::UTC
        }
        [b'z'] => {
            zone = Zone::Lower;
            UtcOffset::UTC
        }
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
            if *sign == b'-' && h == 0 && m == 0 {
                zone = Zone::NegativeZero;
            }
            let (h, m) = (h as i8, m as i8);
            let (h, m) = if *sign == b'-' { (-h, -m) } else { (h, m) };
            UtcOffset::from_hms(h, m, 0).ok()?
        }
        _ => return None,
    };

    // Second 60 (a leap second) is left to the general parser.
    let at = calendar(year, month, day, hour, minute, second, nanos)?;
    let shape = Shape::new(digits, head[10] == b't', zone);
    Some((at.assume_offset(offset), shape))
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
        write!(f, "Timestamp({})", self.text())
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// What a timestamp's text is made of, for equality and hashing: a usual
/// text is one local date, time, offset and shape (not the instant alone),
/// and no usual text is kept as an `Other` (see [`Repr`]), so equal
/// spellings are equal texts.
#[derive(PartialEq, Eq, Hash)]
enum Spelling<'a> {
    Usual(Date, Time, UtcOffset, Shape),
    Other(&'a str),
}

impl Timestamp {
    fn spelling(&self) -> Spelling<'_> {
        match &self.0 {
            Repr::Usual { at, shape } => Spelling::Usual(at.date(), at.time(), at.offset(), *shape),
            Repr::Other(other) => Spelling::Other(&other.text),
        }
    }
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Self) -> bool {
        self.spelling() == other.spelling()
    }
}

impl Eq for Timestamp {}

impl Hash for Timestamp {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.spelling().hash(state);
    }
}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Self) -> Ordering {
        self.instant()
            .cmp(&other.instant())
            .then_with(|| self.text().cmp(&other.text()))
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
        s.serialize_str(&self.text())
    }
}

/// The `Deserialize` visitor's answer for a text that is not of the usual
/// spellings: a kept text, or the error (its cold side).
#[cold]
#[inline(never)]
fn visit_other<E: serde::de::Error>(s: &str) -> Result<Timestamp, E> {
    Timestamp::parse(s).map_err(|e| mplp_json::de::raise(crate::Rule::FORMAT, e))
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
                // The usual spellings here, the rest (kept texts and
                // errors) out of line.
                match parse_usual(s.as_bytes()) {
                    Some((at, Some(shape))) => Ok(Timestamp(Repr::Usual { at, shape })),
                    _ => visit_other(s),
                }
            }
        }
        d.deserialize_str(V)
    }
}

/// The fast reader's read: the same value as `Deserialize`. The commonest
/// spelling (24 bytes, `YYYY-MM-DDTHH:MM:SS.fffZ`) is parsed where it
/// stands, without the scan for the string's end (`fixed_str`): what
/// [`parse_millis_z`] takes is digits, separators, `T` and `Z` only, so the
/// 24 bytes are the whole string token, and its value is the one
/// [`Timestamp::parse`] gives for them.
impl mplp_json::fast::Direct for Timestamp {
    #[inline]
    fn read(r: &mut mplp_json::fast::Reader<'_>) -> Result<Self, mplp_json::fast::GaveUp> {
        if let Some((at, Some(shape))) = r.fixed_str::<24>().and_then(parse_millis_z) {
            r.skip_fixed_str::<24>();
            return Ok(Timestamp(Repr::Usual { at, shape }));
        }
        r.read_str(|s| Timestamp::parse(s).ok())
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
            assert_eq!(t.text(), s);
            assert_eq!(serde_json::to_string(&t).unwrap(), format!("\"{s}\""));
        }
    }

    /// Whether `t` holds its text as it is (on the heap).
    fn is_kept(t: &Timestamp) -> bool {
        matches!(t.0, Repr::Other(_))
    }

    #[test]
    fn fractions_of_every_length_keep_their_text() {
        // Up to nine digits the text is written back from the instant and
        // its shape; beyond, it is kept as it is.
        let digits: String = ('1'..='9').chain('0'..='9').cycle().take(40).collect();
        for n in 0..=digits.len() {
            for zone in ["Z", "z", "+05:30", "-05:30", "+00:00", "-00:00", "-00:30"] {
                let dot = if n == 0 { "" } else { "." };
                let s = format!("2025-12-07T00:00:05{dot}{}{zone}", &digits[..n]);
                let t = Timestamp::parse(&s).unwrap();
                assert_eq!(t.text(), s.as_str());
                assert_eq!(t.to_string(), s);
                assert_eq!(is_kept(&t), n > 9, "{s}");
                assert_eq!(t.clone(), t);
            }
        }
        let zeros = Timestamp::parse("2025-12-07T00:00:05.000000000+00:00").unwrap();
        assert_eq!(zeros.text(), "2025-12-07T00:00:05.000000000+00:00");
        assert_eq!(zeros.text().len(), LONGEST);
        assert!(!is_kept(&zeros));
    }

    #[test]
    fn a_timestamp_is_small() {
        // The point of not keeping the usual texts: 24 bytes (a `Message`
        // of a dialog holds one), and no more for an `Option`.
        assert_eq!(std::mem::size_of::<Timestamp>(), 24);
        assert_eq!(std::mem::size_of::<Option<Timestamp>>(), 24);
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

    /// One of a few spellings of instants a second or an offset apart:
    /// `T` or `t`, `Z`, `z` or an offset (`-00:00` included), no fraction
    /// or one of up to eleven digits (kept beyond nine), and the leap
    /// second `60`.
    fn close_spelling() -> impl Strategy<Value = String> {
        (
            prop_oneof![Just('T'), Just('t')],
            prop_oneof![Just("59"), Just("58"), Just("60")],
            prop_oneof![
                Just(""),
                Just(".5"),
                Just(".50"),
                Just(".500000000"),
                Just(".5000000000"),
                Just(".50000000000")
            ],
            prop_oneof![
                Just("Z"),
                Just("z"),
                Just("+00:00"),
                Just("-00:00"),
                Just("+01:00"),
                Just("-00:30")
            ],
        )
            .prop_map(|(t, s, frac, off)| {
                // A leap second is only at 23:59:60 UTC.
                let utc = matches!(off, "Z" | "z" | "+00:00" | "-00:00");
                let off = if s == "60" && !utc { "Z" } else { off };
                format!("2016-12-31{t}23:59:{s}{frac}{off}")
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
        assert_eq!(long.text(), "2025-12-07T00:00:05.123456789987Z");
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
            assert_eq!(t.text(), s);
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
        assert_eq!(a, Timestamp::parse(&a.text()).unwrap());
        // Same instant: ties broken by the text.
        assert_eq!(a.cmp(&b), a.text().cmp(&b.text()));
        assert_eq!(a.partial_cmp(&b), Some(a.text().cmp(&b.text())));
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
        assert_eq!(t.text(), "2025-01-02T04:04:05.006Z");
        assert_eq!(t.instant(), datetime!(2025-01-02 04:04:05.006 UTC));
        assert_eq!(t.instant().offset(), UtcOffset::UTC);
        let t = Timestamp::from_datetime(datetime!(0001-01-01 00:00:00 UTC));
        assert_eq!(t.text(), "0001-01-01T00:00:00.000Z");
        // Years RFC 3339 cannot write: a readable text, refused by `parse`.
        let t = Timestamp::from_datetime(datetime!(-0001-12-31 23:59:59.5 UTC));
        assert_eq!(t.text(), "-1-12-31T23:59:59.500Z");
        assert!(Timestamp::parse(&t.text()).is_err());
        assert_eq!(t.instant(), datetime!(-0001-12-31 23:59:59.5 UTC));
    }

    #[test]
    fn a_text_compares_as_its_str() {
        let a = Timestamp::parse("2025-12-07T00:00:05.5Z").unwrap();
        let b = Timestamp::parse("2025-12-07T00:00:05.50Z").unwrap();
        let leap = Timestamp::parse("2016-12-31T23:59:60Z").unwrap();
        let (ta, tb, tl) = (a.text(), b.text(), leap.text());
        // With itself (written and kept texts alike), `str`, `&str`, `String`.
        assert!(ta == a.text() && tl == leap.text());
        assert!(ta != tb && tl != ta);
        assert!(ta == *"2025-12-07T00:00:05.5Z" && ta != *"2025-12-07T00:00:05.50Z");
        assert!(tl == *"2016-12-31T23:59:60Z" && tl != *"2016-12-31T23:59:59Z");
        assert!(ta == "2025-12-07T00:00:05.5Z" && ta != "2025-12-07T00:00:05.6Z");
        let (same, other) = (String::from("2025-12-07T00:00:05.5Z"), String::from("Z"));
        assert!(ta == same && ta != other);
        let s: &str = ta.as_ref();
        assert_eq!(s, "2025-12-07T00:00:05.5Z");
        assert_eq!(AsRef::<str>::as_ref(&tl), "2016-12-31T23:59:60Z");
        assert_eq!(ta.cmp(&tb), Ordering::Greater); // "5Z" > "50Z"
        assert_eq!(tb.partial_cmp(&ta), Some(Ordering::Less));
        assert_eq!(
            format!("{ta} {tl:?}"),
            "2025-12-07T00:00:05.5Z \"2016-12-31T23:59:60Z\""
        );
    }

    #[test]
    fn unusual_texts_are_kept_whole() {
        for s in [
            "2025-12-07T00:00:05.1234567890123456789012345+05:30",
            "2025-12-07T00:00:05.1234567890Z",
            "2016-12-31T23:59:60Z",
            "2016-12-31T23:59:60.5z",
            "2016-12-31t18:59:60-05:00",
        ] {
            let t = Timestamp::parse(s).unwrap();
            assert!(is_kept(&t), "{s}");
            assert_eq!(t.text(), s);
            assert_eq!(t.clone().to_string(), s);
            assert_eq!(format!("{:?}", t.text()), format!("{s:?}"));
            assert_eq!(t, Timestamp::parse(s).unwrap());
        }
        // One instant, a usual text and a kept one: different values.
        let leap = Timestamp::parse("2016-12-31T23:59:60Z").unwrap();
        let usual = Timestamp::parse("2016-12-31T23:59:59.999999999Z").unwrap();
        assert_eq!(leap.instant(), usual.instant());
        assert_ne!(leap, usual);
        assert_eq!(leap.cmp(&usual), Ordering::Greater); // "60" > "59"
        let ten = Timestamp::parse("2016-12-31T23:59:59.9999999990Z").unwrap();
        assert_eq!((ten.instant(), is_kept(&ten)), (usual.instant(), true));
        assert_ne!(ten, usual);
        assert_eq!(usual.cmp(&ten), Ordering::Greater); // "Z" > "0"
    }

    #[test]
    fn the_spellings_of_zero_offset_stay_apart() {
        let texts = [
            "2025-12-07T00:00:05Z",
            "2025-12-07T00:00:05z",
            "2025-12-07T00:00:05+00:00",
            "2025-12-07T00:00:05-00:00",
            "2025-12-07t00:00:05Z",
            "2025-12-07T00:00:05.0Z",
            "2025-12-07T00:00:05.00Z",
        ];
        let state = std::collections::hash_map::RandomState::new();
        use std::hash::BuildHasher;
        for (i, a) in texts.iter().enumerate() {
            let x = Timestamp::parse(a).unwrap();
            assert_eq!(x.text(), *a);
            assert_eq!(x.instant(), Timestamp::parse(texts[0]).unwrap().instant());
            for (j, b) in texts.iter().enumerate() {
                let y = Timestamp::parse(b).unwrap();
                assert_eq!(x == y, i == j, "{a} {b}");
                assert_eq!(x.cmp(&y), a.cmp(b), "{a} {b}");
                if i == j {
                    assert_eq!(state.hash_one(&x), state.hash_one(&y));
                }
            }
        }
    }

    #[test]
    fn serde_and_check_value_report_the_format_rule() {
        use crate::{Pointer, Report, Rule, check::CheckValue};
        let err = serde_json::from_str::<Timestamp>("\"2025-12-07\"").unwrap_err();
        assert!(
            err.to_string().contains("is not an RFC 3339 date-time"),
            "{err}"
        );
        assert_eq!(mplp_json::de::take_raised(), Some(Rule::FORMAT));
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
            prop_assert_eq!(t.text(), text.as_str());
            prop_assert_eq!(t.instant(), want);
            prop_assert_eq!(t.instant().offset(), want.offset());
            prop_assert_eq!(t.instant().to_offset(UtcOffset::UTC).time(), want.to_offset(UtcOffset::UTC).time());
            let back: Timestamp = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
            prop_assert_eq!(&back, &t);
            prop_assert_eq!(back.instant(), want);
        }

        /// The fast path takes every text [`write`] can give, so only leap
        /// seconds and fractions of more than nine digits are kept as text
        /// (which equality by text relies on: see `Repr`).
        #[test]
        fn only_the_unusual_texts_are_kept((_, _, frac, _, text) in valid_parts(), leap in any::<bool>()) {
            let dot = if frac.is_empty() { "" } else { "." };
            let text = if leap { format!("2016-12-31T23:59:60{dot}{frac}Z") } else { text };
            let t = Timestamp::parse(&text).unwrap();
            prop_assert_eq!(is_kept(&t), leap || frac.len() > 9, "{}", text);
            prop_assert_eq!(t.text(), text.as_str());
        }

        /// Equality, hashing and ordering are those of the texts (ordering
        /// after the instants), whether a text is written back from its
        /// instant and shape or kept: two spellings drawn from a small set
        /// of close ones (so that equal texts, equal instants and one
        /// leap second come up often).
        #[test]
        fn equality_and_order_follow_the_text(
            a in close_spelling(),
            b in close_spelling(),
        ) {
            use std::hash::BuildHasher;
            let (x, y) = (Timestamp::parse(&a).unwrap(), Timestamp::parse(&b).unwrap());
            prop_assert_eq!(x.text(), a.as_str());
            prop_assert_eq!(x == y, a == b, "{} {}", a, b);
            let state = std::collections::hash_map::RandomState::new();
            if a == b {
                prop_assert_eq!(state.hash_one(&x), state.hash_one(&y));
            }
            let want = x.instant().cmp(&y.instant()).then_with(|| a.cmp(&b));
            prop_assert_eq!(x.cmp(&y), want, "{} {}", a, b);
            prop_assert_eq!(x.text().cmp(&y.text()), a.cmp(&b));
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

    /// `Timestamp::parse` through the general parser alone (the library's
    /// fallback): the reference the fast path is held to.
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
            (t.text().to_string(), at.date(), at.time(), at.offset())
        })
    }

    /// The fast path agrees with the general parser on `b`: where it gives
    /// an instant the general parser gives the same (fields and offset), and
    /// `Timestamp::parse` gives what the old `parse` gave.
    fn check_same(b: &[u8]) -> Result<(), TestCaseError> {
        if let Some((at, _)) = parse_usual(b) {
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
            let fast = parse_usual(s.as_bytes()).map(|(at, _)| at);
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

    /// What a fast path made of a text, comparable.
    #[allow(clippy::type_complexity)]
    fn usual_fields(
        r: Option<(OffsetDateTime, Option<Shape>)>,
    ) -> Option<(Date, Time, UtcOffset, Option<Shape>)> {
        r.map(|(at, shape)| (at.date(), at.time(), at.offset(), shape))
    }

    /// The milliseconds-and-`Z` path gives what the path for any spelling
    /// gives, on every 24-byte text (`None` included: the other path takes
    /// no 24-byte text this one refuses).
    fn check_millis_z(b: &[u8; 24]) -> Result<(), TestCaseError> {
        prop_assert_eq!(
            usual_fields(parse_millis_z(b)),
            usual_fields(parse_usual_any(b)),
            "{:?}",
            String::from_utf8_lossy(b)
        );
        Ok(())
    }

    #[test]
    fn the_millisecond_path_agrees_on_every_byte_at_every_position() {
        for s in [
            *b"2025-12-07T00:00:00.000Z",
            *b"2024-02-29T23:59:59.999z",
            *b"2026-11-27t20:39:09.947Z",
            *b"0000-01-01T00:00:00.000Z",
            *b"9999-12-31T23:59:59.999Z",
            *b"2016-12-31T23:59:60.500Z",
        ] {
            check_millis_z(&s).unwrap();
            for i in 0..24 {
                for c in 0..=255u8 {
                    let mut b = s;
                    b[i] = c;
                    check_millis_z(&b).unwrap();
                }
            }
        }
        // Two wrong bytes in the same lane of two words (whose marks are
        // the same bits): each is still refused.
        let s = *b"2025-12-07T00:00:00.000Z";
        for i in 0..16 {
            for j in [i + 8, i + 16].into_iter().filter(|&j| j < 24) {
                for c in [b'x', b'/', b':', b' ', 0x80, b'A'] {
                    let mut b = s;
                    b[i] = c;
                    b[j] = c;
                    check_millis_z(&b).unwrap();
                }
            }
        }
        let (at, shape) = parse_millis_z(b"2026-11-27t20:39:09.947z").unwrap();
        assert_eq!(
            (at.year(), at.month(), at.day(), at.hour(), at.minute()),
            (2026, Month::November, 27, 20, 39)
        );
        assert_eq!((at.second(), at.nanosecond()), (9, 947_000_000));
        assert_eq!(shape, Shape::new(3, true, Zone::Lower));
        let (_, shape) = parse_millis_z(b"2026-11-27T20:39:09.947Z").unwrap();
        assert_eq!(shape, Shape::new(3, false, Zone::Upper));
    }

    /// What `time`'s checked constructors make of the fields: the date and
    /// time of a valid day and clock, `None` for anything else (and for a
    /// leap second, which [`calendar`] leaves to the general parser).
    fn checked_calendar(
        (year, month, day): (u32, u32, u32),
        (hour, minute, second): (u32, u32, u32),
        nanos: u32,
    ) -> Option<PrimitiveDateTime> {
        if second == 60 {
            return None;
        }
        let month = Month::try_from(u8::try_from(month).ok()?).ok()?;
        let date =
            Date::from_calendar_date(i32::try_from(year).ok()?, month, u8::try_from(day).ok()?)
                .ok()?;
        let time = Time::from_hms_nano(
            u8::try_from(hour).ok()?,
            u8::try_from(minute).ok()?,
            u8::try_from(second).ok()?,
            nanos,
        )
        .ok()?;
        Some(PrimitiveDateTime::new(date, time))
    }

    /// Years that test the leap rule (every 4th, not the 100th unless the
    /// 400th) and the ends of the range, or any year at all.
    fn a_year() -> impl Strategy<Value = u32> {
        prop_oneof![
            prop::sample::select(vec![
                0u32, 1, 4, 100, 400, 1900, 2000, 2024, 2100, 2400, 9996, 9999
            ]),
            0u32..=9999,
        ]
    }

    /// A date and a clock whose fields are in their ranges or just past
    /// them (day 0 and 29 to 32, month 0 and 13, hour 24 and 25, minute and
    /// second 60 and 61), for the two property tests below.
    fn near_valid_fields() -> impl Strategy<Value = ((u32, u32, u32), (u32, u32, u32))> {
        (
            (a_year(), 0u32..=13, prop_oneof![0u32..=32, 28u32..=32]),
            (
                prop_oneof![0u32..=23, 22u32..=25],
                prop_oneof![0u32..=59, 58u32..=61],
                prop_oneof![0u32..=59, 58u32..=61],
            ),
        )
    }

    #[test]
    fn calendar_agrees_on_every_day_of_the_leap_rule_years() {
        // Every month (and 0, 13) and day (0 to 32) of the years that decide
        // the leap rule and the ends of the range, at the clock's edges.
        for year in [
            0u32, 1, 4, 100, 400, 1900, 2000, 2023, 2024, 2100, 2400, 9999,
        ] {
            for month in 0..=13 {
                for day in 0..=32 {
                    for (hms, nanos) in [((0, 0, 0), 0), ((23, 59, 59), 999_999_999)] {
                        assert_eq!(
                            calendar(year, month, day, hms.0, hms.1, hms.2, nanos),
                            checked_calendar((year, month, day), hms, nanos),
                            "{year}-{month}-{day}"
                        );
                    }
                }
            }
        }
    }

    proptest! {
        /// The fast path's date and time, made from fields it has checked
        /// (its own leap-year rule and days-before-month table, then
        /// `Date::from_ordinal_date`), are those of `time`'s checked
        /// calendar constructors, on valid fields and on fields just past
        /// their ranges (day 0, day 29 to 32 of every month, month 0 and
        /// 13, hour 24, minute and second 60 and 61).
        #[test]
        fn calendar_agrees_with_the_checked_constructors(
            ((year, month, day), (hour, minute, second)) in near_valid_fields(),
            nanos in prop_oneof![0u32..1_000_000_000, Just(0u32), Just(999_999_999u32)],
        ) {
            prop_assert_eq!(
                calendar(year, month, day, hour, minute, second, nanos),
                checked_calendar((year, month, day), (hour, minute, second), nanos)
            );
        }

        /// The date kept from the last call (`LAST_DATE`) changes nothing:
        /// runs of fields from a few dates (valid or not, in and out of
        /// their ranges, so that a date is taken from the last call, made
        /// again after another, or refused next to a kept one) give what
        /// `time`'s checked constructors give, call after call, and a text
        /// (milliseconds and `Z`: the fixed-width path the fast reader
        /// takes too) parsed twice gives the same value, the second time on
        /// the date of the first.
        #[test]
        fn the_kept_date_is_the_date_of_the_fields(
            dates in prop::collection::vec(
                (prop_oneof![Just(2024u32), Just(2100), Just(2000), a_year()], 0u32..=13, 0u32..=32),
                1..4,
            ),
            calls in prop::collection::vec(
                (0usize..4, (0u32..=24, 0u32..=60, 0u32..=60), 0u32..1_000_000_000),
                1..24,
            ),
        ) {
            for (which, (hour, minute, second), nanos) in calls {
                let (year, month, day) = dates[which % dates.len()];
                let want = checked_calendar((year, month, day), (hour, minute, second), nanos);
                prop_assert_eq!(calendar(year, month, day, hour, minute, second, nanos), want);
                let text = format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{:03}Z", nanos / 1_000_000);
                let first = Timestamp::parse(&text).map(|t| (t.instant(), t.text().to_string()));
                let again = Timestamp::parse(&text).map(|t| (t.instant(), t.text().to_string()));
                prop_assert_eq!(&first, &again, "{}", text);
                let millis = nanos / 1_000_000 * 1_000_000;
                if let Some(at) = checked_calendar((year, month, day), (hour, minute, second), millis) {
                    prop_assert_eq!(first.ok().map(|(instant, _)| instant), Some(at.assume_utc()), "{}", text);
                }
            }
        }

        /// The same through the whole fast path: a text made of those
        /// fields (`Z`, a numeric offset or milliseconds and `Z`) reads as
        /// the constructors say, or goes to the general parser, which
        /// refuses it exactly when the constructors do (a leap second
        /// aside, which it keeps).
        #[test]
        fn texts_of_near_valid_fields_agree_with_the_checked_constructors(
            ((year, month, day), (hour, minute, second)) in near_valid_fields(),
            millis in 0u32..1000,
            tail in prop::sample::select(vec!["Z", ".{ms}Z", ".{ms}z", "+05:30", ".{ms}-00:00", "+00:00"]),
        ) {
            let text = format!(
                "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{}",
                tail.replace("{ms}", &format!("{millis:03}"))
            );
            let nanos = if tail.contains("{ms}") { millis * 1_000_000 } else { 0 };
            let want = checked_calendar((year, month, day), (hour, minute, second), nanos);
            match parse_usual(text.as_bytes()) {
                Some((at, shape)) => {
                    prop_assert_eq!(Some(PrimitiveDateTime::new(at.date(), at.time())), want, "{}", text);
                    prop_assert!(shape.is_some());
                    let t = Timestamp::parse(&text).unwrap();
                    prop_assert_eq!(t.text(), text.as_str());
                }
                None => {
                    prop_assert_eq!(want, None, "{}", text);
                    // Refused by the general parser too, with its reason,
                    // unless it is a leap second (23:59:60 UTC of a valid day).
                    let offset = if tail == "+05:30" { 330 } else { 0 };
                    let leap_second = second == 60
                        && checked_calendar((year, month, day), (hour, minute, 59), nanos).is_some()
                        && (i64::from(hour * 60 + minute) - offset).rem_euclid(24 * 60) == 23 * 60 + 59;
                    prop_assert_eq!(Timestamp::parse(&text).is_ok(), leap_second, "{}", text);
                }
            }
        }
    }

    #[test]
    fn fast_path_agrees_on_every_byte_at_every_position() {
        for s in [
            "2025-12-07T00:00:00.000Z",
            "2024-02-29T13:45:10Z",
            "2025-12-07T13:45:10.123456+02:00",
            "2025-12-07T13:45:10.123456789-05:30",
            "2016-12-31T23:59:60.5Z",
            "2024-02-29T23:59:59.999z",
            "2026-11-27t20:39:09.947Z",
            "2100-02-28T00:00:00.000Z",
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
            prop_assert_eq!(t.text().len(), 24);
            let back = Timestamp::parse(&t.text()).unwrap();
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
        /// Any date and time fields (valid or just out of range) in the
        /// milliseconds-and-`Z` spelling, maybe with one byte changed: the
        /// milliseconds path agrees with the path for any spelling.
        #[test]
        fn millisecond_path_agrees_on_near_texts(
            (y, mo, d) in (0u32..=9999, 0u32..=13, 0u32..=32),
            (h, mi, sec, ms) in (0u32..=24, 0u32..=60, 0u32..=60, 0u32..1000),
            (t, z) in (prop_oneof![Just('T'), Just('t')], prop_oneof![Just('Z'), Just('z')]),
            edit in proptest::option::of((0usize..24, any::<u8>())),
        ) {
            let text = format!("{y:04}-{mo:02}-{d:02}{t}{h:02}:{mi:02}:{sec:02}.{ms:03}{z}");
            let mut b: [u8; 24] = text.as_bytes().try_into().unwrap();
            check_millis_z(&b)?;
            if let Some((i, c)) = edit {
                b[i] = c;
                check_millis_z(&b)?;
            }
        }

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
            prop_assert_eq!(t.text(), text.as_str());
            let json = serde_json::to_string(&t).unwrap();
            let back: Timestamp = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(back, t);
        }
    }
}
