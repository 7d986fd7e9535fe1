//! The broker behind a trait: what a session needs from it (durable,
//! de-duplicated publishing; request/reply with a deadline; reading a
//! session's events back), and the NATS JetStream implementation.

use std::future::Future;
use std::time::Duration;

use async_nats::jetstream::{self, message::PublishMessage, stream};
use futures_util::StreamExt;

/// What can go wrong talking to the broker.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// Nobody answered within the deadline.
    #[error("no answer within {0:?}")]
    TimedOut(Duration),
    /// Nobody listens on the subject (the participant is gone).
    #[error("nobody listens on `{0}`")]
    NoResponders(String),
    /// The broker refused or failed (after retries, for publishing).
    #[error("broker error: {0}")]
    Broker(String),
}

/// A broker that carries MPLP sessions. `mplp-nats` implements it for NATS
/// JetStream ([`NatsTransport`]); a Kafka binding would map `publish` to a
/// producer with idempotence on (the message id as the record key), and
/// `request` to a request topic plus a reply topic correlated by id (see
/// `docs/architecture.md`, "Scaling out").
pub trait Transport {
    /// Stores `payload` durably on `subject`. `message_id` makes it
    /// idempotent: publishing the same id again (a retry after a broker
    /// restart) does not store a second copy.
    fn publish(
        &self,
        subject: &str,
        message_id: &str,
        payload: Vec<u8>,
    ) -> impl Future<Output = Result<(), TransportError>>;

    /// Stores several messages, as [`Transport::publish`] does each: a
    /// broker that can have many publishes in flight sends them all, then
    /// waits for their acknowledgements together. Returns when every one is
    /// stored (or with the first error).
    fn publish_batch(
        &self,
        batch: Vec<Publish>,
    ) -> impl Future<Output = Result<(), TransportError>> {
        async move {
            for p in batch {
                self.publish(&p.subject, &p.message_id, p.payload).await?;
            }
            Ok(())
        }
    }

    /// Sends a request and waits at most `timeout` for the reply.
    fn request(
        &self,
        subject: &str,
        payload: Vec<u8>,
        timeout: Duration,
    ) -> impl Future<Output = Result<Vec<u8>, TransportError>>;

    /// Every stored message on subjects matching `filter`, in stored order.
    fn read_stored(
        &self,
        filter: &str,
    ) -> impl Future<Output = Result<Vec<Vec<u8>>, TransportError>>;
}

/// One message of [`Transport::publish_batch`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Publish {
    /// Where it goes.
    pub subject: String,
    /// Its de-duplication id.
    pub message_id: String,
    /// Its bytes.
    pub payload: Vec<u8>,
}

/// NATS with JetStream: events are published to a stream (created if
/// missing) with `Nats-Msg-Id` set, and each publish waits for the
/// stream's acknowledgement, retrying (same id) while the server is away.
#[derive(Clone, Debug)]
pub struct NatsTransport {
    client: async_nats::Client,
    js: jetstream::Context,
    stream: String,
    retries: u32,
}

/// How long the stream remembers message ids for de-duplication.
pub const DUPLICATE_WINDOW: Duration = Duration::from_secs(120);

fn broker(e: impl std::fmt::Display) -> TransportError {
    TransportError::Broker(e.to_string())
}

impl NatsTransport {
    /// Uses `client`, storing events in the JetStream stream `stream`
    /// (created with `subjects` if it does not exist; file storage, a
    /// de-duplication window of [`DUPLICATE_WINDOW`]).
    pub async fn new(
        client: async_nats::Client,
        stream: &str,
        subjects: &crate::Subjects,
    ) -> Result<Self, TransportError> {
        let js = jetstream::new(client.clone());
        js.get_or_create_stream(stream::Config {
            name: stream.to_owned(),
            subjects: vec![subjects.stream_subject()],
            duplicate_window: DUPLICATE_WINDOW,
            storage: stream::StorageType::File,
            ..Default::default()
        })
        .await
        .map_err(broker)?;
        Ok(NatsTransport {
            client,
            js,
            stream: stream.to_owned(),
            retries: 20,
        })
    }

    /// The client.
    pub fn client(&self) -> &async_nats::Client {
        &self.client
    }

    async fn publish_once(
        &self,
        subject: &str,
        message_id: &str,
        payload: &[u8],
    ) -> Result<(), TransportError> {
        let msg = PublishMessage::build()
            .payload(payload.to_vec().into())
            .message_id(message_id);
        let ack = self
            .js
            .send_publish(subject.to_owned(), msg)
            .await
            .map_err(broker)?;
        ack.await.map_err(broker)?;
        Ok(())
    }
}

/// How long to wait before the `attempt`-th retry of a publication (1, 2,
/// ...): 100 ms more each time, at most a second.
fn retry_delay(attempt: u32) -> Duration {
    Duration::from_millis(100 * u64::from(attempt.min(10)))
}

impl Transport for NatsTransport {
    async fn publish(
        &self,
        subject: &str,
        message_id: &str,
        payload: Vec<u8>,
    ) -> Result<(), TransportError> {
        let mut result = self.publish_once(subject, message_id, &payload).await;
        for attempt in 1..=self.retries {
            if result.is_ok() {
                break;
            }
            tokio::time::sleep(retry_delay(attempt)).await;
            result = self.publish_once(subject, message_id, &payload).await;
        }
        result
    }

    /// Sends every message (each with its `Nats-Msg-Id`), then awaits the
    /// stream's acknowledgements; a message whose send or acknowledgement
    /// failed is published again alone, with retries (the stream keeps one
    /// copy per id).
    async fn publish_batch(&self, batch: Vec<Publish>) -> Result<(), TransportError> {
        let mut acks = Vec::with_capacity(batch.len());
        for p in &batch {
            let msg = PublishMessage::build()
                .payload(p.payload.clone().into())
                .message_id(&p.message_id);
            acks.push(self.js.send_publish(p.subject.clone(), msg).await.ok());
        }
        for (p, ack) in batch.into_iter().zip(acks) {
            let stored = match ack {
                Some(ack) => ack.await.is_ok(),
                None => false,
            };
            if !stored {
                self.publish(&p.subject, &p.message_id, p.payload).await?;
            }
        }
        Ok(())
    }

    async fn request(
        &self,
        subject: &str,
        payload: Vec<u8>,
        timeout: Duration,
    ) -> Result<Vec<u8>, TransportError> {
        let req = async_nats::Request::new()
            .payload(payload.into())
            .timeout(Some(timeout));
        match self.client.send_request(subject.to_owned(), req).await {
            Ok(msg) => Ok(msg.payload.to_vec()),
            Err(e) => Err(match e.kind() {
                async_nats::RequestErrorKind::TimedOut => TransportError::TimedOut(timeout),
                async_nats::RequestErrorKind::NoResponders => {
                    TransportError::NoResponders(subject.to_owned())
                }
                async_nats::RequestErrorKind::Other => broker(e),
            }),
        }
    }

    async fn read_stored(&self, filter: &str) -> Result<Vec<Vec<u8>>, TransportError> {
        let stream = self.js.get_stream(&self.stream).await.map_err(broker)?;
        let consumer = stream
            // The default delivery policy is `All`: from the first message.
            .create_consumer(jetstream::consumer::pull::OrderedConfig {
                filter_subject: filter.to_owned(),
                ..Default::default()
            })
            .await
            .map_err(broker)?;
        let mut out = Vec::new();
        if consumer.cached_info().num_pending == 0 {
            return Ok(out);
        }
        let mut messages = consumer.messages().await.map_err(broker)?;
        while let Some(msg) = messages.next().await {
            let msg = msg.map_err(broker)?;
            let pending = msg.info().map_err(broker)?.pending;
            out.push(msg.payload.to_vec());
            if pending == 0 {
                break;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_wait_100_ms_more_each_time_up_to_a_second() {
        let waits: Vec<u64> = [1, 2, 3, 9, 10, 11, 20]
            .iter()
            .map(|a| retry_delay(*a).as_millis() as u64)
            .collect();
        assert_eq!(waits, [100, 200, 300, 900, 1000, 1000, 1000]);
    }
}
