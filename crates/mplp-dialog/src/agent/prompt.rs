//! Prompts: the calling convention that governs a dialog's next turn.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Why a prompt could not be rendered or its reply parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PromptError {
    /// The template names an argument that was not given.
    #[error("prompt `{prompt}` needs the argument `{argument}`, which was not given")]
    MissingArgument {
        /// The prompt's name.
        prompt: String,
        /// The missing argument.
        argument: String,
    },
    /// A `{` without its `}` in the template.
    #[error("prompt `{prompt}`: unclosed `{{` at byte {at} of the template")]
    Unclosed {
        /// The prompt's name.
        prompt: String,
        /// Byte offset of the `{`.
        at: usize,
    },
    /// The reply does not have the shape the prompt's parser expects.
    #[error("prompt `{prompt}` cannot parse the reply: {reason}")]
    Parse {
        /// The prompt's name.
        prompt: String,
        /// What was wrong.
        reason: String,
    },
}

/// A tool a model may call: name, description and the JSON Schema of its
/// arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ToolSpec {
    /// The tool's name.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// JSON Schema (an object schema) of the arguments.
    pub parameters: Value,
}

impl ToolSpec {
    /// A tool description.
    pub fn new(name: impl Into<String>, description: impl Into<String>, parameters: Value) -> Self {
        ToolSpec {
            name: name.into(),
            description: description.into(),
            parameters,
        }
    }
}

/// A prompt: a name, a way to render it with arguments, an optional parser
/// of the model's reply and the tools the model may call after it (seed
/// 003's `Prompt`). No template engine is required: [`TemplatePrompt`]
/// substitutes `{name}` placeholders; implement the trait for anything richer.
pub trait Prompt: Send + Sync {
    /// The prompt's name (its path in a registry, such as `research/agent`).
    fn name(&self) -> &str;

    /// The message text for these arguments.
    fn render(&self, args: &Map<String, Value>) -> Result<String, PromptError>;

    /// Structured output from a reply, if this prompt has a parser
    /// (`None`: no parser).
    fn parse(&self, _reply: &str) -> Option<Result<Value, PromptError>> {
        None
    }

    /// The tools the model may call while this prompt governs the dialog.
    fn tools(&self) -> Vec<ToolSpec> {
        vec![]
    }
}

/// A prompt whose template has `{name}` placeholders (`{{` and `}}` write
/// braces), optionally with tools and a JSON reply parser.
///
/// ```
/// use mplp_dialog::agent::{Prompt, TemplatePrompt};
/// let p = TemplatePrompt::new("summarize", "Summarize {topic} in {{three}} bullets.");
/// let args = serde_json::json!({"topic": "Rust"});
/// assert_eq!(p.render(args.as_object().unwrap())?, "Summarize Rust in {three} bullets.");
/// assert!(p.render(&Default::default()).is_err());
/// # Ok::<(), mplp_dialog::agent::PromptError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplatePrompt {
    name: String,
    template: String,
    tools: Vec<ToolSpec>,
    json_reply: bool,
}

impl TemplatePrompt {
    /// A prompt without tools or parser.
    pub fn new(name: impl Into<String>, template: impl Into<String>) -> Self {
        TemplatePrompt {
            name: name.into(),
            template: template.into(),
            tools: Vec::new(),
            json_reply: false,
        }
    }

    /// The same prompt offering a tool.
    #[must_use]
    pub fn with_tool(mut self, tool: ToolSpec) -> Self {
        self.tools.push(tool);
        self
    }

    /// The same prompt, whose replies are parsed as JSON (the first `{`…`}`
    /// or `[`…`]` span of the reply, so fenced code blocks work).
    #[must_use]
    pub fn with_json_reply(mut self) -> Self {
        self.json_reply = true;
        self
    }
}

impl Prompt for TemplatePrompt {
    fn name(&self) -> &str {
        &self.name
    }

    fn render(&self, args: &Map<String, Value>) -> Result<String, PromptError> {
        let t = &self.template;
        let mut out = String::with_capacity(t.len());
        let mut rest = t.as_str();
        while let Some(i) = rest.find(['{', '}']) {
            out.push_str(&rest[..i]);
            let tail = &rest[i..];
            if let Some(r) = tail.strip_prefix("{{") {
                out.push('{');
                rest = r;
            } else if let Some(r) = tail.strip_prefix("}}") {
                out.push('}');
                rest = r;
            } else if let Some(r) = tail.strip_prefix('}') {
                out.push('}');
                rest = r;
            } else {
                let at = t.len() - tail.len();
                let Some(close) = tail.find('}') else {
                    return Err(PromptError::Unclosed {
                        prompt: self.name.clone(),
                        at,
                    });
                };
                let key = &tail[1..close];
                match args.get(key) {
                    Some(Value::String(s)) => out.push_str(s),
                    Some(v) => out.push_str(&v.to_string()),
                    None => {
                        return Err(PromptError::MissingArgument {
                            prompt: self.name.clone(),
                            argument: key.to_owned(),
                        });
                    }
                }
                rest = &tail[close + 1..];
            }
        }
        out.push_str(rest);
        Ok(out)
    }

    fn parse(&self, reply: &str) -> Option<Result<Value, PromptError>> {
        if !self.json_reply {
            return None;
        }
        let start = reply.find(['{', '[']);
        let end = reply.rfind(['}', ']']);
        let span = match (start, end) {
            (Some(s), Some(e)) if s <= e => &reply[s..=e],
            _ => reply,
        };
        Some(serde_json::from_str(span).map_err(|e| PromptError::Parse {
            prompt: self.name.clone(),
            reason: e.to_string(),
        }))
    }

    fn tools(&self) -> Vec<ToolSpec> {
        self.tools.clone()
    }
}

/// Prompts by name, so that a dialog read back from JSON (which records only
/// the name of its `top_prompt`) finds its prompt again.
#[derive(Clone, Default)]
pub struct PromptRegistry {
    prompts: BTreeMap<String, Arc<dyn Prompt>>,
}

impl std::fmt::Debug for PromptRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.prompts.keys()).finish()
    }
}

impl PromptRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        PromptRegistry::default()
    }

    /// Registers a prompt under its name (replacing one of the same name).
    pub fn register(&mut self, prompt: impl Prompt + 'static) -> &mut Self {
        self.prompts
            .insert(prompt.name().to_owned(), Arc::new(prompt));
        self
    }

    /// The prompt of that name.
    pub fn get(&self, name: &str) -> Option<&dyn Prompt> {
        self.prompts.get(name).map(|p| p.as_ref())
    }
}
