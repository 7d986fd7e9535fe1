//! The Mermaid the SDK writes, parsed by Mermaid itself: the
//! `mermaid` npm package runs in headless Chromium and `mermaid.parse`
//! reads every plan and session diagram, hostile labels and role ids
//! included. A diagram known to be broken must be refused, so the test
//! cannot pass without a working parser. Needs chromium and the package
//! (`.ci/run` installs both: `npm install --prefix target/mermaid
//! mermaid@11`); without them it is skipped loudly, and fails when `CI` is
//! set.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::Command;

use mplp_collab::render::mermaid_sequence;
use mplp_collab::simulate::{SimConfig, simulate};
use mplp_collab::sink::MemorySink;
use mplp_core::{CollabMode, ContextId, Document};
use mplp_plan::{Plan, StepSpec, render};

/// Role ids and texts that are Mermaid keywords or markup.
const HOSTILE: [&str; 16] = [
    "end",
    "loop",
    "note",
    "alt",
    "opt",
    "par",
    "participant",
    "a;b",
    "x:y",
    "say \"hi\"",
    "%%{init}%%",
    "<b>bold</b>",
    "#1 & #2",
    "line\nbreak",
    "{curly} [square]",
    "ünï 🚀",
];

/// The bundle of the `mermaid` package, when installed.
fn mermaid_js() -> Option<PathBuf> {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_owned();
    let path = std::env::var_os("MPLP_MERMAID_JS").map_or_else(
        || target.join("mermaid/node_modules/mermaid/dist/mermaid.min.js"),
        PathBuf::from,
    );
    path.is_file().then_some(path)
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|b| {
        Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The diagrams to parse: plans and sessions with hostile text.
fn diagrams() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (n, text) in HOSTILE.iter().enumerate() {
        let mut b = Plan::builder(ContextId::new(), format!("Plan {text}"), "o");
        let a = b.add(StepSpec::new(format!("read {text}")).role(text.to_string()));
        let c = b.add(StepSpec::new((*text).to_owned()).after(a));
        b.add(StepSpec::new(format!("{text} {text}")).after(a).after(c));
        let plan = b.build().unwrap();
        out.push((format!("plan {n}"), render::mermaid(&plan)));
    }
    // An invalid plan: a cycle, a self-dependency and a missing step.
    let mut b = Plan::builder(ContextId::new(), "Broken", "o");
    let a = b.step("a");
    let bb = b.step_after("b", &[a]);
    b.step_after("c", &[bb]);
    let mut json = b.build().unwrap().to_value();
    let ids: Vec<serde_json::Value> = (0..3)
        .map(|i| json["steps"][i]["step_id"].clone())
        .collect();
    json["steps"][0]["dependencies"] =
        serde_json::json!([ids[2], ids[0], "00000000-0000-4000-8000-000000000001"]);
    let broken = <Plan as mplp_core::Wire>::deserialize_unchecked(&json).unwrap();
    out.push(("invalid plan".to_owned(), render::mermaid(&broken)));
    for chunk in HOSTILE.chunks(4) {
        let mut b = Plan::builder(ContextId::new(), "T", "o");
        let mut prev = None;
        for role in chunk {
            let mut spec = StepSpec::new(format!("do; #it {role}")).role((*role).to_owned());
            if let Some(p) = prev {
                spec = spec.after(p);
            }
            prev = Some(b.add(spec));
        }
        let plan = b.build().unwrap();
        for mode in [
            CollabMode::RoundRobin,
            CollabMode::Broadcast,
            CollabMode::Orchestrated,
        ] {
            let mut sink = MemorySink::new();
            let config = SimConfig::new(mode, chunk.len().max(2), 6).with_plan(plan.clone());
            simulate(&config, &mut sink).unwrap();
            out.push((
                format!("session {mode} {chunk:?}"),
                mermaid_sequence(&sink.events),
            ));
        }
    }
    out
}

#[test]
fn mermaid_parses_every_diagram() {
    let (Some(js), Some(browser)) = (mermaid_js(), chromium()) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium or the mermaid package is missing, and CI is set: .ci/run installs both"
        );
        eprintln!(
            "SKIPPED: needs chromium and the mermaid npm package (npm install --prefix target/mermaid mermaid@11); the diagrams were not parsed by Mermaid"
        );
        return;
    };
    let mut cases = diagrams();
    // The control: a keyword as a bare participant name breaks Mermaid.
    cases.push((
        "control".to_owned(),
        "sequenceDiagram\n  participant end\n  end->>end: hi\n".to_owned(),
    ));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mermaid-parse");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let texts: Vec<&str> = cases.iter().map(|(_, t)| t.as_str()).collect();
    // Nothing in the data can end the script element: `<` only occurs in
    // JSON strings, where `\u003c` means the same.
    let data = serde_json::to_string(&texts)
        .unwrap()
        .replace('<', "\\u003c");
    let page = dir.join("parse.html");
    std::fs::write(
        &page,
        format!(
            r#"<!DOCTYPE html><html><head><meta charset="utf-8"><script src="file://{}"></script></head><body><pre id="results">pending</pre>
<script>
const texts = {data};
(async () => {{
  mermaid.initialize({{ startOnLoad: false }});
  const lines = [];
  for (const t of texts) {{
    try {{ const r = await mermaid.parse(t); lines.push(r ? "ok " + r.diagramType : "ok"); }}
    catch (e) {{ lines.push("error " + String(e && e.message || e).split("\n").join(" ")); }}
  }}
  document.getElementById("results").textContent = lines.join("\n");
}})();
</script></body></html>"#,
            js.display()
        ),
    )
    .unwrap();
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-quic",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            "--virtual-time-budget=30000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dom = String::from_utf8_lossy(&o.stdout);
    let results = dom
        .split("<pre id=\"results\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap();
    let lines: Vec<&str> = results.lines().collect();
    assert_eq!(
        lines.len(),
        cases.len(),
        "Mermaid did not finish: {results}"
    );
    let (control, diagrams) = lines.split_last().unwrap();
    assert!(
        control.starts_with("error"),
        "the broken control diagram parsed: {control}"
    );
    for ((name, text), result) in cases.iter().zip(diagrams) {
        assert!(result.starts_with("ok"), "{name}: {result}\n{text}");
    }
    assert!(diagrams.iter().any(|r| r.contains("sequence")), "{results}");
    assert!(
        diagrams.iter().any(|r| r.contains("flowchart")),
        "{results}"
    );
}
