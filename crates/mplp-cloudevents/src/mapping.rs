//! The mapping table and the one encoder and decoder that follow it.

use chrono::{DateTime, SecondsFormat, Utc};
use cloudevents::event::ExtensionValue;
use cloudevents::{AttributesReader, Event, EventBuilder, EventBuilderV10};
use mplp_core::Document;
use mplp_events::integration::{CiEvent, FileUpdateEvent, GitEvent, ToolEvent};
use mplp_events::learning::{CommonLearningSample, LearningSample};
use mplp_events::{CoreEvent, MapEvent, SaEvent};
use serde_json::{Map, Value};

use crate::Error;

/// The namespace of the UUID v5 ids of events that have no id member
/// (integration events): `uuid::Uuid::new_v5(&ID_NAMESPACE, json)`.
pub const ID_NAMESPACE: uuid::Uuid =
    uuid::Uuid::from_u128(0x6d70_6c70_2d63_5e00_8000_636c_6f75_6465);

/// The extension that keeps an MPLP timestamp's text when the `time`
/// attribute (an instant in UTC) does not give it back.
pub const TIME_EXTENSION: &str = "mplptime";

/// How one MPLP family maps to CloudEvents: which member goes to which
/// attribute. The rows are [`MAPPINGS`]; the [crate docs](crate) show them
/// as a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Mapping {
    /// The MPLP kind, as `mplp validate --kind` names it (`base-event` for
    /// the module events of `events` members, which are not a kind).
    pub kind: &'static str,
    /// The `type` attribute.
    pub ty: TypeFrom,
    /// The `id` attribute.
    pub id: IdFrom,
    /// The member whose timestamp is the `time` attribute.
    pub time: Option<&'static str>,
    /// The `source` attribute.
    pub source: SourceFrom,
    /// The member whose text is the `subject` attribute.
    pub subject: Option<&'static str>,
    /// Members carried as extension attributes.
    pub extensions: &'static [Ext],
    /// What `data` carries.
    pub data: DataFrom,
}

/// Where the `type` attribute comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TypeFrom {
    /// `prefix` followed by the member's text (`dev.mplp.map.` + `event_type`).
    Member {
        /// The prefix, ending with `.`.
        prefix: &'static str,
        /// The member.
        member: &'static str,
    },
    /// One type for the family.
    Fixed(&'static str),
}

impl TypeFrom {
    /// Whether a CloudEvent `type` belongs to this family.
    pub fn matches(&self, ty: &str) -> bool {
        match *self {
            TypeFrom::Member { prefix, .. } => ty.len() > prefix.len() && ty.starts_with(prefix),
            TypeFrom::Fixed(fixed) => ty == fixed,
        }
    }

    fn expected(&self) -> String {
        match *self {
            TypeFrom::Member { prefix, member } => format!("{prefix}<{member}>"),
            TypeFrom::Fixed(fixed) => fixed.to_string(),
        }
    }
}

/// Where the `id` attribute comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdFrom {
    /// The member's text.
    Member(&'static str),
    /// The UUID v5 of the event's JSON text in [`ID_NAMESPACE`] (the family
    /// has no id); ignored when reading.
    Derived,
}

/// Where the `source` attribute comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SourceFrom {
    /// `prefix` followed by the member, percent-encoded as one path segment.
    Member {
        /// The prefix, ending with `/`.
        prefix: &'static str,
        /// The member.
        member: &'static str,
        /// The source when the (optional) member is absent.
        absent: Option<&'static str>,
    },
    /// The member's text as it is (already a URI reference).
    Verbatim(&'static str),
    /// One source for the family.
    Fixed(&'static str),
}

/// A member carried as an extension attribute (always a string, so that it
/// survives binary mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Ext {
    /// The extension's name (lowercase letters and digits, at most 20).
    pub name: &'static str,
    /// The member.
    pub member: &'static str,
    /// Whether the value is written as JSON text (arrays); otherwise the
    /// member is a string and is written as it is.
    pub json: bool,
}

/// What the `data` attribute carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DataFrom {
    /// One member (the MAP and SA `payload`, the module event `data`); the
    /// family has no member outside the mapping.
    Member(&'static str),
    /// The object less the members that went to attributes.
    Rest,
}

pub(crate) const MAP: Mapping = Mapping {
    kind: MapEvent::KIND,
    ty: TypeFrom::Member {
        prefix: "dev.mplp.map.",
        member: "event_type",
    },
    id: IdFrom::Member("event_id"),
    time: Some("timestamp"),
    source: SourceFrom::Member {
        prefix: "/mplp/sessions/",
        member: "session_id",
        absent: None,
    },
    subject: Some("initiator_role"),
    extensions: &[Ext {
        name: "mplptargetroles",
        member: "target_roles",
        json: true,
    }],
    data: DataFrom::Member("payload"),
};

pub(crate) const SA: Mapping = Mapping {
    kind: SaEvent::KIND,
    ty: TypeFrom::Member {
        prefix: "dev.mplp.sa.",
        member: "event_type",
    },
    id: IdFrom::Member("event_id"),
    time: Some("timestamp"),
    source: SourceFrom::Member {
        prefix: "/mplp/agents/",
        member: "sa_id",
        absent: None,
    },
    subject: None,
    extensions: &[
        Ext {
            name: "mplpcontextid",
            member: "context_id",
            json: false,
        },
        Ext {
            name: "mplpplanid",
            member: "plan_id",
            json: false,
        },
        Ext {
            name: "mplptraceid",
            member: "trace_id",
            json: false,
        },
    ],
    data: DataFrom::Member("payload"),
};

pub(crate) const MODULE: Mapping = Mapping {
    kind: "base-event",
    ty: TypeFrom::Member {
        prefix: "dev.mplp.module.",
        member: "event_type",
    },
    id: IdFrom::Member("event_id"),
    time: Some("timestamp"),
    source: SourceFrom::Verbatim("source"),
    subject: None,
    extensions: &[Ext {
        name: "mplptraceid",
        member: "trace_id",
        json: false,
    }],
    data: DataFrom::Member("data"),
};

pub(crate) const CORE: Mapping = Mapping {
    kind: CoreEvent::KIND,
    ty: TypeFrom::Member {
        prefix: "dev.mplp.event.",
        member: "event_type",
    },
    id: IdFrom::Member("event_id"),
    time: Some("timestamp"),
    source: SourceFrom::Member {
        prefix: "/mplp/projects/",
        member: "project_id",
        absent: Some("/mplp/events"),
    },
    subject: None,
    extensions: &[],
    data: DataFrom::Rest,
};

pub(crate) const LEARNING: Mapping = Mapping {
    kind: LearningSample::KIND,
    ty: TypeFrom::Member {
        prefix: "dev.mplp.learning.",
        member: "sample_family",
    },
    id: IdFrom::Member("sample_id"),
    time: Some("created_at"),
    source: SourceFrom::Fixed("/mplp/learning"),
    subject: None,
    extensions: &[],
    data: DataFrom::Rest,
};

pub(crate) const COMMON_LEARNING: Mapping = Mapping {
    kind: CommonLearningSample::KIND,
    ty: TypeFrom::Fixed("dev.mplp.learning-common"),
    id: IdFrom::Member("sample_id"),
    time: None,
    source: SourceFrom::Member {
        prefix: "/mplp/projects/",
        member: "project_id",
        absent: None,
    },
    subject: None,
    extensions: &[],
    data: DataFrom::Rest,
};

pub(crate) const TOOL: Mapping = Mapping {
    kind: ToolEvent::KIND,
    ty: TypeFrom::Fixed("dev.mplp.integration.tool"),
    id: IdFrom::Derived,
    time: Some("started_at"),
    source: SourceFrom::Member {
        prefix: "/mplp/tools/",
        member: "tool_id",
        absent: None,
    },
    subject: Some("invocation_id"),
    extensions: &[],
    data: DataFrom::Rest,
};

pub(crate) const FILE_UPDATE: Mapping = Mapping {
    kind: FileUpdateEvent::KIND,
    ty: TypeFrom::Fixed("dev.mplp.integration.file-update"),
    id: IdFrom::Derived,
    time: Some("timestamp"),
    source: SourceFrom::Fixed("/mplp/files"),
    subject: Some("file_path"),
    extensions: &[],
    data: DataFrom::Rest,
};

pub(crate) const GIT: Mapping = Mapping {
    kind: GitEvent::KIND,
    ty: TypeFrom::Fixed("dev.mplp.integration.git"),
    id: IdFrom::Derived,
    time: Some("timestamp"),
    source: SourceFrom::Member {
        prefix: "/mplp/repos/",
        member: "repo_url",
        absent: None,
    },
    subject: Some("commit_id"),
    extensions: &[],
    data: DataFrom::Rest,
};

pub(crate) const CI: Mapping = Mapping {
    kind: CiEvent::KIND,
    ty: TypeFrom::Fixed("dev.mplp.integration.ci"),
    id: IdFrom::Derived,
    time: Some("started_at"),
    source: SourceFrom::Member {
        prefix: "/mplp/ci/",
        member: "ci_provider",
        absent: None,
    },
    subject: Some("run_id"),
    extensions: &[],
    data: DataFrom::Rest,
};

/// Every family's mapping, one row each.
pub const MAPPINGS: &[Mapping] = &[
    MAP,
    SA,
    MODULE,
    CORE,
    LEARNING,
    COMMON_LEARNING,
    TOOL,
    FILE_UPDATE,
    GIT,
    CI,
];

fn unexpected(attribute: &str, expected: impl Into<String>, found: impl Into<String>) -> Error {
    Error::Attribute {
        attribute: attribute.to_string(),
        expected: expected.into(),
        found: found.into(),
    }
}

/// Takes a string member out of the object.
fn take_text(obj: &mut Map<String, Value>, member: &str) -> Result<Option<String>, Error> {
    match obj.remove(member) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(unexpected(member, "a string member", other.to_string())),
    }
}

fn required(obj: &mut Map<String, Value>, member: &str) -> Result<String, Error> {
    take_text(obj, member)?.ok_or_else(|| unexpected(member, "the member", "nothing"))
}

/// The text an instant goes back to: UTC, `Z`, milliseconds (more digits
/// when the instant has them).
fn render_time(at: &DateTime<Utc>) -> String {
    let format = if at.timestamp_subsec_nanos() % 1_000_000 == 0 {
        SecondsFormat::Millis
    } else {
        SecondsFormat::AutoSi
    };
    at.to_rfc3339_opts(format, true)
}

fn parse_time(attribute: &str, text: &str) -> Result<DateTime<Utc>, Error> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| unexpected(attribute, format!("an RFC 3339 date-time ({e})"), text))
}

/// Percent-encodes every byte `keep` refuses (UTF-8 bytes of other
/// characters included).
pub(crate) fn percent_encode(text: &str, keep: impl Fn(u8) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if keep(b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Undoes [`percent_encode`]; `None` for a bad escape or bytes that are not UTF-8.
pub(crate) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn path_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// The CloudEvent of an MPLP object that follows `mapping`; `text` is the
/// object's JSON (for derived ids).
pub(crate) fn encode(
    mapping: &Mapping,
    value: Value,
    text: impl FnOnce() -> String,
) -> Result<Event, Error> {
    let Value::Object(mut obj) = value else {
        return Err(unexpected("data", "a JSON object", value.to_string()));
    };
    let id = match mapping.id {
        IdFrom::Member(member) => required(&mut obj, member)?,
        IdFrom::Derived => uuid::Uuid::new_v5(&ID_NAMESPACE, text().as_bytes()).to_string(),
    };
    let ty = match mapping.ty {
        TypeFrom::Member { prefix, member } => format!("{prefix}{}", required(&mut obj, member)?),
        TypeFrom::Fixed(fixed) => fixed.to_string(),
    };
    let source = match mapping.source {
        SourceFrom::Member {
            prefix,
            member,
            absent,
        } => match (take_text(&mut obj, member)?, absent) {
            (Some(text), _) => format!("{prefix}{}", percent_encode(&text, path_safe)),
            (None, Some(absent)) => absent.to_string(),
            (None, None) => return Err(unexpected(member, "the member", "nothing")),
        },
        SourceFrom::Verbatim(member) => required(&mut obj, member)?,
        SourceFrom::Fixed(fixed) => fixed.to_string(),
    };
    let mut builder = EventBuilderV10::new().id(id).ty(ty).source(source);
    if let Some(member) = mapping.time {
        if let Some(text) = take_text(&mut obj, member)? {
            let at = parse_time(member, &text)?;
            if render_time(&at) != text {
                builder = builder.extension(TIME_EXTENSION, text);
            }
            builder = builder.time(at);
        }
    }
    if let Some(member) = mapping.subject {
        if let Some(text) = take_text(&mut obj, member)? {
            builder = builder.subject(text);
        }
    }
    for ext in mapping.extensions {
        match obj.remove(ext.member) {
            None => {}
            Some(value) if ext.json => {
                builder = builder.extension(ext.name, serde_json::to_string(&value)?);
            }
            Some(Value::String(s)) => builder = builder.extension(ext.name, s),
            Some(other) => {
                return Err(unexpected(ext.member, "a string member", other.to_string()));
            }
        }
    }
    let data = match mapping.data {
        DataFrom::Member(member) => {
            let data = obj.remove(member);
            if let Some(left) = obj.keys().next() {
                return Err(unexpected(
                    "data",
                    format!("no member besides the mapping's and `{member}`"),
                    left.clone(),
                ));
            }
            data
        }
        DataFrom::Rest => Some(Value::Object(obj)),
    };
    if let Some(data) = data {
        builder = builder.data("application/json", data);
    }
    builder
        .build()
        .map_err(|e| Error::CloudEvents(cloudevents::message::Error::from(e)))
}

/// Puts an attribute's value back as `member`, refusing a second source.
fn put(
    obj: &mut Map<String, Value>,
    attribute: &str,
    member: &str,
    value: Value,
) -> Result<(), Error> {
    if obj.contains_key(member) {
        return Err(Error::Conflict {
            attribute: attribute.to_string(),
            member: member.to_string(),
        });
    }
    obj.insert(member.to_string(), value);
    Ok(())
}

/// The MPLP object of a CloudEvent that follows `mapping`, ready for the
/// family's parser.
pub(crate) fn decode(mapping: &Mapping, event: &Event) -> Result<Value, Error> {
    let ty = event.ty();
    if !mapping.ty.matches(ty) {
        return Err(Error::Type {
            expected: mapping.ty.expected(),
            found: ty.to_string(),
        });
    }
    let data = match event.data() {
        Some(data) => Some(Value::try_from(data.clone())?),
        None => None,
    };
    let mut obj = match (mapping.data, data) {
        (DataFrom::Member(member), data) => {
            let mut obj = Map::new();
            if let Some(data) = data {
                obj.insert(member.to_string(), data);
            }
            obj
        }
        (DataFrom::Rest, Some(Value::Object(obj))) => obj,
        (DataFrom::Rest, None) => Map::new(),
        (DataFrom::Rest, Some(other)) => {
            return Err(unexpected("data", "a JSON object", other.to_string()));
        }
    };
    if let IdFrom::Member(member) = mapping.id {
        put(
            &mut obj,
            "id",
            member,
            Value::String(event.id().to_string()),
        )?;
    }
    if let TypeFrom::Member { prefix, member } = mapping.ty {
        put(
            &mut obj,
            "type",
            member,
            Value::String(ty[prefix.len()..].to_string()),
        )?;
    }
    let source = event.source().as_str();
    match mapping.source {
        SourceFrom::Member {
            prefix,
            member,
            absent,
        } => {
            if absent != Some(source) {
                let text = source
                    .strip_prefix(prefix)
                    .and_then(percent_decode)
                    .ok_or_else(|| {
                        let mut expected = format!("{prefix}<{member}, percent-encoded>");
                        if let Some(absent) = absent {
                            expected.push_str(&format!(" or {absent}"));
                        }
                        unexpected("source", expected, source)
                    })?;
                put(&mut obj, "source", member, Value::String(text))?;
            }
        }
        SourceFrom::Verbatim(member) => {
            put(
                &mut obj,
                "source",
                member,
                Value::String(source.to_string()),
            )?;
        }
        SourceFrom::Fixed(fixed) => {
            if source != fixed {
                return Err(unexpected("source", fixed, source));
            }
        }
    }
    let kept_text = match event.extension(TIME_EXTENSION) {
        None => None,
        Some(ExtensionValue::String(s)) => Some(s.as_str()),
        Some(other) => {
            return Err(unexpected(
                TIME_EXTENSION,
                "a timestamp text",
                other.to_string(),
            ));
        }
    };
    match (mapping.time, event.time(), kept_text) {
        (Some(member), Some(at), None) => {
            put(&mut obj, "time", member, Value::String(render_time(at)))?;
        }
        (Some(member), Some(at), Some(text)) => {
            if parse_time(TIME_EXTENSION, text)? != *at {
                return Err(unexpected(
                    TIME_EXTENSION,
                    format!("the instant of `time` ({})", render_time(at)),
                    text,
                ));
            }
            put(&mut obj, "time", member, Value::String(text.to_string()))?;
        }
        (_, None, Some(text)) => {
            return Err(unexpected(
                TIME_EXTENSION,
                "a `time` attribute beside it",
                text,
            ));
        }
        (_, _, _) => {}
    }
    if let (Some(member), Some(subject)) = (mapping.subject, event.subject()) {
        put(
            &mut obj,
            "subject",
            member,
            Value::String(subject.to_string()),
        )?;
    }
    for ext in mapping.extensions {
        let value = match event.extension(ext.name) {
            None => continue,
            Some(ExtensionValue::String(s)) if ext.json => serde_json::from_str(s)?,
            Some(ExtensionValue::String(s)) => Value::String(s.clone()),
            Some(ExtensionValue::Integer(i)) => Value::from(*i),
            Some(ExtensionValue::Boolean(b)) => Value::Bool(*b),
        };
        put(&mut obj, ext.name, ext.member, value)?;
    }
    Ok(Value::Object(obj))
}
