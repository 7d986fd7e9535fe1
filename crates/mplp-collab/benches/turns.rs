//! Runtime overhead per turn (no-op participant, no-op sink), against the
//! cost of constructing and serializing one MAP event.
//! `cargo bench -p mplp-collab -- --warm-up-time 1 --measurement-time 3`
//!
//! `turn_noop_x1000` (per element = per turn) measures the runtime's own
//! work: the lifecycle check, the turn manager's dispatch and completion
//! (token, turn state), building the two MAP events of the turn
//! (`MAPTurnDispatched` with the token id text and `target_roles`,
//! `MAPTurnCompleted`), handing them to a [`NullSink`] (which drops them, so
//! their deallocation is included) and the agent call. The clock is a
//! [`FixedClock`]: a timestamp copy and a SplitMix64 UUID per event, so the
//! system clock and time formatting are not measured. `turn_noop_x1000_simclock`
//! is the same with a [`SimClock`](mplp_collab::sink::SimClock) (a new
//! formatted timestamp per reading) to show what a real clock adds.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mplp_collab::runtime::{MapSession, SessionError, TurnContext, TurnOutcome};
use mplp_collab::sink::{Clock, FixedClock, NullSink, SimClock};
use mplp_collab::{Collab, Participant, ParticipantKind};
use mplp_core::{CollabId, CollabMode, ContextId, NonEmptyVec, Timestamp};

const TURNS: u64 = 1000;

fn session() -> MapSession<NullSink, FixedClock> {
    let clock = FixedClock::new(Timestamp::parse("2025-12-07T00:00:00.000Z").unwrap());
    session_with(clock)
}

fn session_with<C: Clock>(clock: C) -> MapSession<NullSink, C> {
    let mut people = NonEmptyVec::new(
        Participant::new("a", ParticipantKind::Agent)
            .unwrap()
            .with_role("ra"),
    );
    people.push(
        Participant::new("b", ParticipantKind::Agent)
            .unwrap()
            .with_role("rb"),
    );
    people.push(
        Participant::new("c", ParticipantKind::Agent)
            .unwrap()
            .with_role("rc"),
    );
    let collab = Collab::new(
        ContextId::new(),
        "bench",
        "bench",
        CollabMode::RoundRobin,
        people,
    )
    .unwrap();
    let mut s = MapSession::with_clock(collab, NullSink::default(), clock).unwrap();
    s.start().unwrap();
    s
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("collab");
    g.throughput(Throughput::Elements(TURNS));
    g.bench_function("turn_noop_x1000", |b| {
        b.iter_batched_ref(
            session,
            |s| {
                let mut agent = |_: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
                    Ok(TurnOutcome::completed())
                };
                for _ in 0..TURNS {
                    s.turn(&mut agent).unwrap();
                }
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("turn_noop_x1000_simclock", |b| {
        b.iter_batched_ref(
            || session_with(SimClock::new(7).with_step_ms(1)),
            |s| {
                let mut agent = |_: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
                    Ok(TurnOutcome::completed())
                };
                for _ in 0..TURNS {
                    s.turn(&mut agent).unwrap();
                }
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.throughput(Throughput::Elements(1));
    let session_id = CollabId::new();
    let at = Timestamp::parse("2025-12-07T00:00:00.000Z").unwrap();
    g.bench_function("map_event_construct_serialize", |b| {
        b.iter(|| {
            let e = mplp_events::MapEvent::turn_dispatched(session_id, "ra", 7)
                .with_timestamp(at.clone());
            std::hint::black_box(serde_json::to_string(&e).unwrap())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
