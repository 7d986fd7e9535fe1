//! Small helpers for text the SDK writes: counts with the right plural
//! ("1 turn", "2 turns"), so that no message says "1 turns"; the XML
//! escaping of the SVG pictures and the HTML report; the rule that keeps a
//! label on one line; and the header every SVG picture starts with.

use std::fmt::Display;

/// `n` followed by `noun`, with an `s` unless `n` is 1.
///
/// ```
/// use mplp_core::text::count;
/// assert_eq!(count(1, "completed turn"), "1 completed turn");
/// assert_eq!(count(0, "token"), "0 tokens");
/// assert_eq!(count(5_000, "token"), "5000 tokens");
/// ```
pub fn count<N: Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `n` followed by `singular` when `n` is 1, else by `plural` (for nouns
/// whose plural is not made with an `s`).
///
/// ```
/// use mplp_core::text::count_as;
/// assert_eq!(count_as(1, "entry", "entries"), "1 entry");
/// assert_eq!(count_as(2, "entry", "entries"), "2 entries");
/// ```
pub fn count_as<N: Display + PartialEq + From<u8>>(n: N, singular: &str, plural: &str) -> String {
    let one = n == N::from(1);
    format!("{n} {}", if one { singular } else { plural })
}

/// `s` when `n` is not 1: for a plural inside a longer format string.
///
/// ```
/// use mplp_core::text::plural_s;
/// assert_eq!(format!("{} file{} checked", 1, plural_s(1)), "1 file checked");
/// assert_eq!(format!("{} file{} checked", 3, plural_s(3)), "3 files checked");
/// ```
pub fn plural_s<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) { "" } else { "s" }
}

/// Escapes `text` for XML character data and attribute values (SVG, HTML):
/// `&`, `<`, `>`, `"` and `'` become entity references, and the characters
/// XML 1.0 does not allow at all (control characters other than tab,
/// newline and carriage return; U+FFFE and U+FFFF) become U+FFFD, so any
/// string gives well-formed markup.
///
/// ```
/// use mplp_core::text::xml_escape;
/// assert_eq!(xml_escape(r#"<a href="x">Tom & 'Jerry'</a>"#), "&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;");
/// assert_eq!(xml_escape("bell\u{7}"), "bell\u{FFFD}");
/// ```
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' => out.push('\u{FFFD}'),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// True for the characters a one-line label must not hold raw: control
/// characters and the Unicode line and paragraph separators (U+2028,
/// U+2029).
///
/// ```
/// use mplp_core::text::is_line_break;
/// assert!(is_line_break('\n') && is_line_break('\u{2028}') && is_line_break('\u{7f}'));
/// assert!(!is_line_break(' ') && !is_line_break('é'));
/// ```
pub fn is_line_break(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `text` on one line: every [`is_line_break`] character becomes a space.
///
/// ```
/// use mplp_core::text::one_line;
/// assert_eq!(one_line("a\nb\u{2029}c\td"), "a b c d");
/// ```
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if is_line_break(c) { ' ' } else { c })
        .collect()
}

/// The width of one character of SVG text, in pixels, for the 13 px
/// sans-serif font [`svg_header`] sets: what the pictures lay text out by.
pub const SVG_CHAR_WIDTH: f64 = 7.2;

/// The start of a standalone SVG picture of `width` × `height` pixels
/// (rounded to whole pixels): the `<svg>` element (the SVG namespace, a view
/// box of the same size, 13 px Helvetica/Arial/sans-serif text), then its
/// `<title>` and `<desc>` (XML-escaped), each on a line of its own.
///
/// ```
/// use mplp_core::text::svg_header;
/// assert_eq!(
///     svg_header(120.4, 80.0, "A & B", "2 rows"),
///     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"80\" viewBox=\"0 0 120 80\" \
///      font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\">\n<title>A &amp; B</title>\n<desc>2 rows</desc>\n"
/// );
/// ```
pub fn svg_header(width: f64, height: f64, title: &str, desc: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif" font-size="13">
<title>{}</title>
<desc>{}</desc>
"#,
        xml_escape(title),
        xml_escape(desc)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_singular_for_one_only() {
        assert_eq!(count(1u64, "turn"), "1 turn");
        assert_eq!(count(0u64, "turn"), "0 turns");
        assert_eq!(count(2usize, "turn"), "2 turns");
        assert_eq!(count_as(1u32, "entry", "entries"), "1 entry");
        assert_eq!(count_as(0u32, "entry", "entries"), "0 entries");
        assert_eq!(count_as(11u32, "entry", "entries"), "11 entries");
        assert_eq!(plural_s(1u8), "");
        assert_eq!(plural_s(0u8), "s");
        assert_eq!(plural_s(2u64), "s");
    }

    #[test]
    fn xml_escape_keeps_text_and_replaces_what_xml_forbids() {
        assert_eq!(xml_escape("plain text, é ✓"), "plain text, é ✓");
        assert_eq!(xml_escape("&<>\"'"), "&amp;&lt;&gt;&quot;&apos;");
        // Tab, newline and carriage return stay; other controls do not.
        assert_eq!(xml_escape("a\tb\nc\rd"), "a\tb\nc\rd");
        for c in (0u8..0x20).filter(|c| !matches!(c, b'\t' | b'\n' | b'\r')) {
            assert_eq!(xml_escape(&char::from(c).to_string()), "\u{FFFD}", "{c:#x}");
        }
        // The first allowed character after the controls, and DEL, stay.
        assert_eq!(xml_escape(" !\u{7f}"), " !\u{7f}");
        assert_eq!(
            xml_escape("\u{FFFE}\u{FFFF}\u{FFFD}"),
            "\u{FFFD}\u{FFFD}\u{FFFD}"
        );
    }
}
