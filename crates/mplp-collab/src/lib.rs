//! MPLP v1.0.0 collab module (work in progress).
