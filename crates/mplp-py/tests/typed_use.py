"""Every class and function of mplp_rs used as a typed program would use it.

CI checks this file with `mypy --strict` against the installed wheel's stubs
(crates/mplp-py/ci.sh), and test_typed_use.py runs it, so the stubs are
both accepted by the type checker and true at run time.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import mplp_rs

EXAMPLES = Path(__file__).resolve().parents[3] / "schemas" / "examples"


def main() -> list[str]:
    """Runs each call once; returns what it saw, one line per call."""
    seen: list[str] = []
    result: mplp_rs.ValidationResult = mplp_rs.validate(
        EXAMPLES / "valid" / "plan-minimal.json", kind="plan", profile="canonical", partial=False
    )
    first: mplp_rs.Violation | None = result.violations[0] if result.violations else None
    seen.append(f"validate {result.kind} {result.valid} {first}")
    log = mplp_rs.validate_log(
        (json.dumps(e) for e in mplp_rs.simulate_session("pair", participants=2, turns=2, seed=1)),
        kind="map",
        profile="strict",
        partial=True,
    )
    seen.append(f"validate_log {log.kind} {bool(log)} {len(log.errors)}")
    bundle: mplp_rs.BundleResult = mplp_rs.validate_bundle(
        EXAMPLES / "bundles" / "valid" / "plan-approved-and-running", profile=None
    )
    for file, sub in bundle.results():
        seen.append(f"bundle {Path(file).name} {sub.kind} {sub.valid} {bundle[file].valid}")
    rows = mplp_rs.kind_table()
    seen.append(f"kinds {len(mplp_rs.kinds())} {rows[0]['name']} {rows[-1]['shape']} {mplp_rs.PROFILES}")

    ctx = mplp_rs.Context.create("Typed", "web", "prod", entry_point=None)
    ctx.activate()
    plan = mplp_rs.Plan.build("Typed", "Typed", ["a", {"description": "b", "after": [0]}], context_id=ctx.context_id)
    plan.propose()
    confirm = mplp_rs.Confirm.request("plan", plan.plan_id, "planner", reason=None)
    plan.decide(confirm, True, by="lead", reason="fine")
    trace = mplp_rs.Trace.create(ctx.context_id, plan_id=plan.plan_id)
    trace.fire("start")
    segment: str = trace.add_segment("a", parent=None)
    trace.fire_segment(segment, "start")
    role = mplp_rs.Role.create("reviewer", description=None, capabilities=["read"])
    granted: bool = role.grant("comment")
    ext = mplp_rs.Extension.create(ctx.context_id, "lint", "validation", "1.0.0")
    ext.activate()
    ext.upgrade("1.1.0")
    net = mplp_rs.Network.create(ctx.context_id, "cluster", "mesh")
    node: str = net.add_node("agent", name="n1", role_id=role.role_id)
    net.fire_node(node, "activate")
    core = mplp_rs.Core.create(["context", "plan"])
    core.add_module("trace", version="1.0.0", description=None)
    core.fire_module("trace", "disable")
    docs: list[object] = [ctx, plan, confirm, trace, role, ext, net, core]
    for doc in (ctx, plan, confirm, trace, role, ext, net, core):
        check: mplp_rs.ValidationResult = doc.check(profile="strict")
        seen.append(f"{doc.KIND} {check.valid} {len(doc.to_json(pretty=True)) > 0} {type(doc.to_dict())}")
    seen.append(f"{granted} {len(docs)} {plan.status} {confirm.status} {ext.version} {core.is_enabled('trace')}")
    cls = mplp_rs.DOCUMENT_CLASSES["plan"]
    seen.append(f"class {cls.__name__}")
    try:
        mplp_rs.Context(json.dumps({"context_id": str(uuid.uuid4())}))
    except mplp_rs.ValidationError as e:
        seen.append(f"refused {len(e.violations)} {e.violations[0].rule}")
    return seen


if __name__ == "__main__":
    print("\n".join(main()))
