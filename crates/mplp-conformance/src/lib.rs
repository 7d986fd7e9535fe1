//! Runs MPLP v1.0.0 golden flows: directories laid out like the published
//! `golden/flows/` (one directory per flow with `input/*.json`,
//! `expected/*.json`, an optional `invariants.yaml` and an optional
//! evidence `pack/`).
//!
//! For each flow the runner:
//! 1. validates every `input/` and `expected/` document with the SDK's
//!    validator for its kind, looked up by file stem in the one table of
//!    document kinds, [`mplp_check::KINDS`] (see [`registry`]); a document
//!    no kind is named after is reported as **skipped, with the reason** —
//!    never as passed;
//! 2. checks the evidence `pack/` if there is one: required files,
//!    `manifest.json`, the `timeline/events.ndjson` events, and every
//!    sha256 of `integrity/sha256sums.txt` (and that it lists every file);
//! 3. checks the rules between documents (mplp-check: a plan's Context
//!    and Confirm, a trace's Context and Plan, ...) over `input/` and over
//!    `expected/`, each read as one bundle;
//! 4. evaluates `invariants.yaml` with an interpreter of its rule language
//!    (see [`invariants`]) over the flow's documents: `expected/` first,
//!    then `pack/artifacts/`, then `input/`, by scope name (file stem);
//! 5. applies the global invariants (`golden/invariants/*.yaml`, found
//!    beside the flows directory, or named with
//!    [`GlobalInvariants::Dir`]) as the reference harness does: to the
//!    flow's module documents (`expected/` first, then `input/`; not the
//!    pack's evidence artifacts), each file's invariants to the document
//!    its stem names. A flow without that document lists the invariant as
//!    not applicable ([`FlowReport::not_applicable`]); it does not fail.
//!
//! A flow is `fail` if any check failed, else `skipped` if any check could
//! not be run, else `pass`. The CLI (`mplp conformance DIR`) exits 0 when no
//! flow failed, and says loudly how many were skipped
//! (`--deny-skipped` makes skipped flows fail the run).
//!
//! The runner checks the published fixtures themselves; it does not run an
//! MPLP runtime, so the reference harness's comparison of a runtime's output
//! with `expected/` has nothing to compare and is not done.
//!
//! # Dependencies, and why
//! - `yaml-rust2`: `invariants.yaml`. A maintained, pure-Rust YAML 1.2
//!   parser with the workspace's MSRV (`serde_yaml` is deprecated; its forks
//!   bind `unsafe-libyaml`); the invariants are read into our own types with
//!   a finding per malformed entry.
//! - `sha2` (0.10, MSRV 1.72): the packs' `sha256sums.txt`.
//! - The module crates: their `Document::validate_json` and log validators,
//!   through the one table of kinds, [`mplp_check::KINDS`].
//!
//! Decisions where the published suite is silent or lenient are in
//! `docs/spec-notes.md` ("mplp-conformance: golden-flow runner").
//!
//! ```
//! use mplp_conformance::{run_dir, Status};
//! # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/flows");
//! let report = run_dir(&dir, None)?;
//! let flow = report.flows.iter().find(|f| f.name == "good-plan").unwrap();
//! assert_eq!(flow.status, Status::Pass);
//! print!("{}", report.to_text());
//! # Ok::<(), mplp_conformance::RunError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod invariants;
pub mod pack;
mod path;
pub mod registry;
mod report;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use invariants::{Invariant, Scopes};
pub use registry::Validator;
pub use report::{Check, Finding, FlowReport, GlobalSet, NotApplicable, RunReport, Status};

/// Why a run could not start.
#[derive(Debug)]
pub enum RunError {
    /// The directory cannot be read.
    Io(PathBuf, std::io::Error),
    /// `--flow NAME` names no flow of the directory.
    NoSuchFlow {
        /// The name asked for.
        name: String,
        /// The flows there are.
        available: Vec<String>,
    },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Io(p, e) => write!(f, "cannot read `{}`: {e}", p.display()),
            RunError::NoSuchFlow { name, available } => write!(
                f,
                "no flow named `{name}`; the flows are: {}",
                available.join(", ")
            ),
        }
    }
}

impl std::error::Error for RunError {}

/// Whether `dir` looks like one flow (rather than a directory of flows):
/// a flow directory, or a standalone evidence pack ([`is_pack_dir`]).
pub fn is_flow_dir(dir: &Path) -> bool {
    ["input", "expected", "pack"]
        .iter()
        .any(|d| dir.join(d).is_dir())
        || dir.join("invariants.yaml").is_file()
        || is_pack_dir(dir)
}

/// Whether `dir` is a standalone evidence pack (`manifest.json` and
/// `timeline/` at its top, as `mplp sa simulate` and the runtime's
/// directory store write them): it is checked as the `pack/` of a flow
/// named after the directory.
pub fn is_pack_dir(dir: &Path) -> bool {
    dir.join("manifest.json").is_file() && dir.join("timeline").is_dir()
}

/// Where a run finds the global invariants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum GlobalInvariants {
    /// The `invariants/` directory beside the flows directory (the
    /// published layout: `golden/flows/` and `golden/invariants/`), when
    /// there is one; for a single flow, beside its parent.
    #[default]
    Beside,
    /// The `*.yaml` files of this directory.
    Dir(PathBuf),
    /// None.
    Off,
}

/// How a run goes.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Run only the flow with this directory name.
    pub only: Option<String>,
    /// Where the global invariants are.
    pub global_invariants: GlobalInvariants,
}

/// The global invariants of a run, read once.
struct Globals {
    invariants: Vec<Invariant>,
    /// What is wrong with the files (each flow gets them as a failing check).
    problems: Vec<Finding>,
}

impl Globals {
    fn load(dir: Option<&Path>) -> (Globals, Option<PathBuf>) {
        let mut g = Globals {
            invariants: Vec::new(),
            problems: Vec::new(),
        };
        let Some(dir) = dir else { return (g, None) };
        let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
            Ok(rd) => rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
                .collect(),
            Err(e) => {
                g.problems.push(Finding::new(
                    &dir.display().to_string(),
                    "",
                    "io",
                    format!("cannot list the global invariants: {e}"),
                ));
                return (g, Some(dir.to_path_buf()));
            }
        };
        files.sort();
        for path in files {
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let file = format!("invariants/{name}");
            let scope = name.split('.').next().unwrap_or_default().to_owned();
            let parsed = std::fs::read_to_string(&path)
                .map_err(|e| vec![Finding::new(&file, "", "io", format!("cannot read: {e}"))])
                .and_then(|text| invariants::parse_global_invariants(&text, &file, &scope));
            match parsed {
                Ok(list) => g.invariants.extend(list),
                Err(findings) => g.problems.extend(findings),
            }
        }
        (g, Some(dir.to_path_buf()))
    }
}

/// Runs every flow below `dir` (its subdirectories that look like flows, in
/// name order), or only the one named `only`. If `dir` is itself a flow, runs it.
/// The global invariants beside the flows apply ([`GlobalInvariants::Beside`]).
pub fn run_dir(dir: &Path, only: Option<&str>) -> Result<RunReport, RunError> {
    run_dir_with(
        dir,
        &RunOptions {
            only: only.map(str::to_owned),
            ..RunOptions::default()
        },
    )
}

/// [`run_dir`] with every option.
pub fn run_dir_with(dir: &Path, options: &RunOptions) -> Result<RunReport, RunError> {
    let only = options.only.as_deref();
    let io = |e| RunError::Io(dir.to_path_buf(), e);
    let mut flows: Vec<PathBuf> = if is_flow_dir(dir) {
        vec![dir.to_path_buf()]
    } else {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            // Only a directory can hold what makes a flow.
            if is_flow_dir(&path) {
                found.push(path);
            }
        }
        found
    };
    flows.sort();
    let globals_dir = match &options.global_invariants {
        GlobalInvariants::Off => None,
        GlobalInvariants::Dir(d) => Some(d.clone()),
        GlobalInvariants::Beside => {
            let flows_dir = if is_flow_dir(dir) {
                dir.parent()
            } else {
                Some(dir)
            };
            flows_dir
                .and_then(Path::parent)
                .map(|p| p.join("invariants"))
                .filter(|p| p.is_dir())
        }
    };
    if let Some(name) = only {
        let available: Vec<String> = flows.iter().map(|p| flow_name(p)).collect();
        flows.retain(|p| flow_name(p) == name);
        if flows.is_empty() {
            return Err(RunError::NoSuchFlow {
                name: name.to_owned(),
                available,
            });
        }
    }
    let (globals, global_dir) = Globals::load(globals_dir.as_deref());
    Ok(RunReport {
        flows: flows.iter().map(|p| run_flow_with(p, &globals)).collect(),
        global_invariants: global_dir.map(|d| report::GlobalSet {
            dir: d.display().to_string(),
            invariants: globals.invariants.iter().map(|i| i.id.clone()).collect(),
        }),
    })
}

fn flow_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string())
}

/// The documents found for invariant evaluation, with the file each came from.
struct Docs {
    scopes: Scopes,
    files: Vec<(String, String)>,
}

impl Docs {
    /// Adds `value` as scope `stem` unless a higher-precedence file already gave it.
    fn offer(&mut self, stem: &str, file: &str, value: Value) {
        if !self.scopes.contains_key(stem) {
            self.scopes.insert(stem.to_owned(), value);
            self.files.push((stem.to_owned(), file.to_owned()));
        }
    }

    fn file_of(&self, scope: &str) -> String {
        self.files
            .iter()
            .find(|(s, _)| s == scope)
            .map_or_else(|| format!("({scope})"), |(_, f)| f.clone())
    }
}

/// Runs one flow directory, without global invariants.
pub fn run_flow(dir: &Path) -> FlowReport {
    run_flow_with(
        dir,
        &Globals {
            invariants: Vec::new(),
            problems: Vec::new(),
        },
    )
}

fn run_flow_with(dir: &Path, globals: &Globals) -> FlowReport {
    let name = flow_name(dir);
    let mut checks = Vec::new();
    let mut docs = Docs {
        scopes: Scopes::new(),
        files: Vec::new(),
    };
    // Precedence of documents for the invariants: expected, pack artifacts, input.
    let expected = validate_documents(dir, "expected", &mut checks);
    let mut artifacts = Vec::new();
    let pack_at = if dir.join("pack").is_dir() {
        Some((dir.join("pack"), "pack/"))
    } else if is_pack_dir(dir) {
        Some((dir.to_path_buf(), ""))
    } else {
        None
    };
    if let Some((pack_dir, prefix)) = pack_at {
        checks.extend(pack::check_pack(&pack_dir, &name, prefix));
        artifacts = read_artifacts(&pack_dir, prefix, &mut checks);
    }
    let input = validate_documents(dir, "input", &mut checks);
    // The cross-document rules: `input/` and `expected/` are one bundle each.
    for sub in ["input", "expected"] {
        if dir.join(sub).is_dir() {
            checks.push(bundle_check(dir, sub));
        }
    }
    // The global invariants read the module documents only, as the
    // reference harness (it loads `input/` and `expected/`).
    let mut modules = Docs {
        scopes: Scopes::new(),
        files: Vec::new(),
    };
    for (stem, file, value) in expected.iter().chain(&input) {
        modules.offer(stem, file, value.clone());
    }
    for (stem, file, value) in expected.into_iter().chain(artifacts).chain(input) {
        docs.offer(&stem, &file, value);
    }
    let inv_path = dir.join("invariants.yaml");
    if inv_path.is_file() {
        match std::fs::read_to_string(&inv_path) {
            Err(e) => checks.push(Check::from_findings(
                "invariants.yaml",
                vec![Finding::new(
                    "invariants.yaml",
                    "",
                    invariants::RULE_SYNTAX,
                    format!("cannot read: {e}"),
                )],
            )),
            Ok(text) => match invariants::parse_invariants(&text, "invariants.yaml") {
                Err(findings) => checks.push(Check::from_findings("invariants.yaml", findings)),
                Ok(list) => {
                    for inv in &list {
                        let findings =
                            invariants::evaluate(inv, &docs.scopes, &|s| docs.file_of(s));
                        checks.push(Check::from_findings(
                            format!("invariant {}", inv.id),
                            findings,
                        ));
                    }
                }
            },
        }
    }
    if !globals.problems.is_empty() {
        checks.push(Check::from_findings(
            "global invariants",
            globals.problems.clone(),
        ));
    }
    let mut not_applicable = Vec::new();
    for inv in &globals.invariants {
        let source = inv.source.clone().unwrap_or_default();
        if !modules.scopes.contains_key(&inv.scope) {
            not_applicable.push(NotApplicable {
                invariant: inv.id.clone(),
                source,
                reason: format!("the flow has no `{}` document", inv.scope),
            });
            continue;
        }
        let findings = invariants::evaluate(inv, &modules.scopes, &|s| modules.file_of(s));
        let mut check = Check::from_findings(format!("global invariant {}", inv.id), findings);
        check.reason = Some(format!("from {source}"));
        checks.push(check);
    }
    let mut report = FlowReport::new(name, checks);
    report.not_applicable = not_applicable;
    report
}

/// Validates the `.json`/`.ndjson` files of `dir/sub`; returns the JSON
/// documents parsed (stem, file, value) for the invariants.
fn validate_documents(
    dir: &Path,
    sub: &str,
    checks: &mut Vec<Check>,
) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (stem, rel, path) in list_docs(&dir.join(sub), sub, checks) {
        let check_name = format!("validate {rel}");
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                checks.push(Check::from_findings(
                    check_name,
                    vec![Finding::new(&rel, "", "io", format!("cannot read: {e}"))],
                ));
                continue;
            }
        };
        let is_log = rel.ends_with(".ndjson");
        let parsed = if is_log {
            None
        } else {
            serde_json::from_slice::<Value>(&bytes).ok()
        };
        let check = match registry::validator(&stem) {
            Some(validator) => from_report(check_name, &rel, &validator.validate(&bytes)),
            None if is_log || parsed.is_some() => Check::skipped(
                check_name,
                format!("no MPLP module or log kind is named `{stem}`"),
            ),
            // Not JSON: that much can be said without a module validator.
            None => Check::from_findings(check_name, vec![json_syntax(&rel, &bytes)]),
        };
        checks.push(check);
        if let Some(v) = parsed {
            out.push((stem, rel, v));
        }
    }
    out
}

/// The binding rules of mplp-check over the documents of `dir/sub`, read
/// as one bundle (the documents' own findings are in their `validate`
/// checks). Errors fail the check; a partner outside the bundle and the
/// other warnings are kept as warnings.
fn bundle_check(dir: &Path, sub: &str) -> Check {
    let name = format!("bundle {sub}/");
    let files: Vec<PathBuf> = list_docs(&dir.join(sub), sub, &mut Vec::new())
        .into_iter()
        .map(|(_, _, p)| p)
        .collect();
    let report = match mplp_check::bundle::check_files(&files) {
        Ok(r) => r,
        Err(e) => {
            return Check::from_findings(
                name,
                vec![Finding::new(sub, "", "io", format!("{e}: {}", e.source))],
            );
        }
    };
    let (mut errors, mut warnings) = (Vec::new(), Vec::new());
    for doc in &report.documents {
        let file = Path::new(&doc.name)
            .file_name()
            .map_or_else(|| doc.name.clone(), |n| n.to_string_lossy().into_owned());
        let rel = format!("{sub}/{file}");
        for v in doc.report.violations() {
            if !mplp_check::bundle::is_binding_rule(v.rule) {
                continue;
            }
            let finding = Finding::new(&rel, &v.pointer, v.rule.as_str(), v.message.clone());
            if v.is_error() {
                errors.push(finding);
            } else {
                warnings.push(finding);
            }
        }
    }
    let mut check = Check::from_findings(name, errors);
    check.warnings = warnings;
    check
}

/// Reads `pack/artifacts/*.json` (`pack_dir/artifacts`, named with
/// `prefix`) for the invariants. They are evidence
/// documents of the pack, not module documents (the published ones lack
/// `meta` and use UUID v5 ids), so they are not schema-validated — as in the
/// reference evaluator — only parsed.
fn read_artifacts(
    pack_dir: &Path,
    prefix: &str,
    checks: &mut Vec<Check>,
) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    let mut findings = Vec::new();
    let sub = format!("{prefix}artifacts");
    for (stem, rel, path) in list_docs(&pack_dir.join("artifacts"), &sub, checks) {
        let Some(name) = path.file_name() else {
            continue;
        };
        let bytes =
            match pack::read_inside(pack_dir, &format!("artifacts/{}", name.to_string_lossy())) {
                Ok(b) => b,
                Err(e) => {
                    findings.push(Finding::new(
                        &rel,
                        "",
                        "pack-integrity",
                        format!("cannot read: {e}"),
                    ));
                    continue;
                }
            };
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(v) => out.push((stem, rel, v)),
            Err(_) => findings.push(json_syntax(&rel, &bytes)),
        }
    }
    let mut check = Check::from_findings("pack artifacts parse", findings);
    check.reason = Some(
        "pack artifacts are evidence documents, not module documents: parsed and used by the invariants, not schema-validated".into(),
    );
    checks.push(check);
    out
}

fn json_syntax(rel: &str, bytes: &[u8]) -> Finding {
    let msg = match serde_json::from_slice::<Value>(bytes) {
        Err(e) => format!("not JSON: {e}"),
        Ok(_) => "not JSON".to_owned(),
    };
    Finding::new(rel, "", "json-syntax", msg)
}

/// The `.json`/`.ndjson` files of `dir` (stem, `sub/name`, path), in name order.
fn list_docs(dir: &Path, sub: &str, checks: &mut Vec<Check>) -> Vec<(String, String, PathBuf)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        if dir.exists() {
            checks.push(Check::from_findings(
                format!("read {sub}/"),
                vec![Finding::new(sub, "", "io", "cannot list the directory")],
            ));
        }
        return Vec::new();
    };
    let mut out: Vec<(String, String, PathBuf)> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter_map(|p| {
            let file = p.file_name()?.to_str()?.to_owned();
            let stem = file
                .strip_suffix(".json")
                .or_else(|| file.strip_suffix(".ndjson"))?
                .to_owned();
            Some((stem, format!("{sub}/{file}"), p))
        })
        .collect();
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

/// A check from a validator's report: errors fail it, warnings are kept.
fn from_report(name: String, file: &str, report: &mplp_core::Report) -> Check {
    let conv = |v: &mplp_core::Violation| Finding {
        file: file.to_owned(),
        line: v.line,
        pointer: v.pointer.clone(),
        rule: v.rule.as_str().to_owned(),
        message: v.message.clone(),
    };
    let mut check = Check::from_findings(name, report.errors().map(conv).collect());
    check.warnings = report.warnings().map(conv).collect();
    check
}
