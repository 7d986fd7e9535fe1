//! Integration tests of mplp-dialog (one binary, one module per area).

// Test helpers outside #[test] functions may fail loudly: a failure is a failing test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod agent;
mod agent_context;
mod agent_cost;
#[cfg(feature = "http")]
mod client;
mod common;
mod compat;
mod counters;
#[cfg(feature = "http")]
mod emulator;
mod examples;
mod props;
mod rules;
mod sendable;
mod tree;
