//! An in-process emulator of the OpenAI Chat Completions and Anthropic
//! Messages endpoints, on 127.0.0.1 (never the internet), for the chat
//! client's tests (also used by mplp-cli's tests through `#[path]`).
//!
//! It speaks HTTP/1.1 over a plain tokio TCP listener, so that a test
//! decides every byte and every pause: replies in pieces split anywhere
//! (inside a line ending or a UTF-8 character), connections that never
//! answer. Every request body is checked with the provider's structural
//! checker (`mplp_dialog::agent::check`); a body the provider would refuse
//! is answered 400 as the provider would, and recorded as a failure that
//! [`Emulator::assert_clean`] (and the drop of the emulator) turns into a
//! failed test.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mplp_dialog::agent::check::{check_anthropic, check_openai};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the emulator does with one request.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// Answers with a status, extra headers and a body written in pieces
    /// (with a short pause after each piece).
    Reply {
        status: u16,
        headers: Vec<(String, String)>,
        pieces: Vec<Vec<u8>>,
    },
    /// Reads the request and never answers.
    Hang,
}

impl Step {
    /// A JSON answer in one piece.
    pub(crate) fn json(status: u16, body: &Value) -> Step {
        Step::Reply {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            pieces: vec![body.to_string().into_bytes()],
        }
    }

    /// A raw answer in one piece.
    pub(crate) fn raw(status: u16, body: &str) -> Step {
        Step::Reply {
            status,
            headers: vec![],
            pieces: vec![body.as_bytes().to_vec()],
        }
    }

    /// An event stream, cut every `every` bytes.
    pub(crate) fn sse(text: &str, every: usize) -> Step {
        Step::Reply {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            pieces: text
                .as_bytes()
                .chunks(every.max(1))
                .map(<[u8]>::to_vec)
                .collect(),
        }
    }

    /// The same step with one more header.
    pub(crate) fn header(mut self, name: &str, value: &str) -> Step {
        if let Step::Reply { headers, .. } = &mut self {
            headers.push((name.into(), value.into()));
        }
        self
    }
}

/// A request the emulator received.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    pub(crate) path: String,
    pub(crate) headers: BTreeMap<String, String>,
    pub(crate) body: Value,
}

#[derive(Default)]
struct State {
    seen: Vec<Seen>,
    failures: Vec<String>,
}

/// The running emulator.
pub(crate) struct Emulator {
    pub(crate) url: String,
    state: Arc<Mutex<State>>,
    runtime: Option<tokio::runtime::Runtime>,
    pub(crate) pause: Duration,
}

impl Emulator {
    /// Starts an emulator that answers request `n` with `steps[n]` (the
    /// last step again after the end).
    pub(crate) fn start(steps: Vec<Step>) -> Emulator {
        Emulator::start_with_pause(steps, Duration::from_millis(3))
    }

    /// The same, with this pause after each piece of an answer.
    pub(crate) fn start_with_pause(steps: Vec<Step>, pause: Duration) -> Emulator {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        // Bound outside the runtime: a test may itself run inside one.
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        std_listener.set_nonblocking(true).unwrap();
        let listener = {
            let _enter = runtime.enter();
            TcpListener::from_std(std_listener).unwrap()
        };
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(Mutex::new(State::default()));
        let st = state.clone();
        let steps = Arc::new(steps);
        runtime.spawn(async move {
            let mut n = 0usize;
            loop {
                let Ok((sock, _)) = listener.accept().await else {
                    return;
                };
                let step = steps.get(n).or(steps.last()).cloned();
                n += 1;
                let st = st.clone();
                tokio::spawn(async move {
                    serve(sock, step, st, pause).await;
                });
            }
        });
        Emulator {
            url: format!("http://{addr}"),
            state,
            runtime: Some(runtime),
            pause,
        }
    }

    /// The base URL for OpenAI (`{url}/v1`).
    pub(crate) fn openai_base(&self) -> String {
        format!("{}/v1", self.url)
    }

    /// Every request so far.
    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.state.lock().unwrap().seen.clone()
    }

    /// Fails the test if a request was one the provider would refuse.
    pub(crate) fn assert_clean(&self) {
        let failures = self.state.lock().unwrap().failures.clone();
        assert!(
            failures.is_empty(),
            "the emulator refused requests: {failures:#?}"
        );
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
        if !std::thread::panicking() {
            self.assert_clean();
        }
    }
}

async fn read_request(sock: &mut TcpStream) -> Option<(String, BTreeMap<String, String>, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p;
        }
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let path = lines.next()?.split(' ').nth(1)?.to_owned();
    let headers: BTreeMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let len: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < len {
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some((path, headers, body))
}

async fn serve(mut sock: TcpStream, step: Option<Step>, state: Arc<Mutex<State>>, pause: Duration) {
    let Some((path, headers, body)) = read_request(&mut sock).await else {
        return;
    };
    let parsed: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let problems: Vec<String> = match path.as_str() {
        "/v1/chat/completions" => check_openai(&parsed)
            .iter()
            .map(ToString::to_string)
            .collect(),
        "/v1/messages" => check_anthropic(&parsed)
            .iter()
            .map(ToString::to_string)
            .collect(),
        other => vec![format!("no such endpoint {other}")],
    };
    let mut failures = problems.clone();
    if path == "/v1/messages" && !headers.contains_key("anthropic-version") {
        failures.push("no anthropic-version header".to_owned());
    }
    {
        let mut st = state.lock().unwrap();
        st.seen.push(Seen {
            path,
            headers,
            body: parsed,
        });
        st.failures.extend(failures);
    }
    if !problems.is_empty() {
        let body = serde_json::json!({"error": {"type": "invalid_request_error", "message": problems.join("; ")}});
        write_reply(
            &mut sock,
            400,
            &[],
            &[body.to_string().into_bytes()],
            pause,
            false,
        )
        .await;
        return;
    }
    match step {
        None | Some(Step::Hang) => {
            // Keep the connection open, say nothing.
            tokio::time::sleep(Duration::from_secs(600)).await;
        }
        Some(Step::Reply {
            status,
            headers,
            pieces,
        }) => {
            let stream = headers.iter().any(|(_, v)| v == "text/event-stream");
            write_reply(&mut sock, status, &headers, &pieces, pause, stream).await;
        }
    }
}

async fn write_reply(
    sock: &mut TcpStream,
    status: u16,
    headers: &[(String, String)],
    pieces: &[Vec<u8>],
    pause: Duration,
    stream: bool,
) {
    let mut head = format!("HTTP/1.1 {status} X\r\nconnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !stream {
        let len: usize = pieces.iter().map(Vec::len).sum();
        head.push_str(&format!("content-length: {len}\r\n"));
    }
    head.push_str("\r\n");
    if sock.write_all(head.as_bytes()).await.is_err() {
        return;
    }
    let _ = sock.flush().await;
    for p in pieces {
        if sock.write_all(p).await.is_err() {
            return;
        }
        let _ = sock.flush().await;
        tokio::time::sleep(pause).await;
    }
    let _ = sock.shutdown().await;
}
