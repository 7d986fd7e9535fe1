//! Time of `mplp_core::Timestamp::parse` on N typical timestamps (default
//! 10,000: a mix of `2025-12-07T00:00:00.000Z`, `2025-12-07T13:45:10Z`,
//! `2025-12-07T13:45:10.123456+02:00` and nanosecond forms with random
//! fields), in nanoseconds per timestamp, next to the parser it replaced
//! (copied here: the general field-by-field parser and the inline text), both
//! measured in the same run after checking that they agree on every input.
//! Each figure is the best of R rounds (default 50), the rounds of the two
//! alternating.
//!
//! `cargo run --release -p mplp-core --example parse_timestamp_speed -- [N] [R]`
#![allow(clippy::unwrap_used, clippy::expect_used)] // an example binary: failing loudly is right

use std::hint::black_box;
use std::time::Instant;

use mplp_core::Timestamp;
use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

/// The parser as it was: what `Timestamp::parse` did before the fast path.
mod before {
    use super::*;

    /// A timestamp as the old parser built it: the text inline, the instant.
    pub(crate) struct Parsed {
        len: u8,
        buf: [u8; INLINE],
        heap: Option<Box<str>>,
        pub(crate) at: OffsetDateTime,
    }

    impl Parsed {
        /// The kept text.
        pub(crate) fn as_str(&self) -> &str {
            match &self.heap {
                Some(s) => s,
                None => std::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or(""),
            }
        }
    }

    const INLINE: usize = 38;

    /// `Text::new` as it was.
    fn text(s: &str, at: OffsetDateTime) -> Parsed {
        let b = s.as_bytes();
        if b.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            if !put::<32>(&mut buf, b) && !put::<16>(&mut buf, b) {
                buf[..b.len()].copy_from_slice(b);
            }
            Parsed {
                len: b.len() as u8,
                buf,
                heap: None,
                at,
            }
        } else {
            Parsed {
                len: 0,
                buf: [0; INLINE],
                heap: Some(s.into()),
                at,
            }
        }
    }

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

    /// `Timestamp::parse` as it was (the error as its message).
    pub(crate) fn parse(text: &str) -> Result<Parsed, String> {
        match parse_rfc3339(text.as_bytes()) {
            Ok(at) => Ok(self::text(text, at)),
            Err(reason) => Err(format!(
                "`{text}` is not an RFC 3339 date-time (expected e.g. 2025-12-07T00:00:05.000Z or 2025-12-07T08:00:05+08:00): {reason}"
            )),
        }
    }

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
        let shape =
            "expected YYYY-MM-DDTHH:MM:SS with an optional fraction and a Z or ±HH:MM offset";
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
                let (Some(h), Some(m)) = (digits(&[*h1, *h2], 0, 2), digits(&[*m1, *m2], 0, 2))
                else {
                    return Err("the offset must be ±HH:MM");
                };
                if h > 23 || m > 59 {
                    return Err("the offset is out of range");
                }
                let (h, m) = (h as i8, m as i8);
                let (h, m) = if *sign == b'-' { (-h, -m) } else { (h, m) };
                UtcOffset::from_hms(h, m, 0).map_err(|_| "the offset is out of range")?
            }
            _ => {
                return Err("an offset (`Z` or ±HH:MM, with a colon) is required after the time");
            }
        };
        let month = u8::try_from(month)
            .ok()
            .and_then(|m| Month::try_from(m).ok())
            .ok_or("the month must be 01 to 12")?;
        let date = Date::from_calendar_date(year as i32, month, day as u8)
            .map_err(|_| "no such day in that month")?;
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
}

/// A small deterministic generator (xorshift64*), so that runs compare.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) % n
    }
}

/// `n` typical timestamps: a quarter each with milliseconds and `Z` (as
/// `Timestamp::now` writes them), no fraction and `Z`, microseconds and an
/// offset, nanoseconds and an offset.
fn typical(n: usize) -> Vec<String> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|i| {
            let y = 1970 + rng.below(100);
            let mo = 1 + rng.below(12);
            let d = 1 + rng.below(28);
            let (h, mi, s) = (rng.below(24), rng.below(60), rng.below(60));
            let head = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}");
            let sign = if rng.below(2) == 0 { '+' } else { '-' };
            let (oh, om) = (rng.below(15), [0, 30, 45][rng.below(3) as usize]);
            match i % 4 {
                0 => format!("{head}.{:03}Z", rng.below(1000)),
                1 => format!("{head}Z"),
                2 => format!("{head}.{:06}{sign}{oh:02}:{om:02}", rng.below(1_000_000)),
                _ => format!(
                    "{head}.{:09}{sign}{oh:02}:{om:02}",
                    rng.below(1_000_000_000)
                ),
            }
        })
        .collect()
}

/// Nanoseconds per timestamp of one pass of `parse` over `texts`.
fn round<T>(texts: &[String], parse: impl Fn(&str) -> T, nanos: impl Fn(&T) -> u32) -> f64 {
    let start = Instant::now();
    let mut acc = 0u32;
    for s in texts {
        let t = parse(black_box(s));
        acc ^= nanos(&t);
        black_box(t);
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / texts.len() as f64
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(10_000, |a| a.parse().unwrap());
    let rounds: usize = args.next().map_or(50, |a| a.parse().unwrap());
    let texts = typical(n);
    for s in &texts {
        let (new, old) = (Timestamp::parse(s).unwrap(), before::parse(s).unwrap());
        assert_eq!((&*new.text(), new.instant()), (old.as_str(), old.at), "{s}");
    }
    // And on broken texts: the same verdicts and messages.
    for s in &texts {
        for i in 0..s.len() {
            for c in [b'x', b'0', b'9', b'.', b'Z', b'+', b':'] {
                let mut b = s.clone().into_bytes();
                b[i] = c;
                let s = String::from_utf8(b).unwrap();
                let new = Timestamp::parse(&s).map(|t| (t.to_string(), t.instant()));
                let old = before::parse(&s).map(|t| (t.as_str().to_owned(), t.at));
                assert_eq!(new.map_err(|e| e.to_string()), old, "{s}");
            }
        }
    }
    let (mut old, mut new) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..rounds {
        old = old.min(round(
            &texts,
            |s| before::parse(s).unwrap(),
            |t| t.at.nanosecond(),
        ));
        new = new.min(round(
            &texts,
            |s| Timestamp::parse(s).unwrap(),
            |t| t.instant().nanosecond(),
        ));
    }
    println!("{n} typical timestamps, best of {rounds} rounds:");
    println!("  general parser (before): {old:6.2} ns/timestamp");
    println!("  fast path (after):       {new:6.2} ns/timestamp");
    println!("  speed-up:                {:6.2}x", old / new);
}
