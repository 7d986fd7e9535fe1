//! MPLP v1.0.0 Collab module.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod collab;
mod lifecycle;
pub mod rng;
pub mod turns;

pub use collab::*;
pub use turns::{TurnManager, TurnState, TurnToken};
