//! MPLP v1.0.0 dialog module (work in progress).
