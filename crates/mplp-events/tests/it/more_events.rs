//! Property tests of the events beyond MAP and SA: core (observability)
//! events, learning samples and integration events. Generated documents are
//! valid most of the time; each test compares the verdict (and the rule ids
//! and pointers) with a model computed from the generated values, checks
//! exact round trips, and that the typed parse and the `CheckValue` pass
//! agree on mutated documents.

use mplp_core::check::CheckValue;
use mplp_core::{Document, Pointer, Report, Wire};
use mplp_events::CoreEvent;
use mplp_events::integration::{CiEvent, FileUpdateEvent, GitEvent, ToolEvent};
use mplp_events::learning::{CommonLearningSample, LearningSample, SampleBody};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// A UUID text: version 4 and lowercase most of the time, else another
/// version or upper case (both `format: uuid`).
fn uuid_text() -> impl Strategy<Value = (String, bool)> {
    (any::<u128>(), 0u8..10).prop_map(|(bits, how)| {
        let mut u = uuid::Uuid::from_u128(bits);
        let v4 = how < 7;
        if v4 {
            u = uuid::Builder::from_random_bytes(*u.as_bytes()).into_uuid();
        } else {
            u = uuid::Builder::from_u128(bits)
                .with_version(uuid::Version::Mac)
                .with_variant(uuid::Variant::RFC4122)
                .into_uuid();
        }
        let text = u.hyphenated().to_string();
        (if how == 9 { text.to_uppercase() } else { text }, v4)
    })
}

/// A string: a word most of the time, sometimes blank or empty.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => "[a-z][a-z0-9_-]{0,12}",
        1 => Just(" ".to_owned()),
        1 => Just(String::new()),
    ]
}

fn timestamp() -> impl Strategy<Value = String> {
    (0u32..28, 0u32..24, prop::bool::ANY).prop_map(|(d, h, frac)| {
        format!(
            "2025-11-{:02}T{:02}:00:00{}Z",
            d + 1,
            h,
            if frac { ".125" } else { "" }
        )
    })
}

fn blank(s: &str) -> bool {
    s.trim().is_empty()
}

fn rules_at(report: &Report) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = report
        .errors()
        .map(|e| (e.pointer.clone(), e.rule.as_str().to_owned()))
        .collect();
    v.sort();
    v
}

fn with_optional(m: &mut Map<String, Value>, key: &str, v: Option<Value>) {
    if let Some(v) = v {
        m.insert(key.to_owned(), v);
    }
}

/// Reads a valid document, writes it back, and compares the JSON values.
fn round_trips<T: Document>(v: &Value) {
    let doc = T::from_value(v).unwrap();
    let back: Value = serde_json::from_str(&doc.to_json()).unwrap();
    assert_eq!(&back, v);
}

/// The typed parse (schema level) succeeds exactly when the thorough pass
/// finds no error.
fn parse_and_check_agree<T: Wire + CheckValue>(v: &Value) -> Result<(), TestCaseError> {
    let serde_ok = T::deserialize_unchecked(v).is_ok();
    let mut report = Report::new();
    T::check_value(v, &Pointer::root(), &mut report);
    prop_assert_eq!(
        serde_ok,
        report.is_valid(),
        "{} {:?}",
        v,
        report.violations()
    );
    Ok(())
}

/// Replaces one member of an object (at any depth) by an odd value.
fn mutate(v: &mut Value, pick: usize, odd: usize) {
    let odd_values = [
        json!(null),
        json!(""),
        json!(" "),
        json!(-1),
        json!(2.5),
        json!("x"),
        json!([]),
        json!({}),
        json!("2025-13-01T00:00:00Z"),
        json!("6e8bc430-9c3a-11d9-9669-0800200c9a66"),
    ];
    let mut paths = Vec::new();
    collect(v, &mut Vec::new(), &mut paths);
    if paths.is_empty() {
        return;
    }
    let path = &paths[pick % paths.len()];
    let mut cur = v;
    for k in path {
        cur = match cur {
            Value::Object(m) => m.get_mut(k).unwrap(),
            _ => return,
        };
    }
    *cur = odd_values[odd % odd_values.len()].clone();
}

fn collect(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if let Value::Object(m) = v {
        for (k, sub) in m {
            at.push(k.clone());
            out.push(at.clone());
            collect(sub, at, out);
            at.pop();
        }
    }
}

// ------------------------------------------------------------ integration

fn tool_event() -> impl Strategy<Value = (Value, String)> {
    (
        text(),
        prop::sample::select(vec![
            "formatter",
            "linter",
            "test_runner",
            "generator",
            "other",
        ]),
        prop::sample::select(vec![
            "pending",
            "running",
            "succeeded",
            "failed",
            "cancelled",
        ]),
        prop::option::of(timestamp()),
        prop::option::of(any::<i32>()),
        prop::option::of(prop::collection::vec("[a-z-]{1,6}", 0..3)),
    )
        .prop_map(|(tool_id, kind, status, started, exit, args)| {
            let mut m = Map::new();
            m.insert("tool_id".into(), json!(tool_id));
            m.insert("tool_kind".into(), json!(kind));
            m.insert(
                "invocation_id".into(),
                json!(uuid::Uuid::new_v4().to_string()),
            );
            m.insert("status".into(), json!(status));
            with_optional(&mut m, "started_at", started.map(Value::from));
            with_optional(&mut m, "exit_code", exit.map(Value::from));
            with_optional(&mut m, "args", args.map(|a| json!(a)));
            (Value::Object(m), tool_id)
        })
}

fn git_event() -> impl Strategy<Value = (Value, [String; 3])> {
    (
        text(),
        text(),
        text(),
        prop::sample::select(vec![
            "commit",
            "push",
            "merge",
            "tag",
            "branch_create",
            "branch_delete",
        ]),
        timestamp(),
        prop::option::of(prop::sample::select(vec![
            "dev@example.com",
            "a.b@[192.0.2.1]",
        ])),
        prop::option::of(0u32..1000),
    )
        .prop_map(|(repo, commit, reference, kind, ts, email, files)| {
            let mut m = Map::new();
            m.insert("repo_url".into(), json!(repo));
            m.insert("commit_id".into(), json!(commit));
            m.insert("ref_name".into(), json!(reference));
            m.insert("event_kind".into(), json!(kind));
            with_optional(&mut m, "author_email", email.map(Value::from));
            m.insert("timestamp".into(), json!(ts));
            with_optional(&mut m, "files_changed", files.map(Value::from));
            (Value::Object(m), [repo, commit, reference])
        })
}

fn ci_event() -> impl Strategy<Value = (Value, [String; 3])> {
    (
        text(),
        text(),
        text(),
        prop::sample::select(vec![
            "pending",
            "running",
            "succeeded",
            "failed",
            "cancelled",
        ]),
        prop::option::of(prop::sample::select(vec![
            "https://ci.example.com/runs/1",
            "urn:run:7",
        ])),
        prop::collection::vec(
            (
                "[a-z]{1,6}",
                prop::sample::select(vec!["succeeded", "skipped", "failed"]),
            ),
            0..3,
        ),
    )
        .prop_map(|(provider, pipeline, run, status, url, stages)| {
            let mut m = Map::new();
            m.insert("ci_provider".into(), json!(provider));
            m.insert("pipeline_id".into(), json!(pipeline));
            m.insert("run_id".into(), json!(run));
            m.insert("status".into(), json!(status));
            with_optional(&mut m, "run_url", url.map(Value::from));
            if !stages.is_empty() {
                let s: Vec<Value> = stages
                    .into_iter()
                    .map(|(n, st)| json!({"stage_name": n, "status": st}))
                    .collect();
                m.insert("stages".into(), Value::Array(s));
            }
            (Value::Object(m), [provider, pipeline, run])
        })
}

/// The expected errors for string members that must be non-empty (the
/// schema's `min-length`, which states the invariant and is reported under
/// its id) and non-blank (the invariant, beyond the schema). Issue 39, one
/// pass: the blank check runs on the members that pass their own schema
/// rules whatever else fails, so a blank member is reported beside an
/// empty one.
fn non_empty_model(members: &[(&str, &str, &str)]) -> Vec<(String, String)> {
    let mut v = Vec::new();
    for (member, value, rule) in members {
        if value.is_empty() || blank(value) {
            v.push((format!("/{member}"), (*rule).to_owned()));
        }
    }
    v.sort();
    v
}

proptest! {
    #[test]
    fn tool_events_follow_the_model((v, tool_id) in tool_event()) {
        let report = ToolEvent::validate_value(&v).report;
        prop_assert_eq!(
            rules_at(&report),
            non_empty_model(&[("tool_id", &tool_id, "integration_tool_event_id_non_empty")])
        );
        if report.is_valid() {
            round_trips::<ToolEvent>(&v);
        }
        parse_and_check_agree::<ToolEvent>(&v)?;
    }

    #[test]
    fn git_events_follow_the_model((v, [repo, commit, reference]) in git_event()) {
        let report = GitEvent::validate_value(&v).report;
        prop_assert_eq!(
            rules_at(&report),
            non_empty_model(&[
                ("repo_url", &repo, "integration_git_repo_url_non_empty"),
                ("commit_id", &commit, "integration_git_commit_id_non_empty"),
                ("ref_name", &reference, "integration_git_ref_name_non_empty"),
            ])
        );
        if report.is_valid() {
            round_trips::<GitEvent>(&v);
        }
    }

    #[test]
    fn ci_events_follow_the_model((v, [provider, pipeline, run]) in ci_event()) {
        let report = CiEvent::validate_value(&v).report;
        prop_assert_eq!(
            rules_at(&report),
            non_empty_model(&[
                ("ci_provider", &provider, "integration_ci_provider_non_empty"),
                ("pipeline_id", &pipeline, "integration_ci_pipeline_id_non_empty"),
                ("run_id", &run, "integration_ci_run_id_non_empty"),
            ])
        );
        if report.is_valid() {
            round_trips::<CiEvent>(&v);
        }
    }

    #[test]
    fn file_update_events_follow_the_model(
        path in text(),
        change in prop::sample::select(vec!["created", "modified", "deleted", "renamed"]),
        ts in timestamp(),
        added in prop::option::of(0u32..500),
    ) {
        let mut v = json!({"file_path": path, "change_type": change, "timestamp": ts});
        if let Some(a) = added {
            v["lines_added"] = json!(a);
        }
        let report = FileUpdateEvent::validate_value(&v).report;
        prop_assert_eq!(
            rules_at(&report),
            non_empty_model(&[("file_path", &path, "integration_file_path_non_empty")])
        );
        if report.is_valid() {
            round_trips::<FileUpdateEvent>(&v);
        }
    }

    #[test]
    fn integration_parse_and_check_agree_on_mutants(
        (tool, _) in tool_event(),
        (git, _) in git_event(),
        (ci, _) in ci_event(),
        pick in any::<usize>(),
        odd in any::<usize>(),
    ) {
        let (mut tool, mut git, mut ci) = (tool, git, ci);
        mutate(&mut tool, pick, odd);
        mutate(&mut git, pick, odd);
        mutate(&mut ci, pick, odd);
        parse_and_check_agree::<ToolEvent>(&tool)?;
        parse_and_check_agree::<GitEvent>(&git)?;
        parse_and_check_agree::<CiEvent>(&ci)?;
    }
}

/// Issue 39, one pass: `v` with the member `at` replaced by `bad` fails its
/// schema there, and every other violation (the rules beyond the schema
/// included) is the one `v` gets, pointer, rule, message and severity, in
/// the byte and value paths.
fn same_findings_elsewhere<T: Document>(
    v: &Value,
    at: &str,
    bad: Value,
) -> Result<(), TestCaseError> {
    let elsewhere = |report: &Report| -> Vec<mplp_core::Violation> {
        report
            .violations()
            .iter()
            .filter(|x| x.pointer != at)
            .cloned()
            .collect()
    };
    let want = elsewhere(&T::validate_value(v).report);
    let mut broken = v.clone();
    *broken.pointer_mut(at).unwrap() = bad;
    for report in [
        T::validate_json(broken.to_string()).report,
        T::validate_value(&broken).report,
    ] {
        prop_assert!(report.errors().any(|x| x.pointer == at), "{:?}", report);
        prop_assert_eq!(elsewhere(&report), want.clone());
    }
    Ok(())
}

proptest! {
    /// Blank ids and names (the integration invariants) and non-v4 UUIDs
    /// (the observability invariants) are reported on events that fail
    /// their schema elsewhere (an enum member out of its enum, a timestamp
    /// that is not one) as on those that do not.
    #[test]
    fn event_rules_run_on_events_that_fail_their_schema(
        (tool, _) in tool_event(),
        (git, _) in git_event(),
        (ci, _) in ci_event(),
        core in core_spec(),
    ) {
        same_findings_elsewhere::<ToolEvent>(&tool, "/tool_kind", json!("bogus"))?;
        same_findings_elsewhere::<GitEvent>(&git, "/event_kind", json!("bogus"))?;
        same_findings_elsewhere::<CiEvent>(&ci, "/status", json!(7))?;
        same_findings_elsewhere::<CoreEvent>(&core_json(&core), "/timestamp", json!("noon"))?;
    }
}

/// The invariants' own examples of the rules (integration-invariants.yaml:
/// `repo_url`, `commit_id`, `ref_name` non-empty strings;
/// observability-invariants.yaml: `event_id` a UUID v4), on documents that
/// fail their schema elsewhere: each is reported with the clean pass's
/// pointer, rule and message.
#[test]
fn blank_members_and_v1_uuids_are_reported_beside_schema_errors() {
    let git = json!({"repo_url": " ", "commit_id": "abc", "ref_name": "\t",
                     "event_kind": "push", "timestamp": "2025-12-01T00:00:00Z"});
    let clean = GitEvent::validate_value(&git).report;
    assert_eq!(
        rules_at(&clean),
        [
            (
                "/ref_name".to_owned(),
                "integration_git_ref_name_non_empty".to_owned()
            ),
            (
                "/repo_url".to_owned(),
                "integration_git_repo_url_non_empty".to_owned()
            ),
        ]
    );
    let mut broken = git.clone();
    broken["event_kind"] = json!("rebase");
    broken["commit_id"] = json!("");
    let report = GitEvent::validate_json(broken.to_string()).report;
    assert_eq!(
        rules_at(&report),
        [
            (
                "/commit_id".to_owned(),
                "integration_git_commit_id_non_empty".to_owned()
            ),
            (
                "/event_kind".to_owned(),
                "integration_git_event_kind_valid".to_owned()
            ),
            (
                "/ref_name".to_owned(),
                "integration_git_ref_name_non_empty".to_owned()
            ),
            (
                "/repo_url".to_owned(),
                "integration_git_repo_url_non_empty".to_owned()
            ),
        ]
    );
    for v in clean.violations() {
        assert!(
            report.violations().contains(v),
            "{v:?} missing from {report:?}"
        );
    }
    // The empty commit_id is reported once, by the schema, under the id.
    let commit: Vec<_> = report
        .violations()
        .iter()
        .filter(|v| v.pointer == "/commit_id")
        .collect();
    assert_eq!(commit.len(), 1, "{commit:?}");
    assert_eq!(commit[0].schema_keyword(), Some("min-length"));

    let event = json!({"event_id": "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "event_type": "x",
                       "event_family": "pipeline_stage", "timestamp": "2025-12-01T00:00:00Z",
                       "pipeline_id": "6ba7b811-9dad-11d1-80b4-00c04fd430c8", "stage_id": " ",
                       "stage_status": "pending"});
    let clean = CoreEvent::validate_value(&event).report;
    let mut broken = event.clone();
    broken["stage_status"] = json!("paused");
    let report = CoreEvent::validate_json(broken.to_string()).report;
    assert_eq!(
        rules_at(&report),
        [
            ("/event_id".to_owned(), "obs_event_id_is_uuid".to_owned()),
            (
                "/pipeline_id".to_owned(),
                "obs_pipeline_event_has_pipeline_id".to_owned()
            ),
            (
                "/stage_id".to_owned(),
                "obs_pipeline_stage_id_non_empty".to_owned()
            ),
            (
                "/stage_status".to_owned(),
                "obs_pipeline_stage_status_valid".to_owned()
            ),
        ]
    );
    assert_eq!(clean.violations().len(), 3);
    for v in clean.violations() {
        assert!(
            report.violations().contains(v),
            "{v:?} missing from {report:?}"
        );
    }
}

// ------------------------------------------------------------ learning

#[derive(Clone, Debug)]
struct SampleSpec {
    id: (String, bool),
    family: String,
    key_id: String,
    flow: Option<String>,
    extra: Option<String>,
}

fn sample_spec() -> impl Strategy<Value = SampleSpec> {
    (
        uuid_text(),
        prop_oneof![
            Just("intent_resolution".to_owned()),
            Just("delta_impact".to_owned()),
            Just("pipeline_outcome".to_owned()),
            text(),
        ],
        text(),
        prop::option::of(text()),
        prop::option::of("x-[a-z]{1,5}"),
    )
        .prop_map(|(id, family, key_id, flow, extra)| SampleSpec {
            id,
            family,
            key_id,
            flow,
            extra,
        })
}

fn sample_json(s: &SampleSpec) -> Value {
    let (input, output) = match s.family.as_str() {
        "intent_resolution" => (
            json!({"intent_id": s.key_id, "raw_request_summary": "r", "note": 1}),
            json!({"final_intent_summary": "f", "resolution_quality_label": "acceptable"}),
        ),
        "delta_impact" => (
            json!({"delta_id": s.key_id, "intent_id": "i", "change_summary": "c"}),
            json!({"actual_impact_summary": "a", "impact_scope": "system"}),
        ),
        _ => (json!({"anything": s.key_id}), json!({"ok": true})),
    };
    let mut v = json!({
        "sample_id": s.id.0,
        "sample_family": s.family,
        "created_at": "2025-12-01T00:00:00Z",
        "input": input,
        "output": output,
    });
    if let Some(flow) = &s.flow {
        v["meta"] = json!({"source_flow_id": flow, "quality_score": 0.5});
    }
    if let Some(x) = &s.extra {
        v[x.as_str()] = json!({"kept": [1, 2]});
    }
    v
}

fn sample_model(s: &SampleSpec) -> Vec<(String, String)> {
    let mut v = Vec::new();
    if !s.id.1 {
        v.push((
            "/sample_id".to_owned(),
            "learning_sample_id_is_uuid".to_owned(),
        ));
    }
    if blank(&s.family) {
        v.push((
            "/sample_family".to_owned(),
            "learning_sample_family_non_empty".to_owned(),
        ));
    }
    if s.flow.as_deref().is_some_and(blank) {
        v.push((
            "/meta/source_flow_id".to_owned(),
            "learning_sample_source_flow_non_empty".to_owned(),
        ));
    }
    if blank(&s.key_id) {
        match s.family.as_str() {
            "intent_resolution" => v.push((
                "/input/intent_id".to_owned(),
                "learning_intent_has_intent_id".to_owned(),
            )),
            "delta_impact" => v.push((
                "/input/delta_id".to_owned(),
                "learning_delta_has_delta_id".to_owned(),
            )),
            _ => {}
        }
    }
    v.sort();
    v
}

proptest! {
    #[test]
    fn learning_samples_follow_the_model(spec in sample_spec()) {
        let v = sample_json(&spec);
        let validation = LearningSample::validate_value(&v);
        prop_assert_eq!(rules_at(&validation.report), sample_model(&spec));
        if let Some(sample) = validation.value {
            let typed = matches!(
                (&sample.body, spec.family.as_str()),
                (SampleBody::IntentResolution(_), "intent_resolution")
                    | (SampleBody::DeltaImpact(_), "delta_impact")
                    | (SampleBody::Other(..), _)
            );
            prop_assert!(typed, "{:?}", sample.body);
            let family = sample.family();
            prop_assert_eq!(family.as_str(), spec.family.as_str());
            prop_assert_eq!(family.to_string(), spec.family.as_str());
            let back: Value = serde_json::from_str(&sample.to_json()).unwrap();
            prop_assert_eq!(back, v);
            // A section's name in the extra members is never written over
            // (or beside) the section: the body's members are its own.
            let mut shadowed = sample.clone();
            for member in ["input", "state", "output", "meta"] {
                shadowed.extra.insert(member, json!("shadow"));
            }
            let text = shadowed.to_json();
            prop_assert!(!text.contains("shadow"), "{}", text);
        }
    }

    #[test]
    fn learning_parse_and_check_agree_on_mutants(
        spec in sample_spec(),
        pick in any::<usize>(),
        odd in any::<usize>(),
    ) {
        let mut v = sample_json(&spec);
        mutate(&mut v, pick, odd);
        parse_and_check_agree::<LearningSample>(&v)?;
    }

    #[test]
    fn common_samples_round_trip_and_agree(
        success in any::<bool>(),
        score in prop::option::of(0u32..=100),
        rating in prop::option::of(0u32..=10),
        pick in any::<usize>(),
        odd in any::<usize>(),
    ) {
        let mut v = json!({
            "sample_id": uuid::Uuid::new_v4().to_string(),
            "project_id": "p",
            "success_flag": success,
            "timestamps": {"started_at": "2025-12-01T00:00:00Z"},
        });
        if let Some(s) = score {
            v["impact_score"] = json!(f64::from(s) / 100.0);
        }
        if let Some(r) = rating {
            v["user_feedback"] = json!({"rating": r});
        }
        let report = CommonLearningSample::validate_value(&v).report;
        let expected: Vec<(String, String)> = match rating {
            Some(r) if r > 5 => vec![("/user_feedback/rating".to_owned(), "maximum".to_owned())],
            _ => Vec::new(),
        };
        prop_assert_eq!(rules_at(&report), expected);
        if report.is_valid() {
            round_trips::<CommonLearningSample>(&v);
        }
        mutate(&mut v, pick, odd);
        parse_and_check_agree::<CommonLearningSample>(&v)?;
    }
}

// ------------------------------------------------------------ core events

#[derive(Clone, Debug)]
struct CoreSpec {
    id: (String, bool),
    event_type: String,
    family: usize,
    family_id: (String, bool),
    stage_id: String,
    /// An extension member named like another family's member.
    foreign_member: bool,
}

fn core_spec() -> impl Strategy<Value = CoreSpec> {
    (
        uuid_text(),
        text(),
        0usize..5,
        uuid_text(),
        text(),
        any::<bool>(),
    )
        .prop_map(
            |(id, event_type, family, family_id, stage_id, foreign_member)| CoreSpec {
                id,
                event_type,
                family,
                family_id,
                stage_id,
                foreign_member,
            },
        )
}

fn core_json(s: &CoreSpec) -> Value {
    let family = [
        "intent",
        "graph_update",
        "runtime_execution",
        "pipeline_stage",
        "cost_budget",
    ][s.family];
    let mut v = json!({
        "event_id": s.id.0,
        "event_type": s.event_type,
        "event_family": family,
        "timestamp": "2025-12-01T00:00:00Z",
    });
    match family {
        "graph_update" => {
            v["graph_id"] = json!(s.family_id.0);
            v["update_kind"] = json!("bulk");
            v["node_delta"] = json!(-2);
            v["edge_delta"] = json!(3);
        }
        "runtime_execution" => {
            v["execution_id"] = json!(s.family_id.0);
            v["executor_kind"] = json!("llm");
            v["status"] = json!("running");
        }
        "pipeline_stage" => {
            v["pipeline_id"] = json!(s.family_id.0);
            v["stage_id"] = json!(s.stage_id);
            v["stage_status"] = json!("pending");
        }
        _ => {}
    }
    if s.foreign_member && family != "graph_update" {
        // Free text under a name the graph family types: an extension here.
        v["graph_id"] = json!("not a uuid");
    }
    v
}

fn core_model(s: &CoreSpec) -> Vec<(String, String)> {
    let mut v = Vec::new();
    if !s.id.1 {
        v.push(("/event_id".to_owned(), "obs_event_id_is_uuid".to_owned()));
    }
    if blank(&s.event_type) {
        v.push((
            "/event_type".to_owned(),
            "obs_event_type_non_empty".to_owned(),
        ));
    }
    let id_rule = match s.family {
        1 => Some(("/graph_id", "obs_graph_event_has_graph_id")),
        2 => Some(("/execution_id", "obs_runtime_event_has_execution_id")),
        3 => Some(("/pipeline_id", "obs_pipeline_event_has_pipeline_id")),
        _ => None,
    };
    if let Some((p, r)) = id_rule {
        if !s.family_id.1 {
            v.push((p.to_owned(), r.to_owned()));
        }
    }
    if s.family == 3 && blank(&s.stage_id) {
        v.push((
            "/stage_id".to_owned(),
            "obs_pipeline_stage_id_non_empty".to_owned(),
        ));
    }
    v.sort();
    v
}

proptest! {
    #[test]
    fn core_events_follow_the_model(spec in core_spec()) {
        let v = core_json(&spec);
        let validation = CoreEvent::validate_value(&v);
        prop_assert_eq!(rules_at(&validation.report), core_model(&spec));
        if let Some(event) = validation.value {
            let back: Value = serde_json::from_str(&event.to_json()).unwrap();
            prop_assert_eq!(&back, &v);
            prop_assert_eq!(
                event.extensions.contains_key("graph_id"),
                spec.foreign_member && spec.family != 1
            );
        }
    }

    #[test]
    fn core_parse_and_check_agree_on_mutants(
        spec in core_spec(),
        pick in any::<usize>(),
        odd in any::<usize>(),
    ) {
        let mut v = core_json(&spec);
        mutate(&mut v, pick, odd);
        parse_and_check_agree::<CoreEvent>(&v)?;
    }
}

#[test]
fn an_extension_named_like_a_body_member_is_not_written_twice() {
    use mplp_events::core_event::{CoreBody, GraphUpdate, UpdateKind};
    let body = CoreBody::GraphUpdate(GraphUpdate::new(
        mplp_events::SchemaUuid::new(),
        UpdateKind::NodeAdd,
        1,
        0,
    ));
    let mut e = CoreEvent::new("graph_changed", body);
    e.extensions.insert("graph_id", "stale copy");
    e.extensions.insert("x-origin", "test");
    let json = e.to_json();
    assert_eq!(json.matches("\"graph_id\"").count(), 1, "{json}");
    let back = CoreEvent::from_json(&json).unwrap();
    assert_eq!(back.extensions.get("x-origin"), Some(&json!("test")));
    assert!(!back.extensions.contains_key("graph_id"));
}
