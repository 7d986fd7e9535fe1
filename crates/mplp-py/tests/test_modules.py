"""A class for every module document: the kind table's list, the CLI's verdicts,
round trips, and the lifecycle operations against a model of each table."""

import json
import os
import random
import re
import subprocess
import uuid
from pathlib import Path

import pytest

import mplp_rs
from conftest import EXAMPLES, REPO

CLASSES = mplp_rs.DOCUMENT_CLASSES
VALID = EXAMPLES / "valid"
INVALID = EXAMPLES / "invalid"


def cli_kinds():
    """The kinds `mplp validate --help` lists, with their descriptions (not through Python)."""
    cli = os.environ.get("MPLP_CLI")
    cmd = [cli] if cli else ["cargo", "run", "--quiet", "-p", "mplp-cli", "--"]
    out = subprocess.run(cmd + ["validate", "--help"], cwd=REPO, capture_output=True, text=True, check=True)
    section = out.stdout.split("--kind <KIND>", 1)[1].split("[default:", 1)[0]
    return [(m[0], m[1].strip()) for m in re.findall(r"^\s+- ([a-z-]+):\s+(.*)$", section, re.M)]


def test_the_classes_are_the_module_documents_of_the_kind_table():
    table = mplp_rs.kind_table()
    # The table Python reads is the CLI's: same names, same order, same descriptions.
    assert [(k["name"], k["description"]) for k in table] == [k for k in cli_kinds() if k[0] != "auto"]
    assert mplp_rs.kinds() == ["auto"] + [k["name"] for k in table]
    modules = [k["name"] for k in table if k["shape"] == "document" and not k["event"]]
    assert list(CLASSES) == modules
    assert len(modules) == 10
    for name, cls in CLASSES.items():
        assert cls.KIND == name and getattr(mplp_rs, cls.__name__) is cls
    # The ten are the protocol's modules, as the Core manifest names them.
    assert mplp_rs.Core.create(list(CLASSES)).check().valid
    with pytest.raises(ValueError):
        mplp_rs.Core.create(["map-event"])
    # Every other row is an event (a line of an event log) or a log.
    for k in table:
        if k["name"] not in CLASSES:
            assert k["event"] or k["shape"] == "log", k
        if k["shape"] == "log":
            assert k["line_kind"] is None or k["line_kind"] in {x["name"] for x in table if x["event"]}


def examples(directory, suffix=".json"):
    out = []
    for path in sorted(directory.glob("*" + suffix)):
        if path.name.endswith(".expect.json"):
            continue
        kind = max((k for k in CLASSES if path.name.startswith(k + "-")), key=len, default=None)
        if kind:
            out.append((kind, path))
    return out


@pytest.mark.parametrize("kind,path", examples(VALID), ids=lambda x: getattr(x, "name", x))
def test_valid_examples_are_read_and_written_back_as_the_same_value(kind, path):
    cls = CLASSES[kind]
    data = json.loads(path.read_text())
    for given in (path, data, path.read_bytes(), path.read_text()):
        doc = cls(given)
        assert doc.to_dict() == data, path.name
    assert cls(doc.to_json(pretty=True)).to_dict() == data
    assert doc.check().valid and doc.check(profile="canonical").valid
    assert doc.check().to_dict() == mplp_rs.validate(path, kind=kind).to_dict()
    assert repr(doc).startswith(cls.__name__ + "(")


@pytest.mark.parametrize("kind,path", examples(INVALID), ids=lambda x: getattr(x, "name", x))
def test_invalid_examples_raise_the_violations_validate_reports(kind, path):
    """The constructor goes through the same dispatch as validate(kind=...)."""
    expected = mplp_rs.validate(path, kind=kind)
    assert not expected.valid
    with pytest.raises(mplp_rs.ValidationError) as e:
        CLASSES[kind](path)
    assert e.value.violations == expected.violations
    assert isinstance(e.value, ValueError)


def test_a_document_of_another_kind_is_refused_by_each_class():
    """A valid plan, as a file, bytes, text or a dict, read as each other kind:
    the violations of that kind (the class's kind is given, never guessed)."""
    path = VALID / "plan-minimal.json"
    for given in (path, path.read_bytes(), path.read_text(), json.loads(path.read_text())):
        for kind, cls in CLASSES.items():
            if kind == "plan":
                assert cls(given).to_dict() == json.loads(path.read_text())
                continue
            with pytest.raises(mplp_rs.ValidationError) as e:
                cls(given)
            expected = mplp_rs.validate(given, kind=kind)
            assert expected.kind == kind and not expected.valid
            assert e.value.violations == expected.violations


# The lifecycle tables, written out independently of the Rust code, as the
# model the classes are compared with: trigger -> (from statuses, to status).
TABLES = {
    "context": {
        "activate": ({"draft"}, "active"),
        "suspend": ({"active"}, "suspended"),
        "resume": ({"suspended"}, "active"),
        "archive": ({"active", "suspended"}, "archived"),
        "restore": ({"archived"}, "active"),
        "close": ({"draft", "active", "suspended", "archived"}, "closed"),
    },
    "trace": {
        "start": ({"pending"}, "running"),
        "complete": ({"running"}, "completed"),
        "fail": ({"running"}, "failed"),
        "cancel": ({"pending", "running"}, "cancelled"),
    },
    "extension": {
        "activate": ({"registered", "inactive"}, "active"),
        "deactivate": ({"active"}, "inactive"),
        "deprecate": ({"registered", "active", "inactive"}, "deprecated"),
    },
    "network": {
        "provision": ({"draft"}, "provisioning"),
        "activate": ({"draft", "provisioning"}, "active"),
        "degrade": ({"active"}, "degraded"),
        "maintain": ({"active", "degraded"}, "maintenance"),
        "restore": ({"degraded", "maintenance"}, "active"),
        "retire": ({"draft", "provisioning", "active", "degraded", "maintenance"}, "retired"),
    },
    "core": {
        "activate": ({"draft"}, "active"),
        "deprecate": ({"active"}, "deprecated"),
        "archive": ({"draft", "active", "deprecated"}, "archived"),
    },
}


def new(kind, rng):
    ctx = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    if kind == "context":
        return mplp_rs.Context.create("Fix the login bug", "web", "prod")
    if kind == "trace":
        return mplp_rs.Trace.create(ctx, str(uuid.UUID(int=rng.getrandbits(128), version=4)))
    if kind == "extension":
        return mplp_rs.Extension.create(ctx, "lint", "validation", "1.0.0")
    if kind == "network":
        return mplp_rs.Network.create(ctx, "cluster", "mesh")
    if kind == "core":
        return mplp_rs.Core.create(["context", "plan"])
    raise AssertionError(kind)


def apply(doc, trigger, by_name, rng):
    """A trigger through its named method, or through fire(trigger)."""
    if by_name:
        getattr(doc, trigger)()
    else:
        doc.fire(trigger)


@pytest.mark.parametrize("kind", sorted(TABLES))
@pytest.mark.parametrize("seed", range(12))
def test_lifecycles_follow_the_table_and_refusals_change_nothing(kind, seed):
    """Generated cases: random trigger sequences (most of them allowed) against the model."""
    rng = random.Random(f"{kind}-{seed}")
    table = TABLES[kind]
    doc = new(kind, rng)
    status = doc.status
    for _ in range(rng.randint(1, 15)):
        allowed = [t for t, (src, _) in table.items() if status in src]
        trigger = rng.choice(allowed) if allowed and rng.random() < 0.8 else rng.choice(sorted(table))
        before = doc.to_dict()
        src, dst = table[trigger]
        if status in src:
            apply(doc, trigger, rng.random() < 0.5, rng)
            status = dst
        else:
            with pytest.raises(mplp_rs.TransitionError) as e:
                apply(doc, trigger, rng.random() < 0.5, rng)
            assert isinstance(e.value, mplp_rs.MplpError)
            assert e.value.violations and e.value.violations[0].pointer == "/status"
            assert doc.to_dict() == before  # a refusal changes nothing
        assert doc.status == status
        assert doc.to_dict()["status"] == status
        # The document stays valid, and reads back as the same value.
        assert doc.check().valid, doc.check().errors
        again = type(doc)(doc.to_json())
        assert again.to_dict() == doc.to_dict() and again.status == status
    with pytest.raises(ValueError, match="trigger `explode`"):
        doc.fire("explode")


CONFIRM = {
    "approved": ({"pending", "rejected"}, "approved"),
    "rejected": ({"pending"}, "rejected"),
    "cancelled": ({"pending", "rejected"}, "cancelled"),
}


@pytest.mark.parametrize("seed", range(12))
def test_confirm_decisions_follow_the_table_and_are_recorded(seed):
    rng = random.Random(seed)
    plan = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    c = mplp_rs.Confirm.request("plan", plan, "planner", reason="needs a lead")
    assert (c.status, c.target_type, c.target_id) == ("pending", "plan", plan)
    status, recorded = "pending", []
    for _ in range(rng.randint(1, 6)):
        decision = rng.choice(sorted(CONFIRM))
        src, dst = CONFIRM[decision]
        how = rng.randrange(2)
        call = (
            (lambda: c.decide(decision, "lead", reason="why"))
            if how == 0
            else {
                "approved": lambda: c.approve("lead"),
                "rejected": lambda: c.reject("lead", "why"),
                "cancelled": lambda: c.cancel("lead"),
            }[decision]
        )
        if status in src:
            call()
            status = dst
            recorded.append(decision)
        else:
            before = c.to_dict()
            with pytest.raises(mplp_rs.TransitionError):
                call()
            assert c.to_dict() == before
        assert c.status == status
        assert [d["status"] for d in c.decisions()] == recorded
        assert all(d["decided_by_role"] == "lead" for d in c.decisions())
        assert c.check().valid, c.check().errors
    with pytest.raises(ValueError):
        c.decide("maybe", "lead")


def test_plan_decides_a_confirm_and_applies_one_decided_elsewhere():
    plan = mplp_rs.Plan.build("Ship", "Ship it", ["build", "test"])
    plan.propose()
    confirm = mplp_rs.Confirm.request("plan", plan.plan_id, "planner")
    plan.decide(confirm, True, by="lead")
    assert plan.status == "approved" and confirm.status == "approved"
    assert [d["status"] for d in confirm.decisions()] == ["approved"]
    # A Confirm for another document: refused, nothing changes.
    other = mplp_rs.Plan.build("Other", "Other", ["x"])
    other.propose()
    before = (other.to_dict(), confirm.to_dict())
    with pytest.raises(mplp_rs.TransitionError) as e:
        other.decide(confirm, True)
    assert e.value.violations[0].rule == "plan_confirm_target"
    assert (other.to_dict(), confirm.to_dict()) == before
    # Decided elsewhere, applied here.
    third = mplp_rs.Plan.build("Third", "Third", ["x"])
    third.propose()
    c3 = mplp_rs.Confirm.request("plan", third.plan_id, "planner")
    with pytest.raises(mplp_rs.TransitionError):
        third.apply_confirm(c3)  # no decision yet
    c3.reject("lead", "not yet")
    third.apply_confirm(c3)
    assert third.status == "draft"


def test_context_guards_agents_and_validates_its_title():
    ctx = mplp_rs.Context.create("Fix login", "web", "prod", entry_point="/login")
    assert ctx.title == "Fix login" and ctx.status == "draft"
    with pytest.raises(mplp_rs.TransitionError) as e:
        ctx.ensure_active()
    assert e.value.violations[0].rule == "sa_context_must_be_active"
    ctx.activate()
    ctx.ensure_active()
    with pytest.raises(mplp_rs.ValidationError) as e:
        mplp_rs.Context.create("", "web", "prod")
    assert [(v.pointer, v.rule) for v in e.value.violations] == [("/title", "min-length")]


def test_trace_segments_change_only_while_running():
    ctx = str(uuid.uuid4())
    t = mplp_rs.Trace.create(ctx)
    assert t.context_id == ctx and t.plan_id is None
    seg = t.add_segment("compile")
    child = t.add_segment("link", parent=seg)
    with pytest.raises(mplp_rs.TransitionError) as e:
        t.fire_segment(seg, "start")
    assert e.value.violations[0].rule == "trace_segments_need_running_trace"
    t.start()
    t.fire_segment(seg, "start")
    t.fire_segment(seg, "complete")
    t.fire_segment(child, "skip")
    with pytest.raises(mplp_rs.TransitionError):
        t.fire_segment(child, "start")  # skipped is final
    with pytest.raises(mplp_rs.TransitionError) as e:
        t.fire_segment(str(uuid.uuid4()), "start")
    assert e.value.violations[0].rule == "unknown-segment"
    assert [s["status"] for s in t.segments()] == ["completed", "skipped"]
    assert t.segments()[1]["parent_segment_id"] == seg
    t.complete()
    assert t.check().valid and mplp_rs.Trace(t.to_dict()).to_dict() == t.to_dict()
    with pytest.raises(mplp_rs.TransitionError):
        t.add_segment("late")


def test_role_capabilities():
    r = mplp_rs.Role.create("reviewer", description="reads diffs", capabilities=["read", "read", "comment"])
    assert r.capabilities == ["read", "comment"] and r.name == "reviewer"
    assert r.can("read") and not r.can("merge")
    assert r.grant("merge") and not r.grant("merge")
    assert r.revoke("read") and not r.revoke("read")
    assert r.capabilities == ["comment", "merge"]
    assert mplp_rs.Role(r.to_json()).to_dict() == r.to_dict()
    assert repr(r) == f'Role(role_id="{r.role_id}")'


def test_extension_versions_only_increase():
    e = mplp_rs.Extension.create(str(uuid.uuid4()), "lint", "validation", "1.0.0")
    e.upgrade("1.0.1")
    for bad in ("1.0.1", "1.0.0", "1.0.1+build"):
        with pytest.raises(mplp_rs.TransitionError) as err:
            e.upgrade(bad)
        assert err.value.violations[0].rule == "extension_version_increases"
    assert e.version == "1.0.1"
    with pytest.raises(ValueError):
        e.upgrade("v2")
    with pytest.raises(mplp_rs.ValidationError) as err:
        mplp_rs.Extension.create(str(uuid.uuid4()), "lint", "validation", "v1")
    assert [(v.pointer, v.rule) for v in err.value.violations] == [("/version", "pattern")]
    with pytest.raises(ValueError, match="extension_type `plugin`"):
        mplp_rs.Extension.create(str(uuid.uuid4()), "lint", "plugin", "1.0.0")


NODES = {
    "activate": ({"inactive"}, "active"),
    "deactivate": ({"active", "degraded", "unreachable"}, "inactive"),
    "degrade": ({"active"}, "degraded"),
    "disconnect": ({"active", "degraded"}, "unreachable"),
    "recover": ({"degraded", "unreachable"}, "active"),
    "retire": ({"active", "inactive", "degraded", "unreachable"}, "retired"),
}


@pytest.mark.parametrize("seed", range(8))
def test_network_nodes_follow_their_table(seed):
    rng = random.Random(seed)
    net = mplp_rs.Network.create(str(uuid.uuid4()), "cluster", "hub_spoke")
    ids = [net.add_node(rng.choice(["agent", "service", "queue"]), name=f"n{i}") for i in range(3)]
    status = dict.fromkeys(ids, "inactive")
    for _ in range(20):
        node = rng.choice(ids)
        trigger = rng.choice(sorted(NODES))
        src, dst = NODES[trigger]
        if status[node] in src:
            net.fire_node(node, trigger)
            status[node] = dst
        else:
            with pytest.raises(mplp_rs.TransitionError):
                net.fire_node(node, trigger)
        assert {n["node_id"]: n["status"] for n in net.nodes()} == status
        assert net.check().valid
    removed = net.remove_node(ids[0])
    assert removed["node_id"] == ids[0] and len(net.nodes()) == 2
    with pytest.raises(mplp_rs.TransitionError) as e:
        net.remove_node(ids[0])
    assert e.value.violations[0].rule == "unknown-node"
    net.retire()
    with pytest.raises(mplp_rs.TransitionError) as e:
        net.add_node("agent")
    assert e.value.violations[0].rule == "network_nodes_need_live_network"


def test_core_modules():
    core = mplp_rs.Core.create(["context", "plan"])
    assert core.is_enabled("plan") and not core.is_enabled("trace")
    core.add_module("trace", version="1.0.0", description="traces")
    with pytest.raises(mplp_rs.TransitionError) as e:
        core.add_module("trace")
    assert e.value.violations[0].rule == "core_unique_modules"
    core.fire_module("trace", "disable")
    assert not core.is_enabled("trace")
    with pytest.raises(mplp_rs.TransitionError) as e:
        core.set_required("trace", True)
    assert e.value.violations[0].rule == "core_required_module_enabled"
    core.set_required("plan", True)
    with pytest.raises(mplp_rs.TransitionError):
        core.remove_module("plan")  # required
    assert core.remove_module("trace")["module_id"] == "trace"
    assert [m["module_id"] for m in core.modules()] == ["context", "plan"]
    core.archive()
    with pytest.raises(mplp_rs.TransitionError) as e:
        core.fire_module("context", "disable")
    assert e.value.violations[0].rule == "core_archived_is_frozen"
    assert core.check().valid
    with pytest.raises(mplp_rs.ValidationError):
        mplp_rs.Core.create([])
    with pytest.raises(mplp_rs.ValidationError):
        mplp_rs.Core.create(["plan", "plan"])


def test_the_creators_keep_every_value_given():
    ctx, plan = str(uuid.uuid4()), str(uuid.uuid4())
    c = mplp_rs.Context.create("Fix login", "web", "prod", entry_point="/login").to_dict()
    assert (c["title"], c["root"]) == ("Fix login", {"domain": "web", "environment": "prod", "entry_point": "/login"})
    assert "entry_point" not in mplp_rs.Context.create("t", "d", "e").to_dict()["root"]
    t = mplp_rs.Trace.create(ctx, plan_id=plan)
    assert (t.context_id, t.plan_id) == (ctx, plan)
    assert (t.to_dict()["context_id"], t.to_dict()["plan_id"]) == (ctx, plan)
    r = mplp_rs.Role.create("reviewer", description="reads diffs").to_dict()
    assert (r["name"], r["description"]) == ("reviewer", "reads diffs") and "capabilities" not in r
    e = mplp_rs.Extension.create(ctx, "lint", "policy", "2.0.0-rc.1").to_dict()
    assert (e["context_id"], e["name"], e["extension_type"], e["version"], e["status"]) == (
        ctx, "lint", "policy", "2.0.0-rc.1", "registered"
    )
    n = mplp_rs.Network.create(ctx, "cluster", "hub_spoke")
    node = n.add_node("queue", name="jobs", role_id="worker")
    assert n.nodes() == [{"node_id": node, "name": "jobs", "kind": "queue", "role_id": "worker", "status": "inactive"}]
    assert (n.to_dict()["name"], n.to_dict()["topology_type"]) == ("cluster", "hub_spoke")
    core = mplp_rs.Core.create(["plan"])
    core.add_module("trace", version="1.2.0", description="traces")
    m = core.modules()[1]
    assert (m["module_id"], m["version"], m["description"], m["status"]) == ("trace", "1.2.0", "traces", "enabled")
    confirm = mplp_rs.Confirm.request("context", ctx, "planner", reason="go live")
    assert (confirm.to_dict()["reason"], confirm.to_dict()["requested_by_role"]) == ("go live", "planner")
    confirm.decide("rejected", "lead", reason="not yet")
    confirm.approve("cto")
    assert [(d["status"], d["decided_by_role"], d.get("reason")) for d in confirm.decisions()] == [
        ("rejected", "lead", "not yet"),
        ("approved", "cto", None),
    ]
