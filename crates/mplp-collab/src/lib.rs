//! MPLP v1.0.0 Collab module.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod broadcast;
mod collab;
pub mod conflict;
mod lifecycle;
pub mod rng;
pub mod swarm;
pub mod turns;

pub use collab::*;
pub use turns::{TurnManager, TurnState, TurnToken};
pub mod runtime;
pub mod sink;
pub mod simulate;
pub mod render;
