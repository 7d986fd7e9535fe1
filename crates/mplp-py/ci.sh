#!/usr/bin/env bash
# Builds the Python bindings as a wheel (`maturin build`), installs it into a
# fresh virtual environment, checks the stubs (`mypy --strict`, `stubtest`)
# and runs the pytest suite against the installed wheel.
# Called by .ci/run from the repository root; run it by hand the same way:
#   bash crates/mplp-py/ci.sh
# When CI is set, a missing python3 (or venv/pip) is a failure; otherwise
# the step is skipped with a loud message.
#
# The wheel is built with the dev profile into the workspace's target/debug,
# so it reuses what the main job compiled (only pyo3 and mplp-py are built
# here); the benchmarks in bench/ need a `maturin build --release` wheel.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
started=$SECONDS

missing() {
  if [ -n "${CI:-}" ]; then
    echo "mplp-py: $1 is missing, and CI is set: failing" >&2
    exit 1
  fi
  echo "!!!!!!!! mplp-py: $1 is missing: the Python bindings were NOT built or tested !!!!!!!!" >&2
  exit 0
}

command -v python3 >/dev/null 2>&1 || missing "python3"
# The tools (maturin, mypy) live in one environment, kept between runs...
tools="${MPLP_PY_VENV:-${TMPDIR:-/tmp}/mplp-py-venv}"
if [ ! -x "$tools/bin/python" ]; then
  python3 -m venv "$tools" || missing "python3's venv module"
fi
"$tools/bin/python" -m pip install --quiet --disable-pip-version-check \
  "maturin>=1.9.4,<2" || missing "pip (or the package index)"

# ...the wheel goes into a fresh one, made anew on every run.
wheels="${CARGO_TARGET_DIR:-$root/target}/py-wheels"
rm -rf "$wheels"
(cd crates/mplp-py && "$tools/bin/maturin" build --quiet --out "$wheels")
echo "mplp-py: wheel built after $((SECONDS - started)) s: $(ls "$wheels")"
fresh="${TMPDIR:-/tmp}/mplp-py-fresh-$$"
rm -rf "$fresh"
trap 'rm -rf "$fresh"' EXIT
python3 -m venv "$fresh" || missing "python3's venv module"
"$fresh/bin/python" -m pip install --quiet --disable-pip-version-check \
  "$wheels"/*.whl pytest jsonschema rfc3339-validator "mypy>=1.18" ||
  missing "pip (or the package index)"

# The stubs, against the installed package: stubtest (the stubs against
# the runtime module), and mypy --strict over the package and over
# tests/typed_use.py, which uses every class and function as a user would.
(cd "$fresh" && bin/python -m mypy.stubtest --mypy-config-file /dev/null mplp_rs)
(cd "$fresh" && bin/python -m mypy --strict --cache-dir .mypy_cache -p mplp_rs)
(cd "$fresh" && bin/python -m mypy --strict --cache-dir .mypy_cache \
  "$root/crates/mplp-py/tests/typed_use.py")
echo "mplp-py: wheel installed and stubs checked after $((SECONDS - started)) s"

# The CLI the parity tests compare with (built by the main job; built here otherwise).
if [ ! -x "${CARGO_TARGET_DIR:-$root/target}/debug/mplp" ]; then
  cargo build --quiet -p mplp-cli
fi
export MPLP_CLI="${CARGO_TARGET_DIR:-$root/target}/debug/mplp"
# From the tests' directory, so `import mplp_rs` is the installed wheel.
cd crates/mplp-py/tests
"$fresh/bin/python" -m pytest -q -p no:cacheprovider .
echo "mplp-py: done in $((SECONDS - started)) s"
