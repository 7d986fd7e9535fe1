//! Runs a test body on a thread with the default test stack (2 MiB),
//! whatever `RUST_MIN_STACK` says: the nesting tests must hold there.
//! Included with `#[path = "../../../tests/support/small_stack.rs"] mod small_stack;`
//! (one directory deeper for a test module under `tests/it/`; from a crate's
//! `src/*.rs`, as a `#[cfg(test)]` module beside its unit tests).

/// Runs `f` on a 2 MiB thread and propagates its panic.
pub(crate) fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}
