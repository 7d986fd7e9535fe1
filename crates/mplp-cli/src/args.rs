//! Parsers of numeric arguments whose errors say what to do: the range, the
//! maximum, `all`. (clap's own say "number too large to fit in target type"
//! without the maximum, and take `-1` for an option, suggesting `-- -1`,
//! which would make it a file name.)

/// Parses a count from 0 to `max`; the message of a value outside names
/// the range and what `what` is ("turns").
pub(crate) fn count(s: &str, max: u64, what: &str) -> Result<u64, String> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = s.strip_prefix('-') {
        if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "`{s}` is negative: give a number of {what} from 0 to {}",
                grouped(max)
            ));
        }
    }
    if !digits {
        return Err(format!(
            "`{s}` is not a number: give a number of {what} from 0 to {}",
            grouped(max)
        ));
    }
    match s.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!(
            "`{s}` is more than the maximum, {} {what}",
            grouped(max)
        )),
    }
}

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
    use super::{count, grouped};

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
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_000_000_000), "1,000,000,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }
}
