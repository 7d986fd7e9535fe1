//! The table of kinds: one row ([`DocKind`]) per kind of MPLP input, all
//! declared in one [`kinds!`] invocation below. A document kind's name is
//! its type's `Document::KIND` and its example-file prefix is that name and
//! a `-`; its members come from the type's `Wire` declaration; so a row
//! adds only what nothing else knows: the help text and the signs
//! [`detect`](crate::detect) recognises it by.

use std::io::BufRead;
use std::ops::ControlFlow;

use mplp_core::{Document, Report, Violation};
use mplp_events::log::LogOptions;

/// Whether a kind is one JSON document or an NDJSON log of events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One JSON document (or one event).
    Document,
    /// An NDJSON log: one event per line, validated as a stream.
    Log,
}

/// One kind of MPLP input: a row of the table ([`KINDS`]).
///
/// Rows are `static`s ([`PLAN`], [`MAP_LOG`], ...); they compare equal
/// when their names do and display as their name.
#[derive(Debug)]
#[non_exhaustive]
pub struct DocKind {
    /// The name (`plan`, `map-log`): the CLI's `--kind` value, the Python
    /// `kind=` value and the `kind` of the JSON output. For documents, the
    /// type's `Document::KIND`.
    pub name: &'static str,
    /// What the kind is, in a few words (the CLI's help text).
    pub description: &'static str,
    /// One document, or a log.
    pub shape: Shape,
    /// For logs: the kind of each line (`None` for [`EVENT_LOG`], whose
    /// lines are each of their own kind).
    pub line_kind: Option<&'static DocKind>,
    /// How [`detect`](crate::detect) recognises a document of this kind.
    pub recognise: Recognise,
    pub(crate) reader: Reader,
}

/// How a row's input is read: a document's typed entry points, or a log's
/// streaming validator.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Reader {
    Document(Typed),
    Log(StreamLog, FeedLog),
}

/// Streams a log through its validator, handing over each violation.
pub(crate) type StreamLog = fn(
    &mut dyn BufRead,
    &LogOptions,
    &mut dyn FnMut(Violation) -> ControlFlow<()>,
) -> ControlFlow<()>;

/// A log's validator fed chunk by chunk (the push form of [`StreamLog`]).
pub(crate) type FeedLog = fn(&LogOptions) -> mplp_events::log::LogFeed;

/// What a typed validation found, and the document when it is valid.
pub(crate) type Parsed = (Report, Option<AnyDocument>);

/// A document kind's entry points, from its type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Typed {
    /// `Wire::FIELDS`: the top-level members it declares.
    pub(crate) fields: &'static [&'static str],
    /// `Wire::OPEN`: members beyond `fields` are taken.
    pub(crate) open: bool,
    /// `Document::validate_json`, keeping the value when it is valid.
    pub(crate) parse: fn(&[u8]) -> Parsed,
    /// The same when the kind is only guessed: `None` when the typed parse
    /// fails (`mplp_core::document::validate_parsed`).
    pub(crate) parse_guessed: fn(&str) -> Option<Parsed>,
    /// Parses and writes back.
    pub(crate) round_trip: fn(&[u8]) -> Result<String, mplp_core::Error>,
}

/// How [`detect`](crate::detect) tells a kind from a document's top-level
/// members: the signs of one row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Recognise {
    /// Precedence when several kinds are marked: the lowest rank wins.
    /// Ranks are unique among the kinds that can be recognised.
    pub rank: u8,
    /// An `event_type` prefix that marks the kind (`MAP`, `SA`).
    pub event_type_prefix: Option<&'static str>,
    /// Top-level members whose presence marks the kind, whatever their value.
    pub members: &'static [&'static str],
}

impl Recognise {
    /// Not recognised from a document's content (the logs: the file name or
    /// the stream's first lines tell them).
    pub const NEVER: Recognise = Recognise {
        rank: u8::MAX,
        event_type_prefix: None,
        members: &[],
    };

    /// Marked by any of `members`, at `rank`.
    pub const fn members(rank: u8, members: &'static [&'static str]) -> Recognise {
        Recognise {
            rank,
            event_type_prefix: None,
            members,
        }
    }

    /// Marked by an `event_type` starting with `prefix`, or by any of `members`.
    pub const fn event(
        rank: u8,
        prefix: &'static str,
        members: &'static [&'static str],
    ) -> Recognise {
        Recognise {
            rank,
            event_type_prefix: Some(prefix),
            members,
        }
    }

    /// False for [`Recognise::NEVER`].
    pub fn is_recognisable(&self) -> bool {
        self.event_type_prefix.is_some() || !self.members.is_empty()
    }
}

impl PartialEq for DocKind {
    /// Kinds are equal when their names are (each name is one row).
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for DocKind {}

impl std::fmt::Display for DocKind {
    /// The kind's name (`plan`, `map-log`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl std::str::FromStr for &'static DocKind {
    type Err = UnknownKind;

    /// The kind called `name` ([`by_name`]); [`AUTO`] is not a kind.
    fn from_str(name: &str) -> Result<Self, UnknownKind> {
        by_name(name).ok_or_else(|| UnknownKind(name.to_owned()))
    }
}

impl DocKind {
    /// Validates bytes as a document (or log) of this kind: every error and
    /// warning. The same as [`validate_bytes`](crate::validate_bytes) with
    /// this kind.
    pub fn validate(&'static self, bytes: &[u8]) -> Report {
        crate::validate_bytes(Some(self), bytes).1
    }

    /// Validates what `reader` gives, as [`validate_source`](crate::validate_source)
    /// does with this kind and the default options: logs are streamed line
    /// by line (memory does not grow with the log); a document is read
    /// whole first. A byte-order mark at the start is skipped with the
    /// warning `input-bom`.
    pub fn validate_reader(&'static self, reader: &mut dyn BufRead) -> Report {
        let mut report = Report::new();
        crate::validate_source(
            Some(self),
            crate::Source::reader("", reader),
            &crate::Options::default(),
            &mut report,
        );
        report
    }

    /// Parses a single document of this kind and writes it back as JSON;
    /// `None` for logs.
    pub fn round_trip(&self, bytes: &[u8]) -> Option<Result<String, mplp_core::Error>> {
        self.typed().map(|t| (t.round_trip)(bytes))
    }

    /// True for [`Shape::Log`].
    pub fn is_log(&self) -> bool {
        self.shape == Shape::Log
    }

    /// The file-name prefix of this kind's examples in `schemas/examples/`:
    /// its name and a `-` (`plan-minimal.json`, `map-log-round-robin.ndjson`).
    pub fn example_prefix(&self) -> String {
        format!("{}-", self.name)
    }

    /// Whether `file_name` is an example of this kind (it starts with
    /// [`DocKind::example_prefix`]).
    pub fn names_example(&self, file_name: &str) -> bool {
        file_name
            .strip_prefix(self.name)
            .is_some_and(|rest| rest.starts_with('-'))
    }

    pub(crate) fn typed(&self) -> Option<&Typed> {
        match &self.reader {
            Reader::Document(typed) => Some(typed),
            Reader::Log(..) => None,
        }
    }
}

fn parse<T: Document + Into<AnyDocument>>(bytes: &[u8]) -> Parsed {
    let found = T::validate_json(bytes);
    (found.report, found.value.map(Into::into))
}

fn parse_guessed<T: Document + Into<AnyDocument>>(text: &str) -> Option<Parsed> {
    let found = mplp_core::document::validate_parsed::<T>(text)?;
    Some((found.report, found.value.map(Into::into)))
}

fn round_trip<T: Document>(bytes: &[u8]) -> Result<String, mplp_core::Error> {
    T::from_json(bytes).map(|d| d.to_json())
}

/// Declares the table: a `static` row per kind, [`KINDS`], and
/// [`AnyDocument`] with a variant per document kind.
macro_rules! kinds {
    (
        documents {
            $(
                $(#[$attr:meta])*
                $konst:ident: $variant:ident($ty:ty), $description:literal, $recognise:expr;
            )*
        }
        logs {
            $(
                $(#[$log_attr:meta])*
                $log:ident: $log_name:literal, $log_description:literal, $line:expr, $stream:path, $feed:path;
            )*
        }
    ) => {
        $(
            $(#[$attr])*
            pub static $konst: DocKind = DocKind {
                name: <$ty as Document>::KIND,
                description: $description,
                shape: Shape::Document,
                line_kind: None,
                recognise: $recognise,
                reader: Reader::Document(Typed {
                    fields: <$ty as mplp_core::Wire>::FIELDS,
                    open: <$ty as mplp_core::Wire>::OPEN,
                    parse: parse::<$ty>,
                    parse_guessed: parse_guessed::<$ty>,
                    round_trip: round_trip::<$ty>,
                }),
            };

            impl From<$ty> for AnyDocument {
                fn from(document: $ty) -> Self {
                    AnyDocument::$variant(Box::new(document))
                }
            }
        )*
        $(
            $(#[$log_attr])*
            pub static $log: DocKind = DocKind {
                name: $log_name,
                description: $log_description,
                shape: Shape::Log,
                line_kind: $line,
                recognise: Recognise::NEVER,
                reader: Reader::Log(|reader, options, on| $stream(reader, options, on), $feed),
            };
        )*

        /// Every kind, in the order the CLI lists them: the documents, then
        /// the logs.
        pub static KINDS: &[&DocKind] = &[$(&$konst,)* $(&$log,)*];

        /// A valid document of any kind, as the dispatch read it
        /// ([`Sink::document`](crate::Sink::document)): one variant per
        /// document kind of [`KINDS`], boxed.
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum AnyDocument {
            $(
                $(#[$attr])*
                $variant(Box<$ty>),
            )*
        }

        impl AnyDocument {
            /// The document's kind.
            pub fn kind(&self) -> &'static DocKind {
                match self {
                    $(AnyDocument::$variant(_) => &$konst,)*
                }
            }

            /// The document as JSON (`Document::to_json`).
            pub fn to_json(&self) -> String {
                match self {
                    $(AnyDocument::$variant(d) => d.to_json(),)*
                }
            }
        }
    };
}

kinds! {
    documents {
        /// A Dialog document.
        DIALOG: Dialog(mplp_dialog::Dialog), "A Dialog document",
            Recognise::members(60, &["dialog_id"]);
        /// A Plan document.
        PLAN: Plan(mplp_plan::Plan), "A Plan document",
            Recognise::members(50, &["plan_id"]);
        /// A Collab document.
        COLLAB: Collab(mplp_collab::Collab), "A Collab document",
            Recognise::members(70, &["collab_id"]);
        /// A Context document.
        CONTEXT: Context(mplp_context::Context), "A Context document",
            // Last: every module but Role carries `context_id`.
            Recognise::members(200, &["root", "context_id"]);
        /// A Confirm document.
        CONFIRM: Confirm(mplp_confirm::Confirm), "A Confirm document",
            Recognise::members(80, &["confirm_id"]);
        /// A Trace document.
        TRACE: Trace(mplp_trace::Trace), "A Trace document",
            // Before Plan: a Trace carries `plan_id` too.
            Recognise::members(40, &["root_span", "trace_id"]);
        /// A Role document.
        ROLE: Role(mplp_role::Role), "A Role document",
            Recognise::members(90, &["role_id"]);
        /// An Extension document.
        EXTENSION: Extension(mplp_extension::Extension), "An Extension document",
            Recognise::members(100, &["extension_id"]);
        /// A Network document.
        NETWORK: Network(mplp_network::Network), "A Network document",
            Recognise::members(110, &["network_id"]);
        /// A Core module document (the manifest of a protocol instance).
        CORE: Core(mplp_manifest::CoreManifest),
            "A Core module document (protocol instance manifest)",
            Recognise::members(120, &["core_id"]);
        /// One MAP event.
        MAP_EVENT: MapEvent(mplp_events::MapEvent), "One MAP event",
            // Events first: they carry `plan_id`, `context_id` and `trace_id` too.
            Recognise::event(10, "MAP", &["session_id"]);
        /// One SA event.
        SA_EVENT: SaEvent(mplp_events::SaEvent), "One SA event",
            Recognise::event(20, "SA", &["sa_id"]);
        /// One core (observability) event.
        EVENT: Event(mplp_events::CoreEvent), "One core (observability) event",
            Recognise::members(30, &["event_family"]);
        /// One learning sample of the learning taxonomy (`learning/`).
        LEARNING_SAMPLE: LearningSample(mplp_events::learning::LearningSample),
            "One learning sample (core, intent resolution or delta impact)",
            // After the events, before the documents (samples carry
            // `plan_id` too), and after the structured sample, whose
            // required members tell it apart (`sample_id` alone is read as
            // this kind).
            Recognise::members(32, &["sample_family", "sample_id"]);
        /// One structured learning sample (`common/learning-sample.schema.json`).
        COMMON_LEARNING_SAMPLE: CommonLearningSample(mplp_events::learning::CommonLearningSample),
            "One structured learning sample (common/learning-sample)",
            // Its required members, none of which a learning sample of the taxonomy has.
            Recognise::members(31, &["success_flag", "timestamps", "project_id"]);
        /// One tool integration event.
        TOOL_EVENT: ToolEvent(mplp_events::integration::ToolEvent),
            "One tool integration event",
            Recognise::members(34, &["tool_id", "invocation_id"]);
        /// One file update integration event.
        FILE_UPDATE_EVENT: FileUpdateEvent(mplp_events::integration::FileUpdateEvent),
            "One file update integration event",
            Recognise::members(36, &["file_path", "change_type"]);
        /// One Git integration event.
        GIT_EVENT: GitEvent(mplp_events::integration::GitEvent),
            "One Git integration event",
            Recognise::members(35, &["repo_url", "event_kind"]);
        /// One CI integration event.
        CI_EVENT: CiEvent(mplp_events::integration::CiEvent),
            "One CI integration event",
            Recognise::members(33, &["ci_provider"]);
        /// One module event (`common/events.schema.json`: the entries of a
        /// module document's `events`, and the lines of runtime logs).
        MODULE_EVENT: ModuleEvent(mplp_core::BaseEvent),
            "One module event (common/events: event_id, event_type, source, timestamp)",
            // `source` is its alone; before the Trace (it may carry `trace_id`).
            Recognise::members(37, &["source"]);
    }
    logs {
        /// An NDJSON log of MAP events.
        MAP_LOG: "map-log", "An NDJSON log of MAP events", Some(&MAP_EVENT),
            mplp_events::log::stream_map_log, mplp_events::log::LogFeed::map;
        /// An NDJSON log of SA events.
        SA_LOG: "sa-log", "An NDJSON log of SA events", Some(&SA_EVENT),
            mplp_events::log::stream_sa_log, mplp_events::log::LogFeed::sa;
        /// An NDJSON log of events of any kind (module, core, learning,
        /// integration, MAP, SA events): each line is validated as the kind
        /// it is recognised as, and event ids are unique across the log.
        EVENT_LOG: "event-log",
            "An NDJSON log of events of any kind, each line validated as its own kind",
            None, crate::event_log::stream_event_log, crate::event_log::feed;
    }
}

/// The kinds a line of an [`EVENT_LOG`] may be: every event and learning
/// sample of the table.
pub static EVENT_KINDS: &[&DocKind] = &[
    &MODULE_EVENT,
    &EVENT,
    &MAP_EVENT,
    &SA_EVENT,
    &TOOL_EVENT,
    &FILE_UPDATE_EVENT,
    &GIT_EVENT,
    &CI_EVENT,
    &LEARNING_SAMPLE,
    &COMMON_LEARNING_SAMPLE,
];

/// The kind called `name` (`plan`, `map-log`, ...).
pub fn by_name(name: &str) -> Option<&'static DocKind> {
    KINDS.iter().copied().find(|k| k.name == name)
}

/// The kind of an example file from its name (the longest matching
/// prefix wins: `map-event-x.json` is a MAP event, not a core `event-`).
pub fn for_example(file_name: &str) -> Option<&'static DocKind> {
    KINDS
        .iter()
        .copied()
        .filter(|k| k.names_example(file_name))
        .max_by_key(|k| k.name.len())
}

/// True for a file name that holds a log (`.ndjson`, `.jsonl`).
pub fn is_log_file_name(file_name: &str) -> bool {
    file_name.ends_with(".ndjson") || file_name.ends_with(".jsonl")
}

/// The spelling of "recognise the kind from the input" next to the kind
/// names (`--kind auto`, the Python `kind="auto"`).
pub const AUTO: &str = "auto";

/// What [`AUTO`] does, in one line (its `--help` text), from the signs in
/// the table.
pub fn auto_description() -> String {
    format!(
        "Recognise the kind from the document ({}) or a `.ndjson`/`.jsonl` name",
        crate::detect::signs().join(", ")
    )
}

/// Parses a kind name or [`AUTO`]: `Ok(None)` for `auto`.
///
/// # Errors
/// [`UnknownKind`] for any other text; its message lists the names.
///
/// ```
/// assert_eq!(mplp_check::parse_or_auto("auto"), Ok(None));
/// assert_eq!(mplp_check::parse_or_auto("plan"), Ok(Some(&mplp_check::PLAN)));
/// let err = mplp_check::parse_or_auto("plans").unwrap_err().to_string();
/// assert!(err.starts_with("unknown kind `plans`, expected one of: auto, dialog, plan,"));
/// ```
pub fn parse_or_auto(name: &str) -> Result<Option<&'static DocKind>, UnknownKind> {
    if name == AUTO {
        return Ok(None);
    }
    name.parse().map(Some)
}

/// A kind name that is neither a kind of [`KINDS`] nor [`AUTO`] (the text given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKind(pub String);

impl std::fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown kind `{}`, expected one of: {AUTO}", self.0)?;
        for kind in KINDS {
            write!(f, ", {}", kind.name)?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownKind {}
