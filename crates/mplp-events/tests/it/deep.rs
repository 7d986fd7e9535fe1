//! Deep nesting in free-form members of log lines: read up to
//! `mplp_json::nesting::MAX_NESTING` levels, refused past it with
//! `json-depth`, on a thread with the default 2 MiB test stack.

use mplp_events::MapEvent;
use mplp_events::log::{LogReader, validate_map_log};
use mplp_json::nesting::MAX_NESTING;

const LOG: &str = include_str!("../../../../schemas/examples/valid/map-log-round-robin.ndjson");

/// The round-robin log whose first event's payload gets a last, extra
/// member nested so that the line nests `total` levels (event 1, payload 2).
fn log_with_depth(total: usize) -> String {
    let levels = total - 2;
    let deep = format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
    let (first, rest) = LOG.split_once('\n').unwrap();
    let first = first.strip_suffix("}}").unwrap();
    format!("{first},\"deep\":{deep}}}}}\n{rest}")
}

#[path = "../../../../tests/support/small_stack.rs"]
mod small_stack;
use small_stack::on_small_stack;

#[test]
fn a_log_line_nested_to_the_limit_is_valid_and_round_trips() {
    on_small_stack(|| {
        let log = log_with_depth(MAX_NESTING);
        assert_eq!(
            mplp_json::nesting::depth(log.lines().next().unwrap().as_bytes()),
            MAX_NESTING
        );
        let report = validate_map_log(log.as_bytes());
        assert!(report.is_valid(), "{report:?}");
        // The reader hands out the event, which writes back the same line.
        let first = LogReader::<_, MapEvent>::new(log.as_bytes())
            .next()
            .unwrap()
            .event
            .unwrap();
        assert_eq!(
            serde_json::to_string(&first).unwrap(),
            log.lines().next().unwrap()
        );
    });
}

#[test]
fn a_log_line_nested_past_the_limit_names_the_limit_line_and_pointer() {
    on_small_stack(|| {
        for total in [MAX_NESTING + 1, MAX_NESTING * 10] {
            let report = validate_map_log(log_with_depth(total).as_bytes());
            let errors: Vec<_> = report.errors().collect();
            let depth = errors.iter().find(|v| v.rule.as_str() == "json-depth");
            let v = depth.unwrap_or_else(|| panic!("{errors:?}"));
            assert_eq!(v.line, Some(1));
            assert!(v.message.contains("1024 levels"), "{}", v.message);
            assert!(v.pointer.starts_with("/payload/deep/0/0/"), "{}", v.pointer);
        }
    });
}
