//! What a run found: per flow, per check, per finding.

use std::fmt::Write as _;

use serde::Serialize;

/// One thing wrong, located.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The file, relative to the flow directory (`expected/plan.json`).
    pub file: String,
    /// The line, for NDJSON and text files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The JSON pointer in the file (`""` for the whole file).
    pub pointer: String,
    /// The rule: an SDK rule id, an invariant id, or a pack rule (`pack-*`).
    pub rule: String,
    /// What was expected and what was found.
    pub message: String,
}

impl Finding {
    /// A finding in `file` at `pointer`.
    pub fn new(file: &str, pointer: &str, rule: &str, message: impl Into<String>) -> Self {
        Finding {
            file: file.to_owned(),
            line: None,
            pointer: pointer.to_owned(),
            rule: rule.to_owned(),
            message: message.into(),
        }
    }

    /// The same finding, at `line`.
    #[must_use]
    pub fn at_line(mut self, line: u64) -> Self {
        self.line = Some(line);
        self
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        let pointer = if self.pointer.is_empty() {
            "(document)"
        } else {
            &self.pointer
        };
        write!(f, " {pointer}: [{}] {}", self.rule, self.message)
    }
}

/// The outcome of a check or a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Checked, and it holds.
    Pass,
    /// Not checked (the reason says why): never counted as passing.
    Skipped,
    /// Checked, and something is wrong.
    Fail,
}

impl Status {
    /// `pass`, `skipped`, `fail`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Skipped => "skipped",
            Status::Fail => "fail",
        }
    }
}

/// One check of a flow: one document validated, one invariant, one pack part.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// What was checked (`validate expected/plan.json`, `invariant map01_plan_uuid`, `pack integrity`).
    pub name: String,
    /// The outcome.
    pub status: Status,
    /// Why it was skipped, or a note on what was (not) checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What is wrong: non-empty exactly when the check failed.
    pub findings: Vec<Finding>,
    /// Warnings of the validators; they do not fail the check.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Finding>,
}

impl Check {
    /// A check that passes or fails by whether `findings` is empty.
    pub fn from_findings(name: impl Into<String>, findings: Vec<Finding>) -> Self {
        Check {
            name: name.into(),
            status: if findings.is_empty() {
                Status::Pass
            } else {
                Status::Fail
            },
            reason: None,
            findings,
            warnings: Vec::new(),
        }
    }

    /// A check that could not be run, and why.
    pub fn skipped(name: impl Into<String>, reason: impl Into<String>) -> Self {
        Check {
            name: name.into(),
            status: Status::Skipped,
            reason: Some(reason.into()),
            findings: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// The outcome of one flow.
#[derive(Clone, Debug, Serialize)]
pub struct FlowReport {
    /// The flow's directory name.
    pub name: String,
    /// `fail` if any check failed; else `skipped` if any check was skipped
    /// (the flow was only partly checked); else `pass`.
    pub status: Status,
    /// Every check, in order.
    pub checks: Vec<Check>,
    /// The global invariants that do not apply to this flow (it lacks the
    /// document they read), as the reference harness skips them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_applicable: Vec<NotApplicable>,
}

/// A global invariant a flow was not checked against, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotApplicable {
    /// The invariant's id.
    pub invariant: String,
    /// Its file (`invariants/confirm.yaml`).
    pub source: String,
    /// Why it does not apply (`the flow has no `confirm` document`).
    pub reason: String,
}

/// The global invariants a run applied.
#[derive(Clone, Debug, Serialize)]
pub struct GlobalSet {
    /// The directory they were read from.
    pub dir: String,
    /// Their ids, in file and then list order.
    pub invariants: Vec<String>,
}

impl FlowReport {
    /// A report over `checks`; the status follows from them.
    pub fn new(name: impl Into<String>, checks: Vec<Check>) -> Self {
        let status = checks
            .iter()
            .map(|c| c.status)
            .max()
            .unwrap_or(Status::Skipped);
        let mut checks = checks;
        if checks.is_empty() {
            checks.push(Check::skipped(
                "flow",
                "nothing to check: no input/, expected/, pack/ or invariants.yaml",
            ));
        }
        FlowReport {
            name: name.into(),
            status,
            checks,
            not_applicable: Vec::new(),
        }
    }

    /// How many checks have `status`.
    pub fn count(&self, status: Status) -> usize {
        self.checks.iter().filter(|c| c.status == status).count()
    }
}

/// The outcome of a run over a directory of flows.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// One report per flow, in name order.
    pub flows: Vec<FlowReport>,
    /// The global invariants applied to every flow, if any were found.
    pub global_invariants: Option<GlobalSet>,
}

impl RunReport {
    /// How many flows have `status`.
    pub fn count(&self, status: Status) -> usize {
        self.flows.iter().filter(|f| f.status == status).count()
    }

    /// True when no flow failed. Skipped flows do not fail a run, but they
    /// are not passes either: see [`RunReport::all_passed`].
    pub fn no_failures(&self) -> bool {
        self.count(Status::Fail) == 0
    }

    /// True when every flow was fully checked and passed.
    pub fn all_passed(&self) -> bool {
        !self.flows.is_empty() && self.flows.iter().all(|f| f.status == Status::Pass)
    }

    /// The report for people: a line per flow, the failures and skip
    /// reasons under it, and a closing line with the counts.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for flow in &self.flows {
            let _ = writeln!(
                out,
                "{}: {} ({} checks: {} passed, {} failed, {} skipped)",
                flow.name,
                flow.status.as_str().to_uppercase(),
                flow.checks.len(),
                flow.count(Status::Pass),
                flow.count(Status::Fail),
                flow.count(Status::Skipped),
            );
            for check in &flow.checks {
                match check.status {
                    Status::Fail => {
                        let _ = writeln!(out, "  FAIL {}", check.name);
                        for f in &check.findings {
                            let _ = writeln!(out, "    error: {f}");
                        }
                    }
                    Status::Skipped => {
                        let reason = check.reason.as_deref().unwrap_or("no reason given");
                        let _ = writeln!(out, "  SKIP {}: {reason}", check.name);
                    }
                    Status::Pass => {}
                }
                for w in &check.warnings {
                    let _ = writeln!(out, "    warning: {w}");
                }
            }
        }
        let (p, f, s) = (
            self.count(Status::Pass),
            self.count(Status::Fail),
            self.count(Status::Skipped),
        );
        let _ = writeln!(
            out,
            "{} flow{}: {p} passed, {f} failed, {s} skipped",
            self.flows.len(),
            if self.flows.len() == 1 { "" } else { "s" },
        );
        if let Some(g) = &self.global_invariants {
            let _ = writeln!(
                out,
                "global invariants: {} from {} (each applied to the flows that have its document)",
                g.invariants.len(),
                g.dir,
            );
        }
        if s > 0 {
            let _ = writeln!(
                out,
                "NOTE: {s} flow{} only partly checked (SKIPPED above, with reasons): not counted as passing",
                if s == 1 { " was" } else { "s were" },
            );
        }
        out
    }
}
