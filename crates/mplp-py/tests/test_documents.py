"""Plan, Dialog and Collab wrappers, and simulate_session."""

import json
import random
import uuid
from pathlib import Path

import pytest

import mplp_rs

VALID = Path(__file__).resolve().parents[3] / "schemas" / "examples" / "valid"


def load(name):
    return json.loads((VALID / name).read_text())


@pytest.mark.parametrize(
    "cls,prefix",
    [(mplp_rs.Plan, "plan-"), (mplp_rs.Dialog, "dialog-"), (mplp_rs.Collab, "collab-")],
)
def test_valid_examples_round_trip_exactly(cls, prefix):
    files = sorted(VALID.glob(prefix + "*.json"))
    assert files
    for path in files:
        data = json.loads(path.read_text())
        doc = cls(data)
        assert doc.to_dict() == data, path.name
        assert cls(doc.to_json()).to_dict() == data
        assert cls(doc.to_json(pretty=True).encode()).to_dict() == data
        assert cls(path).to_dict() == data


def test_invalid_documents_raise_validation_error_with_every_violation():
    data = load("plan-minimal.json")
    data["plan_id"] = "not-a-uuid"
    del data["title"]
    with pytest.raises(mplp_rs.ValidationError) as e:
        mplp_rs.Plan(data)
    assert isinstance(e.value, ValueError)
    pairs = {(v.pointer, v.rule) for v in e.value.violations}
    assert ("/plan_id", "pattern") in pairs and ("/title", "required") in pairs
    with pytest.raises(mplp_rs.ValidationError):
        mplp_rs.Dialog(data)


def random_dag_plan(rng, n):
    """A draft plan with n steps; each step depends on a random set of earlier ones."""
    base = load("plan-minimal.json")
    ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(n)]
    steps = []
    order = list(range(n))
    rng.shuffle(order)  # steps are listed in a random order, not topologically
    for i in order:
        deps = [ids[j] for j in range(i) if rng.random() < 0.3]
        step = {"step_id": ids[i], "description": f"step {i}", "status": "pending"}
        if deps:
            step["dependencies"] = deps
        steps.append(step)
    base["steps"] = steps
    base["status"] = "draft"
    return base, ids


@pytest.mark.parametrize("seed", range(30))
def test_topological_order_and_layers_respect_dependencies(seed):
    rng = random.Random(seed)
    data, ids = random_dag_plan(rng, rng.randint(1, 25))
    plan = mplp_rs.Plan(data)
    deps = {s["step_id"]: s.get("dependencies", []) for s in data["steps"]}
    order = plan.topological_order()
    assert sorted(order) == sorted(ids)
    position = {s: i for i, s in enumerate(order)}
    for step, before in deps.items():
        assert all(position[d] < position[step] for d in before)
    layers = plan.execution_layers()
    assert sorted(s for layer in layers for s in layer) == sorted(ids)
    layer_of = {s: i for i, layer in enumerate(layers) for s in layer}
    for step, before in deps.items():
        # Each step sits in the first layer after all its dependencies.
        assert layer_of[step] == max((layer_of[d] + 1 for d in before), default=0)
    path = plan.longest_path()
    assert len(path) == len(layers)


@pytest.mark.parametrize("seed", range(10))
def test_running_a_random_plan_to_completion(seed):
    rng = random.Random(seed)
    data, ids = random_dag_plan(rng, rng.randint(1, 15))
    plan = mplp_rs.Plan(data)
    assert plan.ready_steps() == []  # a draft plan runs nothing
    with pytest.raises(mplp_rs.TransitionError):
        plan.start()  # draft -> in_progress is not in the table
    plan.propose()
    plan.approve(by="alice", reason="looks right")
    plan.start()
    done = set()
    deps = {s["step_id"]: set(s.get("dependencies", [])) for s in data["steps"]}
    while plan.status == "in_progress":
        ready = plan.ready_steps()
        assert ready and all(deps[s] <= done for s in ready)
        blocked = [s for s in ids if s not in done and s not in ready]
        for s in blocked:
            with pytest.raises(mplp_rs.TransitionError) as e:
                plan.start_step(s)
            assert e.value.violations
        step = rng.choice(ready)
        if rng.random() < 0.2:
            plan.skip_step(step)
        else:
            plan.start_step(step)
            plan.complete_step(step)
        done.add(step)
    assert plan.status == "completed" and done == set(ids)
    assert plan.check().valid
    assert mplp_rs.validate(plan.to_json()).valid


def test_plan_failures_retries_and_bad_ids():
    data, ids = random_dag_plan(random.Random(7), 3)
    plan = mplp_rs.Plan(data)
    plan.propose()
    plan.reject(by="bob", reason="too vague")  # a rejected proposal goes back to draft
    assert plan.status == "draft"
    with pytest.raises(mplp_rs.TransitionError, match="from `draft` to `approved`") as e:
        plan.approve()
    assert [(v.pointer, v.rule) for v in e.value.violations] == [("/status", e.value.violations[0].rule)]
    plan.propose()
    plan.approve()
    plan.start()
    first = plan.ready_steps()[0]
    plan.start_step(first)
    plan.fail_step(first)
    assert plan.status == "failed"
    with pytest.raises(mplp_rs.TransitionError, match="only change while the plan is in_progress"):
        plan.retry_step(first)  # the plan failed with its step
    with pytest.raises(ValueError, match="step_id `nope`"):
        plan.start_step("nope")
    with pytest.raises(mplp_rs.TransitionError) as e:
        plan.start_step(str(uuid.uuid4()))
    assert e.value.violations[0].pointer == "/steps"


def test_cyclic_plans_are_invalid():
    data, ids = random_dag_plan(random.Random(3), 3)
    data["steps"][0]["dependencies"] = [data["steps"][-1]["step_id"]]
    data["steps"][-1]["dependencies"] = [data["steps"][0]["step_id"]]
    result = mplp_rs.validate(data)
    assert not result.valid
    with pytest.raises(mplp_rs.ValidationError) as e:
        mplp_rs.Plan(data)
    assert {v.rule for v in e.value.violations} == {v.rule for v in result.errors}


def test_dialog_fork_prune_and_conversion():
    data = load("dialog-multi-turn.json")
    dialog = mplp_rs.Dialog(data)
    messages = data["messages"]
    assert len(messages) >= 3
    child = dialog.fork(last_n=1, first_k=1)
    assert child.dialog_id != dialog.dialog_id and child.status == "active"
    assert [m["content"] for m in child.to_dict()["messages"]] == [
        messages[0]["content"],
        messages[-1]["content"],
    ]
    everything = dialog.fork(last_n=len(messages), first_k=0).to_dict()["messages"]
    assert everything == messages
    openai = dialog.to_openai(model="gpt-4o")
    assert openai["model"] == "gpt-4o"
    assert [m["content"] for m in openai["messages"]] == [m["content"] for m in messages]
    assert all(m["role"] in ("system", "user", "assistant") for m in openai["messages"])
    anthropic = dialog.to_anthropic(max_tokens=77)
    assert anthropic["max_tokens"] == 77
    roles = [m["role"] for m in anthropic["messages"]]
    assert all(a != b for a, b in zip(roles, roles[1:]))  # alternating
    total = sum(len(m["content"]) for m in messages)
    pruned = dialog.prune(max_tokens=total // 4 // 2 + 10, safety_margin=0)
    kept = pruned.to_dict()["messages"]
    assert kept[0] == messages[0] and len(kept) <= len(messages)
    assert sum(len(m["content"]) for m in kept) < total
    with pytest.raises(mplp_rs.TransitionError):
        dialog.prune(max_tokens=1, safety_margin=0)
    assert "user" in dialog.overview().lower() or messages[0]["content"][:20] in dialog.overview()


def test_dialog_lifecycle():
    dialog = mplp_rs.Dialog(load("dialog-empty-active.json"))
    with pytest.raises(mplp_rs.TransitionError):
        dialog.to_openai()  # no messages
    dialog.add_message("user", "Hello")
    dialog.add_message("assistant", "Hi")
    with pytest.raises(ValueError, match="unknown DialogRole `robot`"):
        dialog.add_message("robot", "beep")
    dialog.pause()
    with pytest.raises(mplp_rs.TransitionError) as e:
        dialog.add_message("user", "anyone?")
    assert e.value.violations[0].pointer == "/status"
    dialog.resume()
    dialog.complete()
    assert dialog.status == "completed"
    assert mplp_rs.validate(dialog.to_dict()).valid


def test_collab_lifecycle():
    collab = mplp_rs.Collab(load("collab-round-robin.json"))
    assert collab.mode == "round_robin"
    status = collab.status
    if status == "draft":
        collab.start()
    with pytest.raises(mplp_rs.TransitionError):
        collab.resume()  # active -> active is not a transition
    collab.suspend()
    collab.resume()
    collab.complete()
    assert collab.status == "completed"
    assert mplp_rs.validate(collab.to_dict()).valid


@pytest.mark.parametrize(
    "mode,participants", [("broadcast", 4), ("round_robin", 3), ("orchestrated", 4), ("swarm", 5), ("pair", 2)]
)
def test_simulated_sessions_are_valid_and_deterministic(mode, participants):
    events = mplp_rs.simulate_session(mode, participants, turns=6, seed=42)
    assert events[0]["event_type"] == "MAPSessionStarted"
    assert events[-1]["event_type"] == "MAPSessionCompleted"
    result = mplp_rs.validate_log(json.dumps(e) for e in events)
    assert result.valid, result.errors
    again = mplp_rs.simulate_session(mode, participants, turns=6, seed=42)
    assert again == events
    other = mplp_rs.simulate_session(mode, participants, turns=6, seed=43)
    assert other != events


def test_simulate_session_refusals_and_plans():
    with pytest.raises(mplp_rs.MplpError):
        mplp_rs.simulate_session("pair", 3, turns=2)
    with pytest.raises(ValueError, match="unknown CollabMode"):
        mplp_rs.simulate_session("chaos", 3, turns=2)
    with pytest.raises(ValueError, match="at most 10000"):
        mplp_rs.simulate_session("swarm", 10_001, turns=1)
    data, ids = random_dag_plan(random.Random(5), 4)
    for plan in (data, mplp_rs.Plan(data)):
        events = mplp_rs.simulate_session("round_robin", 3, turns=10, seed=1, plan=plan)
        assert mplp_rs.validate_log(json.dumps(e) for e in events).valid


def test_plan_build():
    plan = mplp_rs.Plan.build(
        "Fix login bug",
        "Fix the 500 on /login",
        [
            "Read error logs",
            {"description": "Find the cause", "after": [0], "role": "debugger"},
            {"description": "Write the fix", "after": [1]},
            {"description": "Review", "after": [2, 0]},
        ],
    )
    assert plan.status == "draft"
    steps = plan.to_dict()["steps"]
    ids = [s["step_id"] for s in steps]
    assert steps[1]["dependencies"] == [ids[0]] and steps[1]["agent_role"] == "debugger"
    assert plan.execution_layers() == [[ids[0]], [ids[1]], [ids[2]], [ids[3]]]
    assert mplp_rs.validate(plan.to_json()).valid
    fixed = str(uuid.uuid4())
    ctx = str(uuid.uuid4())
    by_id = mplp_rs.Plan.build("t", "o", [{"description": "a", "step_id": fixed}, {"description": "b", "after": [fixed]}], context_id=ctx)
    assert by_id.to_dict()["context_id"] == ctx
    assert by_id.topological_order()[0] == fixed
    # Schema problems (every one), then the plan rules: a cycle through forward references.
    with pytest.raises(mplp_rs.ValidationError) as e:
        mplp_rs.Plan.build("", "", ["a"])
    assert [(v.pointer, v.rule) for v in e.value.violations] == [("/title", "min-length"), ("/objective", "min-length")]
    with pytest.raises(mplp_rs.ValidationError) as e:
        mplp_rs.Plan.build("t", "o", [{"description": "a", "after": [1]}, {"description": "b", "after": [0]}])
    assert any("acyclic" in v.rule for v in e.value.violations), e.value.violations
    with pytest.raises(ValueError, match="out of range"):
        mplp_rs.Plan.build("t", "o", [{"description": "a", "after": [5]}])
    with pytest.raises(ValueError, match="unknown step key `deps`"):
        mplp_rs.Plan.build("t", "o", [{"description": "a", "deps": [0]}])
    with pytest.raises(TypeError):
        mplp_rs.Plan.build("t", "o", [42])
    with pytest.raises(ValueError, match="context_id `ctx-1`"):
        mplp_rs.Plan.build("t", "o", ["a"], context_id="ctx-1")


def test_dialog_create():
    d = mplp_rs.Dialog.create(system_prompt="You are terse.")
    assert d.status == "active"
    d.add_message("user", "Hi")
    assert [m["role"] for m in d.to_dict()["messages"]] == ["system", "user"]
    assert d.to_anthropic()["system"] == "You are terse."
    assert mplp_rs.validate(d.to_dict()).valid
    assert mplp_rs.Dialog.create().to_dict()["messages"] == []
