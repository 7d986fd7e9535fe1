//! A [`Store`] in NATS JetStream: documents and checkpoints in a key-value
//! bucket whose revision is the compare-and-set, events in a stream
//! de-duplicated by event id ([`NatsStore`]).

use std::time::{Duration, Instant};

use async_nats::jetstream::{self, kv, stream};
use mplp_runtime::store::{Expect, Store, StoreError, Versioned};

use crate::transport::DUPLICATE_WINDOW;

/// A [`Store`] shared by processes on any machine that reaches the NATS
/// server.
///
/// - Documents are the keys `doc.<kind>.<id>` of the key-value bucket
///   `MPLP_SA_<name>`, checkpoints the keys `checkpoint.<name>`. The
///   bucket's revision of a key is the document's revision:
///   [`Expect::Absent`] is a `create`, [`Expect::Revision`] an `update`
///   at that revision, both refused by the server when another writer got
///   there first. Two processes that race to start the same step (each
///   writes its claim with `Expect::Absent`) get exactly one winner; the
///   other is told [`StoreError::Conflict`].
/// - Events go to the stream `MPLP_SA_<name>_EVENTS` (subject
///   `mplp.sa.<name>.events`), each with its `event_id` as the message id,
///   so an append retried across a server restart is stored once.
/// - Each operation blocks on a runtime of the store's own (the SA session
///   is synchronous); a lost connection is waited for and the operation
///   retried for up to [`NatsStore::with_patience`] (30 s by default).
///   A compare-and-set whose reply was lost is recognised on retry (the
///   stored value is ours) and not reported as a conflict.
///
/// Do not use it from inside an async runtime's worker thread (it blocks).
pub struct NatsStore {
    rt: tokio::runtime::Runtime,
    js: jetstream::Context,
    kv: kv::Store,
    stream: stream::Stream,
    subject: String,
    events: u64,
    patience: Duration,
    round_trips: u64,
}

impl std::fmt::Debug for NatsStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NatsStore")
            .field("subject", &self.subject)
            .field("events", &self.events)
            .finish_non_exhaustive()
    }
}

fn broker(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Io {
        file: what.to_owned(),
        source: std::io::Error::other(e.to_string()),
    }
}

fn key_ok(part: &str) -> bool {
    !part.is_empty()
        && part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn doc_key(kind: &str, id: &str) -> Result<String, StoreError> {
    if key_ok(kind) && key_ok(id) {
        Ok(format!("doc.{kind}.{id}"))
    } else {
        Err(StoreError::Unsupported(format!(
            "{kind}/{id}: kinds and ids of a NATS store are letters, digits, `-` and `_`"
        )))
    }
}

/// The `event_id` of an event's JSON text, the message id of its append.
fn event_id(event: &[u8]) -> Result<String, StoreError> {
    #[derive(serde::Deserialize)]
    struct Id {
        event_id: String,
    }
    serde_json::from_slice::<Id>(event)
        .map(|i| i.event_id)
        .map_err(|e| StoreError::Unsupported(format!("an event without an `event_id` string: {e}")))
}

impl NatsStore {
    /// Connects to `url` and opens (creating them if needed) the bucket and
    /// the stream of the store `name` (letters, digits, `-`, `_`).
    ///
    /// # Errors
    /// When the server cannot be reached or refuses to create them.
    pub fn connect(url: &str, name: &str) -> Result<Self, StoreError> {
        if !key_ok(name) {
            return Err(StoreError::Unsupported(format!(
                "`{name}`: a store name is letters, digits, `-` and `_`"
            )));
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| broker("tokio runtime", e))?;
        let bucket = format!("MPLP_SA_{name}");
        let stream_name = format!("MPLP_SA_{name}_EVENTS");
        let subject = format!("mplp.sa.{name}.events");
        let (js, kv, mut stream) = rt.block_on(async {
            let client = async_nats::ConnectOptions::new()
                .retry_on_initial_connect()
                .connect(url)
                .await
                .map_err(|e| broker(url, e))?;
            let js = jetstream::new(client);
            // The bucket's stream, as `create_key_value` would make it
            // (which first asks for the account's limits, a request the
            // nats-server 2.9 of Debian answers in a form async-nats 0.46
            // cannot read).
            js.get_or_create_stream(stream::Config {
                name: format!("KV_{bucket}"),
                subjects: vec![format!("$KV.{bucket}.>")],
                max_messages_per_subject: 1,
                storage: stream::StorageType::File,
                allow_rollup: true,
                deny_delete: true,
                allow_direct: true,
                discard: stream::DiscardPolicy::New,
                num_replicas: 1,
                ..Default::default()
            })
            .await
            .map_err(|e| broker(&bucket, e))?;
            let kv = js
                .get_key_value(&bucket)
                .await
                .map_err(|e| broker(&bucket, e))?;
            let stream = js
                .get_or_create_stream(stream::Config {
                    name: stream_name.clone(),
                    subjects: vec![subject.clone()],
                    duplicate_window: DUPLICATE_WINDOW,
                    storage: stream::StorageType::File,
                    ..Default::default()
                })
                .await
                .map_err(|e| broker(&stream_name, e))?;
            Ok::<_, StoreError>((js, kv, stream))
        })?;
        let events = rt.block_on(async {
            stream
                .info()
                .await
                .map(|i| i.state.messages)
                .map_err(|e| broker(&stream_name, e))
        })?;
        Ok(NatsStore {
            rt,
            js,
            kv,
            stream,
            subject,
            events,
            patience: Duration::from_secs(30),
            round_trips: 0,
        })
    }

    /// How long an operation waits for the server (across a restart)
    /// before it fails.
    #[must_use]
    pub fn with_patience(mut self, patience: Duration) -> Self {
        self.patience = patience;
        self
    }

    /// Round trips to the server so far (retries included).
    pub fn round_trips(&self) -> u64 {
        self.round_trips
    }

    fn get_key(&mut self, key: &str) -> Result<Option<kv::Entry>, StoreError> {
        let deadline = Instant::now() + self.patience;
        loop {
            self.round_trips += 1;
            let got = self.rt.block_on(self.kv.entry(key));
            match got {
                Ok(e) => {
                    return Ok(e.filter(|e| e.operation == kv::Operation::Put));
                }
                Err(e) if Instant::now() < deadline => {
                    let _ = e;
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) => return Err(broker(key, e)),
            }
        }
    }

    fn write_key(
        &mut self,
        kind: &str,
        id: &str,
        key: &str,
        bytes: &[u8],
        expect: Expect,
    ) -> Result<u64, StoreError> {
        let deadline = Instant::now() + self.patience;
        let mut retried = false;
        loop {
            self.round_trips += 1;
            let value: Vec<u8> = bytes.to_vec();
            let result = self.rt.block_on(async {
                match expect {
                    Expect::Absent => self.kv.create(key, value.into()).await.map_err(|e| {
                        let conflict = e.kind() == kv::CreateErrorKind::AlreadyExists;
                        (conflict, e.to_string())
                    }),
                    Expect::Revision(r) => {
                        self.kv.update(key, value.into(), r).await.map_err(|e| {
                            let conflict = e.kind() == kv::UpdateErrorKind::WrongLastRevision;
                            (conflict, e.to_string())
                        })
                    }
                    Expect::Any => self
                        .kv
                        .put(key, value.into())
                        .await
                        .map_err(|e| (false, e.to_string())),
                }
            });
            match result {
                Ok(rev) => return Ok(rev),
                Err((true, _)) => {
                    let current = self.get_key(key)?;
                    // Our own write, whose reply was lost before a retry.
                    if retried {
                        if let Some(e) = &current {
                            if e.value.as_ref() == bytes {
                                return Ok(e.revision);
                            }
                        }
                    }
                    return Err(StoreError::Conflict {
                        kind: kind.to_owned(),
                        id: id.to_owned(),
                        expected: match expect {
                            Expect::Absent => "no document".to_owned(),
                            Expect::Revision(r) => format!("revision {r}"),
                            Expect::Any => "any revision".to_owned(),
                        },
                        found: current.map_or_else(
                            || "no document".to_owned(),
                            |e| format!("revision {}", e.revision),
                        ),
                    });
                }
                Err((false, e)) if Instant::now() < deadline => {
                    let _ = e;
                    retried = true;
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err((false, e)) => return Err(broker(key, e)),
            }
        }
    }
}

impl Store for NatsStore {
    fn get(&self, kind: &str, id: &str) -> Result<Option<Versioned>, StoreError> {
        let key = doc_key(kind, id)?;
        let deadline = Instant::now() + self.patience;
        loop {
            match self.rt.block_on(self.kv.entry(key.as_str())) {
                Ok(e) => {
                    return Ok(e.filter(|e| e.operation == kv::Operation::Put).map(|e| {
                        Versioned {
                            revision: e.revision,
                            bytes: e.value.to_vec(),
                        }
                    }));
                }
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) => return Err(broker(&key, e)),
            }
        }
    }

    fn put(
        &mut self,
        kind: &str,
        id: &str,
        bytes: &[u8],
        expect: Expect,
    ) -> Result<u64, StoreError> {
        let key = doc_key(kind, id)?;
        self.write_key(kind, id, &key, bytes, expect)
    }

    fn append(&mut self, event: &[u8]) -> Result<u64, StoreError> {
        let id = event_id(event)?;
        let deadline = Instant::now() + self.patience;
        loop {
            self.round_trips += 1;
            let msg = jetstream::message::PublishMessage::build()
                .payload(event.to_vec().into())
                .message_id(&id);
            let js = self.js.clone();
            let result = self.rt.block_on(async {
                let ack = js
                    .send_publish(self.subject.clone(), msg)
                    .await
                    .map_err(|e| e.to_string())?;
                ack.await.map_err(|e| e.to_string())
            });
            match result {
                Ok(ack) => {
                    self.events = ack.sequence;
                    return Ok(self.events);
                }
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) => return Err(broker(&self.subject, e)),
            }
        }
    }

    fn events(&self) -> Result<Vec<Vec<u8>>, StoreError> {
        let mut stream = self.stream.clone();
        let last = self
            .rt
            .block_on(stream.info())
            .map_err(|e| broker(&self.subject, e))?
            .state
            .last_sequence;
        let mut out = Vec::new();
        for seq in 1..=last {
            match self.rt.block_on(self.stream.get_raw_message(seq)) {
                Ok(m) => out.push(m.payload.to_vec()),
                Err(e) => return Err(broker(&format!("{} #{seq}", self.subject), e)),
            }
        }
        Ok(out)
    }

    fn event_count(&self) -> u64 {
        self.events
    }

    fn put_checkpoint(&mut self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        if !key_ok(name) {
            return Err(StoreError::Unsupported(format!(
                "`{name}`: a checkpoint name is letters, digits, `-` and `_`"
            )));
        }
        let key = format!("checkpoint.{name}");
        self.write_key("checkpoint", name, &key, bytes, Expect::Any)
            .map(|_| ())
    }

    fn checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        if !key_ok(name) {
            return Ok(None);
        }
        let key = format!("checkpoint.{name}");
        match self.rt.block_on(self.kv.entry(key.as_str())) {
            Ok(e) => Ok(e
                .filter(|e| e.operation == kv::Operation::Put)
                .map(|e| e.value.to_vec())),
            Err(e) => Err(broker(&key, e)),
        }
    }
}
