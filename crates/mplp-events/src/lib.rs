//! MPLP v1.0.0 events module (work in progress).
