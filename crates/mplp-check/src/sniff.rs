//! Telling a log from a document on a stream that has no file name
//! (standard input), without reading more of it than its first line.

use std::io::{self, BufRead, Chain, Cursor, Read};

use serde::de::IgnoredAny;

/// The most [`sniff_log`] keeps before it decides: the first line and the
/// blank lines around it.
pub const SNIFF_LIMIT: usize = 16 << 20;

/// What [`sniff_log`] found, and the stream to read on with: the bytes it
/// looked at, then the rest, so that nothing is lost and line numbers stay
/// right.
pub struct Sniffed<R> {
    /// True when the stream holds a log: its first non-blank line is a whole
    /// JSON object, and more than blank space follows it.
    pub is_log: bool,
    /// The whole stream, from its first byte.
    pub reader: Chain<Cursor<Vec<u8>>, R>,
}

/// Reads the first non-blank line of `reader` (at most [`SNIFF_LIMIT`]
/// bytes with the blank lines before it) and decides whether the stream is
/// an NDJSON log or one JSON document.
///
/// A log's first line is a whole JSON object and another non-blank line
/// follows; a pretty-printed document's first line (`{`) is not a whole
/// value, and a compact document is one line. A single compact line is
/// read as a document (a one-event log is the same bytes as the event, and
/// kind detection names it). A first line longer than the limit is left to
/// the document path, whose size limit then applies. The stream is read
/// only as far as the first non-blank byte after the first line, so a log
/// still being written is not waited for beyond its second line.
///
/// # Errors
/// When the reader fails.
///
/// ```
/// use std::io::Read;
/// let log = "\n{\"event_type\":\"MAPSessionStarted\"}\n{\"event_type\":\"MAPSessionCompleted\"}\n";
/// let mut sniffed = mplp_check::sniff_log(log.as_bytes())?;
/// assert!(sniffed.is_log);
/// let mut all = String::new();
/// sniffed.reader.read_to_string(&mut all)?;
/// assert_eq!(all, log);
///
/// assert!(!mplp_check::sniff_log("{\n  \"plan_id\": 1\n}\n".as_bytes())?.is_log);
/// assert!(!mplp_check::sniff_log("{\"plan_id\": 1}\n\n".as_bytes())?.is_log);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn sniff_log<R: BufRead>(mut reader: R) -> io::Result<Sniffed<R>> {
    let mut prefix = Vec::new();
    let is_log = decide(&mut reader, &mut prefix)?;
    Ok(Sniffed {
        is_log,
        reader: Cursor::new(prefix).chain(reader),
    })
}

fn decide<R: BufRead>(reader: &mut R, prefix: &mut Vec<u8>) -> io::Result<bool> {
    // The first non-blank line, whole (with its newline).
    let first = loop {
        let start = prefix.len();
        let room = SNIFF_LIMIT.saturating_sub(start) as u64;
        // `read_until` retries interruptions and reads to the newline or the end.
        let n = (&mut *reader).take(room).read_until(b'\n', prefix)?;
        let line = prefix.get(start..).unwrap_or_default();
        if n == 0 || line.last() != Some(&b'\n') {
            // The end of the stream, or a line over the limit.
            return Ok(false);
        }
        if !line.iter().all(u8::is_ascii_whitespace) {
            break start;
        }
    };
    let line = prefix.get(first..).unwrap_or_default();
    let object = line.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if !object || mplp_json::nesting::from_slice::<IgnoredAny>(line).is_err() {
        return Ok(false);
    }
    // Anything but blank space after it?
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(false);
        }
        if buf.iter().any(|b| !b.is_ascii_whitespace()) {
            return Ok(true);
        }
        if prefix.len() + buf.len() > SNIFF_LIMIT {
            return Ok(false);
        }
        let n = buf.len();
        prefix.extend_from_slice(buf);
        reader.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sniff(text: &str, capacity: usize) -> (bool, String) {
        let mut s = sniff_log(io::BufReader::with_capacity(capacity, text.as_bytes())).unwrap();
        let mut all = String::new();
        s.reader.read_to_string(&mut all).unwrap();
        (s.is_log, all)
    }

    #[test]
    fn logs_and_documents_are_told_apart() {
        let line = r#"{"event_type":"MAPSessionStarted","a":[1,{"b":"}"}]}"#;
        for (text, is_log) in [
            (format!("{line}\n{line}\n"), true),
            (format!("\n \n{line}\n\n\n{line}"), true),
            (format!("{line}\n"), false),
            (line.to_string(), false),
            (format!("{line}\n   \n\t\n"), false),
            ("{\n  \"plan_id\": \"x\"\n}\n".to_string(), false),
            ("[1]\n[2]\n".to_string(), false),
            ("not json\n{}\n".to_string(), false),
            (String::new(), false),
            ("\n\n".to_string(), false),
        ] {
            for capacity in [1, 3, 64, 8192] {
                assert_eq!(
                    sniff(&text, capacity),
                    (is_log, text.clone()),
                    "{text:?} {capacity}"
                );
            }
        }
    }

    #[test]
    fn a_first_line_over_the_limit_goes_to_the_document_path_with_every_byte() {
        let long = format!("{{\"x\":\"{}\"}}\n{{}}\n", "y".repeat(SNIFF_LIMIT));
        let (is_log, all) = sniff(&long, 1 << 16);
        assert!(!is_log);
        assert_eq!(all.len(), long.len());
    }

    /// A reader that is interrupted once before every read, and fails for
    /// good after `fail_after` bytes (if given).
    struct Flaky {
        data: io::Cursor<Vec<u8>>,
        interrupt: bool,
        fail_after: Option<u64>,
    }

    impl Read for Flaky {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            self.consume(n);
            Ok(n)
        }
    }

    impl BufRead for Flaky {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(io::ErrorKind::Interrupted.into());
            }
            if self.fail_after.is_some_and(|n| self.data.position() >= n) {
                return Err(io::Error::other("the disk is gone"));
            }
            // Four bytes at a time.
            let at = self.data.position() as usize;
            let all = self.data.get_ref();
            let end = (at + 4).min(all.len());
            Ok(&all[at..end])
        }
        fn consume(&mut self, n: usize) {
            self.data.set_position(self.data.position() + n as u64);
        }
    }

    #[test]
    fn interruptions_are_retried_and_errors_are_reported() {
        let log = "\n{\"a\":1}\n  \n{\"b\":2}\n";
        let flaky = |fail_after| Flaky {
            data: io::Cursor::new(log.as_bytes().to_vec()),
            interrupt: false,
            fail_after,
        };
        let mut s = sniff_log(flaky(None)).unwrap();
        assert!(s.is_log);
        let mut all = String::new();
        s.reader.read_to_string(&mut all).unwrap();
        assert_eq!(all, log);
        // A failure while reading the first line, and while peeking after it.
        for at in [2, 9] {
            assert_eq!(
                sniff_log(flaky(Some(at))).err().map(|e| e.to_string()),
                Some("the disk is gone".to_owned()),
                "{at}"
            );
        }
    }

    #[test]
    fn blank_space_after_the_first_line_is_kept_up_to_the_limit() {
        let first = "{\"a\":1}\n";
        // One chunk of blank space, then the second line.
        let sniff_with = |blank: usize| {
            let head = io::Cursor::new(format!("{first}{}", " ".repeat(blank)).into_bytes());
            let reader = head.chain(io::Cursor::new(b"{}\n".to_vec()));
            sniff_log(reader).unwrap().is_log
        };
        assert!(sniff_with(SNIFF_LIMIT - first.len()));
        assert!(!sniff_with(SNIFF_LIMIT - first.len() + 1));
    }

    #[test]
    fn a_first_line_cut_at_the_limit_is_not_read_as_a_whole_object() {
        // The limit falls right after a whole object; more of the same line
        // follows. Cut there, it must not be taken for a log's first line.
        let object = "{\"a\":1}";
        let text = format!(
            "{}{object}{{}}\n{{}}\n",
            " ".repeat(SNIFF_LIMIT - object.len())
        );
        let (is_log, all) = sniff(&text, 1 << 16);
        assert!(!is_log);
        assert_eq!(all.len(), text.len());
    }

    proptest! {
        /// Whatever the input and the buffer size, no byte is lost or
        /// reordered, and the verdict is the model's.
        #[test]
        fn nothing_is_lost_and_the_verdict_is_the_models(
            lines in prop::collection::vec(prop_oneof![
                Just(String::new()),
                Just(" ".to_string()),
                Just("{\"a\":1}".to_string()),
                Just("{".to_string()),
                Just("}".to_string()),
                "[ -~]{0,12}",
            ], 0..6),
            capacity in 1usize..32,
            newline in any::<bool>(),
        ) {
            let mut text = lines.join("\n");
            if newline { text.push('\n'); }
            let (is_log, all) = sniff(&text, capacity);
            prop_assert_eq!(&all, &text);
            // The model: the first non-blank line (ended by a newline) is a
            // JSON object, and a non-blank byte follows it.
            let mut rest = text.as_str();
            let model = loop {
                let Some(i) = rest.find('\n') else { break false };
                let (line, after) = (&rest[..i], &rest[i + 1..]);
                if line.trim_matches(|c: char| c.is_ascii_whitespace()).is_empty() {
                    rest = after;
                    continue;
                }
                break line.trim_start().starts_with('{')
                    && serde_json::from_str::<IgnoredAny>(line).is_ok()
                    && after.bytes().any(|b| !b.is_ascii_whitespace());
            };
            prop_assert_eq!(is_log, model);
        }
    }
}
