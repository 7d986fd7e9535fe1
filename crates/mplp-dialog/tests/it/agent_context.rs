//! The default context manager on agent dialogs, on small hand-made
//! dialogs whose costs are worked out by hand: what is cut, what is
//! dropped, and what the error says.

use mplp_core::ContextId;
use mplp_dialog::agent::*;
use mplp_dialog::{
    ContextError, DefaultContextManager, EstimateCounter, TRUNCATED_PREFIX, TRUNCATED_SUFFIX,
    TokenCounter,
};
use serde_json::json;

fn dialog(messages: Vec<AgentMessage>) -> AgentDialog {
    let mut d = AgentDialog::empty(ContextId::new(), "agent-a");
    for m in messages {
        d.append(m).unwrap();
    }
    d
}

fn cost(m: &AgentMessage) -> usize {
    count_agent_message(&EstimateCounter, m)
}

/// The default manager with `budget` tokens and no safety margin.
fn manager(budget: usize) -> DefaultContextManager<EstimateCounter> {
    DefaultContextManager::new(budget).with_safety_margin(0)
}

fn texts(d: &AgentDialog) -> Vec<String> {
    d.messages()
        .iter()
        .map(AgentMessage::text_content)
        .collect()
}

#[test]
fn a_message_costs_its_text_calls_images_and_overhead() {
    let c = EstimateCounter;
    let args = json!({"city": "Paris"});
    let call = FunctionCall::new("call_1", "get_weather", args.clone()).unwrap();
    let m = AgentMessage::tool_calls("ok", vec![call]);
    // "ok" 1, "get_weather" 3, `{"city":"Paris"}` 4, overhead 4.
    assert_eq!(
        (
            c.count("ok"),
            c.count("get_weather"),
            c.count(&args.to_string())
        ),
        (1, 3, 4)
    );
    assert_eq!(cost(&m), 1 + 3 + 4 + c.message_overhead());
    assert_eq!(
        cost(&AgentMessage::text(AgentRole::User, "")),
        c.message_overhead()
    );
}

#[test]
fn the_border_message_is_cut_to_its_end_when_it_is_plain_text() {
    let long = "x".repeat(400);
    let d = dialog(vec![
        AgentMessage::text(AgentRole::User, "first"),
        AgentMessage::text(AgentRole::Assistant, long.clone()),
        AgentMessage::text(AgentRole::User, "last"),
    ]);
    let (first, last) = (cost(&d.messages()[0]), cost(&d.messages()[2]));
    let budget = first + last + 20;
    let p = manager(budget).prune(&d).unwrap();
    let got = texts(&p);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!((got[0].as_str(), got[2].as_str()), ("first", "last"));
    let kept = got[1].strip_prefix(TRUNCATED_PREFIX).unwrap();
    assert!(!kept.is_empty() && long.ends_with(kept), "{kept}");
    assert!(p.messages().iter().map(cost).sum::<usize>() <= budget);

    // A tool result at the border is not cut (it is dropped), nor is a
    // message with calls.
    let call = FunctionCall::new("call_1", "search", json!({})).unwrap();
    for border in [
        AgentMessage::tool_result(&call, long.clone(), false),
        AgentMessage::tool_calls(long.clone(), vec![call.clone()]),
    ] {
        let d = dialog(vec![
            AgentMessage::text(AgentRole::User, "first"),
            border,
            AgentMessage::text(AgentRole::User, "last"),
        ]);
        let p = manager(budget).prune(&d).unwrap();
        assert_eq!(texts(&p), ["first", "last"]);
    }
}

#[test]
fn a_first_message_too_big_is_cut_at_its_end_or_refused() {
    let long = "y".repeat(400);
    let d = dialog(vec![AgentMessage::text(AgentRole::System, long.clone())]);
    let p = manager(30).prune(&d).unwrap();
    let text = p.messages()[0].text_content();
    let kept = text.strip_suffix(TRUNCATED_SUFFIX).unwrap();
    assert!(!kept.is_empty() && long.starts_with(kept), "{text}");

    // Not even one character fits: the error says what the least is.
    let c = EstimateCounter;
    let least = c.count(TRUNCATED_SUFFIX) + c.message_overhead() + 1;
    match manager(least - 1).prune(&d) {
        Err(ContextError::BudgetTooSmall { needed, budget, .. }) => {
            assert_eq!((needed, budget), (least, least - 1));
        }
        other => panic!("{other:?}"),
    }
    assert!(manager(least).prune(&d).is_ok());

    // A first message that cannot be cut: its whole cost is needed.
    let call = FunctionCall::new("call_1", "search", json!({})).unwrap();
    let d = dialog(vec![AgentMessage::tool_calls(long, vec![call])]);
    let whole = cost(&d.messages()[0]);
    match manager(30).prune(&d) {
        Err(ContextError::BudgetTooSmall { needed, .. }) => assert_eq!(needed, whole),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_result_whose_call_does_not_fit_is_left_out_with_it() {
    let call = FunctionCall::new("call_1", "search", json!({"q": "x".repeat(400)})).unwrap();
    let d = dialog(vec![
        AgentMessage::text(AgentRole::User, "start"),
        AgentMessage::tool_calls("", vec![call.clone()]),
        AgentMessage::tool_result(&call, "result", false),
        AgentMessage::text(AgentRole::Assistant, "done"),
    ]);
    // The result and the answer fit, the call does not: the result goes too.
    let budget = cost(&d.messages()[0]) + cost(&d.messages()[2]) + cost(&d.messages()[3]) + 5;
    let p = manager(budget).prune(&d).unwrap();
    assert_eq!(texts(&p), ["start", "done"]);
    p.to_openai_chat("m", &[]).unwrap();
    // Room for the call too: the unit is kept whole.
    let all: usize = d.messages().iter().map(cost).sum();
    let p = manager(all).prune(&d).unwrap();
    assert_eq!(p.messages().len(), 4);
    // A first message with calls whose results do not fit goes with them.
    let d = dialog(vec![
        AgentMessage::tool_calls("start", vec![call.clone()]),
        AgentMessage::tool_result(&call, "r".repeat(400), false),
        AgentMessage::text(AgentRole::User, "next"),
    ]);
    let budget = cost(&d.messages()[0]) + cost(&d.messages()[2]) + 5;
    let p = manager(budget).prune(&d).unwrap();
    assert_eq!(texts(&p), ["next"]);
}
#[test]
fn a_registry_shows_its_types_and_models() {
    let mut registry = ContextManagerRegistry::new();
    registry.models_mut().insert("tiny-model", 5_010);
    let shown = format!("{registry:?}");
    assert!(
        shown.starts_with(
            r#"ContextManagerRegistry { types: ["default"], models: ModelWindows { windows: {"#
        ),
        "{shown}"
    );
    assert!(shown.contains(r#""tiny-model": 5010"#), "{shown}");
}

#[test]
fn head_and_tail_are_the_first_and_last_messages() {
    let d = dialog(vec![
        AgentMessage::text(AgentRole::System, "sys"),
        AgentMessage::text(AgentRole::User, "q"),
        AgentMessage::text(AgentRole::Assistant, "a"),
    ]);
    assert_eq!(
        d.head().map(AgentMessage::text_content).as_deref(),
        Some("sys")
    );
    assert_eq!(
        d.tail().map(AgentMessage::text_content).as_deref(),
        Some("a")
    );
    let empty = dialog(vec![]);
    assert!(empty.head().is_none() && empty.tail().is_none());
}
