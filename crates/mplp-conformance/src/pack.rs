//! Evidence packs (`pack/` in a flow, as the tool-call flow ships):
//! `manifest.json`, `timeline/events.ndjson`, `integrity/sha256sums.txt`
//! and `artifacts/*.json`.

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::report::{Check, Finding};

/// The files every pack has, relative to `pack/`.
pub const REQUIRED: &[&str] = &[
    "manifest.json",
    "timeline/events.ndjson",
    "integrity/sha256sums.txt",
];

const INTEGRITY: &str = "integrity/sha256sums.txt";

/// Where `path` (in the pack) really is, when that is outside the pack:
/// a symbolic link, or a path through one, that leaves it. `None` when it
/// stays inside, or when it cannot be resolved (then reading it fails and
/// says so).
fn outside(pack_dir: &Path, path: &Path) -> Option<PathBuf> {
    let root = std::fs::canonicalize(pack_dir).ok()?;
    let real = std::fs::canonicalize(path).ok()?;
    (!real.starts_with(&root)).then_some(real)
}

/// Reads the pack file `rel`, unless it resolves outside the pack: a
/// symbolic link leaving the pack is never followed (the walk of
/// [`check_pack`] reports it as `pack-integrity`).
pub(crate) fn read_inside(pack_dir: &Path, rel: &str) -> std::io::Result<Vec<u8>> {
    let path = pack_dir.join(rel);
    if let Some(real) = outside(pack_dir, &path) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "a symbolic link to `{}`, outside the pack: not followed",
                real.display()
            ),
        ));
    }
    std::fs::read(path)
}

/// Checks the pack in `pack_dir` of flow `flow_name`: required files,
/// manifest, timeline and integrity list. `prefix` is how files are named
/// in findings (`pack/`).
pub fn check_pack(pack_dir: &Path, flow_name: &str, prefix: &str) -> Vec<Check> {
    let name = |rel: &str| format!("{prefix}{rel}");
    let mut missing = Vec::new();
    for rel in REQUIRED {
        if !pack_dir.join(rel).is_file() || outside(pack_dir, &pack_dir.join(rel)).is_some() {
            missing.push(Finding::new(
                &name(rel),
                "",
                "pack-required-file",
                "a pack must have this file",
            ));
        }
    }
    let artifacts = pack_dir.join("artifacts");
    let has_artifact = std::fs::read_dir(&artifacts).is_ok_and(|rd| {
        rd.flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "json"))
    });
    if !has_artifact {
        missing.push(Finding::new(
            &name("artifacts/"),
            "",
            "pack-required-file",
            "a pack must have at least one artifacts/*.json document",
        ));
    }
    let mut checks = vec![Check::from_findings("pack files", missing)];
    checks.push(Check::from_findings(
        "pack manifest",
        check_manifest(pack_dir, flow_name, &name("manifest.json")),
    ));
    checks.push(Check::from_findings(
        "pack timeline",
        check_timeline(pack_dir, &name("timeline/events.ndjson")),
    ));
    checks.push(Check::from_findings(
        "pack integrity",
        check_integrity(pack_dir, prefix),
    ));
    checks
}

fn check_manifest(pack_dir: &Path, flow_name: &str, file: &str) -> Vec<Finding> {
    let Ok(bytes) = read_inside(pack_dir, "manifest.json") else {
        return Vec::new(); // reported by "pack files"
    };
    let doc: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            return vec![Finding::new(
                file,
                "",
                "json-syntax",
                format!("not JSON: {e}"),
            )];
        }
    };
    let Some(obj) = doc.as_object() else {
        return vec![Finding::new(
            file,
            "",
            "pack-manifest",
            "expected a JSON object",
        )];
    };
    let mut out = Vec::new();
    let mut string = |key: &str| -> Option<&str> {
        match obj.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s),
            other => {
                out.push(Finding::new(
                    file,
                    &format!("/{key}"),
                    "pack-manifest",
                    format!(
                        "expected `{key}` to be a non-empty string, found {}",
                        other.map_or("nothing".to_owned(), Value::to_string)
                    ),
                ));
                None
            }
        }
    };
    let pack_id = string("pack_id").is_some();
    let flow_id = string("flow_id").map(str::to_owned);
    let version = string("protocol_version").map(str::to_owned);
    let created = string("created_at").map(str::to_owned);
    let _ = pack_id;
    if let Some(f) = flow_id.filter(|f| f != flow_name) {
        out.push(Finding::new(
            file,
            "/flow_id",
            "pack-manifest",
            format!("expected the flow's directory name `{flow_name}`, found `{f}`"),
        ));
    }
    if let Some(v) = version.filter(|v| v != "1.0.0") {
        out.push(Finding::new(
            file,
            "/protocol_version",
            "pack-manifest",
            format!("expected `1.0.0`, found `{v}`"),
        ));
    }
    if let Some(c) = created.filter(|c| c.parse::<mplp_core::Timestamp>().is_err()) {
        out.push(Finding::new(
            file,
            "/created_at",
            "pack-manifest",
            format!("expected an RFC 3339 date-time, found `{c}`"),
        ));
    }
    out
}

fn check_timeline(pack_dir: &Path, file: &str) -> Vec<Finding> {
    let Ok(text) = read_inside(pack_dir, "timeline/events.ndjson") else {
        return Vec::new(); // reported by "pack files"
    };
    let mut out = Vec::new();
    let mut seen: HashMap<String, u64> = HashMap::new();
    let mut events = 0usize;
    for (n, line) in text.split(|b| *b == b'\n').enumerate() {
        let line_no = n as u64 + 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        events += 1;
        let at = |pointer: &str, rule: &str, msg: String| {
            Finding::new(file, pointer, rule, msg).at_line(line_no)
        };
        let event: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            Err(e) => {
                out.push(at("", "json-syntax", format!("not JSON: {e}")));
                continue;
            }
        };
        let Some(obj) = event.as_object() else {
            out.push(at(
                "",
                "pack-timeline-event",
                "expected a JSON object".into(),
            ));
            continue;
        };
        for key in ["event_id", "event_type", "timestamp"] {
            if obj
                .get(key)
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                out.push(at(
                    &format!("/{key}"),
                    "pack-timeline-event",
                    format!("expected `{key}` to be a non-empty string"),
                ));
            }
        }
        if let Some(ts) = obj.get("timestamp").and_then(Value::as_str) {
            if !ts.is_empty() && ts.parse::<mplp_core::Timestamp>().is_err() {
                out.push(at(
                    "/timestamp",
                    "pack-timeline-event",
                    format!("expected an RFC 3339 date-time, found `{ts}`"),
                ));
            }
        }
        if let Some(parent) = obj.get("parent_event_id") {
            match parent.as_str() {
                Some(p) if seen.contains_key(p) => {}
                _ => out.push(at(
                    "/parent_event_id",
                    "pack-timeline-parent",
                    format!("expected the `event_id` of an earlier line, found {parent}"),
                )),
            }
        }
        if let Some(id) = obj.get("event_id").and_then(Value::as_str) {
            if let Some(first) = seen.get(id) {
                out.push(at(
                    "/event_id",
                    "pack-timeline-unique-event-ids",
                    format!("event id `{id}` was already used on line {first}"),
                ));
            } else {
                seen.insert(id.to_owned(), line_no);
            }
        }
    }
    if events == 0 && out.is_empty() {
        out.push(Finding::new(
            file,
            "",
            "pack-timeline-event",
            "expected at least one event",
        ));
    }
    out
}

/// A path from the integrity list that stays inside the pack.
fn safe_relative(rel: &str) -> bool {
    let p = Path::new(rel);
    !rel.is_empty() && p.components().all(|c| matches!(c, Component::Normal(_)))
}

fn check_integrity(pack_dir: &Path, prefix: &str) -> Vec<Finding> {
    let file = format!("{prefix}{INTEGRITY}");
    let Some(text) = read_inside(pack_dir, INTEGRITY)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
    else {
        return Vec::new(); // reported by "pack files"
    };
    let mut out = Vec::new();
    let mut listed: BTreeSet<String> = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n as u64 + 1;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |msg: String| Finding::new(&file, "", "pack-integrity", msg).at_line(line_no);
        // `sha256sum` format: 64 hex digits, a space, a space or `*`, the path.
        let (hex, rest) = line.split_at_checked(64).unwrap_or((line, ""));
        let rel = rest
            .strip_prefix("  ")
            .or_else(|| rest.strip_prefix(" *"))
            .unwrap_or("");
        // A line shorter than 64 bytes (or cut inside a character) has no
        // path: `rel` is empty.
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) || rel.is_empty() {
            out.push(bad(format!(
                "expected `<64 hex digits>  <path>` (sha256sum format), found `{line}`"
            )));
            continue;
        }
        if !safe_relative(rel) {
            out.push(bad(format!(
                "`{rel}` is not a relative path inside the pack"
            )));
            continue;
        }
        if !listed.insert(rel.to_owned()) {
            out.push(bad(format!("`{rel}` is listed twice")));
            continue;
        }
        match read_inside(pack_dir, rel) {
            Ok(bytes) => {
                let actual = hex_digest(&bytes);
                if !actual.eq_ignore_ascii_case(hex) {
                    out.push(bad(format!(
                        "`{rel}`: sha256 is {actual}, the list says {}",
                        hex.to_ascii_lowercase()
                    )));
                }
            }
            Err(e) => out.push(bad(format!("`{rel}` cannot be read: {e}"))),
        }
    }
    let mut present = Vec::new();
    let mut leaving = Vec::new();
    list_files(pack_dir, pack_dir, "", &mut present, &mut leaving);
    for (rel, real) in leaving {
        out.push(Finding::new(
            &file,
            "",
            "pack-integrity",
            format!(
                "`{rel}` is a symbolic link to `{}`, outside the pack: not followed",
                real.display()
            ),
        ));
    }
    for rel in present {
        if rel != INTEGRITY && !listed.contains(&rel) {
            out.push(Finding::new(
                &file,
                "",
                "pack-integrity",
                format!("`{rel}` is in the pack but not in the integrity list"),
            ));
        }
    }
    out
}

fn hex_digest(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in digest {
        s.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
        s.push(char::from_digit(u32::from(b & 15), 16).unwrap_or('0'));
    }
    s
}

/// Every file below `dir`, as `/`-separated paths relative to the pack,
/// sorted; symbolic links that leave the pack go to `leaving` (with where
/// they point), and are not followed. A link to a directory inside the
/// pack is listed, not walked (a link can make a loop).
fn list_files(
    pack_dir: &Path,
    dir: &Path,
    rel: &str,
    out: &mut Vec<String>,
    leaving: &mut Vec<(String, PathBuf)>,
) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let path = e.path();
        let is_link = e.file_type().is_ok_and(|t| t.is_symlink());
        if is_link {
            match outside(pack_dir, &path) {
                Some(real) => leaving.push((child, real)),
                None => out.push(child),
            }
        } else if path.is_dir() {
            list_files(pack_dir, &path, &child, out, leaving);
        } else {
            out.push(child);
        }
    }
}

#[cfg(test)]
#[path = "../tests/support/write_tree.rs"]
mod write_tree;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_abc() {
        assert_eq!(
            hex_digest(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn paths_must_stay_inside() {
        assert!(safe_relative("artifacts/plan.json"));
        for bad in ["", "../x", "/etc/passwd", "a/../../b", "./a"] {
            assert!(!safe_relative(bad), "{bad}");
        }
    }

    /// A pack written for one test in a fresh temporary directory.
    fn temp_pack(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        super::write_tree::write_tree("pack", name, files)
    }

    #[test]
    fn a_blank_manifest_string_is_as_good_as_none() {
        let dir = temp_pack(
            "blank",
            &[(
                "manifest.json",
                r#"{"pack_id": "  ", "flow_id": "f", "protocol_version": "1.0.0", "created_at": "\t"}"#,
            )],
        );
        let found: Vec<_> = check_manifest(&dir, "f", "pack/manifest.json")
            .into_iter()
            .map(|f| (f.pointer, f.message))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "/pack_id".to_owned(),
                    r#"expected `pack_id` to be a non-empty string, found "  ""#.to_owned()
                ),
                (
                    "/created_at".to_owned(),
                    r#"expected `created_at` to be a non-empty string, found "\t""#.to_owned()
                ),
            ]
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn integrity_lines_are_checked_for_their_shape_line_by_line() {
        let a = "{}";
        let list = format!(
            "{}  artifacts/a.json\n{}  artifacts/a.json\n{}artifacts/a.json\nabc  artifacts/a.json\n\n{} *artifacts/a.json\n",
            hex_digest(a.as_bytes()),
            "z".repeat(64),
            hex_digest(a.as_bytes()),
            hex_digest(a.as_bytes()).to_uppercase(),
        );
        let dir = temp_pack("lines", &[("artifacts/a.json", a), (INTEGRITY, &list)]);
        let found: Vec<_> = check_integrity(&dir, "pack/")
            .into_iter()
            .map(|f| (f.line, f.message))
            .collect();
        let format = |line: &str| {
            format!("expected `<64 hex digits>  <path>` (sha256sum format), found `{line}`")
        };
        assert_eq!(
            found,
            [
                (Some(2), format(list.lines().nth(1).unwrap())),
                (Some(3), format(list.lines().nth(2).unwrap())),
                (Some(4), format("abc  artifacts/a.json")),
                (Some(6), "`artifacts/a.json` is listed twice".to_owned()),
            ]
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
