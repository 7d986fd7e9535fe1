//! The chat client (feature `http`) against the in-process emulators of
//! both APIs (`emulator.rs`): normal replies, tool calls, streams cut at
//! awkward byte boundaries, 429 with `Retry-After`, 500 then success, a
//! connection that hangs, malformed JSON, a 4xx, a body refused before
//! sending, cancellation. The emulator refuses (and fails the test on) any
//! body the provider would refuse.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mplp_core::{ContextId, Document};
use mplp_dialog::agent::client::*;
use mplp_dialog::agent::*;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::emulator::{Emulator, Step};

const KEY: &str = "sk-test-SECRET-42";

fn dialog() -> AgentDialog {
    let mut d = AgentDialog::new(ContextId::new(), "coder", "Be brief.");
    d.put_text("Weather in Paris?", Put::new()).unwrap();
    d
}

fn weather_tool() -> ToolSpec {
    ToolSpec::new(
        "weather",
        "The weather in a city",
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    )
}

fn openai(emu: &Emulator) -> ChatConfig {
    let mut prices = PricingTable::new();
    prices.insert("gpt-4o", Price::new(2.5, 10.0));
    ChatConfig::new(Provider::Openai, emu.openai_base(), "gpt-4o")
        .with_api_key(ApiKey::new(KEY))
        .with_tools(vec![weather_tool()])
        .with_retries(
            2,
            Backoff::new(Duration::from_millis(10), Duration::from_millis(40)),
        )
        .with_timeout(Duration::from_secs(5))
        .with_prices(prices)
}

fn anthropic(emu: &Emulator) -> ChatConfig {
    ChatConfig::new(Provider::Anthropic, emu.url.clone(), "claude-sonnet-4-5")
        .with_api_key(ApiKey::new(KEY))
        .with_tools(vec![weather_tool()])
        .with_retries(
            2,
            Backoff::new(Duration::from_millis(10), Duration::from_millis(40)),
        )
        .with_timeout(Duration::from_secs(5))
}

fn openai_text(text: &str) -> Value {
    json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 1_000_000, "completion_tokens": 100_000, "total_tokens": 1_100_000}})
}

fn openai_call() -> Value {
    json!({"id": "chatcmpl-2", "object": "chat.completion", "created": 1, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]}}],
        "usage": {"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25}})
}

fn anthropic_text(text: &str) -> Value {
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
        "usage": {"input_tokens": 12, "output_tokens": 3}})
}

fn anthropic_call() -> Value {
    json!({"id": "msg_2", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "Checking."}, {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Paris"}}],
        "stop_reason": "tool_use", "usage": {"input_tokens": 30, "output_tokens": 9}})
}

#[derive(serde::Deserialize)]
struct WeatherArgs {
    city: String,
}

fn no_key_in(d: &AgentDialog) {
    let json = serde_json::to_string(d).unwrap();
    assert!(!json.contains("SECRET"), "the key is in the dialog");
    assert!(!d.to_mplp().to_json().contains("SECRET"));
}

#[tokio::test]
async fn openai_reply_tool_call_and_result_round() {
    let emu = Emulator::start(vec![
        Step::json(200, &openai_call()),
        Step::json(200, &openai_text("18°C and sunny.")),
    ]);
    let client = ChatClient::new(openai(&emu)).unwrap();
    let mut d = dialog();
    let reply = client.send(&mut d).await.unwrap();
    assert_eq!(reply.index, 2);
    assert_eq!(reply.attempts, 1);
    assert_eq!(reply.stop_reason.as_deref(), Some("tool_calls"));
    let call = &reply.tool_calls[0];
    assert_eq!(call.arguments_as::<WeatherArgs>().unwrap().city, "Paris");
    assert_eq!(d.messages()[2].role, AgentRole::ToolCall);
    d.append(AgentMessage::tool_result(call, "18°C", false))
        .unwrap();
    let reply = client.send(&mut d).await.unwrap();
    assert_eq!(d.messages()[reply.index].text_content(), "18°C and sunny.");
    // Usage and cost recorded on the dialog: 1M in at $2.5 + 100k out at $10.
    assert_eq!(reply.usage.unwrap().input_tokens, 1_000_000);
    assert!((reply.cost_usd.unwrap() - 3.5).abs() < 1e-9);
    assert_eq!(d.messages()[reply.index].metadata["cost_usd"], json!(3.5));
    assert_eq!(d.usage().input_tokens, 1_000_020);
    // What the server saw: the key in the header only, the tool round paired.
    let seen = emu.seen();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].headers["authorization"], format!("Bearer {KEY}"));
    assert_eq!(seen[1].body["messages"][3]["role"], "tool");
    assert_eq!(seen[1].body["tools"][0]["function"]["name"], "weather");
    no_key_in(&d);
    emu.assert_clean();
}

#[tokio::test]
async fn anthropic_reply_tool_call_and_result_round() {
    let emu = Emulator::start(vec![
        Step::json(200, &anthropic_call()),
        Step::json(200, &anthropic_text("It is 18°C.")),
    ]);
    let client = ChatClient::new(anthropic(&emu)).unwrap();
    let mut d = dialog();
    let reply = client.send(&mut d).await.unwrap();
    assert_eq!(reply.tool_calls[0].id, "toolu_1");
    assert_eq!(reply.stop_reason.as_deref(), Some("tool_use"));
    d.append(AgentMessage::tool_result(
        &reply.tool_calls[0],
        "18°C",
        false,
    ))
    .unwrap();
    let reply = client.send(&mut d).await.unwrap();
    assert_eq!(d.messages()[reply.index].text_content(), "It is 18°C.");
    assert_eq!(reply.cost_usd, None, "no price for this model");
    let seen = emu.seen();
    assert_eq!(seen[0].headers["x-api-key"], KEY);
    assert_eq!(seen[0].headers["anthropic-version"], "2023-06-01");
    assert!(!seen[0].headers.contains_key("authorization"));
    assert_eq!(seen[1].body["system"], "Be brief.");
    assert_eq!(
        seen[1].body["messages"][2]["content"][0]["type"],
        "tool_result"
    );
    no_key_in(&d);
}

/// An OpenAI stream: text in several deltas with multi-byte characters, a
/// tool call whose arguments arrive in pieces, usage in the last chunk.
fn openai_stream() -> String {
    let chunks = [
        json!({"id": "c1", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}),
        json!({"id": "c1", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"content": "Il fait "}}]}),
        json!({"id": "c1", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"content": "18 °C — très "}}]}),
        json!({"id": "c1", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"content": "beau ☀️😀."}}]}),
        json!({"id": "c1", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_9", "type": "function", "function": {"name": "weather", "arguments": ""}}]}}]}),
        json!({"id": "c1", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"ci"}}]}}]}),
        json!({"id": "c1", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "ty\":\"Nîmes\"}"}}]}}]}),
        json!({"id": "c1", "model": "gpt-4o", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
        json!({"id": "c1", "model": "gpt-4o", "choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 11, "total_tokens": 18}}),
    ];
    let mut s = String::from(": keep-alive comment\r\n\r\n");
    for c in chunks {
        s.push_str(&format!("data: {c}\r\n\r\n"));
    }
    s.push_str("data: [DONE]\r\n\r\n");
    s
}

fn anthropic_stream() -> String {
    let events = [
        (
            "message_start",
            json!({"type": "message_start", "message": {"id": "msg_s", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [], "usage": {"input_tokens": 25, "output_tokens": 1}}}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        ("ping", json!({"type": "ping"})),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Il fait 18 °C — "}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "très beau ☀️😀."}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_9", "name": "weather", "input": {}}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"ci"}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "ty\": \"Nîmes\"}"}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 1}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 40}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ];
    let mut s = String::new();
    for (name, data) in events {
        s.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    }
    s
}

/// Streams cut every 1, 2, 3, 5, 7 and 64 bytes (through `\r\n` pairs and
/// UTF-8 characters): the deltas arrive in order and add up to the reply.
#[tokio::test]
async fn streams_cut_at_awkward_boundaries() {
    for every in [1usize, 2, 3, 5, 7, 64] {
        for (provider, stream) in [
            (Provider::Openai, openai_stream()),
            (Provider::Anthropic, anthropic_stream()),
        ] {
            let emu = Emulator::start_with_pause(vec![Step::sse(&stream, every)], Duration::ZERO);
            let config = match provider {
                Provider::Openai => openai(&emu),
                _ => anthropic(&emu),
            };
            let client = ChatClient::new(config).unwrap();
            let mut d = dialog();
            let mut texts = Vec::new();
            let mut args = String::new();
            let mut seen_growing = 0;
            let reply = client
                .send_streaming(&mut d, |delta, so_far| match delta {
                    Delta::Text(t) => {
                        texts.push(t.clone());
                        // The message in the dialog grows with the deltas.
                        assert!(so_far.text_content().ends_with(t.as_str()));
                        seen_growing += 1;
                    }
                    Delta::ToolCall { arguments, .. } => args.push_str(arguments),
                    _ => {}
                })
                .await
                .unwrap_or_else(|e| panic!("{provider} every {every}: {e}"));
            let m = &d.messages()[reply.index];
            assert_eq!(
                m.text_content(),
                "Il fait 18 °C — très beau ☀️😀.",
                "{provider} every {every}"
            );
            assert_eq!(texts.concat(), m.text_content());
            assert!(seen_growing >= 2);
            assert_eq!(reply.tool_calls.len(), 1);
            assert_eq!(
                reply.tool_calls[0]
                    .arguments_as::<WeatherArgs>()
                    .unwrap()
                    .city,
                "Nîmes"
            );
            assert!(args.replace(' ', "").contains("Nîmes"));
            let u = reply.usage.unwrap();
            match provider {
                Provider::Openai => assert_eq!((u.input_tokens, u.output_tokens), (7, 11)),
                _ => assert_eq!((u.input_tokens, u.output_tokens), (25, 40)),
            }
            assert_eq!(emu.seen()[0].body["stream"], true);
            if provider == Provider::Openai {
                assert_eq!(emu.seen()[0].body["stream_options"]["include_usage"], true);
            }
            assert_eq!(d.messages().len(), 3);
        }
    }
}

#[tokio::test]
async fn too_many_requests_waits_as_retry_after_says() {
    let emu = Emulator::start(vec![
        Step::json(
            429,
            &json!({"error": {"message": "slow down", "type": "rate_limit_error"}}),
        )
        .header("retry-after", "1"),
        Step::json(200, &openai_text("ok")),
    ]);
    let client = ChatClient::new(openai(&emu)).unwrap();
    let mut d = dialog();
    let start = Instant::now();
    let reply = client.send(&mut d).await.unwrap();
    // The backoff alone is at most 40 ms: the second wait is the server's.
    assert!(
        start.elapsed() >= Duration::from_millis(950),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(reply.attempts, 2);
    assert_eq!(emu.seen().len(), 2);
}

#[tokio::test]
async fn retry_after_longer_than_allowed_is_not_waited_for() {
    let emu = Emulator::start(vec![
        Step::json(429, &json!({"error": {"message": "come back tomorrow"}}))
            .header("retry-after", "86400"),
    ]);
    let client = ChatClient::new(openai(&emu)).unwrap();
    let mut d = dialog();
    let e = client.send(&mut d).await.unwrap_err();
    assert!(
        matches!(&e, ChatError::Status { status: 429, attempts: 1, message } if message == "come back tomorrow"),
        "{e}"
    );
    assert!(!e.is_client_error());
    assert_eq!(d.messages().len(), 2);
}

/// An IMF-fixdate `secs` seconds from now (negative: in the past).
fn http_date_in(secs: i64) -> String {
    let at = time::OffsetDateTime::now_utc() + time::Duration::seconds(secs);
    at.format(time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    ))
    .unwrap()
}

#[tokio::test]
async fn retry_after_as_an_http_date() {
    // A date in the past: retried at once. The backoff (30 s at least
    // 15 s) would be the wait if the date were not read.
    let slow = Backoff::new(Duration::from_secs(30), Duration::from_secs(30));
    for past in ["Fri, 31 Dec 1999 23:59:59 GMT".to_owned(), http_date_in(-5)] {
        let emu = Emulator::start(vec![
            Step::json(429, &json!({"error": {"message": "slow down"}}))
                .header("retry-after", &past),
            Step::json(200, &openai_text("now")),
        ]);
        let client = ChatClient::new(openai(&emu).with_retries(2, slow)).unwrap();
        let mut d = dialog();
        let start = Instant::now();
        let reply = client.send(&mut d).await.unwrap();
        assert_eq!(reply.attempts, 2);
        assert!(start.elapsed() < Duration::from_secs(10), "{past}");
    }
    // A date two seconds ahead (whole seconds: more than one second from now) is waited for.
    let emu = Emulator::start(vec![
        Step::json(503, &json!({"error": {"message": "busy"}}))
            .header("retry-after", &http_date_in(2)),
        Step::json(200, &openai_text("later")),
    ]);
    let client = ChatClient::new(openai(&emu)).unwrap();
    let mut d = dialog();
    let start = Instant::now();
    let reply = client.send(&mut d).await.unwrap();
    assert_eq!(reply.attempts, 2);
    assert!(
        start.elapsed() >= Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
    // A far date is beyond the client's maximum: not waited for, the 429 is returned.
    let emu = Emulator::start(vec![
        Step::json(429, &json!({"error": {"message": "come back next year"}}))
            .header("retry-after", &http_date_in(365 * 86_400)),
        Step::json(200, &openai_text("never sent")),
    ]);
    let client = ChatClient::new(openai(&emu)).unwrap();
    let mut d = dialog();
    let start = Instant::now();
    let e = client.send(&mut d).await.unwrap_err();
    assert!(
        matches!(
            &e,
            ChatError::Status {
                status: 429,
                attempts: 1,
                ..
            }
        ),
        "{e}"
    );
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(emu.seen().len(), 1);
    // Within a raised maximum, the same kind of date is waited for (here: 1-2 s).
    let emu = Emulator::start(vec![
        Step::json(429, &json!({"error": {"message": "slow down"}}))
            .header("retry-after", &http_date_in(2)),
        Step::json(200, &openai_text("ok")),
    ]);
    let mut config = openai(&emu);
    config.max_retry_after = Duration::from_secs(1);
    let client = ChatClient::new(config).unwrap();
    let e = client.send(&mut dialog()).await.unwrap_err();
    assert!(
        matches!(
            &e,
            ChatError::Status {
                status: 429,
                attempts: 1,
                ..
            }
        ),
        "{e}"
    );
}

#[tokio::test]
async fn server_errors_are_retried_with_backoff_then_succeed() {
    let emu = Emulator::start(vec![
        Step::raw(500, "internal error"),
        Step::json(
            529,
            &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ),
        Step::json(200, &anthropic_text("fine")),
    ]);
    let client = ChatClient::new(anthropic(&emu)).unwrap();
    let mut d = dialog();
    let reply = client.send(&mut d).await.unwrap();
    assert_eq!(reply.attempts, 3);
    assert_eq!(d.messages()[reply.index].text_content(), "fine");
    // Out of retries: the last status and the server's message.
    let emu = Emulator::start(vec![Step::json(
        503,
        &json!({"error": {"message": "down for maintenance"}}),
    )]);
    let client = ChatClient::new(anthropic(&emu)).unwrap();
    let e = client.send(&mut d).await.unwrap_err();
    assert!(
        matches!(&e, ChatError::Status { status: 503, attempts: 3, message } if message == "down for maintenance"),
        "{e}"
    );
    assert_eq!(emu.seen().len(), 3);
}

#[tokio::test]
async fn a_hanging_connection_times_out_and_leaves_the_dialog_alone() {
    for stream in [false, true] {
        let emu = Emulator::start(vec![Step::Hang]);
        let config = openai(&emu)
            .with_timeout(Duration::from_millis(300))
            .with_retries(
                1,
                Backoff::new(Duration::from_millis(10), Duration::from_millis(10)),
            );
        let client = ChatClient::new(config).unwrap();
        let mut d = dialog();
        let before = d.clone();
        let e = if stream {
            client.send_streaming(&mut d, |_, _| {}).await.unwrap_err()
        } else {
            client.send(&mut d).await.unwrap_err()
        };
        assert!(matches!(e, ChatError::Timeout(_, 2)), "{e}");
        assert_eq!(emu.seen().len(), 2);
        assert_eq!(d, before);
    }
}

#[tokio::test]
async fn a_stream_that_stops_talking_times_out_and_is_rolled_back() {
    let stream = openai_stream();
    let half = stream.len() / 2;
    // The pause after the first half is longer than the timeout.
    let emu = Emulator::start_with_pause(
        vec![Step::Reply {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            pieces: vec![
                stream.as_bytes()[..half].to_vec(),
                stream.as_bytes()[half..].to_vec(),
            ],
        }],
        Duration::from_millis(800),
    );
    let client = ChatClient::new(openai(&emu).with_timeout(Duration::from_millis(300))).unwrap();
    let mut d = dialog();
    let before = d.clone();
    let mut deltas = 0;
    let e = client
        .send_streaming(&mut d, |_, _| deltas += 1)
        .await
        .unwrap_err();
    assert!(matches!(e, ChatError::Timeout(..)), "{e}");
    assert!(deltas > 0, "the first half was streamed");
    assert_eq!(d, before, "the partial reply is removed");
}

#[tokio::test]
async fn malformed_json_is_a_clear_error() {
    let emu = Emulator::start(vec![Step::raw(
        200,
        "{\"id\": \"chatcmpl-1\", \"choices\": [",
    )]);
    let client = ChatClient::new(openai(&emu)).unwrap();
    let mut d = dialog();
    let e = client.send(&mut d).await.unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, ChatError::BadResponse(_)), "{text}");
    assert!(
        text.contains("not JSON") && text.contains("chatcmpl-1"),
        "{text}"
    );
    assert_eq!(d.messages().len(), 2);
    // JSON, but not a reply.
    let emu = Emulator::start(vec![Step::json(200, &json!({"hello": "world"}))]);
    let client = ChatClient::new(anthropic(&emu)).unwrap();
    let e = client.send(&mut d).await.unwrap_err();
    assert!(
        e.to_string().contains("not a reply of the anthropic API"),
        "{e}"
    );
    // A broken event in a stream.
    let emu = Emulator::start(vec![Step::sse("event: message_start\ndata: {oops\n\n", 4)]);
    let client = ChatClient::new(anthropic(&emu)).unwrap();
    let e = client.send_streaming(&mut d, |_, _| {}).await.unwrap_err();
    assert!(e.to_string().contains("not JSON"), "{e}");
    // An error event in a stream.
    let emu = Emulator::start(vec![Step::sse(
        "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n",
        5,
    )]);
    let client = ChatClient::new(anthropic(&emu)).unwrap();
    let e = client.send_streaming(&mut d, |_, _| {}).await.unwrap_err();
    assert!(e.to_string().contains("Overloaded"), "{e}");
    assert_eq!(d.messages().len(), 2);
}

#[tokio::test]
async fn a_client_error_is_not_retried_and_carries_the_message() {
    let emu = Emulator::start(vec![Step::json(
        401,
        &json!({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}),
    )]);
    let client = ChatClient::new(openai(&emu)).unwrap();
    let e = client.send(&mut dialog()).await.unwrap_err();
    assert!(e.is_client_error());
    assert_eq!(
        e.to_string(),
        "the server answered 401: Incorrect API key provided"
    );
    assert!(!format!("{e:?}").contains("SECRET"));
    assert!(!format!("{:?}", client.config()).contains("SECRET"));
    assert_eq!(emu.seen().len(), 1);
}

#[tokio::test]
async fn a_body_the_provider_would_refuse_is_never_sent() {
    let emu = Emulator::start(vec![Step::json(200, &openai_text("never"))]);
    let client = ChatClient::new(openai(&emu)).unwrap();
    let mut d = dialog();
    let call = FunctionCall::new("call_1", "weather", json!({"city": "Paris"})).unwrap();
    d.append(AgentMessage::tool_calls("", vec![call])).unwrap();
    let e = client.send(&mut d).await.unwrap_err();
    assert!(
        matches!(
            e,
            ChatError::Refused(mplp_dialog::ConvertError::UnansweredToolCall { index: 2, .. })
        ),
        "{e}"
    );
    assert!(emu.seen().is_empty());
    // A dialog that is not active is not sent either.
    let mut done = dialog();
    done.transition_at(
        mplp_dialog::DialogStatus::Completed,
        mplp_core::Timestamp::now(),
    )
    .unwrap();
    assert!(matches!(
        client.send(&mut done).await.unwrap_err(),
        ChatError::NotActive(_)
    ));
    assert!(emu.seen().is_empty());
}

#[tokio::test]
async fn cancelling_a_stream_leaves_the_dialog_as_it_was() {
    let stream = openai_stream();
    let emu = Emulator::start_with_pause(vec![Step::sse(&stream, 40)], Duration::from_millis(100));
    let client = ChatClient::new(openai(&emu)).unwrap();
    let mut d = dialog();
    let before = d.clone();
    let cancel = CancellationToken::new();
    let c2 = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(250)).await;
        c2.cancel();
    });
    let e = client
        .send_cancellable(&mut d, true, &cancel)
        .await
        .unwrap_err();
    assert!(matches!(e, ChatError::Cancelled));
    assert_eq!(d, before);
    // Dropping the future (a timeout around it) does the same.
    let emu = Emulator::start_with_pause(vec![Step::sse(&stream, 40)], Duration::from_millis(100));
    let client = ChatClient::new(openai(&emu)).unwrap();
    let deltas = Arc::new(AtomicUsize::new(0));
    let n = deltas.clone();
    let r = tokio::time::timeout(
        Duration::from_millis(900),
        client.send_streaming(&mut d, move |_, _| {
            n.fetch_add(1, Ordering::SeqCst);
        }),
    )
    .await;
    assert!(r.is_err());
    assert!(deltas.load(Ordering::SeqCst) > 0);
    assert_eq!(d, before);
}

#[test]
fn the_blocking_client_sends_and_streams() {
    let emu = Emulator::start(vec![
        Step::json(200, &anthropic_text("blocking works")),
        Step::sse(&anthropic_stream(), 9),
    ]);
    let client = BlockingChatClient::new(anthropic(&emu)).unwrap();
    let mut d = dialog();
    let reply = client.send(&mut d).unwrap();
    assert_eq!(d.messages()[reply.index].text_content(), "blocking works");
    d.put_text("And in Nîmes?", Put::new()).unwrap();
    let mut n = 0;
    let reply = client.send_streaming(&mut d, |_, _| n += 1).unwrap();
    assert!(n > 3);
    assert_eq!(reply.tool_calls[0].id, "toolu_9");
}

#[test]
fn the_blocking_client_is_cancelled_from_another_thread() {
    // A server that never answers, a timeout far away: only the
    // cancellation can end the call.
    let emu = Emulator::start(vec![Step::Hang]);
    let config = openai(&emu)
        .with_timeout(Duration::from_secs(120))
        .with_retries(0, Backoff::default());
    let client = BlockingChatClient::new(config).unwrap();
    let mut d = dialog();
    let before = d.clone();
    let cancel = CancellationToken::new();
    let c2 = cancel.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        c2.cancel();
    });
    let start = Instant::now();
    let e = client.send_cancellable(&mut d, false, &cancel).unwrap_err();
    canceller.join().unwrap();
    assert!(matches!(e, ChatError::Cancelled), "{e}");
    assert!(start.elapsed() < Duration::from_secs(60));
    assert_eq!(d, before);
    assert_eq!(emu.seen().len(), 1);
    // A stream cancelled half-way: the partial reply is removed.
    let emu = Emulator::start_with_pause(
        vec![Step::sse(&openai_stream(), 40)],
        Duration::from_millis(100),
    );
    let client = BlockingChatClient::new(openai(&emu)).unwrap();
    let cancel = CancellationToken::new();
    let c2 = cancel.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(250));
        c2.cancel();
    });
    let e = client.send_cancellable(&mut d, true, &cancel).unwrap_err();
    canceller.join().unwrap();
    assert!(matches!(e, ChatError::Cancelled), "{e}");
    assert_eq!(d, before);
    // A token cancelled before the call: nothing is appended.
    let e = client.send_cancellable(&mut d, false, &cancel).unwrap_err();
    assert!(matches!(e, ChatError::Cancelled), "{e}");
    assert_eq!(d, before);
    // A call with a token that is never cancelled completes.
    let emu = Emulator::start(vec![Step::json(200, &openai_text("still here"))]);
    let client = BlockingChatClient::new(openai(&emu)).unwrap();
    let reply = client
        .send_cancellable(&mut d, false, &CancellationToken::new())
        .unwrap();
    assert_eq!(d.messages()[reply.index].text_content(), "still here");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// However a stream is cut, the parser gives the same events.
    #[test]
    fn sse_events_do_not_depend_on_the_cuts(cuts in prop::collection::vec(0usize..2000, 0..40), crlf in any::<bool>()) {
        let mut text = anthropic_stream();
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let bytes = text.as_bytes();
        let whole = SseParser::new().feed(bytes);
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (bytes.len() + 1)).collect();
        cuts.sort_unstable();
        let mut p = SseParser::new();
        let mut got = Vec::new();
        let mut at = 0;
        for c in cuts.into_iter().chain([bytes.len()]) {
            got.extend(p.feed(&bytes[at..c]));
            at = c;
        }
        prop_assert_eq!(whole.len(), 12);
        prop_assert_eq!(got, whole);
    }
}
