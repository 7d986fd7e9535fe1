//! Project automation.
//!
//! ```text
//! cargo xtask schema-check [--upstream DIR] [--mutations N] [--seed S]
//! cargo xtask msrv
//! cargo xtask rules [--check]    (writes docs/rules.md from the rule registries)
//! cargo xtask mutants [--file PATH]... [--in-diff BASE] [-j N] [-- ARGS]
//! cargo xtask peak-memory [...]  (peak memory of real `mplp` processes, `peak.rs`)
//! cargo xtask fuzz [--kind K]... [--iterations N] [--seed S] [--save DIR]
//!                                (the differential check at scale, `fuzz.rs`)
//! cargo xtask wasm [build | test | bench [ROUNDS]]
//!                                (the npm package and the offline page, `wasm.rs`)
//! cargo xtask newcomer [--keep] [--readme-only]
//!                                (a fresh clone runs README.md's shell blocks, `newcomer.rs`)
//! ```
//!
//! `mutants` runs cargo-mutants with the project's settings and prints
//! caught / missed / unviable / timeout per file (`mutants.rs`).
//!
//! `msrv` checks the workspace `rust-version` against every locked
//! dependency (`msrv.rs`).
//!
//! `schema-check` runs four checks and exits non-zero if any fails:
//!
//! 1. **drift**: the JSON Schema of every covered Rust type (schemars,
//!    draft 07) is compared with `schemas/`, after normalisation
//!    (`normalize.rs`): property names, required sets, types, enums,
//!    patterns, formats, bounds, `additionalProperties`. A type without a
//!    `JsonSchema` impl is a failure; the observability event type is
//!    compared once per family schema (`drift::RUST_SIDE_NORMALISATIONS`).
//! 2. **examples**: every file of `schemas/examples/` is validated with
//!    jsonschema and with the Rust types; both must agree with its folder,
//!    and the Rust errors must include the sidecar's pointer and rule.
//! 3. **differential**: mutants of the valid examples (10,000 per kind by
//!    default) must get the same verdict from jsonschema and the Rust types,
//!    and the thorough pass must agree with the typed parse (`mutate.rs`).
//! 4. **upstream** (with `--upstream DIR`): our schema files are
//!    compared semantically with another copy of the canonical schemas.
//!
//! Every check is also a `#[test]` of this crate, including tests that
//! plant a drift or a disagreement and see it caught.

mod diff;
mod drift;
mod examples;
mod fuzz;
mod kinds;
mod msrv;
mod mutants;
mod mutate;
mod newcomer;
mod normalize;
mod peak;
mod rules;
mod wasm;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde_json::Value;

const USAGE: &str = "usage: cargo xtask schema-check [--upstream DIR] [--mutations N] [--seed S]\n       cargo xtask msrv\n       cargo xtask rules [--check]\n       cargo xtask mutants [--file PATH]... [--in-diff BASE] [-j N] [-- ARGS]\n       cargo xtask fuzz [--kind K]... [--iterations N] [--seed S] [--save DIR]\n       cargo xtask wasm [build | test | bench [ROUNDS]]\n       cargo xtask newcomer [--keep] [--readme-only]";

/// The options of `schema-check`.
#[derive(Debug, PartialEq)]
struct Options {
    upstream: Option<PathBuf>,
    mutations: usize,
    seed: u64,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut it = args.iter();
    match it.next().map(String::as_str) {
        Some("schema-check") => {}
        Some(other) => return Err(format!("unknown command `{other}`\n{USAGE}")),
        None => return Err(USAGE.to_owned()),
    }
    let mut options = Options {
        upstream: None,
        mutations: 10_000,
        seed: 0x5eed_2025,
    };
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--upstream" => options.upstream = Some(PathBuf::from(value()?)),
            "--mutations" => {
                options.mutations = value()?.parse().map_err(|e| format!("--mutations: {e}"))?;
            }
            "--seed" => {
                options.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?;
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args == ["msrv"] {
        return msrv_main();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if args.first().is_some_and(|a| a == "rules") {
        return rules::main(&args[1..], &root);
    }
    if args.first().is_some_and(|a| a == "mutants") {
        return mutants::main(&args[1..], &root);
    }
    if args.first().is_some_and(|a| a == "fuzz") {
        return fuzz::main(&args[1..], &root);
    }
    if args.first().is_some_and(|a| a == "wasm") {
        return wasm::main(&args[1..], &root);
    }
    if args.first().is_some_and(|a| a == "newcomer") {
        return newcomer::main(&args[1..], &root);
    }
    if args.first().is_some_and(|a| a == "peak-memory") {
        return peak::main(&args[1..], &root);
    }
    let options = match parse_args(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match schema_check(&root, &options) {
        Ok(0) => {
            println!("schema-check: ok");
            ExitCode::SUCCESS
        }
        Ok(n) => {
            println!("schema-check: FAILED ({n} problem(s))");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("schema-check: error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `cargo xtask msrv`: exit 0 when every locked package fits the workspace `rust-version`.
fn msrv_main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match msrv::run(&root) {
        Ok(report) if msrv::print(&report) == 0 => {
            println!("msrv: ok");
            ExitCode::SUCCESS
        }
        Ok(_) => {
            println!("msrv: FAILED (raise rust-version or pin the packages above)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("msrv: error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs every check, printing the report; returns the number of problems.
fn schema_check(root: &Path, options: &Options) -> Result<usize, String> {
    let started = Instant::now();
    let schemas_dir = root.join("schemas");
    let ours = drift::Schemas::load(&schemas_dir)?;
    let mut problems = 0;

    println!("== drift: Rust types vs schemas/");
    for kind in kinds::KINDS {
        match drift::type_drift(&ours, kind)? {
            None => {
                println!(
                    "  {:<12} {}: NOT COMPARED (the type does not implement JsonSchema)",
                    kind.name, kind.rust
                );
                problems += 1;
            }
            Some(compared) => {
                for d in compared {
                    for (a, reason) in &d.accepted {
                        println!("  accepted: {a} ({reason})");
                    }
                    for x in &d.drift {
                        println!("  DRIFT {x}");
                    }
                    problems += d.drift.len();
                    if d.drift.is_empty() {
                        println!("  {:<30} {} = {}: no drift", d.label, kind.rust, d.file);
                    }
                }
            }
        }
    }
    for (id, reason) in drift::RUST_SIDE_NORMALISATIONS {
        println!("  normalisation {id}: {reason}");
    }

    println!("== examples: jsonschema and Rust verdicts vs folder");
    let ex = examples::check(&schemas_dir.join("examples"))?;
    for p in &ex.problems {
        println!("  PROBLEM {p}");
    }
    for s in &ex.schema_only {
        println!("  {s}: checked with jsonschema only (no Rust validator yet)");
    }
    println!("  {} files, {} problem(s)", ex.files, ex.problems.len());
    problems += ex.problems.len();

    println!(
        "== differential: {} mutants per kind (seed {})",
        options.mutations, options.seed
    );
    let valid = load_valid_examples(&schemas_dir.join("examples"))?;
    let runs = differential(&valid, options.mutations, options.seed);
    for (kind, run) in kinds::KINDS.iter().zip(&runs) {
        let excepted: Vec<String> = run
            .excepted
            .iter()
            .map(|(id, n)| format!("{id}: {n}"))
            .collect();
        println!(
            "  {:<12} {:>6} mutants ({:>5} schema-valid), {} disagreement(s){}",
            kind.name,
            run.mutants,
            run.schema_valid,
            run.failure_count,
            if excepted.is_empty() {
                String::new()
            } else {
                format!(", excepted [{}]", excepted.join(", "))
            }
        );
        for f in &run.failures {
            println!("    DISAGREE {f}");
        }
        problems += run.failure_count;
        if run.mutants < options.mutations {
            problems += 1;
        }
    }
    for e in mutate::EXCEPTIONS {
        println!("  exception {}: {}", e.id, e.reason);
    }
    println!(
        "  exception sdk-payload-rules: errors whose rule id starts with {} are SDK-level \
         payload rules, stricter than the schema's free-form `payload` object; they do not \
         count for the Rust schema-level verdict",
        kinds::SDK_PAYLOAD_RULE_PREFIXES.join(" / ")
    );

    if let Some(dir) = &options.upstream {
        println!("== upstream: schemas/ vs {}", dir.display());
        let upstream = drift::Schemas::load(dir)?;
        let found = drift::upstream_drift(&ours, &upstream)?;
        for d in &found {
            println!("  DRIFT {d}");
        }
        println!(
            "  {} files compared, {} difference(s)",
            mplp_core::schema::FILES.len(),
            found.len()
        );
        problems += found.len();
    }
    println!("(took {:.1?})", started.elapsed());
    Ok(problems)
}

/// Runs the differential check of every kind, on two threads.
fn differential(valid: &[(String, Value)], count: usize, seed: u64) -> Vec<mutate::KindRun> {
    let kinds = kinds::KINDS;
    let threads = std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(1)
        .clamp(1, 2);
    let mut results: Vec<Option<mutate::KindRun>> = kinds.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    kinds
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| i % threads == t)
                        .map(|(i, kind)| {
                            (
                                i,
                                mutate::run(kind, &mutate::seeds(kind, valid), count, seed),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            if let Ok(done) = h.join() {
                for (i, run) in done {
                    if let Some(slot) = results.get_mut(i) {
                        *slot = Some(run);
                    }
                }
            }
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| mutate::KindRun {
                failure_count: 1,
                failures: vec!["the worker thread failed".to_owned()],
                ..mutate::KindRun::default()
            })
        })
        .collect()
}

/// The valid `.json` examples, by file name.
fn load_valid_examples(dir: &Path) -> Result<Vec<(String, Value)>, String> {
    let valid = dir.join("valid");
    let mut out = Vec::new();
    let entries =
        std::fs::read_dir(&valid).map_err(|e| format!("cannot list {}: {e}", valid.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.ends_with(".json") {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let doc = serde_json::from_str(&text)
                .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
            out.push((name, doc));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn parses_the_command_line() {
        let o = parse_args(&args("schema-check --upstream ../x --mutations 5 --seed 9")).unwrap();
        assert_eq!(
            o,
            Options {
                upstream: Some(PathBuf::from("../x")),
                mutations: 5,
                seed: 9
            }
        );
        assert!(parse_args(&args("schema-check --nope")).is_err());
        assert!(parse_args(&args("build")).is_err());
        assert!(parse_args(&args("schema-check --upstream")).is_err());
    }

    #[test]
    fn our_schemas_equal_the_reference_copy() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let reference = root.join("../shared/reference/mplp-v1.0.0");
        if !reference.is_dir() {
            // The reference copy sits beside the repository in CI and on
            // the developers' machines; nothing to compare without it.
            return;
        }
        let ours = drift::Schemas::load(&root.join("schemas")).unwrap();
        let upstream = drift::Schemas::load(&reference).unwrap();
        let found = drift::upstream_drift(&ours, &upstream).unwrap();
        assert!(found.is_empty(), "{found:#?}");
    }
}
