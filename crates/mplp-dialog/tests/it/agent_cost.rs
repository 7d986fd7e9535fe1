//! Token usage and prices, worked out by hand.

use mplp_dialog::agent::{Price, PricingTable, Usage};
use serde_json::json;

#[test]
fn usage_adds_field_by_field_and_skips_zero_cache_counts_on_the_wire() {
    let a = Usage::new(100, 50).with_cache(30, 10);
    assert_eq!(
        (
            a.input_tokens,
            a.output_tokens,
            a.cache_read_tokens,
            a.cache_write_tokens
        ),
        (100, 50, 30, 10)
    );
    assert_eq!(a.total_tokens(), 150);
    let b = Usage::new(1, 2).with_cache(3, 4);
    let sum = a + b;
    assert_eq!(
        (
            sum.input_tokens,
            sum.output_tokens,
            sum.cache_read_tokens,
            sum.cache_write_tokens
        ),
        (101, 52, 33, 14)
    );
    let mut c = a;
    c += b;
    assert_eq!(c, sum);
    assert_eq!([a, b].into_iter().sum::<Usage>(), sum);
    assert_eq!(Usage::new(u64::MAX, 1).total_tokens(), u64::MAX);

    assert_eq!(
        serde_json::to_value(Usage::new(7, 8)).unwrap(),
        json!({"input_tokens": 7, "output_tokens": 8})
    );
    assert_eq!(
        serde_json::to_value(Usage::new(7, 8).with_cache(0, 2)).unwrap(),
        json!({"input_tokens": 7, "output_tokens": 8, "cache_write_tokens": 2})
    );
}

#[test]
fn a_price_charges_cached_tokens_at_their_own_price_once() {
    let usage = Usage::new(1_000_000, 500_000).with_cache(200_000, 100_000);
    let price = Price::new(2.0, 8.0).with_cache(0.5, 2.5);
    assert_eq!((price.cache_read, price.cache_write), (0.5, 2.5));
    // 700k uncached × $2 + 200k × $0.5 + 100k × $2.5 + 500k × $8, per million.
    let dollars = price.cost(&usage);
    assert!(
        (dollars - (1.4 + 0.1 + 0.25 + 4.0)).abs() < 1e-9,
        "{dollars}"
    );
    // Without cache prices, cached input costs as much as uncached input.
    let plain = Price::new(2.0, 8.0);
    assert_eq!((plain.cache_read, plain.cache_write), (2.0, 2.0));
    assert!((plain.cost(&usage) - 6.0).abs() < 1e-9);
    // Each part on its own.
    for (usage, want) in [
        (Usage::new(1_000_000, 0), 2.0),
        (Usage::new(0, 1_000_000), 8.0),
        (Usage::new(1_000_000, 0).with_cache(1_000_000, 0), 0.5),
        (Usage::new(1_000_000, 0).with_cache(0, 1_000_000), 2.5),
    ] {
        let got = price.cost(&usage);
        assert!((got - want).abs() < 1e-9, "{usage:?}: {got}");
    }

    let mut table = PricingTable::new();
    table.insert("m", price);
    assert_eq!(table.get("m"), Some(&price));
    assert_eq!(table.cost(Some("m"), &usage), Some(price.cost(&usage)));
    assert_eq!(table.cost(None, &usage), None);
}

#[test]
fn content_is_blank_without_images_or_visible_text() {
    use mplp_dialog::agent::{Content, ImageSource, Part};
    assert!(Content::from(" \n\t").is_blank());
    assert!(Content::from(String::new()).is_blank());
    assert!(!Content::from(String::from("hi")).is_blank());
    assert_eq!(
        Content::from(String::from("hi")),
        Content::Text("hi".into())
    );
    let image = Part::Image {
        source: ImageSource::url("https://example.com/a.png"),
    };
    assert!(!Content::Parts(vec![image]).is_blank());
    let blank_text = Part::Text { text: "  ".into() };
    assert!(Content::Parts(vec![blank_text]).is_blank());
}

#[test]
fn a_message_with_calls_is_a_function_call_and_the_overview_shows_usage() {
    use mplp_core::ContextId;
    use mplp_dialog::agent::{AgentDialog, AgentMessage, AgentRole, FunctionCall};
    let call = FunctionCall::new("call_1", "search", json!({})).unwrap();
    assert!(AgentMessage::tool_calls("", vec![call]).is_function_call());
    assert!(!AgentMessage::text(AgentRole::Assistant, "done").is_function_call());

    let mut d = AgentDialog::empty(ContextId::new(), "coder");
    d.append(AgentMessage::text(AgentRole::User, "q")).unwrap();
    assert!(!d.overview().contains("usage:"), "{}", d.overview());
    d.append(AgentMessage::text(AgentRole::Assistant, "a").with_usage("m", Usage::new(12, 34)))
        .unwrap();
    let text = d.overview();
    assert!(text.ends_with("usage: 12 in, 34 out tokens\n"), "{text}");
}

#[test]
fn a_sanitized_name_keeps_letters_digits_underscores_and_hyphens() {
    use mplp_dialog::agent::{AgentMessage, AgentRole};
    let named = |n: &str| AgentMessage::text(AgentRole::User, "hi").with_name(n);
    assert_eq!(
        named("ada-2_b.c d").sanitized_name().as_deref(),
        Some("ada-2_b_c_d")
    );
    assert_eq!(
        named(&"x".repeat(70)).sanitized_name().map(|s| s.len()),
        Some(64)
    );
    assert_eq!(
        AgentMessage::text(AgentRole::User, "hi").sanitized_name(),
        None
    );
}

#[test]
fn the_overview_puts_each_message_on_one_line() {
    use mplp_core::ContextId;
    use mplp_dialog::agent::{AgentDialog, AgentMessage, AgentRole, FunctionCall};
    let call = FunctionCall::new("call_1", "search", json!({})).unwrap();
    let mut d = AgentDialog::empty(ContextId::new(), "coder");
    d.append(AgentMessage::text(AgentRole::User, "a\nb\rc"))
        .unwrap();
    d.append(AgentMessage::tool_calls("", vec![call])).unwrap();
    let text = d.overview();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        lines,
        ["#0 user: a b c", "#1 tool_call: -> search({}) #call_1"]
    );
}

#[test]
fn openai_assistant_text_is_left_out_only_beside_calls_and_tool_images_follow_their_run() {
    use mplp_core::ContextId;
    use mplp_dialog::agent::{
        AgentDialog, AgentMessage, AgentRole, Content, FunctionCall, ImageSource, Part,
    };
    let call = FunctionCall::new("call_1", "shot", json!({})).unwrap();
    let mut d = AgentDialog::empty(ContextId::new(), "coder");
    d.append(AgentMessage::text(AgentRole::User, "look"))
        .unwrap();
    d.append(AgentMessage::tool_calls("", vec![call.clone()]))
        .unwrap();
    let image = Part::Image {
        source: ImageSource::url("https://example.com/a.png"),
    };
    d.append(AgentMessage::tool_result(
        &call,
        Content::Parts(vec![image]),
        false,
    ))
    .unwrap();
    d.append(AgentMessage::text(AgentRole::User, "and now?"))
        .unwrap();
    let call2 = FunctionCall::new("call_2", call.name.as_str(), call.arguments.clone()).unwrap();
    d.append(AgentMessage::tool_calls("checking", vec![call2.clone()]))
        .unwrap();
    d.append(AgentMessage::tool_result(&call2, "ok", false))
        .unwrap();
    d.append(AgentMessage::text(AgentRole::Assistant, ""))
        .unwrap();
    let req = serde_json::to_value(d.to_openai_chat("gpt-4o", &[]).unwrap()).unwrap();
    let messages = req["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    // The tool's image is sent as a user message right after the tool run,
    // before the next user message.
    assert_eq!(
        roles,
        [
            "user",
            "assistant",
            "tool",
            "user",
            "user",
            "assistant",
            "tool",
            "assistant"
        ]
    );
    assert!(
        messages[3]["content"]
            .to_string()
            .contains("https://example.com/a.png")
    );
    assert_eq!(messages[4]["content"], "and now?");
    // Beside calls, empty text is no content; text is kept; without calls,
    // even empty text is the content.
    assert!(
        messages[1]
            .get("content")
            .is_none_or(serde_json::Value::is_null)
    );
    assert_eq!(messages[5]["content"], "checking");
    assert_eq!(messages[7]["content"], "");
}

#[test]
fn only_the_agent_sources_dialog_event_carries_the_state() {
    use mplp_core::{BaseEvent, ContextId};
    use mplp_dialog::agent::{AGENT_DIALOG_EVENT, AgentDialog, AgentMessage, AgentRole};
    let mut d = AgentDialog::new(ContextId::new(), "coder", "sys");
    d.append(AgentMessage::text(AgentRole::User, "hi")).unwrap();
    let mut mplp = d.to_mplp();
    // Foreign events after the state: one of the same type from another
    // source, one from the agent source with another type.
    let same_type = BaseEvent::new(AGENT_DIALOG_EVENT, "elsewhere");
    let same_source = BaseEvent::new("agent.note".parse().unwrap(), "dialog.agent");
    let events = mplp.events.as_mut().unwrap();
    events.push(same_type.clone());
    events.push(same_source.clone());
    let read = AgentDialog::from_mplp(&mplp).unwrap();
    assert_eq!(read.dialog.owner(), Some("coder"));
    assert_eq!(read.dialog.top_prompt(), d.top_prompt());
    assert_eq!(read.dialog.messages(), d.messages());
    // The foreign events stay, the state event does not.
    assert_eq!(
        read.dialog.header().events.as_deref(),
        Some(&[same_type, same_source][..])
    );
}

#[test]
fn a_message_event_of_another_source_is_a_plain_message() {
    use mplp_core::{BaseEvent, ContextId};
    use mplp_dialog::agent::{AGENT_MESSAGE_EVENT, AgentDialog};
    use mplp_dialog::{Dialog, DialogRole, Message};
    let mut plain = Dialog::new(ContextId::new());
    let ev = BaseEvent::new(AGENT_MESSAGE_EVENT, "elsewhere");
    let at = "2025-12-07T00:00:01Z".parse().unwrap();
    plain
        .push_message(Message::new(DialogRole::User, "hi", at).with_event(ev.clone()))
        .unwrap();
    let read = AgentDialog::from_mplp(&plain).unwrap();
    let rules: Vec<&str> = read.report.warnings().map(|v| v.rule.as_str()).collect();
    assert_eq!(rules, ["agent_plain_message", "agent_dialog_state_missing"]);
    let m = &read.dialog.messages()[0];
    assert_eq!(m.text_content(), "hi");
    assert_eq!(m.event.as_deref(), Some(&ev));
}

#[test]
fn a_prompt_without_a_parser_or_tools_has_none_and_an_unclosed_brace_is_located() {
    use mplp_dialog::agent::{Prompt, PromptError, TemplatePrompt};
    struct Fixed;
    impl Prompt for Fixed {
        fn name(&self) -> &str {
            "fixed"
        }
        fn render(
            &self,
            _: &serde_json::Map<String, serde_json::Value>,
        ) -> Result<String, PromptError> {
            Ok("text".into())
        }
    }
    assert!(Fixed.parse("{\"a\": 1}").is_none());
    assert!(Fixed.tools().is_empty());

    let p = TemplatePrompt::new("p", "ab {x} {y");
    let args = json!({"x": 1}).as_object().unwrap().clone();
    match p.render(&args) {
        Err(PromptError::Unclosed { at, .. }) => assert_eq!(at, 7),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_json_reply_is_read_between_its_outer_brackets_and_the_registry_lists_names() {
    use mplp_dialog::agent::{Prompt, PromptError, PromptRegistry, TemplatePrompt};
    let p = TemplatePrompt::new("p", "t").with_json_reply();
    assert_eq!(
        p.parse("Sure: {\"a\": [1]} done").unwrap().unwrap(),
        json!({"a": [1]})
    );
    // A closing bracket before the first opening one: the whole reply is
    // tried (and is not JSON), never a slice that runs backwards.
    assert!(matches!(
        p.parse("} then {"),
        Some(Err(PromptError::Parse { .. }))
    ));
    let mut registry = PromptRegistry::new();
    registry.register(TemplatePrompt::new("b/agent", "x"));
    registry.register(TemplatePrompt::new("a/agent", "y"));
    assert_eq!(format!("{registry:?}"), r#"{"a/agent", "b/agent"}"#);
}
