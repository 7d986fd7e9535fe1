//! Time of `mplp_core::id::parse_canonical_v4` on N canonical ids (default
//! 10,000 random v4s), in nanoseconds per id, next to the table-driven happy
//! path it replaced (one 256-entry lookup per hex digit, copied here), both
//! measured in the same run. Each figure is the best of R rounds (default 50),
//! the rounds of the two alternating.
//!
//! `cargo run --release -p mplp-core --example parse_id_speed -- [N] [R]`
#![allow(clippy::unwrap_used, clippy::expect_used)] // an example binary: failing loudly is right

use std::hint::black_box;
use std::time::Instant;

use mplp_core::IdError;
use mplp_core::id::parse_canonical_v4;
use uuid::Uuid;

/// The value of a lowercase hex digit, or `0xff`.
const HEX: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut c = 0;
    while c < 10 {
        t[b'0' as usize + c] = c as u8;
        c += 1;
    }
    let mut c = 0;
    while c < 6 {
        t[b'a' as usize + c] = 10 + c as u8;
        c += 1;
    }
    t
};

/// Where the 16 bytes of a hyphenated UUID start.
const POS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/// The table-driven happy path, as it was.
fn parse_fast_table(b: &[u8]) -> Option<Uuid> {
    let b: &[u8; 36] = b.try_into().ok()?;
    if b[8] != b'-' || b[13] != b'-' || b[18] != b'-' || b[23] != b'-' {
        return None;
    }
    if b[14] != b'4' || !matches!(b[19], b'8' | b'9' | b'a' | b'b') {
        return None;
    }
    let mut out = [0u8; 16];
    let mut bad = 0u8;
    for (o, &p) in out.iter_mut().zip(POS.iter()) {
        let hi = HEX[b[p] as usize];
        let lo = HEX[b[p + 1] as usize];
        bad |= hi | lo;
        *o = (hi << 4) | (lo & 0x0f);
    }
    (bad & 0xf0 == 0).then(|| Uuid::from_bytes(out))
}

/// `parse_canonical_v4` as it was: the table, then (never here) the slow path.
fn parse_table(s: &str) -> Result<Uuid, IdError> {
    match parse_fast_table(s.as_bytes()) {
        Some(u) => Ok(u),
        None => parse_canonical_v4(s),
    }
}

/// Nanoseconds per id of one pass of `parse` over `ids`.
fn round(ids: &[String], parse: fn(&str) -> Result<Uuid, IdError>) -> f64 {
    let start = Instant::now();
    let mut acc = 0u128;
    for s in ids {
        acc ^= parse(black_box(s)).unwrap().as_u128();
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / ids.len() as f64
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(10_000, |a| a.parse().unwrap());
    let rounds: usize = args.next().map_or(50, |a| a.parse().unwrap());
    let ids: Vec<String> = (0..n).map(|_| Uuid::new_v4().to_string()).collect();
    for s in &ids {
        assert_eq!(parse_canonical_v4(s), parse_table(s), "{s}");
    }
    let (mut table, mut swar) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..rounds {
        table = table.min(round(&ids, parse_table));
        swar = swar.min(round(&ids, parse_canonical_v4));
    }
    println!("{n} canonical ids, best of {rounds} rounds:");
    println!("  table (before): {table:6.2} ns/id");
    println!("  SWAR  (after):  {swar:6.2} ns/id");
    println!("  speed-up:       {:6.2}x", table / swar);
}
