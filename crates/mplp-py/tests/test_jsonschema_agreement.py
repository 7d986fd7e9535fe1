"""Differential check: on every example and on mutants of the valid ones, a schema
error found by mplp_rs is found by Python's jsonschema (Draft 7, format checking)
on the same schemas/, and a document mplp_rs accepts, jsonschema accepts too.

mplp_rs is stricter than the schemas in two documented ways (docs/spec-notes.md):
semantic rules (DAG, status consistency, log rules, ...) and `integer` fields that
refuse `1.0`; those are excluded by rule id below.
"""

import copy
import json
import random
import re
from pathlib import Path

import pytest

import mplp_rs

from conftest import _missing

try:
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7
except ImportError:  # installed by ci.sh; a failure when CI is set
    jsonschema = None

REPO = Path(__file__).resolve().parents[3]
SCHEMAS = REPO / "schemas"
EXAMPLES = SCHEMAS / "examples"
SCHEMA_RULES = {
    "required", "additional-properties", "enum", "pattern", "format", "min-length",
    "min-items", "unique-items", "type", "minimum", "const",
}
KIND_SCHEMA = {
    "plan": "mplp-plan.schema.json",
    "dialog": "mplp-dialog.schema.json",
    "collab": "mplp-collab.schema.json",
    "context": "mplp-context.schema.json",
    "role": "mplp-role.schema.json",
    "confirm": "mplp-confirm.schema.json",
    "trace": "mplp-trace.schema.json",
    "extension": "mplp-extension.schema.json",
    "network": "mplp-network.schema.json",
    "core": "mplp-core.schema.json",
    "map-event": "events/mplp-map-event.schema.json",
    "sa-event": "events/mplp-sa-event.schema.json",
}
FAMILY_SCHEMA = {
    "runtime_execution": "events/mplp-runtime-execution-event.schema.json",
    "graph_update": "events/mplp-graph-update-event.schema.json",
    "pipeline_stage": "events/mplp-pipeline-stage-event.schema.json",
}


UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def format_checker():
    """Draft 7's format checker plus `uuid` (RFC 4122 text; a Draft 2019-09 format
    the MPLP event schemas use), which Draft 7's checker leaves unchecked."""
    checker = copy.deepcopy(jsonschema.Draft7Validator.FORMAT_CHECKER)
    checker.checks("uuid")(lambda value: not isinstance(value, str) or bool(UUID.match(value)))
    if "date-time" not in checker.checkers:
        pytest.fail("jsonschema cannot check date-time: pip install rfc3339-validator")
    return checker


@pytest.fixture(scope="module")
def validators():
    if jsonschema is None:
        _missing("the jsonschema package (pip install jsonschema rfc3339-validator)")
    store = {}
    for path in SCHEMAS.rglob("*.schema.json"):
        schema = json.loads(path.read_text())
        store[path.relative_to(SCHEMAS).as_posix()] = schema
    registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s, default_specification=DRAFT7)) for s in store.values()
    )
    return {
        name: jsonschema.Draft7Validator(s, registry=registry, format_checker=format_checker())
        for name, s in store.items()
    }


def schema_for(kind, doc):
    if kind == "event":
        return FAMILY_SCHEMA.get(doc.get("event_family"), "events/mplp-event-core.schema.json")
    return KIND_SCHEMA.get(kind)


def json_examples():
    return sorted(p for p in EXAMPLES.rglob("*.json") if not p.name.endswith(".expect.json"))


def is_integral_float(doc, pointer):
    node = doc
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node.get(part)
    return isinstance(node, float) and node.is_integer()


KEYWORD = re.compile(r" \(schema `([a-z-]+)`\)$")


def schema_keyword(message):
    found = KEYWORD.search(message)
    return found.group(1) if found else None


STATS = {"both-valid": 0, "both-invalid": 0, "excluded": 0}


def agree(validators, doc, result):
    name = schema_for(result.kind, doc)
    if name is None:
        return
    js_valid = validators[name].is_valid(doc)
    # A frozen invariant the schema states is reported under its id, the
    # schema keyword kept at the end of the message: that keyword is the rule
    # jsonschema sees (Violation::schema_keyword in Rust).
    rules = {schema_keyword(e.message) or e.rule for e in result.errors}
    if result.valid:
        STATS["both-valid"] += 1
        assert js_valid, f"mplp_rs accepts, jsonschema rejects: {next(validators[name].iter_errors(doc)).message}"
    elif rules & SCHEMA_RULES and not rules & {"duplicate-key", "json-syntax"}:
        if all((schema_keyword(e.message) or e.rule) == "type" and is_integral_float(doc, e.pointer) for e in result.errors):
            return  # an integer written 1.0: the documented stricter rule
        assert not js_valid, f"mplp_rs found {sorted(rules)}, jsonschema found nothing"
        STATS["both-invalid"] += 1
    else:
        STATS["excluded"] += 1


@pytest.mark.parametrize("path", json_examples(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_examples_agree_with_jsonschema(validators, path):
    try:
        doc = json.loads(path.read_bytes())
    except ValueError:
        return  # not JSON: nothing for jsonschema to judge
    agree(validators, doc, mplp_rs.validate(path))


def mutate(doc, rng):
    """One random schema-level change somewhere in the document."""
    doc = copy.deepcopy(doc)
    holders = []

    def walk(node):
        if isinstance(node, dict):
            for k in node:
                holders.append((node, k))
                walk(node[k])
        elif isinstance(node, list):
            for i in range(len(node)):
                holders.append((node, i))
                walk(node[i])

    walk(doc)
    holder, key = rng.choice(holders)
    choice = rng.randrange(6)
    if choice == 0 and isinstance(holder, dict):
        del holder[key]
    elif choice == 1:
        holder[key] = rng.choice([None, 7, -1, "", "x", [], {}, True, 2.5])
    elif choice == 2 and isinstance(holder, dict):
        holder["unexpected_" + str(key)] = 1
    elif choice == 3 and isinstance(holder[key], str):
        holder[key] = holder[key].upper()
    elif choice == 4 and isinstance(holder[key], str):
        holder[key] = holder[key][:-1]
    else:
        holder[key] = "not-a-" + str(key)
    return doc


@pytest.mark.parametrize("seed", range(8))
def test_mutants_agree_with_jsonschema(validators, seed):
    rng = random.Random(seed)
    valid = [p for p in json_examples() if p.parent.name == "valid"]
    for _ in range(60):
        path = rng.choice(valid)
        doc = mutate(json.loads(path.read_bytes()), rng)
        kind = mplp_rs.validate(path).kind  # the kind of the original, forced
        agree(validators, doc, mplp_rs.validate(doc, kind=kind))


def test_the_comparison_was_not_vacuous():
    # Runs after the tests above (file order): both branches were exercised.
    assert STATS["both-valid"] >= 30 and STATS["both-invalid"] >= 100, STATS
