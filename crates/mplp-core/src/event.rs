//! The base module event (`common/events.schema.json`): the entries of a
//! document's `events` list and a dialog message's `event`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::check::{CheckValue, expect_str};
use crate::{EventId, JsonObject, Pointer, Report, Rule, Timestamp, TraceId, Wire};

/// A dotted lowercase event type such as `plan.created` or `plan.step.completed`
/// (`^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)*$`).
///
/// MAP and SA event names (`MAPSessionStarted`) are not base event types.
///
/// ```
/// use mplp_core::EventType;
/// assert!("plan.step.completed".parse::<EventType>().is_ok());
/// assert!("MAPSessionStarted".parse::<EventType>().is_err());
/// assert!("plan..created".parse::<EventType>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventType(std::borrow::Cow<'static, str>);

/// The schema pattern of an [`EventType`].
pub const EVENT_TYPE_PATTERN: &str = r"^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)*$";

/// Why a text is not an [`EventType`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a base event type: expected dot-separated lowercase words, each starting with a letter (e.g. plan.created)"
)]
pub struct EventTypeError(String);

fn is_event_type(s: &str) -> bool {
    is_event_type_const(s.as_bytes())
}

const fn is_event_type_const(b: &[u8]) -> bool {
    if b.is_empty() {
        return false;
    }
    let mut i = 0;
    let mut at_start = true;
    while i < b.len() {
        let c = b[i];
        if at_start {
            if !c.is_ascii_lowercase() {
                return false;
            }
            at_start = false;
        } else if c == b'.' {
            at_start = true;
        } else if !(c.is_ascii_lowercase() || c.is_ascii_digit()) {
            return false;
        }
        i += 1;
    }
    !at_start
}

impl EventType {
    /// Parses an event type.
    pub fn new(s: impl Into<String>) -> Result<Self, EventTypeError> {
        let s = s.into();
        if is_event_type(&s) {
            Ok(EventType(s.into()))
        } else {
            Err(EventTypeError(s))
        }
    }

    /// An event type from a literal. The literal is checked when the
    /// expression is evaluated; in a `const` item a bad literal fails to compile.
    ///
    /// ```
    /// const STEP_COMPLETED: mplp_core::EventType = mplp_core::EventType::from_static("plan.step.completed");
    /// assert_eq!(STEP_COMPLETED.as_str(), "plan.step.completed");
    /// ```
    ///
    /// ```compile_fail
    /// const BAD: mplp_core::EventType = mplp_core::EventType::from_static("Plan.Created");
    /// ```
    pub const fn from_static(s: &'static str) -> Self {
        assert!(
            is_event_type_const(s.as_bytes()),
            "not a dotted lowercase event type"
        );
        EventType(std::borrow::Cow::Borrowed(s))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for EventType {
    type Err = EventTypeError;
    fn from_str(s: &str) -> Result<Self, EventTypeError> {
        EventType::new(s)
    }
}

impl Serialize for EventType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for EventType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        EventType::new(s).map_err(|e| mplp_json::de::raise(crate::Rule::PATTERN, e))
    }
}

impl CheckValue for EventType {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        if let Some(s) = expect_str(value, at, report) {
            if !is_event_type(s) {
                report.error(at, Rule::PATTERN, EventTypeError(s.to_owned()).to_string());
            }
        }
    }
}

crate::__schemars_string!(EventType, { "type": "string", "pattern": crate::event::EVENT_TYPE_PATTERN });

/// One event of a module document's history (`common/events.schema.json`),
/// shaped after CloudEvents: id, type, source, time, optional trace and data.
///
/// `data` distinguishes three cases, as the wire does: absent (`None`),
/// `null` (`Some(None)`) and an object (`Some(Some(..))`).
///
/// ```
/// use mplp_core::{BaseEvent, EventType};
/// let event = BaseEvent::new(EventType::new("plan.created").unwrap(), "plan");
/// let json = serde_json::to_string(&event).unwrap();
/// let back: BaseEvent = serde_json::from_str(&json).unwrap();
/// assert_eq!(back, event);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(crate = "crate")]
#[non_exhaustive]
pub struct BaseEvent {
    /// The event's id.
    pub event_id: EventId,
    /// What happened (`plan.created`, `execution.started`, ...).
    pub event_type: EventType,
    /// Who emitted it: a module name (`plan`) or a component path (`runtime.ael`).
    pub source: String,
    /// When it happened.
    pub timestamp: Timestamp,
    /// The trace the event belongs to.
    pub trace_id: Option<TraceId>,
    /// The event's data: absent, `null` or an object.
    pub data: Option<Option<JsonObject>>,
}

impl BaseEvent {
    /// A new event with a fresh id and the current time, without data.
    pub fn new(event_type: EventType, source: impl Into<String>) -> Self {
        BaseEvent {
            event_id: EventId::new(),
            event_type,
            source: source.into(),
            timestamp: Timestamp::now(),
            trace_id: None,
            data: None,
        }
    }

    /// The same event with an object as data.
    #[must_use]
    pub fn with_data(mut self, data: JsonObject) -> Self {
        self.data = Some(Some(data));
        self
    }

    /// The same event bound to a trace.
    #[must_use]
    pub fn with_trace(mut self, trace_id: TraceId) -> Self {
        self.trace_id = Some(trace_id);
        self
    }
}

/// A module event read on its own (`mplp validate --kind module-event`, a
/// line of an event log): the base event's schema is all there is to it.
impl crate::Document for BaseEvent {
    const KIND: &'static str = "module-event";
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn data_keeps_absent_null_and_object_apart() {
        let base = r#"{"event_id":"550e8400-e29b-41d4-a716-446655440000","event_type":"plan.created","source":"plan","timestamp":"2025-12-07T00:00:05.000Z""#;
        for tail in ["}", r#","data":null}"#, r#","data":{"a":1}}"#] {
            let text = format!("{base}{tail}");
            let e: BaseEvent = serde_json::from_str(&text).unwrap();
            assert_eq!(serde_json::to_string(&e).unwrap(), text);
        }
        assert!(serde_json::from_str::<BaseEvent>(&format!("{base},\"data\":[1]}}")).is_err());
    }

    proptest! {
        #[test]
        fn event_type_matches_pattern(s in "[a-zA-Z0-9._]{0,12}") {
            // The pattern, written out as a small automaton.
            let expected = !s.is_empty() && s.split('.').all(|seg| {
                let mut chars = seg.chars();
                matches!(chars.next(), Some('a'..='z')) && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            });
            prop_assert_eq!(EventType::new(s.clone()).is_ok(), expected);
            if let Ok(t) = EventType::new(s.clone()) {
                prop_assert_eq!(t.as_str(), s.as_str());
                prop_assert_eq!(t.to_string(), s.clone());
                prop_assert_eq!(s.parse::<EventType>().ok(), Some(t));
            }
            // The thorough pass's verdict and rule are the parser's.
            let mut report = Report::new();
            let at = Pointer::root().key("event_type");
            EventType::check_value(&Value::String(s.clone()), &at, &mut report);
            let found: Vec<_> = report.violations().iter().map(|v| (v.pointer.as_str(), v.rule)).collect();
            if expected {
                prop_assert!(found.is_empty());
            } else {
                prop_assert_eq!(found, [("/event_type", Rule::PATTERN)]);
            }
        }
    }

    #[test]
    fn an_event_type_must_be_a_string() {
        let mut report = Report::new();
        EventType::check_value(&serde_json::json!(7), &Pointer::root(), &mut report);
        assert_eq!(report.violations().len(), 1);
        assert_eq!(report.violations()[0].rule, Rule::TYPE);
    }

    proptest! {
        /// Event types made of valid segments are accepted and kept as given.
        #[test]
        fn valid_event_types_keep_their_text(segments in proptest::collection::vec("[a-z][a-z0-9]{0,6}", 1..4)) {
            let s = segments.join(".");
            let t = EventType::new(s.clone()).unwrap();
            prop_assert_eq!(t.as_str(), s.as_str());
            prop_assert_eq!(t.to_string(), s);
        }
    }
}
