"""Shared fixtures: the repository's example documents and the CLI's verdicts on them."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "schemas" / "examples"


def example_files():
    """Every example document (valid and invalid), as the CLI lists a directory."""
    files = [
        p
        for p in sorted(EXAMPLES.rglob("*"))
        if p.suffix in (".json", ".ndjson") and not p.name.endswith(".expect.json")
    ]
    assert files, f"no examples under {EXAMPLES}"
    return files


def _missing(what):
    """Skip loudly, or fail when CI is set: CI must run every test."""
    message = f"MISSING EXTERNAL PART: {what}"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set, so this is a failure)")
    print("\n" + "!" * 70 + "\n" + message + " -- SKIPPED\n" + "!" * 70, file=sys.stderr)
    pytest.skip(message)


def run_cli(*args, exits=(0, 1)):
    """`mplp validate --format json ARGS...`: {resolved path: result dict}; the
    exit status must be one of `exits` (2: an input could not be read).

    Uses $MPLP_CLI when set (a built `mplp` binary), else `cargo run -p mplp-cli`.
    """
    cli = os.environ.get("MPLP_CLI")
    if cli:
        cmd = [cli]
    elif shutil.which("cargo"):
        cmd = ["cargo", "run", "--quiet", "-p", "mplp-cli", "--"]
    else:
        _missing("the mplp CLI (set MPLP_CLI or install cargo)")
    out = subprocess.run(
        cmd + ["validate", "--format", "json", *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode in exits, out.stderr
    results = {}
    for line in out.stdout.splitlines():
        record = json.loads(line)
        # The CLI streams a log's violations in the order found; the
        # library's report (and so the bindings') is sorted by line.
        for key in ("errors", "warnings"):
            record[key].sort(key=lambda v: v.get("line", float("inf")))
        results[(REPO / record.pop("file")).resolve()] = record
    return results


@pytest.fixture(scope="session")
def cli_results():
    """`mplp validate --format json` over schemas/examples: {path: result dict}."""
    results = run_cli(EXAMPLES)
    assert len(results) == len(example_files()), "the CLI and the tests list different files"
    return results


@pytest.fixture(scope="session")
def cli_canonical_results():
    """The same with `--profile canonical`."""
    results = run_cli("--profile", "canonical", EXAMPLES)
    assert len(results) == len(example_files()), "the CLI and the tests list different files"
    return results
