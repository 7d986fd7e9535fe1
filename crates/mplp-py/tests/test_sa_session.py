"""SaSession: a plan run with a Python callable as the executor; the log validates."""

import json
import uuid

import pytest

import mplp_rs


def plan_dict(n=3):
    ctx = str(uuid.uuid4())
    ids = [str(uuid.uuid4()) for _ in range(n)]
    steps = []
    for i, sid in enumerate(ids):
        step = {"step_id": sid, "description": f"Step {i}", "status": "pending"}
        if i:
            step["dependencies"] = [ids[i - 1]]
        steps.append(step)
    return {
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "plan_id": str(uuid.uuid4()),
        "context_id": ctx,
        "title": "Py plan",
        "objective": "Run from Python",
        "status": "draft",
        "steps": steps,
    }


def test_a_python_executor_runs_every_step():
    seen = []

    def executor(step):
        seen.append((step["position"], step["attempt"]))
        return {"done": step["description"]}

    s = mplp_rs.SaSession(plan_dict(4), executor)
    report = s.run()
    assert report["outcome"] == "completed"
    assert seen == [(0, 1), (1, 1), (2, 1), (3, 1)]
    events = s.events()
    assert events[0]["event_type"] == "SAInitialized"
    assert events[-1]["event_type"] == "SACompleted"
    log = "\n".join(json.dumps(e) for e in events) + "\n"
    assert mplp_rs.validate(log.encode(), kind="sa-log").valid
    assert s.plan()["status"] == "completed"
    assert len(s.trace()["segments"]) == 4


def test_an_exception_fails_the_attempt_and_is_retried():
    calls = {"n": 0}

    def executor(step):
        calls["n"] += 1
        if step["position"] == 1 and step["attempt"] == 1:
            raise RuntimeError("flaky tool")
        return None

    s = mplp_rs.SaSession(plan_dict(3), executor, retries=1)
    report = s.run()
    assert report["outcome"] == "completed"
    assert report["retries"] == 1
    failed = [e for e in s.events() if e["event_type"] == "SAStepFailed"]
    assert "flaky tool" in failed[0]["payload"]["reason"]


def test_a_refused_approval_ends_the_run():
    def executor(step):
        if not step["approved"] and step["position"] == 0:
            return ("needs_approval", "deletes files")
        return {}

    s = mplp_rs.SaSession(plan_dict(2), executor, approver=lambda req: req["target"] == "plan")
    report = s.run()
    assert report["outcome"] == "rejected"
    assert s.plan()["status"] == "cancelled"


def test_an_evidence_pack_on_disk(tmp_path):
    out = tmp_path / "pack"
    s = mplp_rs.SaSession(plan_dict(3), lambda step: {}, out=out)
    assert s.run()["outcome"] == "completed"
    s.close()
    assert (out / "integrity" / "sha256sums.txt").is_file()
    assert mplp_rs.validate_log(out / "timeline" / "events.ndjson", kind="sa").valid


def test_an_inactive_context_is_refused():
    p = plan_dict(1)
    ctx = {
        "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
        "context_id": p["context_id"],
        "root": {"domain": "d", "environment": "e"},
        "title": "Draft context",
        "status": "draft",
    }
    with pytest.raises(mplp_rs.TransitionError) as e:
        mplp_rs.SaSession(p, lambda s: None, context=ctx)
    assert "sa_context_must_be_active" in str(e.value.violations[0].rule)
