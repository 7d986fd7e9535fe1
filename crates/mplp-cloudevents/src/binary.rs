//! Binary mode: `ce-` headers and the data as the body.

use cloudevents::event::SpecVersion;
use cloudevents::message::{
    BinaryDeserializer, BinarySerializer, Error as MessageError, MessageAttributeValue,
    Result as MessageResult,
};
use cloudevents::{AttributesReader, Data, Event};

use crate::Error;
use crate::mapping::{percent_decode, percent_encode};

/// A CloudEvent in binary mode, as the HTTP binding lays it out: a
/// `ce-<name>` header per attribute and extension (`content-type` for
/// `datacontenttype`), header values percent-encoded (space, `"`, `%` and
/// anything outside printable ASCII), and the data as the body. Headers are
/// sorted by name, so the same event always gives the same message.
///
/// ```
/// use mplp_cloudevents::{BinaryMessage, ToCloudEvent};
/// use mplp_events::{CollabId, MapEvent};
///
/// let event = MapEvent::turn_dispatched(CollabId::new(), "coder", 1).with_initiator_role("lead dev");
/// let message = BinaryMessage::from_event(&event.to_cloudevent()?)?;
/// assert_eq!(message.header("ce-subject"), Some("lead%20dev"));
/// assert_eq!(message.header("ce-specversion"), Some("1.0"));
/// assert_eq!(message.header("content-type"), Some("application/json"));
/// assert_eq!(message.to_event()?, event.to_cloudevent()?);
/// # Ok::<(), mplp_cloudevents::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BinaryMessage {
    headers: Vec<(String, String)>,
    body: Option<Vec<u8>>,
}

impl BinaryMessage {
    /// A message from its headers (any order; names are compared without
    /// case) and body, as a transport received them.
    pub fn new(headers: impl IntoIterator<Item = (String, String)>, body: Option<Vec<u8>>) -> Self {
        let mut headers: Vec<(String, String)> = headers
            .into_iter()
            .map(|(name, value)| (name.to_ascii_lowercase(), value))
            .collect();
        headers.sort();
        BinaryMessage { headers, body }
    }

    /// The event in binary mode.
    pub fn from_event(event: &Event) -> Result<Self, Error> {
        let mut message = event.clone().deserialize_binary(Writer::default())?;
        message.headers.sort();
        Ok(message)
    }

    /// Reads the event back. A JSON body (by `content-type`) becomes JSON
    /// data, as structured mode gives it.
    pub fn to_event(&self) -> Result<Event, Error> {
        let mut event = BinaryDeserializer::into_event(self.clone())?;
        let json = event
            .datacontenttype()
            .is_some_and(|t| t.starts_with("application/json") || t.ends_with("+json"));
        if let (true, Some(Data::Binary(bytes))) = (json, event.data()) {
            let value: serde_json::Value = serde_json::from_slice(bytes)?;
            event.set_data_unchecked(Data::Json(value));
        }
        Ok(event)
    }

    /// The headers, sorted by name (lowercase).
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// One header's (percent-encoded) value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body (the event's data), if any.
    pub fn body(&self) -> Option<&[u8]> {
        self.body.as_deref()
    }
}

fn header_safe(b: u8) -> bool {
    (0x21..=0x7e).contains(&b) && b != b'"' && b != b'%'
}

fn header_name(attribute: &str) -> String {
    if attribute == "datacontenttype" {
        "content-type".to_string()
    } else {
        format!("ce-{attribute}")
    }
}

/// Builds a [`BinaryMessage`] from the SDK's binary visit of an event.
#[derive(Default)]
struct Writer(BinaryMessage);

impl Writer {
    fn push(mut self, name: &str, value: &MessageAttributeValue) -> Self {
        let text = value.to_string();
        self.0
            .headers
            .push((header_name(name), percent_encode(&text, header_safe)));
        self
    }
}

impl BinarySerializer<BinaryMessage> for Writer {
    fn set_spec_version(self, spec_version: SpecVersion) -> MessageResult<Self> {
        Ok(self.push(
            "specversion",
            &MessageAttributeValue::String(spec_version.to_string()),
        ))
    }

    fn set_attribute(self, name: &str, value: MessageAttributeValue) -> MessageResult<Self> {
        Ok(self.push(name, &value))
    }

    fn set_extension(self, name: &str, value: MessageAttributeValue) -> MessageResult<Self> {
        Ok(self.push(name, &value))
    }

    fn end_with_data(mut self, bytes: Vec<u8>) -> MessageResult<BinaryMessage> {
        self.0.body = Some(bytes);
        Ok(self.0)
    }

    fn end(self) -> MessageResult<BinaryMessage> {
        Ok(self.0)
    }
}

/// The context attributes of CloudEvents 1.0 (everything else with a `ce-`
/// prefix is an extension).
const ATTRIBUTES: &[&str] = &["id", "source", "type", "subject", "time", "dataschema"];

impl BinaryDeserializer for BinaryMessage {
    fn deserialize_binary<R: Sized, V: BinarySerializer<R>>(
        self,
        serializer: V,
    ) -> MessageResult<R> {
        let decode = |name: &str, value: &str| {
            percent_decode(value).ok_or_else(|| MessageError::Other {
                source: format!("header `{name}`: expected percent-encoded UTF-8, found `{value}`")
                    .into(),
            })
        };
        let version = self
            .header("ce-specversion")
            .ok_or(MessageError::WrongEncoding {})?;
        let version = SpecVersion::try_from(decode("ce-specversion", version)?.as_str())
            .map_err(|e| MessageError::Other { source: e.into() })?;
        let mut serializer = serializer.set_spec_version(version)?;
        for (name, value) in &self.headers {
            let text = decode(name, value)?;
            if name == "content-type" {
                serializer = serializer
                    .set_attribute("datacontenttype", MessageAttributeValue::String(text))?;
            } else if let Some(attribute) = name.strip_prefix("ce-") {
                if attribute == "specversion" {
                    continue;
                }
                let value = MessageAttributeValue::String(text);
                serializer = if ATTRIBUTES.contains(&attribute) {
                    serializer.set_attribute(attribute, value)?
                } else {
                    serializer.set_extension(attribute, value)?
                };
            }
        }
        match self.body {
            Some(body) => serializer.end_with_data(body),
            None => serializer.end(),
        }
    }
}
