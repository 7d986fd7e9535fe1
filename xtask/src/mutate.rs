//! The differential check: mutated valid examples, judged by jsonschema and
//! by the Rust types, which must agree.
//!
//! For every kind, seeds (valid examples, or for shared blocks the blocks
//! found inside them) are mutated with a small seeded PRNG, one to three
//! mutations each: drop a member, add an unknown one, change an enum value,
//! break an id or a timestamp, empty a string or an array, change a type,
//! duplicate an item, copy a value from elsewhere in the document. Each
//! mutant gets three verdicts:
//!
//! - **schema**: `mplp_core::schema::is_valid` (jsonschema, formats on);
//! - **serde**: the typed parse of the JSON text (the fast path);
//! - **check**: the `CheckValue` thorough pass finds no error.
//!
//! The Rust schema-level verdict is "serde accepts, or the check finds no
//! *schema* rule error" (SDK rules such as the typed MAP payloads are not
//! JSON Schema's business: rule ids starting `map_payload_` / `sa_payload_`
//! are left out explicitly, `kinds::SDK_PAYLOAD_RULE_PREFIXES`). It must
//! equal the schema verdict, and "check finds nothing" must equal "serde
//! accepts". Disagreements that are
//! documented decisions are listed in [`EXCEPTIONS`]; anything else fails.

use std::collections::BTreeMap;

use mplp_core::schema;
use serde_json::{Map, Value, json};

use crate::kinds::{Kind, counts_for_schema_verdict, is_sdk_payload_rule, schema_rule_of};

/// A documented reason why jsonschema and the Rust types may disagree.
pub(crate) struct Exception {
    /// Short id, printed with the counts.
    pub(crate) id: &'static str,
    /// Why the disagreement is right.
    pub(crate) reason: &'static str,
}

/// Every accepted disagreement (mirrored in docs/spec-notes.md ("xtask")).
pub(crate) const EXCEPTIONS: &[Exception] = &[
    Exception {
        id: "integer-fraction",
        reason: "JSON Schema counts 1.0 as an integer; mplp-rs refuses a fraction in an \
                 integer field (mplp-core spec note: no SDK writes one, and accepting it \
                 breaks the exact round trip). Recognised when turning every whole float \
                 of the mutant into an integer makes both verdicts agree.",
    },
    Exception {
        id: "uuid-case-or-version",
        reason: "The `uuid` format accepts any RFC 9562 UUID in either case; Rust types of \
                 `format: uuid` fields may accept only what the SDK writes. Recognised when \
                 replacing every UUID that is not lowercase v4 by a lowercase v4 makes both \
                 verdicts agree.",
    },
    Exception {
        id: "integer-range",
        reason: "JSON Schema integers are unbounded; mplp-rs holds them in i64/u64 and \
                 refuses what does not fit (an error that names the range, not a silent \
                 wrap). Recognised when replacing every integer outside the i64 range by 0 \
                 makes both verdicts agree.",
    },
];

/// What the differential check found for one kind.
#[derive(Debug, Default)]
pub(crate) struct KindRun {
    /// Mutants judged.
    pub(crate) mutants: usize,
    /// Mutants the schema accepted.
    pub(crate) schema_valid: usize,
    /// Accepted disagreements, by exception id.
    pub(crate) excepted: BTreeMap<&'static str, usize>,
    /// Unexplained disagreements (at most a few are kept, with the mutant).
    pub(crate) failures: Vec<String>,
    /// How many unexplained disagreements there were in all.
    pub(crate) failure_count: usize,
}

/// The SDK's one seeded generator (SplitMix64), good enough to pick mutations.
pub(crate) type Rng = mplp_collab::rng::SplitMix64;

/// One step of a path into a JSON value.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

fn all_paths(v: &Value, at: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, sub) in m {
                at.push(Seg::Key(k.clone()));
                all_paths(sub, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, sub) in a.iter().enumerate() {
                at.push(Seg::Index(i));
                all_paths(sub, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn get_mut<'v>(v: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    let mut cur = v;
    for seg in path {
        cur = match (seg, cur) {
            (Seg::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Seg::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn pointer(path: &[Seg]) -> String {
    let mut p = mplp_core::Pointer::root();
    for seg in path {
        p = match seg {
            Seg::Key(k) => p.key(k),
            Seg::Index(i) => p.index(*i),
        };
    }
    p.into()
}

/// Values that mutations draw from: every string of the seeds and every
/// enum value of our schemas (so that some mutants stay valid).
pub(crate) struct Pools {
    strings: Vec<String>,
}

impl Pools {
    pub(crate) fn new(seeds: &[Value]) -> Self {
        let mut strings = Vec::new();
        for (path, _) in schema::FILES {
            if let Some(doc) = schema::parsed(path) {
                collect_enums(doc, &mut strings);
            }
        }
        for seed in seeds {
            collect_strings(seed, &mut strings);
        }
        strings.sort();
        strings.dedup();
        Pools { strings }
    }
}

fn collect_enums(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, sub) in m {
                if k == "enum" || k == "const" {
                    let mut vals = Vec::new();
                    collect_strings(sub, &mut vals);
                    out.extend(vals);
                } else {
                    collect_enums(sub, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_enums(x, out)),
        _ => {}
    }
}

fn collect_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Object(m) => m.values().for_each(|x| collect_strings(x, out)),
        Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

const ODD_STRINGS: &[&str] = &[
    "",
    "x",
    "bogus",
    "Draft",
    "IN_PROGRESS",
    "1.0",
    "1.0.0-beta",
    "2.1.3",
    "plan.created",
    "Plan.Created",
    "plan..created",
    "sess-1",
    "ctx-123",
];

const ODD_TIMESTAMPS: &[&str] = &[
    "2025-12-07T00:00:05Z",
    "2025-12-07T00:00:05.123456789+05:30",
    "2025-12-07t00:00:05z",
    "2025-12-07T00:00:05",
    "2025-12-07 00:00:05Z",
    "2025-12-07",
    "yesterday",
    "2025-13-07T00:00:05Z",
    "2025-02-30T00:00:05Z",
    "2025-12-07T24:00:00Z",
    "2025-12-07T00:00:05+25:00",
];

/// Applies one random mutation; returns what it did.
pub(crate) fn mutate_once(doc: &mut Value, rng: &mut Rng, pools: &Pools) -> String {
    let mut paths = Vec::new();
    all_paths(doc, &mut Vec::new(), &mut paths);
    let Some(path) = rng.pick(&paths).cloned() else {
        return "nothing".to_owned();
    };
    let at = pointer(&path);
    let op = rng.index(12);
    // Member removal needs the parent.
    if op == 0 && !path.is_empty() {
        let (last, parent_path) = match path.split_last() {
            Some(x) => x,
            None => return "nothing".to_owned(),
        };
        if let Some(parent) = get_mut(doc, parent_path) {
            match (parent, last) {
                (Value::Object(m), Seg::Key(k)) => {
                    m.remove(k);
                    return format!("drop {at}");
                }
                (Value::Array(a), Seg::Index(i)) if *i < a.len() => {
                    a.remove(*i);
                    return format!("remove item {at}");
                }
                _ => {}
            }
        }
    }
    let fresh_uuid = rng.uuid_v4().to_string();
    let Some(node) = get_mut(doc, &path) else {
        return "nothing".to_owned();
    };
    match (op, &mut *node) {
        (1, Value::Object(m)) => {
            let names = [
                "x_unknown",
                "comment",
                "planId",
                "protocolVersion",
                "source",
                "event_family",
            ];
            let name = names[rng.index(names.len())];
            m.insert(name.to_owned(), json!("x"));
            format!("add {name} to {at}")
        }
        (2, Value::Object(m)) if !m.is_empty() => {
            // A near miss of an existing key (camelCase / typo).
            let keys: Vec<String> = m.keys().cloned().collect();
            let key = keys[rng.index(keys.len())].clone();
            let renamed = to_camel(&key);
            if let Some(v) = m.remove(&key) {
                m.insert(format!("{renamed}_"), v);
            }
            format!("rename {at}/{key}")
        }
        (3 | 4, Value::String(s)) => {
            let choice = rng.index(6);
            let new = match choice {
                0 => rng.pick(&pools.strings).cloned().unwrap_or_default(),
                1 => ODD_STRINGS[rng.index(ODD_STRINGS.len())].to_owned(),
                2 => ODD_TIMESTAMPS[rng.index(ODD_TIMESTAMPS.len())].to_owned(),
                3 => s.to_uppercase(),
                4 => break_uuid(&fresh_uuid, rng.index(7)),
                _ => String::new(),
            };
            *s = new.clone();
            format!("set {at} = {new:?}")
        }
        (5, Value::Array(a)) => {
            a.clear();
            format!("empty {at}")
        }
        (6, Value::Array(a)) if !a.is_empty() => {
            let item = a[rng.index(a.len())].clone();
            a.push(item);
            format!("duplicate an item of {at}")
        }
        (7, Value::Number(_)) => {
            let new = [
                json!(-1),
                json!(0),
                json!(1.0),
                json!(2.5),
                json!(u64::MAX),
                json!(i64::MIN),
                json!(7),
            ][rng.index(7)]
            .clone();
            *node = new.clone();
            format!("set {at} = {new}")
        }
        (8, Value::Object(m)) => {
            m.clear();
            format!("empty object {at}")
        }
        (9, Value::Object(m)) => {
            // The same members as an array: serde's derived structs also
            // accept the sequence form, JSON Schema does not.
            let items: Vec<Value> = m.values().cloned().collect();
            *node = Value::Array(items);
            format!("object {at} as an array of its values")
        }
        _ => {
            // Change the type (or, sometimes, copy another value of the document).
            let new = match rng.index(8) {
                0 => Value::Null,
                1 => json!(true),
                2 => json!(0),
                3 => json!(1.5),
                4 => json!("s"),
                5 => json!([]),
                6 => Value::Object(Map::new()),
                _ => json!(fresh_uuid),
            };
            *node = new.clone();
            format!("set {at} = {new}")
        }
    }
}

fn to_camel(key: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for c in key.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// A UUID, valid or broken in one of several ways.
fn break_uuid(uuid: &str, how: usize) -> String {
    match how {
        0 => uuid.to_owned(),
        1 => uuid.to_uppercase(),
        2 => uuid.replacen('4', "1", 1), // version 1 (the version digit is the first '4' after 12 chars, usually)
        3 => uuid.replace('-', ""),
        4 => format!("{{{uuid}}}"),
        5 => uuid[..35].to_owned(),
        _ => format!("urn:uuid:{uuid}"),
    }
}

/// The three verdicts on one mutant.
struct Verdicts {
    schema: bool,
    serde: bool,
    check_ok: bool,
    rust_schema_level: bool,
}

fn judge(kind: &Kind, v: &Value) -> Verdicts {
    let text = v.to_string();
    let schema = schema::is_valid(kind.schema_for(v), v);
    let serde = (kind.serde_ok)(&text);
    let report = (kind.check)(v);
    let check_ok = report.is_valid();
    // SDK-level payload rules (`map_payload_*`, `sa_payload_*`) are stricter
    // than the bare schema by design: see `kinds::SDK_PAYLOAD_RULE_PREFIXES`.
    let rust_schema_level = serde
        || !report
            .errors()
            .any(|e| counts_for_schema_verdict(schema_rule_of(e)));
    Verdicts {
        schema,
        serde,
        check_ok,
        rust_schema_level,
    }
}

fn agree(v: &Verdicts) -> bool {
    v.schema == v.rust_schema_level
}

/// Which exception explains a schema/Rust disagreement on `v`, if any.
pub(crate) fn explain_value(kind: &Kind, v: &Value) -> Option<&'static str> {
    explain(kind, v)
}

/// The exceptions that explain a disagreement on `v` only together (a
/// fraction-free integer written as `1e0` beside an integer beyond i64, and
/// the like): every repair applied at once makes both verdicts agree.
pub(crate) fn explain_together(kind: &Kind, v: &Value) -> bool {
    let mut all = v.clone();
    let changed =
        huge_ints_to_zero(&mut all) | whole_floats_to_ints(&mut all) | canonical_uuids(&mut all);
    changed && agree(&judge(kind, &all))
}

/// Which exception explains a schema/Rust disagreement, if any.
fn explain(kind: &Kind, v: &Value) -> Option<&'static str> {
    let mut ints = v.clone();
    if whole_floats_to_ints(&mut ints) && agree(&judge(kind, &ints)) {
        return Some("integer-fraction");
    }
    let mut small = v.clone();
    if huge_ints_to_zero(&mut small) && agree(&judge(kind, &small)) {
        return Some("integer-range");
    }
    let mut uuids = v.clone();
    if canonical_uuids(&mut uuids) && agree(&judge(kind, &uuids)) {
        return Some("uuid-case-or-version");
    }
    None
}

fn whole_floats_to_ints(v: &mut Value) -> bool {
    match v {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => {
                *v = json!(f as i64);
                true
            }
            _ => false,
        },
        Value::Object(m) => m
            .values_mut()
            .fold(false, |a, x| whole_floats_to_ints(x) | a),
        Value::Array(a) => a
            .iter_mut()
            .fold(false, |acc, x| whole_floats_to_ints(x) | acc),
        _ => false,
    }
}

fn huge_ints_to_zero(v: &mut Value) -> bool {
    match v {
        Value::Number(n) if n.is_u64() && n.as_i64().is_none() => {
            *v = json!(0);
            true
        }
        // An integer literal beyond u64 (or below i64::MIN) parses as a
        // whole float; JSON Schema still counts it as an integer.
        Value::Number(n)
            if n.as_f64()
                .is_some_and(|f| f.fract() == 0.0 && f.abs() >= 9.2e18) =>
        {
            *v = json!(0);
            true
        }
        Value::Object(m) => m.values_mut().fold(false, |a, x| huge_ints_to_zero(x) | a),
        Value::Array(a) => a
            .iter_mut()
            .fold(false, |acc, x| huge_ints_to_zero(x) | acc),
        _ => false,
    }
}

fn canonical_uuids(v: &mut Value) -> bool {
    match v {
        Value::String(s) if schema::is_uuid(s) && mplp_core::MplpId::parse(s).is_err() => {
            let lower = s.to_lowercase();
            // Keep the digits, force version 4 and the RFC variant.
            let mut b: Vec<char> = lower.chars().collect();
            b[14] = '4';
            b[19] = '8';
            *s = b.into_iter().collect();
            true
        }
        Value::Object(m) => m.values_mut().fold(false, |a, x| canonical_uuids(x) | a),
        Value::Array(a) => a.iter_mut().fold(false, |acc, x| canonical_uuids(x) | acc),
        _ => false,
    }
}

/// Runs `count` mutants of `kind` from `seeds`.
pub(crate) fn run(kind: &Kind, seeds: &[Value], count: usize, seed: u64) -> KindRun {
    let mut out = KindRun::default();
    if seeds.is_empty() {
        out.failure_count = 1;
        out.failures
            .push(format!("{}: no seeds to mutate", kind.name));
        return out;
    }
    let pools = Pools::new(seeds);
    let mut rng = Rng::new(seed ^ seed_of(kind.name));
    for i in 0..count {
        let mut doc = seeds[i % seeds.len()].clone();
        let n = 1 + rng.index(3).saturating_sub(1); // 1 (2/3) or 2 (1/3) mutations
        let mut what = Vec::new();
        for _ in 0..n {
            what.push(mutate_once(&mut doc, &mut rng, &pools));
        }
        let v = judge(kind, &doc);
        out.mutants += 1;
        out.schema_valid += usize::from(v.schema);
        if v.schema && !v.serde && agree(&v) {
            // Agreement only because SDK payload rules do not count: shown
            // with the exceptions, so the filter's reach is visible.
            let report = (kind.check)(&doc);
            if report
                .errors()
                .any(|e| is_sdk_payload_rule(e.rule.as_str()))
            {
                *out.excepted.entry("sdk-payload-rules").or_default() += 1;
            }
        }
        let mut problem = None;
        if !agree(&v) {
            match explain(kind, &doc) {
                Some(id) => *out.excepted.entry(id).or_default() += 1,
                None => {
                    problem = Some(format!(
                        "jsonschema says {}, Rust says {}",
                        valid_word(v.schema),
                        valid_word(v.rust_schema_level)
                    ))
                }
            }
        }
        if v.check_ok != v.serde {
            problem = Some(format!(
                "typed parse says {}, CheckValue says {}",
                valid_word(v.serde),
                valid_word(v.check_ok)
            ));
        }
        if let Some(p) = problem {
            out.failure_count += 1;
            if out.failures.len() < 5 {
                let report = (kind.check)(&doc);
                let errors: Vec<String> = report.errors().map(ToString::to_string).collect();
                out.failures.push(format!(
                    "{} mutant #{i} ({}): {p}; Rust errors: [{}]; mutant: {}",
                    kind.name,
                    what.join(", "),
                    errors.join("; "),
                    short(&doc)
                ));
            }
        }
    }
    out
}

fn valid_word(b: bool) -> &'static str {
    if b { "valid" } else { "invalid" }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 600 {
        format!("{}...", s.chars().take(600).collect::<String>())
    } else {
        s
    }
}

/// A seed per kind name that does not change between runs or Rust versions
/// (FNV-1a): not a map hasher, so foldhash's per-process random seed would
/// be wrong here.
pub(crate) fn seed_of(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The seeds of `kind`: its valid examples, or the blocks found in all valid examples.
pub(crate) fn seeds(kind: &Kind, valid_examples: &[(String, Value)]) -> Vec<Value> {
    let mut out = Vec::new();
    for (name, doc) in valid_examples {
        if kind.doc_kind.is_some()
            && crate::kinds::for_example(name).is_some_and(|k| k.name == kind.name)
        {
            out.push(doc.clone());
        }
        // A block (or a document that is also a block of others: the
        // module event, found in every `events` list).
        if let Some(key) = kind.seed_key {
            collect_members(doc, key, &mut out);
        }
    }
    out.retain(|v| schema::is_valid(kind.schema_for(v), v));
    out
}

fn collect_members(v: &Value, key: &str, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            for (k, sub) in m {
                if k == key {
                    match sub {
                        // `events` is a list of base events.
                        Value::Array(items) => out.extend(items.iter().cloned()),
                        other => out.push(other.clone()),
                    }
                }
                collect_members(sub, key, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_members(x, key, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::KINDS;

    fn valid_examples() -> Vec<(String, Value)> {
        crate::load_valid_examples(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/examples"),
        )
        .unwrap()
    }

    #[test]
    fn rng_is_deterministic_and_uuids_are_v4() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
            let u = a.uuid_v4().to_string();
            assert!(mplp_core::MplpId::parse(&u).is_ok(), "{u}");
            b.uuid_v4();
        }
    }

    #[test]
    fn every_kind_has_seeds() {
        let examples = valid_examples();
        for kind in KINDS {
            assert!(!seeds(kind, &examples).is_empty(), "{}", kind.name);
        }
    }

    #[test]
    fn a_small_differential_run_agrees() {
        let examples = valid_examples();
        for kind in KINDS {
            let r = run(kind, &seeds(kind, &examples), 300, 1);
            assert_eq!(r.mutants, 300);
            assert!(r.failures.is_empty(), "{:#?}", r.failures);
            // Mutation produces both verdicts.
            assert!(
                r.schema_valid > 0 && r.schema_valid < 300,
                "{}: {}",
                kind.name,
                r.schema_valid
            );
        }
    }

    #[test]
    fn derived_structs_refuse_the_array_form() {
        // serde's derived `Deserialize` for structs also accepts a JSON array
        // of the field values (`"meta": ["1.0.0", "1.0.0"]`); JSON Schema and
        // CheckValue refuse it. This pins the finding of the differential check.
        let examples = valid_examples();
        let mut accepted = Vec::new();
        for kind in KINDS {
            for seed in seeds(kind, &examples).iter().take(3) {
                if let Value::Object(m) = seed {
                    let array = Value::Array(m.values().cloned().collect());
                    if (kind.serde_ok)(&array.to_string()) {
                        accepted.push(format!("{}: {array}", kind.rust));
                    }
                }
            }
        }
        assert!(accepted.is_empty(), "{accepted:#?}");
    }

    #[test]
    fn a_planted_disagreement_is_caught() {
        // A kind whose Rust side accepts anything: the run must fail.
        let base = KINDS.iter().find(|k| k.name == "metadata").unwrap();
        let lenient = Kind {
            serde_ok: |_| true,
            check: |_| mplp_core::Report::new(),
            ..*base
        };
        let r = run(&lenient, &seeds(base, &valid_examples()), 200, 3);
        assert!(r.failure_count > 0);
    }

    #[test]
    fn sdk_payload_rules_are_not_disagreements() {
        let map = KINDS.iter().find(|k| k.name == "map-event").unwrap();
        let doc = json!({
            "event_id": "4f1c3c51-7f4e-4d1e-9c31-0c1a2b3c4d5e",
            "event_type": "MAPSessionStarted",
            "timestamp": "2025-01-01T00:00:00Z",
            "session_id": "4f1c3c51-7f4e-4d1e-9c31-0c1a2b3c4d5e",
            "payload": {"mode": "swarm"}
        });
        let v = judge(map, &doc);
        // The schema takes any payload object; the SDK requires
        // `participant_count` (map_payload_required): not a disagreement.
        assert!(v.schema && !v.serde && !v.check_ok);
        assert!(v.rust_schema_level && agree(&v));
        let rules: Vec<String> = (map.check)(&doc)
            .errors()
            .map(|e| e.rule.to_string())
            .collect();
        assert_eq!(rules, ["map_payload_required"]);
        let sa = KINDS.iter().find(|k| k.name == "sa-event").unwrap();
        let doc = json!({
            "event_id": "4f1c3c51-7f4e-4d1e-9c31-0c1a2b3c4d5e",
            "event_type": "SAStepCompleted",
            "timestamp": "2025-01-01T00:00:00Z",
            "sa_id": "4f1c3c51-7f4e-4d1e-9c31-0c1a2b3c4d5e",
            "payload": {"step_id": "4f1c3c51-7f4e-4d1e-9c31-0c1a2b3c4d5e", "status": "done"}
        });
        let v = judge(sa, &doc);
        assert!(v.schema && !v.serde && v.rust_schema_level);
        // An envelope error still counts.
        let mut bad = doc.clone();
        bad["extra"] = json!(1);
        assert!(!judge(sa, &bad).rust_schema_level);
    }

    #[test]
    fn exceptions_are_recognised() {
        let plan = KINDS.iter().find(|k| k.name == "plan").unwrap();
        let mut doc = valid_examples()
            .into_iter()
            .find(|(n, _)| n == "plan-code-review-dag.json")
            .unwrap()
            .1;
        doc["steps"][0]["order_index"] = json!(1.0);
        let v = judge(plan, &doc);
        assert!(v.schema && !v.serde);
        assert_eq!(explain(plan, &doc), Some("integer-fraction"));
        doc["steps"][0]["order_index"] = json!("1");
        assert_eq!(explain(plan, &doc), None);
    }
}
