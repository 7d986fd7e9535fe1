//! Shared by `benches/validate.rs` and `examples/perf_report.rs`: the
//! documents and logs of the performance table, and the contenders that read them
//! (`IgnoredAny` scan, `Value` parse, `jsonschema` parse + validate,
//! `validate_json` / the log validators).

#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use mplp::collab::{Collab, Participant};
use mplp::dialog::Dialog;
use mplp::events::sa::StepOutcome;
use mplp::events::{SaEvent, SaId, SaPayload};
use mplp::plan::Plan;
use mplp_core::schema::SchemaKind;
use mplp_core::{CollabMode, ContextId, Document, StepId};
use serde::de::IgnoredAny;
use serde_json::Value;

#[path = "../../../mplp-plan/benches/common/mod.rs"]
mod plan_gen;

#[path = "../../../mplp-dialog/benches/common/mod.rs"]
mod dialog_gen;
pub(crate) use dialog_gen::dialog;

#[path = "../../../mplp-events/examples/gen_log/mod.rs"]
mod gen_log;

/// What a row of the table holds: one document, or an NDJSON log read line
/// by line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Plan,
    Dialog,
    Collab,
    MapLog,
    SaLog,
}

/// One row: a label, its kind and its bytes.
pub(crate) struct Input {
    pub(crate) label: String,
    pub(crate) kind: Kind,
    pub(crate) bytes: Vec<u8>,
}

/// The contenders, in the table's column order; `Value` is the baseline.
/// `mplp_validate` is what `mplp validate FILE` does with the bytes of a
/// file, past reading it: [`mplp_check::validate_source`] without a kind
/// (the kind recognised, then that kind's validator).
pub(crate) const CONTENDERS: [&str; 5] = [
    "value",
    "ignored_any",
    "jsonschema",
    "validate_json",
    "mplp_validate",
];

/// Every row of the performance table: plans of 10/100/1000 steps, dialogs of
/// 10/100/1000 messages, a collab of 8 participants, a MAP log and an SA log
/// of about `log_events` events each.
pub(crate) fn inputs(log_events: u64) -> Vec<Input> {
    let mut v = Vec::new();
    for n in [10usize, 100, 1000] {
        v.push(Input {
            label: format!("plan, {n} steps"),
            kind: Kind::Plan,
            bytes: plan_gen::plan_json(n),
        });
    }
    for n in [10usize, 100, 1000] {
        v.push(Input {
            label: format!("dialog, {n} messages"),
            kind: Kind::Dialog,
            bytes: dialog(n).to_json().into_bytes(),
        });
    }
    v.push(Input {
        label: "collab, 8 participants".to_owned(),
        kind: Kind::Collab,
        bytes: collab(8).to_json().into_bytes(),
    });
    let mut map = Vec::new();
    let (events, _) = gen_log::write_log(&mut map, log_events, 16).unwrap();
    v.push(Input {
        label: format!("MAP log, {events} events (per line)"),
        kind: Kind::MapLog,
        bytes: map,
    });
    let (sa, runs) = sa_log(log_events);
    v.push(Input {
        label: format!("SA log, {runs} events (per line)"),
        kind: Kind::SaLog,
        bytes: sa,
    });
    for input in &v {
        assert!(run(input, "validate_json"), "{} is not valid", input.label);
        assert!(run(input, "jsonschema"), "{} fails jsonschema", input.label);
        assert!(
            run(input, "mplp_validate"),
            "{} fails mplp validate",
            input.label
        );
    }
    v
}

/// A round-robin collab of `n` agent participants, each with a role.
pub(crate) fn collab(n: usize) -> Collab {
    Collab::new(
        ContextId::new(),
        "Code review",
        "Review the pull request and agree on the changes",
        CollabMode::RoundRobin,
        Participant::agents(n, "agent-", "role-").unwrap(),
    )
    .unwrap()
}

/// An SA log of at least `n` events: runs of 8 steps (initialized, context
/// loaded, plan evaluated, each step started and completed, completed; 20
/// events per run), 4 runs interleaved line by line.
pub(crate) fn sa_log(n: u64) -> (Vec<u8>, u64) {
    let run = || {
        let sa = SaId::new();
        let mut v = vec![
            SaEvent::initialized(sa.clone()),
            SaEvent::new(sa.clone(), SaPayload::ContextLoaded(None)),
            SaEvent::new(sa.clone(), SaPayload::PlanEvaluated(None)),
        ];
        for _ in 0..8 {
            let step = StepId::new();
            v.push(SaEvent::step_started(sa.clone(), step));
            v.push(SaEvent::step_completed(
                sa.clone(),
                step,
                StepOutcome::Completed,
            ));
        }
        v.push(SaEvent::completed(sa));
        v
    };
    let mut out = Vec::new();
    let mut written = 0u64;
    while written < n {
        let runs: Vec<Vec<SaEvent>> = (0..4).map(|_| run()).collect();
        for i in 0..runs[0].len() {
            for r in &runs {
                serde_json::to_writer(&mut out, &r[i]).unwrap();
                out.push(b'\n');
                written += 1;
            }
        }
    }
    (out, written)
}

/// Writes a MAP log of at least `n` events to `path` (streaming, as
/// [`inputs`] makes them); the number of events.
pub(crate) fn write_map_log(path: &std::path::Path, n: u64) -> u64 {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    gen_log::write_log(file, n, 16).unwrap().0
}

/// Writes an SA log of at least `n` events to `path`, a few runs at a time
/// (as [`sa_log`] makes them); the number of events.
pub(crate) fn write_sa_log(path: &std::path::Path, n: u64) -> u64 {
    use std::io::Write;
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut written = 0;
    while written < n {
        let (bytes, events) = sa_log(4_000.min(n - written));
        file.write_all(&bytes).unwrap();
        written += events;
    }
    file.flush().unwrap();
    written
}

fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty())
}

fn schema_kind(kind: Kind) -> SchemaKind {
    match kind {
        Kind::Plan => SchemaKind::Plan,
        Kind::Dialog => SchemaKind::Dialog,
        Kind::Collab => SchemaKind::Collab,
        Kind::MapLog => SchemaKind::MapEvent,
        Kind::SaLog => SchemaKind::SaEvent,
    }
}

/// Reads `input` once with `contender`; true when it found it valid (or,
/// for the parsers, well-formed).
pub(crate) fn run(input: &Input, contender: &str) -> bool {
    let bytes = black_box(&input.bytes[..]);
    let log = matches!(input.kind, Kind::MapLog | Kind::SaLog);
    match contender {
        "value" if log => lines(bytes).all(|l| serde_json::from_slice::<Value>(l).is_ok()),
        "value" => serde_json::from_slice::<Value>(bytes).is_ok(),
        "ignored_any" if log => {
            lines(bytes).all(|l| serde_json::from_slice::<IgnoredAny>(l).is_ok())
        }
        "ignored_any" => serde_json::from_slice::<IgnoredAny>(bytes).is_ok(),
        "jsonschema" => {
            let kind = schema_kind(input.kind);
            let valid = |b: &[u8]| {
                serde_json::from_slice::<Value>(b)
                    .is_ok_and(|v| mplp_core::schema::is_valid(kind, &v))
            };
            if log {
                lines(bytes).all(valid)
            } else {
                valid(bytes)
            }
        }
        "validate_json" => match input.kind {
            Kind::Plan => Plan::validate_json(bytes).is_valid(),
            Kind::Dialog => Dialog::validate_json(bytes).is_valid(),
            Kind::Collab => Collab::validate_json(bytes).is_valid(),
            Kind::MapLog => mplp::events::log::validate_map_log(bytes).is_valid(),
            Kind::SaLog => mplp::events::log::validate_sa_log(bytes).is_valid(),
        },
        "mplp_validate" => {
            // The one dispatch without a kind: a log streamed as a file of
            // that name, a document from memory (as the Python bindings
            // give it; the CLI reads a file into memory first).
            let mut report = mplp_core::Report::new();
            let options = mplp_check::Options::default();
            if log {
                let source = mplp_check::Source::file("input.ndjson", None, bytes);
                mplp_check::validate_source(None, source, &options, &mut report);
            } else {
                let source = mplp_check::Source::text(bytes);
                mplp_check::validate_source(None, source, &options, &mut report);
            }
            report.is_valid()
        }
        other => panic!("unknown contender {other}"),
    }
}

/// Nanoseconds per read of `input` by `contender`, over about `budget`.
pub(crate) fn time_once(input: &Input, contender: &str, budget: Duration) -> f64 {
    time_counted(input, contender, budget).0
}

/// Nanoseconds per read of `input` by `contender`, over about `budget`, and
/// the number of reads. Not inlined, so that a profiler can count only the
/// reads (`valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect='*time_counted*'`: instructions / reads).
#[inline(never)]
pub(crate) fn time_counted(input: &Input, contender: &str, budget: Duration) -> (f64, u32) {
    let started = Instant::now();
    let mut runs = 0u32;
    while runs == 0 || started.elapsed() < budget {
        black_box(run(input, contender));
        runs += 1;
    }
    (started.elapsed().as_nanos() as f64 / f64::from(runs), runs)
}

/// Reads `input` with `contender` exactly `reads` times: for instruction
/// counts (`valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect='*counted_reads*'`: instructions / reads), which do not
/// move with the load of a shared machine as times do. Not inlined, so that
/// the profiler can count only the reads.
#[inline(never)]
pub(crate) fn counted_reads(input: &Input, contender: &str, reads: u32) -> u32 {
    let mut valid = 0;
    for _ in 0..reads {
        valid += u32::from(black_box(run(input, contender)));
    }
    valid
}

/// Blocks left on the heap for round `round` (see [`heap_state`]).
const HEAP_STATES: [usize; 5] = [0, 300, 3_000, 30_000, 300_000];

/// A different heap for each round: `HEAP_STATES[round % 5]` blocks of 16
/// to 511 bytes are allocated and every other one is freed again, so that
/// the allocator's free lists differ from round to round. Keep the returned
/// blocks for the round. The `Value` parse allocates for almost every token,
/// and its speed moved by up to 20% with the heap's state alone (between
/// builds with the same instructions, and within one build); over several
/// such states, the median is not one state's luck.
pub(crate) fn heap_state(round: usize) -> Vec<Vec<u8>> {
    let n = HEAP_STATES[round % HEAP_STATES.len()];
    let mut kept = Vec::with_capacity(n / 2);
    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ round as u64;
    for i in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let block = vec![0u8; 16 + (x % 496) as usize];
        if i % 2 == 0 {
            kept.push(block);
        }
    }
    black_box(kept)
}

/// The median of `rounds` interleaved rounds: every round times each
/// contender once (starting with a different one each round), so load from
/// other processes skews all contenders alike, and on a heap in a state of
/// its own ([`heap_state`]), the same for every contender of the round.
/// Returns ns per read, in [`CONTENDERS`] order.
pub(crate) fn measure(input: &Input, rounds: usize, budget: Duration) -> [f64; 5] {
    let mut samples: [Vec<f64>; 5] = Default::default();
    for r in 0..rounds {
        let _heap = heap_state(r);
        for k in 0..CONTENDERS.len() {
            let i = (r + k) % CONTENDERS.len();
            samples[i].push(time_once(input, CONTENDERS[i], budget));
        }
    }
    samples.map(|mut s| {
        s.sort_by(f64::total_cmp);
        s[s.len() / 2]
    })
}
