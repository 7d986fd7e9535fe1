//! Python bindings of mplp-rs: the `mplp_rs._native` extension module.
//!
//! The Python package `mplp_rs` (sources in `python/mplp_rs/`, stubs in
//! `python/mplp_rs/_native.pyi`) re-exports everything defined here.
//! Build it with `maturin develop --release` (or `pip install ./crates/mplp-py`);
//! its tests are `tests/*.py`, run with pytest by `.ci/run`.
//!
//! - `validate` and `validate_log`:
//!   the verdicts of `mplp validate` (same kinds table, same dispatch:
//!   the `mplp-check` crate), as `ValidationResult` objects.
//! - `validate_bundle`: files checked together with the binding rules
//!   (`mplp validate --bundle`), as a `BundleResult`.
//! - A class per module document (`Plan`, `Dialog`, `Collab`, `Context`,
//!   `Confirm`, `Trace`, `Role`, `Extension`, `Network`, `Core`): thin
//!   wrappers over the Rust documents with their lifecycle operations,
//!   read through the same dispatch; and `simulate_session`.
//! - `SaSession`: the SA session runtime with a Python callable as executor.
//! - Exceptions `MplpError(ValueError)`, `ValidationError`, `TransitionError`,
//!   each carrying the `violations`.

mod bundle;
mod class;
mod docs;
mod errors;
mod input;
mod lines;
mod modules;
mod sa;
mod validate;

use pyo3::prelude::*;

/// The extension module `mplp_rs._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MplpError", py.get_type::<errors::MplpError>())?;
    m.add("ValidationError", py.get_type::<errors::ValidationError>())?;
    m.add("TransitionError", py.get_type::<errors::TransitionError>())?;
    m.add_class::<errors::PyViolation>()?;
    m.add_class::<validate::ValidationResult>()?;
    m.add_class::<docs::PyPlan>()?;
    m.add_class::<docs::PyDialog>()?;
    m.add_class::<docs::PyCollab>()?;
    m.add_class::<modules::PyContext>()?;
    m.add_class::<modules::PyConfirm>()?;
    m.add_class::<modules::PyTrace>()?;
    m.add_class::<modules::PyRole>()?;
    m.add_class::<modules::PyExtension>()?;
    m.add_class::<modules::PyNetwork>()?;
    m.add_class::<modules::PyCore>()?;
    m.add_class::<bundle::BundleResult>()?;
    m.add_class::<sa::PySaSession>()?;
    m.add_function(wrap_pyfunction!(validate::validate, m)?)?;
    m.add_function(wrap_pyfunction!(validate::validate_log, m)?)?;
    m.add_function(wrap_pyfunction!(validate::kinds, m)?)?;
    m.add_function(wrap_pyfunction!(validate::kind_table, m)?)?;
    m.add_function(wrap_pyfunction!(bundle::validate_bundle, m)?)?;
    m.add("PROFILES", validate::PROFILES.to_vec())?;
    m.add_function(wrap_pyfunction!(docs::simulate_session, m)?)?;
    m.add("PROTOCOL_VERSION", "1.0.0")?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
