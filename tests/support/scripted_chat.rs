//! A scripted OpenAI-compatible model for the chat examples: a one-thread
//! HTTP/1.1 server on 127.0.0.1 (a free port) that answers every request
//! with `reply(request body)` as a chat completion. Nothing leaves the
//! machine. Included with
//! `#[path = "../../../tests/support/scripted_chat.rs"] mod scripted_chat;`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use serde_json::Value;

/// Starts the server on its own thread; its base URL (`http://127.0.0.1:PORT/v1`).
pub(crate) fn start(reply: fn(&Value) -> Value) -> std::io::Result<String> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let base = format!("http://{}/v1", listener.local_addr()?);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut length = 0usize;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                if let Some((k, v)) = line.split_once(':') {
                    if k.eq_ignore_ascii_case("content-length") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                }
                line.clear();
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                continue;
            }
            let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let reply = reply(&request).to_string();
            let mut out = &stream;
            let _ = write!(
                out,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    Ok(base)
}
