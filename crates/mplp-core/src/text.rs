//! Small helpers for text the SDK writes: counts with the right plural
//! ("1 turn", "2 turns"), so that no message says "1 turns", and the XML
//! escaping of the SVG pictures and the HTML report.

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
