//! The derive's error messages as rustc prints them, and one struct that
//! derives cleanly: each `ui/*.rs` is compiled by itself and its errors
//! compared with the `.stderr` file beside it.
//!
//! The `.stderr` files depend on the compiler's version (the toolchain is
//! pinned: rustc 1.95). After a deliberate change of a message, or a new
//! toolchain, regenerate them with
//! `TRYBUILD=overwrite cargo test -p mplp-derive --test ui` and review the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass.rs");
    t.compile_fail("tests/ui/fail_*.rs");
}
