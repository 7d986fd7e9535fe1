//! MPLP v1.0.0 events as [CloudEvents 1.0](https://cloudevents.io) and
//! back, so that MAP sessions, single agents and the observability,
//! learning and integration events can travel on the brokers and HTTP
//! endpoints that speak CloudEvents. Built on the `cloudevents-sdk` crate
//! (no default features: no HTTP framework or broker client comes along).
//!
//! ```
//! use mplp_cloudevents::{FromCloudEvent, ToCloudEvent, cloudevents::AttributesReader};
//! use mplp_events::{CollabId, MapEvent};
//!
//! let event = MapEvent::turn_dispatched(CollabId::new(), "coder", 1).with_initiator_role("lead");
//! let ce = event.to_cloudevent()?;
//! assert_eq!(ce.id(), event.event_id.to_string());
//! assert_eq!(ce.ty(), "dev.mplp.map.MAPTurnDispatched");
//! assert_eq!(ce.subject(), Some("lead"));
//!
//! // Structured mode (`application/cloudevents+json`) ...
//! let bytes = mplp_cloudevents::to_structured(&ce)?;
//! assert_eq!(MapEvent::from_cloudevent(&mplp_cloudevents::from_structured(&bytes)?)?, event);
//! // ... and binary mode (`ce-` headers and the data as the body).
//! let message = mplp_cloudevents::BinaryMessage::from_event(&ce)?;
//! assert!(message.header("ce-source").is_some_and(|s| s.starts_with("/mplp/sessions/")));
//! assert_eq!(MapEvent::from_cloudevent(&message.to_event()?)?, event);
//! # Ok::<(), mplp_cloudevents::Error>(())
//! ```
//!
//! # The mapping
//!
//! Every family is one row of [`MAPPINGS`]. The MPLP members named there
//! *move* into CloudEvents attributes; `data` carries what is left, so
//! nothing is written twice and nothing is lost:
//!
//! | MPLP | `id` | `time` | `type` | `source` | `subject` | `data` | extensions |
//! |---|---|---|---|---|---|---|---|
//! | MAP event | `event_id` | `timestamp` | `dev.mplp.map.<event_type>` | `/mplp/sessions/<session_id>` | `initiator_role` | `payload` | `mplptargetroles` (`target_roles` as JSON text) |
//! | SA event | `event_id` | `timestamp` | `dev.mplp.sa.<event_type>` | `/mplp/agents/<sa_id>` | | `payload` | `mplpcontextid`, `mplpplanid`, `mplptraceid` |
//! | module event (`BaseEvent`) | `event_id` | `timestamp` | `dev.mplp.module.<event_type>` | `source` | | `data` | `mplptraceid` |
//! | observability event (kind `event`) | `event_id` | `timestamp` | `dev.mplp.event.<event_type>` | `/mplp/projects/<project_id>`, or `/mplp/events` | | the rest of the event | |
//! | learning sample | `sample_id` | `created_at` | `dev.mplp.learning.<sample_family>` | `/mplp/learning` | | the rest | |
//! | common learning sample | `sample_id` | | `dev.mplp.learning-common` | `/mplp/projects/<project_id>` | | the rest | |
//! | tool event | (derived) | `started_at` | `dev.mplp.integration.tool` | `/mplp/tools/<tool_id>` | `invocation_id` | the rest | |
//! | file update event | (derived) | `timestamp` | `dev.mplp.integration.file-update` | `/mplp/files` | `file_path` | the rest | |
//! | git event | (derived) | `timestamp` | `dev.mplp.integration.git` | `/mplp/repos/<repo_url>` | `commit_id` | the rest | |
//! | CI event | (derived) | `started_at` | `dev.mplp.integration.ci` | `/mplp/ci/<ci_provider>` | `run_id` | the rest | |
//!
//! - **`type`** starts with `dev.mplp.` (the reverse of the protocol's
//!   `mplp.dev` domain), as CloudEvents recommends.
//! - **`source`** members are percent-encoded as one path segment (anything
//!   but `A-Z a-z 0-9 - . _ ~`), so free text such as a tool id stays a
//!   valid URI reference; the module event's `source` is written as it is.
//! - **`time`** is an instant in UTC in CloudEvents, while an MPLP timestamp
//!   keeps its text (`+08:00` offsets, any number of fraction digits). The
//!   text goes back as the instant in UTC with milliseconds and `Z` (or
//!   more digits when the instant needs them); when that is not the
//!   original text, the extension **`mplptime`** carries the original, and
//!   reading refuses a `mplptime` whose instant is not `time`.
//! - **Integration events have no id member.** Their `id` is the UUID v5
//!   (in the namespace [`ID_NAMESPACE`]) of the event's JSON text, so the
//!   same event always maps to the same id and brokers can de-duplicate it;
//!   reading ignores it.
//! - **`data`** is JSON (`datacontenttype: application/json`). An absent
//!   MAP or SA `payload` (or module event `data`) is an event without data;
//!   a `null` one is JSON `null`. Reading also takes data that arrived as
//!   text or bytes (`data_base64`) when it is JSON.
//! - **Extensions** are strings, so they survive binary mode, where every
//!   header is text. Reading ignores extensions the mapping does not name
//!   (brokers add their own, such as `traceparent`).
//! - **Reading is parsing**: the MPLP object is put back together and read
//!   with the family's own parser, so the result is valid or an error that
//!   names the JSON pointer and the rule. An attribute that would fill a
//!   member `data` already has is refused ([`Error::Conflict`]).
//!
//! Round trips are lossless: `T::from_cloudevent(&t.to_cloudevent()?)` is
//! `t`, in structured and binary mode (a property test over generated
//! events of every family).
//!
//! # Binary mode
//!
//! [`BinaryMessage`] is the transport-neutral binary mode of the HTTP
//! binding: one `ce-<attribute>` header per attribute and extension,
//! `content-type` for `datacontenttype`, values percent-encoded as the
//! binding asks (space, `"`, `%` and anything outside printable ASCII), and
//! the data as the body. It implements the SDK's `BinaryDeserializer`, and
//! is what an HTTP request or a NATS message with headers carries.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod binary;
mod mapping;

pub use crate::binary::BinaryMessage;
pub use crate::mapping::{
    DataFrom, Ext, ID_NAMESPACE, IdFrom, MAPPINGS, Mapping, SourceFrom, TIME_EXTENSION, TypeFrom,
};

/// The `cloudevents-sdk` crate, re-exported so that its version always
/// matches (`Event`, `AttributesReader`, the `message` traits, ...).
pub use cloudevents;

use cloudevents::Event;
use mplp_core::{BaseEvent, Document};
use mplp_events::integration::{CiEvent, FileUpdateEvent, GitEvent, ToolEvent};
use mplp_events::learning::{CommonLearningSample, LearningSample};
use mplp_events::{CoreEvent, MapEvent, SaEvent};

/// The media type of an event in structured mode.
pub const STRUCTURED_CONTENT_TYPE: &str = "application/cloudevents+json";

/// Why an MPLP event and a CloudEvent could not be converted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The CloudEvent is not the expected MPLP family (its `type` does not
    /// start with the family's prefix, or names no family).
    #[error("CloudEvent type `{found}`: expected {expected}")]
    Type {
        /// What was expected (`dev.mplp.map.<event_type>`, ...).
        expected: String,
        /// The `type` attribute.
        found: String,
    },
    /// An attribute or extension is not what the mapping writes.
    #[error("CloudEvent attribute `{attribute}`: expected {expected}, found `{found}`")]
    Attribute {
        /// The attribute or extension name.
        attribute: String,
        /// What the mapping writes there.
        expected: String,
        /// What the event has.
        found: String,
    },
    /// An attribute would fill a member that `data` already has.
    #[error(
        "CloudEvent attribute `{attribute}` and data member `{member}` both give /{member}: expected it once"
    )]
    Conflict {
        /// The attribute or extension.
        attribute: String,
        /// The member of the MPLP object.
        member: String,
    },
    /// The MPLP object put back together is not a valid event; the error
    /// names every violation with its JSON pointer and rule.
    #[error("the event in the CloudEvent is not valid MPLP: {0}")]
    Mplp(#[from] mplp_core::Error),
    /// The data is not JSON, or a JSON value did not serialize.
    #[error("CloudEvent data at /data: expected JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The CloudEvents SDK refused the event or the message.
    #[error("CloudEvents: {0}")]
    CloudEvents(#[from] cloudevents::message::Error),
}

/// An MPLP event or document that maps to a CloudEvent.
pub trait ToCloudEvent {
    /// The CloudEvent of this event (see the [crate docs](crate) for the
    /// mapping).
    fn to_cloudevent(&self) -> Result<Event, Error>;
}

/// An MPLP event or document read back from a CloudEvent.
pub trait FromCloudEvent: Sized {
    /// The row of [`MAPPINGS`] this type follows.
    const MAPPING: &'static Mapping;

    /// Reads the event from a CloudEvent written by [`ToCloudEvent`] (or by
    /// anyone following the same mapping).
    fn from_cloudevent(event: &Event) -> Result<Self, Error>;
}

macro_rules! documents {
    ($($ty:ty => $mapping:ident),* $(,)?) => {$(
        impl ToCloudEvent for $ty {
            fn to_cloudevent(&self) -> Result<Event, Error> {
                mapping::encode(&mapping::$mapping, self.to_value(), || self.to_json())
            }
        }
        impl FromCloudEvent for $ty {
            const MAPPING: &'static Mapping = &mapping::$mapping;
            fn from_cloudevent(event: &Event) -> Result<Self, Error> {
                Ok(<$ty>::from_value(&mapping::decode(&mapping::$mapping, event)?)?)
            }
        }
    )*};
}

documents! {
    MapEvent => MAP,
    SaEvent => SA,
    CoreEvent => CORE,
    LearningSample => LEARNING,
    CommonLearningSample => COMMON_LEARNING,
    ToolEvent => TOOL,
    FileUpdateEvent => FILE_UPDATE,
    GitEvent => GIT,
    CiEvent => CI,
}

impl ToCloudEvent for BaseEvent {
    fn to_cloudevent(&self) -> Result<Event, Error> {
        let value = serde_json::to_value(self)?;
        mapping::encode(&mapping::MODULE, value, || {
            serde_json::to_string(self).unwrap_or_default()
        })
    }
}

impl FromCloudEvent for BaseEvent {
    const MAPPING: &'static Mapping = &mapping::MODULE;
    fn from_cloudevent(event: &Event) -> Result<Self, Error> {
        let value = mapping::decode(&mapping::MODULE, event)?;
        Ok(serde_json::from_value(value)?)
    }
}

/// The event in structured mode: its JSON (`application/cloudevents+json`).
pub fn to_structured(event: &Event) -> Result<Vec<u8>, Error> {
    Ok(serde_json::to_vec(event)?)
}

/// Reads an event in structured mode (JSON).
pub fn from_structured(bytes: &[u8]) -> Result<Event, Error> {
    Ok(serde_json::from_slice(bytes)?)
}

/// An MPLP event of any family, as [`AnyEvent::from_cloudevent`] reads it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AnyEvent {
    /// A MAP event (`dev.mplp.map.*`).
    Map(MapEvent),
    /// An SA event (`dev.mplp.sa.*`).
    Sa(SaEvent),
    /// A module event, the `BaseEvent` of `events` members (`dev.mplp.module.*`).
    Module(BaseEvent),
    /// An observability event (`dev.mplp.event.*`).
    Core(Box<CoreEvent>),
    /// A learning sample (`dev.mplp.learning.*`).
    Learning(Box<LearningSample>),
    /// A common learning sample (`dev.mplp.learning-common`).
    CommonLearning(Box<CommonLearningSample>),
    /// A tool event (`dev.mplp.integration.tool`).
    Tool(ToolEvent),
    /// A file update event (`dev.mplp.integration.file-update`).
    FileUpdate(FileUpdateEvent),
    /// A git event (`dev.mplp.integration.git`).
    Git(GitEvent),
    /// A CI event (`dev.mplp.integration.ci`).
    Ci(CiEvent),
}

impl ToCloudEvent for AnyEvent {
    fn to_cloudevent(&self) -> Result<Event, Error> {
        match self {
            AnyEvent::Map(e) => e.to_cloudevent(),
            AnyEvent::Sa(e) => e.to_cloudevent(),
            AnyEvent::Module(e) => e.to_cloudevent(),
            AnyEvent::Core(e) => e.to_cloudevent(),
            AnyEvent::Learning(e) => e.to_cloudevent(),
            AnyEvent::CommonLearning(e) => e.to_cloudevent(),
            AnyEvent::Tool(e) => e.to_cloudevent(),
            AnyEvent::FileUpdate(e) => e.to_cloudevent(),
            AnyEvent::Git(e) => e.to_cloudevent(),
            AnyEvent::Ci(e) => e.to_cloudevent(),
        }
    }
}

impl AnyEvent {
    /// Reads whichever MPLP family the CloudEvent's `type` names.
    ///
    /// ```
    /// use mplp_cloudevents::{AnyEvent, ToCloudEvent};
    /// use mplp_events::{CollabId, MapEvent};
    ///
    /// let event = MapEvent::session_completed(CollabId::new(), "completed", 0);
    /// let any = AnyEvent::from_cloudevent(&event.to_cloudevent()?)?;
    /// assert_eq!(any, AnyEvent::Map(event));
    /// # Ok::<(), mplp_cloudevents::Error>(())
    /// ```
    pub fn from_cloudevent(event: &Event) -> Result<Self, Error> {
        use cloudevents::AttributesReader;
        let ty = event.ty();
        let Some(mapping) = MAPPINGS.iter().find(|m| m.ty.matches(ty)) else {
            return Err(Error::Type {
                expected: "a type starting with dev.mplp. that names an MPLP family".into(),
                found: ty.into(),
            });
        };
        Ok(match mapping.kind {
            "map-event" => AnyEvent::Map(MapEvent::from_cloudevent(event)?),
            "sa-event" => AnyEvent::Sa(SaEvent::from_cloudevent(event)?),
            "base-event" => AnyEvent::Module(BaseEvent::from_cloudevent(event)?),
            "event" => AnyEvent::Core(Box::new(CoreEvent::from_cloudevent(event)?)),
            "learning-sample" => {
                AnyEvent::Learning(Box::new(LearningSample::from_cloudevent(event)?))
            }
            "common-learning-sample" => {
                AnyEvent::CommonLearning(Box::new(CommonLearningSample::from_cloudevent(event)?))
            }
            "tool-event" => AnyEvent::Tool(ToolEvent::from_cloudevent(event)?),
            "file-update-event" => AnyEvent::FileUpdate(FileUpdateEvent::from_cloudevent(event)?),
            "git-event" => AnyEvent::Git(GitEvent::from_cloudevent(event)?),
            _ => AnyEvent::Ci(CiEvent::from_cloudevent(event)?),
        })
    }
}

// The crate README: each of its Rust snippets is a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
