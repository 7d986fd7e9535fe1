//! Agent dialogs: JSON and MPLP projection round trips, provider requests
//! with tools and images (against async-openai's types and a strict mirror
//! of the Anthropic Messages API), forks, usage and cost, prompts.

use async_openai::types::chat::{
    ChatCompletionRequestMessage, CreateChatCompletionRequest, CreateChatCompletionResponse,
};
use mplp_core::schema::{SchemaKind, is_valid as schema_valid};
use mplp_core::{ContextId, Document};
use mplp_dialog::agent::*;
use mplp_dialog::{ConvertError, Dialog, DialogRole, DialogStatus, Message};
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::common::{content, ts};

// ------------------------------------------------------------ strategies

fn image() -> impl Strategy<Value = ImageSource> {
    prop_oneof![
        "https://example\\.com/[a-z]{1,8}\\.png".prop_map(ImageSource::url),
        ("image/(png|jpeg|gif|webp)", "[A-Za-z0-9+/]{4,40}={0,2}")
            .prop_map(|(t, d)| ImageSource::base64(t, d)),
    ]
}

fn parts() -> impl Strategy<Value = Vec<Part>> {
    prop::collection::vec(
        prop_oneof![
            2 => content().prop_map(|text| Part::Text { text }),
            1 => image().prop_map(|source| Part::Image { source }),
        ],
        0..4,
    )
}

fn text_or_parts(images: bool) -> BoxedStrategy<Content> {
    if images {
        prop_oneof![
            3 => content().prop_map(Content::Text),
            1 => parts().prop_map(Content::Parts),
        ]
        .boxed()
    } else {
        content().prop_map(Content::Text).boxed()
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-z ]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn object() -> impl Strategy<Value = Value> {
    prop::collection::btree_map("[a-z_]{1,6}", json_value(), 0..3)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

fn usage() -> impl Strategy<Value = Usage> {
    (0u64..100_000, 0u64..10_000, 0u64..1000, 0u64..1000)
        .prop_map(|(i, o, r, w)| Usage::new(i + r + w, o).with_cache(r, w))
}

fn call(i: usize) -> impl Strategy<Value = FunctionCall> {
    ("[a-z_]{1,10}", object())
        .prop_map(move |(name, args)| FunctionCall::new(format!("call_{i}"), name, args).unwrap())
}

/// What a generated message is.
#[derive(Clone, Debug)]
enum Kind {
    Plain(AgentRole),
    Calls(usize),
    Result(bool),
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        4 => prop::sample::select(vec![AgentRole::System, AgentRole::User, AgentRole::Assistant, AgentRole::Agent]).prop_map(Kind::Plain),
        1 => (1usize..3).prop_map(Kind::Calls),
        1 => any::<bool>().prop_map(Kind::Result),
    ]
}

/// Optional extras of any message: name, parsed, usage, model, metadata.
#[derive(Clone, Debug)]
struct Extras {
    name: Option<String>,
    parsed: Option<Value>,
    usage: Option<(String, Usage)>,
    meta: Vec<(String, Value)>,
}

fn extras() -> impl Strategy<Value = Extras> {
    (
        prop::option::of("[a-zA-Z .]{0,12}"),
        prop::option::weighted(0.2, object()),
        prop::option::weighted(0.3, ("m[1-3]", usage())),
        prop::collection::vec(("[a-z]{1,6}", json_value()), 0..2),
    )
        .prop_map(|(name, parsed, usage, meta)| Extras {
            name,
            parsed,
            usage,
            meta,
        })
}

/// An agent dialog with every role, tool calls and their results, images
/// (only where `images`), usage; a tool result answers an earlier call most
/// of the time.
fn agent_dialog(max: usize, images: bool) -> impl Strategy<Value = AgentDialog> {
    let message = (
        kind(),
        text_or_parts(images),
        extras(),
        prop::collection::vec(call(0), 1..3),
    );
    (
        prop::collection::vec(message, 0..max),
        prop::option::of("[a-z/]{1,10}"),
    )
        .prop_map(move |(specs, prompt)| {
            let mut d = AgentDialog::empty(ContextId::new(), "coder");
            let mut open_calls: Vec<FunctionCall> = Vec::new();
            for (i, (kind, content, x, calls)) in specs.into_iter().enumerate() {
                let mut m = match kind {
                    Kind::Plain(role) => AgentMessage::at(role, content, ts(i)),
                    Kind::Calls(n) => {
                        let calls: Vec<FunctionCall> = calls
                            .into_iter()
                            .take(n)
                            .enumerate()
                            .map(|(k, mut c)| {
                                c.id = format!("call_{i}_{k}");
                                c
                            })
                            .collect();
                        open_calls.extend(calls.iter().cloned());
                        let mut m = AgentMessage::at(
                            AgentRole::ToolCall,
                            Content::Text(content.text()),
                            ts(i),
                        );
                        m.function_calls = calls;
                        m
                    }
                    Kind::Result(is_error) => match open_calls.pop() {
                        Some(c) => {
                            let mut m = AgentMessage::tool_result(&c, content, is_error);
                            m.timestamp = ts(i);
                            m
                        }
                        None => AgentMessage::at(AgentRole::User, content, ts(i)),
                    },
                };
                if m.role != AgentRole::Tool {
                    m.name = x.name;
                }
                m.parsed = x.parsed;
                if let Some((model, u)) = x.usage {
                    m = m.with_usage(model, u);
                }
                m.metadata.extend(x.meta);
                d.append(m).unwrap();
            }
            if let Some(p) = prompt {
                // The top prompt is set by put_prompt; go through it.
                let prompt = TemplatePrompt::new(p, "next");
                d.put_prompt(&prompt, &Default::default(), Put::new())
                    .unwrap();
            }
            d
        })
}

// --------------------------------------------------- provider checkers

/// Our OpenAI body deserialises into async-openai's request type, which
/// serialises back to the same JSON (nothing of ours unknown to it).
fn assert_async_openai_accepts(req: &openai::Request) {
    let ours = serde_json::to_value(req).unwrap();
    let theirs = CreateChatCompletionRequest::deserialize(&ours)
        .unwrap_or_else(|e| panic!("async-openai refuses {ours}: {e}"));
    assert_eq!(serde_json::to_value(&theirs).unwrap(), ours);
    for (t, o) in theirs.messages.iter().zip(&req.messages) {
        let same = matches!(
            (t, o),
            (
                ChatCompletionRequestMessage::System(_),
                openai::ChatMessage::System { .. }
            ) | (
                ChatCompletionRequestMessage::User(_),
                openai::ChatMessage::User { .. }
            ) | (
                ChatCompletionRequestMessage::Assistant(_),
                openai::ChatMessage::Assistant { .. }
            ) | (
                ChatCompletionRequestMessage::Tool(_),
                openai::ChatMessage::Tool { .. }
            )
        );
        assert!(same, "{t:?} vs {o:?}");
    }
}

/// A strict mirror of the documented Messages API request: unknown members,
/// a `system` role, an empty block list or a blank text are refused.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct StrictRequest {
    model: String,
    max_tokens: u32,
    #[serde(default)]
    system: Option<String>,
    messages: Vec<StrictMessage>,
    #[serde(default)]
    tools: Vec<StrictTool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct StrictTool {
    name: String,
    description: String,
    input_schema: serde_json::Map<String, Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StrictMessage {
    role: StrictRole,
    content: Vec<StrictBlock>,
}

#[derive(Debug, Deserialize, PartialEq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum StrictRole {
    User,
    Assistant,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[allow(dead_code)]
enum StrictBlock {
    Text {
        text: String,
    },
    Image {
        source: StrictSource,
    },
    ToolUse {
        id: String,
        name: String,
        input: serde_json::Map<String, Value>,
    },
    ToolResult {
        tool_use_id: String,
        #[serde(default)]
        content: Option<Vec<StrictBlock>>,
        #[serde(default)]
        is_error: Option<bool>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[allow(dead_code)]
enum StrictSource {
    Base64 { media_type: String, data: String },
    Url { url: String },
}

fn check_blocks(blocks: &[StrictBlock], role: StrictRole) {
    assert!(!blocks.is_empty(), "an empty content list");
    for b in blocks {
        match b {
            StrictBlock::Text { text } => assert!(!text.trim().is_empty(), "a blank text block"),
            StrictBlock::ToolUse { .. } => assert_eq!(role, StrictRole::Assistant),
            StrictBlock::ToolResult { content, .. } => {
                assert_eq!(role, StrictRole::User);
                if let Some(c) = content {
                    check_blocks(c, role);
                }
            }
            StrictBlock::Image { .. } => assert_eq!(role, StrictRole::User),
        }
    }
}

fn assert_anthropic_accepts(req: &anthropic::Request) {
    let ours = serde_json::to_value(req).unwrap();
    let strict: StrictRequest = serde_json::from_value(ours.clone())
        .unwrap_or_else(|e| panic!("not a documented Messages request: {ours}: {e}"));
    let roles: Vec<StrictRole> = strict.messages.iter().map(|m| m.role).collect();
    assert_eq!(roles.first(), Some(&StrictRole::User), "{ours}");
    assert!(
        roles.windows(2).all(|w| w[0] != w[1]),
        "two turns of one role in a row: {ours}"
    );
    for m in &strict.messages {
        check_blocks(&m.content, m.role);
    }
    if let Some(StrictMessage {
        role: StrictRole::Assistant,
        content,
    }) = strict.messages.last()
    {
        if let Some(StrictBlock::Text { text }) = content.last() {
            assert_eq!(
                text.trim_end(),
                text,
                "a final assistant text ends with whitespace"
            );
        }
    }
}

// ------------------------------------------------------------ properties

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn json_round_trip_is_lossless(d in agent_dialog(12, true)) {
        let json = serde_json::to_string(&d).unwrap();
        let back: AgentDialog = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &d);
        // And through a Value (as when embedded in another document).
        let v = serde_json::to_value(&d).unwrap();
        prop_assert_eq!(serde_json::from_value::<AgentDialog>(v).unwrap(), d);
    }

    #[test]
    fn mplp_projection_is_valid_and_exact(d in agent_dialog(12, true), end in 0u8..3) {
        let mut d = d;
        match end {
            1 => d.transition_at(DialogStatus::Paused, mplp_core::Timestamp::now()).unwrap(),
            2 => d.transition_at(DialogStatus::Completed, mplp_core::Timestamp::now()).unwrap(),
            _ => {}
        }
        let mplp = d.to_mplp();
        // The canonical schema (jsonschema) and our typed reader agree: valid.
        let value = mplp.to_value();
        prop_assert!(schema_valid(SchemaKind::Dialog, &value), "{}", value);
        let checked = Dialog::validate_json(mplp.to_json());
        prop_assert!(checked.report.errors().next().is_none(), "{:?}", checked.report);
        // Every message carries its agent event; tool events are typed integration events.
        prop_assert_eq!(mplp.messages().len(), d.messages().len());
        for (m, a) in mplp.messages().iter().zip(d.messages()) {
            prop_assert_eq!(m.role, mplp_role(a.role));
            prop_assert_eq!(&m.content, &a.text_content());
            let event = m.event.as_deref().unwrap();
            prop_assert_eq!(event.event_id, a.id);
            let data = event.data.clone().unwrap().unwrap();
            let expected_tool_events = a.function_calls.len()
                + usize::from(a.role == AgentRole::Tool);
            let tool_events: Vec<ToolEvent> = data
                .get("tool_events")
                .map(|v| serde_json::from_value(v.clone()).unwrap())
                .unwrap_or_default();
            prop_assert_eq!(tool_events.len(), expected_tool_events);
        }
        // Back: exactly the same agent dialog, without a warning, from the
        // typed document and from its JSON text.
        let back = AgentDialog::from_mplp(&mplp).unwrap();
        prop_assert!(back.report.is_empty(), "{:?}", back.report);
        prop_assert_eq!(&back.dialog, &d);
        let reread = Dialog::from_json(mplp.to_json()).unwrap();
        prop_assert_eq!(&AgentDialog::from_mplp(&reread).unwrap().dialog, &d);
        // Projecting is deterministic.
        prop_assert_eq!(d.to_mplp(), mplp);
    }

    #[test]
    fn plain_mplp_dialogs_read_and_project_back(msgs in crate::common::messages(10)) {
        let plain = crate::common::dialog_with(msgs);
        let read = AgentDialog::from_mplp(&plain).unwrap();
        prop_assert_eq!(read.report.warnings().count(), plain.messages().len() + 1);
        let again = read.dialog.to_mplp();
        // Same roles, texts and times; only the agent events are added.
        let strip = |d: &Dialog| -> Vec<(DialogRole, String, String)> {
            d.messages().iter().map(|m| (m.role, m.content.clone(), m.timestamp.to_string())).collect()
        };
        prop_assert_eq!(strip(&again), strip(&plain));
        prop_assert_eq!(again.dialog_id, plain.dialog_id);
        // And that projection is now exact.
        let twice = AgentDialog::from_mplp(&again).unwrap();
        prop_assert!(twice.report.is_empty());
        prop_assert_eq!(twice.dialog, read.dialog);
    }

    #[test]
    fn provider_requests_never_panic_and_are_accepted(d in agent_dialog(14, true)) {
        match d.to_openai_chat("gpt-4o", &[]) {
            Ok(req) => assert_async_openai_accepts(&req),
            Err(ConvertError::NoMessages { .. }) => prop_assert!(d.messages().is_empty()),
            Err(ConvertError::ImageNotSupported { index, .. }) => {
                let m = &d.messages()[index];
                prop_assert!(m.content.images().next().is_some());
                prop_assert!(!matches!(m.role, AgentRole::User | AgentRole::Tool));
            }
            Err(_) if d.check_tool_pairing().is_err() => {}
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
        match d.to_anthropic_messages("claude-sonnet-4-5", 1024, &[]) {
            Ok(req) => assert_anthropic_accepts(&req),
            Err(ConvertError::NoMessages { .. }) => {
                prop_assert!(d.messages().iter().all(|m| m.role == AgentRole::System || m.content.is_blank() && m.function_calls.is_empty() && m.role != AgentRole::Tool));
            }
            Err(ConvertError::ImageNotSupported { index, .. }) => {
                let m = &d.messages()[index];
                prop_assert!(m.content.images().next().is_some());
                prop_assert!(!matches!(m.role, AgentRole::User | AgentRole::Tool));
            }
            Err(_) if d.check_tool_pairing().is_err() => {}
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }

    #[test]
    fn provider_requests_keep_every_call_and_result(d in agent_dialog(14, false)) {
        let calls: Vec<&str> = d.messages().iter().flat_map(|m| m.function_calls.iter().map(|c| c.id.as_str())).collect();
        let results: Vec<&str> = d.messages().iter().filter_map(|m| m.tool_call_id.as_deref()).collect();
        if let Ok(req) = d.to_openai_chat("gpt-4o", &[]) {
            let v = serde_json::to_value(&req).unwrap();
            let ids: Vec<&str> = v["messages"].as_array().unwrap().iter()
                .flat_map(|m| m["tool_calls"].as_array().into_iter().flatten())
                .map(|c| c["id"].as_str().unwrap()).collect();
            prop_assert_eq!(&ids, &calls);
            let res: Vec<&str> = v["messages"].as_array().unwrap().iter()
                .filter_map(|m| m["tool_call_id"].as_str()).collect();
            prop_assert_eq!(&res, &results);
        }
        if let Ok(req) = d.to_anthropic_messages("claude-sonnet-4-5", 1024, &[]) {
            let mut uses = Vec::new();
            let mut res = Vec::new();
            for m in &req.messages {
                for b in &m.content {
                    match b {
                        anthropic::Block::ToolUse { id, .. } => uses.push(id.as_str()),
                        anthropic::Block::ToolResult { tool_use_id, .. } => res.push(tool_use_id.as_str()),
                        _ => {}
                    }
                }
            }
            prop_assert_eq!(&uses, &calls);
            prop_assert_eq!(&res, &results);
        }
    }

    #[test]
    fn forks_keep_the_ranges_and_link_the_tree(d in agent_dialog(12, false), last_n in 0usize..14, first_k in 0usize..14) {
        let mut parent = d;
        let before = parent.clone();
        let child = parent.fork(last_n, first_k);
        let n = before.messages().len();
        let node = child.tree_node();
        let (fk, ln) = (node.first_k.unwrap(), node.last_n.unwrap());
        // A tool call and its results are kept or left out together: the
        // ranges may shrink, never grow; the node records what is kept.
        let expected: Vec<&AgentMessage> = if first_k + last_n >= n {
            prop_assert_eq!((fk, ln), (n, 0));
            before.messages().iter().collect()
        } else {
            prop_assert!(fk <= first_k && ln <= last_n);
            if before.messages().iter().all(|m| m.role != AgentRole::Tool && m.function_calls.is_empty()) {
                prop_assert_eq!((fk, ln), (first_k, last_n));
            }
            before.messages()[..fk].iter().chain(&before.messages()[n - ln..]).collect()
        };
        if before.check_tool_pairing().is_ok() {
            prop_assert!(child.check_tool_pairing().is_ok());
        }
        prop_assert_eq!(child.messages().len(), expected.len());
        for (c, e) in child.messages().iter().zip(expected) {
            prop_assert_ne!(c.id, e.id);
            prop_assert_eq!(c.content.clone(), e.content.clone());
            prop_assert_eq!(c.role, e.role);
            prop_assert_eq!(&c.function_calls, &e.function_calls);
        }
        prop_assert_eq!(node.parent_id, Some(parent.dialog_id()));
        prop_assert_eq!(node.split_point, Some(n));
        prop_assert_eq!(node.owner.as_deref(), Some("coder"));
        prop_assert_eq!(parent.tree_node().children_ids.clone(), vec![child.dialog_id()]);
        prop_assert_eq!(parent.messages(), before.messages());
        prop_assert_eq!(child.status(), DialogStatus::Active);
        prop_assert_eq!(child.top_prompt(), before.top_prompt());
        // The tree of both nodes rebuilds, and both project exactly.
        let tree = mplp_dialog::DialogTree::from_nodes([parent.tree_node().clone(), node.clone()]).unwrap();
        prop_assert_eq!(tree.depth(&child.dialog_id()), Some(1));
        prop_assert_eq!(&AgentDialog::from_mplp(&child.to_mplp()).unwrap().dialog, &child);
        prop_assert_eq!(&AgentDialog::from_mplp(&parent.to_mplp()).unwrap().dialog, &parent);
    }

    #[test]
    fn cost_adds_up_by_model(d in agent_dialog(12, false), p1 in 0.0f64..20.0, p2 in 0.0f64..80.0) {
        let mut prices = PricingTable::new();
        prices.insert("m1", Price::new(p1, p2));
        prices.insert("m2", Price::new(p2, p1).with_cache(p1 / 10.0, p1));
        let cost = d.cost(&prices);
        let total: Usage = d.messages().iter().filter_map(|m| m.usage).sum();
        prop_assert_eq!(cost.usage, total);
        prop_assert_eq!(d.usage(), total);
        let by_model: Usage = cost.by_model.values().copied().sum();
        prop_assert_eq!(by_model, total);
        let expected: f64 = d.messages().iter()
            .filter_map(|m| Some(prices.get(m.model.as_deref()?)?.cost(m.usage.as_ref()?)))
            .sum();
        prop_assert!((cost.dollars - expected).abs() <= 1e-9 * expected.max(1.0));
        let unpriced = d.messages().iter().any(|m| m.usage.is_some() && m.model.as_deref() == Some("m3"));
        prop_assert_eq!(cost.unpriced.contains("m3"), unpriced);
        prop_assert_eq!(cost.is_complete(), !unpriced);
    }
}

// ---------------------------------------------------------------- examples

#[test]
fn a_tool_loop_turn_builds_both_provider_bodies_with_images() {
    let mut d = AgentDialog::new(ContextId::new(), "coder", "You are a careful coder.");
    d.put_image(
        ImageSource::base64("image/png", "iVBORw0KGgo="),
        Some("What does this screenshot show?"),
        Put::new().name("ada"),
    )
    .unwrap();
    let call = FunctionCall::new("call_1", "ocr", json!({"region": "top"})).unwrap();
    d.append(AgentMessage::tool_calls("Reading it.", vec![call.clone()]))
        .unwrap();
    let mut result = AgentMessage::tool_result(
        &call,
        Content::Parts(vec![
            Part::Text {
                text: "Login failed".into(),
            },
            Part::Image {
                source: ImageSource::url("https://example.com/crop.png"),
            },
        ]),
        false,
    );
    result.timestamp = ts(3);
    d.append(result).unwrap();
    let tools = [ToolSpec::new(
        "ocr",
        "Reads text",
        json!({"type": "object", "properties": {"region": {"type": "string"}}}),
    )];

    let oa = d.to_openai_chat("gpt-4o", &tools).unwrap();
    assert_async_openai_accepts(&oa);
    let v = serde_json::to_value(&oa).unwrap();
    assert_eq!(
        v["messages"][1]["content"][0],
        json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}})
    );
    assert_eq!(v["messages"][1]["name"], "ada");
    assert_eq!(
        v["messages"][3],
        json!({"role": "tool", "tool_call_id": "call_1", "content": "Login failed"})
    );
    // The tool's image follows the run of tool messages, from the user.
    assert_eq!(v["messages"][4]["role"], "user");
    assert_eq!(
        v["messages"][4]["content"][1]["image_url"]["url"],
        "https://example.com/crop.png"
    );
    assert_eq!(v["tools"][0]["function"]["name"], "ocr");

    let an = d
        .to_anthropic_messages("claude-sonnet-4-5", 1024, &tools)
        .unwrap();
    assert_anthropic_accepts(&an);
    let v = serde_json::to_value(&an).unwrap();
    assert_eq!(v["system"], "You are a careful coder.");
    assert_eq!(
        v["messages"][0]["content"][0],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}})
    );
    assert_eq!(
        v["messages"][2]["content"][0]["content"][1],
        json!({"type": "image", "source": {"type": "url", "url": "https://example.com/crop.png"}})
    );
    assert_eq!(v["tools"][0]["input_schema"]["type"], "object");
}

#[test]
fn refused_shapes_are_errors_naming_the_message() {
    let mut d = AgentDialog::new(ContextId::new(), "a", "sys");
    let mut m = AgentMessage::text(AgentRole::Tool, "orphan");
    m.tool_call_id = None;
    d.append(m).unwrap();
    assert_eq!(
        d.to_openai_chat("m", &[]).unwrap_err(),
        ConvertError::MissingToolCallId { index: 1 }
    );
    assert_eq!(
        d.to_anthropic_messages("m", 1, &[]).unwrap_err(),
        ConvertError::MissingToolCallId { index: 1 }
    );

    let mut d = AgentDialog::new(ContextId::new(), "a", "sys");
    let call = FunctionCall::new("c", "f", json!([1, 2])).unwrap();
    d.append(AgentMessage::tool_calls("", vec![call.clone()]))
        .unwrap();
    d.append(AgentMessage::tool_result(&call, "done", false))
        .unwrap();
    assert_eq!(
        d.to_anthropic_messages("m", 1, &[]).unwrap_err(),
        ConvertError::ArgumentsNotObject {
            index: 1,
            call: "c".into()
        }
    );
    // OpenAI takes any JSON text as arguments.
    assert!(d.to_openai_chat("m", &[]).is_ok());

    let mut d = AgentDialog::new(ContextId::new(), "a", "sys");
    d.put_image(
        ImageSource::url("https://x/y.png"),
        None,
        Put::new().role(AgentRole::Assistant),
    )
    .unwrap();
    let err = d.to_openai_chat("m", &[]).unwrap_err();
    assert_eq!(
        err,
        ConvertError::ImageNotSupported {
            index: 1,
            role: "assistant",
            provider: "openai"
        }
    );
    assert!(
        err.to_string()
            .contains("message 1 (assistant) has an image")
    );
}

#[test]
fn responses_read_back_from_async_openai_types() {
    // A response built by async-openai's own type, read by ours.
    let theirs: CreateChatCompletionResponse = serde_json::from_value(json!({
        "id": "chatcmpl-9", "object": "chat.completion", "created": 1700000000, "model": "gpt-4o-2024-08-06",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null, "message": {
            "role": "assistant", "content": null, "refusal": null,
            "tool_calls": [{"id": "call_a", "type": "function", "function": {"name": "search", "arguments": "{\"q\":\"mplp\"}"}},
                           {"id": "call_b", "type": "function", "function": {"name": "open", "arguments": "{}"}}]}}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150,
                  "prompt_tokens_details": {"cached_tokens": 100, "audio_tokens": 0}}
    })).unwrap();
    let ours: openai::Response =
        serde_json::from_value(serde_json::to_value(&theirs).unwrap()).unwrap();
    let m = AgentMessage::from_openai_response(&ours).unwrap();
    assert_eq!(m.role, AgentRole::ToolCall);
    assert_eq!(m.function_calls.len(), 2);
    assert_eq!(m.function_calls[0].arguments, json!({"q": "mplp"}));
    assert_eq!(m.usage, Some(Usage::new(120, 30).with_cache(100, 0)));
    assert_eq!(m.model.as_deref(), Some("gpt-4o-2024-08-06"));
    assert_eq!(m.metadata["finish_reason"], "tool_calls");

    // Bad arguments are an error, not a panic or a silent string.
    let bad: openai::Response = serde_json::from_value(json!({"model": "x", "choices": [{"message": {
        "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{oops"}}]}}]})).unwrap();
    assert!(matches!(
        AgentMessage::from_openai_response(&bad),
        Err(ConvertError::BadResponse { .. })
    ));
    let none: openai::Response =
        serde_json::from_value(json!({"model": "x", "choices": []})).unwrap();
    assert!(AgentMessage::from_openai_response(&none).is_err());
}

#[test]
fn anthropic_responses_read_back() {
    let r: anthropic::Response = serde_json::from_value(json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "thinking", "thinking": "hmm", "signature": "s"},
                    {"type": "text", "text": "One."}, {"type": "text", "text": "Two."}],
        "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 7, "output_tokens": 3, "cache_creation_input_tokens": 2, "cache_read_input_tokens": 1}
    })).unwrap();
    let m = AgentMessage::from_anthropic_response(&r).unwrap();
    assert_eq!(m.role, AgentRole::Assistant);
    assert_eq!(
        m.content,
        Content::Parts(vec![
            Part::Text {
                text: "One.".into()
            },
            Part::Text {
                text: "Two.".into()
            }
        ])
    );
    assert_eq!(m.usage, Some(Usage::new(10, 3).with_cache(1, 2)));
    assert_eq!(m.metadata["stop_reason"], "end_turn");
}

#[test]
fn projection_example_and_foreign_events() {
    let mut d = AgentDialog::new(ContextId::new(), "coder", "sys");
    let call = FunctionCall::new("call_1", "lint", json!({"path": "src"})).unwrap();
    d.append(AgentMessage::tool_calls("", vec![call.clone()]))
        .unwrap();
    d.append(AgentMessage::tool_result(&call, "2 warnings", true))
        .unwrap();
    let mplp = d.to_mplp();
    let m = &mplp.messages()[2];
    assert_eq!(m.role, DialogRole::Agent);
    assert_eq!(m.content, "2 warnings");
    let data = m.event.as_ref().unwrap().data.clone().unwrap().unwrap();
    assert_eq!(data["role"], "tool");
    assert_eq!(data["is_error"], true);
    let te: ToolEvent = serde_json::from_value(data["tool_events"][0].clone()).unwrap();
    assert_eq!(te.status, RunStatus::Failed);
    assert_eq!(te.invocation_id, call.invocation_id);
    assert_eq!(te.tool_id.as_str(), "lint");
    assert_eq!(te.output_summary.as_deref(), Some("2 warnings"));
    let state = mplp.events.as_ref().unwrap().last().unwrap();
    assert_eq!(state.event_type, AGENT_DIALOG_EVENT);
    assert_eq!(state.event_id.to_string(), d.dialog_id().to_string());

    // A foreign event on a plain MPLP message is kept, and written back.
    let mut plain = Dialog::new(ContextId::new());
    let ev = mplp_core::BaseEvent::new("review.requested".parse().unwrap(), "review");
    plain
        .push_message(Message::new(DialogRole::User, "hi", ts(1)).with_event(ev.clone()))
        .unwrap();
    let read = AgentDialog::from_mplp(&plain).unwrap();
    assert_eq!(read.dialog.messages()[0].event.as_deref(), Some(&ev));
    let rules: Vec<&str> = read.report.warnings().map(|v| v.rule.as_str()).collect();
    assert_eq!(rules, ["agent_plain_message", "agent_dialog_state_missing"]);
    let back = AgentDialog::from_mplp(&read.dialog.to_mplp()).unwrap();
    assert_eq!(back.dialog.messages()[0].event.as_deref(), Some(&ev));

    // Broken agent data is an error with its pointer, not a silent loss.
    let mut v = mplp.to_value();
    v["messages"][1]["event"]["data"]["function_calls"] = json!("nope");
    let broken = Dialog::from_value(&v).unwrap();
    let err = AgentDialog::from_mplp(&broken).unwrap_err();
    assert_eq!(
        err.rule().map(|r| r.as_str()),
        Some("agent_message_data_invalid")
    );
    assert_eq!(err.pointer(), Some("/messages/1/event/data"));
}

#[test]
fn put_primitives_and_prompts() {
    let mut registry = PromptRegistry::new();
    registry.register(
        TemplatePrompt::new("plan", "Plan {task}.")
            .with_json_reply()
            .with_tool(ToolSpec::new("search", "web", json!({"type": "object"}))),
    );
    let mut d = AgentDialog::new(ContextId::new(), "planner", "sys");
    let prompt = registry.get("plan").unwrap();
    d.put_prompt(
        prompt,
        json!({"task": "a trip"}).as_object().unwrap(),
        Put::new().meta("k", 1),
    )
    .unwrap();
    assert_eq!(d.top_prompt(), Some("plan"));
    assert_eq!(d.tail().unwrap().text_content(), "Plan a trip.");
    assert_eq!(d.tail().unwrap().metadata["k"], 1);
    assert_eq!(
        registry.get(d.top_prompt().unwrap()).unwrap().tools().len(),
        1
    );
    let parsed = prompt
        .parse("Sure:\n```json\n{\"steps\": 2}\n```")
        .unwrap()
        .unwrap();
    assert_eq!(parsed, json!({"steps": 2}));
    assert!(prompt.parse("no json").unwrap().is_err());

    // A render failure appends nothing and keeps the top prompt.
    let err = d
        .put_prompt(prompt, &Default::default(), Put::new())
        .unwrap_err();
    assert!(
        err.to_string().contains("needs the argument `task`"),
        "{err}"
    );
    assert_eq!(d.messages().len(), 2);

    d.put_text("just text", Put::new()).unwrap();
    assert_eq!(d.top_prompt(), None);
    d.put_prompt(
        prompt,
        json!({"task": "x"}).as_object().unwrap(),
        Put::new(),
    )
    .unwrap();
    d.put_image(ImageSource::url("https://x/a.png"), None, Put::new())
        .unwrap();
    assert_eq!(d.top_prompt(), None);

    // Only an active dialog takes messages.
    d.transition_at(DialogStatus::Paused, ts(9)).unwrap();
    let err = d.put_text("late", Put::new()).unwrap_err();
    assert_eq!(err.rule().map(|r| r.as_str()), Some("dialog_not_active"));
    assert_eq!(d.messages().len(), 5);

    let overview = d.overview();
    assert!(
        overview.contains("owner=planner [paused], 5 messages"),
        "{overview}"
    );
    assert!(overview.contains("[image https://x/a.png]"), "{overview}");
}

#[test]
fn agent_dialog_json_refuses_inconsistent_input() {
    let d = AgentDialog::new(ContextId::new(), "a", "sys");
    let mut v = serde_json::to_value(&d).unwrap();
    v["tree_node"]["dialog_id"] = json!(ContextId::new().to_string());
    assert!(serde_json::from_value::<AgentDialog>(v).is_err());
    let mut v = serde_json::to_value(&d).unwrap();
    v["dialog"]["messages"] =
        json!([{"role": "user", "content": "x", "timestamp": "2025-12-07T00:00:00Z"}]);
    assert!(serde_json::from_value::<AgentDialog>(v).is_err());
    let mut v = serde_json::to_value(&d).unwrap();
    v["messages"][0]["colour"] = json!("red");
    assert!(serde_json::from_value::<AgentDialog>(v).is_err());
}

// ------------------------------------------------------ context management

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn default_manager_on_budgets_from_zero_to_beyond(d in agent_dialog(14, true), extra in 0usize..2000, frac in 0.0f64..1.2, margin in 0usize..50) {
        use mplp_dialog::{ContextError, DefaultContextManager, EstimateCounter};
        let cost = |m: &AgentMessage| count_agent_message(&EstimateCounter, m);
        let total: usize = d.messages().iter().map(cost).sum();
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let budget = ((total as f64 * frac) as usize).min(total + extra);
        let cm = DefaultContextManager::new(budget + margin).with_safety_margin(margin);
        prop_assert_eq!(cm.budget(), budget);
        match cm.prune(&d) {
            Ok(p) => {
                let used: usize = p.messages().iter().map(cost).sum();
                prop_assert!(used <= budget, "{} > {}", used, budget);
                prop_assert_ne!(p.dialog_id(), d.dialog_id());
                prop_assert_eq!(p.owner(), d.owner());
                // Everything fits: nothing is dropped.
                if total <= budget {
                    prop_assert_eq!(p.messages(), d.messages());
                }
                // A first message with calls goes with its results (it.sendable covers it).
                if d.messages().first().is_some_and(AgentMessage::is_function_call) {
                    return Ok(());
                }
                let (Some(first), Some(orig)) = (p.messages().first(), d.messages().first()) else {
                    prop_assert!(d.messages().is_empty());
                    prop_assert!(p.messages().is_empty());
                    return Ok(());
                };
                // The first message is kept (cut at its end only if it alone is too big).
                if cost(orig) <= budget {
                    prop_assert_eq!(first, orig);
                } else {
                    prop_assert!(first.text_content().ends_with(mplp_dialog::TRUNCATED_SUFFIX));
                    prop_assert_eq!(first.id, orig.id);
                }
                // The rest: an optional cut border message, then a suffix of the original.
                let rest = &p.messages()[1..];
                let orig_rest = &d.messages()[1..];
                let (border, suffix) = match rest.first() {
                    Some(m) if m.text_content().starts_with(mplp_dialog::TRUNCATED_PREFIX)
                        && !orig_rest.ends_with(rest) => (Some(m), &rest[1..]),
                    _ => (None, rest),
                };
                prop_assert!(orig_rest.ends_with(suffix));
                if let Some(b) = border {
                    let k = orig_rest.len() - suffix.len() - 1;
                    let o = &orig_rest[k];
                    prop_assert_eq!(b.id, o.id);
                    let kept = b.text_content();
                    let kept = kept.strip_prefix(mplp_dialog::TRUNCATED_PREFIX).unwrap();
                    prop_assert!(o.text_content().ends_with(kept));
                }
                // Everything fits: nothing is dropped.
                if total <= budget {
                    prop_assert_eq!(p.messages(), d.messages());
                }
                // No tool result opens the tail without its call.
                if let Some(m) = rest.first().filter(|_| d.check_tool_pairing().is_ok()) {
                    if m.role == AgentRole::Tool {
                        let id = m.tool_call_id.as_deref();
                        prop_assert!(p.messages().iter().any(|x| x.function_calls.iter().any(|c| Some(c.id.as_str()) == id)));
                    }
                }
                // The pruned dialog still builds requests and projects exactly.
                prop_assert_eq!(&AgentDialog::from_mplp(&p.to_mplp()).unwrap().dialog, &p);
            }
            Err(ContextError::BudgetTooSmall { .. }) => {
                // Only when the first message does not fit, even cut.
                let first = &d.messages()[0];
                prop_assert!(cost(first) > budget);
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }
}

#[test]
fn context_managers_from_configuration() {
    use std::sync::Arc;
    let yaml_like = json!({
        "global": {"type": "default", "max_tokens": 128000},
        "cheap_agent": {"type": "default", "max_tokens": 16000, "safety_margin": 1000},
        "no_prune_agent": {"type": null},
        "custom": {"type": "keep_last", "n": 2}
    });
    let config =
        |k: &str| serde_json::from_value::<ContextManagerConfig>(yaml_like[k].clone()).unwrap();
    let mut registry = ContextManagerRegistry::new();
    assert_eq!(
        registry
            .build(Some(&config("no_prune_agent")), "gpt-4o")
            .unwrap()
            .name(),
        "null"
    );
    assert_eq!(
        registry
            .build(Some(&config("cheap_agent")), "unknown-model")
            .unwrap()
            .name(),
        "default"
    );
    let Err(err) = registry.build(
        Some(&ContextManagerConfig::of_type("default")),
        "unknown-model",
    ) else {
        panic!("an unknown model needs max_tokens")
    };
    assert!(err.to_string().contains("give `max_tokens`"), "{err}");
    let Err(err) = registry.build(Some(&config("custom")), "gpt-4o") else {
        panic!("keep_last is not registered yet")
    };
    assert!(
        err.to_string().contains("`keep_last`") && err.to_string().contains("default"),
        "{err}"
    );
    assert!(
        registry
            .register(
                "",
                Arc::new(
                    |_, _, _| Ok(Box::new(NullContextManager) as Box<dyn AgentContextManager>)
                )
            )
            .is_err()
    );

    /// A custom manager: keeps the first message and the last `n`.
    struct KeepLast(usize);
    impl AgentContextManager for KeepLast {
        fn name(&self) -> &str {
            "keep_last"
        }
        fn prune(&self, d: &AgentDialog) -> Result<AgentDialog, mplp_dialog::ContextError> {
            let mut copy = d.clone();
            Ok(copy.fork(self.0, 1))
        }
    }
    registry
        .register(
            "keep_last",
            Arc::new(|c, _, _| {
                let n = c.options.get("n").and_then(Value::as_u64).ok_or_else(|| {
                    mplp_dialog::ContextError::BadConfig {
                        name: "keep_last".into(),
                        reason: "needs n".into(),
                    }
                })?;
                Ok(Box::new(KeepLast(usize::try_from(n).unwrap_or(usize::MAX)))
                    as Box<dyn AgentContextManager>)
            }),
        )
        .unwrap();
    let cm = registry.build(Some(&config("custom")), "gpt-4o").unwrap();
    let mut d = AgentDialog::new(ContextId::new(), "a", "sys");
    for i in 0..5 {
        d.put_text(format!("m{i}"), Put::new()).unwrap();
    }
    let texts: Vec<String> = cm
        .prune(&d)
        .unwrap()
        .messages()
        .iter()
        .map(AgentMessage::text_content)
        .collect();
    assert_eq!(texts, ["sys", "m3", "m4"]);

    // The built-in default on a real window: the model table decides.
    let cm = registry
        .build(
            Some(&ContextManagerConfig::of_type("default")),
            "claude-sonnet-4-5-20250929",
        )
        .unwrap();
    assert_eq!(cm.prune(&d).unwrap().messages().len(), 6);
    registry.models_mut().insert("tiny", 5_010);
    let cm = registry
        .build(Some(&ContextManagerConfig::of_type("default")), "tiny")
        .unwrap();
    // 10 tokens after the default 5,000 margin: the system prompt (5) and one message (5).
    assert_eq!(cm.prune(&d).unwrap().messages().len(), 2);
}

// ------------------------------------------------------------ replay log

#[derive(Clone, Debug)]
enum Step {
    Text,
    Call,
    Prompt,
    Fork(usize, usize),
    Pause,
    Resume,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => Just(Step::Text),
        2 => Just(Step::Call),
        1 => Just(Step::Prompt),
        1 => (0usize..4, 0usize..3).prop_map(|(l, f)| Step::Fork(l, f)),
        1 => Just(Step::Pause),
        1 => Just(Step::Resume),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A scripted session written to an NDJSON log is rebuilt exactly: every
    /// dialog, forks and status changes included.
    #[test]
    fn a_session_is_rebuilt_from_its_ndjson_log(steps in prop::collection::vec((step(), any::<prop::sample::Index>()), 0..25)) {
        let mut log = ReplayLog::new(LogWriter::new(Vec::new()));
        let mut dialogs = vec![AgentDialog::new(ContextId::new(), "coder", "sys")];
        log.record(&dialogs[0]).unwrap();
        let prompt = TemplatePrompt::new("p", "go");
        for (i, (s, which)) in steps.into_iter().enumerate() {
            let k = which.index(dialogs.len());
            let d = &mut dialogs[k];
            match s {
                Step::Text => { let _ = d.put_text(format!("t{i}"), Put::new()); }
                Step::Call => {
                    let call = FunctionCall::new(format!("c{i}"), "f", json!({"i": i})).unwrap();
                    if d.append(AgentMessage::tool_calls("", vec![call.clone()])).is_ok() {
                        d.append(AgentMessage::tool_result(&call, "ok", false)).unwrap();
                    }
                }
                Step::Prompt => { let _ = d.put_prompt(&prompt, &Default::default(), Put::new()); }
                Step::Fork(l, f) => {
                    let child = d.fork(l, f);
                    log.record(d).unwrap();
                    log.record(&child).unwrap();
                    dialogs.push(child);
                    continue;
                }
                Step::Pause => { let _ = d.transition_at(DialogStatus::Paused, mplp_core::Timestamp::now()); }
                Step::Resume => { let _ = d.transition_at(DialogStatus::Active, mplp_core::Timestamp::now()); }
            }
            log.record(&dialogs[k]).unwrap();
        }
        let bytes = log.into_inner().into_inner();
        let entries = ReplayLog::read(&bytes[..]).unwrap();
        let rebuilt = ReplayLog::rebuild(entries).unwrap();
        prop_assert_eq!(rebuilt.len(), dialogs.len());
        for d in &dialogs {
            prop_assert_eq!(&rebuilt[&d.dialog_id()], d);
        }
    }
}

#[test]
fn replay_errors_name_the_line_and_the_entry() {
    let err = ReplayLog::read(&b"{\"op\":\"open\"}\n\nnot json\n"[..]).unwrap_err();
    assert!(err.to_string().starts_with("replay log line 1"), "{err}");
    let d = AgentDialog::new(ContextId::new(), "a", "sys");
    let entries = vec![ReplayEntry::TopPrompt {
        dialog_id: d.dialog_id(),
        top_prompt: None,
    }];
    let err = ReplayLog::rebuild(entries).unwrap_err();
    assert!(
        matches!(err, ReplayError::UnknownDialog { index: 0, .. }),
        "{err}"
    );
}
