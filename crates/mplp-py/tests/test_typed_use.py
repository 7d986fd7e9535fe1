"""typed_use.py (checked by mypy --strict in CI) runs, and sees what it should."""

import typed_use


def test_the_typed_program_runs():
    seen = typed_use.main()
    assert seen[0].startswith("validate plan True")
    assert seen[1] == "validate_log map-log True 0"
    assert sum(line.startswith("bundle ") and line.endswith("True True") for line in seen) == 4
    kinds = [line for line in seen if line.split(" ")[0] in typed_use.mplp_rs.DOCUMENT_CLASSES]
    assert len(kinds) == 8 and all(" True True " in line for line in kinds), kinds
    assert "True 8 approved approved 1.1.0 False" in seen
    assert seen[-1].startswith("refused ") and seen[-2] == "class Plan"
