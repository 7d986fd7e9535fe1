#!/usr/bin/env bash
# Builds the Python bindings into a fresh venv and runs their pytest suite.
# Called by .ci/run from the repository root; run it by hand the same way:
#   bash crates/mplp-py/ci.sh
# When CI is set, a missing python3 (or venv/pip) is a failure; otherwise
# the step is skipped with a loud message.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

missing() {
  if [ -n "${CI:-}" ]; then
    echo "mplp-py: $1 is missing, and CI is set: failing" >&2
    exit 1
  fi
  echo "!!!!!!!! mplp-py: $1 is missing: the Python bindings were NOT built or tested !!!!!!!!" >&2
  exit 0
}

command -v python3 >/dev/null 2>&1 || missing "python3"
venv="${MPLP_PY_VENV:-${TMPDIR:-/tmp}/mplp-py-venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" || missing "python3's venv module"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "maturin>=1.9.4,<2" pytest jsonschema rfc3339-validator || missing "pip (or the package index)"
export VIRTUAL_ENV="$venv"
export PATH="$venv/bin:$PATH"
(cd crates/mplp-py && maturin develop --release --quiet)
# The CLI the parity tests compare with (built by the main job; built here otherwise).
if [ ! -x "$root/target/debug/mplp" ]; then
  cargo build --quiet -p mplp-cli
fi
export MPLP_CLI="$root/target/debug/mplp"
cd crates/mplp-py
python -m pytest -q tests
