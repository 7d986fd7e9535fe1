//! An incremental parser of server-sent events (the `text/event-stream`
//! format of the HTML standard), fed with the body's chunks as they arrive.
//!
//! Hand-written rather than `eventsource-stream`: it is fed from
//! `reqwest::Response::chunk` (no `futures` stream, no `nom`), and it keeps
//! partial lines as bytes, so a chunk boundary may fall anywhere, inside a
//! line ending or a UTF-8 character (property-tested in `tests/it/client.rs`
//! through the public [`SseParser`]).

/// One event: its `event` field (if any) and its data lines joined by `\n`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SseEvent {
    /// The `event:` field, if any.
    pub event: Option<String>,
    /// The `data:` lines, joined by `\n`.
    pub data: String,
}

/// The parser: [`SseParser::feed`] takes bytes and returns the events they
/// complete.
///
/// ```
/// use mplp_dialog::agent::client::SseParser;
/// let mut p = SseParser::new();
/// assert!(p.feed(b"event: ping\r\nda").is_empty());
/// let events = p.feed(b"ta: {\"a\":1}\r\n\r\n");
/// assert_eq!(events[0].event.as_deref(), Some("ping"));
/// assert_eq!(events[0].data, "{\"a\":1}");
/// ```
#[derive(Clone, Debug, Default)]
pub struct SseParser {
    /// Bytes of an incomplete line.
    line: Vec<u8>,
    /// The last byte fed was a `\r` ending a line (a `\n` right after it
    /// belongs to the same line ending).
    after_cr: bool,
    data: String,
    has_data: bool,
    event: Option<String>,
}

impl SseParser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        SseParser::default()
    }

    /// Feeds the next bytes of the stream; returns the events they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for &b in bytes {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    let line = std::mem::take(&mut self.line);
                    if let Some(e) = self.line_done(&line) {
                        out.push(e);
                    }
                }
                _ => self.line.push(b),
            }
        }
        out
    }

    fn line_done(&mut self, line: &[u8]) -> Option<SseEvent> {
        if line.is_empty() {
            let event = self.event.take();
            if !self.has_data {
                return None;
            }
            self.has_data = false;
            let mut data = std::mem::take(&mut self.data);
            if data.ends_with('\n') {
                data.pop();
            }
            return Some(SseEvent { event, data });
        }
        let line = String::from_utf8_lossy(line);
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_ref(), ""),
        };
        match field {
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_owned()),
            _ => {}
        }
        None
    }
}
