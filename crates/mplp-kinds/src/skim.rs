//! Kind recognition without a parse: the top-level member names of a
//! document (and its `event_type` text) read by skimming the bytes, nested
//! values skipped by counting brackets outside strings.
//!
//! Why it exists: [`validate_bytes`](crate::validate_bytes) without a kind
//! used to parse a document twice, once with serde to find its members
//! ([`detect`](crate::detect)) and once to validate it. Skimming finds the
//! same members at a fraction of the cost of a parse (`cargo run --release
//! -p mplp --example perf_report`, column "mplp validate"), so a valid
//! document is parsed once.
//!
//! Why it is exact: on well-formed JSON, skimming sees exactly the members
//! serde sees (a property test compares them on generated and mutated
//! objects); anything it is unsure of (an escape in a member name or in the
//! `event_type` text, a byte out of place) makes it give up, and then
//! serde's probe decides as before. On malformed JSON skimming may still
//! name a kind, but the document then fails validation, and an invalid
//! document's kind is always decided by [`detect`](crate::detect): only a
//! valid document (which is well-formed JSON) keeps the skimmed kind.

/// What skimming found: which kinds have one of their members present (a
/// bit per row of [`KINDS`](crate::KINDS)), and the last `event_type` when
/// it is a string (`None` when the last one is not a string, as serde's
/// probe).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Skimmed<'a> {
    pub(crate) marked: u64,
    pub(crate) event_type: Option<&'a str>,
}

/// JSON's four whitespace bytes (not the form feed Rust's
/// `is_ascii_whitespace` also counts).
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

struct Skimmer<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Skimmer<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(is_ws) {
            self.at += 1;
        }
    }

    /// Consumes `b` (after whitespace), or gives up.
    fn expect(&mut self, b: u8) -> Option<()> {
        self.ws();
        (self.peek()? == b).then(|| self.at += 1)
    }

    /// A string without escapes, after its opening quote: its contents.
    /// Gives up at a backslash.
    fn plain_string(&mut self) -> Option<&'a [u8]> {
        let rest = self.bytes.get(self.at..)?;
        let end = memchr::memchr2(b'"', b'\\', rest)?;
        if rest.get(end) != Some(&b'"') {
            return None;
        }
        self.at += end + 1;
        rest.get(..end)
    }

    /// Skips a string whose opening quote was consumed, escapes included.
    fn skip_string(&mut self) -> Option<()> {
        loop {
            let rest = self.bytes.get(self.at..)?;
            let i = memchr::memchr2(b'"', b'\\', rest)?;
            if rest.get(i) == Some(&b'"') {
                self.at += i + 1;
                return Some(());
            }
            // A backslash: the next byte is escaped (`\"` does not end).
            self.at += i + 2;
        }
    }

    /// Skips one value: a string, a scalar, or an object or array by
    /// counting brackets outside strings.
    fn skip_value(&mut self) -> Option<()> {
        self.ws();
        match self.peek()? {
            b'"' => {
                self.at += 1;
                self.skip_string()
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    let b = self.peek()?;
                    self.at += 1;
                    match b {
                        b'"' => self.skip_string()?,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                }
            }
            b'}' | b']' | b',' | b':' => None,
            _ => {
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|b| !is_ws(b) && !matches!(b, b',' | b'}' | b']'))
                {
                    self.at += 1;
                }
                (self.at > start).then_some(())
            }
        }
    }
}

/// The top-level members of the object in `bytes`, each name reduced by
/// `marks` to the kinds it marks; `None` when skimming gives up (not an
/// object, an escape in a member name or in `event_type`'s text, text that
/// is not UTF-8 there, or a byte out of place).
pub(crate) fn skim(bytes: &[u8], marks: impl Fn(&str) -> u64) -> Option<Skimmed<'_>> {
    let mut s = Skimmer { bytes, at: 0 };
    let mut found = Skimmed {
        marked: 0,
        event_type: None,
    };
    s.expect(b'{')?;
    s.ws();
    if s.peek()? == b'}' {
        s.at += 1;
    } else {
        loop {
            s.expect(b'"')?;
            let name = std::str::from_utf8(s.plain_string()?).ok()?;
            s.expect(b':')?;
            found.marked |= marks(name);
            s.ws();
            if name == "event_type" {
                found.event_type = if s.peek()? == b'"' {
                    s.at += 1;
                    Some(std::str::from_utf8(s.plain_string()?).ok()?)
                } else {
                    s.skip_value()?;
                    None
                };
            } else {
                s.skip_value()?;
            }
            s.ws();
            match s.peek()? {
                b',' => s.at += 1,
                b'}' => {
                    s.at += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    s.ws();
    (s.at == bytes.len()).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(name: &str) -> u64 {
        match name {
            "plan_id" => 1,
            "trace_id" => 2,
            _ => 0,
        }
    }

    #[test]
    fn reads_the_top_level_members_only() {
        let doc = br#" { "meta": {"plan_id": "x", "a": ["}", "\"{", {"trace_id": 1}]},
            "plan_id" : null , "n": -1.5e3, "t": true, "event_type": "MAPX" } "#;
        assert_eq!(
            skim(doc, marks),
            Some(Skimmed {
                marked: 1,
                event_type: Some("MAPX")
            })
        );
        assert_eq!(
            skim(br#"{"event_type":"A","event_type":7}"#, marks),
            Some(Skimmed {
                marked: 0,
                event_type: None
            })
        );
        assert_eq!(
            skim(b"{}", marks),
            Some(Skimmed {
                marked: 0,
                event_type: None
            })
        );
    }

    #[test]
    fn gives_up_where_it_is_unsure() {
        for bad in [
            &br#"{"plan\u005fid": 1}"#[..],    // an escape in a name
            br#"{"event_type": "MAP\u0058"}"#, // an escape in event_type
            b"[1]",
            b"{",
            br#"{"a" 1}"#,
            br#"{"a": }"#,
            br#"{"a": 1,}"#,
            br#"{"a": 1} x"#,
            br#"{"a": [1}"#,
            b"\xef\xbb\xbf{}",
            b"{\x0c}",
            b"{\"\xff\": 1}",
        ] {
            assert_eq!(skim(bad, marks), None, "{}", String::from_utf8_lossy(bad));
        }
    }
}
