//! Integration tests of mplp-dialog (one binary, one module per area).

mod common;
mod compat;
mod examples;
mod props;
mod rules;
