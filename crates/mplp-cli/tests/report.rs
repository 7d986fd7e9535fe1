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
    assert_eq!(html.matches("<td><code>input-bom</code></td>").count(), 2);
    // The log's picture marks it too (a finding of the whole log).
    assert!(html.contains("data-rules=\"input-bom\""), "{html}");
}

/// Where the screenshots go, for a person to look at: `target/pictures/`.
fn shots_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("pictures");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The DOM check run inside the page: no HTML element clips what it holds,
/// the page is no wider than the window, every SVG's content lies within
/// its `viewBox` and fills at least half of it each way, and every link
/// finds its target. Writes `ok` or the problems into `#dom-check`.
const DOM_CHECK: &str = r#"<script>
(() => {
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!(el instanceof HTMLElement)) continue;
    const cs = getComputedStyle(el);
    const clips = v => v === 'hidden' || v === 'clip';
    if (clips(cs.overflowX) && el.scrollWidth > el.clientWidth + 1) bad.push('clipped x: ' + el.tagName + '.' + el.className);
    if (clips(cs.overflowY) && el.scrollHeight > el.clientHeight + 1) bad.push('clipped y: ' + el.tagName + '.' + el.className);
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    bad.push('page wider than the window: ' + document.documentElement.scrollWidth);
  document.querySelectorAll('svg').forEach((svg, n) => {
    const vb = svg.viewBox.baseVal;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const c of svg.children) {
      const tag = c.tagName.toLowerCase();
      if (['defs', 'title', 'desc'].includes(tag) || c.classList.contains('background')) continue;
      const b = c.getBBox();
      if (b.width === 0 && b.height === 0) continue;
      x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
      x1 = Math.max(x1, b.x + b.width); y1 = Math.max(y1, b.y + b.height);
    }
    if (x0 < vb.x - 1 || y0 < vb.y - 1 || x1 > vb.x + vb.width + 1 || y1 > vb.y + vb.height + 1)
      bad.push('svg ' + n + ': content ' + [x0, y0, x1, y1].map(Math.round) + ' outside its viewBox ' + [vb.width, vb.height]);
    if (vb.width > 2 * (x1 - x0) || vb.height > 2 * (y1 - y0))
      bad.push('svg ' + n + ': viewBox ' + [vb.width, vb.height] + ' more than twice its content ' + [x1 - x0, y1 - y0].map(Math.round));
  });
  let links = 0;
  for (const a of document.querySelectorAll('a[href]')) {
    links++;
    const h = a.getAttribute('href');
    if (!h.startsWith('#') || !document.getElementById(decodeURIComponent(h.slice(1)))) bad.push('broken link ' + h);
  }
  document.body.insertAdjacentHTML('beforeend', '<pre id="dom-check">' + (bad.length ? bad.join('\n') : 'ok ' + links + ' links') + '</pre>');
})();
</script>"#;

/// Runs [`DOM_CHECK`] on a copy of `page` (the page itself has no script);
/// its verdict.
fn dom_check(browser: &str, dir: &Path, page: &Path) -> String {
    let html = std::fs::read_to_string(page).unwrap();
    let checked = dir.join("checked.html");
    std::fs::write(
        &checked,
        html.replace("</body>", &format!("{DOM_CHECK}</body>")),
    )
    .unwrap();
    let dom = headless(
        browser,
        dir,
        &checked,
        &[
            "--window-size=1280,1000",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ],
    );
    // The last one: the script's own text holds the tag too.
    dom.rsplit("<pre id=\"dom-check\">")
        .next()
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or("the check did not run")
        .to_owned()
}

/// A plan of `n` steps in layers, each after up to three earlier steps.
fn layered_plan(n: usize) -> serde_json::Value {
    use mplp_core::Document as _;
    let mut b = mplp_plan::Plan::builder(mplp_core::ContextId::new(), format!("{n} steps"), "o");
    let mut ids = Vec::new();
    for i in 0..n {
        let mut spec = mplp_plan::StepSpec::new(format!("step number {i} of the generated plan"));
        for d in [i / 2, i.saturating_sub(1), i.saturating_sub(3)] {
            if d < i && (i + d) % 3 != 0 {
                spec = spec.after(ids[d]);
            }
        }
        if i % 4 == 0 {
            spec = spec.role("reviewer");
        }
        ids.push(b.add(spec));
    }
    let mut plan = b.build().unwrap().to_value();
    plan["steps"][2]["status"] = "skipped".into();
    plan
}

/// Every kind of picture, in one report opened in Chromium: the DOM passes
/// [`DOM_CHECK`], and a screenshot of the page and of each picture is
/// saved under `target/pictures/` for a person to look at.
#[test]
fn chromium_checks_the_dom_and_screenshots_every_kind_of_picture() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = scratch("kinds");
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    // A 30-step plan, a 1,000-step plan (the summary by layer), a plan
    // with a cycle in a tangle, a valid session, a session with findings,
    // and a document without a picture.
    let plan30 = write("plan-30.json", layered_plan(30).to_string());
    let plan1000 = write("plan-1000.json", layered_plan(1000).to_string());
    let mut tangled = layered_plan(8);
    let ids: Vec<serde_json::Value> = (0..8)
        .map(|i| tangled["steps"][i]["step_id"].clone())
        .collect();
    tangled["steps"][0]["dependencies"] = serde_json::json!([ids[5], ids[7]]);
    tangled["steps"][1]["dependencies"] = serde_json::json!([ids[0], ids[6]]);
    tangled["steps"][4]["dependencies"] =
        serde_json::json!(["00000000-0000-4000-8000-000000000001"]);
    let cycle = write("plan-cycle.json", tangled.to_string());
    let session = dir.join("session.ndjson");
    std::fs::copy(
        repo().join("schemas/examples/valid/map-log-broadcast.ndjson"),
        &session,
    )
    .unwrap();
    let log =
        std::fs::read_to_string(repo().join("schemas/examples/valid/map-log-round-robin.ndjson"))
            .unwrap();
    let mut lines: Vec<String> = log.lines().map(str::to_owned).collect();
    lines[2] = lines[2].replacen("\"event_id\"", "\"surprise\":1,\"event_id\"", 1);
    lines.insert(4, "{not json".to_owned());
    let bad_session = write("session-invalid.ndjson", lines.join("\n") + "\n");
    let collab = dir.join("collab.json");
    std::fs::copy(
        repo().join("schemas/examples/valid/collab-swarm.json"),
        &collab,
    )
    .unwrap();
    let files = [&plan30, &plan1000, &cycle, &session, &bad_session, &collab];
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
    // The terminal says what failed and where the page is.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("6 files checked: 4 valid, 2 invalid, 0 unreadable"),
        "{err}"
    );
    assert!(
        err.contains(&format!("the page is `{}`", page.display())),
        "{err}"
    );
    assert!(
        err.contains("plan-cycle.json: INVALID (plan), 2 errors; first: /steps/4/dependencies/0 [sa_plan_dependency_exists]"),
        "{err}"
    );
    assert!(
        err.contains("session-invalid.ndjson: INVALID (map-log)"),
        "{err}"
    );

    let verdict = dom_check(&browser, &dir, &page);
    let links: usize = verdict
        .trim()
        .strip_prefix("ok ")
        .and_then(|r| r.strip_suffix(" links"))
        .unwrap_or_else(|| panic!("DOM check: {verdict}"))
        .parse()
        .unwrap();
    assert!(
        links > 6,
        "the index's 6 links and the links to steps: {links}"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    // The index lists the failures first.
    let index = html.split("</nav>").next().unwrap();
    let first = index
        .find("plan-cycle.json")
        .unwrap()
        .max(index.find("session-invalid.ndjson").unwrap());
    assert!(first < index.find("plan-30.json").unwrap(), "{index}");
    // The cycle's error row links to its step in the picture.
    assert!(html.contains("class=\"to-step\""), "links to steps");
    // The invalid log's findings are marked at their lines.
    assert!(
        html.matches("<g class=\"finding\"").count() >= 2,
        "findings marked"
    );
    assert!(
        html.contains("No picture: only plans and MAP logs are drawn"),
        "no-picture note"
    );

    let shots = shots_dir();
    let shoot = |name: &str, file: &Path, size: &str| {
        let png = shots.join(name);
        headless(
            &browser,
            &dir,
            file,
            &[
                &format!("--screenshot={}", png.display()),
                &format!("--window-size={size}"),
            ],
        );
        assert!(
            std::fs::metadata(&png).unwrap().len() > 10_000,
            "{name} is nearly empty"
        );
        eprintln!("screenshot: {}", png.display());
    };
    shoot("report.png", &page, "1280,2400");
    // Each picture on its own.
    for (file, kind, name, size) in [
        (&plan30, "plan", "plan-30.png", "1700,2000"),
        (&plan1000, "plan", "plan-1000-summary.png", "1600,1600"),
        (&cycle, "plan", "plan-cycle.png", "1400,1200"),
    ] {
        let o = mplp(&["plan", "render", "--format", "svg", file.to_str().unwrap()]);
        let svg = write(&format!("{name}.svg"), out(&o));
        let _ = kind;
        shoot(name, &svg, size);
    }
    for (file, name) in [
        (&session, "session.png"),
        (&bad_session, "session-findings.png"),
    ] {
        let o = mplp(&[
            "collab",
            "render",
            "--format",
            "svg",
            file.to_str().unwrap(),
        ]);
        let svg = write(&format!("{name}.svg"), out(&o));
        // `collab render` marks what the validation finds, at its events.
        let marked = out(&o).matches("<g class=\"finding\"").count();
        assert_eq!(
            marked > 0,
            file == &bad_session,
            "{name}: {marked} findings marked"
        );
        let size = window_for(&out(&o));
        shoot(name, &svg, &size);
    }
    // The session with findings as the report draws it (marked rows).
    let marked = html
        .split("<section class=\"file invalid\"")
        .skip(1)
        .find(|s| s.contains("session-invalid.ndjson"))
        .and_then(|s| s.split("<figure class=\"picture\">").nth(1))
        .and_then(|s| s.split("<figcaption>").next())
        .unwrap()
        .to_owned();
    let marked = write("session-marked.svg", marked);
    let size = window_for(&std::fs::read_to_string(&marked).unwrap());
    shoot("session-findings-in-report.png", &marked, &size);
}

/// A window that shows the whole of an SVG picture (its `width` and
/// `height` attributes, plus a margin), so that no part of a screenshot is
/// cut off by the window (the finding marks sit at the right edge).
fn window_for(svg: &str) -> String {
    let attr = |name: &str| -> u32 {
        let start = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        let rest = &svg[start..];
        rest[..rest.find('"').unwrap()]
            .parse::<f64>()
            .unwrap()
            .ceil() as u32
    };
    format!("{},{}", attr("width") + 40, attr("height") + 40)
}
