//! Streamed replies of both APIs, accumulated into the body of the same
//! reply unstreamed, so that one reader ([`AgentMessage::from_openai_response`],
//! [`AgentMessage::from_anthropic_response`]) makes the message either way.
//!
//! [`AgentMessage::from_openai_response`]: crate::agent::AgentMessage::from_openai_response
//! [`AgentMessage::from_anthropic_response`]: crate::agent::AgentMessage::from_anthropic_response

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::{Delta, Provider};

/// What one stream has said so far.
#[derive(Debug, Default)]
pub(crate) struct Accumulator {
    provider: Option<Provider>,
    id: Option<String>,
    model: Option<String>,
    /// Text by block index (OpenAI: one block, index 0).
    texts: BTreeMap<usize, String>,
    /// Tool calls by index: id, name, argument text.
    calls: BTreeMap<usize, (String, String, String)>,
    stop: Option<String>,
    usage: Map<String, Value>,
    pub(crate) done: bool,
}

fn str_of(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn index_of(v: &Value) -> usize {
    v.get("index")
        .and_then(Value::as_u64)
        .and_then(|i| usize::try_from(i).ok())
        .unwrap_or(0)
}

impl Accumulator {
    pub(crate) fn new(provider: Provider) -> Self {
        Accumulator {
            provider: Some(provider),
            ..Accumulator::default()
        }
    }

    /// Takes one event; returns the deltas it carries, or why the stream is
    /// broken (an `error` event, data that is not JSON).
    pub(crate) fn event(&mut self, event: Option<&str>, data: &str) -> Result<Vec<Delta>, String> {
        if self.provider == Some(Provider::Openai) && data == "[DONE]" {
            self.done = true;
            return Ok(Vec::new());
        }
        let v: Value = serde_json::from_str(data)
            .map_err(|e| format!("a streamed event is not JSON ({e}): {}", preview(data)))?;
        match self.provider {
            Some(Provider::Anthropic) => self.anthropic(event, &v),
            _ => self.openai(&v),
        }
    }

    fn openai(&mut self, v: &Value) -> Result<Vec<Delta>, String> {
        if let Some(e) = v.get("error") {
            return Err(error_message(e));
        }
        if self.id.is_none() {
            self.id = str_of(v, "id");
        }
        if self.model.is_none() {
            self.model = str_of(v, "model");
        }
        if let Some(u) = v.get("usage").and_then(Value::as_object) {
            self.usage.clone_from(u);
        }
        let mut out = Vec::new();
        for choice in v
            .get("choices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if index_of(choice) != 0 {
                continue;
            }
            if let Some(r) = str_of(choice, "finish_reason") {
                self.stop = Some(r);
            }
            let Some(delta) = choice.get("delta") else {
                continue;
            };
            if let Some(t) = delta.get("content").and_then(Value::as_str) {
                if !t.is_empty() {
                    self.texts.entry(0).or_default().push_str(t);
                    out.push(Delta::Text(t.to_owned()));
                }
            }
            for c in delta
                .get("tool_calls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let index = index_of(c);
                let entry = self.calls.entry(index).or_default();
                if let Some(id) = str_of(c, "id") {
                    entry.0 = id;
                }
                let f = c.get("function");
                if let Some(name) = f.and_then(|f| str_of(f, "name")) {
                    entry.1.push_str(&name);
                }
                let args = f.and_then(|f| str_of(f, "arguments")).unwrap_or_default();
                entry.2.push_str(&args);
                out.push(Delta::ToolCall {
                    index,
                    id: str_of(c, "id"),
                    name: f.and_then(|f| str_of(f, "name")),
                    arguments: args,
                });
            }
        }
        Ok(out)
    }

    fn anthropic(&mut self, event: Option<&str>, v: &Value) -> Result<Vec<Delta>, String> {
        let kind = event
            .map(str::to_owned)
            .or_else(|| str_of(v, "type"))
            .unwrap_or_default();
        let mut out = Vec::new();
        match kind.as_str() {
            "message_start" => {
                let m = v.get("message").unwrap_or(&Value::Null);
                self.id = str_of(m, "id");
                self.model = str_of(m, "model");
                if let Some(u) = m.get("usage").and_then(Value::as_object) {
                    self.usage.clone_from(u);
                }
            }
            "content_block_start" => {
                let index = index_of(v);
                let b = v.get("content_block").unwrap_or(&Value::Null);
                match b.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        let t = str_of(b, "text").unwrap_or_default();
                        if !t.is_empty() {
                            out.push(Delta::Text(t.clone()));
                        }
                        self.texts.insert(index, t);
                    }
                    Some("tool_use") => {
                        let (id, name) = (str_of(b, "id"), str_of(b, "name"));
                        self.calls.insert(
                            index,
                            (
                                id.clone().unwrap_or_default(),
                                name.clone().unwrap_or_default(),
                                String::new(),
                            ),
                        );
                        out.push(Delta::ToolCall {
                            index,
                            id,
                            name,
                            arguments: String::new(),
                        });
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let index = index_of(v);
                let d = v.get("delta").unwrap_or(&Value::Null);
                match d.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let t = str_of(d, "text").unwrap_or_default();
                        self.texts.entry(index).or_default().push_str(&t);
                        out.push(Delta::Text(t));
                    }
                    Some("input_json_delta") => {
                        let p = str_of(d, "partial_json").unwrap_or_default();
                        if let Some(c) = self.calls.get_mut(&index) {
                            c.2.push_str(&p);
                        }
                        out.push(Delta::ToolCall {
                            index,
                            id: None,
                            name: None,
                            arguments: p,
                        });
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(r) = v.get("delta").and_then(|d| str_of(d, "stop_reason")) {
                    self.stop = Some(r);
                }
                if let Some(u) = v.get("usage").and_then(Value::as_object) {
                    for (k, x) in u {
                        self.usage.insert(k.clone(), x.clone());
                    }
                }
            }
            "message_stop" => self.done = true,
            "error" => return Err(error_message(v.get("error").unwrap_or(v))),
            _ => {}
        }
        Ok(out)
    }

    /// The unstreamed body the stream amounts to.
    pub(crate) fn into_body(self, model: &str) -> Result<Value, String> {
        let model = self.model.unwrap_or_else(|| model.to_owned());
        match self.provider {
            Some(Provider::Anthropic) => {
                let mut blocks: BTreeMap<usize, Value> = BTreeMap::new();
                for (i, t) in self.texts {
                    blocks.insert(i, json!({"type": "text", "text": t}));
                }
                for (i, (id, name, args)) in self.calls {
                    let input: Value = if args.trim().is_empty() {
                        json!({})
                    } else {
                        serde_json::from_str(&args).map_err(|e| {
                            format!(
                                "the input of tool_use `{id}` is not JSON ({e}): {}",
                                preview(&args)
                            )
                        })?
                    };
                    blocks.insert(
                        i,
                        json!({"type": "tool_use", "id": id, "name": name, "input": input}),
                    );
                }
                let mut body = json!({
                    "id": self.id, "model": model,
                    "content": blocks.into_values().collect::<Vec<_>>(),
                    "stop_reason": self.stop,
                });
                if !self.usage.is_empty() {
                    body["usage"] = Value::Object(self.usage);
                }
                Ok(body)
            }
            _ => {
                let text = self.texts.into_values().collect::<String>();
                let calls: Vec<Value> = self
                    .calls
                    .into_values()
                    .map(|(id, name, args)| {
                        json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}})
                    })
                    .collect();
                let mut message = json!({"role": "assistant", "content": text});
                if !calls.is_empty() {
                    message["tool_calls"] = Value::Array(calls);
                }
                let mut body = json!({
                    "id": self.id, "model": model,
                    "choices": [{"index": 0, "message": message, "finish_reason": self.stop}],
                });
                if !self.usage.is_empty() {
                    body["usage"] = Value::Object(self.usage);
                }
                Ok(body)
            }
        }
    }
}

/// The `message` of an API error object, or the object as JSON.
pub(crate) fn error_message(e: &Value) -> String {
    e.get("message")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| preview(&e.to_string()))
}

/// The start of a text, for error messages.
pub(crate) fn preview(text: &str) -> String {
    const MAX: usize = 300;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let mut s: String = text.chars().take(MAX).collect();
        s.push('…');
        s
    }
}
