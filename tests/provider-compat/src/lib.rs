//! Nothing here: the checks are in `tests/anthropic.rs`.
