//! Property tests: the lifecycle, forks, pruning, conversions and parsing.

use mplp_core::check::CheckValue;
use mplp_core::schema::{SchemaKind, is_valid as schema_valid};
use mplp_core::{Document, Pointer, Report};
use mplp_dialog::*;
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::common::*;

#[derive(Clone, Debug)]
enum Op {
    Go(DialogStatus),
    Add(DialogRole),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        prop::sample::select(DialogStatus::ALL.to_vec()).prop_map(Op::Go),
        role().prop_map(Op::Add),
    ]
}

/// The transition table, written independently of the crate.
fn allowed(from: DialogStatus, to: DialogStatus) -> bool {
    use DialogStatus::*;
    matches!(
        (from, to),
        (Active, Paused | Completed | Cancelled) | (Paused, Active | Completed | Cancelled)
    )
}

proptest! {
    #[test]
    fn status_machine_and_add_message(ops in prop::collection::vec(op(), 0..40)) {
        let mut d = dialog_with(Vec::new());
        let started = d.started_at().cloned();
        for (i, op) in ops.into_iter().enumerate() {
            let i = i + 1;
            let before = d.clone();
            match op {
                Op::Go(to) => {
                    let r = d.transition_at(to, ts(i));
                    prop_assert_eq!(r.is_ok(), allowed(before.status(), to));
                    if r.is_ok() {
                        prop_assert_eq!(d.status(), to);
                        if to.is_final() {
                            prop_assert_eq!(d.ended_at(), Some(&ts(i)));
                        } else {
                            prop_assert_eq!(&d.ended_at(), &None);
                        }
                    } else {
                        prop_assert_eq!(&d, &before);
                    }
                }
                Op::Add(role) => {
                    let r = d.push_message(Message::new(role, "x", ts(i)));
                    // add_message never succeeds outside `active`.
                    prop_assert_eq!(r.is_ok(), before.status() == DialogStatus::Active);
                    prop_assert_eq!(r.is_ok(), before.status().accepts_messages());
                    if r.is_ok() {
                        prop_assert_eq!(d.messages().len(), before.messages().len() + 1);
                    } else {
                        let rule = r.unwrap_err().rule();
                        prop_assert_eq!(rule, Some(DIALOG_NOT_ACTIVE));
                        // The rule is in the crate's catalogue (`mplp rules`).
                        prop_assert!(mplp_dialog::rules::rules().any(|r| Some(r.rule) == rule));
                        prop_assert_eq!(&d, &before);
                    }
                }
            }
            prop_assert_eq!(d.started_at(), started.as_ref());
            // Every state the API reaches is a valid document without errors.
            prop_assert!(Dialog::validate_json(d.to_json()).is_valid());
        }
    }

    #[test]
    fn fork_invariants(
        msgs in messages(12),
        forks in prop::collection::vec((0usize..15, 0usize..15, any::<prop::sample::Index>()), 1..6),
    ) {
        // A root with its own author, a trace, an end and history: a fork
        // starts afresh from none of those (but the trace, which it continues).
        let mut root = dialog_with(msgs);
        root.meta.created_by = Some("root-author".into());
        root.trace = Some(mplp_core::TraceBase::new(mplp_core::TraceId::new(), mplp_core::SpanId::new()));
        root.events = Some(vec![mplp_core::BaseEvent::new("dialog.reviewed".parse().unwrap(), "review")]);
        root.complete().unwrap();
        prop_assert!(root.ended_at().is_some());
        let mut dialogs = vec![root];
        let mut tree = DialogTree::new();
        for (last_n, first_k, pick) in forks {
            let parent = dialogs[pick.index(dialogs.len())].clone();
            let child = tree.fork(&parent, last_n, first_k).unwrap();
            let n = parent.messages().len();
            let expected: Vec<Message> = if first_k + last_n >= n {
                parent.messages().to_vec()
            } else {
                parent.messages()[..first_k].iter().chain(&parent.messages()[n - last_n..]).cloned().collect()
            };
            prop_assert_eq!(&child.messages(), &expected);
            prop_assert_ne!(child.dialog_id, parent.dialog_id);
            prop_assert_eq!(child.context_id, parent.context_id);
            prop_assert_eq!(child.thread_id, parent.thread_id);
            prop_assert_eq!(child.status(), DialogStatus::Active);
            prop_assert_eq!(child.ended_at(), None);
            prop_assert!(child.events.is_none());
            prop_assert!(child.started_at().is_some());
            prop_assert_eq!(child.meta.created_at.as_ref(), child.started_at());
            prop_assert_eq!(child.meta.created_by.as_deref(), None);
            prop_assert_eq!(&child.meta.protocol_version, &parent.meta.protocol_version);
            let (pt, ct) = (parent.trace.as_ref().unwrap(), child.trace.as_ref().unwrap());
            prop_assert_eq!(ct.trace_id, pt.trace_id);
            prop_assert_eq!(ct.parent_span_id, Some(pt.span_id));
            // The parent is unchanged.
            let stored = dialogs.iter().find(|d| d.dialog_id == parent.dialog_id).unwrap();
            prop_assert_eq!(stored, &parent);
            // Tree links.
            prop_assert_eq!(tree.parent(&child.dialog_id), Some(parent.dialog_id));
            prop_assert!(tree.children(&parent.dialog_id).contains(&child.dialog_id));
            let node = tree.node(&child.dialog_id).unwrap();
            prop_assert_eq!(node.split_point, Some(n));
            prop_assert_eq!(node.kept(), Some(expected.len()));
            prop_assert_eq!(tree.depth(&child.dialog_id), Some(tree.depth(&parent.dialog_id).unwrap() + 1));
            prop_assert!(Dialog::validate_json(child.to_json()).is_valid());
            dialogs.push(child);
        }
        // Every dialog is in the tree, the tree is one root's subtree,
        // and it rebuilds from its nodes serialised one by one, in any order.
        prop_assert_eq!(tree.len(), dialogs.len());
        prop_assert_eq!(tree.subtree_ids(&dialogs[0].dialog_id).len(), dialogs.len());
        let mut lines: Vec<String> = tree.nodes().map(|n| serde_json::to_string(n).unwrap()).collect();
        let rebuilt = DialogTree::from_nodes(lines.iter().map(|l| serde_json::from_str(l).unwrap())).unwrap();
        prop_assert_eq!(&rebuilt, &tree);
        lines.reverse();
        let reversed = DialogTree::from_nodes(lines.iter().map(|l| serde_json::from_str(l).unwrap())).unwrap();
        prop_assert_eq!(reversed.render().lines().count(), tree.len());
        for d in &dialogs {
            prop_assert_eq!(reversed.parent(&d.dialog_id), tree.parent(&d.dialog_id));
        }
    }

    #[test]
    fn context_manager_fits_keeps_first_and_a_suffix(
        msgs in messages(30),
        max_tokens in 0usize..600,
        margin in 0usize..100,
    ) {
        let d = dialog_with(msgs);
        let before = d.clone();
        let cm = DefaultContextManager::new(max_tokens).with_safety_margin(margin);
        let budget = max_tokens.saturating_sub(margin);
        let result = cm.prune(&d);
        prop_assert_eq!(&d, &before);
        let Ok(p) = result else {
            // Only when the first message cannot fit even cut down.
            prop_assert!(EstimateCounter.count_message(&d.messages()[0]) > budget);
            return Ok(());
        };
        let used: usize = p.messages().iter().map(|m| EstimateCounter.count_message(m)).sum();
        prop_assert!(used <= budget, "{} > {}", used, budget);
        if d.messages().is_empty() {
            prop_assert!(p.messages().is_empty());
            return Ok(());
        }
        // The first message is kept (cut at its end only if it alone is too big).
        let (first, kept_first) = (&d.messages()[0], &p.messages()[0]);
        if kept_first != first {
            prop_assert!(EstimateCounter.count_message(first) > budget);
            let start = kept_first.content.strip_suffix(TRUNCATED_SUFFIX).unwrap();
            prop_assert!(!start.is_empty() && first.content.starts_with(start));
            prop_assert_eq!(p.messages().len(), 1);
        }
        // The rest is a suffix of the original rest, its oldest message possibly cut.
        let rest = &d.messages()[1..];
        let kept = &p.messages()[1..];
        let whole = kept.iter().rev().zip(rest.iter().rev()).take_while(|(a, b)| a == b).count();
        prop_assert!(whole + 1 >= kept.len(), "more than one message differs");
        if whole < kept.len() {
            let cut = &kept[0];
            let orig = &rest[rest.len() - kept.len()];
            let end = cut.content.strip_prefix(TRUNCATED_PREFIX).unwrap();
            prop_assert!(!end.is_empty() && orig.content.ends_with(end) && end.len() < orig.content.len());
            prop_assert_eq!((cut.role, &cut.timestamp), (orig.role, &orig.timestamp));
        }
        // Nothing that fits was dropped: the newest message left out would not fit whole.
        if kept.len() == whole && whole < rest.len() && kept_first == first {
            let next = &rest[rest.len() - whole - 1];
            prop_assert!(used + EstimateCounter.count_message(next) > budget);
        }
    }

    #[test]
    fn recent_messages_is_the_longest_fitting_suffix(msgs in messages(20), max in 0usize..300) {
        let d = dialog_with(msgs);
        let recent = d.recent_messages(max);
        let cost = |ms: &[Message]| ms.iter().map(|m| EstimateCounter.count_message(m)).sum::<usize>();
        prop_assert!(cost(recent) <= max);
        prop_assert_eq!(recent, &d.messages()[d.messages().len() - recent.len()..]);
        if recent.len() < d.messages().len() {
            prop_assert!(cost(&d.messages()[d.messages().len() - recent.len() - 1..]) > max);
        }
    }

    #[test]
    fn anthropic_requests_alternate_and_start_with_user(msgs in messages(25)) {
        let d = dialog_with(msgs);
        match d.to_anthropic_request("claude-sonnet-4-5", 1024) {
            Ok(req) => {
                prop_assert!(!req.messages.is_empty());
                prop_assert_eq!(req.messages[0].role, AnthropicRole::User);
                for pair in req.messages.windows(2) {
                    prop_assert_ne!(pair[0].role, pair[1].role);
                }
                for m in &req.messages {
                    for t in m.content.texts() {
                        prop_assert!(!t.trim().is_empty());
                    }
                }
                let last = req.messages.last().unwrap();
                if last.role == AnthropicRole::Assistant {
                    let t = *last.content.texts().last().unwrap();
                    prop_assert_eq!(t, t.trim_end());
                }
                // Every non-blank user/assistant/agent text is there, in order.
                let sent: Vec<&str> = req.messages.iter().flat_map(|m| m.content.texts()).filter(|t| *t != ANTHROPIC_LEADING_USER).collect();
                let expected: Vec<&str> = d.messages().iter()
                    .filter(|m| m.role != DialogRole::System && !m.content.trim().is_empty())
                    .map(|m| m.content.as_str()).collect();
                prop_assert_eq!(sent.len(), expected.len());
                for (s, e) in sent.iter().zip(&expected) {
                    prop_assert!(e.starts_with(s));
                }
                crate::compat::assert_anthropic_shape(&req);
            }
            Err(_) => prop_assert!(d.messages().iter().all(|m| m.role == DialogRole::System || m.content.trim().is_empty())),
        }
        if let Ok(req) = d.to_openai_request("gpt-4o") {
            crate::compat::assert_async_openai_accepts(&req);
        }
    }

    #[test]
    fn openai_round_trip_without_agents(msgs in messages(20)) {
        let msgs: Vec<Message> = msgs.into_iter().filter(|m| m.role != DialogRole::Agent).collect();
        let d = dialog_with(msgs);
        let back = Dialog::from_openai_messages(d.context_id, &d.to_openai_messages(), |i| d.messages()[i].timestamp.clone());
        prop_assert_eq!(back.messages(), d.messages());
    }

    #[test]
    fn anthropic_round_trip_for_representable_dialogs(
        system in proptest::option::of("[a-zA-Z .]{0,20}[a-z]"),
        turns in prop::collection::vec((any::<bool>(), "[a-zA-Z0-9 .,]{0,30}[a-z.]"), 1..20),
    ) {
        // Representable: at most one system message, first; the conversation
        // starts with the user; no agent role; no blank or trailing-space text.
        let mut msgs = Vec::new();
        if let Some(s) = system {
            msgs.push(Message::new(DialogRole::System, s, ts(0)));
        }
        msgs.push(Message::new(DialogRole::User, "start", ts(msgs.len())));
        for (user, text) in turns {
            let role = if user { DialogRole::User } else { DialogRole::Assistant };
            msgs.push(Message::new(role, text, ts(msgs.len())));
        }
        let d = dialog_with(msgs);
        let req = d.to_anthropic_request("m", 1).unwrap();
        let json = serde_json::to_string(&req).unwrap();
        let req2: AnthropicRequest = serde_json::from_str(&json).unwrap();
        let back = Dialog::from_anthropic_request(d.context_id, &req2, ts);
        prop_assert_eq!(back.messages(), d.messages());
    }

    #[test]
    fn generated_dialogs_round_trip_and_satisfy_the_schema(msgs in messages(10), status in prop::sample::select(DialogStatus::ALL.to_vec())) {
        let mut d = dialog_with(msgs);
        match status {
            DialogStatus::Active => {}
            DialogStatus::Paused => d.transition_at(status, ts(100)).unwrap(),
            _ => d.transition_at(status, ts(100)).unwrap(),
        }
        prop_assert_eq!(d.ended_at().cloned(), status.is_final().then(|| ts(100)));
        let value = d.to_value();
        prop_assert!(schema_valid(SchemaKind::Dialog, &value));
        let back = Dialog::from_json(d.to_json()).unwrap();
        prop_assert_eq!(back, d);
    }

    #[test]
    fn typed_parse_check_value_and_jsonschema_agree_on_mutants(
        example in any::<prop::sample::Index>(),
        mutations in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..4),
    ) {
        let valid = examples("valid");
        let (_, bytes) = &valid[example.index(valid.len())];
        let mut doc: Value = serde_json::from_slice(bytes).unwrap();
        for (at, kind, pool, key) in mutations {
            mutate(&mut doc, at, kind, pool, key);
        }
        // The schema level only (the checker and jsonschema know nothing of the timing rules).
        let typed_ok = <Dialog as mplp_core::Wire>::deserialize_unchecked(&doc).is_ok();
        // Deserialize means valid: the public impl adds the rules' errors.
        let full_ok = <Dialog as Deserialize>::deserialize(&doc).is_ok();
        prop_assert_eq!(full_ok, Dialog::validate_value(&doc).is_valid());
        let mut report = Report::new();
        Dialog::check_value(&doc, &Pointer::root(), &mut report);
        let checked_ok = report.is_valid();
        let schema_ok = schema_valid(SchemaKind::Dialog, &doc);
        prop_assert_eq!(typed_ok, checked_ok, "typed vs CheckValue on {}: {:?}", doc, report);
        prop_assert_eq!(typed_ok, schema_ok, "typed vs jsonschema on {}", doc);
        // And the document API agrees with the schema level when there is no rule finding.
        let v = Dialog::validate_value(&doc);
        if !typed_ok {
            prop_assert!(!v.is_valid());
        }
    }
}

/// Values that probe every rule of the schema.
fn pool() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(1),
        json!(1.5),
        json!(-1),
        json!(""),
        json!("x"),
        json!("active"),
        json!("paused"),
        json!("completed"),
        json!("user"),
        json!("agent"),
        json!("customer"),
        json!("Active"),
        json!("1.0.0"),
        json!("1.0"),
        json!("dialog"),
        json!("plan.created"),
        json!("Plan_Created"),
        json!("550e8400-e29b-41d4-a716-446655440000"),
        json!("550E8400-E29B-41D4-A716-446655440000"),
        json!("123e4567-e89b-12d3-a456-426614174000"),
        json!("2025-12-07T00:00:05.000Z"),
        json!("2025-12-07T08:00:05+08:00"),
        json!("2025-12-07T00:00:05"),
        json!("yesterday"),
        json!({}),
        json!([]),
        json!(["a", "a"]),
        json!({"a": 1}),
        json!({"role": "user", "content": "hi", "timestamp": "2025-12-07T00:00:05Z"}),
        json!({"role": "user", "content": "hi"}),
        json!(["user", "hi", "2025-12-07T00:00:05Z"]),
        json!(["1.0.0", "1.0.0"]),
        json!({"event_id": "550e8400-e29b-41d4-a716-446655440000", "event_type": "dialog.x", "source": "dialog", "timestamp": "2025-12-07T00:00:05Z"}),
        json!({"trace_id": "550e8400-e29b-41d4-a716-446655440000", "span_id": "550e8400-e29b-41d4-a716-446655440000"}),
        json!({"id": "550e8400-e29b-41d4-a716-446655440000", "module": "confirm"}),
    ]
}

const KEYS: &[&str] = &[
    "extra",
    "thread_id",
    "ended_at",
    "started_at",
    "event",
    "governance",
    "trace",
    "events",
    "name",
    "data",
    "locked",
    "lastConfirmRef",
    "tags",
    "created_at",
    "parent_span_id",
];

/// Every pointer in a document, the root included.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => m
            .iter()
            .for_each(|(k, c)| pointers(c, format!("{at}/{k}"), out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, c)| pointers(c, format!("{at}/{i}"), out)),
        _ => {}
    }
}

/// Deletes, replaces or inserts at a random place.
fn mutate(
    doc: &mut Value,
    at: prop::sample::Index,
    kind: u8,
    pool_i: prop::sample::Index,
    key: prop::sample::Index,
) {
    let mut all = Vec::new();
    pointers(doc, String::new(), &mut all);
    let target = all[at.index(all.len())].clone();
    let pool = pool();
    let new = pool[pool_i.index(pool.len())].clone();
    match kind {
        0 if !target.is_empty() => {
            let (parent, last) = target.rsplit_once('/').unwrap();
            match doc.pointer_mut(parent) {
                Some(Value::Object(m)) => {
                    m.remove(last);
                }
                Some(Value::Array(a)) => {
                    a.remove(last.parse::<usize>().unwrap());
                }
                _ => {}
            }
        }
        1 if !target.is_empty() => {
            if let Some(slot) = doc.pointer_mut(&target) {
                *slot = new;
            }
        }
        _ => match doc.pointer_mut(&target) {
            Some(Value::Object(m)) => {
                m.insert(KEYS[key.index(KEYS.len())].to_owned(), new);
            }
            Some(Value::Array(a)) => a.push(new),
            _ => {}
        },
    }
}

/// A timestamp on 2025-12-07 or the day after, at an offset of three.
fn stamp() -> impl Strategy<Value = String> {
    (
        7u8..9,
        0u8..24,
        0u8..3,
        0u8..60,
        0u16..1000,
        prop::sample::select(vec!["Z", "+05:30", "-08:00"]),
    )
        .prop_map(|(d, h, m, s, ms, zone)| {
            format!("2025-12-{d:02}T{h:02}:{m:02}:{s:02}.{ms:03}{zone}")
        })
}

proptest! {
    /// `dialog_messages_out_of_order` is reported exactly where a message's
    /// instant is earlier than the one before it (time's own order of
    /// instants), whatever the offsets: the same or different, equal
    /// instants in order.
    #[test]
    fn messages_out_of_order_where_the_instants_say(stamps in prop::collection::vec(stamp(), 1..6)) {
        let messages: Vec<Value> = stamps
            .iter()
            .map(|t| json!({"role": "user", "content": "hi", "timestamp": t}))
            .collect();
        let doc = json!({
            "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
            "dialog_id": "ad524dd9-85e9-4072-aa24-7d894e38cc70",
            "context_id": "407b7bde-2cbf-4b23-80cd-e2578a9814a5",
            "status": "active",
            "messages": messages,
        });
        let instants: Vec<_> = stamps
            .iter()
            .map(|t| t.parse::<mplp_core::Timestamp>().unwrap().instant())
            .collect();
        let want: Vec<String> = (1..instants.len())
            .filter(|&i| instants[i] < instants[i - 1])
            .map(|i| format!("/messages/{i}/timestamp"))
            .collect();
        let report = Dialog::validate_json(doc.to_string().as_bytes()).report;
        let got: Vec<String> = report
            .violations()
            .iter()
            .filter(|v| v.rule == DIALOG_MESSAGES_OUT_OF_ORDER)
            .map(|v| v.pointer.clone())
            .collect();
        prop_assert_eq!(got, want);
    }
}
