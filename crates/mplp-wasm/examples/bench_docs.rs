//! Writes the documents of the performance table (perf_report's plans of
//! 10/100/1000 steps, dialogs of 10/100/1000 messages, the collab of 8
//! participants, from `crates/mplp/benches/common`) into a directory, with
//! an `index.json` of their labels, kinds and file names, for the Node
//! benchmark of the WebAssembly package (`cargo xtask wasm bench`).
//!
//! `cargo run -p mplp-wasm --example bench_docs -- DIR`

// A benchmark that cannot set itself up should stop at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../mplp/benches/common/mod.rs"]
mod common;

fn main() {
    let dir = std::path::PathBuf::from(
        std::env::args()
            .nth(1)
            .expect("usage: bench_docs DIR (where to write the documents)"),
    );
    std::fs::create_dir_all(&dir).unwrap();
    let mut index = Vec::new();
    // The documents only: the Node benchmark reads whole documents.
    for input in common::inputs(100) {
        let kind = match input.kind {
            common::Kind::Plan => "plan",
            common::Kind::Dialog => "dialog",
            common::Kind::Collab => "collab",
            common::Kind::MapLog | common::Kind::SaLog => continue,
        };
        let file = format!(
            "{kind}-{}.json",
            input.label.split(' ').nth(1).unwrap_or("x")
        );
        std::fs::write(dir.join(&file), &input.bytes).unwrap();
        index.push(serde_json::json!({"label": input.label, "kind": kind, "file": file}));
    }
    std::fs::write(
        dir.join("index.json"),
        serde_json::to_vec_pretty(&index).unwrap(),
    )
    .unwrap();
    println!("{} documents in {}", index.len(), dir.display());
}
