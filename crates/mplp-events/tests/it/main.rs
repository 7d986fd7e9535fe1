//! Integration tests of mplp-events.
// Test helpers outside #[test] functions may unwrap too: a failure is a failing test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(feature = "tokio")]
mod async_props;
mod builders;
mod declared_events;
mod deep;
mod exact_numbers;
mod examples;
mod log_rules;
mod map_events;
mod modes;
mod more_events;
mod mutants;
mod props;
mod sa_props;
mod unique_event_ids;
mod utf8_lines;
mod validators;
