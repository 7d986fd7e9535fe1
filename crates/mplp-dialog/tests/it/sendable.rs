//! Goal: no operation on an agent dialog (forks with any ranges, the full
//! copy, pruning to any window, a fork of the MPLP projection in a dialog
//! tree, a replay through the NDJSON log) yields a dialog whose provider
//! bodies a provider refuses.
//!
//! Random agent dialogs (mostly well formed: calls followed by their
//! results; sometimes broken: a result without its call, a call left
//! unanswered, a message between a call and its results), random operations,
//! and the structural checkers of `mplp_dialog::agent::check`, written from
//! the providers' API references. For each provider:
//!
//! 1. a converter never returns a body its checker refuses, and never needs
//!    its last guard (`ConvertError::Rejected`): the named-message checks
//!    catch everything first;
//! 2. a dialog that converts still converts after any operation (or has no
//!    message left to send);
//! 3. a dialog whose tool calls and results are not paired is refused with
//!    an error naming the message.
//!
//! Cases: `MPLP_SENDABLE_CASES` (default 10,000 per provider; see
//! docs/spec-notes.md for the time it takes).

use mplp_core::ContextId;
use mplp_dialog::agent::check::{check_anthropic, check_openai};
use mplp_dialog::agent::*;
use mplp_dialog::{ConvertError, DefaultContextManager, Dialog, DialogTree};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::common::ts;

fn cases() -> u32 {
    std::env::var("MPLP_SENDABLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-zA-Z0-9 .,?!]{1,30}",
        1 => Just(String::new()),
        1 => "[ \t\n]{1,3}",
        1 => "[a-z ]{1,20}[ \n]",
    ]
}

fn image() -> impl Strategy<Value = ImageSource> {
    prop_oneof![
        "https://example\\.com/[a-z]{1,8}\\.png".prop_map(ImageSource::url),
        ("image/(png|jpeg|gif|webp)", "[A-Za-z0-9+/]{4,20}")
            .prop_map(|(t, d)| ImageSource::base64(t, d)),
    ]
}

fn content(images: bool) -> BoxedStrategy<Content> {
    if images {
        prop_oneof![
            4 => text().prop_map(Content::Text),
            1 => prop::collection::vec(
                prop_oneof![
                    text().prop_map(|text| Part::Text { text }),
                    image().prop_map(|source| Part::Image { source }),
                ],
                0..3,
            )
            .prop_map(Content::Parts),
        ]
        .boxed()
    } else {
        text().prop_map(Content::Text).boxed()
    }
}

/// One piece of a generated dialog.
#[derive(Clone, Debug)]
enum Piece {
    /// A message without tool calls.
    Plain(AgentRole, Content),
    /// A call message and its results: `answered` of its calls are answered
    /// (in the order of `order`), and `between` is a message put between the
    /// call and its results (a broken unit) when set.
    Unit {
        text: String,
        calls: usize,
        answered: usize,
        order: Vec<usize>,
        results: Vec<(Content, bool)>,
        between: Option<String>,
        odd_id: bool,
    },
    /// A tool result that answers no call.
    Orphan(String),
}

fn piece() -> impl Strategy<Value = Piece> {
    let unit = (
        text(),
        1usize..4,
        prop_oneof![8 => Just(None), 1 => Just(Some(0usize)), 1 => (1usize..3).prop_map(Some)],
        Just(vec![0usize, 1, 2]).prop_shuffle(),
        prop::collection::vec((content(true), any::<bool>()), 3),
        prop::option::weighted(0.05, "[a-z]{1,8}"),
        prop::bool::weighted(0.03),
        prop::bool::weighted(0.8),
    )
        .prop_map(
            |(text, calls, answered, order, results, between, odd_id, good_order)| {
                let answered = answered.unwrap_or(calls).min(calls);
                let order = if good_order {
                    order.into_iter().filter(|k| *k < calls).collect()
                } else {
                    (0..calls).collect()
                };
                Piece::Unit {
                    text,
                    calls,
                    answered,
                    order,
                    results,
                    between,
                    odd_id,
                }
            },
        );
    prop_oneof![
        5 => (
            prop::sample::select(vec![
                AgentRole::System,
                AgentRole::User,
                AgentRole::User,
                AgentRole::Assistant,
                AgentRole::Agent,
            ]),
            content(true),
        )
            .prop_map(|(role, c)| {
                // Images mostly where providers take them.
                let c = match (&role, c) {
                    (AgentRole::User, c) => c,
                    (_, Content::Parts(p)) if p.iter().any(|p| matches!(p, Part::Image { .. })) => {
                        Content::Text(Content::Parts(p).text())
                    }
                    (_, c) => c,
                };
                Piece::Plain(role, c)
            }),
        3 => unit,
        1 => "[a-z]{1,6}".prop_map(Piece::Orphan),
    ]
}

/// A random agent dialog: a system prompt most of the time, then pieces.
fn dialog() -> impl Strategy<Value = AgentDialog> {
    (
        prop::bool::weighted(0.85),
        prop::collection::vec(piece(), 0..10),
        prop::bool::weighted(0.9),
    )
        .prop_map(|(system, pieces, no_orphans)| {
            let mut d = if system {
                AgentDialog::new(ContextId::new(), "coder", "You are careful.")
            } else {
                AgentDialog::empty(ContextId::new(), "coder")
            };
            let mut t = 0;
            let mut stamp = |mut m: AgentMessage| {
                t += 1;
                m.timestamp = ts(t);
                m
            };
            for (i, p) in pieces.into_iter().enumerate() {
                match p {
                    Piece::Plain(role, c) => {
                        d.append(stamp(AgentMessage::new(role, c))).unwrap();
                    }
                    Piece::Unit {
                        text,
                        calls,
                        answered,
                        order,
                        results,
                        between,
                        odd_id,
                    } => {
                        let calls: Vec<FunctionCall> = (0..calls)
                            .map(|k| {
                                let id = if odd_id && k == 0 {
                                    format!("call.{i}")
                                } else {
                                    format!("call_{i}_{k}")
                                };
                                FunctionCall::new(id, "search", json!({"q": k})).unwrap()
                            })
                            .collect();
                        d.append(stamp(AgentMessage::tool_calls(text, calls.clone())))
                            .unwrap();
                        if let Some(b) = between {
                            d.append(stamp(AgentMessage::text(AgentRole::User, b)))
                                .unwrap();
                        }
                        for k in order.into_iter().take(answered) {
                            let (c, err) = results[k].clone();
                            d.append(stamp(AgentMessage::tool_result(&calls[k], c, err)))
                                .unwrap();
                        }
                    }
                    Piece::Orphan(id) => {
                        if !no_orphans {
                            let call =
                                FunctionCall::new(format!("gone_{id}"), "f", json!({})).unwrap();
                            d.append(stamp(AgentMessage::tool_result(&call, "lost", false)))
                                .unwrap();
                        }
                    }
                }
            }
            d
        })
}

/// An operation on a dialog.
#[derive(Clone, Debug)]
enum Op {
    Fork(usize, usize),
    ForkAll,
    Prune(usize),
    TreeFork(usize, usize),
    Replay,
    Then(Box<Op>, Box<Op>),
}

fn op() -> impl Strategy<Value = Op> {
    let leaf = prop_oneof![
        4 => (0usize..14, 0usize..6).prop_map(|(l, f)| Op::Fork(l, f)),
        1 => Just(Op::ForkAll),
        4 => (0usize..400).prop_map(Op::Prune),
        2 => (0usize..14, 0usize..6).prop_map(|(l, f)| Op::TreeFork(l, f)),
        1 => Just(Op::Replay),
    ];
    leaf.prop_recursive(1, 2, 2, |inner| {
        (inner.clone(), inner).prop_map(|(a, b)| Op::Then(Box::new(a), Box::new(b)))
    })
}

/// Applies an operation; `None` when it refuses (a window too small).
fn apply(d: &AgentDialog, op: &Op) -> Option<AgentDialog> {
    let mut parent = d.clone();
    match op {
        Op::Fork(l, f) => Some(parent.fork(*l, *f)),
        Op::ForkAll => Some(parent.fork_all()),
        Op::Prune(budget) => DefaultContextManager::new(*budget)
            .with_safety_margin(0)
            .prune(d)
            .ok(),
        Op::TreeFork(l, f) => {
            let mplp: Dialog = d.to_mplp();
            let mut tree = DialogTree::new();
            let child = tree.fork(&mplp, *l, *f).unwrap();
            Some(AgentDialog::from_mplp(&child).unwrap().dialog)
        }
        Op::Replay => {
            let mut log = ReplayLog::new(LogWriter::new(Vec::new()));
            log.record(d).unwrap();
            let bytes = log.into_inner().into_inner();
            let rebuilt = ReplayLog::rebuild(ReplayLog::read(&bytes[..]).unwrap()).unwrap();
            let back = rebuilt.get(&d.dialog_id()).unwrap().clone();
            assert_eq!(&back, d);
            Some(back)
        }
        Op::Then(a, b) => apply(&apply(d, a)?, b),
    }
}

#[derive(Clone, Copy, Debug)]
enum Provider {
    OpenAi,
    Anthropic,
}

/// The body for `provider`, checked independently of the converter's guard.
fn convert(d: &AgentDialog, provider: Provider) -> Result<Value, ConvertError> {
    let tools = [ToolSpec::new(
        "search",
        "Search",
        json!({"type": "object", "properties": {"q": {"type": "integer"}}}),
    )];
    let (body, problems) = match provider {
        Provider::OpenAi => {
            let b = serde_json::to_value(d.to_openai_chat("gpt-4o", &tools)?).unwrap();
            let p = check_openai(&b);
            (b, p)
        }
        Provider::Anthropic => {
            let b =
                serde_json::to_value(d.to_anthropic_messages("claude-sonnet-4-5", 256, &tools)?)
                    .unwrap();
            let p = check_anthropic(&b);
            (b, p)
        }
    };
    assert!(problems.is_empty(), "refused body {body}: {problems:?}");
    Ok(body)
}

fn property(provider: Provider, d: &AgentDialog, ops: &[Op]) -> Result<(), TestCaseError> {
    let before = convert(d, provider);
    if let Err(e) = &before {
        prop_assert!(
            !matches!(e, ConvertError::Rejected { .. }),
            "the last guard fired: {e}"
        );
    }
    // 3: unpaired calls and results are refused, naming a message.
    if let Err(e) = d.check_tool_pairing() {
        prop_assert!(before.is_err(), "converted despite {e}");
    }
    for op in ops {
        let Some(after) = apply(d, op) else { continue };
        let converted = convert(&after, provider);
        match (&before, &converted) {
            (_, Err(ConvertError::Rejected { .. })) => {
                prop_assert!(false, "the last guard fired after {op:?}: {converted:?}")
            }
            (Ok(_), Err(ConvertError::NoMessages { .. })) | (_, Ok(_)) | (Err(_), Err(_)) => {}
            (Ok(_), Err(e)) => prop_assert!(
                false,
                "{op:?} made a sendable dialog unsendable: {e}\n{}",
                after.overview()
            ),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn openai_accepts_every_operation(d in dialog(), ops in prop::collection::vec(op(), 1..4)) {
        property(Provider::OpenAi, &d, &ops)?;
    }

    #[test]
    fn anthropic_accepts_every_operation(d in dialog(), ops in prop::collection::vec(op(), 1..4)) {
        property(Provider::Anthropic, &d, &ops)?;
    }
}

/// The generator makes both kinds of dialog: most convert, some do not.
#[test]
fn the_generator_makes_sendable_and_broken_dialogs() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut ok, mut broken, mut with_calls) = (0, 0, 0);
    for _ in 0..500 {
        let d = dialog().new_tree(&mut runner).unwrap().current();
        if d.check_tool_pairing().is_ok() {
            ok += 1;
        } else {
            broken += 1;
        }
        if d.messages().iter().any(|m| m.is_function_call()) {
            with_calls += 1;
        }
    }
    assert!(
        ok > 250 && broken > 25 && with_calls > 250,
        "{ok} {broken} {with_calls}"
    );
}

fn call(id: &str) -> FunctionCall {
    FunctionCall::new(id, "weather", json!({"city": "Paris"})).unwrap()
}

/// The reproduction: `fork(2, 1)` after a tool call used to keep the
/// result without its call.
#[test]
fn fork_after_a_tool_call_keeps_the_call_with_its_result() {
    let mut d = AgentDialog::new(ContextId::new(), "coder", "sys");
    d.put_text("Weather?", Put::new()).unwrap();
    let c = call("call_1");
    d.append(AgentMessage::tool_calls("", vec![c.clone()]))
        .unwrap();
    d.append(AgentMessage::tool_result(&c, "18°C", false))
        .unwrap();
    d.append(AgentMessage::text(AgentRole::Assistant, "It is 18°C."))
        .unwrap();
    // The last two are the result and the answer: the result's call is
    // outside the range, so the result is left out with it.
    let child = d.fork(2, 1);
    let roles: Vec<AgentRole> = child.messages().iter().map(|m| m.role).collect();
    assert_eq!(roles, [AgentRole::System, AgentRole::Assistant]);
    assert_eq!(
        (child.tree_node().first_k, child.tree_node().last_n),
        (Some(1), Some(1))
    );
    child.to_openai_chat("gpt-4o", &[]).unwrap();
    child
        .to_anthropic_messages("claude-sonnet-4-5", 64, &[])
        .unwrap();
    // Three trailing messages take the unit whole.
    let child = d.fork(3, 1);
    assert_eq!(child.messages().len(), 4);
    assert_eq!(child.tree_node().last_n, Some(3));
    // The full copy, by name.
    let all = d.fork_all();
    assert_eq!(all.messages().len(), d.messages().len());
    // The plain MPLP fork of the projection keeps the unit too.
    let plain = d.to_mplp().fork(2, 1);
    assert_eq!(plain.messages().len(), 2);
    // In a dialog tree, the node records what the child holds.
    let mut tree = DialogTree::new();
    let mplp = d.to_mplp();
    let child = tree.fork(&mplp, 2, 1).unwrap();
    let node = tree.node(&child.dialog_id).unwrap();
    assert_eq!((node.first_k, node.last_n), (Some(1), Some(1)));
}

/// The converters refuse a dialog they cannot send, naming the message.
#[test]
fn converters_refuse_unpaired_calls_naming_the_message() {
    let c = call("call_1");
    let mut orphan = AgentDialog::new(ContextId::new(), "coder", "sys");
    orphan.put_text("hi", Put::new()).unwrap();
    orphan
        .append(AgentMessage::tool_result(&c, "18°C", false))
        .unwrap();
    for e in [
        orphan.to_openai_chat("gpt-4o", &[]).unwrap_err(),
        orphan
            .to_anthropic_messages("claude-sonnet-4-5", 64, &[])
            .unwrap_err(),
    ] {
        assert_eq!(
            e,
            ConvertError::OrphanToolResult {
                index: 2,
                call: "call_1".into()
            }
        );
        assert!(
            e.to_string()
                .starts_with("message 2 is the result of tool call `call_1`"),
            "{e}"
        );
    }

    let mut unanswered = AgentDialog::new(ContextId::new(), "coder", "sys");
    unanswered
        .append(AgentMessage::tool_calls("", vec![c.clone()]))
        .unwrap();
    assert_eq!(
        unanswered.to_openai_chat("gpt-4o", &[]).unwrap_err(),
        ConvertError::UnansweredToolCall {
            index: 1,
            call: "call_1".into(),
            before: None
        }
    );
    unanswered.put_text("and?", Put::new()).unwrap();
    let e = unanswered.to_anthropic_messages("m", 64, &[]).unwrap_err();
    assert_eq!(
        e,
        ConvertError::UnansweredToolCall {
            index: 1,
            call: "call_1".into(),
            before: Some(2)
        }
    );
    assert!(e.to_string().contains("before message 2"), "{e}");

    let mut dup = AgentDialog::new(ContextId::new(), "coder", "sys");
    for _ in 0..2 {
        dup.append(AgentMessage::tool_calls("", vec![c.clone()]))
            .unwrap();
        dup.append(AgentMessage::tool_result(&c, "x", false))
            .unwrap();
    }
    assert_eq!(
        dup.to_openai_chat("gpt-4o", &[]).unwrap_err(),
        ConvertError::DuplicateToolCallId {
            index: 3,
            call: "call_1".into()
        }
    );

    let mut odd = AgentDialog::new(ContextId::new(), "coder", "sys");
    let dotted = call("call.1");
    odd.append(AgentMessage::tool_calls("", vec![dotted.clone()]))
        .unwrap();
    odd.append(AgentMessage::tool_result(&dotted, "x", false))
        .unwrap();
    odd.to_openai_chat("gpt-4o", &[]).unwrap();
    assert!(matches!(
        odd.to_anthropic_messages("m", 64, &[]).unwrap_err(),
        ConvertError::BadToolCallId {
            index: 1,
            provider: "anthropic",
            ..
        }
    ));

    let mut user_calls = AgentDialog::new(ContextId::new(), "coder", "sys");
    let mut m = AgentMessage::text(AgentRole::User, "do it");
    m.function_calls = vec![c];
    user_calls.append(m).unwrap();
    assert_eq!(
        user_calls.to_openai_chat("gpt-4o", &[]).unwrap_err(),
        ConvertError::CallsOnRole {
            index: 1,
            role: "user"
        }
    );
}

/// Each checker rule refuses what the references say is refused, with the
/// pointer of the offending member.
#[test]
fn checkers_refuse_what_the_references_refuse() {
    let pointers = |p: Vec<mplp_dialog::agent::check::Rejection>| -> Vec<String> {
        p.into_iter().map(|r| r.pointer).collect()
    };
    let ok = json!({"model": "gpt-4o", "messages": [
        {"role": "system", "content": "s"},
        {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]},
        {"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                                              {"id": "b", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "b", "content": "1"},
        {"role": "tool", "tool_call_id": "a", "content": "2"},
        {"role": "assistant", "content": "done"}]});
    assert!(check_openai(&ok).is_empty(), "{:?}", check_openai(&ok));
    let cases = [
        (json!({"model": "m", "messages": []}), vec!["/messages"]),
        (
            json!({"model": "", "messages": [{"role": "user", "content": "x"}], "temperature_x": 1}),
            vec!["/temperature_x", "/model"],
        ),
        (
            json!({"model": "m", "messages": [{"role": "function", "content": "x"}]}),
            vec!["/messages/0/role"],
        ),
        (
            json!({"model": "m", "messages": [{"role": "assistant"}]}),
            vec!["/messages/0/content"],
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x", "name": "a b"}]}),
            vec!["/messages/0/name"],
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": []}]}),
            vec!["/messages/0/content"],
        ),
        (
            json!({"model": "m", "messages": [
            {"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "user", "content": "x"}]}),
            vec!["/messages/0/tool_calls"],
        ),
        (
            json!({"model": "m", "messages": [
            {"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": {}}}]},
            {"role": "tool", "tool_call_id": "a", "content": "1"},
            {"role": "tool", "tool_call_id": "a", "content": "1"}]}),
            vec![
                "/messages/0/tool_calls/0/function/arguments",
                "/messages/2/tool_call_id",
            ],
        ),
        (
            json!({"model": "m", "messages": [{"role": "assistant", "tool_calls": []}]}),
            vec!["/messages/0/tool_calls"],
        ),
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function", "function": {"name": "a.b"}}]}),
            vec!["/tools/0/function/name"],
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(pointers(check_openai(&body)), expected, "{body}");
    }

    let ok = json!({"model": "c", "max_tokens": 10, "system": "s", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "let me see"}, {"type": "tool_use", "id": "t1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "1"}]}, {"type": "text", "text": "thanks"}]},
        {"role": "assistant", "content": "so"}]});
    assert!(
        check_anthropic(&ok).is_empty(),
        "{:?}",
        check_anthropic(&ok)
    );
    let cases = [
        (
            json!({"model": "c", "max_tokens": 0, "messages": [{"role": "user", "content": "x"}]}),
            vec!["/max_tokens"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "system", "content": "x"}]}),
            vec!["/messages/0/role", "/messages/0/role"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "assistant", "content": "x"}]}),
            vec!["/messages/0/role"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "user", "content": "x"}, {"role": "user", "content": "y"}]}),
            vec!["/messages/1/role"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "user", "content": [{"type": "text", "text": " "}]}]}),
            vec!["/messages/0/content/0/text"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "user", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}}]}]}),
            vec!["/messages/0/content/0/type"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "user", "content": "x"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t.1", "name": "f", "input": []}]}]}),
            vec!["/messages/1/content/0/id", "/messages/1/content/0/input"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "user", "content": "x"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]},
            {"role": "user", "content": [{"type": "text", "text": "y"}, {"type": "tool_result", "tool_use_id": "t1"}]}]}),
            vec!["/messages/2/content/1"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "user", "content": "x"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]},
            {"role": "user", "content": "y"}]}),
            vec!["/messages/1"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t9"}]}]}),
            vec!["/messages/0/content/0/tool_use_id"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y "}]}),
            vec!["/messages/1/content"],
        ),
        (
            json!({"model": "c", "max_tokens": 1, "messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": "x"}}]}]}),
            vec!["/messages/0/content/0/source/media_type"],
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(pointers(check_anthropic(&body)), expected, "{body}");
    }
}
