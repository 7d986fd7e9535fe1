//! MPLP sessions across processes and machines over **NATS JetStream**.
//!
//! A session is driven by one process (the driver: an
//! [`AsyncMapSession`](mplp_collab::runtime::async_session::AsyncMapSession));
//! its participants run anywhere a NATS server is reachable.
//!
//! - [`BrokerSink`]: the session's MAP events go to subjects derived from
//!   the session and the event type ([`Subjects`]), stored in a JetStream
//!   stream, each published with its `event_id` as the message id
//!   (`Nats-Msg-Id`), so a publish retried across a server restart is
//!   stored once.
//! - [`RemoteAgent`]: turns and broadcasts go to the participants as
//!   request/reply ([`TurnRequest`] → [`TurnReply`]); the replies' writes
//!   are applied by the driver under the turn token, so exclusive write and
//!   conflict resolution hold across processes. A participant that crashes
//!   or does not answer in time fails its turn (recorded `failed`) and the
//!   session goes on.
//! - [`serve`]: the participant's loop ([`Participate`]); the
//!   `mplp-nats-participant` binary is a small participant for tests and
//!   demonstrations.
//! - [`NatsStore`]: the SA runtime's [`Store`](mplp_runtime::store::Store)
//!   in JetStream (documents in a key-value bucket whose revision is the
//!   compare-and-set, events in a de-duplicated stream), shared by
//!   processes on several machines.
//! - [`read_session_log`]: the stored log, as NDJSON, which validates as a
//!   `map-log`.
//! - The broker is behind the [`Transport`] trait; [`NatsTransport`] is the
//!   NATS JetStream implementation. How a Kafka binding would map is in
//!   `docs/architecture.md` ("Scaling out").
//!
//! ```no_run
//! use std::time::Duration;
//! use mplp_collab::runtime::async_session::AsyncMapSession;
//! use mplp_events::SessionId;
//! use mplp_nats::{BrokerSink, NatsTransport, RemoteAgent, Subjects, read_session_log};
//! # async fn run(collab: mplp_collab::Collab) -> Result<(), Box<dyn std::error::Error>> {
//! let client = async_nats::connect("nats://127.0.0.1:4222").await?;
//! let subjects = Subjects::default();
//! let transport = NatsTransport::new(client, "MPLP", &subjects).await?;
//! let session = SessionId::from(collab.collab_id);
//! let mut remote = RemoteAgent::new(transport.clone(), subjects.clone(), session.clone(), Duration::from_secs(30));
//! let mut driver = AsyncMapSession::new(collab, BrokerSink::new(transport.clone(), subjects.clone()))?;
//! driver.start().await?;
//! for _ in 0..6 {
//!     driver.turn(&mut remote).await?;
//! }
//! driver.complete().await?;
//! let log = read_session_log(&transport, &subjects, &session).await?;
//! assert!(mplp_events::log::validate_map_log(&log[..]).is_empty());
//! # Ok(()) }
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

mod session;
pub mod store;
mod subjects;
pub mod transport;
pub mod wire;

pub use session::{BrokerSink, Participate, RemoteAgent, read_session_log, serve};
pub use store::NatsStore;
pub use subjects::Subjects;
pub use transport::{NatsTransport, Publish, Transport, TransportError};
pub use wire::{AnswerRequest, ReplyStatus, ResourceView, TurnReply, TurnRequest, WriteRequest};

/// The NATS client crate, re-exported so that users connect with the same version.
pub use async_nats;
