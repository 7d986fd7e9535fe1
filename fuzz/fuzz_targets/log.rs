//! The MAP and SA log validators on arbitrary bytes: no panic; the
//! streaming API finds what the sorted report finds; a tiny read buffer and
//! a small line limit change nothing for lines under the limit; partial
//! mode changes severities only.
#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use mplp_events::log::{
    LogOptions, stream_map_log, stream_sa_log, validate_map_log_with, validate_sa_log_with,
};

type Key = (Option<u64>, String, String, bool);

fn keys(vs: &[mplp_core::Violation]) -> Vec<Key> {
    vs.iter()
        .map(|v| {
            (
                v.line,
                v.rule.to_string(),
                v.pointer.clone(),
                v.severity == mplp_core::Severity::Error,
            )
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let (flags, log) = data.split_first().map_or((0, data), |(f, rest)| (*f, rest));
    let options = LogOptions::default().partial(flags & 1 == 1);
    let cap = usize::from(flags >> 1).max(1);
    type Whole = fn(&[u8], &LogOptions) -> mplp_core::Report;
    let whole: [(Whole, bool); 2] = [
        (|b, o| validate_map_log_with(b, o), true),
        (|b, o| validate_sa_log_with(b, o), false),
    ];
    for (validate, map) in whole {
        let report = validate(log, &options);
        let mut streamed = Vec::new();
        let on = |v| {
            streamed.push(v);
            ControlFlow::Continue(())
        };
        let flow = if map {
            stream_map_log(log, &options, on)
        } else {
            stream_sa_log(log, &options, on)
        };
        assert!(flow.is_continue());
        let mut a = keys(&streamed);
        a.sort_by_key(|k| k.0.unwrap_or(u64::MAX));
        let b = keys(report.violations());
        assert_eq!(a, b, "streamed and sorted reports differ");
        let small = std::io::BufReader::with_capacity(cap, log);
        let c = if map {
            validate_map_log_with(small, &options)
        } else {
            validate_sa_log_with(small, &options)
        };
        assert_eq!(
            keys(c.violations()),
            b,
            "a small read buffer changed the report"
        );
        let strict = validate(log, &LogOptions::default());
        let rules = |r: &mplp_core::Report| -> Vec<(Option<u64>, String)> {
            r.violations()
                .iter()
                .map(|v| (v.line, v.rule.to_string()))
                .collect()
        };
        assert_eq!(
            rules(&strict),
            rules(&report),
            "partial mode changed the findings"
        );
    }
});
