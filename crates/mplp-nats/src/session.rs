//! The driver's side (an event sink that publishes, an agent that asks a
//! remote participant) and the participant's side ([`serve`]).

use std::future::Future;
use std::io;
use std::time::Duration;

use futures_util::StreamExt;

use mplp_collab::Participant;
use mplp_collab::runtime::async_session::AsyncAgent;
use mplp_collab::runtime::{SessionError, TurnContext, TurnOutcome};
use mplp_core::JsonObject;
use mplp_events::log::async_io::AsyncEventSink;
use mplp_events::{MapEvent, SessionId};

use crate::Subjects;
use crate::transport::{Publish, Transport, TransportError};
use crate::wire::{AnswerRequest, ReplyStatus, ResourceView, TurnReply, TurnRequest};

/// Publishes each MAP event of a session on its subject
/// (`<prefix>.<session>.events.<event_type>`), durably, with the event id as
/// the message id (so a retried publish is stored once).
///
/// By default each event is acknowledged before `emit` returns. With
/// [`BrokerSink::with_batch`], up to `n` events are held and published
/// together (their acknowledgements awaited together), and the session's
/// `MAPSessionCompleted` always publishes what is held: fewer round trips,
/// but an event is durable only once its batch is, so a driver that crashes
/// loses the events it held (never the order, and never a duplicate).
#[derive(Clone, Debug)]
pub struct BrokerSink<T> {
    transport: T,
    subjects: Subjects,
    published: u64,
    batch: usize,
    held: Vec<Publish>,
}

impl<T: Transport> BrokerSink<T> {
    /// Publishes through `transport` under `subjects`.
    pub fn new(transport: T, subjects: Subjects) -> Self {
        BrokerSink {
            transport,
            subjects,
            published: 0,
            batch: 1,
            held: Vec::new(),
        }
    }

    /// Holds up to `n` events and publishes them together (`n` of 0 or 1:
    /// each event alone, the default).
    #[must_use]
    pub fn with_batch(mut self, n: usize) -> Self {
        self.batch = n.max(1);
        self
    }

    /// Events published (and acknowledged) so far.
    pub fn published(&self) -> u64 {
        self.published
    }

    /// Publishes the events held, awaiting their acknowledgements.
    pub async fn flush(&mut self) -> io::Result<()> {
        if self.held.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.held);
        let n = batch.len() as u64;
        self.transport
            .publish_batch(batch)
            .await
            .map_err(io::Error::other)?;
        self.published += n;
        Ok(())
    }
}

impl<T: Transport> AsyncEventSink<MapEvent> for BrokerSink<T> {
    async fn emit(&mut self, event: MapEvent) -> io::Result<()> {
        let subject = self
            .subjects
            .event(&event.session_id, event.event_type().as_str());
        let payload = serde_json::to_vec(&event)?;
        let last = matches!(event.payload, mplp_events::MapPayload::SessionCompleted(_));
        if self.batch == 1 {
            self.transport
                .publish(&subject, &event.event_id.to_string(), payload)
                .await
                .map_err(io::Error::other)?;
            self.published += 1;
            return Ok(());
        }
        self.held.push(Publish {
            subject,
            message_id: event.event_id.to_string(),
            payload,
        });
        if last || self.held.len() >= self.batch {
            self.flush().await?;
        }
        Ok(())
    }
}

/// An agent standing for participants in other processes: each turn is
/// offered to participant `i` at `<prefix>.<session>.turn.<i>` with the
/// shared resources; the reply's writes are applied here, under the turn
/// token, with compare-and-set (so exclusive write and conflict resolution
/// hold across processes: only the driver writes). A participant that does
/// not answer within the deadline, or is gone, fails its turn (recorded as
/// `failed` in the log) and the session goes on.
#[derive(Clone, Debug)]
pub struct RemoteAgent<T> {
    transport: T,
    subjects: Subjects,
    session: SessionId,
    timeout: Duration,
}

impl<T: Transport> RemoteAgent<T> {
    /// Asks the participants of `session` through `transport`, waiting at
    /// most `timeout` for each answer.
    pub fn new(transport: T, subjects: Subjects, session: SessionId, timeout: Duration) -> Self {
        RemoteAgent {
            transport,
            subjects,
            session,
            timeout,
        }
    }

    fn unavailable(participant: &str, e: &TransportError) -> SessionError {
        SessionError::Agent {
            participant: participant.to_owned(),
            message: format!("participant unavailable: {e}"),
        }
    }
}

impl<T: Transport> AsyncAgent for RemoteAgent<T> {
    async fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
        let pid = turn.participant().participant_id.to_string();
        let request = TurnRequest {
            session_id: self.session.to_string(),
            holder: turn.holder(),
            participant_id: pid.clone(),
            turn_number: turn.turn_number(),
            task: turn.task().map(str::to_owned),
            resources: turn
                .resources()
                .iter()
                .map(|(name, value, version)| ResourceView {
                    name: name.to_owned(),
                    value: value.clone(),
                    version,
                })
                .collect(),
        };
        let payload = serde_json::to_vec(&request)
            .map_err(|e| Self::unavailable(&pid, &TransportError::Broker(e.to_string())))?;
        let subject = self.subjects.turn(&self.session, turn.holder());
        let bytes = self
            .transport
            .request(&subject, payload, self.timeout)
            .await
            .map_err(|e| Self::unavailable(&pid, &e))?;
        let reply: TurnReply = serde_json::from_slice(&bytes).map_err(|e| SessionError::Agent {
            participant: pid.clone(),
            message: format!("unreadable reply: {e}"),
        })?;
        for w in reply.writes {
            turn.write_at(&w.resource, w.expected_version, w.value)?;
        }
        let mut outcome = match reply.status {
            ReplyStatus::Completed => TurnOutcome::completed(),
            ReplyStatus::Failed => TurnOutcome::failed(reply.summary.clone().unwrap_or_default()),
        };
        if let Some(s) = reply.summary {
            outcome = outcome.with_summary(s);
        }
        if let Some(r) = reply.result {
            outcome = outcome.with_result(r);
        }
        Ok(outcome)
    }

    async fn answer(&mut self, index: usize, me: &Participant, message: &JsonObject) -> JsonObject {
        let request = AnswerRequest {
            session_id: self.session.to_string(),
            index,
            participant_id: me.participant_id.to_string(),
            message: message.clone(),
        };
        let subject = self.subjects.answer(&self.session, index);
        let reply = match serde_json::to_vec(&request) {
            Ok(payload) => {
                self.transport
                    .request(&subject, payload, self.timeout)
                    .await
            }
            Err(e) => Err(TransportError::Broker(e.to_string())),
        };
        match reply.map(|b| serde_json::from_slice::<JsonObject>(&b)) {
            Ok(Ok(answer)) => answer,
            // No answer is recorded as such: the round still completes.
            Ok(Err(e)) => error_answer(&format!("unreadable answer: {e}")),
            Err(e) => error_answer(&e.to_string()),
        }
    }
}

fn error_answer(reason: &str) -> JsonObject {
    let mut o = JsonObject::new();
    o.insert("error", reason);
    o
}

/// What a participant in its own process does with the requests of a session.
pub trait Participate {
    /// Takes a turn: reads `request.resources`, works, and replies with writes.
    fn take_turn(&mut self, request: TurnRequest) -> impl Future<Output = TurnReply>;

    /// Called once the participant listens (its subscriptions reached the
    /// server): from now on it is offered its turns.
    fn ready(&mut self) {}

    /// Answers a broadcast (default: an empty object).
    fn answer(&mut self, request: AnswerRequest) -> impl Future<Output = JsonObject> {
        let _ = request;
        std::future::ready(JsonObject::new())
    }
}

/// Serves participant `index` of `session` on a NATS connection: answers
/// its turn and broadcast requests with `me` until the session's
/// `MAPSessionCompleted` is published. Returns the number of turns taken.
pub async fn serve<P: Participate>(
    client: &async_nats::Client,
    subjects: &Subjects,
    session: &SessionId,
    index: usize,
    me: &mut P,
) -> Result<u64, TransportError> {
    let err = |e: &dyn std::fmt::Display| TransportError::Broker(e.to_string());
    let mut turns = client
        .subscribe(subjects.turn(session, index))
        .await
        .map_err(|e| err(&e))?;
    let mut answers = client
        .subscribe(subjects.answer(session, index))
        .await
        .map_err(|e| err(&e))?;
    let mut end = client
        .subscribe(subjects.event(session, "MAPSessionCompleted"))
        .await
        .map_err(|e| err(&e))?;
    client.flush().await.map_err(|e| err(&e))?;
    me.ready();
    let mut taken = 0;
    loop {
        tokio::select! {
            Some(msg) = turns.next() => {
                let reply = match serde_json::from_slice::<TurnRequest>(&msg.payload) {
                    Ok(req) => me.take_turn(req).await,
                    Err(e) => TurnReply::failed(format!("unreadable request: {e}")),
                };
                taken += 1;
                if let (Some(to), Ok(bytes)) = (msg.reply, serde_json::to_vec(&reply)) {
                    client.publish(to, bytes.into()).await.map_err(|e| err(&e))?;
                }
            }
            Some(msg) = answers.next() => {
                let answer = match serde_json::from_slice::<AnswerRequest>(&msg.payload) {
                    Ok(req) => me.answer(req).await,
                    Err(e) => error_answer(&format!("unreadable request: {e}")),
                };
                if let (Some(to), Ok(bytes)) = (msg.reply, serde_json::to_vec(&answer)) {
                    client.publish(to, bytes.into()).await.map_err(|e| err(&e))?;
                }
            }
            _ = end.next() => break,
        }
    }
    client.flush().await.map_err(|e| err(&e))?;
    Ok(taken)
}

/// Reads the MAP log of `session` back from the broker, as NDJSON in stored
/// order (what `mplp validate --kind map-log` reads).
pub async fn read_session_log<T: Transport>(
    transport: &T,
    subjects: &Subjects,
    session: &SessionId,
) -> Result<Vec<u8>, TransportError> {
    let mut out = Vec::new();
    for payload in transport
        .read_stored(&subjects.session_events(session))
        .await?
    {
        out.extend_from_slice(&payload);
        out.push(b'\n');
    }
    Ok(out)
}
