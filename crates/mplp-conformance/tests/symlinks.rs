//! A symbolic link that leaves an evidence pack is a `pack-integrity`
//! error, and what it points to is never read.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use mplp_conformance::{Status, run_flow};

/// A copy of the `good-pack` fixture in a fresh directory.
fn copy_of_good_pack(name: &str) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), &target).unwrap();
            }
        }
    }
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/flows/good-pack");
    let root = std::env::temp_dir().join(format!("mplp-symlink-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let flow = root.join("flow");
    copy(&from, &flow);
    flow
}

fn integrity_findings(flow: &Path) -> Vec<String> {
    let report = run_flow(flow);
    assert_eq!(report.status, Status::Fail, "{:#?}", report.checks);
    let check = report
        .checks
        .iter()
        .find(|c| c.name == "pack integrity")
        .unwrap();
    check
        .findings
        .iter()
        .map(|f| format!("[{}] {}", f.rule, f.message))
        .collect()
}

#[test]
fn a_link_to_a_file_outside_is_reported_and_not_read() {
    let flow = copy_of_good_pack("file");
    let outside = flow.parent().unwrap().join("secret.json");
    std::fs::write(&outside, "{\"secret\": true}").unwrap();
    let link = flow.join("pack/artifacts/leak.json");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    // Listed with the right hash: only the link itself can be the finding.
    let sum = "9d2f6a3c0b3e0a9b5f5c1a8a5c7f2f6c6b9d4e2a1f0e3d2c1b0a9f8e7d6c5b4a";
    let list = flow.join("pack/integrity/sha256sums.txt");
    let mut text = std::fs::read_to_string(&list).unwrap();
    text.push_str(&format!("{sum}  artifacts/leak.json\n"));
    std::fs::write(&list, text).unwrap();
    let found = integrity_findings(&flow);
    assert!(
        found.iter().any(|f| f.starts_with("[pack-integrity]")
            && f.contains("artifacts/leak.json")
            && f.contains("outside the pack: not followed")),
        "{found:?}"
    );
    // Never hashed: no finding compares its sha256.
    assert!(!found.iter().any(|f| f.contains("sha256 is")), "{found:?}");
    // Nor read as an artifact for the invariants.
    let report = run_flow(&flow);
    let artifacts = report
        .checks
        .iter()
        .find(|c| c.name == "pack artifacts parse")
        .unwrap();
    assert!(
        artifacts
            .findings
            .iter()
            .any(|f| f.rule == "pack-integrity" && f.message.contains("not followed")),
        "{artifacts:?}"
    );
}

#[test]
fn a_link_to_a_directory_outside_is_reported_and_not_walked() {
    let flow = copy_of_good_pack("dir");
    let outside = flow.parent().unwrap().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("x.json"), "{}").unwrap();
    std::os::unix::fs::symlink(&outside, flow.join("pack/extra")).unwrap();
    let found = integrity_findings(&flow);
    assert!(
        found
            .iter()
            .any(|f| f.contains("`extra` is a symbolic link") && f.contains("not followed")),
        "{found:?}"
    );
    assert!(
        !found.iter().any(|f| f.contains("extra/x.json")),
        "{found:?}"
    );
}

#[test]
fn a_link_that_stays_inside_is_a_file_of_the_pack() {
    let flow = copy_of_good_pack("inside");
    let manifest = flow.join("pack/manifest.json");
    let copy = flow.join("pack/artifacts/manifest-copy.json");
    std::os::unix::fs::symlink(&manifest, &copy).unwrap();
    let report = run_flow(&flow);
    let check = report
        .checks
        .iter()
        .find(|c| c.name == "pack integrity")
        .unwrap();
    // Not listed in the integrity file: that, and nothing about links.
    assert!(
        check
            .findings
            .iter()
            .all(|f| !f.message.contains("symbolic link")),
        "{check:?}"
    );
    assert!(
        check
            .findings
            .iter()
            .any(|f| f.message.contains("artifacts/manifest-copy.json")
                && f.message.contains("not in the integrity list")),
        "{check:?}"
    );
}
