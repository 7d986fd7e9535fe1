//! The size of the SVG picture of generated plans: `cargo run -p mplp-plan
//! --features svg --example render_sizes -- 30 1000` prints, for each step
//! count, the picture's width and height (its `viewBox`), its bytes, and
//! the time it took. The plans are the same on every run (a fixed seed):
//! steps in layers, each depending on up to three earlier steps, mostly
//! from the layers just above (a few long edges), with descriptions of
//! 10 to 60 characters and a few agent roles.

// An example: printing and unwrapping are what it is for.
#![allow(clippy::unwrap_used, clippy::print_stdout)]

use mplp_core::ContextId;
use mplp_plan::{Plan, StepSpec};

/// A small deterministic generator (xorshift), so the example needs no
/// random-number crate and gives the same plans everywhere.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// A plan of `n` steps (see the module docs).
fn generated_plan(n: usize, seed: u64) -> Plan {
    const WORDS: [&str; 12] = [
        "read", "the", "logs", "review", "change", "write", "tests", "deploy", "service", "check",
        "update", "schema",
    ];
    const ROLES: [&str; 4] = ["planner", "coder", "reviewer", "tester"];
    let mut rng = Rng(seed | 1);
    let mut b = Plan::builder(
        ContextId::new(),
        format!("Generated plan of {n} steps"),
        "o",
    );
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let words = 2 + rng.below(9);
        let text: Vec<&str> = (0..words).map(|_| WORDS[rng.below(WORDS.len())]).collect();
        let mut spec = StepSpec::new(text.join(" "));
        if rng.below(3) == 0 {
            spec = spec.role(ROLES[rng.below(ROLES.len())]);
        }
        if i > 0 {
            let mut chosen = Vec::new();
            for _ in 0..rng.below(4) {
                // Mostly a recent step; one in eight from anywhere before.
                let d = if rng.below(8) == 0 {
                    rng.below(i)
                } else {
                    i - 1 - rng.below(i.min(6))
                };
                if !chosen.contains(&d) {
                    chosen.push(d);
                    spec = spec.after(ids[d]);
                }
            }
        }
        ids.push(b.add(spec));
    }
    b.build().unwrap()
}

fn main() {
    let counts: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let counts = if counts.is_empty() {
        vec![30, 1000]
    } else {
        counts
    };
    for n in counts {
        let plan = generated_plan(n, 0x5eed + n as u64);
        let start = std::time::Instant::now();
        let svg = mplp_plan::render::svg(&plan);
        let took = start.elapsed();
        let view = svg
            .split("viewBox=\"")
            .nth(1)
            .and_then(|v| v.split('"').next())
            .unwrap_or("?");
        let dir = std::env::var("RENDER_SIZES_DIR").ok();
        if let Some(dir) = dir {
            std::fs::write(format!("{dir}/plan-{n}.svg"), &svg).unwrap();
        }
        println!(
            "{n} steps: viewBox {view}, {} bytes, drawn in {:.1} ms",
            svg.len(),
            took.as_secs_f64() * 1e3
        );
    }
}
