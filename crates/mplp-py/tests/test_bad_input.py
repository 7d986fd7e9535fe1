"""Bad input raises a clear Python exception (or gives the CLI's verdict) and never crashes."""

import io
import json
import math
from pathlib import Path

import pytest

import mplp_rs

EXAMPLES = Path(__file__).resolve().parents[3] / "schemas" / "examples"


@pytest.mark.parametrize("value", [42, 4.2, None, True, object(), {1, 2}, b"x".decode, Ellipsis])
def test_wrong_types_raise_type_error(value):
    with pytest.raises(TypeError, match="expected an MPLP document as bytes, str"):
        mplp_rs.validate(value)


def test_values_inside_a_dict_without_json_form():
    with pytest.raises(TypeError, match="not JSON serializable"):
        mplp_rs.validate({"plan_id": {1, 2}})
    with pytest.raises(mplp_rs.ValidationError) as nan:
        mplp_rs.validate({"plan_id": math.nan})
    assert isinstance(nan.value, ValueError)
    assert [(v.pointer, v.rule) for v in nan.value.violations] == [("", "python-value")]
    loop = []
    loop.append(loop)
    with pytest.raises(mplp_rs.ValidationError, match="no JSON form|too deeply"):
        mplp_rs.validate(loop)


def test_deep_nesting():
    deep = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(mplp_rs.ValidationError, match="nested too deeply"):
        mplp_rs.validate({"plan_id": deep})
    # As text, deep nesting is an error of the document, as the CLI says.
    n = 1_000_000
    for text, kind, rule, words in (
        (b"[" * n, "auto", "json-syntax", "ends too early"),
        (b"[" * n + b"]" * n, "auto", "type", "found an array"),
        # Past the documented nesting limit (spec-notes "Nesting"): json-depth.
        (b"[" * n, "plan", "json-depth", "up to 1024 levels"),
        (b'{"plan_id":' * n + b"1" + b"}" * n, "auto", "json-depth", "up to 1024 levels"),
    ):
        result = mplp_rs.validate(text, kind=kind)
        assert not result.valid
        assert [v.rule for v in result.errors] == [rule]
        assert words in result.errors[0].message
    with pytest.raises(mplp_rs.ValidationError):
        mplp_rs.Plan(b"[" * 1_000_000)


def test_non_utf8_bytes():
    plan = (EXAMPLES / "valid" / "plan-minimal.json").read_bytes()
    broken = plan.replace(b'"title": "', b'"title": "\xff\xfe', 1)
    assert broken != plan
    result = mplp_rs.validate(broken)
    assert not result.valid
    assert [v.rule for v in result.errors] == ["json-syntax"]
    assert "UTF-8" in result.errors[0].message or "unicode" in result.errors[0].message.lower()
    with pytest.raises(mplp_rs.ValidationError) as e:
        mplp_rs.Plan(broken)
    assert e.value.violations[0].rule == "json-syntax"
    # A str that cannot be UTF-8 (a lone surrogate) is a UnicodeEncodeError, a ValueError.
    with pytest.raises(ValueError):
        mplp_rs.validate('{"plan_id": "\ud800"}')


def test_huge_files(tmp_path):
    # A 64 MiB string member: read, judged, no crash.
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.write(b'{"plan_id": "')
        f.write(b"a" * (64 << 20))
        f.write(b'"}')
    result = mplp_rs.validate(huge)
    assert not result.valid
    assert ("/plan_id", "pattern") in {(v.pointer, v.rule) for v in result.errors}
    # A 1,000,000-line log of garbage: every line reported, with its number.
    log = tmp_path / "huge.ndjson"
    log.write_bytes(b"not json\n" * 1_000_000)
    result = mplp_rs.validate_log(log)
    assert not result.valid
    lines = [v.line for v in result.errors]
    assert lines[:3] == [1, 2, 3] and len(lines) >= 1_000_000


def test_a_file_name_given_as_str_is_refused_with_a_hint():
    name = str(EXAMPLES / "valid" / "plan-minimal.json")
    with pytest.raises(TypeError, match=r"a str is JSON text, .* pass pathlib.Path"):
        mplp_rs.validate(name)
    # Text that names no file is judged as JSON text.
    result = mplp_rs.validate("plan-minimal.json")
    assert [v.rule for v in result.errors] == ["json-syntax"]


def test_unknown_kind_profile_and_missing_file():
    with pytest.raises(ValueError, match="unknown kind `plans`, expected one of: auto, dialog, plan"):
        mplp_rs.validate(b"{}", kind="plans")
    with pytest.raises(ValueError, match="unknown profile `lenient`, expected one of: strict, canonical"):
        mplp_rs.validate(b"{}", profile="lenient")
    with pytest.raises(ValueError, match="unknown profile"):
        mplp_rs.validate_log([], profile="Canonical")
    with pytest.raises(ValueError, match="unknown log kind"):
        mplp_rs.validate_log([], kind="plan")
    with pytest.raises(FileNotFoundError):
        mplp_rs.validate(Path("/nonexistent/plan.json"))
    with pytest.raises(FileNotFoundError):
        mplp_rs.validate_log("/nonexistent/log.ndjson")


def test_validate_log_iterables_raise_what_they_raise():
    def lines():
        yield "{}"
        raise RuntimeError("the source broke")

    with pytest.raises(RuntimeError, match="the source broke"):
        mplp_rs.validate_log(lines())
    with pytest.raises(TypeError, match="expected lines as str or bytes, got int"):
        mplp_rs.validate_log([1, 2])
    with pytest.raises(TypeError):
        mplp_rs.validate_log(42)


def test_validate_log_sources_agree():
    path = EXAMPLES / "valid" / "map-log-broadcast.ndjson"
    text = path.read_text()
    by_path = mplp_rs.validate_log(path)
    assert by_path.valid and by_path.kind == "map-log"
    for source in (
        str(path),
        path.read_bytes(),
        text.splitlines(),  # lines without newlines
        text.splitlines(keepends=True),
        [line.encode() for line in text.splitlines()],
        io.StringIO(text),
        open(path, "rb"),
    ):
        assert mplp_rs.validate_log(source).to_dict() == by_path.to_dict()
    # A broken line is reported with its number, whatever the source.
    lines = text.splitlines()
    event = json.loads(lines[2])
    del event["event_id"]
    lines[2] = json.dumps(event)
    for source in (lines, "\n".join(lines).encode()):
        errors = mplp_rs.validate_log(source).errors
        assert (errors[0].line, errors[0].pointer, errors[0].rule) == (3, "/event_id", "required")


def test_exceptions_subclass_value_error():
    for exc in (mplp_rs.MplpError, mplp_rs.ValidationError, mplp_rs.TransitionError):
        assert issubclass(exc, ValueError)
    assert issubclass(mplp_rs.ValidationError, mplp_rs.MplpError)
    assert issubclass(mplp_rs.TransitionError, mplp_rs.MplpError)
    result = mplp_rs.validate(b'{"plan_id": 1}')
    with pytest.raises(mplp_rs.ValidationError) as e:
        result.raise_for_errors()
    assert e.value.violations == result.violations
    assert mplp_rs.validate(EXAMPLES / "valid" / "plan-minimal.json").raise_for_errors() is None


def test_validate_log_kinds():
    sa = EXAMPLES / "valid" / "sa-log-code-review.ndjson"
    lines = sa.read_text().splitlines()
    auto = mplp_rs.validate_log(lines, kind="auto")
    assert auto.kind == "sa-log" and auto.valid
    assert mplp_rs.validate_log(sa, kind="sa").to_dict() == auto.to_dict()
    assert mplp_rs.validate_log(sa, kind="sa-log").to_dict() == auto.to_dict()
    # Read as a MAP log, an SA log is wrong on every line.
    as_map = mplp_rs.validate_log(lines, kind="map")
    assert as_map.kind == "map-log" and not as_map.valid
    assert {v.line for v in as_map.errors} >= set(range(1, len(lines) + 1))
    # The same through validate(), as the CLI does for a .ndjson file.
    assert mplp_rs.validate(sa).to_dict() == auto.to_dict()
