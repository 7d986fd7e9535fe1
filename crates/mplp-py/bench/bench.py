#!/usr/bin/env python3
"""Benchmark (not a test): mplp_rs.validate against json.loads, orjson, jsonschema and fastjsonschema.

Every contender runs in this one process on the same generated plans and
dialogs (about 3 KB, 30 KB and 280 KB), so the closing ratios compare like
with like on this machine. Timings are the best of several repeats.

    pip install jsonschema rfc3339-validator fastjsonschema orjson   # the last two are optional
    python crates/mplp-py/bench/bench.py [--quick] [--docs DIR]

With --docs DIR, the documents are the Rust performance table's own (plans of
10/100/1000 steps, dialogs of 10/100/1000 messages, a collab of 8
participants), written by
`cargo run --release -p mplp --example perf_report -- --write-docs DIR`.

Contenders, per document (JSON bytes as read from a file):
  json.loads             parsing alone (the floor any Python validator pays)
  orjson.loads           parsing alone with orjson (Rust; the fastest parser for Python)
  jsonschema             json.loads + Draft7Validator.is_valid with format checking
                         (date-time via rfc3339-validator, uuid), on schemas/ (the same
                         schemas the SDK follows); it does not check the semantic rules
  fastjsonschema         json.loads + a compiled Draft 7 validator (same schemas, formats)
  mplp_rs.validate       schema and semantic rules, from the bytes (kind="auto")
  mplp_rs.validate(dict) the same from an already parsed dict (json.dumps inside)
  dicts: jsonschema/mplp  for a caller who already holds a dict: jsonschema's is_valid(dict)
                         against mplp_rs.validate(dict)
"""

import argparse
import copy
import json
import random
import re
import sys
import timeit
import uuid
from pathlib import Path

import mplp_rs

REPO = Path(__file__).resolve().parents[3]
SCHEMAS = REPO / "schemas"
VALID = SCHEMAS / "examples" / "valid"
UUID_RE = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"


def uid(rng):
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def make_plan(n_steps, seed=1):
    """A valid in-progress plan with n_steps steps in a layered DAG."""
    rng = random.Random(seed)
    plan = json.loads((VALID / "plan-minimal.json").read_text())
    ids = [uid(rng) for _ in range(n_steps)]
    steps = []
    for i, sid in enumerate(ids):
        step = {
            "step_id": sid,
            "description": f"Step {i}: " + "inspect the service logs and summarise the failures " * 2,
            "status": "pending",
            "agent_role": rng.choice(["planner", "coder", "reviewer"]),
        }
        deps = sorted({ids[rng.randrange(i)] for _ in range(min(i, 2))})
        if deps:
            step["dependencies"] = deps
        steps.append(step)
    plan["steps"] = steps
    plan["status"] = "approved"
    return plan


def make_dialog(n_messages, seed=1):
    """A valid active dialog with n_messages messages, in time order."""
    rng = random.Random(seed)
    dialog = json.loads((VALID / "dialog-multi-turn.json").read_text())
    roles = ["user", "assistant"]
    messages = [{"role": "system", "content": "You are a helpful agent.", "timestamp": "2025-12-07T00:00:00.000Z"}]
    for i in range(1, n_messages):
        seconds = i * 5
        ts = f"2025-12-07T{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.000Z"
        words = " ".join(rng.choice(["plan", "step", "agent", "log", "retry", "deploy"]) for _ in range(20))
        messages.append({"role": roles[i % 2], "content": f"Message {i}: {words}", "timestamp": ts})
    dialog["messages"] = messages
    dialog.pop("ended_at", None)
    dialog["status"] = "active"
    dialog["started_at"] = "2025-12-07T00:00:00.000Z"
    return dialog


def encode(value):
    """The document as a file would hold it (indented JSON)."""
    return json.dumps(value, indent=2).encode()


def sized(make, target_bytes):
    """The largest document from make(n) at most target_bytes long (as encoded)."""
    lo, hi = 1, 2
    while len(encode(make(hi))) <= target_bytes:
        lo, hi = hi, hi * 2
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if len(encode(make(mid))) <= target_bytes:
            lo = mid
        else:
            hi = mid
    return make(lo)


def load_schemas():
    store = {}
    for path in SCHEMAS.rglob("*.schema.json"):
        schema = json.loads(path.read_text())
        store[schema["$id"]] = schema
    return store


def jsonschema_validators(store):
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7

    registry = Registry().with_resources(
        (sid, Resource.from_contents(s, default_specification=DRAFT7)) for sid, s in store.items()
    )
    checker = copy.deepcopy(jsonschema.Draft7Validator.FORMAT_CHECKER)
    # uuid is a Draft 2019-09 format the event schemas use; Draft 7's checker skips it.
    uuid_re = re.compile(UUID_RE)
    checker.checks("uuid")(lambda value: not isinstance(value, str) or bool(uuid_re.match(value)))
    if "date-time" in checker.checkers:
        note = "date-time (rfc3339-validator) and uuid formats checked"
    else:
        note = "WARNING: rfc3339-validator missing, date-time NOT checked"
    out = {}
    for kind in ("plan", "dialog", "collab"):
        schema = next(s for sid, s in store.items() if sid.endswith(f"/mplp-{kind}.schema.json"))
        out[kind] = jsonschema.Draft7Validator(schema, registry=registry, format_checker=checker)
    return out, note


def fastjsonschema_validators(store):
    try:
        import fastjsonschema
    except ImportError:
        return None
    handlers = {"https": lambda uri: store[uri.split("#")[0]]}
    out = {}
    for kind in ("plan", "dialog", "collab"):
        schema = next(s for sid, s in store.items() if sid.endswith(f"/mplp-{kind}.schema.json"))
        out[kind] = fastjsonschema.compile(schema, handlers=handlers, formats={"uuid": UUID_RE})
    return out


def best(fn, repeat):
    """Best time of one call, in seconds (timeit's autorange, best of `repeat`)."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--docs", type=Path, help="the documents of perf_report --write-docs DIR")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    try:
        import orjson
    except ImportError:
        orjson = None

    store = load_schemas()
    js, js_note = jsonschema_validators(store)
    fjs = fastjsonschema_validators(store)
    docs = []
    if args.docs:
        order = {"plan": 0, "dialog": 1, "collab": 2}
        files = sorted(
            args.docs.glob("*.json"),
            key=lambda p: (order[p.stem.split("-")[0]], int(p.stem.split("-")[1])),
        )
        assert files, f"no documents in {args.docs}"
        for path in files:
            docs.append((path.stem.split("-")[0], path.read_bytes(), path.stem))
    else:
        for kind, make in (("plan", make_plan), ("dialog", make_dialog)):
            for target in (3_000, 30_000, 280_000):
                data = encode(sized(make, target))
                docs.append((kind, data, f"{kind} {len(data) / 1000:.0f} KB"))

    print(f"mplp_rs {mplp_rs.__version__}, Python {sys.version.split()[0]}; jsonschema: {js_note}")
    print(f"fastjsonschema: {'installed' if fjs else 'NOT installed (skipped)'}")
    print(f"orjson: {orjson.__version__ if orjson else 'NOT installed (skipped)'}\n")
    header = (
        f"{'document':<16}{'json.loads':>12}{'orjson':>10}{'jsonschema':>12}{'fastjsonschema':>16}"
        f"{'mplp_rs':>10}{'mplp(dict)':>12}"
    )
    print("time per document, microseconds (best of %d)" % repeat)
    print(header)
    rows = []
    for kind, data, name in docs:
        value = json.loads(data)
        # Every contender must agree the document is valid, else the race is void.
        assert mplp_rs.validate(data).valid, mplp_rs.validate(data).errors[:3]
        assert js[kind].is_valid(value), next(js[kind].iter_errors(value))
        if fjs:
            fjs[kind](value)
        t = {
            "loads": best(lambda: json.loads(data), repeat),
            "orjson": best(lambda: orjson.loads(data), repeat) if orjson else None,
            "jsonschema": best(lambda: js[kind].is_valid(json.loads(data)), repeat),
            "mplp": best(lambda: mplp_rs.validate(data), repeat),
            "mplp_dict": best(lambda: mplp_rs.validate(value), repeat),
            "jsonschema_dict": best(lambda: js[kind].is_valid(value), repeat),
        }
        t["fast"] = best(lambda: fjs[kind](json.loads(data)), repeat) if fjs else None
        fast = f"{t['fast'] * 1e6:16.1f}" if fjs else f"{'-':>16}"
        orj = f"{t['orjson'] * 1e6:10.1f}" if orjson else f"{'-':>10}"
        print(
            f"{name:<16}{t['loads'] * 1e6:12.1f}{orj}{t['jsonschema'] * 1e6:12.1f}{fast}"
            f"{t['mplp'] * 1e6:10.1f}{t['mplp_dict'] * 1e6:12.1f}"
        )
        rows.append((name, t))

    print("\nratios (how many times slower than mplp_rs.validate on bytes; > 1: mplp_rs is faster)")
    print(
        f"{'document':<16}{'jsonschema':>12}{'fastjsonschema':>16}{'json.loads':>12}{'orjson':>10}"
        f"{'mplp(dict)':>12}   {'dicts: jsonschema/mplp':>22}"
    )
    for name, t in rows:
        fast = f"{t['fast'] / t['mplp']:16.1f}" if t["fast"] else f"{'-':>16}"
        orj = f"{t['orjson'] / t['mplp']:10.2f}" if t["orjson"] else f"{'-':>10}"
        print(
            f"{name:<16}{t['jsonschema'] / t['mplp']:12.1f}{fast}"
            f"{t['loads'] / t['mplp']:12.2f}{orj}{t['mplp_dict'] / t['mplp']:12.2f}"
            f"   {t['jsonschema_dict'] / t['mplp_dict']:22.1f}"
        )
    worst_js = min(t["jsonschema"] / t["mplp"] for _, t in rows)
    beats_loads = all(t["loads"] > t["mplp"] for _, t in rows)
    print(
        f"\nclosing note: mplp_rs.validate is at least {worst_js:.0f}x faster than json.loads + jsonschema "
        f"on every document; it is {'faster' if beats_loads else 'NOT always faster'} than json.loads alone"
        + (
            f"; against orjson.loads alone: {min(t['orjson'] / t['mplp'] for _, t in rows):.2f}x to "
            f"{max(t['orjson'] / t['mplp'] for _, t in rows):.2f}x"
            if orjson
            else ""
        )
        + "."
    )


if __name__ == "__main__":
    main()
