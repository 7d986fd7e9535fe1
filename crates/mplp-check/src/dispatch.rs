//! The one path from an input to its verdict: [`validate_source`].
//!
//! Every front end goes through it: `mplp validate`, `report`, `watch` and
//! `conformance`, the Python bindings, bundles and xtask. It decides, in
//! this order and in this one place:
//!
//! 1. the byte-order mark (a stream's mark is skipped with the warning
//!    `input-bom`; an in-memory JSON text is refused with an error naming
//!    it, see docs/spec-notes.md, "Byte-order marks");
//! 2. document or log (the kind given; else a file's name, a nameless
//!    stream's first lines, or what the caller says it is);
//! 3. for a log, its kind (from its first event) and the streaming
//!    validator, with the log options; for a document, the size limit,
//!    then the kind (guessed or [`detect`](crate::detect)ed) and its typed
//!    validation;
//! 4. the profile, applied to each violation before the [`Sink`] sees it.

use std::io::{BufRead, Cursor, Read};
use std::ops::ControlFlow;

use mplp_core::rules::{INPUT_IO, INPUT_TOO_LARGE, Profile};
use mplp_core::{Report, Violation};
use mplp_events::log::LogOptions;

use crate::kinds::{AnyDocument, DocKind, Reader, is_log_file_name};

/// The default of [`Options::max_document_bytes`]: 256 MiB.
pub const DEFAULT_MAX_DOCUMENT_BYTES: u64 = 256 << 20;

/// The default of [`Options::event_id_window`]: 229,376 ids (about 7.4 MB
/// of ids and table, see `mplp_events::unique_ids`), so that checking a log of any
/// length stays under 64 MiB.
pub const DEFAULT_EVENT_ID_WINDOW: usize = (1 << 18) / 8 * 7;

/// How inputs are checked: the same for every front end.
///
/// ```
/// use mplp_check::Options;
/// use mplp_core::rules::Profile;
///
/// let options = Options::default().profile(Profile::Canonical).partial(true);
/// assert_eq!(options.max_document_bytes, mplp_check::DEFAULT_MAX_DOCUMENT_BYTES);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Which rules are errors (`Strict`, the default: every rule at the
    /// SDK's severity; `Canonical`: SDK-level rules at most warnings).
    pub profile: Profile,
    /// Logs still being written: what a log leaves open at its end is a
    /// warning, not an error.
    pub partial: bool,
    /// Find repeated event ids in logs within this many events (0: not at
    /// all); about 32 bytes per id of the window.
    pub event_id_window: usize,
    /// Documents (not logs) larger than this are refused unread
    /// (`input-too-large`); logs are streamed and have no limit.
    pub max_document_bytes: u64,
}

impl Default for Options {
    /// The strict profile, complete logs, [`DEFAULT_EVENT_ID_WINDOW`] and
    /// [`DEFAULT_MAX_DOCUMENT_BYTES`].
    fn default() -> Self {
        Options {
            profile: Profile::Strict,
            partial: false,
            event_id_window: DEFAULT_EVENT_ID_WINDOW,
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
        }
    }
}

impl Options {
    /// With this profile.
    #[must_use]
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Logs still being written (see [`Options::partial`](field@Options::partial)).
    #[must_use]
    pub fn partial(mut self, partial: bool) -> Self {
        self.partial = partial;
        self
    }

    /// With this event-id window (0: repeated ids are not looked for).
    #[must_use]
    pub fn event_id_window(mut self, events: usize) -> Self {
        self.event_id_window = events;
        self
    }

    /// With this document size limit.
    #[must_use]
    pub fn max_document_bytes(mut self, bytes: u64) -> Self {
        self.max_document_bytes = bytes;
        self
    }

    pub(crate) fn log_options(&self) -> LogOptions {
        LogOptions::default()
            .partial(self.partial)
            .event_id_window(self.event_id_window)
    }
}

/// Where an input comes from, and so how a log is told from a document when
/// no kind is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Framing {
    /// A file: a `.ndjson`/`.jsonl` name is a log, any other a document.
    File,
    /// A stream without a name (standard input): a log when its first
    /// non-blank line is a whole JSON object and more follows
    /// ([`sniff_log`](crate::sniff_log)).
    Stream,
    /// A log, whatever else it looks like (`mplp watch`).
    Log,
    /// One document.
    Document,
}

/// The bytes themselves, or a reader of them.
enum Input<'a, R> {
    /// An in-memory JSON text (or log): not copied; a byte-order mark is
    /// refused, as every text API of the SDK refuses it.
    Text(&'a [u8]),
    /// A stream: a byte-order mark is skipped with the warning `input-bom`.
    Reader(R),
}

/// One input to [`validate_source`]: its name (for messages), where it
/// comes from, and its bytes.
pub struct Source<'a, R> {
    name: &'a str,
    framing: Framing,
    len: Option<u64>,
    input: Input<'a, R>,
}

impl<'a> Source<'a, &'a [u8]> {
    /// An in-memory JSON text: a document, or a log when the kind given is
    /// one. A byte-order mark is refused (a JSON text has none).
    pub fn text(bytes: &'a [u8]) -> Self {
        Source {
            name: "",
            framing: Framing::Document,
            len: None,
            input: Input::Text(bytes),
        }
    }
}

impl<'a, R: BufRead> Source<'a, R> {
    /// A file called `name`: a log when the name ends in `.ndjson` or
    /// `.jsonl`, else a document. `len`, the file's size when known, lets a
    /// document over the size limit be refused unread.
    pub fn file(name: &'a str, len: Option<u64>, reader: R) -> Self {
        Source {
            name,
            framing: Framing::File,
            len,
            input: Input::Reader(reader),
        }
    }

    /// A stream with no file name (standard input, a pipe): a log or a
    /// document, told apart by its first lines ([`sniff_log`](crate::sniff_log)).
    pub fn stream(name: &'a str, reader: R) -> Self {
        Source {
            name,
            framing: Framing::Stream,
            len: None,
            input: Input::Reader(reader),
        }
    }

    /// A log, whatever its name: its kind comes from its first event (the
    /// first complete non-blank line, waited for on a live stream).
    pub fn log(name: &'a str, reader: R) -> Self {
        Source {
            name,
            framing: Framing::Log,
            len: None,
            input: Input::Reader(reader),
        }
    }

    /// A reader of one document (or of a log when the kind given is one).
    pub fn reader(name: &'a str, reader: R) -> Self {
        Source {
            name,
            framing: Framing::Document,
            len: None,
            input: Input::Reader(reader),
        }
    }
}

/// What receives the findings of [`validate_source`], in order: the kind
/// (once, as soon as it is known), then each violation as it is found, then
/// the document when it is valid.
///
/// A [`Report`] is a sink that keeps the violations.
pub trait Sink {
    /// The kind the input is checked as, before its first violation (not
    /// called when the input cannot be read before its kind is known);
    /// `None` when it could not be recognised.
    fn kind(&mut self, kind: Option<&'static DocKind>) {
        let _ = kind;
    }

    /// One violation, at the severity the profile gives its rule.
    /// `ControlFlow::Break` stops the check (the output failed, enough was
    /// seen).
    fn violation(&mut self, violation: Violation) -> ControlFlow<()>;

    /// The violation that ends an input that cannot be read (`io`) or is
    /// too large (`input-too-large`). By default, a violation like any other.
    fn unreadable(&mut self, violation: Violation) -> ControlFlow<()> {
        self.violation(violation)
    }

    /// A document that passed validation, as read (not called for logs).
    fn document(&mut self, document: AnyDocument) {
        let _ = document;
    }
}

impl Sink for Report {
    fn violation(&mut self, violation: Violation) -> ControlFlow<()> {
        self.push(violation);
        ControlFlow::Continue(())
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    fn kind(&mut self, kind: Option<&'static DocKind>) {
        (**self).kind(kind);
    }
    fn violation(&mut self, violation: Violation) -> ControlFlow<()> {
        (**self).violation(violation)
    }
    fn unreadable(&mut self, violation: Violation) -> ControlFlow<()> {
        (**self).unreadable(violation)
    }
    fn document(&mut self, document: AnyDocument) {
        (**self).document(document);
    }
}

/// How [`validate_source`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checked {
    /// The kind used (`None`: not recognised, or not known before the input
    /// became unreadable).
    pub kind: Option<&'static DocKind>,
    /// The input could not be read, or was too large: the sink's
    /// [`Sink::unreadable`] got why.
    pub unreadable: bool,
    /// The sink stopped the check.
    pub stopped: bool,
}

/// Checks one input of the given kind (`None`: recognise it) and hands
/// every finding to `sink` as it is found: the one dispatch of the SDK.
/// Logs stream (memory does not grow with the log); documents are read
/// whole, up to [`Options::max_document_bytes`](field@Options::max_document_bytes).
///
/// ```
/// use mplp_check::{Options, Source, validate_source};
/// use mplp_core::Report;
///
/// let log = std::fs::read("../../schemas/examples/valid/map-log-round-robin.ndjson")?;
/// let mut with_bom = b"\xEF\xBB\xBF".to_vec();
/// with_bom.extend(&log);
/// let mut report = Report::new();
/// let checked = validate_source(
///     None,
///     Source::file("session.ndjson", None, &with_bom[..]),
///     &Options::default(),
///     &mut report,
/// );
/// assert_eq!(checked.kind, Some(&mplp_check::MAP_LOG));
/// assert!(report.is_valid());
/// assert_eq!(report.warnings().next().unwrap().rule.as_str(), "input-bom");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn validate_source<R: BufRead>(
    kind: Option<&'static DocKind>,
    source: Source<'_, R>,
    options: &Options,
    sink: &mut impl Sink,
) -> Checked {
    let mut sink = Profiled {
        sink,
        profile: options.profile,
    };
    let mut checked = Checked {
        kind: None,
        unreadable: false,
        stopped: false,
    };
    let Source {
        name,
        framing,
        len,
        input,
    } = source;
    let at = At { name, len, options };
    let flow = match input {
        Input::Text(bytes) => match kind {
            Some(k) if k.is_log() => {
                checked.kind = Some(k);
                sink.kind(Some(k));
                stream_log(k, &mut &bytes[..], options, &mut sink)
            }
            _ => check_document(kind, bytes, false, &mut checked, &mut sink),
        },
        Input::Reader(reader) => check_reader(kind, framing, reader, &at, &mut checked, &mut sink),
    };
    checked.stopped = flow.is_break();
    checked
}

/// What a reader's check needs to know besides the reader.
struct At<'a> {
    name: &'a str,
    len: Option<u64>,
    options: &'a Options,
}

/// A stream: the byte-order mark, then a log or a document.
fn check_reader<R: BufRead>(
    kind: Option<&'static DocKind>,
    framing: Framing,
    reader: R,
    at: &At<'_>,
    checked: &mut Checked,
    sink: &mut impl Sink,
) -> ControlFlow<()> {
    // Document or log, when the kind, the name or the caller says; a
    // nameless stream is sniffed after its mark.
    let known = match (kind, framing) {
        (Some(k), _) => Some(k.is_log()),
        (None, Framing::File) => Some(is_log_file_name(at.name)),
        (None, Framing::Log) => Some(true),
        (None, Framing::Document) => Some(false),
        (None, Framing::Stream) => None,
    };
    // A document whose size is known to be over the limit is not read.
    let max = at.options.max_document_bytes;
    if let (Some(false), Some(len)) = (known, at.len.filter(|len| *len > max)) {
        return unreadable(checked, sink, too_large(at.name, len, max));
    }
    let (bom, reader) = match skip_bom(reader) {
        Ok(found) => found,
        Err(e) => return unreadable(checked, sink, cannot_read(at.name, &e)),
    };
    match known {
        Some(is_log) => check_stream(kind, is_log, bom, reader, at, checked, sink),
        // The sniffed bytes go first again: nothing is lost.
        None => match crate::sniff_log(reader) {
            Ok(sniffed) => {
                check_stream(kind, sniffed.is_log, bom, sniffed.reader, at, checked, sink)
            }
            Err(e) => unreadable(checked, sink, cannot_read(at.name, &e)),
        },
    }
}

/// A stream with the bytes already looked at put back in front.
type Replayed<R> = std::io::Chain<Cursor<Vec<u8>>, R>;

/// Skips a UTF-8 byte-order mark at the start of `reader`, also when it
/// comes in pieces (a pipe, a slow stream); whether there was one, and the
/// stream to read on with (the bytes looked at that are not a mark go
/// first).
///
/// # Errors
/// When the reader fails.
fn skip_bom<R: BufRead>(mut reader: R) -> std::io::Result<(bool, Replayed<R>)> {
    const MARK: &[u8] = mplp_core::document::UTF8_BOM;
    let mut seen = Vec::with_capacity(MARK.len());
    while seen.len() < MARK.len() {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let Some(&byte) = buf.first() else { break };
        if byte != MARK[seen.len()] {
            break;
        }
        seen.push(byte);
        reader.consume(1);
    }
    let found = seen == MARK;
    if found {
        seen.clear();
    }
    Ok((found, Cursor::new(seen).chain(reader)))
}

/// A stream past its byte-order mark, known to be a log or a document.
fn check_stream<R: BufRead>(
    kind: Option<&'static DocKind>,
    is_log: bool,
    bom: bool,
    mut reader: R,
    at: &At<'_>,
    checked: &mut Checked,
    sink: &mut impl Sink,
) -> ControlFlow<()> {
    if is_log {
        let (kind, head) = match kind {
            Some(k) => (k, Vec::new()),
            None => match first_line(&mut reader) {
                Ok((head, k)) => (k, head),
                Err(e) => return unreadable(checked, sink, cannot_read(at.name, &e)),
            },
        };
        checked.kind = Some(kind);
        sink.kind(Some(kind));
        if bom {
            sink.violation(mplp_core::document::bom_warning())?;
        }
        return stream_log(kind, &mut Cursor::new(head).chain(reader), at.options, sink);
    }
    let max = at.options.max_document_bytes;
    match read_capped_sized(reader, max, at.len) {
        Ok(Some(bytes)) => check_document(kind, &bytes, bom, checked, sink),
        Ok(None) => unreadable(
            checked,
            sink,
            too_large(at.name, max.saturating_add(1), max),
        ),
        Err(e) => unreadable(checked, sink, cannot_read(at.name, &e)),
    }
}

/// Ends an input that cannot be read.
fn unreadable(checked: &mut Checked, sink: &mut impl Sink, v: Violation) -> ControlFlow<()> {
    checked.unreadable = true;
    sink.unreadable(v)
}

/// The `io` violation of an input that cannot be read.
fn cannot_read(name: &str, e: &std::io::Error) -> Violation {
    let what = if name.is_empty() {
        "cannot read the input".to_owned()
    } else {
        format!("cannot read `{name}`")
    };
    Violation::error("", INPUT_IO, format!("{what}: {e}"))
}

/// Validates bytes of the given kind, or of the kind [`detect`](crate::detect)
/// recognises when `kind` is `None`, with the default [`Options`]: the
/// in-memory form of [`validate_source`]. Returns the kind that was used
/// (`None` when it could not be recognised: the report then holds the
/// `unknown-kind`, `type` or syntax error). A log kind validates the bytes
/// as a log. The bytes are a JSON text: a byte-order mark is an error that
/// names it.
///
/// Without a kind, a document is usually parsed once: the kind is guessed
/// from the first top-level member that marks one (the table's signs), and
/// kept when the document passes that kind's typed parse and no document
/// that does can bear the sign of a kind [`detect`](crate::detect) would
/// prefer. Otherwise [`detect`](crate::detect) decides; the kind and the
/// report are the same either way.
///
/// ```
/// let plan = std::fs::read("../../schemas/examples/valid/plan-minimal.json")?;
/// let (kind, report) = mplp_check::validate_bytes(None, &plan);
/// assert_eq!(kind, Some(&mplp_check::PLAN));
/// assert!(report.is_valid());
///
/// let (kind, report) = mplp_check::validate_bytes(None, br#"{"hello": 1}"#);
/// assert_eq!(kind, None); // not an MPLP document
/// assert_eq!(report.violations()[0].rule.as_str(), "unknown-kind");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn validate_bytes(
    kind: Option<&'static DocKind>,
    bytes: &[u8],
) -> (Option<&'static DocKind>, Report) {
    let mut report = Report::new();
    let checked = validate_source(kind, Source::text(bytes), &Options::default(), &mut report);
    (checked.kind, report)
}

/// Validates the file at `path` as `mplp validate` does, with the default
/// [`Options`]: a log (a log `kind`, or `None` with a `.ndjson`/`.jsonl`
/// name) is streamed from the file, a document is read whole. A UTF-8
/// byte-order mark at the start is skipped with the warning `input-bom`.
/// Returns the kind used, as [`validate_bytes`]; a read error after the
/// file is open is reported as an `io` violation.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("mplp-check-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("plan.json");
/// let mut bytes = b"\xEF\xBB\xBF".to_vec();
/// bytes.extend(std::fs::read("../../schemas/examples/valid/plan-minimal.json")?);
/// std::fs::write(&path, &bytes)?;
/// let (kind, report) = mplp_check::validate_file(None, &path)?;
/// assert_eq!(kind, Some(&mplp_check::PLAN));
/// assert!(report.is_valid());
/// assert_eq!(report.warnings().next().unwrap().rule.as_str(), "input-bom");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// When the file cannot be opened.
pub fn validate_file(
    kind: Option<&'static DocKind>,
    path: &std::path::Path,
) -> std::io::Result<(Option<&'static DocKind>, Report)> {
    let mut report = Report::new();
    let kind = validate_path(kind, path, &Options::default(), &mut report)?.kind;
    Ok((kind, report))
}

/// [`validate_source`] over the file at `path` ([`Source::file`], its size
/// from the file system).
///
/// # Errors
/// When the file cannot be opened (later read errors go to the sink).
pub fn validate_path(
    kind: Option<&'static DocKind>,
    path: &std::path::Path,
    options: &Options,
    sink: &mut impl Sink,
) -> std::io::Result<Checked> {
    let file = std::fs::File::open(path)?;
    let len = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let name = path.to_string_lossy();
    let reader = std::io::BufReader::with_capacity(1 << 16, file);
    Ok(validate_source(
        kind,
        Source::file(&name, len, reader),
        options,
        sink,
    ))
}

/// A document: its kind (guessed, detected or given), its validation, and
/// the value when valid.
fn check_document(
    kind: Option<&'static DocKind>,
    bytes: &[u8],
    bom: bool,
    checked: &mut Checked,
    sink: &mut impl Sink,
) -> ControlFlow<()> {
    let (kind, report, document) = parse_document(kind, bytes);
    checked.kind = kind;
    sink.kind(kind);
    if bom {
        sink.violation(mplp_core::document::bom_warning())?;
    }
    for v in report {
        sink.violation(v)?;
    }
    if let Some(document) = document {
        sink.document(document);
    }
    ControlFlow::Continue(())
}

/// The kind, report and (valid) value of one document.
fn parse_document(
    kind: Option<&'static DocKind>,
    bytes: &[u8],
) -> (Option<&'static DocKind>, Report, Option<AnyDocument>) {
    let kind = match kind {
        Some(k) => k,
        None => {
            if let Some((guess, report, document)) = crate::detect::validate_guess(bytes) {
                return (Some(guess), report, document);
            }
            match crate::detect(bytes) {
                Ok(k) => k,
                Err(v) => {
                    let mut report = Report::new();
                    report.push(v);
                    return (None, report, None);
                }
            }
        }
    };
    match kind.typed() {
        Some(typed) => {
            let (report, document) = (typed.parse)(bytes);
            (Some(kind), report, document)
        }
        // A log kind given for a document: validated as a log.
        None => {
            let mut report = Report::new();
            let _ = stream_log(kind, &mut &bytes[..], &Options::default(), &mut report);
            (Some(kind), report, None)
        }
    }
}

/// Streams a log through its kind's validator.
fn stream_log(
    kind: &'static DocKind,
    reader: &mut dyn BufRead,
    options: &Options,
    sink: &mut impl Sink,
) -> ControlFlow<()> {
    match kind.reader {
        Reader::Log(stream, _) => {
            stream(reader, &options.log_options(), &mut |v| sink.violation(v))
        }
        // A document kind never reaches here (`is_log` is its shape).
        Reader::Document(_) => ControlFlow::Continue(()),
    }
}

/// Reads up to the first line that is not blank (waiting for it to be
/// complete on a live stream) and tells the log's kind from it
/// ([`detect_log`](crate::detect_log)); the bytes read are handed back to
/// go first to the validator, so line numbers stay right.
fn first_line(reader: &mut impl BufRead) -> std::io::Result<(Vec<u8>, &'static DocKind)> {
    let mut head = Vec::new();
    loop {
        let start = head.len();
        if reader.read_until(b'\n', &mut head)? == 0 {
            break;
        }
        if head[start..].iter().any(|b| !b.is_ascii_whitespace()) {
            break;
        }
    }
    let kind = crate::detect_log(&mut Cursor::new(&head))?;
    Ok((head, kind))
}

/// Reads a whole document of at most `max` bytes, keeping no more than
/// `max + 1` of them: `Ok(None)` when the input holds more than `max`.
///
/// # Errors
/// When the reader fails.
pub fn read_capped(reader: impl Read, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    read_capped_sized(reader, max, None)
}

/// [`read_capped`] into a buffer sized for `len` bytes when the input's
/// size is known (a file's), so that a document is read without the
/// buffer growing (and being copied) on the way.
fn read_capped_sized(
    reader: impl Read,
    max: u64,
    len: Option<u64>,
) -> std::io::Result<Option<Vec<u8>>> {
    // One byte more than the size: reading it finds the end at once.
    let room = len.map_or(0, |len| len.min(max).saturating_add(1));
    let mut bytes = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
    reader.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= max).then_some(bytes))
}

/// The violation of a document over the size limit.
pub fn too_large(name: &str, len: u64, max: u64) -> Violation {
    let name = if name.is_empty() { "the input" } else { name };
    Violation::error(
        "",
        INPUT_TOO_LARGE,
        format!(
            "`{name}` holds at least {}, more than the limit of {} for one document (`--max-document-bytes` raises it; logs are streamed and have no limit)",
            mplp_core::text::count(len, "byte"),
            mplp_core::text::count(max, "byte")
        ),
    )
}

/// A sink that applies the profile to each violation first.
pub(crate) struct Profiled<'s, S> {
    pub(crate) sink: &'s mut S,
    pub(crate) profile: Profile,
}

impl<S: Sink> Sink for Profiled<'_, S> {
    fn kind(&mut self, kind: Option<&'static DocKind>) {
        self.sink.kind(kind);
    }
    fn violation(&mut self, violation: Violation) -> ControlFlow<()> {
        self.sink
            .violation(crate::registry::relax(violation, self.profile))
    }
    fn unreadable(&mut self, violation: Violation) -> ControlFlow<()> {
        self.sink
            .unreadable(crate::registry::relax(violation, self.profile))
    }
    fn document(&mut self, document: AnyDocument) {
        self.sink.document(document);
    }
}

#[cfg(test)]
mod tests {
    use super::{read_capped, read_capped_sized};

    /// A size hint (right, wrong or absent) changes only the first
    /// allocation, never what is read or refused.
    #[test]
    fn a_size_hint_does_not_change_the_verdict() {
        let text = b"0123456789";
        for max in 0..=12u64 {
            let plain = read_capped(&text[..], max).unwrap();
            for hint in [None, Some(0), Some(5), Some(10), Some(11), Some(u64::MAX)] {
                let sized = read_capped_sized(&text[..], max, hint).unwrap();
                assert_eq!(sized, plain, "max {max}, hint {hint:?}");
                if let (Some(bytes), Some(len)) = (&sized, hint) {
                    assert!(
                        bytes.capacity() > len.min(max) as usize,
                        "max {max}, hint {hint:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_document_of_the_limit_is_read_whole_and_one_byte_more_is_refused() {
        let text = b"0123456789";
        for max in 0..=12u64 {
            let got = read_capped(&text[..], max).unwrap();
            if max >= text.len() as u64 {
                assert_eq!(got.as_deref(), Some(&text[..]), "max {max}");
            } else {
                assert_eq!(got, None, "max {max}");
            }
        }
        assert_eq!(
            read_capped(&text[..], u64::MAX).unwrap().as_deref(),
            Some(&text[..])
        );
    }

    #[test]
    fn no_more_than_one_byte_past_the_limit_is_read() {
        struct Endless(u64);
        impl std::io::Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.0 += buf.len() as u64;
                buf.fill(b' ');
                Ok(buf.len())
            }
        }
        let mut endless = Endless(0);
        assert_eq!(read_capped(&mut endless, 100).unwrap(), None);
        assert!(endless.0 < 100 + 64 * 1024, "read {}", endless.0);
    }
}
