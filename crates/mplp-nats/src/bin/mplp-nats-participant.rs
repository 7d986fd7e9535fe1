//! A participant of an MPLP session in its own process, over NATS: takes
//! its turns (appending a line to the shared resource `doc`) and answers
//! broadcasts with a vote, until the session completes.
//!
//! ```text
//! mplp-nats-participant --url nats://127.0.0.1:4222 --session <collab-id> --index <i>
//!     [--prefix mplp] [--stale] [--crash-on-turn N]
//! ```
//!
//! `--stale` writes based on version 0 always (so every write after the
//! first is a conflict for the session to resolve); `--crash-on-turn N`
//! exits without answering when offered its N-th turn (a crash mid-turn).
//! Prints `ready` once subscribed, and the number of turns taken at the end.

use std::process::ExitCode;

use mplp_core::JsonObject;
use mplp_events::SessionId;
use mplp_nats::{
    AnswerRequest, Participate, Subjects, TurnReply, TurnRequest, WriteRequest, serve,
};
use serde_json::json;

struct Args {
    url: String,
    prefix: String,
    session: SessionId,
    index: usize,
    stale: bool,
    crash_on_turn: Option<u64>,
}

fn parse_args() -> Result<Args, String> {
    let mut url = None;
    let mut prefix = "mplp".to_owned();
    let mut session = None;
    let mut index = None;
    let mut stale = false;
    let mut crash_on_turn = None;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--url" => url = Some(value()?),
            "--prefix" => prefix = value()?,
            "--session" => {
                session = Some(value()?.parse().map_err(|e| format!("--session: {e}"))?);
            }
            "--index" => index = Some(value()?.parse().map_err(|e| format!("--index: {e}"))?),
            "--stale" => stale = true,
            "--crash-on-turn" => {
                crash_on_turn = Some(
                    value()?
                        .parse()
                        .map_err(|e| format!("--crash-on-turn: {e}"))?,
                );
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(Args {
        url: url.ok_or("--url is required")?,
        prefix,
        session: session.ok_or("--session is required")?,
        index: index.ok_or("--index is required")?,
        stale,
        crash_on_turn,
    })
}

struct Worker {
    index: usize,
    stale: bool,
    crash_on_turn: Option<u64>,
    turns: u64,
}

impl Participate for Worker {
    async fn take_turn(&mut self, request: TurnRequest) -> TurnReply {
        self.turns += 1;
        if self.crash_on_turn == Some(self.turns) {
            // A crash mid-turn: no reply, the process is gone.
            std::process::exit(3);
        }
        let current = request.resources.iter().find(|r| r.name == "doc");
        let mut lines = current
            .and_then(|r| r.value.as_array().cloned())
            .unwrap_or_default();
        lines.push(json!(format!(
            "turn {} by {}",
            request.turn_number, request.participant_id
        )));
        let expected = if self.stale {
            0
        } else {
            current.map_or(0, |r| r.version)
        };
        let mut result = JsonObject::new();
        result.insert("pid", u64::from(std::process::id()));
        result.insert("index", self.index as u64);
        TurnReply::completed(vec![WriteRequest {
            resource: "doc".to_owned(),
            expected_version: expected,
            value: json!(lines),
        }])
        .with_result(result)
    }

    fn ready(&mut self) {
        println!("ready");
    }

    async fn answer(&mut self, request: AnswerRequest) -> JsonObject {
        let mut a = JsonObject::new();
        a.insert("vote", "go");
        a.insert("from", request.participant_id);
        a
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("mplp-nats-participant: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(subjects) = Subjects::new(&args.prefix) else {
        eprintln!("mplp-nats-participant: bad --prefix `{}`", args.prefix);
        return ExitCode::from(2);
    };
    let client = match async_nats::connect(&args.url).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("mplp-nats-participant: cannot connect to {}: {e}", args.url);
            return ExitCode::FAILURE;
        }
    };
    let mut me = Worker {
        index: args.index,
        stale: args.stale,
        crash_on_turn: args.crash_on_turn,
        turns: 0,
    };
    match serve(&client, &subjects, &args.session, args.index, &mut me).await {
        Ok(n) => {
            println!("took {}", mplp_core::text::count(n, "turn"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mplp-nats-participant: {e}");
            ExitCode::FAILURE
        }
    }
}
