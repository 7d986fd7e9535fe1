//! Parsers of numeric arguments whose errors say what to do: the range, the
//! maximum, `all`. (clap's own say "number too large to fit in target type"
//! without the maximum, and take `-1` for an option, suggesting `-- -1`,
//! which would make it a file name.)

/// Parses a count from 0 to `max`; the message of a value outside names
/// the range and what `what` is ("turns").
pub(crate) fn count(s: &str, max: u64, what: &str) -> Result<u64, String> {
    count_in(s, 0, max, what)
}

/// Parses a count from `min` to `max`; the message of a value outside
/// names the range and what `what` is ("turns").
pub(crate) fn count_in(s: &str, min: u64, max: u64, what: &str) -> Result<u64, String> {
    let range = || {
        format!(
            "give a number of {what} from {} to {}",
            grouped(min),
            grouped(max)
        )
    };
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = s.strip_prefix('-') {
        if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{s}` is negative: {}", range()));
        }
    }
    if !digits {
        return Err(format!("`{s}` is not a number: {}", range()));
    }
    match s.parse::<u64>() {
        Ok(n) if n < min => Err(format!("`{s}` is less than the minimum: {}", range())),
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!(
            "`{s}` is more than the maximum, {} {what}",
            grouped(max)
        )),
    }
}

/// A clap value parser of a count of `what` (a plural noun: "bytes") from
/// `min` to the largest `T`, with [`count_in`]'s messages. Use it with
/// `allow_negative_numbers = true`, so that `-1` reaches it (clap would take
/// it for an option and suggest `-- -1`, which makes it a file name).
pub(crate) fn counts<T>(
    min: u64,
    what: &'static str,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: Bounded + Clone + Send + Sync + 'static,
{
    counts_to(min, T::MAX_U64, what)
}

/// [`counts`] up to `max` (at most the largest `T`).
pub(crate) fn counts_to<T>(
    min: u64,
    max: u64,
    what: &'static str,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: Bounded + Clone + Send + Sync + 'static,
{
    let max = max.min(T::MAX_U64);
    move |s| count_in(s, min, max, what).map(T::from_u64_saturating)
}

/// An unsigned integer type an option is read into.
pub(crate) trait Bounded: Sized {
    /// Its largest value, as a `u64` (saturated).
    const MAX_U64: u64;
    /// `n`, or the largest value when `n` is larger.
    fn from_u64_saturating(n: u64) -> Self;
}

macro_rules! bounded {
    ($($t:ty),*) => {$(
        impl Bounded for $t {
            const MAX_U64: u64 = if (<$t>::MAX as u128) < (u64::MAX as u128) {
                <$t>::MAX as u64
            } else {
                u64::MAX
            };
            fn from_u64_saturating(n: u64) -> Self {
                <$t>::try_from(n).unwrap_or(<$t>::MAX)
            }
        }
    )*};
}
bounded!(u16, u32, u64, usize);

/// `1000000000` as `1,000,000,000`.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Bounded, count, count_in, counts, counts_to, grouped};

    #[test]
    fn counts_in_range_are_read() {
        assert_eq!(count("0", 10, "turns"), Ok(0));
        assert_eq!(count("10", 10, "turns"), Ok(10));
        assert_eq!(count("007", 10, "turns"), Ok(7));
    }

    #[test]
    fn counts_out_of_range_name_the_maximum() {
        let max = 1_000_000_000;
        for too_big in ["1000000001", "18446744073709551616", "99999999999999999999"] {
            assert_eq!(
                count(too_big, max, "turns"),
                Err(format!(
                    "`{too_big}` is more than the maximum, 1,000,000,000 turns"
                ))
            );
        }
        assert_eq!(
            count("-1", max, "turns"),
            Err("`-1` is negative: give a number of turns from 0 to 1,000,000,000".to_owned())
        );
        for bad in ["", "1.5", "1e3", "ten", "-", "+1"] {
            let e = count(bad, max, "turns").unwrap_err();
            assert!(
                e.contains("is not a number") && e.contains("from 0 to 1,000,000,000"),
                "{e}"
            );
        }
    }

    #[test]
    fn counts_below_the_minimum_name_the_range() {
        assert_eq!(count_in("1", 1, 5, "tokens"), Ok(1));
        assert_eq!(count_in("5", 1, 5, "tokens"), Ok(5));
        assert_eq!(
            count_in("0", 1, 5, "tokens"),
            Err("`0` is less than the minimum: give a number of tokens from 1 to 5".to_owned())
        );
        assert_eq!(
            count_in("6", 1, 5, "tokens"),
            Err("`6` is more than the maximum, 5 tokens".to_owned())
        );
    }

    #[test]
    fn typed_counts_stop_at_their_type_s_maximum() {
        assert_eq!(u16::MAX_U64, 65_535);
        assert_eq!(u32::MAX_U64, 4_294_967_295);
        assert_eq!(u64::MAX_U64, u64::MAX);
        assert_eq!(
            usize::MAX_U64,
            u64::try_from(usize::MAX).unwrap_or(u64::MAX)
        );
        assert_eq!(u16::from_u64_saturating(70_000), u16::MAX);
        assert_eq!(u16::from_u64_saturating(7), 7);
        let p = counts::<u32>(1, "tokens");
        assert_eq!(p("4294967295"), Ok(u32::MAX));
        assert_eq!(
            p("4294967296"),
            Err("`4294967296` is more than the maximum, 4,294,967,295 tokens".to_owned())
        );
        assert_eq!(
            p("0"),
            Err(
                "`0` is less than the minimum: give a number of tokens from 1 to 4,294,967,295"
                    .to_owned()
            )
        );
        let p = counts_to::<u16>(1, 10_000, "participants");
        assert_eq!(p("10000"), Ok(10_000));
        assert_eq!(
            p("10001"),
            Err("`10001` is more than the maximum, 10,000 participants".to_owned())
        );
        // A maximum above the type's is the type's.
        let p = counts_to::<u16>(0, u64::MAX, "things");
        assert_eq!(
            p("65536"),
            Err("`65536` is more than the maximum, 65,535 things".to_owned())
        );
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_000_000_000), "1,000,000,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }
}
