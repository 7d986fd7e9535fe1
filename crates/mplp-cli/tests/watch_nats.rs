//! `mplp watch nats://HOST:PORT SUBJECT` against a REAL `nats-server`
//! (JetStream on, 127.0.0.1, a free port), with events published while the
//! stream is watched. Without `nats-server` on the PATH the test is skipped
//! with a loud message, and fails when `CI` is set.
#![cfg(feature = "nats")]
// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::repo;

#[path = "../../../tests/support/nats_server.rs"]
mod nats_server;

use nats_server::Server;

/// Publishes `lines` to JetStream, each on the subject of its session and
/// event type, waiting for each acknowledgement.
async fn publish(js: &async_nats::jetstream::Context, lines: &[String]) {
    for line in lines {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
        let session = v["session_id"].as_str().unwrap_or("none");
        let ty = v["event_type"].as_str().unwrap_or("unknown");
        js.publish(format!("mplp.{session}.events.{ty}"), line.clone().into())
            .await
            .unwrap()
            .await
            .unwrap();
    }
}

/// The session of `map-log-round-robin.ndjson`.
const SESSION: &str = "35e68fcd-928b-41d2-b8ee-b6a4232ea2a3";

#[test]
fn a_jetstream_subject_is_validated_from_its_first_message_as_events_arrive() {
    let Some(server) = Server::start() else {
        return;
    };
    let text =
        std::fs::read_to_string(repo().join("schemas/examples/valid/map-log-round-robin.ndjson"))
            .unwrap();
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let js = runtime.block_on(async {
        let client = async_nats::connect(server.url()).await.unwrap();
        let js = async_nats::jetstream::new(client);
        js.get_or_create_stream(async_nats::jetstream::stream::Config {
            name: "MPLP_WATCH".into(),
            subjects: vec!["mplp.*.events.>".into()],
            ..Default::default()
        })
        .await
        .unwrap();
        // Stored before the watch starts: read from the first message on.
        publish(&js, &lines[..2]).await;
        // Another session in the same stream: not on the watched subject.
        let other = lines[0]
            .replace(SESSION, "0b5f4c0e-3d6e-4a53-9d55-3c1b1a2f9e10")
            .replace(
                "ca7350a9-f7ff-4c29-b07d-de720544a6a0",
                "9a1f3c52-7d0e-4b8e-a6c1-2e4f5d6a7b8c",
            );
        assert_ne!(other, lines[0]);
        publish(&js, &[other]).await;
        js
    });
    let subject = format!("mplp.{SESSION}.events.>");

    let mut child = Command::new(env!("CARGO_BIN_EXE_mplp"))
        .args(["watch", "--idle-timeout", "3", &server.url(), &subject])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (send, output) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    // A bad event while the session runs: reported before the log ends.
    runtime.block_on(publish(
        &js,
        &[format!(
            r#"{{"event_type": "MAPTurnDispatched", "session_id": "{SESSION}"}}"#
        )],
    ));
    let mut seen = Vec::new();
    loop {
        let line = output
            .recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|e| panic!("no violation printed ({e}); saw {seen:?}"));
        if line.contains("line 3: /event_id: [required]") {
            break;
        }
        seen.push(line);
    }
    assert!(seen.iter().all(|l| !l.contains("INVALID")), "{seen:?}");
    // The rest of the session, then 3 s without events end the log.
    runtime.block_on(publish(&js, &lines[2..]));
    let rest: Vec<String> = output.iter().collect();
    assert_eq!(child.wait().unwrap().code(), Some(1), "{rest:?}");
    let verdict = format!("{} {subject}: INVALID (map-log)", server.url());
    assert_eq!(rest.last(), Some(&verdict), "{rest:?}");
    // Only the bad line is wrong: the session itself completed (and the
    // other session, never completed, was not read).
    assert!(
        rest.iter()
            .all(|l| !l.contains("map_session_completed_last")),
        "{rest:?}"
    );
}
