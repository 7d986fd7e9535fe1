//! `cargo xtask msrv`: is the workspace `rust-version` true?
//!
//! Only one toolchain is installed where CI runs, so the MSRV is not proven
//! by building with that old compiler; instead every package of the lock
//! file that a build can compile is checked against it, using each
//! package's own declared `rust-version` (as cargo's MSRV-aware resolver
//! does). Two trees are checked, both against the workspace `rust-version`:
//!
//! - the **library tree**: the normal and build dependencies, with every
//!   feature, of each publishable workspace crate (what a user compiles);
//! - the **development tree**: the dev-dependencies of every workspace
//!   member, and the dependencies of the members that are not published
//!   (xtask, test crates), with what they pull in (what a contributor
//!   compiles for `cargo test --workspace` and `cargo bench`).
//!
//! A package without a `rust-version` is reported but not counted: nothing
//! can be said about it. Targets of every platform are included (a
//! Windows-only dependency counts too).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// A Rust version `MAJOR.MINOR[.PATCH]`, compared numerically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct RustVersion(u64, u64, u64);

impl RustVersion {
    pub(crate) fn parse(s: &str) -> Result<Self, String> {
        let mut parts = s.split('.').map(|p| p.parse::<u64>());
        let mut next = |required: bool| match parts.next() {
            Some(Ok(n)) => Ok(n),
            None if !required => Ok(0),
            _ => Err(format!("`{s}` is not a Rust version (MAJOR.MINOR[.PATCH])")),
        };
        let v = RustVersion(next(true)?, next(true)?, next(false)?);
        match parts.next() {
            None => Ok(v),
            Some(_) => Err(format!("`{s}` is not a Rust version (MAJOR.MINOR[.PATCH])")),
        }
    }
}

impl std::fmt::Display for RustVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// One locked package that needs a newer Rust than the workspace says.
#[derive(Debug, PartialEq)]
pub(crate) struct TooNew {
    pub(crate) tree: &'static str,
    pub(crate) package: String,
    pub(crate) needs: RustVersion,
}

/// The outcome of the check over a `cargo metadata` document.
#[derive(Debug)]
pub(crate) struct MsrvReport {
    pub(crate) msrv: RustVersion,
    /// Packages per tree (library, development).
    pub(crate) counted: [usize; 2],
    /// The highest declared `rust-version` per tree, and who declares it.
    pub(crate) highest: [Option<(RustVersion, String)>; 2],
    pub(crate) too_new: Vec<TooNew>,
    pub(crate) undeclared: BTreeSet<String>,
}

const TREES: [&str; 2] = ["library", "development"];

/// Runs `cargo metadata` (locked, every feature) in `root` and checks it.
pub(crate) fn run(root: &Path) -> Result<MsrvReport, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .current_dir(root)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--all-features",
            "--locked",
        ])
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let metadata: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("cargo metadata printed invalid JSON: {e}"))?;
    check(&metadata)
}

fn str_field<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("cargo metadata: no string `{key}`"))
}

fn array<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, String> {
    v.get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("cargo metadata: no array `{key}`"))
}

/// `(dependency id, through a dev edge, through a normal or build edge)` per package id.
type Edges<'a> = BTreeMap<&'a str, Vec<(&'a str, bool, bool)>>;

/// The packages reachable from `roots` through normal and build edges.
fn normal_closure<'a>(edges: &Edges<'a>, roots: Vec<&'a str>) -> BTreeSet<&'a str> {
    let mut seen = BTreeSet::new();
    let mut stack = roots;
    while let Some(id) = stack.pop() {
        if seen.insert(id) {
            for (dep, _, normal) in edges.get(id).into_iter().flatten() {
                if *normal {
                    stack.push(*dep);
                }
            }
        }
    }
    seen
}

/// Checks a `cargo metadata --format-version 1` document.
pub(crate) fn check<'a>(metadata: &'a Value) -> Result<MsrvReport, String> {
    let packages: BTreeMap<&str, &Value> = array(metadata, "packages")?
        .iter()
        .map(|p| Ok((str_field(p, "id")?, p)))
        .collect::<Result<_, String>>()?;
    let members: BTreeSet<&str> = array(metadata, "workspace_members")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let resolve = metadata
        .get("resolve")
        .ok_or("cargo metadata: no `resolve` (was --no-deps given?)")?;
    let mut edges: Edges<'a> = BTreeMap::new();
    for node in array(resolve, "nodes")? {
        let id = str_field(node, "id")?;
        let mut out = Vec::new();
        for dep in array(node, "deps")? {
            let kinds = array(dep, "dep_kinds")?;
            let dev = kinds
                .iter()
                .any(|k| k.get("kind").and_then(Value::as_str) == Some("dev"));
            let normal = kinds
                .iter()
                .any(|k| k.get("kind").and_then(Value::as_str) != Some("dev"));
            out.push((str_field(dep, "pkg")?, dev, normal));
        }
        edges.insert(id, out);
    }

    // The workspace's own rust-version: every member inherits the same one.
    let mut msrv: Option<RustVersion> = None;
    for id in &members {
        let p = packages
            .get(id)
            .ok_or_else(|| format!("member {id} not in packages"))?;
        let name = str_field(p, "name")?;
        let declared = p
            .get("rust_version")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("workspace member {name} declares no rust-version"))?;
        let v = RustVersion::parse(declared)?;
        match msrv {
            Some(m) if m != v => {
                return Err(format!(
                    "workspace members disagree on rust-version: {m} and {v} ({name})"
                ));
            }
            _ => msrv = Some(v),
        }
    }
    let msrv = msrv.ok_or("no workspace member")?;

    let publishable = |p: &Value| match p.get("publish") {
        Some(Value::Array(registries)) => !registries.is_empty(),
        _ => true, // null: publishable anywhere
    };
    let closure = |roots: Vec<&'a str>| normal_closure(&edges, roots);
    let library = closure(
        members
            .iter()
            .copied()
            .filter(|id| packages.get(id).is_some_and(|p| publishable(p)))
            .collect(),
    );
    // Dev-dependencies of every member, and the members that are not
    // published (xtask, test crates) with what they use.
    let dev_roots: Vec<&str> = members
        .iter()
        .flat_map(|id| edges.get(id).into_iter().flatten())
        .filter(|(_, dev, _)| *dev)
        .map(|(dep, _, _)| *dep)
        .chain(
            members
                .iter()
                .copied()
                .filter(|id| packages.get(id).is_some_and(|p| !publishable(p))),
        )
        .collect();
    let development: BTreeSet<&str> = closure(dev_roots)
        .into_iter()
        .filter(|id| !library.contains(id))
        .collect();

    let mut report = MsrvReport {
        msrv,
        counted: [0, 0],
        highest: [None, None],
        too_new: Vec::new(),
        undeclared: BTreeSet::new(),
    };
    for (tree, set) in [&library, &development].into_iter().enumerate() {
        for id in set {
            if members.contains(id) {
                continue;
            }
            let p = packages
                .get(id)
                .ok_or_else(|| format!("{id} not in packages"))?;
            let label = format!("{} {}", str_field(p, "name")?, str_field(p, "version")?);
            report.counted[tree] += 1;
            let Some(declared) = p.get("rust_version").and_then(Value::as_str) else {
                report.undeclared.insert(label);
                continue;
            };
            let needs = RustVersion::parse(declared)?;
            if report.highest[tree]
                .as_ref()
                .is_none_or(|(h, _)| needs > *h)
            {
                report.highest[tree] = Some((needs, label.clone()));
            }
            if needs > msrv {
                report.too_new.push(TooNew {
                    tree: TREES[tree],
                    package: label,
                    needs,
                });
            }
        }
    }
    Ok(report)
}

/// Prints the report; returns the number of problems.
pub(crate) fn print(report: &MsrvReport) -> usize {
    println!("== msrv: workspace rust-version {}", report.msrv);
    for (i, tree) in TREES.iter().enumerate() {
        let highest = match &report.highest[i] {
            Some((v, who)) => format!("highest {v} ({who})"),
            None => "none declared".to_owned(),
        };
        println!(
            "  {tree} tree: {} locked package(s), {highest}",
            report.counted[i]
        );
    }
    if !report.undeclared.is_empty() {
        println!(
            "  {} package(s) declare no rust-version (not counted): {}",
            report.undeclared.len(),
            report
                .undeclared
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for t in &report.too_new {
        println!(
            "  TOO NEW ({} tree): {} needs Rust {}",
            t.tree, t.package, t.needs
        );
    }
    report.too_new.len()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use serde_json::json;

    fn pkg(id: &str, rust: Option<&str>, publish: Value) -> Value {
        json!({"id": id, "name": id, "version": "1.0.0", "rust_version": rust, "publish": publish})
    }

    fn dep(pkg: &str, kind: Option<&str>) -> Value {
        json!({"pkg": pkg, "dep_kinds": [{"kind": kind, "target": null}]})
    }

    /// lib (publishable) -> a (normal) -> b (normal); lib -> bench (dev) -> c;
    /// xtask (not publishable) -> tool (normal, development tree).
    fn metadata(rust: [Option<&str>; 5]) -> Value {
        json!({
            "packages": [
                pkg("lib", Some("1.86"), Value::Null),
                pkg("xtask", Some("1.86"), json!([])),
                pkg("a", rust[0], Value::Null),
                pkg("b", rust[1], Value::Null),
                pkg("bench", rust[2], Value::Null),
                pkg("c", rust[3], Value::Null),
                pkg("tool", rust[4], Value::Null),
            ],
            "workspace_members": ["lib", "xtask"],
            "resolve": {"nodes": [
                {"id": "lib", "deps": [dep("a", None), dep("bench", Some("dev"))]},
                {"id": "xtask", "deps": [dep("tool", None)]},
                {"id": "a", "deps": [dep("b", Some("build"))]},
                {"id": "b", "deps": []},
                {"id": "bench", "deps": [dep("c", None)]},
                {"id": "c", "deps": []},
                {"id": "tool", "deps": []},
            ]}
        })
    }

    #[test]
    fn versions_parse_and_compare() {
        assert!(RustVersion::parse("1.86").unwrap() > RustVersion::parse("1.85.1").unwrap());
        assert_eq!(
            RustVersion::parse("1.86").unwrap(),
            RustVersion::parse("1.86.0").unwrap()
        );
        assert!(RustVersion::parse("1.100").unwrap() > RustVersion::parse("1.99.9").unwrap());
        for bad in ["1", "", "1.x", "1.2.3.4", "v1.2"] {
            assert!(RustVersion::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn within_the_msrv_passes() {
        let r = check(&metadata([
            Some("1.60"),
            Some("1.86.0"),
            Some("1.70"),
            None,
            Some("1.80"),
        ]))
        .unwrap();
        assert_eq!(r.msrv, RustVersion(1, 86, 0));
        assert!(r.too_new.is_empty(), "{:?}", r.too_new);
        // lib's tree: a, b; dev tree: bench, c, tool.
        assert_eq!(r.counted, [2, 3]);
        assert_eq!(r.undeclared.iter().collect::<Vec<_>>(), ["c 1.0.0"]);
        assert_eq!(r.highest[0].as_ref().unwrap().1, "b 1.0.0");
    }

    #[test]
    fn a_newer_build_dependency_fails_in_the_library_tree() {
        let r = check(&metadata([None, Some("1.87"), None, None, None])).unwrap();
        assert_eq!(
            r.too_new,
            [TooNew {
                tree: "library",
                package: "b 1.0.0".into(),
                needs: RustVersion(1, 87, 0)
            }]
        );
        assert_eq!(print(&r), 1);
    }

    #[test]
    fn a_newer_dev_dependency_fails_in_the_development_tree() {
        let r = check(&metadata([None, None, None, Some("1.90"), None])).unwrap();
        assert_eq!(r.too_new.len(), 1);
        assert_eq!(r.too_new[0].tree, "development");
        assert_eq!(r.too_new[0].package, "c 1.0.0");
    }

    #[test]
    fn a_newer_xtask_dependency_fails_in_the_development_tree() {
        let r = check(&metadata([None, None, None, None, Some("1.87")])).unwrap();
        assert_eq!(r.too_new.len(), 1);
        assert_eq!(
            (r.too_new[0].tree, r.too_new[0].package.as_str()),
            ("development", "tool 1.0.0")
        );
    }

    #[test]
    fn members_must_agree_and_declare() {
        let mut m = metadata([None; 5]);
        m["packages"][1]["rust_version"] = json!("1.85");
        assert!(check(&m).unwrap_err().contains("disagree"));
        m["packages"][1]["rust_version"] = Value::Null;
        assert!(check(&m).unwrap_err().contains("declares no rust-version"));
    }

    #[test]
    fn this_workspace_is_within_its_msrv() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let r = run(&root).unwrap();
        assert!(r.counted[0] > 20, "{:?}", r.counted);
        assert!(r.too_new.is_empty(), "{:?}", r.too_new);
    }
}
