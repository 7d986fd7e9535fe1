//! JSON Schema `integer` members as Rust integers: [`WireInteger`] and the
//! one verdict on a number ([`read_integer`]).

use crate::Rule;

/// A Rust integer type that holds a JSON Schema `integer` member. Unsigned
/// types stand for `minimum: 0` (every unsigned member of the schemas has
/// it); what lies beyond the type's range is refused with a message that
/// names the range (JSON Schema integers are unbounded: see
/// `docs/spec-notes.md`, "Integers").
pub trait WireInteger: Copy + TryFrom<i128> {
    /// The smallest value.
    const MIN: i128;
    /// The largest value.
    const MAX: i128;
    /// What the type is, in words ("a 64-bit unsigned integer").
    const WHAT: &'static str;
}

/// Reads a JSON number as an integer of type `T`, or says what is wrong with
/// it: the rule and the message. The one place for these verdicts: the
/// thorough pass (mplp-core's `check::check_integer`) and the typed readers
/// ([`crate::de::Integer`]) both call it.
///
/// - An integer written without fraction or exponent is read when it is in
///   `T`'s range; below 0 for an unsigned type is `minimum`, beyond the range
///   otherwise is `type` with a message that names the range.
/// - `-0` is the integer 0 (serde_json reads it as the float -0.0, the same
///   value as `-0.0` and `-0e0`, which are read as 0 too).
/// - Any other number written with a fraction or exponent (`1.0`, `1e2`) is
///   refused (`type`), a documented exception to JSON Schema; a whole number
///   beyond the range (`18446744073709551616`, `1e300`) gets the range
///   message.
///
/// ```
/// use mplp_json::integer::read_integer;
/// use serde_json::Number;
/// assert_eq!(read_integer::<u64>(&Number::from(7u64)), Ok(7));
/// assert_eq!(read_integer::<u64>(&Number::from_f64(-0.0).unwrap()), Ok(0));
/// let (rule, message) = read_integer::<u64>(&Number::from_f64(18446744073709551616.0).unwrap()).unwrap_err();
/// assert_eq!(rule.as_str(), "type");
/// assert!(message.contains("from 0 to 18446744073709551615"), "{message}");
/// let (_, message) = read_integer::<u64>(&Number::from_f64(1.0).unwrap()).unwrap_err();
/// assert!(message.contains("without a fraction or exponent"), "{message}");
/// ```
///
/// # Errors
/// The rule and message of a number that is not an integer of `T`.
pub fn read_integer<T: WireInteger>(n: &serde_json::Number) -> Result<T, (Rule, String)> {
    read_integer_as(n, None)
}

/// [`read_integer`], with the number echoed in messages as `written` (its
/// text in the input) when given: a number that `n` does not hold with its
/// value (`18446744073709551617` read as `1.8446744073709552e+19`, `1e400`
/// read as its stand-in) is shown as the user wrote it. See
/// [`crate::exact::written_at`].
///
/// ```
/// use mplp_json::integer::read_integer_as;
/// use serde_json::Number;
/// let n = Number::from_f64(18446744073709551617.0).unwrap();
/// let (_, message) = read_integer_as::<u64>(&n, Some("18446744073709551617")).unwrap_err();
/// assert!(message.ends_with("found 18446744073709551617"), "{message}");
/// ```
///
/// # Errors
/// As [`read_integer`].
pub fn read_integer_as<T: WireInteger>(
    n: &serde_json::Number,
    written: Option<&str>,
) -> Result<T, (Rule, String)> {
    let shown = Shown(n, written);
    let exact = n
        .as_u64()
        .map(i128::from)
        .or_else(|| n.as_i64().map(i128::from));
    let value = match exact {
        Some(v) => v,
        None => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f == 0.0 && f.is_sign_negative() {
                0
            } else if f.is_finite() && f.fract() == 0.0 && beyond::<T>(f as i128) {
                return Err(out_of_range::<T>(f < 0.0, &shown));
            } else {
                return Err((
                    Rule::TYPE,
                    format!(
                        "expected an integer written without a fraction or exponent, found {shown}"
                    ),
                ));
            }
        }
    };
    T::try_from(value).map_err(|_| out_of_range::<T>(value < 0, &shown))
}

/// A number as messages show it: as written when known, else as read.
struct Shown<'a>(&'a serde_json::Number, Option<&'a str>);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Some(text) => f.write_str(text),
            None => self.0.fmt(f),
        }
    }
}

/// The error for `n`, an integer outside `T`'s range: `minimum` when it is
/// negative and `T` unsigned (every unsigned member has `minimum: 0`),
/// else `type` with a message that names the range.
fn out_of_range<T: WireInteger>(negative: bool, n: &Shown<'_>) -> (Rule, String) {
    if negative && T::MIN == 0 {
        return (
            Rule::MINIMUM,
            format!("expected an integer of at least 0, found {n}"),
        );
    }
    (
        Rule::TYPE,
        format!(
            "expected an integer from {} to {} (the range of {}), found {n}",
            T::MIN,
            T::MAX,
            T::WHAT
        ),
    )
}

/// True when `whole`, a whole float read as an integer (`as` saturates, so
/// far beyond any range stays beyond it), lies outside `T`'s range. A
/// negative literal just past `i64::MIN` rounds to the float -2^63 itself,
/// which serde_json would have read as an integer had it been written as
/// one; so for signed types the bound itself counts as beyond.
fn beyond<T: WireInteger>(whole: i128) -> bool {
    whole < T::MIN || whole > T::MAX || (T::MIN < 0 && whole == T::MIN)
}

macro_rules! wire_integer {
    ($($t:ty => $what:literal),* $(,)?) => {$(
        impl WireInteger for $t {
            const MIN: i128 = <$t>::MIN as i128;
            const MAX: i128 = <$t>::MAX as i128;
            const WHAT: &'static str = $what;
        }
    )*};
}

wire_integer! {
    u8 => "an 8-bit unsigned integer",
    u16 => "a 16-bit unsigned integer",
    u32 => "a 32-bit unsigned integer",
    u64 => "a 64-bit unsigned integer",
    usize => "a pointer-sized unsigned integer",
    i8 => "an 8-bit signed integer",
    i16 => "a 16-bit signed integer",
    i32 => "a 32-bit signed integer",
    i64 => "a 64-bit signed integer",
}

/// Calls the macro `$m` with every [`WireInteger`] type, as a
/// comma-separated list (for a trait of another crate to be implemented
/// for each; an implementation detail of mplp-core).
#[doc(hidden)]
#[macro_export]
macro_rules! __wire_integers {
    ($m:ident) => {
        $m!(u8, u16, u32, u64, usize, i8, i16, i32, i64);
    };
}
