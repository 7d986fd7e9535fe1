//! What `mplp conformance` takes as a flow directory and as a standalone
//! evidence pack (issue 38: a pack written by the runtime is checked alone).
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use mplp_conformance::{is_flow_dir, is_pack_dir};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mplp-pack-dirs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_pack_needs_its_manifest_and_its_timeline() {
    let both = scratch("both");
    std::fs::write(both.join("manifest.json"), "{}").unwrap();
    std::fs::create_dir(both.join("timeline")).unwrap();
    assert!(is_pack_dir(&both) && is_flow_dir(&both));

    let manifest_only = scratch("manifest");
    std::fs::write(manifest_only.join("manifest.json"), "{}").unwrap();
    assert!(!is_pack_dir(&manifest_only) && !is_flow_dir(&manifest_only));

    let timeline_only = scratch("timeline");
    std::fs::create_dir(timeline_only.join("timeline")).unwrap();
    assert!(!is_pack_dir(&timeline_only) && !is_flow_dir(&timeline_only));

    // A `manifest.json` that is a directory is not a manifest.
    let odd = scratch("odd");
    std::fs::create_dir(odd.join("manifest.json")).unwrap();
    std::fs::create_dir(odd.join("timeline")).unwrap();
    assert!(!is_pack_dir(&odd));

    for dir in [both, manifest_only, timeline_only, odd] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn a_flow_is_any_of_its_parts() {
    let empty = scratch("empty");
    assert!(!is_flow_dir(&empty));
    for part in ["input", "expected", "pack"] {
        let dir = scratch(part);
        std::fs::create_dir(dir.join(part)).unwrap();
        assert!(is_flow_dir(&dir), "{part}");
        assert!(!is_pack_dir(&dir), "{part}");
        std::fs::remove_dir_all(dir).unwrap();
    }
    let invariants = scratch("invariants");
    std::fs::write(invariants.join("invariants.yaml"), "invariants: []\n").unwrap();
    assert!(is_flow_dir(&invariants));
    for dir in [empty, invariants] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}
