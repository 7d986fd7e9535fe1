"""The README's Python example runs (from the repository root, as written)."""

import os
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
REPO = Path(__file__).resolve().parents[3]


def test_readme_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) == 1
    assert len(blocks[0].strip().splitlines()) <= 15
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        exec(compile(blocks[0], str(README), "exec"), {})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("False [(") and "sa_plan_dag_acyclic" in out[0]
    assert out[1].startswith("approved [[")
    assert out[2] == "True"
    assert out[3] == "[False, True]"
    assert out[4] == "True"
