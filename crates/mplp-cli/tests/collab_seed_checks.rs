//! `mplp collab simulate` output passes the MAP events seed's own check
//! functions (seed 002 section 7: `validateTurnCompletion`,
//! `validateBroadcastReceivers`, ported in mplp-collab's
//! `tests/seed_checks`) and `mplp validate` without a warning, in every mode
//! (issue 39, item 5).
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

#[path = "../../mplp-collab/tests/seed_checks/mod.rs"]
mod seed_checks;

use std::process::Command;

fn mplp(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mplp"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn simulate_output_passes_the_seed_checks_in_every_mode() {
    let dir = std::env::temp_dir().join(format!("mplp-seed-checks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (mode, participants) in [
        ("broadcast", "4"),
        ("round_robin", "3"),
        ("orchestrated", "4"),
        ("swarm", "3"),
        ("pair", "2"),
    ] {
        for seed in ["0", "1", "2"] {
            let out = mplp(&[
                "collab",
                "simulate",
                "--mode",
                mode,
                "--participants",
                participants,
                "--turns",
                "8",
                "--seed",
                seed,
            ]);
            assert!(out.status.success(), "{mode}: {out:?}");
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.lines().count() > 3, "{mode}: {text}");
            seed_checks::assert_seed_checks_pass(&text);
            if mode == "broadcast" {
                assert!(text.contains("\"broadcast_ref\""), "{text}");
            }
            // And the validator, warnings included.
            let path = dir.join(format!("{mode}-{seed}.ndjson"));
            std::fs::write(&path, &text).unwrap();
            let v = mplp(&["validate", "--kind", "map-log", path.to_str().unwrap()]);
            assert!(v.status.success(), "{mode}: {v:?}");
            let said = String::from_utf8_lossy(&v.stdout).to_string()
                + &String::from_utf8_lossy(&v.stderr);
            assert!(said.contains(": valid (map-log)"), "{mode}: {said}");
            assert!(said.contains("; 0 errors, 0 warnings"), "{mode}: {said}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
