"""Python gives the CLI's verdicts: same kind, validity, (pointer, rule) pairs and messages."""

import json
from pathlib import Path

import pytest

import mplp_rs
from conftest import example_files

FILES = example_files()
EXAMPLES_VALID = Path(__file__).resolve().parents[3] / "schemas/examples/valid"


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


@pytest.mark.parametrize("name", ["plan-minimal.json", "map-log-broadcast.ndjson"])
def test_a_byte_order_mark_is_skipped_with_a_warning_as_the_cli_does(name, tmp_path):
    """Files go through the CLI's one dispatch: the mark is skipped with `input-bom`,
    by `validate(path)` and `validate_log(path)` alike."""
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES_VALID / name).read_bytes())
    results = [mplp_rs.validate(path)]
    if name.endswith(".ndjson"):
        results.append(mplp_rs.validate_log(path, kind="auto"))
        results.append(mplp_rs.validate_log(str(path)))
    for result in results:
        assert result.valid, result.errors
        assert [v.rule for v in result.warnings] == ["input-bom"]
    # A JSON text in memory has no mark: bytes keep refusing it, by name.
    refused = mplp_rs.validate(path.read_bytes(), kind="plan" if name.endswith(".json") else "map-log")
    assert not refused.valid
    assert any("byte-order mark" in v.message for v in refused.errors)
