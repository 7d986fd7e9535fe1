#!/usr/bin/env python3
"""Check schemas/examples against our schema rendering (a safety net, not the real test).

Usage: python3 schemas/tools/check_examples.py [SCHEMAS_DIR]   (default: the schemas/ dir above this file)

Needs the `jsonschema` package (plus `rfc3339-validator` so that `date-time` is really checked):
    pip install jsonschema rfc3339-validator
They are NOT project dependencies; the Rust test suite does the real work.

What is checked
* valid/<kind>-*.json must pass its schema (draft-07, format checking on, `uuid` included)
  and the semantic checks below; *.ndjson logs are checked line by line, then as a sequence.
* invalid/<kind>--<rule>--<what>.json must break exactly one rule: the set of
  (rule, pointer) violations found must be exactly the one in <name>.expect.json.
  Schema rules are read from the validator's errors; `required` and
  `additional-properties` point at the missing / unexpected member itself
  (e.g. /status), not at the object that holds it.
* invalid/seed/*.json break several rules; their sidecar names the first one in
  document order, which must be among the violations found, and more than one
  rule must be broken.

Semantic checks (our house rules for the examples, mirroring the SDK invariants):
  plan   sa_plan_step_unique_ids, sa_plan_no_self_dependency, sa_plan_dependency_exists,
         sa_plan_dag_acyclic, plan_status_consistency
  collab map_unique_participant_ids, map_pair_two_participants, map_orchestrator_required
         (an orchestrated collab needs a participant whose role_id is "orchestrator"),
         map_participants_have_role_ids
  dialog dialog_timing (ended_at only on completed/cancelled and required there;
         messages in order and inside [started_at, ended_at])
  logs   map_log_sequence, sa_log_sequence
  all valid files: ids_lowercase_v4 (every *_id that is an identifier is a lowercase UUID v4)
"""
import json
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

try:
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7
except ImportError:  # pragma: no cover
    print("check_examples.py needs `pip install jsonschema rfc3339-validator`", file=sys.stderr)
    sys.exit(2)

V4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
NOT_UUID_IDS = {"participant_id", "role_id", "stage_id", "broadcaster_role_id", "receiver_role_id"}
KIND_SCHEMA = {
    "plan": "mplp-plan.schema.json",
    "dialog": "mplp-dialog.schema.json",
    "collab": "mplp-collab.schema.json",
    "map-event": "events/mplp-map-event.schema.json",
    "map-log": "events/mplp-map-event.schema.json",
    "sa-event": "events/mplp-sa-event.schema.json",
    "sa-log": "events/mplp-sa-event.schema.json",
}
FAMILY_SCHEMA = {
    "runtime_execution": "events/mplp-runtime-execution-event.schema.json",
    "graph_update": "events/mplp-graph-update-event.schema.json",
    "pipeline_stage": "events/mplp-pipeline-stage-event.schema.json",
}
KEYWORD_RULE = {
    "required": "required", "additionalProperties": "additional-properties", "enum": "enum",
    "pattern": "pattern", "format": "format", "minLength": "min-length", "minItems": "min-items",
    "uniqueItems": "unique-items", "type": "type", "minimum": "minimum", "const": "const",
}


def ptr(parts):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


# ------------------------------------------------------------------ loading
class Dupes:
    """object_pairs_hook that remembers objects that had a key more than once."""

    def __init__(self):
        self.found = {}  # id(dict) -> [keys]

    def __call__(self, pairs):
        obj, dup = {}, []
        for k, v in pairs:
            if k in obj:
                dup.append(k)
            obj[k] = v
        if dup:
            self.found[id(obj)] = dup
        return obj


def dup_pointers(doc, found, path=()):
    out = []
    if isinstance(doc, dict):
        for k in found.get(id(doc), []):
            out.append(ptr(path + (k,)))
        for k, v in doc.items():
            out += dup_pointers(v, found, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += dup_pointers(v, found, path + (i,))
    return out


def load_text(text):
    hook = Dupes()
    doc = json.loads(text, object_pairs_hook=hook)
    return doc, [("duplicate-key", p) for p in dup_pointers(doc, hook.found)]


# ------------------------------------------------------------------ schema
class Schemas:
    def __init__(self, root):
        self.root = root
        resources, self.by_rel = [], {}
        for path in sorted(root.rglob("*.schema.json")):
            contents = json.loads(path.read_text(encoding="utf-8"))
            rel = path.relative_to(root).as_posix()
            self.by_rel[rel] = contents
            resources.append((contents["$id"], Resource.from_contents(contents, default_specification=DRAFT7)))
        self.registry = Registry().with_resources(resources)
        self.checker = jsonschema.FormatChecker()
        if self.checker.conforms("2025-12-07T00:00:00", "date-time"):
            # jsonschema skips date-time silently when rfc3339-validator is missing
            print("warning: date-time is not being checked (pip install rfc3339-validator)")

    def for_doc(self, kind, doc):
        if kind == "event":
            fam = doc.get("event_family") if isinstance(doc, dict) else None
            return FAMILY_SCHEMA.get(fam, "events/mplp-event-core.schema.json")
        return KIND_SCHEMA[kind]

    def violations(self, rel, doc):
        schema = self.by_rel[rel]
        validator = jsonschema.Draft7Validator(schema, registry=self.registry, format_checker=self.checker)
        out = set()
        for err in validator.iter_errors(doc):
            stack = [err]
            while stack:
                e = stack.pop()
                if e.context:  # anyOf / oneOf: report the leaves
                    stack.extend(e.context)
                    continue
                rule = KEYWORD_RULE.get(e.validator, e.validator)
                base = tuple(e.absolute_path)
                if e.validator == "required" and isinstance(e.instance, dict):
                    for name in e.validator_value:
                        if name not in e.instance:
                            out.add((rule, ptr(base + (name,))))
                elif e.validator == "additionalProperties" and isinstance(e.instance, dict):
                    known = set(e.schema.get("properties", {}))
                    pats = [re.compile(p) for p in e.schema.get("patternProperties", {})]
                    for name in e.instance:
                        if name not in known and not any(p.search(name) for p in pats):
                            out.add((rule, ptr(base + (name,))))
                else:
                    out.add((rule, ptr(base)))
        return out


# ------------------------------------------------------------------ semantic checks
TS = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$")


def ts(s):
    m = TS.match(s)
    if not m:
        raise ValueError(f"not an RFC 3339 date-time: {s!r}")
    y, mo, d, h, mi, se, frac, z, sign, oh, om = m.groups()
    tz = timezone.utc if z else timezone((1 if sign == "+" else -1) * timedelta(hours=int(oh), minutes=int(om)))
    dt = datetime(int(y), int(mo), int(d), int(h), int(mi), int(se), tzinfo=tz)
    # compare on (whole-second instant in UTC, nanoseconds) so 9-digit fractions keep full precision
    nanos = int((frac or "0")[:9].ljust(9, "0"))
    return (dt.astimezone(timezone.utc).replace(tzinfo=None), nanos)


STEP_STATUSES = {"pending", "in_progress", "completed", "blocked", "skipped", "failed"}


def plan_checks(doc):
    out = set()
    steps = doc.get("steps")
    if not isinstance(steps, list):
        return out
    steps = [s for s in steps if isinstance(s, dict)]
    first = {}
    for i, s in enumerate(steps):
        sid = s.get("step_id")
        if sid in first:
            out.add(("sa_plan_step_unique_ids", f"/steps/{i}/step_id"))
        else:
            first[sid] = i
    ids = set(first)
    graph = {}
    for i, s in enumerate(steps):
        deps = s.get("dependencies", []) or []
        for j, dep in enumerate(deps):
            if dep == s.get("step_id"):
                out.add(("sa_plan_no_self_dependency", f"/steps/{i}/dependencies/{j}"))
            elif dep not in ids:
                out.add(("sa_plan_dependency_exists", f"/steps/{i}/dependencies/{j}"))
            else:
                graph.setdefault(s.get("step_id"), set()).add(dep)
    # cycle detection on the id graph, self-loops already reported above
    state = {}

    def visit(n):
        state[n] = 1
        for m in graph.get(n, ()):
            if state.get(m) == 1 or (state.get(m) is None and visit(m)):
                return True
        state[n] = 2
        return False

    if any(state.get(n) is None and visit(n) for n in list(graph)):
        out.add(("sa_plan_dag_acyclic", "/steps"))
    if out:
        return out
    # status consistency (only meaningful for a sound DAG)
    by_id = {s["step_id"]: s for s in steps}
    pstat = doc.get("status")
    for i, s in enumerate(steps):
        deps = [by_id[d] for d in s.get("dependencies", []) or []]
        st = s.get("status")
        if st == "in_progress" and not all(d.get("status") == "completed" for d in deps):
            out.add(("plan_status_consistency", f"/steps/{i}/status"))
        if st == "completed" and not all(d.get("status") in ("completed", "skipped") for d in deps):
            out.add(("plan_status_consistency", f"/steps/{i}/status"))
        if st == "in_progress" and pstat not in (None, "in_progress"):
            out.add(("plan_status_consistency", "/status"))
        if pstat in ("draft", "proposed", "approved") and st in STEP_STATUSES and st != "pending":
            out.add(("plan_status_consistency", f"/steps/{i}/status"))
    if pstat == "completed" and not all(s.get("status") in ("completed", "skipped") for s in steps):
        out.add(("plan_status_consistency", "/status"))
    return out


def collab_checks(doc):
    out = set()
    parts = doc.get("participants")
    if not isinstance(parts, list):
        return out
    seen = set()
    for i, p in enumerate(parts):
        if not isinstance(p, dict):
            continue
        pid = p.get("participant_id")
        if pid in seen:
            out.add(("map_unique_participant_ids", f"/participants/{i}/participant_id"))
        seen.add(pid)
        if not isinstance(p.get("role_id"), str) or not p.get("role_id"):
            out.add(("map_participants_have_role_ids", f"/participants/{i}/role_id"))
    mode = doc.get("mode")
    if mode == "pair" and len(parts) != 2:
        out.add(("map_pair_two_participants", "/participants"))
    if mode == "orchestrated" and not any(isinstance(p, dict) and p.get("role_id") == "orchestrator" for p in parts):
        out.add(("map_orchestrator_required", "/participants"))
    return out


def dialog_checks(doc):
    out = set()
    status = doc.get("status")
    ended = doc.get("ended_at")
    if status in ("active", "paused") and ended is not None:
        out.add(("dialog_timing", "/ended_at"))
    if status in ("completed", "cancelled") and ended is None:
        out.add(("dialog_timing", "/ended_at"))
    try:
        start = ts(doc["started_at"]) if isinstance(doc.get("started_at"), str) else None
        end = ts(ended) if isinstance(ended, str) else None
        prev = start
        for i, m in enumerate(doc.get("messages") or []):
            t = ts(m["timestamp"])
            if (prev and t < prev) or (end and t > end):
                out.add(("dialog_timing", f"/messages/{i}/timestamp"))
            prev = t
        if start and end and end < start:
            out.add(("dialog_timing", "/ended_at"))
    except (ValueError, KeyError, TypeError):
        pass  # malformed timestamps are the schema's business
    return out


MAP_PAYLOAD = {
    "MAPSessionStarted": {"mode", "participant_count"},
    "MAPRolesAssigned": {"assignments"},
    "MAPTurnDispatched": {"role_id", "turn_number"},
    "MAPTurnCompleted": {"role_id", "turn_number", "status"},
    "MAPBroadcastSent": {"broadcaster_role_id", "target_count", "broadcast_id"},
    "MAPBroadcastReceived": {"receiver_role_id", "broadcast_id"},
    "MAPConflictDetected": {"conflict_id", "resource", "participants"},
    "MAPConflictResolved": {"conflict_id", "strategy"},
    "MAPSessionCompleted": {"status", "turns_total"},
}
SA_PAYLOAD = {"SAStepStarted": {"step_id", "agent_role"}, "SAStepCompleted": {"step_id", "status"}}


def payload_checks(ev, table, prefix=""):
    need = table.get(ev.get("event_type"), set())
    missing = need - set(ev.get("payload") or {})
    return {("payload_shape", f"{prefix}/payload/{k}") for k in sorted(missing)}


def map_log_checks(events):
    out, turn, open_turn, completed = set(), 0, None, 0
    sent, received, conflicts = {}, {}, set()
    sess = {e.get("session_id") for e in events}
    if len(sess) != 1:
        out.add(("map_log_sequence", "/0/session_id"))
    if events[0].get("event_type") != "MAPSessionStarted" or events[-1].get("event_type") != "MAPSessionCompleted":
        out.add(("map_log_sequence", "/0/event_type"))
    prev = None
    for i, e in enumerate(events):
        out |= payload_checks(e, MAP_PAYLOAD, f"/{i}")
        t = ts(e["timestamp"])
        if prev and t < prev:
            out.add(("map_log_sequence", f"/{i}/timestamp"))
        prev = t
        p, et = e.get("payload") or {}, e.get("event_type")
        if et == "MAPTurnDispatched":
            if open_turn is not None or p.get("turn_number") != turn + 1:
                out.add(("map_log_sequence", f"/{i}/payload/turn_number"))
            turn, open_turn = p.get("turn_number"), (p.get("role_id"), p.get("turn_number"))
        elif et == "MAPTurnCompleted":
            if open_turn != (p.get("role_id"), p.get("turn_number")):
                out.add(("map_log_sequence", f"/{i}/payload"))
            open_turn, completed = None, completed + 1
        elif et == "MAPBroadcastSent":
            sent[p.get("broadcast_id")] = p.get("target_count")
        elif et == "MAPBroadcastReceived":
            if p.get("broadcast_id") not in sent:
                out.add(("map_log_sequence", f"/{i}/payload/broadcast_id"))
            received[p.get("broadcast_id")] = received.get(p.get("broadcast_id"), 0) + 1
        elif et == "MAPConflictDetected":
            conflicts.add(p.get("conflict_id"))
        elif et == "MAPConflictResolved":
            if p.get("conflict_id") not in conflicts:
                out.add(("map_log_sequence", f"/{i}/payload/conflict_id"))
        elif et == "MAPSessionCompleted":
            if p.get("turns_total") != completed or open_turn is not None:
                out.add(("map_log_sequence", f"/{i}/payload/turns_total"))
    for bid, count in sent.items():
        if received.get(bid, 0) != count:
            out.add(("map_log_sequence", "/broadcast/" + str(bid)))
    return out


def sa_log_checks(events):
    out, running, prev = set(), None, None
    if events[0].get("event_type") != "SAInitialized" or events[-1].get("event_type") != "SACompleted":
        out.add(("sa_log_sequence", "/0/event_type"))
    if len({e.get("sa_id") for e in events}) != 1:
        out.add(("sa_log_sequence", "/0/sa_id"))
    for i, e in enumerate(events):
        out |= payload_checks(e, SA_PAYLOAD, f"/{i}")
        t = ts(e["timestamp"])
        if prev and t < prev:
            out.add(("sa_log_sequence", f"/{i}/timestamp"))
        prev = t
        p, et = e.get("payload") or {}, e.get("event_type")
        if et == "SAStepStarted":
            if running is not None:
                out.add(("sa_log_sequence", f"/{i}"))
            running = p.get("step_id")
        elif et in ("SAStepCompleted", "SAStepFailed"):
            if running != p.get("step_id"):
                out.add(("sa_log_sequence", f"/{i}/payload/step_id"))
            running = None
    return out


def id_checks(doc, path=()):
    out = set()
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k.endswith("_id") and k not in NOT_UUID_IDS and isinstance(v, str) and not V4.match(v):
                out.add(("ids_lowercase_v4", ptr(path + (k,))))
            out |= id_checks(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out |= id_checks(v, path + (i,))
    return out


def semantic(kind, doc):
    if not isinstance(doc, dict):
        return set()
    if kind == "plan":
        return plan_checks(doc)
    if kind == "collab":
        return collab_checks(doc)
    if kind == "dialog":
        return dialog_checks(doc)
    if kind == "map-event":
        return payload_checks(doc, MAP_PAYLOAD)
    if kind == "sa-event":
        return payload_checks(doc, SA_PAYLOAD)
    return set()


# ------------------------------------------------------------------ driver
def kind_of_valid(name):
    for k in ("map-event", "map-log", "sa-event", "sa-log", "event", "plan", "dialog", "collab"):
        if name.startswith(k + "-"):
            return k
    raise ValueError(f"cannot tell the kind of {name}")


def main(argv):
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    schemas = Schemas(root)
    ex = root / "examples"
    failures, count = [], 0

    def fail(path, msg):
        failures.append(f"{path.relative_to(root)}: {msg}")

    for path in sorted((ex / "valid").iterdir()):
        count += 1
        kind = kind_of_valid(path.name)
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ndjson":
            events, found = [], set()
            for n, line in enumerate(text.splitlines()):
                doc, dups = load_text(line)
                events.append(doc)
                found |= {(r, f"/{n}{p}") for r, p in dups}
                found |= {(r, f"/{n}{p}") for r, p in schemas.violations(schemas.for_doc(kind, doc), doc)}
                found |= {(r, f"/{n}{p}") for r, p in id_checks(doc)}
            found |= map_log_checks(events) if kind == "map-log" else sa_log_checks(events)
        else:
            doc, dups = load_text(text)
            found = set(dups) | schemas.violations(schemas.for_doc(kind, doc), doc)
            found |= semantic(kind, doc) | id_checks(doc)
            if isinstance(doc, dict) and "meta" in doc:
                if doc["meta"].get("protocol_version") != "1.0.0" or doc["meta"].get("schema_version") != "1.0.0":
                    found.add(("meta_versions", "/meta"))
        if found:
            fail(path, f"expected valid, found {sorted(found)}")

    for sub in ("", "seed"):
        folder = ex / "invalid" / sub
        for path in sorted(folder.glob("*.json")):
            if path.name.endswith(".expect.json"):
                continue
            count += 1
            sidecar = path.with_name(path.name[: -len(".json")] + ".expect.json")
            if not sidecar.is_file():
                fail(path, "no .expect.json sidecar")
                continue
            expect = json.loads(sidecar.read_text(encoding="utf-8"))
            parts = path.name[: -len(".json")].split("--")
            if len(parts) != 3:
                fail(path, "name is not <kind>--<rule>--<what>.json")
                continue
            kind, rule, _ = parts
            if expect.get("rule") != rule or set(expect) != {"pointer", "rule"}:
                fail(path, f"sidecar {expect} does not match the rule in the file name")
            doc, dups = load_text(path.read_text(encoding="utf-8"))
            found = set(dups) | schemas.violations(schemas.for_doc(kind, doc), doc) | semantic(kind, doc)
            want = (expect.get("rule"), expect.get("pointer"))
            if sub == "seed":
                if want not in found or len({r for r, _ in found}) < 2:
                    fail(path, f"expected {want} among several violations, found {sorted(found)}")
            elif found != {want}:
                fail(path, f"expected exactly {want}, found {sorted(found)}")

    for line in failures:
        print("FAIL", line)
    print(f"{count} example files checked, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
