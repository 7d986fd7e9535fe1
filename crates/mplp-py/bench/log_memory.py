#!/usr/bin/env python3
"""Measurement (not a test): peak memory of mplp_rs.validate_log on a large MAP log.

Generates a valid MAP log of about --size-mb MiB (default 1024) with
`mplp collab simulate` (one long round-robin session), then validates it in
fresh Python processes; each reports its own peak resident set size
(getrusage ru_maxrss, the figure /usr/bin/time -v prints):

  baseline   python -c "import mplp_rs"           (the interpreter and the module)
  path       mplp_rs.validate_log(path)           (the Rust reader streams the file)
  file       mplp_rs.validate_log(open(path, "rb"))  (lines pulled from a Python file)

    python crates/mplp-py/bench/log_memory.py [--size-mb 1024] [--dir /tmp] [--keep]

The CLI comes from $MPLP_CLI, else target/release/mplp or target/debug/mplp
(built with cargo when missing).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
LIMIT_MIB = 64
BYTES_PER_TURN = 850  # round_robin, 4 participants: measured, used only to size the log


def cli():
    if os.environ.get("MPLP_CLI"):
        return os.environ["MPLP_CLI"]
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "mplp"
        if path.exists():
            return str(path)
    subprocess.run(["cargo", "build", "--quiet", "-p", "mplp-cli"], cwd=REPO, check=True)
    return str(REPO / "target" / "debug" / "mplp")


def generate(path, size_mb):
    turns = size_mb * (1 << 20) // BYTES_PER_TURN
    with open(path, "wb") as out:
        subprocess.run(
            [cli(), "collab", "simulate", "--mode", "round_robin", "--participants", "4",
             "--turns", str(turns), "--seed", "7"],
            stdout=out,
            check=True,
        )
    return turns


def child(code):
    """Runs `code` in a fresh interpreter: (its output, its own peak RSS in MiB, seconds).

    The child reports getrusage(RUSAGE_SELF).ru_maxrss (KiB on Linux) as it ends:
    the high-water mark of its resident memory, as /usr/bin/time -v reports it.
    """
    code += "; import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    *lines, peak_kib = out.stdout.strip().splitlines()
    return "\n".join(lines), int(peak_kib) / 1024, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    parser.add_argument("--keep", action="store_true", help="keep the generated log")
    args = parser.parse_args()

    path = Path(args.dir) / f"mplp-memory-{args.size_mb}mb.ndjson"
    if not path.exists():
        turns = generate(path, args.size_mb)
        print(f"generated {path} ({turns} turns)")
    size = path.stat().st_size
    print(f"log: {size / (1 << 20):.0f} MiB, {sum(1 for _ in open(path, 'rb'))} lines")

    report = "r = mplp_rs.validate_log({src}); print(r.valid, len(r.errors), len(r.warnings))"
    runs = [
        ("baseline (import only)", "import mplp_rs; print('-')"),
        ("validate_log(path)", "import mplp_rs; " + report.format(src=repr(str(path)))),
        ("validate_log(open(path,'rb'))", "import mplp_rs; " + report.format(src=f"open({str(path)!r}, 'rb')")),
    ]
    print(f"\n{'run':<32}{'peak RSS MiB':>14}{'seconds':>10}{'MiB/s':>9}  result (valid errors warnings)")
    worst = 0.0
    for name, code in runs:
        out, peak, seconds = child(code)
        rate = size / (1 << 20) / seconds if out != "-" else 0
        print(f"{name:<32}{peak:14.1f}{seconds:10.1f}{rate:9.0f}  {out}")
        if out != "-":
            assert out.startswith("True 0"), f"the generated log should be valid: {out}"
            worst = max(worst, peak)
    verdict = "under" if worst < LIMIT_MIB else "OVER"
    print(f"\npeak RSS {worst:.1f} MiB for a {size / (1 << 20):.0f} MiB log: {verdict} the {LIMIT_MIB} MiB budget")
    if not args.keep:
        path.unlink()


if __name__ == "__main__":
    main()
