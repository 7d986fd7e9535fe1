//! `mplp report`, opened in a real browser: Debian's `chromium`
//! in headless mode loads the page from a file, and the test checks the DOM
//! it built (one section per file, one step node per plan step, one error
//! row per error `mplp validate` finds) and that its screenshot is not
//! blank. Without chromium the browser part is skipped loudly, and fails
//! when `CI` is set (`.ci/run` installs chromium).

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{mplp, mplp_to_full_device, repo, stdout as out};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("report-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The files of the report: a valid plan, an invalid plan, a MAP log.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let copy = |from: &str, to: &str| {
        let path = dir.join(to);
        std::fs::copy(repo().join(from), &path).unwrap();
        path
    };
    let plan = copy(
        "schemas/examples/valid/plan-code-review-dag.json",
        "a-plan.json",
    );
    // The same plan with a cycle: its first step waits for its last.
    let mut broken: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&plan).unwrap()).unwrap();
    let last = broken["steps"][4]["step_id"].clone();
    broken["steps"][0]["dependencies"] = serde_json::json!([last]);
    let broken_path = dir.join("b-broken-plan.json");
    std::fs::write(&broken_path, broken.to_string()).unwrap();
    vec![
        plan,
        broken_path,
        copy(
            "schemas/examples/valid/map-log-broadcast.ndjson",
            "c-session.ndjson",
        ),
    ]
}

/// `mplp validate --format json`'s records of `files`.
fn records(files: &[PathBuf]) -> Vec<serde_json::Value> {
    let mut args = vec!["validate", "--format", "json"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    out(&mplp(&args))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The chromium binary, if the machine has one.
fn chromium() -> Option<String> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .map(str::to_owned);
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is missing, and CI is set: .ci/run installs it (apt-get install chromium)"
        );
        eprintln!(
            "SKIPPED: chromium is not installed (apt-get install chromium); the report was not opened in a browser"
        );
    }
    found
}

/// Runs headless chromium on `page` with `args`; its standard output.
fn headless(browser: &str, dir: &Path, page: &Path, args: &[&str]) -> String {
    let profile = dir.join("profile");
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            // No background connections: CI's network is closed.
            "--disable-quic",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_report_is_self_contained_and_says_what_validate_says() {
    let dir = scratch("page");
    let files = inputs(&dir);
    let page = dir.join("report.html");
    let mut args = vec!["report", "-o", page.to_str().unwrap()];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let o = mplp(&args);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    // Nothing loaded from elsewhere.
    for banned in ["<script", "<link", " src=", "@import", "url(http"] {
        assert!(!html.contains(banned), "{banned}");
    }
    let without_xmlns = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(!without_xmlns.contains("http://") && !without_xmlns.contains("https://"));
    let errors: u64 = records(&files)
        .iter()
        .map(|r| r["error_count"].as_u64().unwrap())
        .sum();
    assert!(errors > 0);
    assert_eq!(html.matches("<tr class=\"error\">").count() as u64, errors);
    // Standard output when no `-o`, and the same page.
    let mut args = vec!["report"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    assert_eq!(out(&mplp(&args)), html);
    // A missing file is unreadable: exit 2, still a section.
    let o = mplp(&["report", "no/such/file.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(out(&o).contains("class=\"file unreadable\""));
}

#[test]
fn chromium_renders_the_report() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = scratch("browser");
    let files = inputs(&dir);
    let page = dir.join("report.html");
    let mut args = vec!["report", "-o", page.to_str().unwrap()];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    assert_eq!(mplp(&args).status.code(), Some(1));

    let dom = headless(&browser, &dir, &page, &["--dump-dom"]);
    assert!(dom.contains("<h1>MPLP validation report</h1>"), "{dom}");
    assert_eq!(
        dom.matches("<section class=\"file ").count(),
        files.len(),
        "{dom}"
    );
    // One step node per step of the valid plan (the broken plan is drawn
    // too: its steps are read without its rules).
    let steps: usize = files[..2]
        .iter()
        .map(|f| {
            let v: serde_json::Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
            v["steps"].as_array().unwrap().len()
        })
        .sum();
    assert_eq!(dom.matches("<g class=\"step\"").count(), steps, "{dom}");
    let recs = records(&files);
    let errors: u64 = recs
        .iter()
        .map(|r| r["error_count"].as_u64().unwrap())
        .sum();
    assert_eq!(dom.matches("<tr class=\"error\">").count() as u64, errors);
    let warnings: u64 = recs
        .iter()
        .map(|r| r["warning_count"].as_u64().unwrap())
        .sum();
    assert_eq!(
        dom.matches("<tr class=\"warning\">").count() as u64,
        warnings
    );
    // The session picture: one lifeline per role of the log plus `session`.
    assert!(dom.matches("<g class=\"lifeline\"").count() >= 3, "{dom}");
    // Each verdict as a word.
    for verdict in ["valid", "invalid"] {
        assert!(dom.contains(&format!("<span class=\"verdict\">{verdict}</span>")));
    }

    let shot = dir.join("report.png");
    headless(
        &browser,
        &dir,
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600",
        ],
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bytes = &buf[..info.buffer_size()];
    let channels = info.color_type.samples();
    let pixels: Vec<&[u8]> = bytes.chunks(channels).collect();
    let not_white = pixels
        .iter()
        .filter(|p| p[..3].iter().any(|&c| c < 235))
        .count();
    assert!(
        not_white * 50 > pixels.len(),
        "the screenshot is nearly blank: {not_white} of {} pixels are not white",
        pixels.len()
    );
    // The invalid verdict's red badge is on screen.
    let reddish = pixels
        .iter()
        .filter(|p| p[0] > 200 && p[1] < 215 && p[2] < 215 && p[0] > p[1] + 20)
        .count();
    assert!(
        reddish > 50,
        "no red verdict badge in the screenshot ({reddish} pixels)"
    );
}

#[test]
fn the_exit_status_follows_the_worst_file_and_a_failed_write() {
    let plan = "schemas/examples/valid/plan-minimal.json";
    let o = mplp(&["report", plan]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out(&o).contains("1 file checked: 1 valid, 0 invalid, 0 unreadable."));
    // Standard output that cannot be written (a full device): exit 2.
    let o = mplp_to_full_device(&["report", plan]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot write the output"), "{err}");
}

/// A document and a log that start with a byte-order mark: the page shows
/// the `input-bom` warning for each, as `mplp validate` reports it (both go
/// through the one dispatch), and nothing goes to standard error.
#[test]
fn the_report_shows_a_byte_order_mark_as_validate_does() {
    let dir = scratch("bom");
    let mut files = Vec::new();
    for (from, to) in [
        ("schemas/examples/valid/plan-minimal.json", "plan.json"),
        (
            "schemas/examples/valid/map-log-broadcast.ndjson",
            "session.ndjson",
        ),
    ] {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(std::fs::read(repo().join(from)).unwrap());
        let path = dir.join(to);
        std::fs::write(&path, bytes).unwrap();
        files.push(path);
    }
    for record in records(&files) {
        let warnings: Vec<&str> = record["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["rule"].as_str().unwrap())
            .collect();
        assert_eq!(warnings, ["input-bom"], "{record}");
    }
    let mut args = vec!["report"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let o = mplp(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let html = out(&o);
    assert_eq!(html.matches("<tr class=\"warning\">").count(), 2, "{html}");
    assert_eq!(html.matches("input-bom").count(), 2);
}
