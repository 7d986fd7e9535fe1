//! Prints a short simulated log for every mode (`cargo run -p mplp-collab --example simulate_all`).

use mplp_collab::simulate::{SimConfig, simulate};
use mplp_collab::sink::MemorySink;
use mplp_core::CollabMode;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for mode in CollabMode::ALL {
        let n = if *mode == CollabMode::Pair { 2 } else { 3 };
        let mut sink = MemorySink::new();
        let summary = simulate(&SimConfig::new(*mode, n, 4).with_seed(1), &mut sink)?;
        println!("# {mode}: {summary:?}");
        print!("{}", sink.to_ndjson());
    }
    Ok(())
}
