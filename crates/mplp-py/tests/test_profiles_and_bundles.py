"""profile="canonical", partial logs, validate_log's kinds and validate_bundle, against the CLI."""

import json
import os
import random
from pathlib import Path

import pytest

import mplp_rs
from conftest import EXAMPLES, example_files, run_cli

FILES = example_files()
BUNDLES = sorted(p for p in (EXAMPLES / "bundles").glob("*/*") if p.is_dir())
LOGS = sorted((EXAMPLES / "valid").glob("*.ndjson")) + sorted((EXAMPLES / "invalid").glob("*.ndjson"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_canonical_profile_matches_the_cli(path, cli_canonical_results):
    expected = cli_canonical_results[path.resolve()]
    assert mplp_rs.validate(path, profile="canonical").to_dict() == expected
    if path.suffix == ".ndjson":
        got = mplp_rs.validate_log(path, kind=expected["kind"], profile="canonical")
        assert got.to_dict() == expected


def test_canonical_only_relaxes_and_some_example_shows_it(cli_results, cli_canonical_results):
    """Canonical never adds an error; on the examples it turns some SDK errors into warnings."""
    relaxed = 0
    for path in FILES:
        strict = cli_results[path.resolve()]
        canonical = mplp_rs.validate(path, profile="canonical").to_dict()
        assert mplp_rs.validate(path, profile="strict").to_dict() == strict
        assert mplp_rs.validate(path, profile=None).to_dict() == strict
        s_all = sorted((v["pointer"], v["rule"]) for v in strict["errors"] + strict["warnings"])
        c_all = sorted((v["pointer"], v["rule"]) for v in canonical["errors"] + canonical["warnings"])
        assert s_all == c_all, path.name  # the same findings, at another severity
        assert len(canonical["errors"]) <= len(strict["errors"])
        relaxed += canonical["valid"] and not strict["valid"]
    assert relaxed > 0


def test_log_kinds_come_from_the_kind_table():
    logs = [k["name"] for k in mplp_rs.kind_table() if k["shape"] == "log"]
    assert {"map-log", "sa-log", "event-log"} <= set(logs)
    line = b'{"event_id":"not-an-id"}\n'
    for name in logs:
        full = mplp_rs.validate_log(line, kind=name)
        short = mplp_rs.validate_log(line, kind=name.removesuffix("-log"))
        assert full.kind == short.kind == name
        assert full.to_dict() == short.to_dict()
        assert full.to_dict() == mplp_rs.validate(line, kind=name).to_dict()
    with pytest.raises(ValueError, match="expected one of: auto, " + ", ".join(logs)):
        mplp_rs.validate_log(line, kind="plan")


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_partial_logs_match_the_cli(path):
    expected = run_cli("--partial", path)[path.resolve()]
    assert mplp_rs.validate_log(path, kind="auto", partial=True).to_dict() == expected
    assert mplp_rs.validate(path, partial=True).to_dict() == expected


def test_a_cut_log_is_an_error_complete_and_a_warning_partial():
    """Generated cases: a valid MAP session cut after a random line."""
    rng = random.Random(43)
    for seed in range(20):
        events = mplp_rs.simulate_session("round_robin", participants=3, turns=4, seed=seed)
        lines = [json.dumps(e) for e in events]
        assert mplp_rs.validate_log(lines).valid
        cut = lines[: rng.randint(1, len(lines) - 1)]
        whole = mplp_rs.validate_log(cut)
        partial = mplp_rs.validate_log(cut, partial=True)
        assert not whole.valid and partial.valid
        # The same findings: what is open at the end is an error, or a warning.
        assert [(v.line, v.rule) for v in whole.violations] == [(v.line, v.rule) for v in partial.violations]
        assert partial.errors == []


@pytest.mark.parametrize("bundle", BUNDLES, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("profile", ["strict", "canonical"])
def test_bundles_match_the_cli(bundle, profile):
    # From the repository root, as the CLI runs, with the directory as the CLI
    # gets it (the binding rules' messages name the other files).
    given = str(bundle.relative_to(EXAMPLES.parents[1]))
    expected = run_cli("--bundle", "--profile", profile, given)
    cwd = os.getcwd()
    os.chdir(EXAMPLES.parents[1])
    try:
        result = mplp_rs.validate_bundle(given, profile=profile)
        by_files = mplp_rs.validate_bundle([Path(f) for f in result.files], profile=profile)
    finally:
        os.chdir(cwd)
    got = {}
    for record in result.to_dicts():
        got[(EXAMPLES.parents[1] / record.pop("file")).resolve()] = record
    assert got == expected
    assert result.to_dicts() == by_files.to_dicts()
    assert result.valid == all(r["valid"] for r in expected.values())
    assert bool(result) == result.valid and len(result) == len(expected)
    if bundle.parent.name == "valid":
        assert result.valid and not result.errors
    for file, sub in result.results():
        assert result[file].to_dict() == sub.to_dict()
    errors = [(f, v.rule) for f, v in result.errors]
    assert errors == [(f, v.rule) for f, r in result.results() for v in r.errors]
    if bundle.parent.name == "invalid" and profile == "strict":
        rule = bundle.name.split("--")[0]
        assert rule in {v.rule for _, v in result.errors} | {
            v.rule for _, r in result.results() for v in r.warnings
        }


def test_bundle_input_errors():
    with pytest.raises(ValueError, match="nothing to check"):
        mplp_rs.validate_bundle([])
    with pytest.raises(OSError):
        mplp_rs.validate_bundle(["/nonexistent/plan.json"])
    with pytest.raises(TypeError):
        mplp_rs.validate_bundle([42])
    with pytest.raises(KeyError):
        mplp_rs.validate_bundle(EXAMPLES / "bundles/valid/plan-approved-and-running")["nope.json"]
    with pytest.raises(ValueError, match="unknown profile"):
        mplp_rs.validate_bundle(EXAMPLES / "bundles/valid", profile="lax")


def test_the_clis_size_and_window_options(tmp_path):
    """max_document_bytes and event_id_window give the records of --max-document-bytes
    and --event-id-window."""
    plan = EXAMPLES / "valid" / "plan-minimal.json"
    small = plan.stat().st_size - 1
    expected = run_cli("--max-document-bytes", small, plan, exits=(2,))[plan.resolve()]
    got = mplp_rs.validate(plan, max_document_bytes=small).to_dict()
    assert got == expected and [v["rule"] for v in got["errors"]] == ["input-too-large"]
    assert mplp_rs.validate(plan, max_document_bytes=small + 1).valid
    # A repeated event id 3 events apart: found with a window of 3 or more
    # (a smaller window may still find it), never with none.
    events = mplp_rs.simulate_session("broadcast", participants=2, turns=3, seed=5)
    events[4]["event_id"] = events[1]["event_id"]
    log = tmp_path / "repeat.ndjson"
    log.write_text("".join(json.dumps(e) + "\n" for e in events))
    for window in (0, 2, 3, 1000):
        expected = run_cli("--event-id-window", window, log)[log.resolve()]
        got = mplp_rs.validate_log(log, event_id_window=window).to_dict()
        assert got == expected, window
        assert mplp_rs.validate(log, event_id_window=window).to_dict() == expected
    valid = {w: mplp_rs.validate_log(log, event_id_window=w).valid for w in (0, 3, 1000)}
    assert valid == {0: True, 3: False, 1000: False}
    bundle = EXAMPLES / "bundles/valid/plan-approved-and-running"
    tiny = mplp_rs.validate_bundle(bundle, max_document_bytes=10)
    assert not tiny.valid and {v.rule for _, v in tiny.errors} == {"input-too-large"}
