//! A bundle's files are the files `mplp validate` lists in its directory:
//! `bundle::files_in` and `listing::list_dir` are one listing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use mplp_check::listing::list_dir;

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mplp-check-listing-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn names(paths: impl IntoIterator<Item = PathBuf>, root: &Path) -> Vec<String> {
    paths
        .into_iter()
        .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_bundle_holds_the_files_a_directory_listing_checks() {
    let dir = scratch("files");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for name in [
        "plan.json",
        "plan.expect.json",
        "log.ndjson",
        "events.jsonl",
        "README.md",
        "sub/context.json",
    ] {
        std::fs::write(dir.join(name), "{}").unwrap();
    }
    let files = mplp_check::bundle::files_in(&dir).unwrap();
    assert_eq!(
        names(files.clone(), &dir),
        [
            "events.jsonl",
            "log.ndjson",
            "plan.json",
            "sub/context.json"
        ]
    );
    let listing = list_dir(&dir);
    let mut listed: Vec<PathBuf> = listing.files().map(Path::to_path_buf).collect();
    listed.sort();
    assert_eq!(listed, files);
    assert_eq!(listing.passed.expect_json.len(), 1);
    assert_eq!(listing.passed.other.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_link_loop_is_an_error_and_a_second_way_in_is_listed_once() {
    let dir = scratch("links");
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("a/plan.json"), "{}").unwrap();
    // A second way into `a`: its files are listed once, with a warning.
    std::os::unix::fs::symlink(dir.join("a"), dir.join("b")).unwrap();
    let listing = list_dir(&dir);
    assert_eq!(
        names(listing.files().map(Path::to_path_buf), &dir),
        ["a/plan.json"]
    );
    let problems: Vec<_> = listing.problems().collect();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, dir.join("b"));
    assert!(!problems[0].1.is_error());
    assert_eq!(problems[0].1.rule, mplp_core::rules::INPUT_SKIPPED);
    assert_eq!(
        names(mplp_check::bundle::files_in(&dir).unwrap(), &dir),
        ["a/plan.json"]
    );

    // A link back to a directory being listed: an error naming the link,
    // and the bundle cannot be read (before, `files_in` walked the loop
    // until the path was too long).
    std::os::unix::fs::symlink(&dir, dir.join("a/up")).unwrap();
    let listing = list_dir(&dir);
    let loops: Vec<_> = listing.problems().filter(|(_, v)| v.is_error()).collect();
    assert_eq!(loops.len(), 1, "{loops:?}");
    assert_eq!(loops[0].0, dir.join("a/up"));
    assert!(
        loops[0].1.message.starts_with("directory loop: "),
        "{}",
        loops[0].1.message
    );
    let e = mplp_check::bundle::files_in(&dir).unwrap_err();
    assert_eq!(e.path, dir.join("a/up"));
    assert!(
        e.source.to_string().starts_with("directory loop: "),
        "{}",
        e.source
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_fifo_in_a_bundle_is_passed_by_without_opening_it() {
    let dir = scratch("fifo");
    std::fs::write(dir.join("plan.json"), "{}").unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(dir.join("pipe.json"))
        .status();
    if !status.is_ok_and(|s| s.success()) {
        assert!(std::env::var_os("CI").is_none(), "mkfifo is missing");
        eprintln!("SKIPPED: mkfifo is missing");
        return;
    }
    // Opening the FIFO would block this test forever: it is not opened.
    assert_eq!(
        names(mplp_check::bundle::files_in(&dir).unwrap(), &dir),
        ["plan.json"]
    );
    let listing = list_dir(&dir);
    let (path, v) = listing.problems().next().unwrap();
    assert_eq!(path, dir.join("pipe.json"));
    assert!(v.message.contains("a FIFO (named pipe)"), "{}", v.message);
    std::fs::remove_dir_all(&dir).unwrap();
}
