//! Where a session's MAP events go, and where its ids and times come from.

use mplp_core::Timestamp;
use mplp_events::MapEvent;
use mplp_events::log::LogWriter;

/// Receives the MAP events of a session, in order: the SDK's one sink
/// trait, [`mplp_events::log::EventSink`], re-exported (a session's sink is
/// an `EventSink<MapEvent>`; `Vec<MapEvent>`, `&mut S`, the NDJSON
/// [`LogWriter`] and the streaming `MapLogValidator` are sinks too).
pub use mplp_events::log::EventSink;

/// The NDJSON writer of `mplp-events` ([`LogWriter`]), under this module's
/// name for it. Writes each event as one line of NDJSON.
///
/// ```
/// use mplp_collab::sink::{EventSink, NdjsonSink};
/// use mplp_core::{CollabId, CollabMode};
/// let mut sink = NdjsonSink::new(Vec::new());
/// sink.emit(mplp_events::MapEvent::session_started(CollabId::new(), CollabMode::Swarm, 3))?;
/// let text = String::from_utf8(sink.into_inner()).unwrap();
/// assert!(text.ends_with("}\n") && text.contains(r#""event_type":"MAPSessionStarted""#));
/// # Ok::<(), std::io::Error>(())
/// ```
pub type NdjsonSink<W> = LogWriter<W>;

/// Keeps every event in memory.
#[derive(Clone, Debug, Default)]
pub struct MemorySink {
    /// The events, in order.
    pub events: Vec<MapEvent>,
}

impl MemorySink {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// The events as NDJSON (one compact JSON object per line).
    pub fn to_ndjson(&self) -> String {
        let mut out = LogWriter::new(Vec::new());
        for e in &self.events {
            // Writing to memory fails only if an event cannot be serialised,
            // which a typed `MapEvent` always can.
            let _ = out.write(e);
        }
        String::from_utf8(out.into_inner()).unwrap_or_default()
    }
}

impl EventSink<MapEvent> for MemorySink {
    fn emit(&mut self, event: MapEvent) -> std::io::Result<()> {
        self.events.push(event);
        Ok(())
    }
}

/// Drops every event (counting them): for benchmarks and dry runs. The
/// SDK's one null sink, for every event type; kept here under its old path.
pub use mplp_events::log::NullSink;

/// Where a session gets its timestamps and ids.
pub trait Clock {
    /// The time of the next event.
    fn now(&mut self) -> Timestamp;
    /// A fresh UUID (event ids, token ids, broadcast and conflict ids).
    fn uuid(&mut self) -> uuid::Uuid;
}

/// The system clock and random UUIDs v4.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&mut self) -> Timestamp {
        Timestamp::now()
    }
    fn uuid(&mut self) -> uuid::Uuid {
        uuid::Uuid::new_v4()
    }
}

/// A reproducible clock: time starts at a fixed instant and advances by a
/// fixed step per reading; UUIDs come from a seeded generator.
///
/// ```
/// use mplp_collab::sink::{Clock, SimClock};
/// let mut a = SimClock::new(42);
/// let mut b = SimClock::new(42);
/// assert_eq!(a.now(), b.now());
/// assert_eq!(a.uuid(), b.uuid());
/// assert_eq!(a.now().text(), "2025-12-07T00:00:01.000Z");
/// ```
#[derive(Clone, Debug)]
pub struct SimClock {
    rng: crate::rng::SplitMix64,
    millis: i64,
    step_ms: i64,
}

/// 2025-12-07T00:00:00Z, the start of simulated time.
const SIM_EPOCH_MS: i64 = 1_765_065_600_000;

impl SimClock {
    /// Starts at 2025-12-07T00:00:00Z, one second per reading.
    pub fn new(seed: u64) -> Self {
        SimClock {
            rng: crate::rng::SplitMix64::new(seed),
            millis: SIM_EPOCH_MS,
            step_ms: 1000,
        }
    }

    /// The same clock advancing `step_ms` per reading.
    #[must_use]
    pub fn with_step_ms(mut self, step_ms: i64) -> Self {
        self.step_ms = step_ms;
        self
    }
}

impl Clock for SimClock {
    fn now(&mut self) -> Timestamp {
        let at =
            time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(self.millis) * 1_000_000)
                .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
        self.millis += self.step_ms;
        Timestamp::from_datetime(at)
    }
    fn uuid(&mut self) -> uuid::Uuid {
        self.rng.uuid_v4()
    }
}

/// A clock that always gives the same time and counts UUIDs up: the
/// cheapest clock, for benchmarks.
#[derive(Clone, Debug)]
pub struct FixedClock {
    at: Timestamp,
    rng: crate::rng::SplitMix64,
}

impl FixedClock {
    /// Always `at`.
    pub fn new(at: Timestamp) -> Self {
        FixedClock {
            at,
            rng: crate::rng::SplitMix64::new(0),
        }
    }
}

impl Clock for FixedClock {
    fn now(&mut self) -> Timestamp {
        self.at.clone()
    }
    fn uuid(&mut self) -> uuid::Uuid {
        self.rng.uuid_v4()
    }
}

#[cfg(feature = "tokio")]
impl mplp_events::log::async_io::AsyncEventSink<MapEvent> for MemorySink {
    fn emit(&mut self, event: MapEvent) -> impl std::future::Future<Output = std::io::Result<()>> {
        std::future::ready(EventSink::emit(self, event))
    }
}
