"""Python gives the CLI's verdicts: same kind, validity, (pointer, rule) pairs and messages."""

import json
from pathlib import Path

import pytest

import mplp_rs
from conftest import example_files

FILES = example_files()


def pairs(violations):
    return [(v["pointer"], v["rule"]) for v in violations]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_path_input_matches_the_cli(path, cli_results):
    expected = cli_results[path.resolve()]
    got = mplp_rs.validate(path).to_dict()
    assert got["valid"] == expected["valid"]
    assert pairs(got["errors"]) == pairs(expected["errors"])
    assert pairs(got["warnings"]) == pairs(expected["warnings"])
    # The whole record (kind, messages, lines) is the same too.
    assert got == expected


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bytes_and_str_input_match_the_cli(path, cli_results):
    expected = cli_results[path.resolve()]
    kind = expected["kind"] if path.suffix == ".ndjson" else "auto"
    data = path.read_bytes()
    for given in (data, data.decode("utf-8")):
        got = mplp_rs.validate(given, kind=kind).to_dict()
        assert got == expected


@pytest.mark.parametrize(
    "path",
    [p for p in FILES if p.suffix == ".json"],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_dict_input_matches_the_cli(path, cli_results):
    expected = cli_results[path.resolve()]
    rules = {v["rule"] for v in expected["errors"]}
    try:
        value = json.loads(path.read_bytes())
    except ValueError:
        assert not expected["valid"] and "json-syntax" in rules
        return
    got = mplp_rs.validate(value).to_dict()
    if "duplicate-key" in rules:
        # A dict cannot hold a duplicate key (json.loads kept the last value):
        # only that error is gone.
        assert "duplicate-key" not in {v["rule"] for v in got["errors"]}
        keep = [v for v in expected["errors"] if v["rule"] != "duplicate-key"]
        assert pairs(got["errors"]) == pairs(keep)
        return
    assert got["valid"] == expected["valid"]
    assert pairs(got["errors"]) == pairs(expected["errors"])
    assert pairs(got["warnings"]) == pairs(expected["warnings"])


@pytest.mark.parametrize(
    "path",
    sorted((Path(__file__).resolve().parents[3] / "schemas/examples/invalid").glob("*.expect.json")),
    ids=lambda p: p.name,
)
def test_invalid_examples_report_their_expected_violation(path):
    """Each invalid example's .expect.json names a (pointer, rule) Python reports."""
    expected = json.loads(path.read_text())
    doc = path.with_name(path.name.replace(".expect.json", ".json"))
    if not doc.exists():
        doc = doc.with_suffix(".ndjson")
    result = mplp_rs.validate(doc)
    assert not result.valid
    expected = expected if isinstance(expected, list) else [expected]
    got = {(v.pointer, v.rule) for v in result.errors}
    for e in expected:
        assert (e["pointer"], e["rule"]) in got, (doc.name, got)


def test_kind_can_be_forced_and_unknown_kinds_are_reported():
    plan = next(p for p in FILES if p.name.startswith("plan-") and "valid" == p.parent.name)
    as_dialog = mplp_rs.validate(plan, kind="dialog")
    assert as_dialog.kind == "dialog" and not as_dialog.valid
    unknown = mplp_rs.validate({"hello": 1})
    assert unknown.kind is None and not unknown.valid
    assert [(v.pointer, v.rule) for v in unknown.errors] == [("", "unknown-kind")]
    assert unknown.to_dict()["kind"] == "auto"
    assert mplp_rs.kinds()[0] == "auto" and "map-log" in mplp_rs.kinds()
