//! MPLP v1.0.0 plan module (work in progress).
