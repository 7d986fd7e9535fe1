//! Project automation: `cargo xtask schema-check [--upstream DIR]`.
mod diff;
mod drift;
mod kinds;
mod normalize;

fn main() {}
